//! Training status: the aggregated answer (`trainingstatus/aggregated/{date}`), its device-keyed
//! load balance and status maps, and the mobile-gateway wrappers
//! (`{requestUrl, statusCode, payload, successful}`) around the same parts.
//!
//! Garmin keys per-device data by device id as JSON object keys; they stay `BTreeMap<String, T>`
//! and [`pick_primary`] chooses the primary training device's entry.

use std::collections::BTreeMap;

use chrono::{NaiveDate, NaiveDateTime};
use serde::{Deserialize, Serialize};

use super::MaxMetrics;
use crate::models::common::MetricStatistics;
use crate::models::de;

/// Device-keyed data whose entries say whether they are the primary training device's.
pub trait PerDevice {
    /// Whether this entry belongs to the primary training device.
    fn is_primary(&self) -> bool;
}

/// The primary device's entry of a device-keyed map, else the first one.
pub fn pick_primary<T: PerDevice>(map: &BTreeMap<String, T>) -> Option<&T> {
    map.values().find(|v| v.is_primary()).or_else(|| map.values().next())
}

/// `metrics-service/metrics/trainingstatus/aggregated/{date}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TrainingStatus {
    /// Owner.
    #[serde(deserialize_with = "de::id")]
    pub user_id: Option<u64>,
    /// Latest VO2max.
    #[serde(rename = "mostRecentVO2Max")]
    pub most_recent_vo2_max: Option<MaxMetrics>,
    /// Latest load balance.
    pub most_recent_training_load_balance: Option<TrainingLoadBalance>,
    /// Latest training status.
    pub most_recent_training_status: Option<TrainingStatusLatest>,
}

impl TrainingStatus {
    /// The primary device's latest status.
    pub fn primary_status(&self) -> Option<&TrainingStatusData> {
        pick_primary(&self.most_recent_training_status.as_ref()?.latest_training_status_data)
    }

    /// The primary device's load balance.
    pub fn primary_load_balance(&self) -> Option<&LoadBalance> {
        pick_primary(&self.most_recent_training_load_balance.as_ref()?.metrics_training_load_balance_dto_map)
    }

    /// True when any status, load balance or VO2max is present.
    pub fn has_data(&self) -> bool {
        self.primary_status().is_some()
            || self.primary_load_balance().is_some()
            || self.most_recent_vo2_max.as_ref().is_some_and(|v| v.generic.is_some() || v.cycling.is_some())
    }
}

/// Monthly load per intensity band, per device.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TrainingLoadBalance {
    /// Owner.
    #[serde(deserialize_with = "de::id")]
    pub user_id: Option<u64>,
    /// Per device id.
    #[serde(rename = "metricsTrainingLoadBalanceDTOMap", deserialize_with = "de::map")]
    pub metrics_training_load_balance_dto_map: BTreeMap<String, LoadBalance>,
    /// Devices that recorded.
    #[serde(deserialize_with = "de::vec")]
    pub recorded_devices: Vec<RecordedDevice>,
}

/// One device's monthly load balance.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct LoadBalance {
    /// The day.
    #[serde(deserialize_with = "de::date")]
    pub calendar_date: Option<NaiveDate>,
    /// Device id.
    #[serde(deserialize_with = "de::id")]
    pub device_id: Option<u64>,
    /// Low aerobic load.
    pub monthly_load_aerobic_low: Option<f64>,
    /// High aerobic load.
    pub monthly_load_aerobic_high: Option<f64>,
    /// Anaerobic load.
    pub monthly_load_anaerobic: Option<f64>,
    /// Target band for low aerobic (min).
    pub monthly_load_aerobic_low_target_min: Option<f64>,
    /// Target band for low aerobic (max).
    pub monthly_load_aerobic_low_target_max: Option<f64>,
    /// Target band for high aerobic (min).
    pub monthly_load_aerobic_high_target_min: Option<f64>,
    /// Target band for high aerobic (max).
    pub monthly_load_aerobic_high_target_max: Option<f64>,
    /// Target band for anaerobic (min).
    pub monthly_load_anaerobic_target_min: Option<f64>,
    /// Target band for anaerobic (max).
    pub monthly_load_anaerobic_target_max: Option<f64>,
    /// Feedback key, e.g. `ANAEROBIC_SHORTAGE`.
    pub training_balance_feedback_phrase: Option<String>,
    /// Primary training device.
    pub primary_training_device: Option<bool>,
}

impl PerDevice for LoadBalance {
    fn is_primary(&self) -> bool {
        self.primary_training_device == Some(true)
    }
}

/// The latest training status per device.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TrainingStatusLatest {
    /// Owner.
    #[serde(deserialize_with = "de::id")]
    pub user_id: Option<u64>,
    /// Per device id.
    #[serde(deserialize_with = "de::map")]
    pub latest_training_status_data: BTreeMap<String, TrainingStatusData>,
    /// Devices that recorded.
    #[serde(deserialize_with = "de::vec")]
    pub recorded_devices: Vec<RecordedDevice>,
    /// Last sync of the primary device.
    #[serde(deserialize_with = "de::date")]
    pub last_primary_sync_date: Option<NaiveDate>,
}

/// One device's training status on a day.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TrainingStatusData {
    /// The day.
    #[serde(deserialize_with = "de::date")]
    pub calendar_date: Option<NaiveDate>,
    /// Since when the status holds.
    #[serde(deserialize_with = "de::date")]
    pub since_date: Option<NaiveDate>,
    /// Device id.
    #[serde(deserialize_with = "de::id")]
    pub device_id: Option<u64>,
    /// Status code (Garmin's numbering; see `training_status_feedback_phrase`).
    #[serde(deserialize_with = "de::int")]
    pub training_status: Option<i64>,
    /// Status key, e.g. `PRODUCTIVE_3`, `UNPRODUCTIVE_4`, `OVERREACHING_1`.
    pub training_status_feedback_phrase: Option<String>,
    /// Fitness trend (1 down, 2 flat, 3 up as seen).
    #[serde(deserialize_with = "de::int")]
    pub fitness_trend: Option<i64>,
    /// Weekly load.
    pub weekly_training_load: Option<f64>,
    /// Load tunnel lower bound.
    pub load_tunnel_min: Option<f64>,
    /// Load tunnel upper bound.
    pub load_tunnel_max: Option<f64>,
    /// Acute/chronic load.
    #[serde(rename = "acuteTrainingLoadDTO")]
    pub acute_training_load: Option<AcuteTrainingLoad>,
    /// Status paused.
    pub training_paused: Option<bool>,
    /// `RUNNING`…
    pub sport: Option<String>,
    /// Primary training device.
    pub primary_training_device: Option<bool>,
}

impl PerDevice for TrainingStatusData {
    fn is_primary(&self) -> bool {
        self.primary_training_device == Some(true)
    }
}

/// Acute and chronic training load.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AcuteTrainingLoad {
    /// Acute (7-day) load.
    pub daily_training_load_acute: Option<f64>,
    /// Chronic (28-day) load.
    pub daily_training_load_chronic: Option<f64>,
    /// Acute:chronic ratio.
    pub daily_acute_chronic_workload_ratio: Option<f64>,
    /// `OPTIMAL`, `HIGH`, `LOW`…
    pub acwr_status: Option<String>,
    /// Ratio as a gauge percent.
    pub acwr_percent: Option<f64>,
    /// Optimal chronic band, lower bound.
    pub min_training_load_chronic: Option<f64>,
    /// Optimal chronic band, upper bound.
    pub max_training_load_chronic: Option<f64>,
}

/// A device named in a training answer.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RecordedDevice {
    /// Device id.
    #[serde(deserialize_with = "de::id")]
    pub device_id: Option<u64>,
    /// Product name.
    pub device_name: Option<String>,
}

/// Heat and altitude acclimation.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct HeatAltitudeAcclimation {
    /// The day.
    #[serde(deserialize_with = "de::date")]
    pub calendar_date: Option<NaiveDate>,
    /// Heat acclimation (%).
    pub heat_acclimation_percentage: Option<f64>,
    /// Altitude acclimation (m).
    pub altitude_acclimation: Option<f64>,
    /// Current altitude (m).
    pub current_altitude: Option<f64>,
    /// `ACCLIMATIZING`, `ACCLIMATIZED`…
    pub heat_trend: Option<String>,
    /// Altitude trend.
    pub altitude_trend: Option<String>,
    /// Last update (local).
    #[serde(deserialize_with = "de::local")]
    pub altitude_acclimation_local_timestamp: Option<NaiveDateTime>,
}

/// One part of a mobile-gateway answer.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GatewayPart<T> {
    /// The inner request.
    pub request_url: Option<String>,
    /// The inner status.
    #[serde(deserialize_with = "de::int")]
    pub status_code: Option<i64>,
    /// Whether it worked.
    pub successful: Option<bool>,
    /// The inner answer.
    pub payload: Option<T>,
}

/// `mobile-gateway/usersummary/trainingstatus/{latest|weekly|monthly}`: the parts present.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TrainingStatusGateway {
    /// Latest VO2max.
    #[serde(rename = "mostRecentVO2Max")]
    pub most_recent_vo2_max: Option<GatewayPart<MaxMetrics>>,
    /// Latest load balance.
    pub most_recent_training_load_balance: Option<GatewayPart<TrainingLoadBalance>>,
    /// Latest status.
    pub most_recent_training_status: Option<GatewayPart<TrainingStatusLatest>>,
    /// Latest acclimation.
    pub most_recent_heat_altitude_acclimation: Option<GatewayPart<HeatAltitudeAcclimation>>,
    /// VO2max per day over the period (weekly or monthly answer).
    #[serde(rename = "vo2MaxWeeklyStatistics", alias = "vo2MaxMonthlyStatistics")]
    pub vo2_max_statistics: Option<GatewayPart<MetricStatistics>>,
    /// Status per device over the period (weekly or monthly answer).
    #[serde(rename = "weeklyTrainingStatus", alias = "monthlyTrainingStatus")]
    pub training_status_report: Option<GatewayPart<TrainingStatusReport>>,
}

/// Training status per device over a period.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TrainingStatusReport {
    /// First day.
    #[serde(deserialize_with = "de::date")]
    pub from_calendar_date: Option<NaiveDate>,
    /// Last day.
    #[serde(deserialize_with = "de::date")]
    pub to_calendar_date: Option<NaiveDate>,
    /// Rows per device id.
    #[serde(deserialize_with = "de::map")]
    pub report_data: BTreeMap<String, Vec<TrainingStatusData>>,
}
