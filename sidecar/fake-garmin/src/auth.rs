//! The session model of Garmin Connect's web surface, kept strict so client bugs show up in tests.
//!
//! A sign-in creates a *session family*: a long-lived `session` cookie, a `SESSIONID`, a CSRF token
//! and a chain of short-lived `JWT_WEB` access cookies. Each `JWT_WEB` is also the family's one-time
//! refresh credential: refreshing with the current one rotates it (new generation, new CSRF) and
//! spends the old one; presenting a spent one is *reuse* and kills the whole family, the way rotating
//! refresh tokens behave at Garmin (reference §2.7). Only this module decides who is let in; the HTTP
//! glue lives in `server.rs`.
//!
//! Two switches make the fake's sign-ins look like other real ones (docs/garmin-web-api.md §0):
//! [`SessionOptions::session_cookie`] off hands out no `session` cookie (a 2025 capture shows only
//! `SESSIONID`, `JWT_WEB`, `JWT_FGP`), so such a family is known by its `JWT_WEB` alone; and
//! [`RefreshAnswer`] picks how the refresh call answers (tokens in the body, or the new `JWT_WEB` only
//! in `Set-Cookie`, which one independent client handles). The SSO's `CASTGC` ticket-granting cookie
//! and its one-time service tickets (`ST-…`) are kept here too, for the silent re-sign-in
//! python-garminconnect falls back to.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::{SystemTime, UNIX_EPOCH};

use axum::http::HeaderMap;
use axum::http::header::COOKIE;
use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::{Deserialize, Serialize};

use crate::FakeConfig;

/// Cookies and CSRF token of a freshly signed-in session, as a browser would hold them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IssuedSession {
    /// Connect-host cookies `(name, value)`: `session`, `SESSIONID`, `JWT_WEB`, `__cf_bm`.
    pub cookies: Vec<(String, String)>,
    /// The `<meta name="csrf-token">` value the SPA page would show.
    pub csrf_token: String,
    /// The account's displayName.
    pub display_name: String,
    /// The account's profile id.
    pub profile_id: u64,
    /// The User-Agent the session signed in with (the fake may insist on it).
    pub user_agent: String,
}

impl IssuedSession {
    /// The cookies as a browser's `Cookie` request header (`name=value; name=value`).
    pub fn cookie_header(&self) -> String {
        self.cookies.iter().map(|(n, v)| format!("{n}={v}")).collect::<Vec<_>>().join("; ")
    }
}

/// How the browser-facing pages treat a real browser (an app's webview): cookie attributes and the
/// sign-in form. Read by `sso.rs`; changed at run time with [`crate::FakeGarmin::set_browser_options`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BrowserOptions {
    /// Mark the cookies that sign-in sets `Secure`, as Garmin does. Browsers keep `Secure` cookies
    /// only from https origins, so a webview signing in to this fake over plain http needs this off.
    pub secure_cookies: bool,
    /// The sign-in page fills in demo credentials and submits itself after a moment: the desktop
    /// app's demo account, and UI tests whose WebDriver cannot reach the sign-in window.
    pub auto_sign_in: bool,
}

impl Default for BrowserOptions {
    fn default() -> Self {
        Self { secure_cookies: true, auto_sign_in: false }
    }
}

impl BrowserOptions {
    /// `"; Secure"` when cookies are marked Secure, else nothing: the tail of a `Set-Cookie`.
    pub fn secure_attribute(&self) -> &'static str {
        if self.secure_cookies { "; Secure" } else { "" }
    }
}

/// How sign-ins and renewals answer; changed at run time with
/// [`crate::FakeGarmin::set_session_options`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SessionOptions {
    /// Sign-ins set no `session` cookie (docs/garmin-web-api.md §0: only one 2026 source shows it;
    /// a 2025 capture has `SESSIONID`, `JWT_WEB`, `JWT_FGP`). Off by default: the strict model.
    pub no_session_cookie: bool,
    /// How the refresh call hands over the new `JWT_WEB`.
    pub refresh_answer: RefreshAnswer,
}

/// How `POST /services/auth/token/di-oauth/refresh` hands over the new `JWT_WEB`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RefreshAnswer {
    /// 201 with `{"encryptedToken", "csrfToken"}` and the cookie (the common case, §2.7 `[S]`).
    #[default]
    TokensInBody,
    /// 200 with an empty body; the new `JWT_WEB` only in `Set-Cookie`, the CSRF unchanged
    /// (docs/garmin-web-api.md §0 `[1]`: one client handles exactly this).
    CookieOnlyEmptyBody,
    /// 200 with a JSON body that carries no token (`{}`); the new `JWT_WEB` only in `Set-Cookie`.
    CookieOnlyTokenlessBody,
}

/// Put into the extensions of every `/gc-api` request that passed auth, for handlers that care
/// which session family is calling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Authenticated {
    /// Index of the session family (0 = first sign-in).
    pub family: usize,
}

/// Secrets minted by one sign-in.
#[derive(Clone, Debug)]
pub struct SignIn {
    /// Value of the `session` cookie (`None` when sign-ins hand out none, see [`SessionOptions`]).
    pub session: Option<String>,
    /// Value of the `SESSIONID` cookie.
    pub session_id: String,
    /// Value of the first `JWT_WEB` cookie.
    pub jwt: String,
    /// The family's CSRF token.
    pub csrf: String,
}

/// What a request presented, taken from its cookies and headers.
#[derive(Clone, Copy, Debug, Default)]
pub struct Presented<'a> {
    /// `session` cookie.
    pub session: Option<&'a str>,
    /// `JWT_WEB` cookie.
    pub jwt: Option<&'a str>,
    /// `Connect-Csrf-Token` header.
    pub csrf: Option<&'a str>,
    /// `User-Agent` header.
    pub user_agent: Option<&'a str>,
}

/// Why `/gc-api` turned a request away.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Denied {
    /// The access cookie is the current one but past its lifetime: 401.
    Expired,
    /// Anything else (missing or stale cookie or CSRF, dead family, other User-Agent): 403.
    Forbidden(&'static str),
}

/// How a refresh call ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RefreshOutcome {
    /// 201: the new `JWT_WEB` and CSRF.
    Rotated {
        /// New `JWT_WEB` (`encryptedToken`).
        jwt: String,
        /// New CSRF token.
        csrf: String,
    },
    /// 401: a spent credential was presented; its family is now dead.
    ReuseDetected,
    /// 401 for the stated reason.
    Unauthorized(&'static str),
    /// 403 for the stated reason (stale CSRF).
    Forbidden(&'static str),
}

/// What the SPA page shows to a live session.
#[derive(Clone, Debug)]
pub struct PageVisit {
    /// The family's current CSRF token.
    pub csrf: String,
    /// A freshly rotated `JWT_WEB` to set, when the request's one was missing, spent or expired.
    pub new_jwt: Option<String>,
}

struct Family {
    session: String,
    /// False when the sign-in handed out no `session` cookie: the family is known by `JWT_WEB`.
    session_cookie: bool,
    user_agent: String,
    csrf: String,
    generation: u32,
    current_jwt: String,
    jwt_expires_ms: u64,
    session_expires_ms: u64,
    alive: bool,
}

impl Family {
    fn usable(&self, now_ms: u64) -> bool {
        self.alive && now_ms < self.session_expires_ms
    }
}

struct JwtInfo {
    family: usize,
    generation: u32,
}

/// Every session family and every `JWT_WEB` ever issued, plus refresh bookkeeping.
pub struct AuthState {
    key: u64,
    families: Vec<Family>,
    by_session: HashMap<String, usize>,
    by_jwt: HashMap<String, JwtInfo>,
    uses: BTreeMap<String, u32>,
    reuse_detected: u32,
    browser: BrowserOptions,
    options: SessionOptions,
    /// Live `CASTGC` values (ticket-granting tickets) and the User-Agent that signed in.
    tgts: HashMap<String, String>,
    /// Unused service tickets (`ST-…`), each good once.
    tickets: BTreeSet<String>,
}

impl fmt::Debug for AuthState {
    // Counts only: the values are the fake's secrets and do not belong in test output.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AuthState")
            .field("families", &self.families.len())
            .field("alive", &self.families.iter().filter(|f| f.alive).count())
            .field("jwts_issued", &self.by_jwt.len())
            .field("reuse_detected", &self.reuse_detected)
            .finish_non_exhaustive()
    }
}

impl Default for AuthState {
    fn default() -> Self {
        Self::new()
    }
}

impl AuthState {
    /// No sessions yet; a random signing key.
    pub fn new() -> Self {
        Self {
            key: fastrand::u64(..),
            families: Vec::new(),
            by_session: HashMap::new(),
            by_jwt: HashMap::new(),
            uses: BTreeMap::new(),
            reuse_detected: 0,
            browser: BrowserOptions::default(),
            options: SessionOptions::default(),
            tgts: HashMap::new(),
            tickets: BTreeSet::new(),
        }
    }

    /// How sign-ins and renewals currently answer.
    pub fn session_options(&self) -> SessionOptions {
        self.options
    }

    /// Changes how sign-ins and renewals answer from the next request on.
    pub fn set_session_options(&mut self, options: SessionOptions) {
        self.options = options;
    }

    /// A new `CASTGC` ticket-granting ticket for a sign-in made with `user_agent`.
    pub fn issue_tgt(&mut self, user_agent: &str) -> String {
        let tgt = format!("TGT-fake-{}", hex64(fastrand::u64(..)));
        self.tgts.insert(tgt.clone(), user_agent.to_owned());
        tgt
    }

    /// A one-time service ticket when `castgc` is a live ticket-granting ticket (CAS: the SSO
    /// page answers a signed-in browser with a redirect to the service carrying `?ticket=ST-…`).
    pub fn service_ticket(&mut self, castgc: Option<&str>) -> Option<String> {
        self.tgts.contains_key(castgc?).then(|| {
            let ticket = format!("ST-fake-{}", hex64(fastrand::u64(..)));
            self.tickets.insert(ticket.clone());
            ticket
        })
    }

    /// Spends a service ticket: a new session family, as a sign-in would make, or `None` when the
    /// ticket is unknown or already used.
    pub fn redeem_ticket(
        &mut self,
        ticket: &str,
        config: &FakeConfig,
        user_agent: &str,
        now_ms: u64,
    ) -> Option<SignIn> {
        self.tickets.remove(ticket).then(|| self.sign_in(config, user_agent, now_ms))
    }

    /// The family a request belongs to: by its `session` cookie, or — for families signed in
    /// without one — by its `JWT_WEB`. A family that has a `session` cookie must present it.
    fn family_of(&self, p: &Presented<'_>) -> Result<usize, Denied> {
        if let Some(session) = p.session {
            return self.by_session.get(session).copied().ok_or(Denied::Forbidden("unknown session cookie"));
        }
        let info =
            p.jwt.and_then(|jwt| self.by_jwt.get(jwt)).ok_or(Denied::Forbidden("no session cookie"))?;
        if self.families[info.family].session_cookie {
            return Err(Denied::Forbidden("no session cookie"));
        }
        Ok(info.family)
    }

    /// How the browser-facing pages currently behave.
    pub fn browser_options(&self) -> BrowserOptions {
        self.browser
    }

    /// Changes how the browser-facing pages behave from the next request on.
    pub fn set_browser_options(&mut self, options: BrowserOptions) {
        self.browser = options;
    }

    /// Creates a new session family for a sign-in made with `user_agent`.
    pub fn sign_in(&mut self, config: &FakeConfig, user_agent: &str, now_ms: u64) -> SignIn {
        let id = self.families.len();
        let session = format!("fake-iron.{}{}", hex64(fastrand::u64(..)), hex64(fastrand::u64(..)));
        let session_id = guid();
        let csrf = guid();
        let lifetime = u64::try_from(config.session_lifetime.as_millis()).unwrap_or(u64::MAX);
        let session_cookie = !self.options.no_session_cookie;
        self.families.push(Family {
            session: session.clone(),
            session_cookie,
            user_agent: user_agent.to_owned(),
            csrf: csrf.clone(),
            generation: 0,
            current_jwt: String::new(),
            jwt_expires_ms: 0,
            session_expires_ms: now_ms.saturating_add(lifetime),
            alive: true,
        });
        self.by_session.insert(session.clone(), id);
        let jwt = self.rotate(id, config, now_ms, false);
        SignIn { session: session_cookie.then_some(session), session_id, jwt, csrf }
    }

    /// Decides whether a `/gc-api` request may pass; `Ok` carries the family id.
    pub fn check_api(&self, p: &Presented<'_>, config: &FakeConfig, now_ms: u64) -> Result<usize, Denied> {
        let id = self.family_of(p)?;
        let family = &self.families[id];
        if !family.usable(now_ms) {
            return Err(Denied::Forbidden("session family is dead or expired"));
        }
        let jwt = p.jwt.ok_or(Denied::Forbidden("no JWT_WEB cookie"))?;
        let info = self.by_jwt.get(jwt).ok_or(Denied::Forbidden("unknown JWT_WEB"))?;
        if info.family != id {
            return Err(Denied::Forbidden("JWT_WEB of another session"));
        }
        if info.generation != family.generation {
            return Err(Denied::Forbidden("spent JWT_WEB"));
        }
        if p.csrf != Some(family.csrf.as_str()) {
            return Err(Denied::Forbidden("missing or stale Connect-Csrf-Token"));
        }
        if config.require_user_agent_match && p.user_agent.unwrap_or("") != family.user_agent {
            return Err(Denied::Forbidden("User-Agent differs from the sign-in"));
        }
        if now_ms >= family.jwt_expires_ms {
            return Err(Denied::Expired);
        }
        Ok(id)
    }

    /// `POST /services/auth/token/di-oauth/refresh`: the presented `JWT_WEB` is a one-time credential.
    pub fn refresh(&mut self, p: &Presented<'_>, config: &FakeConfig, now_ms: u64) -> RefreshOutcome {
        let Some(jwt) = p.jwt else {
            return RefreshOutcome::Unauthorized("no JWT_WEB cookie");
        };
        *self.uses.entry(fingerprint(jwt)).or_default() += 1;
        let Some(info) = self.by_jwt.get(jwt) else {
            return RefreshOutcome::Unauthorized("unknown JWT_WEB");
        };
        let id = info.family;
        let family = &mut self.families[id];
        // Reuse is checked before anything else: a client refreshing from a stale copy usually also
        // holds the stale CSRF, and that must still count as reuse.
        if info.generation != family.generation {
            family.alive = false;
            self.reuse_detected += 1;
            return RefreshOutcome::ReuseDetected;
        }
        if !family.usable(now_ms) {
            return RefreshOutcome::Unauthorized("session family is dead or expired");
        }
        if family.session_cookie && p.session != Some(family.session.as_str()) {
            return RefreshOutcome::Unauthorized("session cookie missing or of another session");
        }
        if p.csrf != Some(family.csrf.as_str()) {
            return RefreshOutcome::Forbidden("missing or stale Connect-Csrf-Token");
        }
        // A cookie-only answer carries no CSRF, so the CSRF the browser holds stays valid.
        let new_csrf = self.options.refresh_answer == RefreshAnswer::TokensInBody;
        let jwt = self.rotate(id, config, now_ms, new_csrf);
        let csrf = self.families[id].csrf.clone();
        RefreshOutcome::Rotated { jwt, csrf }
    }

    /// `GET /app/`: `None` without a live session; otherwise the CSRF for the page, and a rotated
    /// `JWT_WEB` unless the request already carries the current, unexpired one ("alternative A").
    pub fn visit_page(&mut self, p: &Presented<'_>, config: &FakeConfig, now_ms: u64) -> Option<PageVisit> {
        let id = self.family_of(p).ok()?;
        let family = &self.families[id];
        if !family.usable(now_ms) {
            return None;
        }
        // Without a `session` cookie only the current `JWT_WEB` identifies the family.
        if !family.session_cookie && p.jwt != Some(family.current_jwt.as_str()) {
            return None;
        }
        let fresh = p.jwt == Some(family.current_jwt.as_str()) && now_ms < family.jwt_expires_ms;
        let new_jwt = (!fresh).then(|| self.rotate(id, config, now_ms, false));
        Some(PageVisit { csrf: self.families[id].csrf.clone(), new_jwt })
    }

    /// Makes every current `JWT_WEB` expired as of `now_ms` (server side; the payload's `exp` is a hint).
    pub fn expire_access(&mut self, now_ms: u64) {
        for family in &mut self.families {
            family.jwt_expires_ms = family.jwt_expires_ms.min(now_ms);
        }
    }

    /// Ends every session family, as a password change or "sign out everywhere" would; the SSO's
    /// ticket-granting cookies stay valid (they are the SSO's, not Connect's).
    pub fn end_sessions(&mut self) {
        for family in &mut self.families {
            family.alive = false;
        }
    }

    /// Times each refresh credential (by fingerprint) was presented to the refresh endpoint.
    pub fn refresh_uses(&self) -> BTreeMap<String, u32> {
        self.uses.clone()
    }

    /// Times a spent credential was presented.
    pub fn reuse_detected(&self) -> u32 {
        self.reuse_detected
    }

    fn rotate(&mut self, id: usize, config: &FakeConfig, now_ms: u64, new_csrf: bool) -> String {
        let family = &mut self.families[id];
        family.generation += 1;
        let lifetime = u64::try_from(config.jwt_lifetime.as_millis()).unwrap_or(u64::MAX);
        family.jwt_expires_ms = now_ms.saturating_add(lifetime);
        let payload = serde_json::json!({
            "iss": "fake-garmin",
            "sub": config.display_name,
            "iat": now_ms / 1000,
            "exp": family.jwt_expires_ms.div_ceil(1000),
            "gen": family.generation,
            "jti": hex64(fastrand::u64(..)),
        });
        let head = URL_SAFE_NO_PAD.encode(br#"{"alg":"HS256","typ":"JWT"}"#);
        let body = URL_SAFE_NO_PAD.encode(payload.to_string());
        let signed = format!("{head}.{body}");
        let sig: Vec<u8> =
            (0..4u64).flat_map(|salt| keyed_hash(self.key ^ salt, &signed).to_be_bytes()).collect();
        let jwt = format!("{signed}.{}", URL_SAFE_NO_PAD.encode(sig));
        family.current_jwt = jwt.clone();
        if new_csrf {
            family.csrf = guid();
        }
        let generation = family.generation;
        self.by_jwt.insert(jwt.clone(), JwtInfo { family: id, generation });
        jwt
    }
}

/// A non-secret name for a credential: the first 8 hex digits of a hash of it.
pub fn fingerprint(credential: &str) -> String {
    hex64(keyed_hash(0, credential))[..8].to_owned()
}

/// Cookies of one request; a name sent twice with different values is ambiguous, not "first wins",
/// because that is how a client whose jar kept an old copy beside a new one shows up.
#[derive(Debug, Default)]
pub struct Cookies {
    values: BTreeMap<String, String>,
    conflicted: BTreeSet<String>,
}

impl Cookies {
    /// Parses every `Cookie` header; non-UTF-8 headers and malformed pairs are skipped.
    pub fn from_headers(headers: &HeaderMap) -> Self {
        let mut out = Self::default();
        let pairs = headers
            .get_all(COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|pair| pair.trim().split_once('='));
        for (name, value) in pairs {
            let (name, value) = (name.trim(), value.trim());
            match out.values.get(name) {
                Some(old) if old != value => {
                    out.conflicted.insert(name.to_owned());
                }
                Some(_) => {}
                None => {
                    out.values.insert(name.to_owned(), value.to_owned());
                }
            }
        }
        out
    }

    /// The value of `name`, unless absent, empty or sent twice with different values.
    pub fn get(&self, name: &str) -> Option<&str> {
        if self.conflicted.contains(name) {
            return None;
        }
        self.values.get(name).map(String::as_str).filter(|v| !v.is_empty())
    }

    /// Whether the request carries `name` at all.
    pub fn has(&self, name: &str) -> bool {
        self.values.contains_key(name)
    }
}

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// A random GUID-shaped token (Garmin's CSRF tokens and `SESSIONID`s look like this).
pub fn guid() -> String {
    let a = fastrand::u64(..);
    let b = fastrand::u64(..);
    format!(
        "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xfff,
        0x8000 | (b >> 48 & 0x3fff),
        b & 0xffff_ffff_ffff
    )
}

/// Sixteen lowercase hex digits.
pub fn hex64(v: u64) -> String {
    format!("{v:016x}")
}

fn keyed_hash(key: u64, text: &str) -> u64 {
    let mut h = DefaultHasher::new();
    key.hash(&mut h);
    text.hash(&mut h);
    h.finish()
}
