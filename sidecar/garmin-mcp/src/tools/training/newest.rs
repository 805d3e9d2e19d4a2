//! Garmin's newest metrics in `get_training_status` (#29): Running Tolerance with its impact load
//! and verdict, heat and altitude acclimation, and the one plain sentence that stands in for a
//! metric the watch does not record ("your Forerunner 255 does not record Running Tolerance"),
//! never zeros and never a failed answer (that sentence is `crate::domain::watch`'s, shared with
//! `get_injury_risk`).

use chrono::NaiveDate;
use garmin::models::metrics::{
    EnduranceScoreRange, HeatAltitudeAcclimation, HillScoreRange, MaxMetrics, RunningTolerance,
    TrainingStatus,
};

use super::answer::{AcclimationPart, RunningTolerancePart, TrainingStatusReport, TrendRow};
pub(super) use crate::domain::watch::{absence, watch_words};
use crate::domain::words::{whole, words};

/// The latest Running Tolerance row on or before `date`.
pub(super) fn running_tolerance_part(
    rows: &[RunningTolerance],
    date: NaiveDate,
) -> Option<RunningTolerancePart> {
    let row =
        rows.iter().filter(|r| r.calendar_date.is_some_and(|d| d <= date)).max_by_key(|r| r.calendar_date)?;
    Some(RunningTolerancePart {
        as_of: row.calendar_date?.to_string(),
        weekly_tolerance: row.running_tolerance.map(f64::round),
        acute_impact_load: row.acute_running_load.map(f64::round),
        weekly_impact_load: row.weekly_running_load.map(f64::round),
        verdict: row.tolerance_feedback.as_deref().map(words),
    })
}

/// The day's acclimation: from the training status's latest VO2max, else the newest VO2max row
/// that carries one. An all-zero block with no trend is the watch having nothing to say, not 0 %.
pub(super) fn acclimation_part(
    status: Option<&TrainingStatus>,
    range: &[MaxMetrics],
) -> Option<AcclimationPart> {
    let from_status = status
        .and_then(|s| s.most_recent_vo2_max.as_ref())
        .and_then(|m| m.heat_altitude_acclimation.as_ref());
    let a: &HeatAltitudeAcclimation =
        from_status.or_else(|| range.iter().rev().find_map(|m| m.heat_altitude_acclimation.as_ref()))?;
    a.heat_acclimation_percentage.or(a.current_altitude)?;
    Some(AcclimationPart {
        as_of: a.calendar_date.map(|d| d.to_string()),
        heat_percent: a.heat_acclimation_percentage.and_then(whole),
        heat_trend: a.heat_trend.as_deref().map(words),
        altitude_acclimation_m: a.altitude_acclimation.and_then(whole),
        current_altitude_m: a.current_altitude.and_then(whole),
    })
}

/// The trend's acclimation of each day: the history's where it kept the day, else the day's row of
/// Garmin's VO2max range (the same block the training-status snapshot carries). A day without a
/// percentage or an altitude (an older watch sends `null`) has none, never 0.
pub(super) fn add_acclimation_trend(
    rows: &mut [TrendRow],
    kept: &std::collections::BTreeMap<NaiveDate, Option<HeatAltitudeAcclimation>>,
    range: &[MaxMetrics],
) {
    for row in rows {
        let Ok(day) = row.date.parse::<NaiveDate>() else { continue };
        let live = || {
            range
                .iter()
                .filter_map(|m| m.heat_altitude_acclimation.as_ref())
                .find(|a| a.calendar_date == Some(day))
        };
        let a = match kept.get(&day) {
            Some(kept) => kept.as_ref(),
            None => live(),
        };
        let Some(a) = a.filter(|a| a.heat_acclimation_percentage.is_some() || a.current_altitude.is_some())
        else {
            continue;
        };
        row.heat_acclimation_pct = a.heat_acclimation_percentage.and_then(whole);
        row.heat_trend = a.heat_trend.as_deref().map(words);
        row.altitude_acclimation_m = a.altitude_acclimation.and_then(whole);
    }
}

/// The trend's Running Tolerance and impact load of one day.
pub(super) fn tolerance_on(rows: &[RunningTolerance], day: NaiveDate) -> (Option<f64>, Option<f64>) {
    rows.iter()
        .find(|r| r.calendar_date == Some(day))
        .map_or((None, None), |r| (r.running_tolerance.map(f64::round), r.acute_running_load.map(f64::round)))
}

/// Garmin's hill-score level of a classification id: the six levels of the Garmin Connect card,
/// in its order (the ids 1–6 are *unverified*: `hill_score.json` shows only one of them).
pub(super) fn hill_level(class: i64) -> Option<&'static str> {
    Some(match class {
        1 => "recreational",
        2 => "challenger",
        3 => "trained",
        4 => "skilled",
        5 => "expert",
        6 => "elite",
        _ => return None,
    })
}

/// The trend's hill and endurance scores of each day (Garmin's daily range answers).
pub(super) fn add_score_trend(rows: &mut [TrendRow], hill: &HillScoreRange, endurance: &EnduranceScoreRange) {
    let daily = endurance.averages();
    for row in rows {
        let Ok(day) = row.date.parse::<NaiveDate>() else { continue };
        row.hill_score = hill
            .hill_scores
            .iter()
            .find(|h| h.calendar_date == Some(day))
            .and_then(|h| h.overall_score)
            .and_then(whole);
        row.endurance_score = daily.iter().find(|(d, _)| *d == day).and_then(|(_, v)| whole(*v));
    }
}

/// " Load focus: anaerobic shortage (…). Endurance score 6,812 (well trained); hill score 62
/// (skilled)." — the parts there are.
pub(super) fn focus_and_scores_sentence(r: &TrainingStatusReport) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(balance) = &r.load_balance {
        if balance.focus.is_empty() {
            parts.push(" Load focus: every band on target.".to_owned());
        } else {
            parts.push(format!(" Load focus: {}.", balance.focus.join("; ")));
        }
    }
    let level = |l: &Option<String>| l.as_deref().map(|l| format!(" ({l})")).unwrap_or_default();
    let mut scores = Vec::new();
    if let Some(score) = r.endurance_score.as_ref().and_then(|e| e.score.map(|s| (s, &e.level))) {
        scores.push(format!(
            "endurance score {}{}",
            crate::domain::words::thousands(score.0),
            level(score.1)
        ));
    }
    if let Some(score) = r.hill_score.as_ref().and_then(|h| h.score.map(|s| (s, &h.level))) {
        scores.push(format!("hill score {}{}", score.0, level(score.1)));
    }
    if let Some((first, rest)) = scores.split_first() {
        let mut first = first.clone();
        first[..1].make_ascii_uppercase();
        let rest: Vec<String> = rest.to_vec();
        let joined = std::iter::once(first).chain(rest).collect::<Vec<_>>().join("; ");
        parts.push(format!(" {joined}."));
    }
    (!parts.is_empty()).then(|| parts.concat())
}
