//! Reading the best-effort analytics' inputs: each activity's stored mean-max curve of one metric
//! and its best times over the standard distances (computed at sync, see `curves.rs`), and how many
//! activities of a range still wait for theirs.

use analytics::mean_max::{
    BEST_TIME_CONVENTION, BestTime, BestTimes, MEAN_MAX_CONVENTION, MeanMaxCurve, MeanMaxPoint,
    all_standard_distances,
};
use chrono::NaiveDate;

use crate::curves::Metric;
use crate::rows;
use crate::{History, Result};

/// One activity's curve of one metric and its best times.
#[derive(Clone, Debug, PartialEq)]
pub struct ActivityCurve {
    /// Garmin's id.
    pub activity_id: u64,
    /// Local date of the start.
    pub date: NaiveDate,
    /// The activity's name.
    pub name: Option<String>,
    /// Garmin type key.
    pub type_key: Option<String>,
    /// The mean-max curve (empty when the activity did not record the metric).
    pub curve: MeanMaxCurve,
    /// Best times over the standard distances it covers, shortest first.
    pub best_times: BestTimes,
}

impl History {
    /// The activities of `from..=to` (of `type_key` and its children when given) whose series was
    /// reduced at sync, oldest first, with their `metric` curve and best times.
    pub fn activity_curves(
        &self,
        from: NaiveDate,
        to: NaiveDate,
        type_key: Option<&str>,
        metric: Metric,
    ) -> Result<Vec<ActivityCurve>> {
        let conn = self.conn();
        let mut points = conn.prepare(
            "SELECT seconds, value, start_second FROM activity_curves WHERE activity_id = ?1 AND metric = ?2
             ORDER BY seconds",
        )?;
        let mut times = conn.prepare(
            "SELECT meters, seconds, start_second FROM activity_best_times WHERE activity_id = ?1 ORDER BY meters",
        )?;
        let rows = rows::activity_rows(&conn, from, to, type_key, "a.name, a.type_key, a.curves_at", |r| {
            Ok((r.get::<_, Option<String>>(2)?, r.get::<_, Option<String>>(3)?, r.get::<_, Option<i64>>(4)?))
        })?;
        let distances = all_standard_distances();
        let mut out = Vec::new();
        for (head, (name, type_key, curves_at)) in rows {
            if curves_at.is_none() {
                continue;
            }
            let curve = points
                .query_map(rusqlite::params![head.key, metric.key()], |r| {
                    Ok(MeanMaxPoint { seconds: r.get(0)?, value: r.get(1)?, start_second: r.get(2)? })
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let best = rows::children(&mut times, head.key, |r| {
                Ok((r.get::<_, f64>(0)?, r.get::<_, f64>(1)?, r.get::<_, f64>(2)?))
            })?;
            let best = best
                .into_iter()
                .filter_map(|(meters, seconds, start_second)| {
                    let label = distances.iter().find(|d| d.0 == meters)?.1;
                    Some(BestTime { label, meters, seconds, start_second })
                })
                .collect();
            out.push(ActivityCurve {
                activity_id: head.activity_id,
                date: head.date,
                name,
                type_key,
                curve: MeanMaxCurve { points: curve, convention: MEAN_MAX_CONVENTION },
                best_times: BestTimes { times: best, convention: BEST_TIME_CONVENTION },
            });
        }
        Ok(out)
    }

    /// How many activities of `from..=to` have not had their series reduced yet (the next sync
    /// reads them).
    pub fn curves_pending(&self, from: NaiveDate, to: NaiveDate) -> Result<u64> {
        let n: i64 = self.conn().query_row(
            "SELECT COUNT(*) FROM activities WHERE local_date BETWEEN ?1 AND ?2 AND curves_at IS NULL",
            rusqlite::params![crate::store::ymd(from), crate::store::ymd(to)],
            |r| r.get(0),
        )?;
        Ok(u64::try_from(n).unwrap_or(0))
    }
}
