//! Range statistics of the usersummary service (reference §4.2): daily and weekly steps, stress
//! and intensity minutes, daily hydration, and resting heart rate per day. Daily step ranges are
//! limited to 28 days like Garmin's; days without data are left out of every list.

use axum::Router;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::get;
use chrono::{Datelike, Duration, NaiveDate};
use serde_json::{Value, json};

use super::{Obj, Query, Reject, bad_request, date, int, ok, query_date, range, read, round};
use crate::data::health::Day;
use crate::data::{Dataset, clock};
use crate::state::AppState;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/usersummary-service/stats/steps/daily/{start}/{end}", get(steps_daily))
        .route("/usersummary-service/stats/steps/weekly/{end}/{weeks}", get(steps_weekly))
        .route("/usersummary-service/stats/stress/daily/{start}/{end}", get(stress_daily))
        .route("/usersummary-service/stats/stress/weekly/{end}/{weeks}", get(stress_weekly))
        .route("/usersummary-service/stats/im/daily/{start}/{end}", get(im_daily))
        .route("/usersummary-service/stats/im/weekly/{start}/{end}", get(im_weekly))
        .route("/usersummary-service/stats/hydration/daily/{start}/{end}", get(hydration_daily))
        .route("/userstats-service/wellness/daily/{dn}", get(resting_hr))
}

/// Days with data in `start..=end`.
fn days_in(d: &Dataset, start: NaiveDate, end: NaiveDate) -> Vec<(NaiveDate, &Day)> {
    clock::days(start, end).filter_map(|x| d.day(x).map(|r| (x, r))).collect()
}

/// Seven-day windows ending on `end`, oldest first: `(window start, days with data)`.
fn weeks_back(d: &Dataset, end: NaiveDate, weeks: i64) -> Vec<(NaiveDate, Vec<&Day>)> {
    (0..weeks)
        .rev()
        .map(|k| {
            let start = end - Duration::days(6 + 7 * k);
            (start, days_in(d, start, start + Duration::days(6)).into_iter().map(|x| x.1).collect::<Vec<_>>())
        })
        .filter(|(_, days)| !days.is_empty())
        .collect()
}

fn weeks_param(raw: &str) -> Result<i64, Reject> {
    raw.parse::<i64>()
        .ok()
        .filter(|w| (1..=104).contains(w))
        .ok_or_else(|| bad_request(format!("Invalid number of weeks: {raw}")).into())
}

/// Runs `f` with a validated `start..=end` range.
fn ranged(
    state: &AppState,
    s: &str,
    e: &str,
    max_days: Option<i64>,
    f: impl FnOnce(&Dataset, NaiveDate, NaiveDate) -> Value,
) -> Response {
    let (start, end) = match range(s, e) {
        Ok(r) => r,
        Err(e) => return e.into(),
    };
    if max_days.is_some_and(|m| (end - start).num_days() >= m) {
        return bad_request(format!("Date range must not exceed {} days", max_days.unwrap_or_default()));
    }
    ok(f(&read(state), start, end))
}

/// `GET /usersummary-service/stats/steps/daily/{start}/{end}` (≤ 28 days).
pub(super) async fn steps_daily(
    State(state): State<AppState>,
    Path((s, e)): Path<(String, String)>,
) -> Response {
    ranged(&state, &s, &e, Some(28), |d, start, end| {
        let rows = days_in(d, start, end).into_iter().map(|(x, r)| {
            json!({"calendarDate": clock::date(x), "totalSteps": r.steps, "totalDistance": int(r.distance_m), "stepGoal": r.step_goal})
        });
        Value::Array(rows.collect())
    })
}

/// `GET /usersummary-service/stats/steps/weekly/{end}/{weeks}`
async fn steps_weekly(State(state): State<AppState>, Path((e, w)): Path<(String, String)>) -> Response {
    let (end, weeks) = match (date(&e), weeks_param(&w)) {
        (Ok(end), Ok(weeks)) => (end, weeks),
        (Err(r), _) | (_, Err(r)) => return r.into(),
    };
    let d = read(&state);
    let rows = weeks_back(&d, end, weeks).into_iter().map(|(start, days)| {
        let n = days.len() as f64;
        let steps: u32 = days.iter().map(|x| x.steps).sum();
        let dist: f64 = days.iter().map(|x| x.distance_m.round()).sum();
        json!({"calendarDate": clock::date(start), "values": {
            "totalSteps": steps, "averageSteps": f64::from(steps) / n, "wellnessDataDaysCount": days.len(),
            "averageDistance": dist / n, "totalDistance": dist
        }})
    });
    ok(Value::Array(rows.collect()))
}

/// `GET /usersummary-service/stats/stress/daily/{start}/{end}`
pub(super) async fn stress_daily(
    State(state): State<AppState>,
    Path((s, e)): Path<(String, String)>,
) -> Response {
    ranged(&state, &s, &e, None, |d, start, end| {
        let rows = days_in(d, start, end).into_iter().map(|(x, r)| {
            let st = &r.stress;
            json!({"calendarDate": clock::date(x), "values": {
                "highStressDuration": st.high_s, "lowStressDuration": st.low_s, "overallStressLevel": int(st.avg),
                "restStressDuration": st.rest_s, "mediumStressDuration": st.medium_s
            }})
        });
        Value::Array(rows.collect())
    })
}

/// `GET /usersummary-service/stats/stress/weekly/{end}/{weeks}`
async fn stress_weekly(State(state): State<AppState>, Path((e, w)): Path<(String, String)>) -> Response {
    let (end, weeks) = match (date(&e), weeks_param(&w)) {
        (Ok(end), Ok(weeks)) => (end, weeks),
        (Err(r), _) | (_, Err(r)) => return r.into(),
    };
    let d = read(&state);
    let rows = weeks_back(&d, end, weeks).into_iter().map(|(start, days)| {
        let avg = days.iter().map(|x| x.stress.avg).sum::<f64>() / days.len() as f64;
        json!({"calendarDate": clock::date(start), "value": int(avg)})
    });
    ok(Value::Array(rows.collect()))
}

fn im_row(day: NaiveDate, moderate: u32, vigorous: u32) -> Value {
    Obj::new()
        .set("calendarDate", clock::date(day))
        .set("weeklyGoal", 150)
        .set("moderateValue", moderate)
        .set("vigorousValue", vigorous)
        .build()
}

/// `GET /usersummary-service/stats/im/daily/{start}/{end}`
async fn im_daily(State(state): State<AppState>, Path((s, e)): Path<(String, String)>) -> Response {
    ranged(&state, &s, &e, None, |d, start, end| {
        Value::Array(
            days_in(d, start, end)
                .into_iter()
                .map(|(x, r)| im_row(x, r.moderate_min, r.vigorous_min))
                .collect(),
        )
    })
}

/// `GET /usersummary-service/stats/im/weekly/{start}/{end}` (Monday-aligned weeks covering the range).
async fn im_weekly(State(state): State<AppState>, Path((s, e)): Path<(String, String)>) -> Response {
    ranged(&state, &s, &e, None, |d, start, end| {
        let mut monday = start - Duration::days(i64::from(start.weekday().num_days_from_monday()));
        let mut rows = Vec::new();
        while monday <= end {
            let days = days_in(d, monday, monday + Duration::days(6));
            if !days.is_empty() {
                rows.push(im_row(
                    monday,
                    days.iter().map(|x| x.1.moderate_min).sum(),
                    days.iter().map(|x| x.1.vigorous_min).sum(),
                ));
            }
            monday += Duration::days(7);
        }
        Value::Array(rows)
    })
}

/// `GET /usersummary-service/stats/hydration/daily/{start}/{end}`
pub(super) async fn hydration_daily(
    State(state): State<AppState>,
    Path((s, e)): Path<(String, String)>,
) -> Response {
    ranged(&state, &s, &e, None, |d, start, end| {
        let rows = days_in(d, start, end)
            .into_iter()
            .filter_map(|(x, r)| r.hydration_ml.map(|ml| json!({"calendarDate": clock::date(x), "valueInML": ml, "goalInML": r.hydration_goal_ml})));
        Value::Array(rows.collect())
    })
}

/// `GET /userstats-service/wellness/daily/{dn}?fromDate&untilDate&metricId=60` (resting heart rate).
async fn resting_hr(State(state): State<AppState>, q: Query) -> Response {
    let (start, end) = match (query_date(&q, "fromDate"), query_date(&q, "untilDate")) {
        (Ok(s), Ok(e)) => (s, e),
        (Err(r), _) | (_, Err(r)) => return r.into(),
    };
    let d = read(&state);
    let values: Vec<Value> = days_in(&d, start, end)
        .into_iter()
        .map(|(x, r)| json!({"value": r.resting_hr, "calendarDate": clock::date(x)}))
        .collect();
    ok(Obj::new()
        .set("userProfileId", d.profile_id)
        .set("statisticsStartDate", clock::date(start))
        .set("statisticsEndDate", clock::date(end))
        .set("allMetrics", json!({"metricsMap": {"WELLNESS_RESTING_HEART_RATE": values}}))
        .set("groupedMetrics", Value::Null)
        .build())
}

/// Average of `f` over the days with data in a range (used by lifetime totals).
pub(super) fn average(d: &Dataset, start: NaiveDate, end: NaiveDate, f: impl Fn(&Day) -> f64) -> f64 {
    let days = days_in(d, start, end);
    if days.is_empty() { 0.0 } else { round(days.iter().map(|x| f(x.1)).sum::<f64>() / days.len() as f64, 1) }
}
