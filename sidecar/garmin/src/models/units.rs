//! Small unit and time helpers for Garmin's conventions, so every tool reads them the same way.
//!
//! Garmin keeps SI-ish units in its JSON — metres, seconds (float), m/s, grams, °C (activities) and
//! °F (activity weather) — and three timestamp styles: `"2025-06-14T21:57:00.0"` (GMT and Local
//! twins), `"2026-01-08 08:10:21"` (activity list) and epoch milliseconds. Models keep Garmin's
//! units; these helpers convert them. Writing them for people (`5:07`, `1:02:04`) is the `display`
//! crate's job.

use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};

/// Metres in a statute mile (the number lives with the formatters in `display`).
pub use display::METERS_PER_MILE;

/// Pace in seconds per kilometre from a speed in m/s; `None` for zero, negative or non-finite speeds.
pub fn pace_seconds_per_km(speed_mps: f64) -> Option<f64> {
    (speed_mps.is_finite() && speed_mps > 0.0).then(|| 1000.0 / speed_mps)
}

/// Pace in seconds per mile from a speed in m/s.
pub fn pace_seconds_per_mile(speed_mps: f64) -> Option<f64> {
    (speed_mps.is_finite() && speed_mps > 0.0).then(|| METERS_PER_MILE / speed_mps)
}

/// Speed in m/s from a pace in seconds per kilometre (how Garmin wants pace targets in workouts).
pub fn speed_from_pace_per_km(seconds_per_km: f64) -> Option<f64> {
    (seconds_per_km.is_finite() && seconds_per_km > 0.0).then(|| 1000.0 / seconds_per_km)
}

/// °C from °F (activity weather is in °F).
pub fn celsius_from_fahrenheit(fahrenheit: f64) -> f64 {
    (fahrenheit - 32.0) * 5.0 / 9.0
}

/// Parses any Garmin timestamp text: `"2025-06-14T21:57:00.0"`, `"2026-01-08 08:10:21"`,
/// `"2023-07-20T06:00:00.000Z"`, `"2023-09-29 01:58:19.113 GMT"`, RFC 3339 with an offset (read
/// in UTC), or a bare date (midnight). `None` when it is none of these.
pub fn parse_timestamp(text: &str) -> Option<NaiveDateTime> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    let trimmed = text.strip_suffix(" GMT").or_else(|| text.strip_suffix('Z')).unwrap_or(text);
    for format in ["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%d %H:%M:%S%.f", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"] {
        if let Ok(t) = NaiveDateTime::parse_from_str(trimmed, format) {
            return Some(t);
        }
    }
    if let Ok(t) = DateTime::parse_from_rfc3339(text) {
        return Some(t.naive_utc());
    }
    // `2026-11-14T12:41:12+0000` (activity weather).
    if let Ok(t) = DateTime::parse_from_str(text, "%Y-%m-%dT%H:%M:%S%.f%z") {
        return Some(t.naive_utc());
    }
    NaiveDate::parse_from_str(trimmed, "%Y-%m-%d").ok().and_then(|d| d.and_hms_opt(0, 0, 0))
}

/// Parses a calendar date, accepting the date part of a longer timestamp.
pub fn parse_date(text: &str) -> Option<NaiveDate> {
    let text = text.trim();
    let head = text.get(..10).unwrap_or(text);
    NaiveDate::parse_from_str(head, "%Y-%m-%d").ok()
}

/// An instant from epoch milliseconds (`beginTimestamp`, series timestamps, `…TimestampGMT`).
pub fn from_epoch_ms(ms: i64) -> Option<DateTime<Utc>> {
    DateTime::from_timestamp_millis(ms)
}

/// A wall-clock time from Garmin's "local epoch milliseconds" (`sleepStartTimestampLocal`): the
/// local time written as if it were UTC.
pub fn local_from_epoch_ms(ms: i64) -> Option<NaiveDateTime> {
    from_epoch_ms(ms).map(|t| t.naive_utc())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pace_from_speed() {
        assert_eq!(pace_seconds_per_km(0.0), None);
        let pace = pace_seconds_per_km(1000.0 / 307.0).unwrap();
        assert!((pace - 307.0).abs() < 1e-9);
        assert!((pace_seconds_per_mile(METERS_PER_MILE / 480.0).unwrap() - 480.0).abs() < 1e-9);
        assert!((speed_from_pace_per_km(350.0).unwrap() - 2.857_142_9).abs() < 1e-6);
    }

    #[test]
    fn every_timestamp_style_parses() {
        let t = |s| parse_timestamp(s).map(|t| t.to_string());
        assert_eq!(t("2025-06-14T21:57:00.0").as_deref(), Some("2025-06-14 21:57:00"));
        assert_eq!(t("2026-01-08 08:10:21").as_deref(), Some("2026-01-08 08:10:21"));
        assert_eq!(t("2023-07-20T06:00:00.000Z").as_deref(), Some("2023-07-20 06:00:00"));
        assert_eq!(t("2023-09-29 01:58:19.113 GMT").as_deref(), Some("2023-09-29 01:58:19.113"));
        assert_eq!(t("2025-06-14T19:05:00").as_deref(), Some("2025-06-14 19:05:00"));
        assert_eq!(t("2025-06-14T19:05:00+02:00").as_deref(), Some("2025-06-14 17:05:00"));
        assert_eq!(t("2026-11-14T12:41:12+0100").as_deref(), Some("2026-11-14 11:41:12"));
        assert_eq!(t("2025-06-14").as_deref(), Some("2025-06-14 00:00:00"));
        assert_eq!(t("yesterday"), None);
        assert_eq!(from_epoch_ms(1_767_881_421_000).unwrap().to_rfc3339(), "2026-01-08T14:10:21+00:00");
        assert_eq!(parse_date("2025-06-14T21:57:00.0"), NaiveDate::from_ymd_opt(2025, 6, 14));
    }
}
