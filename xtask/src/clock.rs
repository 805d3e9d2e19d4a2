//! `cargo xtask clock`: proves the server's tests do not depend on the day they run. The test
//! binaries of `garmin-mcp` (its unit tests and the black-box `cli` suite, which drives the real
//! binary over stdio) run again with the wall clock moved by libfaketime to each day date arithmetic
//! likes to get wrong — the 1st of a month late in the evening, 1 January just after midnight,
//! 29 February, the European and US daylight-saving switches, 31 December — each in a time zone far
//! from UTC. A test that read the real clock instead of the pinned one fails here.

use std::path::{Path, PathBuf};
use std::process::Command;

/// (wall clock, time zone) for each run.
const DAYS: &[(&str, &str)] = &[
    ("2027-03-01 23:40:00", "America/Los_Angeles"),
    ("2027-01-01 00:10:00", "Pacific/Kiritimati"),
    ("2028-02-29 12:00:00", "Asia/Shanghai"),
    ("2027-03-28 02:30:00", "Europe/Berlin"),
    ("2027-03-14 02:30:00", "America/New_York"),
    ("2027-10-31 01:30:00", "Europe/London"),
    ("2027-11-07 01:30:00", "America/Chicago"),
    ("2027-12-31 23:50:00", "Pacific/Pago_Pago"),
];

/// Builds the test binaries once, then runs each under every moved clock.
pub fn clock(root: &Path) -> Result<(), String> {
    if Command::new("faketime").arg("--version").output().is_err() {
        return Err("faketime is not installed (Debian package `faketime`): run .ci/setup".to_owned());
    }
    let binaries = test_binaries(root)?;
    for (when, zone) in DAYS {
        for binary in &binaries {
            let name = binary.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            println!("xtask: {name} with the clock at {when} ({zone})");
            crate::run(
                Command::new("faketime")
                    .current_dir(root)
                    .env("TZ", zone)
                    .arg("-f")
                    .arg(format!("@{when}"))
                    .arg(binary)
                    .arg("--test-threads=2"),
            )?;
        }
    }
    Ok(())
}

/// The `garmin-mcp` library's and `cli` suite's test executables, as cargo reports them.
fn test_binaries(root: &Path) -> Result<Vec<PathBuf>, String> {
    let output = Command::new(crate::cargo())
        .current_dir(root)
        .args(["test", "-p", "garmin-mcp", "--lib", "--test", "cli", "--no-run", "--message-format=json"])
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "building the test binaries failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    // Plain std here: the compiler-artifact lines of test builds carry `"test":true` in their
    // profile and the path after `"executable":"`.
    let binaries: Vec<PathBuf> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter(|line| line.contains("\"reason\":\"compiler-artifact\"") && built_for_tests(line))
        .filter_map(|line| {
            let start = line.find("\"executable\":\"")? + "\"executable\":\"".len();
            let end = start + line[start..].find('"')?;
            Some(PathBuf::from(&line[start..end]))
        })
        .collect();
    if binaries.len() != 2 {
        return Err(format!("expected the lib and cli test binaries, found {binaries:?}"));
    }
    Ok(binaries)
}

/// True when a cargo artifact line's `profile` object says `"test":true` (its `target` object has a
/// `test` field too, true for binaries, which are not test harnesses).
fn built_for_tests(line: &str) -> bool {
    line.find("\"profile\":{").is_some_and(|start| {
        let profile = &line[start..];
        profile.find('}').is_some_and(|end| profile[..end].contains("\"test\":true"))
    })
}
