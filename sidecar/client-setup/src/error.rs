//! Why a client could not be configured, worded for the person who has to act: what was wrong,
//! that their file was left alone, and what to do next.

use std::io;
use std::path::PathBuf;

use crate::ClientId;

/// A configure or remove that did not happen. Whenever a file exists, it is left exactly as it was.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SetupError {
    /// No home folder, so no config file can be found.
    #[error("cannot find your home folder; set HOME (USERPROFILE on Windows) and try again")]
    NoHome,

    /// The existing config file does not parse.
    #[error(
        "{} is not valid {format} (line {line}, column {column}: {message}); it was left untouched. \
         Fix that spot by hand (or move the file away to start fresh) and try again, or add the \
         server yourself with the manual snippet",
        path.display()
    )]
    Malformed {
        /// The config file.
        path: PathBuf,
        /// `JSON`, `JSON with comments` or `TOML`.
        format: &'static str,
        /// 1-based line of the problem.
        line: usize,
        /// 1-based column of the problem.
        column: usize,
        /// What the parser expected.
        message: String,
    },

    /// The file parses, but a key we must write into holds something else (say `"mcpServers": []`).
    #[error(
        "in {}, `{key}` is {found} where a table of servers was expected; the file was left untouched. \
         Fix that key by hand, or add the server yourself with the manual snippet",
        path.display()
    )]
    UnexpectedShape {
        /// The config file.
        path: PathBuf,
        /// The key path, dot-separated (`(top level)` for the document itself).
        key: String,
        /// What it holds instead (`an array`, `a string`, …).
        found: String,
    },

    /// The config file is a symbolic link: renaming a new file over it would replace the link.
    #[error(
        "{} is a symbolic link, and garmin-mcp does not write through links (that would replace the \
         link with a plain file); add the server by hand to the file it points to, using the manual snippet",
        path.display()
    )]
    Symlink {
        /// The link.
        path: PathBuf,
    },

    /// There is no one file to edit: the client keeps its servers inside the app (Cherry Studio),
    /// or the file lives in each project (`.mcp.json`).
    #[error("{client} has no file garmin-mcp can edit for you: {hint}")]
    ManualOnly {
        /// The client.
        client: ClientId,
        /// Where to paste the snippet.
        hint: String,
    },

    /// The entry itself cannot go into a config file (relative or non-Unicode path, no name).
    #[error("the server entry cannot be written: {0}")]
    BadEntry(String),

    /// The OS refused a file operation.
    #[error(
        "could not {action} {}: {source}; check that the folder exists, belongs to you and the disk is not full",
        path.display()
    )]
    Io {
        /// What we were doing.
        action: &'static str,
        /// The file or folder.
        path: PathBuf,
        /// The OS error.
        source: io::Error,
    },

    /// The file changed under us on every attempt (the client rewriting it while running).
    #[error(
        "{} kept changing while garmin-mcp was editing it, so nothing was written; quit {client} \
         and try again",
        path.display()
    )]
    Busy {
        /// The client.
        client: ClientId,
        /// The config file.
        path: PathBuf,
    },

    /// The edit did not read back as intended; nothing was written.
    #[error(
        "could not merge the server into {} safely ({reason}); the file was left untouched. Add the \
         server yourself with the manual snippet",
        path.display()
    )]
    MergeFailed {
        /// The config file.
        path: PathBuf,
        /// What went wrong.
        reason: String,
    },
}
