//! MCP logging to the client (`logging/setLevel` and `notifications/message`), one level per
//! session: a client that asks for `info` hears which tool ran and how it ended, `warning` only the
//! calls that failed. Until a client sets a level it hears nothing (the spec lets the server
//! choose; stderr keeps the server's own log, see `crate::logging`).
//!
//! What is sent is built here from words this server chose — tool names, durations and the
//! sentence a failed tool already answers with — never from requests, headers or Garmin's
//! responses, so cookies, tokens and keys cannot reach a client this way. Names a client sent (an
//! unknown tool's) are quoted cleaned and cut short (`crate::output::echo`), and every message is
//! one cleaned text of at most [`MAX_MESSAGE_CHARS`] characters. MCP logging is deprecated
//! for the 2026-07-28 protocol (SEP-2577) but part of 2025-11-25, which clients speak today.
#![allow(deprecated, reason = "MCP logging is deprecated for 2026-07-28 (SEP-2577) but part of 2025-11-25")]

use std::sync::{Arc, Mutex};

use rmcp::RoleServer;
use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam};
use rmcp::service::Peer;

/// The name log messages carry as their `logger`.
pub const LOGGER: &str = "garmin-mcp";
/// Longest log message sent, in characters.
pub const MAX_MESSAGE_CHARS: usize = 1000;

/// The level one session asked for (`None`: nothing is sent).
#[derive(Debug, Default)]
pub struct ClientLog {
    level: Arc<Mutex<Option<LoggingLevel>>>,
}

impl Clone for ClientLog {
    /// A new session starts quiet: each clone of the server serves one session, and one client's
    /// level must not change what another hears.
    fn clone(&self) -> Self {
        ClientLog::default()
    }
}

/// Severity order of the MCP levels (RFC 5424), lowest first.
fn rank(level: LoggingLevel) -> u8 {
    match level {
        LoggingLevel::Debug => 0,
        LoggingLevel::Info => 1,
        LoggingLevel::Notice => 2,
        LoggingLevel::Warning => 3,
        LoggingLevel::Error => 4,
        LoggingLevel::Critical => 5,
        LoggingLevel::Alert => 6,
        LoggingLevel::Emergency => 7,
    }
}

impl ClientLog {
    /// Sets the lowest level this session hears.
    pub fn set_level(&self, level: LoggingLevel) {
        if let Ok(mut slot) = self.level.lock() {
            *slot = Some(level);
        }
    }

    /// Whether a message at `level` is sent.
    pub fn wants(&self, level: LoggingLevel) -> bool {
        self.level.lock().ok().and_then(|slot| *slot).is_some_and(|chosen| rank(level) >= rank(chosen))
    }

    /// Sends `message` to the client when the session's level lets it through. A client that went
    /// away is not an error of the call that logged.
    pub async fn send(&self, peer: &Peer<RoleServer>, level: LoggingLevel, message: String) {
        if !self.wants(level) {
            return;
        }
        let message = display::text::clean_display_lines(&message, MAX_MESSAGE_CHARS);
        let param = LoggingMessageNotificationParam::new(level, serde_json::Value::String(message))
            .with_logger(LOGGER);
        if let Err(error) = peer.notify_logging_message(param).await {
            tracing::debug!("a log notification was not delivered: {error}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_hears_its_level_and_above_and_nothing_before_it_chose() {
        let log = ClientLog::default();
        assert!(!log.wants(LoggingLevel::Emergency), "quiet until a level is set");
        log.set_level(LoggingLevel::Warning);
        assert!(!log.wants(LoggingLevel::Info));
        assert!(log.wants(LoggingLevel::Warning) && log.wants(LoggingLevel::Error));
        let other_session = log.clone();
        assert!(!other_session.wants(LoggingLevel::Error), "another session starts quiet");
    }
}
