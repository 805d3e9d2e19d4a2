//! Run: `cargo test -p garmin --test workout_spec common::`.
//!
//! Helpers shared by the workout-spec tests: reading Garmin fixtures and parsing specs that must
//! be valid.

use garmin::models::workouts::Workout;
use garmin::workout_spec::{WorkoutSpec, parse_spec};
use serde_json::Value;

/// A recorded Garmin body from `sidecar/fake-garmin/fixtures/garmin`, as JSON.
pub fn fixture_json(name: &str) -> Value {
    let path = format!("{}/../../sidecar/fake-garmin/fixtures/garmin/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A recorded Garmin workout, decoded into the model.
pub fn fixture_workout(name: &str) -> Workout {
    serde_json::from_value(fixture_json(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Parses a spec that must be valid, showing every problem otherwise.
pub fn spec(value: Value) -> WorkoutSpec {
    parse_spec(&value).unwrap_or_else(|errors| panic!("spec should be valid:\n{errors}\n{value:#}"))
}

/// The issue's example: 4 × 800 m at 5:00/km with 2 min recoveries.
pub fn issue_example() -> Value {
    serde_json::json!({"name":"800m x4","sport":"run","steps":[
        {"type":"warmup","duration_min":10},
        {"type":"repeat","times":4,"steps":[
            {"type":"interval","distance_m":800,"pace":"5:00"},
            {"type":"recovery","duration_min":2}]},
        {"type":"cooldown","duration_min":10}]})
}
