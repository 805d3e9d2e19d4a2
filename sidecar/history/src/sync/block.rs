//! One 28-day block of the sync in four named steps, each committing what it read as it arrives:
//! [`list_activities`], [`read_laps`], [`read_days`] and [`read_ranges`]. The reader
//! (`garmin::reads`) chooses each read's source and owns its path; a step only decides what to read
//! and how to keep it.

use std::collections::HashMap;

use chrono::NaiveDate;
use futures::StreamExt as _;
use garmin::Source;
use garmin::models::activities::ActivitySummary;
use garmin::models::metrics::{TrainingReadiness, TrainingStatus};
use garmin::models::wellness::DailySummary;
use garmin::reads::{KeptLaps, Raw};

use super::{Block, REVISE_DAYS, Run, Stopped, SyncReport, unix_now};
use crate::Result;
use crate::store::{self, Origin};

/// How a step (and the block) ended.
pub(super) enum Step {
    /// Everything read and kept.
    Done,
    /// Some part failed (noted in the report); the block is read again next time.
    Partial,
    /// The run stops (rate limit, budget).
    Stopped(Stopped),
}

impl Step {
    /// The outcome of a step that had to stop or skip a part: a stop, or partial.
    fn of(stop: Option<Stopped>) -> Step {
        match stop {
            Some(stop) => Step::Stopped(stop),
            None => Step::Partial,
        }
    }
}

/// One block: its activities, their laps and zones, its days and its ranges.
pub(super) async fn sync_block(
    run: &Run<'_>,
    block: Block,
    report: &mut SyncReport,
    tick: &(dyn Fn(u64) + Send + Sync),
) -> Result<Step> {
    let listed = match list_activities(run, block, report).await? {
        Ok(listed) => listed,
        Err(step) => return Ok(step),
    };
    let laps = read_laps(run, block, &listed, report).await?;
    if let Step::Stopped(stop) = laps {
        return Ok(Step::Stopped(stop));
    }
    let days = read_days(run, block, report, tick).await?;
    if let Step::Stopped(stop) = days {
        return Ok(Step::Stopped(stop));
    }
    let ranges = read_ranges(run, block, report).await?;
    Ok(match (laps, days, ranges) {
        (_, _, Step::Stopped(stop)) => Step::Stopped(stop),
        (Step::Done, Step::Done, Step::Done) => Step::Done,
        _ => Step::Partial,
    })
}

/// Step 1: the block's activity list, kept (new, updated, and those Garmin no longer lists
/// removed). `Err` with the step's end when it could not be read.
async fn list_activities(
    run: &Run<'_>,
    block: Block,
    report: &mut SyncReport,
) -> Result<std::result::Result<Vec<Raw<ActivitySummary>>, Step>> {
    let listed = match run.garmin.kept_activities(block.start, block.last).await {
        Ok(listed) => listed,
        Err(e) => {
            let what = format!("the activity list of {}", block.label());
            return Ok(Err(Step::of(report.settle(run.miss(e, &what))?)));
        }
    };
    let mut conn = run.history.conn();
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let now = unix_now();
    let mut ids = Vec::new();
    for row in &listed.value {
        if let Some((id, new)) = store::upsert_activity(&tx, row, Origin::Served(listed.source), now)? {
            ids.push(id);
            if new {
                report.activities_added += 1;
            } else {
                report.activities_updated += 1;
            }
        }
    }
    let removed = store::delete_missing_activities(&tx, block.start, block.last, &ids)?;
    report.activities_removed += u32::try_from(removed).unwrap_or(0);
    tx.commit()?;
    Ok(Ok(listed.value))
}

/// Step 2: the laps and heart-rate zone times of each activity not read yet (every listed one
/// with `full`), one commit each; with only a key they come from the FIT file, whose series is
/// reduced to curves at once.
async fn read_laps(
    run: &Run<'_>,
    block: Block,
    listed: &[Raw<ActivitySummary>],
    report: &mut SyncReport,
) -> Result<Step> {
    let wanted: Vec<u64> = if run.options.full {
        listed.iter().filter_map(|row| row.value.activity_id).collect()
    } else {
        store::activities_without_details(&run.history.conn(), block.start, block.last)?
    };
    let types: HashMap<u64, (Option<i64>, Option<i64>)> = listed
        .iter()
        .filter_map(|row| {
            let t = row.value.activity_type.as_ref();
            Some((row.value.activity_id?, (t.and_then(|t| t.type_id), t.and_then(|t| t.parent_type_id))))
        })
        .collect();
    let types = &types;
    let mut read = futures::stream::iter(wanted)
        .map(|id| async move {
            let (type_id, parent) = types.get(&id).copied().unwrap_or_default();
            (id, run.garmin.kept_laps(id, type_id, parent).await)
        })
        .buffer_unordered(run.garmin.max_concurrency());
    let mut step = Step::Done;
    while let Some((id, laps)) = read.next().await {
        match laps {
            Ok(laps) => keep_laps(run, id, &laps.value, report)?,
            Err(e) => {
                step = Step::of(report.settle(run.miss(e, &format!("activity {id}'s laps")))?);
                if matches!(step, Step::Stopped(_)) {
                    return Ok(step);
                }
            }
        }
    }
    Ok(step)
}

/// Keeps one activity's laps and zones (and, from a FIT file, its curves) in one transaction.
fn keep_laps(run: &Run<'_>, id: u64, laps: &KeptLaps, report: &mut SyncReport) -> Result<()> {
    let mut conn = run.history.conn();
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let now = unix_now();
    match laps {
        KeptLaps::Garmin { splits, zones } => {
            let origin = Origin::Served(Source::WebSession);
            store::set_activity_details(&tx, id, splits.as_ref(), zones.as_ref(), origin, now)?;
        }
        KeptLaps::Fit(parts) => {
            let splits = parts.as_ref().map(|p| &p.splits);
            let zones = parts.as_ref().and_then(|p| p.zones.as_ref());
            store::set_activity_details(&tx, id, splits, zones, Origin::FitFile, now)?;
            let reduced =
                parts.as_ref().map(|p| crate::curves::reduce_details(&p.series)).unwrap_or_default();
            store::set_activity_curves(&tx, id, &reduced, now)?;
            report.curves_read += 1;
        }
    }
    tx.commit()?;
    Ok(())
}

/// Step 3: the daily summary of each day not read yet, or read while Garmin could still revise
/// it: the days' range in one Personal API request when a key serves it, else day by day.
async fn read_days(
    run: &Run<'_>,
    block: Block,
    report: &mut SyncReport,
    tick: &(dyn Fn(u64) + Send + Sync),
) -> Result<Step> {
    let days = days_to_read(run, block)?;
    let (Some(&first), Some(&last)) = (days.first(), days.last()) else { return Ok(Step::Done) };
    let mut handled = 0u64;
    match run.garmin.kept_day_summaries(first, last).await {
        Ok(Some(range)) => {
            for (day, row) in range.value.iter().filter(|(day, _)| days.contains(day)) {
                keep_day(run, *day, row.as_ref(), range.source, report)?;
                handled += 1;
            }
            tick(handled);
            return Ok(Step::Done);
        }
        Ok(None) => {}
        Err(e) => {
            let what = format!("the daily summaries of {}", block.label());
            return Ok(Step::of(report.settle(run.miss(e, &what))?));
        }
    }
    let mut read = futures::stream::iter(days)
        .map(|day| async move { (day, run.garmin.kept_day_summary(day).await) })
        .buffer_unordered(run.garmin.max_concurrency());
    let mut step = Step::Done;
    while let Some((day, answer)) = read.next().await {
        match answer {
            Ok(row) => {
                keep_day(run, day, row.value.as_ref(), row.source, report)?;
                handled += 1;
                tick(handled);
            }
            Err(e) => {
                step = Step::of(report.settle(run.miss(e, &format!("the daily summary of {day}")))?);
                if matches!(step, Step::Stopped(_)) {
                    return Ok(step);
                }
            }
        }
    }
    Ok(step)
}

/// Keeps one day's daily summary (`None`: Garmin has nothing that day) as `source` sent it.
fn keep_day(
    run: &Run<'_>,
    day: NaiveDate,
    row: Option<&Raw<DailySummary>>,
    source: Source,
    report: &mut SyncReport,
) -> Result<()> {
    let origin = Origin::Served(source);
    store::upsert_day_summary(&run.history.conn(), day, row, origin, unix_now(), run.options.today)?;
    report.days_read += 1;
    Ok(())
}

/// The days of `block` whose summary needs reading: not read yet, read while Garmin could still
/// revise it, or every day with `full`.
fn days_to_read(run: &Run<'_>, block: Block) -> Result<Vec<NaiveDate>> {
    let conn = run.history.conn();
    let mut days = Vec::new();
    for day in block.start.iter_days().take_while(|d| *d <= block.last) {
        let read_on = store::day_summary_read_on(&conn, day)?;
        let settled = read_on.is_some_and(|on| on > day + chrono::Duration::days(REVISE_DAYS));
        if run.options.full || !settled {
            days.push(day);
        }
    }
    Ok(days)
}

/// A kind of day data a block's ranges hold, which an account may have none of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Kind {
    Sleep,
    Hrv,
    Weight,
}

impl Kind {
    /// In words.
    pub(super) fn words(self) -> &'static str {
        match self {
            Kind::Sleep => "sleep",
            Kind::Hrv => "HRV",
            Kind::Weight => "weight",
        }
    }

    /// The column of `days` holding it.
    pub(super) fn column(self) -> &'static str {
        match self {
            Kind::Sleep => "sleep_json",
            Kind::Hrv => "hrv_json",
            Kind::Weight => "weight_json",
        }
    }
}

/// What one range read of a block gave.
enum Range<T> {
    /// Its rows, from this source.
    Rows(Vec<Raw<T>>, Source),
    /// Garmin has none of it for this account's block (404, no content, Garmin's own 403).
    Nothing,
}

/// Step 4: the block's sleep, HRV and weight ranges and (web session only) the newest metrics'
/// ranges (hill and endurance scores, Health Status, Running Tolerance), and the training-status
/// snapshot (its load focus and acclimation) and Training Readiness of each day where they are not
/// settled (the block's last day's snapshot also kept as the block's training status), kept in one
/// transaction. A kind
/// Garmin has nothing of for the block (404, no content) is an answer: the block's days are kept
/// as read, and the run notes the kind.
async fn read_ranges(run: &Run<'_>, block: Block, report: &mut SyncReport) -> Result<Step> {
    let (start, last) = (block.start, block.last);
    let g = &run.garmin;
    let (sleep, hrv, weight, statuses, newest) = futures::join!(
        range(g.kept_sleep(start, last)),
        range(g.kept_hrv(start, last)),
        range(g.kept_weight(start, last)),
        read_statuses(run, block),
        async { if g.has_web() { Some(g.kept_newest_metrics(start, last).await) } else { None } },
    );
    let mut failures = Failures { run, block, report, stop: None, failed: false };
    let sleep = failures.take("the sleep", sleep)?;
    let hrv = failures.take("the HRV", hrv)?;
    let weight = failures.take("the weigh-ins", weight)?;
    let statuses = take_statuses(&mut failures, statuses?)?;
    // Garmin's newest metrics: a watch without them answers 404/204 (nothing to keep). Running
    // Tolerance is kept per day with the day it was read, so "Garmin has none" (404: kept read,
    // NULL) differs from a failed read (not kept: read again next time).
    let (hill, endurance, health, tolerance) = match newest {
        Some(ranges) => (
            failures.take("the hill scores", ranges.hill)?,
            failures.take("the endurance scores", ranges.endurance)?,
            failures.take("the Health Status", ranges.health)?,
            match ranges.tolerance {
                Err(e) if e.means_nothing_there() => Some(Vec::new()),
                read => failures.take("the Running Tolerance", read)?,
            },
        ),
        None => (None, None, None, None),
    };
    let Failures { stop, failed, .. } = failures;
    let mut conn = run.history.conn();
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let now = unix_now();
    let (sleep_rows, sleep_origin) = match &sleep {
        Some(Range::Rows(rows, source)) => (rows.as_slice(), Origin::Served(*source)),
        _ => (&[][..], Origin::Served(Source::WebSession)),
    };
    store::store_ranges(&tx, sleep_rows, sleep_origin, rows_of(&hrv), rows_of(&weight), now)?;
    for DayKept { day, status, readiness } in &statuses {
        if let Some(snapshot) = status {
            if let Some(snapshot) = snapshot.as_ref().filter(|_| *day == last) {
                store::upsert_training_status(&tx, last, &snapshot.value, now)?;
            }
            let status = snapshot.as_ref().map(|s| &s.value.value);
            crate::daily_metrics::store_load_focus(&tx, *day, status, run.options.today, now)?;
            crate::daily_metrics::store_acclimation(&tx, *day, status, run.options.today, now)?;
        }
        if let Some(entries) = readiness {
            crate::daily_metrics::store_readiness(&tx, *day, entries, run.options.today, now)?;
        }
    }
    crate::daily_metrics::store_newest_metrics(
        &tx,
        &hill.unwrap_or_default(),
        &endurance.unwrap_or_default(),
        &health.unwrap_or_default(),
        now,
    )?;
    if let Some(rows) = &tolerance {
        crate::daily_metrics::store_tolerance(&tx, start, last, rows, run.options.today, now)?;
    }
    if !failed {
        store::mark_ranges_read(&tx, start, last, now)?;
    }
    tx.commit()?;
    for (kind, read) in
        [(Kind::Sleep, nothing(&sleep)), (Kind::Hrv, nothing(&hrv)), (Kind::Weight, nothing(&weight))]
    {
        if read {
            run.note_nothing(kind);
        }
    }
    Ok(match (stop, failed) {
        (Some(stop), _) => Step::Stopped(stop),
        (None, true) => Step::Partial,
        (None, false) => Step::Done,
    })
}

/// A day's training-status snapshot as Garmin served it.
type StatusSnapshot = garmin::Served<Raw<TrainingStatus>>;
/// A day's training-status snapshot as the sync reads it.
type StatusRead = garmin::Result<StatusSnapshot>;
/// A day's Training Readiness entries as the sync reads them.
type ReadinessRead = garmin::Result<garmin::Served<Vec<TrainingReadiness>>>;

/// What was read of one day: its snapshot and its readiness, each `None` when not asked for.
struct DayRead {
    day: NaiveDate,
    status: Option<StatusRead>,
    readiness: Option<ReadinessRead>,
}

/// What is kept of one day: `Some(None)` where Garmin has nothing for the day; `None` where it was
/// not read (or the read failed: read again next time).
struct DayKept {
    day: NaiveDate,
    status: Option<Option<StatusSnapshot>>,
    readiness: Option<Vec<TrainingReadiness>>,
}

/// The training-status snapshot and Training Readiness of each day of the block that are not
/// settled (web session only; none without it), a few at a time.
async fn read_statuses(run: &Run<'_>, block: Block) -> Result<Vec<DayRead>> {
    let g = &run.garmin;
    if !g.has_web() {
        return Ok(Vec::new());
    }
    let days = crate::daily_metrics::days_to_read(
        &run.history.conn(),
        block.start,
        block.last,
        REVISE_DAYS,
        run.options.full,
    )?;
    Ok(futures::stream::iter(days)
        .map(|(day, reads)| async move {
            let (status, readiness) = futures::join!(
                async { if reads.status { Some(g.kept_training_status(day).await) } else { None } },
                async { if reads.readiness { Some(g.kept_training_readiness(day).await) } else { None } },
            );
            DayRead { day, status, readiness }
        })
        .buffer_unordered(g.max_concurrency())
        .collect()
        .await)
}

/// What each day's reads give to keep; the parts whose read failed are left out (read again next
/// time), the first failure of each kind noted once for the block.
fn take_statuses(failures: &mut Failures<'_, '_>, reads: Vec<DayRead>) -> Result<Vec<DayKept>> {
    let mut kept = Vec::new();
    let (mut status_failed, mut readiness_failed) = (None, None);
    for DayRead { day, status, readiness } in reads {
        let status = match status {
            None => None,
            Some(Ok(snapshot)) => Some(Some(snapshot)),
            Some(Err(e)) if e.means_nothing_there() => Some(None),
            Some(Err(e)) => {
                status_failed = status_failed.or(Some(e));
                None
            }
        };
        let readiness = match readiness {
            None => None,
            Some(Ok(entries)) => Some(entries.value),
            Some(Err(e)) if e.means_nothing_there() => Some(Vec::new()),
            Some(Err(e)) => {
                readiness_failed = readiness_failed.or(Some(e));
                None
            }
        };
        kept.push(DayKept { day, status, readiness });
    }
    if let Some(e) = status_failed {
        failures.take::<()>("the training status", Err(e))?;
    }
    if let Some(e) = readiness_failed {
        failures.take::<()>("the Training Readiness", Err(e))?;
    }
    Ok(kept)
}

/// The failed reads of a block's ranges, noted in the report as they are taken.
struct Failures<'r, 'a> {
    run: &'r Run<'a>,
    block: Block,
    report: &'r mut SyncReport,
    stop: Option<Stopped>,
    failed: bool,
}

impl Failures<'_, '_> {
    /// The value of `read`; `None` when Garmin has nothing here or the read failed (noted).
    fn take<T>(&mut self, what: &str, read: garmin::Result<T>) -> Result<Option<T>> {
        match read {
            Ok(value) => Ok(Some(value)),
            Err(e) if e.means_nothing_there() => Ok(None),
            Err(e) => {
                self.failed = true;
                let miss = self.run.miss(e, &format!("{what} of {}", self.block.label()));
                let stop = self.report.settle(miss)?;
                self.stop = self.stop.take().or(stop);
                Ok(None)
            }
        }
    }
}

/// A range read as a [`Range`]: Garmin's "nothing here" is [`Range::Nothing`].
async fn range<T>(
    read: impl std::future::Future<Output = garmin::Result<garmin::Served<Vec<Raw<T>>>>>,
) -> garmin::Result<Range<T>> {
    match read.await {
        Ok(served) => Ok(Range::Rows(served.value, served.source)),
        Err(e) if e.means_nothing_there() => Ok(Range::Nothing),
        Err(e) => Err(e),
    }
}

/// The rows a range read gave (none when it gave none).
fn rows_of<T>(read: &Option<Range<T>>) -> &[Raw<T>] {
    match read {
        Some(Range::Rows(rows, _)) => rows,
        _ => &[],
    }
}

/// Whether Garmin answered that it has nothing of a range's kind.
fn nothing<T>(read: &Option<Range<T>>) -> bool {
    matches!(read, Some(Range::Nothing))
}
