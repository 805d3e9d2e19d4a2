//! Heart-rate variability: one night (`hrv-service/hrv/{date}`) and a range of nightly
//! summaries (`hrv-service/hrv/daily/{start}/{end}`). Values are milliseconds (RMSSD).

use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::models::de;

/// One night's HRV: the summary and the 5-minute readings.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Hrv {
    /// Owner.
    #[serde(deserialize_with = "de::id")]
    pub user_profile_pk: Option<u64>,
    /// The night's summary.
    pub hrv_summary: Option<HrvSummary>,
    /// Readings through the night (`hrv` in some answers).
    #[serde(alias = "hrv", deserialize_with = "de::vec")]
    pub hrv_readings: Vec<HrvReading>,
    /// Sleep start (GMT).
    #[serde(rename = "sleepStartTimestampGMT", deserialize_with = "de::utc")]
    pub sleep_start_gmt: Option<DateTime<Utc>>,
    /// Sleep end (GMT).
    #[serde(rename = "sleepEndTimestampGMT", deserialize_with = "de::utc")]
    pub sleep_end_gmt: Option<DateTime<Utc>>,
}

impl Hrv {
    /// True when there is a nightly average or at least one reading.
    pub fn has_data(&self) -> bool {
        self.has_readings() || self.hrv_summary.as_ref().is_some_and(HrvSummary::has_data)
    }

    /// True when the night has 5-minute readings (a summary can exist without them).
    pub fn has_readings(&self) -> bool {
        self.hrv_readings.iter().any(|r| r.hrv_value.is_some())
    }
}

/// A night's HRV summary (also each entry of a range).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct HrvSummary {
    /// The day the night ends on.
    #[serde(deserialize_with = "de::date")]
    pub calendar_date: Option<NaiveDate>,
    /// Seven-day average (ms).
    pub weekly_avg: Option<f64>,
    /// Last night's average (ms).
    pub last_night_avg: Option<f64>,
    /// Last night's highest 5-minute value (ms).
    #[serde(rename = "lastNight5MinHigh")]
    pub last_night_5_min_high: Option<f64>,
    /// Personal baseline.
    pub baseline: Option<HrvBaseline>,
    /// `BALANCED`, `UNBALANCED`, `LOW`, `POOR`, or none while the baseline builds.
    pub status: Option<String>,
    /// Feedback key.
    pub feedback_phrase: Option<String>,
    /// When Garmin computed it.
    #[serde(deserialize_with = "de::local")]
    pub create_time_stamp: Option<NaiveDateTime>,
}

impl HrvSummary {
    /// True when a nightly or weekly average exists.
    pub fn has_data(&self) -> bool {
        self.last_night_avg.is_some() || self.weekly_avg.is_some()
    }
}

/// The personal HRV baseline (ms).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct HrvBaseline {
    /// Upper bound of "low".
    pub low_upper: Option<f64>,
    /// Lower bound of "balanced".
    pub balanced_low: Option<f64>,
    /// Upper bound of "balanced".
    pub balanced_upper: Option<f64>,
    /// Where the weekly average sits on the gauge (0–1).
    pub marker_value: Option<f64>,
}

/// One 5-minute HRV reading.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct HrvReading {
    /// HRV (ms).
    pub hrv_value: Option<f64>,
    /// When (GMT).
    #[serde(rename = "readingTimeGMT", deserialize_with = "de::utc")]
    pub reading_time_gmt: Option<DateTime<Utc>>,
    /// When (local).
    #[serde(deserialize_with = "de::local")]
    pub reading_time_local: Option<NaiveDateTime>,
}

/// `hrv-service/hrv/daily/{start}/{end}`: nightly summaries of a range.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct HrvRange {
    /// Owner.
    #[serde(deserialize_with = "de::id")]
    pub user_profile_pk: Option<u64>,
    /// One per night with data.
    #[serde(deserialize_with = "de::vec")]
    pub hrv_summaries: Vec<HrvSummary>,
}
