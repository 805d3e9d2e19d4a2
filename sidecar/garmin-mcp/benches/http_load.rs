//! Load benchmark of `garmin-mcp --http`, the issue-7 promise "many concurrent clients": the real
//! binary with a bearer token, against the fake Garmin, hit by 50 rmcp streamable-HTTP clients at
//! once, each opening its own MCP session and making 20 tool calls (`list_activities`, or `login`
//! when the read tools are not built in). Reports per-call latency (p50/p90/p99/max), session set-up
//! time, throughput, the server's memory and the error count; exits non-zero on any error.
//!
//! Run: `cargo bench -p garmin-mcp --bench http_load` (release build).
//! Smoke run in a debug build: `cargo test -p garmin-mcp --bench http_load -- --smoke` (5 × 4).
//! Options: `--clients N`, `--calls N`, `--latency-ms N` (delay the fake adds to every Garmin call).

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use fake_garmin::faults::{Fault, FaultRule};
use fake_garmin::{FakeConfig, FakeGarmin};
use garmin::SessionStore;
use rmcp::ServiceExt as _;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::json;
use tokio::io::{AsyncBufReadExt as _, BufReader};

const BIN: &str = env!("CARGO_BIN_EXE_garmin-mcp");
const TOKEN: &str = "bench-token-8c1d5e2f4a7b9c0d3e6f";

struct Settings {
    clients: usize,
    calls: usize,
    latency: Duration,
}

fn settings() -> Settings {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut settings = Settings { clients: 50, calls: 20, latency: Duration::ZERO };
    if args.iter().any(|a| a == "--smoke") {
        settings.clients = 5;
        settings.calls = 4;
    }
    let value = |name: &str| {
        args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).and_then(|v| v.parse::<u64>().ok())
    };
    if let Some(n) = value("--clients") {
        settings.clients = n as usize;
    }
    if let Some(n) = value("--calls") {
        settings.calls = n as usize;
    }
    if let Some(ms) = value("--latency-ms") {
        settings.latency = Duration::from_millis(ms);
    }
    settings
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn save_session(fake: &FakeGarmin, dir: &Path) {
    garmin_mcp::demo::sign_in(fake, garmin::DEFAULT_USER_AGENT, &SessionStore::new(dir)).expect("signed in");
}

/// One client's session: set-up time, then each call's latency or error.
struct ClientRun {
    setup: Option<Duration>,
    latencies: Vec<Duration>,
    errors: Vec<String>,
}

/// The HTTP client under rmcp's transport: ours (TLS from `garmin::https`), without idle pooling
/// as rmcp's own default (a reused connection can wait on a delayed ACK).
fn rmcp_http() -> reqwest::Client {
    garmin::https::client_builder()
        .expect("HTTPS set-up")
        .pool_max_idle_per_host(0)
        .build()
        .expect("HTTP client")
}

async fn one_client(url: String, tool: &'static str, calls: usize) -> ClientRun {
    let mut run = ClientRun { setup: None, latencies: Vec::with_capacity(calls), errors: Vec::new() };
    let started = Instant::now();
    let config = StreamableHttpClientTransportConfig::with_uri(url).auth_header(TOKEN);
    let client = match ().serve(StreamableHttpClientTransport::with_client(rmcp_http(), config)).await {
        Ok(client) => client,
        Err(e) => {
            run.errors.push(format!("initialize: {e}"));
            return run;
        }
    };
    run.setup = Some(started.elapsed());
    for _ in 0..calls {
        let mut params = CallToolRequestParams::new(tool);
        if tool == "login" {
            params =
                params.with_arguments(json!({"open_app": false}).as_object().cloned().unwrap_or_default());
        }
        let started = Instant::now();
        match client.call_tool(params).await {
            Ok(result) if result.is_error != Some(true) => run.latencies.push(started.elapsed()),
            Ok(result) => {
                let text = result.content.first().and_then(|c| c.as_text()).map(|t| t.text.clone());
                run.errors.push(format!("{tool} answered an error: {}", text.unwrap_or_default()));
            }
            Err(e) => run.errors.push(format!("{tool}: {e}")),
        }
    }
    if let Err(e) = client.cancel().await {
        run.errors.push(format!("close: {e}"));
    }
    run
}

#[tokio::main]
async fn main() {
    let settings = settings();
    let fake = FakeGarmin::start(FakeConfig::default()).await.expect("fake starts");
    if !settings.latency.is_zero() {
        fake.push_fault(FaultRule::always(Fault::Latency(settings.latency)));
    }
    let dir = tempfile::tempdir().expect("temp dir");
    save_session(&fake, dir.path());

    let mut child = tokio::process::Command::new(BIN)
        .arg("--data-dir")
        .arg(dir.path())
        .args(["--http", "--port", "0", "--token", TOKEN])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("spawn garmin-mcp");
    let pid = child.id().expect("pid");
    let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
    let url = loop {
        let line = lines.next_line().await.expect("stderr").expect("garmin-mcp exited before serving");
        if let Some(url) = app_bridge::sidecar::served_url(&line) {
            break url.to_owned();
        }
    };
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    let idle_rss = rss_kib(pid);

    // Use the richest read tool available in this build.
    let probe = StreamableHttpClientTransportConfig::with_uri(url.clone()).auth_header(TOKEN);
    let probe =
        ().serve(StreamableHttpClientTransport::with_client(rmcp_http(), probe)).await.expect("probe client");
    let tools = probe.list_all_tools().await.expect("tools/list");
    let tool: &'static str =
        if tools.iter().any(|t| t.name == "list_activities") { "list_activities" } else { "login" };
    probe.cancel().await.expect("probe closes");
    fake.clear_requests();

    let started = Instant::now();
    let runs = futures::future::join_all(
        (0..settings.clients).map(|_| tokio::spawn(one_client(url.clone(), tool, settings.calls))),
    )
    .await;
    let wall = started.elapsed();
    let loaded_rss = rss_kib(pid);

    let mut latencies = Vec::new();
    let mut setups = Vec::new();
    let mut errors = Vec::new();
    for run in runs {
        let run = run.expect("client task");
        latencies.extend(run.latencies);
        setups.extend(run.setup);
        errors.extend(run.errors);
    }
    latencies.sort();
    setups.sort();
    let garmin_calls = fake.requests().iter().filter(|r| r.path.starts_with("/gc-api")).count();

    println!(
        "garmin-mcp --http load: {} clients × {} `{tool}` calls, fake Garmin latency {}",
        settings.clients,
        settings.calls,
        ms(settings.latency)
    );
    println!(
        "  calls ok        {} of {}   errors {}",
        latencies.len(),
        settings.clients * settings.calls,
        errors.len()
    );
    println!(
        "  call latency    p50 {}   p90 {}   p99 {}   max {}",
        ms(percentile(&latencies, 50.0)),
        ms(percentile(&latencies, 90.0)),
        ms(percentile(&latencies, 99.0)),
        ms(latencies.last().copied().unwrap_or_default())
    );
    println!(
        "  session set-up  p50 {}   p99 {}",
        ms(percentile(&setups, 50.0)),
        ms(percentile(&setups, 99.0))
    );
    println!(
        "  wall {}   throughput {:.0} calls/s   Garmin requests {garmin_calls}",
        ms(wall),
        latencies.len() as f64 / wall.as_secs_f64()
    );
    if let (Some(idle), Some(loaded)) = (idle_rss, loaded_rss) {
        println!("  server memory   idle {} MiB   after load {} MiB", idle / 1024, loaded / 1024);
    }
    for error in errors.iter().take(5) {
        println!("  error: {error}");
    }

    let _ = std::process::Command::new("kill").args(["-TERM", &pid.to_string()]).status();
    let _ = tokio::time::timeout(Duration::from_secs(20), child.wait()).await;
    if !errors.is_empty() {
        std::process::exit(1);
    }
}
