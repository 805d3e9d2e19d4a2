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
//! Formatting helpers keep units consistent across tools: km with two decimals, pace as `5'12"/km`,
//! durations as `h:mm:ss`, dates as the athlete's local `YYYY-MM-DD`.

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

    /// The summary and the data, for a tool that builds on another's answer (a chart of it).
    pub(crate) fn into_parts(self) -> (String, T) {
        (self.summary, self.data)
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

/// Kilometres from metres, two decimals (`12.34`).
pub fn km(meters: f64) -> f64 {
    (meters / 10.0).round() / 100.0
}

/// Pace per km from a speed in m/s, as `5'12"` (`None` for a standstill or nonsense).
pub fn pace_per_km(meters_per_second: f64) -> Option<String> {
    if !meters_per_second.is_finite() || meters_per_second < 0.3 {
        return None;
    }
    let secs = (1000.0 / meters_per_second).round() as u64;
    Some(format!("{}'{:02}\"", secs / 60, secs % 60))
}

/// Pace per 100 m (swimming) from m/s, as `1'45"`.
pub fn pace_per_100m(meters_per_second: f64) -> Option<String> {
    pace_per_km(meters_per_second * 10.0)
}

/// Speed in km/h, one decimal.
pub fn kmh(meters_per_second: f64) -> f64 {
    (meters_per_second * 36.0).round() / 10.0
}

/// A duration as `h:mm:ss` (or `m:ss` under an hour).
pub fn duration(seconds: f64) -> String {
    if !seconds.is_finite() || seconds < 0.0 {
        return "0:00".to_owned();
    }
    let total = seconds.round() as u64;
    let (h, m, s) = (total / 3600, (total % 3600) / 60, total % 60);
    if h > 0 { format!("{h}:{m:02}:{s:02}") } else { format!("{m}:{s:02}") }
}

/// Hours and minutes, as `7 h 32 min` (sleep, long spans).
pub fn hours_minutes(seconds: f64) -> String {
    let total_min = (seconds.max(0.0) / 60.0).round() as u64;
    match (total_min / 60, total_min % 60) {
        (0, m) => format!("{m} min"),
        (h, 0) => format!("{h} h"),
        (h, m) => format!("{h} h {m} min"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_read_the_way_runners_write_them() {
        assert_eq!(pace_per_km(1000.0 / 312.0).as_deref(), Some("5'12\""));
        assert_eq!(pace_per_km(0.0), None);
        assert_eq!(pace_per_100m(1.0).as_deref(), Some("1'40\""));
        assert_eq!(km(12_345.0), 12.35);
        assert_eq!(kmh(10.0), 36.0);
        assert_eq!(duration(3725.4), "1:02:05");
        assert_eq!(duration(59.6), "1:00");
        assert_eq!(hours_minutes(27_120.0), "7 h 32 min");
    }
}
