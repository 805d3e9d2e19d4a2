//! The server's hold on the local history (`history.sqlite3`, the `history` crate): opening it for
//! reads and for a sync, the background sync, and the label every answer carries saying where its
//! numbers came from. The cache-first reads themselves take it through `crate::domain::reading`.
//!
//! Rules: past days the history covers are answered from it; today, and any day after the
//! history's last finished sync, are read live from Garmin (one range request); `--no-cache`
//! answers everything live. The history is never created by a read (only `sync`/`sync_history`
//! make it), and any database error falls back to Garmin with a log line: a broken cache must never
//! sink a tool.
//!
//! A locked history must not stall the server either (another process holding it exclusively once
//! made every runtime worker sit in SQLite's busy wait, and an unrelated `get_profile` wait 58 s).
//! So reads open and query the history on the blocking pool, on a connection of their own that
//! waits at most [`::history::READ_BUSY_TIMEOUT`] per statement; when it fails, the tool answers
//! live at once and the failure is remembered for [`RETRY_AFTER`], so later calls skip the history
//! instead of paying the timeout again. A sync uses a connection of its own, with the usual wait.

use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration as StdDuration, Instant};

use ::history::History;
use chrono::{DateTime, NaiveDate, Utc};
use rmcp::schemars;
use serde::Serialize;

use crate::tool_error::ToolError;

/// After a read of the history failed, how long tools answer live without trying it again.
pub const RETRY_AFTER: StdDuration = StdDuration::from_secs(60);

/// The history as this server reads it (opened on first use; nothing until the file exists; a
/// failure remembered for [`RETRY_AFTER`]), and the sync running in the background, if any.
#[derive(Debug, Default)]
pub(crate) struct Slot {
    reads: Mutex<Reads>,
    /// The sync this server runs or ran last (see `crate::tools::history`).
    pub(crate) job: Mutex<Option<std::sync::Arc<SyncJob>>>,
}

/// The read connection's state.
#[derive(Debug, Default)]
enum Reads {
    /// Not opened yet (or no file when last tried).
    #[default]
    Unopened,
    /// Opened and answering.
    Open(History),
    /// Opening or a read failed at this instant (locked, broken): skipped until [`RETRY_AFTER`].
    Failed(Instant),
}

impl Slot {
    fn reads(&self) -> std::sync::MutexGuard<'_, Reads> {
        self.reads.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Remembers that reading the history failed now.
    pub(crate) fn failed(&self) {
        *self.reads() = Reads::Failed(Instant::now());
    }

    /// The history for reads (the caller has checked `--no-cache`): `None` when there is no file
    /// yet, when it cannot be opened or read now (logged; the tool answers live), and for
    /// [`RETRY_AFTER`] after that. Opening and a trivial read to check it answers run on the
    /// blocking pool, each waiting at most [`::history::READ_BUSY_TIMEOUT`].
    pub(crate) async fn for_reads(&self, dir: &Path) -> Option<History> {
        let known = match &*self.reads() {
            Reads::Failed(at) if at.elapsed() < RETRY_AFTER => return None,
            Reads::Open(history) => Some(history.clone()),
            _ => None,
        };
        let dir = dir.to_path_buf();
        let checked = tokio::task::spawn_blocking(move || {
            let history = match known {
                Some(history) => history,
                None => match History::open_for_reads(&dir)? {
                    Some(history) => history,
                    None => return Ok(None),
                },
            };
            history.probe()?;
            Ok::<_, ::history::HistoryError>(Some(history))
        })
        .await;
        let mut reads = self.reads();
        match checked {
            Ok(Ok(Some(history))) => {
                *reads = Reads::Open(history.clone());
                Some(history)
            }
            Ok(Ok(None)) => {
                *reads = Reads::Unopened;
                None
            }
            Ok(Err(e)) => {
                tracing::warn!(
                    "the local history is not usable now, answering live for the next {} s: {e}",
                    RETRY_AFTER.as_secs()
                );
                *reads = Reads::Failed(Instant::now());
                None
            }
            Err(e) => {
                tracing::warn!("opening the local history stopped: {e}");
                None
            }
        }
    }
}

/// The history for a sync: a connection of its own, with the usual wait for other processes
/// (created when absent, a broken file moved aside). Blocking work runs on the blocking pool.
pub(crate) async fn open_for_sync(dir: &Path) -> Result<History, ToolError> {
    let dir = dir.to_path_buf();
    tokio::task::spawn_blocking(move || History::open(&dir))
        .await
        .map_err(|e| ToolError::Local(format!("opening the local history stopped: {e}")))?
        .map_err(|e| ToolError::Local(e.to_string()))
}

/// A sync running (or finished) in the background of this server: `sync_history` starts it, waits
/// a few seconds with progress notifications, and answers; a later call reports where it is or
/// how it ended. Only one runs at a time per server.
#[derive(Debug)]
pub(crate) struct SyncJob {
    /// What it was asked to do, in words (`since 2026-01-01, full`).
    pub asked: String,
    /// Progress and, once finished, the outcome (taken by the first call that reports it).
    pub state: tokio::sync::watch::Sender<JobState>,
}

/// Where a background sync is.
#[derive(Debug, Default)]
pub(crate) struct JobState {
    /// The last progress reported.
    pub progress: Option<::history::sync::Progress>,
    /// Set when it ended.
    pub outcome: Option<Result<::history::sync::SyncReport, ::history::HistoryError>>,
}

/// Where an answer's numbers came from and how fresh they are.
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
pub struct DataSource {
    /// `garmin` (read live now), `history` (the local history on this computer) or
    /// `history+garmin` (the history up to `history_to`, live from Garmin after it).
    pub from: String,
    /// Last day answered from the history.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub history_to: Option<String>,
    /// When that part of the history was read from Garmin (UTC, `YYYY-MM-DD HH:MM`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub history_synced_at: Option<String>,
}

impl DataSource {
    /// Everything read live just now.
    pub fn live() -> Self {
        DataSource { from: "garmin".to_owned(), history_to: None, history_synced_at: None }
    }

    /// The history up to `to` (read at `synced_at`), live after it when `live_after`.
    pub(crate) fn history(to: NaiveDate, synced_at: Option<DateTime<Utc>>, live_after: bool) -> Self {
        DataSource {
            from: if live_after { "history+garmin" } else { "history" }.to_owned(),
            history_to: Some(to.to_string()),
            history_synced_at: synced_at.map(|t| t.format("%Y-%m-%d %H:%M").to_string()),
        }
    }

    /// The phrase the summary ends with.
    pub fn phrase(&self) -> String {
        let synced =
            self.history_synced_at.as_deref().map(|t| format!(", synced {t} UTC")).unwrap_or_default();
        match self.from.as_str() {
            "history" => format!("Source: the local history on this computer{synced}."),
            "history+garmin" => format!(
                "Source: the local history to {}{synced}; later days live from Garmin.",
                self.history_to.as_deref().unwrap_or("")
            ),
            _ => "Source: Garmin, live.".to_owned(),
        }
    }
}
