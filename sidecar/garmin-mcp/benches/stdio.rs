//! Benchmark of `garmin-mcp` as AI clients run it: a child process speaking MCP over stdio, against
//! the fake Garmin with 80 ms injected on every Garmin call. Reports, with the baselines measured in
//! the same run:
//!
//! * cold start to the first `tools/list` answer, next to the bare process start (`--version`);
//! * idle resident memory after that first `tools/list`;
//! * a trivial call's overhead (`ping` round trip, median of many), and `tools/list` for scale;
//! * the binary's size;
//! * `get_activity` and `get_period_stats(year)` latency as a multiple of one Garmin round trip
//!   (a direct client call through the same fake with the same 80 ms).
//!
//! With `GARMIN_MCP_BASELINE=<another garmin-mcp>` the first four are measured for both binaries,
//! interleaved round by round (so load on the machine falls on both alike), and reported as ratios
//! new/baseline: `cargo xtask bench [--baseline REF]` builds the baseline from a git ref (default
//! `main`) and runs this. `GARMIN_MCP_BENCH_ROUNDS` sets the cold starts per binary (default 30).
//!
//! Run: `cargo bench -p garmin-mcp --bench stdio` (release build). Prints a table; asserts nothing.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use fake_garmin::faults::{Fault, FaultRule};
use fake_garmin::{FakeConfig, FakeGarmin};
use garmin::{Client, SessionStore};
use rmcp::ServiceExt as _;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_garmin-mcp");
const LATENCY: Duration = Duration::from_millis(80);

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn server_command(bin: &Path, data_dir: &Path) -> tokio::process::Command {
    let mut cmd = tokio::process::Command::new(bin);
    cmd.arg("--data-dir").arg(data_dir);
    cmd
}

/// One binary under test: its cold starts, idle memory after them and ping round trips.
struct Measured {
    name: &'static str,
    bin: PathBuf,
    cold: Vec<Duration>,
    rss_kib: Vec<u64>,
    pings: Vec<Duration>,
}

impl Measured {
    fn new(name: &'static str, bin: PathBuf) -> Self {
        Measured { name, bin, cold: Vec::new(), rss_kib: Vec::new(), pings: Vec::new() }
    }

    fn size_mib(&self) -> f64 {
        std::fs::metadata(&self.bin).map_or(0.0, |m| m.len() as f64 / (1024.0 * 1024.0))
    }

    fn idle_mib(&self) -> f64 {
        let mut rss = self.rss_kib.clone();
        rss.sort_unstable();
        rss.get(rss.len() / 2).copied().unwrap_or(0) as f64 / 1024.0
    }

    /// One cold start to the first `tools/list` answer, then the resident memory once idle.
    async fn cold_start(&mut self, data_dir: &Path) {
        let started = Instant::now();
        let (transport, _) = TokioChildProcess::builder(server_command(&self.bin, data_dir))
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn");
        let pid = transport.id();
        let client = ().serve(transport).await.expect("initialize");
        client.list_all_tools().await.expect("tools/list");
        self.cold.push(started.elapsed());
        tokio::time::sleep(Duration::from_millis(100)).await;
        if let Some(kib) = pid.and_then(rss_kib) {
            self.rss_kib.push(kib);
        }
        client.cancel().await.expect("shutdown");
    }
}

/// Cold starts, idle memory and pings of every binary, interleaved round by round.
async fn compare(binaries: &mut [Measured], data_dir: &Path, rounds: usize) {
    for _ in 0..rounds {
        for measured in binaries.iter_mut() {
            measured.cold_start(data_dir).await;
        }
    }
    let mut clients = Vec::new();
    for measured in binaries.iter() {
        let (transport, _) = TokioChildProcess::builder(server_command(&measured.bin, data_dir))
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn");
        clients.push(().serve(transport).await.expect("initialize"));
    }
    for _ in 0..1000 {
        for (measured, client) in binaries.iter_mut().zip(&clients) {
            let started = Instant::now();
            client.send_request(rmcp::model::PingRequest::default().into()).await.expect("ping");
            measured.pings.push(started.elapsed());
        }
    }
    for client in clients {
        client.cancel().await.expect("shutdown");
    }
}

/// The comparison table: each measure of the new binary, the baseline's and their ratio.
fn print_comparison(new: &Measured, baseline: &Measured) {
    println!(
        "`{}` against `{}` ({}), interleaved in the same run",
        new.name,
        baseline.name,
        baseline.bin.display()
    );
    println!("| measure | new | baseline | new/baseline |");
    println!("|---|---|---|---|");
    let row = |what: &str, new: f64, old: f64, unit: &str| {
        println!("| {what} | {new:.2} {unit} | {old:.2} {unit} | {:.2} |", new / old);
    };
    let millis = |samples: &[Duration]| median(samples.to_vec()).as_secs_f64() * 1000.0;
    row("cold start → first tools/list (median)", millis(&new.cold), millis(&baseline.cold), "ms");
    row("idle RSS after tools/list (median)", new.idle_mib(), baseline.idle_mib(), "MiB");
    row("ping round trip (p50)", millis(&new.pings), millis(&baseline.pings), "ms");
    row("binary size", new.size_mib(), baseline.size_mib(), "MiB");
    println!();
}

fn first_activity_id(value: &Value) -> Option<Value> {
    match value {
        Value::Object(map) => map
            .get("activity_id")
            .filter(|v| v.is_number())
            .cloned()
            .or_else(|| map.values().find_map(first_activity_id)),
        Value::Array(items) => items.iter().find_map(first_activity_id),
        _ => None,
    }
}

#[tokio::main]
async fn main() {
    let fake = FakeGarmin::start(FakeConfig::default()).await.expect("fake starts");
    let dir = tempfile::tempdir().expect("temp dir");
    let store = SessionStore::new(dir.path());
    garmin_mcp::demo::sign_in(&fake, garmin::DEFAULT_USER_AGENT, &store).expect("signed in");

    // Baseline 1: the bare process start.
    let mut bare = Vec::new();
    for _ in 0..10 {
        let started = Instant::now();
        let status =
            std::process::Command::new(BIN).arg("--version").stdout(Stdio::null()).status().expect("runs");
        assert!(status.success());
        bare.push(started.elapsed());
    }
    let bare = median(bare);

    // Against a baseline binary, interleaved: cold start, idle memory, ping, size.
    if let Some(baseline) = std::env::var_os("GARMIN_MCP_BASELINE") {
        let rounds = std::env::var("GARMIN_MCP_BENCH_ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(30);
        let mut binaries = [
            Measured::new("garmin-mcp", PathBuf::from(BIN)),
            Measured::new("baseline", PathBuf::from(baseline)),
        ];
        compare(&mut binaries, dir.path(), rounds).await;
        print_comparison(&binaries[0], &binaries[1]);
    }

    // Cold start to the first tools/list answer, and idle memory.
    let mut this = Measured::new("garmin-mcp", PathBuf::from(BIN));
    for _ in 0..10 {
        this.cold_start(dir.path()).await;
    }
    let cold = median(this.cold.clone());
    let idle_mib = this.idle_mib();

    // One long-lived server for the call measurements.
    let (transport, _) = TokioChildProcess::builder(server_command(Path::new(BIN), dir.path()))
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let client = ().serve(transport).await.expect("initialize");
    let mut trivial = Vec::new();
    for _ in 0..500 {
        let started = Instant::now();
        client.send_request(rmcp::model::PingRequest::default().into()).await.expect("ping");
        trivial.push(started.elapsed());
    }
    let trivial = median(trivial);
    let mut listing = Vec::new();
    for _ in 0..100 {
        let started = Instant::now();
        client.list_all_tools().await.expect("tools/list");
        listing.push(started.elapsed());
    }
    let listing = median(listing);

    let list = client.call_tool(CallToolRequestParams::new("list_activities")).await.expect("list");
    let activity_id =
        first_activity_id(list.structured_content.as_ref().expect("structured")).expect("an activity");

    fake.push_fault(FaultRule::always(Fault::Latency(LATENCY)));
    // Baseline 2: one Garmin round trip through the same fake, from a plain client.
    let direct = Client::from_store(store.clone()).expect("client");
    let mut round_trip = Vec::new();
    for _ in 0..7 {
        let started = Instant::now();
        direct.get_value("/userprofile-service/socialProfile", &[]).await.expect("direct call");
        round_trip.push(started.elapsed());
    }
    let round_trip = median(round_trip);

    let timed = |name: &'static str, args: Value| {
        let client = &client;
        async move {
            let mut samples = Vec::new();
            for _ in 0..7 {
                let mut params = CallToolRequestParams::new(name);
                if let Value::Object(map) = args.clone() {
                    params = params.with_arguments(map);
                }
                let started = Instant::now();
                let result = client.call_tool(params).await.expect("call");
                assert_ne!(result.is_error, Some(true), "{name} failed");
                samples.push(started.elapsed());
            }
            median(samples)
        }
    };
    let get_activity = timed("get_activity", json!({ "activity_id": activity_id })).await;
    let year_stats = timed("get_period_stats", json!({ "period": "year" })).await;
    client.cancel().await.expect("shutdown");

    let ratio = |d: Duration| d.as_secs_f64() / round_trip.as_secs_f64();
    println!("garmin-mcp over stdio, fake Garmin with {} per call", ms(LATENCY));
    println!("| measure | value | baseline (same run) | ratio |");
    println!("|---|---|---|---|");
    println!(
        "| cold start → first tools/list | {} | bare process start {} | {:.2}× |",
        ms(cold),
        ms(bare),
        cold.as_secs_f64() / bare.as_secs_f64()
    );
    println!("| idle RSS | {idle_mib:.1} MiB | | |");
    println!("| trivial call (ping) | {} | | |", ms(trivial));
    println!("| tools/list (every schema) | {} | | |", ms(listing));
    println!(
        "| get_activity | {} | one Garmin round trip {} | {:.2}× |",
        ms(get_activity),
        ms(round_trip),
        ratio(get_activity)
    );
    println!(
        "| get_period_stats(year) | {} | one Garmin round trip {} | {:.2}× |",
        ms(year_stats),
        ms(round_trip),
        ratio(year_stats)
    );
}
