//! Personal records (reference §4.6).

use super::display_name;
use crate::models::records::{PersonalRecord, PersonalRecordType};
use crate::{Client, Result};

/// Personal records (reference §4.6). Made by [`Client::records`].
#[derive(Clone, Copy, Debug)]
pub struct RecordsApi<'a> {
    pub(crate) client: &'a Client,
}

impl RecordsApi<'_> {
    /// `GET /gc-api/personalrecord-service/personalrecord/prs/{displayName}` — every personal
    /// record (times in s, distances in m).
    pub async fn personal_records(&self) -> Result<Vec<PersonalRecord>> {
        let path = format!("/personalrecord-service/personalrecord/prs/{}", display_name(self.client).await?);
        Ok(self.client.get_json(&path, &[]).await?.unwrap_or_default())
    }

    /// `GET /gc-api/personalrecord-service/personalrecordtype/prtypes/{displayName}` — the record
    /// types and which ones the athlete has.
    pub async fn types(&self) -> Result<Vec<PersonalRecordType>> {
        let path = format!(
            "/personalrecord-service/personalrecordtype/prtypes/{}",
            display_name(self.client).await?
        );
        Ok(self.client.get_json(&path, &[]).await?.unwrap_or_default())
    }
}
