//! Tests of the `stats` toolset (filled in by its owner).
