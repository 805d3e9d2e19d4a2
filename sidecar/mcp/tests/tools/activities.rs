//! Tests of the `activities` toolset (filled in by its owner).
