//! Tests of the `profile` toolset (filled in by its owner).
