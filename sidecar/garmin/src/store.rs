//! `session.json`: the one file through which the desktop app and every `garmin-mcp` process share
//! the Garmin session.
//!
//! Rules every writer follows, because Garmin's refresh credential is one-time and losing a race
//! logs the user out:
//! * the folder is ours and 0700, the file 0600, and every file in the folder is opened without
//!   following links and read with a size cap (see [`local_data::private_files`]);
//! * every write is atomic: a temp file in the same folder, `fsync`, `rename`, `fsync` the folder —
//!   a reader (or a crash) sees the old complete file or the new complete file, never a mix;
//! * every read-modify-write holds an exclusive lock on `session.lock` (an OS file lock, released by
//!   the kernel if the holder dies) and re-reads the file under it; the holder writes its process id
//!   in the lock file, and a waiter gives up after [`LOCK_WAIT`] naming that process (a stopped
//!   process keeps its lock);
//! * plain reads take no lock (renames are atomic), so reading never waits for a refresh.
//!
//! The file may also hold a Personal API key (`personal_api`, see [`crate::personal`]) beside the web
//! session, or only that key: a web session written keeps the key already in the file, a key
//! written keeps the web session, and signing out of the web session keeps the key. A file without
//! a web session loads as "not signed in to the web".
//!
//! tauri-plugin-store must never manage this file: it rewrites whole files in place with mode 0644
//! and would overwrite a credential another process just rotated.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};

use local_data::atomic_file::{FileError, LockError, lock_exclusive, sync_dir, write_atomically};

use crate::personal::PersonalApiKey;
use crate::session::{FORMAT_VERSION, Session};

const SESSION_FILE: &str = "session.json";
const LOCK_FILE: &str = "session.lock";
const TEMP_PREFIX: &str = ".session-";
/// Largest session file read: a session is a few kilobytes.
const MAX_SESSION_BYTES: u64 = 1024 * 1024;
/// The file's field holding the Personal API key and its cached token.
const PERSONAL_FIELD: &str = "personal_api";
/// Longest wait for the session lock. A renewal holds it for one request to Garmin (with its
/// retries); longer means the holder is stuck or stopped.
pub const LOCK_WAIT: std::time::Duration = local_data::atomic_file::LOCK_WAIT;

/// Why the session file could not be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The OS refused a file operation.
    #[error("could not {action} {}: {source}; check that the folder exists, belongs to you and the disk is not full", path.display())]
    Io {
        /// What we were doing.
        action: &'static str,
        /// The file or folder.
        path: PathBuf,
        /// The OS error.
        source: io::Error,
    },
    /// The file exists but is not a session we can read.
    #[error("the session file {} is damaged ({message}); sign in again to replace it", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What was wrong.
        message: String,
    },
    /// Another process has held the session lock for longer than the store waits ([`LOCK_WAIT`]).
    #[error("another process{} has held the session lock for too long (a stopped process keeps it); \
             resume or end it, then try again", holder_text(*pid))]
    Busy {
        /// The holder's process id, when it wrote one.
        pid: Option<u32>,
    },
    /// The file was written by a newer version of this program.
    #[error("the session file {} has format {version}, newer than this program understands ({FORMAT_VERSION}); update Garmin MCP", path.display())]
    TooNew {
        /// The file.
        path: PathBuf,
        /// The version found.
        version: u32,
    },
}

/// ` (pid 123, garmin-mcp)`, as much as is known of a lock holder.
fn holder_text(pid: Option<u32>) -> String {
    let Some(pid) = pid else { return String::new() };
    let name =
        fs::read_to_string(format!("/proc/{pid}/comm")).map(|n| n.trim().to_owned()).unwrap_or_default();
    if name.is_empty() { format!(" (pid {pid})") } else { format!(" (pid {pid}, {name})") }
}

fn io_err<'a>(action: &'static str, path: &'a Path) -> impl FnOnce(io::Error) -> StoreError + 'a {
    move |source| StoreError::Io { action, path: path.to_path_buf(), source }
}

/// The shared session file in one data folder.
#[derive(Clone, Debug)]
pub struct SessionStore {
    dir: PathBuf,
    lock_wait: std::time::Duration,
}

/// A cheap fingerprint of the file on disk, to notice another process's write without reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FileStamp {
    len: u64,
    modified: Option<std::time::SystemTime>,
    #[cfg(unix)]
    inode: u64,
}

impl SessionStore {
    /// The store in `dir` (created on first write).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        SessionStore { dir: dir.into(), lock_wait: LOCK_WAIT }
    }

    /// The same store, waiting at most `wait` for the lock (tests; the default is [`LOCK_WAIT`]).
    #[must_use]
    pub fn with_lock_wait(mut self, wait: std::time::Duration) -> Self {
        self.lock_wait = wait;
        self
    }

    /// The store in the resolved data folder (`--data-dir`, `GARMIN_MCP_HOME`, platform default).
    pub fn resolve(explicit: Option<&Path>) -> Option<Self> {
        crate::resolve_data_dir(explicit).map(SessionStore::new)
    }

    /// The data folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Path of `session.json`.
    pub fn path(&self) -> PathBuf {
        self.dir.join(SESSION_FILE)
    }

    /// Reads the session without locking; `None` when nobody is signed in.
    pub fn load(&self) -> Result<Option<Session>, StoreError> {
        let Some(value) = self.load_raw()? else { return Ok(None) };
        if is_key_only(&value) {
            return Ok(None);
        }
        decode(&self.path(), value).map(Some)
    }

    /// Reads the Personal API key (and its cached token) without locking; `None` when none was
    /// added.
    pub fn load_personal(&self) -> Result<Option<PersonalApiKey>, StoreError> {
        let Some(value) = self.load_raw()? else { return Ok(None) };
        personal_of(&self.path(), &value)
    }

    /// The file as JSON (version checked), or `None` when there is none.
    fn load_raw(&self) -> Result<Option<serde_json::Value>, StoreError> {
        let path = self.path();
        local_data::private_files::check_folder(&self.dir)
            .map_err(io_err("use the data folder", &self.dir))?;
        let Some(bytes) = local_data::private_files::read_regular(&path, MAX_SESSION_BYTES)
            .map_err(io_err("read the session file", &path))?
        else {
            return Ok(None);
        };
        local_data::private_files::tighten_file(&path);
        parse(&path, &bytes).map(Some)
    }

    /// Takes the exclusive cross-process lock, waiting at most [`LOCK_WAIT`] for it.
    pub fn lock(&self) -> Result<StoreLock, StoreError> {
        self.ensure_dir()?;
        let file = lock_exclusive(&self.dir.join(LOCK_FILE), self.lock_wait).map_err(|e| match e {
            LockError::File(e) => e.into(),
            LockError::Busy { pid } => StoreError::Busy { pid },
        })?;
        Ok(StoreLock { store: self.clone(), _file: file })
    }

    /// Writes `session` atomically under the lock.
    pub fn save(&self, session: &Session) -> Result<(), StoreError> {
        self.lock()?.write(session)
    }

    /// Read-modify-write under the lock: `change` sees the current file content (re-read under the
    /// lock) and returns what to store (`None` removes the file). Returns what was stored.
    pub fn update<F>(&self, change: F) -> Result<Option<Session>, StoreError>
    where
        F: FnOnce(Option<Session>) -> Option<Session>,
    {
        let lock = self.lock()?;
        let next = change(lock.read()?);
        match &next {
            Some(session) => lock.write(session)?,
            None => lock.remove()?,
        }
        Ok(next)
    }

    /// Signs out locally: removes the session file (under the lock). Garmin has no confirmed
    /// server-side sign-out endpoint.
    pub fn clear(&self) -> Result<bool, StoreError> {
        let lock = self.lock()?;
        let existed = match self.load_raw() {
            Ok(Some(value)) => !is_key_only(&value),
            Ok(None) => false,
            Err(_) => self.path().exists(),
        };
        lock.remove()?;
        Ok(existed)
    }

    pub(crate) fn stamp(&self) -> Option<FileStamp> {
        let meta = fs::metadata(self.path()).ok()?;
        Some(FileStamp {
            len: meta.len(),
            modified: meta.modified().ok(),
            #[cfg(unix)]
            inode: std::os::unix::fs::MetadataExt::ino(&meta),
        })
    }

    fn ensure_dir(&self) -> Result<(), StoreError> {
        local_data::private_files::ensure_folder(&self.dir).map_err(io_err("use the data folder", &self.dir))
    }
}

/// Proof that this process holds the session lock; released on drop (or by the kernel on death).
#[derive(Debug)]
pub struct StoreLock {
    store: SessionStore,
    _file: File,
}

impl StoreLock {
    /// Re-reads the file (do this under the lock before deciding anything).
    pub fn read(&self) -> Result<Option<Session>, StoreError> {
        self.store.load()
    }

    /// Re-reads the Personal API key (do this under the lock before renewing its token).
    pub fn read_personal(&self) -> Result<Option<PersonalApiKey>, StoreError> {
        self.store.load_personal()
    }

    /// Atomically replaces the web session with `session`, keeping the Personal API key in the file.
    pub fn write(&self, session: &Session) -> Result<(), StoreError> {
        let mut value = serde_json::to_value(session).map_err(|e| StoreError::Corrupt {
            path: self.store.path(),
            message: format!("could not encode the session: {e}"),
        })?;
        if let (Some(obj), Some(key)) = (value.as_object_mut(), self.current_personal_value()?) {
            obj.insert(PERSONAL_FIELD.to_owned(), key);
        }
        self.write_value(&value)
    }

    /// Atomically sets (or with `None` removes) the Personal API key, keeping the web session.
    /// A file left with neither is removed.
    pub fn write_personal(&self, key: Option<&PersonalApiKey>) -> Result<(), StoreError> {
        let path = self.store.path();
        let mut value = self
            .store
            .load_raw()?
            .filter(serde_json::Value::is_object)
            .unwrap_or_else(|| serde_json::json!({ "version": FORMAT_VERSION }));
        let Some(obj) = value.as_object_mut() else { return Ok(()) };
        match key {
            Some(key) => {
                let encoded = serde_json::to_value(key).map_err(|e| StoreError::Corrupt {
                    path: path.clone(),
                    message: format!("could not encode the Personal API key: {e}"),
                })?;
                obj.insert(PERSONAL_FIELD.to_owned(), encoded);
            }
            None => {
                obj.remove(PERSONAL_FIELD);
            }
        }
        if is_key_only(&value) && value.get(PERSONAL_FIELD).is_none() {
            return self.remove_file();
        }
        self.write_value(&value)
    }

    /// The `personal_api` field of the file as it is now, if any.
    fn current_personal_value(&self) -> Result<Option<serde_json::Value>, StoreError> {
        Ok(self.store.load_raw()?.and_then(|mut v| v.as_object_mut()?.remove(PERSONAL_FIELD)))
    }

    /// Atomically replaces the file with `value`.
    fn write_value(&self, value: &serde_json::Value) -> Result<(), StoreError> {
        let json = serde_json::to_vec_pretty(value).map_err(|e| StoreError::Corrupt {
            path: self.store.path(),
            message: format!("could not encode the session: {e}"),
        })?;
        write_atomically(self.store.dir(), &self.store.path(), TEMP_PREFIX, &json)?;
        Ok(())
    }

    /// Removes the web session; a Personal API key in the file stays (the file then holds only it).
    pub fn remove(&self) -> Result<(), StoreError> {
        match self.current_personal_value() {
            Ok(Some(key)) => {
                self.write_value(&serde_json::json!({ "version": FORMAT_VERSION, PERSONAL_FIELD: key }))
            }
            // An unreadable file is removed whole, as before keys existed.
            Ok(None) | Err(StoreError::Corrupt { .. }) => self.remove_file(),
            Err(e) => Err(e),
        }
    }

    /// Removes the file.
    fn remove_file(&self) -> Result<(), StoreError> {
        let path = self.store.path();
        match fs::remove_file(&path) {
            Ok(()) => {
                sync_dir(self.store.dir());
                Ok(())
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(io_err("remove", &path)(e)),
        }
    }
}

impl From<FileError> for StoreError {
    fn from(e: FileError) -> Self {
        StoreError::Io { action: e.action, path: e.path, source: e.source }
    }
}

/// The file's JSON, refusing a newer format.
fn parse(path: &Path, bytes: &[u8]) -> Result<serde_json::Value, StoreError> {
    let value: serde_json::Value = serde_json::from_slice(bytes)
        .map_err(|e| StoreError::Corrupt { path: path.to_path_buf(), message: e.to_string() })?;
    let version = value.get("version").and_then(|v| v.as_u64()).unwrap_or(0);
    if version > u64::from(FORMAT_VERSION) {
        return Err(StoreError::TooNew {
            path: path.to_path_buf(),
            version: u32::try_from(version).unwrap_or(u32::MAX),
        });
    }
    Ok(value)
}

/// A file holding no web session: no cookie jar (only a Personal API key, or nothing).
fn is_key_only(value: &serde_json::Value) -> bool {
    value.get("cookies").is_none()
}

/// The Personal API key in the file's JSON, if any.
fn personal_of(path: &Path, value: &serde_json::Value) -> Result<Option<PersonalApiKey>, StoreError> {
    match value.get(PERSONAL_FIELD) {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(key) => serde_path_to_error::deserialize(key).map(Some).map_err(|e| StoreError::Corrupt {
            path: path.to_path_buf(),
            message: format!("at `{PERSONAL_FIELD}.{}`: {}", e.path(), e.inner()),
        }),
    }
}

fn decode(path: &Path, value: serde_json::Value) -> Result<Session, StoreError> {
    serde_path_to_error::deserialize(value).map_err(|e| StoreError::Corrupt {
        path: path.to_path_buf(),
        message: format!("at `{}`: {}", e.path(), e.inner()),
    })
}
