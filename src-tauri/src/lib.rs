//! The Garmin MCP desktop app. This crate is glue over the `garmin` crate: thin commands, the
//! sign-in window, the demo account, and a UI built from `../ui`. Garmin logic belongs in `garmin`,
//! MCP logic in `garmin-mcp` (bundled as the sidecar `binaries/garmin-mcp`).
//!
//! [`build`] is the one place commands and app-wide state are registered; [`run`] and the tests (on
//! tauri's `MockRuntime`) both go through it, so a test exercises exactly what the app serves.
//!
//! | module | what |
//! |---|---|
//! | `commands` | what the UI invokes (through `ui/src/api.ts` only) |
//! | `bridge` | the app's end of the sidecars' local channel: requests waiting for the person |
//! | `confirm` | confirming a sidecar's write: decisions → replies, live workout previews |
//! | `clients` | the AI clients panel: detect, Configure / Remove, snippet (over `client-setup`) |
//! | [`signin`] | signing in: target site, cookies → session, check + save, and the sign-in window |
//! | `demo` | the demo account's fake Garmin, run inside the app on loopback |
//! | `state` | which account is shown and where each session lives |
//! | `tool_check` | the home window's tool check: runs the bundled `garmin-mcp check --json` |
//! | `writes` | the app's own writes: a workout created by hand, Undo of a journaled change |
//! | `remote` | the remote-access panel: `garmin-mcp --http` as a child process, its token file |
//! | `athlete` | the athlete memory card: list, add, edit, delete facts (over `local_data::athlete`) |
//! | `history_sync` | the history card: the Sync button's background sync and what the history holds |
//! | `training` | the Training view: the fitness chart and newest activities from the local history |
//! | `lifecycle` | per-OS life of the app: macOS keeps running while a sidecar needs it; children end with it |
//! | `preferences` | the app's own choices in the store plugin's `preferences.json`, and the window's size |
//! | `personal_key` | Garmin's official Personal API key: key page, paste, check, expiry, remove |
//! | `models`, `error` | what crosses IPC: camelCase views and one `{code, message}` error |
//! | [`typescript`] | the UI's TypeScript types, generated from what crosses IPC |

mod athlete;
pub mod bridge;
mod clients;
mod commands;
mod confirm;
mod demo;
mod error;
mod history_sync;
mod lifecycle;
mod models;
mod personal_key;
pub mod preferences;
mod remote;
pub mod signin;
mod state;
mod tool_check;
mod training;
pub mod typescript;
mod writes;

pub use clients::{AiClients, bundled_sidecar};
pub use demo::DemoGarmin;
pub use error::{Error, ErrorCode, Result};
pub use history_sync::{HistorySync, SYNC_EVENT};
pub use models::{AccountView, CheckResult, DEMO_LABEL, SessionView, SiteChoice};
pub use signin::window::{SIGN_IN_WINDOW_PREFIX, SignInFlow};
pub use state::{Accounts, DEMO_FOLDER};
pub use tool_check::{ToolCheck, ToolCheckReport, ToolCheckRow, ToolOutcome, check_tools};

use tauri::{Builder, Manager as _, Runtime, WindowEvent};

/// Label of the app's main window (the only one with a capability).
pub const MAIN_WINDOW: &str = "main";

/// Registers the app's commands and state on `builder`. The caller then builds the app and manages
/// [`Accounts`] before anything is invoked (`run` resolves it; tests point it at a temp folder).
pub fn build<R: Runtime>(builder: Builder<R>) -> Builder<R> {
    builder
        .plugin(tauri_plugin_store::Builder::default().build())
        .manage(SignInFlow::default())
        .manage(DemoGarmin::default())
        .manage(bridge::BridgeRequests::default())
        .manage(remote::bundled())
        .manage(HistorySync::default())
        .on_window_event(|window, event| {
            // The sign-in window must not outlive the app's window (it would keep the app running).
            if window.label() == MAIN_WINDOW && matches!(event, WindowEvent::Destroyed) {
                window.state::<SignInFlow>().cancel();
                signin::window::close_sign_in_windows(window.app_handle());
            }
            if window.label() == MAIN_WINDOW
                && matches!(event, WindowEvent::Resized(_) | WindowEvent::CloseRequested { .. })
            {
                preferences::remember_window(window);
            }
            lifecycle::on_close_requested(window, event);
        })
        .invoke_handler(tauri::generate_handler![
            commands::session_status,
            commands::check_session,
            commands::sign_out,
            commands::sign_in,
            commands::cancel_sign_in,
            commands::sign_in_with_cookies,
            confirm::pending_proposals,
            confirm::decide_proposal,
            confirm::preview_workout,
            confirm::workout_grammar,
            confirm::find_exercises,
            clients::list_clients,
            clients::configure_client,
            clients::remove_client,
            clients::client_snippet,
            clients::open_install_link,
            remote::remote_status,
            remote::start_remote,
            remote::stop_remote,
            remote::remote_decide,
            remote::remote_revoke,
            remote::remote_new_code,
            tool_check::run_tool_check,
            writes::create_workout_by_hand,
            writes::recent_changes,
            writes::undo_change,
            athlete::athlete_facts,
            athlete::add_athlete_fact,
            athlete::edit_athlete_fact,
            athlete::delete_athlete_fact,
            history_sync::history_status,
            history_sync::start_history_sync,
            training::training_overview,
            personal_key::personal_key_status,
            personal_key::open_personal_key_page,
            personal_key::add_personal_key,
            personal_key::remove_personal_key,
            preferences::get_preferences,
            preferences::set_preferences,
        ])
}

/// Starts the desktop app and blocks until it quits.
pub fn run() {
    lifecycle::tie_children_to_the_app();
    // One app per data folder: a second copy brings the first one's window forward and quits.
    if let Some(dir) = garmin::resolve_data_dir(None)
        && bridge::hand_over_to_running_app(&dir)
    {
        eprintln!(
            "garmin-desktop: the Garmin MCP app is already running; its window was brought to the front"
        );
        return;
    }
    let app = build(tauri::Builder::default())
        .build(tauri::generate_context!())
        .expect("the Garmin MCP app could not start");
    // Managed before the event loop starts, so the first invoke from the window always finds it.
    let accounts = Accounts::resolve(app.handle())
        .expect("no folder for the Garmin session: set GARMIN_MCP_HOME to a writable folder");
    if let Err(e) = accounts.forget_stale_demo() {
        eprintln!("garmin-desktop: could not remove the previous run's demo session: {e}");
    }
    // Sidecars ask the app of the real data folder (the one holding `session.json`).
    bridge::start(app.handle(), accounts.data_dir().to_path_buf());
    preferences::restore_window(app.handle(), accounts.data_dir());
    app.manage(accounts);
    app.manage(AiClients::resolve());
    app.manage(ToolCheck::resolve());
    app.run(|app, event| match event {
        // The remote-access server must not outlive the app.
        tauri::RunEvent::Exit => app.state::<app_bridge::remote::RemoteAccess>().shutdown_now(),
        // A click on the Dock icon shows the window the close button hid (see `lifecycle`).
        #[cfg(target_os = "macos")]
        tauri::RunEvent::Reopen { .. } => bridge::bring_to_front(app),
        _ => {}
    });
}
