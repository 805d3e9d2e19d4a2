//! Build script: checks the two inputs a fresh clone lacks and says how to make them, then runs
//! tauri-build (config, capabilities, icons, and copying the `garmin-mcp` sidecar).
//!
//! * `../ui/dist`: `npm --prefix ui ci && npm --prefix ui run build` (embedded at compile time).
//! * `binaries/garmin-mcp-<triple>`: `cargo xtask sidecar`. tauri-build copies it to
//!   `target/<profile>/garmin-mcp` — the very path `garmin-mcp`'s own tests run — so CI compiles
//!   and tests the workspace with `TAURI_CONFIG='{"bundle":{"externalBin":null}}'` instead, which
//!   needs no sidecar file and leaves that binary alone.

use std::path::Path;

fn main() {
    let triple = std::env::var("TARGET").unwrap_or_default();
    let exe = if triple.contains("windows") { ".exe" } else { "" };
    let sidecar = format!("binaries/garmin-mcp-{triple}{exe}");
    // With TAURI_CONFIG set the caller decides; else a missing sidecar would fail inside
    // tauri-build with a bare "… is not a file".
    if std::env::var_os("TAURI_CONFIG").is_none() && !Path::new(&sidecar).is_file() {
        panic!(
            "{sidecar} is missing: run `cargo xtask sidecar` first, or set \
             TAURI_CONFIG='{{\"bundle\":{{\"externalBin\":null}}}}' to build without the sidecar"
        );
    }
    if !Path::new("../ui/dist").is_dir() {
        panic!("../ui/dist is missing: run `npm --prefix ui ci && npm --prefix ui run build` first");
    }
    // `generate_context!` embeds ../ui/dist when the crate compiles; rerunning this script when the
    // UI is rebuilt makes cargo recompile the crate, so the app never ships a stale UI.
    println!("cargo:rerun-if-changed=../ui/dist");
    tauri_build::build();
}
