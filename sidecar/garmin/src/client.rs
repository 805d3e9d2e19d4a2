//! [`Client`]: sends requests to Garmin Connect's `/gc-api` exactly as the Garmin web app does, and
//! keeps the shared session alive while doing it.
//!
//! Every request:
//! 1. waits for a slot (independent requests run concurrently, at most `max_concurrency` at once);
//! 2. picks up a session another process saved meanwhile (a cheap `stat` of `session.json`);
//! 3. renews the session first when its access cookie is about to expire;
//! 4. carries the session cookies, `Connect-Csrf-Token`, `Sec-Fetch-Site: same-origin`, `Accept`
//!    and the User-Agent the session signed in with;
//! 5. merges any `Set-Cookie` of the answer into the saved session;
//! 6. on 401 or a redirect to a sign-in page: renews once (or adopts what another process renewed)
//!    and repeats once;
//! 7. on a 403, tells its kinds apart (docs/garmin-web-api.md §0) and never spends a refresh
//!    credential on one: Cloudflare's edge (empty or HTML body, no `cf-cache-status`), Garmin's
//!    `ForbiddenException`, a feature the account or device lacks, another athlete's item — each
//!    an [`Error::Forbidden`] of its kind. A bare 403 from Garmin itself (stale CSRF token,
//!    refused cookies) adopts another process's renewal or re-reads the Connect page, which
//!    presents no refresh credential, and repeats once;
//! 8. on a redirect to another Connect front end of the same site (from mainland-China networks
//!    `connect.garmin.com` → `connectus.garmin.cn`): moves the session there when its cookies go
//!    to that host, else says which front end is in use and to sign in on it;
//! 9. on 429/5xx (or a 200 whose body says 429): repeats reads with jittered backoff honouring
//!    `Retry-After`; writes are never repeated blindly.
//!
//! Renewal follows the store's rules: under the cross-process lock, re-read the file; if someone
//! else already renewed, use theirs; otherwise renew and save before releasing the lock.

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use chrono::Utc;
use reqwest::Method;
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap, LOCATION, RETRY_AFTER};
use serde::Serialize;
use serde::de::DeserializeOwned;
use tokio::sync::Semaphore;

use crate::error::ForbiddenKind;
use crate::refresh::{self, apply_set_cookies, browser_headers, set_cookie_headers};
use crate::retry::{RetryPolicy, parse_retry_after};
use crate::session::{ACCESS_COOKIE, Credential, SESSION_COOKIE, Session, SessionInfo};
use crate::store::{FileStamp, SessionStore, StoreLock};
use crate::{Error, Result, Site};

/// `Accept` the web app sends with API calls (a JSON-only value has been refused with 403).
const ACCEPT_API: &str = "application/json, text/plain, */*";
/// How many times one call may go back to the session after a 401 (adopting another process's
/// renewal each time it changed; renewing ourselves at most once).
const MAX_AUTH_RECOVERIES: u32 = 3;
/// Services whose 403 means a feature the account or its devices lack (metrics only some watches
/// record, subscription features), not a refusal of the account as such.
const FEATURE_SERVICES: &[&str] = &[
    "/hrv-service/",
    "/metrics-service/",
    "/fitnessage-service/",
    "/biometric-service/biometric/latestLactateThreshold",
    "/wellness-service/wellness/bodyBattery/",
    "/wellness-service/wellness/daily/spo2/",
    "/wellness-service/wellness/daily/respiration/",
    "/device-service/devicemessage/",
    "/badgechallenge-service/virtualChallenge/",
    "/trainingplan-service/",
];

/// A Garmin Connect web client bound to one session. Cheap to clone; clones share the session,
/// the concurrency limit and the HTTP connection pool.
#[derive(Clone, Debug)]
pub struct Client {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    http: reqwest::Client,
    store: Option<SessionStore>,
    cached: Mutex<Cached>,
    refresh_gate: tokio::sync::Mutex<()>,
    limiter: Semaphore,
    max_concurrency: usize,
    retry: RetryPolicy,
}

#[derive(Debug)]
struct Cached {
    session: Session,
    stamp: Option<FileStamp>,
}

/// Builds a [`Client`].
#[derive(Debug)]
pub struct ClientBuilder {
    store: Option<SessionStore>,
    session: Option<Session>,
    max_concurrency: usize,
    retry: RetryPolicy,
    timeout: Duration,
}

impl Default for ClientBuilder {
    fn default() -> Self {
        ClientBuilder {
            store: None,
            session: None,
            max_concurrency: 4,
            retry: RetryPolicy::default(),
            timeout: Duration::from_secs(30),
        }
    }
}

impl ClientBuilder {
    /// Use (and keep up to date) the session saved in `store`.
    pub fn store(mut self, store: SessionStore) -> Self {
        self.store = Some(store);
        self
    }

    /// Start from this session instead of the saved one. Without a store the session lives only in
    /// memory (used to validate a session before saving it).
    pub fn session(mut self, session: Session) -> Self {
        self.session = Some(session);
        self
    }

    /// Most requests in flight at once (default 4; Garmin dislikes bursts).
    pub fn max_concurrency(mut self, n: usize) -> Self {
        self.max_concurrency = n.max(1);
        self
    }

    /// Retry policy for reads.
    pub fn retry(mut self, policy: RetryPolicy) -> Self {
        self.retry = policy;
        self
    }

    /// Timeout of one HTTP request (default 30 s).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Builds the client. Fails with [`Error::NotSignedIn`] when there is no session.
    pub fn build(self) -> Result<Client> {
        let session = match (self.session, &self.store) {
            (Some(session), _) => session,
            (None, Some(store)) => {
                store.load()?.ok_or_else(|| Error::NotSignedIn { data_dir: store.dir().to_path_buf() })?
            }
            (None, None) => {
                return Err(Error::InvalidInput("a Garmin client needs a session or a session store".into()));
            }
        };
        let http = crate::https::client_builder()?
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(Duration::from_secs(10))
            .timeout(self.timeout)
            .build()
            .map_err(|e| Error::InvalidInput(format!("could not set up HTTPS: {e}")))?;
        let stamp = self.store.as_ref().and_then(SessionStore::stamp);
        Ok(Client {
            inner: Arc::new(Inner {
                http,
                store: self.store,
                cached: Mutex::new(Cached { session, stamp }),
                refresh_gate: tokio::sync::Mutex::new(()),
                limiter: Semaphore::new(self.max_concurrency),
                max_concurrency: self.max_concurrency,
                retry: self.retry,
            }),
        })
    }
}

/// How a call wants its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Accept {
    Api,
    Any,
}

/// Prefix of the data API on the Connect origin.
const GC_API: &str = "/gc-api";

/// One request: under `/gc-api`, or (`base: ""`) at a bare path of the Connect origin.
struct Call<'a> {
    method: Method,
    /// [`GC_API`], or empty for the few API paths outside it.
    base: &'static str,
    path: &'a str,
    query: &'a [(&'a str, String)],
    body: Option<Vec<u8>>,
    accept: Accept,
}

impl Call<'_> {
    fn endpoint(&self) -> String {
        format!("{} {}", self.method, self.full_path())
    }

    /// The path on the Connect origin, prefix included.
    fn full_path(&self) -> String {
        format!("{}{}", self.base, self.path)
    }

    /// A 5xx that repeating cannot cure: Garmin's exporter answers 500 for a conversion it cannot
    /// make (a TCX of an activity uploaded as GPX, docs/garmin-web-api.md §0 from
    /// garmin-connect-export), so an export's 500 is answered at once instead of asked four times.
    fn fails_for_good(&self, status: u16) -> bool {
        status == 500 && self.path.starts_with(EXPORT_PATH)
    }
}

/// Prefix of Garmin's file conversions (`/download-service/export/{format}/activity/{id}`).
const EXPORT_PATH: &str = "/download-service/export/";

/// A successful answer.
struct Answer {
    status: u16,
    body: Vec<u8>,
}

/// The account a session belongs to, as Garmin reports it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Account {
    /// displayName.
    pub display_name: String,
    /// Numeric profile id.
    pub profile_id: Option<u64>,
    /// Full name.
    pub full_name: Option<String>,
}

impl Client {
    /// A builder.
    pub fn builder() -> ClientBuilder {
        ClientBuilder::default()
    }

    /// A client on the session saved in `store`.
    pub fn from_store(store: SessionStore) -> Result<Client> {
        Client::builder().store(store).build()
    }

    /// A copy of the session as this client currently knows it.
    pub fn session(&self) -> Session {
        self.cached().session.clone()
    }

    /// What can be shown about the session.
    pub fn info(&self) -> SessionInfo {
        self.cached().session.info()
    }

    /// The session's site.
    pub fn site(&self) -> Site {
        self.cached().session.site
    }

    /// The account's displayName, used in many paths (empty when unknown; Garmin accepts an empty
    /// displayName on several daily-summary paths).
    pub fn display_name(&self) -> String {
        self.cached().session.display_name.clone().unwrap_or_default()
    }

    /// The account's profile id, when known.
    pub fn profile_id(&self) -> Option<u64> {
        self.cached().session.profile_id
    }

    /// Most requests in flight at once.
    pub fn max_concurrency(&self) -> usize {
        self.inner.max_concurrency
    }

    /// Proves the session works with one cheap authenticated call
    /// (`GET /gc-api/userprofile-service/socialProfile`), renewing it if needed like any call, and
    /// records who the account is in the session.
    pub async fn verify(&self) -> Result<Account> {
        #[derive(serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Social {
            display_name: Option<String>,
            profile_id: Option<u64>,
            full_name: Option<String>,
        }
        let endpoint = "GET /gc-api/userprofile-service/socialProfile";
        let social: Social =
            self.get_json("/userprofile-service/socialProfile", &[]).await?.ok_or_else(|| Error::Decode {
                endpoint: endpoint.into(),
                field: ".".into(),
                message: "empty answer".into(),
            })?;
        let display_name = social.display_name.filter(|d| !d.is_empty()).ok_or_else(|| Error::Decode {
            endpoint: endpoint.into(),
            field: "displayName".into(),
            message: "missing".into(),
        })?;
        let account = Account { display_name, profile_id: social.profile_id, full_name: social.full_name };
        self.record_account(&account).await?;
        Ok(account)
    }

    /// `GET` any `/gc-api` path and return its JSON as is; `None` for Garmin's "no data" forms.
    /// An escape hatch for endpoints without a typed method (and for `garmin-mcp api`).
    pub async fn get_value(&self, path: &str, query: &[(&str, String)]) -> Result<Option<serde_json::Value>> {
        self.get_json(path, query).await
    }

    /// `GET` JSON; `None` for 204, an empty body or `null`.
    pub(crate) async fn get_json<T: DeserializeOwned>(
        &self,
        path: &str,
        query: &[(&str, String)],
    ) -> Result<Option<T>> {
        let call = Call { method: Method::GET, base: GC_API, path, query, body: None, accept: Accept::Api };
        let endpoint = call.endpoint();
        let answer = self.execute(&call).await?;
        decode(&endpoint, answer)
    }

    /// `GET` JSON from a path of the Connect origin outside `/gc-api` (e.g. `/race-search/events`),
    /// through the same pipeline: session headers, renewal, retries. `None` for "no data".
    pub(crate) async fn get_json_outside_api<T: DeserializeOwned>(
        &self,
        path: &str,
        query: &[(&str, String)],
    ) -> Result<Option<T>> {
        let call = Call { method: Method::GET, base: "", path, query, body: None, accept: Accept::Api };
        let endpoint = call.endpoint();
        let answer = self.execute(&call).await?;
        decode(&endpoint, answer)
    }

    /// `GET` a file (`Accept: */*`); `None` for 204 or an empty body.
    pub(crate) async fn get_bytes(&self, path: &str, query: &[(&str, String)]) -> Result<Option<Vec<u8>>> {
        let (status, body) = self.get_file(path, query).await?;
        Ok((status != 204 && !body.is_empty()).then_some(body))
    }

    /// `GET` a file (`Accept: */*`) and return the status with the body, for callers that tell
    /// 204 No Content from an empty 200.
    pub(crate) async fn get_file(&self, path: &str, query: &[(&str, String)]) -> Result<(u16, Vec<u8>)> {
        let call = Call { method: Method::GET, base: GC_API, path, query, body: None, accept: Accept::Any };
        let answer = self.execute(&call).await?;
        Ok((answer.status, answer.body))
    }

    /// `POST`/`PUT` a JSON body and decode the JSON answer (`None` for 204/empty). Never retried
    /// except after a 401/403 renewal, which Garmin answers before applying anything.
    pub(crate) async fn send_json<B: Serialize + ?Sized, T: DeserializeOwned>(
        &self,
        method: Method,
        path: &str,
        body: &B,
    ) -> Result<Option<T>> {
        let bytes = serde_json::to_vec(body)
            .map_err(|e| Error::InvalidInput(format!("could not encode the request: {e}")))?;
        let call = Call { method, base: GC_API, path, query: &[], body: Some(bytes), accept: Accept::Api };
        let endpoint = call.endpoint();
        let answer = self.execute(&call).await?;
        decode(&endpoint, answer)
    }

    /// `DELETE` a path; success is any 2xx.
    pub(crate) async fn delete(&self, path: &str) -> Result<()> {
        let call =
            Call { method: Method::DELETE, base: GC_API, path, query: &[], body: None, accept: Accept::Api };
        self.execute(&call).await.map(|_| ())
    }

    async fn execute(&self, call: &Call<'_>) -> Result<Answer> {
        let _slot = self
            .inner
            .limiter
            .acquire()
            .await
            .map_err(|_| Error::InvalidInput("the Garmin client was shut down".into()))?;
        self.pick_up_saved_session()?;
        self.renew_if_due().await?;

        let is_read = call.method == Method::GET;
        let mut retries = 0;
        let mut auth_recoveries = 0;
        let mut renewed_ourselves = false;
        let mut page_reread = false;
        let mut moved = false;
        loop {
            let session = self.session();
            let used = session.credential();
            let request = self.build_request(call, &session)?;
            let response = match self.inner.http.execute(request).await {
                Ok(response) => response,
                Err(e) => {
                    let transient = e.is_timeout() || e.is_connect();
                    if is_read
                        && transient
                        && let Some(wait) = self.inner.retry.wait_before(retries, None)
                    {
                        tracing::debug!(endpoint = %call.endpoint(), ?wait, "network error; retrying");
                        tokio::time::sleep(wait).await;
                        retries += 1;
                        continue;
                    }
                    return Err(crate::error::network(call.method.as_str(), &call.full_path(), &e));
                }
            };
            let status = response.status().as_u16();
            let seen = Seen {
                through_garmin: response.headers().contains_key("cf-cache-status"),
                location: response.headers().get(LOCATION).and_then(|v| v.to_str().ok()).map(str::to_owned),
                url: response.url().clone(),
            };
            let retry_after = response
                .headers()
                .get(RETRY_AFTER)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| parse_retry_after(v, Utc::now()));
            self.absorb_set_cookies(response.headers(), &used).await?;
            let body = crate::answer_cap::read(
                response,
                crate::answer_cap::MAX_DATA_BYTES,
                call.method.as_str(),
                &call.full_path(),
            )
            .await?;

            let outcome = classify(status, &body, &seen, &call.full_path(), &session);
            match outcome {
                Outcome::Ok => return Ok(Answer { status, body }),
                Outcome::Forbidden(kind, message) => {
                    tracing::debug!(endpoint = %call.endpoint(), ?kind, "403 that is not about the session");
                    return Err(Error::Forbidden { kind, endpoint: call.endpoint(), message });
                }
                Outcome::FrontEnd(moved_to) => {
                    if moved {
                        return Err(Error::Rejected {
                            status,
                            endpoint: call.endpoint(),
                            message: "Garmin kept redirecting between its Connect front ends".into(),
                        });
                    }
                    moved = true;
                    self.move_to_front_end(&session, &used, moved_to).await?;
                    continue;
                }
                Outcome::Refused => {
                    // A bare 403 from Garmin itself (stale CSRF, refused cookies): pick up another
                    // process's renewal, else re-read the Connect page once. Neither presents a
                    // refresh credential.
                    if page_reread {
                        let hint =
                            session.missing_cookie_hint().map(|h| format!("; {h}")).unwrap_or_default();
                        return Err(self.expired(format!(
                            "Garmin refused the session with HTTP 403 even after re-reading the Connect page{hint}"
                        )));
                    }
                    page_reread = true;
                    tracing::debug!(endpoint = %call.endpoint(), "bare 403 from Garmin; re-reading the Connect page");
                    self.reread_page(&used).await?;
                    continue;
                }
                Outcome::Auth => {
                    auth_recoveries += 1;
                    if auth_recoveries > MAX_AUTH_RECOVERIES {
                        return Err(self.expired(format!("Garmin kept answering HTTP {status}")));
                    }
                    tracing::debug!(endpoint = %call.endpoint(), status, "session refused; renewing");
                    // The credentials changed (our renewal or someone else's): repeat the call.
                    self.recover(&used, &mut renewed_ourselves, status).await?;
                    continue;
                }
                Outcome::RateLimited | Outcome::Server => {
                    let wait = if is_read && !call.fails_for_good(status) {
                        self.inner.retry.wait_before(retries, retry_after)
                    } else {
                        None
                    };
                    if let Some(wait) = wait {
                        tracing::debug!(endpoint = %call.endpoint(), status, ?wait, "backing off");
                        tokio::time::sleep(wait).await;
                        retries += 1;
                        continue;
                    }
                    return Err(if matches!(outcome, Outcome::RateLimited) {
                        Error::RateLimited { retry_after }
                    } else {
                        Error::Server { status, endpoint: call.endpoint() }
                    });
                }
                Outcome::NotFound => return Err(Error::NotFound { endpoint: call.endpoint() }),
                Outcome::NeedsSubscription(message) => {
                    return Err(Error::NeedsSubscription { endpoint: call.endpoint(), message });
                }
                Outcome::Rejected(message) => {
                    return Err(Error::Rejected { status, endpoint: call.endpoint(), message });
                }
            }
        }
    }

    fn build_request(&self, call: &Call<'_>, session: &Session) -> Result<reqwest::Request> {
        let url = format!("{}{}", session.origins.connect, call.full_path());
        let mut builder = self
            .inner
            .http
            .request(call.method.clone(), &url)
            .headers(browser_headers(session, &url))
            .header("Connect-Csrf-Token", session.csrf_token.as_str())
            .header("Sec-Fetch-Site", "same-origin")
            .header("Sec-Fetch-Mode", "cors")
            .header(ACCEPT, if call.accept == Accept::Api { ACCEPT_API } else { "*/*" });
        if !call.query.is_empty() {
            builder = builder.query(call.query);
        }
        if let Some(body) = &call.body {
            builder = builder.header(CONTENT_TYPE, "application/json").body(body.clone());
        }
        builder.build().map_err(|e| {
            Error::InvalidInput(format!("could not build the request to {}: {e}", call.endpoint()))
        })
    }

    fn cached(&self) -> MutexGuard<'_, Cached> {
        // A poisoned lock only means another thread panicked mid-update of plain data; keep going.
        self.inner.cached.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn adopt(&self, session: Session) {
        let stamp = self.inner.store.as_ref().and_then(SessionStore::stamp);
        *self.cached() = Cached { session, stamp };
    }

    /// Another process (the app, another sidecar) may have renewed or replaced the session.
    fn pick_up_saved_session(&self) -> Result<()> {
        let Some(store) = &self.inner.store else { return Ok(()) };
        let stamp = store.stamp();
        if stamp == self.cached().stamp {
            return Ok(());
        }
        match store.load()? {
            Some(saved) => {
                *self.cached() = Cached { session: saved, stamp };
                Ok(())
            }
            None => Err(Error::NotSignedIn { data_dir: store.dir().to_path_buf() }),
        }
    }

    /// Proactive renewal when the access cookie is about to expire. A failure here is not final
    /// (Garmin has accepted calls after `exp`), except when the session is clearly gone.
    async fn renew_if_due(&self) -> Result<()> {
        if !self.session().access_due_for_refresh(Utc::now()) {
            return Ok(());
        }
        let used = self.session().credential();
        match self.renew_under_lock(&used, RenewMode::IfDue).await {
            Ok(_) => Ok(()),
            Err(e) if e.needs_sign_in() => Err(e),
            Err(e) => {
                tracing::debug!(error = %e, "proactive session renewal failed; trying the call anyway");
                Ok(())
            }
        }
    }

    async fn recover(&self, used: &Credential, renewed_ourselves: &mut bool, status: u16) -> Result<()> {
        let mode = if *renewed_ourselves { RenewMode::AdoptOnly } else { RenewMode::Always };
        match self.renew_under_lock(used, mode).await? {
            Renewal::Renewed => {
                *renewed_ourselves = true;
                Ok(())
            }
            Renewal::Adopted => Ok(()),
            Renewal::Unchanged => {
                Err(self.expired(format!("Garmin refused the renewed session (HTTP {status})")))
            }
        }
    }

    /// The heart of never losing the session: one renewal at a time in this process (gate) and
    /// across processes (file lock); re-read under the lock; adopt someone else's renewal; renew
    /// and save before the lock is released.
    async fn renew_under_lock(&self, used: &Credential, mode: RenewMode) -> Result<Renewal> {
        let _gate = self.inner.refresh_gate.lock().await;
        if self.session().credential() != *used {
            return Ok(Renewal::Adopted);
        }
        let Some(store) = self.inner.store.clone() else {
            // In-memory session (being validated before it is saved).
            if mode == RenewMode::AdoptOnly {
                return Ok(Renewal::Unchanged);
            }
            let renewed = refresh::renew(&self.inner.http, &self.session()).await.result?;
            *self.cached() = Cached { session: renewed, stamp: None };
            return Ok(Renewal::Renewed);
        };
        let (lock, saved) = locked_saved_session(store).await?;
        if saved.credential() != *used {
            tracing::debug!("another process renewed the session; using its result");
            self.adopt(saved);
            return Ok(Renewal::Adopted);
        }
        match mode {
            RenewMode::AdoptOnly => return Ok(Renewal::Unchanged),
            RenewMode::IfDue if !saved.access_due_for_refresh(Utc::now()) => return Ok(Renewal::Unchanged),
            RenewMode::IfDue | RenewMode::Always => {}
        }
        let renewed = if saved.renewal_in_flight.is_some() {
            // An earlier renewal presented this credential and never saved its result (the process
            // died, or Garmin's answer was lost): presenting it again would be a replay. Recover
            // through the paths that spend nothing, or ask the person.
            tracing::warn!("an earlier session renewal did not finish; recovering without its credential");
            let interrupted =
                "an earlier renewal was interrupted after presenting the one-time credential".to_owned();
            let recovered =
                refresh::recover_without_refresh(&self.inner.http, &saved, vec![interrupted]).await;
            if let Err(Error::SessionExpired { .. }) = &recovered {
                // Nothing left to try with this credential: the marker has done its job.
                let mut given_up = saved.clone();
                given_up.renewal_in_flight = None;
                lock.write(&given_up)?;
            }
            recovered?
        } else {
            // Record the renewal before spending the credential, so that a process killed while
            // waiting for Garmin's answer leaves a trace the next renewal respects.
            let mut marked = saved.clone();
            marked.renewal_in_flight = Some(Utc::now());
            lock.write(&marked)?;
            let attempt = refresh::renew(&self.inner.http, &marked).await;
            match attempt.result {
                Ok(renewed) => renewed,
                Err(e) => {
                    if !attempt.credential_maybe_spent {
                        // Garmin refused without taking anything: nothing in flight any more.
                        lock.write(&saved)?;
                    }
                    return Err(e);
                }
            }
        };
        // Keep it in memory first: even if saving fails, this process must not present the spent
        // credential again.
        *self.cached() = Cached { session: renewed.clone(), stamp: None };
        lock.write(&renewed)?;
        drop(lock);
        self.adopt(renewed);
        tracing::info!("renewed the Garmin session");
        Ok(Renewal::Renewed)
    }

    /// Merges an answer's `Set-Cookie`s into the saved session (under the lock, re-reading first).
    /// Credential cookies from an answer to a request made with superseded credentials are
    /// ignored, so a late answer can never roll back another process's renewal.
    async fn absorb_set_cookies(&self, headers: &HeaderMap, used: &Credential) -> Result<()> {
        let set_cookies = set_cookie_headers(headers);
        if set_cookies.is_empty() {
            return Ok(());
        }
        let mut preview = self.session();
        if !apply_set_cookies(&mut preview, &set_cookies) {
            return Ok(());
        }
        let Some(store) = self.inner.store.clone() else {
            *self.cached() = Cached { session: preview, stamp: None };
            return Ok(());
        };
        let used = used.clone();
        let saved = tokio::task::spawn_blocking(move || {
            store.update(|saved| {
                let mut saved = saved?;
                let current = saved.credential() == used;
                let relevant: Vec<String> =
                    set_cookies.into_iter().filter(|h| current || !is_credential_cookie(h)).collect();
                apply_set_cookies(&mut saved, &relevant);
                Some(saved)
            })
        })
        .await
        .map_err(|e| Error::InvalidInput(format!("session update task failed: {e}")))??;
        if let Some(saved) = saved {
            self.adopt(saved);
        }
        Ok(())
    }

    async fn record_account(&self, account: &Account) -> Result<()> {
        let current = self.session();
        if current.display_name.as_deref() == Some(&account.display_name)
            && current.profile_id == account.profile_id.or(current.profile_id)
        {
            return Ok(());
        }
        let apply = {
            let account = account.clone();
            move |mut s: Session| {
                s.display_name = Some(account.display_name.clone());
                s.profile_id = account.profile_id.or(s.profile_id);
                s.full_name = account.full_name.clone().or(s.full_name);
                s
            }
        };
        let account_of = current.credential();
        self.update_saved_session(current, &account_of, apply).await
    }

    /// Applies `apply` to the session: to the saved file under its lock (only while the file still
    /// holds the credential `used`, so another process's newer session is never overwritten), or
    /// to the in-memory copy `current` when the client has no store. Adopts what was saved.
    async fn update_saved_session(
        &self,
        current: Session,
        used: &Credential,
        apply: impl Fn(Session) -> Session + Send + 'static,
    ) -> Result<()> {
        let Some(store) = self.inner.store.clone() else {
            *self.cached() = Cached { session: apply(current), stamp: None };
            return Ok(());
        };
        let used = used.clone();
        let saved = tokio::task::spawn_blocking(move || {
            store.update(|saved| saved.map(|s| if s.credential() == used { apply(s) } else { s }))
        })
        .await
        .map_err(|e| Error::InvalidInput(format!("session update task failed: {e}")))??;
        if let Some(saved) = saved {
            self.adopt(saved);
        }
        Ok(())
    }

    fn expired(&self, detail: String) -> Error {
        Error::SessionExpired { site: self.site(), detail }
    }

    /// Garmin sent the call to another Connect front end of the same site. When the session's
    /// access cookie goes to that host (a browser would send it), the session moves there (saved,
    /// so every process follows); otherwise the person must sign in on this network.
    async fn move_to_front_end(&self, session: &Session, used: &Credential, moved_to: String) -> Result<()> {
        let host =
            url::Url::parse(&moved_to).ok().and_then(|u| u.host_str().map(str::to_owned)).unwrap_or_default();
        let carried = browser_headers_carry_access(session, &host);
        if !carried {
            return Err(Error::OtherFrontEnd {
                site: session.site,
                session_front_end: session.origins.connect.clone(),
                moved_to,
            });
        }
        tracing::info!(front_end = %crate::site::describe_front_end(&moved_to), "Garmin moved the session to another Connect front end");
        let apply = {
            let moved_to = moved_to.clone();
            move |mut s: Session| {
                s.origins.connect = moved_to.clone();
                s
            }
        };
        self.update_saved_session(self.session(), used, apply).await
    }

    /// After a bare 403 from Garmin: adopt another process's renewal, else re-read the Connect page
    /// for the current CSRF token and cookies, else sign in silently through the SSO (neither
    /// presents a refresh credential). Under the same
    /// gate and lock as a renewal, saved before the lock is released.
    async fn reread_page(&self, used: &Credential) -> Result<()> {
        let _gate = self.inner.refresh_gate.lock().await;
        if self.session().credential() != *used {
            return Ok(());
        }
        let Some(store) = self.inner.store.clone() else {
            if let Some(renewed) = recovered(
                refresh::recover_without_refresh(&self.inner.http, &self.session(), Vec::new()).await,
            )? {
                *self.cached() = Cached { session: renewed, stamp: None };
            }
            return Ok(());
        };
        let (lock, saved) = locked_saved_session(store).await?;
        if saved.credential() != *used {
            self.adopt(saved);
            return Ok(());
        }
        if let Some(renewed) =
            recovered(refresh::recover_without_refresh(&self.inner.http, &saved, Vec::new()).await)?
        {
            *self.cached() = Cached { session: renewed.clone(), stamp: None };
            lock.write(&renewed)?;
            drop(lock);
            self.adopt(renewed);
        }
        Ok(())
    }
}

/// Takes the session file's lock (on the blocking pool: it may wait for another process) and reads
/// the saved session under it; [`Error::NotSignedIn`] when there is none. Renewals and page
/// re-reads both start here.
async fn locked_saved_session(store: SessionStore) -> Result<(StoreLock, Session)> {
    let data_dir = store.dir().to_path_buf();
    let lock = tokio::task::spawn_blocking(move || store.lock())
        .await
        .map_err(|e| Error::InvalidInput(format!("session lock task failed: {e}")))??;
    let Some(saved) = lock.read()? else {
        return Err(Error::NotSignedIn { data_dir });
    };
    Ok((lock, saved))
}

/// A recovery that found nothing to renew with is not an error here: the repeated call then says
/// what Garmin thinks of the session.
fn recovered(attempt: Result<Session>) -> Result<Option<Session>> {
    match attempt {
        Ok(renewed) => Ok(Some(renewed)),
        Err(Error::SessionExpired { detail, .. }) => {
            tracing::debug!(%detail, "no way to renew the session without a refresh credential");
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

/// Would a browser send the session's access cookie to `host`?
fn browser_headers_carry_access(session: &Session, host: &str) -> bool {
    let connect_host = crate::site::host_of(&session.origins.connect);
    let connect_host = connect_host.split(':').next().unwrap_or_default();
    session.cookies.iter().any(|c| {
        c.name == ACCESS_COOKIE
            && !c.value.is_empty()
            && crate::cookies::domain_matches(c.domain.as_deref(), host, connect_host)
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RenewMode {
    /// Renew unless someone else already did (reactive, after a 401/403).
    Always,
    /// Renew only if the saved session is still due (proactive).
    IfDue,
    /// Never renew ourselves; only adopt someone else's renewal.
    AdoptOnly,
}

enum Renewal {
    Renewed,
    Adopted,
    Unchanged,
}

fn is_credential_cookie(set_cookie: &str) -> bool {
    let name = set_cookie.split('=').next().unwrap_or_default().trim();
    name == ACCESS_COOKIE || name == SESSION_COOKIE
}

enum Outcome {
    Ok,
    /// 401, or a redirect to a sign-in page: renew.
    Auth,
    /// A bare 403 from Garmin's servers (stale CSRF, refused cookies): re-read, never renew.
    Refused,
    /// A 403 that is not about the session.
    Forbidden(ForbiddenKind, String),
    /// A redirect to the same path on another Connect front end of the session's site.
    FrontEnd(String),
    RateLimited,
    Server,
    NotFound,
    /// 402: behind Garmin Connect+.
    NeedsSubscription(String),
    Rejected(String),
}

/// What an answer showed besides its status and body.
struct Seen {
    /// It carries `cf-cache-status`, so it passed Cloudflare to Garmin's servers.
    through_garmin: bool,
    /// Its `Location`.
    location: Option<String>,
    /// The URL that was requested.
    url: url::Url,
}

fn classify(status: u16, body: &[u8], seen: &Seen, path: &str, session: &Session) -> Outcome {
    match status {
        200 if is_rate_limit_body(body) => Outcome::RateLimited,
        200..=299 => Outcome::Ok,
        300..=399 => classify_redirect(seen, session),
        401 => Outcome::Auth,
        403 => classify_403(body, seen.through_garmin, path),
        402 => Outcome::NeedsSubscription(garmin_message(body)),
        404 => Outcome::NotFound,
        429 => Outcome::RateLimited,
        500..=599 => Outcome::Server,
        _ => Outcome::Rejected(garmin_message(body)),
    }
}

/// The API never redirects a signed-in call: a redirect is either the bounce to sign-in (renew),
/// or Garmin sending the call to another of the site's Connect front ends.
fn classify_redirect(seen: &Seen, session: &Session) -> Outcome {
    let Some(target) = seen.location.as_deref().and_then(|l| seen.url.join(l).ok()) else {
        return Outcome::Rejected("Garmin answered with a redirect to nowhere".into());
    };
    let lower_path = target.path().to_ascii_lowercase();
    let sign_in = ["sign-in", "signin", "login", "/sso/"].iter().any(|w| lower_path.contains(w))
        || target.host_str().is_some_and(|h| h.starts_with("sso."));
    if sign_in {
        return Outcome::Auth;
    }
    let origin = target.origin().ascii_serialization();
    let current = session.origins.connect.trim_end_matches('/');
    let same_call = target.path() == seen.url.path();
    let known = session.site.front_ends().iter().any(|f| f.eq_ignore_ascii_case(&origin))
        || (crate::site::is_loopback(&origin) && crate::site::is_loopback(current));
    if same_call && known && !origin.eq_ignore_ascii_case(current) {
        return Outcome::FrontEnd(origin);
    }
    Outcome::Rejected(format!(
        "Garmin redirected the request to {}{}",
        target.host_str().unwrap_or_default(),
        target.path()
    ))
}

/// The kinds of 403 (docs/garmin-web-api.md §0): Garmin's JSON words (another athlete's item,
/// `ForbiddenException` for the account or for a feature it lacks), Cloudflare's edge (an empty or
/// HTML body without `cf-cache-status`), or a bare refusal from Garmin itself.
fn classify_403(body: &[u8], through_garmin: bool, path: &str) -> Outcome {
    if let Some(message) = not_owner_message(body) {
        return Outcome::Forbidden(ForbiddenKind::NotOwner, message);
    }
    if let Ok(value) = serde_json::from_slice::<serde_json::Value>(body)
        && value.is_object()
    {
        let message = garmin_message(body);
        let words = message.to_ascii_lowercase();
        let feature = FEATURE_SERVICES.iter().any(|s| path.contains(s))
            || ["feature", "subscription", "not supported", "not entitled", "not available"]
                .iter()
                .any(|w| words.contains(w));
        let kind = if feature { ForbiddenKind::Feature } else { ForbiddenKind::Account };
        return Outcome::Forbidden(kind, message);
    }
    if through_garmin {
        return Outcome::Refused;
    }
    let text = String::from_utf8_lossy(body);
    let what = if text.trim().is_empty() { "an empty answer" } else { "Cloudflare's \"Access denied\" page" };
    Outcome::Forbidden(ForbiddenKind::CloudflareEdge, format!("{what}, without Garmin's cf-cache-status"))
}

/// Garmin sometimes rate-limits with HTTP 200 and `{"error": {"status-code": "429"}}`.
fn is_rate_limit_body(body: &[u8]) -> bool {
    if body.len() > 4096 || !body.windows(11).any(|w| w == b"status-code") {
        return false;
    }
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(body) else { return false };
    match value.pointer("/error/status-code") {
        Some(serde_json::Value::String(s)) => s == "429",
        Some(serde_json::Value::Number(n)) => n.as_u64() == Some(429),
        _ => false,
    }
}

/// A 403 with Garmin's JSON "not the owner" body is about this item, not the session.
fn not_owner_message(body: &[u8]) -> Option<String> {
    let value: serde_json::Value = serde_json::from_slice(body).ok()?;
    let error = value.get("error").and_then(|e| e.as_str()).unwrap_or_default();
    let message = value.get("message").and_then(|m| m.as_str()).unwrap_or_default();
    (error == "UnauthorizedException" || message.to_ascii_lowercase().contains("owner")).then(|| {
        if message.is_empty() {
            "this item belongs to another account".to_owned()
        } else {
            message.to_owned()
        }
    })
}

/// Garmin's human words from an error body: `message`, `content`, `clientMessage`, an upload
/// failure's first message, or a short description of the body.
pub(crate) fn garmin_message(body: &[u8]) -> String {
    if let Ok(value) = serde_json::from_slice::<serde_json::Value>(body) {
        let candidates = [
            "/message",
            "/content",
            "/clientMessage",
            "/detailedImportResult/failures/0/messages/0/content",
            "/error",
        ];
        for pointer in candidates {
            if let Some(text) = value.pointer(pointer).and_then(|v| v.as_str()).filter(|t| !t.is_empty()) {
                return text.to_owned();
            }
        }
    }
    let text = String::from_utf8_lossy(body);
    let text = text.trim();
    if text.is_empty() {
        "no details given".to_owned()
    } else if text.starts_with('<') {
        "Garmin answered with an HTML page".to_owned()
    } else {
        text.chars().take(200).collect()
    }
}

fn decode<T: DeserializeOwned>(endpoint: &str, answer: Answer) -> Result<Option<T>> {
    decode_body(endpoint, answer.status, &answer.body)
}

/// A JSON answer body typed; `None` for Garmin's "no data" forms (204, empty, `null`). Shared by
/// the web client and the Personal API client.
pub(crate) fn decode_body<T: DeserializeOwned>(
    endpoint: &str,
    status: u16,
    body: &[u8],
) -> Result<Option<T>> {
    let body = body.trim_ascii();
    if status == 204 || body.is_empty() || body == b"null" {
        return Ok(None);
    }
    let mut de = serde_json::Deserializer::from_slice(body);
    serde_path_to_error::deserialize(&mut de).map(Some).map_err(|e| Error::Decode {
        endpoint: endpoint.to_owned(),
        field: e.path().to_string(),
        message: e.inner().to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session() -> Session {
        Session::from_cookie_header(Site::Global, Site::Global.default_origins(), "JWT_WEB=j", "t", "UA")
            .unwrap()
    }

    fn seen(through_garmin: bool, location: Option<&str>) -> Seen {
        Seen {
            through_garmin,
            location: location.map(str::to_owned),
            url: url::Url::parse("https://connect.garmin.com/gc-api/x-service/y?z=1").unwrap(),
        }
    }

    fn classify_403_at(body: &[u8], through_garmin: bool, path: &str) -> Outcome {
        classify(403, body, &seen(through_garmin, None), path, &session())
    }

    #[test]
    fn rate_limit_in_a_200_body_is_recognised() {
        let s = session();
        assert!(matches!(
            classify(200, br#"{"error":{"status-code":"429"}}"#, &seen(true, None), "/x", &s),
            Outcome::RateLimited
        ));
        assert!(matches!(
            classify(200, br#"{"status-code":"ok"}"#, &seen(true, None), "/x", &s),
            Outcome::Ok
        ));
    }

    #[test]
    fn only_a_401_asks_for_a_renewal() {
        assert!(matches!(classify(401, b"", &seen(true, None), "/x", &session()), Outcome::Auth));
        assert!(matches!(classify_403_at(b"", true, "/x"), Outcome::Refused));
    }

    #[test]
    fn not_owner_403_is_not_a_session_problem() {
        let body =
            br#"{"message": "Only owner of activity 1 can download it", "error": "UnauthorizedException"}"#;
        assert!(matches!(
            classify_403_at(body, true, "/download-service/x"),
            Outcome::Forbidden(ForbiddenKind::NotOwner, m) if m.starts_with("Only owner")
        ));
    }

    #[test]
    fn the_403_kinds_are_told_apart_by_body_path_and_cf_cache_status() {
        let garmin = br#"{"message":"HTTP 403 Forbidden","error":"ForbiddenException"}"#;
        assert!(matches!(
            classify_403_at(garmin, true, "/gc-api/userprofile-service/x"),
            Outcome::Forbidden(ForbiddenKind::Account, m) if m == "HTTP 403 Forbidden"
        ));
        assert!(matches!(
            classify_403_at(garmin, true, "/gc-api/hrv-service/hrv/2026-11-28"),
            Outcome::Forbidden(ForbiddenKind::Feature, _)
        ));
        for edge in [&b""[..], b"<html><title>Access denied</title></html>"] {
            assert!(matches!(
                classify_403_at(edge, false, "/gc-api/x"),
                Outcome::Forbidden(ForbiddenKind::CloudflareEdge, _)
            ));
        }
        assert!(matches!(classify_403_at(b"<html></html>", true, "/gc-api/x"), Outcome::Refused));
    }

    #[test]
    fn redirects_are_a_sign_in_bounce_a_front_end_move_or_a_refusal() {
        let s = session();
        let to = |l: &str| classify(302, b"", &seen(true, Some(l)), "/x", &s);
        assert!(matches!(to("https://sso.garmin.com/portal/sso/en-US/sign-in?service=x"), Outcome::Auth));
        assert!(matches!(to("/signin/"), Outcome::Auth));
        assert!(matches!(
            to("https://connectus.garmin.cn/gc-api/x-service/y?z=1"),
            Outcome::FrontEnd(o) if o == "https://connectus.garmin.cn"
        ));
        // Not a front end of international accounts, or not the same call: never followed.
        assert!(matches!(to("https://connect.garmin.cn/gc-api/x-service/y"), Outcome::Rejected(_)));
        assert!(matches!(to("https://evil.example/gc-api/x-service/y"), Outcome::Rejected(_)));
        assert!(matches!(to("https://connectus.garmin.cn/app/home"), Outcome::Rejected(_)));
    }

    #[test]
    fn cookies_of_connect_garmin_com_do_not_go_to_connectus() {
        let mut s = session();
        assert!(
            !browser_headers_carry_access(&s, "connectus.garmin.cn"),
            "host-only cookie of connect.garmin.com"
        );
        s.cookies[0].domain = Some(".garmin.com".into());
        assert!(!browser_headers_carry_access(&s, "connectus.garmin.cn"));
        assert!(browser_headers_carry_access(&s, "connect.garmin.com"));
    }

    #[test]
    fn garmin_error_words_are_found_where_garmin_puts_them() {
        assert_eq!(garmin_message(br#"{"message":"bad date"}"#), "bad date");
        let upload = br#"{"detailedImportResult":{"failures":[{"messages":[{"code":202,"content":"Duplicate Activity."}]}]}}"#;
        assert_eq!(garmin_message(upload), "Duplicate Activity.");
        assert_eq!(garmin_message(b"<html>denied</html>"), "Garmin answered with an HTML page");
    }

    #[test]
    fn no_data_forms_decode_to_none() {
        for (status, body) in [(204, &b""[..]), (200, b"  "), (200, b"null")] {
            let got: Option<serde_json::Value> =
                decode("GET /x", Answer { status, body: body.to_vec() }).unwrap();
            assert!(got.is_none());
        }
    }

    #[test]
    fn decode_errors_name_the_failing_field() {
        #[derive(Debug, serde::Deserialize)]
        struct T {
            #[allow(dead_code, reason = "only decoded, to see where decoding fails")]
            a: Vec<u32>,
        }
        let err =
            decode::<T>("GET /x", Answer { status: 200, body: br#"{"a":[1,"two"]}"#.to_vec() }).unwrap_err();
        assert!(matches!(&err, Error::Decode { field, .. } if field == "a[1]"), "{err}");
    }
}
