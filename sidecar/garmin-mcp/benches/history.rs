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
//! * the history query alone (activities of the year) for scale;
//! * a season's mean-max curve (`get_best_efforts`, cycling power over 365 days) from the history,
//!   against the live equivalent at 80 ms per Garmin call (the year's ride list, then every ride's
//!   series, reduced as the sync does);
//! * what the series cost the first sync: `details` requests, megabytes of series JSON read, and
//!   the bytes per activity the curves add to the database.
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
    let report = sync(&history, &client.into(), &SyncOptions::new(today()), &|_| {}).await.unwrap();
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

async fn timed_best_efforts(
    client: &rmcp::service::RunningService<rmcp::RoleClient, ()>,
) -> (Duration, usize) {
    let args =
        json!({"start_date": "2025-11-15", "end_date": "2026-11-14", "sport": "cycling", "metric": "power"});
    let mut samples = Vec::new();
    let mut points = 0;
    for _ in 0..30 {
        let started = Instant::now();
        let result = client
            .call_tool(
                CallToolRequestParams::new("get_best_efforts")
                    .with_arguments(args.as_object().cloned().unwrap_or_default()),
            )
            .await
            .unwrap();
        samples.push(started.elapsed());
        points =
            result.structured_content.as_ref().and_then(|s| s["curve"].as_array().map(Vec::len)).unwrap_or(0);
    }
    (median(samples), points)
}

/// The season's ride curve read live: the list, then each ride's series (4 at once), reduced.
/// Returns the time, the requests and the bytes of series JSON.
async fn live_season_curve(store: &SessionStore, rides_only: bool) -> (Duration, u32, usize) {
    use analytics::mean_max::{STANDARD_DURATIONS, mean_max, merge_curves, resample_1hz};
    use futures::StreamExt as _;
    let client = Client::from_store(store.clone()).unwrap();
    let started = Instant::now();
    let first = NaiveDate::from_ymd_opt(2025, 11, 15).unwrap_or(NaiveDate::MIN);
    let kind = if rides_only { Some("cycling") } else { None };
    let list = client.activities().between(first, today() - chrono::Duration::days(1), kind).await.unwrap();
    let ids: Vec<u64> = list.iter().filter_map(|a| a.activity_id).collect();
    let query = [("maxChartSize", "86400".to_owned()), ("maxPolylineSize", "1".to_owned())];
    let bodies: Vec<serde_json::Value> = futures::stream::iter(ids.iter().copied())
        .map(|id| {
            let client = client.clone();
            let query = query.clone();
            async move {
                client
                    .get_value(&format!("/activity-service/activity/{id}/details"), &query)
                    .await
                    .ok()
                    .flatten()
            }
        })
        .buffer_unordered(4)
        .filter_map(|v| async move { v })
        .collect()
        .await;
    let bytes: usize = bodies.iter().map(|b| b.to_string().len()).sum();
    let curves: Vec<_> = bodies
        .iter()
        .filter_map(|b| serde_json::from_value::<garmin::models::activities::ActivityDetails>(b.clone()).ok())
        .map(|d| {
            let rows: Vec<(f64, Option<f64>)> = d
                .elapsed_seconds()
                .into_iter()
                .zip(d.values("directPower"))
                .filter_map(|(t, p)| Some((t?, p)))
                .collect();
            mean_max(&resample_1hz(&rows, 86_400), &STANDARD_DURATIONS)
        })
        .collect();
    let merged = merge_curves(&curves);
    assert!(!rides_only || !merged.points.is_empty());
    (started.elapsed(), 1 + ids.len() as u32, bytes)
}

/// Bytes the curves take in the database of `dir`: its size, less the size of a copy without them.
fn curve_bytes(dir: &std::path::Path) -> (u64, u64) {
    let copy = tempfile::tempdir().unwrap();
    let path = History::path_in(dir);
    let _ = History::open(dir).map(|h| h.checkpoint());
    let with = std::fs::metadata(&path).map_or(0, |m| m.len());
    let target = History::path_in(copy.path());
    std::fs::copy(&path, &target).unwrap();
    let conn = rusqlite::Connection::open(&target).unwrap();
    conn.execute_batch("DELETE FROM activity_curves; DELETE FROM activity_best_times; VACUUM;").unwrap();
    let activities: i64 = conn.query_row("SELECT COUNT(*) FROM activities", [], |r| r.get(0)).unwrap();
    drop(conn);
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute_batch("VACUUM;").unwrap();
    drop(conn);
    let with = std::fs::metadata(&path).map_or(with, |m| m.len());
    let without = std::fs::metadata(&target).map_or(0, |m| m.len());
    (
        with.saturating_sub(without) / u64::try_from(activities.max(1)).unwrap_or(1),
        u64::try_from(activities).unwrap_or(0),
    )
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
    let report = sync(&history, &client.into(), &older, &|_| {}).await.unwrap();
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

    fake.clear_faults();
    let (_, details_requests, series_bytes) = live_season_curve(&store, false).await;
    println!(
        "series read by the first sync:          {} details requests, {:.1} MB of JSON",
        details_requests - 1,
        series_bytes as f64 / 1e6
    );
    let (per_activity, activities) = curve_bytes(dir.path());
    println!(
        "curves in the database:                 {per_activity} bytes per activity ({activities} activities)"
    );
    let (curve_db, points) = timed_best_efforts(&cached).await;
    println!("season mean-max curve, history:        {} (median of 30, {points} points)", ms(curve_db));
    fake.push_fault(FaultRule::always(Fault::Latency(LATENCY)));
    let (curve_live, requests, _) = live_season_curve(&store, true).await;
    println!("season mean-max curve, live 80 ms:     {} ({requests} requests)", ms(curve_live));
    println!("speed-up: {:.0}×", curve_live.as_secs_f64() / curve_db.as_secs_f64().max(1e-9));
}
