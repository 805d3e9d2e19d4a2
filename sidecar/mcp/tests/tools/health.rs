//! Tests of the `health` toolset (filled in by its owner).
