//! Garmin's workout-service id tables (reference §5.1) as the spec uses them, in one place for
//! the translation, the reverse translation and the preview.

use super::{SpecSport, StepKind, SwimEquipment, SwimStroke};

/// `(sportTypeId, sportTypeKey)` of a spec sport: swimming is 4 (5 is strength training; 4 saved
/// strength workouts as swims in another client, reference §1.9), multisport 10.
pub(crate) fn sport(sport: SpecSport) -> (i64, &'static str) {
    match sport {
        SpecSport::Run => (1, "running"),
        SpecSport::Bike => (2, "cycling"),
        SpecSport::Swim => (4, "swimming"),
        SpecSport::Strength => (5, "strength_training"),
        SpecSport::Cardio => (6, "cardio_training"),
        SpecSport::Yoga => (7, "yoga"),
        SpecSport::Pilates => (8, "pilates"),
        SpecSport::Hiit => (9, "hiit"),
        SpecSport::Multisport => (10, "multi_sport"),
        SpecSport::Mobility => (11, "mobility"),
    }
}

/// The spec sport of a Garmin sport key.
pub(crate) fn sport_from_key(key: &str) -> Option<SpecSport> {
    SpecSport::ALL.into_iter().find(|s| sport(*s).1 == key)
}

/// The spec sport of a Garmin sport id.
pub(crate) fn sport_from_id(id: i64) -> Option<SpecSport> {
    SpecSport::ALL.into_iter().find(|s| sport(*s).0 == id)
}

/// Weight units `(unitId, unitKey, factor)`: `factor` is grams per unit (metadata; the value is
/// in the unit itself, reference §1.4).
pub(crate) const UNIT_KILOGRAM: (i64, &str, f64) = (8, "kilogram", 1000.0);
/// Pounds.
pub(crate) const UNIT_POUND: (i64, &str, f64) = (9, "pound", super::GRAMS_PER_POUND);

/// `(stepTypeId, stepTypeKey)` of a step kind.
pub(crate) fn step_type(kind: StepKind) -> (i64, &'static str) {
    match kind {
        StepKind::Warmup => (1, "warmup"),
        StepKind::Cooldown => (2, "cooldown"),
        StepKind::Interval => (3, "interval"),
        StepKind::Recovery => (4, "recovery"),
        StepKind::Rest => (5, "rest"),
    }
}

/// The step type of a repeat group.
pub(crate) const REPEAT_STEP_TYPE: (i64, &str) = (6, "repeat");

/// The step kind of a Garmin step type key or id (repeat, other and main have none).
pub(crate) fn step_kind(key: Option<&str>, id: Option<i64>) -> Option<StepKind> {
    let from_key = match key {
        Some("warmup") => Some(StepKind::Warmup),
        Some("cooldown") => Some(StepKind::Cooldown),
        Some("interval") => Some(StepKind::Interval),
        Some("recovery") => Some(StepKind::Recovery),
        Some("rest") => Some(StepKind::Rest),
        _ => None,
    };
    from_key.or(match id {
        Some(1) => Some(StepKind::Warmup),
        Some(2) => Some(StepKind::Cooldown),
        Some(3) => Some(StepKind::Interval),
        Some(4) => Some(StepKind::Recovery),
        Some(5) => Some(StepKind::Rest),
        _ => None,
    })
}

/// End conditions `(conditionTypeId, conditionTypeKey)`.
pub(crate) const END_LAP_BUTTON: (i64, &str) = (1, "lap.button");
pub(crate) const END_TIME: (i64, &str) = (2, "time");
pub(crate) const END_DISTANCE: (i64, &str) = (3, "distance");
pub(crate) const END_CALORIES: (i64, &str) = (4, "calories");
pub(crate) const END_HEART_RATE: (i64, &str) = (6, "heart.rate");
pub(crate) const END_ITERATIONS: (i64, &str) = (7, "iterations");
pub(crate) const END_REPS: (i64, &str) = (10, "reps");

/// The end-condition key of an id, for steps that carry only the id.
pub(crate) fn end_key_of_id(id: i64) -> Option<&'static str> {
    Some(match id {
        1 => "lap.button",
        2 => "time",
        3 => "distance",
        4 => "calories",
        5 => "power",
        6 => "heart.rate",
        7 => "iterations",
        8 => "fixed.rest",
        9 => "fixed.repetition",
        10 => "reps",
        _ => return None,
    })
}

/// Targets `(workoutTargetTypeId, workoutTargetTypeKey)`.
pub(crate) const TARGET_NONE: (i64, &str) = (1, "no.target");
pub(crate) const TARGET_POWER: (i64, &str) = (2, "power.zone");
pub(crate) const TARGET_CADENCE: (i64, &str) = (3, "cadence");
pub(crate) const TARGET_HEART_RATE: (i64, &str) = (4, "heart.rate.zone");
pub(crate) const TARGET_SPEED: (i64, &str) = (5, "speed.zone");
pub(crate) const TARGET_PACE: (i64, &str) = (6, "pace.zone");

/// The target key of an id, for steps that carry only the id (`cadence.zone` reads as `cadence`).
pub(crate) fn target_key_of_id(id: i64) -> Option<&'static str> {
    Some(match id {
        1 => "no.target",
        2 => "power.zone",
        3 => "cadence",
        4 => "heart.rate.zone",
        5 => "speed.zone",
        6 => "pace.zone",
        7 => "grade",
        8 => "heart.rate.lap",
        9 => "power.lap",
        15 => "resistance",
        17 => "swim.css.offset",
        18 => "swim.instruction",
        _ => return None,
    })
}

/// `strokeTypeId` of a stroke (0 is "none").
pub(crate) fn stroke_id(stroke: SwimStroke) -> i64 {
    match stroke {
        SwimStroke::AnyStroke => 1,
        SwimStroke::Backstroke => 2,
        SwimStroke::Breaststroke => 3,
        SwimStroke::Drill => 4,
        SwimStroke::Fly => 5,
        SwimStroke::Free => 6,
        SwimStroke::IndividualMedley => 7,
    }
}

/// The stroke of a `strokeTypeId` (0 and unknown ids are none).
pub(crate) fn stroke_of_id(id: i64) -> Option<SwimStroke> {
    Some(match id {
        1 => SwimStroke::AnyStroke,
        2 => SwimStroke::Backstroke,
        3 => SwimStroke::Breaststroke,
        4 => SwimStroke::Drill,
        5 => SwimStroke::Fly,
        6 => SwimStroke::Free,
        7 => SwimStroke::IndividualMedley,
        _ => return None,
    })
}

/// `equipmentTypeId` of a piece of swim equipment (0 is "none").
pub(crate) fn equipment_id(equipment: SwimEquipment) -> i64 {
    match equipment {
        SwimEquipment::Fins => 1,
        SwimEquipment::Kickboard => 2,
        SwimEquipment::Paddles => 3,
        SwimEquipment::PullBuoy => 4,
        SwimEquipment::Snorkel => 5,
    }
}

/// The equipment of an `equipmentTypeId` (0 and unknown ids are none).
pub(crate) fn equipment_of_id(id: i64) -> Option<SwimEquipment> {
    Some(match id {
        1 => SwimEquipment::Fins,
        2 => SwimEquipment::Kickboard,
        3 => SwimEquipment::Paddles,
        4 => SwimEquipment::PullBuoy,
        5 => SwimEquipment::Snorkel,
        _ => return None,
    })
}

/// Pool length unit `{unitId, unitKey, factor}` for metres.
pub(crate) const UNIT_METER: (i64, &str, f64) = (1, "meter", 100.0);
