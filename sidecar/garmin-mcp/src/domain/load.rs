//! Training load as a coach reads it: the acute:chronic workload ratio (ACWR) and its bands, for
//! the training answer and the load chart.

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
}
