//! After the blocks: the sets of every strength activity of the range not read yet, or read within
//! [`REVISE_DAYS`] of the session while the person may still correct them (all with `full`),
//! newest first, each read once through the reader (Garmin's `exerciseSets`, web session
//! only) and committed with its `sets_at` mark in one transaction, so a stopped or killed sync never
//! stores an activity's sets twice nor reads a finished one again. Like the curves (`series.rs`) it
//! runs over the whole range, so a database from before the sets gets them on its next sync.

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
    let wanted = store::strength_without_sets(&run.history.conn(), range, REVISE_DAYS, run.options.full)?;
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
        store::set_activity_sets(&tx, id, sets.as_ref(), (unix_now(), run.options.today))?;
        tx.commit()?;
        report.strength_sets_read += 1;
    }
    Ok(None)
}
