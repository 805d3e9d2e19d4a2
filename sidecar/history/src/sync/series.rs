//! After the blocks: the series of every activity of the range not reduced yet (all with `full`),
//! newest first, each read once (its FIT file with a key, else Garmin's chart rows), reduced to
//! curves and best times and committed with its `curves_at` mark, so a stopped sync never reads a
//! finished activity's series again. It runs over the whole range (not per block), so a database
//! from before the curves gets them on its next sync even where every block is settled.

use chrono::NaiveDate;
use futures::StreamExt as _;
use garmin::models::activities::ActivityDetails;

use super::{Run, Stopped, SyncReport, unix_now};
use crate::store;
use crate::write_gate::GatePass;
use crate::{History, HistoryError, Result};

/// Reads and reduces the series of `from..=today`'s activities without curves; `tick(n, of)` after
/// each. Returns the stop, when the run must stop.
pub(super) async fn sync_curves(
    run: &Run<'_>,
    from: NaiveDate,
    report: &mut SyncReport,
    tick: &(dyn Fn(u64, u64) + Send + Sync),
) -> Result<Option<Stopped>> {
    let wanted =
        store::activities_without_curves(&run.history.conn(), from, run.options.today, run.options.full)?;
    let of = wanted.len() as u64;
    let mut series = futures::stream::iter(wanted)
        .map(|id| async move { (id, run.garmin.kept_series(id).await) })
        .buffer_unordered(run.garmin.max_concurrency());
    let mut handled = 0u64;
    while let Some((id, answer)) = series.next().await {
        let read = match answer {
            Ok(served) => served.value,
            // Nothing there (no such activity any more, another athlete's), or rows we cannot read:
            // no curves, and not asked again.
            Err(e) if e.means_nothing_there() || matches!(e, garmin::Error::Decode { .. }) => None,
            Err(e) => match report.settle(run.miss(e, &format!("activity {id}'s series")))? {
                Some(stop) => return Ok(Some(stop)),
                None => continue,
            },
        };
        // Reducing a day-long series and writing its curves is CPU and disk work with no await in
        // it: it runs on the blocking pool, so the runtime's workers stay free for the server's
        // answers. Inline, a full sync's run of ready series kept every worker of a two-core
        // machine busy for seconds, and `sync_history` answered late. Its commit passes the run's
        // gate: a cancelled sync writes nothing more.
        let history = run.history.clone();
        let pass = run.gate.pass();
        tokio::task::spawn_blocking(move || store_curves(&history, id, read.as_ref(), &pass))
            .await
            .map_err(|e| HistoryError::Interrupted(format!("storing an activity's curves ({e})")))??;
        report.curves_read += 1;
        handled += 1;
        tick(handled, of);
    }
    Ok(None)
}

/// Reduces one activity's series to its curves and best times and commits them with its mark,
/// unless the sync that read it is gone (`pass`).
fn store_curves(history: &History, id: u64, series: Option<&ActivityDetails>, pass: &GatePass) -> Result<()> {
    let reduced = series.map(crate::curves::reduce_details).unwrap_or_default();
    pass.commit(|| {
        let mut conn = history.conn();
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        store::set_activity_curves(&tx, id, &reduced, unix_now())?;
        tx.commit()?;
        Ok(())
    })
    .unwrap_or(Ok(()))
}
