//! Typed answers of Garmin Connect, one module per API area (mirroring [`crate::api`]).
//!
//! Garmin's JSON is undocumented and drifts, and "no data" comes as `204`, `[]`, `{}` or objects
//! full of nulls. So every model here:
//! * has only optional fields (lists default to empty, `null` included) and ignores unknown ones;
//! * reads ids sent as ints, floats (`1.0E10`) or strings, and placeholders as absent;
//! * keeps Garmin's units (m, s, m/s, g, °C; °F in activity weather), documented per field;
//! * turns dates into [`chrono::NaiveDate`], GMT times into `DateTime<Utc>` and local times into
//!   [`chrono::NaiveDateTime`], whichever of Garmin's three timestamp styles was used;
//! * offers `has_data()` where an answer can be present but empty.
//!
//! [`units`] has the conversions tools need (pace, durations, timestamps).

pub mod activities;
pub mod calendar;
pub mod challenges;
pub mod common;
mod de;
pub mod devices;
pub mod downloads;
pub mod events;
pub mod gear;
pub mod metrics;
pub mod profile;
pub mod records;
pub mod social;
pub mod training_plans;
pub mod units;
pub mod wellness;
pub mod workouts;
