//! The Garmin MCP desktop app. This crate is glue only: it registers thin commands over the `garmin`
//! crate and hands the window a UI built from `../ui`. Garmin logic belongs in `garmin`, MCP logic in
//! `garmin-mcp` (bundled as the sidecar `binaries/garmin-mcp`).
//!
//! [`build`] is the one place commands are registered; [`run`] and the tests (on tauri's
//! `MockRuntime`) both go through it, so a test exercises exactly what the app serves.

mod commands;
mod error;
mod models;
mod state;

pub use error::{Error, ErrorCode, Result};
pub use models::{AccountView, CheckResult, SessionView};
pub use state::DataDir;

use tauri::{Builder, Manager as _, Runtime};

/// Registers the app's commands on `builder`. The caller then builds the app and manages a
/// [`DataDir`] before anything is invoked (`run` resolves it; tests point it at a temp folder).
pub fn build<R: Runtime>(builder: Builder<R>) -> Builder<R> {
    builder.invoke_handler(tauri::generate_handler![
        commands::session_status,
        commands::check_session,
        commands::sign_out,
    ])
}

/// Starts the desktop app and blocks until it quits.
pub fn run() {
    let app = build(tauri::Builder::default())
        .build(tauri::generate_context!())
        .expect("the Garmin MCP app could not start");
    // Managed before the event loop starts, so the first invoke from the window always finds it.
    let data_dir = DataDir::resolve(app.handle())
        .expect("no folder for the Garmin session: set GARMIN_MCP_HOME to a writable folder");
    app.manage(data_dir);
    app.run(|_, _| {});
}
