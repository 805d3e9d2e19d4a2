// The geometry of one line panel: scales, grid ticks and the SVG path of each line, for the part of
// the x axis in view. Pure functions, so the components only draw what these compute.

import { extent } from "./format";

export interface Line {
  key: string;
  label: string;
  color: string;
  values: (number | null | undefined)[];
  fmt(v: number | null | undefined): string;
}

export interface PanelSpec {
  id: string;
  x: number[];
  xFmt(v: number): string;
  yFmt(v: number): string;
  /** Draw larger values lower (pace: faster is higher). */
  invert?: boolean;
  zeroLine?: boolean;
  height?: number;
  lines: Line[];
}

export const WIDTH = 640;
export const PAD_LEFT = 44;
export const PAD_RIGHT = 10;

/** Maps x in data units to the SVG's x for `domain`. */
export function scaleX(domain: [number, number]) {
  const [x0, x1] = domain;
  return (x: number) => PAD_LEFT + ((x - x0) / (x1 - x0 || 1)) * (WIDTH - PAD_LEFT - PAD_RIGHT);
}

/** The inverse of [`scaleX`]. */
export function unscaleX(domain: [number, number]) {
  const [x0, x1] = domain;
  return (px: number) => x0 + ((px - PAD_LEFT) / (WIDTH - PAD_LEFT - PAD_RIGHT)) * (x1 - x0);
}

export interface Geometry {
  yTicks: { y: number; label: string }[];
  xTicks: { x: number; label: string }[];
  zeroY: number | null;
  paths: { key: string; color: string; d: string; points: number }[];
}

/** What one panel draws for the x range `domain`. */
export function geometry(spec: PanelSpec, domain: [number, number], height: number): Geometry {
  const [x0, x1] = domain;
  const sx = scaleX(domain);
  const inView = (i: number) => spec.x[i] >= x0 && spec.x[i] <= x1;
  const shown = spec.lines.flatMap((l) => l.values.filter((_, i) => inView(i)));
  const [y0, y1] = extent(shown) ?? [0, 1];
  const sy = (y: number) => {
    const f = (y - y0) / (y1 - y0 || 1);
    return spec.invert ? 6 + f * (height - 24) : height - 18 - f * (height - 24);
  };
  const yTicks = [0, 1, 2, 3].map((k) => {
    const y = y0 + ((y1 - y0) * k) / 3;
    return { y: sy(y), label: spec.yFmt(y) };
  });
  const xTicks = [0, 1, 2, 3, 4].map((k) => {
    const x = x0 + ((x1 - x0) * k) / 4;
    return { x: sx(x), label: spec.xFmt(x) };
  });
  const paths = spec.lines.map((line) => {
    let d = "";
    let points = 0;
    let pen = false;
    for (let i = 0; i < spec.x.length; i++) {
      const v = line.values[i];
      if (!inView(i) || v == null || !Number.isFinite(v)) {
        pen = false;
        continue;
      }
      d += `${pen ? "L" : "M"}${sx(spec.x[i]).toFixed(1)} ${sy(v).toFixed(1)}`;
      pen = true;
      points++;
    }
    return { key: line.key, color: line.color, d, points };
  });
  const zeroY = spec.zeroLine && y0 < 0 && y1 > 0 ? sy(0) : null;
  return { yTicks, xTicks, zeroY, paths };
}
