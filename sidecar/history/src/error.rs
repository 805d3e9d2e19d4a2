//! What can go wrong with the local history, in words a person can act on.

/// A history error.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    /// SQLite refused a statement.
    #[error("the local history database failed: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The integrity check found damage.
    #[error("the local history database is damaged ({0})")]
    Corrupt(String),
    /// The schema could not be brought up to date (e.g. a file from a newer version).
    #[error(
        "the local history database could not be upgraded: {0}; update garmin-mcp, or move the file aside"
    )]
    Migration(String),
    /// The data folder or the file could not be used.
    #[error("the local history file could not be opened: {0}")]
    Io(#[from] std::io::Error),
    /// A piece of the sync's work off the async threads did not finish (it panicked, or the program
    /// is shutting down); what was committed before it stays.
    #[error("the sync stopped while {0}; run it again to continue")]
    Interrupted(String),
    /// A read was asked for something it cannot answer (the text says what and what to ask).
    #[error("{0}")]
    Invalid(String),
    /// Garmin refused in a way that stops the whole sync (no session, session expired).
    #[error(transparent)]
    Garmin(#[from] garmin::Error),
}

/// Result of history operations.
pub type Result<T> = std::result::Result<T, HistoryError>;
