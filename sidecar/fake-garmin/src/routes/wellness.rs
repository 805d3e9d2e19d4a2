//! The daily wellness view (reference §4.2): the daily summary, the day's heart rate and the
//! epoch reload request, plus the helpers every day-based endpoint shares (day bounds, the
//! blanked "no data" twin of a body). Days outside the data set answer the same shapes with
//! nulls and empty series, as Garmin does for dates without data.

use axum::Router;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::{get, post};
use chrono::{Duration, NaiveDate, NaiveDateTime};
use serde_json::{Value, json};

use super::{Obj, Query, date, int, ok, pair, query_date, read, round};
use crate::data::health::Day;
use crate::data::{Dataset, clock, intraday};
use crate::state::AppState;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/usersummary-service/usersummary/daily", get(daily))
        .route("/usersummary-service/usersummary/daily/", get(daily))
        .route("/usersummary-service/usersummary/daily/{dn}", get(daily))
        .route("/wellness-service/wellness/dailyHeartRate", get(heart_rate))
        .route("/wellness-service/wellness/dailyHeartRate/", get(heart_rate))
        .route("/wellness-service/wellness/dailyHeartRate/{dn}", get(heart_rate))
        .route("/wellness-service/wellness/epoch/request/{date}", post(epoch_request))
}

/// GMT and local bounds of a calendar day: `(start GMT, end GMT, start local, end local)`.
pub(super) fn bounds(
    d: &Dataset,
    day: NaiveDate,
) -> (NaiveDateTime, NaiveDateTime, NaiveDateTime, NaiveDateTime) {
    let local = day.and_time(chrono::NaiveTime::MIN);
    let gmt = d.zone.to_gmt(local);
    (gmt, gmt + Duration::days(1), local, local + Duration::days(1))
}

/// Adds `day`'s bounds under the keys every day-based body uses (`startTimestampGMT`,
/// `endTimestampGMT`, `startTimestampLocal`, `endTimestampLocal`), each written by `stamp`
/// (`clock::t1` or `clock::t3`: the endpoints differ, as their recorded bodies show).
pub(super) fn with_bounds(obj: Obj, d: &Dataset, day: NaiveDate, stamp: fn(NaiveDateTime) -> String) -> Obj {
    let (gs, ge, ls, le) = bounds(d, day);
    obj.set("startTimestampGMT", stamp(gs))
        .set("endTimestampGMT", stamp(ge))
        .set("startTimestampLocal", stamp(ls))
        .set("endTimestampLocal", stamp(le))
}

/// The head of a day-based body: `userProfilePK`, `calendarDate`, then [`with_bounds`].
pub(super) fn day_head(d: &Dataset, day: NaiveDate, stamp: fn(NaiveDateTime) -> String) -> Obj {
    let head = Obj::new().set("userProfilePK", d.profile_id).set("calendarDate", clock::date(day));
    with_bounds(head, d, day, stamp)
}

/// Turns every scalar into null and every array into `[]`, except the keys in `keep`: the "no
/// data" twin of a body, built from the real shape so both always have the same keys.
pub(super) fn blank(v: &mut Value, keep: &[&str]) {
    match v {
        Value::Object(m) => {
            for (k, child) in m.iter_mut() {
                if !keep.contains(&k.as_str()) {
                    blank(child, keep);
                }
            }
        }
        Value::Array(a) => a.clear(),
        other => *other = Value::Null,
    }
}

/// Builds `f(day)` for a day with data, or the blanked form built from the first day.
pub(super) fn or_blank(
    d: &Dataset,
    day: NaiveDate,
    keep: &[&str],
    f: impl Fn(&Day, NaiveDate) -> Value,
) -> Value {
    if let Some(rec) = d.day(day) {
        return f(rec, day);
    }
    let mut v = d.days.first().map(|first| f(first, day)).unwrap_or_default();
    blank(&mut v, keep);
    v
}

/// The keys of [`day_head`]: they stay filled on a day without data.
const DAY_HEAD_KEYS: [&str; 6] = [
    "userProfilePK",
    "calendarDate",
    "startTimestampGMT",
    "endTimestampGMT",
    "startTimestampLocal",
    "endTimestampLocal",
];

/// [`or_blank`] for a body that starts with [`day_head`]: its keys and `keep` stay filled.
pub(super) fn day_or_blank(
    d: &Dataset,
    day: NaiveDate,
    keep: &[&str],
    f: impl Fn(&Day, NaiveDate) -> Value,
) -> Value {
    let keep: Vec<&str> = DAY_HEAD_KEYS.iter().chain(keep).copied().collect();
    or_blank(d, day, &keep, f)
}

/// The day's closing Body Battery as the word its feedback events carry (`HIGH` from 60,
/// `MODERATE` from 30, else `LOW`), in the daily summary and in GraphQL's daily summary alike.
pub(super) fn battery_level(rec: &Day) -> &'static str {
    if rec.battery.end >= 60.0 {
        "HIGH"
    } else if rec.battery.end >= 30.0 {
        "MODERATE"
    } else {
        "LOW"
    }
}

/// Seven-day average resting heart rate up to `day`.
pub(super) fn rhr_7d(d: &Dataset, day: NaiveDate) -> f64 {
    let vals: Vec<f64> =
        clock::days(day - Duration::days(6), day).filter_map(|x| d.day(x)).map(|x| x.resting_hr).collect();
    if vals.is_empty() { 0.0 } else { (vals.iter().sum::<f64>() / vals.len() as f64).round() }
}

/// The daily summary body of `day`.
pub(super) fn summary(d: &Dataset, rec: &Day, day: NaiveDate) -> Value {
    let (gs, ge, ls, le) = bounds(d, day);
    let st = &rec.stress;
    let measured = st.rest_s + st.low_s + st.medium_s + st.high_s;
    let total = measured + st.activity_s + st.uncategorized_s;
    let pct = |x: i64| round(x as f64 * 100.0 / total.max(1) as f64, 2);
    let asleep = rec.sleep.asleep_s() + rec.sleep.awake_s;
    let steps = intraday::steps(&rec.ctx(&d.zone, &d.activities));
    let secs = |level: &str| steps.iter().filter(|s| s.2 == level).count() as i64 * 900;
    let qualifier = match st.avg as i64 {
        0..=25 => "CALM",
        26..=35 => "BALANCED",
        36..=50 => "STRESSFUL",
        _ => "VERY_STRESSFUL",
    };
    let total_kcal = rec.bmr_kcal + rec.active_kcal;
    let feedback = |at: NaiveDateTime, level: &str, kind: &str| json!({"eventTimestampGmt": clock::t0(at), "bodyBatteryLevel": level, "feedbackShortType": kind, "feedbackLongType": kind});
    let level = battery_level(rec);
    Obj::new()
        .set("userProfileId", d.profile_id)
        .set("totalKilocalories", total_kcal)
        .set("activeKilocalories", rec.active_kcal)
        .set("bmrKilocalories", rec.bmr_kcal)
        .set("wellnessKilocalories", total_kcal)
        .nulls(&[
            "burnedKilocalories",
            "consumedKilocalories",
            "remainingKilocalories",
            "netCalorieGoal",
            "wellnessDescription",
            "lastSyncTimestampGMT",
        ])
        .set("totalSteps", rec.steps)
        .set("totalDistanceMeters", int(rec.distance_m))
        .set("wellnessDistanceMeters", int(rec.distance_m))
        .set("wellnessActiveKilocalories", rec.active_kcal)
        .set("netRemainingKilocalories", rec.active_kcal)
        .set("userDailySummaryId", 130_000_000 + clock::day_no(day))
        .set("calendarDate", clock::date(day))
        .set("rule", pair("typeId", 2, "typeKey", "private"))
        .set("uuid", crate::data::rng::Rng::new(rec.seed).uuid().replace('-', ""))
        .set("dailyStepGoal", rec.step_goal)
        .set("wellnessStartTimeGmt", clock::t1(gs))
        .set("wellnessStartTimeLocal", clock::t1(ls))
        .set("wellnessEndTimeGmt", clock::t1(ge))
        .set("wellnessEndTimeLocal", clock::t1(le))
        .set("durationInMilliseconds", 86_400_000)
        .set("highlyActiveSeconds", secs("highlyActive"))
        .set("activeSeconds", secs("active"))
        .set("sedentarySeconds", secs("sedentary"))
        .set("sleepingSeconds", asleep)
        .set("includesWellnessData", true)
        .set("includesActivityData", !rec.activities.is_empty())
        .set("includesCalorieConsumedData", false)
        .set("privacyProtected", false)
        .set("moderateIntensityMinutes", rec.moderate_min)
        .set("vigorousIntensityMinutes", rec.vigorous_min)
        .set("floorsAscendedInMeters", round(rec.floors_up * 3.048, 3))
        .set("floorsDescendedInMeters", round(rec.floors_down * 3.048, 3))
        .set("floorsAscended", rec.floors_up)
        .set("floorsDescended", rec.floors_down)
        .set("intensityMinutesGoal", 150)
        .set("userFloorsAscendedGoal", 10)
        .set("minHeartRate", int(rec.min_hr))
        .set("maxHeartRate", int(rec.max_hr))
        .set("restingHeartRate", int(rec.resting_hr))
        .set("lastSevenDaysAvgRestingHeartRate", int(rhr_7d(d, day)))
        .set("source", "GARMIN")
        .set("averageStressLevel", int(st.avg))
        .set("maxStressLevel", int(st.max))
        .set("stressDuration", st.low_s + st.medium_s + st.high_s)
        .set("restStressDuration", st.rest_s)
        .set("activityStressDuration", st.activity_s)
        .set("uncategorizedStressDuration", st.uncategorized_s)
        .set("totalStressDuration", total)
        .set("lowStressDuration", st.low_s)
        .set("mediumStressDuration", st.medium_s)
        .set("highStressDuration", st.high_s)
        .set("stressPercentage", pct(st.low_s + st.medium_s + st.high_s))
        .set("restStressPercentage", pct(st.rest_s))
        .set("activityStressPercentage", pct(st.activity_s))
        .set("uncategorizedStressPercentage", pct(st.uncategorized_s))
        .set("lowStressPercentage", pct(st.low_s))
        .set("mediumStressPercentage", pct(st.medium_s))
        .set("highStressPercentage", pct(st.high_s))
        .set("stressQualifier", qualifier)
        .set("measurableAwakeDuration", measured + st.activity_s - asleep.min(measured))
        .set("measurableAsleepDuration", asleep)
        .set("minAvgHeartRate", int(rec.min_hr + 1.0))
        .set("maxAvgHeartRate", int(rec.max_hr - 3.0))
        .set("bodyBatteryChargedValue", int(rec.battery.charged))
        .set("bodyBatteryDrainedValue", int(rec.battery.drained))
        .set("bodyBatteryHighestValue", int(rec.battery.high))
        .set("bodyBatteryLowestValue", int(rec.battery.low))
        .set("bodyBatteryMostRecentValue", int(rec.battery.end))
        .set("bodyBatteryDuringSleep", int(rec.battery.at_wake - rec.battery.start))
        .set("bodyBatteryAtWakeTime", int(rec.battery.at_wake))
        .set("bodyBatteryVersion", 3)
        .set("abnormalHeartRateAlertsCount", Value::Null)
        .set("averageSpo2", rec.sleep.avg_spo2)
        .set("lowestSpo2", rec.sleep.lowest_spo2)
        .set("latestSpo2", rec.sleep.avg_spo2)
        .set("latestSpo2ReadingTimeGmt", clock::t1(rec.sleep.end_gmt))
        .set("latestSpo2ReadingTimeLocal", clock::t1(d.zone.to_local(rec.sleep.end_gmt)))
        .set("averageMonitoringEnvironmentAltitude", if d.zone.offset_s < 0 { 1150 } else { 8 })
        .set("restingCaloriesFromActivity", Value::Null)
        .set(
            "bodyBatteryDynamicFeedbackEvent",
            feedback(ge - Duration::hours(3), level, "SLEEP_PREPARATION_RECOVERING_AND_INACTIVE"),
        )
        .set(
            "endOfDayBodyBatteryDynamicFeedbackEvent",
            feedback(ge, level, "SLEEP_TIME_PASSED_RECOVERING_AND_EXERCISE"),
        )
        .set(
            "bodyBatteryActivityEventList",
            super::stress::battery_events(d, rec).into_iter().map(|(e, _)| e).collect::<Vec<_>>(),
        )
        .set("avgWakingRespirationValue", rec.respiration_avg)
        .set("highestRespirationValue", rec.respiration_max)
        .set("lowestRespirationValue", rec.respiration_min)
        .set("latestRespirationValue", rec.respiration_avg)
        .set("latestRespirationTimeGMT", clock::t1(ge - Duration::minutes(3)))
        .set("respirationAlgorithmVersion", 200)
        .build()
}

/// `GET /usersummary-service/usersummary/daily/{displayName}?calendarDate=` (empty `{dn}` works too).
pub(super) async fn daily(State(state): State<AppState>, q: Query) -> Response {
    let day = match query_date(&q, "calendarDate") {
        Ok(x) => x,
        Err(e) => return e.into(),
    };
    let d = read(&state);
    ok(or_blank(
        &d,
        day,
        &["userProfileId", "calendarDate", "rule", "privacyProtected", "source"],
        |rec, day| {
            let mut v = summary(&d, rec, day);
            super::put(&mut v, "calendarDate", clock::date(day));
            v
        },
    ))
}

/// `GET /wellness-service/wellness/dailyHeartRate/{dn}?date=` (`heart_rate_day.json`).
pub(super) async fn heart_rate(State(state): State<AppState>, q: Query) -> Response {
    let day = match query_date(&q, "date") {
        Ok(x) => x,
        Err(e) => return e.into(),
    };
    let d = read(&state);
    ok(day_or_blank(&d, day, &["heartRateValueDescriptors"], |rec, day| {
        let values: Vec<Value> = intraday::heart_rate(&rec.ctx(&d.zone, &d.activities))
            .into_iter()
            .map(|(t, v)| json!([t, v]))
            .collect();
        day_head(&d, day, clock::t1)
            .set("maxHeartRate", int(rec.max_hr))
            .set("minHeartRate", int(rec.min_hr))
            .set("restingHeartRate", int(rec.resting_hr))
            .set("lastSevenDaysAvgRestingHeartRate", int(rhr_7d(&d, day)))
            .set(
                "heartRateValueDescriptors",
                json!([{"key": "timestamp", "index": 0}, {"key": "heartrate", "index": 1}]),
            )
            .set("heartRateValues", values)
            .build()
    }))
}

/// `POST /wellness-service/wellness/epoch/request/{date}` (`wellness_epoch_request_response.json`).
async fn epoch_request(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    let day = match date(&raw) {
        Ok(x) => x,
        Err(e) => return e.into(),
    };
    let d = read(&state);
    ok(Obj::new()
        .set("userProfilePk", d.profile_id)
        .set("calendarDate", clock::date(day))
        .set("status", if d.day(day).is_some() { "COMPLETE" } else { "NO_DATA" })
        .set("source", "USER")
        .set("ghReloadMetaData", "")
        .set("createDate", clock::t3(d.now()))
        .set("deviceList", Value::Null)
        .build())
}
