//! Where this user's files live: the home folder, the per-user settings folder of each OS, `PATH`
//! and the few variables that move client config files. Everything else in the crate reads paths
//! from an [`Env`], so tests run against a temporary home and can check the macOS and Windows
//! layouts on Linux.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::SetupError;

/// The operating system whose folder layout to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Os {
    /// Linux and other Unix-likes (XDG folders).
    Linux,
    /// macOS (`~/Library/Application Support`).
    Mac,
    /// Windows (`%APPDATA%`, `%USERPROFILE%`).
    Windows,
}

impl Os {
    /// The OS this program runs on.
    pub fn current() -> Os {
        if cfg!(target_os = "macos") {
            Os::Mac
        } else if cfg!(windows) {
            Os::Windows
        } else {
            Os::Linux
        }
    }
}

/// Environment variables that move a client's config file (read by [`Env::current`]).
pub const LOCATION_VARS: [&str; 4] = [CODEX_HOME, DSH_HOME, DEEPSEEK_MCP_CONFIG, XDG_CONFIG_HOME];

/// The XDG settings folder: Linux's settings folder, and opencode's on every OS.
pub(crate) const XDG_CONFIG_HOME: &str = "XDG_CONFIG_HOME";
/// Codex CLI's folder (default `~/.codex`).
pub(crate) const CODEX_HOME: &str = "CODEX_HOME";
/// DeepSeek Harness's folder (default `~/.dsh`).
pub(crate) const DSH_HOME: &str = "DSH_HOME";
/// DeepSeek-TUI's MCP file (default `~/.deepseek/mcp.json`).
pub(crate) const DEEPSEEK_MCP_CONFIG: &str = "DEEPSEEK_MCP_CONFIG";

/// The folders and variables that decide where client config files are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Env {
    /// Which OS layout to use.
    pub os: Os,
    /// The user's home folder (`%USERPROFILE%` on Windows); `~` in the docs.
    pub home: PathBuf,
    /// The per-user settings folder: Linux `$XDG_CONFIG_HOME` (default `~/.config`), macOS
    /// `~/Library/Application Support`, Windows `%APPDATA%` (Roaming).
    pub config_dir: PathBuf,
    /// The folders of `PATH`, searched to tell whether a client's command is installed.
    pub path: Vec<PathBuf>,
    /// Values of the [`LOCATION_VARS`] that are set.
    pub vars: BTreeMap<String, PathBuf>,
}

impl Env {
    /// The real environment of this process ([`Env::from_vars`] over its variables, with the OS's
    /// own answers for the home and settings folders as fallbacks).
    pub fn current() -> Result<Env, SetupError> {
        Env::from_vars(Os::current(), |name| std::env::var_os(name), dirs::home_dir(), dirs::config_dir())
    }

    /// The layout of `os` from environment variables (`var`), as the clients themselves find their
    /// folders, falling back to what the OS reports (`known_home`, `known_config`):
    ///
    /// * home: `%USERPROFILE%` on Windows (Node's `os.homedir()`, where the command-line clients keep
    ///   their dot-folders), `$HOME` elsewhere;
    /// * settings folder: Windows `%APPDATA%` (Electron's `appData`: Claude Desktop, VS Code, Cursor,
    ///   Cherry Studio), else `<home>\AppData\Roaming`; macOS `<home>/Library/Application Support`
    ///   (Electron ignores XDG there); Linux `$XDG_CONFIG_HOME` when absolute, else `<home>/.config`;
    /// * `PATH`, and the [`LOCATION_VARS`] that are set.
    pub fn from_vars(
        os: Os,
        var: impl Fn(&str) -> Option<OsString>,
        known_home: Option<PathBuf>,
        known_config: Option<PathBuf>,
    ) -> Result<Env, SetupError> {
        let set = |name: &str| var(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        let home_var = if os == Os::Windows { "USERPROFILE" } else { "HOME" };
        let home = set(home_var).or(known_home).ok_or(SetupError::NoHome)?;
        let config_dir = match os {
            Os::Windows => set("APPDATA").or(known_config).unwrap_or_else(|| default_config_dir(os, &home)),
            Os::Mac => default_config_dir(os, &home),
            Os::Linux => set(XDG_CONFIG_HOME)
                .filter(|dir| dir.is_absolute())
                .unwrap_or_else(|| default_config_dir(os, &home)),
        };
        let path = var("PATH").map(|p| std::env::split_paths(&p).collect()).unwrap_or_default();
        let vars = LOCATION_VARS.iter().filter_map(|name| Some(((*name).to_owned(), set(name)?))).collect();
        Ok(Env { os, home, config_dir, path, vars })
    }

    /// The default layout of `os` for a user whose home is `home`, with an empty `PATH` and no
    /// variables set: what tests start from.
    pub fn for_os(os: Os, home: impl Into<PathBuf>) -> Env {
        let home = home.into();
        let config_dir = default_config_dir(os, &home);
        Env { os, home, config_dir, path: Vec::new(), vars: BTreeMap::new() }
    }

    /// The same environment with one of the [`LOCATION_VARS`] set.
    #[must_use]
    pub fn with_var(mut self, name: &str, value: impl Into<PathBuf>) -> Env {
        self.vars.insert(name.to_owned(), value.into());
        self
    }

    /// The same environment with `PATH` set to `dirs`.
    #[must_use]
    pub fn with_path(mut self, dirs: Vec<PathBuf>) -> Env {
        self.path = dirs;
        self
    }

    /// `~/<relative>`.
    pub(crate) fn home_join(&self, relative: &str) -> PathBuf {
        join_relative(&self.home, relative)
    }

    /// `<config dir>/<relative>`.
    pub(crate) fn config_join(&self, relative: &str) -> PathBuf {
        join_relative(&self.config_dir, relative)
    }

    /// A location variable, when set.
    pub(crate) fn var(&self, name: &str) -> Option<&Path> {
        self.vars.get(name).map(PathBuf::as_path)
    }

    /// The full path of `command` when it is on `PATH` (with Windows' executable extensions).
    pub(crate) fn find_command(&self, command: &str) -> Option<PathBuf> {
        let names: Vec<String> = match self.os {
            Os::Windows => ["exe", "cmd", "bat"].iter().map(|ext| format!("{command}.{ext}")).collect(),
            Os::Linux | Os::Mac => vec![command.to_owned()],
        };
        self.path.iter().flat_map(|dir| names.iter().map(move |name| dir.join(name))).find(|p| p.is_file())
    }
}

/// Joins a `/`-separated relative path one component at a time, so the result uses the separator
/// of the OS we run on.
fn join_relative(base: &Path, relative: &str) -> PathBuf {
    relative.split('/').filter(|part| !part.is_empty()).fold(base.to_path_buf(), |acc, part| acc.join(part))
}

fn default_config_dir(os: Os, home: &Path) -> PathBuf {
    match os {
        Os::Linux => join_relative(home, ".config"),
        Os::Mac => join_relative(home, "Library/Application Support"),
        Os::Windows => join_relative(home, "AppData/Roaming"),
    }
}
