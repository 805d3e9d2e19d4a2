//! Garmin Connect's official, read-only **Personal API** (`docs/garmin-personal-api.md`): a
//! long-lived API key the person makes on Garmin Connect web, exchanged for a 24-hour bearer token,
//! and GET endpoints on `personal.connectapi.garmin.com`. No password, no cookies: it keeps working
//! when Garmin changes its web sign-in.
//!
//! * [`PersonalApiKey`] is the key and its cached token, stored in the same `session.json` as the
//!   web session (same lock, same atomic writes; see [`crate::SessionStore`]). Debug output never
//!   shows the key or the token.
//! * [`PersonalClient`] exchanges the key for a token once per 24 hours across every process
//!   (single-flight under the session lock, like the web session's refresh), keeps at most
//!   [`MAX_IN_FLIGHT`] requests in flight per process, honours `Retry-After`, never repeats a 4xx,
//!   and splits range reads into windows within each endpoint's cap. Its reads answer with the web
//!   client's models ([`crate::models`]): the Personal API reuses the same backend services and
//!   field names (reference §6), so a tool reads the same types from either source.
//! * A wrong, expired or deleted key is [`crate::Error::ApiKeyRejected`], which says how to make a
//!   new key.

mod add;
mod client;
mod reads;

use std::fmt;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

pub use add::{add_key, remove_key};
pub use client::{MAX_IN_FLIGHT, PersonalClient};
pub use reads::caps;

/// Environment variable overriding the Personal API origin (tests, the demo, proxies), like
/// `GARMIN_CONNECT_URL` does for the web API.
pub const PERSONAL_API_URL_ENV: &str = "GARMIN_PERSONAL_API_URL";
/// Environment variable holding a key (the name Garmin's own client uses, reference §1 `[G]`).
pub const PERSONAL_API_KEY_ENV: &str = "GARMIN_PERSONAL_API_KEY";
/// The Personal API's origin (reference §3.1 `[G]`).
pub const PERSONAL_API_ORIGIN: &str = "https://personal.connectapi.garmin.com";
/// The key page's path on the Connect host (reference §1 `[S]`).
pub const KEY_PAGE_PATH: &str = "/app/settings/personalApiToken";
/// Where the person makes a key, signed in to Garmin Connect web (reference §1 `[S]`).
pub const KEY_PAGE_URL: &str = "https://connect.garmin.com/app/settings/personalApiToken";
/// Why the China site is not offered: its token exchange failed in the only test on record
/// (reference §4.3 `[1]`: HTTP 526 `TOKEN_EXCHANGE_FAILED`, 22 Oct 2026).
pub const CHINA_NOT_OFFERED: &str = "Garmin's Personal API is not offered for Garmin Connect China (connect.garmin.cn) accounts: the only test on record saw Garmin refuse the key exchange there, so Garmin MCP uses the web sign-in for China accounts";
/// How far ahead of the key's expiry `status` and tool answers warn (days).
pub const EXPIRY_WARNING_DAYS: i64 = 14;

/// `origin` (from `GARMIN_PERSONAL_API_URL`, or saved with a key) as the client may use it: the
/// key travels in the token exchange and the token in every request, so only `https://` is accepted,
/// except `http://` to this computer itself (`localhost`, `127.0.0.0/8`, `[::1]`: tests, the demo,
/// a local proxy) — never plain HTTP across a network, where anyone on the way reads the key.
pub fn checked_origin(origin: &str) -> crate::Result<String> {
    let origin = origin.trim().trim_end_matches('/');
    let refused = |why: &str| {
        crate::Error::InvalidInput(format!(
            "{PERSONAL_API_URL_ENV} `{}` {why}: the Personal API key would travel in clear text. Use an https:// address, or http:// only to this computer (localhost, 127.0.0.1, [::1])",
            display::text::clean_display_text(origin, 100)
        ))
    };
    let url = url::Url::parse(origin).map_err(|_| refused("is not an http(s) address"))?;
    match url.scheme() {
        "https" => Ok(origin.to_owned()),
        "http" => {
            let loopback = match url.host() {
                Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
                Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
                Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
                None => false,
            };
            if loopback {
                Ok(origin.to_owned())
            } else {
                Err(refused("is plain http:// to another computer"))
            }
        }
        _ => Err(refused("is not an http(s) address")),
    }
}

/// The Personal API origin in force: `GARMIN_PERSONAL_API_URL`, else [`PERSONAL_API_ORIGIN`].
pub fn origin_from_env() -> String {
    origin_override().unwrap_or_else(|| PERSONAL_API_ORIGIN.to_owned())
}

/// `GARMIN_PERSONAL_API_URL`, when set.
pub fn origin_override() -> Option<String> {
    std::env::var(PERSONAL_API_URL_ENV)
        .ok()
        .map(|v| v.trim().trim_end_matches('/').to_owned())
        .filter(|v| !v.is_empty())
}

/// A Personal API key as stored (field `personal_api` of `session.json`).
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PersonalApiKey {
    /// The key (a secret).
    pub key: String,
    /// When it was added here.
    pub added_at: DateTime<Utc>,
    /// When the key stops working, when known (told at `login --api-key`, or learnt from a token
    /// whose lifetime Garmin cut short at the key's expiry).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key_expires_at: Option<DateTime<Utc>>,
    /// The current bearer token (a secret).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// When the token expires (its JWT `exp`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_expires_at: Option<DateTime<Utc>>,
    /// How many times the key was exchanged for a token since it was added.
    #[serde(default)]
    pub exchanges: u64,
    /// The Personal API origin in force when the key was added, when it was not Garmin's own
    /// (`GARMIN_PERSONAL_API_URL`: tests, the demo, proxies); used unless that variable is set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
}

impl PersonalApiKey {
    /// A key just added, with no token yet.
    pub fn new(key: impl Into<String>, key_expires_at: Option<DateTime<Utc>>) -> Self {
        PersonalApiKey {
            key: key.into().trim().to_owned(),
            added_at: Utc::now(),
            key_expires_at,
            token: None,
            token_expires_at: None,
            exchanges: 0,
            origin: None,
        }
    }

    /// Whole days left before the key expires, when its expiry is known (negative: expired).
    pub fn days_left(&self, now: DateTime<Utc>) -> Option<i64> {
        self.key_expires_at.map(|at| (at - now).num_days())
    }

    /// A one-line note when the key expires within [`EXPIRY_WARNING_DAYS`] (or has expired).
    pub fn expiry_warning(&self, now: DateTime<Utc>) -> Option<String> {
        let at = self.key_expires_at?;
        let days = (at - now).num_days();
        if at <= now {
            Some(format!(
                "Your Garmin Personal API key expired on {}: make a new one at {KEY_PAGE_URL} and add it with `garmin-mcp login --api-key`.",
                at.format("%Y-%m-%d")
            ))
        } else if days < EXPIRY_WARNING_DAYS {
            Some(format!(
                "Your Garmin Personal API key expires on {} (in {days} days): make a new one at {KEY_PAGE_URL} and add it with `garmin-mcp login --api-key`.",
                at.format("%Y-%m-%d")
            ))
        } else {
            None
        }
    }
}

impl fmt::Debug for PersonalApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PersonalApiKey")
            .field("key", &"<redacted>")
            .field("added_at", &self.added_at)
            .field("key_expires_at", &self.key_expires_at)
            .field("token", &self.token.as_ref().map(|_| "<redacted>"))
            .field("token_expires_at", &self.token_expires_at)
            .field("exchanges", &self.exchanges)
            .field("origin", &self.origin)
            .finish()
    }
}
