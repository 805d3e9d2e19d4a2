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

use rmcp::ErrorData;
use rmcp::handler::server::tool::IntoCallToolResult;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock};
use serde::Serialize;

/// Largest default answer, in bytes of text the model reads (summary + JSON).
pub const BUDGET_BYTES: usize = 12 * 1024;

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
        let json = serde_json::to_string(&value)
            .map_err(|e| ErrorData::internal_error(format!("could not encode the answer: {e}"), None))?;
        // The text block after the summary holds the data alone: the summary is already the first.
        if let serde_json::Value::Object(map) = &mut value {
            map.insert("summary".to_owned(), serde_json::Value::String(self.summary.clone()));
        }
        let mut result =
            CallToolResult::success(vec![ContentBlock::text(self.summary), ContentBlock::text(json)]);
        result.structured_content = Some(value);
        Ok(result.into())
    }
}
