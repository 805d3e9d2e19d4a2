//! The `history` toolset: `sync_history` (fill the local history on this computer from Garmin,
//! with MCP progress notifications) and the analyses computed from that history.
//!
//! A sync is Garmin's time and the account's rate limit, so `sync_history` runs one only when one
//! is due: a call while this server syncs reports on that sync; a call while another process syncs
//! the same data folder reports that ([`::history::sync_once`], the folder's sync lock); and a call
//! within [`REPORT_FOR`] of a sync that ended (here or in another process) reports what it did
//! instead of running it again — unless it asks for days before that sync's range, or that sync
//! stopped on a request budget (calling again continues it). After Garmin's rate limit, the sync is
//! reported until the time Garmin gave.

use ::history::sync::{self, Progress, Stopped, SyncOptions, SyncReport};
use ::history::sync_once::{self, Finished, SyncLock};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::ProgressNotificationParam;
use rmcp::service::RequestContext;
use rmcp::{RoleServer, schemars, tool, tool_router};
use serde::{Deserialize, Serialize};

use crate::domain::dates::{Day, arg, day_of, parse_opt_date};
use crate::domain::fitness::{FitnessTrend, fitness_trend, trend_range};
use crate::history::{JobState, SyncJob};
use crate::output::Answer;
use crate::server::GarminMcp;
use crate::tool_error::ToolError;
use analytics::pmc::PmcConstants;

/// Largest `max_requests`.
const MAX_REQUESTS: u32 = 20_000;

/// Arguments of `sync_history`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct SyncHistoryArgs {
    /// First day to keep, `YYYY-MM-DD` (default: a year before today on the first sync; later
    /// syncs only read what changed).
    #[serde(default)]
    pub since: Option<String>,
    /// Read everything in the range again, even what is already in the history. Default false.
    #[serde(default)]
    pub full: Option<bool>,
    /// Stop after this many Garmin requests and say how to continue (1–20000; default: no limit
    /// but Garmin's own rate limit).
    #[serde(default)]
    #[schemars(range(min = 1, max = 20000))]
    pub max_requests: Option<u32>,
}

/// How long `sync_history` waits for the sync before answering that it goes on in the background
/// (clients time tools out; a year against the real Garmin takes minutes).
const WAIT: std::time::Duration = std::time::Duration::from_secs(8);

/// How long a finished sync is reported to later calls instead of being run again: Garmin has
/// nothing newer to give within minutes (late uploads are read again at the next sync anyway).
pub const REPORT_FOR: std::time::Duration = std::time::Duration::from_secs(10 * 60);

/// The answer of `sync_history`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct SyncAnswer {
    /// `complete` (the whole range is in the history), `stopped` (rate limit or request budget;
    /// what was read is kept), `running` (it goes on in the background) or `running_elsewhere`
    /// (another program on this computer is syncing the same history; none was started).
    pub status: String,
    /// For a sync that had already ended when this call came (reported, not run again): when it
    /// ended (UTC, `YYYY-MM-DD HH:MM`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ended_at: Option<String>,
    /// What the sync was asked to do.
    pub asked: String,
    /// Days handled so far.
    pub days_done: u64,
    /// Days to handle in all.
    pub days_total: u64,
    /// Requests sent to Garmin so far.
    pub requests: u32,
    /// First day of the synced range (once finished).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// Last day (today).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// 28-day blocks in the range.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocks: Option<u32>,
    /// Blocks read by this sync.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocks_synced: Option<u32>,
    /// Blocks already up to date (not read again).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocks_skipped: Option<u32>,
    /// Daily summaries read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub days_read: Option<u32>,
    /// Activities new to the history.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activities_added: Option<u32>,
    /// Activities read again (possibly changed on Garmin).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activities_updated: Option<u32>,
    /// Activities removed because Garmin no longer has them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activities_removed: Option<u32>,
    /// Seconds the sync took.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seconds: Option<f64>,
    /// `rate_limited` or `request_budget` when it stopped early.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stopped: Option<String>,
    /// When to run it again after a rate limit (UTC, `YYYY-MM-DD HH:MM`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resume_after: Option<String>,
    /// Parts that could not be read (tried again next time).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub problems: Vec<String>,
    /// Activities now in the history.
    pub history_activities: u64,
    /// Days now in the history.
    pub history_days: u64,
    /// The database file.
    pub database: String,
}

impl SyncAnswer {
    fn new(asked: &str, progress: Option<&Progress>, history: &::history::History) -> SyncAnswer {
        let counts = history.counts().ok();
        SyncAnswer {
            status: "running".to_owned(),
            ended_at: None,
            asked: asked.to_owned(),
            days_done: progress.map_or(0, |p| p.done),
            days_total: progress.map_or(0, |p| p.total),
            requests: progress.map_or(0, |p| p.requests),
            from: None,
            to: None,
            blocks: None,
            blocks_synced: None,
            blocks_skipped: None,
            days_read: None,
            activities_added: None,
            activities_updated: None,
            activities_removed: None,
            seconds: None,
            stopped: None,
            resume_after: None,
            problems: Vec::new(),
            history_activities: counts.map_or(0, |c| c.activities),
            history_days: counts.map_or(0, |c| c.days),
            database: history.path().display().to_string(),
        }
    }

    fn finished(mut self, report: &SyncReport) -> SyncAnswer {
        let (stopped, resume_after) = match &report.stopped {
            Some(Stopped::RateLimited { resume_after }) => {
                (Some("rate_limited".to_owned()), Some(resume_after.format("%Y-%m-%d %H:%M").to_string()))
            }
            Some(Stopped::Budget { .. }) => (Some("request_budget".to_owned()), None),
            None => (None, None),
        };
        self.status = if report.complete() { "complete" } else { "stopped" }.to_owned();
        self.days_done = self.days_total.max(self.days_done);
        self.requests = report.requests;
        self.from = Some(report.from.to_string());
        self.to = Some(report.to.to_string());
        self.blocks = Some(report.blocks);
        self.blocks_synced = Some(report.blocks_synced);
        self.blocks_skipped = Some(report.blocks_skipped);
        self.days_read = Some(report.days_read);
        self.activities_added = Some(report.activities_added);
        self.activities_updated = Some(report.activities_updated);
        self.activities_removed = Some(report.activities_removed);
        self.seconds = Some((report.elapsed.as_secs_f64() * 10.0).round() / 10.0);
        self.stopped = stopped;
        self.resume_after = resume_after;
        self.problems = report.problems.iter().take(10).map(|p| p.text.clone()).collect();
        self
    }
}

/// A failed sync as a tool error: Garmin's own errors keep their kind (so a lost session still
/// leads to `login`), database problems say so.
fn sync_error(error: ::history::HistoryError) -> ToolError {
    match error {
        ::history::HistoryError::Garmin(e) => ToolError::from(e),
        other => ToolError::Local(format!("{other}. Run `garmin-mcp sync` in a terminal to see more.")),
    }
}

#[tool_router(router = history_tools, vis = "pub(crate)")]
impl GarminMcp {
    /// Copy the athlete's Garmin history (activities with laps and heart-rate zones, daily health,
    /// sleep, HRV, weight, training status) into the local history on this computer, so later
    /// questions about past weeks and months are answered from it in milliseconds without asking
    /// Garmin. The first sync reads a year (or from `since`); later ones only what changed plus
    /// the last few days Garmin may still revise. Sends progress notifications; if Garmin rate
    /// limits, it stops politely, keeps what it read and says when to run it again.
    #[tool(
        name = "sync_history",
        annotations(
            title = "Sync the local history from Garmin",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<SyncAnswer>()
    )]
    async fn sync_history(
        &self,
        Parameters(args): Parameters<SyncHistoryArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<Answer<SyncAnswer>, ToolError> {
        let today = self.today();
        let options = sync_options(&args, today)?;
        let history = self.history_for_sync().await?;
        let (job, joined) = match self.running_job() {
            Some(job) => (job, true),
            None => {
                if let Some(answer) = self.report_recent(&options, &history) {
                    return Ok(answer);
                }
                let lock = match sync_once::try_lock(self.store().dir()) {
                    Ok(Ok(lock)) => lock,
                    Ok(Err(busy)) => match self.running_job() {
                        // Another call of this server took the lock a moment ago: report on its sync.
                        Some(job) => return self.report_job(job, true, &history, &ctx).await,
                        None => return Ok(self.running_elsewhere(&busy, &history)),
                    },
                    Err(e) => return Err(sync_error(e)),
                };
                let reads = self.reads().await?;
                self.join_or_start(&history, &reads, options, lock)
            }
        };
        self.report_job(job, joined, &history, &ctx).await
    }
}

impl GarminMcp {
    /// Waits a little for `job` and answers where it is, or what it did once it ended.
    async fn report_job(
        &self,
        job: std::sync::Arc<SyncJob>,
        joined: bool,
        history: &::history::History,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<Answer<SyncAnswer>, ToolError> {
        let outcome = wait_for(&job, ctx).await;
        let answer = SyncAnswer::new(&job.asked, job.state.borrow().progress.as_ref(), history);
        let Some(outcome) = outcome else {
            let summary = running_summary(joined, &job.asked, &answer);
            return Ok(self.answer(summary, answer));
        };
        // Finished: this call reports it; later calls report it from the folder's sync record
        // (`report_recent`) until a new sync is due.
        self.release_job(&job);
        let report = outcome.map_err(sync_error)?;
        // The sources the sync read from are this answer's (`_meta`).
        if let Ok(reads) = self.reads().await {
            report.served_by.iter().for_each(|source| reads.note(*source));
        }
        let summary = finished_summary(joined, &job.asked, &report, history);
        Ok(self.answer(summary, answer.finished(&report)))
    }

    /// The sync this server runs now, if any.
    fn running_job(&self) -> Option<std::sync::Arc<SyncJob>> {
        self.history_slot().job.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }

    /// The sync this call reports on: the one already running (`true`: joined), else a new one
    /// started with `options` under the folder's sync `lock` and kept in the server's slot.
    fn join_or_start(
        &self,
        history: &::history::History,
        reads: &garmin::Garmin,
        options: SyncOptions,
        lock: SyncLock,
    ) -> (std::sync::Arc<SyncJob>, bool) {
        let mut slot = self.history_slot().job.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        match slot.as_ref() {
            Some(job) => (job.clone(), true),
            None => {
                let job = start_job(history.clone(), reads.fresh(), options, lock);
                *slot = Some(job.clone());
                (job, false)
            }
        }
    }

    /// Empties the server's slot when it still holds `job` (a finished sync).
    fn release_job(&self, job: &std::sync::Arc<SyncJob>) {
        let mut slot = self.history_slot().job.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if slot.as_ref().is_some_and(|j| std::sync::Arc::ptr_eq(j, job)) {
            *slot = None;
        }
    }

    /// The answer reporting the sync of this data folder that ended within [`REPORT_FOR`] (by any
    /// process), when it still stands for what `options` asks; `None` when a sync is due.
    fn report_recent(
        &self,
        options: &SyncOptions,
        history: &::history::History,
    ) -> Option<Answer<SyncAnswer>> {
        let finished = sync_once::last_record(self.store().dir())?.finished?;
        let now = chrono::Utc::now();
        let age = (now - finished.at).to_std().unwrap_or_default();
        let waiting_for_garmin = finished.resume_after.is_some_and(|at| at > now);
        let stands = (finished.complete && age < REPORT_FOR) || waiting_for_garmin;
        if !stands || options.since.is_some_and(|since| since < finished.from) {
            return None;
        }
        let mut answer =
            SyncAnswer::new(&format!("since {} (an earlier sync)", finished.from), None, history);
        answer.status = if finished.complete { "complete" } else { "stopped" }.to_owned();
        answer.ended_at = Some(finished.at.format("%Y-%m-%d %H:%M").to_string());
        answer.from = Some(finished.from.to_string());
        answer.resume_after = finished.resume_after.map(|at| at.format("%Y-%m-%d %H:%M").to_string());
        Some(self.answer(reported_summary(&finished, age), answer))
    }

    /// The answer when another process holds the folder's sync lock.
    fn running_elsewhere(&self, busy: &sync_once::Busy, history: &::history::History) -> Answer<SyncAnswer> {
        let mut answer = SyncAnswer::new("another program's sync", None, history);
        answer.status = "running_elsewhere".to_owned();
        let who = busy.holder.as_ref().map_or_else(String::new, |h| format!(" (process {})", h.pid));
        let since = busy
            .holder
            .as_ref()
            .and_then(|h| h.started_at)
            .map_or_else(String::new, |t| format!(" since {} UTC", t.format("%Y-%m-%d %H:%M")));
        let summary = format!(
            "Another program on this computer{who} is syncing this history{since}, so no second sync was started (it would read the same days from Garmin again). Tools answer from what the history already holds and live for the rest; its result is reported by sync_history once it ends."
        );
        self.answer(summary, answer)
    }
}

/// The summary of a sync that had already ended when this call came.
fn reported_summary(finished: &Finished, age: std::time::Duration) -> String {
    let minutes = age.as_secs() / 60;
    let when = match minutes {
        0 => "less than a minute ago".to_owned(),
        1 => "1 minute ago".to_owned(),
        m => format!("{m} minutes ago"),
    };
    let next = match finished.resume_after {
        Some(at) if !finished.complete => {
            format!("Garmin asked to wait, so no new sync runs before {} UTC.", at.format("%Y-%m-%d %H:%M"))
        }
        _ => format!(
            "It is not run again within {} minutes of a sync: Garmin has nothing newer yet. Tools answer from the history now.",
            REPORT_FOR.as_secs() / 60
        ),
    };
    format!("The history was synced {when}; no new sync was started. That sync: {} {next}", finished.summary)
}

/// The sync asked for by the arguments: `since` not after today, `max_requests` within
/// 1..=[`MAX_REQUESTS`].
fn sync_options(args: &SyncHistoryArgs, today: chrono::NaiveDate) -> Result<SyncOptions, ToolError> {
    let since = parse_opt_date("since", args.since.as_deref(), today)?;
    if let Some(since) = since
        && since > today
    {
        return Err(ToolError::invalid(format!("since {since} is after today ({today})")));
    }
    if let Some(n) = args.max_requests
        && !(1..=MAX_REQUESTS).contains(&n)
    {
        return Err(ToolError::invalid(format!(
            "max_requests must be between 1 and {MAX_REQUESTS}, got {n}"
        )));
    }
    let full = args.full.unwrap_or(false);
    Ok(SyncOptions { today, since, full, request_budget: args.max_requests })
}

/// The summary of a sync still running when this call stops waiting.
fn running_summary(joined: bool, asked: &str, answer: &SyncAnswer) -> String {
    format!(
        "{} ({}) goes on in the background: {} of {} days read so far in {} requests. Tools keep answering (live from Garmin for days not yet in the history); a later sync_history call reports where it is without starting another.",
        if joined { "A sync started earlier" } else { "The sync" },
        asked,
        answer.days_done,
        answer.days_total,
        answer.requests
    )
}

/// The summary of a finished sync: the report's own sentence, which sync it was when this call
/// joined one, a history file moved aside, and how to continue after an early stop.
fn finished_summary(joined: bool, asked: &str, report: &SyncReport, history: &::history::History) -> String {
    let mut summary = report.summary();
    if joined {
        summary = format!("A sync started earlier ({asked}) has ended. {summary}");
    }
    if let Some(aside) = history.moved_aside() {
        summary.push_str(&format!(
            " The previous history file could not be read and was moved aside to {}; this sync started a fresh one.",
            aside.display()
        ));
    }
    if matches!(report.stopped, Some(Stopped::Budget { .. })) {
        summary.push_str(" Call sync_history again to continue.");
    }
    summary
}

/// Starts a sync in the background of this server, holding the folder's sync `lock` until it ends
/// and recording there what it did.
fn start_job(
    history: ::history::History,
    reads: garmin::Garmin,
    options: SyncOptions,
    lock: SyncLock,
) -> std::sync::Arc<SyncJob> {
    let asked = match (options.since, options.full) {
        (Some(since), true) => format!("since {since}, everything read again"),
        (Some(since), false) => format!("since {since}"),
        (None, true) => "the last year, everything read again".to_owned(),
        (None, false) => "the last year, what changed".to_owned(),
    };
    let (state, _) = tokio::sync::watch::channel(JobState::default());
    let job = std::sync::Arc::new(SyncJob { asked, state });
    let running = job.clone();
    tokio::spawn(async move {
        let tell = {
            let running = running.clone();
            move |p: &Progress| running.state.send_modify(|s| s.progress = Some(p.clone()))
        };
        let outcome = sync::sync(&history, &reads, &options, &tell).await;
        lock.finish(Finished::of(&options, &outcome));
        running.state.send_modify(|s| s.outcome = Some(outcome));
    });
    job
}

/// Waits up to [`WAIT`] for the job, sending MCP progress notifications (growing values only)
/// when the client gave a progress token; returns the outcome when it ended (taking it).
async fn wait_for(
    job: &SyncJob,
    ctx: &RequestContext<RoleServer>,
) -> Option<Result<SyncReport, ::history::HistoryError>> {
    let token = ctx.meta.get_progress_token();
    let mut watch = job.state.subscribe();
    let deadline = tokio::time::Instant::now() + WAIT;
    let mut sent: Option<u64> = None;
    loop {
        let progress = {
            let state = watch.borrow_and_update();
            if state.outcome.is_some() {
                break;
            }
            state.progress.clone()
        };
        if let (Some(token), Some(p)) = (&token, progress)
            && sent.is_none_or(|s| p.done > s)
        {
            sent = Some(p.done);
            let note = ProgressNotificationParam::new(token.clone(), p.done as f64)
                .with_total(p.total as f64)
                .with_message(format!("{} ({} requests)", p.message, p.requests));
            let _ = ctx.peer.notify_progress(note).await;
        }
        tokio::select! {
            changed = watch.changed() => if changed.is_err() { break },
            () = tokio::time::sleep_until(deadline) => return None,
            () = ctx.ct.cancelled() => return None,
        }
    }
    let mut outcome = None;
    job.state.send_modify(|s| outcome = s.outcome.take());
    outcome
}

/// Arguments of `get_fitness_trend`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct FitnessTrendArgs {
    /// First day shown, `YYYY-MM-DD` (default: 90 days before `end_date`; at most 140 days).
    #[serde(default, deserialize_with = "crate::domain::dates::blank_is_none")]
    pub start_date: Option<Day<arg::StartDate>>,
    /// Last day shown, `YYYY-MM-DD` (default: today).
    #[serde(default, deserialize_with = "crate::domain::dates::blank_is_none")]
    pub end_date: Option<Day<arg::EndDate>>,
    /// Which load per session: `auto` (default: the best available — power TSS, else heart-rate
    /// TSS; Garmin's training load only when no session has either), `garmin` (Garmin's activity
    /// training load), `hr` (hrTSS from the time in heart-rate zones) or `power` (power TSS from
    /// normalized power and FTP).
    #[serde(default)]
    #[schemars(extend("enum" = ["auto", "garmin", "hr", "power"]))]
    pub load: Option<String>,
}

#[tool_router(router = fitness_tools, vis = "pub(crate)")]
impl GarminMcp {
    /// Fitness, fatigue and form over time (the performance management chart): CTL (42-day
    /// fitness), ATL (7-day fatigue), TSB (form) and the weekly ramp of fitness, one object per
    /// day, computed from the local history's per-activity loads — power TSS, heart-rate TSS or
    /// Garmin's training load (`load`, default the best available, never mixed) — with the
    /// convention used and a one-line reading. Use it for "how has my fitness moved since the
    /// summer?", "am I fresh for Sunday's race?", "is my load building too fast?". Needs the
    /// history (`sync_history`); today and the days since the last sync are read live.
    #[tool(
        name = "get_fitness_trend",
        annotations(
            title = "Fitness, fatigue and form",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<FitnessTrend>()
    )]
    async fn get_fitness_trend(
        &self,
        Parameters(args): Parameters<FitnessTrendArgs>,
    ) -> Result<Answer<FitnessTrend>, ToolError> {
        let range = trend_range(self.today(), day_of(args.start_date), day_of(args.end_date))?;
        let trend = fitness_trend(&self.reading().await?, range, args.load.as_deref()).await?;
        let scale = match trend.load_scale.as_str() {
            "tss" => "TSS per session",
            "garmin" => "Garmin's training load",
            _ => "no load",
        };
        let summary = format!(
            "Fitness trend {} to {} from {scale} ({}): {} {}",
            range.start,
            range.end,
            PmcConstants::default().convention(),
            trend.reading,
            trend.source.phrase()
        );
        Ok(self.answer(summary, trend))
    }
}
