//! Workout library and schedule (reference §4.12, §5): list (0-based `start`), read, create
//! (normalised like Garmin: renumbered steps, new step ids, canonical type objects), full-replace
//! update, delete (which also drops its schedules), schedule/unschedule by
//! `workoutScheduleId`, the id tables, and training plans: the demo athlete's Garmin Coach plan
//! (`data::coach`) in the list and as `fbt-adaptive/{id}`.

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::{get, post};
use serde_json::{Value, json};

use super::{Obj, Query, bad_request, body_json, id, no_content, not_found, ok, read, write};
use crate::data::workouts::{END_CONDITIONS, EQUIPMENT, SPORTS, STEP_TYPES, STROKES, TARGETS};
use chrono::Datelike;

use crate::data::{Dataset, Schedule, WriteError, clock, coach};
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
        .route("/trainingplan-service/trainingplan/fbt-adaptive/{id}", get(adaptive_plan))
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

/// `GET /trainingplan-service/trainingplan/plans` → `{trainingPlanList, totalCount}` (the list
/// form: no workouts, no phases; design note on a HAR capture, medium confidence).
async fn plans(State(state): State<AppState>) -> Response {
    let d = read(&state);
    let list: Vec<Value> = d.coach.iter().map(|c| plan_head(c).build()).collect();
    ok(json!({"totalCount": list.len(), "trainingPlanList": list}))
}

/// `phased/{id}`: the demo's only plan is adaptive; what Garmin answers for an adaptive plan's id
/// here is *unverified* (404 assumed).
async fn no_plan() -> Response {
    not_found()
}

/// The fields the list and the detail share.
fn plan_head(c: &coach::CoachPlan) -> Obj {
    let weeks = ((c.race_day - c.start).num_days() + 6) / 7;
    Obj::new()
        .set("trainingPlanId", coach::PLAN_ID)
        .set("trainingPlanCategory", "FBT_ADAPTIVE")
        .set("name", format!("{} (Garmin Coach)", c.race_name))
        .set("durationInWeeks", weeks)
        .set("startDate", clock::t1(c.start.and_time(chrono::NaiveTime::MIN)))
        .set("endDate", clock::t1(c.race_day.and_time(chrono::NaiveTime::MIN)))
        .set("trainingLevel", json!({"levelKey": "Intermediate"}))
        .set("trainingVersion", json!({"versionName": "Pace"}))
        .set("trainingStatus", json!({"statusKey": "Scheduled"}))
}

/// `GET /trainingplan-service/trainingplan/fbt-adaptive/{id}` → the plan with `taskList` and
/// `adaptivePlanPhases` (design note, medium confidence) and `trainingPlanDetailsDTO` (live plan
/// of 2026-09-19, high confidence; on this REST detail rather than the GraphQL form: *unverified*).
async fn adaptive_plan(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    let d = read(&state);
    let Some(c) = d.coach.as_ref().filter(|_| id(&raw).ok() == Some(coach::PLAN_ID)) else {
        return not_found();
    };
    let monday = d.today - chrono::Duration::days(i64::from(d.today.weekday().num_days_from_monday()));
    let left = c.tasks.iter().filter(|t| t.date >= d.today && t.date < monday + chrono::Duration::days(7));
    let phases: Vec<Value> = c
        .phases(d.today)
        .into_iter()
        .map(|(start, end, phase)| {
            json!({"startDate": clock::date(start), "endDate": clock::date(end), "trainingPhase": phase,
                   "currentPhase": (start..=end).contains(&d.today)})
        })
        .collect();
    let tasks: Vec<Value> = c.tasks.iter().map(|t| task_json(&d, t)).collect();
    let details = json!({
        "athletePlanId": coach::PLAN_ID,
        "athleteRace": {"raceDay": clock::date(c.race_day), "raceName": c.race_name, "raceUrl": null},
        "remainingAtpWorkoutsForWeek": left.count(),
        "workoutsPerWeek": 4,
        "registrationDate": clock::t1(c.registered.and_hms_opt(20, 9, 50).unwrap_or_default()),
        "planCompleted": false,
        "workoutPlanTypeId": 1
    });
    ok(plan_head(c)
        .set("avgWeeklyWorkouts", 4)
        .set("supplementalSports", Vec::<Value>::new())
        .set("trainingPlanDetailsDTO", details)
        .set("taskList", tasks)
        .set("adaptivePlanPhases", phases)
        .build())
}

/// One `taskList` entry: `COMPLETE` once a run was recorded that day.
fn task_json(d: &Dataset, t: &coach::Task) -> Value {
    let ran = d.activities_on(t.date).any(|a| a.sport() == crate::data::activity::Sport::Running);
    json!({
        "weekId": t.week,
        "dayOfWeekId": t.date.weekday().number_from_monday(),
        "workoutOrder": 1,
        "calendarDate": clock::date(t.date),
        "taskWorkout": {
            "sportType": {"sportTypeId": 1, "sportTypeKey": "running"},
            "workoutName": t.name,
            "workoutDescription": t.description,
            "scheduledDate": clock::t1(t.date.and_hms_opt(5, 0, 0).unwrap_or_default()),
            "workoutUuid": t.uuid,
            "estimatedDurationInSecs": t.duration_s,
            "estimatedDistanceInMeters": t.distance_m,
            "trainingEffectLabel": t.effect,
            "restDay": false,
            "adaptiveCoachingWorkoutStatus": if ran { "COMPLETE" } else { "NOT_COMPLETE" }
        }
    })
}
