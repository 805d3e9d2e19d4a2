// The data the chart view draws: the TypeScript mirror of sidecar/garmin-mcp/src/apps/view.rs, the
// value the server puts in a tool result's `_meta["dev.garminmcp/view"]`. Columns, not rows.

export const VIEW_META = "dev.garminmcp/view";

export interface SeriesColumns {
  t: number[];
  distanceM?: (number | null)[];
  speedMps?: (number | null)[];
  hrBpm?: (number | null)[];
  powerW?: (number | null)[];
  elevationM?: (number | null)[];
}

export interface ActivityData {
  view: "activity";
  activityId?: number;
  name: string;
  date: string;
  speedUnit: "pace_per_km" | "pace_per_100m" | "kmh" | string;
  distanceM?: number;
  durationS?: number;
  avgHr?: number;
  recordedPoints: number;
  series?: SeriesColumns;
  laps: { distanceM: number; durationS: number }[];
  zones: { zone: number; fromBpm?: number; seconds: number }[];
}

export interface FitnessData {
  view: "fitness";
  dates: string[];
  ctl: (number | null)[];
  atl: (number | null)[];
  tsb: (number | null)[];
  convention: string;
  loadConvention?: string;
  reading?: string;
}

export interface PeriodData {
  view: "period";
  unit: string;
  sports: string[];
  activityType?: string;
  buckets: { label: string; start: string; end: string; values: number[] }[];
}

export interface MeanMaxData {
  view: "mean_max";
  metric: "power" | "hr" | "pace" | string;
  convention?: string;
  series: { label: string; seconds: number[]; values: (number | null)[] }[];
}

export type ViewData = ActivityData | FitnessData | PeriodData | MeanMaxData;

/** A tool result as the host bridge delivers it (only the parts the view reads). */
export interface ToolResult {
  content?: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
  isError?: boolean;
}

/** The view's data in a tool result, if it carries any. */
export function viewOf(result: ToolResult | null | undefined): ViewData | null {
  const data = result?._meta?.[VIEW_META];
  return data && typeof data === "object" ? (data as ViewData) : null;
}
