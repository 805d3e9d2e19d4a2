//! Adding a Personal API key, the one way every front end does it (`garmin-mcp login --api-key`
//! and the desktop app): refused for a China web session ([`super::CHINA_NOT_OFFERED`]), checked
//! with one token exchange, then saved with that first token in the session file under the
//! session lock (0600, atomic). Nothing is saved when Garmin refuses the key.

use chrono::{DateTime, Utc};

use super::{PERSONAL_API_ORIGIN, PersonalApiKey, PersonalClient};
use crate::{Error, Result, SessionStore, Site};

/// Checks `key` with one token exchange at `origin` and saves it, with its first token, in
/// `store`. `key_expires_at` is the expiry the person chose on Garmin's key page, when known (a
/// token cut short at the key's end tells it too). An origin other than Garmin's own (a test, the
/// demo, a proxy) is saved with the key, so every process uses it.
pub async fn add_key(
    store: &SessionStore,
    origin: &str,
    key: &str,
    key_expires_at: Option<DateTime<Utc>>,
) -> Result<PersonalApiKey> {
    if store.load().ok().flatten().is_some_and(|s| s.site == Site::Cn) {
        return Err(Error::InvalidInput(format!("{}.", super::CHINA_NOT_OFFERED)));
    }
    let origin = origin.trim().trim_end_matches('/');
    let exchanged = PersonalClient::exchange_key(origin, key).await?;
    let mut record = PersonalApiKey::new(key, key_expires_at.or(exchanged.key_expires_at));
    record.token_expires_at = Some(exchanged.expires_at);
    record.token = Some(exchanged.token);
    record.exchanges = 1;
    record.origin = (origin != PERSONAL_API_ORIGIN).then(|| origin.to_owned());
    let saved = record.clone();
    let store = store.clone();
    tokio::task::spawn_blocking(move || store.lock().and_then(|lock| lock.write_personal(Some(&saved))))
        .await
        .map_err(|e| Error::InvalidInput(format!("saving the key stopped unexpectedly: {e}")))??;
    Ok(record)
}

/// Removes the saved key (and its token) from `store`; the web session stays. False when none
/// was saved.
pub fn remove_key(store: &SessionStore) -> Result<bool> {
    let lock = store.lock()?;
    let had = lock.read_personal()?.is_some();
    if had {
        lock.write_personal(None)?;
    }
    Ok(had)
}
