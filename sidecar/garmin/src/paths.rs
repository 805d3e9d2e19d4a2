//! Where the shared data folder is: the desktop app's data directory, which every `garmin-mcp`
//! process must find without Tauri and without the environment AI clients strip.
//!
//! Order: an explicit `--data-dir`, then `GARMIN_MCP_HOME`, then `data_dir()/<bundle identifier>`
//! (the folder Tauri's `app_data_dir()` and tauri-plugin-store use: `~/.local/share/<id>` on Linux,
//! `~/Library/Application Support/<id>` on macOS, `%APPDATA%\<id>` on Windows).

use std::path::{Path, PathBuf};

/// The desktop app's bundle identifier; names the data folder. Must equal `identifier` in
/// `src-tauri/tauri.conf.json`.
pub const APP_IDENTIFIER: &str = "dev.garminmcp.desktop";

/// Environment variable that overrides the data folder.
pub const DATA_DIR_ENV: &str = "GARMIN_MCP_HOME";

/// The platform's default data folder for the app, or `None` when the OS reports no home.
pub fn default_data_dir() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join(APP_IDENTIFIER))
}

/// Resolves the data folder from an explicit choice, the environment, then the platform default.
pub fn resolve_data_dir(explicit: Option<&Path>) -> Option<PathBuf> {
    if let Some(dir) = explicit {
        return Some(dir.to_path_buf());
    }
    if let Some(dir) = std::env::var_os(DATA_DIR_ENV).filter(|v| !v.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    default_data_dir()
}
