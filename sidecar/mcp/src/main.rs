//! `garmin-mcp`: the MCP server that gives AI assistants your Garmin Connect data, and the session
//! commands around it (`login --manual`, `status`, `logout`, `api`).
//!
//! stdout belongs to the command's output (and, for the MCP server, to the protocol); logs go to
//! stderr and never contain cookies or tokens.

use std::process::ExitCode;

use clap::Parser as _;
use garmin_mcp::cli::{Cli, run};

fn main() -> ExitCode {
    let cli = Cli::parse();
    garmin_mcp::logging::init(cli.verbose);
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("garmin-mcp: could not start: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(run(cli))
}
