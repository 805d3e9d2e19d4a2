//! The server entry we put into a client's config: how that client should start `garmin-mcp`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::SetupError;

/// The name our server gets in every client's list of servers.
pub const DEFAULT_SERVER_NAME: &str = "garmin";

/// How a client starts the sidecar: `command args…` with `env` added to its environment.
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

    /// The command as text (lossy only for an entry that failed [`ServerEntry::validate`]).
    pub(crate) fn command_text(&self) -> String {
        self.command.to_string_lossy().into_owned()
    }
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
