//! Run: `cargo test -p garmin-mcp --test tools personal::`.
//!
//! The tools with Garmin's official Personal API key (docs/garmin-personal-api.md): which source
//! answers (the fake's request log and the answer's `_meta`), the same figures through both
//! sources, a key-only server refusing a web-only tool with one sentence, a refused key, and the
//! key never leaking into answers.

use serde_json::{Value, json};

use super::support::{Harness, all_text};

/// Personal API paths (no `/gc-api` prefix, no admin calls) the fake saw.
fn personal_paths(h: &Harness) -> Vec<String> {
    h.fake
        .requests()
        .into_iter()
        .map(|r| r.path)
        .filter(|p| !p.starts_with("/gc-api") && !p.starts_with("/__fake"))
        .collect()
}

fn source_meta(result: &rmcp::model::CallToolResult) -> Value {
    let meta = serde_json::to_value(result.meta.as_ref().expect("the answer names its source")).unwrap();
    meta[garmin_mcp::sources::META_KEY].clone()
}

#[tokio::test]
async fn a_key_only_server_answers_daily_health_through_the_personal_api_and_says_so() {
    let (h, key) = Harness::with_key(false).await;
    let result = h.call("get_daily_health", json!({"date": "2026-11-10"})).await;
    assert_ne!(result.is_error, Some(true), "{}", all_text(&result));
    let meta = source_meta(&result);
    assert_eq!(meta["sources"], json!(["personal_api"]));
    assert!(meta["phrase"].as_str().unwrap().contains("Personal API"));
    let data = result.structured_content.clone().unwrap();
    assert!(data["day"]["sleep"].is_object(), "{data}");
    // Intensity minutes and blood pressure come only through the web sign-in: named, not fatal.
    let missing = data["missing"].to_string();
    assert!(missing.contains("web sign-in"), "{missing}");
    let paths = personal_paths(&h);
    assert!(paths.iter().any(|p| p == "/sleep-service/sleep/dailySleep"), "{paths:?}");
    assert!(h.fake.requests().iter().all(|r| !r.path.starts_with("/gc-api")));
    assert!(!all_text(&result).contains(&key) && !data.to_string().contains(&key));
}

#[tokio::test]
async fn a_key_about_to_expire_is_named_in_the_structured_result_the_text_and_the_meta() {
    let (h, key) = Harness::with_key(false).await;
    let mut record = h.store.load_personal().unwrap().expect("the key is saved");
    // Relative to the real clock on purpose: the warning compares the key's expiry with now.
    record.key_expires_at = Some(chrono::Utc::now() + chrono::Duration::days(5));
    h.store.lock().unwrap().write_personal(Some(&record)).unwrap();
    let result = h.call("get_daily_health", json!({"date": "2026-11-10"})).await;
    assert_ne!(result.is_error, Some(true), "{}", all_text(&result));
    let data = result.structured_content.clone().unwrap();
    let notice = data["notice"].as_str().expect("a client that reads only the structured result sees it");
    assert!(notice.contains("expires on") && notice.contains("make a new one"), "{notice}");
    assert!(all_text(&result).contains(notice), "the text says it too");
    assert_eq!(source_meta(&result)["note"], json!(notice));
    assert!(!notice.contains(&key));
    // A key far from its expiry adds nothing.
    record.key_expires_at = Some(chrono::Utc::now() + chrono::Duration::days(60));
    h.store.lock().unwrap().write_personal(Some(&record)).unwrap();
    let quiet = h.call("get_daily_health", json!({"date": "2026-11-10"})).await;
    assert!(quiet.structured_content.unwrap().get("notice").is_none());
}

#[tokio::test]
async fn a_key_only_server_refuses_a_web_only_tool_with_one_sentence_naming_the_web_sign_in() {
    let (h, _) = Harness::with_key(false).await;
    let text = h.call_err("get_training_status", json!({})).await;
    assert!(text.contains("web sign-in") && text.contains("Personal API"), "{text}");
    assert!(text.contains("login --manual"), "{text}");
}

#[tokio::test]
async fn list_activities_gives_the_same_rows_through_the_personal_api_and_the_web_session() {
    let (keyed, _) = Harness::with_key(false).await;
    let web = Harness::start().await;
    let args = json!({"start_date": "2026-10-01", "end_date": "2026-10-31"});
    let through_key = keyed.call("list_activities", args.clone()).await;
    let (_, through_web) = web.call_ok("list_activities", args).await;
    assert_eq!(source_meta(&through_key)["sources"], json!(["personal_api"]));
    let through_key = through_key.structured_content.unwrap();
    assert_eq!(through_key["activities"], through_web["activities"]);
    assert_eq!(through_key["totals"], through_web["totals"]);
    assert!(
        personal_paths(&keyed).contains(&"/activitylist-service/activities/search/activities".to_owned())
    );
}

#[tokio::test]
async fn a_health_range_gives_the_same_numbers_through_both_sources() {
    let (keyed, _) = Harness::with_key(false).await;
    let web = Harness::start().await;
    let args = json!({"start_date": "2026-11-01", "end_date": "2026-11-14"});
    let (_, a) = keyed.call_ok("get_daily_health", args.clone()).await;
    let (_, b) = web.call_ok("get_daily_health", args).await;
    for field in [
        "steps",
        "resting_hr_bpm",
        "sleep",
        "sleep_score",
        "stress_avg",
        "body_battery_high",
        "hrv_ms",
        "weight_kg",
    ] {
        let pick =
            |v: &Value| v["days"].as_array().unwrap().iter().map(|d| d[field].clone()).collect::<Vec<_>>();
        assert_eq!(pick(&a), pick(&b), "{field}");
    }
    assert_eq!(a["averages"], b["averages"]);
}

#[tokio::test]
async fn with_both_the_personal_api_answers_first_and_the_web_session_covers_its_failures() {
    let (h, _) = Harness::with_key(true).await;
    let (_, _) =
        h.call_ok("list_activities", json!({"start_date": "2026-11-01", "end_date": "2026-11-14"})).await;
    assert!(h.fake.requests().iter().all(|r| !r.path.starts_with("/gc-api/activitylist")));
    // The Personal API fails (not a key problem): the web session answers, and the answer says so.
    h.fake.clear_requests();
    h.fake.push_fault(
        fake_garmin::faults::FaultRule::always(fake_garmin::faults::Fault::ServerError(503))
            .on_path("personal-api:/activitylist-service/"),
    );
    let result =
        h.call("list_activities", json!({"start_date": "2026-11-01", "end_date": "2026-11-14"})).await;
    assert_ne!(result.is_error, Some(true), "{}", all_text(&result));
    assert_eq!(source_meta(&result)["sources"], json!(["web_session"]));
}

#[tokio::test]
async fn a_deleted_key_is_not_papered_over_by_the_web_session() {
    let (h, key) = Harness::with_key(true).await;
    h.fake.revoke_personal_api_key(&key);
    let text = h.call_err("list_activities", json!({})).await;
    assert!(text.contains("refused your Personal API key") && text.contains("personalApiToken"), "{text}");
    assert!(!text.contains(&key));
}

#[tokio::test]
async fn period_stats_for_a_year_give_the_same_totals_through_both_sources() {
    let (keyed, _) = Harness::with_key(false).await;
    let web = Harness::start().await;
    let args = json!({"period": "year", "date": "2026-06-01"});
    let a = keyed.call("get_period_stats", args.clone()).await;
    let (_, b) = web.call_ok("get_period_stats", args).await;
    assert_eq!(source_meta(&a)["sources"], json!(["personal_api"]));
    let a = a.structured_content.unwrap();
    assert!(a["totals"]["count"].as_u64().unwrap() > 50, "{}", a["totals"]);
    assert_eq!(a["totals"], b["totals"]);
    assert_eq!(a["breakdown"], b["breakdown"]);
    assert_eq!(a["change"], b["change"]);
}

/// Issue #15's measure: requests and wall time for `get_daily_health` over 14 days and
/// `get_period_stats` for a year through each source, every request taking 80 ms. Printed with
/// `--nocapture`; the request counts are asserted.
#[tokio::test]
async fn requests_and_wall_time_at_80_ms_per_request_through_each_source() {
    use fake_garmin::faults::{Fault, FaultRule};
    let (keyed, _) = Harness::with_key(false).await;
    keyed.fake.set_personal_options(fake_garmin::PersonalOptions { latency_ms: 80, ..Default::default() });
    let web = Harness::start().await;
    web.fake.push_fault(FaultRule::always(Fault::Latency(std::time::Duration::from_millis(80))));
    let calls = [
        ("get_daily_health", json!({"start_date": "2026-11-01", "end_date": "2026-11-14"})),
        ("get_period_stats", json!({"period": "year", "date": "2026-06-01"})),
    ];
    for (tool, args) in calls {
        for (name, h) in [("personal_api", &keyed), ("web_session", &web)] {
            h.fake.clear_requests();
            let started = std::time::Instant::now();
            let result = h.call(tool, args.clone()).await;
            let took = started.elapsed();
            assert_ne!(result.is_error, Some(true), "{tool} via {name}");
            let n = h.fake.requests().len();
            println!("{tool} via {name}: {n} requests, {} ms", took.as_millis());
            assert!(n <= 10, "{tool} via {name}: {n} requests");
        }
    }
}

/// Per-request day caps of the Personal API's range endpoints (docs/garmin-personal-api.md §4.2),
/// as the fake enforces them: (path prefix, cap).
const CAPS: &[(&str, i64)] = &[
    ("/usersummary-service/stats/steps/daily/", 28),
    ("/usersummary-service/stats/stress/daily/", 28),
    ("/usersummary-service/stats/hydration/daily/", 31),
    ("/sleep-service/sleep/dailySleepSummariesByDate", 31),
    ("/wellness-service/wellness/bodyBattery/reports/daily", 31),
    ("/usersummary-service/v2/dailysummaries", 31),
    ("/hrv-service/hrv/daily/", 365),
    ("/weight-service/weight/range/", 366),
];

/// Every Personal API request the fake saw asked for a range within its endpoint's cap, and none
/// was refused for its range.
fn assert_windows_within_caps(h: &Harness) {
    for r in
        h.fake.requests().iter().filter(|r| !r.path.starts_with("/gc-api") && !r.path.starts_with("/__fake"))
    {
        assert!(!r.note.as_deref().unwrap_or_default().contains("over the cap"), "{} {:?}", r.path, r.note);
        let Some((_, cap)) = CAPS.iter().find(|(prefix, _)| r.path.starts_with(prefix)) else { continue };
        let query: std::collections::HashMap<&str, &str> =
            r.query.as_deref().unwrap_or_default().split('&').filter_map(|p| p.split_once('=')).collect();
        let mut segments = r.path.rsplit('/');
        let (end, start) = (segments.next().unwrap_or_default(), segments.next().unwrap_or_default());
        let dates = match (start.parse::<chrono::NaiveDate>(), end.parse::<chrono::NaiveDate>()) {
            (Ok(s), Ok(e)) => (s, e),
            _ => (query["startDate"].parse().unwrap(), query["endDate"].parse().unwrap()),
        };
        let days = (dates.1 - dates.0).num_days() + 1;
        assert!(days <= *cap, "{} asked {days} days, over its cap of {cap}", r.path);
    }
}

/// Personal API requests (paths without `/gc-api`) and web requests (with it) the fake saw.
fn split_log(h: &Harness) -> (Vec<String>, Vec<String>) {
    let (mut personal, mut web) = (Vec::new(), Vec::new());
    for r in h.fake.requests() {
        if r.path.starts_with("/__fake") || r.path.starts_with("/personalapitoken-service") {
            continue;
        }
        if r.path.starts_with("/gc-api") { web.push(r.path) } else { personal.push(r.path) }
    }
    (personal, web)
}

/// The newest device-recorded run of the fake athlete in November (its original is a FIT file).
async fn a_run(h: &Harness) -> u64 {
    let (_, list) = h
        .call_ok(
            "list_activities",
            json!({"start_date": "2026-11-01", "end_date": "2026-11-14", "activity_type": "running", "limit": 20}),
        )
        .await;
    list["activities"][0]["activity_id"].as_u64().unwrap_or_else(|| panic!("no run in {list}"))
}

/// An answer's record: its structured content, or (render_chart, which answers with content only)
/// the JSON text after the summary.
fn data_of(result: &rmcp::model::CallToolResult) -> Value {
    assert_ne!(result.is_error, Some(true), "{}", all_text(result));
    result.structured_content.clone().unwrap_or_else(|| {
        let json = result.content.iter().filter_map(|c| c.as_text()).nth(1).expect("the record as JSON text");
        serde_json::from_str(&json.text).expect("the record is JSON")
    })
}

/// Issue #15's parity table: each routed tool answers the same figures through the Personal API (a
/// key-only server) and through the web session (a web-only server) for the same athlete and
/// dates; the key-only answers name the Personal API as their source.
#[tokio::test]
async fn each_routed_tool_answers_the_same_figures_through_the_personal_api_and_the_web_session() {
    let (keyed, _) = Harness::with_key(false).await;
    let web = Harness::start().await;
    let id = a_run(&web).await;
    let folder_k = tempfile::tempdir().unwrap();
    let folder_w = tempfile::tempdir().unwrap();
    let day = json!({"date": "2026-11-10"});
    let full_day = json!({"date": "2026-11-10", "detail": "full"});
    // (tool, arguments for the key, arguments for the web, the figures that must agree)
    let table: Vec<(&str, Value, Value, &[&str])> = vec![
        (
            "list_activities",
            json!({"start_date": "2026-10-01", "end_date": "2026-10-31"}),
            json!({"start_date": "2026-10-01", "end_date": "2026-10-31"}),
            &["/activities", "/totals"],
        ),
        (
            "get_activity",
            json!({"activity_id": id, "include_series": true}),
            json!({"activity_id": id, "include_series": true}),
            // The laps: the key's come from the original FIT file's `lap` messages, the web's from
            // `splits`; the fake writes both from the same laps at FIT's resolution (cm, ms, bpm),
            // which the web rounds to as well, so every split row (count, distance, time, pace, avg
            // HR, climb, intensity) and the steadiness note agree exactly. Zones and series: see
            // `assert_activity_parts_agree`.
            &[
                "/name",
                "/location",
                "/start",
                "/overview",
                "/splits",
                "/series/recorded_points",
                "/series/points",
            ],
        ),
        (
            "export_activity",
            json!({"activity_id": id, "format": "fit", "folder": folder_k.path()}),
            json!({"activity_id": id, "format": "fit", "folder": folder_w.path()}),
            &["/file_name", "/size_bytes", "/format", "/activity_name", "/date", "/distance_km"],
        ),
        (
            "render_chart",
            json!({"kind": "activity", "activity_id": id, "folder": folder_k.path()}),
            json!({"kind": "activity", "activity_id": id, "folder": folder_w.path()}),
            &["/kind", "/title", "/activity_id"],
        ),
        (
            // One activity's time in zones: through the key counted from the original FIT file with
            // E13's floors, through the web `hrTimeInZones` (the zone minutes are compared in
            // `assert_activity_parts_agree`; the drawn chart names the same activity).
            "render_chart",
            json!({"kind": "hr_zones", "activity_id": id, "folder": folder_k.path()}),
            json!({"kind": "hr_zones", "activity_id": id, "folder": folder_w.path()}),
            &["/kind", "/title", "/activity_id"],
        ),
        (
            "get_daily_health",
            day.clone(),
            day,
            &[
                "/day/activity",
                "/day/heart_rate",
                "/day/stress",
                "/day/body_battery",
                "/day/spo2",
                "/day/hrv",
                "/day/body_composition",
                "/day/hydration",
                "/day/sleep/score",
            ],
        ),
        ("get_daily_health", full_day.clone(), full_day, &["/day/spo2", "/day/activity", "/day/hrv"]),
        (
            "get_daily_health",
            json!({"start_date": "2026-11-01", "end_date": "2026-11-14"}),
            json!({"start_date": "2026-11-01", "end_date": "2026-11-14"}),
            &["/days", "/averages"],
        ),
        (
            "get_period_stats",
            json!({"period": "year", "date": "2026-06-01"}),
            json!({"period": "year", "date": "2026-06-01"}),
            &["/totals", "/breakdown", "/change"],
        ),
    ];
    for (tool, key_args, web_args, figures) in table {
        keyed.fake.clear_requests();
        let through_key = keyed.call(tool, key_args.clone()).await;
        assert_ne!(through_key.is_error, Some(true), "{tool} {key_args}: {}", all_text(&through_key));
        assert!(
            source_meta(&through_key)["sources"]
                .as_array()
                .is_some_and(|s| s.contains(&json!("personal_api"))),
            "{tool}: {}",
            source_meta(&through_key)
        );
        let (personal, web_paths) = split_log(&keyed);
        assert!(!personal.is_empty() && web_paths.is_empty(), "{tool}: {personal:?} {web_paths:?}");
        assert_windows_within_caps(&keyed);
        let mut through_web = data_of(&web.call(tool, web_args).await);
        let through_key = data_of(&through_key);
        if tool == "get_daily_health"
            && let Some(rows) = through_web["days"].as_array_mut()
        {
            // Health Status is the web session's alone (#29): a key-only reader names it missing,
            // with why, and the web session's rows carry it beside the same figures.
            let missing = through_key["missing"].to_string();
            assert!(missing.contains("health_status: "), "{missing}");
            for row in rows {
                assert!(row.as_object_mut().unwrap().remove("health_status").is_some(), "{row}");
            }
        }
        if tool == "render_chart" && key_args["kind"] == "activity" {
            assert_eq!(through_key["series_source"], "fit_file", "the chart read the original FIT file");
        }
        if tool == "get_activity" {
            assert_activity_parts_agree(&through_key, &through_web);
        }
        for pointer in figures {
            let (a, b) = (through_key.pointer(pointer), through_web.pointer(pointer));
            assert!(a.is_some(), "{tool}{pointer} missing through the key: {through_key}");
            assert_eq!(a, b, "{tool}{pointer}");
        }
    }
    // The exported originals are the same bytes.
    let file = |dir: &tempfile::TempDir| {
        let entry = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.extension().is_some_and(|e| e == "fit"));
        std::fs::read(entry.unwrap()).unwrap()
    };
    assert_eq!(file(&folder_k), file(&folder_w));
}

/// The tolerance of a zone's minutes through the key against the web. Both count whole-bpm heart
/// rates (what the watch records) from each sample to the next; the FIT path (`fit_series`) rounds
/// each zone to whole seconds and its last record's timestamp to the second, the web keeps
/// milliseconds: under a second per zone, so at most one step of the answer's 0.1-minute rounding.
const ZONE_MINUTES_TOLERANCE: f64 = 0.1;

/// `get_activity`'s time in HR zones and its series, through the key (from the original FIT file)
/// and through the web (`hrTimeInZones`, `details`), within the stated tolerances.
fn assert_activity_parts_agree(key: &Value, web: &Value) {
    let zones = |v: &Value| -> Vec<(u64, u64, f64)> {
        v["hr_zones"]
            .as_array()
            .unwrap_or_else(|| panic!("zones in {v}"))
            .iter()
            .map(|z| {
                (z["zone"].as_u64().unwrap(), z["from_bpm"].as_u64().unwrap(), z["minutes"].as_f64().unwrap())
            })
            .collect()
    };
    let (zk, zw) = (zones(key), zones(web));
    assert_eq!(zk.len(), 5, "five zones through the key: {zk:?}");
    assert_eq!(
        zk.iter().map(|z| (z.0, z.1)).collect::<Vec<_>>(),
        zw.iter().map(|z| (z.0, z.1)).collect::<Vec<_>>(),
        "zone floors"
    );
    for (k, w) in zk.iter().zip(&zw) {
        assert!(
            (k.2 - w.2).abs() <= ZONE_MINUTES_TOLERANCE,
            "zone {}: {} min through the key, {} through the web",
            k.0,
            k.2,
            w.2
        );
    }
    let total = |z: &[(u64, u64, f64)]| z.iter().map(|z| z.2).sum::<f64>();
    // Both count the whole recording: the totals differ only by the minutes' rounding (0.05 each).
    assert!((total(&zk) - total(&zw)).abs() <= 0.3, "total zone minutes {} vs {}", total(&zk), total(&zw));

    // Series-derived figures. Heart rate, distance and speed are at the same resolution both ways
    // (whole bpm, cm, mm/s), so the peak heart rate, the final distance and the fastest pace agree
    // exactly; FIT altitude steps by 0.2 m where the web rounds to 0.1 m; the running cadence is
    // stored as strides per minute with a 1/128 fraction and doubled back.
    let column = |v: &Value, name: &str| -> Vec<f64> {
        v["series"][name]
            .as_array()
            .unwrap_or_else(|| panic!("{name} in {}", v["series"]))
            .iter()
            .filter_map(Value::as_f64)
            .collect()
    };
    let max = |v: Vec<f64>| v.into_iter().fold(f64::MIN, f64::max);
    let min = |v: Vec<f64>| v.into_iter().fold(f64::MAX, f64::min);
    let mean = |v: Vec<f64>| v.iter().sum::<f64>() / v.len().max(1) as f64;
    assert_eq!(max(column(key, "hr_bpm")), max(column(web, "hr_bpm")), "peak heart rate");
    assert_eq!(column(key, "distance_km").last(), column(web, "distance_km").last(), "final distance");
    assert_eq!(min(column(key, "pace_s_per_km")), min(column(web, "pace_s_per_km")), "fastest pace");
    assert!(
        (max(column(key, "elevation_m")) - max(column(web, "elevation_m"))).abs() <= 0.2,
        "highest point"
    );
    let (ck, cw) = (mean(column(key, "cadence")), mean(column(web, "cadence")));
    assert!((ck - cw).abs() <= 1.0, "mean cadence {ck} through the key, {cw} through the web");
    assert!((mean(column(key, "hr_bpm")) - mean(column(web, "hr_bpm"))).abs() <= 1.0, "mean heart rate");
}

/// With a key, `get_activity`'s splits, series and time in zones come from the original FIT file
/// (the Personal API has none of them as JSON), read through the Personal API's download with a
/// zip `Accept`; the weather needs the web sign-in and is named as missing, not fatal.
#[tokio::test]
async fn get_activity_with_only_a_key_takes_splits_series_and_zones_from_the_original_fit_file() {
    let (h, key) = Harness::with_key(false).await;
    let web = Harness::start().await;
    let id = a_run(&web).await;
    h.fake.clear_requests();
    let result = h.call("get_activity", json!({"activity_id": id, "include_series": true})).await;
    assert_ne!(result.is_error, Some(true), "{}", all_text(&result));
    let data = result.structured_content.clone().unwrap();
    assert!(data["splits"]["rows"].as_array().is_some_and(|r| !r.is_empty()), "{}", data["splits"]);
    assert!(data["series"]["points"].as_u64().unwrap() > 5, "{}", data["series"]);
    assert!(data["hr_zones"].as_array().is_some_and(|z| !z.is_empty()), "{}", data["hr_zones"]);
    assert!(data["missing"].to_string().contains("weather"), "{}", data["missing"]);
    let log = h.fake.requests();
    let download = log.iter().find(|r| r.path == format!("/download-service/files/activity/{id}")).unwrap();
    assert_eq!(download.status, 200);
    assert!(download.accept.as_deref().unwrap().contains("zip"), "{:?}", download.accept);
    assert!(log.iter().any(|r| r.path == "/biometric-service/heartRateZones/v2"));
    assert!(log.iter().all(|r| !r.path.starts_with("/gc-api")));
    assert!(!data.to_string().contains(&key) && !all_text(&result).contains(&key));
}

#[tokio::test]
async fn a_web_only_server_never_calls_the_personal_api() {
    let h = Harness::start().await;
    h.call_ok("get_daily_health", json!({"start_date": "2026-11-01", "end_date": "2026-11-14"})).await;
    let id = a_run(&h).await;
    h.call_ok("get_activity", json!({"activity_id": id})).await;
    let result = h.call("list_activities", json!({})).await;
    assert_eq!(source_meta(&result)["sources"], json!(["web_session"]));
    let (personal, web) = split_log(&h);
    assert!(personal.is_empty(), "{personal:?}");
    assert!(!web.is_empty());
}

#[tokio::test]
async fn with_both_credentials_the_key_serves_its_reads_and_the_web_session_only_the_rest() {
    let (h, _) = Harness::with_key(true).await;
    let web = Harness::start().await;
    let id = a_run(&web).await;
    h.fake.clear_requests();
    let result = h.call("get_activity", json!({"activity_id": id})).await;
    assert_ne!(result.is_error, Some(true), "{}", all_text(&result));
    assert_eq!(source_meta(&result)["sources"], json!(["personal_api", "web_session"]));
    let (personal, web_paths) = split_log(&h);
    assert!(personal.contains(&format!("/activity-service/activity/{id}")), "{personal:?}");
    // Only the weather went to the web session.
    assert!(web_paths.iter().all(|p| p.ends_with("/weather")), "{web_paths:?}");
    assert!(result.structured_content.unwrap()["weather"].is_object());
    h.fake.clear_requests();
    h.call_ok("get_daily_health", json!({"start_date": "2026-11-01", "end_date": "2026-11-14"})).await;
    assert_windows_within_caps(&h);
}

#[tokio::test]
async fn an_expired_key_is_refused_with_how_to_make_a_new_one_and_the_web_session_does_not_hide_it() {
    let (h, key) = Harness::with_key(true).await;
    h.call_ok("list_activities", json!({})).await;
    h.fake.expire_personal_api_key(&key);
    h.fake.clear_requests();
    // The web session answers only what the key never served (blood pressure…): each part the key
    // serves says the key was refused and how to make a new one.
    let result = h.call("get_daily_health", json!({"date": "2026-11-10"})).await;
    let text = all_text(&result);
    assert!(text.contains("refused your Personal API key") && text.contains("personalApiToken"), "{text}");
    assert!(text.contains("sleep: Garmin refused your Personal API key"), "{text}");
    assert!(!text.contains(&key));
    let list = h.call_err("list_activities", json!({})).await;
    assert!(list.contains("refused your Personal API key"), "{list}");
    let log = h.fake.requests();
    let exchanges: Vec<u16> = log
        .iter()
        .filter(|r| r.path == "/personalapitoken-service/personal-api/personal-api-key/token")
        .map(|r| r.status)
        .collect();
    assert!(exchanges.contains(&403), "the exchange was refused as expired: {exchanges:?}");
    assert!(
        log.iter().any(|r| !r.path.starts_with("/gc-api") && r.status == 401),
        "the stale token was refused"
    );
}

/// A burst: the fake allows one request in flight and the client keeps two, so some are answered
/// 429 with `Retry-After: 1`; the client waits as told, and the answer still comes, within the caps.
#[tokio::test]
async fn a_burst_answered_429_is_waited_out_as_retry_after_says_and_the_answer_still_comes() {
    let (h, _) = Harness::with_key(false).await;
    h.fake.set_personal_options(fake_garmin::PersonalOptions {
        max_in_flight: 1,
        retry_after_secs: 1,
        latency_ms: 40,
    });
    let started = std::time::Instant::now();
    let result =
        h.call("get_daily_health", json!({"start_date": "2026-11-01", "end_date": "2026-11-14"})).await;
    assert_ne!(result.is_error, Some(true), "{}", all_text(&result));
    let log = h.fake.requests();
    let refused: Vec<_> = log.iter().filter(|r| r.status == 429).collect();
    assert!(!refused.is_empty(), "two in flight against a limit of one gets 429s");
    assert!(started.elapsed() >= std::time::Duration::from_secs(1), "Retry-After was honoured");
    assert_eq!(source_meta(&result)["sources"], json!(["personal_api"]));
    assert_windows_within_caps(&h);
}

#[tokio::test]
async fn sync_history_with_only_a_key_reads_the_personal_api_and_a_past_month_is_then_answered_from_the_history()
 {
    let (h, key) = Harness::with_key(false).await;
    // Called again while it goes on in the background (a loaded machine may take longer than the
    // tool waits); the call that sees it end reports it.
    let mut result = h.call("sync_history", json!({"since": "2026-08-01"})).await;
    for _ in 0..40 {
        if result.structured_content.as_ref().is_none_or(|data| data["status"] != "running") {
            break;
        }
        result = h.call("sync_history", json!({"since": "2026-08-01"})).await;
    }
    assert_ne!(result.is_error, Some(true), "{}", all_text(&result));
    assert_eq!(result.structured_content.as_ref().unwrap()["status"], "complete", "{}", all_text(&result));
    let text = all_text(&result);
    assert!(text.contains("Served by Garmin's official Personal API."), "{text}");
    assert!(text.contains("Only a Personal API key is saved"), "{text}");
    assert_eq!(source_meta(&result)["sources"], json!(["personal_api"]));
    assert!(h.fake.requests().iter().all(|r| !r.path.starts_with("/gc-api")), "no web-session path");
    assert!(personal_paths(&h).iter().any(|p| p == "/usersummary-service/v2/dailysummaries"));
    assert!(!text.contains(&key));
    // A finished past range is then answered from the history, with no Garmin request.
    h.fake.clear_requests();
    let stats = h.call("get_period_stats", json!({"period": "month", "date": "2026-10-10"})).await;
    assert_ne!(stats.is_error, Some(true), "{}", all_text(&stats));
    assert_eq!(stats.structured_content.clone().unwrap()["source"]["from"], "history");
    assert!(h.fake.requests().is_empty(), "{:?}", h.fake.requests());
}
