//! Best efforts over a date range from the history's per-activity curves (computed once at sync,
//! see `history::curves`): the element-wise maximum of the curves with the activity and day that
//! set each point, the best time per standard distance of the sport, and critical power. The
//! formulas live in `analytics`; this layer chooses the sport's distances, names the sources and
//! writes values in the sport's units. Used by `get_best_efforts` and the `mean_max` chart.

use analytics::mean_max::{RIDE_DISTANCES, STANDARD_DISTANCES, SWIM_DISTANCES, merge_curves};
use chrono::NaiveDate;
use history::Metric;
use history::read_curves::ActivityCurve;

use crate::tool_error::ToolError;

/// The sports the tool knows: Garmin's parent type key (children included) and their distances.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sport {
    Running,
    Cycling,
    Swimming,
}

impl Sport {
    /// The `sport` argument (default running).
    pub(crate) fn parse(word: Option<&str>) -> Result<Sport, ToolError> {
        match word.map(str::trim).filter(|w| !w.is_empty()).unwrap_or("running").to_lowercase().as_str() {
            "running" | "run" => Ok(Sport::Running),
            "cycling" | "ride" | "bike" => Ok(Sport::Cycling),
            "swimming" | "swim" => Ok(Sport::Swimming),
            other => Err(ToolError::invalid(format!(
                "sport must be running, cycling or swimming, got `{}`",
                other.chars().take(40).collect::<String>()
            ))),
        }
    }

    /// Garmin's type key (its children count too: trail runs are runs).
    pub(crate) fn type_key(self) -> &'static str {
        match self {
            Sport::Running => "running",
            Sport::Cycling => "cycling",
            Sport::Swimming => "swimming",
        }
    }

    /// The standard distances of the sport.
    pub(crate) fn distances(self) -> &'static [(f64, &'static str)] {
        match self {
            Sport::Running => &STANDARD_DISTANCES,
            Sport::Cycling => &RIDE_DISTANCES,
            Sport::Swimming => &SWIM_DISTANCES,
        }
    }

    /// The metric asked when none is: power for rides, pace otherwise.
    pub(crate) fn default_metric(self) -> Metric {
        if self == Sport::Cycling { Metric::Power } else { Metric::Speed }
    }
}

/// The `metric` argument: `power`, `pace` (kept as speed) or `hr`.
pub(crate) fn parse_metric(word: Option<&str>, sport: Sport) -> Result<Metric, ToolError> {
    match word.map(str::trim).filter(|w| !w.is_empty()).map(str::to_lowercase).as_deref() {
        None => Ok(sport.default_metric()),
        Some("power") => Ok(Metric::Power),
        Some("pace" | "speed") => Ok(Metric::Speed),
        Some("hr" | "heart_rate") => Ok(Metric::HeartRate),
        Some(other) => Err(ToolError::invalid(format!(
            "metric must be power, pace or hr, got `{}`",
            other.chars().take(40).collect::<String>()
        ))),
    }
}

/// The unit word of a metric in a sport (`W`, `/km`, `/100 m`, `km/h`, `bpm`).
pub(crate) fn unit(metric: Metric, sport: Sport) -> &'static str {
    match (metric, sport) {
        (Metric::Power, _) => "W",
        (Metric::HeartRate, _) => "bpm",
        (Metric::Speed, Sport::Running) => "min/km",
        (Metric::Speed, Sport::Swimming) => "min/100 m",
        (Metric::Speed, Sport::Cycling) => "km/h",
    }
}

/// A value of the metric as a person reads it: `312 W`, `4'05"/km`, `1'45"/100 m`, `31.2 km/h`,
/// `171 bpm`.
pub(crate) fn shown(value: f64, metric: Metric, sport: Sport) -> String {
    match (metric, sport) {
        (Metric::Power, _) => format!("{value:.0} W"),
        (Metric::HeartRate, _) => format!("{value:.0} bpm"),
        (Metric::Speed, Sport::Running) => {
            display::pace_per_km(value).map_or("-".to_owned(), |p| format!("{p}/km"))
        }
        (Metric::Speed, Sport::Swimming) => {
            display::pace_per_100m(value).map_or("-".to_owned(), |p| format!("{p}/100 m"))
        }
        (Metric::Speed, Sport::Cycling) => format!("{} km/h", display::kmh_text(value)),
    }
}

/// One point of a range's best curve and where it was set.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct BestPoint {
    pub seconds: u32,
    pub value: f64,
    pub activity_id: u64,
    pub date: NaiveDate,
}

/// The best time over one distance in a range and where it was set.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct BestTimeAt {
    pub label: &'static str,
    pub meters: f64,
    pub seconds: f64,
    pub activity_id: u64,
    pub date: NaiveDate,
}

/// A range's best efforts.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct RangeBests {
    /// Activities of the sport whose series were reduced.
    pub activities: usize,
    /// Those with a curve of the metric.
    pub with_metric: usize,
    /// The merged curve, shortest duration first.
    pub curve: Vec<BestPoint>,
    /// Best time per standard distance of the sport that some activity covers, shortest first.
    pub best_times: Vec<BestTimeAt>,
}

impl RangeBests {
    /// The value at `seconds`, when the curve has it.
    pub(crate) fn at(&self, seconds: u32) -> Option<f64> {
        self.curve.iter().find(|p| p.seconds == seconds).map(|p| p.value)
    }

    /// `(seconds, value)` pairs (for the CP fit and the chart).
    pub(crate) fn pairs(&self) -> Vec<(u32, f64)> {
        self.curve.iter().map(|p| (p.seconds, p.value)).collect()
    }
}

/// The best efforts of `curves` (one range's activities of one sport): element-wise maximum of
/// the curves (the earliest activity on a tie) and the fastest time per distance of `sport`.
pub(crate) fn range_bests(curves: &[ActivityCurve], sport: Sport) -> RangeBests {
    let with: Vec<&ActivityCurve> = curves.iter().filter(|c| !c.curve.points.is_empty()).collect();
    let merged = merge_curves(with.iter().map(|c| &c.curve));
    let curve = merged
        .points
        .iter()
        .filter_map(|p| {
            let source = with.get(p.source)?;
            Some(BestPoint {
                seconds: p.seconds,
                value: p.value,
                activity_id: source.activity_id,
                date: source.date,
            })
        })
        .collect();
    let best_times = sport
        .distances()
        .iter()
        .filter_map(|&(meters, label)| {
            curves
                .iter()
                .flat_map(|c| c.best_times.times.iter().map(move |t| (c, t)))
                .filter(|(_, t)| t.meters == meters && t.seconds.is_finite() && t.seconds > 0.0)
                .min_by(|a, b| a.1.seconds.total_cmp(&b.1.seconds))
                .map(|(c, t)| BestTimeAt {
                    label,
                    meters,
                    seconds: t.seconds,
                    activity_id: c.activity_id,
                    date: c.date,
                })
        })
        .collect();
    RangeBests { activities: curves.len(), with_metric: with.len(), curve, best_times }
}

#[cfg(test)]
mod tests {
    use super::*;
    use analytics::mean_max::{BestTime, BestTimes, MeanMaxCurve, MeanMaxPoint};

    fn activity(id: u64, day: u32, points: &[(u32, f64)], five_k: Option<f64>) -> ActivityCurve {
        ActivityCurve {
            activity_id: id,
            date: NaiveDate::from_ymd_opt(2026, 6, day).unwrap(),
            name: None,
            type_key: Some("running".into()),
            curve: MeanMaxCurve {
                points: points
                    .iter()
                    .map(|&(seconds, value)| MeanMaxPoint { seconds, value, start_second: 0 })
                    .collect(),
                ..MeanMaxCurve::default()
            },
            best_times: BestTimes {
                times: five_k
                    .map(|s| BestTime { label: "5 km", meters: 5000.0, seconds: s, start_second: 0.0 })
                    .into_iter()
                    .collect(),
                convention: "",
            },
        }
    }

    #[test]
    fn the_range_curve_is_the_highest_value_per_duration_with_the_activity_that_set_it() {
        let curves = [
            activity(1, 1, &[(1, 300.0), (60, 250.0)], Some(1300.0)),
            activity(2, 2, &[(1, 280.0), (60, 260.0), (300, 240.0)], Some(1250.0)),
            activity(3, 3, &[], None),
        ];
        let bests = range_bests(&curves, Sport::Running);
        let got: Vec<(u32, f64, u64)> =
            bests.curve.iter().map(|p| (p.seconds, p.value, p.activity_id)).collect();
        assert_eq!(got, [(1, 300.0, 1), (60, 260.0, 2), (300, 240.0, 2)]);
        assert_eq!((bests.activities, bests.with_metric), (3, 2));
        assert_eq!(bests.best_times.len(), 1);
        assert_eq!((bests.best_times[0].seconds, bests.best_times[0].activity_id), (1250.0, 2));
        assert_eq!(range_bests(&[], Sport::Cycling), RangeBests::default());
    }

    #[test]
    fn values_are_written_in_the_sports_units() {
        assert_eq!(shown(312.4, Metric::Power, Sport::Cycling), "312 W");
        assert_eq!(shown(4.0, Metric::Speed, Sport::Running), "4'10\"/km");
        assert_eq!(shown(10.0, Metric::Speed, Sport::Cycling), "36.0 km/h");
        assert!(parse_metric(Some("watts"), Sport::Running).is_err());
        assert_eq!(parse_metric(None, Sport::Cycling).unwrap(), Metric::Power);
        assert!(Sport::parse(Some("rowing")).unwrap_err().message().contains("running, cycling or swimming"));
    }
}
