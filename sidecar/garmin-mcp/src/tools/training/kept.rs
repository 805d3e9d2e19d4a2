//! The trend of Garmin's newest metrics in `get_training_status` from the local history (#29):
//! when the history covers the trend's days up to yesterday
//! (`domain::reading::kept_daily_metrics`), its daily series (hill score, endurance score, load
//! focus, morning readiness, acclimation, Running Tolerance) answers them, and the two range
//! requests, the per-day readiness requests and the Running Tolerance range to Garmin are not sent
//! (only the asked day's readiness, and its tolerance when it is today); the trend says so
//! (`trend_source`). Today is never in the history: its hill and endurance scores come from the
//! day's own requests. This file puts the kept days in the shapes the trend is filled from.

use std::collections::BTreeMap;

use ::history::daily_metrics::DailyMetrics;
use chrono::NaiveDate;
use garmin::models::metrics::{
    EnduranceGroup, EnduranceScoreRange, HeatAltitudeAcclimation, HillScore, HillScoreRange,
    RunningTolerance, TrainingReadiness,
};

use super::answer::TrendRow;
use crate::domain::words::words;

/// The kept days in the shapes of Garmin's range answers (so one function fills the trend).
pub(super) fn as_ranges(days: &[DailyMetrics]) -> (HillScoreRange, EnduranceScoreRange) {
    let hill = HillScoreRange {
        hill_scores: days
            .iter()
            .filter(|d| d.hill_score.is_some())
            .map(|d| HillScore {
                calendar_date: Some(d.date),
                overall_score: d.hill_score,
                hill_score_classification_id: d.hill_class,
                ..HillScore::default()
            })
            .collect(),
        ..HillScoreRange::default()
    };
    let endurance = EnduranceScoreRange {
        group_map: days
            .iter()
            .filter_map(|d| {
                let avg = d.endurance_score?;
                Some((d.date.to_string(), EnduranceGroup { group_average: Some(avg), group_max: None }))
            })
            .collect(),
        ..EnduranceScoreRange::default()
    };
    (hill, endurance)
}

/// The morning Training Readiness of each kept day whose readiness the sync read, as one entry
/// in Garmin's shape (so one function fills the trend); a day read without any has no entry.
pub(super) fn readiness_days(days: &[DailyMetrics]) -> BTreeMap<NaiveDate, Vec<TrainingReadiness>> {
    days.iter()
        .filter(|d| d.readiness_read)
        .map(|d| {
            let entry = d.readiness_score.map(|score| TrainingReadiness {
                calendar_date: Some(d.date),
                score: Some(score),
                acute_load: d.readiness_acute_load,
                input_context: Some("AFTER_WAKEUP_RESET".to_owned()),
                ..TrainingReadiness::default()
            });
            (d.date, entry.into_iter().collect())
        })
        .collect()
}

/// The load focus Garmin gave on each kept day (the history keeps it daily since migration 7).
pub(super) fn add_kept_load_focus(rows: &mut [TrendRow], days: &[DailyMetrics]) {
    for row in rows {
        let Some(day) = days.iter().find(|d| d.date.to_string() == row.date) else { continue };
        row.load_focus = day.load_focus_feedback.as_deref().map(words);
    }
}

/// The kept Running Tolerance rows of `from..=to` when the history read the tolerance of every one
/// of those days (a day read without a row has none: Garmin had none); `None` when a day was not
/// read (a history made before migration 10, or a block whose read failed): then it is read live.
pub(super) fn tolerance_rows(
    days: &[DailyMetrics],
    from: NaiveDate,
    to: NaiveDate,
) -> Option<Vec<RunningTolerance>> {
    let mut rows = Vec::new();
    for day in from.iter_days().take_while(|d| *d <= to) {
        let kept = days.iter().find(|d| d.date == day).filter(|d| d.tolerance_read)?;
        rows.extend(kept.tolerance_row());
    }
    Some(rows)
}

/// The acclimation each kept day's training-status snapshot gave, in Garmin's shape (days whose
/// acclimation was not read are absent: the trend takes them from the live VO2max range).
pub(super) fn acclimation_days(
    days: &[DailyMetrics],
) -> BTreeMap<NaiveDate, Option<HeatAltitudeAcclimation>> {
    days.iter()
        .filter(|d| d.acclimation_read)
        .map(|d| {
            let a = (d.heat_acclimation_pct.is_some() || d.current_altitude_m.is_some()).then(|| {
                HeatAltitudeAcclimation {
                    calendar_date: Some(d.date),
                    heat_acclimation_percentage: d.heat_acclimation_pct,
                    altitude_acclimation: d.altitude_acclimation_m,
                    current_altitude: d.current_altitude_m,
                    heat_trend: d.heat_trend.clone(),
                    altitude_trend: d.altitude_trend.clone(),
                    altitude_acclimation_local_timestamp: None,
                }
            });
            (d.date, a)
        })
        .collect()
}
