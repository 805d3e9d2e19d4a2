//! The athlete's load profile kept in the history: heart-rate profile (maximum, resting and
//! threshold heart rate, sex) and FTP, as the load analytics (hrTSS, power TSS) need them. Read from
//! Garmin in three requests (heart-rate zones, user settings, personal information), at each sync
//! and by the tools at most once a day ([`History::athlete_profile`] says when it was read), so
//! asking for the fitness trend twice asks Garmin nothing the second time.

use chrono::{NaiveDate, Utc};
use garmin::Client;
use garmin::models::metrics::HrZones;
use garmin::models::profile::{PersonalInformation, UserSettings};
use rusqlite::{OptionalExtension, params};

use crate::store::{parse_ymd, ymd};
use crate::{History, Result};

/// Requests one profile read sends.
pub const PROFILE_REQUESTS: u32 = 3;

/// The athlete's load profile.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AthleteProfile {
    /// Maximum heart rate, bpm (from the first zone entry with max, resting and threshold).
    pub max_hr: Option<f64>,
    /// Resting heart rate, bpm.
    pub resting_hr: Option<f64>,
    /// Lactate threshold heart rate, bpm.
    pub threshold_hr: Option<f64>,
    /// `MALE` / `FEMALE` as Garmin writes it; `None` unknown.
    pub sex: Option<String>,
    /// Functional threshold power, W.
    pub ftp: Option<f64>,
    /// The athlete's local date when it was read.
    pub read_on: NaiveDate,
}

impl AthleteProfile {
    /// The profile in Garmin's three answers (any of them may be missing).
    pub fn from_garmin(
        zones: &[HrZones],
        settings: Option<&UserSettings>,
        personal: Option<&PersonalInformation>,
        read_on: NaiveDate,
    ) -> Self {
        let entry = zones.iter().find(|z| {
            z.max_heart_rate_used.is_some()
                && z.resting_heart_rate_used.is_some()
                && z.lactate_threshold_heart_rate_used.is_some()
        });
        AthleteProfile {
            max_hr: entry.and_then(|z| z.max_heart_rate_used),
            resting_hr: entry.and_then(|z| z.resting_heart_rate_used),
            threshold_hr: entry.and_then(|z| z.lactate_threshold_heart_rate_used),
            sex: settings
                .and_then(|s| s.user_data.as_ref())
                .and_then(|d| d.gender.as_deref())
                .map(str::to_uppercase)
                .filter(|g| g == "MALE" || g == "FEMALE"),
            ftp: personal
                .and_then(|p| p.biometric_profile.as_ref())
                .and_then(|b| b.functional_threshold_power)
                .filter(|f| f.is_finite() && *f > 0.0),
            read_on,
        }
    }
}

/// What was read, for [`History::save_athlete_profile`].
#[derive(Debug)]
pub struct ProfileRead {
    /// The profile.
    pub profile: AthleteProfile,
    zones: Vec<HrZones>,
    settings: Option<UserSettings>,
    personal: Option<PersonalInformation>,
}

/// Reads the profile from Garmin now (three requests at once). A part Garmin refuses leaves its
/// fields empty; an error is returned only when all three fail (e.g. a sign-in is needed).
pub async fn read_athlete_profile(client: &Client, today: NaiveDate) -> garmin::Result<ProfileRead> {
    let metrics = client.metrics();
    let profile = client.profile();
    let (zones, settings, personal) =
        tokio::join!(metrics.hr_zones(), profile.user_settings(), profile.personal_information());
    let zones = match (zones, &settings, &personal) {
        (Err(e), Err(_), Err(_)) => return Err(e),
        (zones, _, _) => zones.unwrap_or_default(),
    };
    let (settings, personal) = (settings.ok(), personal.ok());
    Ok(ProfileRead {
        profile: AthleteProfile::from_garmin(&zones, settings.as_ref(), personal.as_ref(), today),
        zones,
        settings,
        personal,
    })
}

impl History {
    /// The stored profile, if any was read.
    pub fn athlete_profile(&self) -> Result<Option<AthleteProfile>> {
        let conn = self.conn();
        let row = conn
            .query_row(
                "SELECT max_hr, resting_hr, threshold_hr, sex, ftp, read_on FROM athlete_profile WHERE id = 1",
                [],
                |r| {
                    Ok((
                        r.get::<_, Option<f64>>(0)?,
                        r.get::<_, Option<f64>>(1)?,
                        r.get::<_, Option<f64>>(2)?,
                        r.get::<_, Option<String>>(3)?,
                        r.get::<_, Option<f64>>(4)?,
                        r.get::<_, String>(5)?,
                    ))
                },
            )
            .optional()?;
        Ok(row.and_then(|(max_hr, resting_hr, threshold_hr, sex, ftp, read_on)| {
            Some(AthleteProfile { max_hr, resting_hr, threshold_hr, sex, ftp, read_on: parse_ymd(&read_on)? })
        }))
    }

    /// Keeps `read` as the athlete's profile (replacing the one before), with Garmin's answers as
    /// JSON beside the typed columns.
    pub fn save_athlete_profile(&self, read: &ProfileRead) -> Result<()> {
        let p = &read.profile;
        self.conn().execute(
            "INSERT INTO athlete_profile (id, max_hr, resting_hr, threshold_hr, sex, ftp, hr_zones_json,
                 user_settings_json, personal_json, read_on, read_at)
             VALUES (1, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
             ON CONFLICT(id) DO UPDATE SET max_hr = ?1, resting_hr = ?2, threshold_hr = ?3, sex = ?4,
                 ftp = ?5, hr_zones_json = ?6, user_settings_json = ?7, personal_json = ?8, read_on = ?9,
                 read_at = ?10",
            params![
                p.max_hr,
                p.resting_hr,
                p.threshold_hr,
                p.sex,
                p.ftp,
                json(&read.zones),
                json(&read.settings),
                json(&read.personal),
                ymd(p.read_on),
                Utc::now().timestamp()
            ],
        )?;
        Ok(())
    }
}

/// Garmin's answer as JSON text (`None` when it cannot be written).
fn json<T: serde::Serialize>(value: &T) -> Option<String> {
    serde_json::to_string(value).ok()
}
