//! What [`status`](crate::status), [`configure`](crate::configure) and [`remove`](crate::remove)
//! report back: plain data the CLI prints and the desktop app shows.

use std::fmt;
use std::path::PathBuf;

use crate::ClientId;

/// Whether a client looks installed and whether it already starts our server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientStatus {
    /// The client.
    pub client: ClientId,
    /// True when something of the client was found (see `detected_by`).
    pub installed: bool,
    /// How it was found, e.g. "found /home/ann/.codex" or "`codex` is on PATH (/usr/bin/codex)".
    pub detected_by: Option<String>,
    /// The file `configure` writes; `None` for clients without a file (Cherry Studio).
    pub config_path: Option<PathBuf>,
    /// Whether that file already holds our server.
    pub configured: Configured,
    /// The sidecar switches (`--demo`, `--readonly`) the stored entry passes; empty without one.
    pub entry_flags: Vec<String>,
}

/// Whether the client's config holds our server entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Configured {
    /// No entry of that name (or no config file yet).
    No,
    /// An entry that starts this `garmin-mcp` with these arguments.
    Yes,
    /// An entry of that name that differs; says how (never printing environment values).
    Different(String),
    /// Cannot tell: the file is unreadable or malformed, or the client keeps servers in the app.
    Unknown(String),
}

/// What a configure or remove did to one client's config file (an edit of a local file, not a change
/// to the Garmin account).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigEdit {
    /// The client.
    pub client: ClientId,
    /// The server name that was added or removed.
    pub server: String,
    /// The config file.
    pub path: PathBuf,
    /// What happened to it.
    pub outcome: Outcome,
    /// The copy of the file as it was before garmin-mcp first changed it (`<file>.garmin-mcp.bak`),
    /// when the file existed before.
    pub backup: Option<PathBuf>,
}

/// What happened to the config file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The file did not exist and was created with our entry.
    Created,
    /// The entry was added to an existing file.
    Added,
    /// An entry of that name was brought up to date (its other keys kept).
    Updated,
    /// The entry was already there and current; nothing was written.
    Unchanged,
    /// The entry was removed; everything else stayed.
    Removed,
    /// There was no entry to remove; nothing was written.
    NotPresent,
}

impl ConfigEdit {
    /// True when the file was written.
    pub fn wrote_file(&self) -> bool {
        matches!(self.outcome, Outcome::Created | Outcome::Added | Outcome::Updated | Outcome::Removed)
    }
}

impl fmt::Display for ConfigEdit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (client, server, path) = (self.client, &self.server, self.path.display());
        match self.outcome {
            Outcome::Created => write!(f, "Created {path} with the `{server}` server for {client}")?,
            Outcome::Added => write!(f, "Added the `{server}` server to {client}'s config {path}")?,
            Outcome::Updated => write!(f, "Updated the `{server}` server in {client}'s config {path}")?,
            Outcome::Unchanged => {
                return write!(f, "{client} is already set up: {path} starts the `{server}` server");
            }
            Outcome::Removed => write!(f, "Removed the `{server}` server from {client}'s config {path}")?,
            Outcome::NotPresent => {
                return write!(f, "{client} has no `{server}` server in {path}; nothing to remove");
            }
        }
        if let Some(backup) = &self.backup {
            write!(f, " (the original is kept in {})", backup.display())?;
        }
        write!(f, ". Restart {client} to load the change.")
    }
}
