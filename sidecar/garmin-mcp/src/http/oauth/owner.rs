//! The server side of the owner's API (`app_bridge::remote::owner` is the contract and the
//! client): the control file, and `/owner/*` answered only to a program on this computer (loopback
//! peer, no forwarding headers: never through the tunnel) presenting the control file's secret.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use app_bridge::remote::owner::{self as contract, ControlFile, PairingCode, PendingClient, Revoke, Revoked};
use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};

use super::authorize::Decision;
use super::clients::{ClientKind, redirect_target};
use super::net::is_direct_local;
use super::pairing::CODE_LIFETIME;
use super::{OAuth, lock, random_secret, same_secret};
use crate::http::Peer;

pub(crate) use contract::PREFIX;

/// The owner's secret and the control file it is published in.
pub(crate) struct Owner {
    secret: String,
    path: PathBuf,
}

impl std::fmt::Debug for Owner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Owner").field("path", &self.path).finish_non_exhaustive()
    }
}

impl Owner {
    pub(crate) fn new(data_dir: &Path) -> Result<Owner, String> {
        Ok(Owner { secret: random_secret("gmo_", 32), path: data_dir.join(contract::CONTROL_FILE_NAME) })
    }

    /// Writes the control file (0600) naming `local_origin`.
    pub(crate) fn publish(&self, local_origin: &str) -> Result<(), String> {
        let control = ControlFile {
            url: local_origin.to_owned(),
            secret: self.secret.clone(),
            pid: std::process::id(),
        };
        let bytes = serde_json::to_vec_pretty(&control).map_err(|e| e.to_string())?;
        super::write_private(&self.path, &bytes)
    }
}

impl Drop for Owner {
    fn drop(&mut self) {
        // Only our own file: another server may have replaced it since.
        let ours = std::fs::read(&self.path)
            .ok()
            .and_then(|b| serde_json::from_slice::<ControlFile>(&b).ok())
            .is_some_and(|c| c.secret == self.secret);
        if ours {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

pub(super) fn routes(oauth: Arc<OAuth>) -> Router {
    Router::new()
        .route("/owner/pending", get(pending))
        .route("/owner/decide", post(decide))
        .route("/owner/clients", get(clients))
        .route("/owner/revoke", post(revoke))
        .route("/owner/pair", post(pair))
        .route_layer(axum::middleware::from_fn_with_state(oauth.clone(), only_the_owner))
        .with_state(oauth)
}

/// Middleware: the owner's API answers only local programs with the secret (404 to anyone else,
/// so the tunnel does not even reveal it exists).
async fn only_the_owner(State(oauth): State<Arc<OAuth>>, request: Request, next: Next) -> Response {
    let peer = request.extensions().get::<Peer>().map(|p| p.0);
    let presented = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or_default();
    if !is_direct_local(peer, request.headers()) || !same_secret(presented, &oauth.owner.secret) {
        return (StatusCode::NOT_FOUND, "Not found").into_response();
    }
    next.run(request).await
}

async fn pending(State(oauth): State<Arc<OAuth>>) -> Json<Vec<PendingClient>> {
    let mut flows = lock(&oauth.flows);
    flows.prune();
    let list = flows
        .pending
        .iter()
        .filter(|p| p.decision.is_none())
        .map(|p| PendingClient {
            id: p.id.clone(),
            name: p.client.name.clone(),
            client_id: p.client.id.clone(),
            verified: p.client.kind == ClientKind::Pinned,
            redirect_target: redirect_target(&p.redirect_uri),
            asks_write: p.asks_write,
            tag: p.tag.clone(),
            age_secs: p.created.elapsed().as_secs(),
        })
        .collect();
    Json(list)
}

#[derive(serde::Deserialize)]
struct DecideBody {
    id: String,
    allow: bool,
    #[serde(default)]
    write: bool,
}

async fn decide(State(oauth): State<Arc<OAuth>>, Json(body): Json<DecideBody>) -> Response {
    let decision = if body.allow { Decision::Allow { write: body.write } } else { Decision::Deny };
    if lock(&oauth.flows).decide(&body.id, decision) {
        tracing::info!(allow = body.allow, write = body.write, "the owner decided in the app");
        Json(serde_json::json!({"ok": true})).into_response()
    } else {
        (StatusCode::NOT_FOUND, "no such request is waiting (it expired or was answered)").into_response()
    }
}

async fn clients(State(oauth): State<Arc<OAuth>>) -> Json<Vec<app_bridge::remote::owner::RemoteClient>> {
    Json(oauth.grants.list())
}

async fn revoke(State(oauth): State<Arc<OAuth>>, Json(body): Json<Revoke>) -> Response {
    let revoked = match (&body.id, body.all) {
        (_, true) => oauth.grants.revoke_all(),
        (Some(id), false) => usize::from(oauth.grants.revoke(id)),
        (None, false) => return (StatusCode::BAD_REQUEST, "name a grant id, or all").into_response(),
    };
    Json(Revoked { revoked }).into_response()
}

async fn pair(State(oauth): State<Arc<OAuth>>) -> Json<PairingCode> {
    let code = lock(&oauth.pairing).issue(Instant::now());
    Json(PairingCode { code, expires_in_secs: CODE_LIFETIME.as_secs() })
}
