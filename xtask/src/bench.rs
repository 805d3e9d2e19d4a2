//! `cargo xtask bench [--baseline REF] [--rounds N] [--bin PATH] [--baseline-bin PATH]`: the stdio
//! server's start-up, idle memory, trivial-call latency, a heavy call (a chart of the demo account:
//! its round trip and the server's CPU time) and size, as a release build against a
//! baseline built in the same run (issue #31: cold start ≤ 5 ms, idle RSS ≤ 10 MB, ping p50 ≤
//! 0.05 ms, binary ≤ 20 MB).
//!
//! The baseline is `REF` (default `main`) checked out in a git worktree under
//! `target/bench-baseline/src`, built into the same target folder (dependencies compile once) and
//! copied to `target/bench-baseline/garmin-mcp` before the new build replaces it; `--bin` and
//! `--baseline-bin` measure binaries already built instead. Both run
//! with an empty data folder, as a newly set-up client starts them, and are measured alternately
//! round after round, so load on the machine (two cores shared while others build) falls on both
//! alike; the table gives medians and the ratio new/baseline. The client side is raw pipes (one
//! JSON line out, one in), so what is timed is the server. Not run in CI (it costs two release
//! builds); it prints and asserts nothing.

use std::io::{BufRead as _, BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"xtask-bench","version":"1"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
const TOOLS_LIST: &str = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
const PINGS: usize = 2000;
/// A heavy call: a chart of the demo account (data from the fake Garmin, drawn, PNG-encoded).
const CHART: &str =
    r#""method":"tools/call","params":{"name":"render_chart","arguments":{"kind":"training_load"}}"#;
const CHARTS: usize = 30;

/// Runs the benchmark (see the module doc).
pub fn bench(root: &Path, args: &[String]) -> Result<(), String> {
    let options = Options::parse(args)?;
    let baseline = match &options.baseline_bin {
        Some(bin) => bin.clone(),
        None => build_baseline(root, &options.baseline)?,
    };
    let new = match &options.bin {
        Some(bin) => bin.clone(),
        None => build_release(root, &crate::target_dir(root))?,
    };
    let data_dir = std::env::temp_dir().join(format!("garmin-mcp-bench-{}", std::process::id()));
    std::fs::create_dir_all(&data_dir).map_err(|e| format!("cannot create {}: {e}", data_dir.display()))?;
    let mut measured = [Measured::new(new), Measured::new(baseline)];
    let result = measure(&mut measured, &data_dir, options.rounds);
    let _ = std::fs::remove_dir_all(&data_dir);
    result?;
    print_table(&measured, &options, load_average().as_deref());
    Ok(())
}

struct Options {
    baseline: String,
    rounds: usize,
    bin: Option<PathBuf>,
    baseline_bin: Option<PathBuf>,
}

impl Options {
    fn parse(args: &[String]) -> Result<Options, String> {
        let mut options = Options { baseline: "main".to_owned(), rounds: 40, bin: None, baseline_bin: None };
        let mut args = args.iter();
        while let Some(flag) = args.next() {
            let mut value = || args.next().cloned().ok_or_else(|| format!("`{flag}` needs a value"));
            match flag.as_str() {
                "--baseline" => options.baseline = value()?,
                "--rounds" => {
                    options.rounds = value()?.parse().map_err(|_| "--rounds takes a number".to_owned())?;
                }
                "--bin" => options.bin = Some(PathBuf::from(value()?)),
                "--baseline-bin" => options.baseline_bin = Some(PathBuf::from(value()?)),
                other => {
                    return Err(format!(
                        "unknown `bench` option `{other}` (--baseline REF, --rounds N, --bin PATH, --baseline-bin PATH)"
                    ));
                }
            }
        }
        Ok(options)
    }
}

/// Checks `reference` out in the baseline worktree and builds its release `garmin-mcp` there, into
/// this workspace's target folder (the dependencies compile once for both builds), then keeps a
/// copy beside the worktree, since the new build is written to the same place.
fn build_baseline(root: &Path, reference: &str) -> Result<PathBuf, String> {
    let target = crate::target_dir(root);
    let place = target.join("bench-baseline");
    let source = place.join("src");
    if source.join(".git").exists() {
        crate::run(
            Command::new("git").current_dir(&source).args(["checkout", "--quiet", "--detach", reference]),
        )?;
    } else {
        crate::run(
            Command::new("git")
                .current_dir(root)
                .args(["worktree", "add", "--detach"])
                .arg(&source)
                .arg(reference),
        )?;
    }
    let built = build_release(&source, &target)?;
    let kept = place.join(format!("garmin-mcp{}", std::env::consts::EXE_SUFFIX));
    std::fs::copy(&built, &kept)
        .map_err(|e| format!("cannot copy {} to {}: {e}", built.display(), kept.display()))?;
    Ok(kept)
}

/// `cargo build --release -p garmin-mcp` in `workspace`, into `target_dir`.
fn build_release(workspace: &Path, target_dir: &Path) -> Result<PathBuf, String> {
    crate::run(
        Command::new(crate::cargo())
            .current_dir(workspace)
            .args(["build", "--release", "-p", "garmin-mcp", "--bin", "garmin-mcp", "--target-dir"])
            .arg(target_dir),
    )?;
    Ok(target_dir.join("release").join(format!("garmin-mcp{}", std::env::consts::EXE_SUFFIX)))
}

/// One binary's samples.
struct Measured {
    bin: PathBuf,
    bare: Vec<Duration>,
    cold: Vec<Duration>,
    rss_kib: Vec<u64>,
    pings: Vec<Duration>,
    charts: Vec<Duration>,
    /// The server's CPU time over all the charts (user + system, every thread).
    chart_cpu: Duration,
}

impl Measured {
    fn new(bin: PathBuf) -> Measured {
        Measured {
            bin,
            bare: Vec::new(),
            cold: Vec::new(),
            rss_kib: Vec::new(),
            pings: Vec::new(),
            charts: Vec::new(),
            chart_cpu: Duration::ZERO,
        }
    }
}

/// A server started over pipes.
struct Server {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    line: String,
}

impl Server {
    fn start(bin: &Path, data_dir: &Path, extra: &[&str]) -> Result<Server, String> {
        // Charts go to the run's scratch folder, not the machine's Downloads.
        let mut child = Command::new(bin)
            .arg("--data-dir")
            .arg(data_dir)
            .args(extra)
            .env("GARMIN_MCP_EXPORT_DIR", data_dir.join("exports"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
        let input = child.stdin.take().ok_or("no stdin")?;
        let output = BufReader::new(child.stdout.take().ok_or("no stdout")?);
        Ok(Server { child, input, output, line: String::new() })
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        self.input
            .write_all(line.as_bytes())
            .and_then(|()| self.input.write_all(b"\n"))
            .and_then(|()| self.input.flush())
            .map_err(|e| format!("writing to the server failed: {e}"))
    }

    /// Reads lines until the answer to request `id`.
    fn answer(&mut self, id: u32) -> Result<(), String> {
        let wanted = format!("\"id\":{id}");
        loop {
            self.line.clear();
            let read = self.output.read_line(&mut self.line).map_err(|e| format!("reading failed: {e}"))?;
            if read == 0 {
                return Err("the server closed its output".to_owned());
            }
            if self.line.contains(&wanted) {
                return Ok(());
            }
        }
    }

    fn initialize(&mut self) -> Result<(), String> {
        self.send(INITIALIZE)?;
        self.answer(0)?;
        self.send(INITIALIZED)
    }

    fn stop(mut self) {
        drop(self.input);
        let _ = self.child.wait();
    }
}

/// Every binary's samples, alternating binaries within each round.
fn measure(measured: &mut [Measured], data_dir: &Path, rounds: usize) -> Result<(), String> {
    for _ in 0..rounds {
        for m in measured.iter_mut() {
            let started = Instant::now();
            let status = Command::new(&m.bin).arg("--version").stdout(Stdio::null()).status();
            if !status.is_ok_and(|s| s.success()) {
                return Err(format!("{} --version failed", m.bin.display()));
            }
            m.bare.push(started.elapsed());

            let started = Instant::now();
            let mut server = Server::start(&m.bin, data_dir, &[])?;
            server.initialize()?;
            server.send(TOOLS_LIST)?;
            server.answer(1)?;
            m.cold.push(started.elapsed());
            std::thread::sleep(Duration::from_millis(100));
            if let Some(kib) = rss_kib(server.child.id()) {
                m.rss_kib.push(kib);
            }
            server.stop();
        }
    }
    measure_pings(measured, data_dir)?;
    measure_charts(measured, data_dir)
}

/// [`PINGS`] pings to each binary, alternating.
fn measure_pings(measured: &mut [Measured], data_dir: &Path) -> Result<(), String> {
    let mut servers = Vec::new();
    for m in measured.iter() {
        let mut server = Server::start(&m.bin, data_dir, &[])?;
        server.initialize()?;
        servers.push(server);
    }
    for i in 0..PINGS {
        for (m, server) in measured.iter_mut().zip(servers.iter_mut()) {
            let id = 10 + u32::try_from(i).unwrap_or(u32::MAX - 10);
            let ping = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#);
            let started = Instant::now();
            server.send(&ping)?;
            server.answer(id)?;
            m.pings.push(started.elapsed());
        }
    }
    servers.into_iter().for_each(Server::stop);
    Ok(())
}

/// [`CHARTS`] charts from each binary's demo account (pinned day), alternating, after one each to
/// warm up (the router, the font, the fake's data).
fn measure_charts(measured: &mut [Measured], data_dir: &Path) -> Result<(), String> {
    let mut servers = Vec::new();
    for (i, m) in measured.iter().enumerate() {
        let own = data_dir.join(format!("demo-{i}"));
        std::fs::create_dir_all(&own).map_err(|e| format!("cannot create {}: {e}", own.display()))?;
        let mut server = Server::start(&m.bin, &own, &["--demo", "--today", "2026-06-01"])?;
        server.initialize()?;
        server.send(&format!(r#"{{"jsonrpc":"2.0","id":2,{CHART}}}"#))?;
        server.answer(2)?;
        if !server.line.contains("image/png") {
            return Err(format!("{} drew no chart: {}", m.bin.display(), server.line.trim()));
        }
        servers.push(server);
    }
    for i in 0..CHARTS {
        for (m, server) in measured.iter_mut().zip(servers.iter_mut()) {
            let id = 10 + u32::try_from(i).unwrap_or(u32::MAX - 10);
            let cpu_before = cpu_time(server.child.id());
            let started = Instant::now();
            server.send(&format!(r#"{{"jsonrpc":"2.0","id":{id},{CHART}}}"#))?;
            server.answer(id)?;
            m.charts.push(started.elapsed());
            if let (Some(before), Some(after)) = (cpu_before, cpu_time(server.child.id())) {
                m.chart_cpu += after.saturating_sub(before);
            }
        }
    }
    servers.into_iter().for_each(Server::stop);
    Ok(())
}

/// A process's CPU time so far, every thread (Linux: `/proc/PID/stat`, in the kernel's 100 Hz
/// ticks, so only a sum over many calls means something).
fn cpu_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn load_average() -> Option<String> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    Some(text.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
}

fn median_ms(samples: &[Duration]) -> f64 {
    let mut sorted = samples.to_vec();
    sorted.sort();
    sorted.get(sorted.len() / 2).map_or(f64::NAN, |d| d.as_secs_f64() * 1000.0)
}

fn print_table(measured: &[Measured; 2], options: &Options, load: Option<&str>) {
    let [new, old] = measured;
    let rss_mb = |m: &Measured| {
        let mut rss = m.rss_kib.clone();
        rss.sort_unstable();
        rss.get(rss.len() / 2).map_or(f64::NAN, |kib| *kib as f64 * 1024.0 / 1e6)
    };
    let size_mb = |m: &Measured| std::fs::metadata(&m.bin).map_or(f64::NAN, |meta| meta.len() as f64 / 1e6);
    println!(
        "xtask bench: {} (new) against {} (baseline), {} rounds and {PINGS} pings each, interleaved; load average before: {}",
        new.bin.display(),
        old.bin.display(),
        options.rounds,
        load.unwrap_or("?")
    );
    println!("| measure | new | baseline | new/baseline |");
    println!("|---|---|---|---|");
    let row = |what: &str, new: f64, old: f64, unit: &str| {
        println!("| {what} | {new:.3} {unit} | {old:.3} {unit} | {:.2} |", new / old);
    };
    row("process start (`--version`), median", median_ms(&new.bare), median_ms(&old.bare), "ms");
    row("cold start → first tools/list, median", median_ms(&new.cold), median_ms(&old.cold), "ms");
    row("idle RSS after tools/list, median", rss_mb(new), rss_mb(old), "MB");
    row("ping round trip, p50", median_ms(&new.pings), median_ms(&old.pings), "ms");
    row("render_chart (demo) round trip, median", median_ms(&new.charts), median_ms(&old.charts), "ms");
    let cpu_ms = |m: &Measured| m.chart_cpu.as_secs_f64() * 1000.0 / CHARTS as f64;
    row("render_chart (demo) server CPU per call", cpu_ms(new), cpu_ms(old), "ms");
    row("binary size", size_mb(new), size_mb(old), "MB");
}
