//! The two error tiers of every tool, decided once here.
//!
//! * Things the person or the model can act on become a tool result with `isError: true` and one
//!   clear sentence: an expired or missing session ("run the login tool or open the app"), an id that
//!   does not exist, rate limiting, Garmin being down, no data recorded for a day. A 403 that is not
//!   about the session starts with its kind ("Garmin refused this (HTTP 403, Cloudflare edge
//!   block)") and never asks for a sign-in. The model reads it and answers the person; nothing
//!   crashes.
//! * Arguments that cannot be used — a wrong type, a value outside its range, a date that is not
//!   `YYYY-MM-DD`, an end before a start, a string over its length limit — are also a tool result
//!   with `isError: true` (MCP 2025-11-25, SEP-1303): the model reads the sentence, which names the
//!   argument, what was expected and what was found, and calls again with a better one.
//!   [`argument_error`] rewrites rmcp's own decoding errors into such a sentence.
//! * Only protocol faults — an unknown tool, a malformed request — are JSON-RPC errors.
//!
//! A failed result carries only text (no structured content, which clients would validate against
//! the tool's output schema); the text starts with the sentence to act on. Its `_meta` names the
//! kind of failure for programs ([`ERROR_KIND_META`]: `sign_in_needed`, `no_data`,
//! `invalid_argument`, `garmin`, `local`, `internal`), so none has to read the words.

use rmcp::ErrorData;
use rmcp::handler::server::tool::IntoCallToolResult;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock};
use serde_json::Value;

/// The `_meta` key of a failed result that names its kind (see the module docs).
pub use crate::sources::ERROR_KIND_META;

/// A failed result: `text` for the model, `kind` in `_meta` for programs.
fn failed(kind: &str, text: String) -> CallToolResponse {
    // The answer boundary cleans refusals too: they may quote a name from Garmin.
    let text = display::text::strip_hidden(&text).into_owned();
    let mut result = CallToolResult::error(vec![ContentBlock::text(text)]);
    let mut meta = rmcp::model::MetaObject::new();
    meta.insert(ERROR_KIND_META.to_owned(), Value::from(kind));
    result.meta = Some(meta);
    result.into()
}

/// How every "sign in first" answer starts.
pub const SIGN_IN_NEEDED: &str = "Your Garmin session is not usable";

tokio::task_local! {
    /// Set, for the tool call in progress, when its answer was built from a [`ToolError`] that
    /// needs a sign-in: how the server knows to ask the desktop app to sign the person in (see
    /// `GarminMcp::call_tool`) without reading the answer's words.
    static SIGN_IN_ASKED: std::cell::Cell<bool>;
}

/// Runs one tool call and says whether its answer was a "sign in first" error.
pub async fn noting_sign_in<F: std::future::Future>(call: F) -> (F::Output, bool) {
    SIGN_IN_ASKED
        .scope(std::cell::Cell::new(false), async {
            let output = call.await;
            (output, SIGN_IN_ASKED.with(std::cell::Cell::get))
        })
        .await
}

/// Why a tool could not answer.
#[derive(Debug)]
pub enum ToolError {
    /// Garmin (or the session) failed; see [`garmin::Error`].
    Garmin(garmin::Error),
    /// Garmin has nothing recorded for what was asked ("No sleep data recorded for 2026-11-28").
    NoData(String),
    /// The arguments cannot be used: the sentence names the argument, what was expected and what
    /// was found (an `isError` result the model can correct itself from).
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

    /// The kind named in the failed result's `_meta` ([`ERROR_KIND_META`]).
    pub fn kind(&self) -> &'static str {
        match self {
            ToolError::Garmin(e) if e.needs_sign_in() => "sign_in_needed",
            ToolError::Garmin(_) => "garmin",
            ToolError::NoData(_) => "no_data",
            ToolError::InvalidArgument(_) => "invalid_argument",
            ToolError::Local(_) => "local",
        }
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
        if matches!(&self, ToolError::Garmin(e) if e.needs_sign_in()) {
            // Outside a noted call (unit tests) there is no one to tell.
            let _ = SIGN_IN_ASKED.try_with(|asked| asked.set(true));
        }
        Ok(failed(self.kind(), self.message()))
    }
}

/// How rmcp starts the message of a tool call whose arguments do not decode into the tool's
/// argument type (it already answers those as an `isError` result, but in serde's words).
pub const RMCP_DECODE_PREFIX: &str = "failed to deserialize parameters:";

/// The `isError` result for an argument that cannot be used.
pub fn argument_error(message: impl Into<String>) -> CallToolResponse {
    failed("invalid_argument", message.into())
}

/// Rewrites serde's decoding error of `tool`'s `arguments` (after [`RMCP_DECODE_PREFIX`]) into a
/// sentence naming the argument, what was expected and what was found, e.g. "`limit` of
/// `get_workouts` must be a whole number from 0 up, not the text `"ten"`. Call the tool again with a
/// corrected `limit`." When the argument cannot be told, serde's words stay, prefixed by the tool.
pub fn explain_decode_error(
    tool: &str,
    detail: &str,
    arguments: Option<&serde_json::Map<String, Value>>,
) -> String {
    let detail = detail.trim();
    // An argument type's own sentence (a date argument's: "start_date must be YYYY-MM-DD, got
    // `x`") starts with the argument's name, which serde's own messages never do: pass it on.
    let own = arguments.and_then(|args| args.keys().find(|name| detail.starts_with(&format!("{name} "))));
    if let Some(name) = own {
        return format!("{detail}. Call `{tool}` again with a corrected `{name}`.");
    }
    if let Some(field) = between(detail, "missing field `", "`") {
        return format!(
            "`{field}` is required by `{tool}` but was not given. Call the tool again with `{field}`."
        );
    }
    if let Some(field) = between(detail, "unknown field `", "`") {
        let known =
            detail.split_once(", expected ").map(|(_, e)| format!(" (it takes {e})")).unwrap_or_default();
        return format!("`{tool}` has no argument `{field}`{known}. Call it again without `{field}`.");
    }
    let (found, expected) = match detail.split_once(", expected ") {
        Some((found, expected)) => (found, expected),
        None => (detail, ""),
    };
    let found = found
        .trim_start_matches("invalid type: ")
        .trim_start_matches("invalid value: ")
        .trim_start_matches("unknown variant ");
    let expected = plain_expectation(expected);
    let argument = arguments.and_then(|args| {
        args.iter().find(|(_, value)| found_matches(found, value)).map(|(name, _)| name.clone())
    });
    match (argument, expected.is_empty()) {
        (Some(name), false) => format!(
            "`{name}` of `{tool}` must be {expected}; found {found}. Call the tool again with a corrected `{name}`."
        ),
        (Some(name), true) => {
            format!(
                "`{name}` of `{tool}` cannot be used: {found}. Call the tool again with a corrected `{name}`."
            )
        }
        (None, false) => format!(
            "An argument of `{tool}` must be {expected}; found {found}. Check the tool's input schema and call again."
        ),
        (None, true) => {
            format!(
                "The arguments of `{tool}` cannot be used: {detail}. Check the tool's input schema and call again."
            )
        }
    }
}

/// The text between `start` and the next `end`, when `text` starts with `start`.
fn between<'a>(text: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let rest = text.strip_prefix(start)?;
    rest.split_once(end).map(|(inside, _)| inside)
}

/// serde's Rust-flavoured expectation ("u32", "a string") in words a model knows.
fn plain_expectation(expected: &str) -> String {
    match expected.trim() {
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" => "a whole number from 0 up".to_owned(),
        "i8" | "i16" | "i32" | "i64" | "i128" | "isize" => "a whole number".to_owned(),
        "f32" | "f64" => "a number".to_owned(),
        "a boolean" => "`true` or `false`".to_owned(),
        other => other.to_owned(),
    }
}

/// Whether serde's description of what it found (`string "ten"`, ``integer `-1` ``, `` `pdf` ``)
/// is this argument's value.
fn found_matches(found: &str, value: &Value) -> bool {
    match value {
        Value::String(text) => {
            found.contains(&format!("\"{text}\""))
                || found == format!("`{text}`")
                || found.contains(&format!("`{text}`"))
        }
        Value::Number(number) => {
            found.contains(&format!("`{number}`")) || found.ends_with(&format!(" {number}"))
        }
        Value::Bool(flag) => found.contains(&format!("`{flag}`")),
        Value::Null => found == "null",
        Value::Array(_) => found == "sequence",
        Value::Object(_) => found == "map",
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
            Ok(failed(
                "internal",
                format!(
                    "`{tool}` stopped on an internal error ({what}) and could not answer. This is a bug in \
                     garmin-mcp, not in your data: try other arguments, and please report it with the \
                     server's log."
                ),
            ))
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
    fn invalid_arguments_are_error_results_the_model_can_read() {
        let error = ToolError::invalid("start_date must be YYYY-MM-DD, got `yesterday`");
        let Ok(CallToolResponse::Complete(result)) = error.into_call_tool_result() else {
            panic!("a tool result, not a protocol error")
        };
        assert_eq!(result.is_error, Some(true));
        let text =
            result.content.first().and_then(|c| c.as_text()).map(|t| t.text.clone()).unwrap_or_default();
        assert!(text.contains("start_date") && text.contains("yesterday"), "{text}");
    }

    #[test]
    fn an_argument_types_own_sentence_is_passed_on_with_what_to_do() {
        let a = args(serde_json::json!({"start_date": "next week"}));
        let text =
            explain_decode_error("search_events", "start_date must be YYYY-MM-DD, got `next week`", Some(&a));
        assert_eq!(
            text,
            "start_date must be YYYY-MM-DD, got `next week`. Call `search_events` again with a corrected `start_date`."
        );
    }

    fn args(value: Value) -> serde_json::Map<String, Value> {
        value.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn decoding_errors_name_the_argument_what_was_expected_and_what_was_found() {
        let a = args(serde_json::json!({"limit": "ten", "workout_id": 5}));
        let text =
            explain_decode_error("get_workouts", "invalid type: string \"ten\", expected u32", Some(&a));
        assert!(text.starts_with("`limit` of `get_workouts` must be a whole number from 0 up"), "{text}");
        assert!(text.contains("found string \"ten\""), "{text}");

        let a = args(serde_json::json!({"activity_id": 1, "format": "pdf"}));
        let text = explain_decode_error(
            "export_activity",
            "unknown variant `pdf`, expected one of `fit`, `gpx`",
            Some(&a),
        );
        assert!(
            text.starts_with("`format` of `export_activity` must be one of `fit`, `gpx`; found `pdf`"),
            "{text}"
        );

        let a = args(serde_json::json!({"activity_id": -3}));
        let text =
            explain_decode_error("get_activity", "invalid value: integer `-3`, expected u64", Some(&a));
        assert!(
            text.starts_with(
                "`activity_id` of `get_activity` must be a whole number from 0 up; found integer `-3`"
            ),
            "{text}"
        );

        let text = explain_decode_error(
            "get_activity",
            "missing field `activity_id`",
            Some(&args(serde_json::json!({}))),
        );
        assert!(text.contains("`activity_id` is required by `get_activity`"), "{text}");
    }
}
