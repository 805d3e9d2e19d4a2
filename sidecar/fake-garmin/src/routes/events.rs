//! Calendar events (reference §4.10, §4.13): the event list and the upcoming list, one event by
//! id or by shareable uuid, and the writes — `POST` (stored, always private), `PUT` (whole-record
//! read-modify-write, no body), `DELETE` (final: later reads 404) and the customization `PUT`.

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::{get, post, put};
use chrono::Duration;
use serde_json::{Value, json};

use super::{Obj, Query, bad_request, body_json, date, id, no_content, not_found, ok, read, write};
use crate::data::clock;
use crate::data::events::{Event, apply};
use crate::state::AppState;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/calendar-service/events", get(list))
        .route("/calendar-service/events/upcoming", get(upcoming))
        .route("/calendar-service/event", post(create))
        .route("/calendar-service/event/{id}", get(one).put(update).delete(delete))
        .route("/calendar-service/event/{uuid}/shareable", get(shareable))
        .route("/calendar-service/event/{uuid}/customization", put(customize))
}

/// The JSON form of an event (superset of `graphql/my_day_card_events_scalar.json` rows).
pub(super) fn event_json(e: &Event) -> Value {
    let target = e.target.as_ref().map(|(v, unit)| json!({"value": v, "unit": unit, "unitType": "distance"}));
    let time = e.start_hhmm.as_ref().map(|t| json!({"startTimeHhMm": t, "timeZoneId": e.time_zone}));
    let customization = json!({
        "customGoal": e.goal_s.map(|g| json!({"value": g, "unit": "second", "unitType": "time"})),
        "isPrimaryEvent": e.primary,
        "associatedWithActivityId": e.activity_id,
        "isTrainingEvent": e.race,
        "isGoalMet": e.activity_id.is_some(),
        "trainingPlanId": null,
        "trainingPlanType": null
    });
    Obj::new()
        .set("id", e.id)
        .set("eventName", e.name.clone())
        .set("date", clock::date(e.date))
        .set("completionTarget", target)
        .set("eventTimeLocal", time)
        .set("eventImageUUID", Value::Null)
        .set("locationStartPoint", e.start_point.map(|(lat, lon)| json!({"lat": lat, "lon": lon})))
        .set("eventType", e.event_type.clone())
        .set("shareableEventUuid", e.uuid.clone())
        .set("eventCustomization", customization)
        .set("eventOrganizer", false)
        .set("race", e.race)
        .set("location", e.location.clone())
        .set("url", e.url.clone())
        .set("note", e.note.clone())
        .set("eventPrivacy", json!({"label": "PRIVATE", "isShareable": false}))
        .set("subscribed", true)
        .set("provider", Value::Null)
        .build()
}

/// `GET /calendar-service/events?startDate&endDate&limit&pageIndex=1&sortOrder=eventDate_asc`
async fn list(State(state): State<AppState>, q: Query) -> Response {
    let d = read(&state);
    let start = match q.get("startDate").map(|s| date(s)).transpose() {
        Ok(s) => s,
        Err(e) => return e.into(),
    };
    let end = match q.get("endDate").map(|s| date(s)).transpose() {
        Ok(s) => s,
        Err(e) => return e.into(),
    };
    let mut events: Vec<&Event> = d
        .events
        .values()
        .filter(|e| start.is_none_or(|s| e.date >= s) && end.is_none_or(|x| e.date <= x))
        .collect();
    events.sort_by_key(|e| (e.date, e.id));
    if q.get("sortOrder").is_some_and(|s| s.ends_with("desc")) {
        events.reverse();
    }
    let limit = q.get("limit").and_then(|v| v.parse::<usize>().ok()).unwrap_or(20).clamp(1, 200);
    let page = q.get("pageIndex").and_then(|v| v.parse::<usize>().ok()).unwrap_or(1).max(1);
    ok(Value::Array(events.into_iter().skip((page - 1) * limit).take(limit).map(event_json).collect()))
}

/// `GET /calendar-service/events/upcoming?numDaysForward&limit`
async fn upcoming(State(state): State<AppState>, q: Query) -> Response {
    let d = read(&state);
    let days = q.get("numDaysForward").and_then(|v| v.parse::<i64>().ok()).unwrap_or(365).clamp(0, 3650);
    let limit = q.get("limit").and_then(|v| v.parse::<usize>().ok()).unwrap_or(20);
    let horizon = d.today + Duration::days(days);
    let mut events: Vec<&Event> =
        d.events.values().filter(|e| e.date >= d.today && e.date <= horizon).collect();
    events.sort_by_key(|e| (e.date, e.id));
    ok(Value::Array(events.into_iter().take(limit).map(event_json).collect()))
}

/// `GET /calendar-service/event/{id}`
async fn one(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    let d = read(&state);
    match id(&raw).ok().and_then(|i| d.events.get(&i)) {
        Some(e) => ok(event_json(e)),
        None => not_found(),
    }
}

/// `GET /calendar-service/event/{uuid}/shareable`
async fn shareable(State(state): State<AppState>, Path(uuid): Path<String>) -> Response {
    let d = read(&state);
    match d.events.values().find(|e| e.uuid == uuid) {
        Some(e) => ok(event_json(e)),
        None => not_found(),
    }
}

/// `POST /calendar-service/event` → the stored event with its `id`.
async fn create(State(state): State<AppState>, body: Bytes) -> Response {
    let body = match body_json(&body) {
        Ok(b) => b,
        Err(e) => return e.into(),
    };
    match write(&state).create_event(&body) {
        Ok(e) => ok(event_json(&e)),
        Err(why) => bad_request(why),
    }
}

/// `PUT /calendar-service/event/{id}` (whole record) → 204.
async fn update(State(state): State<AppState>, Path(raw): Path<String>, body: Bytes) -> Response {
    let body = match body_json(&body) {
        Ok(b) => b,
        Err(e) => return e.into(),
    };
    let mut d = write(&state);
    let Some(current) = id(&raw).ok().and_then(|i| d.events.get(&i)).cloned() else { return not_found() };
    match apply(&body, &current) {
        Ok(e) => {
            d.events.insert(e.id, e);
            no_content()
        }
        Err(why) => bad_request(why),
    }
}

/// `DELETE /calendar-service/event/{id}` → 204; later reads 404.
async fn delete(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    let mut d = write(&state);
    match id(&raw).ok().and_then(|i| d.events.remove(&i)) {
        Some(_) => no_content(),
        None => not_found(),
    }
}

/// `PUT /calendar-service/event/{uuid}/customization` `{customGoal, isPrimaryEvent}` → 204.
async fn customize(State(state): State<AppState>, Path(uuid): Path<String>, body: Bytes) -> Response {
    let body = match body_json(&body) {
        Ok(b) => b,
        Err(e) => return e.into(),
    };
    let mut d = write(&state);
    let Some(e) = d.events.values_mut().find(|e| e.uuid == uuid) else { return not_found() };
    e.goal_s = body.get("customGoal").and_then(|g| g.get("value")).and_then(Value::as_f64);
    if let Some(p) = body.get("isPrimaryEvent").and_then(Value::as_bool) {
        e.primary = p;
    }
    no_content()
}
