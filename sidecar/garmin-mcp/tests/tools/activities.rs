//! Run: `cargo test -p garmin-mcp --test tools activities::`.
//!
//! `list_activities` and `get_activity` against the fake's data set: filters, limits, splits,
//! zones, weather, the series, concurrency, failures and the budget. Expectations are computed from
//! the fake's generated activities (`h.fake.state()`), never by re-running the tools' code.

use std::collections::BTreeSet;
use std::time::Duration;

use chrono::NaiveDate;
use fake_garmin::data::activity::{Activity, Kind, Sport};
use fake_garmin::faults::{Fault, FaultRule};
use garmin_mcp::output::BUDGET_BYTES;
use serde_json::{Value, json};

use crate::support::{Harness, all_text, today};
use crate::support::{api_requests, close, km};

fn date(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
}

/// The fake's live activities, oldest first.
fn fake_activities(h: &Harness) -> Vec<Activity> {
    let data = h.fake.state().inner.data.read().unwrap();
    data.live().cloned().collect()
}

/// Live activities started on local days `start..=end`, newest first (Garmin's list order).
fn fake_between(h: &Harness, start: NaiveDate, end: NaiveDate) -> Vec<Activity> {
    let mut list: Vec<Activity> =
        fake_activities(h).into_iter().filter(|a| (start..=end).contains(&a.start_local.date())).collect();
    list.reverse();
    list
}

/// The most recent activity of `kind`.
fn latest(h: &Harness, kind: Kind) -> Activity {
    fake_activities(h).into_iter().rev().find(|a| a.kind == kind).expect("the fake has one")
}

fn rows(data: &Value) -> &Vec<Value> {
    data["activities"].as_array().expect("activities array")
}

// ---------- list_activities ----------

#[tokio::test]
async fn list_activities_defaults_to_the_last_30_days_newest_first_in_one_request() {
    let h = Harness::start().await;
    let (text, data) = h.call_ok("list_activities", json!({})).await;
    let start = date("2026-10-16");
    let expected = fake_between(&h, start, today());
    assert!(expected.len() > 20, "the fake should have more than 20 activities in 30 days");

    let listed = rows(&data);
    assert_eq!(listed.len(), 20);
    assert_eq!(data["more_available"], true);
    assert_eq!(data["start_date"], "2026-10-16");
    assert_eq!(data["end_date"], "2026-11-15");
    let ids: Vec<u64> = listed.iter().map(|r| r["activity_id"].as_u64().unwrap()).collect();
    let want: Vec<u64> = expected.iter().take(20).map(|a| a.id).collect();
    assert_eq!(ids, want, "the 20 newest, newest first");
    let meters: f64 = expected.iter().take(20).map(|a| a.stats.distance).sum();
    assert!(close(&data["totals"]["distance_km"], km(meters), 0.011), "{}", data["totals"]);
    assert_eq!(data["totals"]["count"], 20);
    assert!(text.contains("from 2026-10-16 to 2026-11-15"), "{text}");
    assert!(text.contains("more exist"), "{text}");

    let requests = api_requests(&h);
    assert_eq!(requests.len(), 1, "{requests:?}");
    let (path, query) = &requests[0];
    assert_eq!(path, "/gc-api/activitylist-service/activities/search/activities");
    for part in ["startDate=2026-10-16", "endDate=2026-11-15", "limit=21", "start=0"] {
        assert!(query.contains(part), "{query}");
    }
}

#[tokio::test]
async fn list_activities_rows_are_compact_with_the_sports_own_speed_unit() {
    let h = Harness::start().await;
    let (_, data) =
        h.call_ok("list_activities", json!({"start_date": "2026-11-02", "end_date": "2026-11-15"})).await;
    let expected = fake_between(&h, date("2026-11-02"), date("2026-11-15"));
    assert_eq!(rows(&data).len(), expected.len());
    for (row, a) in rows(&data).iter().zip(&expected) {
        assert_eq!(row["activity_id"], a.id);
        assert_eq!(row["date"], a.start_local.date().to_string());
        assert_eq!(row["name"], a.name.as_str());
        assert_eq!(row["type"], a.sport().type_key());
        assert_eq!(row["avg_hr_bpm"], a.stats.avg_hr.round() as u64);
        assert_eq!(row["training_load"], a.training_load.round() as u64);
        match a.sport() {
            Sport::Running => assert!(row["pace_per_km"].is_string(), "{row}"),
            Sport::Cycling => {
                assert!(close(&row["speed_kmh"], (a.stats.avg_speed * 36.0).round() / 10.0, 0.051))
            }
            Sport::Swimming => assert!(row["pace_per_100m"].is_string(), "{row}"),
            Sport::Strength => assert!(row.get("distance_km").is_none() && row.get("pace_per_km").is_none()),
        }
        if a.sport() != Sport::Strength {
            assert!(close(&row["distance_km"], km(a.stats.distance), 0.0051), "{row}");
        }
    }
    assert!(data["totals"]["by_type"]["running"].as_u64().unwrap() > 0);
    assert_eq!(data["more_available"], false);
}

#[tokio::test]
async fn list_activities_maps_run_to_running_and_lists_only_runs() {
    let h = Harness::start().await;
    let (text, data) = h
        .call_ok(
            "list_activities",
            json!({"activity_type": "run", "start_date": "2026-09-01", "end_date": "2026-10-31", "limit": 200}),
        )
        .await;
    let runs: Vec<Activity> = fake_between(&h, date("2026-09-01"), date("2026-10-31"))
        .into_iter()
        .filter(|a| a.sport() == Sport::Running)
        .collect();
    assert_eq!(rows(&data).len(), runs.len());
    assert!(rows(&data).iter().all(|r| r["type"] == "running" && r["pace_per_km"].is_string()));
    assert_eq!(data["activity_type"], "running");
    assert_eq!(data["more_available"], false);
    assert!(text.starts_with(&format!("{} runs from 2026-09-01 to 2026-10-31", runs.len())), "{text}");
    let (_, query) = &api_requests(&h)[0];
    assert!(query.contains("activityType=running"), "{query}");

    // Parent types include their children: `swim` → `swimming` finds the pool swims.
    let (_, swims) = h
        .call_ok(
            "list_activities",
            json!({"activity_type": "swim", "start_date": "2026-09-01", "end_date": "2026-10-31"}),
        )
        .await;
    assert!(!rows(&swims).is_empty());
    assert!(rows(&swims).iter().all(|r| r["type"] == "lap_swimming" && r["pace_per_100m"].is_string()));
}

#[tokio::test]
async fn list_activities_keyword_matches_names_case_insensitively_including_chinese() {
    let h = Harness::start().await;
    let year = (date("2025-11-16"), today());
    for keyword in ["晨跑", "easy run", "RIDE"] {
        let needle = keyword.to_lowercase();
        let expected: Vec<u64> = fake_between(&h, year.0, year.1)
            .into_iter()
            .filter(|a| a.name.to_lowercase().contains(&needle))
            .map(|a| a.id)
            .collect();
        assert!(!expected.is_empty(), "the fake has names with {keyword}");
        let (text, data) = h
            .call_ok(
                "list_activities",
                json!({"keyword": keyword, "start_date": "2025-11-16", "end_date": "2026-11-15", "limit": 200}),
            )
            .await;
        let ids: Vec<u64> = rows(&data).iter().map(|r| r["activity_id"].as_u64().unwrap()).collect();
        assert_eq!(ids, expected, "{keyword}");
        assert!(text.contains(keyword), "{text}");
    }
}

#[tokio::test]
async fn list_activities_limit_cuts_the_list_and_flags_more_available() {
    let h = Harness::start().await;
    let range = json!({"start_date": "2026-10-01", "end_date": "2026-10-31"});
    let n = fake_between(&h, date("2026-10-01"), date("2026-10-31")).len();
    let mut args = range.clone();
    args["limit"] = json!(3);
    let (text, data) = h.call_ok("list_activities", args).await;
    assert_eq!(rows(&data).len(), 3);
    assert_eq!(data["more_available"], true);
    assert!(text.contains("Only the 3 newest"), "{text}");

    let mut exact = range.clone();
    exact["limit"] = json!(n);
    let (_, data) = h.call_ok("list_activities", exact).await;
    assert_eq!(rows(&data).len(), n);
    assert_eq!(data["more_available"], false);
}

#[tokio::test]
async fn list_activities_before_the_data_set_says_nothing_was_recorded() {
    let h = Harness::start().await;
    let message =
        h.call_err("list_activities", json!({"start_date": "2020-01-01", "end_date": "2020-01-31"})).await;
    assert!(message.contains("No activities between 2020-01-01 and 2020-01-31"), "{message}");
    let message = h
        .call_err(
            "list_activities",
            json!({"activity_type": "hiking", "start_date": "2026-01-01", "end_date": "2026-11-15"}),
        )
        .await;
    assert!(message.contains("No hikes"), "{message}");
}

#[tokio::test]
async fn list_activities_refuses_bad_arguments_as_protocol_errors() {
    let h = Harness::start().await;
    let e = h.call_invalid("list_activities", json!({"start_date": "yesterday"})).await;
    assert!(e.contains("start_date must be YYYY-MM-DD"), "{e}");
    let e = h
        .call_invalid("list_activities", json!({"start_date": "2026-11-10", "end_date": "2026-11-01"}))
        .await;
    assert!(e.contains("before"), "{e}");
    for limit in [0, 201] {
        let e = h.call_invalid("list_activities", json!({"limit": limit})).await;
        assert!(e.contains("limit"), "{e}");
    }
    let e = h.call_invalid("list_activities", json!({"activity_type": "跑 fast!"})).await;
    assert!(e.contains("not an activity type"), "{e}");
    assert!(api_requests(&h).is_empty(), "nothing is sent for bad arguments");
}

#[tokio::test]
async fn list_activities_default_answer_fits_the_budget() {
    let h = Harness::start().await;
    let result = h.call("list_activities", json!({})).await;
    let size = all_text(&result).len();
    println!("list_activities default: {size} bytes");
    assert!(size <= BUDGET_BYTES, "{size} bytes");
}

#[tokio::test]
async fn list_activities_survives_an_expired_session_and_a_429() {
    let h = Harness::start().await;
    h.fake.expire_access_tokens();
    let (_, data) = h.call_ok("list_activities", json!({})).await;
    assert_eq!(rows(&data).len(), 20);

    h.fake.push_fault(FaultRule::times(Fault::RateLimited { retry_after_secs: Some(1) }, 1));
    let (_, data) = h.call_ok("list_activities", json!({"limit": 5})).await;
    assert_eq!(rows(&data).len(), 5);
    assert!(h.fake.requests().iter().any(|r| r.status == 429), "the 429 was answered and retried");
}

// ---------- get_activity ----------

fn activity_paths(id: u64) -> BTreeSet<String> {
    ["", "/splits", "/hrTimeInZones", "/weather"]
        .iter()
        .map(|s| format!("/gc-api/activity-service/activity/{id}{s}"))
        .collect()
}

#[tokio::test]
async fn get_activity_long_run_has_one_split_per_whole_km_plus_the_partial_one() {
    let h = Harness::start().await;
    let run = latest(&h, Kind::Long);
    let (text, data) = h.call_ok("get_activity", json!({"activity_id": run.id})).await;
    let whole_km = (run.stats.distance / 1000.0).floor() as usize;
    let partial = usize::from(run.stats.distance - whole_km as f64 * 1000.0 > 1.0);
    let splits = data["splits"]["rows"].as_array().unwrap();
    assert_eq!(data["splits"]["unit"], "km");
    assert_eq!(splits.len(), whole_km + partial, "{} m", run.stats.distance);
    assert!(close(&data["overview"]["distance_km"], km(run.stats.distance), 0.0051));
    assert_eq!(data["overview"]["max_hr_bpm"], run.stats.max_hr.round() as u64);
    assert_eq!(data["overview"]["aerobic_training_effect"], run.aerobic_te);

    // Fastest and slowest full km, straight from the fake's laps.
    let full: Vec<(usize, f64)> = run
        .laps
        .iter()
        .enumerate()
        .filter(|(_, l)| l.distance_m >= 999.0)
        .map(|(i, l)| (i + 1, l.duration_s))
        .collect();
    let fastest = full.iter().min_by(|a, b| a.1.total_cmp(&b.1)).unwrap().0;
    let slowest = full.iter().max_by(|a, b| a.1.total_cmp(&b.1)).unwrap().0;
    let steadiness = &data["splits"]["steadiness"];
    assert_eq!(steadiness["basis"], format!("{} full km", full.len()));
    assert!(
        steadiness["fastest"].as_str().unwrap().starts_with(&format!("km {fastest} at ")),
        "{steadiness}"
    );
    assert!(
        steadiness["slowest"].as_str().unwrap().starts_with(&format!("km {slowest} at ")),
        "{steadiness}"
    );
    let paces: Vec<f64> = full.iter().map(|(_, s)| *s).collect();
    let mean = paces.iter().sum::<f64>() / paces.len() as f64;
    let cv =
        (paces.iter().map(|p| (p - mean).powi(2)).sum::<f64>() / paces.len() as f64).sqrt() / mean * 100.0;
    assert!(close(&steadiness["variation_pct"], cv, 0.051), "{steadiness} vs {cv}");
    assert!(text.contains("variation over"), "{text}");
    assert!(data.get("missing").is_none(), "{}", data["missing"]);
}

#[tokio::test]
async fn get_activity_fans_out_the_four_independent_requests_once_each_and_concurrently() {
    let h = Harness::start().await;
    let run = latest(&h, Kind::Easy);
    h.fake.push_fault(FaultRule {
        path_contains: Some("/activity-service/activity/".into()),
        fault: Fault::Latency(Duration::from_millis(500)),
        times: Some(4),
    });
    h.call_ok("get_activity", json!({"activity_id": run.id})).await;
    let requests: Vec<_> = h.fake.requests().into_iter().filter(|r| r.path.starts_with("/gc-api")).collect();
    let paths: Vec<String> = requests.iter().map(|r| r.path.clone()).collect();
    assert_eq!(paths.len(), 4, "{paths:?}");
    assert_eq!(paths.iter().cloned().collect::<BTreeSet<_>>(), activity_paths(run.id));
    // Each waited 500 ms in the fake: sequential calls would arrive at least 500 ms apart.
    let first = requests.iter().map(|r| r.at).min().unwrap();
    let last = requests.iter().map(|r| r.at).max().unwrap();
    assert!(last - first < 350, "requests arrived {} ms apart: not concurrent", last - first);
}

#[tokio::test]
async fn get_activity_series_respects_max_points_and_keeps_the_max_hr_point() {
    let h = Harness::start().await;
    let run = latest(&h, Kind::Long);
    let (_, data) = h
        .call_ok("get_activity", json!({"activity_id": run.id, "include_series": true, "max_points": 50}))
        .await;
    let series = &data["series"];
    let points = series["points"].as_u64().unwrap() as usize;
    assert!((40..=50).contains(&points), "{points}");
    assert!(series["recorded_points"].as_u64().unwrap() > 1000);
    for column in ["t_s", "distance_km", "pace_s_per_km", "hr_bpm", "cadence", "elevation_m"] {
        assert_eq!(series[column].as_array().map(Vec::len), Some(points), "{column}");
    }
    let max_hr = series["hr_bpm"].as_array().unwrap().iter().filter_map(Value::as_u64).max().unwrap();
    assert_eq!(max_hr, run.stats.max_hr.round() as u64, "the highest heart rate survives downsampling");
    let times: Vec<u64> = series["t_s"].as_array().unwrap().iter().map(|t| t.as_u64().unwrap()).collect();
    assert!(times.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(times.first(), Some(&0));
    assert_eq!(*times.last().unwrap(), run.laps.iter().map(|l| l.duration_s).sum::<f64>().round() as u64);
    let last_km = series["distance_km"].as_array().unwrap().last().unwrap().clone();
    assert!(close(&last_km, km(run.stats.distance), 0.011));

    let details: Vec<(String, String)> =
        api_requests(&h).into_iter().filter(|(p, _)| p.ends_with("/details")).collect();
    assert_eq!(details.len(), 1);
    assert!(details[0].1.contains("maxChartSize="), "{details:?}");
}

#[tokio::test]
async fn get_activity_unknown_id_is_a_tool_error_naming_the_id() {
    let h = Harness::start().await;
    let message = h.call_err("get_activity", json!({"activity_id": 123})).await;
    assert!(message.contains("No activity 123 in your Garmin account"), "{message}");
}

#[tokio::test]
async fn get_activity_strength_and_pool_swims_answer_with_what_exists() {
    let h = Harness::start().await;
    let gym = latest(&h, Kind::Strength);
    let (text, data) = h.call_ok("get_activity", json!({"activity_id": gym.id})).await;
    assert!(data.get("splits").is_none() && data.get("weather").is_none(), "{data}");
    assert_eq!(data["hr_zones"].as_array().map(Vec::len), Some(5));
    let missing = data["missing"].to_string();
    assert!(missing.contains("weather") && missing.contains("splits"), "{missing}");
    assert!(text.contains("strength training"), "{text}");

    let swim = latest(&h, Kind::Swim);
    let (_, data) = h.call_ok("get_activity", json!({"activity_id": swim.id})).await;
    let intervals = swim.laps.iter().filter(|l| l.distance_m > 0.0).count();
    let rows = data["splits"]["rows"].as_array().unwrap();
    assert_eq!(data["splits"]["unit"], "lap");
    assert_eq!(rows.len(), intervals);
    assert!(rows.iter().all(|r| r["pace_per_100m"].is_string()));
    let rests: f64 = swim.laps.iter().filter(|l| l.distance_m == 0.0).map(|l| l.duration_s).sum();
    let shown: u64 = rows.iter().filter_map(|r| r["rest_s"].as_u64()).sum();
    assert!((shown as f64 - rests).abs() <= rows.len() as f64, "rests {shown} vs {rests}");
    assert!(data["overview"]["pace_per_100m"].is_string());
    assert!(data.get("weather").is_none());
}

#[tokio::test]
async fn get_activity_interval_session_keeps_workout_laps_and_compares_the_reps() {
    let h = Harness::start().await;
    let session = latest(&h, Kind::Intervals);
    let (_, data) = h.call_ok("get_activity", json!({"activity_id": session.id})).await;
    let reps = session.laps.iter().filter(|l| l.intensity == "ACTIVE").count();
    assert_eq!(data["splits"]["unit"], "lap");
    assert_eq!(data["splits"]["rows"].as_array().unwrap().len(), session.laps.len());
    assert_eq!(data["splits"]["rows"][0]["intensity"], "warmup");
    assert_eq!(data["splits"]["steadiness"]["basis"], format!("{reps} work laps"));
    assert_eq!(data["overview"]["training_effect_label"], "VO2max");
}

#[tokio::test]
async fn get_activity_weather_is_in_celsius_and_zones_in_minutes() {
    let h = Harness::start().await;
    let ride = latest(&h, Kind::Ride);
    let (_, data) = h.call_ok("get_activity", json!({"activity_id": ride.id})).await;
    let w = &data["weather"];
    let celsius = ((ride.weather.temp_f - 32.0) * 5.0 / 9.0 * 10.0).round() / 10.0;
    assert!(close(&w["temp_c"], celsius, 0.001), "{w}");
    assert_eq!(w["humidity_pct"], ride.weather.humidity as u64);
    assert_eq!(w["wind_kmh"], (ride.weather.wind_speed * 1.609_344).round() as u64);
    assert_eq!(w["condition"], ride.weather.kind.1);
    assert_eq!(data["splits"]["unit"], "5 km");
    assert!(data["overview"]["speed_kmh"].is_number());

    let zones = data["hr_zones"].as_array().unwrap();
    let minutes: f64 = zones.iter().map(|z| z["minutes"].as_f64().unwrap()).sum();
    let expected: f64 = ride.stats.hr_zones.iter().sum::<f64>() / 60.0;
    assert!((minutes - expected).abs() < 0.3, "{minutes} vs {expected}");
    let percent: f64 = zones.iter().map(|z| z["percent"].as_f64().unwrap()).sum();
    assert!((percent - 100.0).abs() < 0.5, "{percent}");
}

#[tokio::test]
async fn get_activity_refuses_bad_arguments_as_protocol_errors() {
    let h = Harness::start().await;
    for points in [5, 1001] {
        let e = h
            .call_invalid("get_activity", json!({"activity_id": 90000000001u64, "max_points": points}))
            .await;
        assert!(e.contains("max_points"), "{e}");
    }
    // A missing id fails rmcp's own argument decoding (a failed result naming the field).
    let result = h.call("get_activity", json!({})).await;
    assert_eq!(result.is_error, Some(true));
    assert!(all_text(&result).contains("activity_id"), "{}", all_text(&result));
    assert!(api_requests(&h).is_empty());
}

#[tokio::test]
async fn get_activity_default_answers_fit_the_budget_for_every_kind_of_session() {
    let h = Harness::start().await;
    let all = fake_activities(&h);
    let mut biggest = 0;
    for kind in [
        Kind::Race,
        Kind::Long,
        Kind::Ride,
        Kind::Swim,
        Kind::Intervals,
        Kind::Tempo,
        Kind::Easy,
        Kind::Strength,
    ] {
        // The one with the most laps of its kind makes the biggest answer.
        let Some(a) = all.iter().filter(|a| a.kind == kind).max_by_key(|a| a.laps.len()) else { continue };
        let result = h.call("get_activity", json!({"activity_id": a.id})).await;
        let size = all_text(&result).len();
        println!("get_activity {kind:?} ({} laps): {size} bytes", a.laps.len());
        assert!(size <= BUDGET_BYTES, "{kind:?}: {size} bytes");
        biggest = biggest.max(size);
    }
    println!("get_activity biggest default: {biggest} bytes");
    let long = all
        .iter()
        .filter(|a| a.kind == Kind::Long)
        .max_by(|a, b| a.stats.distance.total_cmp(&b.stats.distance));
    let result =
        h.call("get_activity", json!({"activity_id": long.unwrap().id, "include_series": true})).await;
    println!("get_activity longest run with the default series: {} bytes", all_text(&result).len());
}

#[tokio::test]
async fn get_activity_survives_an_expired_session_and_a_429() {
    let h = Harness::start().await;
    let run = latest(&h, Kind::Tempo);
    h.fake.expire_access_tokens();
    h.fake
        .push_fault(FaultRule::times(Fault::RateLimited { retry_after_secs: Some(1) }, 1).on_path("/splits"));
    let (_, data) = h.call_ok("get_activity", json!({"activity_id": run.id})).await;
    assert_eq!(data["splits"]["rows"].as_array().map(Vec::len), Some(run.laps.len()));
    assert!(data.get("missing").is_none(), "{}", data["missing"]);
    assert!(h.fake.requests().iter().any(|r| r.status == 429));
}

#[tokio::test]
async fn get_activity_answers_partially_when_one_part_keeps_failing() {
    let h = Harness::start().await;
    let run = latest(&h, Kind::Easy);
    h.fake.push_fault(FaultRule::always(Fault::ServerError(503)).on_path("/weather"));
    let (_, data) = h.call_ok("get_activity", json!({"activity_id": run.id})).await;
    assert!(data.get("weather").is_none());
    assert!(data["missing"].to_string().contains("weather"), "{}", data["missing"]);
    assert!(data["splits"]["rows"].is_array());
}

/// Every string in `value` and the text blocks are free of control, bidirectional and invisible
/// formatting characters (line breaks and tabs aside).
fn assert_clean(what: &str, result: &rmcp::model::CallToolResult) {
    let wire = serde_json::to_string(result).unwrap();
    let decoded: Value = serde_json::from_str(&wire).unwrap();
    fn walk(what: &str, value: &Value) {
        match value {
            Value::String(text) => {
                let hidden: Vec<String> = text
                    .chars()
                    .filter(|c| {
                        display::text::is_hidden_control(*c) || (c.is_control() && *c != '\n' && *c != '\t')
                    })
                    .map(|c| format!("U+{:04X}", c as u32))
                    .collect();
                assert!(hidden.is_empty(), "{what}: {hidden:?} in {text:?}");
            }
            Value::Array(items) => items.iter().for_each(|v| walk(what, v)),
            Value::Object(map) => map.values().for_each(|v| walk(what, v)),
            _ => {}
        }
    }
    walk(what, &decoded);
}

#[tokio::test]
async fn an_activity_renamed_with_bidi_and_invisible_characters_reaches_every_answer_clean() {
    let h = Harness::start().await;
    let newest_in_october =
        fake_between(&h, date("2026-10-01"), date("2026-10-31")).first().map(|a| a.id).unwrap();
    let hostile = "\u{202E}nuR gninroM\u{2066}\u{200B}\u{061C}\u{FEFF}\u{00AD}\u{1b}[2J ok\u{2069}";
    let client = garmin::Client::builder().store(h.store.clone()).build().unwrap();
    client.activities().rename(newest_in_october, hostile).await.unwrap();
    let october = json!({"start_date": "2026-10-01", "end_date": "2026-10-31"});
    let live = h.call("list_activities", october.clone()).await;
    assert!(serde_json::to_string(&live).unwrap().contains("nuR gninroM"), "the renamed activity is listed");
    assert_clean("list_activities live", &live);
    assert_clean("get_activity", &h.call("get_activity", json!({"activity_id": newest_in_october})).await);
    // From the local history too.
    loop {
        let (_, data) = h.call_ok("sync_history", json!({"since": "2026-10-01"})).await;
        if data["status"] != "running" {
            break;
        }
    }
    let stored = h.call("list_activities", october).await;
    assert_eq!(stored.structured_content.as_ref().unwrap()["source"]["from"], "history");
    assert_clean("list_activities from the history", &stored);
}

// ---------- get_activity: strength sessions ----------

/// Epley's estimated one-rep max, computed here independently: `kg × (1 + reps/30)`, the weight
/// itself for a single, over sets of 1–12 reps with a weight.
fn epley(kg: f64, reps: u32) -> Option<f64> {
    match reps {
        1 if kg > 0.0 => Some(kg),
        2..=12 if kg > 0.0 => Some(kg * (1.0 + f64::from(reps) / 30.0)),
        _ => None,
    }
}

#[tokio::test]
async fn get_activity_of_a_strength_session_logs_its_sets_per_exercise_with_volume_best_set_and_1rm() {
    let h = Harness::start().await;
    let a = latest(&h, Kind::Strength);
    h.fake.clear_requests();
    let (text, data) = h.call_ok("get_activity", json!({"activity_id": a.id})).await;
    let active: Vec<_> = a.sets.iter().filter(|s| s.set_type == "ACTIVE").collect();
    assert!(active.len() >= 6, "the fake's session has sets: {}", active.len());
    let log = &data["strength"];
    assert_eq!(log["total_sets"], active.len(), "{log}");
    assert_eq!(log["total_reps"], active.iter().map(|s| s.reps).sum::<u32>(), "{log}");
    let volume: f64 = active.iter().map(|s| s.weight_g / 1000.0 * f64::from(s.reps)).sum();
    assert!(close(&log["total_volume_kg"], volume, 0.06), "{} against {volume}", log["total_volume_kg"]);
    assert_eq!(log["sets"].as_array().unwrap().len(), active.len());

    // One row per exercise, in the order first done, with its own sets' figures.
    let key = |s: &fake_garmin::data::activity::ExerciseSet| format!("{}/{}", s.category, s.name);
    let mut keys: Vec<String> = Vec::new();
    for set in &active {
        if !keys.contains(&key(set)) {
            keys.push(key(set));
        }
    }
    let exercises = log["exercises"].as_array().unwrap();
    let listed: Vec<&str> = exercises.iter().map(|e| e["exercise_key"].as_str().unwrap()).collect();
    assert_eq!(listed, keys);
    let mut weighed = 0;
    for row in exercises {
        let sets: Vec<_> = active.iter().filter(|s| key(s) == row["exercise_key"]).collect();
        assert_eq!(row["sets"], sets.len(), "{row}");
        assert_eq!(row["reps"], sets.iter().map(|s| s.reps).sum::<u32>(), "{row}");
        let heaviest = sets
            .iter()
            .filter(|s| s.weight_g > 0.0)
            .max_by(|x, y| x.weight_g.total_cmp(&y.weight_g).then(x.reps.cmp(&y.reps)));
        let Some(heaviest) = heaviest else {
            assert!(row.get("best_set").is_none() && row.get("estimated_1rm_kg").is_none(), "{row}");
            continue;
        };
        weighed += 1;
        assert!(close(&row["best_set"]["weight_kg"], heaviest.weight_g / 1000.0, 0.051), "{row}");
        assert_eq!(row["best_set"]["reps"], heaviest.reps, "{row}");
        // Sets of more than 12 reps give no estimate.
        match sets.iter().filter_map(|s| epley(s.weight_g / 1000.0, s.reps)).reduce(f64::max) {
            Some(e1rm) => assert!(close(&row["estimated_1rm_kg"], e1rm, 0.051), "{row} against {e1rm}"),
            None => assert!(row.get("estimated_1rm_kg").is_none(), "{row}"),
        }
        assert!(!row["exercise"].as_str().unwrap().contains('_'), "in words: {row}");
    }
    assert!(weighed >= 1, "{exercises:?}");
    assert!(exercises.iter().any(|e| e["estimated_1rm_kg"].is_f64()), "{exercises:?}");
    assert!(text.contains(" Strength: ") && text.contains("kg lifted"), "{text}");

    // Read once, through the reader; a run asks no sets and answers none.
    let sets_read =
        |h: &Harness| api_requests(h).iter().filter(|(p, _)| p.ends_with("/exerciseSets")).count();
    assert_eq!(sets_read(&h), 1, "{:?}", api_requests(&h));
    h.fake.clear_requests();
    let run = latest(&h, Kind::Easy);
    let (_, run_data) = h.call_ok("get_activity", json!({"activity_id": run.id})).await;
    assert!(run_data.get("strength").is_none(), "{run_data}");
    assert_eq!(sets_read(&h), 0, "{:?}", api_requests(&h));
}
