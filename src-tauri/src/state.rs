//! State the commands share: where the Garmin session lives.
//!
//! The folder must be the one every `garmin-mcp` process finds without Tauri, so it follows
//! `garmin::resolve_data_dir`: `GARMIN_MCP_HOME` when set, else `data_dir()/<identifier>` — which is
//! Tauri's `app_data_dir()` because `tauri.conf.json`'s `identifier` equals `garmin::APP_IDENTIFIER`
//! (a test checks it).

use std::path::{Path, PathBuf};

use tauri::{AppHandle, Manager as _, Runtime};

/// The data folder holding `session.json` (managed state).
#[derive(Clone, Debug)]
pub struct DataDir(PathBuf);

impl DataDir {
    /// A data folder chosen by the caller (tests use a temp folder).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        DataDir(dir.into())
    }

    /// `GARMIN_MCP_HOME`, else the platform folder `garmin-mcp` uses, else Tauri's `app_data_dir()`.
    pub fn resolve<R: Runtime>(app: &AppHandle<R>) -> tauri::Result<Self> {
        match garmin::resolve_data_dir(None) {
            Some(dir) => Ok(DataDir(dir)),
            None => app.path().app_data_dir().map(DataDir),
        }
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// The session store in this folder.
    pub fn store(&self) -> garmin::SessionStore {
        garmin::SessionStore::new(&self.0)
    }
}
