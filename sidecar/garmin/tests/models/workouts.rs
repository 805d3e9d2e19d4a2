//! Run: `cargo test -p garmin --test models workouts::`.
//!
//! Workout fixtures: Garmin's 2018 workout, the kaiord create requests and responses, the web
//! editor's own request; round trips keep every field.

use garmin::models::workouts::*;

use super::{close, fixture, fixture_text};

const REQUESTS: &[&str] = &[
    "workout_create_request_cycling_power_cadence.json",
    "workout_create_request_edge_cases.json",
    "workout_create_request_hr_zone_repeat.json",
    "workout_create_request_multisport_triathlon.json",
    "workout_create_request_running_nested_repeats.json",
    "workout_create_request_strength_reps.json",
    "workout_create_request_swimming_all_strokes.json",
    "workout_create_request_web_ui_running.json",
];

const RESPONSES: &[&str] = &[
    "workout_create_response_cycling_power_cadence.json",
    "workout_create_response_edge_cases.json",
    "workout_create_response_multisport_triathlon.json",
    "workout_create_response_running_nested_repeats.json",
    "workout_create_response_strength_reps.json",
    "workout_create_response_swimming_all_strokes.json",
    "workout_get.json",
    "workout_get_strength_supersets.json",
];

#[test]
fn a_strength_workout_keeps_exercises_and_weights_in_their_unit() {
    let w: Workout = fixture("workout_get_strength_supersets.json");
    assert_eq!(w.sport_key(), Some("strength_training"));
    let bench = &w.workout_segments[0].workout_steps[0].workout_steps[0];
    assert_eq!(bench.category.as_deref(), Some("BENCH_PRESS"));
    assert_eq!(bench.exercise_name.as_deref(), Some("INCLINE_DUMBBELL_BENCH_PRESS"));
    assert_eq!(bench.end_condition_key(), Some("reps"));
    close(bench.end_condition_value, 6.0);
    // 70 lb as Garmin stores it: a metric value converted back to the step's unit.
    close(bench.weight_value, 69.99676824369863);
    assert_eq!(bench.weight_unit.as_ref().and_then(|u| u.unit_key.as_deref()), Some("pound"));
    let landmine = &w.workout_segments[0].workout_steps[2].workout_steps[0];
    assert_eq!(
        (landmine.category.as_deref(), landmine.exercise_name.as_deref()),
        (Some("SHOULDER_PRESS"), Some(""))
    );
}

#[test]
fn garmins_2018_workout_with_repeat_groups() {
    let w: Workout = fixture("workout_get.json");
    assert_eq!(w.workout_id, Some(1_055_637));
    assert_eq!(w.sport_key(), Some("running"));
    let steps = w.all_steps();
    let orders: Vec<i64> = steps.iter().filter_map(|s| s.step_order).collect();
    assert_eq!(orders, [1, 2, 3, 4, 5, 6, 7, 8]);
    let repeat = steps[1];
    assert!(repeat.is_repeat());
    assert_eq!(repeat.number_of_iterations, Some(6));
    assert_eq!(repeat.workout_steps.len(), 2);
    assert_eq!(steps[2].child_step_id, Some(1));
}

#[test]
fn nested_repeats_are_numbered_depth_first() {
    let w: Workout = fixture("workout_create_response_running_nested_repeats.json");
    assert_eq!(w.workout_id, Some(12_345_678));
    let steps = w.all_steps();
    let orders: Vec<i64> = steps.iter().filter_map(|s| s.step_order).collect();
    assert_eq!(orders, (1..=10).collect::<Vec<_>>());
    assert!(steps[5].is_repeat() && steps[4].is_repeat());
    assert_eq!(steps[1].zone_number, Some(4));
    assert_eq!(steps[3].target_key(), Some("pace.zone"));
    // Pace targets are m/s, as stored.
    close(steps[3].target_value_one, 3.5);
    close(steps[3].secondary_target_value_two, 175.0);
    assert_eq!(steps[0].end_condition_key(), Some("lap.button"));
}

#[test]
fn the_web_editors_request_reads_zone_numbers_sent_as_text() {
    let w: Workout = fixture("workout_create_request_web_ui_running.json");
    assert_eq!(w.workout_id, None);
    close(w.avg_training_speed, 2.594_889_052_245_780_4);
    let steps = w.all_steps();
    assert_eq!(steps.len(), 6);
    assert_eq!(steps[2].zone_number, Some(2));
    assert_eq!(steps[2].target_key(), Some("heart.rate.zone"));
    // Fields not modelled ride along in `extra`.
    assert_eq!(w.extra.get("isWheelchair"), Some(&serde_json::Value::Bool(false)));
}

#[test]
fn swimming_and_multisport() {
    let swim: Workout = fixture("workout_create_response_swimming_all_strokes.json");
    assert_eq!(swim.sport_type.as_ref().unwrap().sport_type_id, Some(4));
    close(swim.pool_length, 25.0);
    assert_eq!(swim.pool_length_unit.as_ref().unwrap().unit_key.as_deref(), Some("meter"));
    let strokes: Vec<_> = swim
        .all_steps()
        .iter()
        .filter_map(|s| s.stroke_type.as_ref()?.stroke_type_key.clone())
        .take(2)
        .collect();
    assert_eq!(strokes, ["any_stroke", "fly"]);

    let tri: Workout = fixture("workout_create_response_multisport_triathlon.json");
    assert_eq!(tri.sport_key(), Some("multi_sport"));
    assert_eq!(tri.workout_segments.len(), 3);
}

#[test]
fn every_request_and_response_round_trips_without_losing_fields() {
    for name in REQUESTS.iter().chain(RESPONSES) {
        let original: serde_json::Value = serde_json::from_str(&fixture_text(name)).unwrap();
        let workout: Workout = fixture(name);
        assert!(workout.workout_name.is_some(), "{name}");
        let written = serde_json::to_value(&workout).unwrap();
        let reread: Workout = serde_json::from_value(written.clone()).unwrap();
        assert_eq!(reread, workout, "{name}");
        // Every non-null field Garmin sent is written back.
        assert_eq!(non_null_paths(&original, ""), non_null_paths(&written, ""), "{name}");
    }
}

#[test]
fn for_create_drops_what_garmin_assigns() {
    let w: Workout = fixture("workout_create_response_strength_reps.json");
    assert!(w.workout_id.is_some() && w.extra.contains_key("author"));
    let body = serde_json::to_value(w.for_create()).unwrap();
    for key in ["workoutId", "ownerId", "author", "createdDate", "updatedDate"] {
        assert!(body.get(key).is_none(), "{key} should be omitted");
    }
    assert_eq!(body["workoutName"], serde_json::json!(w.workout_name));
}

#[test]
fn device_message_body_matches_the_reference() {
    let body = serde_json::to_value([DeviceMessageRequest::workout(3_900_000_001, 42, "Tempo")]).unwrap();
    assert_eq!(
        body,
        serde_json::json!([{
            "deviceId": 3_900_000_001_u64,
            "messageUrl": "workout-service/workout/FIT/42",
            "messageType": "workouts",
            "messageName": "Tempo",
            "groupName": null,
            "priority": 1,
            "fileType": "FIT",
            "metaDataId": 42
        }])
    );
}

/// Paths of every non-null leaf (numbers normalised to f64 text, so `1000` and `1000.0` match;
/// `"2"` zone numbers are written back as numbers, so strings that parse as numbers match too).
fn non_null_paths(v: &serde_json::Value, at: &str) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    match v {
        serde_json::Value::Null => {}
        serde_json::Value::Object(map) => {
            for (k, x) in map {
                out.extend(non_null_paths(x, &format!("{at}.{k}")));
            }
        }
        serde_json::Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                out.extend(non_null_paths(x, &format!("{at}[{i}]")));
            }
        }
        serde_json::Value::Number(n) => {
            out.insert(format!("{at}={}", n.as_f64().unwrap_or_default()));
        }
        serde_json::Value::String(s) => {
            let shown = s.parse::<f64>().map(|f| f.to_string()).unwrap_or_else(|_| s.clone());
            out.insert(format!("{at}={shown}"));
        }
        serde_json::Value::Bool(b) => {
            out.insert(format!("{at}={b}"));
        }
    }
    out
}
