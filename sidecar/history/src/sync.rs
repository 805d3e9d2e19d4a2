//! The sync: reads the athlete's Garmin history into the local database, incrementally and
//! resumably, within a request budget.
//!
//! * **Units of work.** Days are grouped in 28-day blocks on a fixed grid (Garmin's range endpoints
//!   take at most 28 days), newest block first. A block is four named steps (`block.rs`): its
//!   activity list, the laps and heart-rate zones of each activity not yet read, the daily summary
//!   of each day not yet read, and its sleep, HRV and weight ranges with one training status
//!   snapshot. Each activity and each day is committed as it arrives; the block is marked finished
//!   last. After the blocks, each activity's series not reduced yet becomes its mean-max curves and
//!   best times (`series.rs`, `curves.rs`), each strength activity's sets not read yet are kept
//!   (`sets.rs`), and then the athlete's load profile is read once a day (`profile.rs`, three
//!   requests). A sync killed or stopped half-way resumes where it was:
//!   finished blocks are skipped, finished days and activities in an unfinished block are not read
//!   again.
//! * **Incremental.** A finished block is read again only while it may still change: when it was
//!   read before it was over, or within [`REVISE_DAYS`] days of its end (Garmin still revises
//!   recent days: late watch uploads, recomputed sleep, renamed activities). Inside such a block
//!   only the days read within [`REVISE_DAYS`] of themselves are read again. `full` reads all.
//! * **What the account has none of.** A kind of data Garmin answers 404 or 204 for (a watch or
//!   bike computer that records no sleep, HRV or weight) is an answer, not a failure: the block's
//!   days are kept as read with none of it, the block finishes (so it is not read again), and the
//!   report says so once, in one plain sentence, when the history holds none of that kind.
//! * **Budget.** Every read goes through one [`Garmin`] reader (`garmin::reads`), which chooses
//!   the source (Personal API key, web session, the activity's FIT file), owns every path and page
//!   walk, and runs at most four (web) or two (Personal API) requests at once. The run's budget is
//!   the reader's request hook (`budget.rs`). When Garmin still rate-limits, or the optional budget
//!   is spent, the sync stops politely with what is finished kept and says when to resume.
//! * **Sources.** With only a key, each activity's laps, zone times, curves and best times come
//!   from its FIT file (one request instead of three), and the web-only parts are skipped with one
//!   note in [`SyncReport::problems`]; the report names every source that served the run.

mod block;
mod budget;
mod series;
mod sets;

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use chrono::{DateTime, NaiveDate, Utc};
use garmin::{Garmin, Source};

use self::budget::{Budget, Miss};
use crate::store;
use crate::write_gate::WriteGate;
use crate::{History, HistoryError, Result};

/// Days per unit of work (Garmin's limit for the sleep-stats range).
pub const BLOCK_DAYS: i64 = 28;
/// How far back a first sync goes without `since`.
pub const DEFAULT_DAYS: i64 = 365;
/// Days after which Garmin no longer revises a day, in our experience (late uploads, sleep
/// recomputed the next morning): a day read fewer days after itself is read again.
pub const REVISE_DAYS: i64 = 3;

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

/// What a problem of the report is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProblemKind {
    /// A plain note on what the run could not or need not read (only a key saved; a kind of data
    /// the account has none of): nothing failed.
    Note,
    /// A part that failed and is read again next time.
    Failed,
}

/// One sentence of [`SyncReport::problems`]; reads as its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// A note or a failure.
    pub kind: ProblemKind,
    /// The sentence.
    pub text: String,
}

impl Problem {
    fn note(text: String) -> Problem {
        Problem { kind: ProblemKind::Note, text }
    }
}

impl std::ops::Deref for Problem {
    type Target = str;
    fn deref(&self) -> &str {
        &self.text
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
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
    /// Strength activities whose sets were read and kept.
    pub strength_sets_read: u32,
    /// Requests sent to Garmin.
    pub requests: u32,
    /// Set when the sync stopped early.
    pub stopped: Option<Stopped>,
    /// The plain notes first (with only a key, what only the web session serves and was skipped;
    /// the kinds of data the account has none of), then the parts that failed and will be read
    /// again next time: one sentence each.
    pub problems: Vec<Problem>,
    /// The sources that served this run's reads.
    pub served_by: BTreeSet<Source>,
    /// Wall time.
    pub elapsed: Duration,
}

impl SyncReport {
    fn new(from: NaiveDate, to: NaiveDate) -> SyncReport {
        SyncReport {
            from,
            to,
            blocks: 0,
            blocks_synced: 0,
            blocks_skipped: 0,
            days_read: 0,
            activities_added: 0,
            activities_updated: 0,
            activities_removed: 0,
            curves_read: 0,
            strength_sets_read: 0,
            requests: 0,
            stopped: None,
            problems: Vec::new(),
            served_by: BTreeSet::new(),
            elapsed: Duration::ZERO,
        }
    }

    /// True when every block of the range is finished.
    pub fn complete(&self) -> bool {
        self.stopped.is_none() && self.blocks_synced + self.blocks_skipped == self.blocks
    }

    /// One paragraph for a person: what was read, and what to do next when it stopped.
    pub fn summary(&self) -> String {
        let mut text = format!(
            "History from {} to {}: {} of {} blocks of 28 days read now, {} already up to date; {} days and {} new activities read ({} updated, {} removed), {} activity series reduced to best-effort curves, {} strength sessions' sets kept, in {} requests, {:.1} s.",
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
            self.strength_sets_read,
            self.requests,
            self.elapsed.as_secs_f64()
        );
        if let Some(served) = Source::phrase(&self.served_by) {
            text.push_str(&format!(" {served}"));
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
        let (notes, failed): (Vec<&Problem>, Vec<&Problem>) =
            self.problems.iter().partition(|p| p.kind == ProblemKind::Note);
        for note in notes {
            text.push_str(&format!(" {note}"));
        }
        if !failed.is_empty() {
            let failed: Vec<&str> = failed.iter().map(|p| p.text.as_str()).collect();
            text.push_str(&format!(
                " {} part(s) could not be read and will be tried again next time: {}",
                failed.len(),
                failed.join("; ")
            ));
        }
        text
    }

    /// Turns a miss into a stop, a fatal error, or a noted failure.
    fn settle(&mut self, miss: Miss) -> Result<Option<Stopped>> {
        match miss {
            Miss::Stop(stop) => Ok(Some(stop)),
            Miss::Fatal(e) => Err(HistoryError::Garmin(e)),
            Miss::Part(text) => {
                self.problems.push(Problem { kind: ProblemKind::Failed, text });
                Ok(None)
            }
        }
    }
}

/// The first day of the 28-day block holding `day` (blocks start on Mondays from 2000-01-03).
pub fn block_start(day: NaiveDate) -> NaiveDate {
    let anchor = NaiveDate::from_ymd_opt(2000, 1, 3).unwrap_or(NaiveDate::MIN);
    let offset = (day - anchor).num_days().div_euclid(BLOCK_DAYS);
    anchor + chrono::Duration::days(offset * BLOCK_DAYS)
}

/// The one plain note of a sync with only a key: what only the web session serves, skipped.
fn key_only_note() -> String {
    "Only a Personal API key is saved, so what only the Garmin Connect web session serves was skipped: training status snapshots, strength sets, the athlete profile (max, resting and threshold heart rate, FTP) and the activity types list; laps, heart-rate zone times and best-effort curves were taken from each activity's original FIT file. Sign in on the web too (`garmin-mcp login`) to add them.".to_owned()
}

/// One run: the history, the reader with this run's budget as its hook, the options, and the gate
/// that closes when the run's future is dropped (blocking-pool commits stop with it).
struct Run<'a> {
    history: &'a History,
    garmin: Garmin,
    budget: Arc<Budget>,
    options: &'a SyncOptions,
    gate: WriteGate,
    /// The kinds Garmin answered it has nothing of, in some block of this run.
    nothing: Mutex<BTreeSet<block::Kind>>,
}

impl Run<'_> {
    /// What `error` reading `what` means for the run.
    fn miss(&self, error: garmin::Error, what: &str) -> Miss {
        Miss::of(error, what, &self.budget)
    }

    /// Notes that Garmin has nothing of `kind` for a block.
    fn note_nothing(&self, kind: block::Kind) {
        self.nothing.lock().unwrap_or_else(PoisonError::into_inner).insert(kind);
    }

    /// The kinds Garmin answered it has nothing of and the history holds none of: the account's
    /// devices do not record them.
    fn lacking(&self) -> Result<Vec<block::Kind>> {
        let met = self.nothing.lock().unwrap_or_else(PoisonError::into_inner).clone();
        let conn = self.history.conn();
        let mut lacking = Vec::new();
        for kind in met {
            if !store::any_day_has(&conn, kind.column())? {
                lacking.push(kind);
            }
        }
        Ok(lacking)
    }
}

/// One 28-day block: its first and last day, and the last day there is (today at the latest).
#[derive(Clone, Copy, Debug)]
struct Block {
    start: NaiveDate,
    end: NaiveDate,
    last: NaiveDate,
}

impl Block {
    fn label(self) -> String {
        format!("{} to {}", self.start, self.last)
    }

    fn days(self) -> u64 {
        u64::try_from((self.last - self.start).num_days() + 1).unwrap_or(0)
    }
}

fn unix_now() -> i64 {
    Utc::now().timestamp()
}

/// Syncs the history in `options`'s range through `garmin` (web session, Personal API key, or
/// both), reporting progress through `progress`. Returns the report (also when it stopped early:
/// see [`SyncReport::stopped`]); fails only when Garmin needs a sign-in, refuses the key, or the
/// database cannot be written.
pub async fn sync(
    history: &History,
    garmin: &Garmin,
    options: &SyncOptions,
    progress: &(dyn Fn(&Progress) + Send + Sync),
) -> Result<SyncReport> {
    let started = Instant::now();
    let today = options.today;
    let from = options.since.unwrap_or(today - chrono::Duration::days(DEFAULT_DAYS)).min(today);
    let budget = Arc::new(Budget::new(options.request_budget));
    let garmin = garmin.with_hook(budget.clone());
    let run = Run { history, garmin, budget, options, gate: WriteGate::new(), nothing: Mutex::default() };
    run.garmin.know_account().await?;
    let mut report = SyncReport::new(from, today);
    if !run.garmin.has_web() {
        report.problems.push(Problem::note(key_only_note()));
    }
    let work = blocks_to_read(&run, from, &mut report)?;
    let total: u64 = work.iter().map(|b| b.days()).sum();
    let tell = |done: u64, message: String| {
        progress(&Progress { done, total, requests: run.budget.count(), message });
    };
    tell(0, format!("{} blocks to read, {} up to date", work.len(), report.blocks_skipped));
    if let Some(stop) = read_activity_types(&run, &mut report).await? {
        report.stopped = Some(stop);
    }
    let done = read_blocks(&run, work, &mut report, &tell).await?;
    if report.stopped.is_none() {
        let tick = |n: u64, of: u64| tell(done, format!("reading activity series {n} of {of}"));
        report.stopped = series::sync_curves(&run, from, &mut report, &tick).await?;
    }
    if report.stopped.is_none() {
        tell(done, "reading strength sets".to_owned());
        report.stopped = sets::sync_sets(&run, from, &mut report).await?;
    }
    if report.stopped.is_none() {
        refresh_profile(&run, &mut report).await?;
    }
    if let Some(note) = lacking_note(&run.lacking()?) {
        report.problems.insert(usize::from(!run.garmin.has_web()), Problem::note(note));
    }
    report.requests = run.budget.count();
    report.served_by = run.garmin.served();
    report.elapsed = started.elapsed();
    Ok(report)
}

/// Reads `work`'s blocks one after the other (newest first) until the run stops, marking each
/// finished block; answers the days handled, for the progress that follows.
async fn read_blocks(
    run: &Run<'_>,
    work: Vec<Block>,
    report: &mut SyncReport,
    tell: &(dyn Fn(u64, String) + Send + Sync),
) -> Result<u64> {
    let today = run.options.today;
    let mut done = 0u64;
    for block in work {
        if report.stopped.is_some() {
            break;
        }
        let label = block.label();
        tell(done, format!("reading {label}"));
        let tick = |n: u64| tell(done + n, format!("reading {label}"));
        let step = block::sync_block(run, block, report, &tick).await?;
        done += block.days();
        match step {
            block::Step::Done => {
                let covered_to = block.end.min(today - chrono::Duration::days(1));
                store::mark_block(
                    &run.history.conn(),
                    block.start,
                    block.end,
                    covered_to,
                    today,
                    unix_now(),
                )?;
                report.blocks_synced += 1;
            }
            block::Step::Partial => {}
            block::Step::Stopped(stop) => report.stopped = Some(stop),
        }
        tell(done, format!("read {label}"));
    }
    Ok(done)
}

/// The blocks of the range, newest first, that need work; the others counted as skipped.
fn blocks_to_read(run: &Run<'_>, from: NaiveDate, report: &mut SyncReport) -> Result<Vec<Block>> {
    let today = run.options.today;
    let mut blocks = Vec::new();
    let mut start = block_start(today);
    loop {
        let end = start + chrono::Duration::days(BLOCK_DAYS - 1);
        blocks.push(Block { start, end, last: end.min(today) });
        if start <= from {
            break;
        }
        start -= chrono::Duration::days(BLOCK_DAYS);
    }
    report.blocks = u32::try_from(blocks.len()).unwrap_or(u32::MAX);
    let conn = run.history.conn();
    let mut work = Vec::new();
    for block in blocks {
        let mark = store::block_mark(&conn, block.start)?;
        let settled = mark.is_some_and(|m| {
            m.covered_to >= block.end && m.synced_on > block.end + chrono::Duration::days(REVISE_DAYS)
        });
        if settled && !run.options.full {
            report.blocks_skipped += 1;
        } else {
            work.push(block);
        }
    }
    Ok(work)
}

/// The activity types once (so "running" includes trail runs when answering from the history);
/// only the web session serves them.
async fn read_activity_types(run: &Run<'_>, report: &mut SyncReport) -> Result<Option<Stopped>> {
    let known = store::has_activity_types(&run.history.conn())?;
    if !run.garmin.has_web() || (known && !run.options.full) {
        return Ok(None);
    }
    match run.garmin.kept_activity_types().await {
        Ok(types) => {
            store::replace_activity_types(&run.history.conn(), &types.value)?;
            Ok(None)
        }
        Err(e) if e.means_nothing_there() => Ok(None),
        Err(e) => report.settle(run.miss(e, "the activity types list")),
    }
}

/// The athlete's load profile (`profile.rs`), read once a day at most through the web session: a
/// sync that finds it read today leaves it; otherwise three requests within the budget.
async fn refresh_profile(run: &Run<'_>, report: &mut SyncReport) -> Result<()> {
    let today = run.options.today;
    if !run.garmin.has_web() || run.history.athlete_profile()?.is_some_and(|p| p.read_on >= today) {
        return Ok(());
    }
    if let Err(miss) = run.budget.reserve(crate::profile::PROFILE_REQUESTS) {
        report.stopped = report.settle(miss)?;
        return Ok(());
    }
    let read = match run.garmin.web("the athlete profile") {
        Ok(web) => crate::profile::read_athlete_profile(web, today).await,
        Err(e) => Err(e),
    };
    match read {
        Ok(read) => run.history.save_athlete_profile(&read),
        Err(e) => {
            report.stopped = report.settle(run.miss(e, "the athlete profile"))?;
            Ok(())
        }
    }
}

/// The one plain sentence on the kinds of data the account has none of, when any.
fn lacking_note(lacking: &[block::Kind]) -> Option<String> {
    let words: Vec<&str> = lacking.iter().map(|kind| kind.words()).collect();
    let list = match words.as_slice() {
        [] => return None,
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    };
    Some(format!(
        "Garmin keeps no {list} records for this account (its watch or bike computer does not record them), so the history has none of them; that is not an error, and those days count as synced."
    ))
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
        let mut report = SyncReport::new(d(2025, 11, 15), d(2026, 11, 15));
        report.blocks = 14;
        report.blocks_synced = 3;
        report.stopped = Some(Stopped::RateLimited { resume_after: "2026-11-15T10:30:00Z".parse().unwrap() });
        let text = report.summary();
        assert!(text.contains("Resume after 2026-11-15 10:30 UTC"), "{text}");
        assert!(!report.complete());
    }

    #[test]
    fn notes_are_said_as_they_are_and_failures_are_counted_apart() {
        let mut report = SyncReport::new(d(2026, 10, 1), d(2026, 11, 15));
        report.problems.push(Problem::note("A plain note.".into()));
        report.problems.push(Problem { kind: ProblemKind::Failed, text: "the sleep: HTTP 503".into() });
        let text = report.summary();
        assert!(text.contains(" A plain note. 1 part(s) could not be read"), "{text}");
        assert!(text.ends_with("next time: the sleep: HTTP 503"), "{text}");
    }

    #[test]
    fn the_lacking_note_is_one_sentence_naming_each_kind_once() {
        use block::Kind;
        assert_eq!(lacking_note(&[]), None);
        let one = lacking_note(&[Kind::Sleep]).unwrap();
        assert!(one.starts_with("Garmin keeps no sleep records for this account"), "{one}");
        let three = lacking_note(&[Kind::Sleep, Kind::Hrv, Kind::Weight]).unwrap();
        assert!(three.starts_with("Garmin keeps no sleep, HRV or weight records"), "{three}");
        assert_eq!(
            three.matches(". ").count() + usize::from(three.ends_with('.')),
            1,
            "one sentence: {three}"
        );
    }
}
