//! Run: `cargo test -p fake-garmin --test endpoints determinism::`.
//!
//! The data set is a pure function of seed and "today", and has the promised make-up: a year of
//! days, about four runs a week plus a ride, a swim and two strength sessions, a run yesterday.

use std::collections::BTreeMap;

use crate::support::{Api, today, type_key, yesterday};

/// Paths whose bodies must be byte-identical across two fakes with the same seed and date.
fn paths(dn: &str, activity: u64) -> Vec<String> {
    let y = yesterday();
    vec![
        "/activitylist-service/activities/search/activities?start=0&limit=1000".into(),
        format!("/activity-service/activity/{activity}"),
        format!("/activity-service/activity/{activity}/details?maxChartSize=500"),
        format!("/activity-service/activity/{activity}/splits"),
        format!("/usersummary-service/usersummary/daily/{dn}?calendarDate={y}"),
        format!("/wellness-service/wellness/dailyStress/{y}"),
        format!("/sleep-service/sleep/dailySleepData?date={y}"),
        format!("/hrv-service/hrv/daily/{}/{y}", y - chrono::Duration::days(27)),
        format!("/metrics-service/metrics/trainingstatus/aggregated/{y}"),
        format!("/personalrecord-service/personalrecord/prs/{dn}"),
        "/calendar-service/year/2026/month/2".into(),
        "/workout-service/workouts?start=0&limit=100".into(),
        "/gear-service/gear/filterGear".into(),
        "/calendar-service/events?startDate=2025-01-01&endDate=2027-12-31".into(),
    ]
}

#[tokio::test]
async fn two_fakes_with_the_same_seed_and_day_serve_identical_bodies() {
    let (a, b) = (Api::start().await, Api::start().await);
    let run = a.newest(|x| type_key(x) == "running").await["activityId"].as_u64().expect("id");
    for path in paths(&a.display_name, run) {
        let (x, y) = (
            a.call(reqwest::Method::GET, &path, None).await,
            b.call(reqwest::Method::GET, &path, None).await,
        );
        assert_eq!(x.status(), reqwest::StatusCode::OK, "{path}");
        assert_eq!(
            x.bytes().await.expect("body"),
            y.bytes().await.expect("body"),
            "{path} differs between two identical fakes"
        );
    }
}

#[tokio::test]
async fn another_seed_gives_other_data() {
    let (a, b) = (Api::start_with(42).await, Api::start_with(7).await);
    let path = "/activitylist-service/activities/search/activities?start=0&limit=20";
    assert_ne!(a.get(path).await, b.get(path).await);
}

#[tokio::test]
async fn the_year_has_four_runs_a_week_a_ride_a_swim_and_two_strength_sessions() {
    let api = Api::start().await;
    let all = api.all_activities().await;
    let first_id = all.first().and_then(|a| a["activityId"].as_u64());
    assert_eq!(first_id, Some(90_000_000_001));
    let ids: Vec<u64> = all.iter().filter_map(|a| a["activityId"].as_u64()).collect();
    assert!(ids.windows(2).all(|w| w[1] == w[0] + 1), "ids count up in start order");
    let mut per_type: BTreeMap<&str, usize> = BTreeMap::new();
    for a in &all {
        *per_type.entry(type_key(a)).or_default() += 1;
    }
    let weeks = 52.0;
    let rate = |k: &str| per_type.get(k).copied().unwrap_or_default() as f64 / weeks;
    assert!((3.2..=4.2).contains(&rate("running")), "{per_type:?}");
    for k in ["cycling", "lap_swimming"] {
        assert!((0.75..=1.05).contains(&rate(k)), "{k}: {per_type:?}");
    }
    // Two strength sessions a week (Monday, Thursday evening), about one in ten skipped.
    assert!((1.55..=2.05).contains(&rate("strength_training")), "{per_type:?}");
    let last = all.last().expect("activities");
    assert_eq!(type_key(last), "running");
    assert!(
        last["startTimeLocal"].as_str().is_some_and(|s| s.starts_with(&yesterday().to_string())),
        "a run yesterday"
    );
    assert!(
        all.iter()
            .all(|a| !a["startTimeLocal"].as_str().unwrap_or_default().starts_with(&today().to_string())),
        "nothing today"
    );
    let first_day = api
        .get(&format!(
            "/usersummary-service/usersummary/daily/{}?calendarDate={}",
            api.display_name,
            today() - chrono::Duration::days(364)
        ))
        .await;
    assert!(first_day["totalSteps"].is_number(), "the first day of the year has data");
    let paces: Vec<f64> = all
        .iter()
        .filter(|a| type_key(a) == "running")
        .filter_map(|a| a["averageSpeed"].as_f64())
        .map(|v| 1000.0 / v)
        .collect();
    assert!(paces.iter().all(|p| (240.0..=400.0).contains(p)), "run paces stay between 4:00 and 6:40 /km");
    let names: Vec<&str> = all.iter().filter_map(|a| a["activityName"].as_str()).collect();
    assert!(names.iter().any(|n| !n.is_ascii()), "some names are Chinese");
}
