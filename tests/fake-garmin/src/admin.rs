//! Control API under `/__fake/`, so tests that run the fake as a separate process (the MCP binary,
//! the desktop E2E run, eight clients hammering one server) can do what in-process tests do through
//! `FakeGarmin`'s methods. No auth, not logged, no Cloudflare cookie.
//!
//! | call | does |
//! |---|---|
//! | `GET /__fake/health` | `ok` |
//! | `GET /__fake/requests` · `DELETE /__fake/requests` | the request log as JSON · clear it |
//! | `POST /__fake/faults` (a `FaultRule`) · `DELETE /__fake/faults` | add a fault rule · drop all |
//! | `POST /__fake/sessions` `{"user_agent": "…"}` | sign in; answers an `IssuedSession` |
//! | `GET /__fake/refresh-uses` | `{"uses": {fingerprint: n}, "reuse_detected": n}` |
//! | `POST /__fake/expire-access` | every current `JWT_WEB` is expired from now on |
//! | `POST /__fake/end-sessions` | every session family ends (`/gc-api` 403, refresh 401) |

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;

use crate::auth::now_ms;
use crate::faults::FaultRule;
use crate::state::{AppState, lock};

/// The `/__fake/` routes.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/__fake/health", get(|| async { "ok" }))
        .route("/__fake/requests", get(requests).delete(clear_requests))
        .route("/__fake/faults", post(push_fault).delete(clear_faults))
        .route("/__fake/sessions", post(issue_session))
        .route("/__fake/refresh-uses", get(refresh_uses))
        .route("/__fake/expire-access", post(expire_access))
        .route("/__fake/end-sessions", post(end_sessions))
}

async fn requests(State(state): State<AppState>) -> Response {
    let log = lock(&state.inner.log).clone();
    Json(log).into_response()
}

async fn clear_requests(State(state): State<AppState>) -> StatusCode {
    lock(&state.inner.log).clear();
    StatusCode::NO_CONTENT
}

async fn push_fault(State(state): State<AppState>, body: Bytes) -> Response {
    match serde_json::from_slice::<FaultRule>(&body) {
        Ok(rule) => {
            lock(&state.inner.faults).push(rule);
            StatusCode::NO_CONTENT.into_response()
        }
        Err(e) => bad_request(&format!("not a FaultRule: {e}")),
    }
}

async fn clear_faults(State(state): State<AppState>) -> StatusCode {
    lock(&state.inner.faults).clear();
    StatusCode::NO_CONTENT
}

#[derive(Deserialize)]
struct SessionRequest {
    user_agent: String,
}

async fn issue_session(State(state): State<AppState>, body: Bytes) -> Response {
    match serde_json::from_slice::<SessionRequest>(&body) {
        Ok(req) => (StatusCode::OK, Json(crate::sso::issue_session(&state, &req.user_agent))).into_response(),
        Err(e) => bad_request(&format!("expected {{\"user_agent\": \"...\"}}: {e}")),
    }
}

async fn refresh_uses(State(state): State<AppState>) -> Response {
    let auth = lock(&state.inner.auth);
    let body = serde_json::json!({ "uses": auth.refresh_uses(), "reuse_detected": auth.reuse_detected() });
    drop(auth);
    Json(body).into_response()
}

async fn expire_access(State(state): State<AppState>) -> StatusCode {
    lock(&state.inner.auth).expire_access(now_ms());
    StatusCode::NO_CONTENT
}

async fn end_sessions(State(state): State<AppState>) -> StatusCode {
    lock(&state.inner.auth).end_sessions();
    StatusCode::NO_CONTENT
}

fn bad_request(message: &str) -> Response {
    (StatusCode::BAD_REQUEST, format!("fake-garmin: {message}")).into_response()
}
