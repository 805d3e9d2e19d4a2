//! Benchmark of the local history against the fake Garmin (pinned to 2026-11-15, its year of data):
//!
//! * a first sync of one year: requests sent and wall time, with no injected latency and with
//!   80 ms on every Garmin call (the client's cap of 4 requests at once applies);
//! * the database's size for that year (file plus WAL, after a checkpoint);
//! * the history then extended back to 2024-01-01 (an incremental sync of the older blocks), so the
//!   year questions' comparison periods are in it too;
//! * two year questions of `get_period_stats` — the last 365 days (against the 365 before) and the
//!   calendar year 2025 (against 2024) — answered from the history, against the same questions
//!   answered live with 80 ms per Garmin call (`--no-cache`), all through the MCP server in-process
//!   and in the same run (the source each answer names is printed: `history` means no request);
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

/// The last 365 days, compared with the 365 before.
fn last_365() -> serde_json::Value {
    json!({"period": "custom", "start_date": "2025-11-15", "end_date": "2026-11-14"})
}

/// The calendar year 2025, compared with 2024.
fn year_2025() -> serde_json::Value {
    json!({"period": "year", "date": "2025-06-01"})
}

async fn timed_stats(
    client: &rmcp::service::RunningService<rmcp::RoleClient, ()>,
    args: &serde_json::Value,
    runs: usize,
) -> (Duration, String) {
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

    // A second year back, so the comparison periods are in the history too.
    let client = Client::from_store(store.clone()).unwrap();
    let mut older = SyncOptions::new(today());
    older.since = NaiveDate::from_ymd_opt(2024, 1, 1);
    let started = Instant::now();
    let report = sync(&history, &client, &older, &|_| {}).await.unwrap();
    assert!(report.complete(), "{}", report.summary());
    println!(
        "history extended to 2024-01-01:        {} requests in {:.1} s (incremental)",
        report.requests,
        started.elapsed().as_secs_f64()
    );
    drop(history);

    let cached = server(&store, false).await;
    let mut db = Vec::new();
    for (name, args) in [("last 365 days", last_365()), ("year 2025", year_2025())] {
        let (took, source) = timed_stats(&cached, &args, 30).await;
        println!("get_period_stats({name}), history: {} (median of 30, source {source})", ms(took));
        db.push(took);
    }
    fake.push_fault(FaultRule::always(Fault::Latency(LATENCY)));
    let live = server(&store, true).await;
    for (i, (name, args)) in
        [("last 365 days", last_365()), ("year 2025", year_2025())].into_iter().enumerate()
    {
        fake.clear_requests();
        let (took, source) = timed_stats(&live, &args, 3).await;
        let requests = fake.requests().iter().filter(|r| r.path.starts_with("/gc-api")).count() / 3;
        println!(
            "get_period_stats({name}), live 80 ms: {} (median of 3, {requests} requests each, source {source}); speed-up {:.0}×",
            ms(took),
            took.as_secs_f64() / db[i].as_secs_f64().max(1e-9)
        );
    }
}
