//! Workouts as `workout-service` stores them (§5 of the API reference): a workout has segments,
//! a segment has steps, and a repeat step (`RepeatGroupDTO`) has steps of its own.
//!
//! These types are written back to Garmin (create, full-replace update), so they serialise with
//! Garmin's names, omit absent fields, and keep every field they do not model in `extra` — a
//! read-modify-write never drops what Garmin sent. Units: end conditions in s / m / kcal / bpm,
//! pace and speed targets in m/s (faster first), weights in their `weightUnit` (kg or lb).

mod schedule;
mod steps;

pub use schedule::*;
pub use steps::*;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::de;

/// A workout (also each row of the workout list, which has no segments).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Workout {
    /// Library id (omit on create).
    #[serde(deserialize_with = "de::id", skip_serializing_if = "Option::is_none")]
    pub workout_id: Option<u64>,
    /// Owner (omit on create).
    #[serde(deserialize_with = "de::id", skip_serializing_if = "Option::is_none")]
    pub owner_id: Option<u64>,
    /// Name (Garmin cuts names beyond ~255 characters).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workout_name: Option<String>,
    /// Description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Sport.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sport_type: Option<SportType>,
    /// Estimated duration (s).
    #[serde(deserialize_with = "de::num", skip_serializing_if = "Option::is_none")]
    pub estimated_duration_in_secs: Option<f64>,
    /// Estimated distance (m).
    #[serde(deserialize_with = "de::num", skip_serializing_if = "Option::is_none")]
    pub estimated_distance_in_meters: Option<f64>,
    /// Average training speed (m/s).
    #[serde(deserialize_with = "de::num", skip_serializing_if = "Option::is_none")]
    pub avg_training_speed: Option<f64>,
    /// Pool length (swimming), in `pool_length_unit`.
    #[serde(deserialize_with = "de::num", skip_serializing_if = "Option::is_none")]
    pub pool_length: Option<f64>,
    /// Pool length unit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pool_length_unit: Option<WorkoutUnit>,
    /// Created (Garmin's text, kept as sent).
    #[serde(deserialize_with = "de::text", skip_serializing_if = "Option::is_none")]
    pub created_date: Option<String>,
    /// Updated (Garmin's text, kept as sent).
    #[serde(deserialize_with = "de::text", skip_serializing_if = "Option::is_none")]
    pub updated_date: Option<String>,
    /// Segments (one, or one per sport in multisport).
    #[serde(deserialize_with = "de::vec", skip_serializing_if = "Vec::is_empty")]
    pub workout_segments: Vec<WorkoutSegment>,
    /// Every other field as sent (author, sharing, provider…), written back unchanged.
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}

impl Workout {
    /// Every step, depth first (repeat groups before their children), across segments.
    pub fn all_steps(&self) -> Vec<&WorkoutStep> {
        fn walk<'a>(steps: &'a [WorkoutStep], out: &mut Vec<&'a WorkoutStep>) {
            for step in steps {
                out.push(step);
                walk(&step.workout_steps, out);
            }
        }
        let mut out = Vec::new();
        for segment in &self.workout_segments {
            walk(&segment.workout_steps, &mut out);
        }
        out
    }

    /// The sport key, e.g. `running`.
    pub fn sport_key(&self) -> Option<&str> {
        self.sport_type.as_ref()?.sport_type_key.as_deref()
    }

    /// A copy without the ids and dates Garmin assigns, ready to create as a new workout.
    pub fn for_create(&self) -> Workout {
        let mut copy = self.clone();
        copy.workout_id = None;
        copy.owner_id = None;
        copy.created_date = None;
        copy.updated_date = None;
        for key in ["author", "shared", "sharedWithUsers", "uploadTimestamp", "workoutThumbnailUrl"] {
            copy.extra.remove(key);
        }
        copy
    }
}

/// A segment of a workout (one sport).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct WorkoutSegment {
    /// 1-based order.
    #[serde(deserialize_with = "de::int", skip_serializing_if = "Option::is_none")]
    pub segment_order: Option<i64>,
    /// Sport of the segment.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sport_type: Option<SportType>,
    /// Pool length (swimming).
    #[serde(deserialize_with = "de::num", skip_serializing_if = "Option::is_none")]
    pub pool_length: Option<f64>,
    /// Pool length unit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pool_length_unit: Option<WorkoutUnit>,
    /// Steps.
    #[serde(deserialize_with = "de::vec")]
    pub workout_steps: Vec<WorkoutStep>,
    /// Every other field as sent.
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}

/// `{sportTypeId, sportTypeKey}`: 1 running, 2 cycling, 4 swimming, 5 strength, 10 multisport.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SportType {
    /// Id.
    #[serde(deserialize_with = "de::int", skip_serializing_if = "Option::is_none")]
    pub sport_type_id: Option<i64>,
    /// Key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sport_type_key: Option<String>,
    /// Display order (responses only).
    #[serde(deserialize_with = "de::int", skip_serializing_if = "Option::is_none")]
    pub display_order: Option<i64>,
}

impl SportType {
    /// A sport reference from id and key.
    pub fn new(id: i64, key: &str) -> Self {
        SportType { sport_type_id: Some(id), sport_type_key: Some(key.to_owned()), display_order: None }
    }
}

/// `{unitId, unitKey, factor}`: pool lengths, distance units, weight units.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct WorkoutUnit {
    /// Id (1 meter, 2 kilometer, 8 kilogram, 230 yard).
    #[serde(deserialize_with = "de::int", skip_serializing_if = "Option::is_none")]
    pub unit_id: Option<i64>,
    /// Key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit_key: Option<String>,
    /// Factor.
    #[serde(deserialize_with = "de::num", skip_serializing_if = "Option::is_none")]
    pub factor: Option<f64>,
}
