//! The account (reference §4.1): social profile, settings, personal information, statistics and
//! lifetime totals.

use super::{display_name, required};
use crate::models::profile::{
    LifetimeTotals, PersonalInformation, ProfileSettings, SocialProfile, UserSettings, UserStatistics,
};
use crate::{Client, Result};

/// The account's profile (reference §4.1). Made by [`Client::profile`].
#[derive(Clone, Copy, Debug)]
pub struct ProfileApi<'a> {
    pub(crate) client: &'a Client,
}

impl ProfileApi<'_> {
    /// `GET /gc-api/userprofile-service/socialProfile` — displayName, profile id, names.
    pub async fn social_profile(&self) -> Result<SocialProfile> {
        let path = "/userprofile-service/socialProfile";
        required(self.client.get_json(path, &[]).await?, &format!("GET /gc-api{path}"))
    }

    /// `GET /gc-api/userprofile-service/userprofile/user-settings` — weight (g), height (cm),
    /// measurement system, VO2max, sleep window.
    pub async fn user_settings(&self) -> Result<UserSettings> {
        let path = "/userprofile-service/userprofile/user-settings";
        required(self.client.get_json(path, &[]).await?, &format!("GET /gc-api{path}"))
    }

    /// `GET /gc-api/userprofile-service/userprofile/settings` — locale and unit preferences.
    pub async fn settings(&self) -> Result<ProfileSettings> {
        Ok(self.client.get_json("/userprofile-service/userprofile/settings", &[]).await?.unwrap_or_default())
    }

    /// `GET /gc-api/userprofile-service/userprofile/personal-information/{displayName}` — birth
    /// date, gender, e-mail (masked), time zone and biometric profile.
    pub async fn personal_information(&self) -> Result<PersonalInformation> {
        let path = format!(
            "/userprofile-service/userprofile/personal-information/{}",
            display_name(self.client).await?
        );
        Ok(self.client.get_json(&path, &[]).await?.unwrap_or_default())
    }

    /// `GET /gc-api/userstats-service/statistics/{displayName}` — totals per activity type.
    pub async fn statistics(&self) -> Result<UserStatistics> {
        let path = format!("/userstats-service/statistics/{}", display_name(self.client).await?);
        Ok(self.client.get_json(&path, &[]).await?.unwrap_or_default())
    }

    /// `GET /gc-api/usersummary-service/stats/connectLifetimeTotals/{displayName}` — lifetime
    /// totals (distance in m, duration in s, steps, calories).
    pub async fn lifetime_totals(&self) -> Result<LifetimeTotals> {
        let path =
            format!("/usersummary-service/stats/connectLifetimeTotals/{}", display_name(self.client).await?);
        Ok(self.client.get_json(&path, &[]).await?.unwrap_or_default())
    }
}
