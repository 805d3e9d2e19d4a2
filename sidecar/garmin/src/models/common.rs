//! Shapes that several Garmin areas share: `{typeId, typeKey}` references, series descriptors
//! and points, `{calendarDate, value}` rows, `allMetrics.metricsMap` statistics and Garmin's
//! error body.

use std::collections::BTreeMap;

use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};

use super::de;

/// A `{typeId, typeKey}` reference (event type, privacy, access rule…).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TypeRef {
    /// Numeric id.
    #[serde(deserialize_with = "de::int")]
    pub type_id: Option<i64>,
    /// Key such as `private` or `uncategorized`.
    pub type_key: Option<String>,
    /// Display order.
    #[serde(deserialize_with = "de::int")]
    pub sort_order: Option<i64>,
}

/// Names one column of a series (`{key, index}`, `{bodyBatteryValueDescriptorKey,
/// bodyBatteryValueDescriptorIndex}` or an activity's `{key, metricsIndex, unit}`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ValueDescriptor {
    /// Column name, e.g. `timestamp`, `stressLevel`, `bodyBatteryLevel`, `directHeartRate`.
    #[serde(alias = "bodyBatteryValueDescriptorKey")]
    pub key: Option<String>,
    /// Column index in each row.
    #[serde(alias = "bodyBatteryValueDescriptorIndex", alias = "metricsIndex", deserialize_with = "de::int")]
    pub index: Option<i64>,
}

/// The column index named `key`, if a descriptor names it.
pub fn column(descriptors: &[ValueDescriptor], key: &str) -> Option<usize> {
    descriptors
        .iter()
        .find(|d| d.key.as_deref().is_some_and(|k| k.eq_ignore_ascii_case(key)))
        .and_then(|d| d.index)
        .and_then(|i| usize::try_from(i).ok())
}

/// One timed value of a series.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SeriesPoint {
    /// When (from the row's epoch-ms timestamp).
    pub at: DateTime<Utc>,
    /// The value.
    pub value: f64,
}

/// The points of `rows` whose timestamp (column `time_col`, epoch ms) and value (column
/// `value_col`) are both present; rows with a null value are skipped.
pub fn points(rows: &[Vec<Option<f64>>], time_col: usize, value_col: usize) -> Vec<SeriesPoint> {
    rows.iter()
        .filter_map(|row| {
            let ms = (*row.get(time_col)?)?;
            let value = (*row.get(value_col)?)?;
            let at = super::units::from_epoch_ms(ms as i64)?;
            Some(SeriesPoint { at, value })
        })
        .collect()
}

/// A `{calendarDate, value}` row (sleep scores, weekly stress…).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DatedValue {
    /// Day (or first day of the week).
    #[serde(deserialize_with = "de::date")]
    pub calendar_date: Option<NaiveDate>,
    /// The value.
    #[serde(deserialize_with = "de::num")]
    pub value: Option<f64>,
}

/// Statistics shaped `{allMetrics: {metricsMap: {METRIC_KEY: [{calendarDate, value}]}}}` (resting
/// HR per day, VO2max per day).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct MetricStatistics {
    /// Owner.
    #[serde(deserialize_with = "de::id")]
    pub user_profile_id: Option<u64>,
    /// First day.
    #[serde(deserialize_with = "de::date")]
    pub statistics_start_date: Option<NaiveDate>,
    /// Last day.
    #[serde(deserialize_with = "de::date")]
    pub statistics_end_date: Option<NaiveDate>,
    /// The metrics.
    pub all_metrics: Option<MetricsMap>,
}

/// `{metricsMap: {KEY: [rows]}}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct MetricsMap {
    /// Rows per metric key (`WELLNESS_RESTING_HEART_RATE`, `ACTIVITY_VO2_MAX`…).
    #[serde(deserialize_with = "de::map")]
    pub metrics_map: BTreeMap<String, Vec<DatedValue>>,
}

impl MetricStatistics {
    /// The rows of one metric key, empty when absent.
    pub fn metric(&self, key: &str) -> &[DatedValue] {
        self.all_metrics.as_ref().and_then(|m| m.metrics_map.get(key)).map(Vec::as_slice).unwrap_or_default()
    }
}

/// Garmin's JSON error body (`{"message": "HTTP 404 Not Found", "error": "NotFoundException"}`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ErrorBody {
    /// Human text.
    pub message: Option<String>,
    /// Exception name.
    #[serde(deserialize_with = "de::text")]
    pub error: Option<String>,
}
