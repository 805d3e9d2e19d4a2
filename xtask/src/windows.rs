//! `cargo xtask windows`: what this Linux machine can prove of the Windows and macOS builds.
//!
//! 1. `garmin-mcp.exe` and its Windows tests are cross-built for `x86_64-pc-windows-gnu` (Debian's
//!    mingw-w64) and run under Wine: `sidecar/garmin-mcp/tests/windows.rs` (stdio on the demo, HTTP
//!    with a token, processes sharing the session under its lock, owner-only files, `configure`
//!    into a scratch `%APPDATA%`, the app channel over a named pipe), `app-bridge`'s unit tests
//!    (the named pipe's owner-only descriptor and peer checks, the job object) and `garmin-mcp`'s
//!    own unit tests. Wine 8 lacks
//!    `bcryptprimitives.dll`, whose `ProcessPrng` Rust's std imports: the test-only shim in
//!    `tests/wine/bcryptprimitives.c` is built with the same mingw and put beside each program.
//! 2. The cold start of `garmin-mcp.exe` to its first `tools/list` under Wine, against the Linux
//!    build in the same run (the ratio; Wine adds its own start-up), and the `.exe`'s size.
//! 3. Clippy with warnings denied for both targets. Windows: every workspace crate of the builds
//!    in 1 and 4 (the server, the app, every library they use, the unit tests of `garmin-mcp`,
//!    `app-bridge`, the app and `local-data` with its Windows file code, the `windows` suite) compiles through
//!    clippy's driver (`RUSTC_WORKSPACE_WRAPPER`, set for the whole `xtask test` run, and by this
//!    stage when run alone), so the Windows code is linted by the builds themselves instead of a
//!    second compile. macOS: `cargo-zigbuild clippy` of every library and program (Zig's `cc`
//!    compiles the C dependencies for `aarch64-apple-darwin`; nothing is linked, so Apple's SDK is
//!    not needed). Together they
//!    type-check and lint every `cfg(windows)` / `cfg(target_os = "macos")` path, the desktop app's
//!    included.
//! 4. `garmin-desktop.exe` is built for the target (it cannot run under Wine: WebView2 does not), in
//!    the cargo run of 1 (through its small `typescript` test, which needs the program), so the
//!    dependencies it shares with the server compile once.
//!
//! `.ci/setup` installs the targets, mingw, Wine and cargo-zigbuild (with Zig, in `.ci/.zig`).

use std::io::{BufRead as _, BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::{NO_SIDECAR_CONFIG, cargo, run, target_dir};

/// The Windows target: GNU ABI, linked with Debian's mingw-w64.
const WINDOWS: &str = "x86_64-pc-windows-gnu";
/// The macOS target type-checked with Zig's C compiler.
const MACOS: &str = "aarch64-apple-darwin";
/// mingw's C compiler, for the shim.
const MINGW_GCC: &str = "x86_64-w64-mingw32-gcc";
/// Longest one Wine test binary may run.
const WINE_LIMIT: Duration = Duration::from_secs(600);
/// Cold starts measured per binary (the median is reported).
const STARTS: usize = 3;

/// Runs the whole stage; prints how long each part took.
pub fn windows(root: &Path) -> Result<(), String> {
    if !cfg!(target_os = "linux") {
        println!("xtask: skipping the Windows/macOS stage (it cross-builds from Linux, with Wine)");
        return Ok(());
    }
    let mut timings = Vec::new();
    let started = Instant::now();
    let binaries = build_windows_tests(root)?;
    timings.push(("cross-build garmin-mcp.exe, garmin-desktop.exe and the Windows tests", started.elapsed()));
    let desktop_size = std::fs::metadata(&binaries.garmin_desktop).map(|m| m.len()).unwrap_or_default();
    println!(
        "xtask: {} built ({:.1} MB; WebView2 cannot run under Wine: built, not run)",
        binaries.garmin_desktop.display(),
        desktop_size as f64 / 1e6
    );

    let started = Instant::now();
    let prefix = wine_prefix(root)?;
    let tests = [&binaries.app_bridge, &binaries.garmin_mcp_unit, &binaries.windows];
    for binary in tests.iter().copied().chain([&binaries.garmin_mcp]) {
        put_shim_beside(root, binary)?;
    }
    for binary in tests {
        let name = binary.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        println!("xtask: {name} under Wine");
        let mut command = wine(&prefix);
        command.current_dir(root).arg(binary).arg("--test-threads=2");
        run_within(&mut command, WINE_LIMIT).map_err(|e| format!("{name} under Wine: {e}"))?;
    }
    timings.push(("run them under Wine", started.elapsed()));

    let started = Instant::now();
    measure_start(root, &prefix, &binaries.garmin_mcp)?;
    timings.push(("cold-start measurement", started.elapsed()));

    let started = Instant::now();
    clippy_macos(root)?;
    timings.push(("clippy for aarch64-apple-darwin", started.elapsed()));
    for (what, took) in timings {
        println!("xtask: windows stage: {what}: {:.0} s", took.as_secs_f64());
    }
    Ok(())
}

/// The Windows programs the stage runs.
struct WindowsBinaries {
    garmin_mcp: PathBuf,
    windows: PathBuf,
    app_bridge: PathBuf,
    garmin_mcp_unit: PathBuf,
    garmin_desktop: PathBuf,
}

/// Builds `garmin-mcp.exe`, the `windows` test of `garmin-mcp` and `app-bridge`'s unit tests for
/// [`WINDOWS`], and finds their executables in cargo's report.
fn build_windows_tests(root: &Path) -> Result<WindowsBinaries, String> {
    for tool in [MINGW_GCC, "wine"] {
        if !crate::on_path(tool) {
            return Err(format!("{tool} is missing (Debian's gcc-mingw-w64-x86-64 and wine): run .ci/setup"));
        }
    }
    // One cargo run for the packages, so their dependencies are built once with one feature set
    // (`--lib` also builds garmin-mcp's own unit tests, which run under Wine too, and local-data's
    // (the Windows file code) and the app's, built so clippy sees their Windows code's tests; the app's `typescript` test is there
    // for the program it needs: `garmin-desktop.exe`, whose UI comes from `ui/dist`).
    let output = Command::new(cargo())
        .current_dir(root)
        .env("TAURI_CONFIG", NO_SIDECAR_CONFIG)
        .args(["test", "--target", WINDOWS, "--no-run", "--message-format=json"])
        .args(["-p", "garmin-mcp", "-p", "app-bridge", "-p", "local-data", "-p", "garmin-desktop"])
        .args(["--lib", "--test", "windows", "--test", "typescript"])
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    let artifacts = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        // With `--message-format=json` the compiler's errors are on stdout, as JSON: show them.
        for message in artifacts.lines().filter(|line| line.contains("\"reason\":\"compiler-message\"")) {
            if let Some(rendered) = serde_json::from_str::<serde_json::Value>(message)
                .ok()
                .and_then(|m| m["message"]["rendered"].as_str().map(str::to_owned))
            {
                eprint!("{rendered}");
            }
        }
        return Err(format!(
            "cross-building the Windows tests failed ({WINDOWS}: run .ci/setup if the target is missing)"
        ));
    }
    let executable = |name: &str, test: bool| {
        artifacts
            .lines()
            .filter(|line| line.contains("\"reason\":\"compiler-artifact\""))
            .filter(|line| line.contains(&format!("\"name\":\"{name}\"")))
            .filter(|line| profile_says_test(line) == test)
            .find_map(|line| {
                let start = line.find("\"executable\":\"")? + "\"executable\":\"".len();
                let end = start + line[start..].find('"')?;
                Some(PathBuf::from(&line[start..end]))
            })
            .ok_or_else(|| format!("cargo reported no executable for {name}"))
    };
    Ok(WindowsBinaries {
        garmin_mcp: executable("garmin-mcp", false)?,
        windows: executable("windows", true)?,
        app_bridge: executable("app_bridge", true)?,
        garmin_mcp_unit: executable("garmin_mcp", true)?,
        garmin_desktop: executable("garmin-desktop", false)?,
    })
}

/// True when a cargo artifact line's `profile` object says `"test":true`.
fn profile_says_test(line: &str) -> bool {
    line.find("\"profile\":{").is_some_and(|start| {
        let profile = &line[start..];
        profile.find('}').is_some_and(|end| profile[..end].contains("\"test\":true"))
    })
}

/// A Wine prefix of our own under the target folder (made on first use, then reused), so the
/// person's `~/.wine` is never touched.
fn wine_prefix(root: &Path) -> Result<PathBuf, String> {
    let prefix = target_dir(root).join("wine-prefix");
    if !prefix.join("system.reg").is_file() {
        println!("xtask: making the Wine prefix {}", prefix.display());
        std::fs::create_dir_all(&prefix).map_err(|e| format!("cannot create {}: {e}", prefix.display()))?;
        let mut boot = wine(&prefix);
        boot.arg("wineboot").arg("--init");
        run_within(&mut boot, Duration::from_secs(300))?;
    }
    Ok(prefix)
}

/// `wine` with our prefix, quiet, without a display.
fn wine(prefix: &Path) -> Command {
    let mut command = Command::new("wine");
    command
        .env("WINEPREFIX", prefix)
        .env("WINEDEBUG", "-all")
        // No "install Mono/Gecko?" dialogs, no display needed.
        .env("WINEDLLOVERRIDES", "mscoree,mshtml=")
        .env_remove("DISPLAY");
    command
}

/// Builds the `bcryptprimitives.dll` shim (once per build) and copies it beside `binary`.
fn put_shim_beside(root: &Path, binary: &Path) -> Result<(), String> {
    let dir = binary.parent().ok_or("an executable without a folder")?;
    let shim = dir.join("bcryptprimitives.dll");
    let source = root.join("tests/wine/bcryptprimitives.c");
    let fresh = |built: &Path| {
        let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
        matches!((modified(built), modified(&source)), (Some(b), Some(s)) if b >= s)
    };
    if fresh(&shim) {
        return Ok(());
    }
    run(Command::new(MINGW_GCC).args(["-shared", "-O2", "-o"]).arg(&shim).arg(&source).arg("-ladvapi32"))
}

/// Times `garmin-mcp` from start to its answer to the first `tools/list` over stdio: the `.exe`
/// under Wine and the Linux build, [`STARTS`] times each, in the same run; prints the medians, their
/// ratio and the `.exe`'s size.
fn measure_start(root: &Path, prefix: &Path, exe: &Path) -> Result<(), String> {
    let linux = crate::built_garmin_mcp(root)?;
    let median = |command: &dyn Fn() -> Command| -> Result<Duration, String> {
        let mut times = Vec::new();
        for _ in 0..STARTS {
            times.push(first_tools_list(command())?);
        }
        times.sort();
        Ok(times[times.len() / 2])
    };
    let scratch = crate::Scratch::new("start")?;
    let data = scratch.0.clone();
    let on_wine = median(&|| {
        let mut command = wine(prefix);
        command.arg(exe).arg("--demo").arg("--data-dir").arg(&data);
        command
    })?;
    let on_linux = median(&|| {
        let mut command = Command::new(&linux);
        command.arg("--demo").arg("--data-dir").arg(&data);
        command
    })?;
    let size = std::fs::metadata(exe).map(|m| m.len()).unwrap_or(0);
    println!(
        "xtask: garmin-mcp.exe (debug) is {:.1} MB; cold start to the first tools/list: {} ms under Wine, {} ms on Linux (ratio {:.1})",
        size as f64 / 1e6,
        on_wine.as_millis(),
        on_linux.as_millis(),
        on_wine.as_secs_f64() / on_linux.as_secs_f64().max(1e-6)
    );
    Ok(())
}

/// Starts `command` (a `garmin-mcp` over stdio), sends initialize and `tools/list`, and returns the
/// time until the `tools/list` answer arrives.
fn first_tools_list(mut command: Command) -> Result<Duration, String> {
    let started = Instant::now();
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start garmin-mcp: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let messages = [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"xtask","version":"1"}}}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
    ];
    for message in messages {
        writeln!(stdin, "{message}").map_err(|e| format!("cannot write to garmin-mcp: {e}"))?;
    }
    let (done, answer) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let answered = BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
            .any(|line| line.contains("\"id\":2") && line.contains("\"tools\""));
        let _ = done.send(answered.then(|| started.elapsed()));
    });
    let took = answer.recv_timeout(Duration::from_secs(120));
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    match took {
        Ok(Some(took)) => Ok(took),
        Ok(None) => Err("garmin-mcp ended without answering tools/list".to_owned()),
        Err(_) => Err("garmin-mcp did not answer tools/list within 120 s".to_owned()),
    }
}

/// `cargo clippy --workspace --lib --bins -- -D warnings` for macOS through `cargo-zigbuild clippy`
/// (Zig from `.ci/.zig`, installed by `.ci/setup`), which sets Zig's `cc` as the C compiler of every
/// C dependency for the target. Libraries and programs only: the macOS-only code
/// (`cfg(target_os = "macos")`, and the `cfg(unix)` code whose `libc` types differ on macOS) lives
/// there; the test targets hold no macOS-specific code and are linted for Linux and Windows.
fn clippy_macos(root: &Path) -> Result<(), String> {
    let zig_bin = root.join(".ci/.zig/bin");
    let zigbuild = zig_bin.join("cargo-zigbuild");
    if !zigbuild.is_file() {
        return Err(format!("{} is missing: run .ci/setup", zigbuild.display()));
    }
    let path = std::env::join_paths(
        std::iter::once(zig_bin).chain(std::env::var_os("PATH").iter().flat_map(std::env::split_paths)),
    )
    .map_err(|e| format!("cannot build PATH: {e}"))?;
    println!("xtask: clippy for {MACOS} (cargo-zigbuild)");
    run(Command::new(&zigbuild)
        .current_dir(root)
        .env("PATH", path)
        .env("TAURI_CONFIG", NO_SIDECAR_CONFIG)
        .args(["clippy", "--workspace", "--lib", "--bins", "--target", MACOS, "--", "-D", "warnings"]))
}

/// Runs a command, inheriting stdio; kills it after `limit`.
fn run_within(command: &mut Command, limit: Duration) -> Result<(), String> {
    let mut child =
        command.spawn().map_err(|e| format!("could not start {}: {e}", crate::described(command)))?;
    let started = Instant::now();
    loop {
        match child.try_wait().map_err(|e| format!("could not wait: {e}"))? {
            Some(status) if status.success() => return Ok(()),
            Some(status) => return Err(format!("failed ({status})")),
            None if started.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("still running after {} s: stopped", limit.as_secs()));
            }
            None => std::thread::sleep(Duration::from_millis(200)),
        }
    }
}
