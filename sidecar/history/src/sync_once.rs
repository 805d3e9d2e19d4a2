//! One sync at a time per data folder, across every process that shares it (the desktop app, each
//! `garmin-mcp` an AI client started, `garmin-mcp sync` in a terminal), and what the last one did.
//!
//! Two syncs of the same history read the same days from Garmin twice (four at once sent 3.5× the
//! requests) and only compete for Garmin's rate limit. So a sync first takes [`LOCK_NAME`] in the
//! data folder ([`try_lock`]): an OS lock on a private file, the same primitive as the session
//! file's lock (std's `File::try_lock`: `flock` on Unix, `LockFileEx` on Windows), released when the
//! [`SyncLock`] is dropped or by the kernel when its process dies, so a killed sync never blocks the
//! next one. A second sync is not started while it is held: the caller says who holds it.
//!
//! The holder writes into the same file who it is and, when it ends, what it did ([`Record`]), so
//! every process can report a sync that ended a moment ago ([`last_record`]) instead of starting
//! the same one again.

use std::fs::{File, OpenOptions};
use std::io::{Read as _, Seek as _, Write as _};
use std::path::{Path, PathBuf};

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};

use crate::sync::{Stopped, SyncOptions, SyncReport};
use crate::{HistoryError, Result};

/// The lock file in the data folder.
pub const LOCK_NAME: &str = "history-sync.lock";
/// Largest record read back (a few hundred bytes are written).
const MAX_RECORD_BYTES: u64 = 64 * 1024;

/// Who holds the lock and, once their sync ended, what it did.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The process that ran (or runs) the sync.
    pub pid: u32,
    /// When it started.
    pub started_at: Option<DateTime<Utc>>,
    /// Set when it ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished: Option<Finished>,
}

/// What a finished sync did, for the next caller to report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Finished {
    /// When it ended.
    pub at: DateTime<Utc>,
    /// First day of its range.
    pub from: NaiveDate,
    /// Every block of the range is in the history.
    pub complete: bool,
    /// Stopped by Garmin's rate limit: when to try again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume_after: Option<DateTime<Utc>>,
    /// Its report in a paragraph (`SyncReport::summary`), or why it failed.
    pub summary: String,
}

impl Finished {
    /// What the record keeps of a sync run with `options` that ended with `outcome`.
    pub fn of(options: &SyncOptions, outcome: &Result<SyncReport>) -> Finished {
        let at = Utc::now();
        match outcome {
            Ok(report) => Finished {
                at,
                from: report.from,
                complete: report.complete(),
                resume_after: match &report.stopped {
                    Some(Stopped::RateLimited { resume_after }) => Some(*resume_after),
                    _ => None,
                },
                summary: report.summary(),
            },
            Err(e) => Finished {
                at,
                from: options
                    .since
                    .unwrap_or(options.today - chrono::Duration::days(crate::sync::DEFAULT_DAYS)),
                complete: false,
                resume_after: None,
                summary: format!("It failed: {e}."),
            },
        }
    }
}

/// Another process (or another task of this one) holds the lock.
#[derive(Clone, Debug, PartialEq)]
pub struct Busy {
    /// What the holder wrote about itself, when it could be read.
    pub holder: Option<Record>,
}

/// Proof that this sync is the only one of the data folder; released when dropped.
#[derive(Debug)]
pub struct SyncLock {
    file: File,
    record: Record,
}

/// Takes the sync lock of the data folder `dir` without waiting: `Ok(Err(Busy))` while another
/// sync holds it.
pub fn try_lock(dir: &Path) -> Result<std::result::Result<SyncLock, Busy>> {
    local_data::private_files::ensure_folder(dir)?;
    let path = lock_path(dir);
    let mut options = OpenOptions::new();
    options.create(true).truncate(false).read(true).write(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let file = local_data::private_files::open_regular(&path, &mut options)?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => return Ok(Err(Busy { holder: read_record(&path) })),
        Err(std::fs::TryLockError::Error(e)) => return Err(HistoryError::Io(e)),
    }
    let mut lock = SyncLock {
        file,
        record: Record { pid: std::process::id(), started_at: Some(Utc::now()), finished: None },
    };
    lock.write()?;
    Ok(Ok(lock))
}

impl SyncLock {
    /// Records what the sync did and releases the lock.
    pub fn finish(mut self, finished: Finished) {
        self.record.finished = Some(finished);
        if let Err(e) = self.write() {
            tracing::warn!("could not record the end of the sync: {e}");
        }
    }

    fn write(&mut self) -> Result<()> {
        let json =
            serde_json::to_vec(&self.record).map_err(|e| HistoryError::Io(std::io::Error::other(e)))?;
        self.file.set_len(0)?;
        self.file.seek(std::io::SeekFrom::Start(0))?;
        self.file.write_all(&json)?;
        self.file.sync_data()?;
        Ok(())
    }
}

/// What the last sync of `dir` wrote about itself (running or ended); `None` when none ran yet or
/// the record cannot be read.
pub fn last_record(dir: &Path) -> Option<Record> {
    read_record(&lock_path(dir))
}

fn lock_path(dir: &Path) -> PathBuf {
    dir.join(LOCK_NAME)
}

fn read_record(path: &Path) -> Option<Record> {
    let mut options = OpenOptions::new();
    options.read(true);
    let file = local_data::private_files::open_regular(path, &mut options).ok()?;
    let mut bytes = Vec::new();
    file.take(MAX_RECORD_BYTES).read_to_end(&mut bytes).ok()?;
    serde_json::from_slice(&bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finished() -> Finished {
        Finished {
            at: Utc::now(),
            from: NaiveDate::from_ymd_opt(2025, 11, 15).unwrap(),
            complete: true,
            resume_after: None,
            summary: "History from 2025-11-15 to 2026-11-15".to_owned(),
        }
    }

    #[test]
    fn a_second_sync_of_the_same_folder_is_refused_while_the_first_holds_the_lock() {
        let dir = tempfile::tempdir().unwrap();
        let first = try_lock(dir.path()).unwrap().expect("the first sync takes the lock");
        let busy = try_lock(dir.path()).unwrap().expect_err("a second sync must not start");
        let holder = busy.holder.expect("the holder says who it is");
        assert_eq!((holder.pid, holder.finished), (std::process::id(), None));
        first.finish(finished());
        let record = last_record(dir.path()).unwrap();
        assert_eq!(record.finished.map(|f| f.complete), Some(true));
        let again = try_lock(dir.path()).unwrap().expect("free once the first ended");
        drop(again);
        assert!(try_lock(dir.path()).unwrap().is_ok(), "dropping a lock releases it");
    }
}
