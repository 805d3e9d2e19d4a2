//! Load per session, best available and labelled (issue #16 §4):
//! - power: Coggan's normalized power, intensity factor and training stress score (TSS);
//! - heart rate: Banister's TRIMP with Morton's sex coefficients, scaled to hrTSS so that one hour
//!   at threshold heart rate is 100, like TSS;
//! - Garmin's own activity training load (EPOC-based), passed through on its own scale.
//!
//! TSS and hrTSS share one scale (100 = one hour at threshold); Garmin's load does not, so a daily
//! series ([`daily_loads`]) never adds Garmin's load to TSS: it picks one scale and says which.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use serde::Serialize;

use crate::daily::DailyLoad;
use crate::{AnalyticsError, positive, usable};

/// Samples in Coggan's rolling window for normalized power (30 s at 1 Hz).
pub const NP_WINDOW_SECONDS: usize = 30;

/// Where a session's load number comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LoadKind {
    /// Power TSS (Coggan).
    Power,
    /// Heart-rate TSS from Banister's TRIMP.
    HeartRate,
    /// Garmin's activity training load.
    Garmin,
}

impl LoadKind {
    /// A short label for answers and charts.
    pub fn label(self) -> &'static str {
        match self {
            Self::Power => "TSS (power)",
            Self::HeartRate => "hrTSS (heart rate)",
            Self::Garmin => "Garmin training load",
        }
    }

    /// The scale the number is on.
    pub fn scale(self) -> LoadScale {
        match self {
            Self::Power | Self::HeartRate => LoadScale::Tss,
            Self::Garmin => LoadScale::Garmin,
        }
    }
}

/// The scale of a load number: loads on different scales are never added together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LoadScale {
    /// TSS and hrTSS: 100 = one hour at threshold (FTP or threshold heart rate).
    Tss,
    /// Garmin's activity training load (Firstbeat EPOC-based), not comparable with TSS.
    Garmin,
}

/// A session's power load.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PowerLoad {
    /// Duration counted (samples at 1 Hz).
    pub seconds: f64,
    /// Mean power over the samples, W.
    pub average_watts: Option<f64>,
    /// Normalized power, W.
    pub normalized_watts: f64,
    /// Intensity factor NP / FTP.
    pub intensity_factor: f64,
    /// Training stress score.
    pub tss: f64,
    /// The convention in one sentence.
    pub convention: &'static str,
}

/// Convention of [`PowerLoad`].
pub const POWER_CONVENTION: &str = "Coggan: NP = 4th root of the mean of the 4th power of the 30 s rolling mean \
     power; IF = NP/FTP; TSS = seconds × NP × IF / (FTP × 3600) × 100";

/// Coggan's normalized power of a 1 Hz power series: the 30 s rolling mean (from the 30th sample
/// on), raised to the 4th power, averaged, 4th root. Missing or bad samples (NaN, negative) count
/// as 0 W, as a dropout or coasting does. `None` with fewer than 30 samples.
pub fn normalized_power(watts_1hz: &[f64]) -> Option<f64> {
    if watts_1hz.len() < NP_WINDOW_SECONDS {
        return None;
    }
    let w = NP_WINDOW_SECONDS as f64;
    let clean = |x: f64| usable(x).unwrap_or(0.0);
    let mut window: f64 = watts_1hz[..NP_WINDOW_SECONDS].iter().map(|&x| clean(x)).sum();
    let mut sum4 = (window / w).powi(4);
    let mut count = 1usize;
    for i in NP_WINDOW_SECONDS..watts_1hz.len() {
        window += clean(watts_1hz[i]) - clean(watts_1hz[i - NP_WINDOW_SECONDS]);
        // Floating error must not turn an all-zero window slightly negative.
        let mean = (window / w).max(0.0);
        sum4 += mean.powi(4);
        count += 1;
    }
    Some((sum4 / count as f64).powf(0.25))
}

/// Power TSS of a 1 Hz power series (one sample per second, so the duration is the number of
/// samples). Convention: [`POWER_CONVENTION`].
pub fn power_load(watts_1hz: &[f64], ftp_watts: f64) -> Result<PowerLoad, AnalyticsError> {
    let ftp = positive("ftp_watts", ftp_watts, "a positive number of watts (functional threshold power)")?;
    let np = normalized_power(watts_1hz).ok_or_else(|| {
        AnalyticsError::NotEnoughData(format!(
            "normalized power needs at least {NP_WINDOW_SECONDS} one-second power samples, got {}",
            watts_1hz.len()
        ))
    })?;
    let seconds = watts_1hz.len() as f64;
    let average = watts_1hz.iter().map(|&x| usable(x).unwrap_or(0.0)).sum::<f64>() / seconds;
    let mut load = power_load_from_np(seconds, np, ftp)?;
    load.average_watts = Some(average);
    Ok(load)
}

/// Power TSS from a duration and a normalized power already known (e.g. Garmin's `normPower`).
/// Convention: [`POWER_CONVENTION`].
pub fn power_load_from_np(
    seconds: f64,
    normalized_watts: f64,
    ftp_watts: f64,
) -> Result<PowerLoad, AnalyticsError> {
    let ftp = positive("ftp_watts", ftp_watts, "a positive number of watts (functional threshold power)")?;
    let seconds = usable(seconds).ok_or(AnalyticsError::InvalidParameter {
        name: "seconds",
        value: seconds,
        expected: "a duration ≥ 0 s",
    })?;
    let np = usable(normalized_watts).ok_or(AnalyticsError::InvalidParameter {
        name: "normalized_watts",
        value: normalized_watts,
        expected: "a power ≥ 0 W",
    })?;
    let intensity_factor = np / ftp;
    let tss = seconds * np * intensity_factor / (ftp * 3600.0) * 100.0;
    Ok(PowerLoad {
        seconds,
        average_watts: None,
        normalized_watts: np,
        intensity_factor,
        tss,
        convention: POWER_CONVENTION,
    })
}

/// Sex, for Morton's TRIMP coefficients.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Sex {
    /// A = 0.64, B = 1.92.
    Male,
    /// A = 0.821776, B = 1.67.
    Female,
    /// The mean of the two: A = 0.725215, B = 1.795.
    #[default]
    Unknown,
}

impl Sex {
    /// Morton's (1990) TRIMP weighting `(A, B)` for `A·e^(B·HRr)` as used by Banister's TRIMP
    /// (values of issue #16: male 0.64/1.92, female 0.821776/1.67, unknown 0.725215/1.795).
    pub fn coefficients(self) -> (f64, f64) {
        match self {
            Self::Male => (0.64, 1.92),
            Self::Female => (0.821_776, 1.67),
            Self::Unknown => (0.725_215, 1.795),
        }
    }
}

/// The heart rates TRIMP is computed against.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct HrProfile {
    /// Resting heart rate, bpm.
    pub resting_bpm: f64,
    /// Maximum heart rate, bpm.
    pub max_bpm: f64,
    /// Lactate-threshold heart rate, bpm (one hour here is hrTSS 100).
    pub threshold_bpm: f64,
    /// Sex, for the weighting coefficients.
    pub sex: Sex,
}

impl HrProfile {
    fn validate(&self) -> Result<(), AnalyticsError> {
        positive("resting_bpm", self.resting_bpm, "a resting heart rate in bpm above 0")?;
        positive("max_bpm", self.max_bpm, "a maximum heart rate in bpm")?;
        positive("threshold_bpm", self.threshold_bpm, "a threshold heart rate in bpm")?;
        if self.max_bpm <= self.resting_bpm {
            return Err(AnalyticsError::InvalidParameter {
                name: "max_bpm",
                value: self.max_bpm,
                expected: "above the resting heart rate",
            });
        }
        if self.threshold_bpm <= self.resting_bpm || self.threshold_bpm > self.max_bpm {
            return Err(AnalyticsError::InvalidParameter {
                name: "threshold_bpm",
                value: self.threshold_bpm,
                expected: "above the resting heart rate and at most the maximum",
            });
        }
        Ok(())
    }

    /// Heart-rate reserve fraction HRr = (HR − rest) / (max − rest), clamped to 0..1.
    pub fn reserve_fraction(&self, bpm: f64) -> f64 {
        ((bpm - self.resting_bpm) / (self.max_bpm - self.resting_bpm)).clamp(0.0, 1.0)
    }

    /// TRIMP of `minutes` at `bpm`: minutes × HRr × A × e^(B·HRr).
    pub fn trimp_at(&self, bpm: f64, minutes: f64) -> f64 {
        let (a, b) = self.sex.coefficients();
        let hrr = self.reserve_fraction(bpm);
        minutes * hrr * a * (b * hrr).exp()
    }
}

/// Time spent at one heart rate (a bin of a histogram).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct HrBin {
    /// Heart rate, bpm (the bin's representative value).
    pub bpm: f64,
    /// Time at that heart rate, s.
    pub seconds: f64,
}

/// A 1-bpm histogram of a 1 Hz heart-rate series (each sample is one second). Samples that are not
/// a positive finite number are left out.
pub fn hr_histogram(bpm_1hz: &[f64]) -> Vec<HrBin> {
    let mut bins: BTreeMap<i64, f64> = BTreeMap::new();
    for &x in bpm_1hz {
        if x.is_finite() && x > 0.0 && x < 400.0 {
            *bins.entry(x.round() as i64).or_default() += 1.0;
        }
    }
    bins.into_iter().map(|(bpm, seconds)| HrBin { bpm: bpm as f64, seconds }).collect()
}

/// Bins from time in heart-rate zones, given as `(zone floor bpm, seconds)` pairs in any order
/// (Garmin's `hrTimeInZones` lists zones out of order: `zoneLowBoundary`, `secsInZone`). Each zone
/// is represented by the middle of its range — from its floor to the next zone's floor, the top
/// zone up to `max_bpm`. Pairs with a floor that is not a positive finite number are left out.
pub fn hr_bins_from_zones(zones: &[(f64, f64)], max_bpm: f64) -> Vec<HrBin> {
    let mut zones: Vec<(f64, f64)> =
        zones.iter().copied().filter(|&(floor, _)| floor.is_finite() && floor > 0.0).collect();
    zones.sort_by(|a, b| a.0.total_cmp(&b.0));
    (0..zones.len())
        .map(|i| {
            let (low, seconds) = zones[i];
            let high = zones.get(i + 1).map_or(max_bpm, |next| next.0);
            let mid = if high.is_finite() && high > low { (low + high) / 2.0 } else { low };
            HrBin { bpm: mid, seconds }
        })
        .collect()
}

/// A session's heart-rate load.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HrLoad {
    /// Minutes counted.
    pub minutes: f64,
    /// Banister TRIMP of the session.
    pub trimp: f64,
    /// TRIMP of 60 minutes at threshold heart rate (hrTSS 100).
    pub threshold_hour_trimp: f64,
    /// hrTSS = 100 × TRIMP / TRIMP(60 min at threshold).
    pub hr_tss: f64,
    /// The convention in one sentence.
    pub convention: &'static str,
}

/// Convention of [`HrLoad`].
pub const HR_CONVENTION: &str = "Banister TRIMP with Morton's weighting: Σ minutes × HRr × A × e^(B·HRr), HRr = (HR − rest)/(max − \
     rest) clamped 0..1, A/B 0.64/1.92 male, 0.821776/1.67 female, 0.725215/1.795 unknown; hrTSS = 100 × \
     TRIMP / TRIMP(60 min at threshold HR)";

/// Heart-rate TSS of a heart-rate histogram. Bins whose heart rate or time is not a finite number
/// ≥ 0 are left out. Convention: [`HR_CONVENTION`].
pub fn hr_load(bins: &[HrBin], profile: &HrProfile) -> Result<HrLoad, AnalyticsError> {
    profile.validate()?;
    let mut minutes = 0.0;
    let mut trimp = 0.0;
    for bin in bins {
        let (Some(bpm), Some(seconds)) = (usable(bin.bpm), usable(bin.seconds)) else {
            continue;
        };
        minutes += seconds / 60.0;
        trimp += profile.trimp_at(bpm, seconds / 60.0);
    }
    let threshold_hour_trimp = profile.trimp_at(profile.threshold_bpm, 60.0);
    Ok(HrLoad {
        minutes,
        trimp,
        threshold_hour_trimp,
        hr_tss: 100.0 * trimp / threshold_hour_trimp,
        convention: HR_CONVENTION,
    })
}

/// One session's load on one scale, labelled.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SessionLoad {
    /// Where the number comes from.
    pub kind: LoadKind,
    /// The load.
    pub value: f64,
}

/// Garmin's own activity training load, passed through as it is (on Garmin's scale). `None` when
/// it is not a finite number ≥ 0.
pub fn garmin_load(value: f64) -> Option<SessionLoad> {
    usable(value).map(|value| SessionLoad { kind: LoadKind::Garmin, value })
}

/// The loads one session has, each on its own kind (any may be missing).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SessionLoads {
    /// The session's day.
    pub date: NaiveDate,
    /// Power TSS, when the session has power and an FTP is known.
    pub power_tss: Option<f64>,
    /// hrTSS, when the session has heart rate and the profile is known.
    pub hr_tss: Option<f64>,
    /// Garmin's activity training load.
    pub garmin: Option<f64>,
}

impl SessionLoads {
    /// The load of `kind`, when the session has a usable one.
    pub fn of(&self, kind: LoadKind) -> Option<SessionLoad> {
        let value = match kind {
            LoadKind::Power => self.power_tss,
            LoadKind::HeartRate => self.hr_tss,
            LoadKind::Garmin => self.garmin,
        };
        value.and_then(usable).map(|value| SessionLoad { kind, value })
    }

    /// The best load this session has: power TSS, else hrTSS, else Garmin's load.
    pub fn best_available(&self) -> Option<SessionLoad> {
        [LoadKind::Power, LoadKind::HeartRate, LoadKind::Garmin].into_iter().find_map(|k| self.of(k))
    }
}

/// Which load a daily series is built from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LoadChoice {
    /// The best available on one scale: the TSS scale (power TSS per session, else hrTSS) when any
    /// session has one, otherwise Garmin's load.
    #[default]
    Auto,
    /// Power TSS only.
    Power,
    /// hrTSS only.
    HeartRate,
    /// Garmin's load only.
    Garmin,
}

/// How many sessions used each kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct KindCounts {
    /// Sessions counted with power TSS.
    pub power: usize,
    /// Sessions counted with hrTSS.
    pub heart_rate: usize,
    /// Sessions counted with Garmin's load.
    pub garmin: usize,
}

/// Daily loads on one scale, ready for the PMC and the ACWR.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DailyLoadSeries {
    /// One entry per day that had a counted session (sessions of a day added up), oldest first.
    pub days: Vec<DailyLoad>,
    /// The scale of every number in `days`; `None` when no session had a usable load.
    pub scale: Option<LoadScale>,
    /// Sessions counted per kind.
    pub sessions: KindCounts,
    /// Sessions left out because they had no load of the chosen scale.
    pub sessions_without_load: usize,
    /// What was counted, in one sentence.
    pub convention: String,
}

/// Adds up the sessions' loads per day on one scale, never mixing Garmin's load with TSS.
///
/// `Auto` takes the TSS scale when any session has power TSS or hrTSS — each session then counts
/// its power TSS, else its hrTSS (same scale: 100 = one hour at threshold) — and leaves out the
/// sessions with only Garmin's load (counted in `sessions_without_load`); with no TSS-scale session
/// at all it uses Garmin's load. An explicit kind counts that kind only.
pub fn daily_loads(sessions: &[SessionLoads], choice: LoadChoice) -> DailyLoadSeries {
    let on_tss = |s: &SessionLoads| s.of(LoadKind::Power).or_else(|| s.of(LoadKind::HeartRate));
    // `None`: the TSS scale (power, else heart rate); `Some(kind)`: that kind only.
    let only = match choice {
        LoadChoice::Auto if sessions.iter().any(|s| on_tss(s).is_some()) => None,
        LoadChoice::Auto | LoadChoice::Garmin => Some(LoadKind::Garmin),
        LoadChoice::Power => Some(LoadKind::Power),
        LoadChoice::HeartRate => Some(LoadKind::HeartRate),
    };
    let pick = |s: &SessionLoads| match only {
        None => on_tss(s),
        Some(kind) => s.of(kind),
    };
    let mut per_day: BTreeMap<NaiveDate, f64> = BTreeMap::new();
    let mut counts = KindCounts::default();
    let mut without = 0;
    let mut scale = None;
    for session in sessions {
        let Some(load) = pick(session) else {
            without += 1;
            continue;
        };
        scale = Some(load.kind.scale());
        match load.kind {
            LoadKind::Power => counts.power += 1,
            LoadKind::HeartRate => counts.heart_rate += 1,
            LoadKind::Garmin => counts.garmin += 1,
        }
        *per_day.entry(session.date).or_default() += load.value;
    }
    let counted = match scale {
        None => "no session had a usable load".to_owned(),
        Some(LoadScale::Tss) => format!(
            "daily load = sum of TSS per session: power TSS for {} session(s), hrTSS for {} (same scale, 100 = one \
             hour at threshold)",
            counts.power, counts.heart_rate
        ),
        Some(LoadScale::Garmin) => format!(
            "daily load = sum of Garmin's activity training load over {} session(s) (Garmin's scale, not TSS)",
            counts.garmin
        ),
    };
    let convention = if without > 0 {
        format!("{counted}; {without} session(s) without a load on this scale left out")
    } else {
        counted
    };
    DailyLoadSeries {
        days: per_day.into_iter().map(|(date, load)| DailyLoad { date, load }).collect(),
        scale,
        sessions: counts,
        sessions_without_load: without,
        convention,
    }
}
