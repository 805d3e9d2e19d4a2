//! Library half of the `garmin-mcp` binary, so tests can drive the same code in-process.
#![deny(missing_docs)]

mod app;
pub mod apps;
pub mod caller;
pub mod check;
pub mod cli;
pub mod client_log;
pub mod demo;
pub mod domain;
mod drawing;
pub mod elicit;
pub mod files;
pub mod history;
pub mod http;
pub mod icons;
mod listing;
pub mod logging;
pub mod output;
pub mod prompts;
pub mod protocol;
pub mod resources;
pub mod schema;
pub mod server;
pub mod sources;
pub mod stdio;
pub mod tool_error;
pub mod tools;
pub mod toolsets;
pub mod writes;

pub use server::{GarminMcp, ServerOptions};
