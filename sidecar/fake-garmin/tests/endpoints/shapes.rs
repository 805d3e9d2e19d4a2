//! Run: `cargo test -p fake-garmin --test endpoints shapes::`.
//!
//! Every fixture-backed endpoint answers with the recorded body's key set (recursively; extra
//! keys allowed), so a client decoding real Garmin JSON decodes the fake's too.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::support::{Api, assert_same_shape, fixture, today, type_key, yesterday};

/// GETs `path` and checks it against `fixture_name`.
async fn check(api: &Api, fixture_name: &str, path: &str) {
    let body = api.get(path).await;
    assert_same_shape(&format!("{fixture_name} ← GET {path}"), &fixture(fixture_name), &body);
}

#[tokio::test]
async fn wellness_endpoints_match_recorded_shapes() {
    let api = Api::start().await;
    let (dn, y) = (api.display_name.clone(), yesterday());
    let month_ago = y - chrono::Duration::days(19);
    for (name, path) in [
        ("daily_summary.json", format!("/usersummary-service/usersummary/daily/{dn}?calendarDate={y}")),
        ("daily_summary_chart.json", format!("/wellness-service/wellness/dailySummaryChart/{dn}?date={y}")),
        ("heart_rate_day.json", format!("/wellness-service/wellness/dailyHeartRate/{dn}?date={y}")),
        ("stress.json", format!("/wellness-service/wellness/dailyStress/{y}")),
        ("stress_small.json", format!("/wellness-service/wellness/dailyStress/{y}")),
        (
            "body_battery.json",
            format!("/wellness-service/wellness/bodyBattery/reports/daily?startDate={y}&endDate={y}"),
        ),
        ("body_battery_events.json", format!("/wellness-service/wellness/bodyBattery/events/{y}")),
        ("respiration.json", format!("/wellness-service/wellness/daily/respiration/{y}")),
        ("spo2.json", format!("/wellness-service/wellness/daily/spo2/{y}")),
        ("floors.json", format!("/wellness-service/wellness/floorsChartData/daily/{y}")),
        ("hydration.json", format!("/usersummary-service/usersummary/hydration/daily/{y}")),
        ("hrv_range.json", format!("/hrv-service/hrv/daily/{month_ago}/{y}")),
        ("sleep_sleep_service.json", format!("/sleep-service/sleep/dailySleepData?date={y}")),
        (
            "sleep.json",
            format!("/wellness-service/wellness/dailySleepData/{dn}?nonSleepBufferMinutes=60&date={y}"),
        ),
        (
            "stats_sleep_score_daily.json",
            format!("/wellness-service/stats/daily/sleep/score/{month_ago}/{y}"),
        ),
        ("stats_steps_daily.json", format!("/usersummary-service/stats/steps/daily/{month_ago}/{y}")),
        ("stats_steps_weekly.json", format!("/usersummary-service/stats/steps/weekly/{y}/52")),
        ("stats_stress_daily.json", format!("/usersummary-service/stats/stress/daily/{month_ago}/{y}")),
        ("stats_stress_weekly.json", format!("/usersummary-service/stats/stress/weekly/{y}/52")),
        (
            "intensity_minutes_daily_stats.json",
            format!("/usersummary-service/stats/im/daily/{month_ago}/{y}"),
        ),
        (
            "intensity_minutes_weekly_stats.json",
            format!("/usersummary-service/stats/im/weekly/{month_ago}/{y}"),
        ),
        ("stats_hydration_daily.json", format!("/usersummary-service/stats/hydration/daily/{month_ago}/{y}")),
        (
            "body_composition.json",
            format!("/weight-service/weight/dateRange?startDate={month_ago}&endDate={y}"),
        ),
        ("weight_range.json", format!("/weight-service/weight/range/{month_ago}/{y}?includeAll=true")),
        (
            "blood_pressure_empty.json",
            format!("/bloodpressure-service/bloodpressure/range/{month_ago}/{y}?includeAll=true"),
        ),
    ] {
        check(&api, name, &path).await;
    }
    let hrv_day =
        api.get(&format!("/hrv-service/hrv/daily/{month_ago}/{y}")).await["hrvSummaries"][0]["calendarDate"]
            .clone();
    check(&api, "hrv.json", &format!("/hrv-service/hrv/{}", hrv_day.as_str().unwrap_or_default())).await;
    let weighed = api.get(&format!("/weight-service/weight/range/{month_ago}/{y}")).await["dailyWeightSummaries"][0]["summaryDate"].clone();
    check(
        &api,
        "weight_dayview.json",
        &format!("/weight-service/weight/dayview/{}", weighed.as_str().unwrap_or_default()),
    )
    .await;
    let (status, body) = api.post(&format!("/wellness-service/wellness/epoch/request/{y}"), &json!({})).await;
    assert_eq!(status, StatusCode::OK);
    assert_same_shape("epoch request", &fixture("wellness_epoch_request_response.json"), &body);
    let log = json!({"calendarDate": y.to_string(), "timestampLocal": format!("{y}T15:30:00.0"), "valueInML": 250.0, "userProfileId": 1});
    let (status, body) = api.put("/usersummary-service/usersummary/hydration/log", &log).await;
    assert_eq!(status, StatusCode::OK);
    assert_same_shape("hydration log", &fixture("hydration_log_response.json"), &body);
}

#[tokio::test]
async fn activity_endpoints_match_recorded_shapes() {
    let api = Api::start().await;
    let (dn, y) = (api.display_name.clone(), yesterday());
    let runs = api
        .get("/activitylist-service/activities/search/activities?start=0&limit=100&activityType=running")
        .await;
    let workout_run = runs
        .as_array()
        .and_then(|l| l.iter().find(|a| a.get("workoutId").is_some()))
        .cloned()
        .expect("a workout run");
    assert_same_shape("activity list row", &fixture("activity_list.json")[0], &workout_run);
    let id = workout_run["activityId"].as_u64().expect("id");
    check(&api, "activity_summary.json", &format!("/activity-service/activity/{id}")).await;
    check(&api, "activity_hr_time_in_zones.json", &format!("/activity-service/activity/{id}/hrTimeInZones"))
        .await;
    check(&api, "activity_types.json", "/activity-service/activity/activityTypes").await;
    let week_ago = y - chrono::Duration::days(6);
    check(
        &api,
        "fitness_stats_activity.json",
        &format!("/fitnessstats-service/activity/all?startDate={week_ago}&endDate={y}&standardizedUnits=true&metric=activityType&metric=aerobicTrainingEffect"),
    )
    .await;
    check(&api, "personal_records.json", &format!("/personalrecord-service/personalrecord/prs/{dn}")).await;
    check(&api, "personal_records_2023.json", &format!("/personalrecord-service/personalrecord/prs/{dn}"))
        .await;
    check(&api, "user_statistics.json", &format!("/userstats-service/statistics/{dn}")).await;
}

#[tokio::test]
async fn metrics_endpoints_match_recorded_shapes() {
    let api = Api::start().await;
    let y = yesterday();
    let month_ago = y - chrono::Duration::days(35);
    for (name, path) in [
        ("training_status.json", format!("/metrics-service/metrics/trainingstatus/aggregated/{y}")),
        ("training_readiness.json", format!("/metrics-service/metrics/trainingreadiness/{y}")),
        ("max_metrics.json", format!("/metrics-service/metrics/maxmet/daily/{month_ago}/{y}")),
        ("endurance_score.json", format!("/metrics-service/metrics/endurancescore?calendarDate={y}")),
        ("hill_score.json", format!("/metrics-service/metrics/hillscore?calendarDate={y}")),
        (
            "hill_score_range_empty.json",
            format!("/metrics-service/metrics/hillscore/stats?startDate={y}&endDate={y}&aggregation=daily"),
        ),
        ("hr_zones.json", "/biometric-service/heartRateZones".to_owned()),
        (
            "training_status_mobile_gateway_latest.json",
            format!("/mobile-gateway/usersummary/trainingstatus/latest/{y}"),
        ),
        (
            "training_status_mobile_gateway_weekly.json",
            format!(
                "/mobile-gateway/usersummary/trainingstatus/weekly/{}/{y}",
                y - chrono::Duration::days(21)
            ),
        ),
        (
            "training_status_mobile_gateway_monthly.json",
            format!("/mobile-gateway/usersummary/trainingstatus/monthly/{month_ago}/{y}"),
        ),
    ] {
        check(&api, name, &path).await;
    }
}

#[tokio::test]
async fn profile_and_device_endpoints_match_recorded_shapes() {
    let api = Api::start().await;
    check(&api, "user_profile.json", "/userprofile-service/socialProfile").await;
    check(&api, "user_settings.json", "/userprofile-service/userprofile/user-settings").await;
    check(&api, "device_app_info.json", "/device-service/deviceservice/app-info/3900000001").await;
    let profile = api.get("/userprofile-service/socialProfile").await;
    assert_eq!(profile["displayName"], api.display_name.as_str());
}

#[tokio::test]
async fn workout_create_answers_like_the_recorded_round_trips() {
    let api = Api::start().await;
    for case in [
        "running_nested_repeats",
        "swimming_all_strokes",
        "strength_reps",
        "cycling_power_cadence",
        "edge_cases",
        "multisport_triathlon",
    ] {
        let request = fixture(&format!("workout_create_request_{case}.json"));
        let (status, created) = api.post("/workout-service/workout", &request).await;
        assert_eq!(status, StatusCode::OK, "{case}: {created}");
        assert_same_shape(case, &fixture(&format!("workout_create_response_{case}.json")), &created);
        let id = created["workoutId"].as_u64().expect("workoutId");
        let read_back = api.get(&format!("/workout-service/workout/{id}")).await;
        assert_eq!(read_back, created, "{case}: GET returns what POST returned");
        if case == "running_nested_repeats" {
            assert_same_shape("workout_get.json", &fixture("workout_get.json"), &read_back);
        }
    }
    let (status, created) =
        api.post("/workout-service/workout", &fixture("workout_create_request_web_ui_running.json")).await;
    assert_eq!(status, StatusCode::OK, "{created}");
    let (status, created) =
        api.post("/workout-service/workout", &fixture("workout_create_request_hr_zone_repeat.json")).await;
    assert_eq!(status, StatusCode::OK, "{created}");
}

#[tokio::test]
async fn activity_list_rows_of_other_sports_drop_running_fields() {
    let api = Api::start().await;
    let all = api.all_activities().await;
    let swim = all.iter().find(|a| type_key(a) == "lap_swimming").expect("a swim");
    assert!(swim.get("averageRunningCadenceInStepsPerMinute").is_none());
    assert!(swim["poolLength"].is_number() && swim["strokes"].is_number());
    let strength = all.iter().find(|a| type_key(a) == "strength_training").expect("a strength session");
    assert!(strength["summarizedExerciseSets"].as_array().is_some_and(|s| !s.is_empty()));
    assert_eq!(today().to_string().len(), 10);
}

/// Shifts every `YYYY-MM-DD` in a recorded GraphQL query so 2024-07-08 becomes yesterday.
fn shift_dates(query: &str) -> String {
    let anchor = chrono::NaiveDate::from_ymd_opt(2024, 7, 8).expect("date");
    let offset = yesterday() - anchor;
    let mut out = String::new();
    let mut rest = query;
    while let Some(pos) = rest.find("202") {
        out.push_str(&rest[..pos]);
        let candidate = rest.get(pos..pos + 10).unwrap_or_default();
        match chrono::NaiveDate::parse_from_str(candidate, "%Y-%m-%d") {
            Ok(d) => {
                out.push_str(&(d + offset).to_string());
                rest = &rest[pos + 10..];
            }
            Err(_) => {
                out.push_str("202");
                rest = &rest[pos + 3..];
            }
        }
    }
    out.push_str(rest);
    out
}

#[tokio::test]
async fn every_recorded_graphql_query_is_answered_in_its_recorded_shape() {
    let api = Api::start().await;
    let dir = format!("{}/fixtures/garmin/graphql", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("graphql dir")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.len() >= 21, "{names:?}");
    for name in names {
        let pair = fixture(&format!("graphql/{name}"));
        let query = shift_dates(pair["request"]["query"].as_str().expect("query"));
        let (status, body) = api.post("/graphql-gateway/graphql", &json!({"query": query})).await;
        assert_eq!(status, StatusCode::OK, "{name}");
        assert!(body.get("errors").is_none(), "{name}: {body}");
        let root = pair["response"]["data"].as_object().and_then(|m| m.keys().next().cloned()).expect("root");
        assert!(!body["data"][&root].is_null(), "{name}: null data");
        assert_same_shape(&name, &pair["response"], &body);
    }
}

#[tokio::test]
async fn unknown_graphql_field_gets_a_validation_error() {
    let api = Api::start().await;
    let (status, body) = api
        .post("/graphql-gateway/graphql", &json!({"query": "query{noSuchScalar(date:\"2026-03-01\")}"}))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["errors"][0]["extensions"]["classification"], "ValidationError");
    assert!(body["errors"][0]["message"].as_str().is_some_and(|m| m.contains("noSuchScalar")));
    let (status, _) = api.post("/graphql-gateway/graphql", &json!({"nothing": 1})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let _: Value = Value::Null;
}
