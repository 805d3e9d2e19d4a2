//! Training analytics computed from an athlete's own history, the way coaches and tools such as
//! GoldenCheetah, intervals.icu and Runalyze define them (issue #16 §4): fitness, fatigue and form
//! (performance management), load per session, acute:chronic ratios, mean-max curves and critical
//! power, efficiency and decoupling, intensity distribution, comparisons, and strength progress
//! (sets and volume per muscle group, estimated one-rep max over time, muscles left untrained).
//!
//! Everything here is a pure function of its inputs: no Garmin, no database, no I/O, and no clock
//! (days are `chrono::NaiveDate` supplied by the caller). Every public function documents its
//! convention and where it comes from, and every result carries a short `convention` sentence the
//! tools can quote. Bad numbers (NaN, infinities, negatives) never panic: they are skipped or
//! refused with an [`AnalyticsError`] that says what was wrong.
//!
//! From sessions to fitness, fatigue and form (what `get_fitness_trend` does):
//!
//! ```
//! use analytics::load::{LoadChoice, SessionLoads, daily_loads};
//! use analytics::pmc::{PmcConstants, performance_management_until};
//! use chrono::NaiveDate;
//!
//! let day = |d: u32| NaiveDate::from_ymd_opt(2026, 3, d).unwrap();
//! let sessions = [
//!     SessionLoads { date: day(2), power_tss: None, hr_tss: Some(65.0), garmin: Some(90.0) },
//!     SessionLoads { date: day(4), power_tss: Some(110.0), hr_tss: Some(95.0), garmin: Some(160.0) },
//! ];
//! let loads = daily_loads(&sessions, LoadChoice::Auto); // TSS scale: hrTSS 65, then power TSS 110
//! let pmc = performance_management_until(&loads.days, &PmcConstants::default(), day(10)).unwrap();
//! let week = pmc.between(day(4), day(10));
//! assert_eq!(week.len(), 7);
//! assert_eq!(week[0].load, 110.0);
//! assert!(week[6].ctl < week[0].ctl, "fitness decays over the rest days");
//! assert!(pmc.convention.contains("42") && loads.convention.contains("hrTSS"));
//! ```

pub mod acwr;
pub mod compare;
pub mod critical_power;
pub mod daily;
pub mod efficiency;
pub mod intensity;
pub mod load;
pub mod mean_max;
pub mod pmc;
pub mod strength;

pub use daily::DailyLoad;

use chrono::NaiveDate;

/// Why an analysis could not be computed. Each message says what was wrong and what would fix it.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum AnalyticsError {
    /// A parameter (FTP, a heart rate, a time constant…) is missing, not a number or out of range.
    #[error("{name} is {value}, but it must be {expected}")]
    InvalidParameter {
        /// The parameter, as the caller knows it (e.g. `ftp_watts`).
        name: &'static str,
        /// The value received.
        value: f64,
        /// What it must be (e.g. `a positive number of watts`).
        expected: &'static str,
    },
    /// The days asked for span more than [`daily::MAX_SPAN_DAYS`]; a wrong date is the usual cause.
    #[error(
        "the days run from {first} to {last}, more than {max_days} days; check for a wrong date or \
         ask for a shorter range"
    )]
    SpanTooLong {
        /// The first day.
        first: NaiveDate,
        /// The last day.
        last: NaiveDate,
        /// The longest span accepted.
        max_days: i64,
    },
    /// The data are too few or too short for this analysis.
    #[error("not enough data: {0}")]
    NotEnoughData(String),
    /// The data do not support this analysis (no critical-power fit, an effort not steady enough
    /// for decoupling…); the message says why.
    #[error("{0}")]
    Unsupported(String),
}

/// Checks that `value` is a finite number greater than zero.
pub(crate) fn positive(
    name: &'static str,
    value: f64,
    expected: &'static str,
) -> Result<f64, AnalyticsError> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(AnalyticsError::InvalidParameter { name, value, expected })
    }
}

/// A sample as used in sums: finite and not negative, otherwise `None`.
pub(crate) fn usable(x: f64) -> Option<f64> {
    (x.is_finite() && x >= 0.0).then_some(x)
}
