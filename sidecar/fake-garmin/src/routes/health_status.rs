//! Health Status (fēnix 8 era watches, issue #29): each overnight metric — HRV, resting heart
//! rate, respiration, skin temperature, SpO2 — against the athlete's own baseline.
//!
//! Source and confidence: the paths `/healthstatus-service/healthstatus/summary/{date}` and
//! `/{start}/{end}` are one unattributed endpoint catalogue's (*unverified*, reference
//! `garmin-newest-metrics.md`); no recorded body exists, so the shape is ours (*unverified*),
//! modelled on the Garmin Connect card: per metric a value, the baseline's low and high ends and a
//! status, plus an overall verdict. The baseline is the mean ± one standard deviation (at least a
//! small fixed width) of the 28 nights before, as the card's "baseline range" reads. An account
//! whose watch does not record it answers 404 (*unverified*, as Running Tolerance, see
//! `Untracked`); a day without a night answers 204.

use axum::Router;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::get;
use chrono::{Duration, NaiveDate};
use serde_json::{Value, json};

use super::{Obj, date, no_content, not_found, ok, range, read, round};
use crate::data::health::Day;
use crate::data::kit::WATCH_ID;
use crate::data::{Dataset, clock};
use crate::state::AppState;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/healthstatus-service/healthstatus/summary/{date}", get(one_day))
        .route("/healthstatus-service/healthstatus/summary/{start}/{end}", get(days))
}

/// Nights a baseline is made of.
const BASELINE_NIGHTS: i64 = 28;

/// One metric: Garmin's key, its unit key, its value of a night and the narrowest baseline
/// half-width.
type Metric = (&'static str, &'static str, fn(&Day) -> Option<f64>, f64);

/// The metrics, in the card's order.
const METRICS: [Metric; 5] = [
    ("HRV", "ms", |d| d.hrv.as_ref().map(|h| h.last_night_avg), 3.0),
    ("RESTING_HEART_RATE", "bpm", |d| Some(d.resting_hr), 2.0),
    ("RESPIRATION", "breaths_per_min", |d| Some(d.sleep.avg_respiration).filter(|v| *v > 0.0), 0.5),
    ("SKIN_TEMPERATURE", "celsius_change", |d| Some(skin_temperature_change(d)), 0.3),
    ("SPO2", "percent", |d| Some(d.sleep.avg_spo2).filter(|v| *v > 0.0), 1.0),
];

/// The night's skin temperature against the usual, °C (the data set has none: drawn from the
/// day's seed, within ±0.5 °C).
fn skin_temperature_change(d: &Day) -> f64 {
    round(((d.seed >> 11) % 1001) as f64 / 1000.0 - 0.5, 1)
}

/// One metric of a day against its baseline; `null` values when the night has none.
fn metric(d: &Dataset, day: NaiveDate, rec: &Day, m: &Metric) -> Value {
    let (name, unit, value_of, min_half) = *m;
    let history: Vec<f64> = clock::days(day - Duration::days(BASELINE_NIGHTS), day - Duration::days(1))
        .filter_map(|x| d.day(x).and_then(value_of))
        .collect();
    let value = value_of(rec);
    let (low, high) = if history.len() < 7 {
        (None, None)
    } else {
        let mean = history.iter().sum::<f64>() / history.len() as f64;
        let sd = (history.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / history.len() as f64).sqrt();
        let half = sd.max(min_half);
        (Some(round(mean - half, 1)), Some(round(mean + half, 1)))
    };
    let status = match (value, low, high) {
        (None, ..) => Value::Null,
        (Some(_), None, _) | (Some(_), _, None) => json!("NO_BASELINE"),
        (Some(v), Some(lo), _) if v < lo => json!("BELOW_BASELINE"),
        (Some(v), _, Some(hi)) if v > hi => json!("ABOVE_BASELINE"),
        _ => json!("IN_RANGE"),
    };
    json!({"type": name, "value": value.map(|v| round(v, 1)), "baselineLowerLimit": low,
           "baselineUpperLimit": high, "status": status, "unit": unit})
}

/// The Health Status of a day, `None` outside the data set or on a day without a night.
pub(super) fn health_status_dto(d: &Dataset, day: NaiveDate) -> Option<Value> {
    let rec = d.day(day)?;
    let metrics: Vec<Value> = METRICS.iter().map(|m| metric(d, day, rec, m)).collect();
    if metrics.iter().all(|m| m["value"].is_null()) {
        return None;
    }
    let out = metrics.iter().any(|m| m["status"] == "ABOVE_BASELINE" || m["status"] == "BELOW_BASELINE");
    Some(
        Obj::new()
            .set("userProfilePK", d.profile_id)
            .set("deviceId", WATCH_ID)
            .set("calendarDate", clock::date(day))
            .set("overallStatus", if out { "OUT_OF_RANGE" } else { "ALL_IN_RANGE" })
            .set("metrics", Value::Array(metrics))
            .build(),
    )
}

/// `GET /healthstatus-service/healthstatus/summary/{date}` (204 without a night).
async fn one_day(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    let day = match date(&raw) {
        Ok(x) => x,
        Err(e) => return e.into(),
    };
    let d = read(&state);
    if !d.records_newest_metrics() {
        return not_found();
    }
    health_status_dto(&d, day).map_or_else(no_content, ok)
}

/// `GET /healthstatus-service/healthstatus/summary/{start}/{end}`: the days that have one.
async fn days(State(state): State<AppState>, Path((s, e)): Path<(String, String)>) -> Response {
    let (start, end) = match range(&s, &e) {
        Ok(r) => r,
        Err(e) => return e.into(),
    };
    let d = read(&state);
    if !d.records_newest_metrics() {
        return not_found();
    }
    ok(Value::Array(clock::days(start, end).filter_map(|x| health_status_dto(&d, x)).collect()))
}
