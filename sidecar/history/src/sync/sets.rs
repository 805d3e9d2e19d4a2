//! After the blocks: the sets of every strength activity of the range not read yet, or read within
//! [`REVISE_DAYS`] of the session while the person may still correct them (all with `full`),
//! newest first, each read once through the reader (Garmin's `exerciseSets`, web session
//! only) and committed with its `sets_at` mark in one transaction, so a stopped or killed sync never
//! stores an activity's sets twice nor reads a finished one again. Like the curves (`series.rs`) it
//! runs over the whole range, so a database from before the sets gets them on its next sync.
//! A session whose sets were corrected (or a correction undone) from this computer after the
//! history read them — the journal of changes beside the history says so — is read again, whatever
//! its age, so the strength analysis follows the person's corrections.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use futures::StreamExt as _;

use super::{REVISE_DAYS, Run, Stopped, SyncReport, unix_now};
use crate::Result;
use crate::store;

/// Reads and keeps the sets of `from..=today`'s strength activities without them. Returns the
/// stop, when the run must stop. Without the web session there is nothing to read them with (the
/// run's key-only note says so).
pub(super) async fn sync_sets(
    run: &Run<'_>,
    from: NaiveDate,
    report: &mut SyncReport,
) -> Result<Option<Stopped>> {
    if !run.garmin.has_web() {
        return Ok(None);
    }
    let range = (from, run.options.today);
    let mut wanted = store::strength_without_sets(&run.history.conn(), range, REVISE_DAYS, run.options.full)?;
    let corrected = corrected_since_read(run)?;
    for id in corrected.keys() {
        if !wanted.contains(id) {
            wanted.push(*id);
        }
    }
    let mut reads = futures::stream::iter(wanted)
        .map(|id| async move { (id, run.garmin.kept_exercise_sets(id).await) })
        .buffer_unordered(run.garmin.max_concurrency());
    while let Some((id, answer)) = reads.next().await {
        let sets = match answer {
            Ok(served) => served.value,
            // Nothing there, or a body we cannot read: no sets, and not asked again.
            Err(e) if e.means_nothing_there() || matches!(e, garmin::Error::Decode { .. }) => None,
            Err(e) => match report.settle(run.miss(e, &format!("activity {id}'s strength sets")))? {
                Some(stop) => return Ok(Some(stop)),
                None => continue,
            },
        };
        let mut conn = run.history.conn();
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        // Read after the correction: marked so, even when both fall in the same second.
        let read_at = corrected.get(&id).map_or(unix_now(), |at| unix_now().max(at + 1));
        store::set_activity_sets(&tx, id, sets.as_ref(), (read_at, run.options.today))?;
        tx.commit()?;
        report.strength_sets_read += 1;
    }
    Ok(None)
}

/// The activities whose sets a journaled change (`correct_strength_sets`, or its undo) replaced
/// after the history last read them, with when (unix seconds). An unreadable journal only means
/// none are known.
fn corrected_since_read(run: &Run<'_>) -> Result<BTreeMap<u64, i64>> {
    let Some(dir) = run.history.path().parent() else { return Ok(BTreeMap::new()) };
    let entries = match garmin::journal::Journal::in_dir(dir).entries() {
        Ok(entries) => entries,
        Err(e) => {
            tracing::debug!("the journal of changes could not be read for corrected sets: {e}");
            return Ok(BTreeMap::new());
        }
    };
    let mut latest: BTreeMap<u64, i64> = BTreeMap::new();
    for entry in entries {
        if let garmin::changes::Change::CorrectStrengthSets { activity_id, .. } = entry.change {
            let at = latest.entry(activity_id).or_insert(i64::MIN);
            *at = (*at).max(entry.time.timestamp());
        }
    }
    let conn = run.history.conn();
    let mut stale = BTreeMap::new();
    for (id, corrected_at) in latest {
        let read_at = store::sets_read_at(&conn, id)?;
        // Read before the correction, in the same second, or never: read again. Not in the
        // history: nothing to redo.
        if read_at.is_some_and(|read| read.is_none_or(|read| read <= corrected_at)) {
            stale.insert(id, corrected_at);
        }
    }
    Ok(stale)
}
