//! Logging to stderr only: stdout carries command output and the MCP protocol. Filter with
//! `GARMIN_MCP_LOG` (e.g. `debug`, `garmin=trace`); `-v` raises the default level.

use tracing_subscriber::EnvFilter;

/// Environment variable holding a tracing filter.
pub const LOG_ENV: &str = "GARMIN_MCP_LOG";

/// Installs the stderr logger; `verbosity` counts `-v` flags.
pub fn init(verbosity: u8) {
    let default = match verbosity {
        0 => "warn",
        1 => "info,garmin=debug,garmin_mcp=debug",
        _ => "debug",
    };
    let filter = EnvFilter::try_from_env(LOG_ENV).unwrap_or_else(|_| EnvFilter::new(default));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_target(false)
        .try_init();
}
