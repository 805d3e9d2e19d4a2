//! All-day health: the daily summary, heart rate, respiration, SpO2, floors, intensity minutes,
//! steps and hydration here; sleep, HRV, stress and Body Battery, and body composition in the
//! submodules (re-exported, so everything is `models::wellness::…`).
//!
//! Series are `Vec<Vec<Option<f64>>>` rows `[epochMs, value…]` named by descriptors
//! ([`crate::models::common::ValueDescriptor`]); labels in a row read as `None`.

mod body;
mod hrv;
mod sleep;
mod stress;

pub use body::*;
pub use hrv::*;
pub use sleep::*;
pub use stress::*;

use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use serde::{Deserialize, Serialize};

use super::common::{SeriesPoint, ValueDescriptor, column, points};
use super::de;

/// `usersummary-service/usersummary/daily/{displayName}?calendarDate=`: one day in numbers.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DailySummary {
    /// The day.
    #[serde(deserialize_with = "de::date")]
    pub calendar_date: Option<NaiveDate>,
    /// Steps.
    pub total_steps: Option<f64>,
    /// Step goal.
    pub daily_step_goal: Option<f64>,
    /// Distance (m).
    pub total_distance_meters: Option<f64>,
    /// Calories (kcal).
    pub total_kilocalories: Option<f64>,
    /// Active calories (kcal).
    pub active_kilocalories: Option<f64>,
    /// Resting calories (kcal).
    pub bmr_kilocalories: Option<f64>,
    /// Resting heart rate (bpm).
    pub resting_heart_rate: Option<f64>,
    /// Lowest heart rate (bpm).
    pub min_heart_rate: Option<f64>,
    /// Highest heart rate (bpm).
    pub max_heart_rate: Option<f64>,
    /// Seven-day average resting heart rate (bpm).
    pub last_seven_days_avg_resting_heart_rate: Option<f64>,
    /// Average stress (0–100; -1 when none).
    pub average_stress_level: Option<f64>,
    /// Highest stress.
    pub max_stress_level: Option<f64>,
    /// `BALANCED`, `STRESSFUL`…
    pub stress_qualifier: Option<String>,
    /// Body Battery charged during the day.
    pub body_battery_charged_value: Option<f64>,
    /// Body Battery drained during the day.
    pub body_battery_drained_value: Option<f64>,
    /// Highest Body Battery.
    pub body_battery_highest_value: Option<f64>,
    /// Lowest Body Battery.
    pub body_battery_lowest_value: Option<f64>,
    /// Latest Body Battery.
    pub body_battery_most_recent_value: Option<f64>,
    /// Body Battery at wake time.
    pub body_battery_at_wake_time: Option<f64>,
    /// Moderate intensity minutes.
    pub moderate_intensity_minutes: Option<f64>,
    /// Vigorous intensity minutes (count double towards the goal).
    pub vigorous_intensity_minutes: Option<f64>,
    /// Weekly intensity-minutes goal.
    pub intensity_minutes_goal: Option<f64>,
    /// Floors climbed.
    pub floors_ascended: Option<f64>,
    /// Floors descended.
    pub floors_descended: Option<f64>,
    /// Sleep (s).
    pub sleeping_seconds: Option<f64>,
    /// Highly active time (s).
    pub highly_active_seconds: Option<f64>,
    /// Active time (s).
    pub active_seconds: Option<f64>,
    /// Sedentary time (s).
    pub sedentary_seconds: Option<f64>,
    /// Average SpO2 (%).
    pub average_spo2: Option<f64>,
    /// Lowest SpO2 (%).
    pub lowest_spo2: Option<f64>,
    /// Average waking respiration (breaths/min).
    pub avg_waking_respiration_value: Option<f64>,
    /// Day start (GMT).
    #[serde(deserialize_with = "de::utc")]
    pub wellness_start_time_gmt: Option<DateTime<Utc>>,
    /// Day end (GMT).
    #[serde(deserialize_with = "de::utc")]
    pub wellness_end_time_gmt: Option<DateTime<Utc>>,
    /// Whether the data is hidden by privacy settings.
    pub privacy_protected: Option<bool>,
    /// Whether any wellness data was recorded.
    pub includes_wellness_data: Option<bool>,
}

impl DailySummary {
    /// True when the day holds any measurement (Garmin returns a skeleton for empty days).
    pub fn has_data(&self) -> bool {
        self.includes_wellness_data == Some(true) || self.total_steps.is_some_and(|s| s > 0.0)
    }
}

/// One 15-minute step bucket of `wellness-service/wellness/dailySummaryChart/{displayName}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct StepsBucket {
    /// Start (GMT).
    #[serde(rename = "startGMT", deserialize_with = "de::utc")]
    pub start_gmt: Option<DateTime<Utc>>,
    /// End (GMT).
    #[serde(rename = "endGMT", deserialize_with = "de::utc")]
    pub end_gmt: Option<DateTime<Utc>>,
    /// Steps in the bucket.
    pub steps: Option<f64>,
    /// `sedentary`, `active`, `highlyActive`, `sleeping`, `none`.
    pub primary_activity_level: Option<String>,
}

/// `wellness-service/wellness/dailyHeartRate/{displayName}?date=`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct HeartRateDay {
    /// The day.
    #[serde(deserialize_with = "de::date")]
    pub calendar_date: Option<NaiveDate>,
    /// Resting heart rate (bpm).
    pub resting_heart_rate: Option<f64>,
    /// Lowest (bpm).
    pub min_heart_rate: Option<f64>,
    /// Highest (bpm).
    pub max_heart_rate: Option<f64>,
    /// Seven-day average resting heart rate (bpm).
    pub last_seven_days_avg_resting_heart_rate: Option<f64>,
    /// Column names of `heart_rate_values`.
    #[serde(deserialize_with = "de::vec")]
    pub heart_rate_value_descriptors: Vec<ValueDescriptor>,
    /// `[epochMs, bpm]` rows.
    #[serde(deserialize_with = "de::series")]
    pub heart_rate_values: Vec<Vec<Option<f64>>>,
}

impl HeartRateDay {
    /// The measured heart rates (bpm), nulls skipped.
    pub fn points(&self) -> Vec<SeriesPoint> {
        let value = column(&self.heart_rate_value_descriptors, "heartrate").unwrap_or(1);
        points(&self.heart_rate_values, 0, value)
    }
}

/// `wellness-service/wellness/daily/respiration/{date}` (breaths per minute).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Respiration {
    /// The day.
    #[serde(deserialize_with = "de::date")]
    pub calendar_date: Option<NaiveDate>,
    /// Lowest.
    pub lowest_respiration_value: Option<f64>,
    /// Highest.
    pub highest_respiration_value: Option<f64>,
    /// Average awake.
    pub avg_waking_respiration_value: Option<f64>,
    /// Average asleep.
    pub avg_sleep_respiration_value: Option<f64>,
    /// Column names.
    #[serde(rename = "respirationValueDescriptorsDTOList", deserialize_with = "de::vec")]
    pub respiration_value_descriptors: Vec<ValueDescriptor>,
    /// `[epochMs, breaths/min]` rows.
    #[serde(deserialize_with = "de::series")]
    pub respiration_values_array: Vec<Vec<Option<f64>>>,
}

/// `wellness-service/wellness/daily/spo2/{date}` (percent).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Spo2 {
    /// The day.
    #[serde(deserialize_with = "de::date")]
    pub calendar_date: Option<NaiveDate>,
    /// Average.
    #[serde(rename = "averageSpO2")]
    pub average_spo2: Option<f64>,
    /// Lowest.
    #[serde(rename = "lowestSpO2")]
    pub lowest_spo2: Option<f64>,
    /// Latest.
    #[serde(rename = "latestSpO2")]
    pub latest_spo2: Option<f64>,
    /// Seven-day average.
    #[serde(rename = "lastSevenDaysAvgSpO2")]
    pub last_seven_days_avg_spo2: Option<f64>,
    /// Average during sleep.
    #[serde(rename = "avgSleepSpO2")]
    pub avg_sleep_spo2: Option<f64>,
    /// `[epochMs, %]` rows of single readings.
    #[serde(rename = "spO2SingleValues", deserialize_with = "de::series")]
    pub spo2_single_values: Vec<Vec<Option<f64>>>,
}

/// `wellness-service/wellness/floorsChartData/daily/{date}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Floors {
    /// Day start (GMT).
    #[serde(rename = "startTimestampGMT", deserialize_with = "de::utc")]
    pub start_timestamp_gmt: Option<DateTime<Utc>>,
    /// Column names.
    #[serde(rename = "floorsValueDescriptorDTOList", deserialize_with = "de::vec")]
    pub floors_value_descriptors: Vec<ValueDescriptor>,
    /// Rows `[startGMT, endGMT, ascended, descended]` (timestamps as sent are text; they read as
    /// `None`).
    #[serde(deserialize_with = "de::series")]
    pub floor_values_array: Vec<Vec<Option<f64>>>,
}

/// One row of `usersummary-service/stats/im/{daily|weekly}/{start}/{end}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct IntensityMinutesStat {
    /// Day (or week start).
    #[serde(deserialize_with = "de::date")]
    pub calendar_date: Option<NaiveDate>,
    /// Weekly goal (minutes).
    pub weekly_goal: Option<f64>,
    /// Moderate minutes.
    pub moderate_value: Option<f64>,
    /// Vigorous minutes.
    pub vigorous_value: Option<f64>,
}

/// `wellness-service/wellness/daily/im/{date}`: a day's intensity minutes.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct IntensityMinutesDay {
    /// The day.
    #[serde(deserialize_with = "de::date")]
    pub calendar_date: Option<NaiveDate>,
    /// Weekly goal (minutes).
    #[serde(alias = "weekGoal")]
    pub weekly_goal: Option<f64>,
    /// Moderate minutes that day.
    pub moderate_minutes: Option<f64>,
    /// Vigorous minutes that day (count double towards the goal).
    pub vigorous_minutes: Option<f64>,
    /// Week total before the day (minutes, vigorous counted twice).
    pub start_day_minutes: Option<f64>,
    /// Week total after the day.
    pub end_day_minutes: Option<f64>,
    /// Column names of `im_values_array`.
    #[serde(rename = "imValueDescriptorDTOList", deserialize_with = "de::vec")]
    pub im_value_descriptors: Vec<ValueDescriptor>,
    /// `[epochMs, minutes]` rows.
    #[serde(deserialize_with = "de::series")]
    pub im_values_array: Vec<Vec<Option<f64>>>,
}

/// One day of `usersummary-service/stats/steps/daily/{start}/{end}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct StepsDay {
    /// The day.
    #[serde(deserialize_with = "de::date")]
    pub calendar_date: Option<NaiveDate>,
    /// Steps.
    pub total_steps: Option<f64>,
    /// Distance (m).
    pub total_distance: Option<f64>,
    /// Goal.
    pub step_goal: Option<f64>,
}

/// One week of `usersummary-service/stats/steps/weekly/{end}/{weeks}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct StepsWeek {
    /// First day of the week.
    #[serde(deserialize_with = "de::date")]
    pub calendar_date: Option<NaiveDate>,
    /// The week's figures.
    pub values: Option<StepsWeekValues>,
}

/// Figures of a [`StepsWeek`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct StepsWeekValues {
    /// Steps.
    pub total_steps: Option<f64>,
    /// Average steps per day.
    pub average_steps: Option<f64>,
    /// Distance (m).
    pub total_distance: Option<f64>,
    /// Average distance per day (m).
    pub average_distance: Option<f64>,
    /// Days with data.
    pub wellness_data_days_count: Option<f64>,
}

/// `POST wellness-service/wellness/epoch/request/{date}`: Garmin's receipt for a reload request.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct EpochRequest {
    /// The day to reload.
    #[serde(deserialize_with = "de::date")]
    pub calendar_date: Option<NaiveDate>,
    /// `COMPLETE`, `PENDING`…
    pub status: Option<String>,
    /// Who asked (`USER`).
    pub source: Option<String>,
}

/// `usersummary-service/usersummary/hydration/daily/{date}` (millilitres).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Hydration {
    /// The day.
    #[serde(deserialize_with = "de::date")]
    pub calendar_date: Option<NaiveDate>,
    /// Drunk (ml).
    #[serde(rename = "valueInML")]
    pub value_in_ml: Option<f64>,
    /// Goal (ml).
    #[serde(rename = "goalInML")]
    pub goal_in_ml: Option<f64>,
    /// Estimated sweat loss (ml).
    #[serde(rename = "sweatLossInML")]
    pub sweat_loss_in_ml: Option<f64>,
    /// Drunk during activities (ml).
    #[serde(rename = "activityIntakeInML")]
    pub activity_intake_in_ml: Option<f64>,
    /// Last entry (local).
    #[serde(deserialize_with = "de::local")]
    pub last_entry_timestamp_local: Option<NaiveDateTime>,
}
