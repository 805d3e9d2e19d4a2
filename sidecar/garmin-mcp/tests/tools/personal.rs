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
