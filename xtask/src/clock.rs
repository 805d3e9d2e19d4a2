//! `cargo xtask clock`: proves the server's tests do not depend on the day they run. The test
//! binaries of `garmin-mcp` (its unit tests and the black-box `cli` suite, which drives the real
//! binary over stdio) run again with the wall clock moved by libfaketime to each day date arithmetic
//! likes to get wrong — the 1st of a month late in the evening, 1 January just after midnight,
//! 29 February, the European and US daylight-saving switches, 31 December — each in a time zone far
//! from UTC. A test that read the real clock instead of the pinned one fails here.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// (wall clock, time zone, whether the `cli` suite runs too) for each run. The unit tests run on
/// every day; the `cli` suite (the real binary, about six times as long) on the days whose local
/// date differs from UTC's or that exist only in leap years, where a server reading the real clock
/// would pick another day than the pinned one. The daylight-saving days are about local hours,
/// which only the library computes.
const DAYS: &[(&str, &str, bool)] = &[
    ("2027-03-01 23:40:00", "America/Los_Angeles", true),
    ("2027-01-01 00:10:00", "Pacific/Kiritimati", true),
    ("2028-02-29 12:00:00", "Asia/Shanghai", true),
    ("2027-03-28 02:30:00", "Europe/Berlin", false),
    ("2027-03-14 02:30:00", "America/New_York", false),
    ("2027-10-31 01:30:00", "Europe/London", false),
    ("2027-11-07 01:30:00", "America/Chicago", false),
    ("2027-12-31 23:50:00", "Pacific/Pago_Pago", true),
];

/// `cli` tests that are not about the day and are the suite's longest (together about half its
/// time): every tool against extreme argument values (dates far from any real day, integer bounds,
/// huge strings), a sync killed with SIGKILL and resumed, and four processes racing for one sync's
/// lock. The day-dependent paths they pass through are covered by the tests that do run here
/// (every tool on each pinned day, the syncs' coverage and budgets).
const NOT_ABOUT_THE_DAY: &[&str] = &[
    "every_tool_answers_every_extreme_argument_value_without_hanging",
    "a_sync_process_killed_mid_series_resumes_without_reading_a_finished_series_again",
    "four_processes_syncing_one_data_folder_at_once_run_one_sync",
];

/// Longest one test binary may run under a moved clock before it counts as hung (the `cli` suite
/// takes about 30 s).
const PER_RUN: Duration = Duration::from_secs(600);

/// Builds the test binaries once, then runs each under every moved clock.
///
/// libfaketime is preloaded directly rather than through the `faketime` wrapper: the wrapper shares
/// one clock between processes through a process-shared semaphore that every time and `stat` call
/// takes, so a child killed while holding it (a failing test drops its server) froze every other
/// process of the run until CI's own limit. Without the wrapper each process starts its own clock at
/// the same moment, which is all these runs need. A run that still hangs is killed, with its
/// children, after [`PER_RUN`] and reported.
pub fn clock(root: &Path) -> Result<(), String> {
    let library = libfaketime().ok_or_else(|| {
        "libfaketime is not installed (Debian package `faketime`): run .ci/setup".to_owned()
    })?;
    let binaries = test_binaries(root)?;
    for (when, zone, with_cli) in DAYS {
        for binary in &binaries {
            let name = binary.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if !with_cli && name.starts_with("cli-") {
                continue;
            }
            println!("xtask: {name} with the clock at {when} ({zone})");
            let mut command = Command::new(binary);
            command
                .current_dir(root)
                .env("TZ", zone)
                .env("LD_PRELOAD", &library)
                .env("FAKETIME", format!("@{when}"))
                .env_remove("FAKETIME_SHARED")
                .arg("--test-threads=2");
            if name.starts_with("cli-") {
                for test in NOT_ABOUT_THE_DAY {
                    command.args(["--skip", test]);
                }
            }
            run_within(&mut command, PER_RUN).map_err(|e| format!("{name} at {when} ({zone}): {e}"))?;
        }
    }
    Ok(())
}

/// The preload library of Debian's `libfaketime` package (or a local build's).
fn libfaketime() -> Option<PathBuf> {
    let mut dirs = vec![PathBuf::from("/usr/local/lib/faketime"), PathBuf::from("/usr/lib/faketime")];
    if let Ok(entries) = std::fs::read_dir("/usr/lib") {
        dirs.extend(entries.flatten().map(|entry| entry.path().join("faketime")));
    }
    dirs.into_iter().map(|dir| dir.join("libfaketime.so.1")).find(|path| path.is_file())
}

/// Runs a command in a process group of its own, inheriting stdio; after `limit` it kills the whole
/// group (the test binary and every server it started) and fails.
pub(crate) fn run_within(command: &mut Command, limit: Duration) -> Result<(), String> {
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(command, 0);
    let mut child = command.spawn().map_err(|e| format!("could not start: {e}"))?;
    let started = Instant::now();
    loop {
        match child.try_wait().map_err(|e| format!("could not wait: {e}"))? {
            Some(status) if status.success() => return Ok(()),
            Some(status) => return Err(format!("failed ({status})")),
            None if started.elapsed() > limit => {
                // The negative pid names the group.
                let _ = Command::new("kill").arg("-KILL").arg(format!("-{}", child.id())).status();
                let _ = child.wait();
                return Err(format!("still running after {} s: killed it and its children", limit.as_secs()));
            }
            None => std::thread::sleep(Duration::from_millis(200)),
        }
    }
}

/// The `garmin-mcp` library's and `cli` suite's test executables, as cargo reports them.
fn test_binaries(root: &Path) -> Result<Vec<PathBuf>, String> {
    // After `xtask test`'s workspace build, the workspace's feature resolution finds those binaries
    // built; `-p garmin-mcp` alone would resolve features anew and recompile.
    let package: &[&str] = if crate::workspace_built() { &["--workspace"] } else { &["-p", "garmin-mcp"] };
    let output = Command::new(crate::cargo())
        .current_dir(root)
        .env("TAURI_CONFIG", crate::NO_SIDECAR_CONFIG)
        .arg("test")
        .args(package)
        .args(["--lib", "--test", "cli", "--no-run", "--message-format=json"])
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "building the test binaries failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let binaries: Vec<PathBuf> = test_executables(&String::from_utf8_lossy(&output.stdout))
        .into_iter()
        .filter(|binary| {
            let name = binary.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            name.starts_with("garmin_mcp-") || name.starts_with("cli-")
        })
        .collect();
    if binaries.len() != 2 {
        return Err(format!("expected the lib and cli test binaries, found {binaries:?}"));
    }
    Ok(binaries)
}

/// The test executables in cargo's `--message-format=json` output. Plain std here: the
/// compiler-artifact lines of test builds carry `"test":true` in their profile and the path after
/// `"executable":"`.
pub(crate) fn test_executables(cargo_json: &str) -> Vec<PathBuf> {
    cargo_json
        .lines()
        .filter(|line| line.contains("\"reason\":\"compiler-artifact\"") && built_for_tests(line))
        .filter_map(|line| {
            let start = line.find("\"executable\":\"")? + "\"executable\":\"".len();
            let end = start + line[start..].find('"')?;
            Some(PathBuf::from(&line[start..end]))
        })
        .collect()
}

/// True when a cargo artifact line's `profile` object says `"test":true` (its `target` object has a
/// `test` field too, true for binaries, which are not test harnesses).
fn built_for_tests(line: &str) -> bool {
    line.find("\"profile\":{").is_some_and(|start| {
        let profile = &line[start..];
        profile.find('}').is_some_and(|end| profile[..end].contains("\"test\":true"))
    })
}
