//! The workout spec's grammar as a step editor needs it: which step types, ends and targets there
//! are, which keys mean the same thing (aliases, with the factor to the canonical unit), what a
//! field gets when the person picks it, and a plain template per sport. The desktop app's editor
//! reads this (command `workout_grammar`) instead of keeping its own lists, so the language has one
//! home: this module beside the parser, tested against it (every key the parser reads is in one
//! group, every alias scales to its canonical key, every default and template parses).

use serde::Serialize;
use serde_json::{Value, json};

use super::{MAX_REPEAT_TIMES, SpecSport, StepKind};

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
    /// A plain workout to start from, one per sport (run, bike, swim), canonical.
    pub templates: Vec<Template>,
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

    /// The value for `sport`.
    pub fn get(&self, sport: SpecSport) -> &Value {
        match sport {
            SpecSport::Run => &self.run,
            SpecSport::Bike => &self.bike,
            SpecSport::Swim => &self.swim,
        }
    }
}

/// A workout to start from.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Template {
    /// `run`, `bike` or `swim`.
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
    ]
}

#[cfg(test)]
mod tests {
    use super::super::parse::{END_FIELDS, TARGET_FIELDS};
    use super::super::parse_spec;
    use super::*;

    fn sport(name: &str) -> SpecSport {
        match name {
            "bike" => SpecSport::Bike,
            "swim" => SpecSport::Swim,
            _ => SpecSport::Run,
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
        assert_eq!(sports, ["run", "bike", "swim"]);
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
    fn every_default_and_new_step_parses_in_every_sport_and_aliases_scale_to_the_same_step() {
        let grammar = editor_grammar();
        for sport_name in ["run", "bike", "swim"] {
            let s = sport(sport_name);
            for group in grammar.ends.iter().chain(&grammar.targets) {
                let Some(default) = &group.default else { continue };
                let mut step = json!({"type": "interval"});
                step[group.keys[0].key] = default.get(s).clone();
                if group.kind == "hr" || group.kind == "pace" {
                    step["duration_s"] = json!(60);
                }
                let spec = json!({"name": "x", "sport": sport_name, "steps": [step]});
                parse_spec(&spec).unwrap_or_else(|e| panic!("{sport_name} {}: {e}", group.kind));
            }
            for step in [&grammar.new_step, &grammar.new_repeat] {
                let spec = json!({"name": "x", "sport": sport_name, "steps": [step]});
                parse_spec(&spec).unwrap_or_else(|e| panic!("{sport_name} new step: {e}"));
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
    }

    #[test]
    fn step_kinds_are_the_parsers_canonical_names_and_zones_match_its_limits() {
        let grammar = editor_grammar();
        assert_eq!(grammar.step_kinds, ["warmup", "interval", "recovery", "rest", "cooldown"]);
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
