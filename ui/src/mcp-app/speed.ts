// An activity's speed as the view shows it: pace per km or per 100 m (swimming), or km/h.

import { clock } from "../charts/format";

/** `mps` in the activity's unit; null when standing still (pace would be endless). */
export function inUnit(unit: string, mps: number | null | undefined): number | null {
  if (mps == null || !(mps > 0.3)) return null;
  if (unit === "kmh") return mps * 3.6;
  return (unit === "pace_per_100m" ? 100 : 1000) / mps;
}

/** A value in the activity's unit, as read. */
export function formatInUnit(unit: string, v: number | null | undefined): string {
  if (v == null) return "–";
  if (unit === "kmh") return `${v.toFixed(1)} km/h`;
  return clock(v) + (unit === "pace_per_100m" ? " /100m" : " /km");
}
