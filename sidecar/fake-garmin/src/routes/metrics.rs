//! Fitness metrics (reference §4.5): VO2max (`max_metrics.json`), race predictions, lactate
//! threshold and power-to-weight, running tolerance, fitness age, and heart-rate
//! (`hr_zones.json`) and power zones. Endurance and hill scores live in `scores`.

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::get;
use chrono::{Datelike, Duration, NaiveDate};
use serde_json::{Value, json};

use super::training::vo2_generic;
use super::{Obj, Query, bad_request, body_json, date, int, no_content, ok, query_date, range, read, round};
use crate::data::activity::Sport;
use crate::data::fitness::{lactate_threshold, race_time};
use crate::data::kit::WATCH_ID;
use crate::data::series::{HR_ZONES, MAX_HR};
use crate::data::{Dataset, clock};
use crate::state::AppState;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/metrics-service/metrics/maxmet/daily/{start}/{end}", get(maxmet_daily))
        .route("/metrics-service/metrics/maxmet/latest/{date}", get(maxmet_latest))
        .route("/metrics-service/metrics/racepredictions/latest/{dn}", get(race_latest))
        .route("/metrics-service/metrics/racepredictions/{period}/{dn}", get(race_range))
        .route("/biometric-service/biometric/latestLactateThreshold", get(lactate_latest))
        .route("/biometric-service/stats/{series}/range/{start}/{end}", get(biometric_range))
        .route("/biometric-service/biometric/latestFunctionalThresholdPower/CYCLING", get(ftp))
        .route("/biometric-service/criticalSwimSpeed/latest/{date}", get(critical_swim_speed))
        .route("/biometric-service/biometric/powerToWeight/latest/{date}", get(power_to_weight))
        .route("/metrics-service/metrics/runningtolerance/stats", get(running_tolerance))
        .route("/fitnessage-service/fitnessage/{date}", get(fitness_age))
        .route("/biometric-service/heartRateZones", get(hr_zones).put(put_hr_zones))
        .route("/biometric-service/powerZones/sports/all", get(power_zones))
}

/// One `maxmet` row of a day with a VO2max update.
pub(super) fn maxmet_row(d: &Dataset, day: NaiveDate) -> Option<Value> {
    let rec = d.day(day)?;
    let cycled = d.activities_on(day).any(|a| a.sport() == Sport::Cycling);
    let cycling = cycled.then(|| {
        json!({"calendarDate": clock::date(day), "vo2MaxPreciseValue": round(rec.fitness.vo2max - 3.2, 1),
               "vo2MaxValue": (rec.fitness.vo2max - 3.2).round(), "fitnessAge": null, "fitnessAgeDescription": null, "maxMetCategory": 1})
    });
    Some(
        Obj::new()
            .set("userId", d.profile_id)
            .set("generic", vo2_generic(day, rec))
            .set("cycling", cycling)
            .set("heatAltitudeAcclimation", super::training::acclimation_of(d, day))
            .build(),
    )
}

/// Days in `start..=end` with a run or ride (when the watch updates VO2max).
pub(super) fn vo2_days(d: &Dataset, start: NaiveDate, end: NaiveDate) -> Vec<NaiveDate> {
    clock::days(start, end).filter(|x| d.activities_on(*x).any(|a| a.sport().has_gps())).collect()
}

/// `GET /metrics-service/metrics/maxmet/daily/{start}/{end}`
async fn maxmet_daily(State(state): State<AppState>, Path((s, e)): Path<(String, String)>) -> Response {
    let (start, end) = match range(&s, &e) {
        Ok(r) => r,
        Err(e) => return e.into(),
    };
    let d = read(&state);
    ok(Value::Array(vo2_days(&d, start, end).into_iter().filter_map(|x| maxmet_row(&d, x)).collect()))
}

/// `GET /metrics-service/metrics/maxmet/latest/{date}`
async fn maxmet_latest(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    let day = match date(&raw) {
        Ok(x) => x,
        Err(e) => return e.into(),
    };
    let d = read(&state);
    match vo2_days(&d, d.first, day.min(d.today)).last().and_then(|x| maxmet_row(&d, *x)) {
        Some(v) => ok(v),
        None => no_content(),
    }
}

fn predictions(d: &Dataset, day: NaiveDate) -> Option<Value> {
    let vo2 = d.day(day)?.fitness.vo2max;
    Some(
        Obj::new()
            .set("userId", d.profile_id)
            .set("fromCalendarDate", Value::Null)
            .set("toCalendarDate", Value::Null)
            .set("calendarDate", clock::date(day))
            .set("time5K", race_time(vo2, 5000.0))
            .set("time10K", race_time(vo2, 10_000.0))
            .set("timeHalfMarathon", race_time(vo2, 21_097.5))
            .set("timeMarathon", race_time(vo2, 42_195.0))
            .build(),
    )
}

/// `GET /metrics-service/metrics/racepredictions/latest/{dn}`
async fn race_latest(State(state): State<AppState>) -> Response {
    let d = read(&state);
    ok(predictions(&d, d.today).unwrap_or_default())
}

/// `GET /metrics-service/metrics/racepredictions/{daily|monthly}/{dn}?fromCalendarDate&toCalendarDate`
async fn race_range(
    State(state): State<AppState>,
    Path((period, _dn)): Path<(String, String)>,
    q: Query,
) -> Response {
    let (start, end) = match (query_date(&q, "fromCalendarDate"), query_date(&q, "toCalendarDate")) {
        (Ok(s), Ok(e)) => (s, e),
        (Err(r), _) | (_, Err(r)) => return r.into(),
    };
    let d = read(&state);
    let rows: Vec<Value> = match period.as_str() {
        "daily" => clock::days(start, end).filter_map(|x| predictions(&d, x)).collect(),
        "monthly" => clock::days(start, end)
            .filter(|x| (*x + Duration::days(1)).month() != x.month() || *x == end)
            .filter_map(|x| predictions(&d, x.min(d.today)))
            .collect(),
        _ => return super::not_found(),
    };
    ok(Value::Array(rows))
}

/// `GET /biometric-service/biometric/latestLactateThreshold`
async fn lactate_latest(State(state): State<AppState>) -> Response {
    let d = read(&state);
    let vo2 = d.day(d.today).map_or(43.0, |r| r.fitness.vo2max);
    let (hr, speed) = lactate_threshold(vo2);
    ok(Obj::new()
        .set("userProfilePK", d.profile_id)
        .set("calendarDate", clock::date(d.today))
        .set("speed", round(speed / 10.0, 6))
        .set("heartRate", int(hr))
        .set("heartRateCycling", Value::Null)
        .build())
}

/// `GET /biometric-service/stats/{lactateThresholdSpeed|lactateThresholdHeartRate|functionalThresholdPower}/range/{start}/{end}`
/// (paths: tamcore endpoints, python-garminconnect; the row `{from, until, series, value,
/// updatedDate}` is *unverified*). The lactate threshold is re-detected weekly (one row a Sunday);
/// FTP changes every four weeks, reaching today's 240 W (`ftp`) by steps of 2 W.
async fn biometric_range(
    State(state): State<AppState>,
    Path((series, s, e)): Path<(String, String, String)>,
) -> Response {
    let (start, end) = match range(&s, &e) {
        Ok(r) => r,
        Err(e) => return e.into(),
    };
    if !["lactateThresholdSpeed", "lactateThresholdHeartRate", "functionalThresholdPower"]
        .contains(&series.as_str())
    {
        return super::not_found();
    }
    let d = read(&state);
    let row = |x: NaiveDate, value: Value| json!({"from": clock::date(x), "until": clock::date(x), "series": series, "value": value, "updatedDate": clock::date(x)});
    let rows: Vec<Value> = if series == "functionalThresholdPower" {
        clock::days(start, end.min(d.today))
            .filter(|x| (d.today - *x).num_days() % 28 == 0 && d.day(*x).is_some())
            .map(|x| row(x, json!(ftp_on(d.today, x))))
            .collect()
    } else {
        clock::days(start, end)
            .filter(|x| x.weekday() == chrono::Weekday::Sun)
            .filter_map(|x| d.day(x).map(|r| (x, lactate_threshold(r.fitness.vo2max))))
            .map(|(x, (hr, speed))| {
                let value = if series == "lactateThresholdHeartRate" {
                    json!(hr)
                } else {
                    json!(round(speed / 10.0, 6))
                };
                row(x, value)
            })
            .collect()
    };
    ok(Value::Array(rows))
}

/// The cycling FTP on `day`: 240 W today, 2 W less for each four weeks before (at least 200 W).
fn ftp_on(today: NaiveDate, day: NaiveDate) -> i64 {
    (240 - 2 * ((today - day).num_days() / 28)).max(200)
}

/// `GET /biometric-service/criticalSwimSpeed/latest/{date}` (path: one unattributed catalogue,
/// *unverified*; the shape `{calendarDate, speed (m/s), isStale}` is ours, *unverified*): the
/// CSS from the last pool swim on or before the day, about 1.2 m/s. A watch without it: 404
/// (*unverified*, as the other newest metrics); no swim yet: 204.
async fn critical_swim_speed(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    let day = match date(&raw) {
        Ok(x) => x,
        Err(e) => return e.into(),
    };
    let d = read(&state);
    if !d.records_newest_metrics() {
        return super::not_found();
    }
    let swim = d.live().rev().find(|a| a.sport() == Sport::Swimming && a.start_local.date() <= day);
    match swim {
        Some(a) => {
            ok(json!({"userProfilePK": d.profile_id, "calendarDate": clock::date(a.start_local.date()),
                             "speed": round(1.18 + (a.id % 7) as f64 / 100.0, 3), "isStale": false}))
        }
        None => no_content(),
    }
}

/// `GET /biometric-service/biometric/latestFunctionalThresholdPower/CYCLING`
async fn ftp(State(state): State<AppState>) -> Response {
    let d = read(&state);
    ok(
        json!({"userProfilePK": d.profile_id, "calendarDate": clock::date(d.today), "sport": "CYCLING", "functionalThresholdPower": 240, "isStale": false}),
    )
}

/// `GET /biometric-service/biometric/powerToWeight/latest/{date}?sport=Running`
async fn power_to_weight(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    let day = match date(&raw) {
        Ok(x) => x,
        Err(e) => return e.into(),
    };
    let d = read(&state);
    let kg = super::weight::latest_before(&d, day).map_or(70.0, |(_, w)| w.grams / 1000.0);
    ok(json!({"userProfilePK": d.profile_id, "calendarDate": clock::date(day), "sport": "RUNNING",
              "functionalThresholdPower": 290, "weight": round(kg, 1), "powerToWeight": round(290.0 / kg, 2), "isStale": false}))
}

/// `GET /metrics-service/metrics/runningtolerance/stats?startDate&endDate&aggregation=daily|weekly`
/// (path and `calendarDate`/`runningTolerance`/`acuteRunningLoad`: python-garminconnect
/// `get_running_tolerance`; `weeklyRunningLoad` and the verdict `toleranceFeedback` —
/// `ABOVE_TOLERANCE`, `HIGH_LOAD`, `LOW_LOAD_7DAYS`, Taxuspt PR #267 — are *unverified* field
/// names). A watch without Running Tolerance: 404 (*unverified*, see `Untracked`).
async fn running_tolerance(State(state): State<AppState>, q: Query) -> Response {
    let d = read(&state);
    if !d.records_newest_metrics() {
        return super::not_found();
    }
    let start = q.get("startDate").and_then(|s| clock::parse_date(s)).unwrap_or(d.today - Duration::days(27));
    let end = q.get("endDate").and_then(|s| clock::parse_date(s)).unwrap_or(d.today);
    let step = if q.get("aggregation").map(String::as_str) == Some("weekly") { 7 } else { 1 };
    let rows: Vec<Value> = clock::days(start, end)
        .step_by(step)
        .filter_map(|x| d.day(x).map(|r| (x, r)))
        .map(|(x, r)| tolerance_row(&d, x, r.fitness.chronic * 0.9))
        .collect();
    ok(Value::Array(rows))
}

/// One day's Running Tolerance: the week's tolerance, the run load of the last seven days (acute),
/// of the training week so far (Monday on), and the day's verdict.
pub fn tolerance_row(d: &Dataset, x: NaiveDate, tolerance: f64) -> Value {
    let run_load = |from: NaiveDate| -> f64 {
        d.live()
            .filter(|a| a.sport() == Sport::Running && (from..=x).contains(&a.start_local.date()))
            .map(|a| a.training_load)
            .sum()
    };
    let acute = run_load(x - Duration::days(6));
    let weekly = run_load(x - Duration::days(i64::from(x.weekday().num_days_from_monday())));
    let verdict = if weekly > tolerance {
        "ABOVE_TOLERANCE"
    } else if weekly > tolerance * 0.8 {
        "HIGH_LOAD"
    } else if acute < tolerance * 0.2 {
        "LOW_LOAD_7DAYS"
    } else {
        "WITHIN_TOLERANCE"
    };
    json!({"calendarDate": clock::date(x), "runningTolerance": int(tolerance), "acuteRunningLoad": int(acute),
           "weeklyRunningLoad": int(weekly), "toleranceFeedback": verdict, "deviceId": WATCH_ID})
}

/// `GET /fitnessage-service/fitnessage/{date}`
pub(super) async fn fitness_age(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    let day = match date(&raw) {
        Ok(x) => x,
        Err(e) => return e.into(),
    };
    let d = read(&state);
    let Some(rec) = d.day(day) else { return no_content() };
    let age = 36.0 - (rec.fitness.vo2max - 42.0) * 1.2;
    ok(json!({
        "chronologicalAge": 36, "fitnessAge": round(age, 1), "achievableFitnessAge": round(age - 1.5, 1),
        "previousFitnessAge": round(age + 0.3, 1), "components": {
            "vigorousDaysAvg": {"value": 3.2, "targetValue": 3, "improvementValue": 0.0},
            "rhr": {"value": rec.resting_hr}, "bmi": {"value": 22.1},
            "vigorousMinutesAvg": {"value": 180, "targetValue": 150}
        },
        "lastUpdated": clock::t1(rec.sleep.end_gmt)
    }))
}

fn zone_row(sport: &str) -> Value {
    Obj::new()
        .set("trainingMethod", "HR_MAX_BASED")
        .set("restingHeartRateUsed", 48)
        .set("lactateThresholdHeartRateUsed", 171)
        .set("zone1Floor", HR_ZONES[0])
        .set("zone2Floor", HR_ZONES[1])
        .set("zone3Floor", HR_ZONES[2])
        .set("zone4Floor", HR_ZONES[3])
        .set("zone5Floor", HR_ZONES[4])
        .set("maxHeartRateUsed", MAX_HR)
        .set("restingHrAutoUpdateUsed", false)
        .set("sport", sport)
        .set("changeState", "UNCHANGED")
        .build()
}

/// `GET /biometric-service/heartRateZones` (`hr_zones.json`).
pub(super) async fn hr_zones() -> Response {
    ok(json!([zone_row("DEFAULT"), zone_row("RUNNING"), zone_row("CYCLING")]))
}

/// `PUT /biometric-service/heartRateZones` (array of zone sets) → 204.
async fn put_hr_zones(body: Bytes) -> Response {
    match body_json(&body) {
        Ok(Value::Array(_)) => no_content(),
        Ok(_) => bad_request("heart-rate zones must be a JSON array"),
        Err(e) => e.into(),
    }
}

/// `GET /biometric-service/powerZones/sports/all`
async fn power_zones() -> Response {
    let row = |sport: &str, ftp: u32, floors: [f64; 5]| {
        json!({"sport": sport, "functionalThresholdPower": ftp, "zone1Floor": floors[0], "zone2Floor": floors[1],
               "zone3Floor": floors[2], "zone4Floor": floors[3], "zone5Floor": floors[4], "changeState": "UNCHANGED"})
    };
    ok(json!([
        row("RUNNING", 290, crate::data::series::RUN_POWER_ZONES),
        row("CYCLING", 240, crate::data::series::RIDE_POWER_ZONES)
    ]))
}
