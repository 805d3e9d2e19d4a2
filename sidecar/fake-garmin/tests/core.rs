//! Integration tests of the fake's core: the `/gc-api` gate, refresh and reuse detection, the
//! SSO and `/app/` pages, faults, the request log, the control API and the standalone binary.
//! The data endpoints are tested by their own suite.
//!
//! Run: `cargo test -p fake-garmin --test core`

#[path = "core/support.rs"]
mod support;

#[path = "core/admin_api.rs"]
mod admin_api;
#[path = "core/binary.rs"]
mod binary;
#[path = "core/faults.rs"]
mod faults;
#[path = "core/gc_api_auth.rs"]
mod gc_api_auth;
#[path = "core/pages.rs"]
mod pages;
#[path = "core/personal_api.rs"]
mod personal_api;
#[path = "core/real_garmin.rs"]
mod real_garmin;
#[path = "core/refresh.rs"]
mod refresh;
#[path = "core/request_log.rs"]
mod request_log;
#[path = "core/robustness.rs"]
mod robustness;
