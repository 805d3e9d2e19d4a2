// Applying the workout grammar Rust serves: the real grammar (written by the desktop crate's
// typescript test next to the generated types) drives every function here.
import { describe, expect, it } from "vitest";
import type { EditorGrammar } from "./api";
import grammarJson from "./generated/workout-grammar.json";
import {
  amount,
  endKind,
  exerciseOf,
  exerciseWords,
  groupNamed,
  legsOf,
  newExercise,
  newLeg,
  newStep,
  offeredIn,
  otherTargets,
  pickEnd,
  pickTarget,
  setExercise,
  setValue,
  setWeight,
  sportGrammar,
  sportOf,
  switchWeightUnit,
  targetKind,
  templateFor,
  textOf,
  weightOf,
  type Step,
} from "./spec-edit";

const grammar = grammarJson as unknown as EditorGrammar;
const distance = groupNamed(grammar.ends, "distance")!;
const time = groupNamed(grammar.ends, "time")!;
const pace = groupNamed(grammar.targets, "pace")!;

describe("reading a step", () => {
  it("finds the end and target kinds, a step without an end ending at the lap button", () => {
    expect(endKind({ type: "interval", distance_km: 1 }, grammar)).toBe("distance");
    expect(endKind({ type: "interval", duration_min: 5 }, grammar)).toBe("time");
    expect(endKind({ type: "interval", until_hr_below: 120 }, grammar)).toBe("other");
    expect(endKind({ type: "warmup" }, grammar)).toBe("lap");
    expect(targetKind({ pace: "5:00" }, grammar)).toBe("pace");
    expect(targetKind({ hr_zone: 2 }, grammar)).toBe("hr");
    expect(targetKind({ power_zone: 4 }, grammar)).toBe("other");
    expect(targetKind({}, grammar)).toBe("none");
  });

  it("reads an alias in the canonical unit and writes back the canonical key only", () => {
    const step: Step = { type: "interval", distance_km: 1.5 };
    expect(amount(step, distance)).toBe(1500);
    setValue(step, distance, 800);
    expect(step).toEqual({ type: "interval", distance_m: 800 });
    expect(amount({ duration_min: 2 }, time)).toBe(120);
    const paced: Step = { pace: "5:00" };
    expect(textOf(paced, pace)).toBe("5:00");
    setValue(paced, pace, "4:50-5:10");
    expect(paced).toEqual({ pace_range: "4:50-5:10" });
  });

  it("shows the targets it does not edit as text", () => {
    expect(otherTargets({ power_zone: 4, cadence_range: "85-95", hr_zone: 2 }, grammar)).toBe(
      "power_zone 4, cadence_range 85-95",
    );
  });
});

describe("picking an end or a target", () => {
  it("replaces any end with the picked one and its default for the sport", () => {
    const step: Step = { type: "interval", duration_min: 5 };
    pickEnd(step, grammar, "distance", "swim");
    expect(step).toEqual({ type: "interval", distance_m: distance.default!.swim });
    pickEnd(step, grammar, "lap", "run");
    expect(step).toEqual({ type: "interval", lap_button: true });
  });

  it("keeps a target the editor does not offer, and none removes the offered ones", () => {
    const step: Step = { type: "interval", power_zone: 3, hr_zone: 2 };
    pickTarget(step, grammar, "pace", "run");
    expect(step).toEqual({ type: "interval", power_zone: 3, pace_range: pace.default!.run });
    pickTarget(step, grammar, "none", "run");
    expect(step).toEqual({ type: "interval", power_zone: 3 });
  });

  it("gives a swim its own pace per 100 m", () => {
    const step: Step = { type: "interval" };
    pickTarget(step, grammar, "pace", sportOf({ sport: "swim" }));
    expect(step.pace_range).toBe(pace.default!.swim);
    expect(pace.default!.swim).not.toBe(pace.default!.run);
  });
});

describe("templates and new steps", () => {
  it("copies the template for each sport with the window's name, never sharing it", () => {
    for (const sport of ["run", "bike", "swim"] as const) {
      const spec = templateFor(grammar, sport, "Mine");
      expect([spec.name, spec.sport]).toEqual(["Mine", sport]);
      (spec.steps as Step[]).push({ type: "rest" });
      expect(templateFor(grammar, sport, "x").steps).not.toEqual(spec.steps);
    }
  });

  it("appends fresh steps and repeats", () => {
    const a = newStep(grammar, false);
    a.type = "rest";
    expect(newStep(grammar, false).type).not.toBe("rest");
    expect(newStep(grammar, true).type).toBe("repeat");
  });

  it("reads an unknown sport as running", () => {
    expect([sportOf({}), sportOf({ sport: "bike" }), sportOf({ sport: "rowing" })]).toEqual(["run", "bike", "run"]);
  });
});

describe("exercise sports", () => {
  it("offers exercises, reps, time and the lap button but no targets, from the sport's own list", () => {
    const strength = sportGrammar(grammar, "strength");
    expect(strength.family).toBe("exercise");
    expect(strength.exerciseList).toBe("strength");
    expect(offeredIn(grammar.ends, strength.ends).map((g) => g.kind)).toEqual(["reps", "time", "lap"]);
    expect(strength.targets).toEqual([]);
    expect(sportGrammar(grammar, "yoga").exerciseList).toBe("yoga");
    expect(sportGrammar(grammar, "hiit").hiitForms).toEqual(["emom", "tabata", "amrap"]);
    expect(sportOf({ sport: "pilates" }, grammar)).toBe("pilates");
    expect(sportOf({ sport: "rowing" }, grammar)).toBe("run");
  });

  it("switches an exercise step to reps with the sport's default, dropping its time", () => {
    const step: Step = { type: "exercise", exercise: "PLANK/PLANK", duration_s: 45 };
    pickEnd(step, grammar, "reps", "strength");
    expect(step).toEqual({ type: "exercise", exercise: "PLANK/PLANK", reps: sportGrammar(grammar, "strength").defaults.reps });
    expect(endKind(step, grammar)).toBe("reps");
  });

  it("names an exercise by its key, a category by itself, and picks one from the catalogue", () => {
    expect(exerciseWords("BENCH_PRESS/INCLINE_DUMBBELL_BENCH_PRESS")).toBe("Incline dumbbell bench press");
    expect(exerciseWords("PLANK/_90_DEGREE_STATIC_HOLD")).toBe("90 degree static hold");
    const step: Step = { type: "exercise", category: "SHOULDER_PRESS", reps: 8 };
    expect(exerciseOf(step)).toBe("SHOULDER_PRESS");
    setExercise(step, "ROW/FACE_PULL");
    expect(step).toEqual({ type: "exercise", exercise: "ROW/FACE_PULL", reps: 8 });
  });

  it("keeps the weight in the unit chosen and converts it through the grammar's factor", () => {
    const step: Step = { type: "exercise", exercise: "BENCH_PRESS/BARBELL_BENCH_PRESS", reps: 8 };
    expect(weightOf(step, grammar)).toBeNull();
    setWeight(step, grammar, 60, "weight_kg");
    expect(weightOf(step, grammar)).toEqual({ value: 60, key: "weight_kg" });
    switchWeightUnit(step, grammar, "weight_lb");
    expect(step).toEqual({ type: "exercise", exercise: "BENCH_PRESS/BARBELL_BENCH_PRESS", reps: 8, weight_lb: 132.5 });
    switchWeightUnit(step, grammar, "weight_kg");
    expect(step.weight_kg).toBe(60);
    setWeight(step, grammar, 0, "weight_kg");
    expect(weightOf(step, grammar)).toBeNull();
  });

  it("adds sets of an exercise and its rest, and exercises for a superset", () => {
    const set = newStep(grammar, true, "strength");
    expect(set.type).toBe("repeat");
    const inner = set.steps as Step[];
    expect(inner.map((s) => s.type)).toEqual(["exercise", "rest"]);
    inner.push(newExercise(grammar, "strength"));
    expect(exerciseOf(inner[2]!)).toBe(exerciseOf(inner[0]!));
    expect(exerciseOf(newExercise(grammar, "yoga"))).toMatch(/^POSE\//);
  });
});

describe("multisport", () => {
  it("edits legs of run, bike and swim, each starting from its sport's plain step", () => {
    const multisport = sportGrammar(grammar, "multisport");
    expect(multisport.family).toBe("multisport");
    expect(multisport.legs).toEqual(["run", "bike", "swim"]);
    const brick = templateFor(grammar, "multisport", "Brick");
    expect(legsOf(brick).map((l) => l.sport)).toEqual(["bike", "run"]);
    expect(brick.transitions).toBe(true);
    const swim = newLeg(grammar, "swim");
    expect(swim.sport).toBe("swim");
    expect((swim.steps as Step[])[0]!.stroke).toBe("any_stroke");
    expect(legsOf({ sport: "run", steps: [] })).toEqual([]);
  });

  it("has a template for every sport the grammar offers", () => {
    for (const { sport } of grammar.sports) {
      expect(templateFor(grammar, sport, "x").sport).toBe(sport);
    }
  });
});
