//! Run: `cargo test -p garmin --test workout_spec spec_json::`.
//!
//! The spec's own JSON: the canonical form a parsed spec serialises to (what the desktop editor
//! receives), aliases and normalisation, the lap-button default, and (with `--features schema`)
//! the JSON schema MCP clients see for one step.

use garmin::workout_spec::{
    SpecSport, SpecStep, StepEnd, StepKind, StepTarget, SwimStroke, WorkStep, parse_spec,
};
use serde_json::json;

use super::common::{issue_example, spec};

#[test]
fn parsed_specs_serialise_to_the_canonical_form_and_back() {
    let parsed = spec(issue_example());
    let canonical = serde_json::to_value(&parsed).unwrap();
    assert_eq!(
        canonical,
        json!({"name": "800m x4", "sport": "run", "steps": [
            {"type": "warmup", "duration_s": 600.0},
            {"type": "repeat", "times": 4, "steps": [
                {"type": "interval", "distance_m": 800.0, "pace_range": "4:55-5:05"},
                {"type": "recovery", "duration_s": 120.0}]},
            {"type": "cooldown", "duration_s": 600.0}]})
    );
    assert_eq!(parse_spec(&canonical), Ok(parsed));
}

#[test]
fn aliases_and_units_normalise_to_one_form() {
    let written = spec(json!({"name": " Mile repeats ", "sport": "running", "notes": "track", "steps": [
        {"type": "run", "distance_km": 1.609344, "pace": "6:00/mi", "description": "  "},
        {"type": "Cool-down", "duration_min": 1.5, "hr_range": [165, 150]}]}));
    assert_eq!(written.name, "Mile repeats");
    assert_eq!(written.sport, SpecSport::Run);
    assert_eq!(written.description.as_deref(), Some("track"));
    // 6:00/mi is 223.69 s/km; ±5 s.
    assert_eq!(
        written.steps[0],
        SpecStep::Work(WorkStep {
            kind: StepKind::Interval,
            end: StepEnd::Distance { meters: 1609.34 },
            target: Some(StepTarget::Pace { fastest_s: 218.69, slowest_s: 228.69 }),
            secondary_target: None,
            stroke: None,
            equipment: None,
            description: None,
            exercise: None,
            weight: None,
        })
    );
    let SpecStep::Work(cooldown) = &written.steps[1] else { panic!("a work step") };
    assert_eq!(cooldown.kind, StepKind::Cooldown);
    assert_eq!(cooldown.end, StepEnd::Time { seconds: 90.0 });
    assert_eq!(cooldown.target, Some(StepTarget::HeartRate { low_bpm: 150, high_bpm: 165 }));
}

#[test]
fn a_step_without_an_end_ends_at_the_lap_button() {
    let parsed = spec(
        json!({"name": "x", "sport": "bike", "steps": [{"type": "warmup"}, {"type": "cooldown", "lap_button": true}]}),
    );
    for step in &parsed.steps {
        let SpecStep::Work(work) = step else { panic!("a work step") };
        assert_eq!(work.end, StepEnd::LapButton);
    }
    let body = parsed.to_garmin();
    for step in &body.workout_segments[0].workout_steps {
        assert_eq!(step.end_condition_key(), Some("lap.button"));
        assert_eq!(step.end_condition_value, None, "the ignored value is not sent");
    }
}

#[test]
fn swims_get_a_pool_and_any_stroke_by_default() {
    let parsed = spec(json!({"name": "x", "sport": "swim", "steps": [
        {"type": "swim", "distance_m": 400}, {"type": "rest", "duration_s": 30}]}));
    assert_eq!(parsed.pool_length_m, Some(25.0));
    let strokes: Vec<Option<SwimStroke>> =
        parsed.steps.iter().map(|s| if let SpecStep::Work(w) = s { w.stroke } else { None }).collect();
    assert_eq!(strokes, [Some(SwimStroke::AnyStroke), None]);
    let body = parsed.to_garmin();
    assert_eq!(body.sport_key(), Some("swimming"));
    assert_eq!(body.sport_type.as_ref().unwrap().sport_type_id, Some(4), "swimming is 4, not 5");
    assert_eq!(body.pool_length, Some(25.0));
    let unit = body.pool_length_unit.unwrap();
    assert_eq!((unit.unit_id, unit.unit_key.as_deref(), unit.factor), (Some(1), Some("meter"), Some(100.0)));
}

#[test]
fn two_targets_put_pace_first_whatever_the_order_written() {
    let parsed = spec(json!({"name": "x", "sport": "run", "steps": [
        {"type": "interval", "duration_min": 20, "cadence_range": "170-180", "hr_zone": 3},
        {"type": "interval", "duration_min": 20, "hr_zone": 3, "pace": "5:00"}]}));
    let body = parsed.to_garmin();
    let steps = &body.workout_segments[0].workout_steps;
    assert_eq!((steps[0].target_key(), steps[0].zone_number), (Some("heart.rate.zone"), Some(3)));
    let secondary = steps[0].secondary_target_type.as_ref().unwrap();
    assert_eq!(secondary.workout_target_type_key.as_deref(), Some("cadence"));
    assert_eq!(
        (steps[0].secondary_target_value_one, steps[0].secondary_target_value_two),
        (Some(170.0), Some(180.0))
    );
    assert_eq!(steps[1].target_key(), Some("pace.zone"));
    assert_eq!(steps[1].secondary_zone_number, Some(3));
}

#[test]
fn a_step_alone_deserialises_with_the_parser_rules() {
    let step: SpecStep =
        serde_json::from_value(json!({"type": "run", "distance_km": 1, "pace": "5:00"})).unwrap();
    let SpecStep::Work(work) = step else { panic!("a work step") };
    assert_eq!(work.target, Some(StepTarget::Pace { fastest_s: 295.0, slowest_s: 305.0 }));
    let message =
        serde_json::from_value::<SpecStep>(json!({"type": "repeat", "times": 0, "steps": [{"type": "x"}]}))
            .unwrap_err()
            .to_string();
    assert!(message.contains("times: expected how many times to repeat"), "{message}");
    assert!(message.contains("steps[0].type: expected the step's type"), "{message}");
}

#[cfg(feature = "schema")]
#[test]
fn the_step_schema_describes_the_flat_step_object() {
    let schema = serde_json::to_value(schemars::schema_for!(garmin::workout_spec::WorkoutSpec)).unwrap();
    let step = &schema["$defs"]["SpecStep"];
    let properties = step["properties"].as_object().expect("step properties");
    for field in [
        "type",
        "description",
        "distance_m",
        "distance_km",
        "duration_min",
        "duration_s",
        "lap_button",
        "pace",
        "pace_range",
        "hr_zone",
        "hr_range",
        "power_range",
        "cadence_range",
        "stroke",
        "times",
        "steps",
    ] {
        assert!(properties.contains_key(field), "no {field} in {step:#}");
    }
    assert_eq!(step["required"], json!(["type"]));
    assert!(properties["pace"]["description"].as_str().unwrap().contains("±5 s"));
    assert_eq!(
        (&properties["hr_zone"]["minimum"], &properties["hr_zone"]["maximum"]),
        (&json!(1), &json!(5))
    );
    assert!(schema["properties"]["steps"]["items"]["$ref"].as_str().unwrap().ends_with("SpecStep"));
    assert!(step["description"].as_str().unwrap().contains("lap button"));
}
