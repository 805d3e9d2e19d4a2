//! Fitness, fatigue and form: the performance management chart (PMC) of Banister's
//! impulse-response model as Coggan popularised it (TrainingPeaks, GoldenCheetah, intervals.icu).
//!
//! Each day d with load L_d (rest days and gaps 0):
//! - CTL_d = CTL_{d−1}·e^(−1/42) + L_d·(1 − e^(−1/42))  (chronic training load, "fitness"),
//! - ATL_d = ATL_{d−1}·e^(−1/7) + L_d·(1 − e^(−1/7))  (acute training load, "fatigue"),
//! - TSB = CTL − ATL  (training stress balance, "form"), on the same day or the following day
//!   ([`TsbConvention`]),
//! - ramp_d = CTL_d − CTL_{d−7}  (how fast fitness moved over the past week).
//!
//! This is the exponential decay with time constant τ, not the α = 2/(N+1) moving average some
//! tools use (with N = 42 that smooths over about 21 days and overstates how fast fitness moves).

use chrono::NaiveDate;
use serde::Serialize;

use crate::daily::{DailyLoad, lay_out};
use crate::{AnalyticsError, positive};

/// On which day the form (TSB) computed from CTL and ATL is shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TsbConvention {
    /// TSB_d = CTL_d − ATL_d: form after day d's training (intervals.icu).
    SameDay,
    /// TSB_d = CTL_{d−1} − ATL_{d−1}: the form you start day d with, before its training (Coggan's
    /// definition, TrainingPeaks). The first day uses the starting CTL and ATL.
    #[default]
    FollowingDay,
}

/// The constants of the model. `Default` is the standard 42-day CTL, 7-day ATL, TSB on the
/// following day (Coggan), starting from 0, settling for 42 days.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PmcConstants {
    /// CTL time constant in days (standard 42).
    pub ctl_days: f64,
    /// ATL time constant in days (standard 7).
    pub atl_days: f64,
    /// On which day TSB is shown.
    pub tsb: TsbConvention,
    /// How many days from the start of the data are flagged `settling` (standard 42: the starting
    /// values still weigh e^(−1) ≈ 37 % in CTL after one time constant).
    pub settling_days: u32,
    /// CTL before the first day (0 unless seeded from an earlier estimate).
    pub start_ctl: f64,
    /// ATL before the first day.
    pub start_atl: f64,
}

impl Default for PmcConstants {
    fn default() -> Self {
        Self {
            ctl_days: 42.0,
            atl_days: 7.0,
            tsb: TsbConvention::FollowingDay,
            settling_days: 42,
            start_ctl: 0.0,
            start_atl: 0.0,
        }
    }
}

impl PmcConstants {
    /// The convention in one sentence, for answers and chart notes.
    pub fn convention(&self) -> String {
        let tsb = match self.tsb {
            TsbConvention::SameDay => "TSB = CTL − ATL of the same day",
            TsbConvention::FollowingDay => "TSB = yesterday's CTL − ATL (form at the start of the day)",
        };
        format!(
            "Banister/Coggan PMC: CTL and ATL are exponentially weighted with time constants {} and {} \
             days (x_d = x_(d−1)·e^(−1/τ) + load_d·(1 − e^(−1/τ)), rest days 0); {tsb}; ramp = CTL − CTL \
             7 days earlier; the first {} days are settling",
            trim(self.ctl_days),
            trim(self.atl_days),
            self.settling_days
        )
    }

    fn validate(&self) -> Result<(), AnalyticsError> {
        positive("ctl_days", self.ctl_days, "a positive number of days (standard 42)")?;
        positive("atl_days", self.atl_days, "a positive number of days (standard 7)")?;
        if crate::usable(self.start_ctl).is_none() {
            return Err(AnalyticsError::InvalidParameter {
                name: "start_ctl",
                value: self.start_ctl,
                expected: "a finite number ≥ 0",
            });
        }
        if crate::usable(self.start_atl).is_none() {
            return Err(AnalyticsError::InvalidParameter {
                name: "start_atl",
                value: self.start_atl,
                expected: "a finite number ≥ 0",
            });
        }
        Ok(())
    }
}

/// `42` rather than `42.0`, `6.5` as is.
fn trim(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e9 { format!("{}", x as i64) } else { format!("{x}") }
}

/// One day of the PMC.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PmcDay {
    /// The day.
    pub date: NaiveDate,
    /// The day's load (0 on rest days).
    pub load: f64,
    /// Chronic training load ("fitness") at the end of the day.
    pub ctl: f64,
    /// Acute training load ("fatigue") at the end of the day.
    pub atl: f64,
    /// Training stress balance ("form"), per [`PmcConstants::tsb`].
    pub tsb: f64,
    /// CTL_d − CTL_{d−7}; `None` for the first 7 days of the data.
    pub ramp: Option<f64>,
    /// True during the first [`PmcConstants::settling_days`] days of the data, while the starting
    /// values still weigh on CTL: read the numbers as rough.
    pub settling: bool,
}

/// The PMC over consecutive days, with the convention it was computed with.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PmcSeries {
    /// One entry per calendar day, oldest first, without gaps.
    pub days: Vec<PmcDay>,
    /// The convention in one sentence.
    pub convention: String,
    /// Loads that were not a finite number ≥ 0 and were counted as 0.
    pub ignored_loads: usize,
}

impl PmcSeries {
    /// The days from `start` to `end` (both included) that the series covers.
    pub fn between(&self, start: NaiveDate, end: NaiveDate) -> &[PmcDay] {
        let Some(first) = self.days.first().map(|d| d.date) else {
            return &[];
        };
        let index = |day: NaiveDate| (day - first).num_days();
        let from = index(start).max(0);
        let to = index(end).min(self.days.len() as i64 - 1);
        if from > to {
            return &[];
        }
        self.days.get(from as usize..=to as usize).unwrap_or(&[])
    }

    /// The entry of one day, if the series covers it.
    pub fn on(&self, day: NaiveDate) -> Option<&PmcDay> {
        self.between(day, day).first()
    }
}

/// The PMC from the first day in `loads` to the last (see [`performance_management_until`] to run
/// it on to a later day, e.g. today, through rest days).
///
/// `loads` may come in any order with several entries per day (they are added up); days without an
/// entry are rest days (load 0). Loads that are NaN, infinite or negative count as 0 and are
/// reported in [`PmcSeries::ignored_loads`]. Empty input gives an empty series.
///
/// Convention: Banister's impulse-response model as Coggan's PMC (module docs), time constants and
/// TSB day from `constants`.
pub fn performance_management(
    loads: &[DailyLoad],
    constants: &PmcConstants,
) -> Result<PmcSeries, AnalyticsError> {
    run(loads, constants, None)
}

/// As [`performance_management`], but over the days up to `last_day`: days after the last load
/// are rest days (fitness decays), loads after `last_day` are left out.
pub fn performance_management_until(
    loads: &[DailyLoad],
    constants: &PmcConstants,
    last_day: NaiveDate,
) -> Result<PmcSeries, AnalyticsError> {
    run(loads, constants, Some(last_day))
}

fn run(loads: &[DailyLoad], c: &PmcConstants, last: Option<NaiveDate>) -> Result<PmcSeries, AnalyticsError> {
    c.validate()?;
    let convention = c.convention();
    let Some(series) = lay_out(loads, last)? else {
        return Ok(PmcSeries { days: Vec::new(), convention, ignored_loads: 0 });
    };
    let ctl_keep = (-1.0 / c.ctl_days).exp();
    let atl_keep = (-1.0 / c.atl_days).exp();
    let mut days: Vec<PmcDay> = Vec::with_capacity(series.loads.len());
    let (mut ctl, mut atl) = (c.start_ctl, c.start_atl);
    let mut date = series.first;
    for (i, &load) in series.loads.iter().enumerate() {
        let before = ctl - atl;
        ctl = ctl * ctl_keep + load * (1.0 - ctl_keep);
        atl = atl * atl_keep + load * (1.0 - atl_keep);
        let tsb = match c.tsb {
            TsbConvention::SameDay => ctl - atl,
            TsbConvention::FollowingDay => before,
        };
        let ramp = i.checked_sub(7).and_then(|j| days.get(j)).map(|week_ago| ctl - week_ago.ctl);
        days.push(PmcDay { date, load, ctl, atl, tsb, ramp, settling: i < c.settling_days as usize });
        date = date.succ_opt().unwrap_or(date);
    }
    Ok(PmcSeries { days, convention, ignored_loads: series.ignored })
}
