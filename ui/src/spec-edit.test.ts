// Applying the workout grammar Rust serves: the real grammar (written by the desktop crate's
// typescript test next to the generated types) drives every function here.
import { describe, expect, it } from "vitest";
import type { EditorGrammar } from "./api";
import grammarJson from "./generated/workout-grammar.json";
import {
  amount,
  endKind,
  groupNamed,
  newStep,
  otherTargets,
  pickEnd,
  pickTarget,
  setValue,
  sportOf,
  targetKind,
  templateFor,
  textOf,
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
