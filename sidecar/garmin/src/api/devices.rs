//! The athlete's devices (reference §4.1): registered devices, the last used one, product info
//! and settings.

use crate::models::devices::{Device, DeviceAppInfo, DeviceSettings, LastUsedDevice};
use crate::{Client, Result};

/// Devices (reference §4.1). Made by [`Client::devices`].
#[derive(Clone, Copy, Debug)]
pub struct DevicesApi<'a> {
    pub(crate) client: &'a Client,
}

impl DevicesApi<'_> {
    /// `GET /gc-api/device-service/deviceregistration/devices` — registered devices.
    pub async fn list(&self) -> Result<Vec<Device>> {
        Ok(self.client.get_json("/device-service/deviceregistration/devices", &[]).await?.unwrap_or_default())
    }

    /// `GET /gc-api/device-service/deviceservice/mylastused` — the device that synced last (the
    /// default target for sending workouts).
    pub async fn last_used(&self) -> Result<Option<LastUsedDevice>> {
        let last: Option<LastUsedDevice> =
            self.client.get_json("/device-service/deviceservice/mylastused", &[]).await?;
        Ok(last.filter(|d| d.user_device_id.is_some()))
    }

    /// `GET /gc-api/device-service/deviceservice/app-info/{deviceId}` — product information.
    pub async fn app_info(&self, device_id: u64) -> Result<Option<DeviceAppInfo>> {
        self.client.get_json(&format!("/device-service/deviceservice/app-info/{device_id}"), &[]).await
    }

    /// `GET /gc-api/device-service/deviceservice/device-info/settings/{deviceId}` — the device's
    /// settings.
    pub async fn settings(&self, device_id: u64) -> Result<Option<DeviceSettings>> {
        self.client
            .get_json(&format!("/device-service/deviceservice/device-info/settings/{device_id}"), &[])
            .await
    }
}
