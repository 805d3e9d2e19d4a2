//! Best efforts: mean-max curves (the highest average of a 1 Hz series over each duration) for
//! power, speed and heart rate, their element-wise maximum over many activities, and the best
//! times for standard running distances from a time–distance series (issue #16 §4).
//!
//! Convention (as GoldenCheetah's and intervals.icu's power-duration curves): a duration d's value
//! is max over every start of the mean of d consecutive one-second samples; samples that are
//! missing or bad (NaN, negative) count as 0, so a dropout can only lower a best, never invent one.
//! Curves of several activities merge by taking each duration's highest value.

use std::collections::BTreeMap;

use serde::Serialize;

/// The standard durations of a curve, in seconds: 1 s to 5 h.
pub const STANDARD_DURATIONS: [u32; 34] = [
    1, 2, 3, 5, 10, 15, 20, 30, 45, 60, 90, 120, 180, 240, 300, 360, 420, 480, 600, 720, 900, 1200, 1500,
    1800, 2400, 2700, 3600, 4500, 5400, 7200, 9000, 10_800, 14_400, 18_000,
];

/// Convention of a mean-max curve.
pub const MEAN_MAX_CONVENTION: &str = "mean-max: for each duration, the highest mean of that many consecutive 1 s samples \
     (missing samples count as 0); several activities merge by the highest value per duration";

/// One point of a curve.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct MeanMaxPoint {
    /// The duration, s.
    pub seconds: u32,
    /// The best mean over that duration (W, m/s or bpm, as the series).
    pub value: f64,
    /// Where the best starts in its activity, s from the first sample.
    pub start_second: u32,
}

/// A mean-max curve, shortest duration first; durations longer than the series are absent.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MeanMaxCurve {
    /// The points.
    pub points: Vec<MeanMaxPoint>,
    /// The convention in one sentence ([`MEAN_MAX_CONVENTION`]).
    pub convention: &'static str,
}

impl Default for MeanMaxCurve {
    fn default() -> Self {
        Self { points: Vec::new(), convention: MEAN_MAX_CONVENTION }
    }
}

impl MeanMaxCurve {
    /// The value at `seconds`, when the curve has that duration.
    pub fn at(&self, seconds: u32) -> Option<f64> {
        self.points.iter().find(|p| p.seconds == seconds).map(|p| p.value)
    }
}

/// The mean-max curve of a 1 Hz series at `durations` (e.g. [`STANDARD_DURATIONS`]; any order,
/// 0 and repeats ignored). Convention: [`MEAN_MAX_CONVENTION`].
pub fn mean_max(samples_1hz: &[f64], durations: &[u32]) -> MeanMaxCurve {
    let mut prefix = Vec::with_capacity(samples_1hz.len() + 1);
    let mut sum = 0.0f64;
    prefix.push(0.0);
    for &x in samples_1hz {
        sum += crate::usable(x).unwrap_or(0.0);
        prefix.push(sum);
    }
    let mut wanted: Vec<u32> = durations.iter().copied().filter(|&d| d > 0).collect();
    wanted.sort_unstable();
    wanted.dedup();
    let n = samples_1hz.len();
    let mut points = Vec::with_capacity(wanted.len());
    for seconds in wanted {
        let d = seconds as usize;
        if d > n {
            break;
        }
        let (mut best, mut at) = (f64::NEG_INFINITY, 0usize);
        for (start, window) in prefix.windows(d + 1).enumerate() {
            let total = window[d] - window[0];
            if total > best {
                best = total;
                at = start;
            }
        }
        points.push(MeanMaxPoint {
            seconds,
            value: (best / f64::from(seconds)).max(0.0),
            start_second: u32::try_from(at).unwrap_or(u32::MAX),
        });
    }
    MeanMaxCurve { points, convention: MEAN_MAX_CONVENTION }
}

/// One point of a merged curve, with the curve it came from.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct BestPoint {
    /// The duration, s.
    pub seconds: u32,
    /// The highest value over all curves.
    pub value: f64,
    /// Index, in the input, of the curve that holds it (the earliest on a tie).
    pub source: usize,
}

/// The element-wise maximum of several curves.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct MergedCurve {
    /// Shortest duration first.
    pub points: Vec<BestPoint>,
    /// The convention in one sentence ([`MEAN_MAX_CONVENTION`]).
    pub convention: &'static str,
}

impl MergedCurve {
    /// `(seconds, value)` pairs, e.g. for [`crate::critical_power::critical_power`].
    pub fn pairs(&self) -> Vec<(u32, f64)> {
        self.points.iter().map(|p| (p.seconds, p.value)).collect()
    }
}

/// Merges per-activity curves (e.g. a season's) by the highest value per duration. Values that are
/// not a finite number ≥ 0 are skipped.
pub fn merge_curves<'a>(curves: impl IntoIterator<Item = &'a MeanMaxCurve>) -> MergedCurve {
    let mut best: BTreeMap<u32, BestPoint> = BTreeMap::new();
    for (source, curve) in curves.into_iter().enumerate() {
        for p in &curve.points {
            let Some(value) = crate::usable(p.value) else { continue };
            let entry = best.entry(p.seconds).or_insert(BestPoint { seconds: p.seconds, value, source });
            if value > entry.value {
                *entry = BestPoint { seconds: p.seconds, value, source };
            }
        }
    }
    MergedCurve { points: best.into_values().collect(), convention: MEAN_MAX_CONVENTION }
}

/// The standard running distances: (metres, label).
pub const STANDARD_DISTANCES: [(f64, &str); 7] = [
    (400.0, "400 m"),
    (1000.0, "1 km"),
    (1609.344, "1 mile"),
    (5000.0, "5 km"),
    (10_000.0, "10 km"),
    (21_097.5, "half marathon"),
    (42_195.0, "marathon"),
];

/// Convention of [`BestTime`].
pub const BEST_TIME_CONVENTION: &str = "best time = the shortest time between two points of the recording that are the distance \
     apart (start interpolated linearly between samples); distance made non-decreasing, samples out of time \
     order skipped";

/// The fastest time over one distance within an activity.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BestTime {
    /// The distance's label (e.g. `5 km`).
    pub label: &'static str,
    /// The distance, m.
    pub meters: f64,
    /// The time, s.
    pub seconds: f64,
    /// Where it starts, s from the first sample.
    pub start_second: f64,
}

/// The best times of one recording.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BestTimes {
    /// One per standard distance the recording covers, shortest first.
    pub times: Vec<BestTime>,
    /// The convention in one sentence ([`BEST_TIME_CONVENTION`]).
    pub convention: &'static str,
}

/// Standard cycling distances: (metres, label).
pub const RIDE_DISTANCES: [(f64, &str); 5] =
    [(5000.0, "5 km"), (10_000.0, "10 km"), (20_000.0, "20 km"), (40_000.0, "40 km"), (100_000.0, "100 km")];

/// Standard swimming distances: (metres, label).
pub const SWIM_DISTANCES: [(f64, &str); 5] =
    [(100.0, "100 m"), (200.0, "200 m"), (400.0, "400 m"), (1500.0, "1500 m"), (3800.0, "3800 m")];

/// Every standard distance of the three sports, shortest first, each once (what the history keeps
/// per activity; a tool shows the subset of its sport).
pub fn all_standard_distances() -> Vec<(f64, &'static str)> {
    let mut all: Vec<(f64, &'static str)> =
        STANDARD_DISTANCES.iter().chain(&RIDE_DISTANCES).chain(&SWIM_DISTANCES).copied().collect();
    all.sort_by(|a, b| a.0.total_cmp(&b.0));
    all.dedup_by(|a, b| a.0 == b.0);
    all
}

/// Best times for the [`STANDARD_DISTANCES`] the recording covers, from `(elapsed s, cumulative
/// distance m)` samples. Samples with a non-finite value or a time not after the previous one are
/// skipped; a distance lower than the previous (GPS jitter) is taken as the previous. Convention:
/// [`BEST_TIME_CONVENTION`].
pub fn best_times(time_distance: &[(f64, f64)]) -> BestTimes {
    best_times_over(time_distance, &STANDARD_DISTANCES)
}

/// [`best_times`] over the given `(metres, label)` distances instead of the running ones.
pub fn best_times_over(time_distance: &[(f64, f64)], distances: &[(f64, &'static str)]) -> BestTimes {
    let mut t: Vec<f64> = Vec::with_capacity(time_distance.len());
    let mut d: Vec<f64> = Vec::with_capacity(time_distance.len());
    for &(time, dist) in time_distance {
        if !time.is_finite() || !dist.is_finite() || t.last().is_some_and(|&last| time <= last) {
            continue;
        }
        let dist = d.last().map_or(dist, |&last: &f64| dist.max(last));
        t.push(time);
        d.push(dist);
    }
    let times = distances
        .iter()
        .filter_map(|&(meters, label)| {
            best_over(&t, &d, meters).map(|(seconds, start_second)| BestTime {
                label,
                meters,
                seconds,
                start_second,
            })
        })
        .collect();
    BestTimes { times, convention: BEST_TIME_CONVENTION }
}

/// Convention of [`resample_1hz`].
pub const RESAMPLE_CONVENTION: &str = "rows resampled to 1 Hz on the recording's clock by linear interpolation \
     between neighbouring rows (a row without a value counts as 0)";

/// A series recorded at any rate as `(seconds, value)` rows (Garmin's details: 1 s, smart
/// recording, or thinned), resampled to one value per whole second from the first row's time to
/// the last's. Rows with a non-finite or repeated time are skipped; a missing or bad value is 0
/// (as in [`mean_max`]). Convention: [`RESAMPLE_CONVENTION`]. At most `max_seconds` values.
pub fn resample_1hz(rows: &[(f64, Option<f64>)], max_seconds: usize) -> Vec<f64> {
    let mut pts: Vec<(f64, f64)> = Vec::with_capacity(rows.len());
    for &(t, v) in rows {
        if !t.is_finite() || pts.last().is_some_and(|&(last, _)| t <= last) {
            continue;
        }
        pts.push((t, v.and_then(crate::usable).unwrap_or(0.0)));
    }
    let (Some(&(t0, _)), Some(&(t_end, _))) = (pts.first(), pts.last()) else { return Vec::new() };
    let n = (((t_end - t0).floor() as usize) + 1).min(max_seconds);
    let mut out = Vec::with_capacity(n);
    let mut i = 0usize;
    for s in 0..n {
        let t = t0 + s as f64;
        while i + 1 < pts.len() && pts[i + 1].0 <= t {
            i += 1;
        }
        let (ta, va) = pts[i];
        let value = match pts.get(i + 1) {
            Some(&(tb, vb)) if tb > ta => va + (vb - va) * ((t - ta) / (tb - ta)),
            _ => va,
        };
        out.push(value);
    }
    out
}

/// The shortest time covering `meters`, and its start. `t` strictly increasing, `d` non-decreasing.
fn best_over(t: &[f64], d: &[f64], meters: f64) -> Option<(f64, f64)> {
    let mut best: Option<(f64, f64)> = None;
    let mut i = 0usize;
    for j in 0..t.len() {
        while i + 1 < j && d[j] - d[i + 1] >= meters {
            i += 1;
        }
        if i >= j || d[j] - d[i] < meters {
            continue;
        }
        // d[i] ≤ d[j] − meters < d[i+1]: the exact start lies between samples i and i+1.
        let target = d[j] - meters;
        let start = match (d.get(i + 1), t.get(i + 1)) {
            (Some(&d1), Some(&t1)) if d1 > d[i] => t[i] + (t1 - t[i]) * ((target - d[i]) / (d1 - d[i])),
            _ => t[i],
        };
        let seconds = t[j] - start;
        if best.is_none_or(|(b, _)| seconds < b) {
            best = Some((seconds, start - t[0]));
        }
    }
    best
}
