//! Decodes every recorded Garmin body in `sidecar/fake-garmin/fixtures/garmin` into its model and
//! checks real values, plus the "no data" forms (`{}`, `[]`, null-filled objects).
//!
//! Run with `cargo test -p garmin --test models`. A new fixture file fails
//! `every_fixture_is_decoded_somewhere` until a test here decodes it.

#[path = "models/activities.rs"]
mod activities;
#[path = "models/graphql.rs"]
mod graphql;
#[path = "models/metrics.rs"]
mod metrics;
#[path = "models/no_data.rs"]
mod no_data;
#[path = "models/other.rs"]
mod other;
#[path = "models/wellness.rs"]
mod wellness;
#[path = "models/workouts.rs"]
mod workouts;

use serde::de::DeserializeOwned;

/// The fixture `name` (relative to `fixtures/garmin`) decoded as `T`, failing with the JSON path
/// of the first field that did not decode.
pub fn fixture<T: DeserializeOwned>(name: &str) -> T {
    let text = fixture_text(name);
    let mut de = serde_json::Deserializer::from_str(&text);
    serde_path_to_error::deserialize(&mut de)
        .unwrap_or_else(|e| panic!("{name}: at `{}`: {}", e.path(), e.inner()))
}

/// The raw text of a fixture.
pub fn fixture_text(name: &str) -> String {
    let path = format!("{}/../../sidecar/fake-garmin/fixtures/garmin/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Asserts two floats are within 1e-6.
#[track_caller]
pub fn close(actual: Option<f64>, expected: f64) {
    let actual = actual.unwrap_or_else(|| panic!("expected {expected}, got None"));
    assert!((actual - expected).abs() < 1e-6, "expected {expected}, got {actual}");
}

/// Fixtures decoded by the tests of this binary (kept in step with the directory).
const DECODED: &[&str] = &[
    // activities
    "activity_details_legacy_2018.json",
    "activity_hr_time_in_zones.json",
    "activity_list.json",
    "activity_list_legacy.json",
    "activity_summary.json",
    "activity_summary_legacy_2018.json",
    "activity_summary_multisport_child.json",
    "activity_summary_multisport_parent.json",
    "activity_types.json",
    "fitness_stats_activity.json",
    "upload_response_202.json",
    "upload_response_409_duplicate.json",
    "error_403_download_not_owner.json",
    "error_404_not_found.json",
    // wellness
    "blood_pressure_empty.json",
    "body_battery.json",
    "body_battery_events.json",
    "body_composition.json",
    "daily_summary.json",
    "daily_summary_chart.json",
    "floors.json",
    "heart_rate_day.json",
    "hrv.json",
    "hrv_no_readings.json",
    "hrv_range.json",
    "hydration.json",
    "hydration_log_response.json",
    "intensity_minutes_daily_stats.json",
    "intensity_minutes_weekly_stats.json",
    "respiration.json",
    "sleep.json",
    "sleep_sleep_service.json",
    "sleep_sleep_service_no_data.json",
    "spo2.json",
    "stats_hydration_daily.json",
    "stats_sleep_score_daily.json",
    "stats_steps_daily.json",
    "stats_steps_weekly.json",
    "stats_stress_daily.json",
    "stats_stress_weekly.json",
    "stress.json",
    "stress_small.json",
    "weight_dayview.json",
    "weight_range.json",
    "wellness_epoch_request_response.json",
    // metrics
    "endurance_score.json",
    "hill_score.json",
    "hill_score_range_empty.json",
    "hr_zones.json",
    "max_metrics.json",
    "training_readiness.json",
    "training_readiness_empty.json",
    "training_status.json",
    "training_status_mobile_gateway_latest.json",
    "training_status_mobile_gateway_monthly.json",
    "training_status_mobile_gateway_weekly.json",
    // profile, devices, records
    "device_app_info.json",
    "personal_records.json",
    "personal_records_2023.json",
    "user_profile.json",
    "user_settings.json",
    "user_statistics.json",
    // workouts
    "workout_create_request_cycling_power_cadence.json",
    "workout_create_request_edge_cases.json",
    "workout_create_request_hr_zone_repeat.json",
    "workout_create_request_multisport_triathlon.json",
    "workout_create_request_running_nested_repeats.json",
    "workout_create_request_strength_reps.json",
    "workout_create_request_swimming_all_strokes.json",
    "workout_create_request_web_ui_running.json",
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
fn every_fixture_is_decoded_somewhere() {
    let dir = format!("{}/../../sidecar/fake-garmin/fixtures/garmin", env!("CARGO_MANIFEST_DIR"));
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".json") && !DECODED.contains(&name.as_str()) {
            missing.push(name);
        }
    }
    for name in graphql::FILES {
        assert!(
            std::path::Path::new(&format!("{dir}/graphql/{name}")).exists(),
            "graphql/{name} is listed but missing"
        );
    }
    assert!(missing.is_empty(), "fixtures without a decode test: {missing:?}");
}
