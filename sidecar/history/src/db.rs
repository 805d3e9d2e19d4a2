//! Opening `history.sqlite3`: a private file (0600, in the 0700 data folder, never through a link),
//! WAL so readers never wait for a sync, a busy timeout so several processes (the app, every
//! sidecar, a `garmin-mcp sync` in a terminal) share it, and the schema migrated to the latest.
//!
//! A file SQLite cannot read (not a database, corrupt pages, a failed integrity check) is moved
//! aside as `history.sqlite3.broken-<time>` (with its `-wal`/`-shm`) and a fresh one started: the
//! history is a copy of what Garmin has, so the next sync fills it again. Nothing here is fatal to
//! a tool: callers fall back to Garmin when opening fails.

use std::fs::OpenOptions;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use rusqlite::{Connection, ErrorCode};

use crate::error::{HistoryError, Result};
use crate::schema;

/// The database's file name in the data folder.
pub const FILE_NAME: &str = "history.sqlite3";

/// How long a statement waits for another process's write before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(15);
/// How long a reader's statement waits ([`History::open_for_reads`]): a tool that finds the history
/// locked answers live at once rather than wait for it.
pub const READ_BUSY_TIMEOUT: Duration = Duration::from_millis(250);
/// Tries of the migration when another process migrates at the same moment.
const MIGRATE_TRIES: u32 = 40;

/// The local history: one connection, shared by the tasks of this process. Cheap to clone.
#[derive(Clone, Debug)]
pub struct History {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    path: PathBuf,
    conn: Mutex<Connection>,
    moved_aside: Option<PathBuf>,
}

impl History {
    /// Where the database lives in the data folder `dir`.
    pub fn path_in(dir: &Path) -> PathBuf {
        dir.join(FILE_NAME)
    }

    /// Opens (creating it if needed) the history in the data folder `dir`; a broken file is moved
    /// aside and replaced by an empty one ([`History::moved_aside`] says where it went).
    pub fn open(dir: &Path) -> Result<History> {
        local_data::private_files::ensure_folder(dir)?;
        let path = History::path_in(dir);
        match open_file(&path) {
            Ok(conn) => Ok(History::wrap(path, conn, None)),
            Err(e) if e.is_broken_file() => {
                let aside = move_aside(&path)?;
                tracing::warn!(file = %path.display(), moved_to = %aside.display(), error = %e,
                    "the history database could not be read; started a fresh one");
                let conn = open_file(&path)?;
                Ok(History::wrap(path, conn, Some(aside)))
            }
            Err(e) => Err(e),
        }
    }

    /// Opens the history only when its file exists (tools that read never create it).
    pub fn open_existing(dir: &Path) -> Result<Option<History>> {
        if !History::path_in(dir).exists() {
            return Ok(None);
        }
        History::open(dir).map(Some)
    }

    /// Opens the history for reading when its file exists, waiting at most [`READ_BUSY_TIMEOUT`]
    /// per statement (at opening, and for every query through it): when another process holds the
    /// database locked, this fails fast and the caller answers live. Blocking: call it off the async
    /// threads.
    pub fn open_for_reads(dir: &Path) -> Result<Option<History>> {
        History::open_existing_waiting(dir, READ_BUSY_TIMEOUT)
    }

    fn open_existing_waiting(dir: &Path, busy: Duration) -> Result<Option<History>> {
        let path = History::path_in(dir);
        if !path.exists() {
            return Ok(None);
        }
        local_data::private_files::ensure_folder(dir)?;
        let conn = open_file_waiting(&path, busy, 0)?;
        Ok(Some(History::wrap(path, conn, None)))
    }

    /// One trivial read: fails (after the busy timeout) when another process holds the database
    /// locked. Blocking.
    pub fn probe(&self) -> Result<()> {
        let _: i64 = self.conn().query_row("SELECT count(*) FROM sqlite_master", [], |r| r.get(0))?;
        Ok(())
    }

    /// True when `error` is SQLite saying another connection holds the database (busy or locked).
    pub fn is_busy(error: &HistoryError) -> bool {
        match error {
            HistoryError::Sqlite(e) => {
                matches!(e.sqlite_error_code(), Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked))
            }
            HistoryError::Migration(message) => message.contains("locked") || message.contains("busy"),
            _ => false,
        }
    }

    fn wrap(path: PathBuf, conn: Connection, moved_aside: Option<PathBuf>) -> History {
        History { inner: Arc::new(Inner { path, conn: Mutex::new(conn), moved_aside }) }
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    /// Where a broken file found at opening was moved, if one was.
    pub fn moved_aside(&self) -> Option<&Path> {
        self.inner.moved_aside.as_deref()
    }

    /// The connection, for one short piece of work (never held across an `.await`).
    pub(crate) fn conn(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock leaves SQLite consistent (transactions roll back on drop).
        self.inner.conn.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// Makes `history.sqlite3` in `dir` as the first released build did (schema version 1 only), for
/// tests proving that an old file upgrades in place.
#[doc(hidden)]
pub fn create_v1_for_tests(dir: &Path) -> Result<()> {
    local_data::private_files::ensure_folder(dir)?;
    let mut conn = Connection::open(History::path_in(dir))?;
    schema::v1_only().to_latest(&mut conn).map_err(|e| HistoryError::Migration(e.to_string()))?;
    Ok(())
}

/// Makes `history.sqlite3` in `dir` at schema version `version` (an older build's file), for tests
/// proving that it upgrades in place.
#[doc(hidden)]
pub fn create_version_for_tests(dir: &Path, version: usize) -> Result<()> {
    local_data::private_files::ensure_folder(dir)?;
    let mut conn = Connection::open(History::path_in(dir))?;
    schema::up_to(version).to_latest(&mut conn).map_err(|e| HistoryError::Migration(e.to_string()))?;
    Ok(())
}

/// Creates the file private if absent (refusing a link or a non-file there), then opens, tunes,
/// checks and migrates it.
fn open_file(path: &Path) -> Result<Connection> {
    open_file_waiting(path, BUSY_TIMEOUT, MIGRATE_TRIES)
}

/// [`open_file`], each statement waiting at most `busy` for another connection, and the migration
/// tried again up to `migrate_tries` times while another process migrates.
fn open_file_waiting(path: &Path, busy: Duration, migrate_tries: u32) -> Result<Connection> {
    let mut options = OpenOptions::new();
    options.read(true).write(true).create(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let file = local_data::private_files::open_regular(path, &mut options)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        if file.metadata()?.permissions().mode() & 0o077 != 0 {
            file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
        }
    }
    drop(file);
    let mut conn = Connection::open(path)?;
    conn.busy_timeout(busy)?;
    // SQLite answers "busy" at once, without its busy handler, when another process is switching
    // the same new file to WAL or recovering its log: try again until the busy timeout is spent.
    let deadline = std::time::Instant::now() + busy;
    loop {
        match tune_and_check(&conn) {
            Err(e) if History::is_busy(&e) && std::time::Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(20));
            }
            outcome => break outcome?,
        }
    }
    migrate(&mut conn, migrate_tries)?;
    Ok(conn)
}

/// WAL (readers see the last commit while a sync writes; NORMAL is durable at each checkpoint,
/// and a lost last transaction is just re-read from Garmin), foreign keys, and a quick check.
fn tune_and_check(conn: &Connection) -> Result<()> {
    let _mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
    conn.execute_batch("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;")?;
    let check: String = conn.query_row("PRAGMA quick_check(1)", [], |r| r.get(0))?;
    if check != "ok" {
        return Err(HistoryError::Corrupt(check));
    }
    Ok(())
}

/// Migrates to the latest schema; when another process migrates at the same moment, waits for it.
fn migrate(conn: &mut Connection, max_tries: u32) -> Result<()> {
    let migrations = schema::migrations();
    let mut tries = 0;
    loop {
        match migrations.to_latest(conn) {
            Ok(()) => return Ok(()),
            Err(e) if tries < max_tries && is_contention(&e) => {
                tries += 1;
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(e) => return Err(HistoryError::Migration(e.to_string())),
        }
    }
}

/// A migration that lost a race with another process: busy, or its tables already made.
fn is_contention(error: &rusqlite_migration::Error) -> bool {
    match error {
        rusqlite_migration::Error::RusqliteError { err, .. } => {
            matches!(err.sqlite_error_code(), Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked))
                || err.to_string().contains("already exists")
        }
        _ => false,
    }
}

/// Renames the broken file (and its WAL and shared-memory files) to `…broken-<unix time>`.
fn move_aside(path: &Path) -> Result<PathBuf> {
    let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%S%.3f");
    let aside = PathBuf::from(format!("{}.broken-{stamp}", path.display()));
    std::fs::rename(path, &aside)?;
    for suffix in ["-wal", "-shm"] {
        let side = PathBuf::from(format!("{}{suffix}", path.display()));
        if side.exists() {
            let _ = std::fs::rename(&side, format!("{}{suffix}", aside.display()));
        }
    }
    Ok(aside)
}

impl HistoryError {
    /// True when the file itself is unreadable as a database (as opposed to busy or unwritable).
    pub(crate) fn is_broken_file(&self) -> bool {
        match self {
            HistoryError::Corrupt(_) => true,
            HistoryError::Sqlite(e) => {
                matches!(e.sqlite_error_code(), Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt))
            }
            HistoryError::Migration(message) => {
                message.contains("not a database") || message.contains("malformed")
            }
            _ => false,
        }
    }
}
