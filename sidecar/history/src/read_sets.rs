//! Reading the history for the strength analysis (`get_strength_progress`): every active set of the
//! strength activities of a range, with its day, in the order done. The sets are kept by the sync
//! (`sync/sets.rs`); what each exercise works and its estimated one-rep max are for the reader
//! (the catalogue and the strength log of the `garmin` crate), not stored.

use chrono::NaiveDate;
use rusqlite::params;

use crate::store::{parse_ymd, ymd};
use crate::{History, Result};

/// One active set of a strength activity.
#[derive(Clone, Debug, PartialEq)]
pub struct StrengthSet {
    /// The activity's Garmin id.
    pub activity_id: u64,
    /// Local date of the activity's start.
    pub date: NaiveDate,
    /// Position among the activity's sets (rests included).
    pub set_index: u32,
    /// Garmin's exercise category, e.g. `SQUAT` (`None`: unrecognised).
    pub category: Option<String>,
    /// Garmin's exercise name, e.g. `BARBELL_BACK_SQUAT` (`None`: the category only).
    pub exercise_name: Option<String>,
    /// Repetitions (`None` for timed sets).
    pub reps: Option<u32>,
    /// Weight, kg (`None` for body weight).
    pub weight_kg: Option<f64>,
    /// Seconds of work.
    pub duration_s: Option<f64>,
}

/// How many strength activities of a range there are, and how many of them had their sets read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrengthCoverage {
    /// Strength activities of the range.
    pub sessions: u32,
    /// Of them, those whose sets were read.
    pub with_sets_read: u32,
}

impl History {
    /// The active sets of the strength activities of `from..=to` (local dates), oldest first, each
    /// activity's in the order done.
    pub fn strength_sets(&self, from: NaiveDate, to: NaiveDate) -> Result<Vec<StrengthSet>> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT s.activity_id, a.local_date, s.set_index, s.category, s.exercise_name, s.reps,
                    s.weight_kg, s.duration_s
             FROM activity_sets s JOIN activities a ON a.activity_id = s.activity_id
             WHERE a.local_date BETWEEN ?1 AND ?2 AND s.set_type = 'ACTIVE'
             ORDER BY a.start_local, s.activity_id, s.set_index",
        )?;
        let rows = stmt.query_map(params![ymd(from), ymd(to)], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, Option<String>>(3)?,
                r.get::<_, Option<String>>(4)?,
                r.get::<_, Option<i64>>(5)?,
                r.get::<_, Option<f64>>(6)?,
                r.get::<_, Option<f64>>(7)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (id, date, index, category, exercise_name, reps, weight_kg, duration_s) = row?;
            let (Ok(activity_id), Some(date)) = (u64::try_from(id), parse_ymd(&date)) else { continue };
            out.push(StrengthSet {
                activity_id,
                date,
                set_index: u32::try_from(index).unwrap_or(u32::MAX),
                category,
                exercise_name,
                reps: reps.and_then(|r| u32::try_from(r).ok()),
                weight_kg,
                duration_s,
            });
        }
        Ok(out)
    }

    /// The strength activities of `from..=to` and how many of them had their sets read.
    pub fn strength_coverage(&self, from: NaiveDate, to: NaiveDate) -> Result<StrengthCoverage> {
        let (sessions, read): (i64, i64) = self.conn().query_row(
            "SELECT COUNT(*), COUNT(sets_at) FROM activities
             WHERE local_date BETWEEN ?1 AND ?2 AND type_key = 'strength_training'",
            params![ymd(from), ymd(to)],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        Ok(StrengthCoverage {
            sessions: u32::try_from(sessions).unwrap_or(0),
            with_sets_read: u32::try_from(read).unwrap_or(0),
        })
    }
}
