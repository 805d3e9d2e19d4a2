//! What Garmin's workout service knows about exercises, for the fake's checks on workout and
//! activity bodies: the categories it accepts and the exercise names it keeps.
//!
//! * Categories: the 53 Garmin accepts, each confirmed one by one against a live account
//!   (garminconnect-js `src/types/workouts.ts` `WORKOUT_EXERCISE_CATEGORIES`, 2026-09-23; high
//!   confidence). Anything else fails the whole upload with `400 Invalid category`.
//! * Names: Garmin Connect's own exercise lists (`Exercises.json`, `Yoga.json`, `Pilates.json`,
//!   `Mobility.json`), read from the same generated table the `garmin` crate compiles in
//!   (`sidecar/garmin/src/exercises/data.rs`, included here by path so the two never drift). Garmin
//!   keeps a name it knows and stores any other as `""` without a word (garminconnect-js
//!   `src/exercises.ts`, AbhimanyuV04/garmin-mcp; high confidence that it blanks, medium that its
//!   list is exactly Connect's: the server may also know FIT-only names).

/// Garmin's table, as generated (`scripts/exercise_catalogue.py` in the `garmin` crate).
#[path = "../../../../garmin/src/exercises/data.rs"]
#[rustfmt::skip]
#[allow(dead_code, clippy::all, reason = "generated for the `garmin` crate: the fake uses only its keys")]
mod table;

/// A muscle or piece of equipment (the generated table's shape; only keys are used here).
#[derive(Debug)]
#[allow(dead_code, reason = "the generated table's shape: the fake reads only the keys")]
struct Named {
    key: &'static str,
    name: &'static str,
    zh: &'static str,
}

/// An exercise category (the generated table's shape).
#[derive(Debug)]
#[allow(dead_code, reason = "the generated table's shape: the fake reads only the keys")]
struct Category {
    key: &'static str,
    name: &'static str,
    zh: &'static str,
}

/// An exercise (the generated table's shape).
#[derive(Debug)]
#[allow(dead_code, reason = "the generated table's shape: the fake reads only the keys")]
struct Exercise {
    category: u8,
    key: &'static str,
    name: &'static str,
    zh: &'static str,
    primary: u32,
    secondary: u32,
    equipment: u32,
    lists: u8,
    bodyweight: bool,
}

/// Every exercise category Garmin's workout service accepts (garminconnect-js, verified live).
pub const CATEGORIES: &[&str] = &[
    "BENCH_PRESS",
    "CALF_RAISE",
    "CARDIO",
    "CARRY",
    "CHOP",
    "CORE",
    "CRUNCH",
    "CURL",
    "DEADLIFT",
    "FLYE",
    "HIP_RAISE",
    "HIP_STABILITY",
    "HIP_SWING",
    "HYPEREXTENSION",
    "LATERAL_RAISE",
    "LEG_CURL",
    "LEG_RAISE",
    "LUNGE",
    "OLYMPIC_LIFT",
    "PLANK",
    "PLYO",
    "PULL_UP",
    "PUSH_UP",
    "ROW",
    "SHOULDER_PRESS",
    "SHOULDER_STABILITY",
    "SHRUG",
    "SIT_UP",
    "SQUAT",
    "TOTAL_BODY",
    "TRICEPS_EXTENSION",
    "WARM_UP",
    "RUN",
    "UNKNOWN",
    "BIKE",
    "STRETCH",
    "BANDED_EXERCISES",
    "BATTLE_ROPE",
    "SLED",
    "SUSPENSION",
    "BIKE_OUTDOOR",
    "INDOOR_BIKE",
    "RUN_INDOOR",
    "ELLIPTICAL",
    "STAIR_STEPPER",
    "FLOOR_CLIMB",
    "LADDER",
    "SANDBAG",
    "SLEDGE_HAMMER",
    "TIRE",
    "INDOOR_ROW",
    "POSE",
    "MOVE",
];

/// Whether Garmin accepts `category`.
pub fn is_category(category: &str) -> bool {
    CATEGORIES.contains(&category)
}

/// Whether Garmin keeps the exercise `name` under `category` (otherwise it stores `""`).
pub fn knows(category: &str, name: &str) -> bool {
    let Some(index) = table::CATEGORIES.iter().position(|c| c.key == category) else { return false };
    table::EXERCISES.iter().any(|e| usize::from(e.category) == index && e.key == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_and_the_accepted_categories_agree() {
        // Every category of Connect's lists is one Garmin accepts; Garmin accepts four more that no
        // list uses (BIKE, STRETCH, UNKNOWN, INDOOR_ROW).
        for c in &table::CATEGORIES {
            assert!(is_category(c.key), "{}", c.key);
        }
        assert_eq!(CATEGORIES.len(), 53);
        assert!(knows("BENCH_PRESS", "BARBELL_BENCH_PRESS"));
        assert!(knows("POSE", "DOWNWARD_FACING_DOG"));
        assert!(!knows("BENCH_PRESS", "BARBELL_BACK_SQUAT"));
        assert!(!is_category("UNASSIGNED") && !is_category("COOL_DOWN") && !is_category("KETTLEBELL"));
    }
}
