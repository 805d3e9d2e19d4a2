//! Critical power and W′ from a power mean-max curve: the 2-parameter model of Monod and Scherrer
//! (1965), as used by GoldenCheetah and intervals.icu (issue #16 §4).
//!
//! Maximal efforts of t seconds satisfy work = CP·t + W′ (equivalently P = W′/t + CP): a linear
//! least-squares fit of work (P·t) on t over the curve's points from 2 to 20 minutes. The fit is
//! refused, with the reason, when the data cannot support it: fewer than 3 durations, durations
//! spanning less than a factor 2, CP or W′ not positive, or a poor fit (R² of the work fit below
//! 0.99, or R² of the power it predicts below 0.5 — the points are then not one athlete's maximal
//! efforts).

use serde::Serialize;

use crate::AnalyticsError;

/// Shortest duration used, s (2 min).
pub const CP_MIN_SECONDS: u32 = 120;
/// Longest duration used, s (20 min).
pub const CP_MAX_SECONDS: u32 = 1200;
/// Fewest durations for a fit.
pub const CP_MIN_POINTS: usize = 3;
/// Lowest R² of the work–time fit accepted.
pub const CP_MIN_R2_WORK: f64 = 0.99;
/// Lowest R² of the predicted power accepted.
pub const CP_MIN_R2_POWER: f64 = 0.5;

/// Convention of [`CriticalPower`].
pub const CP_CONVENTION: &str = "Monod–Scherrer 2-parameter model: work = CP·t + W′ (P = W′/t + CP), least squares on the \
     mean-max curve's 2–20 min points; refused with fewer than 3 durations, a span under 2×, CP or W′ ≤ 0, or R² \
     below 0.99 (work) / 0.5 (power)";

/// A critical-power fit.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CriticalPower {
    /// Critical power, W.
    pub cp_watts: f64,
    /// W′, the work above CP available, J.
    pub w_prime_joules: f64,
    /// R² of the work–time fit.
    pub r_squared_work: f64,
    /// R² of the power the model predicts against the curve.
    pub r_squared_power: f64,
    /// The durations used, s.
    pub durations: Vec<u32>,
    /// The convention in one sentence ([`CP_CONVENTION`]).
    pub convention: &'static str,
}

impl CriticalPower {
    /// The power the model predicts for `seconds`: W′/t + CP.
    pub fn power_at(&self, seconds: f64) -> f64 {
        self.w_prime_joules / seconds + self.cp_watts
    }
}

/// Fits CP and W′ to `(seconds, watts)` points of a mean-max power curve (only those from 2 to
/// 20 min are used; bad values skipped; a repeated duration keeps its highest power). Convention:
/// [`CP_CONVENTION`]; [`AnalyticsError::Unsupported`] says why the data cannot support a fit.
pub fn critical_power(curve: &[(u32, f64)]) -> Result<CriticalPower, AnalyticsError> {
    let mut points: Vec<(u32, f64)> = curve
        .iter()
        .copied()
        .filter(|&(s, w)| (CP_MIN_SECONDS..=CP_MAX_SECONDS).contains(&s) && w.is_finite() && w > 0.0)
        .collect();
    points.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.total_cmp(&a.1)));
    points.dedup_by_key(|p| p.0);
    let durations: Vec<u32> = points.iter().map(|p| p.0).collect();
    let unsupported = |why: String| Err(AnalyticsError::Unsupported(format!("no critical power fit: {why}")));
    if points.len() < CP_MIN_POINTS {
        return unsupported(format!(
            "it needs best efforts at {CP_MIN_POINTS} or more durations between 2 and 20 minutes, the curve has {}",
            points.len()
        ));
    }
    let (first, last) = (durations[0], durations[durations.len() - 1]);
    if last < 2 * first {
        return unsupported(format!(
            "the efforts span only {first}–{last} s; the durations must differ by at least a factor 2"
        ));
    }
    let n = points.len() as f64;
    let ts: Vec<f64> = points.iter().map(|p| f64::from(p.0)).collect();
    let ws: Vec<f64> = points.iter().map(|p| p.1 * f64::from(p.0)).collect();
    let mean_t = ts.iter().sum::<f64>() / n;
    let mean_w = ws.iter().sum::<f64>() / n;
    let sxx: f64 = ts.iter().map(|t| (t - mean_t).powi(2)).sum();
    let sxy: f64 = ts.iter().zip(&ws).map(|(t, w)| (t - mean_t) * (w - mean_w)).sum();
    let cp = sxy / sxx;
    let w_prime = mean_w - cp * mean_t;
    let ss_work: f64 = ws.iter().map(|w| (w - mean_w).powi(2)).sum();
    let res_work: f64 = ts.iter().zip(&ws).map(|(t, w)| (w - (cp * t + w_prime)).powi(2)).sum();
    let r_squared_work = if ss_work > 0.0 { 1.0 - res_work / ss_work } else { 0.0 };
    let mean_p = points.iter().map(|p| p.1).sum::<f64>() / n;
    let ss_power: f64 = points.iter().map(|p| (p.1 - mean_p).powi(2)).sum();
    let res_power: f64 = points.iter().map(|&(s, w)| (w - (w_prime / f64::from(s) + cp)).powi(2)).sum();
    // A curve with the same power at every duration has nothing for W′ to explain.
    let r_squared_power = if ss_power > 0.0 { 1.0 - res_power / ss_power } else { 0.0 };
    if !(cp.is_finite() && cp > 0.0) {
        return unsupported(format!("the fit gives a critical power of {cp:.0} W"));
    }
    if !(w_prime.is_finite() && w_prime > 0.0) {
        return unsupported(format!(
            "the fit gives W′ = {w_prime:.0} J (not positive): the shorter efforts are not harder than the longer \
             ones, so they were probably not all-out"
        ));
    }
    if r_squared_work < CP_MIN_R2_WORK || r_squared_power < CP_MIN_R2_POWER {
        return unsupported(format!(
            "the points fit the model poorly (R² {r_squared_work:.3} on work, {r_squared_power:.2} on power): they \
             are probably not all maximal efforts"
        ));
    }
    Ok(CriticalPower {
        cp_watts: cp,
        w_prime_joules: w_prime,
        r_squared_work,
        r_squared_power,
        durations,
        convention: CP_CONVENTION,
    })
}
