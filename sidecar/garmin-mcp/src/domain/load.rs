//! Training load as a coach reads it. The acute:chronic workload ratio's bands are computed in one
//! place, `analytics::acwr::AcwrBand` (< 0.8, 0.8–1.3, 1.3–1.5, > 1.5); here each band has its words
//! once ([`band_words`]), for the training answer, the load balance and the load chart. The load
//! chart's rolling acute and chronic lines are analytics' rolling series ([`rolling_loads`]).

use analytics::acwr::{AcwrBand, acute_chronic};
use analytics::daily::DailyLoad;
use chrono::{Duration, NaiveDate};

/// Days of the acute load.
pub const ACUTE_DAYS: i64 = analytics::acwr::ACUTE_DAYS as i64;
/// Days of the chronic load (the acute week included).
pub const CHRONIC_DAYS: i64 = analytics::acwr::CHRONIC_DAYS as i64;

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
/// coupled sums, rest days 0: `analytics::acwr`), from `(day, load)` pairs; loads that are not
/// finite and positive count as 0. Pairs before `start` warm the lines up: give [`CHRONIC_DAYS`]
/// − 1 days of them.
pub fn rolling_loads(
    loads: impl IntoIterator<Item = (NaiveDate, f64)>,
    start: NaiveDate,
    end: NaiveDate,
) -> Vec<RollingLoad> {
    // The series starts a chronic window before `start`, so every shown day has its rolling lines.
    let anchor = start - Duration::days(CHRONIC_DAYS - 1);
    let mut daily: Vec<DailyLoad> = loads
        .into_iter()
        .filter(|(day, _)| (anchor..=end).contains(day))
        .map(|(date, load)| DailyLoad { date, load: if load > 0.0 { load } else { 0.0 } })
        .collect();
    daily.push(DailyLoad { date: anchor, load: 0.0 });
    let series = match acute_chronic(&daily, Some(end)) {
        Ok(series) => series,
        Err(e) => {
            tracing::warn!("the rolling loads could not be computed: {e}");
            return Vec::new();
        }
    };
    series
        .days
        .iter()
        .filter(|d| d.date >= start)
        .filter_map(|d| {
            let rolling = d.rolling?;
            Some(RollingLoad { date: d.date, load: d.load, acute: rolling.acute, chronic: rolling.chronic })
        })
        .collect()
}

/// Acute ÷ chronic load, two decimals.
pub fn acwr(acute: f64, chronic: f64) -> f64 {
    (acute / chronic * 100.0).round() / 100.0
}

/// How an ACWR band reads in answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BandWords {
    /// Its key (`get_load_balance`'s `rolling_band` and `ewma_band`): `under`, `productive`,
    /// `caution`, `high_risk`.
    pub key: &'static str,
    /// Its word in the training status (`acwr_band`) and the load chart: `low`, `optimal`,
    /// `high`, `very high`.
    pub word: &'static str,
    /// What it means for the athlete.
    pub meaning: &'static str,
}

/// The words of an ACWR band: the one table every answer reads them from.
pub fn band_words(band: AcwrBand) -> BandWords {
    let (key, word, meaning) = match band {
        AcwrBand::Under => (
            "under",
            "low",
            "load below your usual: fine for recovery or tapering, fitness fades if it lasts",
        ),
        AcwrBand::Productive => {
            ("productive", "optimal", "load in the optimal range for your fitness: not overtraining")
        }
        AcwrBand::Caution => {
            ("caution", "high", "load rising faster than your fitness: watch recovery, don't add more")
        }
        AcwrBand::HighRisk => (
            "high_risk",
            "very high",
            "load far above what you are used to: overreaching, high injury and overtraining risk; ease off",
        ),
    };
    BandWords { key, word, meaning }
}

/// The ACWR band of `ratio` (`analytics`' thresholds) and what it means; a ratio no band holds (not
/// a number, below 0) reads as the lowest.
pub fn acwr_band(ratio: f64) -> (&'static str, &'static str) {
    let words = band_words(AcwrBand::of(ratio).unwrap_or(AcwrBand::Under));
    (words.word, words.meaning)
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
    fn each_band_has_its_key_word_and_meaning_once() {
        use analytics::acwr::AcwrBand;
        let all = [AcwrBand::Under, AcwrBand::Productive, AcwrBand::Caution, AcwrBand::HighRisk];
        let keys: Vec<&str> = all.iter().map(|b| band_words(*b).key).collect();
        assert_eq!(keys, ["under", "productive", "caution", "high_risk"]);
        let words: Vec<&str> = all.iter().map(|b| band_words(*b).word).collect();
        assert_eq!(words, ["low", "optimal", "high", "very high"]);
        // The training answer's words follow analytics' thresholds through the same table.
        for ratio in [0.5, 0.8, 1.3, 1.31, 1.5, 1.51, 3.0] {
            let band = AcwrBand::of(ratio).unwrap();
            assert_eq!(acwr_band(ratio), (band_words(band).word, band_words(band).meaning), "{ratio}");
        }
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
