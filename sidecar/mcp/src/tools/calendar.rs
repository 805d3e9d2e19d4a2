//! PLACEHOLDER: the `calendar` toolset (see toolsets.rs); filled in by its owner.

use rmcp::tool_router;

use crate::server::GarminMcp;

#[tool_router(router = calendar_tools, vis = "pub(crate)", allow_empty)]
impl GarminMcp {}
