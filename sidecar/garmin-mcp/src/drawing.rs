//! Turning a chart's data into the PNG a tool answers with: the drawn chart with what its answer
//! says ([`Drawn`]), drawing off the async threads, chart-library errors as tool errors, and the
//! period label. `render_chart` and the analysis tools that draw (intensity, best efforts) share it,
//! so no tool module reaches into another for it. Drawing itself is `garmin-charts`' job.

use chrono::NaiveDate;
use garmin_charts::{ChartError, Png};

use crate::tool_error::ToolError;

/// A drawn chart and what the answer says about it.
#[derive(Debug)]
pub(crate) struct Drawn {
    pub(crate) png: Png,
    /// The summary sentences (without the saved path).
    pub(crate) summary: String,
    /// What the chart shows, in words.
    pub(crate) title: String,
    /// Parts of the file name (date, name, id, what).
    pub(crate) file_parts: Vec<String>,
    pub(crate) activity_id: Option<u64>,
    pub(crate) period: Option<String>,
    pub(crate) series_source: Option<String>,
    pub(crate) points: Option<u32>,
    /// The interactive view's data (`crate::apps::view`), for the kinds the view draws.
    pub(crate) view: Option<serde_json::Value>,
}

/// A chart-library failure as a tool error: missing data reads as "no data", the rest as local.
pub(crate) fn chart_error(what: &str, error: ChartError) -> ToolError {
    match error {
        ChartError::NoData(reason) => ToolError::NoData(format!("Nothing to draw for {what}: {reason}.")),
        ChartError::InvalidSize(reason) => ToolError::InvalidArgument(reason),
        ChartError::Render(_) => ToolError::Local(format!("{error}; try again or with a smaller size")),
    }
}

/// Runs `draw` on the blocking pool (drawing is CPU work of a few milliseconds).
pub(crate) async fn draw_off_thread(
    what: &str,
    draw: impl FnOnce() -> Result<Png, ChartError> + Send + 'static,
) -> Result<Png, ToolError> {
    match tokio::task::spawn_blocking(draw).await {
        Ok(result) => result.map_err(|e| chart_error(what, e)),
        Err(e) => Err(ToolError::Local(format!("drawing the chart stopped unexpectedly ({e}); try again"))),
    }
}

/// `YYYY-MM-DD to YYYY-MM-DD`.
pub(crate) fn span(start: NaiveDate, end: NaiveDate) -> String {
    format!("{start} to {end}")
}
