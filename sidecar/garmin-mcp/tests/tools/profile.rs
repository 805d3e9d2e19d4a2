//! `get_profile`, `get_devices`, `get_gear`: values against the fake's data set (computed from its
//! raw state), one concurrent read per endpoint and per gear item, the no-data forms, session
//! renewal and 429s mid-call, the budget.
//!
//! Run: `cargo test -p garmin-mcp --test tools profile::`

use std::collections::{BTreeMap, BTreeSet, HashSet};

use chrono::{Datelike, Duration};
use fake_garmin::FakeConfig;
use fake_garmin::data::activity::Sport;
use fake_garmin::data::fitness::lactate_threshold;
use fake_garmin::data::kit::WATCH_ID;
use fake_garmin::data::series::{HR_ZONES, MAX_HR};
use fake_garmin::faults::{Fault, FaultRule};
use garmin_mcp::output;
use serde_json::{Value, json};

use crate::support::{Harness, all_text, today};

/// Every successful request of the call, as `path?query`; none may repeat.
fn assert_no_repeated_request(h: &Harness) {
    let mut seen = HashSet::new();
    for r in h.fake.requests().into_iter().filter(|r| r.path.starts_with("/gc-api") && r.status < 400) {
        let key = format!("{}?{}", r.path, r.query.unwrap_or_default());
        assert!(seen.insert(key.clone()), "requested twice: {key}");
    }
}

fn paths(h: &Harness) -> BTreeSet<String> {
    h.gc_api_paths().into_iter().collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

// ---------------------------------------------------------------------------------------------
// get_profile

#[tokio::test]
async fn profile_reads_each_endpoint_once_concurrently() {
    let h = Harness::start().await;
    h.call_ok("get_profile", json!({})).await;
    assert_eq!(
        paths(&h),
        set(&[
            "/gc-api/userprofile-service/socialProfile",
            "/gc-api/userprofile-service/userprofile/user-settings",
            "/gc-api/userprofile-service/userprofile/personal-information/fake-athlete-1",
            "/gc-api/biometric-service/heartRateZones",
            "/gc-api/biometric-service/biometric/latestLactateThreshold",
            "/gc-api/userstats-service/statistics/fake-athlete-1",
            "/gc-api/usersummary-service/stats/connectLifetimeTotals/fake-athlete-1",
            "/gc-api/biometric-service/stats/lactateThresholdHeartRate/range/2025-11-16/2026-11-15",
            "/gc-api/biometric-service/stats/lactateThresholdSpeed/range/2025-11-16/2026-11-15",
            "/gc-api/biometric-service/stats/functionalThresholdPower/range/2025-11-16/2026-11-15",
            "/gc-api/biometric-service/criticalSwimSpeed/latest/2026-11-15",
        ])
    );
    assert_eq!(h.gc_api_paths().len(), 11);
    assert_no_repeated_request(&h);
}

#[tokio::test]
async fn profile_values_match_the_fakes_account() {
    let h = Harness::start().await;
    let (text, p) = h.call_ok("get_profile", json!({})).await;
    let d = h.fake.state().inner.data.read().unwrap();

    assert_eq!(p["display_name"], d.display_name.as_str());
    assert_eq!(p["full_name"], d.full_name.as_str());
    assert_eq!(
        (p["gender"].as_str(), p["age"].as_i64(), p["birth_year"].as_i64()),
        (Some("male"), Some(36), Some(1990))
    );
    assert_eq!(p["height_cm"].as_f64(), Some(178.0));
    let grams = d
        .days
        .iter()
        .filter(|x| x.date <= today())
        .filter_map(|x| x.weight.as_ref())
        .next_back()
        .unwrap()
        .grams;
    assert_eq!(p["weight_kg"].as_f64(), Some((grams / 100.0).round() / 10.0));
    let vo2 = d.day(today()).unwrap().fitness.vo2max;
    assert_eq!(p["vo2max_running"].as_f64(), Some(vo2.round()));
    assert_eq!(p["vo2max_cycling"].as_f64(), Some((vo2 - 3.2).round()));
    let (lt_hr, lt_speed) = lactate_threshold(vo2);
    assert_eq!(p["lactate_threshold_hr_bpm"].as_f64(), Some(lt_hr.round()));
    // Garmin stores the speed ÷ 10; the pace shown is the real one (rounded as the fake stores it).
    let stored = (lt_speed / 10.0 * 1e6).round() / 1e6;
    assert_eq!(p["lactate_threshold_pace_per_km"].as_str(), display::pace_per_km(stored * 10.0).as_deref());
    assert_eq!(p["ftp_watts"].as_f64(), Some(240.0));
    assert_eq!(p["measurement_system"], "metric");

    assert_eq!(p["max_hr_bpm"].as_f64(), Some(MAX_HR));
    assert_eq!(p["resting_hr_bpm"].as_f64(), Some(48.0));
    let zones = p["hr_zones"].as_array().unwrap();
    let sports: Vec<&str> = zones.iter().map(|z| z["sport"].as_str().unwrap()).collect();
    assert_eq!(sports, ["default", "running", "cycling"]);
    for z in zones {
        assert_eq!(z["zone_floors_bpm"], json!(HR_ZONES));
    }

    let live: Vec<_> = d.live().collect();
    let total_m: f64 = live.iter().map(|a| a.stats.distance).sum();
    let total_s: f64 = live.iter().map(|a| a.stats.duration).sum();
    assert_eq!(p["lifetime"]["activities"], live.len());
    assert_eq!(p["lifetime"]["distance_km"].as_f64(), Some(display::km((total_m * 100.0).round() / 100.0)));
    assert_eq!(p["lifetime"]["duration"], display::hours_minutes(total_s));

    let mut per_sport: BTreeMap<String, (usize, f64)> = BTreeMap::new();
    for a in &live {
        let e = per_sport.entry(a.sport().type_key().replace('_', " ")).or_default();
        e.0 += 1;
        e.1 += a.stats.distance;
    }
    let got: BTreeMap<String, (usize, f64)> = p["sports"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let n = s["activities"].as_u64().unwrap() as usize;
            (s["sport"].as_str().unwrap().to_owned(), (n, s["distance_km"].as_f64().unwrap()))
        })
        .collect();
    let want: BTreeMap<String, (usize, f64)> =
        per_sport.into_iter().map(|(k, (n, m))| (k, (n, display::km((m * 100.0).round() / 100.0)))).collect();
    assert_eq!(got, want);

    assert!(text.starts_with(&format!("{} ({})", d.full_name, d.display_name)), "{text}");
    assert!(text.contains(&format!("Lifetime: {} activities", live.len())), "{text}");
    assert!(text.contains("FTP 240 W"), "{text}");
}

#[tokio::test]
async fn profile_survives_an_expired_session_and_a_429_mid_fan_out() {
    let h = Harness::start().await;
    h.fake.expire_access_tokens();
    h.fake.push_fault(
        FaultRule::times(Fault::RateLimited { retry_after_secs: Some(1) }, 1).on_path("heartRateZones"),
    );
    h.fake.push_fault(FaultRule::times(Fault::ExpireSession, 1).on_path("connectLifetimeTotals"));
    let (_, p) = h.call_ok("get_profile", json!({})).await;
    assert_eq!(p["hr_zones"].as_array().unwrap().len(), 3);
    assert!(p["lifetime"]["activities"].as_u64().unwrap() > 0);
    assert!(h.fake.requests().iter().any(|r| r.status == 429));
}

// ---------------------------------------------------------------------------------------------
// get_devices

#[tokio::test]
async fn devices_show_firmware_serials_primary_and_last_sync_from_the_fake() {
    let h = Harness::start().await;
    let (text, data) = h.call_ok("get_devices", json!({})).await;
    assert_eq!(
        paths(&h),
        set(&[
            "/gc-api/device-service/deviceregistration/devices",
            "/gc-api/device-service/deviceservice/mylastused"
        ])
    );
    assert_no_repeated_request(&h);

    let d = h.fake.state().inner.data.read().unwrap();
    let devices = data["devices"].as_array().unwrap();
    assert_eq!(devices.len(), d.devices.len());
    assert_eq!(devices[0]["device_id"], WATCH_ID, "primary first");
    for want in &d.devices {
        let got = devices.iter().find(|x| x["device_id"] == want.id).unwrap();
        assert_eq!(got["model"], want.product);
        assert_eq!(got["firmware"], want.firmware);
        assert_eq!(got["serial_number"], want.serial);
        assert_eq!(got["primary"], want.primary);
        assert_eq!(got["last_used"], want.id == WATCH_ID);
    }
    let upload = d.live().last().unwrap().end_gmt() + chrono::Duration::seconds(420);
    let sync = upload.format("%Y-%m-%d %H:%M UTC").to_string();
    assert_eq!(devices[0]["last_sync_utc"], sync.as_str());
    assert!(devices[1].get("last_sync_utc").is_none(), "only the last used device has a known sync");
    let watch_caps: Vec<&str> =
        devices[0]["capabilities"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert!(watch_caps.contains(&"workouts") && watch_caps.contains(&"wifi"), "{watch_caps:?}");
    assert_eq!(devices[1]["capabilities"], json!(["weigh-ins"]));
    assert!(text.starts_with("2 devices: Forerunner 965 (primary, last synced"), "{text}");
    assert!(text.contains(&sync), "{text}");
}

#[tokio::test]
async fn an_account_without_devices_says_so_as_a_tool_error() {
    let h = Harness::start().await;
    h.fake.state().inner.data.write().unwrap().devices.clear();
    let message = h.call_err("get_devices", json!({})).await;
    assert_eq!(message, "No devices are registered on your Garmin account.");
}

// ---------------------------------------------------------------------------------------------
// get_gear

/// `uuid → (name, status, metres, activities, limit m)` from the fake's activities.
fn gear_usage(h: &Harness) -> BTreeMap<String, (String, String, f64, usize, f64)> {
    let d = h.fake.state().inner.data.read().unwrap();
    d.gear
        .iter()
        .map(|g| {
            let used: Vec<_> = d.live().filter(|a| a.gear_uuid.as_deref() == Some(g.uuid.as_str())).collect();
            let meters = (used.iter().map(|a| a.stats.distance).sum::<f64>() * 100.0).round() / 100.0;
            (
                g.uuid.clone(),
                (g.display_name.to_owned(), g.status.to_owned(), meters, used.len(), g.maximum_m),
            )
        })
        .collect()
}

#[tokio::test]
async fn gear_distances_limits_and_uses_match_the_activities_that_used_it() {
    let h = Harness::start().await;
    let (_, data) = h.call_ok("get_gear", json!({})).await;
    let usage = gear_usage(&h);
    let gear = data["gear"].as_array().unwrap();
    let active: Vec<_> = usage.iter().filter(|(_, u)| u.1 == "active").collect();
    assert_eq!(gear.len(), active.len(), "retired gear is left out by default");
    assert_eq!(data["retired_not_listed"], usage.len() - active.len());
    for (uuid, (name, _, meters, uses, limit)) in active {
        let g = gear.iter().find(|g| g["gear_uuid"] == uuid.as_str()).unwrap();
        assert_eq!(g["name"], name.as_str());
        assert_eq!(g["status"], "active");
        assert_eq!(g["distance_km"].as_f64(), Some(display::km(*meters)));
        assert_eq!(g["uses"].as_u64(), Some(*uses as u64));
        if *limit > 0.0 {
            assert_eq!(g["limit_km"].as_f64(), Some(display::km(*limit)));
            assert_eq!(g["remaining_km"].as_f64(), Some(display::km(limit - meters)));
        } else {
            assert!(g.get("limit_km").is_none() && g.get("note").is_none());
        }
    }
}

#[tokio::test]
async fn gear_past_ninety_percent_of_its_limit_is_flagged_replace_soon() {
    let h = Harness::start().await;
    let (text, data) = h.call_ok("get_gear", json!({})).await;
    let usage = gear_usage(&h);
    let flagged: BTreeSet<String> = usage
        .values()
        .filter(|u| u.1 == "active" && u.4 > 0.0 && u.2 * 10.0 >= u.4 * 9.0)
        .map(|u| u.0.clone())
        .collect();
    assert!(!flagged.is_empty(), "the fake's shoes are worn");
    let notes: Vec<&str> =
        data["replace_soon"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    let named: BTreeSet<String> = notes.iter().map(|n| n.split(':').next().unwrap().to_owned()).collect();
    assert_eq!(named, flagged);
    for note in &notes {
        assert!(note.ends_with("replace soon") || note.ends_with("past its limit, replace"), "{note}");
        assert!(text.contains(note), "{text}");
    }
    // Below the threshold: no note.
    for g in data["gear"].as_array().unwrap() {
        let name = g["name"].as_str().unwrap();
        assert_eq!(g.get("note").is_some(), flagged.contains(name), "{g}");
    }
}

#[tokio::test]
async fn gear_stats_are_read_once_per_item_and_retired_gear_only_on_request() {
    let h = Harness::start().await;
    let usage = gear_usage(&h);
    h.call_ok("get_gear", json!({})).await;
    let stats: Vec<String> = h.gc_api_paths().into_iter().filter(|p| p.contains("/gear/stats/")).collect();
    let active: BTreeSet<String> =
        usage.iter().filter(|(_, u)| u.1 == "active").map(|(k, _)| k.clone()).collect();
    assert_eq!(stats.len(), active.len());
    assert_eq!(
        stats.iter().map(|p| p.rsplit('/').next().unwrap().to_owned()).collect::<BTreeSet<_>>(),
        active
    );
    assert_no_repeated_request(&h);

    h.fake.clear_requests();
    let (_, data) = h.call_ok("get_gear", json!({"include_retired": true})).await;
    assert_eq!(h.gc_api_paths().iter().filter(|p| p.contains("/gear/stats/")).count(), usage.len());
    assert_no_repeated_request(&h);
    let retired = data["gear"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(retired["status"], "retired", "active gear first");
    assert!(retired.get("retired_on").is_some() && retired.get("note").is_none());
    assert_eq!(data["retired_not_listed"], 0);
}

#[tokio::test]
async fn gear_survives_an_expired_session_and_a_429_on_one_item() {
    let h = Harness::start().await;
    h.fake.expire_access_tokens();
    h.fake.push_fault(
        FaultRule::times(Fault::RateLimited { retry_after_secs: Some(1) }, 1).on_path("/gear/stats/"),
    );
    let (_, data) = h.call_ok("get_gear", json!({})).await;
    assert!(data["gear"].as_array().unwrap().iter().all(|g| g.get("uses").is_some()));
    assert!(h.fake.requests().iter().any(|r| r.status == 429));
}

#[tokio::test]
async fn only_retired_gear_is_a_tool_error_pointing_at_include_retired() {
    let h = Harness::start().await;
    for g in &mut h.fake.state().inner.data.write().unwrap().gear {
        g.status = "retired";
    }
    let message = h.call_err("get_gear", json!({})).await;
    assert!(message.contains("No active gear") && message.contains("include_retired"), "{message}");
    let (_, data) = h.call_ok("get_gear", json!({"include_retired": true})).await;
    assert_eq!(data["gear"].as_array().unwrap().len(), 4);
    h.fake.state().inner.data.write().unwrap().gear.clear();
    let message = h.call_err("get_gear", json!({})).await;
    assert!(message.starts_with("No gear"), "{message}");
}

#[tokio::test]
async fn profile_devices_and_gear_answers_fit_the_budget() {
    let h = Harness::start().await;
    for (tool, args) in [
        ("get_profile", json!({})),
        ("get_devices", json!({})),
        ("get_gear", json!({})),
        ("get_gear", json!({"include_retired": true})),
    ] {
        let size = all_text(&h.call(tool, args).await).len();
        assert!(size <= output::BUDGET_BYTES, "{tool}: {size} bytes");
        eprintln!("{tool}: {size} bytes");
    }
}

#[tokio::test]
async fn a_session_that_does_not_know_the_account_learns_it_once_per_call() {
    for tool in ["get_profile", "get_gear"] {
        let h = Harness::start().await;
        let mut session = h.store.load().unwrap().unwrap();
        session.display_name = None;
        session.profile_id = None;
        h.store.save(&session).unwrap();
        let (_, data) = h.call_ok(tool, json!({})).await;
        assert!(!data.as_object().unwrap().is_empty());
        let social = h.gc_api_paths().iter().filter(|p| p.ends_with("/socialProfile")).count();
        assert_eq!(social, 1, "{tool}: {:?}", h.gc_api_paths());
        assert_no_repeated_request(&h);
        if tool == "get_profile" {
            assert_eq!(data["display_name"], "fake-athlete-1");
            assert_eq!(data["full_name"], "Alex Example");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Threshold history and Critical Swim Speed (#29 item 3).

#[tokio::test]
async fn lactate_threshold_and_ftp_history_and_critical_swim_speed_each_come_with_their_day() {
    let h = Harness::start().await;
    let (text, out) = h.call_ok("get_profile", json!({})).await;
    let t = &out["thresholds"];
    // Lactate threshold: the fake re-detects it each Sunday from that day's VO2max; the history
    // lists each change with its day, oldest first.
    let points = t["lactate_threshold"].as_array().unwrap();
    assert!(points.len() > 5, "{t}");
    let d = h.fake.state().inner.data.read().unwrap();
    for p in points {
        let day: chrono::NaiveDate = p["date"].as_str().unwrap().parse().unwrap();
        assert_eq!(day.weekday(), chrono::Weekday::Sun, "{p}");
        assert!(day > today() - Duration::days(365) && day <= today(), "{p}");
        let (hr, _) = lactate_threshold(d.day(day).unwrap().fitness.vo2max);
        assert_eq!(p["heart_rate_bpm"], hr.round(), "{p}");
        assert!(p["pace_per_km"].is_string(), "{p}");
    }
    let dates: Vec<&str> = points.iter().map(|p| p["date"].as_str().unwrap()).collect();
    assert!(dates.windows(2).all(|w| w[0] < w[1]), "{dates:?}");
    // FTP: 240 W today, 2 W less every four weeks before.
    let ftp = t["ftp"].as_array().unwrap();
    let last = ftp.last().unwrap();
    assert_eq!(last["date"], today().to_string());
    assert_eq!(last["watts"], 240.0);
    for p in ftp {
        let day: chrono::NaiveDate = p["date"].as_str().unwrap().parse().unwrap();
        let expected = (240 - 2 * ((today() - day).num_days() / 28)).max(200);
        assert_eq!(p["watts"], expected as f64, "{p}");
    }
    // Critical Swim Speed from the last pool swim, as pace per 100 m.
    let swim =
        d.live().rev().find(|a| a.sport() == Sport::Swimming && a.start_local.date() <= today()).unwrap();
    let css = &t["critical_swim_speed"];
    assert_eq!(css["date"], swim.start_local.date().to_string());
    let speed = css["speed_m_s"].as_f64().unwrap();
    assert!((1.18..=1.25).contains(&speed), "{css}");
    assert_eq!(css["pace_per_100m"], display::duration(100.0 / speed));
    drop(d);
    assert!(text.contains("FTP") && text.contains("→ 240 W"), "{text}");
    assert!(text.contains("Critical Swim Speed"), "{text}");
}

#[tokio::test]
async fn an_older_watch_has_no_critical_swim_speed_and_the_profile_still_answers() {
    let h = Harness::with_fake(FakeConfig::older_watch_account(today())).await;
    let (_, out) = h.call_ok("get_profile", json!({})).await;
    assert!(out["thresholds"].get("critical_swim_speed").is_none(), "{out}");
    assert!(out.get("missing").is_none(), "a 404 is an answer, not a failure: {out}");
    assert!(!out["thresholds"]["ftp"].as_array().unwrap().is_empty());
}
