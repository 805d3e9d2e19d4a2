//! Tests of the `calendar` toolset (filled in by its owner).
