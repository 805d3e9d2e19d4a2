//! Comparisons: plan against actual for a scheduled workout (TrainingPeaks-style compliance
//! colours), and two periods side by side — volume, intensity, load, efficiency and best efforts
//! (issue #16 §4).

use serde::Serialize;

use crate::mean_max::MergedCurve;
use crate::{AnalyticsError, positive, usable};

/// Convention of [`PlanCheck`].
pub const PLAN_CONVENTION: &str = "plan vs actual: actual / planned in whole percent; 80–120 % green, 50–79 % or 121–150 % \
     yellow, otherwise (including not done) red";

/// How close the actual came to the plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Compliance {
    /// Within ±20 % of the plan.
    Green,
    /// 50–79 % or 121–150 % of the plan.
    Yellow,
    /// Under 50 % or over 150 % (or not done).
    Red,
}

impl Compliance {
    /// The colour of a whole percentage.
    pub fn of_percent(percent: i64) -> Self {
        match percent {
            80..=120 => Self::Green,
            50..=79 | 121..=150 => Self::Yellow,
            _ => Self::Red,
        }
    }
}

/// A planned amount (time, distance or load) against what was done.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlanCheck {
    /// Planned amount.
    pub planned: f64,
    /// Done (0 when not done).
    pub actual: f64,
    /// 100 × actual / planned, rounded to a whole percent.
    pub percent: i64,
    /// The colour.
    pub compliance: Compliance,
    /// The convention in one sentence ([`PLAN_CONVENTION`]).
    pub convention: &'static str,
}

/// Compares a planned amount with the actual one (same unit; e.g. planned and actual seconds).
/// Missing or bad actual values count as not done (0). Convention: [`PLAN_CONVENTION`].
pub fn plan_vs_actual(planned: f64, actual: f64) -> Result<PlanCheck, AnalyticsError> {
    let planned = positive("planned", planned, "a positive planned amount (time, distance or load)")?;
    let actual = usable(actual).unwrap_or(0.0);
    let ratio = (100.0 * actual / planned).round();
    let percent = if ratio < i64::MAX as f64 { ratio as i64 } else { i64::MAX };
    Ok(PlanCheck {
        planned,
        actual,
        percent,
        compliance: Compliance::of_percent(percent),
        convention: PLAN_CONVENTION,
    })
}

/// What one activity adds to a period's totals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct ActivityFacts {
    /// Duration, s.
    pub duration_s: f64,
    /// Distance, m.
    pub distance_m: f64,
    /// Load on one scale (see [`crate::load::daily_loads`]), when known.
    pub load: Option<f64>,
    /// Time in the low zones, s, when zones are known.
    pub low_zone_s: Option<f64>,
    /// Time in all zones, s, when zones are known.
    pub zone_s: Option<f64>,
    /// Efficiency factor, when known.
    pub ef: Option<f64>,
}

/// A period's totals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct PeriodTotals {
    /// Activities counted.
    pub activities: usize,
    /// Total time, s.
    pub duration_s: f64,
    /// Total distance, m.
    pub distance_m: f64,
    /// Total load.
    pub load: f64,
    /// Fraction of zone time in the low zones; `None` without zone times.
    pub low_intensity_share: Option<f64>,
    /// Duration-weighted mean EF; `None` without EF.
    pub efficiency: Option<f64>,
}

impl PeriodTotals {
    /// Adds up activities (bad numbers count as 0 or as unknown).
    pub fn from_activities(activities: &[ActivityFacts]) -> Self {
        let mut t = Self { activities: activities.len(), ..Self::default() };
        let (mut low, mut zones, mut ef_sum, mut ef_weight) = (0.0, 0.0, 0.0, 0.0);
        for a in activities {
            let duration = usable(a.duration_s).unwrap_or(0.0);
            t.duration_s += duration;
            t.distance_m += usable(a.distance_m).unwrap_or(0.0);
            t.load += a.load.and_then(usable).unwrap_or(0.0);
            if let (Some(l), Some(z)) = (a.low_zone_s.and_then(usable), a.zone_s.and_then(usable)) {
                low += l.min(z);
                zones += z;
            }
            if let Some(ef) = a.ef.and_then(usable).filter(|&e| e > 0.0 && duration > 0.0) {
                ef_sum += ef * duration;
                ef_weight += duration;
            }
        }
        t.low_intensity_share = (zones > 0.0).then(|| low / zones);
        t.efficiency = (ef_weight > 0.0).then(|| ef_sum / ef_weight);
        t
    }
}

/// A change from one period to the other.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Change {
    /// Second minus first.
    pub difference: f64,
    /// 100 × difference / first; `None` when the first is 0.
    pub percent: Option<f64>,
}

impl Change {
    fn between(first: f64, second: f64) -> Self {
        let difference = second - first;
        Self { difference, percent: (first != 0.0).then(|| 100.0 * difference / first) }
    }
}

/// One duration of two best-effort curves.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct BestEffortChange {
    /// The duration, s.
    pub seconds: u32,
    /// The first period's best.
    pub first: f64,
    /// The second period's best.
    pub second: f64,
    /// The change.
    pub change: Change,
}

/// Convention of [`PeriodComparison`].
pub const COMPARE_CONVENTION: &str = "period comparison: second period minus first, percent of the first; intensity as the \
     low-zone share of zone time (difference in percentage points); efficiency as duration-weighted mean EF; best \
     efforts at the durations both curves have";

/// Two periods side by side.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PeriodComparison {
    /// The first (earlier, reference) period.
    pub first: PeriodTotals,
    /// The second period.
    pub second: PeriodTotals,
    /// Change in the number of activities.
    pub activities: Change,
    /// Change in time.
    pub duration_s: Change,
    /// Change in distance.
    pub distance_m: Change,
    /// Change in load.
    pub load: Change,
    /// Change in the low-intensity share, in percentage points.
    pub low_intensity_share_points: Option<f64>,
    /// Change in efficiency.
    pub efficiency: Option<Change>,
    /// Change in best efforts at each duration both curves have.
    pub best_efforts: Vec<BestEffortChange>,
    /// The convention in one sentence ([`COMPARE_CONVENTION`]).
    pub convention: &'static str,
}

/// Compares two periods (and, when given, their best-effort curves).
pub fn compare_periods(
    first: &PeriodTotals,
    second: &PeriodTotals,
    curves: Option<(&MergedCurve, &MergedCurve)>,
) -> PeriodComparison {
    let best_efforts = curves
        .map(|(a, b)| {
            a.points
                .iter()
                .filter_map(|p| {
                    let q = b.points.iter().find(|q| q.seconds == p.seconds)?;
                    Some(BestEffortChange {
                        seconds: p.seconds,
                        first: p.value,
                        second: q.value,
                        change: Change::between(p.value, q.value),
                    })
                })
                .collect()
        })
        .unwrap_or_default();
    PeriodComparison {
        first: *first,
        second: *second,
        activities: Change::between(first.activities as f64, second.activities as f64),
        duration_s: Change::between(first.duration_s, second.duration_s),
        distance_m: Change::between(first.distance_m, second.distance_m),
        load: Change::between(first.load, second.load),
        low_intensity_share_points: first
            .low_intensity_share
            .zip(second.low_intensity_share)
            .map(|(a, b)| 100.0 * (b - a)),
        efficiency: first.efficiency.zip(second.efficiency).map(|(a, b)| Change::between(a, b)),
        best_efforts,
        convention: COMPARE_CONVENTION,
    }
}
