//! Gear (shoes, bikes…) and its usage totals, so "how many km on my shoes?" has an answer.

use chrono::{NaiveDate, NaiveDateTime};
use serde::{Deserialize, Serialize};

use super::de;

/// One piece of gear (`gear-service/gear/filterGear`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Gear {
    /// Uuid (path component of the gear endpoints).
    pub uuid: Option<String>,
    /// Numeric key.
    #[serde(deserialize_with = "de::id")]
    pub gear_pk: Option<u64>,
    /// Owner.
    #[serde(deserialize_with = "de::id")]
    pub user_profile_pk: Option<u64>,
    /// Maker.
    pub gear_make_name: Option<String>,
    /// Model.
    pub gear_model_name: Option<String>,
    /// `Shoes`, `Bike`…
    pub gear_type_name: Option<String>,
    /// Gear type id.
    #[serde(deserialize_with = "de::int")]
    pub gear_type_pk: Option<i64>,
    /// `active` or `retired`.
    pub gear_status_name: Option<String>,
    /// Nickname.
    pub display_name: Option<String>,
    /// Free-text make and model.
    pub custom_make_model: Option<String>,
    /// Distance at which to retire it (m; 0 = none).
    pub maximum_meters: Option<f64>,
    /// Whether Garmin already warned that it reached `maximum_meters`.
    pub notified: Option<bool>,
    /// First use.
    #[serde(deserialize_with = "de::date")]
    pub date_begin: Option<NaiveDate>,
    /// Retired on.
    #[serde(deserialize_with = "de::date")]
    pub date_end: Option<NaiveDate>,
    /// Created.
    #[serde(deserialize_with = "de::local")]
    pub create_date: Option<NaiveDateTime>,
}

impl Gear {
    /// The best name to show: nickname, else make and model.
    pub fn name(&self) -> String {
        if let Some(name) = self.display_name.as_deref().filter(|n| !n.trim().is_empty()) {
            return name.to_owned();
        }
        if let Some(custom) = self.custom_make_model.as_deref().filter(|n| !n.trim().is_empty()) {
            return custom.to_owned();
        }
        let parts: Vec<&str> =
            [self.gear_make_name.as_deref(), self.gear_model_name.as_deref()].into_iter().flatten().collect();
        parts.join(" ")
    }

    /// Whether it is retired.
    pub fn is_retired(&self) -> bool {
        self.gear_status_name.as_deref().is_some_and(|s| s.eq_ignore_ascii_case("retired"))
    }
}

/// `gear-service/gear/stats/{uuid}`: usage totals.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GearStats {
    /// Gear uuid.
    pub uuid: Option<String>,
    /// Distance covered (m).
    pub total_distance: Option<f64>,
    /// Activities using it.
    pub total_activities: Option<f64>,
    /// Whether Garmin is still summing.
    pub processing: Option<bool>,
}

/// `gear-service/gear/types`: a gear type.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GearType {
    /// Id.
    #[serde(deserialize_with = "de::int")]
    pub gear_type_pk: Option<i64>,
    /// Name, e.g. `Shoes`.
    pub gear_type_name: Option<String>,
}
