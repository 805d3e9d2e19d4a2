// Unit tests of the Training view's logic (training.ts): the chart's data for the shared chart
// component, the reading of the last day, how activities are listed and the empty states.
// Run: `npm --prefix ui test` (vitest.config.ts pins the zone to UTC).
import { afterEach, describe, expect, it } from "vitest";
import type { FitnessView, RecentActivityView, TrainingView } from "./generated/bindings";
import { setLocale } from "./i18n.svelte";
import { activityRow, fitnessData, fitnessReading, sportOf, trainingState } from "./training";

const FITNESS: FitnessView = {
  dates: ["2026-11-13", "2026-11-14", "2026-11-15"],
  ctl: [40.2, 41.0, 41.6],
  atl: [55.5, 60.1, 52.4],
  tsb: [-12.1, -15.3, -19.1],
  convention: "Banister/Coggan PMC: … TSB = yesterday's CTL − ATL …",
  loadConvention: "Garmin's training load per session",
  loadScale: "garmin",
  notes: [],
  settling: false,
};

const RUN: RecentActivityView = {
  activityId: 7,
  date: "2026-11-14",
  name: "Morning Run",
  typeKey: "trail_running",
  distanceM: 10_234,
  durationS: 3_125,
  avgHr: 151.6,
  trainingLoad: 88.4,
};

const HISTORY = {
  exists: true,
  firstDay: "2025-11-17",
  lastDay: "2026-11-14",
  activities: 1,
  days: 363,
  lastSyncedAt: "2026-11-15T08:00:00Z",
  path: "/data/history.sqlite3",
};

function view(parts: Partial<TrainingView>): TrainingView {
  return { demo: false, history: HISTORY, fitness: null, recent: [], ...parts };
}

afterEach(() => setLocale("en"));

describe("what the Training view shows", () => {
  it("says nothing is synced when the history holds no activity", () => {
    expect(trainingState(view({ history: { ...HISTORY, exists: false, activities: 0 } }))).toBe("empty");
  });

  it("lists activities without a chart when none has a training load", () => {
    expect(trainingState(view({ recent: [RUN] }))).toBe("no-load");
  });

  it("draws the chart when the history gives fitness days", () => {
    expect(trainingState(view({ fitness: FITNESS, recent: [RUN] }))).toBe("chart");
    expect(trainingState(view({ fitness: { ...FITNESS, dates: [], ctl: [], atl: [], tsb: [] } }))).toBe("empty");
  });
});

describe("the fitness chart's data", () => {
  it("is the shared chart component's fitness data, with the convention named", () => {
    const data = fitnessData(FITNESS);
    expect(data.view).toBe("fitness");
    expect(data.dates).toEqual(FITNESS.dates);
    expect([data.ctl, data.atl, data.tsb]).toEqual([FITNESS.ctl, FITNESS.atl, FITNESS.tsb]);
    // Written one after the other under the chart, each sentence ends with its full stop.
    expect(data.convention).toBe(`${FITNESS.convention}.`);
    expect(data.loadConvention).toBe(`${FITNESS.loadConvention}.`);
    expect(fitnessData({ ...FITNESS, convention: "Done." }).convention).toBe("Done.");
    // What kept a load from being counted follows, each its own sentence.
    const noted = fitnessData({ ...FITNESS, loadScale: "tss", loadConvention: "hrTSS per session", notes: ["no FTP, so no power TSS"] });
    expect(noted.loadConvention).toBe("hrTSS per session. No FTP, so no power TSS.");
    expect(data.dates).not.toBe(FITNESS.dates);
  });

  it("reads the last day in the window's language, form signed", () => {
    expect(fitnessReading(FITNESS)).toBe("On Nov 15, 2026: fitness (CTL) 42, fatigue (ATL) 52, form (TSB) -19.");
    expect(fitnessReading({ ...FITNESS, tsb: [0, 0, 4.6] })).toContain("form (TSB) +5");
    setLocale("zh");
    expect(fitnessReading(FITNESS)).toBe("2026年11月15日：体能 (CTL) 42，疲劳 (ATL) 52，状态 (TSB) -19。");
  });

  it("has no reading without days", () => {
    expect(fitnessReading({ ...FITNESS, dates: [], ctl: [], atl: [], tsb: [] })).toBe("");
  });
});

describe("an activity in the list", () => {
  it("shows distance in km, time as h:mm:ss or m:ss, heart rate and load", () => {
    expect(activityRow(RUN)).toEqual({
      id: 7,
      date: "Nov 14, 2026",
      name: "Morning Run",
      sport: "Running",
      distance: "10.23 km",
      duration: "52:05",
      heartRate: "152 bpm",
      load: "88",
    });
  });

  it("names the sport when Garmin gave no name, and a dash for what it did not record", () => {
    const strength = activityRow({
      ...RUN,
      name: null,
      typeKey: "strength_training",
      distanceM: 0,
      durationS: null,
      avgHr: null,
      trainingLoad: null,
    });
    expect(strength).toMatchObject({ name: "Strength", distance: "–", duration: "–", heartRate: "–", load: "–" });
    setLocale("zh");
    expect(activityRow({ ...RUN, name: "  ", typeKey: "road_biking" }).name).toBe("骑行");
  });

  it("groups Garmin's type keys into the sports the list names", () => {
    expect(["running", "treadmill_running", "lap_swimming", "road_biking", "hiking", "yoga", null].map(sportOf)).toEqual([
      "running",
      "running",
      "swimming",
      "cycling",
      "walking",
      "other",
      "other",
    ]);
  });
});
