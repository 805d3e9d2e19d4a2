//! Tests of the `workouts` toolset (filled in by its owner).
