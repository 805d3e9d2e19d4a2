//! Who the athlete is and how they set up Garmin Connect: social profile, user settings (weight,
//! sleep window, measurement system), personal information, lifetime statistics and totals.

use std::collections::BTreeMap;

use chrono::{NaiveDate, NaiveDateTime};
use serde::{Deserialize, Serialize};

use super::activities::ActivityType;
use super::de;

/// `userprofile-service/socialProfile`: the account's public face and ids.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SocialProfile {
    /// Social-profile id (not the profile id).
    #[serde(deserialize_with = "de::id")]
    pub id: Option<u64>,
    /// Profile id (= `userProfilePk` elsewhere).
    #[serde(deserialize_with = "de::id")]
    pub profile_id: Option<u64>,
    /// Garmin account GUID.
    #[serde(rename = "garminGUID")]
    pub garmin_guid: Option<String>,
    /// displayName used in many paths.
    pub display_name: Option<String>,
    /// Full name.
    pub full_name: Option<String>,
    /// User name.
    pub user_name: Option<String>,
    /// Location text.
    pub location: Option<String>,
    /// Profile picture (large).
    pub profile_image_url_large: Option<String>,
    /// Profile visibility (`private`, `public`…).
    pub profile_visibility: Option<String>,
    /// Running training speed in m/s (0 when unset).
    pub running_training_speed: Option<f64>,
    /// Roles and scopes of the account.
    #[serde(deserialize_with = "de::vec")]
    pub user_roles: Vec<String>,
    /// Gamification level.
    #[serde(deserialize_with = "de::int")]
    pub user_level: Option<i64>,
    /// Gamification points earned.
    #[serde(deserialize_with = "de::num")]
    pub user_point: Option<f64>,
    /// Points at which the next level starts.
    #[serde(deserialize_with = "de::num")]
    pub level_point_threshold: Option<f64>,
    /// Connect IQ / Pro flag.
    pub user_pro: Option<bool>,
}

/// `userprofile-service/userprofile/user-settings`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct UserSettings {
    /// Profile id.
    #[serde(deserialize_with = "de::id")]
    pub id: Option<u64>,
    /// Body data and preferences.
    pub user_data: Option<UserData>,
    /// Usual sleep window.
    pub user_sleep: Option<UserSleep>,
    /// Per-weekday sleep windows.
    #[serde(deserialize_with = "de::vec")]
    pub user_sleep_windows: Vec<SleepWindow>,
}

/// The `userData` block of the user settings.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct UserData {
    /// `MALE` / `FEMALE`.
    pub gender: Option<String>,
    /// Body weight in grams.
    pub weight: Option<f64>,
    /// Height in centimetres.
    pub height: Option<f64>,
    /// Birth date.
    #[serde(deserialize_with = "de::date")]
    pub birth_date: Option<NaiveDate>,
    /// `metric`, `statute_us` or `statute_uk`.
    pub measurement_system: Option<String>,
    /// `time_twenty_four_hr` or `time_twelve_hr`.
    pub time_format: Option<String>,
    /// First day of the week.
    pub first_day_of_week: Option<FirstDayOfWeek>,
    /// Running VO2max (ml/kg/min).
    pub vo2_max_running: Option<f64>,
    /// Cycling VO2max (ml/kg/min).
    pub vo2_max_cycling: Option<f64>,
    /// Lactate-threshold speed as Garmin stores it (looks like m/s ÷ 10; unverified).
    pub lactate_threshold_speed: Option<f64>,
    /// Lactate-threshold heart rate (bpm).
    pub lactate_threshold_heart_rate: Option<f64>,
    /// HR zone from which minutes count as moderate intensity.
    #[serde(deserialize_with = "de::int")]
    pub moderate_intensity_minutes_hr_zone: Option<i64>,
    /// HR zone from which minutes count as vigorous intensity.
    #[serde(deserialize_with = "de::int")]
    pub vigorous_intensity_minutes_hr_zone: Option<i64>,
    /// Hydration unit (`milliliter`…).
    pub hydration_measurement_unit: Option<String>,
}

/// First day of the week.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct FirstDayOfWeek {
    /// Day id as Garmin numbers them (the sample has 2 for Sunday).
    #[serde(deserialize_with = "de::int")]
    pub day_id: Option<i64>,
    /// `sunday`, `monday`…
    pub day_name: Option<String>,
}

/// Usual sleep and wake times, in seconds after midnight.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct UserSleep {
    /// Bedtime (s after midnight).
    #[serde(deserialize_with = "de::int")]
    pub sleep_time: Option<i64>,
    /// Wake time (s after midnight).
    #[serde(deserialize_with = "de::int")]
    pub wake_time: Option<i64>,
    /// Whether the bedtime is Garmin's default.
    pub default_sleep_time: Option<bool>,
    /// Whether the wake time is Garmin's default.
    pub default_wake_time: Option<bool>,
}

/// A sleep window for a weekday (or `DAILY`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SleepWindow {
    /// `MONDAY`…`SUNDAY` or `DAILY`.
    pub sleep_window_frequency: Option<String>,
    /// Start (s after midnight).
    #[serde(deserialize_with = "de::int")]
    pub start_sleep_time_seconds_from_midnight: Option<i64>,
    /// End (s after midnight).
    #[serde(deserialize_with = "de::int")]
    pub end_sleep_time_seconds_from_midnight: Option<i64>,
}

/// `userprofile-service/userprofile/settings`: locale and unit preferences. The shape is
/// unverified; everything is kept in `extra`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ProfileSettings {
    /// Locale, e.g. `en_US`.
    #[serde(alias = "preferredLocale")]
    pub locale: Option<String>,
    /// `metric`, `statute_us`…
    pub measurement_system: Option<String>,
    /// `time_twenty_four_hr` or `time_twelve_hr`.
    pub time_format: Option<String>,
    /// IANA time zone, e.g. `Europe/Paris`.
    pub time_zone: Option<String>,
    /// First day of the week.
    pub first_day_of_week: Option<FirstDayOfWeek>,
    /// Every other field as sent.
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}

/// `userprofile-service/userprofile/personal-information/{displayName}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PersonalInformation {
    /// Identity and contact.
    pub user_info: Option<UserInfo>,
    /// Body data.
    pub biometric_profile: Option<BiometricProfile>,
    /// Time zone name.
    pub time_zone: Option<String>,
    /// Every other field as sent.
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}

/// `userInfo` of the personal information.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct UserInfo {
    /// Birth date.
    #[serde(deserialize_with = "de::date")]
    pub birth_date: Option<NaiveDate>,
    /// `MALE` / `FEMALE`.
    pub gender_type: Option<String>,
    /// E-mail (masked by Garmin).
    pub email: Option<String>,
    /// Locale.
    pub locale: Option<String>,
    /// Time zone name.
    pub time_zone: Option<String>,
    /// Age in years.
    #[serde(deserialize_with = "de::int")]
    pub age: Option<i64>,
}

/// `biometricProfile` of the personal information.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct BiometricProfile {
    /// Height in centimetres.
    pub height: Option<f64>,
    /// Weight in grams.
    pub weight: Option<f64>,
    /// VO2max (ml/kg/min).
    #[serde(rename = "vo2Max")]
    pub vo2_max: Option<f64>,
    /// Cycling VO2max.
    pub vo2_max_cycling: Option<f64>,
    /// Lactate-threshold heart rate (bpm).
    pub lactate_threshold_heart_rate: Option<f64>,
    /// Functional threshold power (W).
    pub functional_threshold_power: Option<f64>,
}

/// `userstats-service/statistics/{displayName}`: totals per activity type.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct UserStatistics {
    /// Owner.
    #[serde(deserialize_with = "de::id")]
    pub user_profile_id: Option<u64>,
    /// Period start, when limited.
    #[serde(deserialize_with = "de::local")]
    pub statistics_start_date: Option<NaiveDateTime>,
    /// Period end, when limited.
    #[serde(deserialize_with = "de::local")]
    pub statistics_end_date: Option<NaiveDateTime>,
    /// One row per activity type (`all` included).
    #[serde(deserialize_with = "de::vec")]
    pub user_metrics: Vec<UserMetric>,
}

/// Totals of one activity type.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct UserMetric {
    /// The activity type.
    pub activity_type: Option<ActivityType>,
    /// Its parent type.
    pub parent_activity_type: Option<ActivityType>,
    /// Number of activities.
    #[serde(deserialize_with = "de::int")]
    pub total_activities: Option<i64>,
    /// Distance (m; Garmin's sample looks scaled, unverified).
    pub total_distance: Option<f64>,
    /// Duration (s).
    pub total_duration: Option<f64>,
    /// Calories (kcal).
    pub total_calories: Option<f64>,
    /// Elevation gain (m).
    pub total_elevation_gain: Option<f64>,
}

/// `usersummary-service/stats/connectLifetimeTotals/{displayName}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct LifetimeTotals {
    /// Number of activities.
    #[serde(deserialize_with = "de::int")]
    pub total_activities: Option<i64>,
    /// Distance (m).
    pub total_distance: Option<f64>,
    /// Duration (s).
    pub total_duration: Option<f64>,
    /// Calories (kcal).
    pub total_calories: Option<f64>,
    /// Steps.
    pub total_steps: Option<f64>,
    /// Distance on foot (m).
    pub total_distance_on_foot: Option<f64>,
    /// Daily goals met.
    pub total_goals_met: Option<f64>,
    /// Days with data.
    pub total_days: Option<f64>,
    /// Average resting heart rate (bpm).
    pub average_resting_heart_rate: Option<f64>,
    /// Every other field as sent.
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}
