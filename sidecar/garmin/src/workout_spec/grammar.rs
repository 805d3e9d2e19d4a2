//! The workout spec's grammar as a step editor needs it: which step types, ends and targets there
//! are, which keys mean the same thing (aliases, with the factor to the canonical unit), what a
//! field gets when the person picks it, and a plain template per sport; per sport (`sports`), what
//! its editor offers — exercise sports edit exercises (picked from the catalogue list named here),
//! reps and weights, HIIT its named forms, multisport its legs. The desktop app's editor reads this
//! (command `workout_grammar`) instead of keeping its own lists, so the language has one home: this
//! module beside the parser, tested against it (every key the parser reads is in one group, every
//! alias scales to its canonical key, every default, new step and template parses in its sport).

use serde::Serialize;
use serde_json::{Value, json};

#[cfg(test)]
use super::SpecStep;
use super::{GRAMS_PER_POUND, MAX_REPEAT_TIMES, SpecSport, StepKind};

/// Highest heart-rate zone a step may aim at (`hr_zone`, 1–5).
pub const HR_ZONES: u8 = 5;

/// What a step editor needs to know about the spec language.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct EditorGrammar {
    /// Types of a step to do, canonical names in the order an editor offers them (`repeat` is
    /// the other step type, edited as a group).
    pub step_kinds: Vec<&'static str>,
    /// How a step can end, in the order an editor offers them; the last group (`other`) is kept
    /// as it is but not offered. A step with no end ends at the lap button.
    pub ends: Vec<FieldGroup>,
    /// What a step can aim at: the groups an editor edits (`pace`, `hr`), then `other` (kept as
    /// they are, shown as text).
    pub targets: Vec<FieldGroup>,
    /// Heart-rate zones are 1 to this.
    pub hr_zones: u8,
    /// Most repetitions of a repeat.
    pub max_repeat_times: u32,
    /// The step "add a step" appends.
    #[cfg_attr(feature = "ts", ts(type = "Record<string, unknown>"))]
    pub new_step: Value,
    /// The repeat "add a repeat" appends.
    #[cfg_attr(feature = "ts", ts(type = "Record<string, unknown>"))]
    pub new_repeat: Value,
    /// A plain workout to start from, one per sport (every sport of `sports`), canonical.
    pub templates: Vec<Template>,
    /// What the editor offers per sport, in the order to offer the sports.
    pub sports: Vec<SportGrammar>,
    /// The weight of an exercise step: `weight_kg`, then `weight_lb` (factor to kg).
    pub weight: FieldGroup,
}

/// What the editor offers in one sport.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct SportGrammar {
    /// The spec's sport (`run`, `strength`, `multisport`…).
    pub sport: &'static str,
    /// `endurance` (run, bike, swim), `exercise` (strength, cardio, hiit, yoga, pilates, mobility)
    /// or `multisport`.
    pub family: &'static str,
    /// The step types to offer (besides repeat), canonical names.
    pub step_kinds: Vec<&'static str>,
    /// The end groups to offer (kinds of [`EditorGrammar::ends`]).
    pub ends: Vec<&'static str>,
    /// The target groups to offer (kinds of [`EditorGrammar::targets`]); empty in exercise sports.
    pub targets: Vec<&'static str>,
    /// What a group's canonical key gets when picked here, by group kind (`reps`, `time`, `weight`…).
    #[cfg_attr(feature = "ts", ts(type = "Record<string, unknown>"))]
    pub defaults: Value,
    /// Exercise sports: the catalogue list to pick from (`strength`, `yoga`, `pilates`, `mobility`),
    /// the `sport` of an exercise search.
    pub exercise_list: Option<&'static str>,
    /// HIIT's named forms (`emom`, `tabata`, `amrap`), empty elsewhere.
    pub hiit_forms: Vec<&'static str>,
    /// Multisport: the sports a leg may have.
    pub legs: Vec<&'static str>,
    /// The step "add a step" appends in this sport.
    #[cfg_attr(feature = "ts", ts(type = "Record<string, unknown>"))]
    pub new_step: Value,
    /// The repeat (a set, in exercise sports) "add a repeat" appends.
    #[cfg_attr(feature = "ts", ts(type = "Record<string, unknown>"))]
    pub new_repeat: Value,
}

/// Keys of a spec step that say one thing (an end, or a target), in their different units.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct FieldGroup {
    /// `distance`, `time`, `lap`, `other` (ends); `pace`, `hr`, `other` (targets).
    pub kind: &'static str,
    /// Every key of the group, the canonical one first.
    pub keys: Vec<FieldKey>,
    /// What the canonical key is set to when the person picks this group, per sport; `None` for
    /// `other`, which an editor keeps but does not offer.
    pub default: Option<PerSport>,
}

/// One key of a [`FieldGroup`].
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct FieldKey {
    /// The key in the spec (`distance_km`).
    pub key: &'static str,
    /// For a number: how many of the group's canonical unit one of this key is (`distance_km`:
    /// 1000 m); `None` for text (a single `pace` is shown as it is, and edited into `pace_range`).
    pub factor: Option<f64>,
}

/// A value for each sport.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PerSport {
    /// Running.
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub run: Value,
    /// Cycling.
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub bike: Value,
    /// Pool swimming.
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub swim: Value,
}

impl PerSport {
    fn same(value: Value) -> PerSport {
        PerSport { run: value.clone(), bike: value.clone(), swim: value }
    }

    /// The value for `sport` (exercise sports and multisport use the run value).
    pub fn get(&self, sport: SpecSport) -> &Value {
        match sport {
            SpecSport::Bike => &self.bike,
            SpecSport::Swim => &self.swim,
            _ => &self.run,
        }
    }
}

/// A workout to start from.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Template {
    /// The spec's sport (`run`, `strength`, `multisport`…).
    pub sport: &'static str,
    /// The spec, canonical (its `name` is English; an editor may show its own).
    #[cfg_attr(feature = "ts", ts(type = "Record<string, unknown>"))]
    pub spec: Value,
}

const STEP_KINDS: [StepKind; 5] =
    [StepKind::Warmup, StepKind::Interval, StepKind::Recovery, StepKind::Rest, StepKind::Cooldown];

fn key(key: &'static str, factor: f64) -> FieldKey {
    FieldKey { key, factor: Some(factor) }
}

fn text(key: &'static str) -> FieldKey {
    FieldKey { key, factor: None }
}

/// The grammar, built from the parser's field lists.
pub fn editor_grammar() -> EditorGrammar {
    let ends = vec![
        FieldGroup {
            kind: "distance",
            keys: vec![key("distance_m", 1.0), key("distance_km", 1000.0)],
            default: Some(PerSport { run: json!(1000), bike: json!(5000), swim: json!(100) }),
        },
        FieldGroup {
            kind: "time",
            keys: vec![key("duration_s", 1.0), key("duration_min", 60.0)],
            default: Some(PerSport::same(json!(300))),
        },
        FieldGroup {
            kind: "lap",
            keys: vec![text("lap_button")],
            default: Some(PerSport::same(json!(true))),
        },
        FieldGroup { kind: "reps", keys: vec![key("reps", 1.0)], default: Some(PerSport::same(json!(10))) },
        FieldGroup {
            kind: "other",
            keys: vec![key("calories", 1.0), key("until_hr_below", 1.0), key("until_hr_above", 1.0)],
            default: None,
        },
    ];
    let targets = vec![
        FieldGroup {
            kind: "pace",
            keys: vec![text("pace_range"), text("pace")],
            default: Some(PerSport {
                run: json!("5:00-5:30"),
                bike: json!("2:00-2:15"),
                swim: json!("1:55-2:05"),
            }),
        },
        FieldGroup { kind: "hr", keys: vec![key("hr_zone", 1.0)], default: Some(PerSport::same(json!(2))) },
        FieldGroup {
            kind: "other",
            keys: ["speed_range", "hr_range", "power_zone", "power_range", "cadence_range"]
                .into_iter()
                .map(text)
                .collect(),
            default: None,
        },
    ];
    EditorGrammar {
        step_kinds: STEP_KINDS.iter().map(|k| k.as_str()).collect(),
        ends,
        targets,
        hr_zones: HR_ZONES,
        max_repeat_times: MAX_REPEAT_TIMES,
        new_step: json!({"type": "interval", "duration_s": 300.0}),
        new_repeat: json!({"type": "repeat", "times": 4, "steps": [
            {"type": "interval", "distance_m": 400.0},
            {"type": "recovery", "duration_s": 90.0}]}),
        templates: templates(),
        sports: SpecSport::ALL.into_iter().map(sport_grammar).collect(),
        weight: FieldGroup {
            kind: "weight",
            keys: vec![key("weight_kg", 1.0), key("weight_lb", GRAMS_PER_POUND / 1000.0)],
            default: Some(PerSport::same(json!(20))),
        },
    }
}

/// What the editor offers in `sport`.
fn sport_grammar(sport: SpecSport) -> SportGrammar {
    let name = sport.as_str();
    let endurance = |distance: Value, pace: &str| SportGrammar {
        sport: name,
        family: "endurance",
        step_kinds: STEP_KINDS.iter().map(|k| k.as_str()).collect(),
        ends: vec!["distance", "time", "lap"],
        targets: vec!["pace", "hr"],
        defaults: json!({"distance": distance, "time": 300, "lap": true, "pace": pace, "hr": 2}),
        exercise_list: None,
        hiit_forms: Vec::new(),
        legs: Vec::new(),
        new_step: json!({"type": "interval", "duration_s": 300.0}),
        new_repeat: json!({"type": "repeat", "times": 4, "steps": [
            {"type": "interval", "distance_m": 400.0},
            {"type": "recovery", "duration_s": 90.0}]}),
    };
    match sport {
        SpecSport::Run => endurance(json!(1000), "5:00-5:30"),
        SpecSport::Bike => endurance(json!(5000), "2:00-2:15"),
        SpecSport::Swim => SportGrammar {
            new_repeat: json!({"type": "repeat", "times": 4, "steps": [
                {"type": "interval", "distance_m": 100.0, "stroke": "any_stroke"},
                {"type": "rest", "duration_s": 20.0}]}),
            new_step: json!({"type": "interval", "distance_m": 100.0, "stroke": "any_stroke"}),
            ..endurance(json!(100), "1:55-2:05")
        },
        SpecSport::Multisport => SportGrammar {
            family: "multisport",
            legs: vec!["run", "bike", "swim"],
            ..endurance(json!(1000), "5:00-5:30")
        },
        exercise => exercise_grammar(exercise),
    }
}

fn exercise_grammar(sport: SpecSport) -> SportGrammar {
    let list = match sport.exercise_list() {
        Some(crate::exercises::List::Yoga) => "yoga",
        Some(crate::exercises::List::Pilates) => "pilates",
        Some(crate::exercises::List::Mobility) => "mobility",
        _ => "strength",
    };
    let first = template_exercise(sport);
    SportGrammar {
        sport: sport.as_str(),
        family: "exercise",
        step_kinds: vec!["exercise", "warmup", "rest", "cooldown"],
        ends: vec!["reps", "time", "lap"],
        targets: Vec::new(),
        defaults: json!({"reps": 10, "time": 45, "lap": true, "weight": 20}),
        exercise_list: Some(list),
        hiit_forms: if sport == SpecSport::Hiit { vec!["emom", "tabata", "amrap"] } else { Vec::new() },
        legs: Vec::new(),
        new_step: json!({"type": "exercise", "exercise": first, "reps": 10}),
        new_repeat: json!({"type": "repeat", "times": 3, "steps": [
            {"type": "exercise", "exercise": first, "reps": 10},
            {"type": "rest", "duration_s": 60.0}]}),
    }
}

/// A plain exercise of the sport's list to start a step with.
fn template_exercise(sport: SpecSport) -> &'static str {
    match sport {
        SpecSport::Yoga => "POSE/DOWNWARD_FACING_DOG",
        SpecSport::Pilates => "CORE/THE_HUNDRED",
        SpecSport::Mobility => "WARM_UP/ARM_CIRCLES",
        SpecSport::Cardio => "CARDIO/JUMPING_JACKS",
        SpecSport::Hiit => "TOTAL_BODY/BURPEE",
        _ => "SQUAT/GOBLET_SQUAT",
    }
}

fn templates() -> Vec<Template> {
    vec![
        Template {
            sport: "run",
            spec: json!({"name": "Easy run", "sport": "run", "steps": [
                {"type": "warmup", "duration_s": 600.0},
                {"type": "interval", "distance_m": 5000.0, "pace_range": "5:30-6:00"},
                {"type": "cooldown", "duration_s": 600.0}]}),
        },
        Template {
            sport: "bike",
            spec: json!({"name": "Endurance ride", "sport": "bike", "steps": [
                {"type": "warmup", "duration_s": 600.0},
                {"type": "interval", "duration_s": 3600.0, "hr_zone": 2},
                {"type": "cooldown", "duration_s": 600.0}]}),
        },
        Template {
            sport: "swim",
            spec: json!({"name": "Pool intervals", "sport": "swim", "pool_length_m": 25.0, "steps": [
                {"type": "warmup", "distance_m": 200.0, "stroke": "any_stroke"},
                {"type": "repeat", "times": 8, "steps": [
                    {"type": "interval", "distance_m": 100.0, "pace_range": "1:55-2:05", "stroke": "any_stroke"},
                    {"type": "rest", "duration_s": 20.0}]},
                {"type": "cooldown", "distance_m": 100.0, "stroke": "any_stroke"}]}),
        },
        Template {
            sport: "strength",
            spec: json!({"name": "Strength", "sport": "strength", "steps": [
                {"type": "warmup", "duration_s": 300.0},
                {"type": "repeat", "times": 3, "steps": [
                    {"type": "exercise", "exercise": "SQUAT/GOBLET_SQUAT", "reps": 10, "weight_kg": 16.0},
                    {"type": "rest", "duration_s": 90.0}]},
                {"type": "exercise", "exercise": "PLANK/PLANK", "duration_s": 45.0}]}),
        },
        Template {
            sport: "cardio",
            spec: json!({"name": "Cardio", "sport": "cardio", "steps": [
                {"type": "repeat", "times": 4, "steps": [
                    {"type": "exercise", "exercise": "CARDIO/JUMPING_JACKS", "duration_s": 60.0},
                    {"type": "rest", "duration_s": 30.0}]}]}),
        },
        Template {
            sport: "hiit",
            spec: json!({"name": "HIIT", "sport": "hiit", "steps": [
                {"type": "repeat", "until_s": 600.0, "steps": [
                    {"type": "exercise", "exercise": "TOTAL_BODY/BURPEE", "reps": 10},
                    {"type": "exercise", "exercise": "PLYO/JUMP_SQUAT", "reps": 15}]}]}),
        },
        Template {
            sport: "yoga",
            spec: json!({"name": "Yoga flow", "sport": "yoga", "steps": [
                {"type": "exercise", "exercise": "POSE/MOUNTAIN", "duration_s": 60.0},
                {"type": "exercise", "exercise": "POSE/DOWNWARD_FACING_DOG", "duration_s": 60.0},
                {"type": "exercise", "exercise": "POSE/CHILDS", "duration_s": 120.0}]}),
        },
        Template {
            sport: "pilates",
            spec: json!({"name": "Pilates", "sport": "pilates", "steps": [
                {"type": "exercise", "exercise": "CORE/THE_HUNDRED", "reps": 100},
                {"type": "exercise", "exercise": "PLANK/PLANK", "duration_s": 45.0}]}),
        },
        Template {
            sport: "mobility",
            spec: json!({"name": "Mobility", "sport": "mobility", "steps": [
                {"type": "exercise", "exercise": "WARM_UP/ARM_CIRCLES", "duration_s": 60.0},
                {"type": "exercise", "exercise": "HIP_STABILITY/DEAD_BUG", "reps": 12}]}),
        },
        Template {
            sport: "multisport",
            spec: json!({"name": "Brick", "sport": "multisport", "transitions": true, "segments": [
                {"sport": "bike", "steps": [{"type": "interval", "duration_s": 2400.0}]},
                {"sport": "run", "steps": [{"type": "interval", "distance_m": 5000.0}]}]}),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::super::parse::{END_FIELDS, TARGET_FIELDS};
    use super::super::parse_spec;
    use super::*;

    fn sport(name: &str) -> SpecSport {
        SpecSport::ALL.into_iter().find(|s| s.as_str() == name).unwrap()
    }

    fn group<'a>(groups: &'a [FieldGroup], kind: &str) -> &'a FieldGroup {
        groups.iter().find(|g| g.kind == kind).unwrap_or_else(|| panic!("no group {kind}"))
    }

    /// A spec of `sport` with `steps` (multisport: one bike leg holding them).
    fn spec_of(sport_name: &str, steps: Value) -> Value {
        if sport_name == "multisport" {
            json!({"name": "x", "sport": "multisport", "segments": [
                {"sport": "bike", "steps": steps}, {"sport": "run", "steps": [{"type": "interval"}]}]})
        } else {
            json!({"name": "x", "sport": sport_name, "steps": steps})
        }
    }

    #[test]
    fn every_end_and_target_key_the_parser_reads_is_in_exactly_one_group() {
        let grammar = editor_grammar();
        let mut listed: Vec<&str> =
            grammar.ends.iter().chain(&grammar.targets).flat_map(|g| g.keys.iter().map(|k| k.key)).collect();
        listed.sort_unstable();
        let mut known = [END_FIELDS, TARGET_FIELDS].concat();
        known.sort_unstable();
        assert_eq!(listed, known);
    }

    #[test]
    fn templates_are_valid_and_already_canonical_one_per_sport() {
        let templates = editor_grammar().templates;
        let sports: Vec<&str> = templates.iter().map(|t| t.sport).collect();
        let all: Vec<&str> = SpecSport::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(sports, all);
        for template in templates {
            let parsed = parse_spec(&template.spec).unwrap_or_else(|e| panic!("{}: {e}", template.sport));
            assert_eq!(parsed.sport.as_str(), template.sport);
            assert_eq!(
                serde_json::to_value(&parsed).unwrap(),
                template.spec,
                "{} is canonical",
                template.sport
            );
        }
    }

    #[test]
    fn every_offered_end_target_weight_and_new_step_parses_in_its_sport() {
        let grammar = editor_grammar();
        let names: Vec<&str> = grammar.sports.iter().map(|s| s.sport).collect();
        assert_eq!(names, SpecSport::ALL.iter().map(|s| s.as_str()).collect::<Vec<_>>());
        for sg in &grammar.sports {
            let base = sg.new_step.clone();
            for kind in sg.ends.iter().chain(&sg.targets) {
                let g = group(if sg.ends.contains(kind) { &grammar.ends } else { &grammar.targets }, kind);
                let mut step = base.clone();
                for ends in &grammar.ends {
                    for k in &ends.keys {
                        step.as_object_mut().unwrap().remove(k.key);
                    }
                }
                step[g.keys[0].key] = sg.defaults[*kind].clone();
                if sg.targets.contains(kind) {
                    step["duration_s"] = json!(60);
                }
                parse_spec(&spec_of(sg.sport, json!([step])))
                    .unwrap_or_else(|e| panic!("{} {kind}: {e}", sg.sport));
            }
            if sg.family == "exercise" {
                let mut step = base.clone();
                step[grammar.weight.keys[0].key] = sg.defaults["weight"].clone();
                parse_spec(&spec_of(sg.sport, json!([step])))
                    .unwrap_or_else(|e| panic!("{} weight: {e}", sg.sport));
                assert!(sg.exercise_list.is_some() && sg.targets.is_empty(), "{}", sg.sport);
            }
            for step in [&sg.new_step, &sg.new_repeat] {
                parse_spec(&spec_of(sg.sport, json!([step])))
                    .unwrap_or_else(|e| panic!("{} new step: {e}", sg.sport));
            }
        }
        // An alias times its factor is the canonical key's value.
        for group in grammar.ends.iter().filter(|g| g.kind == "distance" || g.kind == "time") {
            let canonical = group.keys[0].key;
            for alias in &group.keys[1..] {
                let factor = alias.factor.unwrap();
                let with = |k: &str, v: f64| {
                    parse_spec(&json!({"name": "x", "sport": "run", "steps": [{"type": "interval", k: v}]}))
                        .unwrap()
                };
                assert_eq!(with(alias.key, 3.0), with(canonical, 3.0 * factor), "{}", alias.key);
            }
        }
        let pounds = parse_spec(&json!({"name": "x", "sport": "strength", "steps": [
            {"type": "exercise", "exercise": "SQUAT/GOBLET_SQUAT", "weight_lb": 100}]}))
        .unwrap();
        let SpecStep::Work(step) = &pounds.steps[0] else { panic!() };
        let kg = step.weight.unwrap().kg();
        assert!((kg - 100.0 * grammar.weight.keys[1].factor.unwrap()).abs() < 1e-9, "{kg}");
    }

    #[test]
    fn step_kinds_are_the_parsers_canonical_names_and_zones_match_its_limits() {
        let grammar = editor_grammar();
        assert_eq!(grammar.step_kinds, ["warmup", "interval", "recovery", "rest", "cooldown"]);
        let strength = grammar.sports.iter().find(|s| s.sport == sport("strength").as_str()).unwrap();
        assert_eq!(strength.step_kinds, ["exercise", "warmup", "rest", "cooldown"]);
        let zone = |z: u8| {
            parse_spec(&json!({"name": "x", "sport": "run", "steps": [{"type": "interval", "hr_zone": z}]}))
        };
        assert!(zone(grammar.hr_zones).is_ok() && zone(grammar.hr_zones + 1).is_err());
        let times = |n: u32| {
            parse_spec(&json!({"name": "x", "sport": "run", "steps": [
                {"type": "repeat", "times": n, "steps": [{"type": "interval"}]}]}))
        };
        assert!(times(grammar.max_repeat_times).is_ok() && times(grammar.max_repeat_times + 1).is_err());
    }
}
