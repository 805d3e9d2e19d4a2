//! `get_calendar`: one month by day, checked against the fake's data set (activities, scheduled
//! workouts, events), the 0-based month on the wire, neighbouring weeks left out, empty months,
//! session renewal and 429s mid-call, the budget.
//!
//! Run: `cargo test -p garmin-mcp --test tools calendar::`

use std::collections::{BTreeMap, BTreeSet, HashSet};

use chrono::{Datelike, Duration, NaiveDate};
use fake_garmin::faults::{Fault, FaultRule};
use garmin_mcp::output;
use serde_json::{Value, json};

use crate::support::{Harness, all_text, today};

fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

fn month_of(date: NaiveDate) -> (NaiveDate, NaiveDate) {
    let first = date.with_day(1).unwrap();
    let last = first.checked_add_months(chrono::Months::new(1)).unwrap().pred_opt().unwrap();
    (first, last)
}

/// Every request of the call, as `path?query`; none may repeat.
fn assert_no_repeated_request(h: &Harness) {
    let mut seen = HashSet::new();
    for r in h.fake.requests().into_iter().filter(|r| r.path.starts_with("/gc-api") && r.status < 400) {
        let key = format!("{}?{}", r.path, r.query.unwrap_or_default());
        assert!(seen.insert(key.clone()), "requested twice: {key}");
    }
}

/// The fake's own view of a month: activity id → (name, km), schedule id → (workout id, name),
/// event id → (name, goal seconds, primary).
struct Expected {
    activities: BTreeMap<u64, (String, f64, f64)>,
    schedules: BTreeMap<u64, (u64, String)>,
    events: BTreeMap<u64, (String, Option<f64>, bool)>,
}

fn expected(h: &Harness, first: NaiveDate, last: NaiveDate) -> Expected {
    let d = h.fake.state().inner.data.read().unwrap();
    let inside = |x: NaiveDate| first <= x && x <= last;
    Expected {
        activities: d
            .live()
            .filter(|a| inside(a.start_local.date()))
            .map(|a| (a.id, (a.name.clone(), a.stats.distance, a.stats.duration)))
            .collect(),
        schedules: d
            .schedules
            .values()
            .filter(|s| inside(s.date))
            .map(|s| {
                let name = d.workouts[&s.workout_id]["workoutName"].as_str().unwrap().to_owned();
                (s.id, (s.workout_id, name))
            })
            .collect(),
        events: d
            .events
            .values()
            .filter(|e| inside(e.date))
            .map(|e| (e.id, (e.name.clone(), e.goal_s, e.primary)))
            .collect(),
    }
}

fn rows<'a>(data: &'a Value, kind: &str) -> Vec<(&'a str, &'a Value)> {
    data["days"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|d| {
            let date = d["date"].as_str().unwrap();
            d[kind].as_array().into_iter().flatten().map(move |r| (date, r))
        })
        .collect()
}

#[tokio::test]
async fn current_month_lists_the_fakes_activities_workouts_and_events_by_day() {
    let h = Harness::start().await;
    let (first, last) = month_of(today());
    let want = expected(&h, first, last);
    let (text, data) = h.call_ok("get_calendar", json!({})).await;

    assert_eq!((data["year"].as_i64(), data["month"].as_u64()), (Some(2026), Some(11)));
    let activities = rows(&data, "activities");
    let got: BTreeSet<u64> = activities.iter().map(|(_, a)| a["activity_id"].as_u64().unwrap()).collect();
    assert_eq!(got, want.activities.keys().copied().collect::<BTreeSet<_>>());
    for (_, a) in &activities {
        let (name, meters, seconds) = &want.activities[&a["activity_id"].as_u64().unwrap()];
        assert_eq!(a["name"], name.as_str());
        if *meters > 0.0 {
            assert_eq!(a["distance_km"].as_f64(), Some(display::km(*meters)), "{a}");
        }
        assert_eq!(a["duration"], display::duration(*seconds), "{a}");
    }
    let total_m: f64 = want.activities.values().map(|a| a.1).sum();
    assert_eq!(data["counts"]["activities"], want.activities.len());
    assert_eq!(data["counts"]["activity_distance_km"].as_f64(), Some(display::km(total_m)));

    let workouts = rows(&data, "workouts");
    let got: BTreeMap<u64, (u64, String)> = workouts
        .iter()
        .map(|(_, w)| {
            let ids = (w["schedule_id"].as_u64().unwrap(), w["workout_id"].as_u64().unwrap());
            (ids.0, (ids.1, w["name"].as_str().unwrap().to_owned()))
        })
        .collect();
    assert_eq!(got, want.schedules);
    assert!(workouts.iter().all(|(_, w)| w["sport"] == "running"));
    assert_eq!(data["counts"]["scheduled_workouts"], want.schedules.len());
    assert_eq!(data["counts"]["events"], want.events.len());

    // The next item: the first schedule on or after today.
    let d = h.fake.state().inner.data.read().unwrap();
    let next = d
        .schedules
        .values()
        .filter(|s| s.date >= today() && s.date <= last)
        .min_by_key(|s| s.date)
        .unwrap()
        .clone();
    let next_name = d.workouts[&next.workout_id]["workoutName"].as_str().unwrap().to_owned();
    drop(d);
    assert_eq!(data["next_upcoming"]["date"], next.date.to_string());
    assert_eq!(data["next_upcoming"]["name"], next_name.as_str());
    assert_eq!(data["next_upcoming"]["in_days"], (next.date - today()).num_days());
    assert!(text.starts_with("November 2026:") && text.contains(&next_name), "{text}");
    assert!(text.contains(&format!("{} activities", want.activities.len())), "{text}");
}

#[tokio::test]
async fn the_month_is_asked_zero_based_with_one_range_read_each_and_nothing_twice() {
    let h = Harness::start().await;
    h.call_ok("get_calendar", json!({"year": 2026, "month": 11})).await;
    let paths = h.gc_api_paths();
    assert!(paths.contains(&"/gc-api/calendar-service/year/2026/month/10".to_owned()), "{paths:?}");
    let requests = h.fake.requests();
    let search = requests
        .iter()
        .find(|r| r.path.ends_with("/activities/search/activities"))
        .expect("one activity-list read for the month");
    let query = search.query.clone().unwrap_or_default();
    assert!(query.contains("startDate=2026-11-01") && query.contains("endDate=2026-11-30"), "{query}");
    let events = requests.iter().find(|r| r.path == "/gc-api/calendar-service/events").expect("events read");
    let query = events.query.clone().unwrap_or_default();
    assert!(query.contains("startDate=2026-11-01") && query.contains("endDate=2026-11-30"), "{query}");
    assert_eq!(paths.len(), 3, "{paths:?}");
    assert_no_repeated_request(&h);
}

#[tokio::test]
async fn neighbouring_weeks_of_the_feed_stay_out_of_the_month() {
    let h = Harness::start().await;
    // October's feed runs Sun 27 Sep … Sat 7 Nov; only October's days may show.
    let (_, data) = h.call_ok("get_calendar", json!({"year": 2026, "month": 10})).await;
    let days: Vec<&str> =
        data["days"].as_array().unwrap().iter().map(|d| d["date"].as_str().unwrap()).collect();
    assert!(!days.is_empty());
    assert!(days.iter().all(|d| d.starts_with("2026-10-")), "{days:?}");
    let want = expected(&h, day(2026, 10, 1), day(2026, 10, 31));
    assert_eq!(data["counts"]["activities"], want.activities.len());
    assert_eq!(data["counts"]["scheduled_workouts"], want.schedules.len());
}

#[tokio::test]
async fn a_race_month_shows_the_event_with_its_goal_and_primary_flag() {
    let h = Harness::start().await;
    let (race_day, marathon) = {
        let d = h.fake.state().inner.data.read().unwrap();
        let marathon = d.events.values().find(|e| e.primary).unwrap().clone();
        (d.race_day, marathon)
    };
    // The past half marathon: event and the race activity on the same day.
    let (_, data) =
        h.call_ok("get_calendar", json!({"year": race_day.year(), "month": race_day.month()})).await;
    let want = expected(&h, month_of(race_day).0, month_of(race_day).1);
    let events = rows(&data, "events");
    assert_eq!(events.len(), want.events.len());
    let (date, half) = events.iter().find(|(_, e)| e["name"] == "Bayside Half Marathon").unwrap();
    assert_eq!(*date, race_day.to_string());
    assert_eq!(half["distance_km"].as_f64(), Some(21.1));
    assert_eq!(half["goal"], "1:45:00");
    assert_eq!((half["primary"].as_bool(), half["race"].as_bool()), (Some(false), Some(true)));

    // The marathon ahead is the primary race.
    let (text, data) = h
        .call_ok("get_calendar", json!({"year": marathon.date.year(), "month": marathon.date.month()}))
        .await;
    let events = rows(&data, "events");
    let (_, m) = events.iter().find(|(_, e)| e["event_id"] == marathon.id).unwrap();
    assert_eq!(m["primary"], true);
    assert_eq!(m["goal"], display::duration(marathon.goal_s.unwrap()));
    assert_eq!(m["distance_km"].as_f64(), Some(42.2));
    assert_eq!(data["next_upcoming"]["name"], marathon.name.as_str());
    assert!(text.contains(&marathon.name), "{text}");
}

#[tokio::test]
async fn a_month_before_the_data_set_is_an_empty_answer_not_an_error() {
    let h = Harness::start().await;
    let (text, data) = h.call_ok("get_calendar", json!({"year": 2020, "month": 1})).await;
    assert_eq!(data["days"], json!([]));
    assert_eq!(data["counts"]["activities"], 0);
    assert_eq!(data["counts"]["scheduled_workouts"], 0);
    assert!(data.get("next_upcoming").is_none());
    assert!(text.starts_with("Nothing on your calendar for January 2020"), "{text}");
    assert!(h.gc_api_paths().contains(&"/gc-api/calendar-service/year/2020/month/0".to_owned()));
}

#[tokio::test]
async fn impossible_months_and_years_are_protocol_errors() {
    let h = Harness::start().await;
    let err = h.call_invalid("get_calendar", json!({"year": 2026, "month": 13})).await;
    assert!(err.contains("month must be 1–12"), "{err}");
    let err = h.call_invalid("get_calendar", json!({"month": 0})).await;
    assert!(err.contains("month must be 1–12"), "{err}");
    let err = h.call_invalid("get_calendar", json!({"year": 1800, "month": 1})).await;
    assert!(err.contains("year"), "{err}");
    assert!(h.gc_api_paths().is_empty(), "nothing is sent for bad arguments");
}

#[tokio::test]
async fn an_expired_session_mid_call_is_renewed_transparently() {
    let h = Harness::start().await;
    h.fake.expire_access_tokens();
    h.fake.push_fault(FaultRule::times(Fault::ExpireSession, 1).on_path("calendar-service/events"));
    let (_, data) = h.call_ok("get_calendar", json!({"year": 2026, "month": 11})).await;
    let want = expected(&h, day(2026, 11, 1), day(2026, 11, 30));
    assert_eq!(data["counts"]["activities"], want.activities.len());
    assert_eq!(data["counts"]["events"], want.events.len());
}

#[tokio::test]
async fn a_429_with_retry_after_still_answers() {
    let h = Harness::start().await;
    h.fake.push_fault(
        FaultRule::times(Fault::RateLimited { retry_after_secs: Some(1) }, 1)
            .on_path("calendar-service/year"),
    );
    let (_, data) = h.call_ok("get_calendar", json!({"year": 2026, "month": 11})).await;
    let want = expected(&h, day(2026, 11, 1), day(2026, 11, 30));
    assert_eq!(data["counts"]["scheduled_workouts"], want.schedules.len());
    assert!(h.fake.requests().iter().any(|r| r.status == 429), "the fault was hit");
}

#[tokio::test]
async fn every_month_of_the_data_set_fits_the_budget() {
    let h = Harness::start().await;
    let mut biggest = 0;
    let mut month = today() - Duration::days(365);
    while month <= today() + Duration::days(31) {
        let result = h.call("get_calendar", json!({"year": month.year(), "month": month.month()})).await;
        let size = all_text(&result).len();
        assert!(size <= output::BUDGET_BYTES, "{}-{}: {size} bytes", month.year(), month.month());
        assert!(result.structured_content.unwrap()["activities_left_out"].is_null());
        biggest = biggest.max(size);
        month = month.checked_add_months(chrono::Months::new(1)).unwrap();
    }
    eprintln!("get_calendar: biggest month {biggest} bytes");
}
