//! The commands the UI invokes (through `ui/src/api.ts` only). Each is a few lines over the `garmin`
//! crate: no Garmin logic lives here. Commands are `async` so they never run on the UI thread.

use tauri::State;

use crate::error::{Error, ErrorCode, Result};
use crate::models::{AccountView, CheckResult, SessionView};
use crate::state::DataDir;

/// The saved session, read from disk without touching the network; `not_signed_in` when there is
/// none.
#[tauri::command]
pub async fn session_status(data_dir: State<'_, DataDir>) -> Result<SessionView> {
    let session = data_dir
        .store()
        .load()?
        .ok_or_else(|| Error::from(garmin::Error::NotSignedIn { data_dir: data_dir.path().to_path_buf() }))?;
    Ok(session.info().into())
}

/// Proves the session works with one authenticated call to Garmin (renewing it if due).
#[tauri::command]
pub async fn check_session(data_dir: State<'_, DataDir>) -> Result<CheckResult> {
    let client = garmin::Client::from_store(data_dir.store())?;
    let account = client.verify().await?;
    Ok(CheckResult {
        account: AccountView { display_name: account.display_name, full_name: account.full_name },
        session: client.info().into(),
    })
}

/// Signs out on this computer: removes `session.json` (for the app and every `garmin-mcp`).
#[tauri::command]
pub async fn sign_out(data_dir: State<'_, DataDir>) -> Result<()> {
    let store = data_dir.store();
    // `clear` waits for the session lock, which a renewal in another process may hold for a while.
    tauri::async_runtime::spawn_blocking(move || store.clear())
        .await
        .map_err(|e| Error::new(ErrorCode::Other, format!("signing out stopped unexpectedly: {e}")))??;
    Ok(())
}
