//! The Personal API's data endpoints (`docs/garmin-personal-api.md` §3), answered from the same
//! generated athlete as the web API so both paths give the same numbers. Where the Personal API
//! path is the web path without `/gc-api` (reference §6: E1, E2, E5, E7–E9, E12, E14–E16, E20), the
//! web handler answers; E4, E13, E17, E19 and E26 reuse the web handler of the same data under the
//! Personal API's path; E3, E6, E10, E11, E18 and E21–E25 have shapes of their own.
//! [`crate::personal`] puts the bearer gate in front; this file adds each endpoint's per-request
//! day cap (reference §4.2).

use axum::Router;
use axum::extract::{Path, Request, State};
use axum::http::StatusCode;
use axum::middleware::{Next, from_fn};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use chrono::NaiveDate;
use serde_json::{Value, json};

use super::{
    Query, activities, challenges, clock, date, downloads, id, metrics, not_found, ok, profile, query_date,
    read, sleep, stats, stress, vitals, weight, wellness,
};
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

/// The 26 data endpoints (reference §3.2).
pub fn router() -> Router<AppState> {
    Router::new()
        // E1, E2, E3, E4
        .route("/activitylist-service/activities/search/activities", get(activities::list))
        .route("/activity-service/activity/{id}", get(activities::one))
        .route("/activity-service/activity/{id}/workouts", get(activity_workouts))
        .route("/download-service/files/activity/{id}", get(original_file))
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
        // E12, E13
        .route("/wellness-service/wellness/dailyHeartRate", get(wellness::heart_rate))
        .route("/biometric-service/heartRateZones/v2", get(metrics::hr_zones))
        // E14, E15
        .route("/hrv-service/hrv/{date}", get(sleep::hrv_day))
        .route("/hrv-service/hrv/daily/{start}/{end}", get(sleep::hrv_range))
        // E16
        .route("/wellness-service/wellness/bodyBattery/reports/daily", get(stress::reports))
        // E17, E18, E19
        .route("/wellness-service/wellness/daily/spo2acclimation/{date}", get(vitals::spo2))
        .route("/wellnessactivity-service/activity/summary/range/{start}/{end}", get(wellness_activities))
        .route("/fitnessage-service/fitnessage/v2/{date}", get(metrics::fitness_age))
        // E20, E21, E22
        .route("/weight-service/weight/range/{start}/{end}", get(weight::weight_range))
        .route("/weight-service/weight/all/{start}/{end}", get(weight_all))
        .route("/goal-service/goal/user/effective/weightgoal/{start}/{end}", get(weight_goal))
        // E23, E24, E25, E26
        .route("/nutrition-service/food/logs/{date}", get(nutrition_log))
        .route("/periodichealth-service/menstrualcycle/summary/{date}", get(cycle))
        .route("/periodichealth-service/menstrualcycle/dayview/{date}", get(cycle))
        .route("/userprofile-service/userprofile/settings", get(profile::settings))
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
    let untracked = state.config().untracked.sleep;
    let d = read(&state);
    ok(match d.day(day).filter(|_| !untracked) {
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
    if state.config().untracked.sleep {
        return not_found();
    }
    let d = read(&state);
    let rows: Vec<Value> = clock::days(start, end)
        .filter_map(|day| d.day(day).map(|rec| sleep::sleep_dto(&d, day, &rec.sleep)))
        .collect();
    ok(Value::Array(rows))
}

/// E3 `GET /activity-service/activity/{id}/workouts`: the workouts done in an activity (reference
/// §3.3 `[O]`), an array. The fake's activities are recorded free, without a workout on the watch,
/// so the array is empty; an unknown activity is 404 as on E2.
async fn activity_workouts(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    let d = read(&state);
    match id(&raw).ok().and_then(|i| d.activity(i)) {
        Some(_) => ok(json!([])),
        None => not_found(),
    }
}

/// E4 `GET /download-service/files/activity/{id}`: the same zip as the web download (reference
/// §6: "a ZIP with one `<id>_ACTIVITY.fit`"), but `Accept: application/octet-stream` alone is
/// refused with 406 (reference §4.3 `[1]` gcpapi: the download needs a zip-ish `Accept`).
async fn original_file(state: State<AppState>, path: Path<String>, req: Request) -> Response {
    let accept = crate::server::header_text(req.headers(), "accept").unwrap_or("*/*").to_ascii_lowercase();
    let zip_ok = accept.contains("zip") || accept.contains("*/*");
    if !zip_ok {
        return noted(
            StatusCode::NOT_ACCEPTABLE.into_response(),
            format!("406: Accept `{accept}` names no zip type"),
        );
    }
    downloads::activity_zip(state, path).await
}

/// E18 `GET /wellnessactivity-service/activity/summary/range/{S}/{E}`: wellness activities
/// (breathing and health-monitoring sessions, reference §3.7 `[O]`). The fake's athlete starts none
/// on the watch, so the array is empty; malformed or reversed dates are 400.
async fn wellness_activities(Path((s, e)): Path<(String, String)>) -> Response {
    match super::range(&s, &e) {
        Ok(_) => ok(json!([])),
        Err(e) => e.into(),
    }
}

/// E21 `GET /weight-service/weight/all/{S}/{E}`: documented, but answers 400 for every input as of
/// October 2026 (reference §3.8 `[1]` gcpapi), with no detail (§4.3).
async fn weight_all() -> Response {
    noted(StatusCode::BAD_REQUEST.into_response(), "400: Garmin answers 400 here for every input".to_owned())
}

/// E22 `GET /goal-service/goal/user/effective/weightgoal/{S}/{E}` → `{userGoals: [...]}` (reference
/// §3.8 `[O]`): the web goal list's weight goal (same athlete, grams) when it is in effect during
/// the range.
async fn weight_goal(State(state): State<AppState>, Path((s, e)): Path<(String, String)>) -> Response {
    let (start, end) = match super::range(&s, &e) {
        Ok(r) => r,
        Err(e) => return e.into(),
    };
    let d = read(&state);
    let goals: Vec<Value> = challenges::goal_list(&d)
        .into_iter()
        .map(|(_, g)| g)
        .filter(|g| g["userGoalType"] == "WEIGHT_GRAMS")
        .filter(|g| {
            let from = g["startDate"].as_str().and_then(clock::parse_date);
            let to = g["endDate"].as_str().and_then(clock::parse_date);
            from.is_some_and(|f| f <= end) && to.is_none_or(|t| t >= start)
        })
        .map(|mut g| {
            super::put(&mut g, "goalName", "Weight");
            g
        })
        .collect();
    ok(json!({ "userGoals": goals }))
}

/// E23 `GET /nutrition-service/food/logs/{D}` → DailyNutritionSummary (reference §3.8 `[O]`). The
/// fake's athlete logs no food (the web daily summary's `consumedKilocalories` is null), so the day
/// has its goals and no meals.
async fn nutrition_log(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    let day = match date(&raw) {
        Ok(x) => x,
        Err(e) => return e.into(),
    };
    let d = read(&state);
    let kcal = d.day(day).map(|r| (r.bmr_kcal + r.active_kcal).round());
    ok(json!({
        "mealDate": clock::date(day),
        "dayStartTime": format!("{}T00:00:00.0", clock::date(day)),
        "dayEndTime": format!("{}T23:59:59.0", clock::date(day)),
        "dailyNutritionGoals": { "calories": kcal, "carbs": null, "fat": null, "protein": null, "adjusted": false },
        "mealDetails": [],
    }))
}

/// E24/E25 `GET /periodichealth-service/menstrualcycle/{summary|dayview}/{D}`: "empty when the user
/// does not track" (reference §3.8 `[S]`). The fake's athlete is male and tracks no cycle: 200 with
/// an empty body, which clients read as "no data" (§3.1 `[G]`).
async fn cycle(Path(raw): Path<String>) -> Response {
    match date(&raw) {
        Ok(_) => StatusCode::OK.into_response(),
        Err(e) => e.into(),
    }
}
