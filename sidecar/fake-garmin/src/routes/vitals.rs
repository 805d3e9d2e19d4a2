//! Respiration, pulse oximetry and hydration of a day (reference §4.2): `respiration.json`,
//! `spo2.json`, `hydration.json`, and the hydration log write (`hydration_log_response.json`),
//! which adds to the day's intake so later reads show it.

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::{get, put};
use chrono::{Duration, NaiveDate, NaiveDateTime};
use serde_json::{Value, json};

use super::wellness::{day_head, day_or_blank};
use super::{Obj, bad_request, body_json, date, int, ok, read, round, write};
use crate::data::health::Day;
use crate::data::kit::WATCH_ID;
use crate::data::{Dataset, clock, intraday};
use crate::state::AppState;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/wellness-service/wellness/daily/respiration/{date}", get(respiration))
        .route("/wellness-service/wellness/daily/spo2/{date}", get(spo2))
        .route("/usersummary-service/usersummary/hydration/daily/{date}", get(hydration))
        .route("/usersummary-service/usersummary/hydration/log", put(hydration_log))
}

/// Keys shared by respiration and SpO2 that stay filled on days without data, besides the day's
/// head (`day_or_blank`).
const KEEP: [&str; 1] = ["respirationVersion"];

/// Day and sleep bounds common to respiration and SpO2.
fn frame(d: &Dataset, day: NaiveDate, rec: &Day) -> Obj {
    let local = |t: NaiveDateTime| clock::t3(d.zone.to_local(t));
    let tonight = d.day(day + Duration::days(1)).map(|n| (n.sleep.start_gmt, n.sleep.end_gmt));
    let (ts, te) = tonight.unwrap_or((rec.bedtime, rec.bedtime + Duration::hours(7)));
    day_head(d, day, clock::t3)
        .set("sleepStartTimestampGMT", clock::t3(rec.sleep.start_gmt))
        .set("sleepEndTimestampGMT", clock::t3(rec.sleep.end_gmt))
        .set("sleepStartTimestampLocal", local(rec.sleep.start_gmt))
        .set("sleepEndTimestampLocal", local(rec.sleep.end_gmt))
        .set("tomorrowSleepStartTimestampGMT", clock::t3(ts))
        .set("tomorrowSleepEndTimestampGMT", clock::t3(te))
        .set("tomorrowSleepStartTimestampLocal", local(ts))
        .set("tomorrowSleepEndTimestampLocal", local(te))
}

/// `GET /wellness-service/wellness/daily/respiration/{date}`
async fn respiration(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    let day = match date(&raw) {
        Ok(x) => x,
        Err(e) => return e.into(),
    };
    let d = read(&state);
    ok(day_or_blank(&d, day, &KEEP, |rec, day| {
        let series = intraday::respiration(&rec.ctx(&d.zone, &d.activities));
        let values: Vec<Value> = series.iter().map(|(t, v)| json!([t, v])).collect();
        let hourly: Vec<Value> = series
            .chunks(30)
            .filter_map(|hour| {
                let vals: Vec<f64> = hour.iter().filter_map(|x| x.1).collect();
                let first = hour.first()?.0;
                (!vals.is_empty()).then(|| {
                    let avg = vals.iter().sum::<f64>() / vals.len() as f64;
                    json!([
                        first,
                        round(avg, 1),
                        vals.iter().copied().fold(f64::MIN, f64::max),
                        vals.iter().copied().fold(f64::MAX, f64::min)
                    ])
                })
            })
            .collect();
        let tomorrow = d.day(day + Duration::days(1)).map(|n| n.sleep.avg_respiration);
        frame(&d, day, rec)
            .set("lowestRespirationValue", rec.respiration_min)
            .set("highestRespirationValue", rec.respiration_max)
            .set("avgWakingRespirationValue", rec.respiration_avg)
            .set("avgSleepRespirationValue", rec.sleep.avg_respiration)
            .set("avgTomorrowSleepRespirationValue", tomorrow)
            .set("respirationValueDescriptorsDTOList", json!([{"key": "timestamp", "index": 0}, {"key": "respiration", "index": 1}]))
            .set("respirationValuesArray", values)
            .set(
                "respirationAveragesValueDescriptorDTOList",
                json!([
                    {"respirationAveragesValueDescriptorIndex": 0, "respirationAveragesValueDescriptionKey": "timestamp"},
                    {"respirationAveragesValueDescriptorIndex": 1, "respirationAveragesValueDescriptionKey": "averageRespirationValue"},
                    {"respirationAveragesValueDescriptorIndex": 2, "respirationAveragesValueDescriptionKey": "highRespirationValue"},
                    {"respirationAveragesValueDescriptorIndex": 3, "respirationAveragesValueDescriptionKey": "lowRespirationValue"}
                ]),
            )
            .set("respirationAveragesValuesArray", hourly)
            .set("respirationVersion", 200)
            .build()
    }))
}

/// `GET /wellness-service/wellness/daily/spo2/{date}`
pub(super) async fn spo2(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    let day = match date(&raw) {
        Ok(x) => x,
        Err(e) => return e.into(),
    };
    let d = read(&state);
    ok(day_or_blank(&d, day, &KEEP, |rec, day| {
        let readings = intraday::spo2(&rec.ctx(&d.zone, &d.activities));
        let (last_t, last_v) =
            readings.last().copied().unwrap_or((clock::ms(rec.sleep.end_gmt), rec.sleep.avg_spo2));
        let last_at = clock::from_ms(last_t);
        let week: Vec<f64> = clock::days(day - Duration::days(6), day)
            .filter_map(|x| d.day(x))
            .map(|x| x.sleep.avg_spo2)
            .collect();
        let continuous: Vec<Value> = readings
            .iter()
            .map(|(t, v)| {
                let at = clock::from_ms(*t);
                json!({"deviceId": WATCH_ID, "readingTimeGMT": clock::t1(at), "readingTimeLocal": clock::t1(d.zone.to_local(at)),
                       "spO2Reading": v, "readingType": "CONTINUOUS", "readingConfidence": 1})
            })
            .collect();
        let hourly: Vec<Value> = readings
            .chunks(6)
            .filter_map(|h| {
                h.first().map(|f| json!([f.0, int(h.iter().map(|x| x.1).sum::<f64>() / h.len() as f64)]))
            })
            .collect();
        frame(&d, day, rec)
            .set("averageSpO2", rec.sleep.avg_spo2)
            .set("lowestSpO2", rec.sleep.lowest_spo2)
            .set("lastSevenDaysAvgSpO2", week.iter().sum::<f64>() / week.len().max(1) as f64)
            .set("latestSpO2", last_v)
            .set("latestSpO2TimestampGMT", clock::t3(last_at))
            .set("latestSpO2TimestampLocal", clock::t3(d.zone.to_local(last_at)))
            .set("avgSleepSpO2", rec.sleep.avg_spo2)
            .set("avgTomorrowSleepSpO2", d.day(day + Duration::days(1)).map(|n| n.sleep.avg_spo2))
            .set(
                "spO2ValueDescriptorsDTOList",
                json!([
                    {"spO2ValueDescriptorIndex": 0, "spO2ValueDescriptorKey": "timestamp"},
                    {"spO2ValueDescriptorIndex": 1, "spO2ValueDescriptorKey": "spo2Reading"},
                    {"spO2ValueDescriptorIndex": 2, "spO2ValueDescriptorKey": "singleReadingPlottable"}
                ]),
            )
            .set("spO2SingleValues", Value::Null)
            .set("continuousReadingDTOList", continuous)
            .set("spO2HourlyAverages", hourly)
            .build()
    }))
}

fn hydration_body(d: &Dataset, day: NaiveDate) -> Value {
    let rec = d.day(day);
    let week: Vec<f64> = clock::days(day - Duration::days(6), day)
        .filter_map(|x| d.day(x))
        .filter_map(|x| x.hydration_ml)
        .collect();
    Obj::new()
        .set("userId", d.profile_id)
        .set("calendarDate", clock::date(day))
        .set("valueInML", rec.and_then(|r| r.hydration_ml))
        .set("goalInML", rec.map_or(2_500.0, |r| r.hydration_goal_ml))
        .set(
            "dailyAverageinML",
            (!week.is_empty()).then(|| round(week.iter().sum::<f64>() / week.len() as f64, 1)),
        )
        .set(
            "lastEntryTimestampLocal",
            rec.and_then(|r| r.hydration_ml)
                .map(|_| clock::t1(day.and_hms_opt(20, 30, 0).unwrap_or_default())),
        )
        .set("sweatLossInML", rec.map(|r| r.sweat_loss_ml))
        .set("activityIntakeInML", rec.map(|_| 0.0))
        .build()
}

/// `GET /usersummary-service/usersummary/hydration/daily/{date}`
async fn hydration(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    match date(&raw) {
        Ok(day) => ok(hydration_body(&read(&state), day)),
        Err(e) => e.into(),
    }
}

/// `PUT /usersummary-service/usersummary/hydration/log` `{calendarDate, timestampLocal, valueInML, userProfileId}`
async fn hydration_log(State(state): State<AppState>, body: Bytes) -> Response {
    let body = match body_json(&body) {
        Ok(b) => b,
        Err(e) => return e.into(),
    };
    let Some(day) = body.get("calendarDate").and_then(Value::as_str).and_then(clock::parse_date) else {
        return bad_request("calendarDate must be YYYY-MM-DD");
    };
    let Some(ml) = body.get("valueInML").and_then(Value::as_f64) else {
        return bad_request("valueInML must be a number");
    };
    let mut d = write(&state);
    let Some(rec) = d.day_mut(day) else { return bad_request(format!("No wellness data for {day}")) };
    rec.hydration_ml = Some((rec.hydration_ml.unwrap_or(0.0) + ml).max(0.0));
    let mut v = hydration_body(&d, day);
    if let Some(ts) = body.get("timestampLocal").and_then(Value::as_str) {
        super::put(&mut v, "lastEntryTimestampLocal", ts);
    }
    ok(v)
}
