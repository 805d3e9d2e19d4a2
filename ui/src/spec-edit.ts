// Editing a workout spec step by step with the grammar Rust serves (`workout_grammar`, from
// garmin::workout_spec): which group of keys a step uses for its end and its target, reading a
// value through an alias (distance_km → metres), and picking a group with its default. The UI keeps
// no key, alias, default or template of its own: these functions only apply the grammar.
import { workoutGrammar, type EditorGrammar, type FieldGroup, type WorkoutSpec } from "./api";

/** One step of a spec as the editor edits it in place. */
export type Step = Record<string, unknown>;

/** The sports the grammar has defaults and templates for. */
export type SportName = "run" | "bike" | "swim";

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
export function sportOf(spec: WorkoutSpec): SportName {
  return spec.sport === "bike" || spec.sport === "swim" ? spec.sport : "run";
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
 * Switches the step to the group of `kind` with its default for `sport`, after dropping the keys of
 * `clear` (every end, since a step has one; only the offered targets, so another target stays).
 */
export function pick(step: Step, clear: readonly FieldGroup[], kind: string, sport: SportName): void {
  for (const group of clear) for (const { key } of group.keys) delete step[key];
  const chosen = groupNamed(clear, kind);
  if (chosen?.default) setValue(step, chosen, chosen.default[sport]);
}

/** Switches the step's end to `kind` (`distance`, `time`, `lap`). */
export function pickEnd(step: Step, grammar: EditorGrammar, kind: string, sport: SportName): void {
  pick(step, grammar.ends, kind, sport);
}

/** Switches the step's target to `kind` (`pace`, `hr`, or `none`); targets the editor does not offer stay. */
export function pickTarget(step: Step, grammar: EditorGrammar, kind: string, sport: SportName): void {
  pick(step, offered(grammar.targets), kind, sport);
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

/** A fresh step or repeat to append. */
export function newStep(grammar: EditorGrammar, repeat: boolean): Step {
  return structuredClone(repeat ? grammar.newRepeat : grammar.newStep);
}
