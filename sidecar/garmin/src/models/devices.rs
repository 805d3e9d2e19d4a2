//! The athlete's Garmin devices: registered devices, the one used last, product info and device
//! settings. Device ids appear as numbers and as strings; both read as `u64`.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::de;

/// One registered device (`device-service/deviceregistration/devices`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Device {
    /// Device id (path component of device endpoints).
    #[serde(deserialize_with = "de::id")]
    pub device_id: Option<u64>,
    /// Unit id (usually equal to the device id).
    #[serde(deserialize_with = "de::id")]
    pub unit_id: Option<u64>,
    /// Name the user gave it.
    pub display_name: Option<String>,
    /// Product name, e.g. `Forerunner 965`.
    pub product_display_name: Option<String>,
    /// Application key, e.g. `fenix5`.
    pub application_key: Option<String>,
    /// Garmin part number.
    pub part_number: Option<String>,
    /// Serial number.
    pub serial_number: Option<String>,
    /// Firmware version text.
    pub current_firmware_version: Option<String>,
    /// `ACTIVE` or other.
    pub device_status: Option<String>,
    /// Whether this is the primary activity tracker.
    #[serde(deserialize_with = "de::flag")]
    pub primary_activity_tracker_indicator: Option<bool>,
    /// Product image.
    pub image_url: Option<String>,
    /// When it was registered.
    #[serde(deserialize_with = "de::utc")]
    pub registered_date: Option<DateTime<Utc>>,
    /// Every other field (the many `…Capable` flags) as sent.
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}

impl Device {
    /// The best name to show: the user's name for it, else the product name.
    pub fn name(&self) -> Option<&str> {
        self.display_name.as_deref().filter(|n| !n.is_empty()).or(self.product_display_name.as_deref())
    }
}

/// `device-service/deviceservice/mylastused`: the device that synced last.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct LastUsedDevice {
    /// Device id (what the device-message endpoint wants).
    #[serde(deserialize_with = "de::id")]
    pub user_device_id: Option<u64>,
    /// Owner.
    #[serde(deserialize_with = "de::id")]
    pub user_profile_number: Option<u64>,
    /// Application key.
    #[serde(alias = "applicationKey")]
    pub last_used_device_application_key: Option<String>,
    /// Product name.
    pub last_used_device_name: Option<String>,
    /// Upload time (epoch ms in GMT).
    #[serde(deserialize_with = "de::utc")]
    pub last_used_device_upload_time: Option<DateTime<Utc>>,
    /// Product image.
    pub image_url: Option<String>,
}

/// `device-service/deviceservice/app-info/{deviceId}`: product information.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DeviceAppInfo {
    /// Application key.
    pub application_key: Option<String>,
    /// Part number.
    pub part_number: Option<String>,
    /// Product name.
    pub product_display_name: Option<String>,
    /// Retail SKU.
    pub product_sku: Option<String>,
    /// Product image.
    pub image_url: Option<String>,
    /// Unit id.
    #[serde(deserialize_with = "de::id")]
    pub unit_id: Option<u64>,
    /// Whether it is the primary device.
    pub primary: Option<bool>,
    /// Whether it has a wrist heart-rate sensor.
    pub has_optical_heart_rate: Option<bool>,
    /// Whether it is a scale.
    pub weight_scale: Option<bool>,
    /// Firmware version text.
    pub version_string: Option<String>,
}

/// `device-service/deviceservice/device-info/settings/{deviceId}`: the device's settings, kept as
/// sent (the shape differs per product).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DeviceSettings {
    /// Device id.
    #[serde(deserialize_with = "de::id")]
    pub device_id: Option<u64>,
    /// Time format on the watch.
    pub time_format: Option<String>,
    /// Measurement units on the watch.
    pub measurement_units: Option<String>,
    /// Every other field as sent.
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}
