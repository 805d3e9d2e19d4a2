//! `garmin-mcp`: the MCP server that gives AI assistants your Garmin Connect data, and the session
//! commands around it (`login --manual`, `status`, `logout`, `api`).
//!
//! stdout belongs to the command's output (and, for the MCP server, to the protocol); logs go to
//! stderr and never contain cookies or tokens.

use std::process::ExitCode;

use clap::Parser as _;
use garmin_mcp::cli::{Cli, run};

/// Fewest runtime worker threads of the HTTP server and the commands, even on a one- or two-core
/// machine.
const MIN_WORKERS: usize = 4;

fn main() -> ExitCode {
    let cli = Cli::parse();
    garmin_mcp::logging::init(cli.verbose);
    let runtime = match runtime_for(&cli) {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("garmin-mcp: could not start: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(run(cli))
}

/// The runtime the command needs.
///
/// The stdio server has exactly one client: one thread serves it (no worker threads to start, no
/// hand-over between threads on each message), while what is CPU-heavy or blocking — drawing a
/// chart, reading a FIT file, the history database, the session file's lock — already runs on
/// tokio's blocking pool (`spawn_blocking`), started on first use, so a busy call never holds up
/// the reading of the next message.
///
/// The HTTP server (and every other command) keeps several worker threads, so one call busy
/// computing never stalls the other clients.
fn runtime_for(cli: &Cli) -> std::io::Result<tokio::runtime::Runtime> {
    if cli.serves_stdio() {
        return tokio::runtime::Builder::new_current_thread().enable_all().build();
    }
    let workers = std::thread::available_parallelism().map_or(MIN_WORKERS, |n| n.get().max(MIN_WORKERS));
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .thread_name("garmin-mcp-worker")
        .enable_all()
        .build()
}
