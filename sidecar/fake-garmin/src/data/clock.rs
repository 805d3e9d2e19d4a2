//! Time zone and timestamp formats of the fake account.
//!
//! Garmin mixes several spellings of one instant (`"2026-01-08 08:10:21"` in activity lists,
//! `"2026-01-08T08:10:21.0"` in summaries, epoch milliseconds in series, GMT and local twins).
//! Keeping every spelling here means a format is decided once. The account lives in a zone
//! without daylight saving so local = GMT + a fixed offset on every day of the year.

use chrono::{Datelike, Duration, NaiveDate, NaiveDateTime, NaiveTime};

use crate::FakeSite;

/// The account's home: time zone (as Garmin's `timeZoneUnitDTO`) and where activities start.
#[derive(Clone, Debug, PartialEq)]
pub struct Zone {
    /// Garmin's time-zone unit id.
    pub unit_id: u32,
    /// IANA name.
    pub key: &'static str,
    /// Local minus GMT, seconds.
    pub offset_s: i64,
    /// Latitude activities start near.
    pub lat: f64,
    /// Longitude activities start near.
    pub lon: f64,
    /// Place name shown as `locationName`.
    pub place: &'static str,
}

impl Zone {
    /// The zone used for a site: Costa Rica (global) or Shanghai (China); neither has DST.
    pub fn for_site(site: FakeSite) -> Self {
        match site {
            FakeSite::Global => Self {
                unit_id: 150,
                key: "America/Costa_Rica",
                offset_s: -6 * 3600,
                lat: 9.9355,
                lon: -84.0775,
                place: "Sampletown",
            },
            FakeSite::Cn => Self {
                unit_id: 237,
                key: "Asia/Shanghai",
                offset_s: 8 * 3600,
                lat: 31.2243,
                lon: 121.4690,
                place: "Bayside",
            },
        }
    }

    /// GMT instant of a local wall-clock time.
    pub fn to_gmt(&self, local: NaiveDateTime) -> NaiveDateTime {
        local - Duration::seconds(self.offset_s)
    }

    /// Local wall-clock time of a GMT instant.
    pub fn to_local(&self, gmt: NaiveDateTime) -> NaiveDateTime {
        gmt + Duration::seconds(self.offset_s)
    }

    /// GMT instant of local midnight starting `day`.
    pub fn day_start_gmt(&self, day: NaiveDate) -> NaiveDateTime {
        self.to_gmt(day.and_time(NaiveTime::MIN))
    }

    /// Offset in milliseconds (as in body-battery events' `timezoneOffset`).
    pub fn offset_ms(&self) -> i64 {
        self.offset_s * 1000
    }
}

impl Default for Zone {
    fn default() -> Self {
        Self::for_site(FakeSite::Global)
    }
}

/// Epoch milliseconds of a GMT instant.
pub fn ms(gmt: NaiveDateTime) -> i64 {
    gmt.and_utc().timestamp_millis()
}

/// Epoch milliseconds of a wall-clock time read as if it were GMT (Garmin's `*Local` epochs).
pub fn local_ms(local: NaiveDateTime) -> i64 {
    local.and_utc().timestamp_millis()
}

/// GMT instant of epoch milliseconds.
pub fn from_ms(ms: i64) -> NaiveDateTime {
    chrono::DateTime::from_timestamp_millis(ms).unwrap_or_default().naive_utc()
}

/// `2026-01-08 08:10:21` (activity list).
pub fn space(t: NaiveDateTime) -> String {
    t.format("%Y-%m-%d %H:%M:%S").to_string()
}

/// `2026-01-08T08:10:21.0` (summaries, most `*Gmt`/`*Local` strings).
pub fn t1(t: NaiveDateTime) -> String {
    t.format("%Y-%m-%dT%H:%M:%S.0").to_string()
}

/// `2026-01-08T08:10:21.000` (wellness chart bounds).
pub fn t3(t: NaiveDateTime) -> String {
    t.format("%Y-%m-%dT%H:%M:%S%.3f").to_string()
}

/// `2026-01-08T08:10:21` (feedback events, sleep need).
pub fn t0(t: NaiveDateTime) -> String {
    t.format("%Y-%m-%dT%H:%M:%S").to_string()
}

/// `2026-01-08` (calendar dates).
pub fn date(d: NaiveDate) -> String {
    d.format("%Y-%m-%d").to_string()
}

/// Parses `YYYY-MM-DD` strictly (Garmin answers 400 to anything else).
pub fn parse_date(s: &str) -> Option<NaiveDate> {
    if s.len() != 10 {
        return None;
    }
    NaiveDate::parse_from_str(s, "%Y-%m-%d").ok()
}

/// A stable number for a date (days since 0001-01-01), used to derive per-day random streams.
pub fn day_no(d: NaiveDate) -> u64 {
    u64::try_from(d.num_days_from_ce()).unwrap_or(0)
}

/// Every date from `start` to `end`, both included (empty when `end < start`).
pub fn days(start: NaiveDate, end: NaiveDate) -> impl DoubleEndedIterator<Item = NaiveDate> + Clone {
    let n = (end - start).num_days().max(-1) + 1;
    (0..n).map(move |i| start + Duration::days(i))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_match_garmin_spellings() {
        let t =
            NaiveDate::from_ymd_opt(2026, 1, 8).and_then(|d| d.and_hms_opt(8, 10, 21)).unwrap_or_default();
        assert_eq!(space(t), "2026-01-08 08:10:21");
        assert_eq!(t1(t), "2026-01-08T08:10:21.0");
        assert_eq!(t3(t), "2026-01-08T08:10:21.000");
        assert_eq!(ms(t), 1_767_859_821_000);
    }

    #[test]
    fn parse_date_rejects_loose_forms() {
        assert!(parse_date("2026-01-08").is_some());
        assert!(parse_date("2026-1-8").is_none());
        assert!(parse_date("yesterday").is_none());
    }
}
