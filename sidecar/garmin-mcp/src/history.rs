//! The server's use of the local history (`history.sqlite3`, the `history` crate): cache-first
//! reads for tools and the label every such answer carries saying where its numbers came from.
//!
//! Rules: past days the history covers are answered from it; today, and any day after the
//! history's last finished sync, are read live from Garmin (one range request); `--no-cache`
//! answers everything live. The history is never created by a read (only `sync`/`sync_history`
//! make it), and any database error falls back to Garmin with a log line: a broken cache must never
//! sink a tool.

use std::sync::Mutex;

use ::history::History;
use chrono::{DateTime, Duration, NaiveDate, Utc};
use garmin::models::activities::ActivitySummary;
use rmcp::schemars;
use serde::Serialize;

use crate::domain::reading::Reading;
use crate::tool_error::ToolError;

/// The opened history of this server, if any (opened on first use; `None` until the file exists),
/// and the sync running in the background, if any.
#[derive(Debug, Default)]
pub(crate) struct Slot(pub(crate) Mutex<Option<History>>, pub(crate) Mutex<Option<std::sync::Arc<SyncJob>>>);

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

/// The activities of `from..=to` (newest first, optionally of one type and its children) from
/// the history where it covers the range, the days after it live; `None` when the history covers
/// none of the range (the caller reads Garmin as it always did).
pub(crate) async fn activities_cache_first(
    reading: &Reading,
    from: NaiveDate,
    to: NaiveDate,
    type_key: Option<&str>,
) -> Result<Option<(Vec<ActivitySummary>, DataSource)>, ToolError> {
    let Some(history) = &reading.history else { return Ok(None) };
    // Today is always live: its activities may still come.
    let yesterday = reading.yesterday();
    if from > yesterday {
        return Ok(None);
    }
    let stored = history.coverage(from, to.min(yesterday)).and_then(|coverage| {
        let Some(covered_to) = coverage.covered_to else { return Ok(None) };
        Ok(Some((history.activities(from, covered_to, type_key)?, covered_to, coverage.synced_at)))
    });
    let (mut rows, covered_to, synced_at) = match stored {
        Ok(Some(found)) => found,
        Ok(None) => return Ok(None),
        Err(e) => {
            tracing::warn!("reading the local history failed, answering live: {e}");
            return Ok(None);
        }
    };
    let live_after = covered_to < to;
    if live_after {
        let mut newer =
            reading.reads.activities_between(covered_to + Duration::days(1), to, type_key).await?.value;
        newer.append(&mut rows);
        rows = newer;
    }
    Ok(Some((rows, DataSource::history(covered_to, synced_at, live_after))))
}
