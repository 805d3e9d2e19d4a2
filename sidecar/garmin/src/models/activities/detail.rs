//! One activity as `activity-service/activity/{id}` returns it: type, metadata (laps, workout,
//! multisport children, device) and the `summaryDTO` figures.

use chrono::{DateTime, NaiveDateTime, Utc};
use serde::{Deserialize, Serialize};

use super::ActivityType;
use crate::models::common::TypeRef;
use crate::models::de;

/// `GET activity-service/activity/{id}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Activity {
    /// Activity id.
    #[serde(deserialize_with = "de::id")]
    pub activity_id: Option<u64>,
    /// Name.
    pub activity_name: Option<String>,
    /// Description.
    pub description: Option<String>,
    /// Owner.
    #[serde(deserialize_with = "de::id")]
    pub user_profile_id: Option<u64>,
    /// Whether this is a multisport parent.
    pub is_multi_sport_parent: Option<bool>,
    /// Parent activity (multisport child).
    #[serde(deserialize_with = "de::id")]
    pub parent_id: Option<u64>,
    /// Type.
    #[serde(rename = "activityTypeDTO")]
    pub activity_type: Option<ActivityType>,
    /// Event type.
    #[serde(rename = "eventTypeDTO")]
    pub event_type: Option<TypeRef>,
    /// Privacy.
    #[serde(rename = "accessControlRuleDTO")]
    pub access_control_rule: Option<TypeRef>,
    /// Time zone.
    #[serde(rename = "timeZoneUnitDTO")]
    pub time_zone_unit: Option<TimeZoneUnit>,
    /// Metadata.
    #[serde(rename = "metadataDTO")]
    pub metadata: Option<ActivityMetadata>,
    /// The figures.
    #[serde(rename = "summaryDTO")]
    pub summary: Option<ActivityFigures>,
    /// Place name.
    pub location_name: Option<String>,
    /// Per-split-type summaries (run/walk, climbs…).
    #[serde(deserialize_with = "de::vec")]
    pub split_summaries: Vec<SplitSummary>,
}

impl Activity {
    /// The activity type key, e.g. `running`.
    pub fn type_key(&self) -> Option<&str> {
        self.activity_type.as_ref()?.type_key.as_deref()
    }
}

/// The activity's time zone.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TimeZoneUnit {
    /// Garmin's zone id.
    #[serde(deserialize_with = "de::int")]
    pub unit_id: Option<i64>,
    /// Zone name, e.g. `Europe/Paris`.
    pub time_zone: Option<String>,
}

/// `metadataDTO`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ActivityMetadata {
    /// Laps.
    #[serde(deserialize_with = "de::int")]
    pub lap_count: Option<i64>,
    /// GPS track available.
    pub has_polyline: Option<bool>,
    /// Charts available.
    pub has_chart_data: Option<bool>,
    /// Splits available.
    pub has_splits: Option<bool>,
    /// HR zones available.
    pub has_hr_time_in_zones: Option<bool>,
    /// Power zones available.
    pub has_power_time_in_zones: Option<bool>,
    /// Workout it followed.
    #[serde(deserialize_with = "de::id")]
    pub associated_workout_id: Option<u64>,
    /// Course it followed.
    #[serde(deserialize_with = "de::id")]
    pub associated_course_id: Option<u64>,
    /// Multisport children (activity ids).
    #[serde(deserialize_with = "de::ids")]
    pub child_ids: Vec<u64>,
    /// Multisport children's type keys.
    #[serde(deserialize_with = "de::vec")]
    pub child_activity_types: Vec<String>,
    /// Set a personal record.
    pub personal_record: Option<bool>,
    /// Entered by hand (then there is no original file to download).
    pub manual_activity: Option<bool>,
    /// What was uploaded: `fit` from a device, `gpx` or `tcx` for a file upload.
    pub file_format: Option<FileFormat>,
    /// Uploaded (GMT).
    #[serde(deserialize_with = "de::utc")]
    pub uploaded_date: Option<DateTime<Utc>>,
    /// Recording device.
    #[serde(rename = "deviceMetaDataDTO")]
    pub device_meta_data: Option<DeviceMetaData>,
    /// `GARMIN`…
    pub manufacturer: Option<String>,
}

/// `metadataDTO.fileFormat`: the kind of file an activity came as.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct FileFormat {
    /// Garmin's id (7 = fit).
    #[serde(deserialize_with = "de::int")]
    pub format_id: Option<i64>,
    /// `fit`, `gpx`, `tcx`…
    #[serde(deserialize_with = "de::text")]
    pub format_key: Option<String>,
}

impl ActivityMetadata {
    /// The uploaded file's format key in lower case (`fit`, `gpx`, `tcx`), when Garmin says.
    pub fn upload_format(&self) -> Option<String> {
        let key = self.file_format.as_ref()?.format_key.as_deref()?.trim().to_ascii_lowercase();
        (!key.is_empty()).then_some(key)
    }
}

/// The recording device of an activity.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DeviceMetaData {
    /// Device id (sent as a string).
    #[serde(deserialize_with = "de::id")]
    pub device_id: Option<u64>,
    /// Device type key.
    #[serde(deserialize_with = "de::id")]
    pub device_type_pk: Option<u64>,
}

/// `summaryDTO`: the activity's figures (m, s, m/s, bpm, W, °C, kcal).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ActivityFigures {
    /// Start (local).
    #[serde(deserialize_with = "de::local")]
    pub start_time_local: Option<NaiveDateTime>,
    /// Start (GMT).
    #[serde(rename = "startTimeGMT", deserialize_with = "de::utc")]
    pub start_time_gmt: Option<DateTime<Utc>>,
    /// Distance (m).
    pub distance: Option<f64>,
    /// Duration (s).
    pub duration: Option<f64>,
    /// Moving time (s).
    pub moving_duration: Option<f64>,
    /// Elapsed time (s).
    pub elapsed_duration: Option<f64>,
    /// Ascent (m).
    pub elevation_gain: Option<f64>,
    /// Descent (m).
    pub elevation_loss: Option<f64>,
    /// Highest point (m).
    pub max_elevation: Option<f64>,
    /// Lowest point (m).
    pub min_elevation: Option<f64>,
    /// Average speed (m/s).
    pub average_speed: Option<f64>,
    /// Average moving speed (m/s).
    pub average_moving_speed: Option<f64>,
    /// Top speed (m/s).
    pub max_speed: Option<f64>,
    /// Grade-adjusted speed (m/s).
    pub avg_grade_adjusted_speed: Option<f64>,
    /// Calories (kcal).
    pub calories: Option<f64>,
    /// Average heart rate (bpm).
    #[serde(rename = "averageHR")]
    pub average_hr: Option<f64>,
    /// Highest heart rate (bpm).
    #[serde(rename = "maxHR")]
    pub max_hr: Option<f64>,
    /// Lowest heart rate (bpm).
    #[serde(rename = "minHR")]
    pub min_hr: Option<f64>,
    /// Average running cadence (steps/min).
    pub average_run_cadence: Option<f64>,
    /// Average cycling cadence (rpm).
    pub average_bike_cadence: Option<f64>,
    /// Average power (W).
    pub average_power: Option<f64>,
    /// Highest power (W).
    pub max_power: Option<f64>,
    /// Normalized power (W).
    pub normalized_power: Option<f64>,
    /// Average temperature (°C).
    pub average_temperature: Option<f64>,
    /// Ground contact time (ms).
    pub ground_contact_time: Option<f64>,
    /// Stride length (cm).
    pub stride_length: Option<f64>,
    /// Vertical oscillation (cm).
    pub vertical_oscillation: Option<f64>,
    /// Vertical ratio (%).
    pub vertical_ratio: Option<f64>,
    /// Aerobic training effect (0–5).
    pub training_effect: Option<f64>,
    /// Anaerobic training effect (0–5).
    pub anaerobic_training_effect: Option<f64>,
    /// Aerobic training-effect message key.
    pub aerobic_training_effect_message: Option<String>,
    /// Training effect label.
    pub training_effect_label: Option<String>,
    /// Training load.
    pub activity_training_load: Option<f64>,
    /// How well the workout was followed (0–100).
    pub direct_workout_compliance_score: Option<f64>,
    /// Perceived exertion as entered (10–100).
    pub direct_workout_rpe: Option<f64>,
    /// Feel as entered (0–100).
    pub direct_workout_feel: Option<f64>,
    /// Body Battery change.
    pub difference_body_battery: Option<f64>,
    /// Steps.
    pub steps: Option<f64>,
    /// Moderate intensity minutes.
    pub moderate_intensity_minutes: Option<f64>,
    /// Vigorous intensity minutes.
    pub vigorous_intensity_minutes: Option<f64>,
    /// Estimated sweat loss (ml).
    pub water_estimated: Option<f64>,
}

/// One entry of `splitSummaries` (per split type: run/walk/stand, climbs, intervals…).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SplitSummary {
    /// Split type key, e.g. `RWD_RUN`, `INTERVAL_ACTIVE`.
    pub split_type: Option<String>,
    /// Number of splits of that type.
    #[serde(deserialize_with = "de::int")]
    pub no_of_splits: Option<i64>,
    /// Distance (m).
    pub distance: Option<f64>,
    /// Duration (s).
    pub duration: Option<f64>,
    /// Moving time (s).
    pub moving_duration: Option<f64>,
    /// Ascent (m).
    pub elevation_gain: Option<f64>,
    /// Average speed (m/s).
    pub average_speed: Option<f64>,
    /// Average heart rate (bpm).
    #[serde(rename = "averageHR")]
    pub average_hr: Option<f64>,
    /// Highest heart rate (bpm).
    #[serde(rename = "maxHR")]
    pub max_hr: Option<f64>,
    /// Calories (kcal).
    pub calories: Option<f64>,
}
