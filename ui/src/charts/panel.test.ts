// The chart view's panel geometry: what a zoom keeps, where gaps break a line, which way pace goes.
// Run: `npm test` in ui/ (Vitest).
import { describe, expect, it } from "vitest";
import { nearest } from "./format";
import { geometry, scaleX, type PanelSpec } from "./panel";

const spec = (values: (number | null)[], invert = false): PanelSpec => ({
  id: "p",
  x: values.map((_, i) => i),
  xFmt: String,
  yFmt: String,
  invert,
  lines: [{ key: "v", label: "v", color: "red", values, fmt: String }],
});

describe("panel geometry", () => {
  it("draws one point per finite value in view and lifts the pen over gaps", () => {
    const g = geometry(spec([1, 2, null, 4, 5]), [0, 4], 120);
    expect(g.paths[0].points).toBe(4);
    expect(g.paths[0].d.match(/M/g)).toHaveLength(2);
  });

  it("keeps only the samples inside a zoomed range", () => {
    const g = geometry(spec([1, 2, 3, 4, 5, 6]), [2, 4], 120);
    expect(g.paths[0].points).toBe(3);
    expect(g.xTicks[0].x).toBeCloseTo(scaleX([2, 4])(2));
  });

  it("draws a larger pace value (slower) lower than a smaller one when inverted", () => {
    const y = (invert: boolean) => geometry(spec([240, 300], invert), [0, 1], 120).paths[0].d.match(/[\d.]+ ([\d.]+)/g)!;
    const [fast, slow] = y(true).map((p) => Number(p.split(" ")[1]));
    expect(slow).toBeGreaterThan(fast);
    const [low, high] = y(false).map((p) => Number(p.split(" ")[1]));
    expect(high).toBeLessThan(low);
  });

  it("finds the nearest sample of a sorted axis", () => {
    expect(nearest([0, 1, 5, 9], 4)).toBe(2);
    expect(nearest([0, 1, 5, 9], 2.9)).toBe(1);
    expect(nearest([0, 1, 5, 9], 100)).toBe(3);
  });
});
