//! The "Remote access" panel's commands, thin over `app_bridge::remote` (the server's command line,
//! its token file and the supervision of the `garmin-mcp --http` child live there, testable without
//! a webview). The server runs on the real account's data folder, never the demo folder. With a
//! public URL the panel also approves hosted assistants, shows the pairing code and revokes
//! clients, through the server's owner API (`app_bridge::remote::owner`).

use app_bridge::remote::owner::{Decision, Revoke};
use app_bridge::remote::{RemoteAccess, RemoteError, RemoteSettings, RemoteView};
use tauri::{AppHandle, Runtime, State};

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

/// The panel's state; while the server is off, with the choices remembered from its last start
/// (in this run or an earlier one).
#[tauri::command]
pub async fn remote_status<R: Runtime>(
    app: AppHandle<R>,
    remote: State<'_, RemoteAccess>,
    accounts: State<'_, Accounts>,
) -> Result<RemoteView> {
    let mut view = remote.owner_view().await;
    if !view.running {
        view.settings = crate::preferences::load(&app, accounts.data_dir())?.remote;
    }
    Ok(view)
}

/// Starts the server on the real account's data folder (never the demo folder); once it runs, its
/// choices are remembered for the next start.
#[tauri::command]
pub async fn start_remote<R: Runtime>(
    app: AppHandle<R>,
    settings: RemoteSettings,
    remote: State<'_, RemoteAccess>,
    accounts: State<'_, Accounts>,
) -> Result<RemoteView> {
    remote.start(settings.clone(), accounts.data_dir()).await?;
    crate::preferences::remember(&app, accounts.data_dir(), |p| crate::preferences::Preferences {
        remote: settings,
        ..p
    });
    Ok(remote.owner_view().await)
}

/// Stops the server.
#[tauri::command]
pub async fn stop_remote(remote: State<'_, RemoteAccess>) -> Result<RemoteView> {
    Ok(remote.stop().await?)
}

/// Allows (with or without write access) or denies a hosted assistant waiting for approval.
#[tauri::command]
pub async fn remote_decide(
    id: String,
    allow: bool,
    write: bool,
    remote: State<'_, RemoteAccess>,
) -> Result<RemoteView> {
    Ok(remote.decide(&id, Decision { allow, write }).await?)
}

/// Revokes one approved client (`id`) or all of them.
#[tauri::command]
pub async fn remote_revoke(
    id: Option<String>,
    all: bool,
    remote: State<'_, RemoteAccess>,
) -> Result<RemoteView> {
    Ok(remote.revoke(&Revoke { id, all }).await?)
}

/// A new pairing code.
#[tauri::command]
pub async fn remote_new_code(remote: State<'_, RemoteAccess>) -> Result<RemoteView> {
    Ok(remote.new_code().await?)
}
