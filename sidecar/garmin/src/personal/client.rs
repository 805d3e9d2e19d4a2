//! The Personal API transport: the key-for-token exchange (single-flight across processes under the
//! session lock), the bearer token cache, a process-wide limit of [`MAX_IN_FLIGHT`] requests,
//! `Retry-After`, and Garmin's answers turned into [`crate::Error`]s.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine as _;
use chrono::{DateTime, Utc};
use reqwest::header;
use serde::de::DeserializeOwned;
use tokio::sync::Semaphore;

use super::{PersonalApiKey, origin_from_env};
use crate::client::{decode_body, garmin_message};
use crate::error::network;
use crate::retry::parse_retry_after;
use crate::{Error, ForbiddenKind, Result, RetryPolicy, SessionStore};

/// Most Personal API requests in flight at once in one process (reference §4.1 `[1]`: a burst of 12
/// got 429; a client keeping 2 in flight was not refused).
pub const MAX_IN_FLIGHT: usize = 2;
/// Shared by every [`PersonalClient`] of the process.
static SLOTS: Semaphore = Semaphore::const_new(MAX_IN_FLIGHT);
/// The token exchange path (reference §2.1 `[G]`).
const TOKEN_PATH: &str = "/personalapitoken-service/personal-api/personal-api-key/token";
/// A token is renewed when less than this is left (reference §2.2 `[G]`: Garmin's client, 1 hour).
const RENEW_MARGIN: chrono::TimeDelta = chrono::TimeDelta::hours(1);
/// Never use a token with less than this left.
const MIN_LEFT: chrono::TimeDelta = chrono::TimeDelta::seconds(60);
/// A normal token lives 24 hours (reference §2.2 `[S]`); a shorter one was cut at the key's expiry.
const FULL_LIFETIME: chrono::TimeDelta = chrono::TimeDelta::hours(23);

/// A Personal API client for the key in one session store. Cheap to clone.
#[derive(Clone)]
pub struct PersonalClient {
    inner: Arc<Inner>,
}

struct Inner {
    http: reqwest::Client,
    origin: String,
    store: SessionStore,
    cached: Mutex<Option<Bearer>>,
    gate: tokio::sync::Mutex<()>,
    retry: RetryPolicy,
}

/// A bearer token in memory.
#[derive(Clone)]
struct Bearer {
    token: String,
    expires_at: DateTime<Utc>,
    key_expires_at: Option<DateTime<Utc>>,
}

impl Bearer {
    /// Worth using now: more than [`RENEW_MARGIN`] left, or already running to the key's end (a
    /// new one could not live longer).
    fn fresh(&self, now: DateTime<Utc>) -> bool {
        let left = self.expires_at - now;
        left > RENEW_MARGIN || (left > MIN_LEFT && self.key_expires_at.is_some_and(|k| self.expires_at >= k))
    }
}

/// One successful token exchange.
#[derive(Clone)]
pub struct Exchanged {
    /// The bearer token (a secret).
    pub token: String,
    /// Its `exp`.
    pub expires_at: DateTime<Utc>,
    /// The key's expiry when the token's lifetime shows it (a token cut short at the key's end).
    pub key_expires_at: Option<DateTime<Utc>>,
}

impl std::fmt::Debug for Exchanged {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Exchanged")
            .field("token", &"<redacted>")
            .field("expires_at", &self.expires_at)
            .field("key_expires_at", &self.key_expires_at)
            .finish()
    }
}

impl std::fmt::Debug for PersonalClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PersonalClient").field("origin", &self.inner.origin).finish_non_exhaustive()
    }
}

fn http_client() -> Result<reqwest::Client> {
    crate::https::client_builder()?
        .redirect(reqwest::redirect::Policy::none())
        .connect_timeout(Duration::from_secs(10))
        .timeout(Duration::from_secs(60))
        .build()
        .map_err(|e| Error::InvalidInput(format!("could not set up HTTPS: {e}")))
}

impl PersonalClient {
    /// A client for the key saved in `store`, talking to [`origin_from_env`]; `None` when no key is
    /// saved. A China web session in the same store means no Personal API
    /// ([`super::CHINA_NOT_OFFERED`]): `None` too.
    pub fn from_store(store: SessionStore) -> Result<Option<PersonalClient>> {
        let Some(key) = store.load_personal()? else { return Ok(None) };
        if store.load().ok().flatten().is_some_and(|s| s.site == crate::Site::Cn) {
            return Ok(None);
        }
        let origin = super::origin_override().or(key.origin).unwrap_or_else(origin_from_env);
        Ok(Some(PersonalClient::new(store, origin)?))
    }

    /// A client for the key in `store`, talking to `origin` (refused unless it is `https://`, or
    /// `http://` to this computer: [`super::checked_origin`]).
    pub fn new(store: SessionStore, origin: impl Into<String>) -> Result<PersonalClient> {
        let origin = super::checked_origin(&origin.into())?;
        Ok(PersonalClient {
            inner: Arc::new(Inner {
                http: http_client()?,
                origin,
                store,
                cached: Mutex::new(None),
                gate: tokio::sync::Mutex::new(()),
                retry: RetryPolicy { max_retries: 2, ..RetryPolicy::default() },
            }),
        })
    }

    /// The same client with another retry policy for 429 and 5xx (tests).
    #[must_use]
    pub fn with_retry(self, retry: RetryPolicy) -> PersonalClient {
        let inner = &self.inner;
        PersonalClient {
            inner: Arc::new(Inner {
                http: inner.http.clone(),
                origin: inner.origin.clone(),
                store: inner.store.clone(),
                cached: Mutex::new(None),
                gate: tokio::sync::Mutex::new(()),
                retry,
            }),
        }
    }

    /// The Personal API origin this client talks to.
    pub fn origin(&self) -> &str {
        &self.inner.origin
    }

    /// The saved key's record (expiry, token expiry, exchanges), read from the store.
    pub fn key(&self) -> Result<Option<PersonalApiKey>> {
        Ok(self.inner.store.load_personal()?)
    }

    /// Exchanges `key` for a token at `origin` without saving anything: how a new key is checked
    /// before it is saved (reference §2).
    pub async fn exchange_key(origin: &str, key: &str) -> Result<Exchanged> {
        let origin = super::checked_origin(origin)?;
        exchange(&http_client()?, &origin, key, None, &RetryPolicy::default()).await
    }

    /// A live bearer token: the cached one, else the stored one, else a new exchange — made by
    /// exactly one process at a time under the session lock, and never repeated when another
    /// process already renewed. `stale` is a token Garmin just refused (401): never returned again.
    async fn bearer(&self, stale: Option<&str>) -> Result<String> {
        let usable = |b: &Bearer| b.fresh(Utc::now()) && Some(b.token.as_str()) != stale;
        if let Some(b) = self.cached().filter(usable) {
            return Ok(b.token);
        }
        let _gate = self.inner.gate.lock().await;
        if let Some(b) = self.cached().filter(usable) {
            return Ok(b.token);
        }
        let store = self.inner.store.clone();
        let lock = tokio::task::spawn_blocking(move || store.lock())
            .await
            .map_err(|e| Error::InvalidInput(format!("the session lock task failed: {e}")))??;
        let Some(mut key) = lock.read_personal()? else {
            return Err(Error::InvalidInput(
                "no Garmin Personal API key is saved any more: add one with `garmin-mcp login --api-key`"
                    .into(),
            ));
        };
        if let (Some(token), Some(expires_at)) = (&key.token, key.token_expires_at) {
            let stored = Bearer { token: token.clone(), expires_at, key_expires_at: key.key_expires_at };
            if usable(&stored) {
                self.set_cached(stored.clone());
                return Ok(stored.token);
            }
        }
        let exchanged =
            exchange(&self.inner.http, &self.inner.origin, &key.key, key.key_expires_at, &self.inner.retry)
                .await?;
        key.token = Some(exchanged.token.clone());
        key.token_expires_at = Some(exchanged.expires_at);
        key.exchanges += 1;
        if exchanged.key_expires_at.is_some() {
            key.key_expires_at = exchanged.key_expires_at;
        }
        lock.write_personal(Some(&key))?;
        drop(lock);
        tracing::debug!(expires_at = %exchanged.expires_at, "Personal API token renewed");
        let bearer = Bearer {
            token: exchanged.token,
            expires_at: exchanged.expires_at,
            key_expires_at: key.key_expires_at,
        };
        self.set_cached(bearer.clone());
        Ok(bearer.token)
    }

    fn cached(&self) -> Option<Bearer> {
        self.inner.cached.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }

    fn set_cached(&self, bearer: Bearer) {
        *self.inner.cached.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(bearer);
    }

    /// `GET` a Personal API path as JSON; `None` for 204, an empty body or `null` (reference §3.1).
    pub(crate) async fn get_json<T: DeserializeOwned>(
        &self,
        path: &str,
        query: &[(&str, String)],
    ) -> Result<Option<T>> {
        let (status, body) = self.get(path, query, "application/json").await?;
        decode_body(&format!("GET {path} (Personal API)"), status, &body)
    }

    /// `GET` a Personal API path as the JSON Garmin sent (the history keeps it raw); `None` for 204,
    /// an empty body or `null`. Range paths must stay within their cap ([`super::caps`]).
    pub async fn get_value(&self, path: &str, query: &[(&str, String)]) -> Result<Option<serde_json::Value>> {
        self.get_json(path, query).await
    }

    /// `GET` a Personal API path with `accept`, answering its 2xx status and body. A 401 renews the
    /// token once and repeats once; 429 and 5xx are repeated within the retry policy, honouring
    /// `Retry-After`; any other 4xx is answered at once.
    pub(crate) async fn get(
        &self,
        path: &str,
        query: &[(&str, String)],
        accept: &str,
    ) -> Result<(u16, Vec<u8>)> {
        let endpoint = format!("GET {path} (Personal API)");
        let _slot = SLOTS
            .acquire()
            .await
            .map_err(|_| Error::InvalidInput("the Personal API request limiter was closed".into()))?;
        let url = format!("{}{path}", self.inner.origin);
        let mut stale: Option<String> = None;
        let mut retries = 0;
        loop {
            let token = self.bearer(stale.as_deref()).await?;
            let res = self
                .inner
                .http
                .get(&url)
                .query(query)
                .bearer_auth(&token)
                .header(header::ACCEPT, accept)
                .send()
                .await
                .map_err(|e| network("GET", path, &e))?;
            let status = res.status().as_u16();
            let retry_after = retry_after(&res);
            let body = crate::answer_cap::read(res, crate::answer_cap::MAX_DATA_BYTES, "GET", path).await?;
            match status {
                200..=299 => return Ok((status, body)),
                401 if stale.is_none() => stale = Some(token),
                401 => {
                    return Err(Error::ApiKeyRejected {
                        reason:
                            "Garmin refused a token it had just issued, so the key was most likely deleted"
                                .into(),
                    });
                }
                429 | 500..=599 => match self.inner.retry.wait_before(retries, retry_after) {
                    Some(wait) => {
                        tracing::debug!(status, ?wait, path, "Personal API asked to wait; retrying");
                        retries += 1;
                        tokio::time::sleep(wait).await;
                    }
                    None if status == 429 => return Err(Error::RateLimited { retry_after }),
                    None => return Err(Error::Server { status, endpoint }),
                },
                403 => {
                    return Err(Error::Forbidden {
                        kind: ForbiddenKind::Account,
                        endpoint,
                        message: garmin_message(&body),
                    });
                }
                404 => return Err(Error::NotFound { endpoint }),
                _ => return Err(Error::Rejected { status, endpoint, message: garmin_message(&body) }),
            }
        }
    }
}

/// `Retry-After` of an answer, when readable.
fn retry_after(res: &reqwest::Response) -> Option<Duration> {
    let value = res.headers().get(header::RETRY_AFTER)?.to_str().ok()?;
    parse_retry_after(value, Utc::now())
}

/// `POST …/personal-api-key/token` with `Authorization: ApiKey <key>`, no body (reference §2.1
/// `[G]`): the answer is the bare JWT text, maybe quoted (§2.2 `[1]`), whose `exp` is the token's
/// expiry (a token without one is refused, as Garmin's client does `[G]`). 400/401/403 mean the
/// key is wrong, expired or deleted (§2.4 `[S]`).
async fn exchange(
    http: &reqwest::Client,
    origin: &str,
    key: &str,
    key_expires_at: Option<DateTime<Utc>>,
    retry: &RetryPolicy,
) -> Result<Exchanged> {
    let key = key.trim();
    if key.is_empty() || key.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(Error::InvalidInput(
            "that is not a Garmin Personal API key (it is empty or has spaces in it): copy the key again from Garmin Connect".into(),
        ));
    }
    let mut retries = 0;
    loop {
        let res = http
            .post(format!("{origin}{TOKEN_PATH}"))
            .header(header::AUTHORIZATION, format!("ApiKey {key}"))
            .header(header::ACCEPT, "*/*")
            .send()
            .await
            .map_err(|e| network("POST", TOKEN_PATH, &e))?;
        let status = res.status().as_u16();
        let wait = retry_after(&res);
        let body =
            crate::answer_cap::read_text(res, crate::answer_cap::MAX_TOKEN_BYTES, "POST", TOKEN_PATH).await?;
        match status {
            200 => return read_token(&body),
            400 | 401 | 403 => {
                let reason = match key_expires_at {
                    Some(at) if at <= Utc::now() => format!("the key expired on {}", at.format("%Y-%m-%d")),
                    _ if status == 403 => {
                        "Garmin says the key is expired or not allowed (HTTP 403)".to_owned()
                    }
                    _ => format!(
                        "Garmin does not accept this key (HTTP {status}): it was deleted, mistyped, or has expired"
                    ),
                };
                return Err(Error::ApiKeyRejected { reason });
            }
            429 | 500..=599 => match retry.wait_before(retries, wait) {
                Some(w) => {
                    retries += 1;
                    tokio::time::sleep(w).await;
                }
                None if status == 429 => return Err(Error::RateLimited { retry_after: wait }),
                None => return Err(Error::Server { status, endpoint: format!("POST {TOKEN_PATH}") }),
            },
            _ => {
                return Err(Error::Rejected {
                    status,
                    endpoint: format!("POST {TOKEN_PATH}"),
                    message: garmin_message(body.as_bytes()),
                });
            }
        }
    }
}

/// The token and its expiry from the exchange's body.
fn read_token(body: &str) -> Result<Exchanged> {
    let token = body.trim().trim_matches('"').to_owned();
    let decode_error = |message: &str| Error::Decode {
        endpoint: format!("POST {TOKEN_PATH}"),
        field: ".".into(),
        message: message.to_owned(),
    };
    let payload = token.split('.').nth(1).ok_or_else(|| decode_error("the answer is not a JWT"))?;
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(payload.trim_end_matches('='))
        .map_err(|_| decode_error("the JWT payload is not base64url"))?;
    let claims: serde_json::Value =
        serde_json::from_slice(&bytes).map_err(|_| decode_error("the JWT payload is not JSON"))?;
    let exp = claims
        .get("exp")
        .and_then(serde_json::Value::as_i64)
        .ok_or_else(|| decode_error("the JWT has no `exp`"))?;
    let expires_at =
        DateTime::from_timestamp(exp, 0).ok_or_else(|| decode_error("the JWT `exp` is out of range"))?;
    let issued_at =
        claims.get("iat").and_then(serde_json::Value::as_i64).and_then(|t| DateTime::from_timestamp(t, 0));
    let key_expires_at = issued_at.filter(|iat| expires_at - *iat < FULL_LIFETIME).map(|_| expires_at);
    Ok(Exchanged { token, expires_at, key_expires_at })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jwt(claims: &str) -> String {
        let enc = |b: &[u8]| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(b);
        format!("{}.{}.{}", enc(b"{}"), enc(claims.as_bytes()), enc(b"sig"))
    }

    #[test]
    fn a_token_body_is_read_trimmed_and_unquoted_and_a_short_lifetime_reveals_the_key_expiry() {
        let full = read_token(&format!("{}\n", jwt(r#"{"iat":1000,"exp":87400}"#))).unwrap();
        assert_eq!(full.expires_at.timestamp(), 87_400);
        assert_eq!(full.key_expires_at, None);
        let short = read_token(&format!("\"{}\"", jwt(r#"{"iat":1000,"exp":8200}"#))).unwrap();
        assert_eq!(short.key_expires_at.map(|t| t.timestamp()), Some(8200));
        assert!(!short.token.contains('"'));
        assert!(matches!(read_token(&jwt(r#"{"iat":1}"#)), Err(Error::Decode { .. })));
        assert!(matches!(read_token("{}"), Err(Error::Decode { .. })));
    }

    #[test]
    fn a_token_running_to_the_key_end_is_used_to_the_last_minute() {
        let now = Utc::now();
        let normal = Bearer {
            token: "t".into(),
            expires_at: now + chrono::TimeDelta::minutes(30),
            key_expires_at: None,
        };
        assert!(!normal.fresh(now));
        let last = Bearer { key_expires_at: Some(normal.expires_at), ..normal.clone() };
        assert!(last.fresh(now));
        assert!(!Bearer { expires_at: now + chrono::TimeDelta::seconds(30), ..last }.fresh(now));
    }
}
