//! What the commands return: camelCase views of `garmin` types, chosen field by field for the UI
//! (mirrored in `ui/src/api.ts`). No cookie value or token ever appears here.

use chrono::{DateTime, Utc};
use serde::Serialize;

/// The saved session as the UI shows it (from `garmin::SessionInfo`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionView {
    /// `global` or `cn`.
    pub site: garmin::Site,
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
}

impl From<garmin::SessionInfo> for SessionView {
    fn from(info: garmin::SessionInfo) -> Self {
        SessionView {
            site: info.site,
            site_label: info.site.label(),
            connect_url: info.connect_url,
            display_name: info.display_name,
            full_name: info.full_name,
            captured_at: info.captured_at,
            last_refresh_at: info.last_refresh_at,
            refresh_count: info.refresh_count,
            access_expires_at: info.access_expires_at,
        }
    }
}

/// Who Garmin says the account is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AccountView {
    /// displayName.
    pub display_name: String,
    /// Full name, when Garmin gives one.
    pub full_name: Option<String>,
}

/// The answer of `check_session`: Garmin accepted the session.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CheckResult {
    /// The account Garmin reported.
    pub account: AccountView,
    /// The session after the check (it may have been renewed on the way).
    pub session: SessionView,
}
