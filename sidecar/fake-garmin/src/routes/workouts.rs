//! Workout library and schedule (reference §4.12, §5): list (0-based `start`), read, create
//! (normalised like Garmin: renumbered steps, new step ids, canonical type objects), full-replace
//! update, delete (which also drops its schedules), schedule/unschedule by
//! `workoutScheduleId`, the id tables, and training plans (none).

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::{get, post};
use serde_json::{Value, json};

use super::{Obj, Query, bad_request, body_json, id, no_content, not_found, ok, read, write};
use crate::data::workouts::{END_CONDITIONS, EQUIPMENT, SPORTS, STEP_TYPES, STROKES, TARGETS};
use crate::data::{Dataset, Schedule, WriteError, clock};
use crate::state::AppState;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/workout-service/workouts", get(list))
        .route("/workout-service/workout", post(create))
        .route("/workout-service/workout/types", get(types))
        .route("/workout-service/workout/{id}", get(one).put(update).delete(delete))
        .route(
            "/workout-service/schedule/{id}",
            get(schedule_get).post(schedule_create).delete(schedule_delete),
        )
        .route("/trainingplan-service/trainingplan/plans", get(plans))
        .route("/trainingplan-service/trainingplan/phased/{id}", get(no_plan))
        .route("/trainingplan-service/trainingplan/fbt-adaptive/{id}", get(no_plan))
}

/// A workout without its segments (the list form).
fn summary(w: &Value) -> Value {
    let mut v = w.clone();
    if let Some(o) = v.as_object_mut() {
        o.remove("workoutSegments");
    }
    v
}

/// `GET /workout-service/workouts?start&limit&myWorkoutsOnly` (newest first, 0-based `start`).
async fn list(State(state): State<AppState>, q: Query) -> Response {
    let d = read(&state);
    let all: Vec<Value> = d.workouts.values().rev().map(summary).collect();
    ok(Value::Array(super::page(&all, &q, 100, 1000)))
}

/// `GET /workout-service/workout/{id}` (web adds `includeAudioNotes=true`, ignored).
async fn one(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    let d = read(&state);
    match id(&raw).ok().and_then(|i| d.workouts.get(&i)) {
        Some(w) => ok(w.clone()),
        None => not_found(),
    }
}

/// `POST /workout-service/workout` → the stored workout (ids, author, dates added).
async fn create(State(state): State<AppState>, body: Bytes) -> Response {
    let body = match body_json(&body) {
        Ok(b) => b,
        Err(e) => return e.into(),
    };
    match write(&state).create_workout(&body) {
        Ok(w) => ok(w),
        Err(why) => bad_request(why),
    }
}

/// `PUT /workout-service/workout/{id}` (full replace) → 204.
async fn update(State(state): State<AppState>, Path(raw): Path<String>, body: Bytes) -> Response {
    let Ok(wid) = id(&raw) else { return not_found() };
    let body = match body_json(&body) {
        Ok(b) => b,
        Err(e) => return e.into(),
    };
    if body.get("workoutId").and_then(Value::as_u64).is_some_and(|b| b != wid) {
        return bad_request("workoutId in the body does not match the path");
    }
    match write(&state).update_workout(wid, &body) {
        Ok(()) => no_content(),
        Err(WriteError::NotFound) => not_found(),
        Err(WriteError::Invalid(why)) => bad_request(why),
    }
}

/// `DELETE /workout-service/workout/{id}` → 204 (its schedules go too).
async fn delete(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    match id(&raw) {
        Ok(wid) if write(&state).delete_workout(wid) => no_content(),
        _ => not_found(),
    }
}

/// The schedule object (`POST`/`GET /workout-service/schedule/...`).
pub(super) fn schedule_json(d: &Dataset, s: &Schedule) -> Value {
    let done = d.activities_on(s.date).find(|a| a.workout_id == Some(s.workout_id)).map(|a| a.id);
    Obj::new()
        .set("workoutScheduleId", s.id)
        .set("workout", d.workouts.get(&s.workout_id).cloned())
        .set("calendarDate", clock::date(s.date))
        .set("createdDate", s.created.clone())
        .set("ownerId", d.profile_id)
        .nulls(&["newName", "consumer", "atpPlanTypeId", "priority", "tpPlanName"])
        .set("associatedActivityId", done)
        .set("nameChanged", false)
        .set("protected", false)
        .build()
}

/// `POST /workout-service/schedule/{workoutId}` `{"date": "YYYY-MM-DD"}` → `{workoutScheduleId, …}`.
async fn schedule_create(State(state): State<AppState>, Path(raw): Path<String>, body: Bytes) -> Response {
    let Ok(wid) = id(&raw) else { return not_found() };
    let body = match body_json(&body) {
        Ok(b) => b,
        Err(e) => return e.into(),
    };
    let Some(day) = body.get("date").and_then(Value::as_str).and_then(clock::parse_date) else {
        return bad_request("date must be YYYY-MM-DD");
    };
    let mut d = write(&state);
    match d.schedule(wid, day) {
        Ok(s) => ok(schedule_json(&d, &s)),
        Err(WriteError::NotFound) => not_found(),
        Err(WriteError::Invalid(why)) => bad_request(why),
    }
}

/// `GET /workout-service/schedule/{workoutScheduleId}`
async fn schedule_get(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    let d = read(&state);
    match id(&raw).ok().and_then(|i| d.schedules.get(&i)) {
        Some(s) => ok(schedule_json(&d, s)),
        None => not_found(),
    }
}

/// `DELETE /workout-service/schedule/{workoutScheduleId}` (unschedule) → 204.
async fn schedule_delete(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    let mut d = write(&state);
    match id(&raw).ok().and_then(|i| d.schedules.remove(&i)) {
        Some(_) => no_content(),
        None => not_found(),
    }
}

/// `GET /workout-service/workout/types` → the id tables of reference §5.1.
async fn types() -> Response {
    let table = |rows: &[(u64, &str)], id_key: &str, key_key: &str| -> Value {
        rows.iter().map(|(i, k)| json!({id_key: i, key_key: k, "displayOrder": i})).collect()
    };
    let sports: Value = SPORTS
        .iter()
        .map(|(i, k, o)| json!({"sportTypeId": i, "sportTypeKey": k, "displayOrder": o}))
        .collect();
    ok(json!({
        "workoutSportTypes": sports,
        "workoutStepTypes": table(STEP_TYPES, "stepTypeId", "stepTypeKey"),
        "workoutConditionTypes": table(END_CONDITIONS, "conditionTypeId", "conditionTypeKey"),
        "workoutTargetTypes": table(TARGETS, "workoutTargetTypeId", "workoutTargetTypeKey"),
        "workoutStrokeTypes": table(STROKES, "strokeTypeId", "strokeTypeKey"),
        "workoutEquipmentTypes": table(EQUIPMENT, "equipmentTypeId", "equipmentTypeKey")
    }))
}

/// `GET /trainingplan-service/trainingplan/plans` (the athlete follows no plan).
async fn plans() -> Response {
    ok(json!({"trainingPlanList": [], "totalCount": 0}))
}

/// Plan details: there are no plans, so every id is unknown.
async fn no_plan() -> Response {
    not_found()
}
