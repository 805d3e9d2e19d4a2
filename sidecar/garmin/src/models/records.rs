//! Personal records (`personalrecord-service`): best times (s) and distances (m) per record type.

use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use serde::{Deserialize, Serialize};

use super::de;

/// One personal record.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PersonalRecord {
    /// Record id.
    #[serde(deserialize_with = "de::id")]
    pub id: Option<u64>,
    /// Record type (1 = 1 km, 2 = 1 mile, 3 = 5 km, 4 = 10 km, … as inferred).
    #[serde(deserialize_with = "de::int")]
    pub type_id: Option<i64>,
    /// Activity that set it (0 for day-based records such as steps).
    #[serde(deserialize_with = "de::id")]
    pub activity_id: Option<u64>,
    /// Activity name.
    pub activity_name: Option<String>,
    /// Activity type key.
    #[serde(deserialize_with = "de::text")]
    pub activity_type: Option<String>,
    /// The record: seconds for time records, metres for distance records, a count otherwise.
    pub value: Option<f64>,
    /// When the record effort started (GMT).
    #[serde(rename = "prStartTimeGmt", deserialize_with = "de::utc")]
    pub pr_start_time_gmt: Option<DateTime<Utc>>,
    /// When the record effort started (local).
    #[serde(deserialize_with = "de::local")]
    pub pr_start_time_local: Option<NaiveDateTime>,
    /// `ACCEPTED`…
    pub status: Option<String>,
}

impl PersonalRecord {
    /// The day of the record (from the GMT start).
    pub fn date(&self) -> Option<NaiveDate> {
        self.pr_start_time_gmt.map(|t| t.date_naive())
    }
}

/// A record type (`personalrecordtype/prtypes/{displayName}`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PersonalRecordType {
    /// Type id.
    #[serde(deserialize_with = "de::int")]
    pub id: Option<i64>,
    /// Key, e.g. `pr.label.fastest.5k`.
    pub key: Option<String>,
    /// Sport.
    #[serde(deserialize_with = "de::text")]
    pub sport: Option<String>,
    /// Whether the user has a record of this type.
    #[serde(deserialize_with = "de::flag")]
    pub visible: Option<bool>,
    /// Every other field as sent.
    #[serde(flatten)]
    pub extra: std::collections::BTreeMap<String, serde_json::Value>,
}
