//! Health Status (fēnix 8 era watches, reference `garmin-newest-metrics.md`): each overnight
//! metric — HRV, resting heart rate, respiration, skin temperature, SpO2 — against the athlete's
//! own baseline range, with Garmin's status for it.
//!
//! Path: `/healthstatus-service/healthstatus/summary/{date}` and `/{start}/{end}` (one
//! unattributed endpoint catalogue: *unverified*). No recorded body exists, so the field names
//! below are *unverified* too: ours, modelled on what the Garmin Connect card shows (a value, the
//! baseline's low and high ends, a status per metric). Everything is optional and an unknown
//! field is ignored, so a different real shape reads as "nothing there", never as zeros.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use crate::models::de;

/// One day of `healthstatus-service/healthstatus/summary` (*unverified* shape).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct HealthStatus {
    /// The day (the night that ended that morning).
    #[serde(deserialize_with = "de::date")]
    pub calendar_date: Option<NaiveDate>,
    /// Garmin's overall verdict (`ALL_IN_RANGE`, `OUT_OF_RANGE`…).
    pub overall_status: Option<String>,
    /// One entry per metric.
    #[serde(deserialize_with = "de::vec")]
    pub metrics: Vec<HealthStatusMetric>,
}

/// One metric of a day's Health Status (*unverified* field names).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct HealthStatusMetric {
    /// `HRV`, `RESTING_HEART_RATE`, `RESPIRATION`, `SKIN_TEMPERATURE`, `SPO2`.
    #[serde(rename = "type")]
    pub metric_type: Option<String>,
    /// The night's value (ms, bpm, breaths/min, °C change from baseline, %).
    pub value: Option<f64>,
    /// The baseline range's low end.
    pub baseline_lower_limit: Option<f64>,
    /// The baseline range's high end.
    pub baseline_upper_limit: Option<f64>,
    /// `IN_RANGE`, `ABOVE_BASELINE`, `BELOW_BASELINE`, `NO_BASELINE`…
    pub status: Option<String>,
    /// Garmin's unit key.
    pub unit: Option<String>,
}

impl HealthStatus {
    /// True when some metric has a value (a day without a night gives none).
    pub fn has_data(&self) -> bool {
        self.metrics.iter().any(|m| m.value.is_some())
    }

    /// The entry of `metric_type` (any case).
    pub fn metric(&self, metric_type: &str) -> Option<&HealthStatusMetric> {
        self.metrics
            .iter()
            .find(|m| m.metric_type.as_deref().is_some_and(|t| t.eq_ignore_ascii_case(metric_type)))
            .filter(|m| m.value.is_some())
    }
}
