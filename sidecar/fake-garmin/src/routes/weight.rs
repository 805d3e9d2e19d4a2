//! Body weight and blood pressure (reference §4.2): weigh-ins every few days from the Index scale
//! in three range shapes (`body_composition.json` dateRange, `weight_dayview.json`,
//! `weight_range.json`) plus the latest weigh-in; blood pressure is never measured, so it always
//! answers the empty form (`blood_pressure_empty.json`).

use axum::Router;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::get;
use chrono::{Duration, NaiveDate};
use serde_json::{Value, json};

use super::{Obj, Query, date, ok, query_date, range, read, round};
use crate::data::health::Weight;
use crate::data::{Dataset, clock};
use crate::state::AppState;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/weight-service/weight/dateRange", get(date_range))
        .route("/weight-service/weight/dayview/{date}", get(dayview))
        .route("/weight-service/weight/range/{start}/{end}", get(weight_range))
        .route("/weight-service/weight/latest", get(latest))
        .route("/bloodpressure-service/bloodpressure/range/{start}/{end}", get(blood_pressure))
}

/// Weigh-ins in `start..=end`, oldest first.
pub(super) fn weighins(d: &Dataset, start: NaiveDate, end: NaiveDate) -> Vec<(NaiveDate, &Weight)> {
    clock::days(start, end).filter_map(|x| d.day(x).and_then(|r| r.weight.as_ref()).map(|w| (x, w))).collect()
}

/// One weigh-in as Garmin lists it.
pub(super) fn entry(d: &Dataset, day: NaiveDate, w: &Weight) -> Value {
    Obj::new()
        .set("samplePk", clock::ms(w.at_gmt) + 411)
        .set("date", clock::local_ms(d.zone.to_local(w.at_gmt)))
        .set("calendarDate", clock::date(day))
        .set("weight", w.grams)
        .set("bmi", w.bmi)
        .set("bodyFat", w.body_fat)
        .set("bodyWater", w.body_water)
        .set("boneMass", w.bone_g)
        .set("muscleMass", w.muscle_g)
        .nulls(&["physiqueRating", "visceralFat", "metabolicAge"])
        .set("sourceType", "INDEX_SCALE")
        .set("timestampGMT", clock::ms(w.at_gmt))
        .set("weightDelta", w.delta_g)
        .build()
}

/// An entry with every field null (`nextDateWeight` when there is none).
fn empty_entry() -> Value {
    let mut v = json!({});
    for k in [
        "samplePk",
        "date",
        "calendarDate",
        "weight",
        "bmi",
        "bodyFat",
        "bodyWater",
        "boneMass",
        "muscleMass",
        "physiqueRating",
        "visceralFat",
        "metabolicAge",
        "sourceType",
        "timestampGMT",
        "weightDelta",
    ] {
        super::put(&mut v, k, Value::Null);
    }
    v
}

/// `totalAverage` over weigh-ins (`from`/`until` are the local day bounds as epoch ms).
fn average(start: NaiveDate, end: NaiveDate, list: &[(NaiveDate, &Weight)]) -> Value {
    let n = list.len() as f64;
    let avg = |f: fn(&Weight) -> f64| {
        if list.is_empty() {
            Value::Null
        } else {
            round(list.iter().map(|x| f(x.1)).sum::<f64>() / n, 2).into()
        }
    };
    let from = clock::local_ms(start.and_time(chrono::NaiveTime::MIN));
    let until = clock::local_ms((end + Duration::days(1)).and_time(chrono::NaiveTime::MIN)) - 1;
    Obj::new()
        .set("from", from)
        .set("until", until)
        .set("weight", avg(|w| w.grams))
        .set("bmi", avg(|w| w.bmi))
        .set("bodyFat", avg(|w| w.body_fat))
        .set("bodyWater", avg(|w| w.body_water))
        .set("boneMass", avg(|w| w.bone_g))
        .set("muscleMass", avg(|w| w.muscle_g))
        .nulls(&["physiqueRating", "visceralFat", "metabolicAge"])
        .build()
}

/// `{startDate, endDate, dateWeightList, totalAverage}` (dateRange and dayview share it).
fn list_body(d: &Dataset, start: NaiveDate, end: NaiveDate) -> Value {
    let list = weighins(d, start, end);
    Obj::new()
        .set("startDate", clock::date(start))
        .set("endDate", clock::date(end))
        .set("dateWeightList", list.iter().rev().map(|(x, w)| entry(d, *x, w)).collect::<Vec<_>>())
        .set("totalAverage", average(start, end, &list))
        .build()
}

/// `GET /weight-service/weight/dateRange?startDate&endDate`
async fn date_range(State(state): State<AppState>, q: Query) -> Response {
    match (query_date(&q, "startDate"), query_date(&q, "endDate")) {
        (Ok(s), Ok(e)) => ok(list_body(&read(&state), s, e)),
        (Err(r), _) | (_, Err(r)) => r.into(),
    }
}

/// `GET /weight-service/weight/dayview/{date}`
async fn dayview(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    match date(&raw) {
        Ok(day) => ok(list_body(&read(&state), day, day)),
        Err(e) => e.into(),
    }
}

/// The `weight_range.json` body (also GraphQL `weightScalar`).
pub(super) fn range_body(d: &Dataset, start: NaiveDate, end: NaiveDate) -> Value {
    let list = weighins(d, start, end);
    let summaries: Vec<Value> = list
        .iter()
        .rev()
        .map(|(x, w)| {
            Obj::new()
                .set("summaryDate", clock::date(*x))
                .set("numOfWeightEntries", 1)
                .set("minWeight", w.grams)
                .set("maxWeight", w.grams)
                .set("latestWeight", entry(d, *x, w))
                .set("allWeightMetrics", vec![entry(d, *x, w)])
                .build()
        })
        .collect();
    let before = d.first.max(start - Duration::days(60));
    let previous = weighins(d, before, start - Duration::days(1))
        .last()
        .map_or_else(empty_entry, |(x, w)| entry(d, *x, w));
    let next = weighins(d, end + Duration::days(1), d.today)
        .first()
        .map_or_else(empty_entry, |(x, w)| entry(d, *x, w));
    Obj::new()
        .set("dailyWeightSummaries", summaries)
        .set("totalAverage", average(start, end, &list))
        .set("previousDateWeight", previous)
        .set("nextDateWeight", next)
        .build()
}

/// `GET /weight-service/weight/range/{start}/{end}?includeAll=true`
pub(super) async fn weight_range(
    State(state): State<AppState>,
    Path((s, e)): Path<(String, String)>,
) -> Response {
    match range(&s, &e) {
        Ok(_) if state.config().untracked.weight => super::no_content(),
        Ok((start, end)) => ok(range_body(&read(&state), start, end)),
        Err(e) => e.into(),
    }
}

/// The last weigh-in on or before `day`, if any.
pub(super) fn latest_before(d: &Dataset, day: NaiveDate) -> Option<(NaiveDate, &Weight)> {
    weighins(d, d.first, day.min(d.today)).last().copied()
}

/// `GET /weight-service/weight/latest?date=` (204 before the first weigh-in).
async fn latest(State(state): State<AppState>, q: Query) -> Response {
    let d = read(&state);
    let day = match q.get("date").map(|s| date(s)).transpose() {
        Ok(x) => x.unwrap_or(d.today),
        Err(e) => return e.into(),
    };
    match latest_before(&d, day) {
        Some((x, w)) => ok(entry(&d, x, w)),
        None => super::no_content(),
    }
}

/// `GET /bloodpressure-service/bloodpressure/range/{start}/{end}?includeAll=true` (always empty).
async fn blood_pressure(Path((s, e)): Path<(String, String)>) -> Response {
    match range(&s, &e) {
        Ok((start, end)) => ok(
            json!({"from": clock::date(start), "until": clock::date(end), "measurementSummaries": [], "categoryStats": null}),
        ),
        Err(e) => e.into(),
    }
}
