//! What `render_chart` sends back: a text summary of what the chart shows (with the saved path),
//! the PNG as MCP image content so clients show it inline, and a small record (kind, path, size,
//! the period or activity) as compact JSON text. Unlike the other tools it has no structured
//! content: Claude Code and Codex pass the model the structured result *instead of* the content,
//! and Codex drops images, so a structured chart answer would never show the model its chart.
//! The interactive view's data rides in `_meta` (`crate::apps`), never in the content.

use base64::Engine as _;
use rmcp::ErrorData;
use rmcp::handler::server::tool::IntoCallToolResult;
use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock};
use rmcp::schemars;
use serde::Serialize;

/// The record `render_chart` answers with (as JSON text after the image).
#[derive(Clone, Debug, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct RenderedChart {
    /// `activity`, `volume`, `hr_zones`, `sleep`, `health_trend` or `training_load`.
    pub kind: String,
    /// What the chart shows, in words.
    pub title: String,
    /// Absolute path of the saved PNG (absent when the server is read-only and saves nothing).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// PNG size in bytes.
    pub size_bytes: u64,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// True when the same image was already saved at `path` (nothing was rewritten).
    pub already_saved: bool,
    /// The activity drawn (activity and per-activity HR-zone charts).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activity_id: Option<u64>,
    /// The days covered, `YYYY-MM-DD to YYYY-MM-DD` (period charts) or the night's date (sleep).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub period: Option<String>,
    /// Where an activity's samples came from: `garmin_details` or `fit_file` (the original FIT,
    /// used when Garmin's details lack the series).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub series_source: Option<String>,
    /// Samples or days the chart was drawn from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<u32>,
}

/// The tool result: summary, image, structured record, and the interactive view's data (in
/// `_meta`, for hosts that render MCP Apps; `crate::apps` removes it for the others).
#[derive(Debug)]
pub struct ChartAnswer {
    pub(crate) summary: String,
    pub(crate) data: RenderedChart,
    pub(crate) png: Vec<u8>,
    pub(crate) view: Option<serde_json::Value>,
}

impl IntoCallToolResult for ChartAnswer {
    fn into_call_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        let value = serde_json::to_value(&self.data)
            .map_err(|e| ErrorData::internal_error(format!("could not encode the answer: {e}"), None))?;
        let json = serde_json::to_string(&value)
            .map_err(|e| ErrorData::internal_error(format!("could not encode the answer: {e}"), None))?;
        let image = base64::engine::general_purpose::STANDARD.encode(&self.png);
        let mut result = CallToolResult::success(vec![
            ContentBlock::text(self.summary),
            ContentBlock::image(image, "image/png"),
            ContentBlock::text(json),
        ]);
        if let Some(view) = self.view {
            crate::apps::attach(&mut result, view);
        }
        Ok(result.into())
    }
}
