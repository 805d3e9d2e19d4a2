//! `/register`: dynamic client registration (RFC 7591), the fallback many hosts still use.
//! Registering grants nothing (the owner still approves each client), but it costs memory, so it
//! is bounded: [`REGISTER_RATE`] per address, at most [`MAX_UNAPPROVED`] registrations waiting
//! for approval (each forgotten after [`UNAPPROVED_LIFETIME`]), small bodies only. Every client is
//! public (`token_endpoint_auth_method: none`).

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Extension;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;

use super::clients::{Client, ClientKind, MAX_REDIRECT_URIS, acceptable_redirect, clean_name};
use super::net::{REGISTER_RATE, client_address};
use super::{OAuth, lock, random_secret};
use crate::http::Peer;

/// Registrations waiting for the owner at once.
pub(crate) const MAX_UNAPPROVED: usize = 100;
/// A registration nobody approved is forgotten after this long.
const UNAPPROVED_LIFETIME: Duration = Duration::from_secs(3600);
/// Largest registration request.
const MAX_REQUEST_BYTES: usize = 16 * 1024;

#[derive(Deserialize)]
struct Request {
    #[serde(default)]
    redirect_uris: Vec<String>,
    #[serde(default)]
    client_name: Option<String>,
    #[serde(default)]
    grant_types: Option<Vec<String>>,
    #[serde(default)]
    response_types: Option<Vec<String>>,
}

fn refuse(status: StatusCode, error: &str, description: &str) -> Response {
    (
        status,
        [(header::CACHE_CONTROL, "no-store")],
        axum::Json(json!({"error": error, "error_description": description})),
    )
        .into_response()
}

/// `POST /register`.
pub(super) async fn register(
    State(oauth): State<Arc<OAuth>>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let address = client_address(peer.map(|p| p.0.0), &headers);
    if let Err(retry) = oauth.throttle.check("register", REGISTER_RATE, address) {
        return too_many("too many registrations from this address", retry);
    }
    if body.len() > MAX_REQUEST_BYTES {
        return refuse(
            StatusCode::PAYLOAD_TOO_LARGE,
            "invalid_client_metadata",
            "the registration request is too large",
        );
    }
    let request: Request = match serde_json::from_slice(&body) {
        Ok(request) => request,
        Err(e) => {
            return refuse(
                StatusCode::BAD_REQUEST,
                "invalid_client_metadata",
                &format!("unreadable JSON ({e})"),
            );
        }
    };
    if request.redirect_uris.is_empty() || request.redirect_uris.len() > MAX_REDIRECT_URIS {
        return refuse(
            StatusCode::BAD_REQUEST,
            "invalid_redirect_uri",
            &format!("give 1 to {MAX_REDIRECT_URIS} redirect_uris"),
        );
    }
    if let Some(bad) = request.redirect_uris.iter().find(|u| !acceptable_redirect(u) || u.len() > 2000) {
        return refuse(
            StatusCode::BAD_REQUEST,
            "invalid_redirect_uri",
            &format!("{bad:?} is not allowed: use https, a loopback http address or an app's own scheme"),
        );
    }
    if request
        .grant_types
        .as_ref()
        .is_some_and(|g| g.iter().any(|t| t != "authorization_code" && t != "refresh_token"))
        || request.response_types.as_ref().is_some_and(|r| r.iter().any(|t| t != "code"))
    {
        return refuse(
            StatusCode::BAD_REQUEST,
            "invalid_client_metadata",
            "only the authorization_code and refresh_token grants (response type code) are supported",
        );
    }
    let client = Client {
        id: random_secret("dcr_", 18),
        name: clean_name(request.client_name.as_deref(), "an unnamed client"),
        redirect_uris: request.redirect_uris,
        kind: ClientKind::Registered,
    };
    {
        let mut registered = lock(&oauth.clients.registered);
        registered.retain(|_, (_, at)| at.elapsed() < UNAPPROVED_LIFETIME);
        if registered.len() >= MAX_UNAPPROVED {
            let oldest = registered.values().map(|(_, at)| *at).min().unwrap_or_else(Instant::now);
            return too_many(
                "too many clients are registered and waiting for approval",
                UNAPPROVED_LIFETIME.saturating_sub(oldest.elapsed()),
            );
        }
        registered.insert(client.id.clone(), (client.clone(), Instant::now()));
    }
    (
        StatusCode::CREATED,
        [(header::CACHE_CONTROL, "no-store")],
        axum::Json(json!({
            "client_id": client.id,
            "client_id_issued_at": super::now(),
            "client_name": client.name,
            "redirect_uris": client.redirect_uris,
            "token_endpoint_auth_method": "none",
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
        })),
    )
        .into_response()
}

fn too_many(what: &str, retry: Duration) -> Response {
    let mut response =
        refuse(StatusCode::TOO_MANY_REQUESTS, "slow_down", &format!("{what}; try again later"));
    response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(retry.as_secs().max(1)));
    response
}
