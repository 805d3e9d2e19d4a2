//! Every MCP tool, driven in-process by rmcp's real client over `tokio::io::duplex` against the
//! fake Garmin: endpoints hit (the fake's request log), numbers against the fake's data set, "no
//! data" forms, expired sessions and 429s mid-call. Plus the catalogue checks: schema snapshots,
//! annotations on every tool, read-only and toolset filtering, and the response budget.
//!
//! Run: `cargo test -p garmin-mcp --test tools` (`UPDATE_TOOLSNAPS=1` rewrites the snapshots).

mod support;

mod activities;
mod analysis;
mod apps;
mod athlete;
mod best_efforts;
mod calendar;
mod catalogue;
mod charts;
mod elicit;
mod events;
mod exports;
mod health;
mod history;
mod injury;
mod niceties;
mod partial;
mod personal;
mod profile;
mod protocol;
mod recordings;
mod session;
mod social;
mod stats;
mod strength;
mod strength_progress;
mod training;
mod workouts;
mod writes;
