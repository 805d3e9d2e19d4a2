//! Activities: the list/search rows, activity types and counts here; one activity's summary in
//! `detail` and its charts, laps, zones, weather and sets in `charts` (both re-exported).
//!
//! Units are Garmin's: metres, seconds, m/s, °C, kcal; `hrTimeInZone_N` in seconds.

mod charts;
mod detail;

pub use charts::*;
pub use detail::*;

use chrono::{DateTime, NaiveDateTime, Utc};
use serde::{Deserialize, Serialize};

use super::common::TypeRef;
use super::de;

/// An activity type (`typeKey` such as `running`, `trail_running`, `cycling`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ActivityType {
    /// Numeric id.
    #[serde(deserialize_with = "de::int")]
    pub type_id: Option<i64>,
    /// Key, e.g. `running`.
    pub type_key: Option<String>,
    /// Parent type id (1 = running, 2 = cycling, 17 = all…).
    #[serde(deserialize_with = "de::int")]
    pub parent_type_id: Option<i64>,
    /// Display order.
    #[serde(deserialize_with = "de::int")]
    pub sort_order: Option<i64>,
    /// Hidden in the UI.
    pub is_hidden: Option<bool>,
    /// Restricted.
    pub restricted: Option<bool>,
    /// Can be trimmed.
    pub trimmable: Option<bool>,
}

/// One row of `activitylist-service/activities/search/activities`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ActivitySummary {
    /// Activity id.
    #[serde(deserialize_with = "de::id")]
    pub activity_id: Option<u64>,
    /// Name.
    pub activity_name: Option<String>,
    /// Description.
    pub description: Option<String>,
    /// Start (local wall time).
    #[serde(deserialize_with = "de::local")]
    pub start_time_local: Option<NaiveDateTime>,
    /// Start (GMT).
    #[serde(rename = "startTimeGMT", deserialize_with = "de::utc")]
    pub start_time_gmt: Option<DateTime<Utc>>,
    /// End (GMT).
    #[serde(rename = "endTimeGMT", deserialize_with = "de::utc")]
    pub end_time_gmt: Option<DateTime<Utc>>,
    /// Start instant (epoch ms).
    #[serde(deserialize_with = "de::utc")]
    pub begin_timestamp: Option<DateTime<Utc>>,
    /// Type.
    pub activity_type: Option<ActivityType>,
    /// Event type (race, training…).
    pub event_type: Option<TypeRef>,
    /// Distance (m).
    pub distance: Option<f64>,
    /// Duration (s).
    pub duration: Option<f64>,
    /// Elapsed time including pauses (s).
    pub elapsed_duration: Option<f64>,
    /// Moving time (s).
    pub moving_duration: Option<f64>,
    /// Ascent (m).
    pub elevation_gain: Option<f64>,
    /// Descent (m).
    pub elevation_loss: Option<f64>,
    /// Average speed (m/s).
    pub average_speed: Option<f64>,
    /// Top speed (m/s).
    pub max_speed: Option<f64>,
    /// Grade-adjusted speed (m/s).
    pub avg_grade_adjusted_speed: Option<f64>,
    /// Average heart rate (bpm).
    #[serde(rename = "averageHR")]
    pub average_hr: Option<f64>,
    /// Highest heart rate (bpm).
    #[serde(rename = "maxHR")]
    pub max_hr: Option<f64>,
    /// Calories (kcal).
    pub calories: Option<f64>,
    /// Average power (W).
    pub avg_power: Option<f64>,
    /// Highest power (W).
    pub max_power: Option<f64>,
    /// Normalized power (W).
    pub norm_power: Option<f64>,
    /// Average running cadence (steps/min).
    pub average_running_cadence_in_steps_per_minute: Option<f64>,
    /// Average cycling cadence (rpm).
    pub average_biking_cadence_in_rev_per_minute: Option<f64>,
    /// Steps.
    pub steps: Option<f64>,
    /// Aerobic training effect (0–5).
    pub aerobic_training_effect: Option<f64>,
    /// Anaerobic training effect (0–5).
    pub anaerobic_training_effect: Option<f64>,
    /// Training effect label (`AEROBIC_BASE`, `TEMPO`…).
    pub training_effect_label: Option<String>,
    /// Training load (EPOC-based).
    pub activity_training_load: Option<f64>,
    /// VO2max estimate from this activity.
    #[serde(rename = "vO2MaxValue")]
    pub vo2_max_value: Option<f64>,
    /// Average stride length (cm).
    pub avg_stride_length: Option<f64>,
    /// Average ground contact time (ms).
    pub avg_ground_contact_time: Option<f64>,
    /// Average vertical oscillation (cm).
    pub avg_vertical_oscillation: Option<f64>,
    /// Lowest temperature (°C).
    pub min_temperature: Option<f64>,
    /// Highest temperature (°C).
    pub max_temperature: Option<f64>,
    /// Time in HR zone 1 (s).
    #[serde(rename = "hrTimeInZone_1")]
    pub hr_time_in_zone_1: Option<f64>,
    /// Time in HR zone 2 (s).
    #[serde(rename = "hrTimeInZone_2")]
    pub hr_time_in_zone_2: Option<f64>,
    /// Time in HR zone 3 (s).
    #[serde(rename = "hrTimeInZone_3")]
    pub hr_time_in_zone_3: Option<f64>,
    /// Time in HR zone 4 (s).
    #[serde(rename = "hrTimeInZone_4")]
    pub hr_time_in_zone_4: Option<f64>,
    /// Time in HR zone 5 (s).
    #[serde(rename = "hrTimeInZone_5")]
    pub hr_time_in_zone_5: Option<f64>,
    /// Time in power zone 1 (s).
    #[serde(rename = "powerTimeInZone_1")]
    pub power_time_in_zone_1: Option<f64>,
    /// Time in power zone 2 (s).
    #[serde(rename = "powerTimeInZone_2")]
    pub power_time_in_zone_2: Option<f64>,
    /// Time in power zone 3 (s).
    #[serde(rename = "powerTimeInZone_3")]
    pub power_time_in_zone_3: Option<f64>,
    /// Time in power zone 4 (s).
    #[serde(rename = "powerTimeInZone_4")]
    pub power_time_in_zone_4: Option<f64>,
    /// Time in power zone 5 (s).
    #[serde(rename = "powerTimeInZone_5")]
    pub power_time_in_zone_5: Option<f64>,
    /// Fastest 1 km (s).
    #[serde(rename = "fastestSplit_1000")]
    pub fastest_split_1000: Option<f64>,
    /// Fastest mile (s).
    #[serde(rename = "fastestSplit_1609")]
    pub fastest_split_1609: Option<f64>,
    /// Fastest 5 km (s).
    #[serde(rename = "fastestSplit_5000")]
    pub fastest_split_5000: Option<f64>,
    /// Fastest 10 km (s).
    #[serde(rename = "fastestSplit_10000")]
    pub fastest_split_10000: Option<f64>,
    /// Moderate intensity minutes earned.
    pub moderate_intensity_minutes: Option<f64>,
    /// Vigorous intensity minutes earned.
    pub vigorous_intensity_minutes: Option<f64>,
    /// Body Battery change during the activity.
    pub difference_body_battery: Option<f64>,
    /// Laps.
    #[serde(deserialize_with = "de::int")]
    pub lap_count: Option<i64>,
    /// Place name.
    pub location_name: Option<String>,
    /// Start latitude (°).
    pub start_latitude: Option<f64>,
    /// Start longitude (°).
    pub start_longitude: Option<f64>,
    /// Recording device.
    #[serde(deserialize_with = "de::id")]
    pub device_id: Option<u64>,
    /// Workout it followed.
    #[serde(deserialize_with = "de::id")]
    pub workout_id: Option<u64>,
    /// Owner.
    #[serde(deserialize_with = "de::id")]
    pub owner_id: Option<u64>,
    /// Parent activity (multisport child).
    #[serde(deserialize_with = "de::id")]
    pub parent_id: Option<u64>,
    /// Whether this is a multisport parent.
    pub parent: Option<bool>,
    /// Privacy.
    pub privacy: Option<TypeRef>,
    /// Whether it set a personal record.
    pub pr: Option<bool>,
    /// Marked as favourite.
    pub favorite: Option<bool>,
    /// Entered by hand.
    pub manual_activity: Option<bool>,
    /// Sets (strength).
    #[serde(deserialize_with = "de::int")]
    pub total_sets: Option<i64>,
    /// Reps (strength).
    #[serde(deserialize_with = "de::int")]
    pub total_reps: Option<i64>,
}

impl ActivitySummary {
    /// The activity type key, e.g. `running`.
    pub fn type_key(&self) -> Option<&str> {
        self.activity_type.as_ref()?.type_key.as_deref()
    }

    /// Time in HR zones 1–5 (s).
    pub fn hr_time_in_zones(&self) -> [Option<f64>; 5] {
        [
            self.hr_time_in_zone_1,
            self.hr_time_in_zone_2,
            self.hr_time_in_zone_3,
            self.hr_time_in_zone_4,
            self.hr_time_in_zone_5,
        ]
    }

    /// Average pace in seconds per km, from the average speed.
    pub fn pace_seconds_per_km(&self) -> Option<f64> {
        self.average_speed.and_then(super::units::pace_seconds_per_km)
    }
}

/// `activitylist-service/activities/count`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ActivityCount {
    /// Number of activities of the account.
    #[serde(deserialize_with = "de::int")]
    pub total_count: Option<i64>,
}

/// One row of `fitnessstats-service/activity[/all]`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct FitnessStatsActivity {
    /// Activity id.
    #[serde(deserialize_with = "de::id")]
    pub activity_id: Option<u64>,
    /// Type key.
    #[serde(deserialize_with = "de::text")]
    pub activity_type: Option<String>,
    /// Start (local).
    #[serde(deserialize_with = "de::local")]
    pub start_local: Option<NaiveDateTime>,
    /// Aerobic training effect.
    pub aerobic_training_effect: Option<f64>,
    /// Parent activity (multisport).
    #[serde(deserialize_with = "de::id")]
    pub parent_id: Option<u64>,
    /// Workout type.
    #[serde(deserialize_with = "de::text")]
    pub workout_type: Option<String>,
}

/// `upload-service/upload` answer (202 accepted; 409 duplicate).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct UploadResult {
    /// The import report.
    pub detailed_import_result: Option<ImportResult>,
}

/// The `detailedImportResult` of an upload.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ImportResult {
    /// Upload id (empty on a duplicate).
    #[serde(deserialize_with = "de::id")]
    pub upload_id: Option<u64>,
    /// File name as uploaded.
    pub file_name: Option<String>,
    /// Bytes.
    pub file_size: Option<f64>,
    /// Imported activities.
    #[serde(deserialize_with = "de::vec")]
    pub successes: Vec<ImportItem>,
    /// Refused activities (e.g. code 202 "Duplicate Activity.").
    #[serde(deserialize_with = "de::vec")]
    pub failures: Vec<ImportItem>,
}

/// One success or failure of an upload.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ImportItem {
    /// Activity id in Garmin.
    #[serde(deserialize_with = "de::id")]
    pub internal_id: Option<u64>,
    /// Id in the file.
    #[serde(deserialize_with = "de::text")]
    pub external_id: Option<String>,
    /// Messages.
    #[serde(deserialize_with = "de::vec")]
    pub messages: Vec<ImportMessage>,
}

/// A message of an upload result.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ImportMessage {
    /// Code (202 = duplicate).
    #[serde(deserialize_with = "de::int")]
    pub code: Option<i64>,
    /// Text.
    pub content: Option<String>,
}
