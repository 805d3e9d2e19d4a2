// The Training view's logic, kept out of the component so it is tested: the fitness chart's data
// in the shape the shared chart component draws (src/charts, the same as the MCP App's), the
// one-line reading of the last day, how an activity is listed, and what the view shows when the
// history is empty.
import type { FitnessData } from "./charts/types";
import { clock } from "./charts/format";
import { formatDay } from "./format";
import { t, type MessageKey } from "./i18n.svelte";
import type { FitnessView, RecentActivityView, TrainingView } from "./generated/bindings";

/** What the view shows: nothing synced yet, synced activities without any load, or the chart. */
export type TrainingState = "empty" | "no-load" | "chart";

export function trainingState(view: TrainingView): TrainingState {
  if (view.fitness && view.fitness.dates.length > 0) return "chart";
  return view.recent.length > 0 ? "no-load" : "empty";
}

/** Where fitness, fatigue and form stand on the chart's last day, in the window's language. */
export function fitnessReading(fitness: FitnessView): string {
  const last = fitness.dates.length - 1;
  if (last < 0) return "";
  const signed = (v: number) => (v > 0 ? "+" : "") + v.toFixed(0);
  return t("training.reading", {
    date: formatDay(fitness.dates[last]),
    ctl: fitness.ctl[last].toFixed(0),
    atl: fitness.atl[last].toFixed(0),
    tsb: signed(fitness.tsb[last]),
  });
}

/** The fitness chart's data for the shared FitnessView component. */
export function fitnessData(fitness: FitnessView): FitnessData {
  return {
    view: "fitness",
    dates: [...fitness.dates],
    ctl: [...fitness.ctl],
    atl: [...fitness.atl],
    tsb: [...fitness.tsb],
    // The chart writes the sentences one after the other: each ends with its full stop. Why a
    // load could not be counted (no heart-rate profile, no FTP) follows what was counted.
    convention: sentence(fitness.convention),
    loadConvention: [fitness.loadConvention, ...fitness.notes].map(sentence).filter((s) => s !== "").join(" "),
    reading: fitnessReading(fitness),
  };
}

/** `text` as a sentence, with a capital first letter and a full stop (the history's conventions
 * and notes come as clauses, without either). */
function sentence(text: string): string {
  const trimmed = text.trim();
  if (trimmed === "") return trimmed;
  // "no FTP…" becomes "No FTP…"; a first word with capitals of its own ("hrTSS") stays as it is.
  const capital = /^[a-z]+(\s|$)/.test(trimmed) ? trimmed.charAt(0).toUpperCase() + trimmed.slice(1) : trimmed;
  return /[.!?。]$/.test(capital) ? capital : `${capital}.`;
}

/** The sport families the list names (Garmin has dozens of type keys). */
export type Sport = "running" | "cycling" | "swimming" | "walking" | "strength" | "other";

export function sportOf(typeKey: string | null): Sport {
  const key = typeKey ?? "";
  if (/run/.test(key)) return "running";
  if (/cycl|bik|ride/.test(key)) return "cycling";
  if (/swim/.test(key)) return "swimming";
  if (/walk|hik/.test(key)) return "walking";
  if (/strength/.test(key)) return "strength";
  return "other";
}

/** One activity of the list, its cells as read ("–" where Garmin gave no value). */
export interface ActivityRow {
  id: number;
  date: string;
  name: string;
  sport: string;
  distance: string;
  duration: string;
  heartRate: string;
  load: string;
}

export function activityRow(a: RecentActivityView): ActivityRow {
  const sport = t(`training.sport.${sportOf(a.typeKey)}` as MessageKey);
  return {
    id: a.activityId,
    date: formatDay(a.date),
    name: a.name?.trim() || sport,
    sport,
    distance: a.distanceM != null && a.distanceM > 0 ? `${(a.distanceM / 1000).toFixed(2)} km` : "–",
    duration: a.durationS != null ? clock(a.durationS) : "–",
    heartRate: a.avgHr != null ? `${Math.round(a.avgHr)} bpm` : "–",
    load: a.trainingLoad != null ? a.trainingLoad.toFixed(0) : "–",
  };
}
