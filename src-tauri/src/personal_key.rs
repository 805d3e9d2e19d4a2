//! Garmin's official Personal API key in the app (issue #15 §2): "Add Garmin's official API key
//! (recommended)" after web sign-in and on the home window. Thin commands over the `garmin` crate:
//! the key page opens signed in in a sign-in window ([`crate::signin::key_page`]), the person pastes
//! the key they made, and `garmin::personal::add_key` — the same step `garmin-mcp login --api-key`
//! takes — checks it with one token exchange before saving it in `session.json` (0600, same lock).
//! The home window shows its expiry, warns 14 days ahead, and can remove it. China accounts are not
//! offered the Personal API ([`garmin::personal::CHINA_NOT_OFFERED`]).

use chrono::{DateTime, Utc};
use garmin::personal::{CHINA_NOT_OFFERED, EXPIRY_WARNING_DAYS};
use garmin::{SessionStore, Site};
use serde::Serialize;
use tauri::{AppHandle, Runtime, State};

use crate::demo::DemoGarmin;
use crate::error::{Error, ErrorCode, Result};
use crate::signin::key_page::{key_page_url, sso_cookies};
use crate::signin::window as sign_in_window;
use crate::state::Accounts;

/// The lifetimes Garmin's key page offers, in days (docs/garmin-personal-api.md §1 `[S]`).
pub const KEY_DAYS: [u32; 4] = [30, 90, 180, 365];

/// The Personal API key of the account shown, as the home window shows it (never the key).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct PersonalKeyView {
    /// Whether the Personal API is offered for this account (not for Garmin Connect China).
    pub offered: bool,
    /// Why it is not offered, in plain words (English), when it is not.
    pub not_offered: Option<String>,
    /// A key is saved.
    pub saved: bool,
    /// When it was added.
    pub added_at: Option<DateTime<Utc>>,
    /// When it stops working, when known.
    pub key_expires_at: Option<DateTime<Utc>>,
    /// Whole days left (negative: expired), when the expiry is known.
    pub days_left: Option<i64>,
    /// It expires within 14 days: make a new key.
    pub expires_soon: bool,
    /// It has expired.
    pub expired: bool,
}

/// The key saved in `store` as the home window shows it, at `now`.
pub fn key_view(store: &SessionStore, now: DateTime<Utc>) -> Result<PersonalKeyView> {
    let china = store.load()?.is_some_and(|s| s.site == Site::Cn);
    let key = store.load_personal()?;
    let expires = key.as_ref().and_then(|k| k.key_expires_at);
    let days_left = key.as_ref().and_then(|k| k.days_left(now));
    let expired = expires.is_some_and(|at| at <= now);
    Ok(PersonalKeyView {
        offered: !china,
        not_offered: china.then(|| format!("{CHINA_NOT_OFFERED}.")),
        saved: key.is_some(),
        added_at: key.as_ref().map(|k| k.added_at),
        key_expires_at: expires,
        days_left,
        expires_soon: !expired && days_left.is_some_and(|d| d < EXPIRY_WARNING_DAYS),
        expired,
    })
}

/// `validDays` as an expiry from `now`: one of Garmin's lifetimes, or unknown.
pub fn expiry_from(valid_days: Option<u32>, now: DateTime<Utc>) -> Result<Option<DateTime<Utc>>> {
    match valid_days {
        None => Ok(None),
        Some(days) if KEY_DAYS.contains(&days) => Ok(Some(now + chrono::TimeDelta::days(i64::from(days)))),
        Some(days) => Err(Error::new(
            ErrorCode::InvalidInput,
            format!(
                "{days} days is not a lifetime Garmin offers: choose 30, 90 or 180 days or a year, as on the key page"
            ),
        )),
    }
}

/// A refusal the person can act on (a wrong or expired key, China, a bad field) is `invalid_input`;
/// the message says what to do.
fn key_error(e: garmin::Error) -> Error {
    match e.kind() {
        garmin::ErrorKind::InvalidInput | garmin::ErrorKind::ApiKeyRejected => {
            Error::new(ErrorCode::InvalidInput, e.to_string())
        }
        _ => e.into(),
    }
}

/// The Personal API key of the account shown (never the key itself).
#[tauri::command]
pub async fn personal_key_status(accounts: State<'_, Accounts>) -> Result<PersonalKeyView> {
    let (store, _demo) = accounts.active();
    key_view(&store, Utc::now())
}

/// Opens Garmin's Personal API key page, signed in, in a sign-in window titled `windowTitle`.
/// Refused without a web sign-in, and for China accounts.
#[tauri::command]
pub async fn open_personal_key_page<R: Runtime>(
    app: AppHandle<R>,
    accounts: State<'_, Accounts>,
    window_title: String,
) -> Result<()> {
    let (store, _demo) = accounts.active();
    let session = store
        .load()?
        .ok_or_else(|| Error::from(garmin::Error::NotSignedIn { data_dir: store.dir().to_path_buf() }))?;
    let url = key_page_url(&session)?;
    let title: String = window_title.trim().chars().take(120).collect();
    sign_in_window::open_key_page(&app, url, sso_cookies(&session), &title)?;
    Ok(())
}

/// Checks `key` with one token exchange and saves it for the account shown; `validDays` is the
/// lifetime chosen on Garmin's page (30, 90, 180 or 365), when the person says. Closes the key page.
#[tauri::command]
pub async fn add_personal_key<R: Runtime>(
    app: AppHandle<R>,
    accounts: State<'_, Accounts>,
    demo_garmin: State<'_, DemoGarmin>,
    key: String,
    valid_days: Option<u32>,
) -> Result<PersonalKeyView> {
    let (store, demo) = accounts.active();
    let expires = expiry_from(valid_days, Utc::now())?;
    let origin = if demo { demo_garmin.get_or_start().await?.base_url() } else { accounts.personal_origin() };
    garmin::personal::add_key(&store, &origin, &key, expires).await.map_err(key_error)?;
    sign_in_window::close_key_page(&app);
    key_view(&store, Utc::now())
}

/// Removes the Personal API key of the account shown (the web sign-in stays).
#[tauri::command]
pub async fn remove_personal_key(accounts: State<'_, Accounts>) -> Result<PersonalKeyView> {
    let (store, _demo) = accounts.active();
    let blocking = store.clone();
    tauri::async_runtime::spawn_blocking(move || garmin::personal::remove_key(&blocking))
        .await
        .map_err(|e| Error::new(ErrorCode::Other, format!("removing the key stopped unexpectedly: {e}")))??;
    key_view(&store, Utc::now())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_garmins_lifetimes_are_accepted_and_none_means_unknown() {
        let now = DateTime::from_timestamp(1_800_000_000, 0).unwrap();
        assert_eq!(expiry_from(Some(90), now).unwrap(), Some(now + chrono::TimeDelta::days(90)));
        assert_eq!(expiry_from(None, now).unwrap(), None);
        let refused = expiry_from(Some(45), now).unwrap_err();
        assert_eq!(refused.code, ErrorCode::InvalidInput);
        assert!(refused.message.contains("45 days"), "{}", refused.message);
    }

    #[test]
    fn the_view_warns_within_fourteen_days_and_says_when_expired_without_showing_the_key() {
        let dir = tempfile::tempdir().unwrap();
        let store = SessionStore::new(dir.path());
        let now = Utc::now();
        assert!(!key_view(&store, now).unwrap().saved);
        for (days, soon, expired) in [(30, false, false), (10, true, false), (-1, false, true)] {
            let key = garmin::PersonalApiKey::new("gcpak_secret", Some(now + chrono::TimeDelta::days(days)));
            store.lock().unwrap().write_personal(Some(&key)).unwrap();
            let view = key_view(&store, now).unwrap();
            assert!(view.saved && view.offered);
            assert_eq!((view.expires_soon, view.expired), (soon, expired), "{days}: {view:?}");
            assert!(!serde_json::to_string(&view).unwrap().contains("secret"));
        }
    }
}
