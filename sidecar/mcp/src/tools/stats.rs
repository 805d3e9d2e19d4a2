//! PLACEHOLDER: the `stats` toolset (see toolsets.rs); filled in by its owner.

use rmcp::tool_router;

use crate::server::GarminMcp;

#[tool_router(router = stats_tools, vis = "pub(crate)", allow_empty)]
impl GarminMcp {}
