//! Tests of the `social` toolset (filled in by its owner).
