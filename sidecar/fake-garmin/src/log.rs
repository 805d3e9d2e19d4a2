//! The request log: every request the fake answered (admin calls excluded), so tests can assert on
//! what a client sent — paths, query strings, which headers, JSON write bodies — and on what it got.
//!
//! It never holds secrets: cookie and CSRF *values* are not stored (only header names), and bodies
//! are kept only for JSON writes outside the sign-in and refresh endpoints.

use axum::body::{Body, to_bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};

use crate::state::{AppState, lock};

/// Largest JSON body buffered for the log; larger ones are refused with 413.
const MAX_LOGGED_BODY: usize = 4 * 1024 * 1024;
/// Beyond this many entries the oldest half is dropped, so a long demo run does not grow forever.
const MAX_ENTRIES: usize = 200_000;

/// One request as the fake saw it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedRequest {
    /// `GET`, `POST`…
    pub method: String,
    /// Path without the query, e.g. `/gc-api/userprofile-service/socialProfile`.
    pub path: String,
    /// Raw query string without `?`.
    pub query: Option<String>,
    /// Status answered.
    pub status: u16,
    /// Lower-case header names, each once, in first-seen order (values are not kept).
    pub header_names: Vec<String>,
    /// `User-Agent`.
    pub user_agent: Option<String>,
    /// `Sec-Fetch-Site`.
    pub sec_fetch_site: Option<String>,
    /// `Accept`.
    pub accept: Option<String>,
    /// `Content-Type`.
    pub content_type: Option<String>,
    /// Body of non-GET JSON requests outside sign-in and refresh.
    pub body: Option<String>,
    /// When it arrived, milliseconds since the Unix epoch.
    pub at: u64,
    /// Why the fake answered as it did when that was not the handler's doing: the auth refusal
    /// reason or the fault applied (e.g. `403: missing or stale Connect-Csrf-Token`).
    pub note: Option<String>,
}

/// Attached to a response (as an extension) to explain it in the log.
#[derive(Clone, Debug)]
pub struct Note(pub String);

/// Middleware recording every request except `/__fake/…`.
pub async fn record(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let path = req.uri().path().to_owned();
    if path.starts_with("/__fake/") {
        return next.run(req).await;
    }
    let at = crate::auth::now_ms();
    let method = req.method().clone();
    let query = req.uri().query().map(str::to_owned);
    let headers = req.headers().clone();
    let content_type = text(&headers, header::CONTENT_TYPE.as_str());
    let keep_body = method != Method::GET
        && content_type.as_deref().is_some_and(|t| t.contains("json"))
        && !path.starts_with("/portal/")
        && !path.starts_with("/services/auth/");

    let (req, body) = if keep_body {
        let (parts, body) = req.into_parts();
        let Ok(bytes) = to_bytes(body, MAX_LOGGED_BODY).await else {
            return StatusCode::PAYLOAD_TOO_LARGE.into_response();
        };
        let text = String::from_utf8_lossy(&bytes).into_owned();
        (Request::from_parts(parts, Body::from(bytes)), Some(text))
    } else {
        (req, None)
    };

    let res = next.run(req).await;
    let entry = RecordedRequest {
        method: method.to_string(),
        path,
        query,
        status: res.status().as_u16(),
        header_names: headers.keys().map(|k| k.as_str().to_owned()).collect(),
        user_agent: text(&headers, header::USER_AGENT.as_str()),
        sec_fetch_site: text(&headers, "sec-fetch-site"),
        accept: text(&headers, header::ACCEPT.as_str()),
        content_type,
        body,
        at,
        note: res.extensions().get::<Note>().map(|n| n.0.clone()),
    };
    let mut log = lock(&state.inner.log);
    if log.len() >= MAX_ENTRIES {
        log.drain(..MAX_ENTRIES / 2);
    }
    log.push(entry);
    res
}

/// A header's value when present and readable (non-UTF-8 values read as absent).
fn text(headers: &HeaderMap, name: &str) -> Option<String> {
    headers.get(name).and_then(|v| v.to_str().ok()).map(str::to_owned)
}
