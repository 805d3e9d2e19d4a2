// Number and time formatting for the chart view's axes and readouts ("–" where there is no value).

const pad = (n: number) => String(n).padStart(2, "0");

/** Seconds as m:ss or h:mm:ss. */
export function clock(seconds: number | null | undefined): string {
  if (seconds == null || !Number.isFinite(seconds)) return "–";
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = s % 60;
  return h ? `${h}:${pad(m)}:${pad(r)}` : `${m}:${pad(r)}`;
}

/** A formatter with `digits` decimals. */
export const fixed =
  (digits: number) =>
  (v: number | null | undefined): string =>
    v == null || !Number.isFinite(v) ? "–" : v.toFixed(digits);

/** The smallest and largest finite value, widened when they are equal; null when there is none. */
export function extent(values: Iterable<number | null | undefined>): [number, number] | null {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v == null || !Number.isFinite(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (lo === Infinity) return null;
  return lo === hi ? [lo - 1, hi + 1] : [lo, hi];
}

/** The index of the sorted `xs` closest to `x`. */
export function nearest(xs: number[], x: number): number {
  let lo = 0;
  let hi = xs.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] < x) lo = mid;
    else hi = mid;
  }
  return Math.abs(xs[lo] - x) <= Math.abs(xs[hi] - x) ? lo : hi;
}
