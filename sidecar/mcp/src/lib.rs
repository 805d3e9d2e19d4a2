//! Library half of the `garmin-mcp` binary, so tests can drive the same code in-process.
#![deny(missing_docs)]

pub mod cli;
pub mod logging;
