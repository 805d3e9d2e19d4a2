//! Training status and readiness (reference §4.5): the aggregated training status
//! (`training_status.json`, device ids as object keys), its parts (daily status, load balance,
//! VO2max, heat/altitude acclimation) which the mobile-gateway twins and GraphQL reuse, and the
//! training-readiness array (`training_readiness.json`; `[]` without data).

use axum::Router;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::get;
use chrono::{Duration, NaiveDate};
use serde_json::{Map, Value, json};

use super::{Obj, date, int, ok, read, round};
use crate::data::activity::Sport;
use crate::data::health::Day;
use crate::data::kit::WATCH_ID;
use crate::data::{Dataset, clock};
use crate::state::AppState;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/metrics-service/metrics/trainingstatus/aggregated/{date}", get(aggregated))
        .route("/metrics-service/metrics/trainingstatus/daily/{date}", get(daily))
        .route("/metrics-service/metrics/trainingreadiness/{date}", get(readiness))
}

/// `recordedDevices` (the watch only).
pub(super) fn recorded_devices(d: &Dataset) -> Value {
    let w = d.devices.iter().find(|x| x.id == WATCH_ID);
    json!([{
        "deviceId": WATCH_ID,
        "imageURL": w.map_or("", |w| w.image_url),
        "deviceName": w.map_or("", |w| w.product),
        "category": 0
    }])
}

fn by_device(v: Value) -> Value {
    let mut m = Map::new();
    m.insert(WATCH_ID.to_string(), v);
    Value::Object(m)
}

/// First day of the training-status streak that includes `day`.
fn since(d: &Dataset, day: NaiveDate) -> Option<NaiveDate> {
    let status = d.day(day)?.fitness.status;
    let mut x = day;
    while d.day(x - Duration::days(1)).is_some_and(|p| p.fitness.status == status) {
        x -= Duration::days(1);
    }
    Some(x)
}

/// One training-status record (`latestTrainingStatusData.<device>` / weekly report rows).
pub(super) fn status_item(d: &Dataset, day: NaiveDate, rec: &Day, with_since: bool) -> Value {
    let f = &rec.fitness;
    let acute = Obj::new()
        .set("acwrPercent", f.acwr_percent())
        .set("acwrStatus", f.acwr_status())
        .set("acwrStatusFeedback", format!("FEEDBACK_{}", if f.acwr_status() == "OPTIMAL" { 2 } else { 1 }))
        .set("dailyTrainingLoadAcute", int(f.acute))
        .set("maxTrainingLoadChronic", round(f.chronic * 1.5, 1))
        .set("minTrainingLoadChronic", round(f.chronic * 0.8, 1))
        .set("dailyTrainingLoadChronic", int(f.chronic))
        .set("dailyAcuteChronicWorkloadRatio", f.ratio)
        .build();
    let stamp = d.zone.to_gmt(day.and_hms_opt(21, 0, 0).unwrap_or_default());
    Obj::new()
        .set("calendarDate", clock::date(day))
        .set("sinceDate", if with_since { since(d, day).map(clock::date) } else { None })
        .nulls(&["weeklyTrainingLoad", "loadTunnelMin", "loadTunnelMax", "loadLevelTrend"])
        .set("trainingStatus", f.status)
        .set("timestamp", clock::ms(stamp))
        .set("deviceId", WATCH_ID)
        .set("sport", "RUNNING")
        .set("subSport", "GENERIC")
        .set("fitnessTrendSport", "RUNNING")
        .set("fitnessTrend", f.trend)
        .set("trainingStatusFeedbackPhrase", format!("{}_{}", f.phrase, 1 + rec.seed % 4))
        .set("trainingPaused", false)
        .set("acuteTrainingLoadDTO", acute)
        .set("primaryTrainingDevice", true)
        .build()
}

/// `mostRecentTrainingStatus` payload (also `trainingStatusDailyScalar`).
pub(super) fn status(d: &Dataset, day: NaiveDate, rec: &Day) -> Value {
    Obj::new()
        .set("userId", d.profile_id)
        .set("latestTrainingStatusData", by_device(status_item(d, day, rec, true)))
        .set("recordedDevices", recorded_devices(d))
        .set("showSelector", false)
        .set("lastPrimarySyncDate", clock::date(day))
        .build()
}

/// `mostRecentTrainingLoadBalance` payload (also `trainingLoadBalanceScalar`).
pub(super) fn load_balance(d: &Dataset, day: NaiveDate, rec: &Day) -> Value {
    let f = &rec.fitness;
    // Monthly (28-day) load is about four weeks of chronic load.
    let c = f.chronic.max(1.0) * 4.0;
    let targets = [(0.35, 0.6), (0.25, 0.5), (0.1, 0.3)].map(|(lo, hi)| (int(c * lo), int(c * hi)));
    let phrase = if f.anaerobic < c * 0.1 {
        "ANAEROBIC_SHORTAGE"
    } else if f.aerobic_high < c * 0.25 {
        "AEROBIC_HIGH_SHORTAGE"
    } else if f.aerobic_low < c * 0.35 {
        "AEROBIC_LOW_SHORTAGE"
    } else {
        "ON_TARGET"
    };
    let item = Obj::new()
        .set("calendarDate", clock::date(day))
        .set("deviceId", WATCH_ID)
        .set("monthlyLoadAerobicLow", round(f.aerobic_low, 2))
        .set("monthlyLoadAerobicHigh", round(f.aerobic_high, 2))
        .set("monthlyLoadAnaerobic", round(f.anaerobic, 2))
        .set("monthlyLoadAerobicLowTargetMin", targets[0].0.clone())
        .set("monthlyLoadAerobicLowTargetMax", targets[0].1.clone())
        .set("monthlyLoadAerobicHighTargetMin", targets[1].0.clone())
        .set("monthlyLoadAerobicHighTargetMax", targets[1].1.clone())
        .set("monthlyLoadAnaerobicTargetMin", targets[2].0.clone())
        .set("monthlyLoadAnaerobicTargetMax", targets[2].1.clone())
        .set("trainingBalanceFeedbackPhrase", phrase)
        .set("primaryTrainingDevice", true)
        .build();
    Obj::new()
        .set("userId", d.profile_id)
        .set("metricsTrainingLoadBalanceDTOMap", by_device(item))
        .set("recordedDevices", recorded_devices(d))
        .build()
}

/// Heat acclimation (%) on `day`: built by exercise in the heat (22 °C or more, Garmin's own
/// threshold in its watch manuals) over the last three weeks, each session counting less as it
/// ages, so a hot spell builds it and a cool one lets it fade (the fake's model; Garmin's formula
/// is not public). Pool swims do not count.
fn heat_percent(d: &Dataset, day: NaiveDate) -> i64 {
    let built: f64 = d
        .live()
        .filter(|a| a.sport() != Sport::Swimming && a.temp_c >= 22.0)
        .filter_map(|a| {
            let age = (day - a.start_local.date()).num_days();
            (0..21).contains(&age).then(|| (a.elapsed_s / 3600.0).min(1.5) * 18.0 * (1.0 - age as f64 / 21.0))
        })
        .sum();
    built.min(100.0).round() as i64
}

/// Heat and altitude acclimation of a day. Heat from the athlete's sessions in the heat
/// ([`heat_percent`]), with the trend against the day before (`ACCLIMATIZED` from 80 % is the
/// graphql fixture's value; `ACCLIMATIZING` and `DEACCLIMATIZING` are *unverified* names, and no
/// trend, `null`, at 0 % as in `max_metrics.json`); home is low, so nothing to acclimate to in
/// altitude.
pub(super) fn acclimation(d: &Dataset, day: NaiveDate) -> Value {
    let date = clock::date(day);
    let altitude = if d.zone.offset_s < 0 { 1150 } else { 8 };
    let (heat, before) = (heat_percent(d, day), heat_percent(d, day - Duration::days(1)));
    let trend = match heat {
        0 => Value::Null,
        h if h >= 80 => json!("ACCLIMATIZED"),
        h if h < before => json!("DEACCLIMATIZING"),
        _ => json!("ACCLIMATIZING"),
    };
    Obj::new()
        .set("calendarDate", date.clone())
        .set("altitudeAcclimationDate", date.clone())
        .set("previousAltitudeAcclimationDate", date.clone())
        .set("heatAcclimationDate", date.clone())
        .set("previousHeatAcclimationDate", clock::date(day - Duration::days(1)))
        .set("altitudeAcclimation", 0)
        .set("previousAltitudeAcclimation", 0)
        .set("heatAcclimationPercentage", heat)
        .set("previousHeatAcclimationPercentage", before)
        .set("heatTrend", trend)
        .set("altitudeTrend", Value::Null)
        .set("currentAltitude", altitude)
        .set("previousAltitude", altitude)
        .set("acclimationPercentage", 0)
        .set("previousAcclimationPercentage", 0)
        .set("altitudeAcclimationLocalTimestamp", clock::t1(day.and_hms_opt(23, 54, 58).unwrap_or_default()))
        .build()
}

/// The acclimation block of a VO2max entry: `null` when the account's watch does not record it.
pub(super) fn acclimation_of(d: &Dataset, day: NaiveDate) -> Value {
    if d.records_newest_metrics() { acclimation(d, day) } else { Value::Null }
}

/// `generic` VO2max block of a day.
pub(super) fn vo2_generic(day: NaiveDate, rec: &Day) -> Value {
    Obj::new()
        .set("calendarDate", clock::date(day))
        .set("vo2MaxPreciseValue", rec.fitness.vo2max)
        .set("vo2MaxValue", rec.fitness.vo2max.round())
        .set("fitnessAge", Value::Null)
        .set("fitnessAgeDescription", Value::Null)
        .set("maxMetCategory", 0)
        .build()
}

/// `mostRecentVO2Max` payload.
pub(super) fn vo2max(d: &Dataset, day: NaiveDate, rec: &Day) -> Value {
    Obj::new()
        .set("userId", d.profile_id)
        .set("generic", vo2_generic(day, rec))
        .set("cycling", Value::Null)
        .set("heatAltitudeAcclimation", acclimation_of(d, day))
        .build()
}

/// `GET /metrics-service/metrics/trainingstatus/aggregated/{date}` (null parts without data).
async fn aggregated(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    let day = match date(&raw) {
        Ok(x) => x,
        Err(e) => return e.into(),
    };
    let d = read(&state);
    let parts =
        d.day(day).map(|rec| (vo2max(&d, day, rec), load_balance(&d, day, rec), status(&d, day, rec)));
    let (v, b, s) = parts.unwrap_or((Value::Null, Value::Null, Value::Null));
    ok(Obj::new()
        .set("userId", d.profile_id)
        .set("mostRecentVO2Max", v)
        .set("mostRecentTrainingLoadBalance", b)
        .set("mostRecentTrainingStatus", s)
        .set("heatAltitudeAcclimationDTO", Value::Null)
        .build())
}

/// `GET /metrics-service/metrics/trainingstatus/daily/{date}`
async fn daily(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    let day = match date(&raw) {
        Ok(x) => x,
        Err(e) => return e.into(),
    };
    let d = read(&state);
    ok(d.day(day).map_or(Value::Null, |rec| status(&d, day, rec)))
}

/// Training-readiness records of a day: on waking, and again after the day's activities.
pub(super) fn readiness_items(d: &Dataset, day: NaiveDate) -> Vec<Value> {
    let Some(rec) = d.day(day) else { return Vec::new() };
    let f = &rec.fitness;
    let level = f.readiness_level();
    let hrv_pct = rec
        .hrv
        .as_ref()
        .map_or(70.0, |h| (100.0 - (h.weekly_avg - h.last_night_avg).abs() * 3.0).clamp(20.0, 100.0));
    let item = |at: chrono::NaiveDateTime, score: f64, context: &str, recovery: f64| {
        let feedback = |p: f64| {
            if p >= 70.0 {
                "GOOD"
            } else if p >= 40.0 {
                "MODERATE"
            } else {
                "POOR"
            }
        };
        let acwr_pct = (100.0 - (f.ratio - 1.0).abs() * 120.0).clamp(10.0, 100.0);
        let recovery_pct = (100.0 - recovery / 30.0).clamp(5.0, 100.0);
        let sleep_pct = f64::from(rec.sleep.score) * 0.92;
        Obj::new()
            .set("userProfilePK", d.profile_id)
            .set("calendarDate", clock::date(day))
            .set("timestamp", clock::t1(at))
            .set("timestampLocal", clock::t1(d.zone.to_local(at)))
            .set("deviceId", WATCH_ID)
            .set("level", level)
            .set("feedbackLong", format!("{level}_RT_{}_SS_GOOD", feedback(recovery_pct)))
            .set(
                "feedbackShort",
                if score >= 75.0 {
                    "WELL_RECOVERED"
                } else if score >= 50.0 {
                    "RECOVERY_IN_PROGRESS"
                } else {
                    "TAKE_IT_EASY"
                },
            )
            .set("score", int(score))
            .set("sleepScore", rec.sleep.score)
            .set("sleepScoreFactorPercent", int(sleep_pct))
            .set("sleepScoreFactorFeedback", feedback(sleep_pct))
            .set("recoveryTime", int(recovery))
            .set("recoveryTimeFactorPercent", int(recovery_pct))
            .set("recoveryTimeFactorFeedback", feedback(recovery_pct))
            .set("acwrFactorPercent", int(acwr_pct))
            .set("acwrFactorFeedback", feedback(acwr_pct))
            .set("acuteLoad", int(f.acute))
            .set("stressHistoryFactorPercent", int(100.0 - rec.stress.avg))
            .set("stressHistoryFactorFeedback", feedback(100.0 - rec.stress.avg))
            .set("hrvFactorPercent", int(hrv_pct))
            .set("hrvFactorFeedback", feedback(hrv_pct))
            .set("hrvWeeklyAverage", rec.hrv.as_ref().map(|h| h.weekly_avg))
            .set("sleepHistoryFactorPercent", int(sleep_pct - 4.0))
            .set("sleepHistoryFactorFeedback", feedback(sleep_pct - 4.0))
            .set("validSleep", true)
            .set("inputContext", context)
            .set("primaryActivityTracker", true)
            .nulls(&[
                "recoveryTimeChangePhrase",
                "sleepHistoryFactorFeedbackPhrase",
                "hrvFactorFeedbackPhrase",
                "stressHistoryFactorFeedbackPhrase",
                "acwrFactorFeedbackPhrase",
                "recoveryTimeFactorFeedbackPhrase",
                "sleepScoreFactorFeedbackPhrase",
            ])
            .build()
    };
    let mut out = Vec::new();
    let wake = rec.sleep.end_gmt + Duration::minutes(4);
    out.push(item(wake, f64::from(f.readiness), "AFTER_WAKEUP_RESET", f64::from(f.recovery_min)));
    if let Some(last) = d.activities_on(day).last() {
        let after = last.end_gmt() + Duration::minutes(10);
        out.push(item(
            after,
            (f64::from(f.readiness) - last.training_load / 6.0).max(1.0),
            "UPDATE_REALTIME_VARIABLES",
            last.training_load * 8.0,
        ));
    }
    out.reverse();
    out
}

/// `GET /metrics-service/metrics/trainingreadiness/{date}` (`[]` without data).
async fn readiness(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    match date(&raw) {
        Ok(day) => ok(Value::Array(readiness_items(&read(&state), day))),
        Err(e) => e.into(),
    }
}
