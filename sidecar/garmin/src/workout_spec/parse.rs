//! Reading a spec from JSON: walks the whole value, keeps going after a problem, and reports
//! every problem once, with its path, what was expected and what was found. Aliases and units are
//! normalised here (minutes → seconds, km → m, single pace → range), so the rest of the module
//! sees one canonical form. `null` in an optional field counts as absent (some clients send every
//! optional argument as null).

use serde_json::{Map, Value};

mod exercise;
mod hiit;
mod segments;

use super::errors::{MISSING, SpecErrors, SpecProblem, describe, did_you_mean};
use super::pace::{PaceUnit, hundredths, parse_pace, split_range, to_sport_unit};
use super::{
    DEFAULT_POOL_LENGTH_M, MAX_NAME_CHARS, MAX_REPEAT_DEPTH, MAX_REPEAT_TIMES, MAX_STEPS, PACE_WIDENING_S,
    RepeatEnd, RepeatStep, SWIM_PACE_WIDENING_S, SpecSport, SpecStep, StepEnd, StepKind, StepTarget,
    SwimEquipment, SwimStroke, WorkStep, WorkoutSpec,
};

/// Fields of the workout object.
const WORKOUT_FIELDS: &[&str] =
    &["name", "sport", "description", "notes", "pool_length_m", "steps", "segments", "transitions"];
/// End fields of a step, in the order a conflict is reported.
pub(super) const END_FIELDS: &[&str] = &[
    "distance_m",
    "distance_km",
    "duration_min",
    "duration_s",
    "lap_button",
    "calories",
    "until_hr_below",
    "until_hr_above",
    "reps",
];
/// Target fields of a step.
pub(super) const TARGET_FIELDS: &[&str] = &[
    "pace",
    "pace_range",
    "speed_range",
    "hr_zone",
    "hr_range",
    "power_zone",
    "power_range",
    "cadence_range",
];
/// Other fields of a step to do.
pub(super) const WORK_FIELDS: &[&str] = &[
    "type",
    "description",
    "notes",
    "note",
    "stroke",
    "equipment",
    "exercise",
    "category",
    "weight_kg",
    "weight_lb",
];
/// Fields of a repeat step.
pub(super) const REPEAT_FIELDS: &[&str] =
    &["type", "times", "until_min", "until_s", "steps", "skip_last_rest"];
/// Every step type name the parser accepts, canonical ones first (for suggestions).
const STEP_TYPES: &[&str] = &[
    "warmup", "interval", "recovery", "rest", "cooldown", "repeat", "exercise", "emom", "tabata", "amrap",
    "run", "bike", "ride", "swim",
];
const STEP_TYPE_EXPECTED: &str = "the step's type: warmup, interval (or run), recovery, rest, cooldown, \
     repeat, or in exercise sports exercise (and in HIIT emom, tabata, amrap)";
const SPORT_EXPECTED: &str = "the sport: \"run\", \"bike\", \"swim\", \"strength\", \"cardio\", \"hiit\", \
     \"yoga\", \"pilates\", \"mobility\" or \"multisport\"";

/// Checks a workout spec and returns it in canonical form, or every problem found in it.
///
/// Never panics, whatever the JSON. See the [module documentation](super) for the language.
pub fn parse_spec(value: &Value) -> Result<WorkoutSpec, SpecErrors> {
    let mut parser = Parser::default();
    let spec = parser.workout(value);
    parser.finish(spec)
}

/// Reads one step on its own (no sport known: sport-specific checks are skipped, paces are read
/// per km and widened ±5 s). Paths are relative to the step.
pub(crate) fn parse_step_alone(value: &Value) -> Result<SpecStep, SpecErrors> {
    let mut parser = Parser::default();
    let step = parser.step(value, "", None, 0);
    parser.finish(step)
}

/// The kinds of target; a step may aim at two different kinds. The order is the primary-first
/// order: pace/speed, power, heart rate, cadence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum TargetFamily {
    Speed,
    Power,
    HeartRate,
    Cadence,
}

impl TargetFamily {
    fn of(field: &str) -> TargetFamily {
        match field {
            "power_zone" | "power_range" => TargetFamily::Power,
            "hr_zone" | "hr_range" => TargetFamily::HeartRate,
            "cadence_range" => TargetFamily::Cadence,
            _ => TargetFamily::Speed,
        }
    }

    fn name(self) -> &'static str {
        match self {
            TargetFamily::Speed => "pace/speed",
            TargetFamily::Power => "power",
            TargetFamily::HeartRate => "heart-rate",
            TargetFamily::Cadence => "cadence",
        }
    }
}

/// What a step's `type` says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TypeName {
    /// A step to do; `true` when written `exercise` (an exercise is then required).
    Work(StepKind, bool),
    Repeat,
    /// A HIIT form that expands into a repeat.
    Hiit(hiit::HiitForm),
}

#[derive(Default)]
pub(super) struct Parser {
    problems: Vec<SpecProblem>,
    /// Problems found past [`MAX_PROBLEMS`], counted but not listed.
    more_problems: usize,
    /// Steps met so far, repeats and the steps inside them included.
    pub(super) steps_seen: usize,
}

/// Most problems listed one by one; a spec with more gets "and N more" so the answer stays small.
const MAX_PROBLEMS: usize = 20;

pub(super) fn join(path: &str, key: &str) -> String {
    if path.is_empty() { key.to_owned() } else { format!("{path}.{key}") }
}

/// A present, non-null field.
pub(super) fn field<'a>(obj: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    obj.get(key).filter(|v| !v.is_null())
}

/// Lower case with spaces, dashes and underscores removed, for lenient name matching.
pub(super) fn squash(text: &str) -> String {
    text.trim().chars().filter(|c| !matches!(c, ' ' | '-' | '_')).flat_map(char::to_lowercase).collect()
}

impl Parser {
    pub(super) fn push(
        &mut self,
        path: impl Into<String>,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) {
        if self.problems.len() < MAX_PROBLEMS {
            self.problems.push(SpecProblem::new(path, expected, found));
        } else {
            self.more_problems += 1;
        }
    }

    fn finish<T>(mut self, parsed: Option<T>) -> Result<T, SpecErrors> {
        if self.more_problems > 0 {
            self.problems.push(SpecProblem::new(
                "",
                "a spec with fewer mistakes",
                format!("{} more problems like the ones above (fix those first)", self.more_problems),
            ));
        }
        match parsed {
            Some(value) if self.problems.is_empty() => Ok(value),
            _ if self.problems.is_empty() => Err(SpecErrors(vec![SpecProblem::new(
                "",
                "a valid workout spec",
                "something the parser could not read",
            )])),
            _ => Err(SpecErrors(self.problems)),
        }
    }

    pub(super) fn problems_len(&self) -> usize {
        self.problems.len() + self.more_problems
    }

    /// Moves the last problem to `path` (a value read by a shared reader reports its own path).
    pub(super) fn relocate_last(&mut self, path: &str) {
        if let Some(last) = self.problems.last_mut() {
            last.path = path.to_owned();
        }
    }

    pub(super) fn unknown(&mut self, path: &str, key: &str, known: &[&str], what: &str) {
        let expected = match did_you_mean(key, known) {
            Some(close) => format!("a known {what} field (did you mean \"{close}\"?)"),
            None => format!("a known {what} field: {}", known.join(", ")),
        };
        self.push(path, expected, format!("unknown field \"{key}\""));
    }

    // ------------------------------------------------------------------ workout

    fn workout(&mut self, value: &Value) -> Option<WorkoutSpec> {
        let Some(obj) = value.as_object() else {
            self.push(
                "",
                "a JSON object with \"name\", \"sport\" and \"steps\", e.g. {\"name\": \"800m x4\", \
                 \"sport\": \"run\", \"steps\": [...]}",
                describe(value),
            );
            return None;
        };
        for key in obj.keys().filter(|k| !WORKOUT_FIELDS.contains(&k.as_str())) {
            let step_field = END_FIELDS.contains(&key.as_str())
                || TARGET_FIELDS.contains(&key.as_str())
                || ["type", "times", "stroke", "equipment", "exercise", "weight_kg", "weight_lb"]
                    .contains(&key.as_str());
            if step_field {
                self.push(
                    key.clone(),
                    "a workout field (name, sport, description, pool_length_m, steps; segments and \
                     transitions in multisport): step fields go on a step inside \"steps\"",
                    format!("the step field \"{key}\""),
                );
            } else {
                self.unknown(key, key, WORKOUT_FIELDS, "workout");
            }
        }
        let name = self.name(obj.get("name"));
        let sport = self.sport(obj.get("sport"));
        let description = self.text_pair(obj, "");
        let pool = self.pool_length(obj, sport, "");
        if sport == Some(SpecSport::Multisport) {
            let (segments, transitions) = self.multisport(obj);
            return Some(WorkoutSpec {
                name: name?,
                sport: SpecSport::Multisport,
                description,
                pool_length_m: None,
                steps: Vec::new(),
                segments: segments?,
                transitions: Some(transitions),
            });
        }
        for key in ["segments", "transitions"] {
            if let Some(value) = field(obj, key) {
                self.push(
                    key,
                    "no segments or transitions: they are for sport \"multisport\"",
                    describe(value),
                );
            }
        }
        let steps = self.steps(obj.get("steps"), "steps", sport, 0);
        Some(WorkoutSpec {
            name: name?,
            sport: sport?,
            description,
            pool_length_m: pool,
            steps: steps?,
            segments: Vec::new(),
            transitions: None,
        })
    }

    fn name(&mut self, value: Option<&Value>) -> Option<String> {
        let expected = format!("a workout name of 1-{MAX_NAME_CHARS} characters, e.g. \"800m x4\"");
        match value {
            None => self.push("name", expected, MISSING),
            Some(Value::String(text)) => {
                let name = text.trim();
                let chars = name.chars().count();
                if chars == 0 {
                    self.push("name", expected, describe(&Value::String(text.clone())));
                } else if chars > MAX_NAME_CHARS {
                    self.push(
                        "name",
                        format!("at most {MAX_NAME_CHARS} characters (Garmin cuts longer names)"),
                        format!("a name of {chars} characters"),
                    );
                } else {
                    return Some(name.to_owned());
                }
            }
            Some(other) => self.push("name", expected, describe(other)),
        }
        None
    }

    pub(super) fn sport(&mut self, value: Option<&Value>) -> Option<SpecSport> {
        let Some(value) = value else {
            self.push("sport", SPORT_EXPECTED, MISSING);
            return None;
        };
        let Some(text) = value.as_str() else {
            self.push("sport", SPORT_EXPECTED, describe(value));
            return None;
        };
        match squash(text).as_str() {
            "run" | "running" | "jog" | "trailrun" | "trailrunning" => Some(SpecSport::Run),
            "bike" | "cycling" | "cycle" | "ride" | "biking" | "bicycle" => Some(SpecSport::Bike),
            "swim" | "swimming" | "poolswim" | "poolswimming" => Some(SpecSport::Swim),
            "strength" | "strengthtraining" | "weights" | "weighttraining" | "gym" => {
                Some(SpecSport::Strength)
            }
            "cardio" | "cardiotraining" => Some(SpecSport::Cardio),
            "hiit" => Some(SpecSport::Hiit),
            "yoga" => Some(SpecSport::Yoga),
            "pilates" => Some(SpecSport::Pilates),
            "mobility" => Some(SpecSport::Mobility),
            "multisport" | "multi" | "triathlon" | "duathlon" | "brick" => Some(SpecSport::Multisport),
            other => {
                let known = [
                    "run",
                    "bike",
                    "swim",
                    "running",
                    "cycling",
                    "swimming",
                    "strength",
                    "cardio",
                    "hiit",
                    "yoga",
                    "pilates",
                    "mobility",
                    "multisport",
                    "triathlon",
                ];
                let expected = match did_you_mean(other, &known) {
                    Some(close) => format!("{SPORT_EXPECTED} (did you mean \"{close}\"?)"),
                    None => format!(
                        "{SPORT_EXPECTED}; Garmin has no other workout sports (walks are \"run\" steps)"
                    ),
                };
                self.push("sport", expected, describe(value));
                None
            }
        }
    }

    /// `description` or its aliases `notes`, `note` (one of them); blank text counts as absent.
    pub(super) fn text_pair(&mut self, obj: &Map<String, Value>, path: &str) -> Option<String> {
        let mut seen = false;
        let mut text = None;
        for key in ["description", "notes", "note"] {
            let Some(value) = field(obj, key) else { continue };
            let here = join(path, key);
            match value.as_str() {
                Some(_) if seen => self.push(
                    here,
                    "one of \"description\", \"notes\" or \"note\" (they are the same field), not several",
                    describe(value),
                ),
                Some(given) => {
                    seen = true;
                    text = Some(given.trim().to_owned()).filter(|t| !t.is_empty());
                }
                None => self.push(here, "text shown on the watch, e.g. \"easy, relaxed\"", describe(value)),
            }
        }
        text
    }

    pub(super) fn pool_length(
        &mut self,
        obj: &Map<String, Value>,
        sport: Option<SpecSport>,
        path: &str,
    ) -> Option<f64> {
        let here = join(path, "pool_length_m");
        let given = match field(obj, "pool_length_m") {
            None => None,
            Some(value) if sport == Some(SpecSport::Multisport) => {
                self.push(
                    here,
                    "the pool length on the swim segment, not on the multisport workout",
                    describe(value),
                );
                None
            }
            Some(value) if sport.is_some_and(|s| s != SpecSport::Swim) => {
                self.push(here, "no pool length: it is for swim workouts only", describe(value));
                None
            }
            Some(value) => {
                self.number(value, &here, "the pool length in metres, 10-200, e.g. 25 or 50", 10.0, 200.0)
            }
        };
        (sport == Some(SpecSport::Swim)).then(|| given.map_or(DEFAULT_POOL_LENGTH_M, hundredths))
    }

    pub(super) fn steps(
        &mut self,
        value: Option<&Value>,
        path: &str,
        sport: Option<SpecSport>,
        depth: usize,
    ) -> Option<Vec<SpecStep>> {
        let expected = "a non-empty array of steps, e.g. [{\"type\": \"warmup\", \"duration_min\": 10}]";
        match value {
            None => self.push(path, expected, MISSING),
            Some(Value::Array(items)) if items.is_empty() => self.push(path, expected, "an empty array"),
            Some(Value::Array(items)) => {
                let before = self.steps_seen;
                self.steps_seen = self.steps_seen.saturating_add(items.len());
                if self.steps_seen > MAX_STEPS {
                    if before <= MAX_STEPS {
                        self.push(
                            path,
                            format!(
                                "at most {MAX_STEPS} steps in the whole workout, repeats and the steps inside \
                                 them included (Garmin Connect and the watches take no more): use a repeat \
                                 for rounds instead of writing them out"
                            ),
                            format!("more than {MAX_STEPS} steps"),
                        );
                    }
                    return None;
                }
                let steps: Vec<Option<SpecStep>> = items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| self.step(item, &format!("{path}[{i}]"), sport, depth))
                    .collect();
                return steps.into_iter().collect();
            }
            Some(other) => self.push(path, expected, describe(other)),
        }
        None
    }

    // ------------------------------------------------------------------ steps

    pub(super) fn step(
        &mut self,
        value: &Value,
        path: &str,
        sport: Option<SpecSport>,
        depth: usize,
    ) -> Option<SpecStep> {
        let Some(obj) = value.as_object() else {
            self.push(
                path,
                "a step object, e.g. {\"type\": \"interval\", \"distance_m\": 800, \"pace\": \"5:00\"}",
                describe(value),
            );
            return None;
        };
        let before = self.problems.len();
        let type_name = self.type_name(obj.get("type"), &join(path, "type"));
        let repeat = match type_name {
            Some(TypeName::Repeat) => true,
            Some(TypeName::Work(..)) => false,
            Some(TypeName::Hiit(form)) => {
                let step = self.hiit(form, obj, path, sport, depth).map(SpecStep::Repeat);
                return if self.problems.len() > before { None } else { step };
            }
            None => obj.contains_key("times") || obj.contains_key("steps"),
        };
        let step = if repeat {
            self.repeat(obj, path, sport, depth).map(SpecStep::Repeat)
        } else {
            let kind = match type_name {
                Some(TypeName::Work(kind, exercise)) => Some((kind, exercise)),
                _ => None,
            };
            self.work(obj, path, sport, kind).map(SpecStep::Work)
        };
        if self.problems.len() > before { None } else { step }
    }

    fn type_name(&mut self, value: Option<&Value>, path: &str) -> Option<TypeName> {
        let Some(value) = value else {
            self.push(path, STEP_TYPE_EXPECTED, MISSING);
            return None;
        };
        let Some(text) = value.as_str() else {
            self.push(path, STEP_TYPE_EXPECTED, describe(value));
            return None;
        };
        let kind = match squash(text).as_str() {
            "warmup" => StepKind::Warmup,
            "interval" | "run" | "bike" | "ride" | "swim" | "work" => StepKind::Interval,
            "exercise" | "set" | "pose" | "move" => return Some(TypeName::Work(StepKind::Interval, true)),
            "recovery" | "recover" => StepKind::Recovery,
            "rest" => StepKind::Rest,
            "cooldown" => StepKind::Cooldown,
            "repeat" | "sets" | "superset" | "circuit" => return Some(TypeName::Repeat),
            "emom" => return Some(TypeName::Hiit(hiit::HiitForm::Emom)),
            "tabata" => return Some(TypeName::Hiit(hiit::HiitForm::Tabata)),
            "amrap" => return Some(TypeName::Hiit(hiit::HiitForm::Amrap)),
            other => {
                let expected = match did_you_mean(other, STEP_TYPES) {
                    Some(close) => format!("{STEP_TYPE_EXPECTED} (did you mean \"{close}\"?)"),
                    None => STEP_TYPE_EXPECTED.to_owned(),
                };
                self.push(path, expected, describe(value));
                return None;
            }
        };
        Some(TypeName::Work(kind, false))
    }

    pub(super) fn repeat(
        &mut self,
        obj: &Map<String, Value>,
        path: &str,
        sport: Option<SpecSport>,
        depth: usize,
    ) -> Option<RepeatStep> {
        let all_step_fields: Vec<&str> = [WORK_FIELDS, END_FIELDS, TARGET_FIELDS]
            .concat()
            .into_iter()
            .chain(REPEAT_FIELDS.iter().copied())
            .collect();
        for (key, value) in obj.iter().filter(|(k, _)| !REPEAT_FIELDS.contains(&k.as_str())) {
            if all_step_fields.contains(&key.as_str()) {
                self.push(
                    join(path, key),
                    "only type, times (or until_min / until_s), steps and skip_last_rest on a repeat: put \
                     ends, targets, exercises and descriptions on the steps inside it",
                    describe(value),
                );
            } else {
                self.unknown(&join(path, key), key, REPEAT_FIELDS, "repeat");
            }
        }
        let end = self.repeat_end(obj, path, sport);
        let skip_last_rest = match field(obj, "skip_last_rest") {
            None => false,
            Some(Value::Bool(b)) => *b,
            Some(other) => {
                self.push(join(path, "skip_last_rest"), "true or false", describe(other));
                false
            }
        };
        if depth + 1 > MAX_REPEAT_DEPTH {
            self.push(
                path,
                "at most one repeat inside another (deeper nesting is not known to work with Garmin): \
                 write the inner rounds out instead",
                format!("a repeat inside {depth} repeats"),
            );
            return None;
        }
        let steps = self.steps(obj.get("steps"), &join(path, "steps"), sport, depth + 1);
        Some(RepeatStep { end: end?, steps: steps?, skip_last_rest })
    }

    /// `times`, or (HIIT) `until_min` / `until_s`: exactly one.
    fn repeat_end(
        &mut self,
        obj: &Map<String, Value>,
        path: &str,
        sport: Option<SpecSport>,
    ) -> Option<RepeatEnd> {
        let until: Vec<(&str, &Value)> =
            ["until_min", "until_s"].into_iter().filter_map(|k| field(obj, k).map(|v| (k, v))).collect();
        match (field(obj, "times"), until.as_slice()) {
            (None, []) => {
                let expected = if sport == Some(SpecSport::Hiit) {
                    "how many times to repeat, 1-99 (or until_min: repeat until a time is up)"
                } else {
                    "how many times to repeat, 1-99"
                };
                self.push(join(path, "times"), expected, MISSING);
                None
            }
            (Some(value), []) => self
                .whole(
                    value,
                    &join(path, "times"),
                    "how many times to repeat, a whole number 1-99",
                    1,
                    MAX_REPEAT_TIMES.into(),
                )
                .and_then(|n| u32::try_from(n).ok())
                .map(RepeatEnd::Times),
            (None, [(key, value)]) => self.repeat_until(key, value, path, sport),
            (_, [.., (key, value)]) => {
                self.push(
                    join(path, key),
                    "one of times, until_min or until_s: a repeat ends after a number of rounds or when a time is up",
                    describe(value),
                );
                None
            }
        }
    }

    /// `until_min` / `until_s`: Garmin's time-bounded repeat, which only its HIIT editor makes.
    pub(super) fn repeat_until(
        &mut self,
        key: &str,
        value: &Value,
        path: &str,
        sport: Option<SpecSport>,
    ) -> Option<RepeatEnd> {
        let here = join(path, key);
        if sport.is_some_and(|s| s != SpecSport::Hiit) {
            self.push(
                here,
                "times (a repeat until a time is up is Garmin's HIIT form: use sport \"hiit\")",
                describe(value),
            );
            return None;
        }
        let seconds = if key == "until_min" {
            self.number(value, &here, "minutes to keep repeating, 1 s to 4 h, e.g. 20", 1.0 / 60.0, 240.0)?
                * 60.0
        } else {
            self.number(value, &here, "seconds to keep repeating, 1-14400, e.g. 1200", 1.0, 14_400.0)?
        };
        Some(RepeatEnd::Until { seconds: hundredths(seconds) })
    }

    fn work(
        &mut self,
        obj: &Map<String, Value>,
        path: &str,
        sport: Option<SpecSport>,
        kind: Option<(StepKind, bool)>,
    ) -> Option<WorkStep> {
        for (key, value) in obj.iter() {
            let key = key.as_str();
            if WORK_FIELDS.contains(&key) || END_FIELDS.contains(&key) || TARGET_FIELDS.contains(&key) {
                continue;
            }
            if REPEAT_FIELDS.contains(&key) {
                self.push(
                    join(path, key),
                    "\"times\", \"steps\" and \"skip_last_rest\" only on a step of type \"repeat\"",
                    describe(value),
                );
            } else {
                let known = [WORK_FIELDS, END_FIELDS, TARGET_FIELDS].concat();
                self.unknown(&join(path, key), key, &known, "step");
            }
        }
        let description = self.text_pair(obj, path);
        let end = self.end(obj, path, sport);
        let (target, secondary_target) = self.targets(obj, path, sport);
        let exercise = self.exercise(obj, path, sport, kind);
        let named = field(obj, "exercise").is_some() || field(obj, "category").is_some();
        let weight = self.weight(obj, path, sport, named);
        let stroke = self.swim_choice(obj, path, sport, "stroke", parse_stroke, STROKE_NAMES, STROKE_WORDS);
        let equipment = self.swim_choice(
            obj,
            path,
            sport,
            "equipment",
            parse_equipment,
            EQUIPMENT_NAMES,
            EQUIPMENT_WORDS,
        );
        let (kind, _) = kind?;
        let stroke = match stroke {
            None if sport == Some(SpecSport::Swim) && kind != StepKind::Rest => Some(SwimStroke::AnyStroke),
            other => other,
        };
        Some(WorkStep {
            kind,
            end: end?,
            target: target?,
            secondary_target: secondary_target?,
            stroke,
            equipment,
            description,
            exercise: exercise?,
            weight: weight?,
        })
    }

    /// The step's one end; a step without one ends at the lap button.
    fn end(&mut self, obj: &Map<String, Value>, path: &str, sport: Option<SpecSport>) -> Option<StepEnd> {
        let mut chosen: Option<(&str, Option<StepEnd>)> = None;
        let mut lap_button_false = false;
        for &key in END_FIELDS {
            let Some(value) = field(obj, key) else { continue };
            if key == "lap_button" && *value == Value::Bool(false) {
                lap_button_false = true;
                continue;
            }
            if let Some((first, _)) = chosen {
                self.push(
                    join(path, key),
                    format!("one end per step: this step already ends by \"{first}\""),
                    describe(value),
                );
                continue;
            }
            let end = if self.end_fits_sport(key, value, &join(path, key), sport) {
                self.end_value(key, value, &join(path, key))
            } else {
                None
            };
            chosen = Some((key, end));
        }
        match chosen {
            Some((_, end)) => end,
            None if lap_button_false => {
                self.push(
                    join(path, "lap_button"),
                    "true, or another end instead (distance_m, distance_km, duration_min, duration_s, \
                     calories, until_hr_below, until_hr_above)",
                    "false",
                );
                None
            }
            None => Some(StepEnd::LapButton),
        }
    }

    /// Reps only in exercise sports; calories and heart-rate ends not there (Garmin's exercise
    /// editors offer reps, time, distance and the lap button).
    fn end_fits_sport(&mut self, key: &str, value: &Value, path: &str, sport: Option<SpecSport>) -> bool {
        let Some(sport) = sport else { return true };
        let exercise = sport.is_exercise_sport();
        if key == "reps" && !exercise {
            self.push(
                path,
                "a distance, a duration or the lap button (reps are for exercise steps in strength, cardio, \
                 hiit, yoga, pilates and mobility workouts)",
                describe(value),
            );
            return false;
        }
        if exercise && matches!(key, "calories" | "until_hr_below" | "until_hr_above") {
            self.push(
                path,
                format!(
                    "reps, a duration, a distance or the lap button (a {} step does not end by {key})",
                    sport.as_str()
                ),
                describe(value),
            );
            return false;
        }
        true
    }

    fn end_value(&mut self, key: &str, value: &Value, path: &str) -> Option<StepEnd> {
        match key {
            "reps" => self
                .whole(value, path, "repetitions, a whole number 1-999, e.g. 8", 1, super::MAX_REPS.into())
                .and_then(|n| u32::try_from(n).ok())
                .map(|count| StepEnd::Reps { count }),
            "distance_m" => self
                .number(value, path, "a distance in metres, 1-1000000, e.g. 800", 1.0, 1_000_000.0)
                .map(|meters| StepEnd::Distance { meters: hundredths(meters) }),
            "distance_km" => self
                .number(value, path, "a distance in km, 0.001-1000, e.g. 1.5", 0.001, 1000.0)
                .map(|km| StepEnd::Distance { meters: hundredths(km * 1000.0) }),
            "duration_min" => self
                .number(value, path, "a duration in minutes, 1 s to 24 h, e.g. 10 or 1.5", 1.0 / 60.0, 1440.0)
                .map(|minutes| StepEnd::Time { seconds: hundredths(minutes * 60.0) }),
            "duration_s" => self
                .number(value, path, "a duration in seconds, 1-86400, e.g. 90", 1.0, 86_400.0)
                .map(|seconds| StepEnd::Time { seconds: hundredths(seconds) }),
            "lap_button" => match value {
                Value::Bool(true) => Some(StepEnd::LapButton),
                other => {
                    self.push(path, "true (end at the lap button)", describe(other));
                    None
                }
            },
            "calories" => self
                .whole(value, path, "kilocalories, a whole number 1-10000", 1, 10_000)
                .and_then(|kcal| u16::try_from(kcal).ok())
                .map(|kcal| StepEnd::Calories { kcal }),
            "until_hr_below" | "until_hr_above" => {
                let bpm = self
                    .whole(value, path, "a heart rate in bpm, a whole number 30-250", 30, 250)
                    .and_then(|bpm| u16::try_from(bpm).ok())?;
                Some(if key == "until_hr_below" {
                    StepEnd::HeartRateBelow { bpm }
                } else {
                    StepEnd::HeartRateAbove { bpm }
                })
            }
            _ => None,
        }
    }

    /// Primary and secondary target. The outer `Option` is `None` when a target was invalid.
    #[allow(
        clippy::type_complexity,
        reason = "primary and secondary, each absent or invalid: a named type would hide the two layers"
    )]
    fn targets(
        &mut self,
        obj: &Map<String, Value>,
        path: &str,
        sport: Option<SpecSport>,
    ) -> (Option<Option<StepTarget>>, Option<Option<StepTarget>>) {
        if let Some(sport) = sport.filter(|s| s.is_exercise_sport()) {
            return self.no_targets(obj, path, sport);
        }
        let mut found: Vec<(TargetFamily, &str, StepTarget)> = Vec::new();
        let mut first_of_family: Vec<(TargetFamily, &str)> = Vec::new();
        let mut ok = true;
        for &key in TARGET_FIELDS {
            let Some(value) = field(obj, key) else { continue };
            let here = join(path, key);
            let family = TargetFamily::of(key);
            if sport == Some(SpecSport::Swim)
                && key != "pace"
                && key != "pace_range"
                && family != TargetFamily::HeartRate
            {
                self.push(
                    here,
                    "no power, cadence or speed targets in swims: use pace or pace_range (per 100 m) or a \
                     heart-rate target",
                    describe(value),
                );
                ok = false;
                continue;
            }
            if let Some((_, first)) = first_of_family.iter().find(|(f, _)| *f == family) {
                self.push(
                    here,
                    format!("one {} target per step: this step already has \"{first}\"", family.name()),
                    describe(value),
                );
                ok = false;
                continue;
            }
            if first_of_family.len() == 2 {
                let names: Vec<&str> = first_of_family.iter().map(|(_, k)| *k).collect();
                self.push(
                    here,
                    format!(
                        "at most two targets per step (a primary and a secondary): this step already has \
                         \"{}\" and \"{}\"",
                        names[0], names[1]
                    ),
                    describe(value),
                );
                ok = false;
                continue;
            }
            first_of_family.push((family, key));
            match self.target_value(key, value, &here, sport) {
                Some(target) => found.push((family, key, target)),
                None => ok = false,
            }
        }
        if !ok {
            return (None, None);
        }
        found.sort_by_key(|(family, _, _)| *family);
        let mut targets = found.into_iter().map(|(_, _, t)| t);
        (Some(targets.next()), Some(targets.next()))
    }

    /// Exercise sports take no targets: each one given is a problem.
    #[allow(clippy::type_complexity, reason = "the same two layers as `targets`, whose answer this mirrors")]
    fn no_targets(
        &mut self,
        obj: &Map<String, Value>,
        path: &str,
        sport: SpecSport,
    ) -> (Option<Option<StepTarget>>, Option<Option<StepTarget>>) {
        let mut ok = true;
        for &key in TARGET_FIELDS {
            if let Some(value) = field(obj, key) {
                self.push(
                    join(path, key),
                    format!(
                        "no pace, power, cadence or heart-rate target on a {} step (Garmin keeps none: its \
                         exercise steps have \"no target\"); put the intent in \"note\"",
                        sport.as_str()
                    ),
                    describe(value),
                );
                ok = false;
            }
        }
        if ok { (Some(None), Some(None)) } else { (None, None) }
    }

    fn target_value(
        &mut self,
        key: &str,
        value: &Value,
        path: &str,
        sport: Option<SpecSport>,
    ) -> Option<StepTarget> {
        let swim = sport == Some(SpecSport::Swim);
        match key {
            "pace" => {
                let expected = pace_expected(swim, "a pace");
                let Some(text) = value.as_str() else {
                    self.push(path, expected, describe(value));
                    return None;
                };
                let widen = if swim { SWIM_PACE_WIDENING_S } else { PACE_WIDENING_S };
                let pace = parse_pace(text).and_then(|(s, unit)| to_sport_unit(s, unit, swim));
                // Both widened bounds must be paces a range could hold too.
                let fits = |p: f64| pace_in_limits(p - widen, swim) && pace_in_limits(p + widen, swim);
                let Some(pace) = pace.filter(|p| fits(*p)) else {
                    self.push(path, expected, describe(value));
                    return None;
                };
                Some(StepTarget::Pace {
                    fastest_s: hundredths(pace - widen),
                    slowest_s: hundredths(pace + widen),
                })
            }
            "pace_range" => {
                let expected = pace_expected(swim, "a pace range");
                let Some((a, b)) = pace_range(value, swim) else {
                    self.push(path, expected, describe(value));
                    return None;
                };
                Some(StepTarget::Pace { fastest_s: hundredths(a.min(b)), slowest_s: hundredths(a.max(b)) })
            }
            "speed_range" => {
                let (low, high) = self.range(
                    value,
                    path,
                    "a speed range in km/h \"low-high\", 1-150, e.g. \"28-32\"",
                    1.0,
                    150.0,
                    false,
                )?;
                Some(StepTarget::Speed { low_kmh: low, high_kmh: high })
            }
            "hr_zone" => {
                let zone = self.whole(value, path, "a heart-rate zone, a whole number 1-5", 1, 5)?;
                Some(StepTarget::HeartRateZone { zone: u8::try_from(zone).ok()? })
            }
            "hr_range" => {
                let (low, high) = self.range(
                    value,
                    path,
                    "a heart-rate range in bpm \"low-high\", whole numbers 30-250, e.g. \"150-165\"",
                    30.0,
                    250.0,
                    true,
                )?;
                Some(StepTarget::HeartRate { low_bpm: low as u16, high_bpm: high as u16 })
            }
            "power_zone" => {
                let zone = self.whole(value, path, "a power zone, a whole number 1-7", 1, 7)?;
                Some(StepTarget::PowerZone { zone: u8::try_from(zone).ok()? })
            }
            "power_range" => {
                let (low, high) = self.range(
                    value,
                    path,
                    "a power range in watts \"low-high\", whole numbers 1-3000, e.g. \"200-250\"",
                    1.0,
                    3000.0,
                    true,
                )?;
                Some(StepTarget::Power { low_w: low as u16, high_w: high as u16 })
            }
            "cadence_range" => {
                let (low, high) = self.range(
                    value,
                    path,
                    "a cadence range \"low-high\" (rpm, or steps per minute running), whole numbers 1-300, \
                     e.g. \"85-95\"",
                    1.0,
                    300.0,
                    true,
                )?;
                Some(StepTarget::Cadence { low: low as u16, high: high as u16 })
            }
            _ => None,
        }
    }

    /// `stroke` or `equipment`: swims only, one of the known `names` (or an alias; `words` are
    /// every accepted spelling, for suggestions).
    #[allow(
        clippy::too_many_arguments,
        reason = "one parser for both swim choices: the key, its names and their spellings differ"
    )]
    fn swim_choice<T>(
        &mut self,
        obj: &Map<String, Value>,
        path: &str,
        sport: Option<SpecSport>,
        key: &str,
        parse: fn(&str) -> Option<T>,
        names: &[&str],
        words: &[&str],
    ) -> Option<T> {
        let value = field(obj, key)?;
        let here = join(path, key);
        if sport.is_some_and(|s| s != SpecSport::Swim) {
            self.push(here, format!("no {key}: it is for swim workouts only"), describe(value));
            return None;
        }
        let parsed = value.as_str().and_then(parse);
        if parsed.is_none() {
            let suggestion = value.as_str().and_then(|t| did_you_mean(&squash(t), words));
            let expected = match suggestion {
                Some(close) => format!("one of {} (did you mean \"{close}\"?)", names.join(", ")),
                None => format!("one of {}", names.join(", ")),
            };
            self.push(here, expected, describe(value));
        }
        parsed
    }

    // ------------------------------------------------------------------ values

    pub(super) fn number(
        &mut self,
        value: &Value,
        path: &str,
        expected: &str,
        min: f64,
        max: f64,
    ) -> Option<f64> {
        match value.as_f64().filter(|n| n.is_finite() && (min..=max).contains(n)) {
            Some(n) => Some(n),
            None => {
                self.push(path, expected, describe(value));
                None
            }
        }
    }

    pub(super) fn whole(
        &mut self,
        value: &Value,
        path: &str,
        expected: &str,
        min: u64,
        max: u64,
    ) -> Option<u64> {
        let n = value.as_f64().filter(|n| n.fract() == 0.0 && *n >= min as f64 && *n <= max as f64);
        match n {
            Some(n) => Some(n as u64),
            None => {
                self.push(path, expected, describe(value));
                None
            }
        }
    }

    /// A `"low-high"` text (units after the numbers are ignored) or `[low, high]`, either order.
    fn range(
        &mut self,
        value: &Value,
        path: &str,
        expected: &str,
        min: f64,
        max: f64,
        whole: bool,
    ) -> Option<(f64, f64)> {
        let sides = match value {
            Value::String(text) => {
                let numbers =
                    text.trim().trim_end_matches(|c: char| c.is_alphabetic() || c == '/' || c == ' ');
                split_range(numbers).and_then(|(a, b)| Some((a.parse::<f64>().ok()?, b.parse::<f64>().ok()?)))
            }
            Value::Array(items) if items.len() == 2 => items[0].as_f64().zip(items[1].as_f64()),
            _ => None,
        };
        let fits = |n: f64| n.is_finite() && (min..=max).contains(&n) && (!whole || n.fract() == 0.0);
        match sides.filter(|(a, b)| fits(*a) && fits(*b)) {
            Some((a, b)) => Some((hundredths(a.min(b)), hundredths(a.max(b)))),
            None => {
                self.push(path, expected, describe(value));
                None
            }
        }
    }
}

fn pace_expected(swim: bool, what: &str) -> String {
    let range = what.ends_with("range");
    match (swim, range) {
        (true, false) => format!("{what} \"m:ss\" per 100 m, 0:22-9:58, e.g. \"1:45\""),
        (true, true) => format!("{what} \"m:ss-m:ss\" per 100 m, 0:20-10:00, e.g. \"1:40-1:50\""),
        (false, false) => format!("{what} \"m:ss\" per km, 1:05-29:55, e.g. \"5:00\" (or \"8:00/mi\")"),
        (false, true) => format!("{what} \"m:ss-m:ss\" per km, 1:00-30:00, e.g. \"4:50-5:10\""),
    }
}

/// Whether a pace (s per km, or per 100 m in swims) is one a person could hold.
fn pace_in_limits(seconds: f64, swim: bool) -> bool {
    let (min, max) = if swim { (20.0, 600.0) } else { (60.0, 1800.0) };
    seconds.is_finite() && (min..=max).contains(&seconds)
}

/// Both sides of a pace range in the sport's unit; a unit written once at the end applies to both.
fn pace_range(value: &Value, swim: bool) -> Option<(f64, f64)> {
    let (a, b) = match value {
        Value::String(text) => {
            let (a, b) = split_range(text)?;
            (parse_pace(a)?, parse_pace(b)?)
        }
        Value::Array(items) if items.len() == 2 => {
            (parse_pace(items[0].as_str()?)?, parse_pace(items[1].as_str()?)?)
        }
        _ => return None,
    };
    let unit_a = if a.1 == PaceUnit::Default { b.1 } else { a.1 };
    let a = to_sport_unit(a.0, unit_a, swim)?;
    let b = to_sport_unit(b.0, b.1, swim)?;
    (pace_in_limits(a, swim) && pace_in_limits(b, swim)).then_some((a, b))
}

const STROKE_NAMES: &[&str] =
    &["any_stroke", "free", "backstroke", "breaststroke", "fly", "drill", "individual_medley"];
const EQUIPMENT_NAMES: &[&str] = &["fins", "kickboard", "paddles", "pull_buoy", "snorkel"];
/// Every spelling `parse_stroke` accepts (squashed), for suggestions.
const STROKE_WORDS: &[&str] = &[
    "anystroke",
    "free",
    "freestyle",
    "backstroke",
    "breaststroke",
    "butterfly",
    "fly",
    "drill",
    "medley",
    "individualmedley",
    "back",
    "breast",
    "crawl",
    "mixed",
];
/// Every spelling `parse_equipment` accepts (squashed), for suggestions.
const EQUIPMENT_WORDS: &[&str] = &["fins", "flippers", "kickboard", "paddles", "pullbuoy", "buoy", "snorkel"];

fn parse_stroke(text: &str) -> Option<SwimStroke> {
    Some(match squash(text).as_str() {
        "any" | "anystroke" | "mixed" | "choice" => SwimStroke::AnyStroke,
        "free" | "freestyle" | "frontcrawl" | "crawl" => SwimStroke::Free,
        "back" | "backstroke" => SwimStroke::Backstroke,
        "breast" | "breaststroke" => SwimStroke::Breaststroke,
        "fly" | "butterfly" => SwimStroke::Fly,
        "drill" | "drills" => SwimStroke::Drill,
        "im" | "individualmedley" | "medley" => SwimStroke::IndividualMedley,
        _ => return None,
    })
}

fn parse_equipment(text: &str) -> Option<SwimEquipment> {
    Some(match squash(text).as_str() {
        "fins" | "fin" | "flippers" => SwimEquipment::Fins,
        "kickboard" | "board" => SwimEquipment::Kickboard,
        "paddles" | "paddle" | "handpaddles" => SwimEquipment::Paddles,
        "pullbuoy" | "buoy" | "pull" => SwimEquipment::PullBuoy,
        "snorkel" => SwimEquipment::Snorkel,
        _ => return None,
    })
}
