//! The two error tiers of every tool, decided once here.
//!
//! * Things the person or the model can act on become a tool result with `isError: true` and one
//!   clear sentence: an expired or missing session ("run the login tool or open the app"), an id that
//!   does not exist, rate limiting, Garmin being down, no data recorded for a day. The model reads it
//!   and answers the person; nothing crashes.
//! * Misuse of the protocol — an unknown tool, arguments that do not match the schema or make no
//!   sense (a date that is not `YYYY-MM-DD`, an end before a start) — becomes a JSON-RPC error
//!   (`invalid_params`), like rmcp does for schema mismatches.
//!
//! A failed result carries only text (no structured content, which clients would validate against
//! the tool's output schema); the text starts with the sentence to act on.

use rmcp::ErrorData;
use rmcp::handler::server::tool::IntoCallToolResult;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock};

/// How every "sign in first" answer starts, so the server can recognise one and ask the desktop
/// app to sign the person in before answering (see `GarminMcp::call_tool`).
pub const SIGN_IN_NEEDED: &str = "Your Garmin session is not usable";

/// Why a tool could not answer.
#[derive(Debug)]
pub enum ToolError {
    /// Garmin (or the session) failed; see [`garmin::Error`].
    Garmin(garmin::Error),
    /// Garmin has nothing recorded for what was asked ("No sleep data recorded for 2026-11-28").
    NoData(String),
    /// The arguments cannot be used (protocol-level error).
    InvalidArgument(String),
    /// Something on this machine failed (a folder that cannot be written, the desktop app not
    /// answering); the sentence says what to do.
    Local(String),
}

impl From<garmin::Error> for ToolError {
    fn from(error: garmin::Error) -> Self {
        match error {
            garmin::Error::InvalidInput(message) => ToolError::InvalidArgument(message),
            other => ToolError::Garmin(other),
        }
    }
}

impl ToolError {
    /// A bad argument, in words.
    pub fn invalid(message: impl Into<String>) -> Self {
        ToolError::InvalidArgument(message.into())
    }

    /// The sentence the model reads.
    pub fn message(&self) -> String {
        match self {
            ToolError::Garmin(e) if e.needs_sign_in() => {
                format!("{SIGN_IN_NEEDED}: {e}. Run the `login` tool or open the Garmin MCP app to sign in.")
            }
            ToolError::Garmin(e) => e.to_string(),
            ToolError::NoData(message) | ToolError::InvalidArgument(message) | ToolError::Local(message) => {
                message.clone()
            }
        }
    }
}

impl IntoCallToolResult for ToolError {
    fn into_call_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        if let ToolError::InvalidArgument(message) = &self {
            return Err(ErrorData::invalid_params(message.clone(), None));
        }
        Ok(CallToolResult::error(vec![ContentBlock::text(self.message())]).into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expired_session_tells_the_model_how_to_sign_in() {
        let error =
            ToolError::from(garmin::Error::SessionExpired { site: garmin::Site::Cn, detail: "x".into() });
        let message = error.message();
        assert!(message.contains("`login` tool") && message.contains("app"), "{message}");
        let Ok(CallToolResponse::Complete(result)) = error.into_call_tool_result() else {
            panic!("tool result")
        };
        assert_eq!(result.is_error, Some(true));
        assert!(result.structured_content.is_none(), "errors must not fail output-schema validation");
    }

    #[test]
    fn invalid_arguments_are_protocol_errors() {
        let error = ToolError::invalid("start_date must be YYYY-MM-DD, got `yesterday`");
        let Err(data) = error.into_call_tool_result() else { panic!("protocol error expected") };
        assert_eq!(data.code, rmcp::model::ErrorCode::INVALID_PARAMS);
    }
}
