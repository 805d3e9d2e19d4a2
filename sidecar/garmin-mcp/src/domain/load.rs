//! Training load as a coach reads it: the acute:chronic workload ratio (ACWR) and its bands, for
//! the training answer and the load chart, and the load chart's rolling acute and chronic lines.

use std::collections::BTreeMap;

use chrono::{Duration, NaiveDate};

/// Days of the acute load.
pub const ACUTE_DAYS: i64 = 7;
/// Days of the chronic load (the acute week included).
pub const CHRONIC_DAYS: i64 = 28;

/// One day's load with the rolling lines ending on it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RollingLoad {
    /// The day.
    pub date: NaiveDate,
    /// The sum of its activities' loads.
    pub load: f64,
    /// The sum of the last [`ACUTE_DAYS`] days' loads, this one included.
    pub acute: f64,
    /// The sum of the last [`CHRONIC_DAYS`] days' loads ÷ 4 (a week's worth), this one included.
    pub chronic: f64,
}

/// Each day from `start` to `end` with its load and the rolling acute and chronic loads (Gabbett's
/// coupled sums, rest days 0), from `(day, load)` pairs; loads that are not finite and positive
/// count as 0. Pairs before `start` warm the lines up: give [`CHRONIC_DAYS`] − 1 days of them.
pub fn rolling_loads(
    loads: impl IntoIterator<Item = (NaiveDate, f64)>,
    start: NaiveDate,
    end: NaiveDate,
) -> Vec<RollingLoad> {
    let mut by_day: BTreeMap<NaiveDate, f64> = BTreeMap::new();
    for (day, load) in loads {
        *by_day.entry(day).or_default() += if load.is_finite() && load > 0.0 { load } else { 0.0 };
    }
    let load_on = |d: NaiveDate| by_day.get(&d).copied().unwrap_or(0.0);
    let sum_back = |d: NaiveDate, n: i64| (0..n).map(|i| load_on(d - Duration::days(i))).sum::<f64>();
    let mut days = Vec::new();
    let mut day = start;
    while day <= end {
        days.push(RollingLoad {
            date: day,
            load: load_on(day),
            acute: sum_back(day, ACUTE_DAYS),
            chronic: sum_back(day, CHRONIC_DAYS) / (CHRONIC_DAYS / ACUTE_DAYS) as f64,
        });
        day += Duration::days(1);
    }
    days
}

/// Acute ÷ chronic load, two decimals.
pub fn acwr(acute: f64, chronic: f64) -> f64 {
    (acute / chronic * 100.0).round() / 100.0
}

/// The ACWR band and what it means.
pub fn acwr_band(ratio: f64) -> (&'static str, &'static str) {
    if ratio < 0.8 {
        ("low", "load below your usual: fine for recovery or tapering, fitness fades if it lasts")
    } else if ratio <= 1.3 {
        ("optimal", "load in the optimal range for your fitness: not overtraining")
    } else if ratio <= 1.5 {
        ("high", "load rising faster than your fitness: watch recovery, don't add more")
    } else {
        (
            "very high",
            "load far above what you are used to: overreaching, high injury and overtraining risk; ease off",
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acwr_bands_follow_the_usual_thresholds() {
        assert_eq!(acwr_band(0.79).0, "low");
        assert_eq!(acwr_band(0.8).0, "optimal");
        assert_eq!(acwr_band(1.3).0, "optimal");
        assert_eq!(acwr_band(1.31).0, "high");
        assert_eq!(acwr_band(1.5).0, "high");
        assert_eq!(acwr_band(1.51).0, "very high");
        assert_eq!(acwr(612.0, 540.0), 1.13);
    }

    #[test]
    fn rolling_loads_sum_the_last_week_and_a_quarter_of_the_last_four_weeks() {
        let d = |s: &str| NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap();
        // 100 on each of the 28 days up to 2026-11-30, two activities on its last day, one bad load.
        let mut loads: Vec<(NaiveDate, f64)> =
            (0..28).map(|i| (d("2026-11-30") - Duration::days(i), 100.0)).collect();
        loads.extend([(d("2026-11-30"), 50.0), (d("2026-11-29"), f64::NAN), (d("2026-10-01"), 999.0)]);
        let days = rolling_loads(loads, d("2026-11-29"), d("2026-12-01"));
        assert_eq!(days.len(), 3, "one entry per day, both ends included");
        assert_eq!(days[0].load, 100.0, "a load that is not a number counts as 0");
        assert_eq!(days[1].load, 150.0, "a day's activities add up");
        assert_eq!(days[1].acute, 750.0);
        assert_eq!(days[1].chronic, (28.0 * 100.0 + 50.0) / 4.0, "a load 60 days back is outside the window");
        assert_eq!(
            days[2],
            RollingLoad { date: d("2026-12-01"), load: 0.0, acute: 650.0, chronic: 2750.0 / 4.0 }
        );
    }
}
