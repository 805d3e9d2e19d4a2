//! Reading the history for the efficiency and period analyses: each activity's distance and
//! durations beside its laps (lap averages are the finest series the history keeps; see
//! `schema.rs` for why no second-by-second series is stored), and one activity's laps with the
//! workout step each was run under, for matching a done workout's laps to its steps.

use chrono::NaiveDate;
use rusqlite::OptionalExtension;

use crate::rows;
use crate::{History, Result};

/// One lap as Garmin's splits listed it.
#[derive(Clone, Debug, PartialEq)]
pub struct Lap {
    /// Timer time, s.
    pub duration_s: Option<f64>,
    /// Distance, m.
    pub distance_m: Option<f64>,
    /// Average speed, m/s.
    pub avg_speed_mps: Option<f64>,
    /// Average heart rate, bpm.
    pub avg_hr: Option<f64>,
    /// Average power, W.
    pub avg_power: Option<f64>,
}

/// An activity's volume figures and its laps, first lap first.
#[derive(Clone, Debug, PartialEq)]
pub struct ActivityLaps {
    /// Garmin's id.
    pub activity_id: u64,
    /// Local date of the start.
    pub date: NaiveDate,
    /// Garmin type key.
    pub type_key: Option<String>,
    /// Garmin type key of the parent type (`running` for a trail run), when known.
    pub parent_type_key: Option<String>,
    /// The activity's name.
    pub name: Option<String>,
    /// Distance, m.
    pub distance_m: Option<f64>,
    /// Timer time, s.
    pub duration_s: Option<f64>,
    /// Average heart rate, bpm.
    pub avg_hr: Option<f64>,
    /// Normalised power, W (Garmin's).
    pub norm_power: Option<f64>,
    /// The laps (empty when Garmin listed none or they were not read yet).
    pub laps: Vec<Lap>,
}

/// One lap with the workout step it was run under.
#[derive(Clone, Debug, PartialEq)]
pub struct StepLap {
    /// Garmin's 1-based lap number.
    pub lap_index: i64,
    /// Garmin's `wktStepIndex` (`None`: the lap belongs to no step).
    pub step_index: Option<i64>,
    /// Its figures.
    pub lap: Lap,
}

impl History {
    /// An activity's laps with their workout step, first lap first; `None` when the history
    /// does not hold them: the activity is not kept, its laps are not read yet, or they were
    /// stored before migration 9 (their step indexes unknown, not absent — read them live).
    pub fn laps_with_steps(&self, activity_id: u64) -> Result<Option<Vec<StepLap>>> {
        let Ok(key) = i64::try_from(activity_id) else { return Ok(None) };
        let conn = self.conn();
        let kept: Option<i64> = conn
            .query_row(
                "SELECT lap_steps_kept FROM activities WHERE activity_id = ?1 AND details_at IS NOT NULL",
                [key],
                |r| r.get(0),
            )
            .optional()?
            .flatten();
        if kept != Some(1) {
            return Ok(None);
        }
        let mut laps = conn.prepare(
            "SELECT lap_index, wkt_step_index, duration_s, distance_m, avg_speed_mps, avg_hr, avg_power
             FROM activity_laps WHERE activity_id = ?1 ORDER BY lap_index",
        )?;
        let rows = laps.query_map([key], |r| {
            Ok(StepLap {
                lap_index: r.get(0)?,
                step_index: r.get(1)?,
                lap: Lap {
                    duration_s: r.get(2)?,
                    distance_m: r.get(3)?,
                    avg_speed_mps: r.get(4)?,
                    avg_hr: r.get(5)?,
                    avg_power: r.get(6)?,
                },
            })
        })?;
        Ok(Some(rows.collect::<std::result::Result<_, _>>()?))
    }

    /// The activities of `from..=to` (local dates) with their laps, oldest first.
    pub fn activity_laps(&self, from: NaiveDate, to: NaiveDate) -> Result<Vec<ActivityLaps>> {
        let conn = self.conn();
        let mut laps = conn.prepare(
            "SELECT duration_s, distance_m, avg_speed_mps, avg_hr, avg_power FROM activity_laps
             WHERE activity_id = ?1 ORDER BY lap_index",
        )?;
        let rows = rows::activity_rows(
            &conn,
            from,
            to,
            None,
            "a.type_key, (SELECT p.type_key FROM activity_types p WHERE p.type_id = a.parent_type_id),
             a.name, a.distance_m, a.duration_s, a.avg_hr, a.norm_power",
            |r| Ok((r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?, r.get(7)?, r.get(8)?)),
        )?;
        let mut out = Vec::with_capacity(rows.len());
        for (head, (type_key, parent_type_key, name, distance_m, duration_s, avg_hr, norm_power)) in rows {
            let laps = rows::children(&mut laps, head.key, |r| {
                Ok(Lap {
                    duration_s: r.get(0)?,
                    distance_m: r.get(1)?,
                    avg_speed_mps: r.get(2)?,
                    avg_hr: r.get(3)?,
                    avg_power: r.get(4)?,
                })
            })?;
            out.push(ActivityLaps {
                activity_id: head.activity_id,
                date: head.date,
                type_key,
                parent_type_key,
                name,
                distance_m,
                duration_s,
                avg_hr,
                norm_power,
                laps,
            });
        }
        Ok(out)
    }
}
