//! The app's preferences on disk, through Tauri's store plugin (`tauri-plugin-store`): one JSON
//! object in [`PREFERENCES_FILE`] in the real data folder (beside `session.json`), one key per
//! field, saved on change (and once more when the app exits), and the thin commands and window
//! hooks around it. What the preferences are, how an unusable field reads and what a resize
//! remembers is data, tested without a webview in `app_bridge::preferences`. Deleting the file
//! resets every preference.
//!
//! The Garmin session is NOT in this store, on purpose: `session.json` is shared with every
//! `garmin-mcp` process (which has no Tauri), is written under a cross-process lock while a renewal
//! may be running, and must stay a private 0600 file; the store writes a plain file with the
//! default permissions and no lock. Nothing secret goes into the preferences.
//!
//! The file is the person's to edit, so reading it never fails: a missing, unknown or out-of-range
//! field takes its default, says so on stderr (naming the field, never echoing what it held) and is
//! written back corrected. An unreadable file is kept aside as `preferences.json.damaged` and
//! replaced by the defaults.

use std::path::Path;
use std::sync::Arc;

use app_bridge::preferences::WINDOW;
pub use app_bridge::preferences::{
    HomeView, Language, PREFERENCES_FILE, Preferences, PreferencesUpdate, WindowGeometry, clamp_window,
    file_in, window_after_resize,
};
use serde_json::{Map, Value};
use tauri::{AppHandle, LogicalSize, Manager as _, Runtime, State, Window};
use tauri_plugin_store::{Store, StoreExt as _};

use crate::error::{Error, ErrorCode, Result};
use crate::state::Accounts;

/// Where an unreadable preferences file is kept aside before the defaults replace it.
const DAMAGED_FILE: &str = "preferences.json.damaged";

/// The app's preferences store (opened once, then shared by the store plugin).
fn open<R: Runtime>(app: &AppHandle<R>, data_dir: &Path) -> Result<Arc<Store<R>>> {
    let path = file_in(data_dir);
    // The store would create a missing data folder with the default mode; the session's folder is
    // private (0700), so it is made (or checked) the session's way first.
    local_data::private_files::ensure_folder(data_dir).map_err(|e| {
        Error::new(ErrorCode::Other, format!("the data folder {} is not usable: {e}", data_dir.display()))
    })?;
    let store = app.store(&path).map_err(|e| {
        Error::new(
            ErrorCode::Other,
            format!("the preferences in {} could not be opened: {e}", path.display()),
        )
    })?;
    // The plugin starts empty when the file does not parse; keep the person's file aside once.
    if store.is_empty() && unreadable(&path) {
        let aside = data_dir.join(DAMAGED_FILE);
        let kept = std::fs::rename(&path, &aside).is_ok();
        eprintln!(
            "garmin-desktop: {} is not a JSON object; the app uses its default preferences{}",
            path.display(),
            if kept { format!(" (the file was kept as {})", aside.display()) } else { String::new() }
        );
        write(&store, &Preferences::default())?;
    }
    Ok(store)
}

/// True when `path` exists but does not hold a JSON object.
fn unreadable(path: &Path) -> bool {
    std::fs::read(path).is_ok_and(|bytes| serde_json::from_slice::<Map<String, Value>>(&bytes).is_err())
}

/// Writes every field into the store and saves the file.
fn write<R: Runtime>(store: &Store<R>, preferences: &Preferences) -> Result<()> {
    for (key, value) in preferences.to_entries() {
        store.set(key, value);
    }
    store.save().map_err(|e| Error::new(ErrorCode::Other, format!("the preferences could not be saved: {e}")))
}

/// The preferences of the real data folder, with every unusable field at its default (logged and
/// written back corrected).
pub fn load<R: Runtime>(app: &AppHandle<R>, data_dir: &Path) -> Result<Preferences> {
    let store = open(app, data_dir)?;
    let entries: Map<String, Value> = store.entries().into_iter().collect();
    let (preferences, notes) = Preferences::from_entries(&entries);
    if !notes.is_empty() {
        for note in &notes {
            eprintln!("garmin-desktop: {PREFERENCES_FILE}: {note}");
        }
        write(&store, &preferences)?;
    }
    Ok(preferences)
}

/// Changes the preferences with `change` and saves them.
pub fn update<R: Runtime>(
    app: &AppHandle<R>,
    data_dir: &Path,
    change: impl FnOnce(Preferences) -> Preferences,
) -> Result<Preferences> {
    let store = open(app, data_dir)?;
    let next = change(load(app, data_dir)?);
    write(&store, &next)?;
    Ok(next)
}

/// Remembers one change without failing the caller: a preference that cannot be saved is logged.
pub fn remember<R: Runtime>(
    app: &AppHandle<R>,
    data_dir: &Path,
    change: impl FnOnce(Preferences) -> Preferences,
) {
    if let Err(e) = update(app, data_dir, change) {
        eprintln!("garmin-desktop: {e}");
    }
}

/// The preferences (every field usable: see the module's doc).
#[tauri::command]
pub async fn get_preferences<R: Runtime>(
    app: AppHandle<R>,
    accounts: State<'_, Accounts>,
) -> Result<Preferences> {
    load(&app, accounts.data_dir())
}

/// Changes the fields of `update` that are given, saves, and returns the preferences.
#[tauri::command]
pub async fn set_preferences<R: Runtime>(
    app: AppHandle<R>,
    accounts: State<'_, Accounts>,
    update: PreferencesUpdate,
) -> Result<Preferences> {
    self::update(&app, accounts.data_dir(), |p| p.apply(&update))
}

/// Remembers the main window's size after it changed (the store saves a moment later, and on exit).
/// While maximised the size it returns to is kept; a minimised window is not remembered.
pub fn remember_window<R: Runtime>(window: &Window<R>) {
    let Some(accounts) = window.try_state::<Accounts>() else { return };
    if window.is_minimized().unwrap_or(false) {
        return;
    }
    let maximized = window.is_maximized().unwrap_or(false);
    let (Ok(size), Ok(scale)) = (window.inner_size(), window.scale_factor()) else { return };
    let size = size.to_logical::<f64>(scale);
    let Ok(store) = open(window.app_handle(), accounts.data_dir()) else { return };
    let (current, _) = Preferences::from_entries(&store.entries().into_iter().collect());
    if let Some(next) = window_after_resize(current.window, (size.width, size.height), maximized) {
        // No immediate save: `set` saves after a short quiet moment, so a drag writes the file once.
        store.set(WINDOW, serde_json::to_value(next).unwrap_or(Value::Null));
    }
}

/// Opens the main window at its remembered size, clamped to its monitor and its minimum size.
pub fn restore_window<R: Runtime>(app: &AppHandle<R>, data_dir: &Path) {
    let Some(window) = app.get_webview_window(crate::MAIN_WINDOW) else { return };
    let Ok(Preferences { window: Some(saved), .. }) = load(app, data_dir) else { return };
    let configured = app.config().app.windows.iter().find(|w| w.label == crate::MAIN_WINDOW);
    let minimum = configured.map_or((0, 0), |w| {
        (w.min_width.unwrap_or(0.0).round() as u32, w.min_height.unwrap_or(0.0).round() as u32)
    });
    let monitor = window.current_monitor().ok().flatten().or_else(|| window.primary_monitor().ok().flatten());
    let monitor = monitor.map(|m| {
        let size = m.size().to_logical::<f64>(m.scale_factor());
        (size.width.round() as u32, size.height.round() as u32)
    });
    let size = clamp_window(saved, minimum, monitor);
    if let Err(e) = window.set_size(LogicalSize::new(f64::from(size.width), f64::from(size.height))) {
        eprintln!("garmin-desktop: the window's remembered size could not be applied: {e}");
    }
    if size.maximized {
        let _ = window.maximize();
    }
}
