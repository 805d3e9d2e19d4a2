//! The spec's small text formats: paces (`"5:00"`, `"8:00/mi"`, `"4:50-5:10"`), number ranges
//! (`"150-165"`), and how the canonical form writes them back (through `display`); plus the rounding that keeps a
//! spec equal to itself after a trip through Garmin's m/s.

use crate::models::units::METERS_PER_MILE;

/// Rounds to hundredths: the precision the spec keeps for seconds, metres and km/h, so values
/// survive conversion to Garmin's units and back unchanged.
pub(crate) fn hundredths(value: f64) -> f64 {
    (value * 100.0).round() / 100.0
}

/// The unit a pace text was written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PaceUnit {
    /// No suffix: per km (runs, rides), per 100 m (swims).
    Default,
    /// `/km`.
    Km,
    /// `/mi`.
    Mile,
    /// `/100m`.
    Hundred,
}

/// Reads `m:ss`, `m:ss.f` or `h:mm:ss` (seconds below 60) with an optional unit suffix; returns
/// seconds and the unit. `None` when it is not a pace.
pub(crate) fn parse_pace(text: &str) -> Option<(f64, PaceUnit)> {
    let text = text.trim().to_ascii_lowercase();
    let (clock, unit) = match text.split_once('/') {
        None => (text.as_str(), PaceUnit::Default),
        Some((clock, unit)) => {
            let unit = match unit.trim().replace(' ', "").as_str() {
                "km" => PaceUnit::Km,
                "mi" | "mile" => PaceUnit::Mile,
                "100m" => PaceUnit::Hundred,
                _ => return None,
            };
            (clock, unit)
        }
    };
    let clock = clock.trim().trim_end_matches("min").trim();
    let parts: Vec<&str> = clock.split(':').collect();
    if !(2..=3).contains(&parts.len()) {
        return None;
    }
    let mut seconds = 0.0;
    for (i, part) in parts.iter().enumerate() {
        let last = i == parts.len() - 1;
        if part.is_empty() || !part.chars().all(|c| c.is_ascii_digit() || (last && c == '.')) {
            return None;
        }
        let value: f64 = part.parse().ok()?;
        if i > 0 && value >= 60.0 {
            return None;
        }
        seconds = seconds * 60.0 + value;
    }
    seconds.is_finite().then_some((seconds, unit))
}

/// Splits a range `"a-b"` (also `–`, `—` or ` to `) into its two sides.
pub(crate) fn split_range(text: &str) -> Option<(&str, &str)> {
    let text = text.trim();
    for separator in ["-", "–", "—", " to "] {
        if let Some((a, b)) = text.split_once(separator) {
            let (a, b) = (a.trim(), b.trim());
            if !a.is_empty() && !b.is_empty() && !b.contains(separator) {
                return Some((a, b));
            }
        }
    }
    None
}

/// Seconds per pace distance (km, or 100 m in swims) of a pace written in `unit`; `None` when the
/// unit does not fit the sport (`/100m` in a run, `/km` in a swim).
pub(crate) fn to_sport_unit(seconds: f64, unit: PaceUnit, swim: bool) -> Option<f64> {
    match (unit, swim) {
        (PaceUnit::Default, _) | (PaceUnit::Km, false) | (PaceUnit::Hundred, true) => Some(seconds),
        (PaceUnit::Mile, false) => Some(seconds * 1000.0 / METERS_PER_MILE),
        (PaceUnit::Km | PaceUnit::Mile, true) | (PaceUnit::Hundred, false) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paces_read_with_and_without_units() {
        assert_eq!(parse_pace("5:00"), Some((300.0, PaceUnit::Default)));
        assert_eq!(parse_pace(" 4:58.5 /km"), Some((298.5, PaceUnit::Km)));
        assert_eq!(parse_pace("8:00/mi"), Some((480.0, PaceUnit::Mile)));
        assert_eq!(parse_pace("1:45/100 m"), Some((105.0, PaceUnit::Hundred)));
        for bad in ["5", "5:60", "5:0x", ":30", "5:00/yd", "1:2:3:4", "-5:00", "5:00:"] {
            assert_eq!(parse_pace(bad), None, "{bad}");
        }
    }

    #[test]
    fn clocks_round_trip() {
        for seconds in [300.0, 298.26, 298.5, 59.99, 3725.0] {
            let (back, _) = parse_pace(&display::pace(seconds, display::PaceStyle::Precise)).unwrap();
            assert!(
                (back - seconds).abs() < 1e-9,
                "{seconds} -> {}",
                display::pace(seconds, display::PaceStyle::Precise)
            );
        }
    }

    #[test]
    fn ranges_split_on_dashes() {
        assert_eq!(split_range("4:50-5:10"), Some(("4:50", "5:10")));
        assert_eq!(split_range("150 – 165"), Some(("150", "165")));
        assert_eq!(split_range("150 to 165"), Some(("150", "165")));
        assert_eq!(split_range("150"), None);
        assert_eq!(split_range("1-2-3"), None);
    }
}
