//! The "Remote access" panel's commands, thin over `app_bridge::remote` (the server's command line,
//! its token file and the supervision of the `garmin-mcp --http` child live there, testable without
//! a webview). The server runs on the real account's data folder, never the demo folder.

use app_bridge::remote::{RemoteAccess, RemoteError, RemoteSettings, RemoteView};
use tauri::State;

use crate::error::{Error, ErrorCode, Result};
use crate::state::Accounts;

/// The remote-access server of this app: the `garmin-mcp` bundled beside it.
pub fn bundled() -> RemoteAccess {
    RemoteAccess::new(crate::clients::bundled_sidecar())
}

impl From<RemoteError> for Error {
    fn from(e: RemoteError) -> Self {
        let code = match e {
            RemoteError::AlreadyRunning => ErrorCode::InvalidInput,
            RemoteError::Failed(_) => ErrorCode::Other,
        };
        Error::new(code, e.to_string())
    }
}

/// The panel's state.
#[tauri::command]
pub async fn remote_status(remote: State<'_, RemoteAccess>) -> Result<RemoteView> {
    Ok(remote.view())
}

/// Starts the server on the real account's data folder (never the demo folder).
#[tauri::command]
pub async fn start_remote(
    settings: RemoteSettings,
    remote: State<'_, RemoteAccess>,
    accounts: State<'_, Accounts>,
) -> Result<RemoteView> {
    Ok(remote.start(settings, accounts.data_dir()).await?)
}

/// Stops the server.
#[tauri::command]
pub async fn stop_remote(remote: State<'_, RemoteAccess>) -> Result<RemoteView> {
    Ok(remote.stop().await?)
}
