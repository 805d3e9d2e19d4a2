//! One night's sleep (`dailySleepData`) and its scores. Garmin answers a night without sleep with
//! an object full of nulls, so [`Sleep::has_data`] decides, not the HTTP status.
//!
//! Use the `…GMT` times: `…Local` ones are reported double-offset for some UTC+8 accounts.

use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::models::de;

/// `wellness-service/wellness/dailySleepData/{displayName}` (also `sleep-service/sleep/dailySleepData`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Sleep {
    /// The night's summary.
    #[serde(rename = "dailySleepDTO")]
    pub daily_sleep: Option<DailySleep>,
    /// Sleep stages over the night.
    #[serde(deserialize_with = "de::vec")]
    pub sleep_levels: Vec<SleepLevel>,
    /// Movement over the night.
    #[serde(deserialize_with = "de::vec")]
    pub sleep_movement: Vec<SleepMovement>,
    /// Whether REM was measured.
    pub rem_sleep_data: Option<bool>,
    /// SpO2 during sleep.
    #[serde(rename = "wellnessSpO2SleepSummaryDTO")]
    pub spo2_summary: Option<SpO2SleepSummary>,
    /// Resting heart rate (bpm).
    pub resting_heart_rate: Option<f64>,
    /// Body Battery gained overnight.
    pub body_battery_change: Option<f64>,
    /// Average skin-temperature deviation (°C).
    #[serde(rename = "avgSkinTempDeviationC")]
    pub avg_skin_temp_deviation_c: Option<f64>,
    /// Average overnight HRV (ms).
    pub avg_overnight_hrv: Option<f64>,
    /// HRV status (`BALANCED`…).
    pub hrv_status: Option<String>,
}

impl Sleep {
    /// True when the night has a measured sleep time (an answer for a night without sleep has
    /// `dailySleepDTO.sleepTimeSeconds == null`).
    pub fn has_data(&self) -> bool {
        self.daily_sleep.as_ref().is_some_and(DailySleep::has_data)
    }

    /// True when the answer holds anything about the night: a sleep time, stage times, SpO2 or
    /// respiration, or the resting heart rate. Real nights come without a total sleep time but
    /// with stages, and with `dailySleepDTO: null` beside a resting heart rate.
    pub fn has_any(&self) -> bool {
        self.resting_heart_rate.is_some_and(|r| r > 0.0)
            || self.daily_sleep.as_ref().is_some_and(|d| {
                d.has_data()
                    || d.has_stages()
                    || [d.average_spo2_value, d.lowest_spo2_value, d.average_respiration_value]
                        .iter()
                        .any(|v| v.is_some_and(|x| x > 0.0))
            })
    }

    /// The overall sleep score (0–100), when scored.
    pub fn score(&self) -> Option<f64> {
        self.daily_sleep.as_ref()?.sleep_scores.as_ref()?.overall.as_ref()?.value
    }
}

/// `sleep-service/stats/sleep/daily/{start}/{end}` (≤ 28 days per call): one row per night.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SleepStats {
    /// One entry per night with data.
    #[serde(deserialize_with = "de::vec")]
    pub individual_stats: Vec<SleepStatsDay>,
}

/// One night of [`SleepStats`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SleepStatsDay {
    /// The day the night ends on.
    #[serde(deserialize_with = "de::date")]
    pub calendar_date: Option<NaiveDate>,
    /// The night's figures.
    pub values: Option<SleepStatsValues>,
}

/// Figures of a [`SleepStatsDay`] (durations in seconds).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SleepStatsValues {
    /// Time asleep (s).
    pub total_sleep_time_in_seconds: Option<f64>,
    /// Deep sleep (s).
    pub deep_time: Option<f64>,
    /// Light sleep (s).
    pub light_time: Option<f64>,
    /// REM sleep (s).
    pub rem_time: Option<f64>,
    /// Awake (s).
    pub awake_time: Option<f64>,
    /// Sleep score (0–100).
    pub sleep_score: Option<f64>,
    /// `EXCELLENT`, `GOOD`, `FAIR`, `POOR`.
    pub sleep_score_quality: Option<String>,
    /// Sleep need (min).
    pub sleep_need: Option<f64>,
    /// Resting heart rate (bpm).
    pub resting_heart_rate: Option<f64>,
    /// Seven-day HRV average (ms).
    #[serde(rename = "hrv7dAverage")]
    pub hrv_7d_average: Option<f64>,
    /// HRV status.
    pub hrv_status: Option<String>,
    /// Body Battery gained.
    pub body_battery_change: Option<f64>,
    /// Respiration (breaths/min).
    pub respiration: Option<f64>,
    /// SpO2 (%).
    #[serde(rename = "spO2")]
    pub spo2: Option<f64>,
    /// Fell asleep (local wall time).
    #[serde(rename = "localSleepStartTimeInMillis", deserialize_with = "de::local")]
    pub local_sleep_start: Option<NaiveDateTime>,
    /// Woke up (local wall time).
    #[serde(rename = "localSleepEndTimeInMillis", deserialize_with = "de::local")]
    pub local_sleep_end: Option<NaiveDateTime>,
}

/// `dailySleepDTO`: durations in seconds, times in epoch ms.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DailySleep {
    /// Sleep id (the start in epoch ms).
    #[serde(deserialize_with = "de::id")]
    pub id: Option<u64>,
    /// Owner.
    #[serde(rename = "userProfilePK", deserialize_with = "de::id")]
    pub user_profile_pk: Option<u64>,
    /// The day the night ends on.
    #[serde(deserialize_with = "de::date")]
    pub calendar_date: Option<NaiveDate>,
    /// Time asleep (s).
    pub sleep_time_seconds: Option<f64>,
    /// Naps (s).
    pub nap_time_seconds: Option<f64>,
    /// Deep sleep (s).
    pub deep_sleep_seconds: Option<f64>,
    /// Light sleep (s).
    pub light_sleep_seconds: Option<f64>,
    /// REM sleep (s).
    pub rem_sleep_seconds: Option<f64>,
    /// Awake in bed (s).
    pub awake_sleep_seconds: Option<f64>,
    /// Unmeasurable (s).
    pub unmeasurable_sleep_seconds: Option<f64>,
    /// Fell asleep (GMT).
    #[serde(rename = "sleepStartTimestampGMT", deserialize_with = "de::utc")]
    pub sleep_start_gmt: Option<DateTime<Utc>>,
    /// Woke up (GMT).
    #[serde(rename = "sleepEndTimestampGMT", deserialize_with = "de::utc")]
    pub sleep_end_gmt: Option<DateTime<Utc>>,
    /// Fell asleep (local wall time).
    #[serde(rename = "sleepStartTimestampLocal", deserialize_with = "de::local")]
    pub sleep_start_local: Option<NaiveDateTime>,
    /// Woke up (local wall time).
    #[serde(rename = "sleepEndTimestampLocal", deserialize_with = "de::local")]
    pub sleep_end_local: Option<NaiveDateTime>,
    /// Times awake.
    pub awake_count: Option<f64>,
    /// Average stress asleep.
    pub avg_sleep_stress: Option<f64>,
    /// Average SpO2 (%).
    #[serde(rename = "averageSpO2Value")]
    pub average_spo2_value: Option<f64>,
    /// Lowest SpO2 (%).
    #[serde(rename = "lowestSpO2Value")]
    pub lowest_spo2_value: Option<f64>,
    /// Average respiration (breaths/min).
    pub average_respiration_value: Option<f64>,
    /// Scores per aspect.
    pub sleep_scores: Option<SleepScores>,
    /// Score feedback key.
    pub sleep_score_feedback: Option<String>,
    /// Sleep need for this night.
    pub sleep_need: Option<SleepNeed>,
    /// Whether the watch confirmed the window.
    pub sleep_window_confirmed: Option<bool>,
}

impl DailySleep {
    /// True when a sleep time was measured.
    pub fn has_data(&self) -> bool {
        self.sleep_time_seconds.is_some_and(|s| s > 0.0)
    }

    /// True when some stage time (deep, light, REM) was measured.
    pub fn has_stages(&self) -> bool {
        [self.deep_sleep_seconds, self.light_sleep_seconds, self.rem_sleep_seconds]
            .iter()
            .any(|s| s.is_some_and(|s| s > 0.0))
    }

    /// The night's figures in the web API's per-night `sleep_stats` shape (how the Personal API's
    /// nights, E11, are read as the web's).
    pub fn stats_day(&self) -> SleepStatsDay {
        let overall = self.sleep_scores.as_ref().and_then(|s| s.overall.as_ref());
        SleepStatsDay {
            calendar_date: self.calendar_date,
            values: Some(SleepStatsValues {
                total_sleep_time_in_seconds: self.sleep_time_seconds,
                deep_time: self.deep_sleep_seconds,
                light_time: self.light_sleep_seconds,
                rem_time: self.rem_sleep_seconds,
                awake_time: self.awake_sleep_seconds,
                sleep_score: overall.and_then(|o| o.value),
                sleep_score_quality: overall.and_then(|o| o.qualifier_key.clone()),
                respiration: self.average_respiration_value,
                spo2: self.average_spo2_value,
                sleep_need: self.sleep_need.as_ref().and_then(|n| n.actual),
                local_sleep_start: self.sleep_start_local,
                local_sleep_end: self.sleep_end_local,
                ..SleepStatsValues::default()
            }),
        }
    }
}

/// `sleepScores`: one [`SleepScore`] per aspect.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SleepScores {
    /// Overall score (`value` 0–100).
    pub overall: Option<SleepScore>,
    /// Duration.
    pub total_duration: Option<SleepScore>,
    /// Stress.
    pub stress: Option<SleepScore>,
    /// Awakenings.
    pub awake_count: Option<SleepScore>,
    /// REM share.
    pub rem_percentage: Option<SleepScore>,
    /// Light share.
    pub light_percentage: Option<SleepScore>,
    /// Deep share.
    pub deep_percentage: Option<SleepScore>,
    /// Restlessness.
    pub restlessness: Option<SleepScore>,
}

/// One aspect's score.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SleepScore {
    /// Value (score or percent).
    pub value: Option<f64>,
    /// `EXCELLENT`, `GOOD`, `FAIR`, `POOR`.
    pub qualifier_key: Option<String>,
    /// Optimal range start.
    pub optimal_start: Option<f64>,
    /// Optimal range end.
    pub optimal_end: Option<f64>,
}

/// How much sleep Garmin thinks was needed (minutes).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SleepNeed {
    /// The day.
    #[serde(deserialize_with = "de::date")]
    pub calendar_date: Option<NaiveDate>,
    /// Baseline need (min).
    pub baseline: Option<f64>,
    /// Adjusted need (min).
    pub actual: Option<f64>,
    /// Feedback key.
    pub feedback: Option<String>,
    /// Adjustment for recent training (`NO_CHANGE`, `INCREASING`…; the sleep-need fields Home
    /// Assistant's Garmin integration 3.0.2 exposes).
    pub training_feedback: Option<String>,
    /// Adjustment for recent sleep debt.
    pub sleep_history_adjustment: Option<String>,
    /// Adjustment for HRV below baseline.
    pub hrv_adjustment: Option<String>,
    /// Adjustment for naps.
    pub nap_adjustment: Option<String>,
}

impl SleepNeed {
    /// Why the need differs from the baseline: `(reason, Garmin's key)` of each adjustment other
    /// than `NO_CHANGE`.
    pub fn reasons(&self) -> Vec<(&'static str, &str)> {
        [
            ("recent training", &self.training_feedback),
            ("recent sleep", &self.sleep_history_adjustment),
            ("HRV", &self.hrv_adjustment),
            ("naps", &self.nap_adjustment),
        ]
        .into_iter()
        .filter_map(|(why, key)| key.as_deref().filter(|k| *k != "NO_CHANGE").map(|k| (why, k)))
        .collect()
    }
}

/// A stretch of one sleep stage.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SleepLevel {
    /// Start (GMT).
    #[serde(rename = "startGMT", deserialize_with = "de::utc")]
    pub start_gmt: Option<DateTime<Utc>>,
    /// End (GMT).
    #[serde(rename = "endGMT", deserialize_with = "de::utc")]
    pub end_gmt: Option<DateTime<Utc>>,
    /// Stage: 0 deep, 1 light, 2 REM, 3 awake.
    pub activity_level: Option<f64>,
}

/// A stretch of movement.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SleepMovement {
    /// Start (GMT).
    #[serde(rename = "startGMT", deserialize_with = "de::utc")]
    pub start_gmt: Option<DateTime<Utc>>,
    /// End (GMT).
    #[serde(rename = "endGMT", deserialize_with = "de::utc")]
    pub end_gmt: Option<DateTime<Utc>>,
    /// Movement level.
    pub activity_level: Option<f64>,
}

/// SpO2 during sleep.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SpO2SleepSummary {
    /// Device that measured.
    #[serde(deserialize_with = "de::id")]
    pub device_id: Option<u64>,
    /// Average (%).
    #[serde(rename = "averageSPO2")]
    pub average_spo2: Option<f64>,
    /// Lowest (%).
    #[serde(rename = "lowestSPO2")]
    pub lowest_spo2: Option<f64>,
    /// Average heart rate during SpO2 measurement (bpm).
    #[serde(rename = "averageSpO2HR")]
    pub average_spo2_hr: Option<f64>,
}
