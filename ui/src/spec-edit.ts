// Editing a workout spec step by step with the grammar Rust serves (`workout_grammar`, from
// garmin::workout_spec): which group of keys a step uses for its end and its target, reading a
// value through an alias (distance_km → metres), and picking a group with its default; per sport,
// what its editor offers (exercise sports: exercises, reps, weights in kg or lb, sets and supersets;
// multisport: legs). The UI keeps no key, alias, default or template of its own: these functions
// only apply the grammar.
import { workoutGrammar, type EditorGrammar, type FieldGroup, type SportGrammar, type WorkoutSpec } from "./api";

/** One step of a spec as the editor edits it in place. */
export type Step = Record<string, unknown>;

/** A spec sport the grammar describes (`run`, `strength`, `multisport`…). */
export type SportName = string;

let grammar: Promise<EditorGrammar> | null = null;

/** The grammar, asked of Rust once per window (asked again after a failure). */
export function loadGrammar(): Promise<EditorGrammar> {
  grammar ??= workoutGrammar().catch((error: unknown) => {
    grammar = null;
    throw error;
  });
  return grammar;
}

function present(step: Step, key: string): boolean {
  return step[key] !== undefined && step[key] !== null;
}

/** The spec's sport as the grammar names it (`run` for anything it does not know). */
export function sportOf(spec: WorkoutSpec, grammar?: EditorGrammar): SportName {
  const named = typeof spec.sport === "string" ? spec.sport : "";
  if (grammar) return grammar.sports.some((s) => s.sport === named) ? named : "run";
  return ["bike", "swim"].includes(named) ? named : "run";
}

/** What the editor offers in `sport` (the run grammar for a sport the grammar does not know). */
export function sportGrammar(grammar: EditorGrammar, sport: SportName): SportGrammar {
  const found = grammar.sports.find((s) => s.sport === sport) ?? grammar.sports.find((s) => s.sport === "run");
  if (!found) throw new Error("the workout grammar describes no sport");
  return found;
}

/** The groups of `groups` the sport offers, in the sport's order. */
export function offeredIn(groups: readonly FieldGroup[], kinds: readonly string[]): FieldGroup[] {
  return kinds.flatMap((kind) => groups.filter((g) => g.kind === kind));
}

/** The first of `groups` with a key present in `step`, or null. */
export function groupOf(step: Step, groups: readonly FieldGroup[]): FieldGroup | null {
  return groups.find((group) => group.keys.some(({ key }) => present(step, key))) ?? null;
}

/** The kind of the step's end (`distance`, `time`, `lap`, `other`); no end is the lap button. */
export function endKind(step: Step, grammar: EditorGrammar): string {
  return groupOf(step, grammar.ends)?.kind ?? "lap";
}

/** The kind of the step's target (`pace`, `hr`, `other`), or `none`. */
export function targetKind(step: Step, grammar: EditorGrammar): string {
  return groupOf(step, grammar.targets)?.kind ?? "none";
}

/** The group of `kind`, if the grammar has one. */
export function groupNamed(groups: readonly FieldGroup[], kind: string): FieldGroup | null {
  return groups.find((group) => group.kind === kind) ?? null;
}

/** The groups the person may pick (those with a default), in the grammar's order. */
export function offered(groups: readonly FieldGroup[]): FieldGroup[] {
  return groups.filter((group) => group.default !== null);
}

/** The group's number in its canonical unit, read through whichever key the step uses (0 if none). */
export function amount(step: Step, group: FieldGroup): number {
  for (const { key, factor } of group.keys) {
    if (present(step, key)) return Number(step[key]) * (factor ?? 1);
  }
  return 0;
}

/** The group's value as text, read through whichever key the step uses ("" if none). */
export function textOf(step: Step, group: FieldGroup): string {
  const key = group.keys.find(({ key }) => present(step, key))?.key;
  return key === undefined ? "" : String(step[key]);
}

/** Sets the group's canonical key to `value`, dropping its other keys (aliases). */
export function setValue(step: Step, group: FieldGroup, value: unknown): void {
  for (const { key } of group.keys) delete step[key];
  const canonical = group.keys[0];
  if (canonical) step[canonical.key] = value;
}

/**
 * Switches the step to the group of `kind` with the sport's default for it, after dropping the keys
 * of `clear` (every end, since a step has one; only the offered targets, so another target stays).
 */
export function pick(
  step: Step,
  clear: readonly FieldGroup[],
  kind: string,
  defaults: Record<string, unknown>,
): void {
  for (const group of clear) for (const { key } of group.keys) delete step[key];
  const chosen = groupNamed(clear, kind);
  if (chosen?.default && kind in defaults) setValue(step, chosen, defaults[kind]);
}

/** Switches the step's end to `kind` (`distance`, `time`, `lap`, `reps`). */
export function pickEnd(step: Step, grammar: EditorGrammar, kind: string, sport: SportName): void {
  pick(step, grammar.ends, kind, sportGrammar(grammar, sport).defaults);
}

/** Switches the step's target to `kind` (`pace`, `hr`, or `none`); targets the editor does not offer stay. */
export function pickTarget(step: Step, grammar: EditorGrammar, kind: string, sport: SportName): void {
  pick(step, offered(grammar.targets), kind, sportGrammar(grammar, sport).defaults);
}

// ---- exercise sports ----

/** The step's exercise as the spec names it (`BENCH_PRESS/BARBELL_BENCH_PRESS`, or a category), or "". */
export function exerciseOf(step: Step): string {
  if (typeof step.exercise === "string") return step.exercise;
  return typeof step.category === "string" ? step.category : "";
}

/** A Garmin key in words: `BENCH_PRESS/INCLINE_DUMBBELL_BENCH_PRESS` → `Incline dumbbell bench press`. */
export function exerciseWords(key: string): string {
  const name = key.includes("/") ? key.slice(key.indexOf("/") + 1) : key;
  const words = name.replace(/^_/, "").replaceAll("_", " ").toLowerCase().trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : "";
}

/** Sets the step's exercise to a catalogue key (dropping a generic category). */
export function setExercise(step: Step, key: string): void {
  delete step.category;
  step.exercise = key;
}

/** The step's weight: its amount and unit key (`weight_kg` or `weight_lb`), or null. */
export function weightOf(step: Step, grammar: EditorGrammar): { value: number; key: string } | null {
  const key = grammar.weight.keys.find(({ key }) => present(step, key))?.key;
  return key === undefined ? null : { value: Number(step[key]), key };
}

/** Sets the weight in the unit `key` (null or 0 removes it). */
export function setWeight(step: Step, grammar: EditorGrammar, value: number | null, key: string): void {
  for (const { key: k } of grammar.weight.keys) delete step[k];
  if (value !== null && Number.isFinite(value) && value > 0) step[key] = value;
}

/** Writes the weight in the other unit, converted through the grammar's factors (to 0.5). */
export function switchWeightUnit(step: Step, grammar: EditorGrammar, key: string): void {
  const current = weightOf(step, grammar);
  if (!current || current.key === key) return;
  const factor = (k: string) => grammar.weight.keys.find((w) => w.key === k)?.factor ?? 1;
  const kg = current.value * factor(current.key);
  setWeight(step, grammar, Math.round((kg / factor(key)) * 2) / 2, key);
}

/** A fresh exercise step of `sport` (the sport's own "add a step"). */
export function newExercise(grammar: EditorGrammar, sport: SportName): Step {
  return structuredClone(sportGrammar(grammar, sport).newStep);
}

// ---- multisport ----

/** A multisport spec's legs (an empty list for other sports). */
export function legsOf(spec: WorkoutSpec): Step[] {
  return Array.isArray(spec.segments) ? (spec.segments as Step[]) : [];
}

/** A new leg of `sport` with that sport's plain step. */
export function newLeg(grammar: EditorGrammar, sport: SportName): Step {
  return { sport, steps: [structuredClone(sportGrammar(grammar, sport).newStep)] };
}

/** The targets the editor keeps but does not edit, as `key value` text ("" if none). */
export function otherTargets(step: Step, grammar: EditorGrammar): string {
  return grammar.targets
    .filter((group) => group.default === null)
    .flatMap((group) => group.keys.filter(({ key }) => present(step, key)))
    .map(({ key }) => `${key} ${String(step[key])}`)
    .join(", ");
}

/** A fresh copy of the grammar's template for `sport`, named `name`. */
export function templateFor(grammar: EditorGrammar, sport: SportName, name: string): WorkoutSpec {
  const template = grammar.templates.find((t) => t.sport === sport) ?? grammar.templates[0];
  return { ...structuredClone(template?.spec ?? {}), name };
}

/** A fresh step or repeat (a set, in exercise sports) to append in `sport` (default: run's). */
export function newStep(grammar: EditorGrammar, repeat: boolean, sport?: SportName): Step {
  if (sport === undefined) return structuredClone(repeat ? grammar.newRepeat : grammar.newStep);
  const sg = sportGrammar(grammar, sport);
  return structuredClone(repeat ? sg.newRepeat : sg.newStep);
}
