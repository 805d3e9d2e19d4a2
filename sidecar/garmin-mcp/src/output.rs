//! How tools answer: a short sentence-style summary for people plus compact structured data for
//! the model, both within a response budget.
//!
//! Every answer carries the same data twice on the wire, as MCP recommends: `structuredContent`
//! (validated against the tool's output schema) and a compact JSON text block for clients that only
//! read text. The first text block is the human summary, and the structured result carries it too,
//! as `summary`: Claude Code and Codex pass the model only the structured result, so the sentence,
//! its hints ("only the 3 newest are listed…") and notes ("saved as…") must be in it. The budget ([`BUDGET_BYTES`]) applies to the
//! text the model reads (summary + JSON); tools shrink their answers (fewer rows, downsampled series)
//! to stay within it instead of failing.
//!
//! Numbers in answers (km with two decimals, pace as `5'12"/km`, durations as `h:mm:ss`) are
//! written by the `display` crate, the same as in workout previews and charts.
//!
//! Names come from Garmin and from whoever wrote them there (an activity renamed with a
//! right-to-left override, a workout named with hidden characters), from the local history and
//! from the athlete memory. This is the answer boundary: every string of every answer — the
//! summary and each string of the structured data — leaves without control, bidirectional and
//! invisible formatting characters (`display::text::strip_hidden`, the one cleaner the app's window
//! uses too); line breaks, spacing and numbers stay as they were. What a client sent is quoted back
//! in refusals and log lines only through [`echo`]: cleaned and cut short.

use rmcp::ErrorData;
use rmcp::handler::server::tool::IntoCallToolResult;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock};
use serde::Serialize;

/// Largest default answer, in bytes of text the model reads (summary + JSON).
pub const BUDGET_BYTES: usize = 12 * 1024;

/// Longest value a client sent that a refusal or a log line quotes back, in characters.
pub const ECHO_CHARS: usize = 80;

/// A value a client sent (a tool, prompt or argument name, a URI, a date) as a refusal or a log
/// line quotes it: one clean line of at most [`ECHO_CHARS`] characters, "…" when cut.
pub fn echo(text: &str) -> String {
    display::text::clean_display_text(text, ECHO_CHARS)
}

/// Removes hidden and control characters (but line breaks and tabs) from every string in `value`
/// (see the module docs).
pub fn strip_hidden_in(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::String(text) => {
            if let std::borrow::Cow::Owned(clean) = display::text::strip_hidden(text) {
                *text = clean;
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(strip_hidden_in),
        serde_json::Value::Object(map) => map.values_mut().for_each(strip_hidden_in),
        _ => {}
    }
}

/// A tool's successful answer.
#[derive(Debug)]
pub struct Answer<T> {
    summary: String,
    data: T,
}

impl<T: Serialize> Answer<T> {
    /// An answer with its one-paragraph human summary.
    pub fn new(summary: impl Into<String>, data: T) -> Self {
        Answer { summary: summary.into(), data }
    }

    /// An answer for the account being served: labelled as demo data when `demo`.
    pub fn for_account(demo: bool, summary: impl Into<String>, data: T) -> Self {
        let summary = summary.into();
        if demo {
            Answer::new(format!("{} {summary}", crate::demo::DEMO_LABEL), data)
        } else {
            Answer::new(summary, data)
        }
    }

    /// The size of the text the model reads, for budget checks.
    pub fn text_len(&self) -> usize {
        self.summary.len() + serde_json::to_string(&self.data).map_or(0, |s| s.len())
    }

    /// The structured data.
    pub fn data(&self) -> &T {
        &self.data
    }
}

impl<T: Serialize> IntoCallToolResult for Answer<T> {
    fn into_call_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        let mut value = serde_json::to_value(&self.data)
            .map_err(|e| ErrorData::internal_error(format!("could not encode the answer: {e}"), None))?;
        strip_hidden_in(&mut value);
        let summary = display::text::strip_hidden(&self.summary).into_owned();
        let json = serde_json::to_string(&value)
            .map_err(|e| ErrorData::internal_error(format!("could not encode the answer: {e}"), None))?;
        // The text block after the summary holds the data alone: the summary is already the first.
        if let serde_json::Value::Object(map) = &mut value {
            map.insert("summary".to_owned(), serde_json::Value::String(summary.clone()));
        }
        let mut result = CallToolResult::success(vec![ContentBlock::text(summary), ContentBlock::text(json)]);
        result.structured_content = Some(value);
        Ok(result.into())
    }
}
