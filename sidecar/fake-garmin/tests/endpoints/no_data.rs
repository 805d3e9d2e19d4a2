//! Run: `cargo test -p fake-garmin --test endpoints no_data::`.
//!
//! Garmin's "no data" forms (reference §3.3) and error bodies (§3.1): 204 for HRV, endurance and
//! hill score; `[]` for readiness; null-filled objects for sleep and blood pressure; 404 with
//! `NotFoundException` for unknown ids; 400 for malformed dates.

use reqwest::StatusCode;
use serde_json::json;

use crate::support::{Api, fixture, today};

#[tokio::test]
async fn hrv_on_a_night_without_data_is_204() {
    let api = Api::start().await;
    let start = today() - chrono::Duration::days(364);
    let range = api.get(&format!("/hrv-service/hrv/daily/{start}/{}", today())).await;
    let with: Vec<String> = range["hrvSummaries"]
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|s| s["calendarDate"].as_str().map(str::to_owned))
        .collect();
    assert!(with.len() > 300 && with.len() < 365, "some nights lack HRV: {}", with.len());
    let missing = (0..365)
        .map(|i| start + chrono::Duration::days(i))
        .find(|d| !with.contains(&d.to_string()))
        .expect("a night without HRV");
    assert_eq!(api.status(&format!("/hrv-service/hrv/{missing}")).await, StatusCode::NO_CONTENT);
    assert_eq!(api.status(&format!("/hrv-service/hrv/{}", with[0])).await, StatusCode::OK);
    assert_eq!(
        api.status(&format!("/hrv-service/hrv/{}", today() + chrono::Duration::days(1))).await,
        StatusCode::NO_CONTENT
    );
    assert_eq!(
        api.status(&format!("/hrv-service/hrv/{}", start - chrono::Duration::days(1))).await,
        StatusCode::NO_CONTENT
    );
}

#[tokio::test]
async fn endurance_and_hill_score_after_today_are_204() {
    let api = Api::start().await;
    let later = today() + chrono::Duration::days(3);
    assert_eq!(
        api.status(&format!("/metrics-service/metrics/endurancescore?calendarDate={later}")).await,
        StatusCode::NO_CONTENT
    );
    assert_eq!(
        api.status(&format!("/metrics-service/metrics/hillscore?calendarDate={later}")).await,
        StatusCode::NO_CONTENT
    );
    let empty = api
        .get(&format!(
            "/metrics-service/metrics/hillscore/stats?startDate={later}&endDate={later}&aggregation=daily"
        ))
        .await;
    assert_eq!(empty["hillScoreDTOList"], json!([]));
    assert_eq!(empty["maxScore"], json!(null));
}

#[tokio::test]
async fn training_readiness_without_data_is_an_empty_array() {
    let api = Api::start().await;
    let body = api
        .get(&format!("/metrics-service/metrics/trainingreadiness/{}", today() + chrono::Duration::days(30)))
        .await;
    assert_eq!(body, fixture("training_readiness_empty.json"));
    let before = api.get("/metrics-service/metrics/trainingreadiness/2020-01-01").await;
    assert_eq!(before, json!([]));
}

#[tokio::test]
async fn sleep_without_data_is_the_null_filled_object() {
    let api = Api::start().await;
    let mut expected = fixture("sleep_sleep_service_no_data.json");
    expected["dailySleepDTO"]["calendarDate"] = json!("2030-01-01");
    expected["dailySleepDTO"]["userProfilePK"] = json!(1_000_001);
    assert_eq!(api.get("/sleep-service/sleep/dailySleepData?date=2030-01-01").await, expected);
    let wellness = api
        .get(&format!(
            "/wellness-service/wellness/dailySleepData/{}?date=2030-01-01&nonSleepBufferMinutes=60",
            api.display_name
        ))
        .await;
    assert_eq!(wellness, expected);
}

#[tokio::test]
async fn blood_pressure_is_always_the_empty_form() {
    let api = Api::start().await;
    let body =
        api.get("/bloodpressure-service/bloodpressure/range/2026-03-01/2026-03-14?includeAll=true").await;
    assert_eq!(
        body,
        json!({"from": "2026-03-01", "until": "2026-03-14", "measurementSummaries": [], "categoryStats": null})
    );
}

#[tokio::test]
async fn daily_summary_outside_the_data_set_keeps_its_keys_with_nulls() {
    let api = Api::start().await;
    let inside = api
        .get(&format!("/usersummary-service/usersummary/daily/{}?calendarDate={}", api.display_name, today()))
        .await;
    let outside = api
        .get(&format!("/usersummary-service/usersummary/daily/{}?calendarDate=2019-05-05", api.display_name))
        .await;
    let keys = |v: &serde_json::Value| {
        v.as_object().map(|m| m.keys().cloned().collect::<Vec<_>>()).unwrap_or_default()
    };
    assert_eq!(keys(&inside), keys(&outside));
    assert_eq!(outside["calendarDate"], "2019-05-05");
    assert!(outside["totalSteps"].is_null() && inside["totalSteps"].is_number());
    let stress = api.get("/wellness-service/wellness/dailyStress/2019-05-05").await;
    assert_eq!(stress["stressValuesArray"], json!([]));
}

#[tokio::test]
async fn unknown_ids_are_404_with_garmins_body() {
    let api = Api::start().await;
    let expected = fixture("error_404_not_found.json");
    for path in [
        "/activity-service/activity/12135235656",
        "/activity-service/activity/not-a-number",
        "/activity-service/activity/12135235656/details",
        "/workout-service/workout/4242",
        "/workout-service/schedule/4242",
        "/calendar-service/event/4242",
        "/device-service/deviceservice/app-info/1",
        "/gear-service/gear/stats/nope",
    ] {
        let (status, body) = api.json(reqwest::Method::GET, path, None).await;
        assert_eq!((status, body), (StatusCode::NOT_FOUND, expected.clone()), "{path}");
    }
}

#[tokio::test]
async fn malformed_dates_are_400() {
    let api = Api::start().await;
    for path in [
        "/hrv-service/hrv/yesterday",
        "/wellness-service/wellness/dailyStress/2026-3-1",
        "/sleep-service/sleep/dailySleepData?date=2026-02-30",
        "/usersummary-service/stats/steps/daily/2026-03-10/2026-03-01",
        "/metrics-service/metrics/trainingreadiness/2026-13-01",
        "/usersummary-service/usersummary/daily/x",
    ] {
        let (status, body) = api.json(reqwest::Method::GET, path, None).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}: {body}");
        assert_eq!(body["error"], "BadRequestException", "{path}");
    }
}
