// Dates as people read them: "12 Mar 2026, 14:05" and "in 40 minutes" / "3 hours ago", in the
// system's locale.

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["day", 86_400],
  ["hour", 3_600],
  ["minute", 60],
];

/** An ISO timestamp as a local date and time. */
export function formatDateTime(iso: string): string {
  return dateTime.format(new Date(iso));
}

/** An ISO timestamp relative to `now`, e.g. "in 40 minutes", "3 days ago", "now". */
export function formatRelative(iso: string, now: Date = new Date()): string {
  const seconds = Math.round((new Date(iso).getTime() - now.getTime()) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.trunc(seconds / size), unit);
  }
  return relative.format(0, "second");
}
