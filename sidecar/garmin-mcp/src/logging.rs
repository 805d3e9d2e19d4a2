//! Logging to stderr only: stdout carries command output and the MCP protocol. Filter with
//! `GARMIN_MCP_LOG` (e.g. `debug`, `garmin=trace`); `-v` raises the default level.

use tracing_subscriber::filter::Targets;
use tracing_subscriber::layer::SubscriberExt as _;
use tracing_subscriber::util::SubscriberInitExt as _;

/// Environment variable holding a tracing filter.
pub const LOG_ENV: &str = "GARMIN_MCP_LOG";

/// Installs the stderr logger; `verbosity` counts `-v` flags.
///
/// The filter is a list of `target=level` directives and a default level (`debug`,
/// `warn,garmin=trace`), read by tracing's `Targets` filter: what people set, without the span
/// and field matching of `EnvFilter`, which would link a regular-expression engine into the
/// binary for nothing.
pub fn init(verbosity: u8) {
    let default = match verbosity {
        0 => "warn",
        1 => "info,garmin=debug,garmin_mcp=debug",
        _ => "debug",
    };
    let filter = filter(std::env::var(LOG_ENV).ok().as_deref(), default);
    let _ = tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer().with_writer(std::io::stderr).with_ansi(false).with_target(false),
        )
        .with(filter)
        .try_init();
}

/// The filter `setting` (`GARMIN_MCP_LOG`) asks for, or `default` when it is unset or unreadable.
fn filter(setting: Option<&str>, default: &str) -> Targets {
    setting
        .and_then(|text| text.parse::<Targets>().ok())
        .or_else(|| default.parse().ok())
        .unwrap_or_else(|| Targets::new().with_default(tracing::Level::WARN))
}

#[cfg(test)]
mod tests {
    use super::filter;
    use tracing::Level;

    #[test]
    fn the_log_setting_sets_levels_per_target_and_falls_back_to_the_default() {
        let set = filter(Some("warn,garmin=trace"), "error");
        assert!(set.would_enable("garmin::client", &Level::TRACE));
        assert!(!set.would_enable("hyper::proto", &Level::INFO));
        assert!(set.would_enable("hyper::proto", &Level::WARN));
        let unset = filter(None, "info,garmin_mcp=debug");
        assert!(unset.would_enable("garmin_mcp::server", &Level::DEBUG));
        assert!(!unset.would_enable("rmcp::service", &Level::DEBUG));
        let unreadable = filter(Some("garmin=loud"), "warn");
        assert!(unreadable.would_enable("x", &Level::WARN) && !unreadable.would_enable("x", &Level::INFO));
    }
}
