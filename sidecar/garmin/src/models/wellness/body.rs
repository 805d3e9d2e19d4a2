//! Body composition and blood pressure: weigh-ins (grams), daily weight summaries and blood
//! pressure readings (mmHg).

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};

use crate::models::de;

/// One weigh-in (weights in grams, percentages 0–100).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct WeightEntry {
    /// Sample key (needed to delete it).
    #[serde(deserialize_with = "de::id")]
    pub sample_pk: Option<u64>,
    /// The day.
    #[serde(deserialize_with = "de::date")]
    pub calendar_date: Option<NaiveDate>,
    /// When (GMT).
    #[serde(rename = "timestampGMT", deserialize_with = "de::utc")]
    pub timestamp_gmt: Option<DateTime<Utc>>,
    /// Weight (g).
    pub weight: Option<f64>,
    /// Body-mass index.
    pub bmi: Option<f64>,
    /// Body fat (%).
    pub body_fat: Option<f64>,
    /// Body water (%).
    pub body_water: Option<f64>,
    /// Bone mass (g).
    pub bone_mass: Option<f64>,
    /// Muscle mass (g).
    pub muscle_mass: Option<f64>,
    /// Change since the previous weigh-in (g).
    pub weight_delta: Option<f64>,
    /// `MANUAL`, `INDEX_SCALE`, `MFP`…
    pub source_type: Option<String>,
}

/// Averages over a period.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct WeightAverage {
    /// Period start.
    #[serde(deserialize_with = "de::utc")]
    pub from: Option<DateTime<Utc>>,
    /// Period end.
    #[serde(deserialize_with = "de::utc")]
    pub until: Option<DateTime<Utc>>,
    /// Weight (g).
    pub weight: Option<f64>,
    /// Body-mass index.
    pub bmi: Option<f64>,
    /// Body fat (%).
    pub body_fat: Option<f64>,
    /// Body water (%).
    pub body_water: Option<f64>,
    /// Bone mass (g).
    pub bone_mass: Option<f64>,
    /// Muscle mass (g).
    pub muscle_mass: Option<f64>,
}

/// `weight-service/weight/dayview/{date}` and `weight-service/weight/dateRange`: weigh-ins of a
/// period and their average.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct WeightDay {
    /// First day.
    #[serde(deserialize_with = "de::date")]
    pub start_date: Option<NaiveDate>,
    /// Last day.
    #[serde(deserialize_with = "de::date")]
    pub end_date: Option<NaiveDate>,
    /// The weigh-ins.
    #[serde(deserialize_with = "de::vec")]
    pub date_weight_list: Vec<WeightEntry>,
    /// Averages.
    pub total_average: Option<WeightAverage>,
}

/// `weight-service/weight/range/{start}/{end}?includeAll=true`: one summary per day with weigh-ins.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct WeightRange {
    /// Days with weigh-ins, newest first as Garmin sends them.
    #[serde(deserialize_with = "de::vec")]
    pub daily_weight_summaries: Vec<DailyWeightSummary>,
    /// Averages over the range.
    pub total_average: Option<WeightAverage>,
    /// The last weigh-in before the range (all-null when none).
    pub previous_date_weight: Option<WeightEntry>,
    /// The first weigh-in after the range (all-null when none).
    pub next_date_weight: Option<WeightEntry>,
}

/// One day of a [`WeightRange`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DailyWeightSummary {
    /// The day.
    #[serde(deserialize_with = "de::date")]
    pub summary_date: Option<NaiveDate>,
    /// Weigh-ins that day.
    pub num_of_weight_entries: Option<f64>,
    /// Lowest (g).
    pub min_weight: Option<f64>,
    /// Highest (g).
    pub max_weight: Option<f64>,
    /// The last weigh-in of the day.
    pub latest_weight: Option<WeightEntry>,
    /// Every weigh-in of the day.
    #[serde(deserialize_with = "de::vec")]
    pub all_weight_metrics: Vec<WeightEntry>,
}

/// `bloodpressure-service/bloodpressure/range/{start}/{end}?includeAll=true`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct BloodPressureRange {
    /// First day.
    #[serde(deserialize_with = "de::date")]
    pub from: Option<NaiveDate>,
    /// Last day.
    #[serde(deserialize_with = "de::date")]
    pub until: Option<NaiveDate>,
    /// One summary per day with readings (empty when none).
    #[serde(deserialize_with = "de::vec")]
    pub measurement_summaries: Vec<BloodPressureDay>,
}

impl BloodPressureRange {
    /// True when any reading exists in the range.
    pub fn has_data(&self) -> bool {
        self.measurement_summaries.iter().any(|d| !d.measurements.is_empty() || d.high_systolic.is_some())
    }
}

/// One day of blood pressure.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct BloodPressureDay {
    /// The day.
    #[serde(deserialize_with = "de::date")]
    pub start_date: Option<NaiveDate>,
    /// Highest systolic (mmHg).
    pub high_systolic: Option<f64>,
    /// Lowest systolic (mmHg).
    pub low_systolic: Option<f64>,
    /// Highest diastolic (mmHg).
    pub high_diastolic: Option<f64>,
    /// Lowest diastolic (mmHg).
    pub low_diastolic: Option<f64>,
    /// Category key.
    pub category: Option<String>,
    /// The readings.
    #[serde(deserialize_with = "de::vec")]
    pub measurements: Vec<BloodPressureReading>,
}

/// One blood-pressure reading.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct BloodPressureReading {
    /// Systolic (mmHg).
    pub systolic: Option<f64>,
    /// Diastolic (mmHg).
    pub diastolic: Option<f64>,
    /// Pulse (bpm).
    pub pulse: Option<f64>,
    /// When (GMT).
    #[serde(rename = "measurementTimestampGMT", deserialize_with = "de::utc")]
    pub measurement_timestamp_gmt: Option<DateTime<Utc>>,
    /// Category key (`NORMAL`, `STAGE_1_HIGH`…).
    pub category: Option<String>,
    /// Note.
    pub notes: Option<String>,
}
