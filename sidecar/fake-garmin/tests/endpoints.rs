//! Integration tests of the data endpoints under `/gc-api`: recorded shapes, determinism,
//! Garmin's "no data" forms and errors, the stateful writes, downloads and GraphQL.
//!
//! Run: `cargo test -p fake-garmin --test endpoints`

#[path = "endpoints/support.rs"]
mod support;

#[path = "endpoints/activities.rs"]
mod activities;
#[path = "endpoints/calendar.rs"]
mod calendar;
#[path = "endpoints/determinism.rs"]
mod determinism;
#[path = "endpoints/devices.rs"]
mod devices;
#[path = "endpoints/downloads.rs"]
mod downloads;
#[path = "endpoints/no_data.rs"]
mod no_data;
#[path = "endpoints/races.rs"]
mod races;
#[path = "endpoints/shapes.rs"]
mod shapes;
#[path = "endpoints/strength.rs"]
mod strength;
#[path = "endpoints/workouts.rs"]
mod workouts;
