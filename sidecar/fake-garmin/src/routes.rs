//! Every `/gc-api` endpoint of the catalogue (reference §4), one module per API area, answering
//! from the generated [`crate::data::Dataset`] in the shapes of the recorded fixtures.
//!
//! The core mounts [`router`] under `/gc-api` behind the auth gate, so paths here start at the
//! service (`/activitylist-service/...`). Shared conventions live in this file: Garmin's error
//! bodies (404 `NotFoundException`, 400 `BadRequestException`), strict `YYYY-MM-DD` parsing,
//! "no data" for dates outside the data set, and a small JSON object builder that keeps big
//! bodies cheap to compile.

/// Parses a recorded body `fixtures/garmin/<name>` compiled into the binary (a broken fixture
/// yields `null`, never a panic). Some Garmin documents carry long constant parts (roles, format
/// objects, capability flags); those endpoints start from the real body and overwrite every field
/// that depends on the account or the date. Defined before the modules so they all see it.
macro_rules! fixture {
    ($name:literal) => {
        serde_json::from_str::<serde_json::Value>(include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/garmin/",
            $name
        )))
        .unwrap_or_default()
    };
}

mod activities;
mod activity_body;
mod activity_detail;
mod activity_facts;
mod calendar;
mod challenges;
mod devices;
mod downloads;
mod events;
mod export;
mod gear;
mod graphql;
mod health_status;
mod metrics;
mod mobile;
mod movement;
pub mod personal;
mod profile;
mod races;
mod records;
mod scores;
mod sleep;
mod social;
mod stats;
mod stress;
mod training;
mod vitals;
mod weight;
mod wellness;
mod workouts;

use std::collections::HashMap;
use std::sync::{PoisonError, RwLockReadGuard, RwLockWriteGuard};

use axum::Router;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chrono::NaiveDate;
use serde_json::{Map, Value};

use crate::data::{Dataset, clock};
use crate::state::AppState;

/// Routes mounted under `/gc-api`, behind the auth middleware.
pub fn router() -> Router<AppState> {
    Router::new()
        .merge(profile::router())
        .merge(devices::router())
        .merge(wellness::router())
        .merge(movement::router())
        .merge(sleep::router())
        .merge(stress::router())
        .merge(stats::router())
        .merge(weight::router())
        .merge(vitals::router())
        .merge(activities::router())
        .merge(activity_detail::router())
        .merge(downloads::router())
        .merge(metrics::router())
        .merge(training::router())
        .merge(mobile::router())
        .merge(records::router())
        .merge(scores::router())
        .merge(health_status::router())
        .merge(gear::router())
        .merge(challenges::router())
        .merge(social::router())
        .merge(events::router())
        .merge(races::router())
        .merge(calendar::router())
        .merge(workouts::router())
        .merge(graphql::router())
}

/// Routes the core mounts at the bare path, outside `/gc-api`, behind the same auth gate: the
/// race search, whose real prefix is unknown (reference open question 12).
pub fn outside_api() -> Router<AppState> {
    races::search_router()
}

/// Query parameters (last value wins for repeated keys).
type Query = axum::extract::Query<HashMap<String, String>>;

/// Read access to the data set (a poisoned lock is still readable).
fn read(state: &AppState) -> RwLockReadGuard<'_, Dataset> {
    state.inner.data.read().unwrap_or_else(PoisonError::into_inner)
}

/// Write access to the data set.
fn write(state: &AppState) -> RwLockWriteGuard<'_, Dataset> {
    state.inner.data.write().unwrap_or_else(PoisonError::into_inner)
}

/// 200 with a JSON body.
fn ok(body: Value) -> Response {
    (StatusCode::OK, axum::Json(body)).into_response()
}

/// 204 without a body (updates, deletes, and "no data for this date").
fn no_content() -> Response {
    StatusCode::NO_CONTENT.into_response()
}

/// Garmin's 404 body (`error_404_not_found.json`).
fn not_found() -> Response {
    let body = Obj::new().set("message", "HTTP 404 Not Found").set("error", "NotFoundException").build();
    (StatusCode::NOT_FOUND, axum::Json(body)).into_response()
}

/// A 400 in Garmin's JAX-RS error shape, with the reason in `message`.
fn bad_request(why: impl Into<String>) -> Response {
    let body = Obj::new().set("message", why.into()).set("error", "BadRequestException").build();
    (StatusCode::BAD_REQUEST, axum::Json(body)).into_response()
}

/// A refused request: the finished error response, boxed so `Result<T, Reject>` stays small.
#[derive(Debug)]
struct Reject(Box<Response>);

impl From<Response> for Reject {
    fn from(r: Response) -> Self {
        Self(Box::new(r))
    }
}

impl From<Reject> for Response {
    fn from(r: Reject) -> Self {
        *r.0
    }
}

/// Parses a `YYYY-MM-DD` path or query value, or answers 400.
fn date(s: &str) -> Result<NaiveDate, Reject> {
    clock::parse_date(s).ok_or_else(|| bad_request(format!("Invalid date: {s}")).into())
}

/// A required date query parameter.
fn query_date(q: &HashMap<String, String>, key: &str) -> Result<NaiveDate, Reject> {
    match q.get(key) {
        Some(v) => date(v),
        None => Err(bad_request(format!("Required parameter '{key}' is missing")).into()),
    }
}

/// A `start..=end` date range from two strings; 400 when malformed or reversed.
fn range(start: &str, end: &str) -> Result<(NaiveDate, NaiveDate), Reject> {
    let (s, e) = (date(start)?, date(end)?);
    if e < s {
        return Err(bad_request(format!("endDate {end} is before startDate {start}")).into());
    }
    Ok((s, e))
}

/// An id path segment; anything that is not a number is simply not found.
fn id(s: &str) -> Result<u64, Reject> {
    s.parse().map_err(|_| not_found().into())
}

/// Parses a JSON request body, or answers 400.
fn body_json(bytes: &[u8]) -> Result<Value, Reject> {
    serde_json::from_slice(bytes).map_err(|e| bad_request(format!("Malformed JSON body: {e}")).into())
}

/// A JSON object under construction (cheaper to compile than large `json!` literals).
#[derive(Debug, Default)]
struct Obj(Map<String, Value>);

impl Obj {
    fn new() -> Self {
        Self::default()
    }

    fn set(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.0.insert(key.to_owned(), value.into());
        self
    }

    /// Sets each key to null.
    fn nulls(mut self, keys: &[&str]) -> Self {
        for k in keys {
            self.0.insert((*k).to_owned(), Value::Null);
        }
        self
    }

    fn build(self) -> Value {
        Value::Object(self.0)
    }
}

/// `{typeId, typeKey}`-style pair objects (`privacy`, `rule`, `eventType`…).
fn pair(id_key: &str, id: u64, key_key: &str, key: &str) -> Value {
    Obj::new().set(id_key, id).set(key_key, key).build()
}

/// Rounds to `places` decimals.
fn round(x: f64, places: i32) -> f64 {
    let f = 10f64.powi(places);
    (x * f).round() / f
}

/// A whole number as a JSON integer.
fn int(x: f64) -> Value {
    Value::from(x.round() as i64)
}

/// Sets `key` in a JSON object (no-op on other values).
fn put(target: &mut Value, key: &str, value: impl Into<Value>) {
    if let Some(obj) = target.as_object_mut() {
        obj.insert(key.to_owned(), value.into());
    }
}

/// `start`/`limit` paging over a list (0-based `start`, `limit` capped at `max`).
fn page<T: Clone>(items: &[T], q: &HashMap<String, String>, default_limit: usize, max: usize) -> Vec<T> {
    let start = q.get("start").and_then(|s| s.parse::<usize>().ok()).unwrap_or(0);
    let limit = q.get("limit").and_then(|s| s.parse::<usize>().ok()).unwrap_or(default_limit).min(max);
    items.iter().skip(start).take(limit).cloned().collect()
}
