//! The sync: reads the athlete's Garmin history into the local database, incrementally and
//! resumably, within a request budget.
//!
//! * **Units of work.** Days are grouped in 28-day blocks on a fixed grid (Garmin's range endpoints
//!   take at most 28 days), newest block first. In a block: the activity list (one request), laps
//!   and heart-rate zones of each activity not yet read (two each), the daily summary of each day
//!   not yet read (one each), the block's sleep, HRV and weight ranges (three) and one training
//!   status snapshot. Each activity and each day is committed as it arrives; the block is marked
//!   finished last. After the blocks, each activity's series not reduced yet (one `details`
//!   request each) becomes its mean-max curves and best times ([`SERIES_ROWS`], `curves.rs`), and
//!   then the athlete's load profile is read once a day (`profile.rs`, three requests). A sync
//!   killed or stopped half-way resumes where it was: finished blocks are
//!   skipped, finished days and activities in an unfinished block are not read again.
//! * **Incremental.** A finished block is read again only while it may still change: when it was
//!   read before it was over, or within [`REVISE_DAYS`] days of its end (Garmin still revises
//!   recent days: late watch uploads, recomputed sleep, renamed activities). Inside such a block
//!   only the days read within [`REVISE_DAYS`] of themselves are read again. `full` reads all.
//! * **Budget.** Requests go through the `garmin` clients, which already run at most four (web) or
//!   two (Personal API) at once and retry reads honouring `Retry-After`; this module adds no
//!   concurrency of its own beyond that cap. When Garmin still rate-limits, or the optional request
//!   budget is spent, the sync stops politely with what is finished kept and says when to resume.
//! * **Sources.** The reads go through a [`Transport`] (`transport.rs`): with a Personal API key,
//!   the activity list, the block's daily summaries (one E6 range request per block instead of one
//!   per day), sleep, HRV and weight, and each activity's original FIT file go to the Personal API
//!   first. Every range asked is one block of 28 days, within each endpoint's cap
//!   (`garmin::personal::caps`). With only a key, each activity's laps, zone times, curves and
//!   best times come from its FIT file (one request instead of three), and the web-only parts are
//!   skipped with one note in [`SyncReport::problems`].

use std::collections::BTreeSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::{Duration, Instant};

use chrono::{DateTime, NaiveDate, Utc};
use futures::StreamExt as _;
use garmin::models::activities::{ActivitySplits, ActivitySummary};
use garmin::models::metrics::HrZones;
use garmin::models::wellness::{DailySleep, SleepStatsDay};
use garmin::{Error as GarminError, ErrorKind};
use serde_json::Value;

use crate::store::{self, Source, ymd};
use crate::transport::{Served, Transport};
use crate::write_gate::{GatePass, WriteGate};
use crate::{History, HistoryError, Result};

/// Days per unit of work (Garmin's limit for the sleep-stats range).
pub const BLOCK_DAYS: i64 = 28;
/// How far back a first sync goes without `since`.
pub const DEFAULT_DAYS: i64 = 365;
/// Days after which Garmin no longer revises a day, in our experience (late uploads, sleep
/// recomputed the next morning): a day read fewer days after itself is read again.
pub const REVISE_DAYS: i64 = 3;
/// How long to suggest waiting when Garmin rate-limits without saying for how long.
const DEFAULT_PAUSE: Duration = Duration::from_secs(15 * 60);

/// What to sync.
#[derive(Clone, Debug)]
pub struct SyncOptions {
    /// The athlete's today (local date).
    pub today: NaiveDate,
    /// First day wanted (default: [`DEFAULT_DAYS`] before today).
    pub since: Option<NaiveDate>,
    /// Read everything in the range again, even what is finished.
    pub full: bool,
    /// Most requests this run may send (`None`: no limit but Garmin's).
    pub request_budget: Option<u32>,
}

impl SyncOptions {
    /// An incremental sync of the default range.
    pub fn new(today: NaiveDate) -> Self {
        SyncOptions { today, since: None, full: false, request_budget: None }
    }
}

/// Where a sync is, for a progress bar or MCP progress notifications.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Days handled so far (of the blocks that needed work).
    pub done: u64,
    /// Days to handle in all.
    pub total: u64,
    /// Requests sent so far.
    pub requests: u32,
    /// What is being read, e.g. `2026-10-19 to 2026-11-15`.
    pub message: String,
}

/// Why a sync stopped before the end (everything finished is kept).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// Garmin kept answering 429 after the client's retries.
    RateLimited {
        /// When to try again.
        resume_after: DateTime<Utc>,
    },
    /// The request budget of this run was spent.
    Budget {
        /// The budget.
        requests: u32,
    },
}

/// What a sync did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyncReport {
    /// First day of the synced range.
    pub from: NaiveDate,
    /// Last day (today).
    pub to: NaiveDate,
    /// Blocks in the range.
    pub blocks: u32,
    /// Blocks finished in this run.
    pub blocks_synced: u32,
    /// Blocks skipped as already finished.
    pub blocks_skipped: u32,
    /// Daily summaries read.
    pub days_read: u32,
    /// Activities new to the history.
    pub activities_added: u32,
    /// Activities read again (possibly changed).
    pub activities_updated: u32,
    /// Activities removed because Garmin no longer lists them.
    pub activities_removed: u32,
    /// Activities whose series was read and reduced to mean-max curves and best times.
    pub curves_read: u32,
    /// Requests sent to Garmin.
    pub requests: u32,
    /// Set when the sync stopped early.
    pub stopped: Option<Stopped>,
    /// Parts that failed and will be read again next time, and (first, with only a key) the one
    /// note on what only the web session serves and was skipped (one sentence each).
    pub problems: Vec<String>,
    /// The sources that served this run's reads.
    pub served_by: BTreeSet<Served>,
    /// Wall time.
    pub elapsed: Duration,
}

impl SyncReport {
    /// True when every block of the range is finished.
    pub fn complete(&self) -> bool {
        self.stopped.is_none() && self.blocks_synced + self.blocks_skipped == self.blocks
    }

    /// One paragraph for a person: what was read, and what to do next when it stopped.
    pub fn summary(&self) -> String {
        let mut text = format!(
            "History from {} to {}: {} of {} blocks of 28 days read now, {} already up to date; {} days and {} new activities read ({} updated, {} removed), {} activity series reduced to best-effort curves, in {} requests, {:.1} s.",
            self.from,
            self.to,
            self.blocks_synced,
            self.blocks,
            self.blocks_skipped,
            self.days_read,
            self.activities_added,
            self.activities_updated,
            self.activities_removed,
            self.curves_read,
            self.requests,
            self.elapsed.as_secs_f64()
        );
        if !self.served_by.is_empty() {
            let words: Vec<&str> = self.served_by.iter().map(|s| s.words()).collect();
            text.push_str(&format!(" Served by {}.", words.join(" and ")));
        }
        match &self.stopped {
            Some(Stopped::RateLimited { resume_after }) => text.push_str(&format!(
                " Garmin is rate limiting, so the sync stopped politely; everything read so far is kept. Resume after {} (run the sync again; it continues where it stopped).",
                resume_after.format("%Y-%m-%d %H:%M UTC")
            )),
            Some(Stopped::Budget { requests }) => text.push_str(&format!(
                " The budget of {requests} requests is spent; everything read so far is kept. Run the sync again to continue."
            )),
            None => {}
        }
        let (notes, failed): (Vec<&String>, Vec<&String>) =
            self.problems.iter().partition(|p| p.starts_with(KEY_ONLY_NOTE_START));
        for note in notes {
            text.push_str(&format!(" {note}"));
        }
        if !failed.is_empty() {
            let failed: Vec<&str> = failed.iter().map(|p| p.as_str()).collect();
            text.push_str(&format!(
                " {} part(s) could not be read and will be tried again next time: {}",
                failed.len(),
                failed.join("; ")
            ));
        }
        text
    }
}

/// The first day of the 28-day block holding `day` (blocks start on Mondays from 2000-01-03).
pub fn block_start(day: NaiveDate) -> NaiveDate {
    let anchor = NaiveDate::from_ymd_opt(2000, 1, 3).unwrap_or(NaiveDate::MIN);
    let offset = (day - anchor).num_days().div_euclid(BLOCK_DAYS);
    anchor + chrono::Duration::days(offset * BLOCK_DAYS)
}

/// The start of the one note a key-only sync adds to its problems (see [`key_only_note`]).
const KEY_ONLY_NOTE_START: &str = "Only a Personal API key is saved";

/// The one plain note of a sync with only a key: what only the web session serves, skipped.
fn key_only_note() -> String {
    format!(
        "{KEY_ONLY_NOTE_START}, so what only the Garmin Connect web session serves was skipped: training status snapshots, the athlete profile (max, resting and threshold heart rate, FTP) and the activity types list; laps, heart-rate zone times and best-effort curves were taken from each activity's original FIT file. Sign in on the web too (`garmin-mcp login`) to add them."
    )
}

/// Why a request did not give an answer: stop the run, or skip this part.
enum Miss {
    Stop(Stopped),
    Fatal(GarminError),
    Part(String),
}

/// Sends requests through the transport and counts them against the budget.
struct Reader<'a> {
    transport: &'a Transport,
    /// The web session's display name (URL segment), when a web session is there.
    name: String,
    requests: AtomicU32,
    budget: Option<u32>,
    /// Set after the Personal API answered 429 while a web session is there: the web session
    /// answers the rest of this run.
    personal_paused: AtomicBool,
    served: Mutex<BTreeSet<Served>>,
    /// The heart-rate zone floors per sport (E13), read once per run when a FIT file needs them.
    zones: tokio::sync::OnceCell<Vec<HrZones>>,
    /// Closes when this run's future is dropped: blocking-pool commits stop with it.
    gate: WriteGate,
}

impl Reader<'_> {
    /// Counts one request within the budget.
    fn spend(&self) -> std::result::Result<(), Miss> {
        self.reserve(1)
    }

    /// Counts `n` requests sent through a typed client, within the budget.
    fn reserve(&self, n: u32) -> std::result::Result<(), Miss> {
        let sent = self.requests.fetch_add(n, Ordering::SeqCst);
        if let Some(budget) = self.budget
            && sent + n > budget
        {
            self.requests.fetch_sub(n, Ordering::SeqCst);
            return Err(Miss::Stop(Stopped::Budget { requests: budget }));
        }
        Ok(())
    }

    fn count(&self) -> u32 {
        self.requests.load(Ordering::SeqCst)
    }

    fn note(&self, served: Served) {
        self.served.lock().unwrap_or_else(std::sync::PoisonError::into_inner).insert(served);
    }

    /// The Personal API client, when a key is saved and not paused for this run.
    fn personal(&self) -> Option<&garmin::PersonalClient> {
        self.transport.personal().filter(|_| !self.personal_paused.load(Ordering::SeqCst))
    }

    /// True when the web session is there.
    fn has_web(&self) -> bool {
        self.transport.web().is_some()
    }

    /// `GET path?query` on the web session as raw JSON; "no data" is `None`.
    async fn web_get(
        &self,
        path: &str,
        query: &[(&str, String)],
    ) -> std::result::Result<Option<Value>, Miss> {
        let Some(client) = self.transport.web() else {
            return Err(Miss::Part(format!("{path}: needs the Garmin Connect web sign-in")));
        };
        self.spend()?;
        match client.get_value(path, query).await {
            Ok(value) => {
                self.note(Served::WebSession);
                Ok(value)
            }
            Err(e) => Err(classify(e, path)),
        }
    }

    /// A Personal API failure: `Ok(())` when the web session should answer instead (the policy of
    /// `transport.rs`), else the miss to report.
    fn personal_failed(
        &self,
        error: GarminError,
        path: &str,
        web_alternative: bool,
    ) -> std::result::Result<(), Miss> {
        if !web_alternative || !self.has_web() || matches!(error, GarminError::ApiKeyRejected { .. }) {
            return Err(classify(error, path));
        }
        if error.kind() == ErrorKind::RateLimited {
            self.personal_paused.store(true, Ordering::SeqCst);
        }
        tracing::info!("Personal API read of {path} failed ({error}); asking the web session");
        Ok(())
    }

    /// The Personal API first (`personal`), then the web session (`web`) per the policy of
    /// `transport.rs`; with neither able to serve it, `Ok(None)` is never invented: a miss.
    async fn first(
        &self,
        personal: (&str, &[(&str, String)]),
        web: Option<(&str, &[(&str, String)])>,
    ) -> std::result::Result<(Option<Value>, Served), Miss> {
        if let Some(client) = self.personal() {
            let (path, query) = personal;
            self.spend()?;
            match client.get_value(path, query).await {
                Ok(value) => {
                    self.note(Served::PersonalApi);
                    return Ok((value, Served::PersonalApi));
                }
                Err(e) => self.personal_failed(e, path, web.is_some())?,
            }
        }
        match web {
            Some((path, query)) => Ok((self.web_get(path, query).await?, Served::WebSession)),
            None => Err(Miss::Part(format!("{}: the Personal API was not used", personal.0))),
        }
    }

    /// The zone floors per sport, read once (E13 with a key, else nothing: the web's laps come
    /// with Garmin's own zone times).
    async fn zone_sets(&self) -> std::result::Result<&[HrZones], Miss> {
        let read = self
            .zones
            .get_or_try_init(|| async {
                let Some(client) = self.personal() else { return Ok(Vec::new()) };
                self.spend()?;
                match client.hr_zones().await {
                    Ok(sets) => Ok(sets),
                    Err(e) => match classify(e, "heart-rate zones (Personal API)") {
                        Miss::Part(_) => Ok(Vec::new()),
                        other => Err(other),
                    },
                }
            })
            .await?;
        Ok(read.as_slice())
    }

    /// An activity's original FIT file through the Personal API, read into its samples, laps and
    /// totals (`garmin::fit_series`). `Ok(None)`: nothing to read (no such activity any more, or
    /// the original is a GPX/TCX upload, or it holds no samples).
    async fn fit(&self, id: u64) -> std::result::Result<Option<garmin::fit_series::FitSeries>, FitMiss> {
        let Some(client) = self.personal() else { return Err(FitMiss::NoKey) };
        self.spend().map_err(FitMiss::Miss)?;
        let path = format!("/download-service/files/activity/{id}");
        let original = match client.original_file(id).await {
            Ok(original) => original,
            Err(e) if e.kind() == ErrorKind::NotFound || e.forbidden_kind().is_some() => return Ok(None),
            Err(e) => {
                return match self.personal_failed(e, &path, true) {
                    Ok(()) => Err(FitMiss::AskWeb),
                    Err(miss) => Err(FitMiss::Miss(miss)),
                };
            }
        };
        self.note(Served::PersonalApi);
        if original.format != garmin::models::downloads::OriginalFormat::Fit {
            return Ok(None);
        }
        let bytes = original.file.bytes;
        match tokio::task::spawn_blocking(move || garmin::fit_series::read(&bytes)).await {
            Ok(Ok(series)) => Ok(Some(series)),
            Ok(Err(_)) => Ok(None),
            Err(e) => Err(FitMiss::Miss(Miss::Part(format!("{path}: reading the FIT file stopped ({e})")))),
        }
    }
}

/// Why a FIT read gave nothing.
enum FitMiss {
    /// No key (or paused): read Garmin's JSON through the web session.
    NoKey,
    /// The Personal API failed and the web session should answer.
    AskWeb,
    Miss(Miss),
}

fn classify(error: GarminError, path: &str) -> Miss {
    if error.needs_sign_in() || matches!(error, GarminError::ApiKeyRejected { .. }) {
        return Miss::Fatal(error);
    }
    match error.kind() {
        ErrorKind::RateLimited => {
            let wait = match &error {
                GarminError::RateLimited { retry_after: Some(d) } => *d,
                _ => DEFAULT_PAUSE,
            };
            let resume_after =
                Utc::now() + chrono::Duration::from_std(wait).unwrap_or(chrono::Duration::minutes(15));
            Miss::Stop(Stopped::RateLimited { resume_after })
        }
        _ => Miss::Part(format!("{path}: {error}")),
    }
}

/// A 404 or Garmin's own 403 means "nothing here" for history purposes.
fn nothing_there<T>(result: std::result::Result<Option<T>, Miss>) -> std::result::Result<Option<T>, Miss> {
    match result {
        Err(Miss::Part(message)) if message.contains("404") || message.contains("(HTTP 403") => Ok(None),
        other => other,
    }
}

fn unix_now() -> i64 {
    Utc::now().timestamp()
}

/// Syncs the history in `options`'s range through `transport` (web session, Personal API key, or
/// both), reporting progress through `progress`. Returns the report (also when it stopped early:
/// see [`SyncReport::stopped`]); fails only when Garmin needs a sign-in, refuses the key, or the
/// database cannot be written.
pub async fn sync(
    history: &History,
    transport: &Transport,
    options: &SyncOptions,
    progress: &(dyn Fn(&Progress) + Send + Sync),
) -> Result<SyncReport> {
    let started = Instant::now();
    let today = options.today;
    let from = options.since.unwrap_or(today - chrono::Duration::days(DEFAULT_DAYS)).min(today);
    let name = match transport.web() {
        Some(client) => {
            let known = client.display_name();
            let known = if known.is_empty() { client.verify().await?.display_name } else { known };
            garmin::api::segment(&known)
        }
        None => String::new(),
    };
    let reader = Reader {
        transport,
        name,
        requests: AtomicU32::new(0),
        budget: options.request_budget,
        personal_paused: AtomicBool::new(false),
        served: Mutex::new(BTreeSet::new()),
        zones: tokio::sync::OnceCell::new(),
        gate: WriteGate::new(),
    };
    let mut report = SyncReport {
        from,
        to: today,
        blocks: 0,
        blocks_synced: 0,
        blocks_skipped: 0,
        days_read: 0,
        activities_added: 0,
        activities_updated: 0,
        activities_removed: 0,
        curves_read: 0,
        requests: 0,
        stopped: None,
        problems: Vec::new(),
        served_by: BTreeSet::new(),
        elapsed: Duration::ZERO,
    };
    if !reader.has_web() {
        report.problems.push(key_only_note());
    }

    // The blocks of the range, newest first, and which of them need work.
    let mut blocks = Vec::new();
    let mut start = block_start(today);
    loop {
        let end = start + chrono::Duration::days(BLOCK_DAYS - 1);
        blocks.push((start, end));
        if start <= from {
            break;
        }
        start -= chrono::Duration::days(BLOCK_DAYS);
    }
    report.blocks = u32::try_from(blocks.len()).unwrap_or(u32::MAX);
    let mut work = Vec::new();
    {
        let conn = history.conn();
        for (start, end) in blocks {
            let mark = store::block_mark(&conn, start)?;
            let settled = mark.is_some_and(|m| {
                m.covered_to >= end && m.synced_on > end + chrono::Duration::days(REVISE_DAYS)
            });
            if settled && !options.full {
                report.blocks_skipped += 1;
            } else {
                work.push((start, end));
            }
        }
    }
    let total: u64 = work.iter().map(|(s, e)| days_in(*s, (*e).min(today))).sum();
    let mut done = 0u64;
    let tell =
        |done: u64, requests: u32, message: String| progress(&Progress { done, total, requests, message });
    tell(0, 0, format!("{} blocks to read, {} up to date", work.len(), report.blocks_skipped));

    // Activity types once (so "running" includes trail runs when answering from the history); only
    // the web session serves them.
    let has_types = store::has_activity_types(&history.conn())?;
    if reader.has_web() && (!has_types || options.full) {
        match reader.web_get("/activity-service/activity/activityTypes", &[]).await {
            Ok(Some(raw)) => store::replace_activity_types(&history.conn(), &raw)?,
            Ok(None) => {}
            Err(miss) => {
                if let Some(stop) = settle(miss, &mut report)? {
                    report.stopped = Some(stop);
                }
            }
        }
    }

    for (start, end) in work {
        if report.stopped.is_some() {
            break;
        }
        let last = end.min(today);
        let label = format!("{start} to {last}");
        tell(done, reader.count(), format!("reading {label}"));
        let outcome = sync_block(history, &reader, options, start, end, &mut report, &|n| {
            tell(done + n, reader.count(), format!("reading {label}"));
        })
        .await?;
        done += days_in(start, last);
        match outcome {
            BlockOutcome::Finished => {
                let covered_to = end.min(today - chrono::Duration::days(1));
                store::mark_block(&history.conn(), start, end, covered_to, today, unix_now())?;
                report.blocks_synced += 1;
            }
            BlockOutcome::Partial => {}
            BlockOutcome::Stopped(stop) => report.stopped = Some(stop),
        }
        tell(done, reader.count(), format!("read {label}"));
    }
    if report.stopped.is_none() {
        let tick =
            |n: u64, of: u64| tell(done, reader.count(), format!("reading activity series {n} of {of}"));
        report.stopped = sync_curves(history, &reader, options.full, from, today, &mut report, &tick).await?;
    }
    if report.stopped.is_none() && reader.has_web() {
        refresh_profile(history, &reader, today, &mut report).await?;
    }
    report.requests = reader.count();
    report.served_by = reader.served.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone();
    report.elapsed = started.elapsed();
    Ok(report)
}

/// The athlete's load profile (`profile.rs`), read once a day at most through the web session: a
/// sync that finds it read today leaves it; otherwise three requests within the budget.
async fn refresh_profile(
    history: &History,
    reader: &Reader<'_>,
    today: NaiveDate,
    report: &mut SyncReport,
) -> Result<()> {
    let Some(client) = reader.transport.web() else { return Ok(()) };
    if history.athlete_profile()?.is_some_and(|p| p.read_on >= today) {
        return Ok(());
    }
    if let Err(miss) = reader.reserve(crate::profile::PROFILE_REQUESTS) {
        report.stopped = settle(miss, report)?;
        return Ok(());
    }
    match crate::profile::read_athlete_profile(client, today).await {
        Ok(read) => {
            reader.note(Served::WebSession);
            history.save_athlete_profile(&read)
        }
        Err(e) => {
            if let Some(stop) = settle(classify(e, "athlete profile"), report)? {
                report.stopped = Some(stop);
            }
            Ok(())
        }
    }
}

fn days_in(start: NaiveDate, end: NaiveDate) -> u64 {
    u64::try_from((end - start).num_days() + 1).unwrap_or(0)
}

enum BlockOutcome {
    Finished,
    Partial,
    Stopped(Stopped),
}

/// Turns a miss into a stop, a fatal error, or a noted problem.
fn settle(miss: Miss, report: &mut SyncReport) -> Result<Option<Stopped>> {
    match miss {
        Miss::Stop(stop) => Ok(Some(stop)),
        Miss::Fatal(e) => Err(HistoryError::Garmin(e)),
        Miss::Part(message) => {
            report.problems.push(message);
            Ok(None)
        }
    }
}

/// Rows asked of `details` for the curves: a day at 1 Hz, so Garmin sends the series unthinned
/// (it thins to `maxChartSize`). The track is not needed: one polyline point is asked.
pub const SERIES_ROWS: u32 = 86_400;

/// An activity's series, from whichever source served it.
enum Series {
    /// Garmin's `details` body (web session).
    Details(Option<Value>),
    /// The original FIT file (Personal API), read.
    Fit(Option<garmin::fit_series::FitSeries>),
}

/// One activity's series: its FIT file through the Personal API when a key is saved, else (or when
/// that fails and a web session is there) Garmin's `details` through the web session.
async fn read_series(reader: &Reader<'_>, id: u64) -> std::result::Result<Series, Miss> {
    match reader.fit(id).await {
        Ok(fit) => return Ok(Series::Fit(fit)),
        Err(FitMiss::Miss(miss)) => return Err(miss),
        Err(FitMiss::NoKey | FitMiss::AskWeb) => {}
    }
    let path = format!("/activity-service/activity/{id}/details");
    let query = [("maxChartSize", SERIES_ROWS.to_string()), ("maxPolylineSize", "1".to_owned())];
    Ok(Series::Details(nothing_there(reader.web_get(&path, &query).await)?))
}

/// The series of every activity of `from..=today` not reduced yet (all with `full`), newest first:
/// one request each (`details`, or the original FIT file with a key), reduced to curves and best
/// times and committed one by one with its `curves_at` mark, so a stopped sync never reads a
/// finished activity's series again. Runs over the whole range (not per block), so a database
/// from before the curves gets them on its next sync even where every block is settled.
async fn sync_curves(
    history: &History,
    reader: &Reader<'_>,
    full: bool,
    from: NaiveDate,
    today: NaiveDate,
    report: &mut SyncReport,
    tick: &(dyn Fn(u64, u64) + Send + Sync),
) -> Result<Option<Stopped>> {
    let wanted = store::activities_without_curves(&history.conn(), from, today, full)?;
    let of = wanted.len() as u64;
    let mut series = futures::stream::iter(wanted)
        .map(|id| async move { (id, read_series(reader, id).await) })
        .buffer_unordered(reader.transport.max_concurrency());
    let mut handled = 0u64;
    while let Some((id, answer)) = series.next().await {
        match answer {
            Ok(read) => {
                // Reducing a day-long series and writing its curves is CPU and disk work with no
                // await in it: it runs on the blocking pool, so the runtime's workers stay free for
                // the server's answers. Inline, a full sync's run of ready series kept every worker
                // of a two-core machine busy for seconds, and `sync_history` answered late. Its
                // commit passes the run's gate: a cancelled sync writes nothing more.
                let history = history.clone();
                let pass = reader.gate.pass();
                tokio::task::spawn_blocking(move || store_curves(&history, id, &read, &pass))
                    .await
                    .map_err(|e| {
                        HistoryError::Interrupted(format!("storing an activity's curves ({e})"))
                    })??;
                report.curves_read += 1;
                handled += 1;
                tick(handled, of);
            }
            Err(miss) => {
                if let Some(stop) = settle(miss, report)? {
                    return Ok(Some(stop));
                }
            }
        }
    }
    Ok(None)
}

/// Reduces one activity's series to its curves and best times and commits them with its mark,
/// unless the sync that read it is gone (`pass`).
fn store_curves(history: &History, id: u64, read: &Series, pass: &GatePass) -> Result<()> {
    let reduced = match read {
        Series::Details(raw) => raw.as_ref().map(crate::curves::reduce).unwrap_or_default(),
        Series::Fit(fit) => {
            fit.as_ref().map(|f| crate::curves::reduce_details(&f.details())).unwrap_or_default()
        }
    };
    pass.commit(|| {
        let mut conn = history.conn();
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        store::set_activity_curves(&tx, id, &reduced, unix_now())?;
        tx.commit()?;
        Ok(())
    })
    .unwrap_or(Ok(()))
}

/// The sport name of Garmin's zone sets (`RUNNING`, `CYCLING`, `SWIMMING`, else `DEFAULT`) for an
/// activity type key.
fn zone_sport(type_key: Option<&str>) -> &'static str {
    let key = type_key.unwrap_or_default();
    if key.contains("run") {
        "RUNNING"
    } else if key.contains("cycl") || key.contains("bik") || key.contains("ride") {
        "CYCLING"
    } else if key.contains("swim") {
        "SWIMMING"
    } else {
        "DEFAULT"
    }
}

/// What one activity's per-activity reads gave.
enum Parts {
    /// Garmin's laps and zone times as JSON (web session).
    Web(Option<Value>, Option<Value>),
    /// The FIT file (Personal API): laps and zone times derived from it, and its series reduced.
    Fit(Option<Value>, Option<Value>, crate::curves::Reduced),
}

/// Laps and zone times of one activity: Garmin's JSON through the web session when there is one,
/// else derived from the activity's original FIT file (one request, which gives its curves too).
async fn read_parts(reader: &Reader<'_>, id: u64, sport: &'static str) -> std::result::Result<Parts, Miss> {
    if !reader.has_web() {
        let fit = match reader.fit(id).await {
            Ok(fit) => fit,
            Err(FitMiss::Miss(miss)) => return Err(miss),
            Err(FitMiss::NoKey | FitMiss::AskWeb) => {
                return Err(Miss::Part(format!("activity {id}: no source for its laps")));
            }
        };
        let Some(fit) = fit else { return Ok(Parts::Fit(None, None, crate::curves::Reduced::default())) };
        let floors = HrZones::floors_for(reader.zone_sets().await?, sport);
        let splits = ActivitySplits { activity_id: Some(id), laps: fit.laps.clone() };
        let zones = floors.map(|f| fit.time_in_zones(f)).filter(|z| !z.is_empty());
        let reduced = crate::curves::reduce_details(&fit.details());
        return Ok(Parts::Fit(
            serde_json::to_value(&splits).ok(),
            zones.and_then(|z| serde_json::to_value(z).ok()),
            reduced,
        ));
    }
    let splits =
        nothing_there(reader.web_get(&format!("/activity-service/activity/{id}/splits"), &[]).await)?;
    let zones =
        nothing_there(reader.web_get(&format!("/activity-service/activity/{id}/hrTimeInZones"), &[]).await)?;
    Ok(Parts::Web(splits, zones))
}

/// The block's sleep nights, each with its raw JSON as Garmin sent it and the web's per-night
/// figures: from the Personal API's nights (E11) or the web's `individualStats`.
fn sleep_nights(answer: Option<&Value>, served: Served) -> Vec<(Value, SleepStatsDay)> {
    let rows = match served {
        Served::PersonalApi => answer.and_then(Value::as_array).cloned().unwrap_or_default(),
        Served::WebSession => answer
            .and_then(|a| a.get("individualStats"))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default(),
    };
    rows.into_iter()
        .filter_map(|raw| {
            let stats = match served {
                Served::PersonalApi => {
                    let night: DailySleep = serde_json::from_value(raw.clone()).ok()?;
                    night.has_data().then(|| night.stats_day())?
                }
                Served::WebSession => serde_json::from_value(raw.clone()).ok()?,
            };
            Some((raw, stats))
        })
        .collect()
}

/// One block: activities, their details, the days, the ranges and a status snapshot.
async fn sync_block(
    history: &History,
    reader: &Reader<'_>,
    options: &SyncOptions,
    start: NaiveDate,
    end: NaiveDate,
    report: &mut SyncReport,
    tick: &(dyn Fn(u64) + Send + Sync),
) -> Result<BlockOutcome> {
    let today = options.today;
    let last = end.min(today);
    let mut partial = false;

    // 1. The activity list of the block (pages of 1000, Garmin's largest; E1 takes the same query).
    let list_path = "/activitylist-service/activities/search/activities";
    let mut listed: Vec<Value> = Vec::new();
    let mut list_source: Option<Served>;
    let mut offset = 0u32;
    loop {
        let query = [
            ("start", offset.to_string()),
            ("limit", "1000".to_owned()),
            ("startDate", ymd(start)),
            ("endDate", ymd(last)),
        ];
        match reader.first((list_path, &query), Some((list_path, &query))).await {
            Ok((answer, served)) => {
                list_source = Some(served);
                let page = answer.and_then(|v| v.as_array().cloned()).unwrap_or_default();
                let got = u32::try_from(page.len()).unwrap_or(u32::MAX);
                listed.extend(page);
                if got < 1000 {
                    break;
                }
                offset += got;
            }
            Err(miss) => {
                return match settle(miss, report)? {
                    Some(stop) => Ok(BlockOutcome::Stopped(stop)),
                    None => Ok(BlockOutcome::Partial),
                };
            }
        }
    }
    {
        let mut conn = history.conn();
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let now = unix_now();
        let mut ids = Vec::new();
        for raw in &listed {
            if let Some((id, new)) = store::upsert_activity(
                &tx,
                raw,
                Source::Served(list_source.unwrap_or(Served::WebSession)),
                now,
            )? {
                ids.push(id);
                if new {
                    report.activities_added += 1;
                } else {
                    report.activities_updated += 1;
                }
            }
        }
        let removed = store::delete_missing_activities(&tx, start, last, &ids)?;
        report.activities_removed += u32::try_from(removed).unwrap_or(0);
        tx.commit()?;
    }

    // 2. Laps and zones of each activity not read yet (everything with `full`), one commit each.
    let wanted: Vec<u64> = if options.full {
        listed.iter().filter_map(|raw| raw.get("activityId").and_then(Value::as_u64)).collect()
    } else {
        store::activities_without_details(&history.conn(), start, last)?
    };
    let sports: std::collections::HashMap<u64, &'static str> = listed
        .iter()
        .filter_map(|raw| {
            let a: ActivitySummary = serde_json::from_value(raw.clone()).ok()?;
            Some((a.activity_id?, zone_sport(a.activity_type.as_ref().and_then(|t| t.type_key.as_deref()))))
        })
        .collect();
    let sports = &sports;
    let concurrency = reader.transport.max_concurrency();
    let mut details = futures::stream::iter(wanted)
        .map(|id| async move {
            let sport = sports.get(&id).copied().unwrap_or("DEFAULT");
            (id, read_parts(reader, id, sport).await)
        })
        .buffer_unordered(concurrency);
    while let Some((id, parts)) = details.next().await {
        match parts {
            Ok(parts) => {
                let mut conn = history.conn();
                let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
                let now = unix_now();
                match &parts {
                    Parts::Web(splits, zones) => {
                        store::set_activity_details(
                            &tx,
                            id,
                            splits.as_ref(),
                            zones.as_ref(),
                            Source::Served(Served::WebSession),
                            now,
                        )?;
                    }
                    Parts::Fit(splits, zones, reduced) => {
                        store::set_activity_details(
                            &tx,
                            id,
                            splits.as_ref(),
                            zones.as_ref(),
                            Source::FitFile,
                            now,
                        )?;
                        store::set_activity_curves(&tx, id, reduced, now)?;
                        report.curves_read += 1;
                    }
                }
                tx.commit()?;
            }
            Err(miss) => {
                partial = true;
                if let Some(stop) = settle(miss, report)? {
                    return Ok(BlockOutcome::Stopped(stop));
                }
            }
        }
    }
    drop(details);

    // 3. Daily summaries of the days not read yet, or read while Garmin could still revise them.
    let mut days = Vec::new();
    let mut day = start;
    while day <= last {
        let read_on = store::day_summary_read_on(&history.conn(), day)?;
        let settled = read_on.is_some_and(|on| on > day + chrono::Duration::days(REVISE_DAYS));
        if options.full || !settled {
            days.push(day);
        }
        day += chrono::Duration::days(1);
    }
    let mut handled = 0u64;
    // With a key: the days' range at once (E6; one block is within its cap of 31 days).
    let mut per_day = days.clone();
    if let (Some(client), Some(first), Some(last_day)) =
        (reader.personal(), days.first().copied(), days.last().copied())
    {
        let e6 = "/usersummary-service/v2/dailysummaries";
        if let Err(miss) = reader.spend() {
            return match settle(miss, report)? {
                Some(stop) => Ok(BlockOutcome::Stopped(stop)),
                None => Ok(BlockOutcome::Partial),
            };
        }
        let query = [("startDate", ymd(first)), ("endDate", ymd(last_day))];
        match client.get_value(e6, &query).await {
            Ok(raw) => {
                reader.note(Served::PersonalApi);
                let rows = raw.as_ref().and_then(|v| v.get("data")).and_then(Value::as_array);
                let row_of = |key: &str| {
                    rows.and_then(|r| {
                        r.iter().find(|r| r.get("calendarDate").and_then(Value::as_str) == Some(key))
                    })
                };
                let source = Source::Served(Served::PersonalApi);
                for day in &days {
                    let row = row_of(&ymd(*day));
                    store::upsert_day_summary(&history.conn(), *day, row, source, unix_now(), today)?;
                    report.days_read += 1;
                    handled += 1;
                }
                tick(handled);
                per_day.clear();
            }
            Err(e) => {
                if let Err(miss) = reader.personal_failed(e, e6, true) {
                    partial = true;
                    per_day.clear();
                    if let Some(stop) = settle(miss, report)? {
                        return Ok(BlockOutcome::Stopped(stop));
                    }
                }
            }
        }
    }
    let path = format!("/usersummary-service/usersummary/daily/{}", reader.name);
    let path = path.as_str();
    let mut summaries = futures::stream::iter(per_day)
        .map(|day| async move { (day, reader.web_get(path, &[("calendarDate", ymd(day))]).await) })
        .buffer_unordered(concurrency);
    while let Some((day, answer)) = summaries.next().await {
        match answer {
            Ok(raw) => {
                store::upsert_day_summary(
                    &history.conn(),
                    day,
                    raw.as_ref(),
                    Source::Served(Served::WebSession),
                    unix_now(),
                    today,
                )?;
                report.days_read += 1;
                handled += 1;
                tick(handled);
            }
            Err(miss) => {
                partial = true;
                if let Some(stop) = settle(miss, report)? {
                    return Ok(BlockOutcome::Stopped(stop));
                }
            }
        }
    }
    drop(summaries);

    // 4. The block's sleep, HRV and weight ranges, and (web session only) a training status
    //    snapshot at its end. One block is within every Personal API cap (sleep 31, HRV 365,
    //    weight 365 days).
    let (s, e) = (ymd(start), ymd(last));
    let sleep_web = format!("/sleep-service/stats/sleep/daily/{s}/{e}");
    let sleep_key = "/sleep-service/sleep/dailySleepSummariesByDate";
    let sleep_query = [("startDate", s.clone()), ("endDate", e.clone())];
    let hrv_path = format!("/hrv-service/hrv/daily/{s}/{e}");
    let weight_path = format!("/weight-service/weight/range/{s}/{e}");
    let status_path = format!("/metrics-service/metrics/trainingstatus/aggregated/{e}");
    let include_all = [("includeAll", "true".to_owned())];
    let (sleep, hrv, weight, status) = futures::join!(
        reader.first((sleep_key, &sleep_query), Some((&sleep_web, &[]))),
        async { nothing_there(reader.first((&hrv_path, &[]), Some((&hrv_path, &[]))).await.map(|(v, _)| v)) },
        async {
            reader
                .first((&weight_path, &include_all), Some((&weight_path, &include_all)))
                .await
                .map(|(v, _)| v)
        },
        async {
            if reader.has_web() { nothing_there(reader.web_get(&status_path, &[]).await) } else { Ok(None) }
        },
    );
    let (sleep, sleep_source) = match sleep {
        Ok((value, served)) => (value, served),
        Err(miss) => {
            return match settle(miss, report)? {
                Some(stop) => Ok(BlockOutcome::Stopped(stop)),
                None => Ok(BlockOutcome::Partial),
            };
        }
    };
    let mut ranges = Vec::new();
    for answer in [hrv, weight, status] {
        match answer {
            Ok(value) => ranges.push(value),
            Err(miss) => {
                if let Some(stop) = settle(miss, report)? {
                    return Ok(BlockOutcome::Stopped(stop));
                }
                return Ok(BlockOutcome::Partial);
            }
        }
    }
    {
        let nights = sleep_nights(sleep.as_ref(), sleep_source);
        let mut conn = history.conn();
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let now = unix_now();
        store::store_ranges(
            &tx,
            &nights,
            Source::Served(sleep_source),
            ranges[0].as_ref(),
            ranges[1].as_ref(),
            now,
        )?;
        if let Some(raw) = ranges[2].as_ref() {
            store::upsert_training_status(&tx, last, raw, now)?;
        }
        tx.commit()?;
    }
    Ok(if partial { BlockOutcome::Partial } else { BlockOutcome::Finished })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    #[test]
    fn blocks_are_28_days_on_a_fixed_grid_of_mondays() {
        let s = block_start(d(2026, 11, 15));
        assert_eq!(s.format("%a").to_string(), "Mon");
        assert!(s <= d(2026, 11, 15) && d(2026, 11, 15) < s + chrono::Duration::days(28));
        assert_eq!(block_start(s), s);
        assert_eq!(block_start(s - chrono::Duration::days(1)), s - chrono::Duration::days(28));
        assert_eq!(block_start(d(1999, 12, 31)), d(1999, 12, 6));
    }

    #[test]
    fn a_stopped_report_says_when_to_resume() {
        let report = SyncReport {
            from: d(2025, 11, 15),
            to: d(2026, 11, 15),
            blocks: 14,
            blocks_synced: 3,
            blocks_skipped: 0,
            days_read: 84,
            activities_added: 20,
            activities_updated: 0,
            activities_removed: 0,
            curves_read: 0,
            requests: 150,
            stopped: Some(Stopped::RateLimited { resume_after: "2026-11-15T10:30:00Z".parse().unwrap() }),
            problems: Vec::new(),
            served_by: BTreeSet::new(),
            elapsed: Duration::from_secs(3),
        };
        let text = report.summary();
        assert!(text.contains("Resume after 2026-11-15 10:30 UTC"), "{text}");
        assert!(!report.complete());
    }
}
