//! Acute:chronic workload ratio both ways, and Foster's monotony and strain (issue #16 §4).
//!
//! - Rolling (Gabbett 2016, "coupled"): acute = the sum of the last 7 days' loads, chronic = the
//!   sum of the last 28 days (including the acute week) / 4; ratio = acute / chronic.
//! - EWMA (Williams et al. 2017): EWMA_d = λ·L_d + (1 − λ)·EWMA_{d−1} with λ = 2/(7+1) for the
//!   acute and 2/(28+1) for the chronic load, both starting at 0; ratio = acute / chronic.
//! - Bands: < 0.8 under-training, 0.8–1.3 productive ("sweet spot"), 1.3–1.5 caution, > 1.5 high
//!   injury risk.
//! - Monotony (Foster 1998) = mean daily load / standard deviation over the 7 days ending on the
//!   day (rest days 0, population SD), capped at 10; ≥ 1.5 warn, ≥ 2.0 high. Strain = the week's
//!   load × monotony.

use chrono::NaiveDate;
use serde::Serialize;

use crate::AnalyticsError;
use crate::daily::{DailyLoad, lay_out};

/// Days in the acute window.
pub const ACUTE_DAYS: usize = 7;
/// Days in the chronic window.
pub const CHRONIC_DAYS: usize = 28;
/// Lowest ratio of the productive band (Gabbett 2016).
pub const PRODUCTIVE_LOW: f64 = 0.8;
/// Highest ratio of the productive band, included (Gabbett 2016): the "sweet spot" ends here.
pub const PRODUCTIVE_HIGH: f64 = 1.3;
/// Highest ratio of the caution band, included; above it the spike is high risk (Gabbett 2016).
pub const CAUTION_HIGH: f64 = 1.5;
/// Monotony when the week's loads are all equal (SD 0) or higher.
pub const MONOTONY_CAP: f64 = 10.0;

/// Convention of [`AcwrSeries`].
pub const ACWR_CONVENTION: &str = "ACWR: rolling (Gabbett) = 7-day load sum / (28-day sum / 4), acute week included; EWMA \
     (Williams) with λ = 2/8 acute and 2/29 chronic from 0, first 28 days settling; bands < 0.8 under, 0.8–1.3 \
     productive, 1.3–1.5 caution, > 1.5 high risk; rest days 0";

/// Convention of [`MonotonySeries`].
pub const MONOTONY_CONVENTION: &str = "Foster: monotony = mean / SD (population) of the 7 daily loads ending on the day, rest days \
     0, capped at 10; ≥ 1.5 warn, ≥ 2.0 high; strain = 7-day load × monotony";

/// Where an acute:chronic ratio falls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AcwrBand {
    /// Below 0.8: load well under what the athlete is used to.
    Under,
    /// 0.8 to 1.3: the productive range.
    Productive,
    /// Above 1.3 up to 1.5: rising fast.
    Caution,
    /// Above 1.5: a spike linked to injury risk.
    HighRisk,
}

impl AcwrBand {
    /// The band of `ratio` (0.8 and 1.3 are productive, 1.5 is caution).
    pub fn of(ratio: f64) -> Option<Self> {
        if !ratio.is_finite() || ratio < 0.0 {
            None
        } else if ratio < PRODUCTIVE_LOW {
            Some(Self::Under)
        } else if ratio <= PRODUCTIVE_HIGH {
            Some(Self::Productive)
        } else if ratio <= CAUTION_HIGH {
            Some(Self::Caution)
        } else {
            Some(Self::HighRisk)
        }
    }
}

/// One acute:chronic ratio with its parts.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Ratio {
    /// Acute load (rolling: 7-day sum; EWMA: the acute average).
    pub acute: f64,
    /// Chronic load (rolling: 28-day sum / 4; EWMA: the chronic average).
    pub chronic: f64,
    /// acute / chronic; `None` when the chronic load is 0.
    pub ratio: Option<f64>,
    /// The ratio's band.
    pub band: Option<AcwrBand>,
}

impl Ratio {
    fn new(acute: f64, chronic: f64) -> Self {
        let ratio = (chronic > 0.0).then(|| acute / chronic);
        Self { acute, chronic, ratio, band: ratio.and_then(AcwrBand::of) }
    }
}

/// One day of the ACWR series.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct AcwrDay {
    /// The day.
    pub date: NaiveDate,
    /// The day's load.
    pub load: f64,
    /// Rolling ratio; `None` until 28 days of data exist.
    pub rolling: Option<Ratio>,
    /// EWMA ratio (every day; read it as rough while `settling`).
    pub ewma: Ratio,
    /// True for the first 28 days of data.
    pub settling: bool,
}

/// The ACWR day by day.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AcwrSeries {
    /// One entry per calendar day, oldest first.
    pub days: Vec<AcwrDay>,
    /// The convention in one sentence ([`ACWR_CONVENTION`]).
    pub convention: &'static str,
    /// Loads that were not a finite number ≥ 0 and were counted as 0.
    pub ignored_loads: usize,
}

/// The ACWR both ways (rolling, Gabbett; EWMA, Williams) for every day from the first load to
/// `last_day` (default: the last load). Input as for [`crate::pmc::performance_management`].
pub fn acute_chronic(loads: &[DailyLoad], last_day: Option<NaiveDate>) -> Result<AcwrSeries, AnalyticsError> {
    let Some(series) = lay_out(loads, last_day)? else {
        return Ok(AcwrSeries { days: Vec::new(), convention: ACWR_CONVENTION, ignored_loads: 0 });
    };
    let lambda_a = 2.0 / (ACUTE_DAYS as f64 + 1.0);
    let lambda_c = 2.0 / (CHRONIC_DAYS as f64 + 1.0);
    let (mut ewma_a, mut ewma_c) = (0.0f64, 0.0f64);
    let (mut sum_a, mut sum_c) = (0.0f64, 0.0f64);
    let mut days = Vec::with_capacity(series.loads.len());
    let mut date = series.first;
    for (i, &load) in series.loads.iter().enumerate() {
        sum_a += load;
        sum_c += load;
        if i >= ACUTE_DAYS {
            sum_a -= series.loads[i - ACUTE_DAYS];
        }
        if i >= CHRONIC_DAYS {
            sum_c -= series.loads[i - CHRONIC_DAYS];
        }
        ewma_a = lambda_a * load + (1.0 - lambda_a) * ewma_a;
        ewma_c = lambda_c * load + (1.0 - lambda_c) * ewma_c;
        // Running sums drift by rounding; a window of rest days must read 0, not −1e−14.
        let (acute, chronic) = (sum_a.max(0.0), sum_c.max(0.0));
        days.push(AcwrDay {
            date,
            load,
            rolling: (i + 1 >= CHRONIC_DAYS).then(|| Ratio::new(acute, chronic / 4.0)),
            ewma: Ratio::new(ewma_a, ewma_c),
            settling: i < CHRONIC_DAYS,
        });
        date = date.succ_opt().unwrap_or(date);
    }
    Ok(AcwrSeries { days, convention: ACWR_CONVENTION, ignored_loads: series.ignored })
}

/// The most load a week (7 days) can hold so that the rolling, coupled ratio on its last day stays
/// at or under `ratio`, given the load of the 21 days before it: acute = W, chronic = (W + prior)
/// / 4, so W / ((W + prior) / 4) ≤ r ⇔ W ≤ r · prior / (4 − r). E.g. 90 km in the three weeks
/// before and r = 1.3: 1.3 × 90 / 2.7 = 43.3 km. `None` without prior load (no chronic load to
/// compare with) or for a ratio that is not a number in (0, 4).
pub fn coupled_week_limit(prior_three_weeks: f64, ratio: f64) -> Option<f64> {
    let usable = prior_three_weeks.is_finite() && prior_three_weeks > 0.0;
    (usable && ratio.is_finite() && ratio > 0.0 && ratio < 4.0)
        .then(|| ratio * prior_three_weeks / (4.0 - ratio))
}

/// How monotonous a week was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MonotonyLevel {
    /// Below 1.5: enough variation between hard and easy days.
    Varied,
    /// 1.5 to 2.0: little variation.
    Warn,
    /// 2.0 or more: days too alike (Foster links this, with high strain, to illness and overreaching).
    High,
}

impl MonotonyLevel {
    /// The level of `monotony`.
    pub fn of(monotony: f64) -> Self {
        if monotony >= 2.0 {
            Self::High
        } else if monotony >= 1.5 {
            Self::Warn
        } else {
            Self::Varied
        }
    }
}

/// Monotony and strain of the 7 days ending on a day.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct MonotonyDay {
    /// The last day of the week.
    pub date: NaiveDate,
    /// The 7 days' load.
    pub weekly_load: f64,
    /// Mean / SD, capped at 10; `None` for a week without load.
    pub monotony: Option<f64>,
    /// Weekly load × monotony; `None` with the monotony.
    pub strain: Option<f64>,
    /// The monotony's level.
    pub level: Option<MonotonyLevel>,
}

/// Monotony and strain day by day.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MonotonySeries {
    /// From the 7th day of data on, oldest first.
    pub days: Vec<MonotonyDay>,
    /// The convention in one sentence ([`MONOTONY_CONVENTION`]).
    pub convention: &'static str,
    /// Loads that were not a finite number ≥ 0 and were counted as 0.
    pub ignored_loads: usize,
}

/// Foster's monotony and strain of the 7 days ending on each day from the 7th day of data to
/// `last_day` (default: the last load).
pub fn monotony_strain(
    loads: &[DailyLoad],
    last_day: Option<NaiveDate>,
) -> Result<MonotonySeries, AnalyticsError> {
    let Some(series) = lay_out(loads, last_day)? else {
        return Ok(MonotonySeries { days: Vec::new(), convention: MONOTONY_CONVENTION, ignored_loads: 0 });
    };
    let mut days = Vec::new();
    let mut date = series.first;
    for (i, _) in series.loads.iter().enumerate() {
        if i + 1 >= ACUTE_DAYS {
            let week = &series.loads[i + 1 - ACUTE_DAYS..=i];
            let (weekly_load, monotony) = week_monotony(week);
            days.push(MonotonyDay {
                date,
                weekly_load,
                monotony,
                strain: monotony.map(|m| weekly_load * m),
                level: monotony.map(MonotonyLevel::of),
            });
        }
        date = date.succ_opt().unwrap_or(date);
    }
    Ok(MonotonySeries { days, convention: MONOTONY_CONVENTION, ignored_loads: series.ignored })
}

/// The week's total and its monotony (mean / population SD, capped), `None` without load.
/// Loads that are not a finite number ≥ 0 count as 0.
pub fn week_monotony(week: &[f64]) -> (f64, Option<f64>) {
    let week: Vec<f64> = week.iter().map(|&x| crate::usable(x).unwrap_or(0.0)).collect();
    let n = week.len() as f64;
    let total: f64 = week.iter().sum();
    if week.is_empty() || total <= 0.0 {
        return (total.max(0.0), None);
    }
    let mean = total / n;
    let sd = (week.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt();
    let monotony = if sd > 0.0 { (mean / sd).min(MONOTONY_CAP) } else { MONOTONY_CAP };
    (total, Some(monotony))
}

#[cfg(test)]
mod week_limit_tests {
    use super::*;

    #[test]
    fn the_week_limit_puts_the_coupled_ratio_exactly_on_the_band_edge() {
        // 90 in the 21 days before; 1.3 × 90 / 2.7 = 43.33…; then acute 43.33 over chronic
        // (43.33 + 90) / 4 = 33.33 is 1.3.
        let limit = coupled_week_limit(90.0, PRODUCTIVE_HIGH).unwrap();
        assert!((limit - 43.333_333).abs() < 1e-4, "{limit}");
        assert!((limit / ((limit + 90.0) / 4.0) - PRODUCTIVE_HIGH).abs() < 1e-9);
        assert_eq!(coupled_week_limit(0.0, 1.3), None, "no chronic load, no limit");
        assert_eq!(coupled_week_limit(90.0, 4.0), None);
        assert_eq!(coupled_week_limit(f64::NAN, 1.3), None);
        assert_eq!(AcwrBand::of(PRODUCTIVE_HIGH), Some(AcwrBand::Productive));
        assert_eq!(AcwrBand::of(CAUTION_HIGH + 0.01), Some(AcwrBand::HighRisk));
    }
}
