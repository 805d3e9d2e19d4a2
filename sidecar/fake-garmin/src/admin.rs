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
//! | `POST /__fake/personal-api-keys` `{"valid_days": 90}` | a new Personal API key: `{"key", "expires_at_ms"}` |
//! | `POST /__fake/personal-api-keys/revoke` · `/expire` `{"key": "…"}` | delete · expire that key |
//! | `GET /__fake/personal-api-keys/exchanges` | `{fingerprint: times the key was exchanged}` |
//! | `POST /__fake/personal-api-options` (a `PersonalOptions`) | burst limit, `Retry-After`, latency |

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
        .route("/__fake/personal-api-keys", post(mint_key))
        .route("/__fake/personal-api-keys/revoke", post(revoke_key))
        .route("/__fake/personal-api-keys/expire", post(expire_key))
        .route("/__fake/personal-api-keys/exchanges", get(key_exchanges))
        .route("/__fake/personal-api-options", post(personal_options))
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

#[derive(Deserialize)]
struct MintRequest {
    valid_days: u64,
}

async fn mint_key(State(state): State<AppState>, body: Bytes) -> Response {
    match serde_json::from_slice::<MintRequest>(&body) {
        Ok(req) => {
            let valid = std::time::Duration::from_secs(req.valid_days.saturating_mul(86_400));
            Json(lock(&state.inner.personal).mint(valid)).into_response()
        }
        Err(e) => bad_request(&format!("expected {{\"valid_days\": 90}}: {e}")),
    }
}

#[derive(Deserialize)]
struct KeyRequest {
    key: String,
}

async fn revoke_key(State(state): State<AppState>, body: Bytes) -> Response {
    match serde_json::from_slice::<KeyRequest>(&body) {
        Ok(req) if lock(&state.inner.personal).revoke(&req.key) => StatusCode::NO_CONTENT.into_response(),
        Ok(_) => (StatusCode::NOT_FOUND, "fake-garmin: no such key").into_response(),
        Err(e) => bad_request(&format!("expected {{\"key\": \"...\"}}: {e}")),
    }
}

async fn expire_key(State(state): State<AppState>, body: Bytes) -> Response {
    match serde_json::from_slice::<KeyRequest>(&body) {
        Ok(req) if lock(&state.inner.personal).expire(&req.key) => StatusCode::NO_CONTENT.into_response(),
        Ok(_) => (StatusCode::NOT_FOUND, "fake-garmin: no such key").into_response(),
        Err(e) => bad_request(&format!("expected {{\"key\": \"...\"}}: {e}")),
    }
}

async fn key_exchanges(State(state): State<AppState>) -> Response {
    let body = lock(&state.inner.personal).exchanges();
    Json(body).into_response()
}

async fn personal_options(State(state): State<AppState>, body: Bytes) -> Response {
    match serde_json::from_slice::<crate::personal::PersonalOptions>(&body) {
        Ok(options) => {
            lock(&state.inner.personal).set_options(options);
            StatusCode::NO_CONTENT.into_response()
        }
        Err(e) => bad_request(&format!("not PersonalOptions: {e}")),
    }
}

fn bad_request(message: &str) -> Response {
    (StatusCode::BAD_REQUEST, format!("fake-garmin: {message}")).into_response()
}
