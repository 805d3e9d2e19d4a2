//! The fitness parts of `get_training_status`: VO2max and fitness age, training readiness and what
//! limits it, the day-by-day trend, lactate threshold and the endurance level.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use garmin::models::metrics::{MaxMetrics, TrainingReadiness, TrainingStatus};
use garmin::models::wellness::HrvSummary;

use super::answer::{ReadinessFactors, ReadinessPart, TrendRow, Vo2MaxPart};
use crate::domain::words::words;

pub(super) fn vo2max_part(
    status: Option<&TrainingStatus>,
    range: &[MaxMetrics],
    fitness_age: Option<f64>,
) -> Option<Vo2MaxPart> {
    let vo2 = |v: &garmin::models::metrics::Vo2Max| v.vo2_max_precise_value.or(v.vo2_max_value);
    let latest = status.and_then(|s| s.most_recent_vo2_max.as_ref());
    let running = latest
        .and_then(|m| m.generic.as_ref())
        .filter(|g| vo2(g).is_some())
        .or_else(|| range.iter().rev().filter_map(|m| m.generic.as_ref()).find(|g| vo2(g).is_some()));
    let cycling = latest
        .and_then(|m| m.cycling.as_ref())
        .filter(|c| vo2(c).is_some())
        .or_else(|| range.iter().rev().filter_map(|m| m.cycling.as_ref()).find(|c| vo2(c).is_some()));
    let fitness_age =
        fitness_age.or_else(|| running.and_then(|r| r.fitness_age)).map(|a| (a * 10.0).round() / 10.0);
    if running.is_none() && cycling.is_none() && fitness_age.is_none() {
        return None;
    }
    Some(Vo2MaxPart {
        running: running.and_then(vo2),
        running_date: running.and_then(|r| r.calendar_date).map(|d| d.to_string()),
        cycling: cycling.and_then(vo2),
        fitness_age,
    })
}

pub(super) fn readiness_part(r: &TrainingReadiness) -> ReadinessPart {
    let pct = |x: Option<f64>| x.filter(|v| v.is_finite() && *v >= 0.0).map(|v| v.round() as u64);
    let factors = ReadinessFactors {
        sleep: pct(r.sleep_score_factor_percent),
        recovery_time: pct(r.recovery_time_factor_percent),
        hrv: pct(r.hrv_factor_percent),
        acute_load: pct(r.acwr_factor_percent),
        stress_history: pct(r.stress_history_factor_percent),
        sleep_history: pct(r.sleep_history_factor_percent),
    };
    let mut weak: Vec<(u64, &str)> = [
        (factors.sleep, "sleep"),
        (factors.recovery_time, "recovery time"),
        (factors.hrv, "hrv"),
        (factors.acute_load, "acute load"),
        (factors.stress_history, "stress history"),
        (factors.sleep_history, "sleep history"),
    ]
    .into_iter()
    .filter_map(|(p, name)| p.filter(|p| *p < 70).map(|p| (p, name)))
    .collect();
    weak.sort_by_key(|w| w.0);
    ReadinessPart {
        score: pct(r.score),
        level: r.level.as_deref().map(words),
        feedback: r.feedback_short.as_deref().map(words),
        recovery_time: r.recovery_time.filter(|m| *m >= 0.0).map(|m| display::hours_minutes(m * 60.0)),
        factors,
        limiting_factors: weak.into_iter().map(|w| w.1.to_owned()).collect(),
    }
}

pub use crate::domain::watch::morning_readiness;

pub(super) fn trend_rows(
    dates: &[NaiveDate],
    readiness: &BTreeMap<NaiveDate, Vec<TrainingReadiness>>,
    vo2: &[MaxMetrics],
    hrv: &[HrvSummary],
) -> Vec<TrendRow> {
    dates
        .iter()
        .map(|d| {
            let morning = readiness.get(d).and_then(|e| morning_readiness(e));
            TrendRow {
                date: d.to_string(),
                readiness: morning.and_then(|r| r.score).filter(|s| *s >= 0.0).map(|s| s.round() as u64),
                acute_load: morning.and_then(|r| r.acute_load).map(f64::round),
                vo2max: vo2
                    .iter()
                    .filter_map(|m| m.generic.as_ref())
                    .filter(|g| g.calendar_date == Some(*d))
                    .find_map(|g| g.vo2_max_precise_value.or(g.vo2_max_value)),
                hrv_ms: hrv.iter().find(|h| h.calendar_date == Some(*d)).and_then(|h| h.last_night_avg),
                ..TrendRow::default()
            }
        })
        .collect()
}

/// Garmin's lactate-threshold speed in m/s (it stores m/s ÷ 10; plain m/s is passed through).
pub(super) fn lactate_speed_mps(speed: f64) -> f64 {
    if speed < 1.0 { speed * 10.0 } else { speed }
}

pub(super) fn endurance_level(class: i64) -> Option<&'static str> {
    Some(match class {
        1 => "recreational",
        2 => "intermediate",
        3 => "trained",
        4 => "well trained",
        5 => "expert",
        6 => "superior",
        7 => "elite",
        _ => return None,
    })
}
