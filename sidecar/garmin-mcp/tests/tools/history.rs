//! Run: `cargo test -p garmin-mcp --test tools history::`.
//!
//! The `history` toolset and cache-first reads: `sync_history` fills the local history with
//! progress notifications; after it, past ranges of `get_period_stats` and `list_activities` are
//! answered without a Garmin request (the fake's request log) and say so, today is always read
//! live, `--no-cache` reads everything live, and a broken database never sinks a tool.

use std::time::Duration;

use fake_garmin::faults::{Fault, FaultRule};
use serde_json::{Value, json};

use crate::support::{Harness, api_requests, today};

/// Syncs from 2026-08-01 (a few blocks: enough for September and October), calling again while
/// it goes on in the background (a loaded machine may take longer than the tool waits).
async fn synced(h: &Harness) -> (String, Value) {
    for _ in 0..10 {
        let (text, data) = h.call_ok("sync_history", json!({"since": "2026-08-01"})).await;
        if data["status"] != "running" {
            return (text, data);
        }
    }
    panic!("the sync did not end");
}

/// Moves the end of the last sync (and a rate limit's resume time) `by` into the past in the data
/// folder's sync record, as if that much time had gone by.
fn age_last_sync(h: &Harness, by: chrono::Duration) {
    let mut record = history::sync_once::last_record(h.dir.path()).expect("a sync ended");
    let finished = record.finished.as_mut().expect("it ended");
    finished.at -= by;
    finished.resume_after = finished.resume_after.map(|at| at - by);
    let path = h.dir.path().join(history::sync_once::LOCK_NAME);
    std::fs::write(path, serde_json::to_vec(&record).unwrap()).unwrap();
}

#[tokio::test]
async fn sync_history_fills_the_history_and_reports_what_it_read() {
    let h = Harness::start().await;
    let (text, data) = synced(&h).await;
    assert_eq!(data["status"], "complete", "{text}");
    assert_eq!(data["to"], "2026-11-15");
    assert!(data["history_activities"].as_u64().unwrap() > 20, "{data}");
    assert!(data["days_read"].as_u64().unwrap() >= 100, "{data}");
    assert!(data["database"].as_str().unwrap().ends_with("history.sqlite3"));
    assert!(text.contains("History from 2026-08-01 to 2026-11-15"), "{text}");
    assert!(api_requests(&h).iter().any(|(p, _)| p.ends_with("/hrTimeInZones")));

    // A second sync, once one is due again, reads only the last days Garmin may still revise.
    age_last_sync(&h, chrono::Duration::minutes(11));
    h.fake.clear_requests();
    let (_, again) = synced(&h).await;
    assert_eq!(again["activities_added"], 0);
    assert!(again["blocks_skipped"].as_u64().unwrap() >= 3, "{again}");
    assert!(api_requests(&h).len() < 30, "{:?}", api_requests(&h));
}

#[tokio::test]
async fn after_a_sync_a_past_month_is_answered_from_the_history_with_no_garmin_request() {
    let h = Harness::start().await;
    let live = h.call_ok("get_period_stats", json!({"period": "month", "date": "2026-10-10"})).await;
    assert_eq!(live.1["source"]["from"], "garmin");
    assert!(live.0.ends_with("Source: Garmin, live."), "{}", live.0);
    synced(&h).await;
    h.fake.clear_requests();
    for _ in 0..2 {
        let (text, data) =
            h.call_ok("get_period_stats", json!({"period": "month", "date": "2026-10-10"})).await;
        assert_eq!(api_requests(&h), Vec::<(String, String)>::new(), "no Garmin request");
        assert_eq!(data["source"]["from"], "history");
        assert!(data["source"]["history_synced_at"].as_str().is_some());
        assert!(text.contains("Source: the local history on this computer, synced "), "{text}");
        // The same numbers as Garmin live.
        assert_eq!(data["totals"], live.1["totals"]);
        assert_eq!(data["breakdown"], live.1["breakdown"]);
        assert_eq!(data["change"], live.1["change"]);
    }
    // A sport filter ("running" includes its children) matches live too.
    let live_runs = {
        let h2 = Harness::start_with(|mut o| {
            o.no_cache = true;
            o
        })
        .await;
        h2.call_ok("list_activities", json!({"start_date": "2026-09-01", "end_date": "2026-10-31", "activity_type": "run", "limit": 200})).await.1
    };
    let (_, runs) = h
        .call_ok("list_activities", json!({"start_date": "2026-09-01", "end_date": "2026-10-31", "activity_type": "run", "limit": 200}))
        .await;
    assert_eq!(api_requests(&h), Vec::<(String, String)>::new());
    assert_eq!(runs["activities"], live_runs["activities"]);
    assert_eq!(runs["totals"], live_runs["totals"]);
}

#[tokio::test]
async fn today_is_always_read_live_and_the_answer_says_which_part_came_from_where() {
    let h = crate::support::synced_since("2026-08-01").await;
    h.fake.clear_requests();
    let (text, data) =
        h.call_ok("list_activities", json!({"start_date": "2026-11-01", "end_date": "2026-11-15"})).await;
    let requests = api_requests(&h);
    assert_eq!(requests.len(), 1, "{requests:?}");
    assert!(
        requests[0].1.contains("startDate=2026-11-15") && requests[0].1.contains("endDate=2026-11-15"),
        "{requests:?}"
    );
    assert_eq!(data["source"]["from"], "history+garmin");
    assert_eq!(data["source"]["history_to"], "2026-11-14");
    assert!(
        text.contains("Source: the local history to 2026-11-14")
            && text.contains("later days live from Garmin"),
        "{text}"
    );
    // This week is still running: today comes from Garmin.
    h.fake.clear_requests();
    let (_, week) = h.call_ok("get_period_stats", json!({"period": "week"})).await;
    assert_eq!(week["source"]["from"], "history+garmin");
    assert!(api_requests(&h).iter().any(|(_, q)| q.contains(&format!("endDate={}", today()))));
}

#[tokio::test]
async fn no_cache_answers_live_even_with_a_synced_history() {
    let h = Harness::start_with(|mut o| {
        o.no_cache = true;
        o
    })
    .await;
    synced(&h).await;
    h.fake.clear_requests();
    let (text, data) = h.call_ok("get_period_stats", json!({"period": "month", "date": "2026-10-10"})).await;
    assert_eq!(data["source"]["from"], "garmin");
    assert!(text.ends_with("Source: Garmin, live."), "{text}");
    assert!(!api_requests(&h).is_empty());
}

#[tokio::test]
async fn a_broken_history_file_never_sinks_a_tool_and_the_next_sync_rebuilds_it() {
    let h = Harness::start().await;
    std::fs::write(h.dir.path().join("history.sqlite3"), b"garbage, not SQLite".repeat(100)).unwrap();
    let (_, data) = h.call_ok("get_period_stats", json!({"period": "month", "date": "2026-10-10"})).await;
    assert_eq!(data["source"]["from"], "garmin");
    assert!(data["totals"]["count"].as_u64().unwrap() > 0);
    let (text, sync) = synced(&h).await;
    assert_eq!(sync["status"], "complete", "{text}");
    let moved = std::fs::read_dir(h.dir.path())
        .unwrap()
        .filter_map(Result::ok)
        .any(|e| e.file_name().to_string_lossy().starts_with("history.sqlite3.broken-"));
    assert!(moved, "the broken file was kept aside");
}

#[tokio::test]
async fn sync_history_stops_politely_when_garmin_rate_limits_and_says_when_to_resume() {
    let h = Harness::start().await;
    h.fake.push_fault(
        fake_garmin::faults::FaultRule::always(fake_garmin::faults::Fault::RateLimited {
            retry_after_secs: Some(900),
        })
        .on_path("calendarDate=2026-09-0"),
    );
    let (text, data) = synced(&h).await;
    assert_eq!(data["status"], "stopped");
    assert_eq!(data["stopped"], "rate_limited");
    assert!(data["resume_after"].as_str().is_some());
    assert!(text.contains("Resume after"), "{text}");
    h.fake.clear_faults();
    // Until the time Garmin gave, the stopped sync is reported, not run again.
    h.fake.clear_requests();
    let (text, again) = h.call_ok("sync_history", json!({"since": "2026-08-01"})).await;
    assert_eq!(
        (again["status"].as_str(), again["resume_after"].clone()),
        (Some("stopped"), data["resume_after"].clone())
    );
    assert!(text.contains("no new sync runs before"), "{text}");
    assert!(api_requests(&h).is_empty(), "{:?}", api_requests(&h));
    age_last_sync(&h, chrono::Duration::minutes(16));
    let (_, data) = synced(&h).await;
    assert_eq!(data["status"], "complete");
}

#[tokio::test]
async fn a_long_sync_goes_on_in_the_background_and_a_later_call_reports_how_it_ended() {
    let h = Harness::start().await;
    // Garmin is slow today: the year takes longer than the tool waits.
    h.fake.push_fault(fake_garmin::faults::FaultRule::always(fake_garmin::faults::Fault::Latency(
        Duration::from_millis(40),
    )));
    // It answers while the sync still runs (how soon is the tool's 8 s wait; a loaded machine adds
    // to it, so only the order is asserted here).
    let (text, data) = h.call_ok("sync_history", json!({})).await;
    assert_eq!(data["status"], "running", "{text}");
    assert!(
        text.contains("goes on in the background") && text.contains("without starting another"),
        "{text}"
    );
    assert!(data["days_total"].as_u64().unwrap() >= 365, "{data}");
    // Tools keep answering meanwhile.
    h.call_ok("get_period_stats", json!({"period": "month", "date": "2026-10-10"})).await;
    h.fake.clear_faults();
    let mut last = data;
    for _ in 0..20 {
        let (text, data) = h.call_ok("sync_history", json!({})).await;
        last = data;
        if last["status"] != "running" {
            assert!(
                text.starts_with("A sync started earlier (the last year, what changed) has ended."),
                "{text}"
            );
            break;
        }
    }
    assert_eq!(last["status"], "complete", "{last}");
    assert!(last["history_activities"].as_u64().unwrap() > 100);
}

/// (progress token, progress, total, message) of each notification received.
type Notes = std::sync::Arc<std::sync::Mutex<Vec<(String, f64, Option<f64>, String)>>>;

/// An MCP client that records the progress notifications it receives.
#[derive(Clone, Default)]
struct ProgressRecorder(Notes);

impl rmcp::ClientHandler for ProgressRecorder {
    async fn on_progress(
        &self,
        params: rmcp::model::ProgressNotificationParam,
        _context: rmcp::service::NotificationContext<rmcp::RoleClient>,
    ) {
        self.0.lock().unwrap().push((
            params.progress_token.0.to_string(),
            params.progress,
            params.total,
            params.message.unwrap_or_default(),
        ));
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn sync_history_sends_progress_notifications_up_to_the_total() {
    use rmcp::ServiceExt as _;
    let h = Harness::start().await;
    let mut options = garmin_mcp::ServerOptions::new(h.store.clone());
    options.today = Some(today());
    let server = garmin_mcp::GarminMcp::new(options).unwrap();
    let (server_end, client_end) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    let recorder = ProgressRecorder::default();
    let client = recorder.clone().serve(client_end).await.unwrap();
    let call = || {
        let mut params = rmcp::model::CallToolRequestParams::new("sync_history");
        params = params.with_arguments(json!({"since": "2026-09-01"}).as_object().unwrap().clone());
        let mut meta = rmcp::model::RequestMetaObject::default();
        meta.set_progress_token(rmcp::model::ProgressToken(rmcp::model::NumberOrString::Number(9)));
        params.meta = Some(meta);
        client.call_tool(params)
    };
    // Called again while it goes on in the background (a loaded machine); each call gets the
    // progress made while it waits, under its own progress token.
    for attempt in 0.. {
        let result = call().await.unwrap();
        assert_ne!(result.is_error, Some(true));
        if result.structured_content.as_ref().is_none_or(|data| data["status"] != "running") {
            break;
        }
        assert!(attempt < 40, "the sync did not end");
    }
    // The client may still be handling the last notifications: wait for the one that ends the sync.
    let ended = |notes: &[(String, f64, Option<f64>, String)]| {
        notes.iter().any(|(_, done, total, _)| Some(*done) == *total)
    };
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while !ended(&recorder.0.lock().unwrap()) && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let notes = recorder.0.lock().unwrap().clone();
    assert!(notes.len() >= 5, "{notes:?}");
    let tokens: std::collections::BTreeSet<&String> = notes.iter().map(|n| &n.0).collect();
    for token in tokens {
        // The client may handle notifications concurrently: order them by value, which the server
        // made grow with each one it sent to a call (no value sent twice).
        let mut of_call: Vec<_> = notes.iter().filter(|n| n.0 == *token).collect();
        of_call.sort_by(|a, b| a.1.total_cmp(&b.1));
        assert!(
            of_call.windows(2).all(|w| w[0].1 < w[1].1),
            "progress grows with each notification: {notes:?}"
        );
    }
    assert!(ended(&notes), "the last notification is the total: {notes:?}");
    assert!(notes.iter().any(|(_, _, _, m)| m.contains("requests")), "{notes:?}");
}

#[tokio::test]
async fn get_fitness_trend_matches_the_analytics_crate_on_the_synced_loads() {
    use analytics::load::{LoadChoice, SessionLoads, daily_loads};
    use analytics::pmc::{PmcConstants, performance_management_until};
    use chrono::NaiveDate;

    let h = crate::support::synced_since("2026-08-01").await;
    h.fake.clear_requests();
    let (text, data) = h
        .call_ok(
            "get_fitness_trend",
            json!({"start_date": "2026-10-01", "end_date": "2026-11-14", "load": "garmin"}),
        )
        .await;
    assert_eq!(
        api_requests(&h),
        Vec::<(String, String)>::new(),
        "Garmin's load needs no profile and no live day"
    );
    assert_eq!(data["load_scale"], "garmin");
    assert_eq!(data["source"]["from"], "history");
    assert!(data["convention"].as_str().unwrap().contains("42"), "{data}");
    assert!(text.contains("fitness (CTL)") && text.contains("Source: the local history"), "{text}");

    // The same series computed here from the history file with the analytics crate.
    let end = NaiveDate::from_ymd_opt(2026, 11, 14).unwrap();
    let start = NaiveDate::from_ymd_opt(2026, 10, 1).unwrap();
    let history = history::History::open(h.dir.path()).unwrap();
    let sessions: Vec<SessionLoads> = history
        .activity_loads(NaiveDate::MIN, end)
        .unwrap()
        .iter()
        .map(|a| SessionLoads { date: a.date, power_tss: None, hr_tss: None, garmin: a.training_load })
        .collect();
    let loads = daily_loads(&sessions, LoadChoice::Garmin);
    let pmc = performance_management_until(&loads.days, &PmcConstants::default(), end).unwrap();
    let want = pmc.between(start, end);
    let got = data["days"].as_array().unwrap();
    assert_eq!(got.len(), want.len());
    assert_eq!(got.len(), 45);
    for (g, w) in got.iter().zip(want) {
        assert_eq!(g["date"], w.date.to_string());
        for (key, value) in [("load", w.load), ("ctl", w.ctl), ("atl", w.atl), ("tsb", w.tsb)] {
            let shown = g[key].as_f64().unwrap();
            assert!((shown - value).abs() <= 0.05 + 1e-9, "{} {key}: {shown} vs {value}", w.date);
        }
    }
    assert!(got.iter().any(|d| d["load"].as_f64().unwrap() > 0.0));
}

#[tokio::test]
async fn the_apps_fitness_chart_counts_the_same_loads_as_get_fitness_trends_default() {
    use chrono::NaiveDate;

    let h = crate::support::synced_since("2026-08-01").await;
    let (_, trend) =
        h.call_ok("get_fitness_trend", json!({"start_date": "2026-10-01", "end_date": "2026-11-14"})).await;
    // The desktop app's Training view reads the same history file through the history crate.
    let history = history::History::open(h.dir.path()).unwrap();
    let end = NaiveDate::from_ymd_opt(2026, 11, 14).unwrap();
    let chart = history.training_overview(end, 45, 1).unwrap().fitness.expect("a fitness chart");

    assert_eq!(trend["load"], "auto");
    assert_eq!(trend["load_scale"], "tss", "the demo's profile gives hrTSS: {trend}");
    assert_eq!(chart.load_scale, trend["load_scale"].as_str().unwrap());
    assert_eq!(chart.load_convention, trend["load_convention"].as_str().unwrap());
    let days = trend["days"].as_array().unwrap();
    assert_eq!((days.len(), chart.dates.len()), (45, 45));
    for (i, day) in days.iter().enumerate() {
        assert_eq!(day["date"], chart.dates[i].to_string());
        for (key, value) in [("ctl", chart.ctl[i]), ("atl", chart.atl[i]), ("tsb", chart.tsb[i])] {
            let shown = day[key].as_f64().unwrap();
            // The tool rounds to one decimal.
            assert!(
                (shown - value).abs() <= 0.05 + 1e-9,
                "{} {key}: tool {shown}, app {value}",
                chart.dates[i]
            );
        }
    }
}

#[tokio::test]
async fn get_fitness_trend_uses_heart_rate_tss_by_default_and_reads_today_live() {
    let h = crate::support::synced_since("2026-08-01").await;
    h.fake.clear_requests();
    let (text, data) = h.call_ok("get_fitness_trend", json!({})).await;
    assert_eq!(data["end_date"], "2026-11-15");
    assert_eq!(data["days"].as_array().unwrap().len(), 91);
    assert_eq!(data["source"]["from"], "history+garmin");
    assert!(
        api_requests(&h)
            .iter()
            .any(|(p, q)| p.ends_with("/search/activities") && q.contains("startDate=2026-11-15"))
    );
    match data["load_scale"].as_str().unwrap() {
        "tss" => assert!(
            data["sessions"]["heart_rate"].as_u64().unwrap() + data["sessions"]["power"].as_u64().unwrap()
                > 0
        ),
        other => {
            assert_eq!(other, "garmin");
            assert!(!data["notes"].as_array().unwrap().is_empty(), "{data}");
        }
    }
    assert!(text.contains("Banister/Coggan PMC"), "{text}");
    // Without a history, Garmin is read live (the range and 126 days before it) and it says how
    // to get the history.
    let fresh = Harness::start().await;
    let (_, live) = fresh.call_ok("get_fitness_trend", json!({})).await;
    assert_eq!(live["source"]["from"], "garmin");
    assert!(live["notes"].to_string().contains("run sync_history"), "{live}");
    assert!(
        api_requests(&fresh).iter().any(|(_, q)| q.contains("startDate=2026-04-13")),
        "{:?}",
        api_requests(&fresh)
    );
    assert_eq!(live["days"].as_array().unwrap().len(), 91);
    // Too long a range is refused with the limit.
    let message = h.call_invalid("get_fitness_trend", json!({"start_date": "2026-01-01"})).await;
    assert!(message.contains("at most 140 days"), "{message}");
}

/// The three reads of the athlete's load profile (heart-rate zones, user settings, personal
/// information with the FTP).
fn profile_requests(h: &Harness) -> usize {
    api_requests(h)
        .iter()
        .filter(|(p, _)| {
            ["heartRateZones", "user-settings", "personal-information"].iter().any(|k| p.contains(k))
        })
        .count()
}

#[tokio::test]
async fn after_a_sync_get_fitness_trend_takes_the_athlete_profile_from_the_history_and_asks_garmin_nothing() {
    let h = crate::support::synced_since("2026-08-01").await;
    h.fake.clear_requests();
    let args = json!({"end_date": "2026-11-14", "load": "hr"});
    let (_, first) = h.call_ok("get_fitness_trend", args.clone()).await;
    assert_eq!(api_requests(&h), Vec::<(String, String)>::new(), "the sync kept the profile");
    assert!(first["sessions"]["heart_rate"].as_u64().unwrap() > 0, "hrTSS needs the profile: {first}");
    let (_, second) = h.call_ok("get_fitness_trend", args).await;
    assert_eq!(api_requests(&h), Vec::<(String, String)>::new());
    assert_eq!(first["days"], second["days"]);
}

#[tokio::test]
async fn a_profile_the_sync_could_not_read_is_read_by_the_first_analysis_and_kept_for_the_day() {
    let h = Harness::start().await;
    for path in ["heartRateZones", "user-settings", "personal-information"] {
        h.fake.push_fault(FaultRule::always(Fault::ServerError(500)).on_path(path));
    }
    synced(&h).await;
    h.fake.clear_faults();
    h.fake.clear_requests();
    let args = json!({"end_date": "2026-11-14", "load": "auto"});
    let (_, first) = h.call_ok("get_fitness_trend", args.clone()).await;
    assert_eq!(profile_requests(&h), 3, "{:?}", api_requests(&h));
    h.fake.clear_requests();
    let (_, second) = h.call_ok("get_fitness_trend", args).await;
    assert_eq!(api_requests(&h), Vec::<(String, String)>::new(), "read once a day at most");
    assert_eq!(first["days"], second["days"]);
}

#[tokio::test]
async fn no_cache_reads_the_athlete_profile_live_at_every_call() {
    let h = Harness::start_with(|mut o| {
        o.no_cache = true;
        o
    })
    .await;
    synced(&h).await;
    h.fake.clear_requests();
    for _ in 0..2 {
        h.call_ok("get_fitness_trend", json!({"end_date": "2026-11-14", "load": "hr"})).await;
    }
    assert_eq!(profile_requests(&h), 6, "{:?}", api_requests(&h));
}

/// Issue #25: an account whose devices record no sleep, HRV or weight (Garmin answers their ranges
/// 404 and 204). Its sync completes and says so once; afterwards the past is answered from the
/// history with no Garmin request, the fitness trend included.
#[tokio::test]
async fn after_syncing_an_account_without_sleep_hrv_or_weight_the_tools_answer_from_the_history() {
    let config = fake_garmin::FakeConfig {
        today: today(),
        untracked: fake_garmin::Untracked::BIKE_COMPUTER,
        ..fake_garmin::FakeConfig::default()
    };
    let h = Harness::with_fake(config).await;
    let (text, data) = synced(&h).await;
    assert_eq!(data["status"], "complete", "{text}");
    assert_eq!(
        text.matches("Garmin keeps no sleep, HRV or weight records for this account").count(),
        1,
        "{text}"
    );
    h.fake.clear_requests();
    let (stats_text, stats) =
        h.call_ok("get_period_stats", json!({"period": "month", "date": "2026-10-10"})).await;
    assert_eq!(stats["source"]["from"], "history", "{stats_text}");
    assert!(stats["totals"]["count"].as_u64().unwrap() > 5, "{}", stats["totals"]);
    let (trend_text, trend) =
        h.call_ok("get_fitness_trend", json!({"start_date": "2026-09-01", "end_date": "2026-10-31"})).await;
    assert_eq!(trend["source"]["from"], "history", "{trend_text}");
    assert_eq!(api_requests(&h), Vec::<(String, String)>::new(), "no Garmin request");
}

// ---- Hostile callers of the history (issue 24) ----

#[tokio::test]
async fn thirty_sync_history_calls_in_a_row_run_one_sync_and_report_it() {
    let h = Harness::start().await;
    let (_, first) = synced(&h).await;
    assert_eq!(first["status"], "complete");
    let one_sync = api_requests(&h).len();
    assert!(one_sync > 50, "{one_sync}");
    h.fake.clear_requests();
    for _ in 0..30 {
        let (text, data) = h.call_ok("sync_history", json!({"since": "2026-08-01"})).await;
        assert_eq!(data["status"], "complete", "{text}");
        assert!(data["ended_at"].as_str().is_some(), "{data}");
        assert!(
            text.starts_with("The history was synced") && !text.contains("call sync_history again"),
            "{text}"
        );
    }
    // Also a full re-read asked within minutes of a sync, and from another client of this folder.
    h.call_ok("sync_history", json!({"full": true})).await;
    let other = h.client_with((), |o| o).await;
    let result = other.call_tool(rmcp::model::CallToolRequestParams::new("sync_history")).await.unwrap();
    assert_eq!(result.structured_content.unwrap()["status"], "complete");
    assert!(api_requests(&h).is_empty(), "{} requests after one sync of {one_sync}", api_requests(&h).len());
    // Days before that sync's range are a new sync.
    let (_, earlier) = synced_since(&h, "2026-06-01").await;
    assert_eq!(earlier["ended_at"], Value::Null, "{earlier}");
    assert!(!api_requests(&h).is_empty());
}

async fn synced_since(h: &Harness, since: &str) -> (String, Value) {
    for _ in 0..10 {
        let (text, data) = h.call_ok("sync_history", json!({"since": since})).await;
        if data["status"] != "running" {
            return (text, data);
        }
    }
    panic!("the sync did not end");
}

#[tokio::test]
async fn a_sync_while_another_program_syncs_the_same_folder_is_not_started() {
    let h = Harness::start().await;
    let held = history::sync_once::try_lock(h.dir.path()).unwrap().expect("no sync runs yet");
    let (text, data) = h.call_ok("sync_history", json!({})).await;
    assert_eq!(data["status"], "running_elsewhere", "{text}");
    assert!(text.contains(&format!("(process {})", std::process::id())), "{text}");
    assert!(api_requests(&h).is_empty(), "{:?}", api_requests(&h));
    drop(held);
    let (_, data) = synced(&h).await;
    assert_eq!(data["status"], "complete");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_history_locked_by_another_connection_answers_live_at_once_without_stalling_other_tools() {
    let h = Harness::start().await;
    // The history is filled by another client's server, which then ends: this server has not
    // opened it yet.
    let other = h.client_with((), |o| o).await;
    loop {
        let args = json!({"since": "2026-08-01"}).as_object().cloned().unwrap();
        let result = other
            .call_tool(rmcp::model::CallToolRequestParams::new("sync_history").with_arguments(args))
            .await;
        if result.unwrap().structured_content.unwrap()["status"] != "running" {
            break;
        }
    }
    other.cancel().await.unwrap();
    // Another program holds the database exclusively (an `sqlite3` shell in exclusive locking
    // mode in the middle of a write).
    let path = h.dir.path().join(history::FILE_NAME);
    let (locked_tx, locked_rx) = std::sync::mpsc::channel();
    let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
    let holder = std::thread::spawn(move || {
        let conn = rusqlite::Connection::open(path).unwrap();
        conn.execute_batch("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; CREATE TABLE held (x);")
            .unwrap();
        locked_tx.send(()).unwrap();
        release_rx.recv().unwrap();
        conn.execute_batch("ROLLBACK").unwrap();
    });
    locked_rx.recv().unwrap();
    h.fake.clear_requests();
    let started = std::time::Instant::now();
    let month = json!({"start_date": "2026-09-01", "end_date": "2026-09-30"});
    let calls = (0..8).map(|_| h.call("list_activities", month.clone()));
    let (lists, profile) = tokio::join!(futures::future::join_all(calls), h.call("get_profile", json!({})));
    let took = started.elapsed();
    assert_ne!(profile.is_error, Some(true));
    for list in &lists {
        let data = list.structured_content.as_ref().expect("an answer");
        assert_eq!(data["source"]["from"], "garmin", "answered live: {data}");
    }
    // Before: 15, 30, 45 and 60 s (SQLite's busy wait on every runtime worker). Now one short wait
    // on the blocking pool, then live answers; the later calls skip the history at once.
    assert!(took < Duration::from_secs(10), "nine calls took {took:?}");
    release_tx.send(()).unwrap();
    holder.join().unwrap();
}
