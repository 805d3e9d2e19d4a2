//! Tests of the `training` toolset (filled in by its owner).
