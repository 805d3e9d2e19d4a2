//! Recorded fixture bodies used as templates: some Garmin documents carry long lists of constant
//! fields (roles, format objects, capability flags) that are part of the shape but not of the
//! data. Those endpoints start from the real body (compiled into the binary with
//! `include_str!`) and overwrite every field that depends on the account or the date.

/// Parses `fixtures/garmin/<name>` (compiled in); a broken fixture yields `null`, never a panic.
macro_rules! fixture {
    ($name:literal) => {
        serde_json::from_str::<serde_json::Value>(include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/garmin/",
            $name
        )))
        .unwrap_or_default()
    };
}
pub(super) use fixture;
