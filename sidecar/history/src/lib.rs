//! The athlete's training history on this computer: a SQLite database in the data folder
//! (`history.sqlite3`, 0600), shared by the desktop app and every `garmin-mcp` process, and the
//! sync that fills it from Garmin Connect (issue #16 §1–3).
//!
//! * [`History`] opens the file (WAL, busy timeout, migrations; a broken file is moved aside and a
//!   fresh one started) — see `db`.
//! * [`sync::sync`] reads Garmin in 28-day blocks, newest first, committing each day and each
//!   activity as it arrives, so a killed or rate-limited sync resumes without reading again what it
//!   finished; days Garmin may still revise are read again every time.
//! * [`read`] answers tools: activities of a range, how far the history covers a range and how
//!   fresh it is, and the per-activity loads the analytics work from; [`read_curves`] the
//!   per-activity mean-max curves and best times the sync computes from each activity's series;
//!   [`read_sets`] every set of the strength activities.
//! * The sync reads Garmin only through a [`garmin::Garmin`] reader (`garmin::reads`), which
//!   chooses between the web session, the Personal API key and the activities' FIT files.
//! * [`daily_metrics`] keeps the daily series of Garmin's newest metrics (hill and endurance
//!   scores, Health Status, load focus) for the tools' trends.
//! * [`profile`] keeps the athlete's heart-rate profile and FTP (read at sync, at most daily by tools).
//! * [`load`] turns kept sessions into their loads (power TSS, hrTSS, Garmin's) against that profile,
//!   for the app's fitness chart and the MCP server's alike.
//! * [`training`] the athlete's training at a glance for the desktop app: the fitness chart's days
//!   and the newest activities.
//! * [`sync_once`] lets one sync run at a time per data folder across processes, and keeps what the
//!   last one did for the next caller to report.
#![deny(missing_docs)]

pub mod curves;
pub mod daily_metrics;
mod db;
mod error;
pub mod load;
pub mod profile;
pub mod read;
pub mod read_curves;
pub mod read_laps;
pub mod read_sets;
mod rows;
mod schema;
mod store;
pub mod summary;
pub mod sync;
pub mod sync_once;
pub mod training;
mod write_gate;

pub use curves::Metric;
pub use db::{FILE_NAME, History, READ_BUSY_TIMEOUT, create_v1_for_tests, create_version_for_tests};
pub use error::{HistoryError, Result};
