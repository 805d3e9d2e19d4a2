//! The Garmin web session as we store it: every connect-domain cookie with its metadata, the CSRF
//! token, who the account is, the User-Agent it signed in with, and when it was captured and last
//! renewed. Debug output never shows a cookie value or the CSRF token.

use std::fmt;

use base64::Engine as _;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

pub use crate::cookies::StoredCookie;
use crate::site::{Origins, Site};

/// The name of Garmin's short-lived access cookie, renewed by the refresh call.
pub(crate) const ACCESS_COOKIE: &str = "JWT_WEB";
/// The name of the long-lived session cookie one 2026 source shows. Not required: a 2025 capture
/// has `SESSIONID`, `JWT_WEB`, `JWT_FGP` instead (docs/garmin-web-api.md §0), so only a validating
/// call decides whether a jar works.
pub(crate) const SESSION_COOKIE: &str = "session";
/// How long Garmin's long-lived `session` cookie was reported to last when it states no expiry
/// (about three months; docs/garmin-web-api.md §2.3). Only an estimate: a check with Garmin is the
/// answer.
const TYPICAL_SIGN_IN_DAYS: i64 = 90;
/// The session id cookie most captures show.
const SESSION_ID_COOKIE: &str = "SESSIONID";

/// Version of the `session.json` format written by this crate.
pub(crate) const FORMAT_VERSION: u32 = 1;

/// A signed-in Garmin Connect web session: the content of `session.json`.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Session {
    /// Format version of the file.
    pub version: u32,
    /// Which Garmin Connect the account lives on.
    pub site: Site,
    /// The origins used (site defaults, or the override in force at sign-in).
    pub origins: Origins,
    /// Every cookie captured for the Connect host (and its parent domain), with metadata.
    pub cookies: Vec<StoredCookie>,
    /// The `Connect-Csrf-Token` value (a secret).
    pub csrf_token: String,
    /// The account's displayName (used in many API paths).
    #[serde(default)]
    pub display_name: Option<String>,
    /// The account's numeric profile id (userProfilePk).
    #[serde(default)]
    pub profile_id: Option<u64>,
    /// The account's full name, for display.
    #[serde(default)]
    pub full_name: Option<String>,
    /// The browser User-Agent the session signed in with; every request reuses it.
    pub user_agent: String,
    /// When the session was captured (signed in).
    pub captured_at: DateTime<Utc>,
    /// When the session was last renewed by a refresh.
    #[serde(default)]
    pub last_refresh_at: Option<DateTime<Utc>>,
    /// How many times the credentials were renewed since sign-in.
    #[serde(default)]
    pub refresh_count: u64,
    /// Set (under the lock, on disk) just before a renewal presents the one-time refresh
    /// credential, cleared when its result is saved. Found set by the next renewal, it means the
    /// renewer died (or lost Garmin's answer) after Garmin may have taken the credential: that
    /// credential must not be presented again (a replay ends the session); recover through the
    /// paths that spend nothing instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub renewal_in_flight: Option<DateTime<Utc>>,
}

impl fmt::Debug for Session {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.cookies.iter().map(|c| c.name.as_str()).collect();
        f.debug_struct("Session")
            .field("site", &self.site)
            .field("origins", &self.origins)
            .field("cookies", &names)
            .field("csrf_token", &"<redacted>")
            .field("display_name", &self.display_name)
            .field("captured_at", &self.captured_at)
            .field("last_refresh_at", &self.last_refresh_at)
            .field("refresh_count", &self.refresh_count)
            .finish_non_exhaustive()
    }
}

impl Session {
    /// A freshly captured session (no profile yet; fill it from the validation call).
    pub fn new(
        site: Site,
        origins: Origins,
        cookies: Vec<StoredCookie>,
        csrf_token: String,
        user_agent: String,
    ) -> Self {
        Session {
            version: FORMAT_VERSION,
            site,
            origins,
            cookies,
            csrf_token,
            display_name: None,
            profile_id: None,
            full_name: None,
            user_agent,
            captured_at: Utc::now(),
            last_refresh_at: None,
            refresh_count: 0,
            renewal_in_flight: None,
        }
    }

    /// A session built from a browser's `Cookie` request header and the CSRF token
    /// (the manual sign-in path). Fails only when there are no cookies or no usable CSRF token:
    /// which cookies Garmin needs is for a validating call to decide (see
    /// [`Session::missing_cookie_hint`] for what to say when it fails).
    pub fn from_cookie_header(
        site: Site,
        origins: Origins,
        cookie_header: &str,
        csrf_token: &str,
        user_agent: &str,
    ) -> crate::Result<Self> {
        let cookies = crate::cookies::parse_cookie_header(cookie_header.trim().trim_start_matches("Cookie:"));
        if !cookies.iter().any(|c| !c.value.is_empty()) {
            return Err(crate::Error::InvalidInput(format!(
                "the Cookie header holds no cookies: copy the whole `Cookie` request header of a request to {}/gc-api/ (browser developer tools → Network)",
                origins.connect
            )));
        }
        let csrf = csrf_token.trim();
        if csrf.is_empty() || csrf.contains(char::is_whitespace) {
            return Err(crate::Error::InvalidInput(
                "the CSRF token is empty or malformed: copy the `connect-csrf-token` request header value of a request to /gc-api/".into(),
            ));
        }
        Ok(Session::new(site, origins, cookies, csrf.to_owned(), user_agent.to_owned()))
    }

    /// When Garmin refused this session: which of the cookies a signed-in browser usually holds
    /// are absent, in words (`None` when none is). Said only after a validating call failed, since
    /// Garmin's sign-ins differ in which cookies they set.
    pub fn missing_cookie_hint(&self) -> Option<String> {
        let has = |name: &str| self.cookie(name).is_some_and(|v| !v.is_empty());
        let mut missing = Vec::new();
        if !has(ACCESS_COOKIE) {
            missing.push(format!("no `{ACCESS_COOKIE}` cookie (Garmin's access cookie)"));
        }
        if !has(SESSION_COOKIE) && !has(SESSION_ID_COOKIE) {
            missing.push(format!("neither a `{SESSION_COOKIE}` nor a `{SESSION_ID_COOKIE}` cookie"));
        }
        (!missing.is_empty()).then(|| format!("the cookies had {}", missing.join(" and ")))
    }

    /// The value of a cookie by name (first match).
    pub(crate) fn cookie(&self, name: &str) -> Option<&str> {
        self.cookies.iter().find(|c| c.name == name).map(|c| c.value.as_str())
    }

    /// Identifies the credentials in use: changes exactly when a refresh (ours or another
    /// process's) or a re-sign-in replaced them. Compared, never shown.
    pub(crate) fn credential(&self) -> Credential {
        Credential {
            access: self.cookie(ACCESS_COOKIE).unwrap_or_default().to_owned(),
            session: self.cookie(SESSION_COOKIE).unwrap_or_default().to_owned(),
            csrf: self.csrf_token.clone(),
        }
    }

    /// When the access cookie (`JWT_WEB`) says it expires, and when it was issued. A hint only:
    /// Garmin has accepted calls after it, so only a probe is an answer.
    pub fn access_window(&self) -> Option<(DateTime<Utc>, Option<DateTime<Utc>>)> {
        let token = self.cookie(ACCESS_COOKIE)?;
        let payload = token.split('.').nth(1)?;
        let bytes =
            base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(payload.trim_end_matches('=')).ok()?;
        let claims: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
        let exp = DateTime::from_timestamp(claims.get("exp")?.as_i64()?, 0)?;
        let iat = claims.get("iat").and_then(|v| v.as_i64()).and_then(|t| DateTime::from_timestamp(t, 0));
        Some((exp, iat))
    }

    /// True when the access cookie is within its renewal margin: a quarter of its lifetime, at
    /// most 15 minutes, before it expires.
    pub(crate) fn access_due_for_refresh(&self, now: DateTime<Utc>) -> bool {
        let Some((exp, iat)) = self.access_window() else {
            return false;
        };
        let lifetime = iat.map_or(chrono::Duration::hours(1), |iat| exp - iat);
        let margin = (lifetime / 4).min(chrono::Duration::minutes(15));
        now + margin >= exp
    }

    /// When the sign-in itself is expected to end, and whether Garmin stated it: the `session`
    /// cookie's expiry when it has one, else about three months after sign-in (an estimate).
    pub fn sign_in_expiry(&self) -> (DateTime<Utc>, bool) {
        match self.cookies.iter().find(|c| c.name == SESSION_COOKIE).and_then(|c| c.expires) {
            Some(stated) => (stated, true),
            None => (self.captured_at + chrono::Duration::days(TYPICAL_SIGN_IN_DAYS), false),
        }
    }

    /// The non-secret summary people and UIs see.
    pub fn info(&self) -> SessionInfo {
        let (sign_in_expires_at, sign_in_expiry_stated) = self.sign_in_expiry();
        SessionInfo {
            site: self.site,
            connect_url: self.origins.connect.clone(),
            front_end: crate::site::describe_front_end(&self.origins.connect),
            display_name: self.display_name.clone(),
            profile_id: self.profile_id,
            full_name: self.full_name.clone(),
            captured_at: self.captured_at,
            last_refresh_at: self.last_refresh_at,
            refresh_count: self.refresh_count,
            access_expires_at: self.access_window().map(|(exp, _)| exp),
            sign_in_expires_at,
            sign_in_expiry_stated,
            cookie_names: self.cookies.iter().map(|c| c.name.clone()).collect(),
        }
    }
}

/// The values that authenticate a request; used to tell whether someone else already renewed them.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Credential {
    access: String,
    session: String,
    csrf: String,
}

impl fmt::Debug for Credential {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Credential(<redacted>)")
    }
}

/// What can be said about a session without revealing any secret.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SessionInfo {
    /// `global` or `cn`.
    pub site: Site,
    /// The Connect origin in use.
    pub connect_url: String,
    /// The Connect front end in use, in plain words ("connectus.garmin.cn (Garmin's in-China front
    /// end for international accounts, …)").
    pub front_end: String,
    /// Account displayName.
    pub display_name: Option<String>,
    /// Account profile id.
    pub profile_id: Option<u64>,
    /// Account full name.
    pub full_name: Option<String>,
    /// When the session was captured.
    pub captured_at: DateTime<Utc>,
    /// When it was last renewed.
    pub last_refresh_at: Option<DateTime<Utc>>,
    /// How many renewals since sign-in.
    pub refresh_count: u64,
    /// When the current access cookie says it expires (a hint).
    pub access_expires_at: Option<DateTime<Utc>>,
    /// When the sign-in is expected to end ([`Session::sign_in_expiry`]).
    pub sign_in_expires_at: DateTime<Utc>,
    /// True when Garmin stated `sign_in_expires_at` (the `session` cookie's expiry), false when
    /// estimated.
    pub sign_in_expiry_stated: bool,
    /// Names (only) of the stored cookies.
    pub cookie_names: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sign_in_lasts_until_the_session_cookie_says_else_about_three_months() {
        let mut session = Session::from_cookie_header(
            Site::Cn,
            Site::Cn.default_origins(),
            "session=s; JWT_WEB=j",
            "t",
            "UA",
        )
        .expect("a session");
        let (estimate, stated) = session.sign_in_expiry();
        assert!(!stated);
        assert_eq!(estimate - session.captured_at, chrono::Duration::days(90));
        let expires = DateTime::from_timestamp(1_900_000_000, 0).expect("a time");
        session.cookies[0].expires = Some(expires);
        assert_eq!(session.sign_in_expiry(), (expires, true));
        let info = session.info();
        assert_eq!((info.sign_in_expires_at, info.sign_in_expiry_stated), (expires, true));
    }

    fn jwt(iat: i64, exp: i64) -> String {
        let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
        format!(
            "{}.{}.sig",
            b64.encode(br#"{"alg":"HS256"}"#),
            b64.encode(format!(r#"{{"iat":{iat},"exp":{exp}}}"#))
        )
    }

    fn session_with_access(token: &str) -> Session {
        Session::from_cookie_header(
            Site::Global,
            Site::Global.default_origins(),
            &format!("session=abc; JWT_WEB={token}"),
            "csrf-1",
            "UA",
        )
        .unwrap()
    }

    #[test]
    fn debug_output_never_shows_cookie_values_or_csrf() {
        let s = session_with_access("very-secret-jwt");
        let shown = format!("{s:?} {:?}", s.cookies);
        assert!(
            !shown.contains("very-secret-jwt") && !shown.contains("abc") && !shown.contains("csrf-1"),
            "{shown}"
        );
        assert!(shown.contains("JWT_WEB"));
    }

    #[test]
    fn refresh_is_due_within_a_quarter_of_the_access_lifetime() {
        let now = Utc::now().timestamp();
        let s = session_with_access(&jwt(now - 3500, now + 100));
        assert!(s.access_due_for_refresh(Utc::now()));
        let s = session_with_access(&jwt(now, now + 3600));
        assert!(!s.access_due_for_refresh(Utc::now()));
        let s = session_with_access("not-a-jwt");
        assert!(!s.access_due_for_refresh(Utc::now()), "unknown expiry is not a reason to refresh");
    }

    #[test]
    fn a_cookie_header_without_a_session_cookie_is_accepted_for_garmin_to_judge() {
        let origins = Site::Global.default_origins();
        let s =
            Session::from_cookie_header(Site::Global, origins.clone(), "SESSIONID=1; JWT_WEB=j", "t", "UA")
                .expect("no `session` cookie is required");
        assert_eq!(s.missing_cookie_hint(), None);
        let err = Session::from_cookie_header(Site::Cn, Site::Cn.default_origins(), " ; ", "t", "UA")
            .unwrap_err()
            .to_string();
        assert!(err.contains("no cookies") && err.contains("connect.garmin.cn/gc-api"), "{err}");
    }

    #[test]
    fn the_missing_cookie_hint_names_what_a_refused_jar_lacked() {
        let s = Session::from_cookie_header(Site::Cn, Site::Cn.default_origins(), "session=abc", "t", "UA")
            .unwrap();
        let hint = s.missing_cookie_hint().unwrap();
        assert!(hint.contains("`JWT_WEB`") && !hint.contains("SESSIONID"), "{hint}");
        let s = Session::from_cookie_header(Site::Cn, Site::Cn.default_origins(), "JWT_WEB=j", "t", "UA")
            .unwrap();
        let hint = s.missing_cookie_hint().unwrap();
        assert!(hint.contains("neither a `session` nor a `SESSIONID`"), "{hint}");
    }
}
