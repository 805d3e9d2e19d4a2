//! `garmin-mcp` with no command: serve MCP over stdio (what AI clients start). stdout carries only
//! the protocol; everything else goes to stderr.

use std::process::ExitCode;

use garmin::SessionStore;
use rmcp::ServiceExt as _;

use crate::demo::Demo;
use crate::server::{GarminMcp, ServerOptions};

/// Server flags from the command line.
#[derive(Debug)]
pub struct ServeArgs {
    /// `--readonly`.
    pub readonly: bool,
    /// `--toolsets`.
    pub toolsets: Option<Vec<String>>,
    /// `--demo`.
    pub demo: bool,
}

/// Serves until the client closes stdin.
pub async fn run(args: ServeArgs, store: SessionStore) -> ExitCode {
    let demo = if args.demo {
        match Demo::start(None).await {
            Ok(demo) => Some(demo),
            Err(e) => {
                eprintln!("garmin-mcp: could not start the demo account: {e}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        None
    };
    let mut options = ServerOptions::new(demo.as_ref().map_or(store, |d| d.store.clone()));
    options.read_only = args.readonly;
    options.toolsets = args.toolsets;
    options.demo = demo.is_some();
    let server = match GarminMcp::new(options) {
        Ok(server) => server,
        Err(message) => {
            eprintln!("garmin-mcp: {message}");
            return ExitCode::from(2);
        }
    };
    let running = match server.serve(rmcp::transport::stdio()).await {
        Ok(running) => running,
        Err(e) => {
            eprintln!("garmin-mcp: MCP start-up failed: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Err(e) = running.waiting().await {
        tracing::warn!("MCP session ended with an error: {e}");
    }
    drop(demo);
    ExitCode::SUCCESS
}
