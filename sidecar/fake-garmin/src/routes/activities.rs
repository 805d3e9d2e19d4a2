//! Activity list and summary endpoints (reference §4.3): the filtered, 0-based paged list, the
//! count, one activity's summary, rename/describe (`PUT`) and delete, the static activity type
//! table, and the fitness-stats aggregations.

use std::collections::{BTreeMap, HashSet};

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::get;
use chrono::{Datelike, Duration, NaiveDate};
use serde_json::Value;

use super::activity_body::{list_item, summary};
use super::{
    Obj, Query, Reject, bad_request, body_json, date, id, no_content, not_found, ok, read, round, write,
};
use crate::data::activity::Activity;
use crate::data::{Dataset, clock, records};
use crate::state::AppState;

/// `GET` the activity list.
pub const LIST: &str = "/activitylist-service/activities/search/activities";

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route(LIST, get(list))
        .route("/activitylist-service/activities/count", get(count))
        .route("/activity-service/activity/activityTypes", get(types))
        .route("/activity-service/activity/{id}", get(one).put(update).delete(delete))
        .route("/fitnessstats-service/activity", get(stats))
        .route("/fitnessstats-service/activity/all", get(stats_all))
}

/// Ids of activities currently holding a personal record.
pub(super) fn record_holders(d: &Dataset) -> HashSet<u64> {
    records::compute(d.live(), &d.days).into_iter().filter_map(|r| r.activity.map(|a| a.0)).collect()
}

/// Live activities matching the list filters, newest first unless `sortOrder=asc`.
fn filtered<'a>(
    d: &'a Dataset,
    q: &std::collections::HashMap<String, String>,
) -> Result<Vec<&'a Activity>, Reject> {
    let start = q.get("startDate").map(|s| date(s)).transpose()?;
    let end = q.get("endDate").map(|s| date(s)).transpose()?;
    let kind = q.get("activityType").filter(|s| !s.is_empty());
    let mut out: Vec<&Activity> = d
        .live()
        .filter(|a| start.is_none_or(|s| a.start_local.date() >= s))
        .filter(|a| end.is_none_or(|e| a.start_local.date() <= e))
        .filter(|a| kind.is_none_or(|k| a.matches_type(k)))
        .collect();
    if q.get("sortOrder").map(String::as_str) != Some("asc") {
        out.reverse();
    }
    Ok(out)
}

/// `GET /activitylist-service/activities/search/activities?start&limit&activityType&startDate&endDate&sortOrder`
pub(super) async fn list(State(state): State<AppState>, q: Query) -> Response {
    let d = read(&state);
    let acts = match filtered(&d, &q) {
        Ok(a) => a,
        Err(e) => return e.into(),
    };
    let prs = record_holders(&d);
    let page = super::page(&acts, &q, 20, 1000);
    ok(Value::Array(page.into_iter().map(|a| list_item(&d, a, prs.contains(&a.id))).collect()))
}

/// `GET /activitylist-service/activities/count`
async fn count(State(state): State<AppState>, q: Query) -> Response {
    let d = read(&state);
    match filtered(&d, &q) {
        Ok(a) => ok(Obj::new().set("totalCount", a.len()).build()),
        Err(e) => e.into(),
    }
}

/// `GET /activity-service/activity/activityTypes` (static table, `activity_types.json`).
async fn types() -> Response {
    ok(fixture!("activity_types.json"))
}

/// `GET /activity-service/activity/{id}`
pub(super) async fn one(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    let d = read(&state);
    match id(&raw).map(|i| d.activity(i)) {
        Ok(Some(a)) => ok(summary(&d, a, record_holders(&d).contains(&a.id))),
        Ok(None) => not_found(),
        Err(e) => e.into(),
    }
}

/// `PUT /activity-service/activity/{id}` `{activityId, activityName?, description?}` → 204.
async fn update(State(state): State<AppState>, Path(raw): Path<String>, body: Bytes) -> Response {
    let id = match id(&raw) {
        Ok(i) => i,
        Err(e) => return e.into(),
    };
    let body = match body_json(&body) {
        Ok(b) => b,
        Err(e) => return e.into(),
    };
    if body.get("activityId").and_then(Value::as_u64).is_some_and(|b| b != id) {
        return bad_request("activityId in the body does not match the path");
    }
    let name = body.get("activityName").and_then(Value::as_str).map(str::to_owned);
    let description = body.get("description").and_then(Value::as_str).map(str::to_owned);
    if name.as_deref().is_some_and(|n| n.trim().is_empty()) {
        return bad_request("activityName must not be empty");
    }
    if write(&state).update_activity(id, name, description) { no_content() } else { not_found() }
}

/// `DELETE /activity-service/activity/{id}` → 204; later reads answer 404.
async fn delete(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    let id = match id(&raw) {
        Ok(i) => i,
        Err(e) => return e.into(),
    };
    let mut d = write(&state);
    if d.activity(id).is_none() {
        return not_found();
    }
    d.deleted.insert(id);
    no_content()
}

/// Reads `startDate`/`endDate` (default: the last 7 days of the data set).
fn span(
    d: &Dataset,
    q: &std::collections::HashMap<String, String>,
) -> Result<(NaiveDate, NaiveDate), Reject> {
    let start = q.get("startDate").map(|s| date(s)).transpose()?.unwrap_or(d.today - Duration::days(6));
    let end = q.get("endDate").map(|s| date(s)).transpose()?.unwrap_or(d.today);
    if end < start {
        return Err(bad_request("endDate is before startDate").into());
    }
    Ok((start, end))
}

/// Value of one fitness-stats metric for an activity (distance in m when standardised, else cm).
fn metric(a: &Activity, name: &str, standardized: bool) -> Option<f64> {
    Some(match name {
        "distance" => a.stats.distance * if standardized { 1.0 } else { 100.0 },
        "duration" => a.stats.duration,
        "movingDuration" => a.moving_s,
        "elapsedDuration" => a.elapsed_s,
        "calories" => a.calories,
        "elevationGain" => a.stats.elev_gain,
        "averageHR" => a.stats.avg_hr.round(),
        "aerobicTrainingEffect" => a.aerobic_te,
        "anaerobicTrainingEffect" => a.anaerobic_te,
        "activityTrainingLoad" => a.training_load,
        _ => return None,
    })
}

/// Daily/weekly/monthly aggregation of metrics (`activityStatsScalar` shape).
pub(super) fn aggregate(
    d: &Dataset,
    start: NaiveDate,
    end: NaiveDate,
    aggregation: &str,
    metrics: &[String],
    by_parent: bool,
    standardized: bool,
) -> Value {
    let bucket = |day: NaiveDate| match aggregation {
        "weekly" => day - Duration::days(i64::from(day.weekday().num_days_from_monday())),
        "monthly" => day.with_day(1).unwrap_or(day),
        _ => day,
    };
    let mut groups: BTreeMap<NaiveDate, Vec<&Activity>> = BTreeMap::new();
    for a in d.live().filter(|a| (start..=end).contains(&a.start_local.date())) {
        groups.entry(bucket(a.start_local.date())).or_default().push(a);
    }
    let rows = groups.into_iter().map(|(day, acts)| {
        let mut stats = serde_json::Map::new();
        let mut keys: Vec<&str> =
            if by_parent { acts.iter().map(|a| a.sport().parent_type_key()).collect() } else { vec!["all"] };
        keys.dedup();
        for key in keys {
            let members: Vec<&&Activity> =
                acts.iter().filter(|a| !by_parent || a.sport().parent_type_key() == key).collect();
            let mut per_metric = serde_json::Map::new();
            for m in metrics {
                let vals: Vec<f64> = members.iter().filter_map(|a| metric(a, m, standardized)).collect();
                if vals.is_empty() {
                    continue;
                }
                let sum: f64 = vals.iter().sum();
                let agg = Obj::new()
                    .set("count", vals.len())
                    .set("min", round(vals.iter().copied().fold(f64::MAX, f64::min), 3))
                    .set("max", round(vals.iter().copied().fold(f64::MIN, f64::max), 3))
                    .set("avg", round(sum / vals.len() as f64, 3))
                    .set("sum", round(sum, 3))
                    .build();
                per_metric.insert(m.clone(), agg);
            }
            stats.insert(key.to_owned(), Value::Object(per_metric));
        }
        Obj::new()
            .set("date", clock::date(day))
            .set("countOfActivities", acts.len())
            .set("stats", Value::Object(stats))
            .build()
    });
    Value::Array(rows.collect())
}

/// Every `metric=` value of the raw query (repeated keys are allowed there).
fn metric_list(raw: Option<&str>) -> Vec<String> {
    let pairs = url::form_urlencoded::parse(raw.unwrap_or_default().as_bytes());
    let list: Vec<String> = pairs.filter(|(k, _)| k == "metric").map(|(_, v)| v.into_owned()).collect();
    if list.is_empty() { vec!["duration".into(), "distance".into()] } else { list }
}

/// `GET /fitnessstats-service/activity?aggregation&startDate&endDate&metric…&groupByParentActivityType&standardizedUnits`
async fn stats(
    State(state): State<AppState>,
    q: Query,
    axum::extract::RawQuery(raw): axum::extract::RawQuery,
) -> Response {
    let d = read(&state);
    let (start, end) = match span(&d, &q) {
        Ok(s) => s,
        Err(e) => return e.into(),
    };
    let aggregation = q.get("aggregation").map_or("daily", String::as_str);
    if !["daily", "weekly", "monthly"].contains(&aggregation) {
        return bad_request(format!("Unknown aggregation {aggregation}"));
    }
    let by_parent = q.get("groupByParentActivityType").is_some_and(|v| v == "true");
    let standardized = q.get("standardizedUnits").is_some_and(|v| v == "true");
    ok(aggregate(&d, start, end, aggregation, &metric_list(raw.as_deref()), by_parent, standardized))
}

/// `GET /fitnessstats-service/activity/all?startDate&endDate&metric…` (`fitness_stats_activity.json`).
async fn stats_all(
    State(state): State<AppState>,
    q: Query,
    axum::extract::RawQuery(raw): axum::extract::RawQuery,
) -> Response {
    let d = read(&state);
    let (start, end) = match span(&d, &q) {
        Ok(s) => s,
        Err(e) => return e.into(),
    };
    let standardized = q.get("standardizedUnits").is_some_and(|v| v == "true");
    let metrics = metric_list(raw.as_deref());
    let rows =
        d.live().filter(|a| (start..=end).contains(&a.start_local.date())).enumerate().map(|(i, a)| {
            let mut o = Obj::new()
                .set("activityId", a.id)
                .set("aerobicTrainingEffect", a.aerobic_te)
                .set("parentId", Value::Null)
                .set("workoutType", if a.workout_id.is_some() { Value::from("WORKOUT") } else { Value::Null })
                .set("adaptiveCoachingWorkoutStatus", Value::Null)
                .set("multisportSet", Value::Null)
                .set("startLocal", clock::t0(a.start_local))
                .set("activityType", a.sport().type_key())
                .set("workoutGroupEnumerator", i + 1);
            for m in &metrics {
                if let Some(v) = metric(a, m, standardized) {
                    o = o.set(m, round(v, 3));
                }
            }
            o.build()
        });
    ok(Value::Array(rows.collect()))
}
