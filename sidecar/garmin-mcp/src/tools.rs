//! The tools, one file per toolset (see `toolsets.rs` for the catalogue). Each file holds one
//! `#[tool_router(router = <toolset>_tools)]` block with its argument and answer types; the server
//! adds the routers together. The larger toolsets (`activities`, `health`, `training`) keep their
//! answer types and computation in a folder of the same name. What several tools share (activity
//! rows, date arguments, load, sleep spans, partial answers) lives in the domain layer,
//! [`crate::domain`]: tools depend on it and never import one another.
//! Tools that change the Garmin account sit beside their toolset's reads in `<toolset>_writes.rs`
//! and all go through the safety model in [`crate::writes`].
//!
//! Conventions every tool follows: truthful annotations (`readOnlyHint`, `openWorldHint` when it
//! reaches Garmin, a `title`), a description that says when to use it, typed arguments with bounds,
//! an [`Answer`](crate::output::Answer) with a summary and compact data within the budget, Garmin
//! calls fanned out concurrently, and failures as [`ToolError`](crate::tool_error::ToolError).

pub mod activities;
pub mod analysis;
pub mod athlete;
pub mod best_efforts;
pub mod calendar;
pub mod calendar_writes;
pub mod changes;
pub mod charts;
pub mod events;
pub mod exports;
pub mod health;
pub mod history;
pub mod injury_risk;
pub mod profile;
pub mod session;
pub mod social;
pub mod stats;
pub mod strength_progress;
pub mod strength_writes;
pub mod training;
pub mod workout_writes;
pub mod workouts;
