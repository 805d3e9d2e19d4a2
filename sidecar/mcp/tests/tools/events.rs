//! Tests of the `events` toolset (filled in by its owner).
