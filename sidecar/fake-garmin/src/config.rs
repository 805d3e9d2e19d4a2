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
    /// What the account's devices do not record (default: nothing missing; the fake athlete's
    /// watch records everything). See [`Untracked`] for how Garmin answers then.
    pub untracked: Untracked,
}

/// The kinds of data an account's devices do not record — a bike computer or a watch without sleep
/// tracking, no HRV sensor, no scale — and how Garmin answers for them (the data set is drawn as
/// usual, then holds no HRV or weigh-ins; the daily summary keeps its own figures):
///
/// * **sleep:** the range endpoints (web `sleep-service/stats/sleep/daily`, Personal API E11)
///   answer 404 `NotFoundException` (issue #25: a real account whose device tracks no sleep, `[1]`
///   for the web range; the Personal API's the same service, `[S]`); a night answers the no-data
///   form (`sleep_sleep_service_no_data.json` `[L]`), the score range `[]`;
/// * **HRV:** the night and the range answer 204 (the night's 204 without readings is `[L]`; the
///   range answering the same when the account has none is `[S]`);
/// * **weight:** the range answers 204 (`[S]`, as `weight/latest` does before any weigh-in),
///   the day view and date range hold no weigh-ins, the latest is 204;
/// * **newest metrics** (an older watch such as a Forerunner 255, `newest_metrics`): Running
///   Tolerance answers 404 (*unverified*: no recorded answer for a watch without it; the issue
///   #29 report of a 404 for a watch without training status is the model), the endurance and hill
///   scores 204 (as Garmin answers a day without one, `api/metrics.rs`), and acclimation is `null`
///   in the VO2max blocks (`max_metrics.json`'s `heatAltitudeAcclimation: null` `[L]`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Untracked {
    /// No sleep is recorded.
    pub sleep: bool,
    /// No HRV is recorded.
    pub hrv: bool,
    /// No weigh-ins are recorded.
    pub weight: bool,
    /// None of Garmin's newest metrics (Running Tolerance, endurance and hill scores, acclimation)
    /// is recorded: an older watch.
    pub newest_metrics: bool,
}

impl Untracked {
    /// A bike computer alone: no sleep, no HRV, no weigh-ins.
    pub const BIKE_COMPUTER: Untracked =
        Untracked { sleep: true, hrv: true, weight: true, newest_metrics: false };
    /// An older watch (the second fake account's Forerunner 255): everything but Garmin's newest
    /// metrics.
    pub const OLDER_WATCH: Untracked =
        Untracked { sleep: false, hrv: false, weight: false, newest_metrics: true };
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
            untracked: Untracked::default(),
        }
    }
}

impl FakeConfig {
    /// The second fake account (#29): Sam Sample, whose older watch (a Forerunner 255) records
    /// none of Garmin's newest metrics ([`Untracked::OLDER_WATCH`]); everything else as the demo
    /// athlete's, anchored on `today`.
    pub fn older_watch_account(today: NaiveDate) -> FakeConfig {
        FakeConfig {
            today,
            display_name: "fake-athlete-2".to_owned(),
            profile_id: 1_000_002,
            full_name: "Sam Sample".to_owned(),
            untracked: Untracked::OLDER_WATCH,
            ..FakeConfig::default()
        }
    }
}
