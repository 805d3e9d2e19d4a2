//! Personal records (reference §4.6): the account's records computed from the live activities
//! (`personal_records.json` shape) and the record type table.

use axum::Router;
use axum::extract::State;
use axum::response::Response;
use axum::routing::get;
use serde_json::{Value, json};

use super::{Obj, ok, read, round};
use crate::data::{clock, records};
use crate::state::AppState;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/personalrecord-service/personalrecord/prs/{dn}", get(prs))
        .route("/personalrecord-service/personalrecordtype/prtypes/{dn}", get(types))
}

/// `(typeId, key, metres or None, sport)` of the record types the data set can hold.
const TYPES: [(u32, &str, Option<f64>, &str); 9] = [
    (1, "pr.label.run.1km", Some(1000.0), "running"),
    (2, "pr.label.run.1mile", Some(1609.344), "running"),
    (3, "pr.label.run.5km", Some(5000.0), "running"),
    (4, "pr.label.run.10km", Some(10_000.0), "running"),
    (5, "pr.label.run.half.marathon", Some(21_097.5), "running"),
    (6, "pr.label.run.marathon", Some(42_195.0), "running"),
    (7, "pr.label.run.farthest", None, "running"),
    (8, "pr.label.ride.farthest", None, "cycling"),
    (12, "pr.label.steps.most.day", None, "steps"),
];

/// `GET /personalrecord-service/personalrecord/prs/{displayName}`
async fn prs(State(state): State<AppState>) -> Response {
    let d = read(&state);
    let rows: Vec<Value> = records::compute(d.live(), &d.days)
        .into_iter()
        .map(|r| {
            let (aid, name, gmt, local) = match &r.activity {
                Some((id, name, gmt, local)) => (
                    Value::from(*id),
                    Value::from(name.clone()),
                    Value::from(clock::ms(*gmt)),
                    Value::from(clock::local_ms(*local)),
                ),
                None => (0.into(), Value::Null, Value::Null, Value::Null),
            };
            let fmt = |v: &Value| v.as_i64().map(|ms| clock::t1(clock::from_ms(ms)));
            let sport = TYPES.iter().find(|t| t.0 == r.type_id).map_or("running", |t| t.3);
            Obj::new()
                .set("id", 2_480_000_000u64 + u64::from(r.type_id))
                .set("typeId", r.type_id)
                .set("status", "ACCEPTED")
                .set("activityId", aid)
                .set("activityName", name)
                .set("activityType", if r.activity.is_some() { Value::from(sport) } else { Value::Null })
                .set("activityStartDateTimeInGMT", gmt.clone())
                .set("actStartDateTimeInGMTFormatted", fmt(&gmt))
                .set("activityStartDateTimeLocal", local.clone())
                .set("activityStartDateTimeLocalFormatted", fmt(&local))
                .set("value", round(r.value, 3))
                .set("prStartTimeGmt", clock::ms(r.start_gmt))
                .set("prStartTimeGmtFormatted", clock::t1(r.start_gmt))
                .set("prStartTimeLocal", clock::local_ms(r.start_local))
                .set("prStartTimeLocalFormatted", clock::t1(r.start_local))
                .set("prTypeLabelKey", Value::Null)
                .set("poolLengthUnit", Value::Null)
                .build()
        })
        .collect();
    ok(Value::Array(rows))
}

/// `GET /personalrecord-service/personalrecordtype/prtypes/{displayName}`
async fn types() -> Response {
    let rows: Vec<Value> = TYPES
        .iter()
        .map(|(id, key, metres, sport)| json!({"id": id, "key": key, "visible": true, "sport": sport.to_uppercase(), "minValue": metres, "maxValue": null}))
        .collect();
    ok(Value::Array(rows))
}
