//! Benchmark of the local history against the fake Garmin (pinned to 2026-11-15, its year of data):
//!
//! * a first sync of one year: requests sent and wall time, with no injected latency and with
//!   80 ms on every Garmin call (the client's cap of 4 requests at once applies);
//! * the database's size for that year (file plus WAL, after a checkpoint);
//! * `get_period_stats` over the last 365 days answered from the history, against the same question
//!   answered live with 80 ms per Garmin call (`--no-cache`), both through the MCP server in-process;
//! * the history query alone (activities of the year) for scale.
//!
//! Run: `cargo bench -p garmin-mcp --bench history` (release build); add `-- --quick` to skip the
//! sync at 80 ms. Prints a table; asserts nothing.

use std::time::{Duration, Instant};

use chrono::NaiveDate;
use fake_garmin::faults::{Fault, FaultRule};
use fake_garmin::{FakeConfig, FakeGarmin};
use garmin::{Client, SessionStore};
use garmin_mcp::{GarminMcp, ServerOptions};
use history::History;
use history::sync::{SyncOptions, sync};
use rmcp::ServiceExt as _;
use rmcp::model::CallToolRequestParams;
use serde_json::json;

const LATENCY: Duration = Duration::from_millis(80);

fn today() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, 15).unwrap_or(NaiveDate::MIN)
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

/// A fake with a signed-in session in a fresh folder.
async fn rig() -> (FakeGarmin, tempfile::TempDir, SessionStore) {
    let fake = FakeGarmin::start(FakeConfig { today: today(), ..FakeConfig::default() }).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = SessionStore::new(dir.path());
    garmin_mcp::demo::sign_in(&fake, "Mozilla/5.0 (bench)", &store).unwrap();
    (fake, dir, store)
}

async fn first_sync(
    latency: Option<Duration>,
) -> (u32, Duration, u64, tempfile::TempDir, FakeGarmin, SessionStore) {
    let (fake, dir, store) = rig().await;
    if let Some(latency) = latency {
        fake.push_fault(FaultRule::always(Fault::Latency(latency)));
    }
    let history = History::open(dir.path()).unwrap();
    let client = Client::from_store(store.clone()).unwrap();
    let started = Instant::now();
    let report = sync(&history, &client, &SyncOptions::new(today()), &|_| {}).await.unwrap();
    let took = started.elapsed();
    assert!(report.complete(), "{}", report.summary());
    drop(history);
    // Fold the WAL into the file, then measure both.
    let conn = rusqlite_size(dir.path());
    fake.clear_faults();
    (report.requests, took, conn, dir, fake, store)
}

/// Bytes of the database after a checkpoint (file + WAL).
fn rusqlite_size(dir: &std::path::Path) -> u64 {
    if let Ok(history) = History::open(dir) {
        let _ = history.checkpoint();
    }
    let path = History::path_in(dir);
    let size = |p: std::path::PathBuf| std::fs::metadata(p).map_or(0, |m| m.len());
    size(path.clone()) + size(format!("{}-wal", path.display()).into())
}

async fn server(store: &SessionStore, no_cache: bool) -> rmcp::service::RunningService<rmcp::RoleClient, ()> {
    let mut options = ServerOptions::new(store.clone());
    options.today = Some(today());
    options.no_cache = no_cache;
    let server = GarminMcp::new(options).unwrap();
    let (server_end, client_end) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    ().serve(client_end).await.unwrap()
}

async fn timed_stats(
    client: &rmcp::service::RunningService<rmcp::RoleClient, ()>,
    runs: usize,
) -> (Duration, String) {
    let args = json!({"period": "custom", "start_date": "2025-11-15", "end_date": "2026-11-14"});
    let mut samples = Vec::new();
    let mut source = String::new();
    for _ in 0..runs {
        let started = Instant::now();
        let result = client
            .call_tool(
                CallToolRequestParams::new("get_period_stats")
                    .with_arguments(args.as_object().cloned().unwrap_or_default()),
            )
            .await
            .unwrap();
        samples.push(started.elapsed());
        source =
            result.structured_content.as_ref().map(|s| s["source"]["from"].to_string()).unwrap_or_default();
    }
    (median(samples), source)
}

#[tokio::main(flavor = "multi_thread")]
async fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let (requests, took, bytes, dir, fake, store) = first_sync(None).await;
    println!("first sync of one year, no latency:   {requests} requests in {:.1} s", took.as_secs_f64());
    println!("database size for one year:            {:.2} MB ({bytes} bytes)", bytes as f64 / 1e6);
    if !quick {
        let (requests, took, _, _, _, _) = first_sync(Some(LATENCY)).await;
        println!("first sync of one year, 80 ms/request: {requests} requests in {:.1} s", took.as_secs_f64());
    }

    let history = History::open(dir.path()).unwrap();
    let mut samples = Vec::new();
    for _ in 0..50 {
        let started = Instant::now();
        let rows = history
            .activities(NaiveDate::from_ymd_opt(2025, 11, 15).unwrap_or(NaiveDate::MIN), today(), None)
            .unwrap();
        samples.push(started.elapsed());
        assert!(!rows.is_empty());
    }
    println!("history query, a year of activities:   {} (median of 50)", ms(median(samples)));

    let cached = server(&store, false).await;
    let (from_db, source) = timed_stats(&cached, 30).await;
    println!("get_period_stats(365 days), history:   {} (median of 30, source {source})", ms(from_db));
    fake.push_fault(FaultRule::always(Fault::Latency(LATENCY)));
    let live = server(&store, true).await;
    let (from_garmin, source) = timed_stats(&live, 3).await;
    println!("get_period_stats(365 days), live 80 ms: {} (median of 3, source {source})", ms(from_garmin));
    println!("speed-up: {:.0}×", from_garmin.as_secs_f64() / from_db.as_secs_f64().max(1e-9));
}
