//! Where the shared data folder is: the desktop app's data directory, which every `garmin-mcp`
//! process must find without Tauri and without the environment AI clients strip.
//!
//! Order: an explicit `--data-dir`, then `GARMIN_MCP_HOME`, then `<per-user data folder>/<bundle
//! identifier>` ([`data_dir_for`]: the folder Tauri's `app_data_dir()` and tauri-plugin-store use:
//! `~/.local/share/<id>` on Linux, `~/Library/Application Support/<id>` on macOS,
//! `%APPDATA%\<id>` on Windows).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The desktop app's bundle identifier; names the data folder. Must equal `identifier` in
/// `src-tauri/tauri.conf.json`.
pub const APP_IDENTIFIER: &str = "dev.garminmcp.desktop";

/// Environment variable that overrides the data folder.
pub const DATA_DIR_ENV: &str = "GARMIN_MCP_HOME";

/// The platform's default data folder for the app, or `None` when the OS reports no home.
pub fn default_data_dir() -> Option<PathBuf> {
    let home = dirs::home_dir()?;
    Some(data_dir_for(std::env::consts::OS, &home, |name| std::env::var_os(name)))
}

/// The app's data folder on the OS `target_os` (`std::env::consts::OS`) for a user whose home is
/// `home`, reading environment variables through `var`, as `dirs::data_dir()` (hence Tauri) decides:
///
/// * Windows: `%APPDATA%` (Roaming, what the known folder `FOLDERID_RoamingAppData` is set to at
///   log-on), else `<home>\AppData\Roaming`;
/// * macOS: `<home>/Library/Application Support` (no variable moves it);
/// * Linux and other Unixes: `$XDG_DATA_HOME` when it is absolute, else `<home>/.local/share`.
pub fn data_dir_for(target_os: &str, home: &Path, var: impl Fn(&str) -> Option<OsString>) -> PathBuf {
    let set = |name: &str| var(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    let base = match target_os {
        "windows" => set("APPDATA").unwrap_or_else(|| home.join("AppData").join("Roaming")),
        "macos" => home.join("Library").join("Application Support"),
        _ => set("XDG_DATA_HOME")
            .filter(|dir| dir.is_absolute())
            .unwrap_or_else(|| home.join(".local").join("share")),
    };
    base.join(APP_IDENTIFIER)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<OsString> {
        let pairs: Vec<(String, String)> =
            pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
        move |name| pairs.iter().find(|(k, _)| k == name).map(|(_, v)| OsString::from(v))
    }

    #[test]
    fn windows_uses_appdata_roaming_and_falls_back_to_the_profile() {
        let home = Path::new("/users/ann");
        assert_eq!(
            data_dir_for("windows", home, vars(&[("APPDATA", "/roaming/ann")])),
            Path::new("/roaming/ann").join(APP_IDENTIFIER)
        );
        assert_eq!(
            data_dir_for("windows", home, vars(&[("APPDATA", ""), ("XDG_DATA_HOME", "/xdg")])),
            home.join("AppData").join("Roaming").join(APP_IDENTIFIER),
            "an empty %APPDATA% is no folder, and XDG means nothing on Windows"
        );
    }

    #[test]
    fn macos_uses_application_support_whatever_the_environment_says() {
        let home = Path::new("/Users/ann");
        assert_eq!(
            data_dir_for("macos", home, vars(&[("XDG_DATA_HOME", "/xdg"), ("APPDATA", "/x")])),
            home.join("Library").join("Application Support").join(APP_IDENTIFIER)
        );
    }

    #[test]
    fn linux_follows_an_absolute_xdg_data_home_only() {
        let home = Path::new("/home/ann");
        assert_eq!(
            data_dir_for("linux", home, vars(&[("XDG_DATA_HOME", "/data/ann")])),
            Path::new("/data/ann").join(APP_IDENTIFIER)
        );
        let default = home.join(".local").join("share").join(APP_IDENTIFIER);
        assert_eq!(data_dir_for("linux", home, vars(&[("XDG_DATA_HOME", "relative/dir")])), default);
        assert_eq!(data_dir_for("linux", home, vars(&[])), default);
        assert_eq!(data_dir_for("freebsd", home, vars(&[])), default, "other Unixes use XDG too");
    }
}
