//! `search_events`: the calendar events of the fake account filtered by name, dates, place and
//! distance, the athlete's next race, empty searches, bad arguments, session renewal and 429s,
//! the budget with a crowded calendar.
//!
//! Run: `cargo test -p garmin-mcp --test tools events::`

use std::collections::HashSet;

use chrono::Duration;
use fake_garmin::data::events::Event as FakeEvent;
use fake_garmin::faults::{Fault, FaultRule};
use garmin::models::events::{CompletionTarget, Event};
use garmin_mcp::output;
use serde_json::{Value, json};

use crate::support::{Harness, all_text, today};

/// Every successful request of the call, as `path?query`; none may repeat.
fn assert_no_repeated_request(h: &Harness) {
    let mut seen = HashSet::new();
    for r in h.fake.requests().into_iter().filter(|r| r.path.starts_with("/gc-api") && r.status < 400) {
        let key = format!("{}?{}", r.path, r.query.unwrap_or_default());
        assert!(seen.insert(key.clone()), "requested twice: {key}");
    }
}

/// The fake's events, soonest first.
fn fake_events(h: &Harness) -> Vec<FakeEvent> {
    let mut events: Vec<FakeEvent> =
        h.fake.state().inner.data.read().unwrap().events.values().cloned().collect();
    events.sort_by_key(|e| (e.date, e.id));
    events
}

fn names(data: &Value) -> Vec<String> {
    data["events"].as_array().unwrap().iter().map(|e| e["name"].as_str().unwrap().to_owned()).collect()
}

#[tokio::test]
async fn without_filters_it_lists_the_upcoming_races_of_the_next_year_in_one_read() {
    let h = Harness::start().await;
    let (text, data) = h.call_ok("search_events", json!({})).await;
    let want: Vec<FakeEvent> = fake_events(&h)
        .into_iter()
        .filter(|e| e.date >= today() && e.date <= today() + Duration::days(365))
        .collect();
    assert!(want.len() >= 2);
    let rows = data["events"].as_array().unwrap();
    assert_eq!(rows.len(), want.len());
    for (row, e) in rows.iter().zip(&want) {
        assert_eq!(row["event_id"], e.id);
        assert_eq!(row["name"], e.name.as_str());
        assert_eq!(row["date"], e.date.to_string());
        assert_eq!(row["in_days"], (e.date - today()).num_days());
        assert_eq!(row["distance_km"].as_f64(), e.target_m().map(output::km));
        assert_eq!(row["goal"].as_str(), e.goal_s.map(output::duration).as_deref());
        assert_eq!(row["primary"], e.primary);
        assert_eq!(row["event_uuid"], e.uuid.as_str());
        assert_eq!(row["location"].as_str(), e.location.as_deref());
        assert_eq!(row["start_time"].as_str(), e.start_hhmm.as_deref());
    }
    assert_eq!(data["next_race"]["name"], want[0].name.as_str());
    assert_eq!(data["more_matches"], 0);
    assert!(text.contains(&want[0].name) && text.contains("your primary race"), "{text}");
    assert!(text.contains("not Garmin's public race catalogue"), "{text}");

    let requests: Vec<_> = h.fake.requests().into_iter().filter(|r| r.path.starts_with("/gc-api")).collect();
    assert_eq!(requests.len(), 1, "one read serves the list and the next race");
    assert_eq!(requests[0].path, "/gc-api/calendar-service/events");
    let q = requests[0].query.clone().unwrap_or_default();
    assert!(q.contains("startDate=2026-11-15") && q.contains("endDate=2027-11-15"), "{q}");
}

#[tokio::test]
async fn a_name_query_over_past_dates_finds_the_race_and_still_tells_the_next_one() {
    let h = Harness::start().await;
    let (text, data) =
        h.call_ok("search_events", json!({"query": "HALF marathon", "start_date": "2026-01-01"})).await;
    let half = fake_events(&h).into_iter().find(|e| e.name.contains("Half")).unwrap();
    assert_eq!(names(&data), std::slice::from_ref(&half.name));
    assert_eq!(data["events"][0]["distance_name"], "half marathon");
    assert_eq!(data["events"][0]["in_days"], (half.date - today()).num_days());
    let next = fake_events(&h).into_iter().find(|e| e.date >= today()).unwrap();
    assert_eq!(data["next_race"]["name"], next.name.as_str());
    assert!(text.starts_with("1 event on your Garmin calendar matches"), "{text}");
    assert!(text.contains(&format!("Your next race: {}", next.name)), "{text}");
    assert_eq!(h.gc_api_paths().len(), 2, "the search range and the next-race window");
    assert_no_repeated_request(&h);
}

#[tokio::test]
async fn distance_and_city_filters_match_the_event_data() {
    let h = Harness::start().await;
    let wide = json!({"start_date": "2026-01-01", "end_date": "2027-12-31"});
    let with = |extra: Value| {
        let mut args = wide.clone();
        args.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        args
    };
    let all = fake_events(&h);
    let (_, data) = h.call_ok("search_events", with(json!({"distance": "marathon"}))).await;
    let marathons: Vec<String> =
        all.iter().filter(|e| e.target_m() == Some(42_195.0)).map(|e| e.name.clone()).collect();
    assert_eq!(names(&data), marathons, "a marathon is not a half marathon");
    let (_, data) = h.call_ok("search_events", with(json!({"distance": "21.1"}))).await;
    assert_eq!(names(&data), ["Bayside Half Marathon"]);
    let (_, data) = h.call_ok("search_events", with(json!({"distance": "10k"}))).await;
    assert_eq!(names(&data), ["Sampletown 10K"]);
    let (_, data) = h.call_ok("search_events", with(json!({"city": "bayside"}))).await;
    let in_bayside: Vec<String> = all
        .iter()
        .filter(|e| e.location.as_deref().is_some_and(|l| l.to_lowercase().contains("bayside")))
        .map(|e| e.name.clone())
        .collect();
    assert_eq!(names(&data), in_bayside);
    let (_, data) = h.call_ok("search_events", with(json!({"limit": 1}))).await;
    assert_eq!(data["events"].as_array().unwrap().len(), 1);
    assert_eq!(data["more_matches"], all.len() - 1);
}

#[tokio::test]
async fn nothing_matching_is_an_empty_answer_not_an_error() {
    let h = Harness::start().await;
    let (text, data) = h.call_ok("search_events", json!({"city": "Berlin"})).await;
    assert_eq!(data["events"], json!([]));
    assert!(text.starts_with("No events on your Garmin calendar match"), "{text}");
    assert!(data["next_race"].is_object(), "the next race is still told");
    let (text, data) =
        h.call_ok("search_events", json!({"start_date": "2020-01-01", "end_date": "2020-12-31"})).await;
    assert_eq!(data["events"], json!([]));
    assert!(
        text.starts_with("No events on your Garmin calendar between 2020-01-01 and 2020-12-31"),
        "{text}"
    );
}

#[tokio::test]
async fn bad_dates_distances_and_limits_are_protocol_errors() {
    let h = Harness::start().await;
    let err = h.call_invalid("search_events", json!({"start_date": "next week"})).await;
    assert!(err.contains("start_date must be YYYY-MM-DD, got `next week`"), "{err}");
    let err =
        h.call_invalid("search_events", json!({"start_date": "2026-12-01", "end_date": "2026-11-01"})).await;
    assert!(err.contains("before"), "{err}");
    let err = h.call_invalid("search_events", json!({"distance": "far"})).await;
    assert!(err.contains("distance must be"), "{err}");
    let err = h.call_invalid("search_events", json!({"limit": 0})).await;
    assert!(err.contains("limit"), "{err}");
    let err =
        h.call_invalid("search_events", json!({"start_date": "2020-01-01", "end_date": "2026-01-01"})).await;
    assert!(err.contains("three years"), "{err}");
    assert!(h.gc_api_paths().is_empty());
}

#[tokio::test]
async fn an_expired_session_and_a_429_mid_call_still_answer() {
    let h = Harness::start().await;
    h.fake.expire_access_tokens();
    h.fake.push_fault(
        FaultRule::times(Fault::RateLimited { retry_after_secs: Some(1) }, 1)
            .on_path("calendar-service/events"),
    );
    let (_, data) = h
        .call_ok(
            "search_events",
            json!({"query": "marathon", "start_date": "2026-01-01", "end_date": "2027-12-31"}),
        )
        .await;
    assert_eq!(data["events"].as_array().unwrap().len(), 2);
    assert!(h.fake.requests().iter().any(|r| r.status == 429));
    h.fake.push_fault(FaultRule::times(Fault::ExpireSession, 1).on_path("calendar-service/events"));
    let (_, data) = h.call_ok("search_events", json!({})).await;
    assert!(!data["events"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn a_crowded_calendar_stays_within_the_budget_at_the_default_limit() {
    let h = Harness::start().await;
    let client = garmin::Client::from_store(h.store.clone()).unwrap();
    for i in 0..40 {
        let event = Event {
            event_name: Some(format!("Club Series Race {i:02} — a rather long name for a Saturday 10K")),
            date: Some(today() + Duration::days(3 + i)),
            event_type: Some("running".into()),
            race: Some(true),
            completion_target: Some(CompletionTarget {
                value: Some(10.0),
                unit: Some("kilometer".into()),
                unit_type: Some("distance".into()),
            }),
            location: Some("Sampletown Harbour Park, Exampleland".into()),
            url: Some(format!("https://example.org/races/club-series/{i}")),
            ..Event::default()
        };
        client.events().create(&event).await.unwrap();
    }
    let result = h.call("search_events", json!({})).await;
    let size = all_text(&result).len();
    let data = result.structured_content.unwrap();
    assert_eq!(data["events"].as_array().unwrap().len(), 20);
    assert!(data["more_matches"].as_u64().unwrap() > 0);
    assert!(size <= output::BUDGET_BYTES, "{size} bytes");
    eprintln!("search_events: {size} bytes with 20 events listed");

    // The largest limit is shortened to the budget, the rest counted.
    let result = h.call("search_events", json!({"limit": 50})).await;
    let size = all_text(&result).len();
    let data = result.structured_content.unwrap();
    assert!(size <= output::BUDGET_BYTES, "{size} bytes");
    let listed = data["events"].as_array().unwrap().len() as u64;
    assert_eq!(listed + data["more_matches"].as_u64().unwrap(), 42);
}
