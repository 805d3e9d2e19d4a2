//! An activity's recorded series reduced to what the best-effort analytics need: mean-max curves
//! of power, speed and heart rate on [`STANDARD_DURATIONS`] and best times over every standard
//! distance it covers. The series itself (Garmin's `details` body) is read once at sync and
//! dropped (see `schema.rs` for the size decision); with only a Personal API key the series is the
//! activity's original FIT file, shaped as the same rows by `garmin::fit_series`.
//!
//! Convention: rows are put on the timer clock ([`ActivityDetails::elapsed_seconds`]) and
//! resampled to 1 Hz ([`resample_1hz`]); speed is Garmin's recorded speed channel; a metric whose
//! series never rises above 0 (no power meter, a pool swim's empty speed channel) gets no curve.

use analytics::mean_max::{
    BestTimes, MeanMaxCurve, STANDARD_DURATIONS, all_standard_distances, best_times_over, mean_max,
    resample_1hz,
};
use garmin::models::activities::ActivityDetails;
#[cfg(test)]
use serde_json::Value;

/// Longest series reduced, s (a day).
const MAX_SECONDS: usize = 86_400;

/// What an activity's curves are of, as stored in `activity_curves.metric`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Metric {
    /// Power, W (`directPower`).
    Power,
    /// Speed, m/s (`directSpeed`, else `directEnhancedSpeed`); pace is its reciprocal.
    Speed,
    /// Heart rate, bpm (`directHeartRate`).
    HeartRate,
}

impl Metric {
    /// Every metric.
    pub const ALL: [Metric; 3] = [Metric::Power, Metric::Speed, Metric::HeartRate];

    /// The stored key.
    pub fn key(self) -> &'static str {
        match self {
            Metric::Power => "power",
            Metric::Speed => "speed",
            Metric::HeartRate => "hr",
        }
    }

    fn columns(self) -> &'static [&'static str] {
        match self {
            Metric::Power => &["directPower"],
            Metric::Speed => &["directSpeed", "directEnhancedSpeed"],
            Metric::HeartRate => &["directHeartRate"],
        }
    }
}

/// The curves and best times of one activity.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Reduced {
    pub curves: Vec<(Metric, MeanMaxCurve)>,
    pub best: Option<BestTimes>,
}

/// Reduces Garmin's `details` body (either form) as JSON to curves and best times (the sync gets
/// the rows typed from the reader; the tests write bodies as JSON).
#[cfg(test)]
pub(crate) fn reduce(raw: &Value) -> Reduced {
    match <ActivityDetails as serde::Deserialize>::deserialize(raw) {
        Ok(details) => reduce_details(&details),
        Err(_) => Reduced::default(),
    }
}

/// Reduces an activity's chart rows (Garmin's, or the FIT file's as
/// `garmin::fit_series::FitSeries::details` shapes them) to curves and best times.
pub(crate) fn reduce_details(details: &ActivityDetails) -> Reduced {
    let time = details.elapsed_seconds();
    let mut out = Reduced::default();
    for metric in Metric::ALL {
        let Some(values) = metric
            .columns()
            .iter()
            .map(|k| details.values_si(k))
            .find(|v| v.iter().flatten().any(|x| x.is_finite() && *x > 0.0))
        else {
            continue;
        };
        let rows: Vec<(f64, Option<f64>)> =
            time.iter().zip(&values).filter_map(|(t, v)| Some(((*t)?, *v))).collect();
        let series = resample_1hz(&rows, MAX_SECONDS);
        let curve = mean_max(&series, &STANDARD_DURATIONS);
        if !curve.points.is_empty() {
            out.curves.push((metric, curve));
        }
    }
    let distance = details.values_si("sumDistance");
    let pairs: Vec<(f64, f64)> =
        time.iter().zip(&distance).filter_map(|(t, d)| Some(((*t)?, (*d)?))).collect();
    let best = best_times_over(&pairs, &all_standard_distances());
    if !best.times.is_empty() {
        out.best = Some(best);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn details(rows: &[[Option<f64>; 4]]) -> Value {
        let rows: Vec<Value> = rows.iter().map(|r| json!({"metrics": r})).collect();
        json!({
            "activityId": 1,
            "metricDescriptors": [
                {"metricsIndex": 0, "key": "sumDuration", "unit": {"key": "second"}},
                {"metricsIndex": 1, "key": "directPower", "unit": {"key": "watt"}},
                {"metricsIndex": 2, "key": "sumDistance", "unit": {"key": "meter"}},
                {"metricsIndex": 3, "key": "directHeartRate", "unit": {"key": "bpm"}}
            ],
            "activityDetailMetrics": rows
        })
    }

    #[test]
    fn a_two_row_recording_gives_hand_computed_curves_and_no_speed_curve_without_a_speed_channel() {
        // 0 s: 100 W, 0 m, 120 bpm; 10 s: 300 W, 50 m, 140 bpm → 1 Hz: 100,120,…,300 W.
        let raw = details(&[
            [Some(0.0), Some(100.0), Some(0.0), Some(120.0)],
            [Some(10.0), Some(300.0), Some(50.0), Some(140.0)],
        ]);
        let r = reduce(&raw);
        let metrics: Vec<Metric> = r.curves.iter().map(|c| c.0).collect();
        assert_eq!(metrics, [Metric::Power, Metric::HeartRate]);
        let power = &r.curves[0].1;
        assert_eq!(power.at(1), Some(300.0));
        // The best 10 s: 120..=300 → (120+300)/2 = 210 W.
        assert_eq!(power.at(10), Some(210.0));
        assert_eq!(power.at(15), None, "longer than the recording");
        assert!(r.best.is_none(), "50 m is shorter than every standard distance");
    }

    #[test]
    fn a_body_that_is_not_details_gives_nothing_rather_than_an_error() {
        assert_eq!(reduce(&json!({"unexpected": true})), Reduced::default());
        assert_eq!(reduce(&json!([1, 2])), Reduced::default());
        let no_power =
            details(&[[Some(0.0), None, Some(0.0), None], [Some(5.0), Some(0.0), Some(10.0), None]]);
        assert!(reduce(&no_power).curves.is_empty());
    }
}
