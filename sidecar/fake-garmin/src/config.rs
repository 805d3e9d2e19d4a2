//! How a fake Garmin is started: which site it imitates, who the account is, how long sessions
//! live, and the date and seed the generated data set is anchored to.

use std::time::Duration;

use chrono::NaiveDate;

/// Which Garmin Connect the fake imitates (SSO locale, host names in HTML, units of some pages).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FakeSite {
    /// connect.garmin.com / sso.garmin.com
    Global,
    /// connect.garmin.cn / sso.garmin.cn
    Cn,
}

/// Start-up settings of one fake Garmin Connect.
#[derive(Clone, Debug)]
pub struct FakeConfig {
    /// Site imitated.
    pub site: FakeSite,
    /// Port to bind on 127.0.0.1; 0 picks a free one.
    pub port: u16,
    /// How long one `JWT_WEB` access cookie is accepted by `/gc-api` (Garmin: minutes to an hour).
    pub jwt_lifetime: Duration,
    /// How long the long-lived `session` cookie family lives (Garmin: about three months).
    pub session_lifetime: Duration,
    /// Reject `/gc-api` calls whose User-Agent differs from the one the session signed in with.
    pub require_user_agent_match: bool,
    /// "Today" for the generated data set: about a year of history ends here.
    pub today: NaiveDate,
    /// Seed of the deterministic data generator: same seed and `today`, same data.
    pub seed: u64,
    /// The account's displayName (URL path component in many endpoints).
    pub display_name: String,
    /// The account's numeric profile id (userProfilePk).
    pub profile_id: u64,
    /// The account's full name.
    pub full_name: String,
}

impl Default for FakeConfig {
    fn default() -> Self {
        Self {
            site: FakeSite::Global,
            port: 0,
            jwt_lifetime: Duration::from_secs(3600),
            session_lifetime: Duration::from_secs(90 * 24 * 3600),
            require_user_agent_match: true,
            today: chrono::Local::now().date_naive(),
            seed: 42,
            display_name: "fake-athlete-1".to_owned(),
            profile_id: 1_000_001,
            full_name: "Alex Example".to_owned(),
        }
    }
}
