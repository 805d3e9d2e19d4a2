//! Workout-service id tables (reference §5.1): sport types (swimming is 4, displayed third),
//! step types, end conditions, targets (`cadence.zone` in a request answers as `cadence`),
//! swim strokes and equipment, and the distance/weight units workouts use.

/// `(id, key, displayOrder)` of workout sport types.
pub const SPORTS: &[(u64, &str, u64)] = &[
    (1, "running", 1),
    (2, "cycling", 2),
    (3, "other", 3),
    (4, "swimming", 3),
    (5, "strength_training", 5),
    (6, "cardio_training", 6),
    (7, "yoga", 7),
    (8, "pilates", 8),
    (9, "hiit", 9),
    (10, "multi_sport", 4),
    (11, "mobility", 11),
];
/// `(id, key)` of step types.
pub const STEP_TYPES: &[(u64, &str)] = &[
    (1, "warmup"),
    (2, "cooldown"),
    (3, "interval"),
    (4, "recovery"),
    (5, "rest"),
    (6, "repeat"),
    (7, "other"),
    (8, "main"),
];
/// `(id, key)` of end conditions.
pub const END_CONDITIONS: &[(u64, &str)] = &[
    (1, "lap.button"),
    (2, "time"),
    (3, "distance"),
    (4, "calories"),
    (5, "power"),
    (6, "heart.rate"),
    (7, "iterations"),
    (8, "fixed.rest"),
    (9, "fixed.repetition"),
    (10, "reps"),
];
/// `(id, key)` of target types (`cadence.zone` in a request comes back as `cadence`).
pub const TARGETS: &[(u64, &str)] = &[
    (1, "no.target"),
    (2, "power.zone"),
    (3, "cadence"),
    (4, "heart.rate.zone"),
    (5, "speed.zone"),
    (6, "pace.zone"),
    (7, "grade"),
    (8, "heart.rate.lap"),
    (9, "power.lap"),
    (15, "resistance"),
    (17, "swim.css.offset"),
    (18, "swim.instruction"),
];
/// `(id, key)` of swim strokes.
pub const STROKES: &[(u64, &str)] = &[
    (1, "any_stroke"),
    (2, "backstroke"),
    (3, "breaststroke"),
    (4, "drill"),
    (5, "fly"),
    (6, "free"),
    (7, "individual_medley"),
];
/// `(id, key)` of swim equipment.
pub const EQUIPMENT: &[(u64, &str)] =
    &[(1, "fins"), (2, "kickboard"), (3, "paddles"), (4, "pull_buoy"), (5, "snorkel")];
/// `(unitId, unitKey, factor)` of distance and weight units.
pub const UNITS: &[(u64, &str, f64)] = &[
    (1, "meter", 100.0),
    (2, "kilometer", 100_000.0),
    (4, "mile", 160_934.4),
    (230, "yard", 91.44),
    (8, "kilogram", 1000.0),
    (9, "pound", 453.592_37),
];
