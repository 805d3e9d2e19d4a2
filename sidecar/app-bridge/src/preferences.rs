//! The desktop app's preferences as data: what the app remembers for the person (the window's
//! language, the site last signed in to, the remote-access panel's choices, whether the first sync
//! after a sign-in starts by itself, the main window's size), how a hand-edited or damaged file
//! reads (every unusable field takes its default with a note that never quotes the file), how the
//! UI's partial update applies, and what a window resize remembers. No Tauri here: the app stores
//! these with `tauri-plugin-store` (`src-tauri/src/preferences.rs`), and this part is tested
//! without a webview. The Garmin session is never a preference (see that module's doc).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::remote::RemoteSettings;

/// The preferences file's name inside the real data folder.
pub const PREFERENCES_FILE: &str = "preferences.json";

/// The store's keys, one per field (the JSON names of [`Preferences`]' fields).
pub const LANGUAGE: &str = "language";
/// See [`LANGUAGE`].
pub const LAST_SITE: &str = "lastSite";
/// See [`LANGUAGE`].
pub const REMOTE: &str = "remote";
/// See [`LANGUAGE`].
pub const AUTO_FIRST_SYNC: &str = "autoFirstSync";
/// See [`LANGUAGE`].
pub const WINDOW: &str = "window";
/// See [`LANGUAGE`].
pub const HOME_VIEW: &str = "homeView";

/// What the site picker offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum SiteChoice {
    /// Garmin international (connect.garmin.com): email, or a phone number outside China.
    Global,
    /// Garmin China (connect.garmin.cn): +86 phone accounts.
    Cn,
    /// The demo account: offline sample data from the fake Garmin inside the app.
    Demo,
}

/// A language the window speaks (`ui/src/i18n.svelte.ts`'s `LOCALES`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// English.
    En,
    /// Chinese (simplified).
    Zh,
}

/// The views of the signed-in window's navigation (`ui/src/sections.ts`'s `SECTIONS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum HomeView {
    /// The athlete's fitness chart, recent activities and the history's sync.
    Training,
    /// Workouts made by hand and the recent changes.
    Workouts,
    /// The AI clients set up to use garmin-mcp.
    Clients,
    /// Remote access for hosted assistants.
    Remote,
    /// The account, its session, the tool check, the API key and the athlete memory.
    Account,
}

/// The main window's size in logical pixels, and whether it was maximised (the size is then the
/// one it returns to when un-maximised).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct WindowGeometry {
    /// Width in logical pixels.
    pub width: u32,
    /// Height in logical pixels.
    pub height: u32,
    /// The window was maximised.
    pub maximized: bool,
}

/// Everything the app remembers for the person (not the session: see the module's doc).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Preferences {
    /// The window's language; none chosen yet: the window follows the system's.
    pub language: Option<Language>,
    /// The site last signed in to, which the site picker highlights.
    pub last_site: Option<SiteChoice>,
    /// The remote-access panel's choices of its last start.
    pub remote: RemoteSettings,
    /// Right after a sign-in the first history sync starts by itself.
    pub auto_first_sync: bool,
    /// The main window's size when it last changed; none: the configured size.
    pub window: Option<WindowGeometry>,
    /// The view of the signed-in window last shown; none: Training.
    pub home_view: Option<HomeView>,
}

impl Default for Preferences {
    fn default() -> Self {
        Preferences {
            language: None,
            last_site: None,
            remote: RemoteSettings::default(),
            auto_first_sync: true,
            window: None,
            home_view: None,
        }
    }
}

/// What the UI changes: only the fields given; the others stay as they are.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct PreferencesUpdate {
    /// The window's language.
    #[cfg_attr(feature = "ts", ts(optional))]
    pub language: Option<Language>,
    /// Whether the first sync after a sign-in starts by itself.
    #[cfg_attr(feature = "ts", ts(optional))]
    pub auto_first_sync: Option<bool>,
    /// The view of the signed-in window shown now.
    #[cfg_attr(feature = "ts", ts(optional))]
    pub home_view: Option<HomeView>,
}

impl Preferences {
    /// The preferences in a store's `entries`, with a note for each field that was present but not
    /// usable (it takes its default). Unknown keys are ignored.
    pub fn from_entries(entries: &Map<String, Value>) -> (Preferences, Vec<String>) {
        let mut notes = Vec::new();
        let defaults = Preferences::default();
        let language = field(entries, LANGUAGE, defaults.language, &mut notes, || {
            "the language is not one the window speaks (en, zh); following the system language".into()
        });
        let last_site = field(entries, LAST_SITE, defaults.last_site, &mut notes, || {
            "the last site is not cn, global or demo; no site is highlighted".into()
        });
        let auto_first_sync = field(entries, AUTO_FIRST_SYNC, defaults.auto_first_sync, &mut notes, || {
            "autoFirstSync is not true or false; the first sync starts by itself".into()
        });
        let window = field(entries, WINDOW, defaults.window, &mut notes, || {
            "the window size is not {width, height, maximized}; the window opens at its usual size".into()
        })
        .filter(|w| {
            let usable = w.width > 0 && w.height > 0;
            if !usable {
                notes.push("the window size is zero; the window opens at its usual size".into());
            }
            usable
        });
        let home_view = field(entries, HOME_VIEW, defaults.home_view, &mut notes, || {
            "homeView is not training, workouts, clients, remote or account; the window opens on Training"
                .into()
        });
        let remote = remote_from(entries.get(REMOTE), &mut notes);
        (Preferences { language, last_site, remote, auto_first_sync, window, home_view }, notes)
    }

    /// The store's entries for these preferences (one key per field; `null` for none).
    pub fn to_entries(&self) -> Map<String, Value> {
        match serde_json::to_value(self) {
            Ok(Value::Object(map)) => map,
            // A struct of plain fields always serialises as an object.
            _ => Map::new(),
        }
    }

    /// These preferences with `update`'s fields applied.
    pub fn apply(mut self, update: &PreferencesUpdate) -> Preferences {
        if let Some(language) = update.language {
            self.language = Some(language);
        }
        if let Some(auto) = update.auto_first_sync {
            self.auto_first_sync = auto;
        }
        if let Some(view) = update.home_view {
            self.home_view = Some(view);
        }
        self
    }
}

/// The field `key` of `entries` as a `T`; `default` when it is missing (or `null`), and also when
/// it does not read as a `T`, then with the note `why` (which never quotes the file's content).
fn field<T: serde::de::DeserializeOwned>(
    entries: &Map<String, Value>,
    key: &str,
    default: T,
    notes: &mut Vec<String>,
    why: impl FnOnce() -> String,
) -> T {
    match entries.get(key) {
        None | Some(Value::Null) => default,
        Some(value) => T::deserialize(value).unwrap_or_else(|_| {
            notes.push(why());
            default
        }),
    }
}

/// The remote-access choices, each read on its own so one bad field keeps the others.
fn remote_from(value: Option<&Value>, notes: &mut Vec<String>) -> RemoteSettings {
    let defaults = RemoteSettings::default();
    let entries = match value {
        None | Some(Value::Null) => return defaults,
        Some(Value::Object(entries)) => entries,
        Some(_) => {
            notes.push("the remote-access settings are not an object; using the defaults".into());
            return defaults;
        }
    };
    let network = field(entries, "network", defaults.network, notes, || {
        "remote.network is not true or false; this computer only".into()
    });
    let read_only = field(entries, "readOnly", defaults.read_only, notes, || {
        "remote.readOnly is not true or false; read-only".into()
    });
    let port = field(entries, "port", defaults.port, notes, || {
        format!("remote.port is not a port from 1 to 65535; using {}", defaults.port)
    });
    let port = if port == 0 {
        notes.push(format!("remote.port is not a port from 1 to 65535; using {}", defaults.port));
        defaults.port
    } else {
        port
    };
    let public_url = match entries.get("publicUrl") {
        None | Some(Value::Null) => None,
        Some(Value::String(url)) => Some(url.clone()).filter(|u| !u.trim().is_empty()),
        Some(_) => {
            notes.push("remote.publicUrl is not text; no public URL".into());
            None
        }
    };
    RemoteSettings { network, port, read_only, public_url }
}

/// The size to open the window at: `saved` no larger than the monitor (when known) and never
/// smaller than the window's minimum (which wins on a monitor smaller than it).
pub fn clamp_window(
    saved: WindowGeometry,
    minimum: (u32, u32),
    monitor: Option<(u32, u32)>,
) -> WindowGeometry {
    let fit = |size: u32, most: Option<u32>, least: u32| most.map_or(size, |m| size.min(m)).max(least);
    WindowGeometry {
        width: fit(saved.width, monitor.map(|m| m.0), minimum.0),
        height: fit(saved.height, monitor.map(|m| m.1), minimum.1),
        maximized: saved.maximized,
    }
}

/// The preferences file of the real data folder `data_dir`.
pub fn file_in(data_dir: &Path) -> PathBuf {
    data_dir.join(PREFERENCES_FILE)
}

/// What to remember after the window became `size` (logical pixels), `maximized` or not, when
/// `before` is remembered; none when nothing changes or the size is empty. While maximised the
/// size it returns to is kept.
pub fn window_after_resize(
    before: Option<WindowGeometry>,
    size: (f64, f64),
    maximized: bool,
) -> Option<WindowGeometry> {
    let next = match (maximized, before) {
        (true, Some(before)) => WindowGeometry { maximized: true, ..before },
        _ => WindowGeometry { width: size.0.round() as u32, height: size.1.round() as u32, maximized },
    };
    (next.width > 0 && next.height > 0 && before != Some(next)).then_some(next)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn entries(value: Value) -> Map<String, Value> {
        match value {
            Value::Object(map) => map,
            other => panic!("not an object: {other}"),
        }
    }

    #[test]
    fn an_empty_store_gives_the_defaults_without_notes() {
        let (preferences, notes) = Preferences::from_entries(&Map::new());
        assert_eq!(preferences, Preferences::default());
        assert!(notes.is_empty(), "{notes:?}");
        assert!(preferences.auto_first_sync, "the first sync starts by itself unless turned off");
        assert_eq!(
            preferences.remote,
            RemoteSettings { network: false, port: 8765, read_only: true, public_url: None }
        );
    }

    #[test]
    fn saved_preferences_read_back_as_they_were_written() {
        let saved = Preferences {
            language: Some(Language::Zh),
            last_site: Some(SiteChoice::Cn),
            remote: RemoteSettings { network: true, port: 9000, read_only: false, public_url: None },
            auto_first_sync: false,
            window: Some(WindowGeometry { width: 1200, height: 800, maximized: true }),
            home_view: Some(HomeView::Workouts),
        };
        let written = saved.to_entries();
        assert_eq!(written["language"], json!("zh"));
        assert_eq!(written["lastSite"], json!("cn"));
        assert_eq!(written["remote"], json!({ "network": true, "port": 9000, "readOnly": false }));
        assert_eq!(written["autoFirstSync"], json!(false));
        assert_eq!(written["homeView"], json!("workouts"));
        let (read, notes) = Preferences::from_entries(&written);
        assert_eq!(read, saved);
        assert!(notes.is_empty(), "{notes:?}");
    }

    #[test]
    fn the_public_url_of_remote_access_is_remembered_and_a_bad_one_is_dropped_with_a_note() {
        let remote = RemoteSettings {
            public_url: Some("https://pc.tail1.ts.net".into()),
            ..RemoteSettings::default()
        };
        let saved = Preferences { remote, ..Preferences::default() };
        let written = saved.to_entries();
        assert_eq!(written["remote"]["publicUrl"], json!("https://pc.tail1.ts.net"));
        assert_eq!(Preferences::from_entries(&written).0, saved);
        let (read, notes) =
            Preferences::from_entries(&entries(json!({ "remote": { "publicUrl": 7, "port": 9001 } })));
        assert_eq!((read.remote.public_url, read.remote.port), (None, 9001));
        assert!(notes.iter().any(|n| n.contains("publicUrl")), "{notes:?}");
    }

    #[test]
    fn an_unknown_language_falls_back_to_the_system_language_and_says_so_without_quoting_it() {
        let (preferences, notes) =
            Preferences::from_entries(&entries(json!({ "language": "klingon-secret", "lastSite": "cn" })));
        assert_eq!(preferences.language, None);
        assert_eq!(preferences.last_site, Some(SiteChoice::Cn), "the other fields are kept");
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].contains("language"), "{notes:?}");
        assert!(!notes[0].contains("klingon-secret"), "the file's content is not echoed: {notes:?}");
    }

    #[test]
    fn an_out_of_range_port_falls_back_to_the_default_and_keeps_the_other_remote_choices() {
        for port in [json!(0), json!(70000), json!(-1), json!("8080")] {
            let (preferences, notes) = Preferences::from_entries(&entries(
                json!({ "remote": { "network": true, "port": port, "readOnly": false } }),
            ));
            assert_eq!(
                preferences.remote,
                RemoteSettings { network: true, port: 8765, read_only: false, public_url: None },
                "port {port}"
            );
            assert_eq!(notes.len(), 1, "port {port}: {notes:?}");
            assert!(notes[0].contains("remote.port"), "{notes:?}");
        }
    }

    #[test]
    fn every_invalid_field_takes_its_default_with_one_note_each() {
        let (preferences, notes) = Preferences::from_entries(&entries(json!({
            "language": 3,
            "lastSite": "mars",
            "remote": "on",
            "autoFirstSync": "no",
            "window": { "width": -5, "height": 600, "maximized": false },
            "homeView": "settings",
            "somethingNewer": { "kept": "ignored" },
        })));
        assert_eq!(preferences, Preferences::default());
        assert_eq!(notes.len(), 6, "{notes:?}");
        assert!(notes.iter().any(|n| n.contains("homeView") && !n.contains("settings")), "{notes:?}");
    }

    #[test]
    fn a_zero_window_size_is_not_restored() {
        let (preferences, notes) = Preferences::from_entries(&entries(
            json!({ "window": { "width": 0, "height": 600, "maximized": false } }),
        ));
        assert_eq!(preferences.window, None);
        assert_eq!(notes.len(), 1, "{notes:?}");
    }

    #[test]
    fn an_update_changes_only_the_fields_it_gives() {
        let before = Preferences { last_site: Some(SiteChoice::Global), ..Preferences::default() };
        let after = before
            .clone()
            .apply(&PreferencesUpdate { language: Some(Language::Zh), ..PreferencesUpdate::default() });
        assert_eq!(after, Preferences { language: Some(Language::Zh), ..before.clone() });
        let after =
            after.apply(&PreferencesUpdate { auto_first_sync: Some(false), ..PreferencesUpdate::default() });
        assert_eq!(after.language, Some(Language::Zh), "an absent field is left as it was");
        assert!(!after.auto_first_sync);
        let after = after
            .apply(&PreferencesUpdate { home_view: Some(HomeView::Remote), ..PreferencesUpdate::default() });
        assert_eq!((after.home_view, after.auto_first_sync), (Some(HomeView::Remote), false));
        assert_eq!(after.last_site, Some(SiteChoice::Global));
    }

    #[test]
    fn a_partial_update_reads_from_the_uis_json_with_absent_fields_unchanged() {
        let update: PreferencesUpdate = serde_json::from_value(json!({ "autoFirstSync": false })).unwrap();
        assert_eq!(
            update,
            PreferencesUpdate { auto_first_sync: Some(false), ..PreferencesUpdate::default() }
        );
        let update: PreferencesUpdate = serde_json::from_value(json!({ "homeView": "clients" })).unwrap();
        assert_eq!(update.home_view, Some(HomeView::Clients));
        assert!(serde_json::from_value::<PreferencesUpdate>(json!({ "language": "fr" })).is_err());
    }

    #[test]
    fn a_maximised_window_keeps_the_size_it_returns_to_and_an_empty_size_is_not_remembered() {
        let normal = WindowGeometry { width: 1000, height: 700, maximized: false };
        assert_eq!(window_after_resize(None, (1000.4, 699.6), false), Some(normal), "rounded");
        assert_eq!(window_after_resize(Some(normal), (1000.0, 700.0), false), None, "unchanged");
        let maximized = window_after_resize(Some(normal), (1920.0, 1080.0), true);
        assert_eq!(maximized, Some(WindowGeometry { maximized: true, ..normal }));
        assert_eq!(
            window_after_resize(maximized, (1000.0, 700.0), false),
            Some(normal),
            "un-maximised: the size is remembered again"
        );
        // Maximised before any size was remembered: the maximised size, as maximised.
        assert_eq!(
            window_after_resize(None, (1920.0, 1080.0), true),
            Some(WindowGeometry { width: 1920, height: 1080, maximized: true })
        );
        assert_eq!(window_after_resize(Some(normal), (0.0, 0.0), false), None, "an empty size");
    }

    #[test]
    fn the_window_is_never_larger_than_the_monitor_nor_smaller_than_its_minimum() {
        let saved = |width, height| WindowGeometry { width, height, maximized: false };
        let minimum = (640, 480);
        // Fits: as saved.
        assert_eq!(clamp_window(saved(1000, 700), minimum, Some((1920, 1080))), saved(1000, 700));
        // Saved on a bigger monitor: shrunk to this one.
        assert_eq!(clamp_window(saved(3000, 2000), minimum, Some((1920, 1080))), saved(1920, 1080));
        // Smaller than the minimum (hand-edited): grown to it.
        assert_eq!(clamp_window(saved(100, 50), minimum, Some((1920, 1080))), saved(640, 480));
        // A monitor smaller than the minimum: the minimum wins.
        assert_eq!(clamp_window(saved(1000, 700), minimum, Some((600, 400))), saved(640, 480));
        // Unknown monitor: only the minimum applies.
        assert_eq!(clamp_window(saved(5000, 100), minimum, None), saved(5000, 480));
        let maximized = WindowGeometry { maximized: true, ..saved(800, 600) };
        assert!(clamp_window(maximized, minimum, None).maximized);
    }
}
