//! `/token` (authorization code with PKCE, refresh with rotation) and `/revoke` (RFC 7009).
//! Clients are public (`token_endpoint_auth_method: none`): they prove themselves with the PKCE
//! verifier and by holding the refresh token. Every answer is `no-store`.

use std::collections::HashMap;
use std::sync::Arc;

use axum::Extension;
use axum::Form;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use serde_json::json;
use sha2::Digest as _;

use super::authorize::{same_resource, valid_pkce_value};
use super::grants::{RefreshError, TokenPair};
use super::net::{TOKEN_RATE, client_address};
use super::{ACCESS_TOKEN_LIFETIME, OAuth, lock, now};
use crate::http::Peer;

fn oauth_error(status: StatusCode, error: &str, description: &str) -> Response {
    (
        status,
        [(header::CACHE_CONTROL, "no-store"), (header::PRAGMA, "no-cache")],
        axum::Json(json!({"error": error, "error_description": description})),
    )
        .into_response()
}

fn invalid_grant(description: &str) -> Response {
    oauth_error(StatusCode::BAD_REQUEST, "invalid_grant", description)
}

fn tokens(pair: &TokenPair) -> Response {
    (
        StatusCode::OK,
        [(header::CACHE_CONTROL, "no-store"), (header::PRAGMA, "no-cache")],
        axum::Json(json!({
            "access_token": pair.access,
            "token_type": "Bearer",
            "expires_in": ACCESS_TOKEN_LIFETIME.as_secs(),
            "refresh_token": pair.refresh,
            "scope": pair.scopes.join(" "),
        })),
    )
        .into_response()
}

/// The client id of the request: the `client_id` field, or HTTP Basic with an empty secret (public
/// clients have none). `Err` when a secret is sent: this server issues none.
fn client_id(headers: &HeaderMap, form: &HashMap<String, String>) -> Result<String, Box<Response>> {
    let basic = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Basic ").or_else(|| v.strip_prefix("basic ")))
        .and_then(|b| base64::engine::general_purpose::STANDARD.decode(b.trim()).ok())
        .and_then(|b| String::from_utf8(b).ok());
    if let Some(pair) = basic {
        let (id, secret) = pair.split_once(':').unwrap_or((&pair, ""));
        if !secret.is_empty() {
            return Err(Box::new(oauth_error(
                StatusCode::UNAUTHORIZED,
                "invalid_client",
                "this server registers public clients only (token_endpoint_auth_method none); send no secret",
            )));
        }
        let id = url::form_urlencoded::parse(format!("x={id}").as_bytes()).next().map(|(_, v)| v.to_string());
        return id.ok_or_else(|| {
            Box::new(oauth_error(StatusCode::UNAUTHORIZED, "invalid_client", "unreadable client id"))
        });
    }
    form.get("client_id").cloned().ok_or_else(|| {
        Box::new(oauth_error(StatusCode::UNAUTHORIZED, "invalid_client", "client_id is required"))
    })
}

/// `POST /token`.
pub(super) async fn exchange(
    State(oauth): State<Arc<OAuth>>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    let address = client_address(peer.map(|p| p.0.0), &headers);
    if oauth.throttle.check("token", TOKEN_RATE, address).is_err() {
        return oauth_error(
            StatusCode::TOO_MANY_REQUESTS,
            "slow_down",
            "too many token requests; wait a minute",
        );
    }
    let client_id = match client_id(&headers, &form) {
        Ok(id) => id,
        Err(response) => return *response,
    };
    if let Some(resource) = form.get("resource")
        && !same_resource(resource, &oauth.urls.resource)
    {
        return oauth_error(
            StatusCode::BAD_REQUEST,
            "invalid_target",
            "the resource is not this server's MCP endpoint",
        );
    }
    let field = |name: &str| form.get(name).map(String::as_str).unwrap_or_default();
    match field("grant_type") {
        "authorization_code" => {
            code_grant(&oauth, &client_id, field("code"), field("redirect_uri"), field("code_verifier"))
        }
        "refresh_token" => match oauth.grants.refresh(field("refresh_token"), &client_id, now()) {
            Ok(pair) => tokens(&pair),
            Err(RefreshError::Reused) => invalid_grant(
                "this refresh token was already used, so it may have been copied: the whole grant is revoked; the owner \
                 must approve this client again",
            ),
            Err(RefreshError::OtherClient) => invalid_grant("this refresh token belongs to another client"),
            Err(RefreshError::Unknown) => invalid_grant("unknown, expired or revoked refresh token"),
        },
        "" => oauth_error(StatusCode::BAD_REQUEST, "invalid_request", "grant_type is required"),
        _ => oauth_error(
            StatusCode::BAD_REQUEST,
            "unsupported_grant_type",
            "only authorization_code and refresh_token are supported",
        ),
    }
}

fn code_grant(oauth: &OAuth, client_id: &str, code: &str, redirect_uri: &str, verifier: &str) -> Response {
    let checked = {
        let mut flows = lock(&oauth.flows);
        let Some(issued) = flows.code(code) else {
            return invalid_grant("unknown or expired authorization code");
        };
        if issued.spent {
            let grant = issued.grant.take();
            drop(flows);
            if let Some(grant) = grant {
                oauth.grants.revoke(&grant);
                tracing::warn!("an authorization code was used twice: the grant made with it is revoked");
            }
            return invalid_grant(
                "this authorization code was already used; the tokens issued with it are revoked",
            );
        }
        // Any attempt spends the code, right or wrong.
        issued.spent = true;
        if issued.expired() {
            return invalid_grant("the authorization code expired (it lives 60 seconds)");
        }
        if issued.client.id != client_id {
            return invalid_grant("this authorization code was issued to another client");
        }
        if issued.redirect_uri != redirect_uri {
            return invalid_grant("redirect_uri differs from the one of the authorization request");
        }
        let computed = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .encode(sha2::Sha256::digest(verifier.as_bytes()));
        if !valid_pkce_value(verifier) || !super::same_secret(&computed, &issued.challenge) {
            return invalid_grant("the PKCE code_verifier does not match the code_challenge");
        }
        (issued.client.clone(), issued.write, issued.resource.clone())
    };
    let (client, write, resource) = checked;
    let (grant, pair) = oauth.grants.create(client, write, &resource, now());
    if let Some(issued) = lock(&oauth.flows).code(code) {
        issued.grant = Some(grant);
    }
    tokens(&pair)
}

/// `POST /revoke`: always 200 (RFC 7009 §2.2), whether the token was known or not.
pub(super) async fn revoke(
    State(oauth): State<Arc<OAuth>>,
    peer: Option<Extension<Peer>>,
    headers: HeaderMap,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    let address = client_address(peer.map(|p| p.0.0), &headers);
    if oauth.throttle.check("token", TOKEN_RATE, address).is_err() {
        return oauth_error(StatusCode::TOO_MANY_REQUESTS, "slow_down", "too many requests; wait a minute");
    }
    match form.get("token") {
        Some(token) => {
            oauth.grants.revoke_token(token);
            (StatusCode::OK, [(header::CACHE_CONTROL, "no-store")]).into_response()
        }
        None => oauth_error(StatusCode::BAD_REQUEST, "invalid_request", "token is required"),
    }
}
