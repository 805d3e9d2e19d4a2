//! The typed API end to end against the fake Garmin Connect (`fake-garmin`), one module per area,
//! plus the request-log checks that every call looks like the Garmin web app's, and the one reader
//! (`garmin::reads`) choosing between the sources.
//!
//! Run with `cargo test -p garmin --test api`. Each test starts its own fake (port 0) whose data
//! set ends on [`support::TODAY`].

#[path = "api/activities.rs"]
mod activities;
#[path = "api/calendar.rs"]
mod calendar;
#[path = "api/downloads.rs"]
mod downloads;
#[path = "api/fit_reader.rs"]
mod fit_reader;
#[path = "api/metrics.rs"]
mod metrics;
#[path = "api/people.rs"]
mod people;
#[path = "api/profile.rs"]
mod profile;
#[path = "api/races.rs"]
mod races;
#[path = "api/reads.rs"]
mod reads;
#[path = "api/requests.rs"]
mod requests;
#[path = "api/support.rs"]
mod support;
#[path = "api/wellness.rs"]
mod wellness;
#[path = "api/workouts.rs"]
mod workouts;
