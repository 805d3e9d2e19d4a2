//! Badges, challenges and goals (reference §4.8). Badges are earned from the activities and days
//! (first run, the half marathon, a 100 km month, a week of 10 000 steps, 10 km swum); monthly
//! badge challenges track the current month; an expedition (virtual climb) tracks elevation
//! gained; goals are the usual daily steps, hydration and weight targets. GraphQL reuses the
//! challenge and goal lists.

use axum::Router;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::get;
use chrono::{Datelike, Duration, NaiveDate};
use serde_json::{Value, json};

use super::{Obj, Query, id, not_found, ok, read, round};
use crate::data::activity::{Kind, Sport};
use crate::data::{Dataset, clock};
use crate::state::AppState;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/badge-service/badge/earned", get(earned))
        .route("/badge-service/badge/available", get(available))
        .route("/badge-service/badge/detail/v2/{id}", get(detail))
        .route("/badgechallenge-service/badgeChallenge/{status}", get(badge_challenges))
        .route("/badgechallenge-service/virtualChallenge/inProgress", get(virtual_in_progress))
        .route("/adhocchallenge-service/adHocChallenge/historical", get(adhoc_historical))
        .route("/adhocchallenge-service/adHocChallenge/nonCompleted", get(adhoc_open))
        .route("/adhocchallenge-service/adHocChallenge/{uuid}", get(adhoc_one))
        .route("/goal-service/goal/goals", get(goals))
}

/// `(badgeId, key, name, category, points, target, unitId, earned on)` of every badge.
type Badge = (u64, &'static str, &'static str, u32, u32, f64, u32, Option<NaiveDate>);

fn badges(d: &Dataset) -> Vec<Badge> {
    let runs = || d.live().filter(|a| a.sport() == Sport::Running);
    let first_run = runs().next().map(|a| a.start_local.date());
    let half = d.live().find(|a| a.kind == Kind::Race).map(|a| a.start_local.date());
    let mut month_km = std::collections::BTreeMap::<(i32, u32), f64>::new();
    let mut hundred = None;
    for a in runs() {
        let k = (a.start_local.year(), a.start_local.month());
        let total = month_km.entry(k).or_default();
        *total += a.stats.distance;
        if *total >= 100_000.0 && hundred.is_none() {
            hundred = Some(a.start_local.date());
        }
    }
    let mut streak = 0;
    let mut steps_week = None;
    for day in &d.days {
        streak = if day.steps >= 10_000 { streak + 1 } else { 0 };
        if streak == 7 && steps_week.is_none() {
            steps_week = Some(day.date);
        }
    }
    let mut swum = 0.0;
    let swim_10k = d.live().filter(|a| a.sport() == Sport::Swimming).find_map(|a| {
        swum += a.stats.distance;
        (swum >= 10_000.0).then(|| a.start_local.date())
    });
    vec![
        (1001, "first_run", "First Run", 1, 1, 1.0, 3, first_run),
        (1002, "half_marathon", "Half Marathon", 2, 4, 21_097.5, 1, half),
        (1003, "run_100k_month", "100 km Month", 2, 4, 100.0, 1, hundred),
        (1004, "step_streak_7", "Step Streak 7", 4, 2, 7.0, 4, steps_week),
        (1005, "swim_10k_total", "Swim 10 km", 3, 2, 10.0, 1, swim_10k),
        (1006, "marathon", "Marathon", 2, 8, 42_195.0, 1, None),
        (1007, "ride_1000k_total", "1000 km Ride", 3, 4, 1000.0, 1, None),
    ]
}

fn badge_json(d: &Dataset, b: &Badge) -> Value {
    let (id, key, name, category, points, target, unit, earned) = *b;
    Obj::new()
        .set("badgeId", id)
        .set("badgeKey", key)
        .set("badgeName", name)
        .set("badgeUuid", Value::Null)
        .set("badgeCategoryId", category)
        .set("badgeDifficultyId", 1 + points / 3)
        .set("badgePoints", points)
        .set("badgeTypeIds", json!([1]))
        .set("badgeSeriesId", Value::Null)
        .set("badgeStartDate", "2016-01-01T00:00:00.0")
        .set("badgeEndDate", Value::Null)
        .set("userProfileId", d.profile_id)
        .set("fullName", d.full_name.clone())
        .set("displayName", d.display_name.clone())
        .set("badgeEarnedDate", earned.map(|x| clock::t1(x.and_hms_opt(20, 0, 0).unwrap_or_default())))
        .set("badgeEarnedNumber", u32::from(earned.is_some()))
        .set("badgeLimitCount", Value::Null)
        .set("badgeIsViewed", true)
        .set("badgeProgressValue", if earned.is_some() { target } else { round(target * 0.4, 1) })
        .set("badgeTargetValue", target)
        .set("badgeUnitId", unit)
        .set("badgeAssocTypeId", 1)
        .set("badgeAssocDataId", Value::Null)
        .set("badgeAssocDataName", Value::Null)
        .set("earnedByMe", earned.is_some())
        .set("currentPlayerType", Value::Null)
        .set("userJoined", Value::Null)
        .set("badgeChallengeStatusId", Value::Null)
        .set("badgePromotionCodeTypeList", json!([]))
        .set("promotionCodeStatus", Value::Null)
        .set("createDate", "2016-01-01T00:00:00.0")
        .set("relatedBadges", Value::Null)
        .set("connectionNumber", Value::Null)
        .set("connections", Value::Null)
        .build()
}

/// `GET /badge-service/badge/earned`
async fn earned(State(state): State<AppState>) -> Response {
    let d = read(&state);
    ok(Value::Array(badges(&d).iter().filter(|b| b.7.is_some()).map(|b| badge_json(&d, b)).collect()))
}

/// `GET /badge-service/badge/available?showExclusiveBadge=true`
async fn available(State(state): State<AppState>) -> Response {
    let d = read(&state);
    ok(Value::Array(badges(&d).iter().filter(|b| b.7.is_none()).map(|b| badge_json(&d, b)).collect()))
}

/// `GET /badge-service/badge/detail/v2/{badgeId}`
async fn detail(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    let d = read(&state);
    let wanted = id(&raw).ok();
    match badges(&d).iter().find(|b| Some(b.0) == wanted) {
        Some(b) => ok(badge_json(&d, b)),
        None => not_found(),
    }
}

/// A monthly badge challenge: `(name, key, category, unit, target, progress, start, end)`.
type Challenge = (String, String, u32, u32, f64, f64, NaiveDate, NaiveDate);

/// Monthly badge challenges of the month containing `day`.
fn month_challenges(d: &Dataset, day: NaiveDate) -> Vec<Challenge> {
    let start = day.with_day(1).unwrap_or(day);
    let end = (start + Duration::days(32)).with_day(1).unwrap_or(start) - Duration::days(1);
    let month = start.format("%B").to_string();
    let tag = start.format("%Y_%m").to_string();
    let upto = end.min(d.today);
    let acts = d.live().filter(|a| (start..=upto).contains(&a.start_local.date())).count() as f64;
    let steps: f64 = clock::days(start, upto).filter_map(|x| d.day(x)).map(|x| f64::from(x.steps)).sum();
    vec![
        (
            format!("Active {month}"),
            format!("challenge_total_activity_20_{tag}"),
            9,
            3,
            20.0,
            acts,
            start,
            end,
        ),
        (
            format!("{month} Step Month"),
            format!("challenge_total_step_300k_{tag}"),
            4,
            5,
            300_000.0,
            steps,
            start,
            end,
        ),
    ]
}

fn challenge_json(uuid: String, c: &Challenge, status: u32) -> Value {
    let (name, key, category, unit, target, progress, start, end) = c;
    Obj::new()
        .set("uuid", uuid)
        .set("badgeChallengeName", name.clone())
        .set("startDate", clock::t1(start.and_hms_opt(0, 0, 0).unwrap_or_default()))
        .set("endDate", clock::t1(end.and_hms_opt(23, 59, 59).unwrap_or_default()))
        .set("progressValue", progress.min(*target))
        .set("targetValue", *target)
        .set("unitId", *unit)
        .set("badgeKey", key.clone())
        .set("challengeCategoryId", *category)
        .set("badgeChallengeStatusId", status)
        .set("userJoined", true)
        .build()
}

fn challenge_uuid(d: &Dataset, key: &str) -> String {
    let salt = key.bytes().fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)));
    crate::data::rng::Rng::derive(d.seed, salt).uuid().replace('-', "").to_uppercase()
}

/// Badge challenges by status: `available`/`non-completed` this month, `completed` earlier months.
pub(super) fn badge_challenge_list(d: &Dataset, status: &str) -> Vec<Value> {
    let current = month_challenges(d, d.today);
    match status {
        "completed" => (1..=3)
            .flat_map(|m| month_challenges(d, d.today - Duration::days(30 * m)))
            .filter(|c| c.5 >= c.4)
            .map(|c| challenge_json(challenge_uuid(d, &c.1), &c, 3))
            .collect(),
        _ => current
            .iter()
            .filter(|c| c.5 < c.4)
            .map(|c| challenge_json(challenge_uuid(d, &c.1), c, 2))
            .collect(),
    }
}

/// `GET /badgechallenge-service/badgeChallenge/{completed|available|non-completed}`
async fn badge_challenges(State(state): State<AppState>, Path(status): Path<String>, q: Query) -> Response {
    if !["completed", "available", "non-completed"].contains(&status.as_str()) {
        return not_found();
    }
    let d = read(&state);
    ok(Value::Array(super::page(&badge_challenge_list(&d, &status), &q, 100, 1000)))
}

/// Expeditions (virtual climbs) in progress; progress is metres climbed since joining.
pub(super) fn expeditions(d: &Dataset) -> Vec<Value> {
    let joined = d.today - Duration::days(120);
    let climbed: f64 = d.live().filter(|a| a.start_local.date() >= joined).map(|a| a.stats.elev_gain).sum();
    let row = |name: &str, key: &str, target: f64| {
        json!({"uuid": challenge_uuid(d, key), "badgeChallengeName": name, "startDate": null, "endDate": null,
               "progressValue": round(climbed.min(target), 3), "targetValue": target, "unitId": 2, "badgeKey": key, "challengeCategoryId": 13})
    };
    vec![
        row("Aconcagua", "virtual_climb_aconcagua", 6961.0),
        row("Kilimanjaro", "virtual_climb_kilimanjaro", 5895.0),
    ]
}

/// `GET /badgechallenge-service/virtualChallenge/inProgress?start&limit`
async fn virtual_in_progress(State(state): State<AppState>, q: Query) -> Response {
    let d = read(&state);
    ok(Value::Array(super::page(&expeditions(&d), &q, 100, 1000)))
}

fn adhoc(d: &Dataset) -> Value {
    let start = d.today - Duration::days(40);
    let end = start + Duration::days(6);
    let steps: u32 = clock::days(start, end).filter_map(|x| d.day(x)).map(|x| x.steps).sum();
    json!({
        "uuid": challenge_uuid(d, "adhoc-steps"), "adHocChallengeName": "Weekday Step Duel", "adHocChallengeDesc": null,
        "challengeCategoryId": 1, "startDate": clock::t1(start.and_hms_opt(0, 0, 0).unwrap_or_default()),
        "endDate": clock::t1(end.and_hms_opt(23, 59, 59).unwrap_or_default()), "ownerId": d.profile_id, "userRanking": 1,
        "players": [
            {"userProfileId": d.profile_id, "displayName": d.display_name, "fullName": d.full_name, "score": steps, "ranking": 1},
            {"userProfileId": 1_000_002, "displayName": "fake-athlete-2", "fullName": "Sam Sample", "score": steps * 8 / 10, "ranking": 2}
        ]
    })
}

/// `GET /adhocchallenge-service/adHocChallenge/historical`
async fn adhoc_historical(State(state): State<AppState>) -> Response {
    ok(json!([adhoc(&read(&state))]))
}

/// `GET /adhocchallenge-service/adHocChallenge/nonCompleted`
async fn adhoc_open() -> Response {
    ok(json!([]))
}

/// `GET /adhocchallenge-service/adHocChallenge/{uuid}`
async fn adhoc_one(State(state): State<AppState>, Path(uuid): Path<String>) -> Response {
    let v = adhoc(&read(&state));
    if v["uuid"] == uuid.as_str() { ok(v) } else { not_found() }
}

/// Goals with their status (`active`, `future` or `past`) as of today.
pub(super) fn goal_list(d: &Dataset) -> Vec<(&'static str, Value)> {
    let goal = |pk: u64,
                category: &str,
                kind: &str,
                start: NaiveDate,
                end: Option<NaiveDate>,
                value: f64,
                activity: Option<u32>| {
        let status = if start > d.today {
            "future"
        } else if end.is_some_and(|e| e < d.today) {
            "past"
        } else {
            "active"
        };
        let stamp = clock::t1(start.and_hms_opt(11, 17, 41).unwrap_or_default());
        (
            status,
            json!({
                "userGoalPk": pk, "userProfilePk": d.profile_id, "userGoalCategory": category, "userGoalType": kind,
                "startDate": clock::date(start), "endDate": end.map(clock::date), "goalName": null, "goalValue": value,
                "updateDate": stamp, "createDate": stamp, "rulePk": null, "activityTypePk": activity, "trackingPeriodType": "DAILY"
            }),
        )
    };
    vec![
        goal(3_354_140_801, "MANUAL", "STEPS", d.first, None, 10_000.0, None),
        goal(3_354_140_802, "MANUAL", "HYDRATION", d.first + Duration::days(30), None, 2_500.0, Some(9)),
        goal(3_354_140_803, "MANUAL", "WEIGHT_GRAMS", d.first + Duration::days(60), None, 69_000.0, Some(9)),
        goal(
            3_354_140_804,
            "MANUAL",
            "INTENSITY_MINUTES",
            d.first,
            Some(d.first + Duration::days(90)),
            150.0,
            None,
        ),
        goal(3_354_140_805, "MANUAL", "STEPS", d.today + Duration::days(14), None, 12_000.0, None),
    ]
}

/// `GET /goal-service/goal/goals?status=active|future|past&start&limit&sortOrder`
async fn goals(State(state): State<AppState>, q: Query) -> Response {
    let d = read(&state);
    let status = q.get("status").map_or("active", String::as_str);
    let mut list: Vec<Value> =
        goal_list(&d).into_iter().filter(|(s, _)| *s == status).map(|(_, v)| v).collect();
    if q.get("sortOrder").map(String::as_str) == Some("desc") {
        list.reverse();
    }
    ok(Value::Array(super::page(&list, &q, 100, 1000)))
}
