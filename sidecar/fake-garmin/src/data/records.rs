//! Personal records, computed from the live activities (so deleting the record run changes the
//! record, as on Garmin) and the daily step counts. Type ids follow reference §4.6 for 1 km,
//! mile, 5 km and 10 km; 5/6 half/full marathon, 7 longest run, 8 longest ride and 12 most steps
//! in a day follow Garmin's `prtypes` numbering as other clients use it.

use chrono::{Duration, NaiveDateTime};

use super::activity::{Activity, Sport};
use super::health::Day;

/// One personal record.
#[derive(Clone, Debug)]
pub struct Record {
    /// Record type id.
    pub type_id: u32,
    /// Activity that set it (None for step records).
    pub activity: Option<(u64, String, NaiveDateTime, NaiveDateTime)>,
    /// Seconds for time records, metres for distance records, steps for step records.
    pub value: f64,
    /// When the record effort started (GMT).
    pub start_gmt: NaiveDateTime,
    /// When it started, local.
    pub start_local: NaiveDateTime,
}

/// All records over `acts` (live activities) and `days`.
pub fn compute<'a>(acts: impl Iterator<Item = &'a Activity> + Clone, days: &[Day]) -> Vec<Record> {
    let mut out: Vec<Record> = Vec::new();
    let of = |a: &Activity, value: f64, offset_s: f64, type_id: u32| Record {
        type_id,
        activity: Some((a.id, a.name.clone(), a.start_gmt, a.start_local)),
        value,
        start_gmt: a.start_gmt + Duration::milliseconds((offset_s * 1000.0) as i64),
        start_local: a.start_local + Duration::milliseconds((offset_s * 1000.0) as i64),
    };
    for (i, metres) in [1000.0, 1609.344, 5000.0, 10_000.0, 21_097.5, 42_195.0].into_iter().enumerate() {
        let best = acts
            .clone()
            .filter_map(|a| a.best_efforts.iter().find(|e| e.0 == metres).map(|e| (a, e.1, e.2)))
            .min_by(|x, y| x.1.total_cmp(&y.1));
        if let Some((a, secs, offset)) = best {
            out.push(of(a, secs, offset, i as u32 + 1));
        }
    }
    for (type_id, sport) in [(7, Sport::Running), (8, Sport::Cycling)] {
        let longest = acts
            .clone()
            .filter(|a| a.sport() == sport)
            .max_by(|x, y| x.stats.distance.total_cmp(&y.stats.distance));
        if let Some(a) = longest {
            out.push(of(a, a.stats.distance, 0.0, type_id));
        }
    }
    if let Some(d) = days.iter().max_by_key(|d| d.steps) {
        let midnight = d.date.and_time(chrono::NaiveTime::MIN);
        out.push(Record {
            type_id: 12,
            activity: None,
            value: f64::from(d.steps),
            start_gmt: midnight,
            start_local: midnight,
        });
    }
    out
}
