//! The fake's Garmin Connect **Personal API** (Garmin's official, read-only API for one person's
//! own data; `docs/garmin-personal-api.md`): API keys, the key-for-token exchange, the bearer gate
//! in front of the data endpoints (expired and revoked tokens, bursts answered 429), and the
//! request counters tests assert on. The data endpoints themselves are in
//! [`crate::routes::personal`].
//!
//! The real API lives on its own host (`personal.connectapi.garmin.com`, reference §3.1). Its
//! paths never collide with the Connect host's (`/gc-api/…`, `/app/…`, `/portal/…`), so the fake
//! plays it on the same listener, the way it plays the Connect and SSO hosts together:
//! `GARMIN_PERSONAL_API_URL=<fake base URL>` points a client at it.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{Next, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::{Deserialize, Serialize};

use crate::auth::{fingerprint, now_ms};
use crate::server::{header_text, noted};
use crate::state::{AppState, lock};

/// The token exchange (reference §2.1 `[G]`: Garmin's page and its own Python client).
pub const TOKEN_PATH: &str = "/personalapitoken-service/personal-api/personal-api-key/token";
/// A bearer token lives 24 hours (reference §2.2 `[S]`), never beyond its key's expiry (`[1]`).
pub const TOKEN_LIFETIME: Duration = Duration::from_secs(24 * 3600);

/// How the fake's Personal API behaves under load.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PersonalOptions {
    /// More requests than this in flight at once get a 429 (reference §4.1 `[1]`: a burst of 12
    /// parallel requests was answered 429; kav now keeps 2 in flight and is not refused).
    pub max_in_flight: usize,
    /// Seconds in the 429's `Retry-After` (reference §4.1 `[1]`: 14).
    pub retry_after_secs: u64,
    /// Time each data request takes before it answers (milliseconds), so bursts overlap as they
    /// do against the real service.
    pub latency_ms: u64,
}

impl Default for PersonalOptions {
    fn default() -> Self {
        Self { max_in_flight: 4, retry_after_secs: 14, latency_ms: 0 }
    }
}

/// One API key made on the fake's "Personal API Key page".
#[derive(Clone, Debug)]
struct KeyRecord {
    key: String,
    expires_ms: u64,
    revoked: bool,
    exchanges: u32,
}

/// One bearer token handed out.
#[derive(Clone, Debug)]
struct TokenRecord {
    key_index: usize,
    exp_ms: u64,
}

/// Keys, tokens, counters and options of the fake's Personal API.
#[derive(Debug, Default)]
pub struct PersonalState {
    keys: Vec<KeyRecord>,
    tokens: BTreeMap<String, TokenRecord>,
    options: PersonalOptions,
    in_flight: Arc<AtomicUsize>,
}

/// A key as the key page shows it once (the fake's tests print it; a real client never logs it).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MintedKey {
    /// The key text.
    pub key: String,
    /// When it stops working, milliseconds since the epoch.
    pub expires_at_ms: u64,
}

impl PersonalState {
    /// A new key valid for `valid_for` from now (Garmin offers 30, 90, 180 or 365 days,
    /// reference §1 `[S]`; tests use any length). Key text format: unknown (`[I]`).
    pub fn mint(&mut self, valid_for: Duration) -> MintedKey {
        let key =
            format!("gcpak_{:016x}{:016x}{:016x}", fastrand::u64(..), fastrand::u64(..), fastrand::u64(..));
        let expires_ms = now_ms().saturating_add(u64::try_from(valid_for.as_millis()).unwrap_or(u64::MAX));
        self.keys.push(KeyRecord { key: key.clone(), expires_ms, revoked: false, exchanges: 0 });
        MintedKey { key, expires_at_ms: expires_ms }
    }

    /// Deletes `key` on the key page: exchanges refused from now on, and its tokens die at once
    /// (reference §1: deletion cuts access off `[S]`; live tokens dying at once is `[I]`).
    pub fn revoke(&mut self, key: &str) -> bool {
        self.keys.iter_mut().filter(|k| k.key == key).fold(false, |_, k| {
            k.revoked = true;
            true
        })
    }

    /// Makes `key` expired now (its tokens too: a token never outlives its key, reference §1 `[1]`).
    pub fn expire(&mut self, key: &str) -> bool {
        let now = now_ms();
        let mut found = false;
        for (i, k) in self.keys.iter_mut().enumerate() {
            if k.key == key {
                k.expires_ms = now;
                found = true;
                for t in self.tokens.values_mut().filter(|t| t.key_index == i) {
                    t.exp_ms = t.exp_ms.min(now);
                }
            }
        }
        found
    }

    /// Every token handed out so far is expired from now on (its 24 hours are over).
    pub fn expire_tokens(&mut self) {
        let now = now_ms();
        for t in self.tokens.values_mut() {
            t.exp_ms = t.exp_ms.min(now);
        }
    }

    /// How many times each key was presented to the token exchange, by a non-secret fingerprint.
    pub fn exchanges(&self) -> BTreeMap<String, u32> {
        self.keys.iter().map(|k| (fingerprint(&k.key), k.exchanges)).collect()
    }

    /// Changes the load behaviour.
    pub fn set_options(&mut self, options: PersonalOptions) {
        self.options = options;
    }

    /// Exchanges `key` for a token, or says why not.
    fn exchange(&mut self, key: &str, now: u64) -> Result<(String, u64), &'static str> {
        let Some(index) = self.keys.iter().position(|k| k.key == key) else {
            return Err("unknown key");
        };
        let record = &mut self.keys[index];
        record.exchanges += 1;
        if record.revoked {
            return Err("key deleted");
        }
        if record.expires_ms <= now {
            return Err("key expired");
        }
        let lifetime = u64::try_from(TOKEN_LIFETIME.as_millis()).unwrap_or(u64::MAX);
        let exp_ms = now.saturating_add(lifetime).min(record.expires_ms);
        let token = jwt(now / 1000, exp_ms / 1000);
        self.tokens.insert(token.clone(), TokenRecord { key_index: index, exp_ms });
        Ok((token, exp_ms))
    }

    /// Whether `token` is live now.
    fn check(&self, token: &str, now: u64) -> Result<(), &'static str> {
        let Some(t) = self.tokens.get(token) else { return Err("unknown bearer token") };
        match self.keys.get(t.key_index) {
            Some(k) if k.revoked => Err("key deleted"),
            _ if t.exp_ms <= now => Err("bearer token expired"),
            _ => Ok(()),
        }
    }
}

/// A three-part JWT text (header.payload.signature, base64url) whose payload carries `iat`, `exp`
/// and `scope` (reference §2.3; the `scope` values are unknown `[I]`). The signature is random:
/// clients must not verify it (none does, reference §2.2).
fn jwt(iat: u64, exp: u64) -> String {
    let header = URL_SAFE_NO_PAD.encode(br#"{"alg":"RS256","typ":"JWT"}"#);
    let payload = serde_json::json!({
        "iat": iat,
        "exp": exp,
        "scope": ["PERSONAL_API_READ"],
        "jti": format!("{:016x}", fastrand::u64(..)),
    });
    let payload = URL_SAFE_NO_PAD.encode(payload.to_string().as_bytes());
    let sig: Vec<u8> = (0..32).map(|_| fastrand::u8(..)).collect();
    format!("{header}.{payload}.{}", URL_SAFE_NO_PAD.encode(sig))
}

/// The Personal API's routes: the token exchange and every data endpoint behind the bearer gate.
pub fn router(state: AppState) -> Router<AppState> {
    let data = crate::routes::personal::router().layer(from_fn_with_state(state, bearer_gate));
    Router::new().route(TOKEN_PATH, post(token)).merge(data)
}

/// `POST …/personal-api-key/token` with `Authorization: ApiKey <key>` and no body: 200 with the
/// bare JWT as text and a trailing newline (reference §2.2 `[G]`: Garmin's client trims it).
/// A wrong, expired or deleted key: 401 (reference §2.4 `[S]`: clients see 401 or 403; which one
/// for which case is unknown, so the fake uses 401 for unknown/deleted keys and 403 for expired
/// ones, with an empty JSON body, the commonest Garmin error body `[1]`). A China fake answers 526
/// `TOKEN_EXCHANGE_FAILED` for every key (reference §4.3 `[1]`: lik-report, 22 Oct 2026).
async fn token(State(state): State<AppState>, req: Request) -> Response {
    if state.config().site == crate::FakeSite::Cn {
        let res = (
            StatusCode::from_u16(526).unwrap_or(StatusCode::BAD_GATEWAY),
            [(header::CONTENT_TYPE, "application/json")],
            r#"{"error":"TOKEN_EXCHANGE_FAILED"}"#,
        )
            .into_response();
        return noted(res, "526: the China site has no Personal API".to_owned());
    }
    let presented = header_text(req.headers(), "authorization").and_then(|v| v.strip_prefix("ApiKey "));
    let Some(key) = presented.map(str::trim).filter(|k| !k.is_empty()) else {
        return refused(StatusCode::UNAUTHORIZED, "no `Authorization: ApiKey <key>` header");
    };
    let outcome = lock(&state.inner.personal).exchange(key, now_ms());
    match outcome {
        Ok((jwt, _)) => {
            ([(header::CONTENT_TYPE, "text/plain;charset=UTF-8")], format!("{jwt}\n")).into_response()
        }
        Err(why @ "key expired") => refused(StatusCode::FORBIDDEN, why),
        Err(why) => refused(StatusCode::UNAUTHORIZED, why),
    }
}

/// A refusal with Garmin's commonest error body, `{}`, explained in the request log.
fn refused(status: StatusCode, why: &str) -> Response {
    let res = (status, [(header::CONTENT_TYPE, "application/json")], "{}").into_response();
    noted(res, format!("{}: {why}", status.as_u16()))
}

/// Counts a request in flight until dropped.
struct InFlight(Arc<AtomicUsize>);

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// In front of every data endpoint: `Authorization: Bearer <token>` must name a live token
/// (reference §3.1 `[G]`; a dead or unknown one is 401, §4.3 `[S]`), then the burst limit
/// (429 + `Retry-After`, §4.1 `[1]`), then the fake's switchable faults (as on `/gc-api`). A fault
/// rule's `path_contains` is matched against `personal-api:<path?query>`, so a rule can aim at the
/// Personal API alone (`"personal-api:/hrv-service/"`) although its paths are the web ones without
/// `/gc-api`.
async fn bearer_gate(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let bearer = header_text(req.headers(), "authorization").and_then(|v| v.strip_prefix("Bearer "));
    let Some(bearer) = bearer.map(str::trim) else {
        return refused(StatusCode::UNAUTHORIZED, "no bearer token");
    };
    let (checked, options, counter) = {
        let personal = lock(&state.inner.personal);
        (personal.check(bearer, now_ms()), personal.options, personal.in_flight.clone())
    };
    if let Err(why) = checked {
        return refused(StatusCode::UNAUTHORIZED, why);
    }
    let _slot = InFlight(counter.clone());
    if counter.fetch_add(1, Ordering::SeqCst) >= options.max_in_flight {
        let mut res = refused(StatusCode::TOO_MANY_REQUESTS, "burst: too many requests in flight");
        if let Ok(v) = HeaderValue::from_str(&options.retry_after_secs.to_string()) {
            res.headers_mut().insert(header::RETRY_AFTER, v);
        }
        return res;
    }
    if options.latency_ms > 0 {
        tokio::time::sleep(Duration::from_millis(options.latency_ms)).await;
    }
    let target = req.uri().path_and_query().map_or_else(|| req.uri().path().to_owned(), ToString::to_string);
    let target = format!("personal-api:{target}");
    match crate::server::apply_faults(&state, &target, true).await {
        (Some(crate::server::Planned::Answer(res)), _) => res,
        _ => next.run(req).await,
    }
}
