//! A faithful fake Garmin Connect web surface for tests and the offline demo account.
//!
//! One local server plays both origins: the Connect host (SPA pages under `/app/`, the data API
//! under `/gc-api/`, the refresh call) and the SSO host (the sign-in page). It imitates the *strict*
//! side of the real service — cookie session plus `Connect-Csrf-Token`, `Sec-Fetch-Site`, the
//! sign-in User-Agent, short-lived `JWT_WEB` cookies whose refresh credential is one-time — so client
//! bugs fail here rather than against Garmin. Faults, a request log and a control API make the
//! failure modes testable.
//!
//! | module | what |
//! |---|---|
//! | [`auth`] | session families, JWT/CSRF rotation, reuse detection |
//! | [`server`] | the router, the `/gc-api` gate, the refresh call, the loud catch-all |
//! | [`sso`] | the FAKE sign-in page and the `/app/` shell |
//! | [`faults`], [`log`], `admin` | switchable faults, request log, `/__fake/` control API (feature `control`) |
//! | [`data`], [`routes`] | the generated account and the `/gc-api` endpoints |
//! | [`personal`] | Garmin's official Personal API: keys, token exchange, bearer gate, 429 on bursts |
//! | [`key_page`] | the Personal API Key page on the Connect host: create a key, shown once |
//!
//! ```no_run
//! # async fn demo() -> std::io::Result<()> {
//! let fake = fake_garmin::FakeGarmin::start(fake_garmin::FakeConfig::default()).await?;
//! let session = fake.issue_session("Mozilla/5.0 (test)");
//! println!("{} {}", fake.base_url(), session.display_name);
//! fake.shutdown().await;
//! # Ok(()) }
//! ```
#![deny(missing_docs)]

#[cfg(feature = "control")]
pub mod admin;
pub mod auth;
pub mod config;
pub mod data;
pub mod faults;
pub mod key_page;
pub mod log;
pub mod personal;
pub mod routes;
pub mod server;
pub mod sso;
pub mod state;

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::time::Duration;

use tokio::sync::oneshot;
use tokio::task::JoinHandle;

pub use auth::{BrowserOptions, IssuedSession, RefreshAnswer, SessionOptions};
pub use config::{FakeConfig, FakeSite, Untracked};
pub use personal::{MintedKey, PersonalOptions};

use crate::state::{AppState, lock};

/// A running fake Garmin Connect on `127.0.0.1`. Dropping it stops the server too (without waiting).
pub struct FakeGarmin {
    addr: SocketAddr,
    state: AppState,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
    /// The connectus front end's listener, once started: address, stop signal, task.
    connectus: Option<(SocketAddr, oneshot::Sender<()>, JoinHandle<()>)>,
    /// Started by [`FakeGarmin::start_on_own_thread`]: dropping this ends that thread's runtime.
    own_thread: Option<oneshot::Sender<()>>,
}

impl FakeGarmin {
    /// Binds `127.0.0.1:config.port` (0 = any free port) and serves in a tokio task.
    pub async fn start(config: FakeConfig) -> std::io::Result<FakeGarmin> {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", config.port)).await?;
        let addr = listener.local_addr()?;
        let state = AppState::new(config);
        let (stop, task) = serve(listener, &state);
        Ok(FakeGarmin { addr, state, stop: Some(stop), task: Some(task), connectus: None, own_thread: None })
    }

    /// Starts the fake on a thread of its own, with its own runtime, as a remote Garmin would be:
    /// its answers (a day-long series takes a debug build seconds of CPU) never occupy the
    /// caller's runtime workers, so a server using it (the demo) keeps the timing it would have
    /// against the real Garmin. The thread ends when the returned fake is dropped.
    pub async fn start_on_own_thread(config: FakeConfig) -> std::io::Result<FakeGarmin> {
        let (started_tx, started) = oneshot::channel::<std::io::Result<FakeGarmin>>();
        std::thread::Builder::new().name("fake-garmin".to_owned()).spawn(move || {
            let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
                Ok(runtime) => runtime,
                Err(e) => {
                    let _ = started_tx.send(Err(e));
                    return;
                }
            };
            runtime.block_on(async move {
                let (keep_tx, kept) = oneshot::channel::<()>();
                match FakeGarmin::start(config).await {
                    Ok(mut fake) => {
                        fake.own_thread = Some(keep_tx);
                        if started_tx.send(Ok(fake)).is_ok() {
                            // Ends (with an error) when the fake, holding the sender, is dropped.
                            let _ = kept.await;
                        }
                    }
                    Err(e) => {
                        let _ = started_tx.send(Err(e));
                    }
                }
            });
        })?;
        started
            .await
            .map_err(|_| std::io::Error::other("the fake Garmin's thread ended before it started"))?
    }

    /// Starts a second origin on another port that plays `connectus.garmin.cn`, the in-China
    /// front end for international accounts (same accounts, same `/app` and `/gc-api`), and
    /// returns its URL. It answers only once [`Self::set_mainland_network`] sends clients there.
    pub async fn start_connectus(&mut self) -> std::io::Result<String> {
        if let Some((addr, _, _)) = &self.connectus {
            return Ok(format!("http://{addr}"));
        }
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0)).await?;
        let addr = listener.local_addr()?;
        let (stop, task) = serve(listener, &self.state);
        lock(&self.state.inner.front_ends).connectus_host = Some(addr.to_string());
        self.connectus = Some((addr, stop, task));
        Ok(format!("http://{addr}"))
    }

    /// The connectus origin, when started.
    pub fn connectus_url(&self) -> Option<String> {
        self.connectus.as_ref().map(|(addr, _, _)| format!("http://{addr}"))
    }

    /// On (a mainland-China network): the first origin answers every Connect request with a 302
    /// to the same path on the connectus origin; the SSO pages stay. Needs [`Self::start_connectus`].
    pub fn set_mainland_network(&self, on: bool) {
        lock(&self.state.inner.front_ends).mainland = on;
    }

    /// Changes how sign-ins and renewals answer (see [`SessionOptions`]).
    pub fn set_session_options(&self, options: SessionOptions) {
        lock(&self.state.inner.auth).set_session_options(options);
    }

    /// `http://127.0.0.1:PORT`: both the Connect origin and the SSO origin.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The sign-in page URL a login window would open (returns to `/app/`).
    pub fn sign_in_url(&self) -> String {
        let base = self.base_url();
        format!("{base}{}", sso::sign_in_path(self.state.config().site, &format!("{base}/app/")))
    }

    /// The shared state (config, sessions, faults, log, data).
    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Signs in as if the user had just done so on the SSO page with `user_agent`.
    pub fn issue_session(&self, user_agent: &str) -> IssuedSession {
        sso::issue_session(&self.state, user_agent)
    }

    /// Changes how the sign-in page and cookies treat a browser (see [`BrowserOptions`]); the
    /// desktop app's demo account turns `Secure` off (plain http) and the self-submitting form on.
    pub fn set_browser_options(&self, options: BrowserOptions) {
        lock(&self.state.inner.auth).set_browser_options(options);
    }

    /// Every request so far (admin calls excluded), oldest first.
    pub fn requests(&self) -> Vec<log::RecordedRequest> {
        lock(&self.state.inner.log).clone()
    }

    /// Forgets the request log.
    pub fn clear_requests(&self) {
        lock(&self.state.inner.log).clear();
    }

    /// Adds a fault rule after the existing ones.
    pub fn push_fault(&self, rule: faults::FaultRule) {
        lock(&self.state.inner.faults).push(rule);
    }

    /// Drops every fault rule.
    pub fn clear_faults(&self) {
        lock(&self.state.inner.faults).clear();
    }

    /// Times each refresh credential was presented to the refresh endpoint, keyed by a non-secret
    /// fingerprint (first 8 hex digits of a hash). Any value above 1 is a client bug.
    pub fn refresh_credential_uses(&self) -> BTreeMap<String, u32> {
        lock(&self.state.inner.auth).refresh_uses()
    }

    /// How many times a spent refresh credential was presented (each kills its session family).
    pub fn reuse_detected(&self) -> u32 {
        lock(&self.state.inner.auth).reuse_detected()
    }

    /// Ends every session family now (a password change, "sign out everywhere"): `/gc-api` answers
    /// 403, refreshes 401, the `/app/` page redirects to sign-in.
    pub fn end_sessions(&self) {
        lock(&self.state.inner.auth).end_sessions();
    }

    /// Makes every current `JWT_WEB` expired now, as if its lifetime had passed.
    pub fn expire_access_tokens(&self) {
        lock(&self.state.inner.auth).expire_access(auth::now_ms());
    }

    /// Creates a Personal API key valid for `valid_for`, as the person would on Garmin Connect's
    /// Personal API Key page (docs/garmin-personal-api.md §1). Serve the API through
    /// `GARMIN_PERSONAL_API_URL` = [`Self::base_url`].
    pub fn mint_personal_api_key(&self, valid_for: Duration) -> MintedKey {
        lock(&self.state.inner.personal).mint(valid_for)
    }

    /// Deletes a key on the key page: its exchanges are refused and its tokens die at once.
    pub fn revoke_personal_api_key(&self, key: &str) -> bool {
        lock(&self.state.inner.personal).revoke(key)
    }

    /// Makes a key expired now (and its tokens with it).
    pub fn expire_personal_api_key(&self, key: &str) -> bool {
        lock(&self.state.inner.personal).expire(key)
    }

    /// Every Personal API bearer token handed out so far is expired from now on.
    pub fn expire_personal_api_tokens(&self) {
        lock(&self.state.inner.personal).expire_tokens();
    }

    /// Times each key was presented to the token exchange, keyed by a non-secret fingerprint.
    pub fn personal_api_exchanges(&self) -> BTreeMap<String, u32> {
        lock(&self.state.inner.personal).exchanges()
    }

    /// Changes the Personal API's burst limit, `Retry-After` and latency.
    pub fn set_personal_options(&self, options: PersonalOptions) {
        lock(&self.state.inner.personal).set_options(options);
    }

    /// Stops accepting, lets in-flight requests finish (at most 5 s), and returns.
    pub async fn shutdown(mut self) {
        if let Some((_, stop, task)) = self.connectus.take() {
            let _ = stop.send(());
            task.abort();
        }
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(mut task) = self.task.take()
            && tokio::time::timeout(Duration::from_secs(5), &mut task).await.is_err()
        {
            task.abort();
        }
    }
}

impl std::fmt::Debug for FakeGarmin {
    // Address and site only: the state holds the whole data set and request log.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FakeGarmin")
            .field("addr", &self.addr)
            .field("site", &self.state.config().site)
            .finish_non_exhaustive()
    }
}

impl Drop for FakeGarmin {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some((_, stop, _)) = self.connectus.take() {
            let _ = stop.send(());
        }
    }
}

/// Serves the fake's router on `listener` in a tokio task; returns its stop signal and task.
fn serve(listener: tokio::net::TcpListener, state: &AppState) -> (oneshot::Sender<()>, JoinHandle<()>) {
    let app = server::router(state.clone());
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        let serve = axum::serve(listener, app).with_graceful_shutdown(async move {
            let _ = stopped.await;
        });
        if let Err(e) = serve.await {
            tracing::error!("fake-garmin server stopped: {e}");
        }
    });
    (stop, task)
}
