//! `cargo xtask <task>`: developer tasks that need more than one cargo command, in plain Rust so they
//! work the same on every OS (alias in `.cargo/config.toml`).
//!
//! * `sidecar [--release]` — builds `garmin-mcp` and copies it to
//!   `src-tauri/binaries/garmin-mcp-<host triple>[.exe]`, the file tauri-build requires for
//!   `bundle.externalBin` (the app crate does not compile without it). It cannot be done from the
//!   app's `build.rs`: a nested cargo on the same target dir deadlocks on the build lock.
//! * `run` — builds the UI and the sidecar, then starts the desktop app.
//! * `test` — everything CI checks: UI build, `cargo fmt --check`, clippy with warnings denied, and
//!   every test of the workspace. Clippy and tests run with the sidecar entry removed from the
//!   Tauri config (`TAURI_CONFIG`), so they neither need nor overwrite a copied sidecar binary.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

const USAGE: &str = "usage: cargo xtask <sidecar [--release] | run | test>";

/// Tauri config patch that drops `bundle.externalBin` for builds that do not bundle the app.
const NO_SIDECAR_CONFIG: &str = r#"{"bundle":{"externalBin":null}}"#;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["sidecar"] => sidecar(false),
        ["sidecar", "--release"] => sidecar(true),
        ["run"] => run_app(),
        ["test"] => test(),
        _ => Err(USAGE.to_owned()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Builds `garmin-mcp` and places it where tauri-build looks for the sidecar.
fn sidecar(release: bool) -> Result<(), String> {
    let root = workspace_root();
    let mut build = Command::new(cargo());
    build.current_dir(&root).args(["build", "-p", "garmin-mcp", "--bin", "garmin-mcp"]);
    if release {
        build.arg("--release");
    }
    run(&mut build)?;

    let triple = host_triple()?;
    let exe = std::env::consts::EXE_SUFFIX;
    let profile = if release { "release" } else { "debug" };
    let built = target_dir(&root).join(profile).join(format!("garmin-mcp{exe}"));
    let dest_dir = root.join("src-tauri").join("binaries");
    let dest = dest_dir.join(format!("garmin-mcp-{triple}{exe}"));
    std::fs::create_dir_all(&dest_dir)
        .map_err(|e| format!("could not create {}: {e}", dest_dir.display()))?;
    // Copy then rename, so a sidecar still running from the previous build is replaced, not
    // overwritten in place ("text file busy" on Linux).
    let partial = dest.with_extension("partial");
    std::fs::copy(&built, &partial)
        .map_err(|e| format!("could not copy {} to {}: {e}", built.display(), partial.display()))?;
    std::fs::rename(&partial, &dest).map_err(|e| format!("could not replace {}: {e}", dest.display()))?;
    println!("xtask: sidecar ready at {}", dest.display());
    Ok(())
}

/// Builds what the app needs and starts it.
fn run_app() -> Result<(), String> {
    let root = workspace_root();
    build_ui(&root)?;
    sidecar(false)?;
    run(Command::new(cargo()).current_dir(&root).args(["run", "-p", "garmin-desktop"]))
}

/// Every check CI runs, in order of cost.
fn test() -> Result<(), String> {
    let root = workspace_root();
    build_ui(&root)?;
    run(Command::new(cargo()).current_dir(&root).args(["fmt", "--all", "--", "--check"]))?;
    let cargo_no_sidecar = |args: &[&str]| {
        let mut command = Command::new(cargo());
        command.current_dir(&root).env("TAURI_CONFIG", NO_SIDECAR_CONFIG).args(args);
        command
    };
    run(&mut cargo_no_sidecar(&["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"]))?;
    run(&mut cargo_no_sidecar(&["test", "--workspace"]))?;
    println!("xtask: all checks passed");
    Ok(())
}

/// Builds the UI into `ui/dist` (embedded into the app at compile time); `npm ci` first if needed.
fn build_ui(root: &Path) -> Result<(), String> {
    let ui = root.join("ui");
    if !ui.join("node_modules").is_dir() {
        run(Command::new("npm").current_dir(&ui).args(["ci", "--no-audit", "--no-fund"]))?;
    }
    run(Command::new("npm").current_dir(&ui).args(["run", "build"]))
}

/// The workspace folder (this crate lives in `<root>/xtask`).
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// The cargo that runs us (`cargo xtask` sets `CARGO`), so toolchain overrides carry over.
fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned())
}

/// Where cargo puts builds: `CARGO_TARGET_DIR` when set, else `<root>/target`.
fn target_dir(root: &Path) -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR").filter(|v| !v.is_empty()) {
        Some(dir) => root.join(dir),
        None => root.join("target"),
    }
}

/// The host target triple, e.g. `x86_64-unknown-linux-gnu` (`rustc --print host-tuple`, Rust ≥ 1.84).
fn host_triple() -> Result<String, String> {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let out = Command::new(&rustc)
        .args(["--print", "host-tuple"])
        .output()
        .map_err(|e| format!("could not run `{rustc} --print host-tuple`: {e}"))?;
    let triple = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    if !out.status.success() || triple.is_empty() {
        return Err(format!(
            "`{rustc} --print host-tuple` failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(triple)
}

/// Runs a command, inheriting stdio, and fails with the command line when it fails.
fn run(command: &mut Command) -> Result<(), String> {
    let status = command.status().map_err(|e| format!("could not start {command:?}: {e}"))?;
    if status.success() { Ok(()) } else { Err(format!("{command:?} failed ({status})")) }
}
