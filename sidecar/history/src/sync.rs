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
//! * **Budget.** Requests go through the `garmin` client, which already runs at most four at once
//!   and retries reads honouring `Retry-After`; this module adds no concurrency of its own beyond
//!   that cap. When Garmin still rate-limits, or the optional request budget is spent, the sync
//!   stops politely with what is finished kept and says when to resume.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use chrono::{DateTime, NaiveDate, Utc};
use futures::StreamExt as _;
use garmin::{Client, ErrorKind};
use serde_json::Value;

use crate::store::{self, ymd};
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
    /// Parts that failed and will be read again next time (one sentence each).
    pub problems: Vec<String>,
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
        if !self.problems.is_empty() {
            text.push_str(&format!(
                " {} part(s) could not be read and will be tried again next time: {}",
                self.problems.len(),
                self.problems.join("; ")
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

/// Why a request did not give an answer: stop the run, or skip this part.
enum Miss {
    Stop(Stopped),
    Fatal(garmin::Error),
    Part(String),
}

/// Sends requests and counts them against the budget.
struct Reader<'a> {
    client: &'a Client,
    name: String,
    requests: AtomicU32,
    budget: Option<u32>,
}

impl Reader<'_> {
    /// `GET path?query` as raw JSON; "no data" is `None`; 404 and Garmin's own 403 count as no data
    /// (a deleted activity, a feature this account lacks).
    async fn get(&self, path: &str, query: &[(&str, String)]) -> std::result::Result<Option<Value>, Miss> {
        let sent = self.requests.fetch_add(1, Ordering::SeqCst);
        if let Some(budget) = self.budget
            && sent >= budget
        {
            self.requests.fetch_sub(1, Ordering::SeqCst);
            return Err(Miss::Stop(Stopped::Budget { requests: budget }));
        }
        match self.client.get_value(path, query).await {
            Ok(value) => Ok(value),
            Err(e) => Err(classify(e, path)),
        }
    }

    /// Counts `n` requests sent through the typed client, within the budget.
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
}

fn classify(error: garmin::Error, path: &str) -> Miss {
    if error.needs_sign_in() {
        return Miss::Fatal(error);
    }
    match error.kind() {
        ErrorKind::RateLimited => {
            let wait = match &error {
                garmin::Error::RateLimited { retry_after: Some(d) } => *d,
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
fn nothing_there(
    result: std::result::Result<Option<Value>, Miss>,
) -> std::result::Result<Option<Value>, Miss> {
    match result {
        Err(Miss::Part(message)) if message.contains("404") || message.contains("(HTTP 403") => Ok(None),
        other => other,
    }
}

fn unix_now() -> i64 {
    Utc::now().timestamp()
}

/// Syncs the history in `options`'s range, reporting progress through `progress`. Returns the
/// report (also when it stopped early: see [`SyncReport::stopped`]); fails only when Garmin needs
/// a sign-in or the database cannot be written.
pub async fn sync(
    history: &History,
    client: &Client,
    options: &SyncOptions,
    progress: &(dyn Fn(&Progress) + Send + Sync),
) -> Result<SyncReport> {
    let started = Instant::now();
    let today = options.today;
    let from = options.since.unwrap_or(today - chrono::Duration::days(DEFAULT_DAYS)).min(today);
    let name = {
        let known = client.display_name();
        let known = if known.is_empty() { client.verify().await?.display_name } else { known };
        garmin::api::segment(&known)
    };
    let reader = Reader { client, name, requests: AtomicU32::new(0), budget: options.request_budget };
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
        elapsed: Duration::ZERO,
    };

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

    // Activity types once (so "running" includes trail runs when answering from the history).
    let has_types = store::has_activity_types(&history.conn())?;
    if !has_types || options.full {
        match reader.get("/activity-service/activity/activityTypes", &[]).await {
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
    if report.stopped.is_none() {
        refresh_profile(history, &reader, today, &mut report).await?;
    }
    report.requests = reader.count();
    report.elapsed = started.elapsed();
    Ok(report)
}

/// The athlete's load profile (`profile.rs`), read once a day at most: a sync that finds it read
/// today leaves it; otherwise three requests within the budget.
async fn refresh_profile(
    history: &History,
    reader: &Reader<'_>,
    today: NaiveDate,
    report: &mut SyncReport,
) -> Result<()> {
    if history.athlete_profile()?.is_some_and(|p| p.read_on >= today) {
        return Ok(());
    }
    if let Err(miss) = reader.reserve(crate::profile::PROFILE_REQUESTS) {
        report.stopped = settle(miss, report)?;
        return Ok(());
    }
    match crate::profile::read_athlete_profile(reader.client, today).await {
        Ok(read) => history.save_athlete_profile(&read),
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

/// The series of every activity of `from..=today` not reduced yet (all with `full`), newest first:
/// one `details` request each, reduced to curves and best times and committed one by one with its
/// `curves_at` mark, so a stopped sync never reads a finished activity's series again. Runs over
/// the whole range (not per block), so a database from before the curves gets them on its next
/// sync even where every block is settled.
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
    let query = [("maxChartSize", SERIES_ROWS.to_string()), ("maxPolylineSize", "1".to_owned())];
    let query = &query;
    let mut series = futures::stream::iter(wanted)
        .map(|id| async move {
            let path = format!("/activity-service/activity/{id}/details");
            (id, nothing_there(reader.get(&path, query).await))
        })
        .buffer_unordered(reader.client.max_concurrency());
    let mut handled = 0u64;
    while let Some((id, answer)) = series.next().await {
        match answer {
            Ok(raw) => {
                // Reducing a long series is a few ms of CPU: done here, between awaits.
                let reduced = raw.as_ref().map(crate::curves::reduce).unwrap_or_default();
                let mut conn = history.conn();
                let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
                store::set_activity_curves(&tx, id, &reduced, unix_now())?;
                tx.commit()?;
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

    // 1. The activity list of the block (pages of 1000, Garmin's largest).
    let mut listed: Vec<Value> = Vec::new();
    let mut offset = 0u32;
    loop {
        let query = [
            ("start", offset.to_string()),
            ("limit", "1000".to_owned()),
            ("startDate", ymd(start)),
            ("endDate", ymd(last)),
        ];
        match reader.get("/activitylist-service/activities/search/activities", &query).await {
            Ok(answer) => {
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
            if let Some((id, new)) = store::upsert_activity(&tx, raw, now)? {
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
    let concurrency = reader.client.max_concurrency();
    let mut details = futures::stream::iter(wanted)
        .map(|id| async move {
            let splits =
                nothing_there(reader.get(&format!("/activity-service/activity/{id}/splits"), &[]).await);
            let zones = nothing_there(
                reader.get(&format!("/activity-service/activity/{id}/hrTimeInZones"), &[]).await,
            );
            (id, splits, zones)
        })
        .buffer_unordered(concurrency);
    while let Some((id, splits, zones)) = details.next().await {
        match (splits, zones) {
            (Ok(splits), Ok(zones)) => {
                let mut conn = history.conn();
                let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
                store::set_activity_details(&tx, id, splits.as_ref(), zones.as_ref(), unix_now())?;
                tx.commit()?;
            }
            (Err(miss), _) | (_, Err(miss)) => {
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
    let path = format!("/usersummary-service/usersummary/daily/{}", reader.name);
    let path = path.as_str();
    let mut summaries = futures::stream::iter(days)
        .map(|day| async move { (day, reader.get(path, &[("calendarDate", ymd(day))]).await) })
        .buffer_unordered(concurrency);
    let mut handled = 0u64;
    while let Some((day, answer)) = summaries.next().await {
        match answer {
            Ok(raw) => {
                store::upsert_day_summary(&history.conn(), day, raw.as_ref(), unix_now(), today)?;
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

    // 4. The block's sleep, HRV and weight ranges, and a training status snapshot at its end.
    let (s, e) = (ymd(start), ymd(last));
    let sleep_path = format!("/sleep-service/stats/sleep/daily/{s}/{e}");
    let hrv_path = format!("/hrv-service/hrv/daily/{s}/{e}");
    let weight_path = format!("/weight-service/weight/range/{s}/{e}");
    let status_path = format!("/metrics-service/metrics/trainingstatus/aggregated/{e}");
    let include_all = [("includeAll", "true".to_owned())];
    let (sleep, hrv, weight, status) = futures::join!(
        reader.get(&sleep_path, &[]),
        async { nothing_there(reader.get(&hrv_path, &[]).await) },
        reader.get(&weight_path, &include_all),
        async { nothing_there(reader.get(&status_path, &[]).await) },
    );
    let mut ranges = Vec::new();
    for answer in [sleep, hrv, weight, status] {
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
        let mut conn = history.conn();
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let now = unix_now();
        store::store_ranges(&tx, ranges[0].as_ref(), ranges[1].as_ref(), ranges[2].as_ref(), now)?;
        if let Some(raw) = ranges[3].as_ref() {
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
            elapsed: Duration::from_secs(3),
        };
        let text = report.summary();
        assert!(text.contains("Resume after 2026-11-15 10:30 UTC"), "{text}");
        assert!(!report.complete());
    }
}
