//! The Personal API's data endpoints (`docs/garmin-personal-api.md` §3), answered from the same
//! generated athlete as the web API so both paths give the same numbers. Where the Personal API
//! path is the web path without `/gc-api` (reference §6: E1, E2, E5, E7–E9, E12, E14–E16, E20), the
//! web handler answers; E6, E10 and E11 have shapes of their own. [`crate::personal`] puts the
//! bearer gate in front; this file adds each endpoint's per-request day cap (reference §4.2).

use axum::Router;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::{Next, from_fn};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use chrono::NaiveDate;
use serde_json::{Value, json};

use super::{Query, activities, clock, ok, query_date, read, sleep, stats, stress, weight, wellness};
use crate::server::noted;
use crate::state::AppState;

/// Per-request day caps (inclusive days) and the status Garmin answers beyond them (reference
/// §4.2: 400, or 500 for the v2 daily summaries `[1]` gcpapi). The caps are `[S]` unless noted.
const CAPS: &[(&str, i64, u16)] = &[
    // E7 steps: 28 (gcpapi, gpm).
    ("/usersummary-service/stats/steps/daily/", 28, 400),
    // E8 stress: 28 (gcpapi, gpm, own; kav: 28 OK / 31 rejected).
    ("/usersummary-service/stats/stress/daily/", 28, 400),
    // E9 hydration: 31.
    ("/usersummary-service/stats/hydration/daily/", 31, 400),
    // E11 sleep summaries: 31 (kav: 31 OK / 35 rejected).
    ("/sleep-service/sleep/dailySleepSummariesByDate", 31, 400),
    // E16 Body Battery: 31.
    ("/wellness-service/wellness/bodyBattery/reports/daily", 31, 400),
    // E6 v2 daily summaries: documented 365, live 500 beyond about 90 days (gcpapi) `[1]`.
    ("/usersummary-service/v2/dailysummaries", 90, 500),
    // E15 HRV: 365.
    ("/hrv-service/hrv/daily/", 365, 400),
    // E20 weight: about a year (366 so a leap year fits) `[S]`.
    ("/weight-service/weight/range/", 366, 400),
];

/// The data endpoints the fake serves (a subset of the 26, reference §3.2).
pub fn router() -> Router<AppState> {
    Router::new()
        // E1, E2
        .route("/activitylist-service/activities/search/activities", get(activities::list))
        .route("/activity-service/activity/{id}", get(activities::one))
        // E5, E6
        .route("/usersummary-service/usersummary/daily", get(wellness::daily))
        .route("/usersummary-service/v2/dailysummaries", get(daily_summaries))
        // E7, E8, E9
        .route("/usersummary-service/stats/steps/daily/{start}/{end}", get(stats::steps_daily))
        .route("/usersummary-service/stats/stress/daily/{start}/{end}", get(stats::stress_daily))
        .route("/usersummary-service/stats/hydration/daily/{start}/{end}", get(stats::hydration_daily))
        // E10, E11
        .route("/sleep-service/sleep/dailySleep", get(daily_sleep))
        .route("/sleep-service/sleep/dailySleepSummariesByDate", get(sleep_summaries))
        // E12
        .route("/wellness-service/wellness/dailyHeartRate", get(wellness::heart_rate))
        // E14, E15
        .route("/hrv-service/hrv/{date}", get(sleep::hrv_day))
        .route("/hrv-service/hrv/daily/{start}/{end}", get(sleep::hrv_range))
        // E16
        .route("/wellness-service/wellness/bodyBattery/reports/daily", get(stress::reports))
        // E20
        .route("/weight-service/weight/range/{start}/{end}", get(weight::weight_range))
        .layer(from_fn(range_cap))
}

/// The first and last day a range request names: the last two path segments, or
/// `startDate`/`endDate` in the query.
fn requested_range(path: &str, query: Option<&str>) -> Option<(NaiveDate, NaiveDate)> {
    let mut segments = path.rsplit('/');
    let (end, start) = (segments.next()?, segments.next()?);
    if let (Some(s), Some(e)) = (clock::parse_date(start), clock::parse_date(end)) {
        return Some((s, e));
    }
    let pairs: std::collections::HashMap<String, String> =
        url::form_urlencoded::parse(query?.as_bytes()).into_owned().collect();
    Some((clock::parse_date(pairs.get("startDate")?)?, clock::parse_date(pairs.get("endDate")?)?))
}

/// Refuses a range longer than its endpoint's cap, the way Garmin does (empty body, reference
/// §4.3: "400 usually comes with no detail" `[1]`).
async fn range_cap(req: Request, next: Next) -> Response {
    let path = req.uri().path();
    if let Some((_, cap, status)) = CAPS.iter().find(|(prefix, _, _)| path.starts_with(prefix))
        && let Some((start, end)) = requested_range(path, req.uri().query())
        && (end - start).num_days() + 1 > *cap
    {
        let status = StatusCode::from_u16(*status).unwrap_or(StatusCode::BAD_REQUEST);
        let days = (end - start).num_days() + 1;
        return noted(
            status.into_response(),
            format!("{}: {days} days, over the cap of {cap}", status.as_u16()),
        );
    }
    next.run(req).await
}

/// A `startDate..=endDate` query range (400 when missing, malformed or reversed).
fn query_range(q: &Query) -> Result<(NaiveDate, NaiveDate), super::Reject> {
    let start = query_date(q, "startDate")?;
    let end = query_date(q, "endDate")?;
    if end < start {
        return Err(super::bad_request("endDate is before startDate").into());
    }
    Ok((start, end))
}

/// E6 `GET /usersummary-service/v2/dailysummaries?startDate&endDate` → `{"data": [summary…]}`
/// (reference §3.2; Garmin's client's test double `{"data":[{"calendarDate":…}]}` `[G]`). Each row
/// is the same day's E5 body; days without data are left out.
async fn daily_summaries(State(state): State<AppState>, q: Query) -> Response {
    let (start, end) = match query_range(&q) {
        Ok(r) => r,
        Err(res) => return res.into(),
    };
    let d = read(&state);
    let rows: Vec<Value> = clock::days(start, end)
        .filter_map(|day| {
            d.day(day).map(|rec| {
                let mut v = wellness::summary(&d, rec, day);
                super::put(&mut v, "calendarDate", clock::date(day));
                v
            })
        })
        .collect();
    ok(json!({ "data": rows }))
}

/// E10 `GET /sleep-service/sleep/dailySleep?date=D`: the night's `dailySleepDTO`, flat (reference
/// §6: "Personal returns that object flat"); a night without data is the same null-filled object
/// the web API sends.
async fn daily_sleep(State(state): State<AppState>, q: Query) -> Response {
    let day = match query_date(&q, "date") {
        Ok(x) => x,
        Err(e) => return e.into(),
    };
    let d = read(&state);
    ok(match d.day(day) {
        Some(rec) => sleep::sleep_dto(&d, day, &rec.sleep),
        None => sleep::no_sleep(&d, day).get("dailySleepDTO").cloned().unwrap_or_default(),
    })
}

/// E11 `GET /sleep-service/sleep/dailySleepSummariesByDate?startDate&endDate`: an array of
/// `dailySleepDTO`s, nights without data left out (reference §3.2).
async fn sleep_summaries(State(state): State<AppState>, q: Query) -> Response {
    let (start, end) = match query_range(&q) {
        Ok(r) => r,
        Err(res) => return res.into(),
    };
    let d = read(&state);
    let rows: Vec<Value> = clock::days(start, end)
        .filter_map(|day| d.day(day).map(|rec| sleep::sleep_dto(&d, day, &rec.sleep)))
        .collect();
    ok(Value::Array(rows))
}
