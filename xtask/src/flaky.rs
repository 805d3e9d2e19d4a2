//! `cargo xtask flaky [FILTER] [--runs N] [--busy] [-p PACKAGE]… [--test BINARY]…`: runs the chosen
//! tests again and again and names every test that failed at least once, with its failure rate. A
//! test that passes "usually" is a bug in the test or in the code; this is how we find them before
//! a newcomer's first `cargo xtask test` does.
//!
//! * The test binaries are built once (`cargo test --no-run`, the workspace by default, or the
//!   packages and test targets named), then each binary that holds a test matching FILTER (a
//!   libtest substring filter, as `cargo test FILTER` takes) runs N times (default 10).
//! * `--busy` keeps one core busy with a spinning thread for the whole run: most of our timing bugs
//!   only showed on a loaded machine.
//! * Each run of a binary has [`PER_RUN`] to finish; a binary that hangs is killed with its children
//!   and counted as one failure of every test it was running.
//! * The output of each run that did not pass is kept in `target/flaky/<binary>-run<N>.log`.
//! * Exit code 1 when any test failed at least once.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Longest one run of one test binary may take before it counts as hung.
const PER_RUN: Duration = Duration::from_secs(900);

/// What `flaky` was asked to do.
#[derive(Debug, Default)]
struct Options {
    filter: Option<String>,
    runs: u32,
    busy: bool,
    packages: Vec<String>,
    tests: Vec<String>,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut options = Options { runs: 10, ..Options::default() };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = |flag: &str| {
            args.next().cloned().ok_or_else(|| format!("{flag} needs a value: {}", super::USAGE))
        };
        match arg.as_str() {
            "--runs" => {
                let runs = value("--runs")?;
                options.runs = runs
                    .parse()
                    .ok()
                    .filter(|n| *n > 0)
                    .ok_or_else(|| format!("--runs takes a positive number, not {runs:?}"))?;
            }
            "--busy" => options.busy = true,
            "-p" | "--package" => options.packages.push(value(arg)?),
            "--test" => options.tests.push(value(arg)?),
            flag if flag.starts_with('-') => return Err(format!("unknown option {flag}: {}", super::USAGE)),
            filter if options.filter.is_none() => options.filter = Some(filter.to_owned()),
            extra => return Err(format!("one FILTER only (also got {extra:?}): {}", super::USAGE)),
        }
    }
    Ok(options)
}

/// Runs `cargo xtask flaky …`.
pub fn flaky(root: &Path, args: &[String]) -> Result<(), String> {
    let options = parse(args)?;
    let binaries = test_binaries(root, &options)?;
    let filter = options.filter.as_deref().unwrap_or("");
    let chosen: Vec<(PathBuf, Vec<String>)> = binaries
        .into_iter()
        .filter_map(|binary| {
            let tests = list_tests(&binary, filter).ok()?;
            (!tests.is_empty()).then_some((binary, tests))
        })
        .collect();
    if chosen.is_empty() {
        return Err(format!("no test matches {filter:?}"));
    }
    let count: usize = chosen.iter().map(|(_, tests)| tests.len()).sum();
    println!(
        "xtask flaky: {count} tests in {} binaries, {} runs each{}",
        chosen.len(),
        options.runs,
        if options.busy { ", one core kept busy" } else { "" }
    );
    let _load = options.busy.then(Busy::start);
    let mut failures: BTreeMap<String, u32> = BTreeMap::new();
    let started = Instant::now();
    let logs = super::target_dir(root).join("flaky");
    std::fs::create_dir_all(&logs).map_err(|e| format!("cannot create {}: {e}", logs.display()))?;
    for (binary, tests) in &chosen {
        let name = binary_name(binary);
        for run in 1..=options.runs {
            let log = logs.join(format!("{name}-run{run}.log"));
            let outcome = run_once(root, binary, filter, &log);
            let failed = match &outcome {
                RunOutcome::Finished { failed } => failed.clone(),
                // Every test of a hung or crashed run counts as failed once.
                RunOutcome::Hung | RunOutcome::Crashed(_) => tests.clone(),
            };
            println!(
                "xtask flaky: {name} run {run}/{}: {}",
                options.runs,
                match &outcome {
                    RunOutcome::Finished { failed } if failed.is_empty() => "ok".to_owned(),
                    RunOutcome::Finished { failed } =>
                        format!("FAILED: {} (output in {})", failed.join(", "), log.display()),
                    RunOutcome::Hung =>
                        format!("HUNG after {} s, killed (output in {})", PER_RUN.as_secs(), log.display()),
                    RunOutcome::Crashed(why) => format!("CRASHED ({why}; output in {})", log.display()),
                }
            );
            if matches!(&outcome, RunOutcome::Finished { failed } if failed.is_empty()) {
                let _ = std::fs::remove_file(&log);
            }
            for test in failed {
                *failures.entry(format!("{name}: {test}")).or_default() += 1;
            }
        }
    }
    println!("xtask flaky: {} runs in {:.0} s", options.runs, started.elapsed().as_secs_f64());
    if failures.is_empty() {
        println!("xtask flaky: no test failed in {} runs", options.runs);
        return Ok(());
    }
    println!("xtask flaky: tests that failed at least once:");
    for (test, failed) in &failures {
        println!(
            "  {failed}/{} ({:.0} %)  {test}",
            options.runs,
            f64::from(*failed) * 100.0 / f64::from(options.runs)
        );
    }
    Err(format!("{} tests failed at least once", failures.len()))
}

/// How one run of a test binary ended.
enum RunOutcome {
    /// libtest reported its results; the names of the tests that failed.
    Finished { failed: Vec<String> },
    /// Still running after [`PER_RUN`].
    Hung,
    /// Ended without libtest's summary (a crash, an abort).
    Crashed(String),
}

/// Runs `binary FILTER` once with its output in `log`, and reads libtest's report from it.
fn run_once(root: &Path, binary: &Path, filter: &str, log: &Path) -> RunOutcome {
    let Ok(file) = std::fs::File::create(log) else {
        return RunOutcome::Crashed(format!("cannot write {}", log.display()));
    };
    let Ok(file_err) = file.try_clone() else {
        return RunOutcome::Crashed("cannot share the log file".to_owned());
    };
    let mut command = Command::new(binary);
    command.current_dir(root).arg(filter).stdin(Stdio::null()).stdout(file).stderr(file_err);
    let status = super::clock::run_within(&mut command, PER_RUN);
    let output = std::fs::read_to_string(log).unwrap_or_default();
    if let Err(why) = &status
        && why.starts_with("still running")
    {
        return RunOutcome::Hung;
    }
    let failed: Vec<String> = output
        .lines()
        .filter_map(|line| line.strip_prefix("test ")?.strip_suffix(" ... FAILED"))
        .map(str::to_owned)
        .collect();
    let summarised = output.lines().any(|line| line.starts_with("test result: "));
    match status {
        Ok(()) => RunOutcome::Finished { failed },
        Err(_) if summarised || !failed.is_empty() => RunOutcome::Finished { failed },
        Err(why) => RunOutcome::Crashed(why),
    }
}

/// The tests of `binary` whose names contain `filter` (ignored ones excluded, as a plain run does).
fn list_tests(binary: &Path, filter: &str) -> Result<Vec<String>, String> {
    let output = Command::new(binary)
        .args(["--list", "--format", "terse"])
        .arg(filter)
        .output()
        .map_err(|e| format!("cannot list the tests of {}: {e}", binary.display()))?;
    let ignored = Command::new(binary)
        .args(["--list", "--format", "terse", "--ignored"])
        .arg(filter)
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    let ignored: Vec<&str> = ignored.lines().filter_map(|l| l.strip_suffix(": test")).collect();
    Ok(String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| line.strip_suffix(": test"))
        .filter(|name| !ignored.contains(name))
        .map(str::to_owned)
        .collect())
}

/// Builds the test binaries asked for and returns their paths, as cargo reports them.
fn test_binaries(root: &Path, options: &Options) -> Result<Vec<PathBuf>, String> {
    // The desktop app embeds the built UI at compile time.
    if options.packages.is_empty() || options.packages.iter().any(|p| p == "garmin-desktop") {
        super::build_ui(root)?;
    }
    let mut command = Command::new(super::cargo());
    command.current_dir(root).env("TAURI_CONFIG", super::NO_SIDECAR_CONFIG).arg("test");
    if options.packages.is_empty() {
        command.arg("--workspace");
    }
    for package in &options.packages {
        command.args(["-p", package]);
    }
    for test in &options.tests {
        command.args(["--test", test]);
    }
    command.args(["--no-run", "--message-format=json"]).stderr(Stdio::inherit());
    let output = command.output().map_err(|e| format!("cannot run cargo: {e}"))?;
    if !output.status.success() {
        return Err("building the test binaries failed (see above)".to_owned());
    }
    Ok(super::clock::test_executables(&String::from_utf8_lossy(&output.stdout)))
}

fn binary_name(binary: &Path) -> String {
    let name = binary.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    // `cli-0123abcd…`: the target's name without cargo's hash.
    name.rsplit_once('-').map_or(name.clone(), |(stem, _)| stem.to_owned())
}

/// One spinning thread, stopped when dropped.
struct Busy(Arc<AtomicBool>);

impl Busy {
    fn start() -> Busy {
        let stop = Arc::new(AtomicBool::new(false));
        let spinning = Arc::clone(&stop);
        std::thread::spawn(move || {
            let mut x: u64 = 1;
            while !spinning.load(Ordering::Relaxed) {
                x = std::hint::black_box(x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1));
            }
        });
        Busy(stop)
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_take_a_filter_runs_packages_and_tests() {
        let args: Vec<String> =
            ["killed", "--runs", "20", "--busy", "-p", "history", "--test", "sync"].map(String::from).into();
        let options = parse(&args).unwrap();
        assert_eq!(options.filter.as_deref(), Some("killed"));
        assert_eq!((options.runs, options.busy), (20, true));
        assert_eq!((options.packages, options.tests), (vec!["history".to_owned()], vec!["sync".to_owned()]));
    }

    #[test]
    fn options_refuse_zero_runs_a_second_filter_and_unknown_flags() {
        let parse_words = |words: &[&str]| parse(&words.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>());
        assert!(parse_words(&["--runs", "0"]).unwrap_err().contains("positive number"));
        assert!(parse_words(&["a", "b"]).unwrap_err().contains("one FILTER only"));
        assert!(parse_words(&["--quick"]).unwrap_err().contains("unknown option --quick"));
        assert!(parse_words(&["--runs"]).unwrap_err().contains("needs a value"));
    }

    #[test]
    fn a_binary_is_named_without_cargos_hash() {
        assert_eq!(binary_name(Path::new("/t/debug/deps/cli-0123456789abcdef")), "cli");
        assert_eq!(binary_name(Path::new("/t/debug/deps/garmin_mcp-0123456789abcdef")), "garmin_mcp");
    }
}
