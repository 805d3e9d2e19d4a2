//! The `exports` toolset: files for the person's disk, an activity as FIT/GPX/TCX/KML/CSV and a
//! workout as a FIT workout file. (Being built.)

use rmcp::tool_router;

use crate::server::GarminMcp;

#[tool_router(router = exports_tools, vis = "pub(crate)", allow_empty)]
impl GarminMcp {}
