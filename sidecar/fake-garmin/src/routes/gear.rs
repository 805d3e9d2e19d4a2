//! Gear (reference §4.7): the gear list (`filterGear`, and the 2026 web's `v2/list`), one
//! activity's gear, per-gear statistics summed from the activities that used it, the gear type
//! table, and link/unlink of gear and activity (204).

use axum::Router;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::{get, put};
use serde_json::{Value, json};

use super::{Obj, Query, id, no_content, not_found, ok, read, round, write};
use crate::data::kit::Gear;
use crate::data::{Dataset, clock};
use crate::state::AppState;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/gear-service/gear/filterGear", get(filter_gear))
        .route("/gear-service/gear/v2/list", get(filter_gear))
        .route("/gear-service/gear/stats/{uuid}", get(stats))
        .route("/gear-service/gear/types", get(types))
        .route("/gear-service/gear/link/{uuid}/activity/{id}", put(link))
        .route("/gear-service/gear/unlink/{uuid}/activity/{id}", put(unlink))
}

fn gear_json(d: &Dataset, g: &Gear) -> Value {
    let type_pk = if g.type_name == "Shoes" { 1 } else { 2 };
    Obj::new()
        .set("gearPk", g.pk)
        .set("uuid", g.uuid.clone())
        .set("userProfilePk", d.profile_id)
        .set("gearMakeName", g.make)
        .set("gearModelName", g.model)
        .set("gearTypeName", g.type_name)
        .set("gearTypePk", type_pk)
        .set("gearStatusName", g.status)
        .set("displayName", g.display_name)
        .set("customMakeModel", format!("{} {}", g.make, g.model))
        .nulls(&["imageNameLarge", "imageNameMedium", "imageNameSmall"])
        .set("dateBegin", clock::t1(g.date_begin.and_hms_opt(0, 0, 0).unwrap_or_default()))
        .set("dateEnd", g.date_end.map(|x| clock::t1(x.and_hms_opt(0, 0, 0).unwrap_or_default())))
        .set("maximumMeters", g.maximum_m)
        .set("notified", false)
        .set("createDate", clock::t1(g.date_begin.and_hms_opt(9, 0, 0).unwrap_or_default()))
        .set("updateDate", clock::t1(g.date_begin.and_hms_opt(9, 0, 0).unwrap_or_default()))
        .build()
}

/// `GET /gear-service/gear/filterGear?userProfilePk=` (or `?activityId=` for one activity's gear).
async fn filter_gear(State(state): State<AppState>, q: Query) -> Response {
    let d = read(&state);
    if let Some(raw) = q.get("activityId") {
        let Some(a) = id(raw).ok().and_then(|i| d.activity(i)) else { return not_found() };
        let list: Vec<Value> = d
            .gear
            .iter()
            .filter(|g| a.gear_uuid.as_deref() == Some(g.uuid.as_str()))
            .map(|g| gear_json(&d, g))
            .collect();
        return ok(Value::Array(list));
    }
    ok(Value::Array(d.gear.iter().map(|g| gear_json(&d, g)).collect()))
}

/// `GET /gear-service/gear/stats/{uuid}` → distance and activities summed over its activities.
async fn stats(State(state): State<AppState>, Path(uuid): Path<String>) -> Response {
    let d = read(&state);
    let Some(g) = d.gear.iter().find(|g| g.uuid == uuid) else { return not_found() };
    let acts: Vec<_> = d.live().filter(|a| a.gear_uuid.as_deref() == Some(g.uuid.as_str())).collect();
    ok(Obj::new()
        .set("uuid", g.uuid.clone())
        .set("gearPk", g.pk)
        .set("totalDistance", round(acts.iter().map(|a| a.stats.distance).sum(), 2))
        .set("totalActivities", acts.len())
        .set("totalDuration", round(acts.iter().map(|a| a.stats.duration).sum(), 3))
        .set("processing", false)
        .build())
}

/// `GET /gear-service/gear/types`
async fn types() -> Response {
    ok(json!([
        {"gearTypePk": 1, "gearTypeName": "Shoes", "createDate": "2016-01-01T00:00:00.0", "updateDate": "2016-01-01T00:00:00.0"},
        {"gearTypePk": 2, "gearTypeName": "Bike", "createDate": "2016-01-01T00:00:00.0", "updateDate": "2016-01-01T00:00:00.0"},
        {"gearTypePk": 3, "gearTypeName": "Other", "createDate": "2016-01-01T00:00:00.0", "updateDate": "2016-01-01T00:00:00.0"}
    ]))
}

fn relink(state: &AppState, uuid: &str, raw: &str, attach: bool) -> Response {
    let mut d = write(state);
    let Ok(aid) = id(raw) else { return not_found() };
    if !d.gear.iter().any(|g| g.uuid == uuid) || d.activity(aid).is_none() {
        return not_found();
    }
    if let Some(a) = d.activities.iter_mut().find(|a| a.id == aid) {
        if attach {
            a.gear_uuid = Some(uuid.to_owned());
        } else if a.gear_uuid.as_deref() == Some(uuid) {
            a.gear_uuid = None;
        }
    }
    no_content()
}

/// `PUT /gear-service/gear/link/{uuid}/activity/{id}` → 204.
async fn link(State(state): State<AppState>, Path((uuid, raw)): Path<(String, String)>) -> Response {
    relink(&state, &uuid, &raw, true)
}

/// `PUT /gear-service/gear/unlink/{uuid}/activity/{id}` → 204.
async fn unlink(State(state): State<AppState>, Path((uuid, raw)): Path<(String, String)>) -> Response {
    relink(&state, &uuid, &raw, false)
}
