//! Reading the history for tools: how far it covers a date range and how fresh that is, the
//! activities of a range (as the `garmin` models, so tools shape them exactly as live answers),
//! and the per-activity loads the training analytics work from.
//!
//! A day is *covered* when the block holding it was finished by a sync run after the day was over
//! (so today is never covered: its activities may still come).

use chrono::{DateTime, NaiveDate, Utc};
use garmin::models::activities::ActivitySummary;
use rusqlite::params;

use crate::rows::{self, TYPE_FILTER};
use crate::store::{parse_ymd, ymd};
use crate::sync::{BLOCK_DAYS, block_start};
use crate::{History, Result};

/// How much of a range the history covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coverage {
    /// The last day of the covered stretch that starts at the range's first day (`None`: not even
    /// the first day is covered).
    pub covered_to: Option<NaiveDate>,
    /// When the oldest block used was read (how fresh the covered numbers are).
    pub synced_at: Option<DateTime<Utc>>,
}

/// Per-activity figures for load and intensity analytics.
#[derive(Clone, Debug, PartialEq)]
pub struct ActivityLoad {
    /// Garmin's id.
    pub activity_id: u64,
    /// Local date of the start.
    pub date: NaiveDate,
    /// Garmin type key.
    pub type_key: Option<String>,
    /// Timer time, s.
    pub duration_s: Option<f64>,
    /// Garmin's activity training load.
    pub training_load: Option<f64>,
    /// Average heart rate, bpm.
    pub avg_hr: Option<f64>,
    /// Maximum heart rate, bpm.
    pub max_hr: Option<f64>,
    /// Average power, W.
    pub avg_power: Option<f64>,
    /// Normalised power, W (Garmin's).
    pub norm_power: Option<f64>,
    /// Seconds per heart-rate zone: `(zone, seconds, zone floor in bpm)`, zone 1 first.
    pub hr_zones: Vec<(i64, f64, Option<f64>)>,
}

impl History {
    /// How far the history covers `from..=to`, starting at `from`.
    pub fn coverage(&self, from: NaiveDate, to: NaiveDate) -> Result<Coverage> {
        let conn = self.conn();
        let mut stmt =
            conn.prepare("SELECT covered_to, synced_at FROM sync_blocks WHERE block_start = ?1")?;
        let mut covered_to = None;
        let mut oldest: Option<i64> = None;
        let mut start = block_start(from);
        while start <= to {
            let end = start + chrono::Duration::days(BLOCK_DAYS - 1);
            let row: Option<(String, i64)> = stmt
                .query_row([ymd(start)], |r| Ok((r.get(0)?, r.get(1)?)))
                .map(Some)
                .or_else(|e| if e == rusqlite::Error::QueryReturnedNoRows { Ok(None) } else { Err(e) })?;
            let Some((c, at)) = row else { break };
            let Some(c) = parse_ymd(&c) else { break };
            if c < from {
                break;
            }
            covered_to = Some(c.min(to));
            oldest = Some(oldest.map_or(at, |o| o.min(at)));
            if c < end {
                break;
            }
            start = end + chrono::Duration::days(1);
        }
        Ok(Coverage { covered_to, synced_at: oldest.and_then(|t| DateTime::from_timestamp(t, 0)) })
    }

    /// The activities of `from..=to` (local dates), newest first, as Garmin listed them; with
    /// `type_key`, only that type and its children (`running` includes trail runs), as Garmin's
    /// own filter does.
    pub fn activities(
        &self,
        from: NaiveDate,
        to: NaiveDate,
        type_key: Option<&str>,
    ) -> Result<Vec<ActivitySummary>> {
        let conn = self.conn();
        let mut stmt = conn.prepare(&format!(
            "SELECT a.summary_json FROM activities a WHERE a.local_date BETWEEN ?1 AND ?2 AND {TYPE_FILTER}
             ORDER BY a.start_local DESC, a.activity_id DESC"
        ))?;
        let rows = stmt.query_map(params![ymd(from), ymd(to), type_key], |r| r.get::<_, String>(0))?;
        let mut out = Vec::new();
        for row in rows {
            if let Ok(summary) = serde_json::from_str::<ActivitySummary>(&row?) {
                out.push(summary);
            }
        }
        Ok(out)
    }

    /// Per-activity loads of `from..=to`, oldest first.
    pub fn activity_loads(&self, from: NaiveDate, to: NaiveDate) -> Result<Vec<ActivityLoad>> {
        let conn = self.conn();
        let mut zones = conn.prepare(
            "SELECT zone, seconds, low_bpm FROM activity_hr_zones WHERE activity_id = ?1 ORDER BY zone",
        )?;
        let rows = rows::activity_rows(
            &conn,
            from,
            to,
            None,
            "a.type_key, a.duration_s, a.training_load, a.avg_hr, a.max_hr, a.avg_power, a.norm_power",
            |r| Ok((r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?, r.get(7)?, r.get(8)?)),
        )?;
        let mut out = Vec::with_capacity(rows.len());
        for (head, (type_key, duration_s, training_load, avg_hr, max_hr, avg_power, norm_power)) in rows {
            out.push(ActivityLoad {
                activity_id: head.activity_id,
                date: head.date,
                type_key,
                duration_s,
                training_load,
                avg_hr,
                max_hr,
                avg_power,
                norm_power,
                hr_zones: rows::children(&mut zones, head.key, |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?,
            });
        }
        Ok(out)
    }

    /// Folds the write-ahead log into the main file (for measuring its size; SQLite also does it
    /// on its own as the log grows).
    pub fn checkpoint(&self) -> Result<()> {
        self.conn().execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")?;
        Ok(())
    }

    /// Row counts per table (for tests, the bench and `sync`'s closing line).
    pub fn counts(&self) -> Result<Counts> {
        let conn = self.conn();
        let count = |table: &str| -> rusqlite::Result<u64> {
            conn.query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get::<_, i64>(0))
                .map(|n| u64::try_from(n).unwrap_or(0))
        };
        Ok(Counts {
            activities: count("activities")?,
            laps: count("activity_laps")?,
            hr_zones: count("activity_hr_zones")?,
            days: count("days")?,
            training_status: count("training_status")?,
            blocks: count("sync_blocks")?,
            curve_points: count("activity_curves")?,
            best_times: count("activity_best_times")?,
            strength_sets: count("activity_sets")?,
        })
    }
}

/// Rows per table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts {
    /// Activities.
    pub activities: u64,
    /// Laps.
    pub laps: u64,
    /// Heart-rate zone rows.
    pub hr_zones: u64,
    /// Days.
    pub days: u64,
    /// Training status snapshots.
    pub training_status: u64,
    /// Finished blocks.
    pub blocks: u64,
    /// Mean-max curve points (all metrics).
    pub curve_points: u64,
    /// Best times over standard distances.
    pub best_times: u64,
    /// Strength sets (rests included).
    pub strength_sets: u64,
}
