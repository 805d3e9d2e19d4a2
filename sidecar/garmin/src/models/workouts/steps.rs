//! Workout steps: executable steps and repeat groups in one tolerant type, and the small
//! `{…Id, …Key}` references they use (step type, end condition, target, stroke, equipment).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::WorkoutUnit;
use crate::models::de;

/// `type` of an executable step.
pub const EXECUTABLE_STEP: &str = "ExecutableStepDTO";
/// `type` of a repeat group.
pub const REPEAT_GROUP: &str = "RepeatGroupDTO";

/// A step: `ExecutableStepDTO` (do something until a condition) or `RepeatGroupDTO` (repeat the
/// child `workout_steps`). `stepOrder` is one depth-first counter through the whole workout.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct WorkoutStep {
    /// [`EXECUTABLE_STEP`] or [`REPEAT_GROUP`].
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub step_class: Option<String>,
    /// Id Garmin assigned (omit on create).
    #[serde(deserialize_with = "de::id", skip_serializing_if = "Option::is_none")]
    pub step_id: Option<u64>,
    /// Depth-first position, 1-based.
    #[serde(deserialize_with = "de::int", skip_serializing_if = "Option::is_none")]
    pub step_order: Option<i64>,
    /// Warm-up, interval, recovery, rest, cool-down, repeat…
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step_type: Option<StepType>,
    /// Repeat group number this step belongs to (assigned by Garmin).
    #[serde(deserialize_with = "de::int", skip_serializing_if = "Option::is_none")]
    pub child_step_id: Option<i64>,
    /// Text shown on the watch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// When the step ends.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_condition: Option<EndCondition>,
    /// End value: s (time), m (distance), kcal, bpm (heart rate), count (iterations, reps).
    #[serde(deserialize_with = "de::num", skip_serializing_if = "Option::is_none")]
    pub end_condition_value: Option<f64>,
    /// `lt` / `gt` for heart-rate end conditions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_condition_compare: Option<String>,
    /// Unit to show the end value in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preferred_end_condition_unit: Option<WorkoutUnit>,
    /// Primary target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_type: Option<TargetType>,
    /// Target bound one (pace/speed in m/s, faster first; bpm; W; rpm).
    #[serde(deserialize_with = "de::num", skip_serializing_if = "Option::is_none")]
    pub target_value_one: Option<f64>,
    /// Target bound two.
    #[serde(deserialize_with = "de::num", skip_serializing_if = "Option::is_none")]
    pub target_value_two: Option<f64>,
    /// Zone number (HR or power zone targets); Garmin accepts `"2"` and answers `2`.
    #[serde(deserialize_with = "de::int", skip_serializing_if = "Option::is_none")]
    pub zone_number: Option<i64>,
    /// Secondary target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secondary_target_type: Option<TargetType>,
    /// Secondary bound one.
    #[serde(deserialize_with = "de::num", skip_serializing_if = "Option::is_none")]
    pub secondary_target_value_one: Option<f64>,
    /// Secondary bound two.
    #[serde(deserialize_with = "de::num", skip_serializing_if = "Option::is_none")]
    pub secondary_target_value_two: Option<f64>,
    /// Secondary zone number.
    #[serde(deserialize_with = "de::int", skip_serializing_if = "Option::is_none")]
    pub secondary_zone_number: Option<i64>,
    /// Swim stroke.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stroke_type: Option<StrokeType>,
    /// Swim equipment.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub equipment_type: Option<EquipmentType>,
    /// Exercise category (`BENCH_PRESS`; `null` on rests).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// Exercise name within the category (`BARBELL_BENCH_PRESS`; `""` for the category's generic
    /// form, which is also what Garmin stores for a name it does not know).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exercise_name: Option<String>,
    /// Weight to lift, in the unit of `weight_unit` (kg or lb; reference §1.4: 6 kg is `6.0`, 70 lb
    /// comes back as `69.99676…`).
    #[serde(deserialize_with = "de::num", skip_serializing_if = "Option::is_none")]
    pub weight_value: Option<f64>,
    /// Weight unit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weight_unit: Option<WorkoutUnit>,
    /// Repeat count (repeat groups; also in `end_condition_value`).
    #[serde(deserialize_with = "de::int", skip_serializing_if = "Option::is_none")]
    pub number_of_iterations: Option<i64>,
    /// Smart repeat (repeat groups).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub smart_repeat: Option<bool>,
    /// Skip the last rest of a repeat group.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skip_last_rest_step: Option<bool>,
    /// Children of a repeat group.
    #[serde(deserialize_with = "de::vec", skip_serializing_if = "Vec::is_empty")]
    pub workout_steps: Vec<WorkoutStep>,
    /// Every other field as sent.
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}

impl WorkoutStep {
    /// Whether this is a repeat group.
    pub fn is_repeat(&self) -> bool {
        self.step_class.as_deref() == Some(REPEAT_GROUP)
            || self.step_type.as_ref().and_then(|t| t.step_type_key.as_deref()) == Some("repeat")
    }

    /// The step type key (`warmup`, `interval`…).
    pub fn type_key(&self) -> Option<&str> {
        self.step_type.as_ref()?.step_type_key.as_deref()
    }

    /// The end condition key (`time`, `distance`, `lap.button`…).
    pub fn end_condition_key(&self) -> Option<&str> {
        self.end_condition.as_ref()?.condition_type_key.as_deref()
    }

    /// The target key (`no.target`, `pace.zone`, `heart.rate.zone`…).
    pub fn target_key(&self) -> Option<&str> {
        self.target_type.as_ref()?.workout_target_type_key.as_deref()
    }
}

/// `{stepTypeId, stepTypeKey}`: 1 warmup, 2 cooldown, 3 interval, 4 recovery, 5 rest, 6 repeat.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct StepType {
    /// Id.
    #[serde(deserialize_with = "de::int", skip_serializing_if = "Option::is_none")]
    pub step_type_id: Option<i64>,
    /// Key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step_type_key: Option<String>,
    /// Display order (responses only).
    #[serde(deserialize_with = "de::int", skip_serializing_if = "Option::is_none")]
    pub display_order: Option<i64>,
}

/// `{conditionTypeId, conditionTypeKey}`: 1 lap.button, 2 time, 3 distance, 4 calories,
/// 6 heart.rate, 7 iterations, 10 reps.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct EndCondition {
    /// Id.
    #[serde(deserialize_with = "de::int", skip_serializing_if = "Option::is_none")]
    pub condition_type_id: Option<i64>,
    /// Key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub condition_type_key: Option<String>,
    /// Display order (responses only).
    #[serde(deserialize_with = "de::int", skip_serializing_if = "Option::is_none")]
    pub display_order: Option<i64>,
    /// `true` except for iterations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub displayable: Option<bool>,
}

/// `{workoutTargetTypeId, workoutTargetTypeKey}`: 1 no.target, 2 power.zone, 3 cadence,
/// 4 heart.rate.zone, 5 speed.zone, 6 pace.zone.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TargetType {
    /// Id.
    #[serde(deserialize_with = "de::int", skip_serializing_if = "Option::is_none")]
    pub workout_target_type_id: Option<i64>,
    /// Key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workout_target_type_key: Option<String>,
    /// Display order (responses only).
    #[serde(deserialize_with = "de::int", skip_serializing_if = "Option::is_none")]
    pub display_order: Option<i64>,
}

/// `{strokeTypeId, strokeTypeKey}`: 0 none, 1 any_stroke, 2 backstroke, 3 breaststroke, 4 drill,
/// 5 fly, 6 free, 7 individual_medley.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct StrokeType {
    /// Id.
    #[serde(deserialize_with = "de::int", skip_serializing_if = "Option::is_none")]
    pub stroke_type_id: Option<i64>,
    /// Key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stroke_type_key: Option<String>,
    /// Display order (responses only).
    #[serde(deserialize_with = "de::int", skip_serializing_if = "Option::is_none")]
    pub display_order: Option<i64>,
}

/// `{equipmentTypeId, equipmentTypeKey}`: 0 none, 1 fins, 2 kickboard, 3 paddles, 4 pull_buoy,
/// 5 snorkel.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct EquipmentType {
    /// Id.
    #[serde(deserialize_with = "de::int", skip_serializing_if = "Option::is_none")]
    pub equipment_type_id: Option<i64>,
    /// Key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub equipment_type_key: Option<String>,
    /// Display order (responses only).
    #[serde(deserialize_with = "de::int", skip_serializing_if = "Option::is_none")]
    pub display_order: Option<i64>,
}
