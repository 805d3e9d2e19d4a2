//! The home window's *Sync* button: the `history` crate's resumable sync (28-day blocks, newest
//! first, a polite stop on Garmin's rate limit) run as a background task of the app, with its
//! progress sent to the main window as events, and what the local history holds.
//!
//! [`HistorySync`] is plain library code (no window): it keeps one job per data folder (the real
//! account's and the demo's), so a second click while a sync runs only reports where it is, and
//! hands every change of state to an `emit` callback. The commands at the end are the thin Tauri
//! side: they pick the account shown, make the Garmin client, and emit [`SYNC_EVENT`] to the main
//! window. The sidecars keep reading the same WAL database while it syncs, so tools never wait.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use chrono::{DateTime, NaiveDate, Utc};
use history::History;
use history::sync::{self, Progress, Stopped, SyncOptions, SyncReport};
use serde::Serialize;
use tauri::{AppHandle, Emitter as _, Runtime, State};

use crate::error::{Error, ErrorCode, Result};
use crate::state::Accounts;

/// The event the main window hears while a sync runs and when it ends (payload: [`SyncView`]).
pub const SYNC_EVENT: &str = "history-sync";
/// Least time between two progress events (the end is always sent).
const PROGRESS_EVERY: Duration = Duration::from_millis(150);

/// Where a sync is: days handled of the days to handle, requests sent, what is being read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct SyncProgressView {
    /// Days handled so far.
    pub done: u64,
    /// Days to handle in all (0 until known).
    pub total: u64,
    /// Requests sent to Garmin so far.
    pub requests: u32,
    /// What is being read, e.g. `reading 2026-10-19 to 2026-11-15` (English).
    pub message: String,
}

impl From<&Progress> for SyncProgressView {
    fn from(p: &Progress) -> Self {
        SyncProgressView { done: p.done, total: p.total, requests: p.requests, message: p.message.clone() }
    }
}

/// How a sync ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum SyncEnd {
    /// Every block of the range is finished.
    Complete,
    /// Garmin kept rate limiting: everything read is kept; run it again after `resumeAfter`.
    RateLimited,
    /// The request budget was spent: run it again to continue.
    Budget,
    /// It could not run (no session, Garmin refused it, the database could not be written).
    Failed,
}

/// The end of the last sync of an account.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct SyncOutcomeView {
    /// How it ended.
    pub end: SyncEnd,
    /// When it ended.
    pub finished_at: DateTime<Utc>,
    /// For `rate_limited`: when to run it again.
    pub resume_after: Option<DateTime<Utc>>,
    /// What was read, and what to do next, in one paragraph (English); `None` when it failed.
    pub summary: Option<String>,
    /// For `failed`: the one error shape.
    pub error: Option<Error>,
    /// Days read in this run.
    pub days_read: u32,
    /// Activities new to the history in this run.
    pub activities_added: u32,
    /// Requests sent in this run.
    pub requests: u32,
}

impl SyncOutcomeView {
    fn new(outcome: std::result::Result<SyncReport, history::HistoryError>, at: DateTime<Utc>) -> Self {
        match outcome {
            Ok(report) => {
                let (end, resume_after) = match &report.stopped {
                    Some(Stopped::RateLimited { resume_after }) => {
                        (SyncEnd::RateLimited, Some(*resume_after))
                    }
                    Some(Stopped::Budget { .. }) => (SyncEnd::Budget, None),
                    None => (SyncEnd::Complete, None),
                };
                SyncOutcomeView {
                    end,
                    finished_at: at,
                    resume_after,
                    summary: Some(report.summary()),
                    error: None,
                    days_read: report.days_read,
                    activities_added: report.activities_added,
                    requests: report.requests,
                }
            }
            Err(e) => SyncOutcomeView {
                end: SyncEnd::Failed,
                finished_at: at,
                resume_after: None,
                summary: None,
                error: Some(history_error(e)),
                days_read: 0,
                activities_added: 0,
                requests: 0,
            },
        }
    }
}

/// The sync of one account as the window shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct SyncView {
    /// The demo account's (so a window showing the other account ignores it).
    pub demo: bool,
    /// A sync is running now.
    pub running: bool,
    /// Where the running (or last) sync got to.
    pub progress: Option<SyncProgressView>,
    /// How the last sync ended, since the app started.
    pub last: Option<SyncOutcomeView>,
}

/// What the local history of an account holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct HistoryView {
    /// The history file exists.
    pub exists: bool,
    /// First day covered.
    pub first_day: Option<NaiveDate>,
    /// Last day covered (a day that was over when it was read).
    pub last_day: Option<NaiveDate>,
    /// Activities kept.
    pub activities: u64,
    /// Days kept.
    pub days: u64,
    /// When it was last synced (by the app or any `garmin-mcp`).
    pub last_synced_at: Option<DateTime<Utc>>,
    /// The database file.
    pub path: String,
}

/// The history card: what the history holds and where its sync is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct HistoryStatusView {
    /// What the history holds.
    pub history: HistoryView,
    /// The sync.
    pub sync: SyncView,
}

/// A history error in the one error shape: Garmin's own errors keep their code (sign in again…).
pub(crate) fn history_error(e: history::HistoryError) -> Error {
    match e {
        history::HistoryError::Garmin(e) => e.into(),
        other => Error::new(
            ErrorCode::Other,
            format!(
                "the local history could not be used: {other}; check that the data folder is writable, then sync again"
            ),
        ),
    }
}

/// What the history in `dir` holds (an absent file is an empty history; nothing is created).
pub fn history_view(dir: &Path) -> Result<HistoryView> {
    let path = History::path_in(dir).display().to_string();
    let Some(history) = History::open_existing(dir).map_err(history_error)? else {
        return Ok(HistoryView {
            exists: false,
            first_day: None,
            last_day: None,
            activities: 0,
            days: 0,
            last_synced_at: None,
            path,
        });
    };
    let s = history.summary().map_err(history_error)?;
    Ok(HistoryView {
        exists: true,
        first_day: s.first_day,
        last_day: s.last_day,
        activities: s.activities,
        days: s.days,
        last_synced_at: s.last_synced_at,
        path,
    })
}

/// One account's job.
#[derive(Debug, Default)]
struct Job {
    running: bool,
    progress: Option<SyncProgressView>,
    last: Option<SyncOutcomeView>,
}

/// Who hears about a sync's progress and end.
pub type Emit = Arc<dyn Fn(SyncView) + Send + Sync>;

/// The app's syncs (managed state): at most one running per data folder.
#[derive(Debug, Default)]
pub struct HistorySync {
    jobs: Arc<Mutex<HashMap<PathBuf, Job>>>,
}

fn view(jobs: &HashMap<PathBuf, Job>, dir: &Path, demo: bool) -> SyncView {
    let job = jobs.get(dir);
    SyncView {
        demo,
        running: job.is_some_and(|j| j.running),
        progress: job.and_then(|j| j.progress.clone()),
        last: job.and_then(|j| j.last.clone()),
    }
}

impl HistorySync {
    fn lock(&self) -> MutexGuard<'_, HashMap<PathBuf, Job>> {
        self.jobs.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Where the sync of the account in `dir` is.
    pub fn view(&self, dir: &Path, demo: bool) -> SyncView {
        view(&self.lock(), dir, demo)
    }

    /// Starts syncing the history in `dir` through the reader `garmin` in the background and returns at once.
    /// While a sync of `dir` runs, it only reports where that one is. Progress and the end go to
    /// `emit`. Fails (one error shape) only when the history file cannot be opened.
    pub fn start(
        &self,
        dir: &Path,
        demo: bool,
        garmin: garmin::Garmin,
        options: SyncOptions,
        emit: Emit,
    ) -> Result<SyncView> {
        let mut jobs = self.lock();
        if jobs.get(dir).is_some_and(|j| j.running) {
            return Ok(view(&jobs, dir, demo));
        }
        let history = History::open(dir).map_err(history_error)?;
        let job = jobs.entry(dir.to_path_buf()).or_default();
        job.running = true;
        job.progress = None;
        let started = view(&jobs, dir, demo);
        drop(jobs);

        let (all, dir) = (self.jobs.clone(), dir.to_path_buf());
        tauri::async_runtime::spawn(async move {
            let last_sent = Mutex::new(None::<Instant>);
            let tell = |p: &Progress| {
                let mut jobs = all.lock().unwrap_or_else(PoisonError::into_inner);
                if let Some(job) = jobs.get_mut(&dir) {
                    job.progress = Some(p.into());
                }
                let mut last = last_sent.lock().unwrap_or_else(PoisonError::into_inner);
                let due = last.is_none_or(|at| at.elapsed() >= PROGRESS_EVERY) || p.done >= p.total;
                if due {
                    *last = Some(Instant::now());
                    let shown = view(&jobs, &dir, demo);
                    drop(jobs);
                    emit(shown);
                }
            };
            let outcome = sync::sync(&history, &garmin, &options, &tell).await;
            let ended = {
                let mut jobs = all.lock().unwrap_or_else(PoisonError::into_inner);
                let job = jobs.entry(dir.clone()).or_default();
                job.running = false;
                job.last = Some(SyncOutcomeView::new(outcome, Utc::now()));
                view(&jobs, &dir, demo)
            };
            emit(ended);
        });
        Ok(started)
    }
}

/// The athlete's today on this computer.
pub(crate) fn today() -> NaiveDate {
    chrono::Local::now().date_naive()
}

/// What the history of the account shown holds, and where its sync is.
#[tauri::command]
pub async fn history_status(
    accounts: State<'_, Accounts>,
    syncs: State<'_, HistorySync>,
) -> Result<HistoryStatusView> {
    let (store, demo) = accounts.active();
    let dir = store.dir().to_path_buf();
    let history = tauri::async_runtime::spawn_blocking(move || history_view(&dir)).await.map_err(|e| {
        Error::new(ErrorCode::Other, format!("reading the local history stopped unexpectedly: {e}"))
    })??;
    Ok(HistoryStatusView { history, sync: syncs.view(store.dir(), demo) })
}

/// Starts syncing the history of the account shown in the background (the *Sync* button). With
/// `firstOnly` (the automatic first sync after sign-in) nothing starts when the history was synced
/// before. A sync already running is left alone and reported. Progress and the end arrive as
/// [`SYNC_EVENT`] events in the main window.
#[tauri::command]
pub async fn start_history_sync<R: Runtime>(
    app: AppHandle<R>,
    accounts: State<'_, Accounts>,
    syncs: State<'_, HistorySync>,
    first_only: Option<bool>,
) -> Result<SyncView> {
    let (store, demo) = accounts.active();
    if first_only.unwrap_or(false) && history_view(store.dir())?.last_synced_at.is_some() {
        return Ok(syncs.view(store.dir(), demo));
    }
    // The same reader the sidecar builds from the shared session file: the web session and/or
    // the Personal API key (`garmin::reads`).
    let garmin = garmin::Garmin::from_store(&store)?;
    let emit: Emit = Arc::new(move |view: SyncView| {
        let _ = app.emit_to(crate::MAIN_WINDOW, SYNC_EVENT, view);
    });
    syncs.start(store.dir(), demo, garmin, SyncOptions::new(today()), emit)
}
