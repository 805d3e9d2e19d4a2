//! The workout spec (`garmin::workout_spec`): translation compared field by field with Garmin's
//! recorded create bodies, the preview on real workouts read back from Garmin, round trips
//! (spec → Garmin → spec, and Garmin's answers → spec), one precise error per problem, and property
//! tests — generated specs created on the fake Garmin, mutated and arbitrary JSON never panicking;
//! golden strength, HIIT, yoga and multisport bodies; every catalogue exercise through the fake.
//!
//! Run: `cargo test -p garmin --test workout_spec` (add `--features schema` for the schema test;
//! `PROPTEST_CASES=100000` for a long run of the parser properties).

#[path = "workout_spec/catalogue.rs"]
mod catalogue;
#[path = "workout_spec/common.rs"]
mod common;
#[path = "workout_spec/errors.rs"]
mod errors;
#[path = "workout_spec/exercise_errors.rs"]
mod exercise_errors;
#[path = "workout_spec/fixtures.rs"]
mod fixtures;
#[path = "workout_spec/golden.rs"]
mod golden;
#[path = "workout_spec/legacy.rs"]
mod legacy;
#[path = "workout_spec/preview.rs"]
mod preview;
#[path = "workout_spec/properties.rs"]
mod properties;
#[path = "workout_spec/spec_json.rs"]
mod spec_json;
#[path = "api/support.rs"]
#[allow(dead_code, reason = "shared with the api tests; this binary uses only part of it")]
mod support;
