//! The two error tiers of every tool, decided once here.
//!
//! * Things the person or the model can act on become a tool result with `isError: true` and one
//!   clear sentence: an expired or missing session ("run the login tool or open the app"), an id that
//!   does not exist, rate limiting, Garmin being down, no data recorded for a day. A 403 that is not
//!   about the session starts with its kind ("Garmin refused this (HTTP 403, Cloudflare edge
//!   block)") and never asks for a sign-in. The model reads it and answers the person; nothing
//!   crashes.
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
            ToolError::Garmin(e) => match e.forbidden_kind() {
                Some(kind) => format!("Garmin refused this (HTTP 403, {}). {e}.", kind.label()),
                None => e.to_string(),
            },
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

/// Runs a tool call and answers even if its code panics: the panic becomes an `isError` result
/// with a sentence the model can pass on (and the details go to the log), instead of a request that
/// never gets an answer. Whatever the call held (locks, permits, connections) is dropped as the
/// panic unwinds through it.
pub async fn answer_even_if_it_panics<F>(tool: &str, call: F) -> Result<CallToolResponse, ErrorData>
where
    F: std::future::Future<Output = Result<CallToolResponse, ErrorData>>,
{
    use futures::FutureExt as _;
    match std::panic::AssertUnwindSafe(call).catch_unwind().await {
        Ok(answer) => answer,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no details".to_owned());
            tracing::error!(tool, "the tool stopped on an internal error: {what}");
            let what: String = what.chars().take(200).collect();
            Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                "`{tool}` stopped on an internal error ({what}) and could not answer. This is a bug in \
                 garmin-mcp, not in your data: try other arguments, and please report it with the server's \
                 log."
            ))])
            .into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_panicking_tool_call_still_gets_an_error_answer_naming_the_tool() {
        let call = async {
            let day = chrono::NaiveDate::MAX;
            let _ = day + chrono::TimeDelta::days(1);
            Ok(CallToolResult::success(Vec::new()).into())
        };
        let Ok(CallToolResponse::Complete(result)) = answer_even_if_it_panics("get_period_stats", call).await
        else {
            panic!("a tool result")
        };
        assert_eq!(result.is_error, Some(true));
        let text =
            result.content.first().and_then(|c| c.as_text()).map(|t| t.text.clone()).unwrap_or_default();
        assert!(text.contains("`get_period_stats` stopped on an internal error"), "{text}");
        assert!(text.contains("overflow"), "the panic's reason is in the answer: {text}");
    }

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
    fn a_403_that_is_not_the_session_names_its_kind_and_never_asks_for_a_sign_in() {
        let kinds = [
            (garmin::ForbiddenKind::CloudflareEdge, "Cloudflare edge block"),
            (garmin::ForbiddenKind::Account, "refused for this account (ForbiddenException)"),
            (garmin::ForbiddenKind::Feature, "feature this account or device lacks"),
        ];
        for (kind, name) in kinds {
            let error = ToolError::from(garmin::Error::Forbidden {
                kind,
                endpoint: "GET /gc-api/hrv-service/hrv/2026-11-28".into(),
                message: "HTTP 403 Forbidden".into(),
            });
            let message = error.message();
            assert!(message.starts_with(&format!("Garmin refused this (HTTP 403, {name}")), "{message}");
            assert!(!message.contains(SIGN_IN_NEEDED) && !message.contains("`login`"), "{message}");
        }
    }

    #[test]
    fn another_front_end_asks_for_a_sign_in_and_names_the_front_end_in_use() {
        let error = ToolError::from(garmin::Error::OtherFrontEnd {
            site: garmin::Site::Global,
            session_front_end: "https://connect.garmin.com".into(),
            moved_to: garmin::CONNECTUS_ORIGIN.into(),
        });
        let message = error.message();
        assert!(message.starts_with(SIGN_IN_NEEDED), "{message}");
        assert!(
            message.contains("connectus.garmin.cn (Garmin's in-China front end for international accounts"),
            "{message}"
        );
        assert!(message.contains("connect.garmin.com (Garmin Connect international)"), "{message}");
    }

    #[test]
    fn invalid_arguments_are_protocol_errors() {
        let error = ToolError::invalid("start_date must be YYYY-MM-DD, got `yesterday`");
        let Err(data) = error.into_call_tool_result() else { panic!("protocol error expected") };
        assert_eq!(data.code, rmcp::model::ErrorCode::INVALID_PARAMS);
    }
}
