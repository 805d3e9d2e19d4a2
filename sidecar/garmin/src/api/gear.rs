//! Gear (reference §4.7): shoes and bikes, their distance, and which gear an activity used.

use super::{profile_id, segment};
use crate::models::gear::{Gear, GearStats, GearType};
use crate::{Client, Result};

/// Gear (reference §4.7). Made by [`Client::gear`].
#[derive(Clone, Copy, Debug)]
pub struct GearApi<'a> {
    pub(crate) client: &'a Client,
}

impl GearApi<'_> {
    /// `GET /gc-api/gear-service/gear/filterGear?userProfilePk={profileId}` — all the athlete's
    /// gear, active and retired.
    pub async fn list(&self) -> Result<Vec<Gear>> {
        let pk = profile_id(self.client).await?;
        let query = [("userProfilePk", pk.to_string())];
        Ok(self.client.get_json("/gear-service/gear/filterGear", &query).await?.unwrap_or_default())
    }

    /// `GET /gc-api/gear-service/gear/stats/{uuid}` — distance (m) and activities on one piece of
    /// gear.
    pub async fn stats(&self, uuid: &str) -> Result<Option<GearStats>> {
        self.client.get_json(&format!("/gear-service/gear/stats/{}", segment(uuid)), &[]).await
    }

    /// `GET /gc-api/gear-service/gear/types` — gear types.
    pub async fn types(&self) -> Result<Vec<GearType>> {
        Ok(self.client.get_json("/gear-service/gear/types", &[]).await?.unwrap_or_default())
    }

    /// `GET /gc-api/gear-service/gear/filterGear?activityId={id}` — the gear one activity used.
    pub async fn for_activity(&self, activity_id: u64) -> Result<Vec<Gear>> {
        let query = [("activityId", activity_id.to_string())];
        Ok(self.client.get_json("/gear-service/gear/filterGear", &query).await?.unwrap_or_default())
    }
}
