//! Numbers as people read them, written in one place for the whole workspace: durations
//! (`1:02:04`, `37:03`, `0:44:00`, `7:32`, `7 h 32 min`), paces (`5'12"`, `5:12`, `4:58.26`),
//! distances (`12.35`, `21.10 km`, `800 m`, `7.2 km`), speeds (`28.4`), plain numbers (`800`,
//! `1.5`, `12,345`) and Garmin's keys as words (`HR_MAX_BASED` → `hr max based`).
//!
//! Text from outside (names, facts, client names) is cleaned for people to read in [`text`], the
//! one home of that cleaner.
//!
//! It is a leaf: no Garmin, no MCP, no charts. The Garmin client's workout previews, the MCP
//! tools' answers and the charts' labels all format through it, so a pace or a time reads the same
//! wherever it is shown.
//!
//! **Bad input** has one behaviour everywhere: a value that is not a number (NaN), infinite,
//! negative, or too large to be a real measurement (a duration or pace of [`LARGEST`] seconds or
//! more, some 31 years) is written as [`MISSING`] (`-`), never as a made-up `0:00` and never as a
//! panic. Helpers that convert a speed into a pace return `None` instead, so the caller can leave
//! the field out.

pub mod text;

/// What a formatter writes for a value it cannot show (NaN, infinite, negative, absurdly large).
pub const MISSING: &str = "-";

/// The first number of seconds too large to be a real duration or pace (1e9 s, about 31.7 years);
/// it and anything above it are written as [`MISSING`].
pub const LARGEST: f64 = 1e9;

/// Metres in a statute mile.
pub const METERS_PER_MILE: f64 = 1609.344;

/// Whole seconds of a duration or pace, rounded to the nearest; `None` for bad input.
fn whole_seconds(seconds: f64) -> Option<u64> {
    (0.0..LARGEST).contains(&seconds).then(|| seconds.round() as u64)
}

// ---------------------------------------------------------------------------------------------
// durations

/// A duration as `m:ss` under an hour and `h:mm:ss` from an hour on (`37:03`, `1:02:04`),
/// rounded to the second.
pub fn duration(seconds: f64) -> String {
    let Some(total) = whole_seconds(seconds) else { return MISSING.to_owned() };
    let (h, m, s) = (total / 3600, total % 3600 / 60, total % 60);
    if h > 0 { format!("{h}:{m:02}:{s:02}") } else { format!("{m}:{s:02}") }
}

/// A duration always as `h:mm:ss` (`0:44:00`), the form workout totals use.
pub fn duration_hms(seconds: f64) -> String {
    let Some(total) = whole_seconds(seconds) else { return MISSING.to_owned() };
    format!("{}:{:02}:{:02}", total / 3600, total % 3600 / 60, total % 60)
}

/// A duration as `h:mm`, rounded to the minute (`7:32` of sleep, `2:15` on a time axis).
pub fn duration_hm(seconds: f64) -> String {
    let Some(total) = whole_seconds(seconds / 60.0) else { return MISSING.to_owned() };
    format!("{}:{:02}", total / 60, total % 60)
}

/// A duration in words, rounded to the minute: `7 h 32 min`, `45 min`, `2 h`.
pub fn hours_minutes(seconds: f64) -> String {
    let Some(total) = whole_seconds(seconds / 60.0) else { return MISSING.to_owned() };
    match (total / 60, total % 60) {
        (0, m) => format!("{m} min"),
        (h, 0) => format!("{h} h"),
        (h, m) => format!("{h} h {m} min"),
    }
}

// ---------------------------------------------------------------------------------------------
// paces

/// How a pace is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PaceStyle {
    /// `5'12"`: minutes and seconds the way runners write a pace (answers, workout previews).
    Quotes,
    /// `5:12`: a clock (chart axes and labels).
    Colon,
    /// `4:58.26`: a clock with hundredths only when there are any (`5:00`, `4:58.5`), so a pace
    /// written back into a workout spec reads back to the same value.
    Precise,
}

/// A pace in seconds per unit (per km, per mile, per 100 m) in `style`; the unit is the
/// caller's to add (`/km`, `/100 m`).
pub fn pace(seconds_per_unit: f64, style: PaceStyle) -> String {
    match style {
        PaceStyle::Quotes | PaceStyle::Colon => {
            let Some(total) = whole_seconds(seconds_per_unit) else { return MISSING.to_owned() };
            let (m, s) = (total / 60, total % 60);
            if style == PaceStyle::Quotes { format!("{m}'{s:02}\"") } else { format!("{m}:{s:02}") }
        }
        PaceStyle::Precise => {
            let Some(hundredths) = whole_seconds(seconds_per_unit * 100.0) else {
                return MISSING.to_owned();
            };
            let (whole, fraction) = (hundredths / 100, hundredths % 100);
            let (m, s) = (whole / 60, whole % 60);
            if fraction == 0 {
                format!("{m}:{s:02}")
            } else if fraction % 10 == 0 {
                format!("{m}:{s:02}.{}", fraction / 10)
            } else {
                format!("{m}:{s:02}.{fraction:02}")
            }
        }
    }
}

/// The slowest speed that still has a pace worth writing (0.3 m/s, some 55 minutes per km); a
/// slower one is a standstill.
pub const SLOWEST_PACED_SPEED: f64 = 0.3;

/// Pace per km from a speed in m/s, as `5'12"`; `None` for a standstill (under
/// [`SLOWEST_PACED_SPEED`]) or bad input.
pub fn pace_per_km(meters_per_second: f64) -> Option<String> {
    (meters_per_second.is_finite() && meters_per_second >= SLOWEST_PACED_SPEED)
        .then(|| pace(1000.0 / meters_per_second, PaceStyle::Quotes))
}

/// Pace per 100 m (swimming) from a speed in m/s, as `1'45"`; `None` for a standstill (under a
/// tenth of [`SLOWEST_PACED_SPEED`]) or bad input.
pub fn pace_per_100m(meters_per_second: f64) -> Option<String> {
    pace_per_km(meters_per_second * 10.0)
}

// ---------------------------------------------------------------------------------------------
// distances, speeds and plain numbers

/// Kilometres from metres as a number with two decimals (`12_345.0` → `12.35`), for structured
/// answers whose field name carries the unit.
pub fn km(meters: f64) -> f64 {
    (meters / 10.0).round() / 100.0
}

/// Kilometres from metres as text with two decimals and the unit: `21.10 km`.
pub fn km_text(meters: f64) -> String {
    if !meters.is_finite() || meters < 0.0 {
        return MISSING.to_owned();
    }
    format!("{:.2} km", meters / 1000.0)
}

/// A distance as a workout step states it: metres under 1 km or when `metres_only` (swims),
/// else km with up to two decimals (`800 m`, `1500 m`, `1.5 km`, `2 km`).
pub fn distance(meters: f64, metres_only: bool) -> String {
    if !meters.is_finite() || meters < 0.0 {
        return MISSING.to_owned();
    }
    if metres_only || meters < 1000.0 {
        format!("{} m", number(meters))
    } else {
        format!("{} km", number(meters / 1000.0))
    }
}

/// A distance as a rounded total: whole metres under 1 km or when `metres_only` (swims), else km
/// with one decimal (`720 m`, `1900 m`, `7.2 km`).
pub fn distance_rounded(meters: f64, metres_only: bool) -> String {
    if !meters.is_finite() || meters < 0.0 {
        return MISSING.to_owned();
    }
    if metres_only || meters < 1000.0 {
        format!("{} m", meters.round())
    } else {
        format!("{:.1} km", meters / 1000.0)
    }
}

/// Speed in km/h from m/s as a number with one decimal (`10.0` → `36.0`).
pub fn kmh(meters_per_second: f64) -> f64 {
    (meters_per_second * 36.0).round() / 10.0
}

/// Speed in km/h from m/s as text with one decimal, no unit (`7.0` → `25.2`), for ranges like
/// `25.2-30.6 km/h`.
pub fn kmh_text(meters_per_second: f64) -> String {
    if !meters_per_second.is_finite() || meters_per_second < 0.0 {
        return MISSING.to_owned();
    }
    format!("{:.1}", kmh(meters_per_second))
}

/// A number rounded to hundredths and written without a trailing `.0` (`800`, `1.5`, `0.75`);
/// [`MISSING`] when it is not finite.
pub fn number(value: f64) -> String {
    if !value.is_finite() {
        return MISSING.to_owned();
    }
    let rounded = (value * 100.0).round() / 100.0;
    if rounded.fract() == 0.0 && rounded.abs() < 1e15 {
        format!("{}", rounded as i64)
    } else {
        format!("{rounded}")
    }
}

/// A value with as many decimals as its size needs (`312`, `42`, `5.3`, `0.75`), for chart axes
/// and labels; [`MISSING`] when it is not finite.
pub fn amount(value: f64) -> String {
    let a = value.abs();
    if !a.is_finite() {
        MISSING.to_owned()
    } else if a == 0.0 {
        "0".to_owned()
    } else if a >= 100.0 {
        format!("{value:.0}")
    } else if a >= 1.0 {
        let r = format!("{value:.1}");
        r.strip_suffix(".0").map(str::to_owned).unwrap_or(r)
    } else {
        format!("{value:.2}")
    }
}

/// A whole number grouped by thousands: `1,234,567`, `-12,345`, `999`.
pub fn thousands(n: impl Into<i128>) -> String {
    let n: i128 = n.into();
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0 { format!("-{out}") } else { out }
}

// ---------------------------------------------------------------------------------------------
// Garmin's keys as words

/// A key as words: `HR_MAX_BASED` → `hr max based`, `lap_swimming` → `lap swimming`,
/// `pace.zone` → `pace zone`.
pub fn words(key: &str) -> String {
    key.trim().replace(['_', '.'], " ").to_lowercase()
}

/// The text with its first letter in upper case: `backcountry skiing` → `Backcountry skiing`.
pub fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().collect::<String>() + chars.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    const BAD: [f64; 5] = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -1.0, LARGEST];

    #[test]
    fn durations_drop_the_hour_under_an_hour_and_round_to_the_second() {
        assert_eq!(duration(2223.327), "37:03");
        assert_eq!(duration(3723.6), "1:02:04");
        assert_eq!(duration(3725.4), "1:02:05");
        assert_eq!(duration(59.6), "1:00");
        assert_eq!(duration(0.0), "0:00");
        assert_eq!(duration(LARGEST - 1.0), "277777:46:39");
    }

    #[test]
    fn totals_always_show_the_hour_and_sleep_rounds_to_the_minute() {
        assert_eq!(duration_hms(2640.0), "0:44:00");
        assert_eq!(duration_hms(36_000.4), "10:00:00");
        assert_eq!(duration_hm(27_120.0), "7:32");
        assert_eq!(duration_hm(59.0), "0:01");
        assert_eq!(duration_hm(135.0 * 60.0), "2:15");
        assert_eq!(hours_minutes(27_120.0), "7 h 32 min");
        assert_eq!(hours_minutes(2700.0), "45 min");
        assert_eq!(hours_minutes(7200.0), "2 h");
    }

    #[test]
    fn paces_in_each_style() {
        assert_eq!(pace(312.0, PaceStyle::Quotes), "5'12\"");
        assert_eq!(pace(299.4, PaceStyle::Colon), "4:59");
        assert_eq!(pace(59.6, PaceStyle::Colon), "1:00");
        assert_eq!(pace(300.0, PaceStyle::Precise), "5:00");
        assert_eq!(pace(298.5, PaceStyle::Precise), "4:58.5");
        assert_eq!(pace(298.26, PaceStyle::Precise), "4:58.26");
        assert_eq!(pace(59.999, PaceStyle::Precise), "1:00");
    }

    #[test]
    fn paces_from_speeds_leave_out_standstills() {
        assert_eq!(pace_per_km(1000.0 / 312.0).as_deref(), Some("5'12\""));
        assert_eq!(pace_per_km(1000.0 / 295.0).as_deref(), Some("4'55\""));
        assert_eq!(pace_per_100m(1.0).as_deref(), Some("1'40\""));
        assert_eq!(pace_per_km(0.0), None);
        assert_eq!(pace_per_km(SLOWEST_PACED_SPEED - 0.01), None);
        assert_eq!(pace_per_km(f64::NAN), None);
        assert_eq!(pace_per_km(-3.0), None);
        assert_eq!(pace_per_km(f64::INFINITY), None, "an infinite speed has no pace");
    }

    #[test]
    fn distances_speeds_and_numbers() {
        assert_eq!(km(12_345.0), 12.35);
        assert_eq!(km_text(21_097.5), "21.10 km");
        assert_eq!(distance(800.0, false), "800 m");
        assert_eq!(distance(1500.0, false), "1.5 km");
        assert_eq!(distance(2000.0, false), "2 km");
        assert_eq!(distance(1500.0, true), "1500 m");
        assert_eq!(distance_rounded(7200.0, false), "7.2 km");
        assert_eq!(distance_rounded(720.4, false), "720 m");
        assert_eq!(distance_rounded(1900.0, true), "1900 m");
        assert_eq!(kmh(10.0), 36.0);
        assert_eq!(kmh_text(7.0), "25.2");
        assert_eq!(
            (number(800.0), number(1.5), number(150.004), number(0.755)),
            ("800".into(), "1.5".into(), "150".into(), "0.76".into())
        );
        assert_eq!(
            (amount(312.4), amount(42.0), amount(5.34), amount(0.754), amount(0.0)),
            ("312".into(), "42".into(), "5.3".into(), "0.75".into(), "0".into())
        );
    }

    #[test]
    fn counts_and_keys_read_as_words() {
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(-12_345), "-12,345");
        assert_eq!(thousands(i64::MIN), "-9,223,372,036,854,775,808");
        assert_eq!(thousands(u64::MAX), "18,446,744,073,709,551,615");
        assert_eq!(words(" STAGE_1_HIGH "), "stage 1 high");
        assert_eq!(words("pace.zone"), "pace zone");
        assert_eq!(capitalise("backcountry skiing"), "Backcountry skiing");
        assert_eq!(capitalise(""), "");
    }

    #[test]
    fn bad_input_is_written_as_missing_everywhere() {
        for bad in BAD {
            for text in [
                duration(bad),
                duration_hms(bad),
                pace(bad, PaceStyle::Quotes),
                pace(bad, PaceStyle::Colon),
                pace(bad, PaceStyle::Precise),
            ] {
                assert_eq!(text, MISSING, "{bad}");
            }
        }
        for bad in [f64::NAN, f64::INFINITY, -1.0, LARGEST * 60.0] {
            assert_eq!((duration_hm(bad), hours_minutes(bad)), (MISSING.into(), MISSING.into()), "{bad}");
        }
        for bad in [f64::NAN, f64::INFINITY, -1.0] {
            let texts = [km_text(bad), distance(bad, false), distance_rounded(bad, true), kmh_text(bad)];
            assert!(texts.iter().all(|t| t == MISSING), "{bad}: {texts:?}");
        }
        assert_eq!((number(f64::NAN), amount(f64::INFINITY)), (MISSING.into(), MISSING.into()));
    }
}
