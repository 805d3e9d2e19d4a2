//! Stress and Body Battery (reference §4.2): the day's stress series with `-1` (off wrist) and
//! `-2` (activity) sentinels plus the Body Battery series (`stress.json`), the daily Body Battery
//! reports (`body_battery.json`) and the Body Battery events of a day — the night's sleep and
//! each activity (`body_battery_events.json`).

use axum::Router;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::get;
use chrono::Duration;
use serde_json::{Value, json};

use super::wellness::{day_head, day_or_blank, with_bounds};
use super::{Obj, Query, bad_request, date, int, ok, query_date, read, round};
use crate::data::health::Day;
use crate::data::{Dataset, clock, intraday};
use crate::state::AppState;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/wellness-service/wellness/dailyStress/{date}", get(daily_stress))
        .route("/wellness-service/wellness/bodyBattery/reports/daily", get(reports))
        .route("/wellness-service/wellness/bodyBattery/events/{date}", get(events))
}

/// The day's Body Battery series `[[ms, "MEASURED", level, 2]]`.
fn battery_series(d: &Dataset, rec: &Day) -> Vec<(i64, i32)> {
    intraday::body_battery(&rec.ctx(&d.zone, &d.activities), rec.battery.start)
}

/// `GET /wellness-service/wellness/dailyStress/{date}`
async fn daily_stress(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    let day = match date(&raw) {
        Ok(x) => x,
        Err(e) => return e.into(),
    };
    let d = read(&state);
    let keep = [
        "stressChartValueOffset",
        "stressChartYAxisOrigin",
        "stressValueDescriptorsDTOList",
        "bodyBatteryValueDescriptorsDTOList",
    ];
    ok(day_or_blank(&d, day, &keep, |rec, day| {
        let stress: Vec<Value> = intraday::stress(&rec.ctx(&d.zone, &d.activities))
            .into_iter()
            .map(|(t, v)| json!([t, v]))
            .collect();
        let battery: Vec<Value> =
            battery_series(&d, rec).into_iter().map(|(t, v)| json!([t, "MEASURED", v, 2])).collect();
        day_head(&d, day, clock::t1)
            .set("maxStressLevel", int(rec.stress.max))
            .set("avgStressLevel", int(rec.stress.avg))
            .set("stressChartValueOffset", 1)
            .set("stressChartYAxisOrigin", -1)
            .set("stressValueDescriptorsDTOList", json!([{"key": "timestamp", "index": 0}, {"key": "stressLevel", "index": 1}]))
            .set("stressValuesArray", stress)
            .set(
                "bodyBatteryValueDescriptorsDTOList",
                json!([
                    {"bodyBatteryValueDescriptorIndex": 0, "bodyBatteryValueDescriptorKey": "timestamp"},
                    {"bodyBatteryValueDescriptorIndex": 1, "bodyBatteryValueDescriptorKey": "bodyBatteryStatus"},
                    {"bodyBatteryValueDescriptorIndex": 2, "bodyBatteryValueDescriptorKey": "bodyBatteryLevel"},
                    {"bodyBatteryValueDescriptorIndex": 3, "bodyBatteryValueDescriptorKey": "bodyBatteryVersion"}
                ]),
            )
            .set("bodyBatteryValuesArray", battery)
            .build()
    }))
}

/// `GET /wellness-service/wellness/bodyBattery/reports/daily?startDate&endDate`
pub(super) async fn reports(State(state): State<AppState>, q: Query) -> Response {
    let (start, end) = match (query_date(&q, "startDate"), query_date(&q, "endDate")) {
        (Ok(s), Ok(e)) if s <= e => (s, e),
        (Ok(_), Ok(_)) => return bad_request("endDate is before startDate"),
        (Err(e), _) | (_, Err(e)) => return e.into(),
    };
    let d = read(&state);
    let rows: Vec<Value> = clock::days(start, end)
        .filter_map(|day| d.day(day).map(|rec| (day, rec)))
        .map(|(day, rec)| {
            let values: Vec<Value> = battery_series(&d, rec).into_iter().map(|(t, v)| json!([t, v])).collect();
            let head = Obj::new()
                .set("date", clock::date(day))
                .set("charged", int(rec.battery.charged))
                .set("drained", int(rec.battery.drained));
            with_bounds(head, &d, day, clock::t3)
                .set("bodyBatteryValuesArray", values)
                .set(
                    "bodyBatteryValueDescriptorDTOList",
                    json!([
                        {"bodyBatteryValueDescriptorIndex": 0, "bodyBatteryValueDescriptorKey": "timestamp"},
                        {"bodyBatteryValueDescriptorIndex": 1, "bodyBatteryValueDescriptorKey": "bodyBatteryLevel"}
                    ]),
                )
                .build()
        })
        .collect();
    ok(Value::Array(rows))
}

/// Body Battery events of a day, each as `(daily-summary list form, events-endpoint form)`.
pub(super) fn battery_events(d: &Dataset, rec: &Day) -> Vec<(Value, Value)> {
    let night = &rec.sleep;
    let mut out = Vec::new();
    let mut push = |kind: &str,
                    start: chrono::NaiveDateTime,
                    ms: i64,
                    impact: f64,
                    feedback: &str,
                    activity: Option<(&str, &str, u64)>| {
        let (name, typ, id) = activity
            .map_or((Value::Null, Value::Null, Value::Null), |(n, t, i)| (n.into(), t.into(), i.into()));
        let summary_form = Obj::new()
            .set("eventType", kind.to_uppercase())
            .set("eventStartTimeGmt", clock::t0(start))
            .set("timezoneOffset", d.zone.offset_ms())
            .set("durationInMilliseconds", ms)
            .set("bodyBatteryImpact", int(impact))
            .set("feedbackType", feedback.to_uppercase())
            .set("shortFeedback", feedback.to_uppercase())
            .set("deviceId", crate::data::kit::WATCH_ID)
            .set("activityName", name.clone())
            .set("activityType", typ.clone())
            .set("activityId", id.clone())
            .set("eventUpdateTimeGmt", clock::t0(start + Duration::milliseconds(ms) + Duration::minutes(20)))
            .build();
        let from = clock::ms(start);
        let stress: Vec<Value> = intraday::stress(&rec.ctx(&d.zone, &d.activities))
            .into_iter()
            .filter(|(t, v)| *t >= from && *t < from + ms && *v >= 0)
            .map(|(t, v)| json!([t, v]))
            .collect();
        let average = if stress.is_empty() {
            Value::Null
        } else {
            round(stress.iter().filter_map(|p| p[1].as_f64()).sum::<f64>() / stress.len() as f64, 1).into()
        };
        let report_form = Obj::new()
            .set(
                "event",
                Obj::new()
                    .set("eventType", kind)
                    .set("eventStartTimeGmt", clock::t3(start))
                    .set("timezoneOffset", d.zone.offset_ms())
                    .set("durationInMilliseconds", ms)
                    .set("bodyBatteryImpact", int(impact))
                    .set("feedbackType", feedback)
                    .set(
                        "shortFeedback",
                        if kind == "sleep" {
                            "Sleep restored your Body Battery"
                        } else {
                            "Your activity drained your Body Battery"
                        },
                    )
                    .build(),
            )
            .set("activityName", name)
            .set("activityType", typ)
            .set("activityId", id)
            .set("averageStress", average)
            .set("stressValuesArray", stress)
            .set("bodyBatteryValuesArray", json!([]))
            .build();
        out.push((summary_form, report_form));
    };
    let gain = rec.battery.at_wake - rec.battery.start + 8.0;
    push(
        "sleep",
        night.start_gmt,
        (night.end_gmt - night.start_gmt).num_milliseconds(),
        gain,
        if night.score >= 80 { "good_sleep" } else { "fair_sleep" },
        None,
    );
    for a in &d.activities[rec.activities.clone()] {
        if d.deleted.contains(&a.id) {
            continue;
        }
        let ms = (a.stats.duration * 1000.0) as i64;
        push(
            "activity",
            a.start_gmt,
            ms,
            f64::from(a.body_battery_delta),
            "exercise_training",
            Some((&a.name, a.sport().type_key(), a.id)),
        );
    }
    out
}

/// `GET /wellness-service/wellness/bodyBattery/events/{date}`
async fn events(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    let day = match date(&raw) {
        Ok(x) => x,
        Err(e) => return e.into(),
    };
    let d = read(&state);
    let Some(rec) = d.day(day) else { return ok(json!([])) };
    ok(Value::Array(battery_events(&d, rec).into_iter().map(|(_, r)| r).collect()))
}
