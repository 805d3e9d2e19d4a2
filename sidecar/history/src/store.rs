//! Writing what Garmin returned into the history: each record keeps its raw JSON and the typed
//! columns decoded with the `garmin` crate's models (the one place that knows Garmin's field names
//! and quirks). Every write is an upsert keyed by Garmin's id or the date, so reading a day or an
//! activity twice never makes a second row.

use chrono::NaiveDate;
use garmin::models::activities::{ActivitySplits, ActivitySummary, ActivityType, ExerciseSets, TimeInZone};
use garmin::models::metrics::TrainingStatus;
use garmin::models::wellness::{DailySummary, DailyWeightSummary, HrvSummary, SleepStatsDay};
use garmin::reads::Raw;
use rusqlite::{Connection, OptionalExtension as _, params};
use serde_json::Value;

use crate::Result;
use crate::curves::Reduced;

/// How a kept record came to be (the `*_source` columns of migration 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Origin {
    /// Garmin's JSON as this source sent it.
    Served(garmin::Source),
    /// Derived from the activity's original FIT file (Personal API).
    FitFile,
}

impl Origin {
    fn key(self) -> &'static str {
        match self {
            Origin::Served(source) => source.key(),
            Origin::FitFile => "fit_file",
        }
    }
}

/// `YYYY-MM-DD`.
pub(crate) fn ymd(date: NaiveDate) -> String {
    date.format("%Y-%m-%d").to_string()
}

/// Parses a stored `YYYY-MM-DD`.
pub(crate) fn parse_ymd(text: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()
}

fn finite(v: Option<f64>) -> Option<f64> {
    v.filter(|x| x.is_finite())
}

/// Inserts or updates one activity-list row. Returns its id when the row is usable (it has an id
/// and a local start), with `true` when it was not in the history before.
pub(crate) fn upsert_activity(
    conn: &Connection,
    row: &Raw<ActivitySummary>,
    origin: Origin,
    now: i64,
) -> Result<Option<(u64, bool)>> {
    let (a, raw) = (&row.value, &row.json);
    let (Some(id), Some(start)) = (a.activity_id, a.start_time_local) else { return Ok(None) };
    let Ok(key) = i64::try_from(id) else { return Ok(None) };
    let existed: bool = conn
        .query_row("SELECT 1 FROM activities WHERE activity_id = ?1", [key], |_| Ok(()))
        .optional()?
        .is_some();
    let kind = a.activity_type.as_ref();
    conn.execute(
        "INSERT INTO activities (activity_id, local_date, start_local, start_gmt, type_key, type_id, parent_type_id,
             sport_type_id, name, distance_m, duration_s, moving_s, elevation_gain_m, avg_hr, max_hr, avg_power,
             norm_power, training_load, calories, aerobic_te, summary_json, synced_at, summary_source)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23)
         ON CONFLICT(activity_id) DO UPDATE SET
             local_date = excluded.local_date, start_local = excluded.start_local, start_gmt = excluded.start_gmt,
             type_key = excluded.type_key, type_id = excluded.type_id, parent_type_id = excluded.parent_type_id,
             sport_type_id = excluded.sport_type_id, name = excluded.name, distance_m = excluded.distance_m,
             duration_s = excluded.duration_s, moving_s = excluded.moving_s,
             elevation_gain_m = excluded.elevation_gain_m, avg_hr = excluded.avg_hr, max_hr = excluded.max_hr,
             avg_power = excluded.avg_power, norm_power = excluded.norm_power,
             training_load = excluded.training_load, calories = excluded.calories,
             aerobic_te = excluded.aerobic_te, summary_json = excluded.summary_json,
             synced_at = excluded.synced_at, summary_source = excluded.summary_source",
        params![
            key,
            ymd(start.date()),
            start.format("%Y-%m-%dT%H:%M:%S").to_string(),
            a.start_time_gmt.map(|t| t.to_rfc3339()),
            kind.and_then(|k| k.type_key.clone()),
            kind.and_then(|k| k.type_id),
            kind.and_then(|k| k.parent_type_id),
            raw.get("sportTypeId").and_then(Value::as_i64),
            a.activity_name.clone(),
            finite(a.distance),
            finite(a.duration),
            finite(a.moving_duration),
            finite(a.elevation_gain),
            finite(a.average_hr),
            finite(a.max_hr),
            finite(a.avg_power),
            finite(a.norm_power),
            finite(a.activity_training_load),
            finite(a.calories),
            finite(a.aerobic_training_effect),
            raw.to_string(),
            now,
            origin.key(),
        ],
    )?;
    Ok(Some((id, !existed)))
}

/// Stores an activity's laps and heart-rate zone times (raw and typed) and marks it detailed.
pub(crate) fn set_activity_details(
    conn: &Connection,
    id: u64,
    splits: Option<&Raw<ActivitySplits>>,
    zones: Option<&Raw<Vec<TimeInZone>>>,
    origin: Origin,
    now: i64,
) -> Result<()> {
    let Ok(key) = i64::try_from(id) else { return Ok(()) };
    conn.execute("DELETE FROM activity_laps WHERE activity_id = ?1", [key])?;
    conn.execute("DELETE FROM activity_hr_zones WHERE activity_id = ?1", [key])?;
    if let Some(laps) = splits.map(|s| &s.value) {
        for (n, lap) in laps.laps.iter().enumerate() {
            let index = lap.lap_index.unwrap_or(i64::try_from(n).unwrap_or(0) + 1);
            conn.execute(
                "INSERT OR REPLACE INTO activity_laps
                     (activity_id, lap_index, distance_m, duration_s, moving_s, avg_speed_mps, avg_hr, max_hr, avg_power,
                      wkt_step_index)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                params![
                    key,
                    index,
                    finite(lap.distance),
                    finite(lap.duration),
                    finite(lap.moving_duration),
                    finite(lap.average_speed),
                    finite(lap.average_hr),
                    finite(lap.max_hr),
                    finite(lap.average_power),
                    lap.wkt_step_index,
                ],
            )?;
        }
    }
    if let Some(zones) = zones.map(|z| &z.value) {
        for zone in zones {
            let (Some(n), Some(seconds)) = (zone.zone_number, finite(zone.secs_in_zone)) else { continue };
            conn.execute(
                "INSERT OR REPLACE INTO activity_hr_zones (activity_id, zone, seconds, low_bpm) VALUES (?1, ?2, ?3, ?4)",
                params![key, n, seconds, finite(zone.zone_low_boundary)],
            )?;
        }
    }
    conn.execute(
        "UPDATE activities SET splits_json = ?2, hr_zones_json = ?3, details_at = ?4, details_source = ?5,
             lap_steps_kept = ?6
         WHERE activity_id = ?1",
        params![
            key,
            splits.map(|s| s.json.to_string()),
            zones.map(|z| z.json.to_string()),
            now,
            origin.key(),
            splits.map(|_| 1),
        ],
    )?;
    Ok(())
}

/// Removes activities of `from..=to` that Garmin's list no longer has (deleted there).
pub(crate) fn delete_missing_activities(
    conn: &Connection,
    from: NaiveDate,
    to: NaiveDate,
    keep: &[u64],
) -> Result<usize> {
    let mut stmt = conn.prepare("SELECT activity_id FROM activities WHERE local_date BETWEEN ?1 AND ?2")?;
    let stored: Vec<i64> =
        stmt.query_map(params![ymd(from), ymd(to)], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?;
    let mut gone = 0;
    for id in stored {
        if !keep.iter().any(|k| i64::try_from(*k).ok() == Some(id)) {
            gone += conn.execute("DELETE FROM activities WHERE activity_id = ?1", [id])?;
        }
    }
    Ok(gone)
}

/// Activities of `from..=to` whose laps and zones were not read yet.
pub(crate) fn activities_without_details(
    conn: &Connection,
    from: NaiveDate,
    to: NaiveDate,
) -> Result<Vec<u64>> {
    let mut stmt = conn.prepare(
        "SELECT activity_id FROM activities WHERE local_date BETWEEN ?1 AND ?2 AND details_at IS NULL
         ORDER BY start_local DESC",
    )?;
    let ids: Vec<i64> =
        stmt.query_map(params![ymd(from), ymd(to)], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?;
    Ok(ids.into_iter().filter_map(|i| u64::try_from(i).ok()).collect())
}

/// Stores one day's daily summary (`None`: Garmin has nothing for the day, which is recorded too).
pub(crate) fn upsert_day_summary(
    conn: &Connection,
    date: NaiveDate,
    row: Option<&Raw<DailySummary>>,
    origin: Origin,
    now: i64,
    today: NaiveDate,
) -> Result<()> {
    let s = row.map(|r| r.value.clone()).unwrap_or_default();
    let minutes = match (finite(s.moderate_intensity_minutes), finite(s.vigorous_intensity_minutes)) {
        (None, None) => None,
        (m, v) => Some(m.unwrap_or(0.0) + 2.0 * v.unwrap_or(0.0)),
    };
    conn.execute(
        "INSERT INTO days (date, steps, resting_hr, total_kcal, avg_stress, body_battery_high, body_battery_low,
             intensity_minutes, summary_json, summary_at, summary_on, summary_source)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
         ON CONFLICT(date) DO UPDATE SET steps = excluded.steps, resting_hr = excluded.resting_hr,
             total_kcal = excluded.total_kcal, avg_stress = excluded.avg_stress,
             body_battery_high = excluded.body_battery_high, body_battery_low = excluded.body_battery_low,
             intensity_minutes = excluded.intensity_minutes, summary_json = excluded.summary_json,
             summary_at = excluded.summary_at, summary_on = excluded.summary_on,
             summary_source = excluded.summary_source",
        params![
            ymd(date),
            finite(s.total_steps).map(|v| v.round() as i64),
            finite(s.resting_heart_rate),
            finite(s.total_kilocalories),
            finite(s.average_stress_level).filter(|v| *v >= 0.0),
            finite(s.body_battery_highest_value),
            finite(s.body_battery_lowest_value),
            minutes,
            row.map(|r| r.json.to_string()),
            now,
            ymd(today),
            origin.key(),
        ],
    )?;
    Ok(())
}

/// The athlete's date when the day's summary was read, if it was.
pub(crate) fn day_summary_read_on(conn: &Connection, date: NaiveDate) -> Result<Option<NaiveDate>> {
    let on: Option<Option<String>> = conn
        .query_row(
            "SELECT summary_on FROM days WHERE date = ?1 AND summary_at IS NOT NULL",
            [ymd(date)],
            |r| r.get(0),
        )
        .optional()?;
    Ok(on.flatten().as_deref().and_then(parse_ymd))
}

/// One block's nights of sleep (each with its JSON as `sleep_origin` sent it), nights of HRV and
/// days of weigh-ins, stored per day.
pub(crate) fn store_ranges(
    conn: &Connection,
    sleep: &[Raw<SleepStatsDay>],
    sleep_origin: Origin,
    hrv: &[Raw<HrvSummary>],
    weight: &[Raw<DailyWeightSummary>],
    now: i64,
) -> Result<()> {
    let ensure = |date: NaiveDate| -> rusqlite::Result<usize> {
        conn.execute("INSERT OR IGNORE INTO days (date) VALUES (?1)", [ymd(date)])
    };
    for night in sleep {
        let Some(date) = night.value.calendar_date else { continue };
        let values = night.value.values.clone().unwrap_or_default();
        ensure(date)?;
        conn.execute(
            "UPDATE days SET sleep_s = ?2, sleep_score = ?3, sleep_json = ?4, ranges_at = ?5, sleep_source = ?6,
                 sleep_need_min = ?7
             WHERE date = ?1",
            params![
                ymd(date),
                finite(values.total_sleep_time_in_seconds),
                finite(values.sleep_score),
                night.json.to_string(),
                now,
                sleep_origin.key(),
                finite(values.sleep_need).filter(|m| *m > 0.0)
            ],
        )?;
    }
    for row in hrv {
        let night = &row.value;
        let Some(date) = night.calendar_date else { continue };
        ensure(date)?;
        conn.execute(
            "UPDATE days SET hrv_last_night_ms = ?2, hrv_weekly_avg_ms = ?3, hrv_status = ?4, hrv_json = ?5,
                 ranges_at = ?6 WHERE date = ?1",
            params![
                ymd(date),
                finite(night.last_night_avg),
                finite(night.weekly_avg),
                night.status,
                row.json.to_string(),
                now
            ],
        )?;
    }
    for row in weight {
        let day = &row.value;
        let Some(date) = day.summary_date else { continue };
        ensure(date)?;
        conn.execute(
            "UPDATE days SET weight_g = ?2, weight_json = ?3, ranges_at = ?4 WHERE date = ?1",
            params![
                ymd(date),
                day.latest_weight.as_ref().and_then(|w| finite(w.weight)),
                row.json.to_string(),
                now
            ],
        )?;
    }
    Ok(())
}

/// Stores Garmin's training status snapshot of `date`.
pub(crate) fn upsert_training_status(
    conn: &Connection,
    date: NaiveDate,
    snapshot: &Raw<TrainingStatus>,
    now: i64,
) -> Result<()> {
    let status = &snapshot.value;
    let primary = status.primary_status();
    let acute = primary.and_then(|p| p.acute_training_load.as_ref());
    conn.execute(
        "INSERT OR REPLACE INTO training_status (date, status, feedback, acute_load, chronic_load, acwr, raw_json, synced_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![
            ymd(date),
            primary.and_then(|p| p.training_status),
            primary.and_then(|p| p.training_status_feedback_phrase.clone()),
            acute.and_then(|a| finite(a.daily_training_load_acute)),
            acute.and_then(|a| finite(a.daily_training_load_chronic)),
            acute.and_then(|a| finite(a.daily_acute_chronic_workload_ratio)),
            snapshot.json.to_string(),
            now,
        ],
    )?;
    Ok(())
}

/// Replaces the table of activity types (for "running includes trail runs" from the history).
pub(crate) fn replace_activity_types(conn: &Connection, types: &[Raw<ActivityType>]) -> Result<()> {
    if types.is_empty() {
        return Ok(());
    }
    conn.execute("DELETE FROM activity_types", [])?;
    for t in types.iter().map(|t| &t.value) {
        let (Some(id), Some(key)) = (t.type_id, t.type_key.as_deref()) else { continue };
        conn.execute(
            "INSERT OR REPLACE INTO activity_types (type_id, type_key, parent_type_id) VALUES (?1, ?2, ?3)",
            params![id, key, t.parent_type_id],
        )?;
    }
    Ok(())
}

/// Whether the activity types are known.
pub(crate) fn has_activity_types(conn: &Connection) -> Result<bool> {
    Ok(conn.query_row("SELECT EXISTS (SELECT 1 FROM activity_types)", [], |r| r.get(0))?)
}

/// A finished block: when it was read and the last day that was over then.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BlockMark {
    pub covered_to: NaiveDate,
    pub synced_on: NaiveDate,
}

/// The mark of the block starting `start`, if it was finished.
pub(crate) fn block_mark(conn: &Connection, start: NaiveDate) -> Result<Option<BlockMark>> {
    let row: Option<(String, String)> = conn
        .query_row(
            "SELECT covered_to, synced_on FROM sync_blocks WHERE block_start = ?1",
            [ymd(start)],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    Ok(row.and_then(|(c, s)| Some(BlockMark { covered_to: parse_ymd(&c)?, synced_on: parse_ymd(&s)? })))
}

/// Records a finished block.
pub(crate) fn mark_block(
    conn: &Connection,
    start: NaiveDate,
    end: NaiveDate,
    covered_to: NaiveDate,
    today: NaiveDate,
    now: i64,
) -> Result<()> {
    conn.execute(
        "INSERT OR REPLACE INTO sync_blocks (block_start, block_end, covered_to, synced_on, synced_at)
         VALUES (?1, ?2, ?3, ?4, ?5)",
        params![ymd(start), ymd(end), ymd(covered_to), ymd(today), now],
    )?;
    Ok(())
}

/// Activities of `from..=to` whose series was not reduced to curves yet (all of them with `all`),
/// newest first.
pub(crate) fn activities_without_curves(
    conn: &Connection,
    from: NaiveDate,
    to: NaiveDate,
    all: bool,
) -> Result<Vec<u64>> {
    let mut stmt = conn.prepare(
        "SELECT activity_id FROM activities WHERE local_date BETWEEN ?1 AND ?2 AND (?3 OR curves_at IS NULL)
         ORDER BY start_local DESC, activity_id DESC",
    )?;
    let ids: Vec<i64> =
        stmt.query_map(params![ymd(from), ymd(to), all], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?;
    Ok(ids.into_iter().filter_map(|i| u64::try_from(i).ok()).collect())
}

/// Stores an activity's curves and best times (replacing earlier ones) and marks it reduced.
pub(crate) fn set_activity_curves(conn: &Connection, id: u64, reduced: &Reduced, now: i64) -> Result<()> {
    let Ok(key) = i64::try_from(id) else { return Ok(()) };
    conn.execute("DELETE FROM activity_curves WHERE activity_id = ?1", [key])?;
    conn.execute("DELETE FROM activity_best_times WHERE activity_id = ?1", [key])?;
    let mut point = conn.prepare(
        "INSERT OR REPLACE INTO activity_curves (activity_id, metric, seconds, value, start_second)
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    for (metric, curve) in &reduced.curves {
        for p in &curve.points {
            point.execute(params![key, metric.key(), p.seconds, p.value, p.start_second])?;
        }
    }
    let mut best = conn.prepare(
        "INSERT OR REPLACE INTO activity_best_times (activity_id, meters, label, seconds, start_second)
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    for t in reduced.best.iter().flat_map(|b| &b.times) {
        best.execute(params![key, t.meters, t.label, t.seconds, t.start_second])?;
    }
    conn.execute("UPDATE activities SET curves_at = ?2 WHERE activity_id = ?1", params![key, now])?;
    Ok(())
}

/// Whether any day holds `column` (a kind's JSON column of `days`).
pub(crate) fn any_day_has(conn: &Connection, column: &str) -> Result<bool> {
    Ok(conn.query_row(
        &format!("SELECT EXISTS (SELECT 1 FROM days WHERE {column} IS NOT NULL)"),
        [],
        |r| r.get(0),
    )?)
}

/// Marks the days of `from..=to` as having had their sleep, HRV and weight read at `now`, with or
/// without anything in them (a kind Garmin has none of for the account leaves them empty).
pub(crate) fn mark_ranges_read(conn: &Connection, from: NaiveDate, to: NaiveDate, now: i64) -> Result<()> {
    for day in from.iter_days().take_while(|d| *d <= to) {
        conn.execute(
            "INSERT INTO days (date, ranges_at) VALUES (?1, ?2) ON CONFLICT(date) DO UPDATE SET ranges_at = ?2",
            params![ymd(day), now],
        )?;
    }
    Ok(())
}

/// The strength activities of `from..=to` whose sets need reading (all of them with `all`), newest
/// first: not read yet, or read no more than `revise_days` days after the session (people correct
/// the watch's guesses in the first days).
pub(crate) fn strength_without_sets(
    conn: &Connection,
    (from, to): (NaiveDate, NaiveDate),
    revise_days: i64,
    all: bool,
) -> Result<Vec<u64>> {
    let mut stmt = conn.prepare(
        "SELECT activity_id FROM activities
         WHERE local_date BETWEEN ?1 AND ?2 AND type_key = 'strength_training'
           AND (?3 OR sets_at IS NULL OR sets_on IS NULL OR sets_on <= date(local_date, ?4))
         ORDER BY start_local DESC, activity_id DESC",
    )?;
    let shift = format!("+{revise_days} days");
    let ids: Vec<i64> = stmt
        .query_map(params![ymd(from), ymd(to), all, shift], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    Ok(ids.into_iter().filter_map(|i| u64::try_from(i).ok()).collect())
}

/// When activity `id`'s sets were last read (unix seconds): `None` when the history does not have
/// the activity, `Some(None)` when it has it but never read its sets.
pub(crate) fn sets_read_at(conn: &Connection, id: u64) -> Result<Option<Option<i64>>> {
    let Ok(key) = i64::try_from(id) else { return Ok(None) };
    let mut stmt = conn.prepare("SELECT sets_at FROM activities WHERE activity_id = ?1")?;
    let mut rows = stmt.query([key])?;
    Ok(match rows.next()? {
        Some(row) => Some(row.get(0)?),
        None => None,
    })
}

/// Stores a strength activity's sets (replacing earlier ones: reading an activity twice never
/// makes a second row) with Garmin's JSON, and marks them read at `now` on the athlete's `today`;
/// `None`: Garmin keeps none for it.
/// Active sets are read as the strength log reads them (`garmin::strength_log::log`: the most
/// probable exercise, kg, seconds); rests keep their duration.
pub(crate) fn set_activity_sets(
    conn: &Connection,
    id: u64,
    sets: Option<&Raw<ExerciseSets>>,
    (now, today): (i64, NaiveDate),
) -> Result<()> {
    let Ok(key) = i64::try_from(id) else { return Ok(()) };
    conn.execute("DELETE FROM activity_sets WHERE activity_id = ?1", [key])?;
    if let Some(sets) = sets {
        let mut insert = conn.prepare(
            "INSERT OR REPLACE INTO activity_sets
                 (activity_id, set_index, set_type, category, exercise_name, reps, weight_kg, duration_s)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        )?;
        for set in garmin::strength_log::log(&sets.value) {
            let index = i64::try_from(set.index).unwrap_or(i64::MAX);
            let values = (set.category, set.name, set.reps, set.weight_kg, set.duration_s);
            insert
                .execute(params![key, index, "ACTIVE", values.0, values.1, values.2, values.3, values.4])?;
        }
        for (index, rest) in sets.value.exercise_sets.iter().enumerate() {
            if rest.set_type.as_deref() != Some("REST") {
                continue;
            }
            let index = i64::try_from(index).unwrap_or(i64::MAX);
            let duration = finite(rest.duration).filter(|d| *d >= 0.0);
            insert.execute(params![
                key,
                index,
                "REST",
                None::<String>,
                None::<String>,
                None::<u32>,
                None::<f64>,
                duration
            ])?;
        }
    }
    conn.execute(
        "UPDATE activities SET sets_json = ?2, sets_at = ?3, sets_on = ?4 WHERE activity_id = ?1",
        params![key, sets.map(|s| s.json.to_string()), now, ymd(today)],
    )?;
    Ok(())
}
