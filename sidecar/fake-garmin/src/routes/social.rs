//! Social (reference §4.9, one source only): connections (paged), pending requests, groups,
//! one group and its members. The account knows two other (fake) athletes and is in one club.

use axum::Router;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::get;
use serde_json::{Value, json};

use super::activity_body::PROFILE_IMAGE;
use super::{Query, id, not_found, ok, read};
use crate::data::Dataset;
use crate::state::AppState;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/userprofile-service/socialProfile/connections/pagination/{dn}", get(connections))
        .route("/userprofile-service/connection/pending", get(pending))
        .route("/group-service/groups/{dn}", get(groups))
        .route("/group-service/group/{id}", get(group))
        .route("/group-service/group/{id}/members", get(members))
}

/// Id of the running club the account belongs to.
const CLUB_ID: u64 = 4_100_123;

fn person(profile_id: u64, display: &str, full: &str, location: &str) -> Value {
    json!({
        "userId": profile_id, "profileId": profile_id, "displayName": display, "fullName": full,
        "profileImageUrlSmall": PROFILE_IMAGE, "profileImageUrlMedium": PROFILE_IMAGE, "profileImageUrlLarge": PROFILE_IMAGE,
        "location": location, "userLevel": 4, "userPro": false, "connectionRequestId": null, "connectionStatus": 2
    })
}

fn others() -> Vec<Value> {
    vec![
        person(1_000_002, "fake-athlete-2", "Sam Sample", "Bayside"),
        person(1_000_003, "fake-athlete-3", "Robin Runner", "Pineford"),
    ]
}

/// `GET /userprofile-service/socialProfile/connections/pagination/{dn}?start&limit`
async fn connections(q: Query) -> Response {
    let all = others();
    let page = super::page(&all, &q, 20, 100);
    ok(json!({"userConnections": page, "totalConnectionCount": all.len(), "hasMore": false}))
}

/// `GET /userprofile-service/connection/pending`
async fn pending() -> Response {
    ok(json!([]))
}

fn club(d: &Dataset) -> Value {
    json!({
        "id": CLUB_ID, "groupName": "Sampletown Running Club", "groupDescription": "Tuesday track, Sunday long run.",
        "ownerId": 1_000_002, "profileImageUrlLarge": PROFILE_IMAGE, "profileImageUrlMedium": PROFILE_IMAGE,
        "profileImageUrlSmall": PROFILE_IMAGE, "groupPrivacy": "PUBLIC", "location": d.zone.place, "isMember": true,
        "memberCount": 3, "permissionType": "MEMBER", "activityTypes": ["running"]
    })
}

/// `GET /group-service/groups/{dn}`
async fn groups(State(state): State<AppState>) -> Response {
    ok(json!([club(&read(&state))]))
}

/// `GET /group-service/group/{id}`
async fn group(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    if id(&raw).ok() != Some(CLUB_ID) {
        return not_found();
    }
    ok(club(&read(&state)))
}

/// `GET /group-service/group/{id}/members`
async fn members(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    if id(&raw).ok() != Some(CLUB_ID) {
        return not_found();
    }
    let d = read(&state);
    let mut list = vec![person(d.profile_id, &d.display_name, &d.full_name, d.zone.place)];
    list.extend(others());
    ok(json!({"groupId": CLUB_ID, "members": list}))
}
