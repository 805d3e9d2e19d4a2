//! Run: `cargo test -p fake-garmin --test endpoints calendar::`.
//!
//! The calendar month feed (0-based month, neighbouring weeks included so items repeat across
//! months) and calendar events (list, upcoming, create, read-modify-write update, delete).

use std::collections::BTreeSet;

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::support::{Api, today, yesterday};

fn item_ids(month: &Value) -> BTreeSet<u64> {
    month["calendarItems"]
        .as_array()
        .map(|l| l.iter().filter_map(|i| i["id"].as_u64()).collect())
        .unwrap_or_default()
}

#[tokio::test]
async fn calendar_month_is_zero_based_and_repeats_items_of_neighbouring_weeks() {
    let api = Api::start().await;
    let march = api.get("/calendar-service/year/2026/month/2").await;
    assert_eq!(
        (march["month"].clone(), march["year"].clone(), march["numOfDaysInMonth"].clone()),
        (json!(2), json!(2026), json!(31))
    );
    let items = march["calendarItems"].as_array().expect("items");
    assert!(items.iter().any(|i| i["itemType"] == "activity" && i["date"] == yesterday().to_string()));
    assert!(
        items.iter().all(|i| i["date"].as_str().is_some_and(|d| ("2026-03-01".."2026-04-05").contains(&d)))
    );
    // 31 Dec 2025 is a Wednesday: 28 Dec – 3 Jan shows in both December (11) and January (0).
    let december = api.get("/calendar-service/year/2025/month/11").await;
    let january = api.get("/calendar-service/year/2026/month/0").await;
    let shared: Vec<u64> = item_ids(&december).intersection(&item_ids(&january)).copied().collect();
    assert!(!shared.is_empty(), "items of the shared week show in both months: dedupe by id");
    let dates: BTreeSet<&str> = january["calendarItems"]
        .as_array()
        .expect("items")
        .iter()
        .filter_map(|i| i["date"].as_str())
        .collect();
    assert!(dates.iter().any(|d| d.starts_with("2025-12-")), "January starts on the Sunday before the 1st");
    assert_eq!(api.status("/calendar-service/year/2026/month/12").await, StatusCode::BAD_REQUEST);
    let week = api
        .get(&format!("/calendar-service/year/2026/month/2/day/{}/start/1", yesterday().format("%d")))
        .await;
    assert!(week["calendarItems"].as_array().is_some_and(|l| !l.is_empty()));
}

#[tokio::test]
async fn calendar_events_are_created_read_updated_and_deleted() {
    let api = Api::start().await;
    let body = json!({
        "eventName": "Harbour 5K", "date": "2026-05-03", "eventTimeLocal": {"startTimeHhMm": "08:15", "timeZoneId": "America/Costa_Rica"},
        "eventType": "running", "race": true, "completionTarget": {"value": 5, "unit": "kilometer", "unitType": "distance"},
        "eventCustomization": {"customGoal": {"value": 1260, "unit": "second", "unitType": "time"}, "isPrimaryEvent": false},
        "location": "Harbour", "url": "https://example.invalid/5k", "note": "PB attempt"
    });
    let (status, e) = api.post("/calendar-service/event", &body).await;
    assert_eq!(status, StatusCode::OK, "{e}");
    let id = e["id"].as_u64().expect("id");
    assert_eq!(e["eventPrivacy"]["label"], "PRIVATE");
    let path = format!("/calendar-service/event/{id}");
    assert_eq!(api.get(&path).await, e);
    let may = api.get("/calendar-service/year/2026/month/4").await;
    assert!(
        may["calendarItems"].as_array().is_some_and(|l| l
            .iter()
            .any(|i| i["id"] == id && i["itemType"] == "event" && i["isRace"] == true))
    );
    let listed = api.get("/calendar-service/events?startDate=2026-05-01&endDate=2026-05-31&limit=20&pageIndex=1&sortOrder=eventDate_asc").await;
    assert!(listed.as_array().is_some_and(|l| l.iter().any(|x| x["id"] == id)));
    assert_eq!(
        api.get(&format!(
            "/calendar-service/event/{}/shareable",
            e["shareableEventUuid"].as_str().expect("uuid")
        ))
        .await["id"],
        id
    );
    let (status, _) = api.put(&path, &json!({"eventName": "Harbour 5K (moved)", "date": "2026-05-10"})).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let moved = api.get(&path).await;
    assert_eq!(
        (moved["eventName"].clone(), moved["date"].clone(), moved["note"].clone()),
        (json!("Harbour 5K (moved)"), json!("2026-05-10"), json!("PB attempt"))
    );
    assert_eq!(api.delete(&path).await, StatusCode::NO_CONTENT);
    assert_eq!(api.status(&path).await, StatusCode::NOT_FOUND);
    assert_eq!(api.delete(&path).await, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn invalid_calendar_events_are_refused_with_400() {
    let api = Api::start().await;
    for body in [
        json!({"date": "2026-05-03"}),
        json!({"eventName": "x"}),
        json!({"eventName": "x", "date": "May 3rd"}),
        json!({"eventName": "x", "date": "2026-05-03", "completionTarget": {"value": 5, "unit": "parsec"}}),
        json!({"eventName": "x", "date": "2026-05-03", "eventTimeLocal": {"startTimeHhMm": "25:99"}}),
        json!("just a string"),
    ] {
        let (status, err) = api.post("/calendar-service/event", &body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {err}");
    }
}

#[tokio::test]
async fn seeded_events_have_a_past_race_and_races_ahead() {
    let api = Api::start().await;
    let upcoming = api.get("/calendar-service/events/upcoming?numDaysForward=365&limit=10").await;
    let names: Vec<&str> =
        upcoming.as_array().expect("list").iter().filter_map(|e| e["eventName"].as_str()).collect();
    assert_eq!(names, ["Sampletown 10K", "Example Big City Marathon"]);
    let all = api
        .get(&format!(
            "/calendar-service/events?startDate={}&endDate={}",
            today() - chrono::Duration::days(365),
            today()
        ))
        .await;
    let past = all.as_array().and_then(|l| l.first()).cloned().expect("the past half marathon");
    let race_id =
        past["eventCustomization"]["associatedWithActivityId"].as_u64().expect("completed by an activity");
    let race = api.get(&format!("/activity-service/activity/{race_id}")).await;
    assert!(race["summaryDTO"]["distance"].as_f64().is_some_and(|d| d > 21_000.0));
    assert_eq!(race["eventTypeDTO"]["typeKey"], "race");
}
