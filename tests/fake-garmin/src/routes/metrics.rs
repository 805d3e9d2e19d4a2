//! Fitness metrics (reference §4.5): VO2max (`max_metrics.json`), race predictions, lactate
//! threshold and power-to-weight, endurance score (`endurance_score.json`, 204 without data)
//! and its weekly stats, hill score (`hill_score.json`, `hill_score_range_empty.json`), running
//! tolerance, fitness age, and heart-rate (`hr_zones.json`) and power zones.

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::get;
use chrono::{Datelike, Duration, NaiveDate};
use serde_json::{Map, Value, json};

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
        .route("/biometric-service/biometric/powerToWeight/latest/{date}", get(power_to_weight))
        .route("/metrics-service/metrics/endurancescore", get(endurance))
        .route("/metrics-service/metrics/endurancescore/stats", get(endurance_stats))
        .route("/metrics-service/metrics/hillscore", get(hill))
        .route("/metrics-service/metrics/hillscore/stats", get(hill_stats))
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
            .set("heatAltitudeAcclimation", Value::Null)
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
    let vo2 = d.day(d.today).map_or(50.0, |r| r.fitness.vo2max);
    let (hr, speed) = lactate_threshold(vo2);
    ok(Obj::new()
        .set("userProfilePK", d.profile_id)
        .set("calendarDate", clock::date(d.today))
        .set("speed", round(speed / 10.0, 6))
        .set("heartRate", int(hr))
        .set("heartRateCycling", Value::Null)
        .build())
}

/// `GET /biometric-service/stats/{lactateThresholdSpeed|lactateThresholdHeartRate}/range/{start}/{end}`
/// (one value per week, as the watch re-detects it).
async fn biometric_range(
    State(state): State<AppState>,
    Path((series, s, e)): Path<(String, String, String)>,
) -> Response {
    let (start, end) = match range(&s, &e) {
        Ok(r) => r,
        Err(e) => return e.into(),
    };
    let d = read(&state);
    let rows: Vec<Value> = clock::days(start, end)
        .filter(|x| x.weekday() == chrono::Weekday::Sun)
        .filter_map(|x| d.day(x).map(|r| (x, lactate_threshold(r.fitness.vo2max))))
        .map(|(x, (hr, speed))| {
            let value = if series == "lactateThresholdHeartRate" { hr } else { round(speed / 10.0, 6) };
            json!({"from": clock::date(x), "until": clock::date(x), "series": series, "value": value, "updatedDate": clock::date(x)})
        })
        .collect();
    if !["lactateThresholdSpeed", "lactateThresholdHeartRate"].contains(&series.as_str()) {
        return super::not_found();
    }
    ok(Value::Array(rows))
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

/// Endurance contributors: share of the 4-week load by sport.
fn contributors(d: &Dataset, day: NaiveDate) -> Vec<Value> {
    let acts: Vec<_> =
        d.live().filter(|a| (day - Duration::days(27)..=day).contains(&a.start_local.date())).collect();
    let total: f64 = acts.iter().map(|a| a.training_load).sum::<f64>().max(1.0);
    [Sport::Running, Sport::Cycling, Sport::Swimming, Sport::Strength]
        .into_iter()
        .filter_map(|s| {
            let share: f64 = acts.iter().filter(|a| a.sport() == s).map(|a| a.training_load).sum();
            (share > 0.0).then(|| json!({"activityTypeId": s.type_id(), "group": null, "contribution": round(share * 100.0 / total, 2)}))
        })
        .collect()
}

/// The endurance-score record of a day (`endurance_score.json`).
pub(super) fn endurance_dto(d: &Dataset, day: NaiveDate) -> Option<Value> {
    let score = d.day(day)?.fitness.endurance;
    let class = [5100.0, 5800.0, 6600.0, 7300.0, 8100.0, 8800.0].iter().filter(|l| score >= **l).count() + 1;
    Some(
        Obj::new()
            .set("userProfilePK", d.profile_id)
            .set("deviceId", WATCH_ID)
            .set("calendarDate", clock::date(day))
            .set("overallScore", int(score))
            .set("classification", class)
            .set("feedbackPhrase", 30 + class)
            .set("primaryTrainingDevice", true)
            .set("gaugeLowerLimit", 3570)
            .set("classificationLowerLimitIntermediate", 5100)
            .set("classificationLowerLimitTrained", 5800)
            .set("classificationLowerLimitWellTrained", 6600)
            .set("classificationLowerLimitExpert", 7300)
            .set("classificationLowerLimitSuperior", 8100)
            .set("classificationLowerLimitElite", 8800)
            .set("gaugeUpperLimit", 10560)
            .set("contributors", contributors(d, day))
            .build(),
    )
}

/// `GET /metrics-service/metrics/endurancescore?calendarDate=` (204 without data).
async fn endurance(State(state): State<AppState>, q: Query) -> Response {
    match query_date(&q, "calendarDate") {
        Ok(day) => endurance_dto(&read(&state), day).map_or_else(no_content, ok),
        Err(e) => e.into(),
    }
}

/// Endurance stats over a range (also `enduranceScoreScalar`): weekly groups from `start`.
pub(super) fn endurance_range(d: &Dataset, start: NaiveDate, end: NaiveDate) -> Value {
    let scores: Vec<(NaiveDate, f64)> =
        clock::days(start, end).filter_map(|x| d.day(x).map(|r| (x, r.fitness.endurance))).collect();
    let mut groups = Map::new();
    for chunk in scores.chunks(7) {
        let Some(first) = chunk.first() else { continue };
        let avg = chunk.iter().map(|x| x.1).sum::<f64>() / chunk.len() as f64;
        let max = chunk.iter().map(|x| x.1).fold(0.0, f64::max);
        let last = chunk.last().map_or(first.0, |x| x.0);
        groups.insert(clock::date(first.0), json!({"groupAverage": int(avg), "groupMax": int(max), "enduranceContributorDTOList": contributors(d, last)}));
    }
    let avg = if scores.is_empty() {
        Value::Null
    } else {
        int(scores.iter().map(|x| x.1).sum::<f64>() / scores.len() as f64)
    };
    let max = scores.iter().map(|x| x.1).reduce(f64::max).map(int);
    Obj::new()
        .set("userProfilePK", d.profile_id)
        .set("startDate", clock::date(start))
        .set("endDate", clock::date(end))
        .set("avg", avg)
        .set("max", max)
        .set("groupMap", Value::Object(groups))
        .set("enduranceScoreDTO", endurance_dto(d, end.min(d.today)))
        .build()
}

/// `GET /metrics-service/metrics/endurancescore/stats?startDate&endDate&aggregation=weekly`
async fn endurance_stats(State(state): State<AppState>, q: Query) -> Response {
    match (query_date(&q, "startDate"), query_date(&q, "endDate")) {
        (Ok(s), Ok(e)) if s <= e => ok(endurance_range(&read(&state), s, e)),
        (Ok(_), Ok(_)) => bad_request("endDate is before startDate"),
        (Err(r), _) | (_, Err(r)) => r.into(),
    }
}

fn hill_dto(d: &Dataset, day: NaiveDate) -> Option<Value> {
    let rec = d.day(day)?;
    let (overall, strength, endurance) = rec.fitness.hill;
    Some(
        Obj::new()
            .set("userProfilePK", d.profile_id)
            .set("deviceId", WATCH_ID)
            .set("calendarDate", clock::date(day))
            .set("strengthScore", int(strength))
            .set("enduranceScore", int(endurance))
            .set(
                "hillScoreClassificationId",
                if overall >= 70.0 {
                    4
                } else if overall >= 50.0 {
                    3
                } else {
                    2
                },
            )
            .set("overallScore", int(overall))
            .set("hillScoreFeedbackPhraseId", 4)
            .set("vo2Max", rec.fitness.vo2max.round())
            .set("vo2MaxPreciseValue", rec.fitness.vo2max)
            .set("primaryTrainingDevice", true)
            .build(),
    )
}

/// `GET /metrics-service/metrics/hillscore?calendarDate=` (204 without data).
async fn hill(State(state): State<AppState>, q: Query) -> Response {
    match query_date(&q, "calendarDate") {
        Ok(day) => hill_dto(&read(&state), day).map_or_else(no_content, ok),
        Err(e) => e.into(),
    }
}

/// `GET /metrics-service/metrics/hillscore/stats?startDate&endDate&aggregation=daily`
async fn hill_stats(State(state): State<AppState>, q: Query) -> Response {
    let (start, end) = match (query_date(&q, "startDate"), query_date(&q, "endDate")) {
        (Ok(s), Ok(e)) if s <= e => (s, e),
        (Ok(_), Ok(_)) => return bad_request("endDate is before startDate"),
        (Err(r), _) | (_, Err(r)) => return r.into(),
    };
    let d = read(&state);
    let mut avg = Map::new();
    let mut list = Vec::new();
    for day in clock::days(start, end) {
        let dto = hill_dto(&d, day);
        avg.insert(clock::date(day), dto.as_ref().map_or(Value::Null, |v| v["overallScore"].clone()));
        list.extend(dto);
    }
    let max = list.iter().filter_map(|v| v["overallScore"].as_i64()).max();
    ok(Obj::new()
        .set("userProfilePK", d.profile_id)
        .set("startDate", clock::date(start))
        .set("endDate", clock::date(end))
        .set("periodAvgScore", Value::Object(avg))
        .set("maxScore", max)
        .set("hillScoreDTOList", list)
        .build())
}

/// `GET /metrics-service/metrics/runningtolerance/stats?startDate&endDate&aggregation=weekly`
async fn running_tolerance(State(state): State<AppState>, q: Query) -> Response {
    let d = read(&state);
    let start = q.get("startDate").and_then(|s| clock::parse_date(s)).unwrap_or(d.today - Duration::days(27));
    let end = q.get("endDate").and_then(|s| clock::parse_date(s)).unwrap_or(d.today);
    let rows: Vec<Value> = clock::days(start, end)
        .step_by(7)
        .filter_map(|x| d.day(x).map(|r| (x, r)))
        .map(|(x, r)| {
            let run_load: f64 = d.live().filter(|a| a.sport() == Sport::Running && (x - Duration::days(6)..=x).contains(&a.start_local.date())).map(|a| a.training_load).sum();
            json!({"calendarDate": clock::date(x), "runningTolerance": int(r.fitness.chronic * 0.9), "acuteRunningLoad": int(run_load), "deviceId": WATCH_ID})
        })
        .collect();
    ok(Value::Array(rows))
}

/// `GET /fitnessage-service/fitnessage/{date}`
async fn fitness_age(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    let day = match date(&raw) {
        Ok(x) => x,
        Err(e) => return e.into(),
    };
    let d = read(&state);
    let Some(rec) = d.day(day) else { return no_content() };
    let age = 36.0 - (rec.fitness.vo2max - 45.0) * 1.2;
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
async fn hr_zones() -> Response {
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
