//! Number helpers of the `health` toolset: one decimal, kilograms from grams, and reading back the
//! `h:mm` durations that `display::duration_hm` writes.

pub(super) fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// Kilograms (one decimal) from grams.
pub(super) fn kg(grams: f64) -> f64 {
    round1(grams / 1000.0)
}

pub(super) fn parse_hm(text: &str) -> Option<f64> {
    let (h, m) = text.split_once(':')?;
    Some(h.parse::<f64>().ok()? * 3600.0 + m.parse::<f64>().ok()? * 60.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::words::{thousands, whole, words};

    #[test]
    fn helpers_format_like_people_write() {
        assert_eq!(parse_hm(&display::duration_hm(27_120.0)), Some(27_120.0));
        assert_eq!(parse_hm("7:32"), Some(27_120.0));
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(999), "999");
        assert_eq!(words("STAGE_1_HIGH"), "stage 1 high");
        assert_eq!(whole(-1.0), None);
    }
}
