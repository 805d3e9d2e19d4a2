//! Putting workouts on the calendar and on the watch: schedule entries (`workoutScheduleId`),
//! the GraphQL schedule summaries (`scheduledWorkoutId`, the same entry) and device messages.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use super::Workout;
use crate::models::de;

/// A calendar entry for a workout (`POST|GET /workout-service/schedule/{…}`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct WorkoutSchedule {
    /// The entry's id: unschedule with this, never with the workout id.
    #[serde(deserialize_with = "de::id")]
    pub workout_schedule_id: Option<u64>,
    /// The library workout.
    #[serde(deserialize_with = "de::id")]
    pub workout_id: Option<u64>,
    /// The day.
    #[serde(deserialize_with = "de::date")]
    pub calendar_date: Option<NaiveDate>,
    /// The workout as scheduled.
    pub workout: Option<Workout>,
    /// Every other field as sent.
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}

impl WorkoutSchedule {
    /// The workout id, from the entry or its embedded workout.
    pub fn workout_id(&self) -> Option<u64> {
        self.workout_id.or_else(|| self.workout.as_ref()?.workout_id)
    }
}

/// One row of GraphQL `workoutScheduleSummariesScalar(startDate, endDate)`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ScheduledWorkoutSummary {
    /// The schedule entry (null for training-plan entries).
    #[serde(deserialize_with = "de::id")]
    pub scheduled_workout_id: Option<u64>,
    /// The library workout.
    #[serde(deserialize_with = "de::id")]
    pub workout_id: Option<u64>,
    /// The day.
    #[serde(deserialize_with = "de::date")]
    pub schedule_date: Option<NaiveDate>,
    /// Name.
    pub workout_name: Option<String>,
}

/// One message of `POST /device-service/devicemessage/messages` (the body is an array of them).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeviceMessageRequest {
    /// Target device.
    pub device_id: u64,
    /// Relative URL of the file, e.g. `workout-service/workout/FIT/123` (no leading slash).
    pub message_url: String,
    /// `workouts`.
    pub message_type: String,
    /// Shown on the device (the workout name).
    pub message_name: String,
    /// Always null.
    pub group_name: Option<String>,
    /// 1 (the server may change it).
    pub priority: i64,
    /// `FIT`.
    pub file_type: String,
    /// The workout id.
    pub meta_data_id: u64,
}

impl DeviceMessageRequest {
    /// The message that sends workout `workout_id` named `name` to device `device_id`.
    pub fn workout(device_id: u64, workout_id: u64, name: &str) -> Self {
        DeviceMessageRequest {
            device_id,
            message_url: format!("workout-service/workout/FIT/{workout_id}"),
            message_type: "workouts".to_owned(),
            message_name: name.to_owned(),
            group_name: None,
            priority: 1,
            file_type: "FIT".to_owned(),
            meta_data_id: workout_id,
        }
    }
}

/// `GET /device-service/devicemessage/messages`: queued messages and their status.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DeviceMessages {
    /// Count.
    #[serde(deserialize_with = "de::int")]
    pub num_of_messages: Option<i64>,
    /// The messages.
    #[serde(deserialize_with = "de::vec")]
    pub messages: Vec<DeviceMessage>,
}

/// A queued message.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DeviceMessage {
    /// Message id.
    #[serde(deserialize_with = "de::id")]
    pub message_id: Option<u64>,
    /// `new`, `pending`, `delivered`… (lifecycle unverified).
    #[serde(deserialize_with = "de::text")]
    pub message_status: Option<String>,
    /// `workouts`…
    pub message_type: Option<String>,
    /// Target device.
    #[serde(deserialize_with = "de::id")]
    pub device_id: Option<u64>,
    /// Target device's product name.
    pub device_name: Option<String>,
    /// Queued at (Garmin's text).
    #[serde(deserialize_with = "de::text")]
    pub created_time_stamp: Option<String>,
    /// What is sent (file, name, workout id).
    pub meta_data: Option<DeviceMessageMeta>,
    /// Name shown on the device, when sent at the top level.
    pub message_name: Option<String>,
    /// Workout id, when sent at the top level.
    #[serde(deserialize_with = "de::id")]
    pub meta_data_id: Option<u64>,
}

impl DeviceMessage {
    /// The workout (or other item) id the message carries.
    pub fn item_id(&self) -> Option<u64> {
        self.meta_data.as_ref().and_then(|m| m.meta_data_id).or(self.meta_data_id)
    }

    /// The name shown on the device.
    pub fn name(&self) -> Option<&str> {
        self.meta_data.as_ref().and_then(|m| m.message_name.as_deref()).or(self.message_name.as_deref())
    }
}

/// The `metaData` of a queued message: what the device will download.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DeviceMessageMeta {
    /// `workouts`…
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// `FIT`.
    pub file_type: Option<String>,
    /// File URL, e.g. `workout-service/workout/FIT/123`.
    pub message_url: Option<String>,
    /// Name shown on the device.
    pub message_name: Option<String>,
    /// Workout id.
    #[serde(deserialize_with = "de::id")]
    pub meta_data_id: Option<u64>,
    /// Priority.
    #[serde(deserialize_with = "de::int")]
    pub priority: Option<i64>,
}
