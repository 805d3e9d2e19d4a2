//! Spec → Garmin workout-service JSON, exactly as reference §5 describes the create body:
//! `sportType` ids (swimming is 4), one segment, `ExecutableStepDTO`s with `stepType`,
//! `endCondition` + `endConditionValue`, targets on the step (pace in m/s with the faster bound in
//! `targetValueOne`), and `RepeatGroupDTO`s whose count is on both `numberOfIterations` and
//! `endConditionValue`. `stepOrder` is one depth-first counter through every repeat (and across
//! every segment); `stepId` and `childStepId` are left for Garmin to assign. The estimate fields
//! come from [`super::preview`].
//!
//! Exercise sports (reference §1): the exercise is `category` + `exerciseName` (`""` for a
//! category's generic form), reps are end condition 10 with the count as a float, the target is
//! `no.target`, and a weight goes in `weightValue` **in the unit of `weightUnit`** (kilogram 8 or
//! pound 9; Garmin's GET bodies show 6 kg stored as `6.0`, so not grams). A HIIT repeat until a
//! time is up has `endCondition: time`, the seconds in `endConditionValue` and no iteration count.
//! Multisport (reference §3): sport 10 `multi_sport`, one segment per leg with its own sport (swim
//! legs with their pool, also on the workout), `isSessionTransitionEnabled` on the workout.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::preview::{default_speed, preview};
use super::{
    RepeatEnd, RepeatStep, SpecSegment, SpecSport, SpecStep, StepEnd, StepTarget, WeightUnit, WorkStep,
    WorkoutSpec, ids,
};
use crate::models::workouts::{
    EXECUTABLE_STEP, EndCondition, EquipmentType, REPEAT_GROUP, SportType, StepType, StrokeType, TargetType,
    Workout, WorkoutSegment, WorkoutStep, WorkoutUnit,
};

impl WorkoutSpec {
    /// The body to `POST /workout-service/workout` for this spec (see the module docs of
    /// `translate` for the rules), with Garmin's estimate fields filled from [`preview`] and
    /// `avgTrainingSpeed` set to the easy speed the estimate assumes for open steps.
    pub fn to_garmin(&self) -> Workout {
        if self.sport == SpecSport::Multisport {
            return multisport(self);
        }
        let (sport_id, sport_key) = ids::sport(self.sport);
        let sport_type = SportType::new(sport_id, sport_key);
        let mut order = 0;
        let steps = self.steps.iter().map(|step| translate_step(step, self.sport, &mut order)).collect();
        let mut extra = BTreeMap::new();
        // What Garmin's own editor sends besides the modelled fields (reference §5).
        extra.insert("subSportType".to_owned(), Value::Null);
        extra.insert("estimateType".to_owned(), Value::Null);
        extra.insert("estimatedDistanceUnit".to_owned(), json!({ "unitKey": null }));
        extra.insert("isWheelchair".to_owned(), Value::Bool(false));
        let swim = self.sport == SpecSport::Swim;
        let pool_length = swim.then(|| self.pool_length_m.unwrap_or(super::DEFAULT_POOL_LENGTH_M));
        let (unit_id, unit_key, factor) = ids::UNIT_METER;
        let mut workout = Workout {
            workout_name: Some(self.name.clone()),
            description: self.description.clone(),
            sport_type: Some(sport_type.clone()),
            avg_training_speed: (!self.sport.is_exercise_sport()).then(|| default_speed(sport_key)),
            pool_length,
            pool_length_unit: swim.then(|| WorkoutUnit {
                unit_id: Some(unit_id),
                unit_key: Some(unit_key.to_owned()),
                factor: Some(factor),
            }),
            workout_segments: vec![WorkoutSegment {
                segment_order: Some(1),
                sport_type: Some(sport_type),
                workout_steps: steps,
                ..WorkoutSegment::default()
            }],
            extra,
            ..Workout::default()
        };
        let estimate = preview(&workout);
        workout.estimated_duration_in_secs = Some(estimate.duration_s.unwrap_or(0.0).round());
        workout.estimated_distance_in_meters = Some(estimate.distance_m.unwrap_or(0.0).round());
        workout
    }
}

/// A multisport workout: one segment per leg, the step order running on across them.
fn multisport(spec: &WorkoutSpec) -> Workout {
    let (sport_id, sport_key) = ids::sport(SpecSport::Multisport);
    let mut order = 0;
    let segments: Vec<WorkoutSegment> =
        spec.segments.iter().enumerate().map(|(i, leg)| segment(leg, i, &mut order)).collect();
    let pool = segments.iter().find_map(|s| s.pool_length.map(|p| (p, s.pool_length_unit.clone())));
    let mut extra = BTreeMap::new();
    extra.insert("subSportType".to_owned(), Value::Null);
    extra.insert("estimateType".to_owned(), Value::Null);
    extra.insert("estimatedDistanceUnit".to_owned(), json!({ "unitKey": null }));
    extra.insert("isWheelchair".to_owned(), Value::Bool(false));
    extra.insert("isSessionTransitionEnabled".to_owned(), Value::Bool(spec.transitions.unwrap_or(false)));
    let mut workout = Workout {
        workout_name: Some(spec.name.clone()),
        description: spec.description.clone(),
        sport_type: Some(SportType::new(sport_id, sport_key)),
        pool_length: pool.as_ref().map(|(p, _)| *p),
        pool_length_unit: pool.and_then(|(_, unit)| unit),
        workout_segments: segments,
        extra,
        ..Workout::default()
    };
    let estimate = preview(&workout);
    workout.estimated_duration_in_secs = Some(estimate.duration_s.unwrap_or(0.0).round());
    workout.estimated_distance_in_meters = Some(estimate.distance_m.unwrap_or(0.0).round());
    workout
}

fn segment(leg: &SpecSegment, index: usize, order: &mut i64) -> WorkoutSegment {
    let (id, key) = ids::sport(leg.sport);
    let swim = leg.sport == SpecSport::Swim;
    let (unit_id, unit_key, factor) = ids::UNIT_METER;
    let mut extra = BTreeMap::new();
    // Each leg's own training speed, which the estimate of its open steps assumes (reference §3.1).
    extra.insert("avgTrainingSpeed".to_owned(), json!(default_speed(key)));
    WorkoutSegment {
        segment_order: Some(index as i64 + 1),
        sport_type: Some(SportType::new(id, key)),
        pool_length: swim.then(|| leg.pool_length_m.unwrap_or(super::DEFAULT_POOL_LENGTH_M)),
        pool_length_unit: swim.then(|| WorkoutUnit {
            unit_id: Some(unit_id),
            unit_key: Some(unit_key.to_owned()),
            factor: Some(factor),
        }),
        workout_steps: leg.steps.iter().map(|step| translate_step(step, leg.sport, order)).collect(),
        extra,
    }
}

fn translate_step(step: &SpecStep, sport: SpecSport, order: &mut i64) -> WorkoutStep {
    *order += 1;
    match step {
        SpecStep::Work(work) => executable(work, sport, *order),
        SpecStep::Repeat(repeat) => repeat_group(repeat, sport, order),
    }
}

fn repeat_group(repeat: &RepeatStep, sport: SpecSport, order: &mut i64) -> WorkoutStep {
    let own_order = *order;
    let children = repeat.steps.iter().map(|child| translate_step(child, sport, order)).collect();
    let (type_id, type_key) = ids::REPEAT_STEP_TYPE;
    let (iterations, end, value) = match repeat.end {
        RepeatEnd::Times(n) => (
            Some(i64::from(n)),
            end_condition(ids::END_ITERATIONS.0, ids::END_ITERATIONS.1, false),
            f64::from(n),
        ),
        // Garmin's HIIT editor: no count, a time end (reference §1.5).
        RepeatEnd::Until { seconds } => {
            (None, end_condition(ids::END_TIME.0, ids::END_TIME.1, true), seconds)
        }
    };
    WorkoutStep {
        step_class: Some(REPEAT_GROUP.to_owned()),
        step_order: Some(own_order),
        step_type: Some(step_type(type_id, type_key)),
        number_of_iterations: iterations,
        end_condition: Some(end),
        end_condition_value: Some(value),
        smart_repeat: Some(false),
        skip_last_rest_step: Some(repeat.skip_last_rest),
        workout_steps: children,
        ..WorkoutStep::default()
    }
}

fn executable(work: &WorkStep, sport: SpecSport, order: i64) -> WorkoutStep {
    let (type_id, type_key) = ids::step_type(work.kind);
    let (end, value, compare) = match work.end {
        // The value of a lap-button end is ignored by Garmin; none is sent.
        StepEnd::LapButton => (ids::END_LAP_BUTTON, None, None),
        StepEnd::Reps { count } => (ids::END_REPS, Some(f64::from(count)), None),
        StepEnd::Time { seconds } => (ids::END_TIME, Some(seconds), None),
        StepEnd::Distance { meters } => (ids::END_DISTANCE, Some(meters), None),
        StepEnd::Calories { kcal } => (ids::END_CALORIES, Some(f64::from(kcal)), None),
        StepEnd::HeartRateBelow { bpm } => (ids::END_HEART_RATE, Some(f64::from(bpm)), Some("lt")),
        StepEnd::HeartRateAbove { bpm } => (ids::END_HEART_RATE, Some(f64::from(bpm)), Some("gt")),
    };
    let mut step = WorkoutStep {
        step_class: Some(EXECUTABLE_STEP.to_owned()),
        step_order: Some(order),
        step_type: Some(step_type(type_id, type_key)),
        description: work.description.clone(),
        end_condition: Some(end_condition(end.0, end.1, true)),
        end_condition_value: value,
        end_condition_compare: compare.map(str::to_owned),
        ..WorkoutStep::default()
    };
    let primary = target_fields(work.target, sport);
    step.target_type = Some(primary.kind);
    step.target_value_one = primary.one;
    step.target_value_two = primary.two;
    step.zone_number = primary.zone;
    if let Some(secondary) = work.secondary_target {
        let secondary = target_fields(Some(secondary), sport);
        step.secondary_target_type = Some(secondary.kind);
        step.secondary_target_value_one = secondary.one;
        step.secondary_target_value_two = secondary.two;
        step.secondary_zone_number = secondary.zone;
    }
    if let Some(exercise) = work.exercise {
        step.category = Some(exercise.category().key.to_owned());
        step.exercise_name = Some(exercise.exercise_name().to_owned());
    }
    if let Some(weight) = work.weight {
        let (unit_id, unit_key, factor) =
            if weight.unit == WeightUnit::Kg { ids::UNIT_KILOGRAM } else { ids::UNIT_POUND };
        step.weight_value = Some(weight.value);
        step.weight_unit = Some(WorkoutUnit {
            unit_id: Some(unit_id),
            unit_key: Some(unit_key.to_owned()),
            factor: Some(factor),
        });
    }
    if sport == SpecSport::Swim {
        step.stroke_type = work.stroke.map(|stroke| StrokeType {
            stroke_type_id: Some(ids::stroke_id(stroke)),
            stroke_type_key: Some(stroke.as_str().to_owned()),
            display_order: None,
        });
        step.equipment_type = work.equipment.map(|equipment| EquipmentType {
            equipment_type_id: Some(ids::equipment_id(equipment)),
            equipment_type_key: Some(equipment.as_str().to_owned()),
            display_order: None,
        });
    }
    step
}

/// A target as Garmin's fields: type, the two bounds, the zone.
struct TargetFields {
    kind: TargetType,
    one: Option<f64>,
    two: Option<f64>,
    zone: Option<i64>,
}

fn target_fields(target: Option<StepTarget>, sport: SpecSport) -> TargetFields {
    let kind = |(id, key): (i64, &str)| TargetType {
        workout_target_type_id: Some(id),
        workout_target_type_key: Some(key.to_owned()),
        display_order: None,
    };
    let range = |id_key, low: f64, high: f64| TargetFields {
        kind: kind(id_key),
        one: Some(low),
        two: Some(high),
        zone: None,
    };
    let zone = |id_key, zone: u8| TargetFields {
        kind: kind(id_key),
        one: None,
        two: None,
        zone: Some(i64::from(zone)),
    };
    match target {
        None => TargetFields { kind: kind(ids::TARGET_NONE), one: None, two: None, zone: None },
        // m/s, the faster (higher) speed first (reference §5.2.1).
        Some(StepTarget::Pace { fastest_s, slowest_s }) => {
            let per = sport.pace_distance_m();
            range(ids::TARGET_PACE, per / fastest_s, per / slowest_s)
        }
        // m/s, low → high as in the recorded round trip.
        Some(StepTarget::Speed { low_kmh, high_kmh }) => {
            range(ids::TARGET_SPEED, low_kmh / 3.6, high_kmh / 3.6)
        }
        Some(StepTarget::HeartRateZone { zone: z }) => zone(ids::TARGET_HEART_RATE, z),
        Some(StepTarget::HeartRate { low_bpm, high_bpm }) => {
            range(ids::TARGET_HEART_RATE, f64::from(low_bpm), f64::from(high_bpm))
        }
        Some(StepTarget::PowerZone { zone: z }) => zone(ids::TARGET_POWER, z),
        Some(StepTarget::Power { low_w, high_w }) => {
            range(ids::TARGET_POWER, f64::from(low_w), f64::from(high_w))
        }
        Some(StepTarget::Cadence { low, high }) => {
            range(ids::TARGET_CADENCE, f64::from(low), f64::from(high))
        }
    }
}

fn step_type(id: i64, key: &str) -> StepType {
    StepType { step_type_id: Some(id), step_type_key: Some(key.to_owned()), display_order: None }
}

fn end_condition(id: i64, key: &str, displayable: bool) -> EndCondition {
    EndCondition {
        condition_type_id: Some(id),
        condition_type_key: Some(key.to_owned()),
        display_order: None,
        displayable: Some(displayable),
    }
}
