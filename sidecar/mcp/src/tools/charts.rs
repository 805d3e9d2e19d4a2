//! The `charts` toolset: `render_chart` draws the athlete's data as a PNG (shown inline by MCP
//! clients) and saves it in the export folder. (Being built.)

use rmcp::tool_router;

use crate::server::GarminMcp;

#[tool_router(router = charts_tools, vis = "pub(crate)", allow_empty)]
impl GarminMcp {}
