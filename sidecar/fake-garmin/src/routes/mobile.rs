//! The mobile-gateway twins of training status (reference §4.5): the same payloads as the
//! metrics service, each wrapped as `{requestUrl, statusCode, headers, errorMessage, successful,
//! payload}` (`training_status_mobile_gateway_{latest,weekly,monthly}.json`).

use axum::Router;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::get;
use chrono::{Datelike, Duration, NaiveDate};
use serde_json::{Value, json};

use super::training::{acclimation, load_balance, recorded_devices, status, status_item, vo2max};
use super::{Obj, date, ok, range, read};
use crate::data::kit::WATCH_ID;
use crate::data::{Dataset, clock};
use crate::state::AppState;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/mobile-gateway/usersummary/trainingstatus/latest/{date}", get(latest))
        .route("/mobile-gateway/usersummary/trainingstatus/weekly/{start}/{end}", get(weekly))
        .route("/mobile-gateway/usersummary/trainingstatus/monthly/{start}/{end}", get(monthly))
}

fn wrap(url: String, payload: Value) -> Value {
    Obj::new()
        .set("requestUrl", url)
        .set("statusCode", 200)
        .set("headers", json!({}))
        .set("errorMessage", Value::Null)
        .set("successful", true)
        .set("payload", payload)
        .build()
}

/// `GET /mobile-gateway/usersummary/trainingstatus/latest/{date}`
async fn latest(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    let day = match date(&raw) {
        Ok(x) => x,
        Err(e) => return e.into(),
    };
    let d = read(&state);
    let rec = d.day(day);
    let part = |f: &dyn Fn(&crate::data::health::Day) -> Value| rec.map_or(Value::Null, f);
    ok(Obj::new()
        .set(
            "mostRecentHeatAltitudeAcclimation",
            wrap(
                format!("/metrics-service/metrics/heataltitudeacclimation/latest/{raw}"),
                part(&|_| acclimation(&d, day)),
            ),
        )
        .set(
            "mostRecentTrainingLoadBalance",
            wrap(
                format!("/metrics-service/metrics/trainingloadbalance/latest/{raw}"),
                part(&|r| load_balance(&d, day, r)),
            ),
        )
        .set(
            "mostRecentTrainingStatus",
            wrap(
                format!("/metrics-service/metrics/trainingstatus/daily/{raw}"),
                part(&|r| status(&d, day, r)),
            ),
        )
        .set(
            "mostRecentVO2Max",
            wrap(format!("/metrics-service/metrics/maxmet/latest/{raw}"), part(&|r| vo2max(&d, day, r))),
        )
        .build())
}

/// Training-status report over days (`step` 1 = daily rows, 7 = one row a week).
pub(super) fn report(d: &Dataset, start: NaiveDate, end: NaiveDate, step: usize) -> Value {
    let rows: Vec<Value> = clock::days(start, end)
        .step_by(step)
        .filter_map(|x| d.day(x).map(|r| status_item(d, x, r, false)))
        .collect();
    let mut data = serde_json::Map::new();
    data.insert(WATCH_ID.to_string(), Value::Array(rows));
    Obj::new()
        .set("userId", d.profile_id)
        .set("fromCalendarDate", clock::date(start))
        .set("toCalendarDate", clock::date(end))
        .set("showSelector", false)
        .set("recordedDevices", recorded_devices(d))
        .set("reportData", Value::Object(data))
        .build()
}

fn vo2_stats(d: &Dataset, start: NaiveDate, end: NaiveDate, weekly: bool) -> Value {
    let values: Vec<Value> = if weekly {
        let mut sunday = start - Duration::days(i64::from(start.weekday().num_days_from_sunday()));
        let mut out = Vec::new();
        while sunday <= end {
            if let Some(r) = d.day((sunday + Duration::days(6)).min(d.today)) {
                out.push(json!({"value": r.fitness.vo2max.round(), "startDateOfWeek": clock::date(sunday)}));
            }
            sunday += Duration::days(7);
        }
        out
    } else {
        clock::days(start, end)
            .filter(|x| d.activities_on(*x).any(|a| a.vo2max.is_some()))
            .filter_map(|x| {
                d.day(x).map(|r| json!({"value": r.fitness.vo2max.round(), "calendarDate": clock::date(x)}))
            })
            .collect()
    };
    Obj::new()
        .set("userProfileId", d.profile_id)
        .set("statisticsStartDate", clock::date(start))
        .set("statisticsEndDate", clock::date(end))
        .set("allMetrics", json!({"metricsMap": {"ACTIVITY_VO2_MAX": values}}))
        .set("groupedMetrics", Value::Null)
        .build()
}

/// `GET /mobile-gateway/usersummary/trainingstatus/weekly/{start}/{end}`
async fn weekly(State(state): State<AppState>, Path((s, e)): Path<(String, String)>) -> Response {
    grouped_status(&state, &s, &e, Grouping::Weekly)
}

/// `GET /mobile-gateway/usersummary/trainingstatus/monthly/{start}/{end}`
async fn monthly(State(state): State<AppState>, Path((s, e)): Path<(String, String)>) -> Response {
    grouped_status(&state, &s, &e, Grouping::Monthly)
}

/// How the mobile gateway groups its training-status summary.
#[derive(Clone, Copy)]
enum Grouping {
    Weekly,
    Monthly,
}

/// The weekly and monthly summaries share one shape: the training-status report sampled every
/// day (weekly) or every 7 days (monthly), and VO2max statistics per day or per week, each wrapped
/// with the web-API path it mirrors.
fn grouped_status(state: &AppState, s: &str, e: &str, grouping: Grouping) -> Response {
    let (start, end) = match range(s, e) {
        Ok(r) => r,
        Err(e) => return e.into(),
    };
    let (word, title, step, vo2_per, weekly_vo2) = match grouping {
        Grouping::Weekly => ("weekly", "Weekly", 1, "daily", false),
        Grouping::Monthly => ("monthly", "Monthly", 7, "weekly", true),
    };
    let d = read(state);
    ok(Obj::new()
        .set(
            &format!("{word}TrainingStatus"),
            wrap(
                format!("/metrics-service/metrics/trainingstatus/{word}/{}", d.display_name),
                report(&d, start, end, step),
            ),
        )
        .set(
            &format!("vo2Max{title}Statistics"),
            wrap(
                format!("/metrics-service/metrics/maxmet/stats/{vo2_per}/{s}/{e}"),
                vo2_stats(&d, start, end, weekly_vo2),
            ),
        )
        .build())
}
