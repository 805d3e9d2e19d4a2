//! The owner's API of a `garmin-mcp --http --public-url` server: how the desktop app's
//! Remote-access panel and `garmin-mcp remote …` (programs of the owner, on the owner's computer)
//! see and approve waiting clients, list and revoke approved ones, and get a pairing code.
//!
//! The server writes [`CONTROL_FILE_NAME`] (0600) into the data folder when it starts: where it
//! listens on loopback and a random secret. Whoever can read that file is the owner (same user,
//! same folder as the Garmin session). The server answers these paths only to a loopback peer with
//! no forwarding headers (never through the tunnel) and with the secret as bearer. Both sides use
//! the types below, so a change on one side that the other does not follow fails to compile.

use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// The control file in the data folder.
pub const CONTROL_FILE_NAME: &str = "remote-control.json";
/// Where the owner's API lives on the server.
pub const PREFIX: &str = "/owner/";

/// What the control file holds.
#[derive(Clone, Serialize, Deserialize)]
pub struct ControlFile {
    /// `http://127.0.0.1:PORT` (the server's loopback address).
    pub url: String,
    /// The bearer secret of the owner's API.
    pub secret: String,
    /// The server's process id (to tell a stale file from a running server).
    pub pid: u32,
}

impl std::fmt::Debug for ControlFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ControlFile").field("url", &self.url).field("pid", &self.pid).finish_non_exhaustive()
    }
}

/// A client waiting for the owner's approval.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct PendingClient {
    /// The request's id (to approve it).
    pub id: String,
    /// The name the client gives itself (cleaned, short).
    pub name: String,
    /// Its client id (a URL for metadata-document clients).
    pub client_id: String,
    /// Whether the name is vouched for: a pinned host (Claude, ChatGPT…) rather than a self-chosen one.
    pub verified: bool,
    /// Where the answer goes (`claude.ai`, `127.0.0.1:3000`).
    pub redirect_target: String,
    /// It asked for write access.
    pub asks_write: bool,
    /// Four letters the consent page shows too, to tell requests apart.
    pub tag: String,
    /// Seconds since the page was opened.
    pub age_secs: u64,
}

/// An approved client (a grant).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct RemoteClient {
    /// The grant's id (to revoke it).
    pub id: String,
    /// The client's name.
    pub name: String,
    /// Its client id.
    pub client_id: String,
    /// Granted scopes (`garmin:read`, `garmin:write`).
    pub scopes: Vec<String>,
    /// When the owner approved it (Unix seconds).
    pub created: u64,
    /// When it last called the server (Unix seconds).
    pub last_used: Option<u64>,
}

/// A fresh pairing code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct PairingCode {
    /// Six digits.
    pub code: String,
    /// How long it stays valid.
    pub expires_in_secs: u64,
}

/// The owner's answer to a waiting client.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Decision {
    /// Allow (else deny).
    pub allow: bool,
    /// With write access.
    pub write: bool,
}

/// Which grants to revoke.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Revoke {
    /// One grant's id.
    #[serde(default)]
    pub id: Option<String>,
    /// Every grant.
    #[serde(default)]
    pub all: bool,
}

/// How many grants a revoke ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Revoked {
    /// Grants ended.
    pub revoked: usize,
}

/// A connection to a running server's owner API.
#[derive(Clone)]
pub struct Owner {
    control: ControlFile,
    http: reqwest::Client,
}

impl std::fmt::Debug for Owner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Owner").field("url", &self.control.url).finish_non_exhaustive()
    }
}

impl Owner {
    /// The owner API of the server running on `data_dir`, from its control file; `None` when no
    /// server with remote access wrote one.
    pub fn find(data_dir: &Path) -> Result<Option<Owner>, String> {
        let path = data_dir.join(CONTROL_FILE_NAME);
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        let control: ControlFile = serde_json::from_slice(&bytes)
            .map_err(|e| format!("{} is damaged ({e}); restart the server to rewrite it", path.display()))?;
        let http = garmin::https::client_builder()
            .map_err(|e| e.to_string())?
            .no_proxy()
            .timeout(Duration::from_secs(10))
            .build()
            .map_err(|e| format!("cannot make an HTTP client: {e}"))?;
        Ok(Some(Owner { control, http }))
    }

    async fn call<T: for<'de> Deserialize<'de>>(
        &self,
        path: &str,
        body: Option<serde_json::Value>,
    ) -> Result<T, String> {
        let url = format!("{}{PREFIX}{path}", self.control.url);
        let request = match body {
            Some(body) => self.http.post(&url).json(&body),
            None => self.http.get(&url),
        };
        let response = request.bearer_auth(&self.control.secret).send().await.map_err(|e| {
            format!(
                "the garmin-mcp server at {} did not answer ({}); is it still running? Start it again to use remote access",
                self.control.url,
                e.without_url()
            )
        })?;
        let status = response.status();
        if !status.is_success() {
            let text = response.text().await.unwrap_or_default();
            return Err(format!("the server refused ({status}): {}", text.trim()));
        }
        response.json().await.map_err(|e| format!("the server's answer was unreadable: {}", e.without_url()))
    }

    /// Clients waiting for approval.
    pub async fn pending(&self) -> Result<Vec<PendingClient>, String> {
        self.call("pending", None).await
    }

    /// Allows or denies the waiting request `id`.
    pub async fn decide(&self, id: &str, decision: Decision) -> Result<(), String> {
        let body = serde_json::json!({"id": id, "allow": decision.allow, "write": decision.write});
        self.call::<serde_json::Value>("decide", Some(body)).await.map(|_| ())
    }

    /// The approved clients.
    pub async fn clients(&self) -> Result<Vec<RemoteClient>, String> {
        self.call("clients", None).await
    }

    /// Revokes one grant or all of them.
    pub async fn revoke(&self, which: &Revoke) -> Result<Revoked, String> {
        self.call("revoke", Some(serde_json::to_value(which).unwrap_or_default())).await
    }

    /// A new pairing code.
    pub async fn pair(&self) -> Result<PairingCode, String> {
        self.call("pair", Some(serde_json::json!({}))).await
    }
}
