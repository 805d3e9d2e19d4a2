//! The calendar feed (reference §4.11): month view with a **0-based** month
//! (`/calendar-service/year/{Y}/month/{M0}`, 0 = January), week view and year view. The month
//! view covers whole weeks (Sunday to Saturday) around the month, so items of neighbouring weeks
//! appear in two months and clients must dedupe by `id` (Taxuspt/garmin_mcp #86). Items are the
//! live activities, scheduled workouts and calendar events.

use axum::Router;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::get;
use chrono::{Datelike, Duration, NaiveDate};
use serde_json::Value;

use super::{Obj, Reject, bad_request, int, ok, read, round};
use crate::data::{Dataset, clock};
use crate::state::AppState;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/calendar-service/year/{year}", get(year))
        .route("/calendar-service/year/{year}/month/{month}", get(month))
        .route("/calendar-service/year/{year}/month/{month}/day/{day}/start/{start}", get(week))
}

const ITEM_NULLS: [&str; 27] = [
    "groupId",
    "trainingPlanId",
    "wellnessActivityUuid",
    "floorsClimbed",
    "avgRespirationRate",
    "unitOfPoolLength",
    "weight",
    "difference",
    "courseId",
    "courseName",
    "url",
    "isStart",
    "recurrenceId",
    "parentId",
    "userBadgeId",
    "badgeCategoryTypeId",
    "badgeCategoryTypeDesc",
    "badgeAwardedDate",
    "badgeViewed",
    "hideBadge",
    "diveNumber",
    "maxDepth",
    "avgDepth",
    "surfaceInterval",
    "bottomTime",
    "atpPlanId",
    "phasedTrainingPlan",
];

/// One calendar item; the caller fills what its kind knows.
fn item(id: u64, kind: &str, title: &str, day: NaiveDate) -> Obj {
    Obj::new()
        .set("id", id)
        .set("itemType", kind)
        .set("title", title)
        .set("date", clock::date(day))
        .nulls(&ITEM_NULLS)
        .nulls(&[
            "activityTypeId",
            "duration",
            "distance",
            "calories",
            "sportTypeKey",
            "startTimestampLocal",
            "eventTimeLocal",
        ])
        .nulls(&[
            "elapsedDuration",
            "lapCount",
            "workoutId",
            "maxSpeed",
            "averageHR",
            "location",
            "shareableEventUuid",
            "completionTarget",
        ])
        .set("isParent", false)
        .set("isRace", false)
        .set("protectedWorkoutSchedule", false)
        .set("decoDive", false)
        .set("autoCalcCalories", false)
        .set("shareableEvent", false)
        .set("primaryEvent", false)
        .set("subscribed", Value::Null)
}

/// Calendar items dated `start..=end`, by date then id.
pub(super) fn items(d: &Dataset, start: NaiveDate, end: NaiveDate) -> Vec<Value> {
    let mut out: Vec<(NaiveDate, u64, Value)> = Vec::new();
    for a in d.live().filter(|a| (start..=end).contains(&a.start_local.date())) {
        let v = item(a.id, "activity", &a.name, a.start_local.date())
            .set("activityTypeId", a.sport().type_id())
            .set("sportTypeKey", a.sport().type_key())
            .set("duration", round(a.stats.duration, 3))
            .set("distance", round(a.stats.distance, 2))
            .set("calories", a.calories)
            .set("startTimestampLocal", clock::t1(a.start_local))
            .set("elapsedDuration", round(a.elapsed_s, 3))
            .set("lapCount", a.laps.len())
            .set("maxSpeed", round(a.stats.max_speed, 4))
            .set("averageHR", int(a.stats.avg_hr))
            .set("workoutId", a.workout_id)
            .set("isRace", a.kind == crate::data::activity::Kind::Race)
            .build();
        out.push((a.start_local.date(), a.id, v));
    }
    for s in d.schedules.values().filter(|s| (start..=end).contains(&s.date)) {
        let w = d.workouts.get(&s.workout_id);
        let name = w.and_then(|w| w["workoutName"].as_str()).unwrap_or_default();
        let sport = w.map(|w| w["sportType"]["sportTypeKey"].clone()).unwrap_or_default();
        let v = item(s.id, "workout", name, s.date)
            .set("workoutId", s.workout_id)
            .set("sportTypeKey", sport)
            .build();
        out.push((s.date, s.id, v));
    }
    for e in d.events.values().filter(|e| (start..=end).contains(&e.date)) {
        let ev = super::events::event_json(e);
        let v = item(e.id, "event", &e.name, e.date)
            .set("isRace", e.race)
            .set("primaryEvent", e.primary)
            .set("shareableEventUuid", e.uuid.clone())
            .set("eventTimeLocal", ev["eventTimeLocal"].clone())
            .set("completionTarget", ev["completionTarget"].clone())
            .set("location", e.location.clone())
            .set("sportTypeKey", e.event_type.clone())
            .set("subscribed", true)
            .build();
        out.push((e.date, e.id, v));
    }
    out.sort_by_key(|x| (x.0, x.1));
    out.into_iter().map(|x| x.2).collect()
}

fn parse(year: &str, month: Option<&str>) -> Result<(i32, u32), Reject> {
    let y = year
        .parse::<i32>()
        .ok()
        .filter(|y| (1990..=2100).contains(y))
        .ok_or_else(|| Reject::from(bad_request(format!("Invalid year: {year}"))))?;
    let m = match month {
        Some(m) => m
            .parse::<u32>()
            .ok()
            .filter(|m| *m < 12)
            .ok_or_else(|| Reject::from(bad_request(format!("Invalid month (0-11): {m}"))))?,
        None => 0,
    };
    Ok((y, m))
}

/// `GET /calendar-service/year/{Y}/month/{M0}` (0-based month; whole weeks around it).
async fn month(State(state): State<AppState>, Path((y, m)): Path<(String, String)>) -> Response {
    let (year, m0) = match parse(&y, Some(&m)) {
        Ok(x) => x,
        Err(e) => return e.into(),
    };
    let Some(first) = NaiveDate::from_ymd_opt(year, m0 + 1, 1) else { return bad_request("Invalid month") };
    let next = if m0 == 11 {
        NaiveDate::from_ymd_opt(year + 1, 1, 1)
    } else {
        NaiveDate::from_ymd_opt(year, m0 + 2, 1)
    };
    let last = next.map_or(first, |n| n - Duration::days(1));
    let prev_days = (first - Duration::days(1)).day();
    let start = first - Duration::days(i64::from(first.weekday().num_days_from_sunday()));
    let end = last + Duration::days(6 - i64::from(last.weekday().num_days_from_sunday()));
    let d = read(&state);
    ok(Obj::new()
        .set("startDayOfMonth", first.weekday().num_days_from_sunday())
        .set("numOfDaysInMonth", last.day())
        .set("numOfDaysInPrevMonth", prev_days)
        .set("month", m0)
        .set("year", year)
        .set("calendarItems", items(&d, start, end))
        .build())
}

/// `GET /calendar-service/year/{Y}/month/{M0}/day/{D}/start/{S}` (the week containing that day;
/// `S` = 1 starts weeks on Sunday, 2 on Monday).
async fn week(
    State(state): State<AppState>,
    Path((y, m, day, s)): Path<(String, String, String, String)>,
) -> Response {
    let (year, m0) = match parse(&y, Some(&m)) {
        Ok(x) => x,
        Err(e) => return e.into(),
    };
    let Some(date) = day.parse::<u32>().ok().and_then(|dd| NaiveDate::from_ymd_opt(year, m0 + 1, dd)) else {
        return bad_request(format!("Invalid day: {day}"));
    };
    let offset =
        if s == "2" { date.weekday().num_days_from_monday() } else { date.weekday().num_days_from_sunday() };
    let start = date - Duration::days(i64::from(offset));
    let end = start + Duration::days(6);
    let d = read(&state);
    ok(Obj::new()
        .set("startDate", clock::date(start))
        .set("endDate", clock::date(end))
        .set(
            "numOfDaysInMonth",
            (start + Duration::days(40)).with_day(1).map_or(30, |n| (n - Duration::days(1)).day()),
        )
        .set("calendarItems", items(&d, start, end))
        .build())
}

/// `GET /calendar-service/year/{Y}` (every item of the year).
async fn year(State(state): State<AppState>, Path(y): Path<String>) -> Response {
    let (year, _) = match parse(&y, None) {
        Ok(x) => x,
        Err(e) => return e.into(),
    };
    let (Some(start), Some(end)) =
        (NaiveDate::from_ymd_opt(year, 1, 1), NaiveDate::from_ymd_opt(year, 12, 31))
    else {
        return bad_request("Invalid year");
    };
    let d = read(&state);
    ok(Obj::new().set("year", year).set("calendarItems", items(&d, start, end)).build())
}
