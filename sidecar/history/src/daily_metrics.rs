//! The daily series of Garmin's newest metrics (issue #29): hill score, endurance score, Health
//! Status, load focus, the morning Training Readiness, heat and altitude acclimation and Running
//! Tolerance, kept by the sync for every day (migrations 6, 7, 8 and 10, `daily_metrics`) so
//! `get_training_status` and `get_daily_health` draw their trends from the history instead of
//! asking Garmin; and each night's sleep need, which migration 10 keeps beside the night's sleep
//! in `days` ([`History::sleep_needs`]). A value Garmin did not have stays NULL, never 0.

use chrono::NaiveDate;
use garmin::models::metrics::{
    EnduranceScoreRange, HealthStatus, HillScoreRange, RunningTolerance, TrainingReadiness, TrainingStatus,
};
use rusqlite::{Connection, OptionalExtension, params};

use crate::store::{parse_ymd, ymd};
use crate::{History, Result};

/// One day of the series, as kept.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DailyMetrics {
    /// The day.
    pub date: NaiveDate,
    /// Hill score of the day.
    pub hill_score: Option<f64>,
    /// Garmin's hill-score classification id.
    pub hill_class: Option<i64>,
    /// Endurance score of the day.
    pub endurance_score: Option<f64>,
    /// The night's Health Status, as read.
    pub health_status: Option<HealthStatus>,
    /// Four-week low aerobic load (the load focus) as Garmin gave it on the day.
    pub load_aerobic_low: Option<f64>,
    /// Four-week high aerobic load.
    pub load_aerobic_high: Option<f64>,
    /// Four-week anaerobic load.
    pub load_anaerobic: Option<f64>,
    /// Garmin's load-focus verdict key (`ANAEROBIC_SHORTAGE`…).
    pub load_focus_feedback: Option<String>,
    /// The morning Training Readiness score (0–100).
    pub readiness_score: Option<f64>,
    /// The acute load the morning readiness was computed with.
    pub readiness_acute_load: Option<f64>,
    /// The day's readiness was read (so a `None` score means Garmin had none, not "not read yet").
    pub readiness_read: bool,
    /// Heat acclimation (%) in the day's training-status snapshot.
    pub heat_acclimation_pct: Option<f64>,
    /// Garmin's heat trend key (`ACCLIMATIZING`, `ACCLIMATIZED`…).
    pub heat_trend: Option<String>,
    /// Altitude acclimated to (m).
    pub altitude_acclimation_m: Option<f64>,
    /// The altitude the watch was at (m).
    pub current_altitude_m: Option<f64>,
    /// Garmin's altitude trend key.
    pub altitude_trend: Option<String>,
    /// The day's acclimation was read (a `None` means Garmin had none, not "not read yet").
    pub acclimation_read: bool,
    /// This week's Running Tolerance as Garmin gave it on the day.
    pub running_tolerance: Option<f64>,
    /// Acute running impact load of the day.
    pub acute_impact_load: Option<f64>,
    /// Running impact load of the training week so far.
    pub weekly_impact_load: Option<f64>,
    /// Garmin's verdict key (`ABOVE_TOLERANCE`, `HIGH_LOAD`, `LOW_LOAD_7DAYS`…).
    pub tolerance_feedback: Option<String>,
    /// The day's Running Tolerance was read (a `None` means Garmin had none, not "not read yet").
    pub tolerance_read: bool,
}

impl DailyMetrics {
    /// The day's Running Tolerance row in Garmin's shape, when the day has one.
    pub fn tolerance_row(&self) -> Option<RunningTolerance> {
        let row = RunningTolerance {
            calendar_date: Some(self.date),
            running_tolerance: self.running_tolerance,
            acute_running_load: self.acute_impact_load,
            weekly_running_load: self.weekly_impact_load,
            tolerance_feedback: self.tolerance_feedback.clone(),
            device_id: None,
        };
        row.has_data().then_some(row)
    }
}

fn finite(v: Option<f64>) -> Option<f64> {
    v.filter(|x| x.is_finite())
}

/// Makes sure `date` has a row, to update one column set of it.
fn ensure(conn: &Connection, date: NaiveDate, now: i64) -> Result<()> {
    conn.execute(
        "INSERT INTO daily_metrics (date, synced_at) VALUES (?1, ?2)
         ON CONFLICT(date) DO UPDATE SET synced_at = excluded.synced_at",
        params![ymd(date), now],
    )?;
    Ok(())
}

/// Keeps a block's daily hill and endurance scores and Health Status nights.
pub(crate) fn store_newest_metrics(
    conn: &Connection,
    hill: &HillScoreRange,
    endurance: &EnduranceScoreRange,
    health: &[HealthStatus],
    now: i64,
) -> Result<()> {
    for h in &hill.hill_scores {
        let (Some(date), Some(score)) = (h.calendar_date, finite(h.overall_score)) else { continue };
        ensure(conn, date, now)?;
        conn.execute(
            "UPDATE daily_metrics SET hill_score = ?2, hill_class = ?3 WHERE date = ?1",
            params![ymd(date), score, h.hill_score_classification_id],
        )?;
    }
    for (date, score) in endurance.averages() {
        ensure(conn, date, now)?;
        conn.execute(
            "UPDATE daily_metrics SET endurance_score = ?2 WHERE date = ?1",
            params![ymd(date), finite(Some(score))],
        )?;
    }
    for night in health.iter().filter(|n| n.has_data()) {
        let Some(date) = night.calendar_date else { continue };
        ensure(conn, date, now)?;
        let json = serde_json::to_string(night).map_err(|e| crate::HistoryError::Invalid(e.to_string()))?;
        conn.execute(
            "UPDATE daily_metrics SET health_status_json = ?2 WHERE date = ?1",
            params![ymd(date), json],
        )?;
    }
    Ok(())
}

/// Keeps the load focus of `date` from its training-status snapshot (`None`: Garmin has none for
/// the day), noting that it was read on `today`. Without a load balance the load columns are NULL.
pub(crate) fn store_load_focus(
    conn: &Connection,
    date: NaiveDate,
    status: Option<&TrainingStatus>,
    today: NaiveDate,
    now: i64,
) -> Result<()> {
    let b = status.and_then(TrainingStatus::primary_load_balance);
    ensure(conn, date, now)?;
    conn.execute(
        "UPDATE daily_metrics SET load_aerobic_low = ?2, load_aerobic_high = ?3, load_anaerobic = ?4,
         load_focus_feedback = ?5, load_focus_on = ?6 WHERE date = ?1",
        params![
            ymd(date),
            b.and_then(|b| finite(b.monthly_load_aerobic_low)),
            b.and_then(|b| finite(b.monthly_load_aerobic_high)),
            b.and_then(|b| finite(b.monthly_load_anaerobic)),
            b.and_then(|b| b.training_balance_feedback_phrase.clone()),
            ymd(today),
        ],
    )?;
    Ok(())
}

/// Keeps the heat and altitude acclimation of `date` from its training-status snapshot (`None`:
/// Garmin has none for the day), noting that it was read on `today`. A block without a percentage
/// or an altitude (an older watch sends `null`) keeps NULL, never 0.
pub(crate) fn store_acclimation(
    conn: &Connection,
    date: NaiveDate,
    status: Option<&TrainingStatus>,
    today: NaiveDate,
    now: i64,
) -> Result<()> {
    let a = status
        .and_then(|s| s.most_recent_vo2_max.as_ref())
        .and_then(|m| m.heat_altitude_acclimation.as_ref())
        .filter(|a| a.heat_acclimation_percentage.is_some() || a.current_altitude.is_some());
    ensure(conn, date, now)?;
    conn.execute(
        "UPDATE daily_metrics SET heat_acclimation_pct = ?2, heat_trend = ?3, altitude_acclimation_m = ?4,
         current_altitude_m = ?5, altitude_trend = ?6, acclimation_on = ?7 WHERE date = ?1",
        params![
            ymd(date),
            a.and_then(|a| finite(a.heat_acclimation_percentage)),
            a.and_then(|a| a.heat_trend.clone()),
            a.and_then(|a| finite(a.altitude_acclimation)),
            a.and_then(|a| finite(a.current_altitude)),
            a.and_then(|a| a.altitude_trend.clone()),
            ymd(today),
        ],
    )?;
    Ok(())
}

/// Keeps the Running Tolerance of each day of `from..=to` from the block's range answer (`rows`;
/// a day without a row, or a watch without Running Tolerance, keeps NULL), noting that it was
/// read on `today`.
pub(crate) fn store_tolerance(
    conn: &Connection,
    from: NaiveDate,
    to: NaiveDate,
    rows: &[RunningTolerance],
    today: NaiveDate,
    now: i64,
) -> Result<()> {
    for day in from.iter_days().take_while(|d| *d <= to) {
        let row = rows.iter().find(|r| r.calendar_date == Some(day) && r.has_data());
        ensure(conn, day, now)?;
        conn.execute(
            "UPDATE daily_metrics SET running_tolerance = ?2, acute_impact_load = ?3, weekly_impact_load = ?4,
             tolerance_feedback = ?5, tolerance_on = ?6 WHERE date = ?1",
            params![
                ymd(day),
                row.and_then(|r| finite(r.running_tolerance)),
                row.and_then(|r| finite(r.acute_running_load)),
                row.and_then(|r| finite(r.weekly_running_load)),
                row.and_then(|r| r.tolerance_feedback.clone()),
                ymd(today),
            ],
        )?;
    }
    Ok(())
}

/// Keeps the morning Training Readiness of `date` from its entries (none: Garmin has none for the
/// day), noting that it was read on `today`.
pub(crate) fn store_readiness(
    conn: &Connection,
    date: NaiveDate,
    entries: &[TrainingReadiness],
    today: NaiveDate,
    now: i64,
) -> Result<()> {
    let morning = TrainingReadiness::morning(entries);
    ensure(conn, date, now)?;
    conn.execute(
        "UPDATE daily_metrics SET readiness_score = ?2, readiness_acute_load = ?3, readiness_on = ?4 WHERE date = ?1",
        params![
            ymd(date),
            morning.and_then(|m| finite(m.score)).filter(|s| *s >= 0.0),
            morning.and_then(|m| finite(m.acute_load)),
            ymd(today),
        ],
    )?;
    Ok(())
}

/// What the sync reads of one day: its training-status snapshot (the load focus and the
/// acclimation) and its Training Readiness, each kept with the day it was read on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct DayReads {
    /// The training-status snapshot (its load focus or its acclimation is not settled).
    pub status: bool,
    /// The Training Readiness.
    pub readiness: bool,
}

/// The days of `from..=to` the sync reads, and what of each (all of it with `full`): a part never
/// read, or read while Garmin could still revise it (no more than `revise_days` after the day).
pub(crate) fn days_to_read(
    conn: &Connection,
    from: NaiveDate,
    to: NaiveDate,
    revise_days: i64,
    full: bool,
) -> Result<Vec<(NaiveDate, DayReads)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT load_focus_on, readiness_on, acclimation_on FROM daily_metrics WHERE date = ?1",
    )?;
    let mut days = Vec::new();
    for day in from.iter_days().take_while(|d| *d <= to) {
        let (status_on, readiness_on, acclimation_on): (Option<String>, Option<String>, Option<String>) =
            stmt.query_row(params![ymd(day)], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                .optional()?
                .unwrap_or_default();
        let settled = |read_on: Option<String>| {
            read_on
                .as_deref()
                .and_then(parse_ymd)
                .is_some_and(|on| on > day + chrono::Duration::days(revise_days))
        };
        let unsettled = |read_on: Option<String>| full || !settled(read_on);
        let reads = DayReads {
            status: unsettled(status_on) || unsettled(acclimation_on),
            readiness: unsettled(readiness_on),
        };
        if reads.status || reads.readiness {
            days.push((day, reads));
        }
    }
    Ok(days)
}

impl History {
    /// The kept newest-metric days of `from..=to`, oldest first (days without a row are absent).
    pub fn daily_metrics(&self, from: NaiveDate, to: NaiveDate) -> Result<Vec<DailyMetrics>> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT date, hill_score, hill_class, endurance_score, health_status_json, load_aerobic_low,
                    load_aerobic_high, load_anaerobic, load_focus_feedback, readiness_score,
                    readiness_acute_load, readiness_on IS NOT NULL, heat_acclimation_pct, heat_trend,
                    altitude_acclimation_m, current_altitude_m, altitude_trend, acclimation_on IS NOT NULL,
                    running_tolerance, acute_impact_load, weekly_impact_load, tolerance_feedback,
                    tolerance_on IS NOT NULL
             FROM daily_metrics WHERE date BETWEEN ?1 AND ?2 ORDER BY date",
        )?;
        let rows = stmt.query_map(params![ymd(from), ymd(to)], |r| {
            Ok((
                r.get::<_, String>(0)?,
                DailyMetrics {
                    date: NaiveDate::MIN,
                    hill_score: r.get(1)?,
                    hill_class: r.get(2)?,
                    endurance_score: r.get(3)?,
                    health_status: r
                        .get::<_, Option<String>>(4)?
                        .and_then(|json| serde_json::from_str(&json).ok()),
                    load_aerobic_low: r.get(5)?,
                    load_aerobic_high: r.get(6)?,
                    load_anaerobic: r.get(7)?,
                    load_focus_feedback: r.get(8)?,
                    readiness_score: r.get(9)?,
                    readiness_acute_load: r.get(10)?,
                    readiness_read: r.get(11)?,
                    heat_acclimation_pct: r.get(12)?,
                    heat_trend: r.get(13)?,
                    altitude_acclimation_m: r.get(14)?,
                    current_altitude_m: r.get(15)?,
                    altitude_trend: r.get(16)?,
                    acclimation_read: r.get(17)?,
                    running_tolerance: r.get(18)?,
                    acute_impact_load: r.get(19)?,
                    weekly_impact_load: r.get(20)?,
                    tolerance_feedback: r.get(21)?,
                    tolerance_read: r.get(22)?,
                },
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (date, mut day) = row?;
            let Some(date) = parse_ymd(&date) else { continue };
            day.date = date;
            out.push(day);
        }
        Ok(out)
    }

    /// The sleep need (minutes) of each night of `from..=to` the history kept one for (migration
    /// 10: from the sleep range the sync reads).
    pub fn sleep_needs(&self, from: NaiveDate, to: NaiveDate) -> Result<Vec<(NaiveDate, f64)>> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT date, sleep_need_min FROM days
             WHERE date BETWEEN ?1 AND ?2 AND sleep_need_min IS NOT NULL ORDER BY date",
        )?;
        let rows =
            stmt.query_map(params![ymd(from), ymd(to)], |r| Ok((r.get::<_, String>(0)?, r.get(1)?)))?;
        let mut out = Vec::new();
        for row in rows {
            let (date, need) = row?;
            if let Some(date) = parse_ymd(&date) {
                out.push((date, need));
            }
        }
        Ok(out)
    }
}
