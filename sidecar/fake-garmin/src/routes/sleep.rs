//! Sleep and HRV (reference §4.2): the night's sleep on both paths (`sleep_sleep_service.json`,
//! `sleep.json`; nights without data answer `sleep_sleep_service_no_data.json`'s null form), the
//! sleep score and sleep stats ranges, and overnight HRV (`hrv.json`; 204 on nights without a
//! reading) plus its range (`hrv_range.json`).

use axum::Router;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::get;
use chrono::{Duration, NaiveDate};
use serde_json::{Value, json};

use super::{Obj, Query, date, int, no_content, ok, put, query_date, range, read};
use crate::data::health::Day;
use crate::data::kit::WATCH_ID;
use crate::data::sleep::{Sleep, hrv_readings};
use crate::data::{Dataset, clock};
use crate::state::AppState;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/sleep-service/sleep/dailySleepData", get(sleep_service))
        .route("/wellness-service/wellness/dailySleepData", get(sleep_service))
        .route("/wellness-service/wellness/dailySleepData/", get(sleep_service))
        .route("/wellness-service/wellness/dailySleepData/{dn}", get(sleep_service))
        .route("/wellness-service/stats/daily/sleep/score/{start}/{end}", get(score_stats))
        .route("/sleep-service/stats/sleep/daily/{start}/{end}", get(sleep_stats))
        .route("/hrv-service/hrv/{date}", get(hrv_day))
        .route("/hrv-service/hrv/daily/{start}/{end}", get(hrv_range))
}

fn qualifier(score: f64) -> &'static str {
    match score {
        s if s >= 90.0 => "EXCELLENT",
        s if s >= 80.0 => "GOOD",
        s if s >= 60.0 => "FAIR",
        _ => "POOR",
    }
}

fn band(value: f64, lo: f64, hi: f64, asleep: f64) -> Value {
    let q = if (lo..=hi).contains(&value) { "EXCELLENT" } else { "FAIR" };
    json!({"value": value, "qualifierKey": q, "optimalStart": lo, "optimalEnd": hi,
           "idealStartInSeconds": asleep * lo / 100.0, "idealEndInSeconds": asleep * hi / 100.0})
}

/// The sleep need of the night before `day`: eight hours, more after a hard training week or a
/// night whose HRV fell below its weekly average (field names as Home Assistant's Garmin
/// integration 3.0.2 exposes them; the adjustment values are *unverified* beyond `NO_CHANGE`).
fn need(d: &Dataset, day: NaiveDate, at: chrono::NaiveDateTime) -> Value {
    let (trained, hrv_low) = need_reasons(d, day);
    let adjust = |on: bool| if on { "INCREASING" } else { "NO_CHANGE" };
    let actual = need_minutes(d, day);
    Obj::new()
        .set("userProfilePk", d.profile_id)
        .set("calendarDate", clock::date(day))
        .set("deviceId", WATCH_ID)
        .set("timestampGmt", clock::t0(at))
        .set("baseline", 480)
        .set("actual", actual)
        .set("feedback", if actual > 480 { "INCREASED" } else { "NO_CHANGE_BALANCED" })
        .set("trainingFeedback", adjust(trained))
        .set("sleepHistoryAdjustment", "NO_CHANGE")
        .set("hrvAdjustment", adjust(hrv_low))
        .set("napAdjustment", "NO_CHANGE")
        .set("displayedForTheDay", false)
        .set("preferredActivityTracker", true)
        .build()
}

/// Why the need of the night before `day` rose: a hard training week, HRV below its weekly average.
fn need_reasons(d: &Dataset, day: NaiveDate) -> (bool, bool) {
    let rec = d.day(day);
    let trained = rec.is_some_and(|r| r.fitness.acute > r.fitness.chronic * 1.2);
    let hrv_low = rec.and_then(|r| r.hrv.as_ref()).is_some_and(|h| h.last_night_avg < h.weekly_avg - 5.0);
    (trained, hrv_low)
}

/// The sleep need (minutes) of the night before `day`: the night's `sleepNeed.actual`, and the
/// same number in the sleep-stats range's `values.sleepNeed` (one figure, two paths).
fn need_minutes(d: &Dataset, day: NaiveDate) -> i64 {
    let (trained, hrv_low) = need_reasons(d, day);
    480 + if trained { 20 } else { 0 } + if hrv_low { 15 } else { 0 }
}

/// `dailySleepDTO` of a night (also one row of GraphQL `sleepSummariesScalar`).
pub(super) fn sleep_dto(d: &Dataset, day: NaiveDate, s: &Sleep) -> Value {
    let asleep = s.asleep_s() as f64;
    let score = f64::from(s.score);
    let scores = Obj::new()
        .set("totalDuration", json!({"qualifierKey": qualifier(100.0 - (28_800.0 - asleep).abs() / 180.0), "optimalStart": 28_800.0, "optimalEnd": 28_800.0}))
        .set("stress", json!({"qualifierKey": if s.avg_stress <= 15.0 { "EXCELLENT" } else { "GOOD" }, "optimalStart": 0.0, "optimalEnd": 15.0}))
        .set("awakeCount", json!({"qualifierKey": if s.awake_count <= 1 { "EXCELLENT" } else { "GOOD" }, "optimalStart": 0.0, "optimalEnd": 1.0}))
        .set("overall", json!({"value": s.score, "qualifierKey": qualifier(score)}))
        .set("remPercentage", band(s.percent(s.rem_s), 21.0, 31.0, asleep))
        .set("restlessness", json!({"qualifierKey": "GOOD", "optimalStart": 0.0, "optimalEnd": 5.0}))
        .set("lightPercentage", band(s.percent(s.light_s), 30.0, 64.0, asleep))
        .set("deepPercentage", band(s.percent(s.deep_s), 16.0, 33.0, asleep))
        .build();
    Obj::new()
        .set("id", clock::ms(s.start_gmt))
        .set("userProfilePK", d.profile_id)
        .set("calendarDate", clock::date(day))
        .set("sleepTimeSeconds", s.asleep_s())
        .set("napTimeSeconds", 0)
        .set("sleepWindowConfirmed", true)
        .set("sleepWindowConfirmationType", "enhanced_confirmed_final")
        .set("sleepStartTimestampGMT", clock::ms(s.start_gmt))
        .set("sleepEndTimestampGMT", clock::ms(s.end_gmt))
        .set("sleepStartTimestampLocal", clock::local_ms(d.zone.to_local(s.start_gmt)))
        .set("sleepEndTimestampLocal", clock::local_ms(d.zone.to_local(s.end_gmt)))
        .nulls(&[
            "autoSleepStartTimestampGMT",
            "autoSleepEndTimestampGMT",
            "sleepQualityTypePK",
            "sleepResultTypePK",
        ])
        .set("unmeasurableSleepSeconds", 0)
        .set("deepSleepSeconds", s.deep_s)
        .set("lightSleepSeconds", s.light_s)
        .set("remSleepSeconds", s.rem_s)
        .set("awakeSleepSeconds", s.awake_s)
        .set("deviceRemCapable", true)
        .set("retro", false)
        .set("sleepFromDevice", true)
        .set("averageSpO2Value", s.avg_spo2)
        .set("lowestSpO2Value", s.lowest_spo2)
        .set("highestSpO2Value", 100)
        .set("averageSpO2HRSleep", s.avg_hr)
        .set("averageRespirationValue", s.avg_respiration)
        .set("lowestRespirationValue", s.avg_respiration - 4.0)
        .set("highestRespirationValue", s.avg_respiration + 5.0)
        .set("awakeCount", s.awake_count)
        .set("avgSleepStress", s.avg_stress)
        .set("ageGroup", "ADULT")
        .set(
            "sleepScoreFeedback",
            if s.score >= 80 { "POSITIVE_DEEP" } else { "NEGATIVE_SHORT_BUT_CONTINUOUS" },
        )
        .set("sleepScoreInsight", "NONE")
        .set("sleepScorePersonalizedInsight", "NOT_AVAILABLE")
        .set("sleepScores", scores)
        .set("sleepVersion", 2)
        .set("sleepNeed", need(d, day, s.start_gmt - Duration::hours(9)))
        .set("nextSleepNeed", need(d, day + Duration::days(1), s.end_gmt + Duration::hours(8)))
        .set("dailyNapDTOS", json!([]))
        .build()
}

/// The full sleep body of `day` (both sleep paths).
pub(super) fn sleep_body(d: &Dataset, day: NaiveDate, rec: &Day) -> Value {
    let s = &rec.sleep;
    let levels: Vec<Value> = s
        .stages
        .iter()
        .map(|(a, b, level)| json!({"startGMT": clock::t1(*a), "endGMT": clock::t1(*b), "activityLevel": f64::from(*level)}))
        .collect();
    let mut movement = Vec::new();
    let mut t = s.start_gmt - Duration::hours(1);
    let mut rng = crate::data::rng::Rng::new(s.seed ^ 0x4D4F56);
    while t < s.end_gmt + Duration::hours(1) {
        let asleep = t >= s.start_gmt && t < s.end_gmt;
        let level = if asleep { rng.range(0.0, 1.2) } else { rng.range(1.5, 4.5) };
        movement.push(json!({"startGMT": clock::t1(t), "endGMT": clock::t1(t + Duration::minutes(1)), "activityLevel": super::round(level, 3)}));
        t += Duration::minutes(1);
    }
    let spo2 = Obj::new()
        .set("userProfilePk", d.profile_id)
        .set("deviceId", WATCH_ID)
        .set("sleepMeasurementStartGMT", clock::t1(s.start_gmt))
        .set("sleepMeasurementEndGMT", clock::t1(s.end_gmt))
        .nulls(&["alertThresholdValue", "numberOfEventsBelowThreshold", "durationOfEventsBelowThreshold"])
        .set("averageSPO2", s.avg_spo2)
        .set("averageSpO2HR", s.avg_hr)
        .set("lowestSPO2", s.lowest_spo2)
        .build();
    Obj::new()
        .set("dailySleepDTO", sleep_dto(d, day, s))
        .set("sleepMovement", movement)
        .set("remSleepData", true)
        .set("sleepLevels", levels)
        .set("wellnessSpO2SleepSummaryDTO", spo2)
        .set("skinTempDataExists", false)
        .set("avgSkinTempDeviationC", Value::Null)
        .set("avgSkinTempDeviationF", Value::Null)
        .set("bodyBatteryChange", int(rec.battery.at_wake - rec.battery.start + 8.0))
        .set("skinTempCalibrationDays", Value::Null)
        .set("restingHeartRate", int(rec.resting_hr))
        .build()
}

/// The null form Garmin returns for a night without data.
pub(super) fn no_sleep(d: &Dataset, day: NaiveDate) -> Value {
    let mut v = fixture!("sleep_sleep_service_no_data.json");
    if let Some(dto) = v.get_mut("dailySleepDTO") {
        put(dto, "userProfilePK", d.profile_id);
        put(dto, "calendarDate", clock::date(day));
    }
    v
}

/// `GET /sleep-service/sleep/dailySleepData?date=` and `/wellness-service/wellness/dailySleepData/{dn}?date=`
async fn sleep_service(State(state): State<AppState>, q: Query) -> Response {
    let day = match query_date(&q, "date") {
        Ok(x) => x,
        Err(e) => return e.into(),
    };
    let untracked = state.config().untracked.sleep;
    let d = read(&state);
    ok(match d.day(day).filter(|_| !untracked) {
        Some(rec) => sleep_body(&d, day, rec),
        None => no_sleep(&d, day),
    })
}

/// `GET /wellness-service/stats/daily/sleep/score/{start}/{end}` → `[{calendarDate, value}]`.
async fn score_stats(State(state): State<AppState>, Path((s, e)): Path<(String, String)>) -> Response {
    let (start, end) = match range(&s, &e) {
        Ok(r) => r,
        Err(e) => return e.into(),
    };
    let untracked = state.config().untracked.sleep;
    let d = read(&state);
    let rows: Vec<Value> = clock::days(start, end)
        .filter(|_| !untracked)
        .filter_map(|day| {
            d.day(day).map(|r| json!({"calendarDate": clock::date(day), "value": r.sleep.score}))
        })
        .collect();
    ok(Value::Array(rows))
}

/// `GET /sleep-service/stats/sleep/daily/{start}/{end}` (at most 28 days).
async fn sleep_stats(State(state): State<AppState>, Path((s, e)): Path<(String, String)>) -> Response {
    let (start, end) = match range(&s, &e) {
        Ok(r) => r,
        Err(e) => return e.into(),
    };
    if (end - start).num_days() >= 28 {
        return super::bad_request("Date range must not exceed 28 days");
    }
    if state.config().untracked.sleep {
        return super::not_found();
    }
    let d = read(&state);
    let rows: Vec<Value> = clock::days(start, end)
        .filter_map(|day| d.day(day).map(|r| (day, r)))
        .map(|(day, r)| {
            let s = &r.sleep;
            json!({"calendarDate": clock::date(day), "values": {
                "remTime": s.rem_s, "restingHeartRate": r.resting_hr, "totalSleepTimeInSeconds": s.asleep_s(),
                "respiration": s.avg_respiration, "localSleepEndTimeInMillis": clock::local_ms(d.zone.to_local(s.end_gmt)),
                "deepTime": s.deep_s, "awakeTime": s.awake_s, "sleepScoreQuality": qualifier(f64::from(s.score)),
                "spO2": s.avg_spo2, "localSleepStartTimeInMillis": clock::local_ms(d.zone.to_local(s.start_gmt)),
                "sleepNeed": need_minutes(&d, day), "bodyBatteryChange": int(r.battery.at_wake - r.battery.start + 8.0),
                "hrvStatus": r.hrv.as_ref().map(|h| h.status), "skinTempF": null, "sleepScore": s.score,
                "lightTime": s.light_s, "hrv7dAverage": r.hrv.as_ref().map(|h| h.weekly_avg)
            }})
        })
        .collect();
    ok(json!({"overallStats": {"averageSleepScore": null}, "individualStats": rows}))
}

/// `hrvSummary` of a night (also a row of `hrv_range.json` / GraphQL HRV).
pub(super) fn hrv_summary(day: NaiveDate, rec: &Day) -> Option<Value> {
    let h = rec.hrv.as_ref()?;
    Some(
        Obj::new()
            .set("calendarDate", clock::date(day))
            .set("weeklyAvg", int(h.weekly_avg))
            .set("lastNightAvg", int(h.last_night_avg))
            .set("lastNight5MinHigh", int(h.five_min_high))
            .set("baseline", json!({"lowUpper": 38, "balancedLow": 42, "balancedUpper": 60, "markerValue": super::round((h.weekly_avg - 38.0) / 26.0, 4)}))
            .set("status", h.status)
            .set("feedbackPhrase", format!("HRV_{}_{}", h.status, 1 + rec.seed % 8))
            .set("createTimeStamp", clock::t3(rec.sleep.end_gmt + Duration::minutes(40)))
            .build(),
    )
}

/// `GET /hrv-service/hrv/{date}` (204 when the night has no reading).
pub(super) async fn hrv_day(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    let day = match date(&raw) {
        Ok(x) => x,
        Err(e) => return e.into(),
    };
    let d = read(&state);
    let Some(rec) = d.day(day) else { return no_content() };
    let (Some(summary), Some(h)) = (hrv_summary(day, rec), rec.hrv.as_ref()) else { return no_content() };
    let s = &rec.sleep;
    let readings: Vec<Value> = hrv_readings(s, h.last_night_avg)
        .into_iter()
        .map(|(t, v)| json!({"hrvValue": v, "readingTimeGMT": clock::t1(t), "readingTimeLocal": clock::t1(d.zone.to_local(t))}))
        .collect();
    let local = |t| clock::t1(d.zone.to_local(t));
    ok(Obj::new()
        .set("userProfilePk", d.profile_id)
        .set("hrvSummary", summary)
        .set("hrvReadings", readings)
        .set("startTimestampGMT", clock::t1(s.start_gmt))
        .set("endTimestampGMT", clock::t1(s.end_gmt))
        .set("startTimestampLocal", local(s.start_gmt))
        .set("endTimestampLocal", local(s.end_gmt))
        .set("sleepStartTimestampGMT", clock::t1(s.start_gmt))
        .set("sleepEndTimestampGMT", clock::t1(s.end_gmt))
        .set("sleepStartTimestampLocal", local(s.start_gmt))
        .set("sleepEndTimestampLocal", local(s.end_gmt))
        .build())
}

/// HRV summaries of `start..=end` (nights without a reading are left out).
pub(super) fn hrv_summaries(d: &Dataset, start: NaiveDate, end: NaiveDate) -> Value {
    let rows: Vec<Value> =
        clock::days(start, end).filter_map(|day| d.day(day).and_then(|r| hrv_summary(day, r))).collect();
    Obj::new().set("hrvSummaries", rows).set("userProfilePk", d.profile_id).build()
}

/// `GET /hrv-service/hrv/daily/{start}/{end}`
pub(super) async fn hrv_range(
    State(state): State<AppState>,
    Path((s, e)): Path<(String, String)>,
) -> Response {
    match range(&s, &e) {
        Ok(_) if state.config().untracked.hrv => no_content(),
        Ok((start, end)) => ok(hrv_summaries(&read(&state), start, end)),
        Err(e) => e.into(),
    }
}
