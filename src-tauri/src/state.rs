//! Which account the app shows, and where each one's session lives.
//!
//! * The real Garmin session is `session.json` in the data folder every `garmin-mcp` process finds
//!   without Tauri, following `garmin::resolve_data_dir`: `GARMIN_MCP_HOME` when set, else
//!   `data_dir()/<identifier>` — Tauri's `app_data_dir()`, because `tauri.conf.json`'s `identifier`
//!   equals `garmin::APP_IDENTIFIER` (a test checks it).
//! * The demo account's session lives in its own folder, [`DEMO_FOLDER`] inside the data folder,
//!   so demo mode never reads, replaces or removes the real session. It is only valid while this
//!   app runs (the in-app fake Garmin starts afresh each time), so start-up forgets it.
//!
//! The app starts on the real account; a completed demo sign-in switches to the demo account and
//! leaving it switches back.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use garmin::{Origins, SessionStore, Site};
use tauri::{AppHandle, Manager as _, Runtime};

/// Name of the demo account's folder inside the data folder.
pub const DEMO_FOLDER: &str = "demo-account";

/// The two session stores and which one is in use (managed state).
#[derive(Debug)]
pub struct Accounts {
    data_dir: PathBuf,
    demo_dir: PathBuf,
    garmin_origins: Option<Origins>,
    personal_origin: Option<String>,
    demo_active: AtomicBool,
}

impl Accounts {
    /// Accounts whose real session lives in `data_dir` (tests use a temp folder).
    pub fn new(data_dir: impl Into<PathBuf>) -> Self {
        let data_dir = data_dir.into();
        let demo_dir = data_dir.join(DEMO_FOLDER);
        Accounts {
            data_dir,
            demo_dir,
            garmin_origins: None,
            personal_origin: None,
            demo_active: AtomicBool::new(false),
        }
    }

    /// `GARMIN_MCP_HOME`, else the platform folder `garmin-mcp` uses, else Tauri's `app_data_dir()`.
    pub fn resolve<R: Runtime>(app: &AppHandle<R>) -> tauri::Result<Self> {
        match garmin::resolve_data_dir(None) {
            Some(dir) => Ok(Accounts::new(dir)),
            None => app.path().app_data_dir().map(Accounts::new),
        }
    }

    /// Sends both Garmin sites to `origins` instead of Garmin's (tests point them at a fake). Without
    /// it the sites' own origins apply, with `GARMIN_CONNECT_URL` / `GARMIN_SSO_URL` honoured.
    pub fn with_garmin_origins(mut self, origins: Origins) -> Self {
        self.garmin_origins = Some(origins);
        self
    }

    /// Sends Personal API requests to `origin` instead of Garmin's (tests point it at a fake).
    /// Without it `GARMIN_PERSONAL_API_URL` or Garmin's own origin applies.
    pub fn with_personal_api_origin(mut self, origin: impl Into<String>) -> Self {
        self.personal_origin = Some(origin.into());
        self
    }

    /// The Personal API origin a new key of the real account is checked against.
    pub fn personal_origin(&self) -> String {
        self.personal_origin.clone().unwrap_or_else(garmin::personal::origin_from_env)
    }

    /// The origins a sign-in to `site` uses.
    pub fn origins(&self, site: Site) -> Origins {
        self.garmin_origins.clone().unwrap_or_else(|| site.origins_from_env())
    }

    /// The shared data folder (real session).
    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    /// The demo account's folder.
    pub fn demo_dir(&self) -> &Path {
        &self.demo_dir
    }

    /// The real session store, or the demo one.
    pub fn store(&self, demo: bool) -> SessionStore {
        SessionStore::new(if demo { &self.demo_dir } else { &self.data_dir })
    }

    /// True while the demo account is the one shown.
    pub fn demo_active(&self) -> bool {
        self.demo_active.load(Ordering::SeqCst)
    }

    /// Switches between the real account and the demo account.
    pub fn set_demo_active(&self, demo: bool) {
        self.demo_active.store(demo, Ordering::SeqCst);
    }

    /// The store of the account shown now, and whether it is the demo one.
    pub fn active(&self) -> (SessionStore, bool) {
        let demo = self.demo_active();
        (self.store(demo), demo)
    }

    /// Removes a demo session left by an earlier run (its fake Garmin is gone). The real session is
    /// never touched.
    pub fn forget_stale_demo(&self) -> Result<(), garmin::StoreError> {
        let demo = self.store(true);
        // Only when there is one: clearing takes the lock, which would create the folder.
        if demo.path().exists() {
            demo.clear()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_store_is_a_separate_folder_and_clearing_it_spares_the_real_session() {
        let dir = tempfile::tempdir().unwrap();
        let accounts = Accounts::new(dir.path());
        assert_eq!(accounts.active().0.path(), dir.path().join("session.json"));
        assert_ne!(accounts.store(true).dir(), accounts.store(false).dir());
        assert!(accounts.demo_dir().starts_with(accounts.data_dir()));

        let real = garmin::Session::from_cookie_header(
            Site::Cn,
            Site::Cn.default_origins(),
            "session=s; JWT_WEB=j",
            "t",
            "UA",
        )
        .unwrap();
        accounts.store(false).save(&real).unwrap();
        accounts.store(true).save(&real).unwrap();
        accounts.forget_stale_demo().unwrap();
        assert!(accounts.store(true).load().unwrap().is_none());
        assert!(accounts.store(false).load().unwrap().is_some(), "the real session is untouched");

        accounts.set_demo_active(true);
        let (store, demo) = accounts.active();
        assert!(demo);
        assert_eq!(store.dir(), accounts.demo_dir());
    }
}
