//! The server entry we put into a client's config: how that client should start `garmin-mcp`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::SetupError;

/// The name our server gets in every client's list of servers.
pub const DEFAULT_SERVER_NAME: &str = "garmin";

/// The sidecar's switches a person may want in the entry: `--demo` (the offline demo account) and
/// `--readonly` (no tool writes to Garmin). [`ServerEntry::set_flag`] turns them on or off; a
/// configure that says nothing about one keeps what the entry already has.
pub const ENTRY_FLAGS: [&str; 2] = ["--demo", "--readonly"];

/// The option whose value is the data folder.
const DATA_DIR: &str = "--data-dir";

/// How a client starts the sidecar: `command args…` with `env` added to its environment.
///
/// An entry already in a config file may carry more arguments than `args` (a `--demo` or
/// `--toolsets` the person added by hand): configuring keeps them, puts `args` first, and takes
/// out only a second `--data-dir` and the flags listed in `without`.
///
/// Clients pass very few environment variables to the servers they start (Codex and the TypeScript
/// SDK drop `XDG_DATA_HOME` and friends), so the data folder travels as `--data-dir <absolute path>`
/// in `args`, never through the environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerEntry {
    /// The key under the client's servers, normally [`DEFAULT_SERVER_NAME`].
    pub name: String,
    /// Absolute path of the `garmin-mcp` binary (clients do not expand `~` or search `PATH` reliably).
    pub command: PathBuf,
    /// Arguments, including `--data-dir` and the absolute data folder.
    pub args: Vec<String>,
    /// Extra environment variables; usually empty.
    pub env: BTreeMap<String, String>,
    /// Flags (from [`ENTRY_FLAGS`]) the entry must not carry: the person turned them off.
    pub without: Vec<String>,
}

impl ServerEntry {
    /// The usual entry: server `garmin` running `command --data-dir <data_dir>`. Both paths must be
    /// absolute and valid Unicode (config files are text).
    pub fn new(command: impl Into<PathBuf>, data_dir: &Path) -> Result<ServerEntry, SetupError> {
        let command = command.into();
        let data_dir = absolute_text(data_dir, "the data folder")?;
        let entry = ServerEntry {
            name: DEFAULT_SERVER_NAME.to_owned(),
            command,
            args: vec!["--data-dir".to_owned(), data_dir.to_owned()],
            env: BTreeMap::new(),
            without: Vec::new(),
        };
        entry.validate()?;
        Ok(entry)
    }

    /// Checks what a config file needs: a name, an absolute Unicode command and an absolute
    /// `--data-dir`.
    pub(crate) fn validate(&self) -> Result<(), SetupError> {
        if self.name.trim().is_empty() {
            return Err(SetupError::BadEntry("the server name is empty".to_owned()));
        }
        absolute_text(&self.command, "the garmin-mcp program")?;
        if let Some(pos) = self.args.iter().position(|a| a == "--data-dir") {
            let dir = self.args.get(pos + 1).ok_or_else(|| {
                SetupError::BadEntry("`--data-dir` is the last argument; give it a folder".to_owned())
            })?;
            absolute_text(Path::new(dir), "the data folder")?;
        }
        Ok(())
    }

    /// Turns one of the [`ENTRY_FLAGS`] on (added to `args`) or off (listed in `without`, so an
    /// existing entry loses it).
    pub fn set_flag(&mut self, flag: &str, on: bool) {
        self.args.retain(|a| a != flag);
        self.without.retain(|a| a != flag);
        if on {
            self.args.push(flag.to_owned());
        } else {
            self.without.push(flag.to_owned());
        }
    }

    /// The same entry with `--demo` and `--readonly` as given (`None`: keep what a stored entry has).
    #[must_use]
    pub fn with_flags(mut self, demo: Option<bool>, readonly: Option<bool>) -> ServerEntry {
        for (flag, on) in ENTRY_FLAGS.into_iter().zip([demo, readonly]) {
            if let Some(on) = on {
                self.set_flag(flag, on);
            }
        }
        self
    }

    /// The arguments a stored entry should have: `args` first, then the person's own arguments
    /// from `stored` in their order — minus any `--data-dir` (ours replaces it), the flags already
    /// in `args` and the ones in `without`.
    pub(crate) fn merged_args(&self, stored: Option<&[String]>) -> Vec<String> {
        let mut merged = self.args.clone();
        let mut rest = stored.unwrap_or_default().iter();
        while let Some(arg) = rest.next() {
            if arg == DATA_DIR {
                rest.next();
                continue;
            }
            let flag = canonical(arg);
            let ours = arg.starts_with("--data-dir=")
                || (flag.starts_with("--") && self.args.iter().any(|a| a == flag))
                || self.without.iter().any(|a| a == flag);
            if !ours {
                merged.push(arg.clone());
            }
        }
        merged
    }

    /// Whether `stored` already holds what [`ServerEntry::merged_args`] would write, in any order
    /// (so a hand-sorted entry is not rewritten).
    pub(crate) fn args_match(&self, stored: &[String]) -> bool {
        let mut wanted = self.merged_args(Some(stored));
        let mut have = stored.to_vec();
        wanted.sort();
        have.sort();
        wanted == have
    }

    /// The [`ENTRY_FLAGS`] that `args` holds.
    pub(crate) fn flags_in(args: &[String]) -> Vec<String> {
        ENTRY_FLAGS
            .iter()
            .filter(|f| args.iter().any(|a| canonical(a) == **f))
            .map(|f| (*f).to_owned())
            .collect()
    }

    /// The command as text (lossy only for an entry that failed [`ServerEntry::validate`]).
    pub(crate) fn command_text(&self) -> String {
        self.command.to_string_lossy().into_owned()
    }
}

/// The sidecar accepts `--read-only` for `--readonly`: both are the same flag here.
fn canonical(arg: &str) -> &str {
    if arg == "--read-only" { "--readonly" } else { arg }
}

fn absolute_text<'a>(path: &'a Path, what: &str) -> Result<&'a str, SetupError> {
    let text = path.to_str().ok_or_else(|| {
        SetupError::BadEntry(format!(
            "the path of {what} ({}) is not valid Unicode; move it to a folder with a plain name",
            path.display()
        ))
    })?;
    // Accept both native absolute paths and the other OS's, so a Windows entry can be rendered
    // (and tested) on Linux: `C:\…` / `\\server\…` or `/…`.
    let windows_absolute =
        text.get(1..3).is_some_and(|s| s == ":\\" || s == ":/") || text.starts_with("\\\\");
    if path.is_absolute() || text.starts_with('/') || windows_absolute {
        Ok(text)
    } else {
        Err(SetupError::BadEntry(format!(
            "the path of {what} ({text}) is relative; clients start servers from unknown folders, so give an absolute path"
        )))
    }
}
