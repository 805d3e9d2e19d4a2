//! Connections and groups (reference §4.9; paths from one source only).

use super::{Many, display_name};
use crate::models::social::{Connection, Connections, Group};
use crate::{Client, Result};

/// Connections and groups (reference §4.9). Made by [`Client::social`].
#[derive(Clone, Copy, Debug)]
pub struct SocialApi<'a> {
    pub(crate) client: &'a Client,
}

impl SocialApi<'_> {
    /// `GET /gc-api/userprofile-service/socialProfile/connections/pagination/{displayName}?start&limit`
    /// — one page of connections (`start` 0-based).
    pub async fn connections(&self, start: u32, limit: u32) -> Result<Connections> {
        let path = format!(
            "/userprofile-service/socialProfile/connections/pagination/{}",
            display_name(self.client).await?
        );
        let query = [("start", start.to_string()), ("limit", limit.clamp(1, 1000).to_string())];
        Ok(self.client.get_json(&path, &query).await?.unwrap_or_default())
    }

    /// `GET /gc-api/userprofile-service/connection/pending` — connection requests waiting for an
    /// answer (`None` when Garmin sends no body).
    pub async fn pending(&self) -> Result<Option<Vec<Connection>>> {
        self.client.get_json("/userprofile-service/connection/pending", &[]).await
    }

    /// `GET /gc-api/group-service/groups/{displayName}` — groups the athlete belongs to.
    pub async fn groups(&self) -> Result<Vec<Group>> {
        let path = format!("/group-service/groups/{}", display_name(self.client).await?);
        let answer: Option<Many<Group>> = self.client.get_json(&path, &[]).await?;
        Ok(answer
            .map(Many::into_vec)
            .unwrap_or_default()
            .into_iter()
            .filter(|g| g.group_id.is_some())
            .collect())
    }
}
