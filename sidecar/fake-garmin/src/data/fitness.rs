//! Training metrics derived from the activities and nights: acute/chronic load and their ratio,
//! training status, VO2max, load balance, training readiness, endurance and hill scores, lactate
//! threshold and race predictions — the numbers behind "am I overtraining?".

use super::activity::{Activity, Kind};
use super::health::Day;
use super::plan::{threshold_pace, vo2max_at};

/// Training metrics as of one day.
#[derive(Clone, Debug, Default)]
pub struct Fitness {
    /// Training load of the day's activities.
    pub load: f64,
    /// Acute load (7-day exponentially weighted, per week).
    pub acute: f64,
    /// Chronic load (28-day exponentially weighted, per week).
    pub chronic: f64,
    /// Acute ÷ chronic.
    pub ratio: f64,
    /// Garmin training-status code (2 unproductive, 4 maintaining, 5 recovery, 6 overreaching,
    /// 7 productive, 1 detraining).
    pub status: u32,
    /// Training-status phrase stem, e.g. `PRODUCTIVE`.
    pub phrase: &'static str,
    /// Precise VO2max.
    pub vo2max: f64,
    /// 1 falling, 2 stable, 3 rising.
    pub trend: u32,
    /// 28-day low-aerobic load.
    pub aerobic_low: f64,
    /// 28-day high-aerobic load.
    pub aerobic_high: f64,
    /// 28-day anaerobic load.
    pub anaerobic: f64,
    /// Training readiness 0–100.
    pub readiness: u32,
    /// Recovery time left in the morning, minutes.
    pub recovery_min: u32,
    /// Endurance score.
    pub endurance: f64,
    /// Hill score (overall, strength, endurance).
    pub hill: (f64, f64, f64),
}

impl Fitness {
    /// Garmin's `acwrStatus`.
    pub fn acwr_status(&self) -> &'static str {
        match self.ratio {
            r if r < 0.8 => "LOW",
            r if r <= 1.5 => "OPTIMAL",
            r if r <= 2.0 => "HIGH",
            _ => "VERY_HIGH",
        }
    }

    /// `acwrPercent` (the gauge position; 1.0 ≈ 42 %).
    pub fn acwr_percent(&self) -> f64 {
        (self.ratio / 2.35 * 100.0).clamp(0.0, 100.0).round()
    }

    /// Training readiness level.
    pub fn readiness_level(&self) -> &'static str {
        match self.readiness {
            0..=24 => "POOR",
            25..=49 => "LOW",
            50..=74 => "MODERATE",
            75..=94 => "HIGH",
            _ => "PRIME",
        }
    }
}

/// Fills `fitness` on every day (days and activities cover the same span, oldest first).
pub fn fill(days: &mut [Day], acts: &[Activity]) {
    let loads: Vec<f64> =
        days.iter().map(|d| acts[d.activities.clone()].iter().map(|a| a.training_load).sum()).collect();
    let n = days.len().max(2) as f64 - 1.0;
    // Exponentially weighted loads (time constants 7 and 28 days), in "per week" units, started
    // at the steady state of the first four weeks so the year does not open with a ramp-up.
    let (fast, slow) = ((-1.0f64 / 7.0).exp(), (-1.0f64 / 28.0).exp());
    let start = loads.iter().take(28).sum::<f64>() / loads.len().clamp(1, 28) as f64;
    let (mut acute_raw, mut chronic_raw) = (start / (1.0 - fast), start / (1.0 - slow));
    for i in 0..days.len() {
        acute_raw = acute_raw * fast + loads[i];
        chronic_raw = chronic_raw * slow + loads[i];
        let acute = acute_raw * (1.0 - fast) * 7.0;
        let chronic = chronic_raw * (1.0 - slow) * 7.0;
        let ratio = if chronic > 1.0 { acute / chronic } else { 0.0 };
        let vo2 = (vo2max_at(i as f64 / n) * 10.0).round() / 10.0;
        let vo2_before = (vo2max_at(i.saturating_sub(14) as f64 / n) * 10.0).round() / 10.0;
        let trend = if vo2 - vo2_before > 0.3 {
            3
        } else if vo2_before - vo2 > 0.3 {
            1
        } else {
            2
        };
        let (status, phrase) = match (ratio, trend) {
            (r, _) if r > 1.5 => (6, "OVERREACHING"),
            (r, _) if r < 0.5 => (1, "DETRAINING"),
            (r, _) if r < 0.8 => (5, "RECOVERY"),
            (_, 3) => (7, "PRODUCTIVE"),
            (_, 1) => (2, "UNPRODUCTIVE"),
            _ => (4, "MAINTAINING"),
        };
        let (mut low, mut high, mut anaerobic) = (0.0, 0.0, 0.0);
        let from_day = i.saturating_sub(27);
        for a in days[from_day..=i].iter().flat_map(|d| &acts[d.activities.clone()]) {
            match a.kind {
                _ if a.anaerobic_te >= 2.0 => anaerobic += a.training_load,
                Kind::Long | Kind::Tempo | Kind::Race => high += a.training_load,
                _ => low += a.training_load,
            }
        }
        let yesterday = if i > 0 { loads[i - 1] } else { 0.0 };
        let recovery_min = (yesterday * 7.0 - 600.0).clamp(0.0, 4000.0).round() as u32;
        let day = &days[i];
        let hrv_factor = day
            .hrv
            .as_ref()
            .map_or(70.0, |h| (100.0 - (h.weekly_avg - h.last_night_avg).abs() * 3.0).clamp(20.0, 100.0));
        let acwr_factor = (100.0 - (ratio - 1.0).abs() * 120.0).clamp(10.0, 100.0);
        let recovery_factor = (100.0 - f64::from(recovery_min) / 30.0).clamp(5.0, 100.0);
        let readiness =
            0.3 * f64::from(day.sleep.score) + 0.25 * hrv_factor + 0.25 * recovery_factor + 0.2 * acwr_factor;
        let climb: f64 = days[from_day..=i]
            .iter()
            .flat_map(|d| &acts[d.activities.clone()])
            .map(|a| a.stats.elev_gain)
            .sum();
        let hill_strength = (20.0 + climb / 60.0).min(60.0).round();
        let hill_endurance = (25.0 + chronic / 25.0).min(70.0).round();
        days[i].fitness = Fitness {
            load: loads[i],
            acute: acute.round(),
            chronic: chronic.round(),
            ratio: (ratio * 10.0).round() / 10.0,
            status,
            phrase,
            vo2max: vo2,
            trend,
            aerobic_low: low,
            aerobic_high: high,
            anaerobic,
            readiness: readiness.clamp(1.0, 100.0).round() as u32,
            recovery_min,
            endurance: (3_600.0 + chronic * 3.4).round(),
            hill: ((hill_strength + hill_endurance) / 1.4, hill_strength, hill_endurance),
        };
    }
}

/// Predicted race time (s) over `metres` for a VO2max (Daniels–Gilbert oxygen-cost model).
pub fn race_time(vo2max: f64, metres: f64) -> f64 {
    let demand = |t_min: f64| {
        let v = metres / t_min;
        -4.60 + 0.182_258 * v + 0.000_104 * v * v
    };
    let supply = |t_min: f64| {
        vo2max * (0.8 + 0.189_439_3 * (-0.012_778 * t_min).exp() + 0.298_955_8 * (-0.193_260_5 * t_min).exp())
    };
    let (mut lo, mut hi) = (metres / 600.0, metres / 60.0);
    for _ in 0..60 {
        let mid = (lo + hi) / 2.0;
        if demand(mid) > supply(mid) { lo = mid } else { hi = mid }
    }
    ((lo + hi) / 2.0 * 60.0).round()
}

/// Lactate threshold `(heart rate, speed m/s)` for a VO2max.
pub fn lactate_threshold(vo2max: f64) -> (f64, f64) {
    (168.0 + ((vo2max - 41.0) / 2.0).round(), 1000.0 / threshold_pace(vo2max))
}
