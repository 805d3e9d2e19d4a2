//! Stress and Body Battery: the day's series (`dailyStress`), daily stress statistics, Body
//! Battery reports and the events that charged or drained it. Stress series use `-1` for "no
//! data" and `-2` for "activity"; [`DailyStress::stress_points`] drops both.

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};

use crate::models::common::{SeriesPoint, ValueDescriptor, column, points};
use crate::models::de;

/// `wellness-service/wellness/dailyStress/{date}`: stress and Body Battery through the day.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DailyStress {
    /// The day.
    #[serde(deserialize_with = "de::date")]
    pub calendar_date: Option<NaiveDate>,
    /// Highest stress.
    pub max_stress_level: Option<f64>,
    /// Average stress.
    pub avg_stress_level: Option<f64>,
    /// Column names of `stress_values_array`.
    #[serde(rename = "stressValueDescriptorsDTOList", deserialize_with = "de::vec")]
    pub stress_value_descriptors: Vec<ValueDescriptor>,
    /// `[epochMs, level]` rows (`-1` no data, `-2` activity).
    #[serde(deserialize_with = "de::series")]
    pub stress_values_array: Vec<Vec<Option<f64>>>,
    /// Column names of `body_battery_values_array`.
    #[serde(rename = "bodyBatteryValueDescriptorsDTOList", deserialize_with = "de::vec")]
    pub body_battery_value_descriptors: Vec<ValueDescriptor>,
    /// `[epochMs, status, level, version]` rows; the status label reads as `None`.
    #[serde(deserialize_with = "de::series")]
    pub body_battery_values_array: Vec<Vec<Option<f64>>>,
}

impl DailyStress {
    /// Measured stress levels (0–100); the `-1`/`-2` sentinels are dropped.
    pub fn stress_points(&self) -> Vec<SeriesPoint> {
        let value = column(&self.stress_value_descriptors, "stressLevel").unwrap_or(1);
        points(&self.stress_values_array, 0, value).into_iter().filter(|p| p.value >= 0.0).collect()
    }

    /// Body Battery levels (0–100), rows with a null level dropped.
    pub fn body_battery_points(&self) -> Vec<SeriesPoint> {
        let value = column(&self.body_battery_value_descriptors, "bodyBatteryLevel").unwrap_or(2);
        points(&self.body_battery_values_array, 0, value)
    }
}

/// One row of `usersummary-service/stats/stress/daily/{start}/{end}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct StressDay {
    /// The day.
    #[serde(deserialize_with = "de::date")]
    pub calendar_date: Option<NaiveDate>,
    /// The day's figures.
    pub values: Option<StressDayValues>,
}

/// Figures of a [`StressDay`]; durations in seconds.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct StressDayValues {
    /// Overall stress level.
    pub overall_stress_level: Option<f64>,
    /// Rest (s).
    pub rest_stress_duration: Option<f64>,
    /// Low stress (s).
    pub low_stress_duration: Option<f64>,
    /// Medium stress (s).
    pub medium_stress_duration: Option<f64>,
    /// High stress (s).
    pub high_stress_duration: Option<f64>,
}

/// One day of `wellness-service/wellness/bodyBattery/reports/daily`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct BodyBatteryReport {
    /// The day.
    #[serde(deserialize_with = "de::date")]
    pub date: Option<NaiveDate>,
    /// Charged.
    pub charged: Option<f64>,
    /// Drained.
    pub drained: Option<f64>,
    /// Column names.
    #[serde(rename = "bodyBatteryValueDescriptorDTOList", deserialize_with = "de::vec")]
    pub body_battery_value_descriptors: Vec<ValueDescriptor>,
    /// `[epochMs, level]` rows.
    #[serde(deserialize_with = "de::series")]
    pub body_battery_values_array: Vec<Vec<Option<f64>>>,
}

impl BodyBatteryReport {
    /// Levels with a value (rows with a null level dropped).
    pub fn points(&self) -> Vec<SeriesPoint> {
        let value = column(&self.body_battery_value_descriptors, "bodyBatteryLevel").unwrap_or(1);
        points(&self.body_battery_values_array, 0, value)
    }

    /// True when the day has a charge/drain figure or at least one level.
    pub fn has_data(&self) -> bool {
        self.charged.is_some() || self.drained.is_some() || !self.points().is_empty()
    }
}

/// One entry of `wellness-service/wellness/bodyBattery/events/{date}` (sleep, activity, nap…).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct BodyBatteryEvent {
    /// What happened.
    pub event: Option<BodyBatteryEventInfo>,
    /// Activity id when the event is an activity.
    #[serde(deserialize_with = "de::id")]
    pub activity_id: Option<u64>,
    /// Activity name.
    pub activity_name: Option<String>,
    /// Activity type key.
    #[serde(deserialize_with = "de::text")]
    pub activity_type: Option<String>,
    /// Average stress during the event.
    pub average_stress: Option<f64>,
}

/// The `event` of a [`BodyBatteryEvent`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct BodyBatteryEventInfo {
    /// `sleep`, `activity`, `nap`, `recovery`…
    pub event_type: Option<String>,
    /// Start (GMT).
    #[serde(deserialize_with = "de::utc")]
    pub event_start_time_gmt: Option<DateTime<Utc>>,
    /// Length (ms).
    pub duration_in_milliseconds: Option<f64>,
    /// Body Battery change (+ charged, − drained).
    pub body_battery_impact: Option<f64>,
    /// Feedback key.
    pub feedback_type: Option<String>,
    /// Short feedback text.
    pub short_feedback: Option<String>,
}
