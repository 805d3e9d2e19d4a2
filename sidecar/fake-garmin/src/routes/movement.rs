//! Movement of a day (reference §4.2): the 15-minute step chart (`daily_summary_chart.json`),
//! floors climbed per 15 minutes (`floors.json`) and the day's intensity minutes with the
//! running weekly total.

use axum::Router;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::get;
use chrono::{Datelike, Duration};
use serde_json::{Value, json};

use super::wellness::{day_head, day_or_blank, with_bounds};
use super::{Obj, Query, date, ok, query_date, read};
use crate::data::health::Day;
use crate::data::{clock, intraday};
use crate::state::AppState;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/wellness-service/wellness/dailySummaryChart", get(chart))
        .route("/wellness-service/wellness/dailySummaryChart/", get(chart))
        .route("/wellness-service/wellness/dailySummaryChart/{dn}", get(chart))
        .route("/wellness-service/wellness/floorsChartData/daily/{date}", get(floors))
        .route("/wellness-service/wellness/daily/im/{date}", get(intensity_minutes))
}

/// `GET /wellness-service/wellness/dailySummaryChart/{dn}?date=` → 15-minute step buckets.
async fn chart(State(state): State<AppState>, q: Query) -> Response {
    let day = match query_date(&q, "date") {
        Ok(x) => x,
        Err(e) => return e.into(),
    };
    let d = read(&state);
    let Some(rec) = d.day(day) else { return ok(json!([])) };
    let rows: Vec<Value> = intraday::steps(&rec.ctx(&d.zone, &d.activities))
        .into_iter()
        .map(|(at, steps, level)| {
            Obj::new()
                .set("startGMT", clock::t3(at))
                .set("endGMT", clock::t3(at + Duration::minutes(15)))
                .set("steps", steps)
                .set("pushes", 0)
                .set("primaryActivityLevel", level)
                .set("activityLevelConstant", level == "sleeping" || level == "none")
                .build()
        })
        .collect();
    ok(Value::Array(rows))
}

/// `GET /wellness-service/wellness/floorsChartData/daily/{date}` (`floors.json`).
async fn floors(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    let day = match date(&raw) {
        Ok(x) => x,
        Err(e) => return e.into(),
    };
    let d = read(&state);
    let mut rows = Vec::new();
    if let Some(rec) = d.day(day) {
        let buckets = intraday::steps(&rec.ctx(&d.zone, &d.activities));
        let busy: Vec<_> = buckets.iter().filter(|b| b.1 > 200).collect();
        let (mut up, mut down) = (rec.floors_up as usize, rec.floors_down as usize);
        for (i, (at, _, _)) in busy.iter().enumerate() {
            let left = busy.len() - i;
            let (u, dn) = (up.div_ceil(left), down.div_ceil(left));
            up -= u;
            down -= dn;
            rows.push(json!([clock::t3(*at), clock::t3(*at + Duration::minutes(15)), u, dn]));
        }
    }
    let descriptors = json!([
        {"key": "startTimeGMT", "index": 0}, {"key": "endTimeGMT", "index": 1},
        {"key": "floorsAscended", "index": 2}, {"key": "floorsDescended", "index": 3}
    ]);
    ok(with_bounds(Obj::new(), &d, day, clock::t3)
        .set("floorsValueDescriptorDTOList", if rows.is_empty() { json!([]) } else { descriptors })
        .set("floorValuesArray", rows)
        .build())
}

/// Weighted intensity minutes (vigorous count double) of `day`.
pub(super) fn im_of(rec: &Day) -> u32 {
    rec.moderate_min + 2 * rec.vigorous_min
}

/// `GET /wellness-service/wellness/daily/im/{date}`
async fn intensity_minutes(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    let day = match date(&raw) {
        Ok(x) => x,
        Err(e) => return e.into(),
    };
    let d = read(&state);
    ok(day_or_blank(&d, day, &["weeklyGoal", "imValueDescriptorDTOList"], |rec, day| {
        let monday = day - Duration::days(i64::from(day.weekday().num_days_from_monday()));
        let before: u32 =
            clock::days(monday, day - Duration::days(1)).filter_map(|x| d.day(x)).map(im_of).sum();
        let values: Vec<Value> = d.activities[rec.activities.clone()]
            .iter()
            .map(|a| json!([clock::ms(a.end_gmt()), a.moderate_min + 2 * a.vigorous_min]))
            .collect();
        day_head(&d, day, clock::t1)
            .set("weeklyGoal", 150)
            .set("moderateMinutes", rec.moderate_min)
            .set("vigorousMinutes", rec.vigorous_min)
            .set("startDayMinutes", before)
            .set("endDayMinutes", before + im_of(rec))
            .set(
                "imValueDescriptorDTOList",
                json!([{"index": 0, "key": "timestamp"}, {"index": 1, "key": "value"}]),
            )
            .set("imValuesArray", values)
            .build()
    }))
}
