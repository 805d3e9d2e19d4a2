//! What the commands take and return: camelCase views of `garmin` types, chosen field by field for
//! the UI (mirrored in `ui/src/api.ts`). No cookie value or token ever appears here.

use chrono::{DateTime, Utc};
use serde::Serialize;

/// What the site picker offers (its home is the preferences' data, which remember the last one).
pub use app_bridge::preferences::SiteChoice;

/// The saved session as the UI shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct SessionView {
    /// `global` or `cn` (the demo account imitates `global`).
    pub site: garmin::Site,
    /// True for the demo account (sample data, not a Garmin account): label it as such.
    pub demo: bool,
    /// How people recognise the site, e.g. "Garmin Connect China (connect.garmin.cn)".
    pub site_label: &'static str,
    /// The Connect origin in use.
    pub connect_url: String,
    /// Account displayName, once known.
    pub display_name: Option<String>,
    /// Account full name, once known.
    pub full_name: Option<String>,
    /// When the session was captured (signed in).
    pub captured_at: DateTime<Utc>,
    /// When it was last renewed.
    pub last_refresh_at: Option<DateTime<Utc>>,
    /// How many renewals since sign-in.
    pub refresh_count: u64,
    /// When the access cookie says it expires; a hint only (renewal is automatic).
    pub access_expires_at: Option<DateTime<Utc>>,
    /// When the sign-in itself is expected to end: the `session` cookie's expiry, else about three
    /// months after sign-in. An estimate; see `session_expiry_stated`.
    pub session_expires_at: DateTime<Utc>,
    /// True when Garmin stated `session_expires_at` (the cookie's expiry), false when estimated.
    pub session_expiry_stated: bool,
}

impl SessionView {
    /// The view of `session`; `demo` when it is the demo account's.
    pub fn new(session: &garmin::Session, demo: bool) -> Self {
        let info = session.info();
        SessionView {
            site: info.site,
            demo,
            site_label: if demo { DEMO_LABEL } else { info.site.label() },
            connect_url: info.connect_url,
            display_name: info.display_name,
            full_name: info.full_name,
            captured_at: info.captured_at,
            last_refresh_at: info.last_refresh_at,
            refresh_count: info.refresh_count,
            access_expires_at: info.access_expires_at,
            session_expires_at: info.sign_in_expires_at,
            session_expiry_stated: info.sign_in_expiry_stated,
        }
    }
}

/// How the demo account is labelled wherever a site label is shown.
pub const DEMO_LABEL: &str = "Demo account (sample data from a fake Garmin, not your account)";

/// Who Garmin says the account is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct AccountView {
    /// displayName.
    pub display_name: String,
    /// Full name, when Garmin gives one.
    pub full_name: Option<String>,
}

/// The answer of `check_session`: Garmin accepted the session.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct CheckResult {
    /// The account Garmin reported.
    pub account: AccountView,
    /// The session after the check (it may have been renewed on the way).
    pub session: SessionView,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(cookie_header: &str) -> garmin::Session {
        garmin::Session::from_cookie_header(
            garmin::Site::Cn,
            garmin::Site::Cn.default_origins(),
            cookie_header,
            "t",
            "UA",
        )
        .unwrap()
    }

    #[test]
    fn sign_in_expiry_is_the_session_cookies_when_stated_else_an_estimate() {
        let mut stated = session("session=s; JWT_WEB=j");
        let expires = DateTime::from_timestamp(1_900_000_000, 0).unwrap();
        stated.cookies[0].expires = Some(expires);
        let view = SessionView::new(&stated, false);
        assert_eq!((view.session_expires_at, view.session_expiry_stated), (expires, true));

        let unstated = session("session=s; JWT_WEB=j");
        let view = SessionView::new(&unstated, false);
        assert!(!view.session_expiry_stated);
        assert_eq!(view.session_expires_at - unstated.captured_at, chrono::Duration::days(90));
    }

    #[test]
    fn the_demo_account_is_labelled_as_demo_and_shows_no_secret() {
        let view = SessionView::new(&session("session=secret-s; JWT_WEB=secret-j"), true);
        assert!(view.demo);
        assert!(view.site_label.starts_with("Demo account"));
        let shown = serde_json::to_string(&view).unwrap();
        assert!(!shown.contains("secret"), "{shown}");
        assert!(shown.contains("\"sessionExpiresAt\"") && shown.contains("\"demo\":true"), "{shown}");
    }
}
