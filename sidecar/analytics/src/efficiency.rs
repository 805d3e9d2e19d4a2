//! Efficiency and aerobic decoupling (Friel; TrainingPeaks' EF and Pa:HR / Pw:HR), and speed at a
//! given heart rate over months (issue #16 §4).
//!
//! - EF = output / average heart rate: normalized power (W) for rides with power, speed for runs
//!   (in m/min, grade-adjusted when a grade series is given) — W/bpm or (m/min)/bpm.
//! - Grade adjustment: Minetti et al. (2002) energy cost of running on a gradient i,
//!   C(i) = 155.4i⁵ − 30.4i⁴ − 43.3i³ + 46.3i² + 19.5i + 3.6 J/(kg·m), i clamped to ±0.45 (the
//!   measured range); grade-adjusted speed = speed × C(i) / C(0).
//! - Decoupling = 100 × (EF first half − EF second half) / EF first half, halves by time; under 5 %
//!   is good aerobic endurance. Only on steady efforts: at least 20 minutes, and the 1-minute mean
//!   outputs vary little (coefficient of variation ≤ 0.10 for speed, ≤ 0.15 for power, whose
//!   second-to-second swings are larger).

use std::collections::BTreeMap;

use chrono::{Datelike, NaiveDate};
use serde::Serialize;

use crate::load::normalized_power;
use crate::{AnalyticsError, positive, usable};

/// Shortest effort decoupling is computed on, s.
pub const MIN_STEADY_SECONDS: usize = 1200;
/// Largest coefficient of variation of 1-minute mean speed for a steady effort.
pub const MAX_CV_SPEED: f64 = 0.10;
/// Largest coefficient of variation of 1-minute mean power for a steady effort.
pub const MAX_CV_POWER: f64 = 0.15;
/// Decoupling under this percentage is good.
pub const GOOD_DECOUPLING_PERCENT: f64 = 5.0;

/// Convention of [`Efficiency`] and [`Decoupling`].
pub const EFFICIENCY_CONVENTION: &str = "Friel: EF = normalized power (W) or speed (m/min, Minetti grade-adjusted when grade is \
     known) / average HR; decoupling = 100 × (EF 1st half − EF 2nd half) / EF 1st half, < 5 % good, only on \
     steady efforts (≥ 20 min, CV of 1-min mean output ≤ 0.10 speed / 0.15 power)";

/// What the output series is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OutputKind {
    /// Power, W.
    Power,
    /// Speed, m/s.
    Speed,
}

/// One activity's 1 Hz series (equal lengths expected; the shorter decides).
#[derive(Clone, Copy, Debug)]
pub struct Effort<'a> {
    /// What `output` is.
    pub kind: OutputKind,
    /// Power (W) or speed (m/s), one sample per second.
    pub output: &'a [f64],
    /// Heart rate, bpm, one sample per second (0 or missing samples are left out of its mean).
    pub heart_rate: &'a [f64],
    /// Grade as a fraction (0.05 = 5 % up), for speed only.
    pub grade: Option<&'a [f64]>,
}

/// Minetti's energy cost of running at grade `i` (fraction), J/(kg·m); `i` clamped to ±0.45.
pub fn minetti_cost(grade: f64) -> f64 {
    let i = if grade.is_finite() { grade.clamp(-0.45, 0.45) } else { 0.0 };
    155.4 * i.powi(5) - 30.4 * i.powi(4) - 43.3 * i.powi(3) + 46.3 * i.powi(2) + 19.5 * i + 3.6
}

/// Speed on flat ground that costs what `speed` costs at `grade` (Minetti).
pub fn grade_adjusted_speed(speed: f64, grade: f64) -> f64 {
    speed * minetti_cost(grade) / minetti_cost(0.0)
}

/// An efficiency factor.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Efficiency {
    /// EF in `unit`.
    pub ef: f64,
    /// `W/bpm` or `(m/min)/bpm`.
    pub unit: &'static str,
    /// The output used: NP (W) or mean (grade-adjusted) speed (m/min).
    pub output: f64,
    /// The average heart rate, bpm.
    pub average_hr: f64,
    /// The convention in one sentence ([`EFFICIENCY_CONVENTION`]).
    pub convention: &'static str,
}

/// The EF of an effort. Convention: [`EFFICIENCY_CONVENTION`].
pub fn efficiency(effort: &Effort<'_>) -> Result<Efficiency, AnalyticsError> {
    let n = effort.output.len().min(effort.heart_rate.len());
    ef_of(effort, 0, n)
}

fn ef_of(effort: &Effort<'_>, from: usize, to: usize) -> Result<Efficiency, AnalyticsError> {
    let hr: Vec<f64> = effort
        .heart_rate
        .get(from..to)
        .unwrap_or(&[])
        .iter()
        .copied()
        .filter(|&x| x.is_finite() && x > 0.0)
        .collect();
    if hr.is_empty() {
        return Err(AnalyticsError::NotEnoughData("the effort has no heart-rate samples".to_owned()));
    }
    let average_hr = hr.iter().sum::<f64>() / hr.len() as f64;
    let output = effort.output.get(from..to).unwrap_or(&[]);
    let (value, unit) = match effort.kind {
        OutputKind::Power => {
            let np = normalized_power(output).ok_or_else(|| {
                AnalyticsError::NotEnoughData("normalized power needs at least 30 s of power".to_owned())
            })?;
            (np, "W/bpm")
        }
        OutputKind::Speed => {
            let speed = adjusted_speeds(effort, from, to);
            if speed.is_empty() {
                return Err(AnalyticsError::NotEnoughData("the effort has no speed samples".to_owned()));
            }
            (speed.iter().sum::<f64>() / speed.len() as f64 * 60.0, "(m/min)/bpm")
        }
    };
    Ok(Efficiency {
        ef: value / average_hr,
        unit,
        output: value,
        average_hr,
        convention: EFFICIENCY_CONVENTION,
    })
}

/// Speeds (m/s) from `from` to `to`, grade-adjusted when grades are given; bad samples count as 0.
fn adjusted_speeds(effort: &Effort<'_>, from: usize, to: usize) -> Vec<f64> {
    (from..to.min(effort.output.len()))
        .map(|i| {
            let v = usable(effort.output[i]).unwrap_or(0.0);
            match effort.grade.and_then(|g| g.get(i)) {
                Some(&g) => grade_adjusted_speed(v, g),
                None => v,
            }
        })
        .collect()
}

/// How steady an effort was.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Steadiness {
    /// Minutes of samples.
    pub minutes: f64,
    /// Coefficient of variation (SD / mean) of the 1-minute mean outputs.
    pub cv: f64,
    /// The largest CV accepted for this kind.
    pub max_cv: f64,
    /// At least 20 minutes and a CV within `max_cv`.
    pub steady: bool,
}

/// The steadiness test decoupling needs (module docs).
pub fn steadiness(effort: &Effort<'_>) -> Steadiness {
    let n = effort.output.len().min(effort.heart_rate.len());
    let values: Vec<f64> = match effort.kind {
        OutputKind::Power => effort.output[..n].iter().map(|&x| usable(x).unwrap_or(0.0)).collect(),
        OutputKind::Speed => adjusted_speeds(effort, 0, n),
    };
    let means: Vec<f64> = values.chunks_exact(60).map(|c| c.iter().sum::<f64>() / 60.0).collect();
    let m = means.len() as f64;
    let mean = means.iter().sum::<f64>() / m.max(1.0);
    let sd = (means.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / m.max(1.0)).sqrt();
    let cv = if mean > 0.0 { sd / mean } else { f64::INFINITY };
    let max_cv = match effort.kind {
        OutputKind::Power => MAX_CV_POWER,
        OutputKind::Speed => MAX_CV_SPEED,
    };
    Steadiness { minutes: n as f64 / 60.0, cv, max_cv, steady: n >= MIN_STEADY_SECONDS && cv <= max_cv }
}

/// Aerobic decoupling of an effort.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Decoupling {
    /// EF of the first half.
    pub ef_first_half: f64,
    /// EF of the second half.
    pub ef_second_half: f64,
    /// 100 × (first − second) / first; positive when heart rate drifted up for the same output.
    pub decoupling_percent: f64,
    /// Under 5 %.
    pub good: bool,
    /// The steadiness test it passed.
    pub steadiness: Steadiness,
    /// The EF unit.
    pub unit: &'static str,
    /// The convention in one sentence ([`EFFICIENCY_CONVENTION`]).
    pub convention: &'static str,
}

/// Aerobic decoupling of a steady effort; [`AnalyticsError::Unsupported`] says why an effort is
/// not steady enough. Convention: [`EFFICIENCY_CONVENTION`].
pub fn decoupling(effort: &Effort<'_>) -> Result<Decoupling, AnalyticsError> {
    let steadiness = steadiness(effort);
    if !steadiness.steady {
        let why = if steadiness.minutes * 60.0 < MIN_STEADY_SECONDS as f64 {
            format!(
                "the effort lasts {:.0} min; decoupling needs at least 20 min of steady effort",
                steadiness.minutes
            )
        } else {
            format!(
                "the effort is not steady (the 1-minute mean output varies by {:.0} %, more than {:.0} %); decoupling \
                 is only meaningful on steady efforts",
                steadiness.cv * 100.0,
                steadiness.max_cv * 100.0
            )
        };
        return Err(AnalyticsError::Unsupported(why));
    }
    let n = effort.output.len().min(effort.heart_rate.len());
    let first = ef_of(effort, 0, n / 2)?;
    let second = ef_of(effort, n / 2, n)?;
    if first.ef <= 0.0 {
        return Err(AnalyticsError::Unsupported("the first half has no output".to_owned()));
    }
    let decoupling_percent = 100.0 * (first.ef - second.ef) / first.ef;
    Ok(Decoupling {
        ef_first_half: first.ef,
        ef_second_half: second.ef,
        decoupling_percent,
        good: decoupling_percent < GOOD_DECOUPLING_PERCENT,
        steadiness,
        unit: first.unit,
        convention: EFFICIENCY_CONVENTION,
    })
}

/// One activity's average speed and heart rate.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SpeedAndHr {
    /// The day.
    pub date: NaiveDate,
    /// Average (or grade-adjusted) speed, m/s.
    pub speed_mps: f64,
    /// Average heart rate, bpm.
    pub average_hr: f64,
}

/// Speed at a heart rate in one month.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MonthSpeedAtHr {
    /// `YYYY-MM`.
    pub month: String,
    /// Activities counted.
    pub activities: usize,
    /// Mean of speed × target / HR over them, m/s.
    pub speed_mps: f64,
}

/// Speed at a heart rate over months.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SpeedAtHr {
    /// The heart rate asked about, bpm.
    pub target_bpm: f64,
    /// How far an activity's average heart rate may be from it, bpm.
    pub tolerance_bpm: f64,
    /// Months with at least one such activity, oldest first.
    pub months: Vec<MonthSpeedAtHr>,
    /// The convention in one sentence ([`SPEED_AT_HR_CONVENTION`]).
    pub convention: &'static str,
}

/// Convention of [`speed_at_heart_rate`].
pub const SPEED_AT_HR_CONVENTION: &str = "speed at a heart rate: per activity whose average HR is within the tolerance of the target, \
     speed × target HR / average HR (EF × target), averaged per calendar month";

/// Speed at `target_bpm` month by month, from activities whose average heart rate is within
/// `tolerance_bpm` of it: each contributes its EF × target (speed scaled to the target heart
/// rate), averaged per month. Months without such an activity are absent. Convention:
/// [`SPEED_AT_HR_CONVENTION`].
pub fn speed_at_heart_rate(
    activities: &[SpeedAndHr],
    target_bpm: f64,
    tolerance_bpm: f64,
) -> Result<SpeedAtHr, AnalyticsError> {
    let target = positive("target_bpm", target_bpm, "a heart rate in bpm")?;
    let tolerance = usable(tolerance_bpm).ok_or(AnalyticsError::InvalidParameter {
        name: "tolerance_bpm",
        value: tolerance_bpm,
        expected: "a number of bpm ≥ 0",
    })?;
    let mut months: BTreeMap<(i32, u32), (usize, f64)> = BTreeMap::new();
    for a in activities {
        let (Some(speed), true) = (usable(a.speed_mps), a.average_hr.is_finite() && a.average_hr > 0.0)
        else {
            continue;
        };
        if (a.average_hr - target).abs() > tolerance {
            continue;
        }
        let entry = months.entry((a.date.year(), a.date.month())).or_default();
        entry.0 += 1;
        entry.1 += speed * target / a.average_hr;
    }
    let months = months
        .into_iter()
        .map(|((y, m), (count, sum))| MonthSpeedAtHr {
            month: format!("{y:04}-{m:02}"),
            activities: count,
            speed_mps: sum / count as f64,
        })
        .collect();
    Ok(SpeedAtHr { target_bpm: target, tolerance_bpm: tolerance, months, convention: SPEED_AT_HR_CONVENTION })
}
