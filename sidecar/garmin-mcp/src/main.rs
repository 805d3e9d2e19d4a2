//! `garmin-mcp`: the MCP server that gives AI assistants your Garmin Connect data, and the session
//! commands around it (`login --manual`, `status`, `logout`, `api`).
//!
//! stdout belongs to the command's output (and, for the MCP server, to the protocol); logs go to
//! stderr and never contain cookies or tokens.

use std::process::ExitCode;

use clap::Parser as _;
use garmin_mcp::cli::{Cli, run};

/// Fewest runtime worker threads, even on a one- or two-core machine.
const MIN_WORKERS: usize = 4;

fn main() -> ExitCode {
    let cli = Cli::parse();
    garmin_mcp::logging::init(cli.verbose);
    // Several worker threads, so one call busy computing (a chart, a big FIT file) never stalls
    // the other clients of an HTTP server; blocking file work goes to tokio's blocking pool.
    let workers = std::thread::available_parallelism().map_or(MIN_WORKERS, |n| n.get().max(MIN_WORKERS));
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .thread_name("garmin-mcp-worker")
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("garmin-mcp: could not start: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(run(cli))
}
