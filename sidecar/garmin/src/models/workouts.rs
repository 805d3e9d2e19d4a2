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

    /// The steps as the watch numbers them: a lap's `wktStepIndex` (`lapDTOs` of
    /// `…/activity/{id}/splits`, FIT `lap.wkt_step_index`) is the `message_index` of the FIT
    /// `workout_step` the lap was run under, and the FIT workout Garmin sends to the watch is flat:
    /// each segment's steps in order, a repeat group's children first and then one repeat step
    /// (`repeat_until_steps_cmplt`) pointing back at them (see `workout_fit.rs`, which writes the
    /// same order). So warm-up, 6 × (run, recover), cool-down is 0 warm-up, 1 run, 2 recover, 3
    /// repeat, 4 cool-down, and every repetition's laps carry 1 and 2 again. The JSON's
    /// `stepOrder` numbers a group *before* its children, so it is not this index.
    ///
    /// Confidence: *unverified*. The API reference names the field but holds no captured pair of
    /// a workout and the splits of a run that followed it; the order is the FIT profile's.
    pub fn steps_by_step_index(&self) -> Vec<IndexedStep<'_>> {
        fn walk<'a>(step: &'a WorkoutStep, path: Vec<usize>, times: u64, out: &mut Vec<IndexedStep<'a>>) {
            if step.is_repeat() {
                let count = step.number_of_iterations.and_then(|n| u64::try_from(n).ok()).filter(|n| *n > 0);
                for (n, child) in step.workout_steps.iter().enumerate() {
                    let mut at = path.clone();
                    at.push(n);
                    walk(child, at, times.saturating_mul(count.unwrap_or(1)), out);
                }
            }
            out.push(IndexedStep { index: out.len(), step, path, times });
        }
        let mut out = Vec::new();
        let top = self.workout_segments.iter().flat_map(|s| &s.workout_steps);
        for (n, step) in top.enumerate() {
            walk(step, vec![n], 1, &mut out);
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

/// A step with the index a lap run under it carries ([`Workout::steps_by_step_index`]).
#[derive(Clone, Debug, PartialEq)]
pub struct IndexedStep<'a> {
    /// The lap's `wktStepIndex` for this step (0-based; repeat steps count).
    pub index: usize,
    /// The step (a repeat group's own entry comes after its children).
    pub step: &'a WorkoutStep,
    /// Where it sits: its position among the top-level steps of all segments (the order of
    /// `preview().steps`), then its position inside each enclosing repeat group.
    pub path: Vec<usize>,
    /// How many times it is run: the product of its enclosing groups' iterations (1 outside one).
    pub times: u64,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn step(kind: &str) -> WorkoutStep {
        WorkoutStep {
            step_class: Some(EXECUTABLE_STEP.to_owned()),
            step_type: Some(StepType { step_type_key: Some(kind.to_owned()), ..StepType::default() }),
            ..WorkoutStep::default()
        }
    }

    fn repeat(times: i64, steps: Vec<WorkoutStep>) -> WorkoutStep {
        WorkoutStep {
            step_class: Some(REPEAT_GROUP.to_owned()),
            number_of_iterations: Some(times),
            workout_steps: steps,
            ..WorkoutStep::default()
        }
    }

    #[test]
    fn a_repeat_groups_children_come_before_its_repeat_step_as_in_a_fit_workout() {
        // warm-up, 6 × (run, 3 × (stride, jog), recover), cool-down, over two segments.
        let inner = repeat(3, vec![step("interval"), step("recovery")]);
        let group = repeat(6, vec![step("interval"), inner, step("recovery")]);
        let workout = Workout {
            workout_segments: vec![
                WorkoutSegment { workout_steps: vec![step("warmup"), group], ..WorkoutSegment::default() },
                WorkoutSegment { workout_steps: vec![step("cooldown")], ..WorkoutSegment::default() },
            ],
            ..Workout::default()
        };
        let got: Vec<(usize, Option<&str>, Vec<usize>, u64)> = workout
            .steps_by_step_index()
            .into_iter()
            .map(|s| (s.index, s.step.type_key(), s.path, s.times))
            .collect();
        assert_eq!(
            got,
            vec![
                (0, Some("warmup"), vec![0], 1),
                (1, Some("interval"), vec![1, 0], 6),
                (2, Some("interval"), vec![1, 1, 0], 18),
                (3, Some("recovery"), vec![1, 1, 1], 18),
                (4, None, vec![1, 1], 6),
                (5, Some("recovery"), vec![1, 2], 6),
                (6, None, vec![1], 1),
                (7, Some("cooldown"), vec![2], 1),
            ]
        );
    }
}
