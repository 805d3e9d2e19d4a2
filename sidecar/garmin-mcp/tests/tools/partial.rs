//! Run: `cargo test -p garmin-mcp --test tools partial::`.
//!
//! One failing part must not sink a whole answer: every tool that makes several requests is called
//! with each of its secondary requests failing the ways a faithful but sparser Garmin fails — 404
//! (`NotFoundException`), 204 (no data), 500 (`WebApplicationException`) and 403 (Garmin's JSON
//! refusal) — and must still answer with the rest, naming what is missing and why. Only the
//! primary request may fail the tool (reference §3.1, §3.3; docs/garmin-web-api.md "Sparse
//! answers and real recordings").

use fake_garmin::data::activity::Kind;
use fake_garmin::faults::{Fault, FaultRule};
use serde_json::{Value, json};

use crate::support::{Harness, today};

/// The four ways a secondary request fails.
fn failures() -> [(Fault, &'static str); 4] {
    [
        (Fault::NotFound, "404"),
        (Fault::NoContent, "204"),
        (Fault::ServerError(500), "500"),
        (Fault::NotOwner, "403"),
    ]
}

/// One secondary request of a tool: the path it is recognised by, and the `missing` entry that
/// must name it when it fails with an error (`None` when its data still comes from elsewhere, or
/// when the tool reads a 404 of it as "none").
struct Secondary {
    path: &'static str,
    named: Option<&'static str>,
}

const fn sec(path: &'static str, named: Option<&'static str>) -> Secondary {
    Secondary { path, named }
}

/// Calls `tool` once per secondary request × failure and checks the answer: not an error, the
/// primary part (`primary`, a JSON pointer) present, and for 500 and 403 the failing part named in
/// `missing` with Garmin's reason.
async fn each_secondary_failure_leaves_the_rest(
    h: &Harness,
    tool: &str,
    args: Value,
    primary: &str,
    table: &[Secondary],
) {
    for s in table {
        for (fault, status) in failures() {
            h.fake.clear_faults();
            h.fake.push_fault(FaultRule::always(fault).on_path(s.path));
            let result = h.call(tool, args.clone()).await;
            let text = crate::support::text_of(&result);
            assert_ne!(
                result.is_error,
                Some(true),
                "{tool} failed when {} answered {status}: {text}",
                s.path
            );
            let data = result.structured_content.clone().unwrap_or(Value::Null);
            assert!(
                data.pointer(primary).is_some_and(|v| !v.is_null()),
                "{tool} lost {primary} when {} answered {status}: {data}",
                s.path
            );
            let hit = h
                .fake
                .requests()
                .iter()
                .any(|r| format!("{}?{}", r.path, r.query.clone().unwrap_or_default()).contains(s.path));
            assert!(hit, "{tool} never asked for {}", s.path);
            if let (Some(name), "500" | "403") = (s.named, status) {
                let missing: Vec<&str> =
                    data["missing"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
                assert!(
                    missing.iter().any(|m| m.starts_with(name) && m.contains(": ")),
                    "{tool}: {} answering {status} is not named as `{name}: why` in missing {missing:?}",
                    s.path
                );
                let why = if status == "500" { "server error" } else { "refused" };
                assert!(
                    missing.iter().any(|m| m.starts_with(name) && m.contains(why)),
                    "{tool}: the reason for {name} should say `{why}`: {missing:?}"
                );
            }
        }
    }
    h.fake.clear_faults();
}

#[tokio::test]
async fn get_daily_health_answers_with_the_rest_when_any_one_request_fails() {
    let h = Harness::start().await;
    let date = (today() - chrono::Duration::days(3)).to_string();
    each_secondary_failure_leaves_the_rest(
        &h,
        "get_daily_health",
        json!({"date": date}),
        "/day",
        &[
            sec("/hrv-service/hrv/", Some("hrv")),
            sec("/wellness-service/wellness/dailySleepData", Some("sleep")),
            sec("/wellness-service/wellness/daily/im/", None),
            sec("/weight-service/weight/range/", None),
            sec("/bloodpressure-service/bloodpressure/range/", Some("blood_pressure")),
            sec("/usersummary-service/usersummary/hydration/daily/", Some("hydration")),
            sec("/usersummary-service/stats/stress/daily/", None),
            sec("/usersummary-service/usersummary/daily/", Some("activity")),
        ],
    )
    .await;
}

#[tokio::test]
async fn get_daily_health_ranges_answer_with_the_rest_when_any_one_range_request_fails() {
    let h = Harness::start().await;
    let start = (today() - chrono::Duration::days(6)).to_string();
    each_secondary_failure_leaves_the_rest(
        &h,
        "get_daily_health",
        json!({"start_date": start, "end_date": today().to_string()}),
        "/days/0",
        &[
            sec("/usersummary-service/stats/steps/daily/", Some("steps")),
            sec("/userstats-service/wellness/daily/", Some("resting_hr")),
            sec("/sleep-service/stats/sleep/daily/", Some("sleep")),
            sec("/usersummary-service/stats/stress/daily/", Some("stress")),
            sec("/bodyBattery/reports/daily", Some("body_battery")),
            sec("/hrv-service/hrv/daily/", Some("hrv")),
            sec("/weight-service/weight/range/", Some("weight")),
        ],
    )
    .await;
}

#[tokio::test]
async fn get_profile_answers_with_the_rest_when_a_secondary_request_fails() {
    let h = Harness::start().await;
    each_secondary_failure_leaves_the_rest(
        &h,
        "get_profile",
        json!({}),
        "/display_name",
        &[
            sec("/userprofile-service/userprofile/personal-information", Some("personal information")),
            sec("/biometric-service/heartRateZones", Some("heart-rate zones")),
            sec("/biometric-service/biometric/latestLactateThreshold", Some("lactate threshold")),
            sec("/userstats-service/statistics/", Some("totals per sport")),
            sec("/connectLifetimeTotals/", Some("lifetime totals")),
        ],
    )
    .await;
}

#[tokio::test]
async fn get_devices_and_get_gear_answer_with_the_rest_when_a_secondary_request_fails() {
    let h = Harness::start().await;
    each_secondary_failure_leaves_the_rest(
        &h,
        "get_devices",
        json!({}),
        "/devices/0",
        &[sec("/device-service/deviceservice/mylastused", Some("last used device"))],
    )
    .await;
    each_secondary_failure_leaves_the_rest(
        &h,
        "get_gear",
        json!({}),
        "/gear/0",
        &[sec("/gear-service/gear/stats/", Some("totals of"))],
    )
    .await;
}

#[tokio::test]
async fn get_calendar_answers_with_the_rest_when_a_secondary_request_fails() {
    let h = Harness::start().await;
    each_secondary_failure_leaves_the_rest(
        &h,
        "get_calendar",
        json!({}),
        "/counts",
        &[
            sec("/activitylist-service/activities/search/activities", Some("activities")),
            sec("/calendar-service/events", Some("events")),
        ],
    )
    .await;
}

#[tokio::test]
async fn a_calendar_month_garmin_answers_204_for_is_an_empty_month() {
    let h = Harness::start().await;
    h.fake.push_fault(FaultRule::always(Fault::NoContent).on_path("/calendar-service/year/"));
    let (text, data) = h.call_ok("get_calendar", json!({})).await;
    assert!(data["counts"]["scheduled_workouts"] == 0, "{data}");
    assert!(
        data["counts"]["activities"].as_u64().is_some_and(|n| n > 0),
        "the activity list still fills it: {text}"
    );
}

#[tokio::test]
async fn get_calendar_answers_with_the_activities_and_events_when_the_calendar_month_fails() {
    let h = Harness::start().await;
    for (fault, status) in [(Fault::NotFound, "404"), (Fault::ServerError(500), "500")] {
        h.fake.clear_faults();
        h.fake.push_fault(FaultRule::always(fault).on_path("/calendar-service/year/"));
        let (text, data) = h.call_ok("get_calendar", json!({})).await;
        assert!(data["counts"]["activities"].as_u64().is_some_and(|n| n > 0), "{status}: {text}");
        let missing = data["missing"].as_array().unwrap();
        assert!(
            missing
                .iter()
                .any(|m| m.as_str().is_some_and(|m| m.starts_with("scheduled workouts and notes: "))),
            "{status}: {missing:?}"
        );
    }
    // Only every request failing fails the tool.
    h.fake.clear_faults();
    for path in ["/calendar-service/year/", "/activitylist-service/", "/calendar-service/events"] {
        h.fake.push_fault(FaultRule::always(Fault::ServerError(500)).on_path(path));
    }
    let message = h.call_err("get_calendar", json!({})).await;
    assert!(message.contains("server error"), "{message}");
}

#[tokio::test]
async fn get_training_status_answers_with_the_rest_when_a_secondary_request_fails() {
    let h = Harness::start().await;
    each_secondary_failure_leaves_the_rest(
        &h,
        "get_training_status",
        json!({}),
        "/date",
        &[
            sec("/metrics-service/metrics/trainingreadiness/", Some("readiness")),
            sec("/metrics-service/metrics/maxmet/daily/", None),
            sec("/hrv-service/hrv/daily/", Some("hrv")),
            sec("/metrics-service/metrics/racepredictions/", Some("race_predictions")),
            sec("/biometric-service/biometric/latestLactateThreshold", Some("lactate_threshold")),
            sec("/metrics-service/metrics/endurancescore", Some("endurance_score")),
            sec("/metrics-service/metrics/hillscore", Some("hill_score")),
            sec("/fitnessage-service/fitnessage/", Some("fitness_age")),
            sec("/metrics-service/metrics/runningtolerance/", None),
            sec("/metrics-service/metrics/trainingstatus/", None),
        ],
    )
    .await;
}

#[tokio::test]
async fn get_activity_answers_with_the_rest_when_a_secondary_request_fails() {
    let h = Harness::start().await;
    let id = {
        let d = h.fake.state().inner.data.read().unwrap();
        d.live().rev().find(|a| a.kind == Kind::Tempo).map(|a| a.id).expect("a tempo run")
    };
    each_secondary_failure_leaves_the_rest(
        &h,
        "get_activity",
        json!({"activity_id": id, "include_series": true}),
        "/overview",
        &[
            sec("/splits", Some("splits")),
            sec("/hrTimeInZones", Some("heart-rate zones")),
            sec("/weather", Some("weather")),
            sec("/details", Some("series")),
        ],
    )
    .await;
}

#[tokio::test]
async fn social_tools_answer_with_the_rest_when_a_secondary_request_fails() {
    let h = Harness::start().await;
    each_secondary_failure_leaves_the_rest(
        &h,
        "get_achievements",
        json!({}),
        "/badges_earned",
        &[
            sec("/userprofile-service/socialProfile", Some("level and points")),
            sec("/goal-service/goal/goals", Some("goals")),
        ],
    )
    .await;
    each_secondary_failure_leaves_the_rest(
        &h,
        "get_challenges",
        json!({}),
        "/in_progress",
        &[
            sec("/badgeChallenge/available", Some("challenges open to join")),
            sec("/virtualChallenge/inProgress", Some("virtual challenges")),
            sec("/adhocchallenge-service/", Some("challenges with friends")),
        ],
    )
    .await;
    each_secondary_failure_leaves_the_rest(
        &h,
        "get_social",
        json!({}),
        "/connections_total",
        &[
            sec("/group-service/groups/", Some("groups")),
            sec("/userprofile-service/connection/pending", Some("pending requests")),
        ],
    )
    .await;
}

#[tokio::test]
async fn get_personal_records_answers_when_the_name_of_a_records_activity_cannot_be_read() {
    let h = Harness::start().await;
    for (fault, status) in failures() {
        h.fake.clear_faults();
        h.fake.clear_requests();
        // Records without their activity's name, as Garmin sends some: the tool reads the names.
        h.fake.push_fault(
            FaultRule::always(Fault::Overlay(json!([{"*": {"activityName": null}}])))
                .on_path("/personalrecord-service/personalrecord/prs/"),
        );
        h.fake.push_fault(FaultRule::always(fault).on_path("/activity-service/activity/"));
        let (text, out) = h.call_ok("get_personal_records", json!({})).await;
        assert!(out["records"].as_array().is_some_and(|r| !r.is_empty()), "{status}: {out}");
        assert!(
            h.gc_api_paths().iter().any(|p| p.starts_with("/gc-api/activity-service/activity/")),
            "the names are read from the activities"
        );
        if status == "500" {
            let missing = out["missing"].to_string();
            assert!(missing.contains("name of activity") && missing.contains("server error"), "{missing}");
            assert!(text.contains("Not shown: name of activity"), "{text}");
        }
    }
}
