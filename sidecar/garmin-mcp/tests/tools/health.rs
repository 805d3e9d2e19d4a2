//! Run: `cargo test -p garmin-mcp --test tools health::`.
//!
//! `get_daily_health`: every part of a day against the fake's data set (read straight from the
//! fake's generated days, not through the tool), nights without HRV, days before the data set,
//! the range form and its length limit, `detail=full`, budgets, one request per endpoint, and
//! answers that survive an expired session or a 429; Health Status of a day and of a range (live,
//! from a synced history, on an older watch).

use std::collections::BTreeSet;

use chrono::{Datelike, Duration, NaiveDate};
use fake_garmin::FakeConfig;
use fake_garmin::data::Dataset;
use fake_garmin::faults::{Fault, FaultRule};
use garmin_mcp::output::BUDGET_BYTES;
use serde_json::json;

use crate::support::{Harness, all_text, today};

fn data(h: &Harness) -> std::sync::RwLockReadGuard<'_, Dataset> {
    h.fake.state().inner.data.read().unwrap()
}

/// `h:mm` from seconds, written out independently of the tool.
fn hm(seconds: i64) -> String {
    let minutes = (seconds as f64 / 60.0).round() as i64;
    format!("{}:{:02}", minutes / 60, minutes % 60)
}

/// The latest day (going back from today) that satisfies `pick`.
fn find_day(h: &Harness, pick: impl Fn(&fake_garmin::data::health::Day) -> bool) -> NaiveDate {
    let d = data(h);
    d.days.iter().rev().skip(1).find(|day| pick(day)).map(|day| day.date).expect("a matching day")
}

/// No path+query twice in the request log.
fn assert_no_duplicates(h: &Harness) {
    let mut seen = BTreeSet::new();
    for r in h.fake.requests().into_iter().filter(|r| r.path.starts_with("/gc-api")) {
        let key = format!("{} {}?{}", r.method, r.path, r.query.unwrap_or_default());
        assert!(seen.insert(key.clone()), "requested twice: {key}");
    }
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

#[tokio::test]
async fn every_part_of_a_day_matches_the_fakes_numbers() {
    let h = Harness::start().await;
    let date = find_day(&h, |d| d.hrv.is_some() && d.hydration_ml.is_some() && d.weight.is_none());
    let (text, out) = h.call_ok("get_daily_health", json!({"date": date.to_string()})).await;
    let d = data(&h);
    let day = d.day(date).unwrap();
    let got = &out["day"];
    assert_eq!(out["date"], date.to_string());

    // Steps, distance, floors, calories.
    assert_eq!(got["activity"]["steps"], day.steps);
    assert_eq!(got["activity"]["step_goal"], day.step_goal);
    assert_eq!(got["activity"]["distance_km"], (day.distance_m.round() / 10.0).round() / 100.0);
    assert_eq!(got["activity"]["floors_climbed"], day.floors_up as u64);
    assert_eq!(got["activity"]["calories_kcal"], (day.bmr_kcal + day.active_kcal).round() as u64);
    // Heart rate.
    assert_eq!(got["heart_rate"]["resting_bpm"], day.resting_hr.round() as u64);
    assert_eq!(got["heart_rate"]["min_bpm"], day.min_hr.round() as u64);
    assert_eq!(got["heart_rate"]["max_bpm"], day.max_hr.round() as u64);
    // Sleep: local times, stages as h:mm, score and its qualifier.
    let s = &day.sleep;
    let local = |t| d.zone.to_local(t).format("%H:%M").to_string();
    assert_eq!(got["sleep"]["start"], local(s.start_gmt));
    assert_eq!(got["sleep"]["end"], local(s.end_gmt));
    assert_eq!(got["sleep"]["total"], hm(s.deep_s + s.light_s + s.rem_s));
    assert_eq!(got["sleep"]["deep"], hm(s.deep_s));
    assert_eq!(got["sleep"]["light"], hm(s.light_s));
    assert_eq!(got["sleep"]["rem"], hm(s.rem_s));
    assert_eq!(got["sleep"]["awake"], hm(s.awake_s));
    assert_eq!(got["sleep"]["score"], s.score);
    let quality = match s.score {
        90.. => "excellent",
        80..=89 => "good",
        60..=79 => "fair",
        _ => "poor",
    };
    assert_eq!(got["sleep"]["quality"], quality);
    assert!(got["sleep"].get("stages").is_none(), "the timeline is for detail=full");
    // Stress: average, peak and minutes per level.
    let st = &day.stress;
    assert_eq!(got["stress"]["avg"], st.avg.round() as u64);
    assert_eq!(got["stress"]["max"], st.max.round() as u64);
    assert_eq!(got["stress"]["rest_min"], st.rest_s / 60);
    assert_eq!(got["stress"]["low_min"], st.low_s / 60);
    assert_eq!(got["stress"]["medium_min"], st.medium_s / 60);
    assert_eq!(got["stress"]["high_min"], st.high_s / 60);
    assert!(got["stress"].get("hourly").is_none());
    // Body Battery.
    let b = &day.battery;
    assert_eq!(got["body_battery"]["charged"], b.charged.round() as u64);
    assert_eq!(got["body_battery"]["drained"], b.drained.round() as u64);
    assert_eq!(got["body_battery"]["highest"], b.high.round() as u64);
    assert_eq!(got["body_battery"]["lowest"], b.low.round() as u64);
    assert_eq!(got["body_battery"]["at_wake"], b.at_wake.round() as u64);
    // Respiration and SpO2.
    assert_eq!(got["respiration"]["avg_waking_brpm"], day.respiration_avg);
    assert_eq!(got["respiration"]["avg_sleeping_brpm"], s.avg_respiration);
    assert_eq!(got["spo2"]["avg_pct"], s.avg_spo2);
    assert_eq!(got["spo2"]["lowest_pct"], s.lowest_spo2);
    // HRV.
    let hrv = day.hrv.as_ref().unwrap();
    assert_eq!(got["hrv"]["last_night_avg_ms"], hrv.last_night_avg);
    assert_eq!(got["hrv"]["weekly_avg_ms"], hrv.weekly_avg);
    assert_eq!(got["hrv"]["status"], hrv.status.to_lowercase());
    assert!(got["hrv"]["baseline_low_ms"].is_number() && got["hrv"]["baseline_high_ms"].is_number());
    // Intensity minutes: the day's and the week so far (Monday on, vigorous counted twice).
    assert_eq!(got["intensity_minutes"]["moderate"], day.moderate_min);
    assert_eq!(got["intensity_minutes"]["vigorous"], day.vigorous_min);
    let monday = date - Duration::days(i64::from(date.weekday().num_days_from_monday()));
    let week: u32 = (0..=(date - monday).num_days())
        .filter_map(|i| d.day(monday + Duration::days(i)))
        .map(|x| x.moderate_min + 2 * x.vigorous_min)
        .sum();
    assert_eq!(got["intensity_minutes"]["week_total"], week);
    assert_eq!(got["intensity_minutes"]["week_goal"], 150);
    // Weight: the latest weigh-in before the day (none that day), within 30 days.
    let (weigh_day, w) = (1..=30)
        .map(|i| date - Duration::days(i))
        .find_map(|x| d.day(x).and_then(|r| r.weight.as_ref()).map(|w| (x, w)))
        .unwrap();
    assert_eq!(got["body_composition"]["date"], weigh_day.to_string());
    assert_eq!(got["body_composition"]["weight_kg"], round1(w.grams / 1000.0));
    assert_eq!(got["body_composition"]["bmi"], w.bmi);
    assert_eq!(got["body_composition"]["body_fat_pct"], w.body_fat);
    // Hydration; blood pressure is never measured in the data set.
    assert_eq!(got["hydration"]["intake_ml"], day.hydration_ml.unwrap());
    assert_eq!(got["hydration"]["goal_ml"], day.hydration_goal_ml);
    assert!(got.get("blood_pressure").is_none());
    assert_eq!(out["missing"], json!(["blood_pressure"]));

    let asleep_min = ((s.deep_s + s.light_s + s.rem_s) as f64 / 60.0).round() as i64;
    let spoken = match (asleep_min / 60, asleep_min % 60) {
        (h, 0) => format!("{h} h"),
        (h, m) => format!("{h} h {m} min"),
    };
    assert!(text.contains(&format!("slept {spoken}")), "{text}");
    assert!(text.contains(&format!("sleep score {}", s.score)), "{text}");
    assert!(text.contains("Not recorded: blood pressure."), "{text}");
}

#[tokio::test]
async fn a_night_without_hrv_is_reported_missing_and_the_rest_still_answers() {
    let h = Harness::start().await;
    let date = find_day(&h, |d| d.hrv.is_none());
    let (text, out) = h.call_ok("get_daily_health", json!({"date": date.to_string()})).await;
    assert!(out["day"].get("hrv").is_none(), "{out}");
    assert!(out["missing"].as_array().unwrap().contains(&json!("hrv")), "{out}");
    assert!(text.contains(&format!("No HRV reading for {date}.")), "{text}");
    let steps = data(&h).day(date).unwrap().steps;
    assert_eq!(out["day"]["activity"]["steps"], steps);
    assert!(out["day"]["sleep"]["score"].is_number());
}

#[tokio::test]
async fn a_date_before_the_data_set_is_a_no_data_tool_error() {
    let h = Harness::start().await;
    let message = h.call_err("get_daily_health", json!({"date": "2020-01-01"})).await;
    assert_eq!(message, "No health data recorded for 2020-01-01");
    let message =
        h.call_err("get_daily_health", json!({"start_date": "2020-01-01", "end_date": "2020-01-07"})).await;
    assert!(message.starts_with("No health data recorded"), "{message}");
}

#[tokio::test]
async fn the_default_day_is_today_and_uses_each_endpoint_once() {
    let h = Harness::start().await;
    let (_, out) = h.call_ok("get_daily_health", json!({})).await;
    assert_eq!(out["date"], today().to_string());
    assert_no_duplicates(&h);
    let paths = h.gc_api_paths();
    assert_eq!(paths.len(), 9, "{paths:#?}");
    for part in [
        "/healthstatus-service/healthstatus/summary/2026-11-15",
        "/usersummary-service/usersummary/daily/",
        "/wellness-service/wellness/dailySleepData/",
        "/hrv-service/hrv/2026-11-15",
        "/wellness-service/wellness/daily/im/",
        "/weight-service/weight/range/2026-10-16/2026-11-15",
        "/bloodpressure-service/bloodpressure/range/",
        "/usersummary-service/usersummary/hydration/daily/",
        "/usersummary-service/stats/stress/daily/",
    ] {
        assert!(paths.iter().any(|p| p.contains(part)), "{part} not requested: {paths:#?}");
    }
}

#[tokio::test]
async fn detail_full_adds_a_compact_stage_timeline_and_an_hourly_stress_summary() {
    let h = Harness::start().await;
    let date = today() - Duration::days(3);
    let (_, out) = h.call_ok("get_daily_health", json!({"date": date.to_string(), "detail": "full"})).await;
    let (stages, night_min, stage_count, stress_max, stress_avg) = {
        let d = data(&h);
        let day = d.day(date).unwrap();
        let night = (day.sleep.end_gmt - day.sleep.start_gmt).num_minutes();
        (day.sleep.stages.len(), night, day.sleep.stages.len(), day.stress.max, day.stress.avg)
    };
    let timeline = out["day"]["sleep"]["stages"].as_array().unwrap();
    assert!(
        !timeline.is_empty() && timeline.len() <= 40.min(stages),
        "{} segments of {stages}",
        timeline.len()
    );
    let total: i64 = timeline.iter().map(|s| s["min"].as_i64().unwrap()).sum();
    assert!(
        (total - night_min).abs() <= timeline.len() as i64,
        "{total} vs {night_min} ({stage_count} stages)"
    );
    for pair in timeline.windows(2) {
        assert_ne!(pair[0]["stage"], pair[1]["stage"], "equal neighbours are merged");
    }
    assert_eq!(timeline[0]["start"], out["day"]["sleep"]["start"]);
    let hourly = out["day"]["stress"]["hourly"].as_array().unwrap();
    assert!(!hourly.is_empty() && hourly.len() <= 24, "{}", hourly.len());
    let peak = hourly.iter().filter_map(|x| x["max"].as_u64()).max().unwrap();
    assert_eq!(peak, stress_max.round() as u64, "the hourly peaks include the day's peak");
    let avgs: Vec<u64> = hourly.iter().filter_map(|x| x["avg"].as_u64()).collect();
    assert!(avgs.iter().any(|a| (*a as f64) >= stress_avg), "{avgs:?}");
    assert!(hourly.iter().any(|x| x["body_battery"].is_number()));
    assert!(h.gc_api_paths().iter().any(|p| p.ends_with(&format!("/dailyStress/{date}"))));
    assert_no_duplicates(&h);
}

#[tokio::test]
async fn a_range_gives_one_row_per_day_from_range_endpoints_and_averages() {
    let h = Harness::start().await;
    let (start, end) = (today() - Duration::days(6), today());
    let (text, out) = h
        .call_ok("get_daily_health", json!({"start_date": start.to_string(), "end_date": end.to_string()}))
        .await;
    let rows = out["days"].as_array().unwrap();
    assert_eq!(rows.len(), 7);
    let d = data(&h);
    let mut steps_sum = 0.0;
    for (i, row) in rows.iter().enumerate() {
        let date = start + Duration::days(i as i64);
        let day = d.day(date).unwrap();
        assert_eq!(row["date"], date.to_string());
        assert_eq!(row["steps"], day.steps);
        assert_eq!(row["resting_hr_bpm"], day.resting_hr.round() as u64);
        assert_eq!(row["sleep"], hm(day.sleep.deep_s + day.sleep.light_s + day.sleep.rem_s));
        assert_eq!(row["sleep_score"], day.sleep.score);
        assert_eq!(row["stress_avg"], day.stress.avg.round() as u64);
        assert_eq!(row["body_battery_high"], day.battery.high.round() as u64);
        assert_eq!(row["body_battery_low"], day.battery.low.round() as u64);
        match &day.hrv {
            Some(hrv) => assert_eq!(row["hrv_ms"], hrv.last_night_avg),
            None => assert!(row.get("hrv_ms").is_none()),
        }
        steps_sum += f64::from(day.steps);
    }
    assert_eq!(out["averages"]["steps"], (steps_sum / 7.0).round() as u64);
    assert!(text.contains("7 days"), "{text}");
    drop(d);
    // One range request per endpoint, no per-day loops.
    let paths = h.gc_api_paths();
    assert_eq!(paths.len(), 8, "{paths:#?}");
    assert!(
        paths.iter().all(|p| !p.contains("dailySleepData") && !p.contains("usersummary/daily")),
        "{paths:#?}"
    );
    for part in [
        "/stats/steps/daily/",
        "/userstats-service/wellness/daily/",
        "/sleep-service/stats/sleep/daily/",
        "/stats/stress/daily/",
        "/bodyBattery/reports/daily",
        "/hrv-service/hrv/daily/",
        "/weight-service/weight/range/",
        "/healthstatus-service/healthstatus/summary/",
    ] {
        assert!(paths.iter().any(|p| p.contains(part)), "{part} not requested: {paths:#?}");
    }
    assert_no_duplicates(&h);
}

#[tokio::test]
async fn a_range_names_the_nights_without_hrv() {
    let h = Harness::start().await;
    let date = find_day(&h, |d| d.hrv.is_none());
    let (start, end) = (date - Duration::days(3), date + Duration::days(1));
    let (text, out) = h
        .call_ok("get_daily_health", json!({"start_date": start.to_string(), "end_date": end.to_string()}))
        .await;
    let hrv_gap =
        out["missing"].as_array().unwrap().iter().find(|m| m.as_str().unwrap().starts_with("hrv:")).unwrap();
    assert!(hrv_gap.as_str().unwrap().contains(&date.to_string()), "{hrv_gap}");
    assert!(text.contains(&date.to_string()), "{text}");
}

#[tokio::test]
async fn ranges_over_fourteen_days_and_bad_dates_are_protocol_errors() {
    let h = Harness::start().await;
    let message = h
        .call_invalid("get_daily_health", json!({"start_date": "2026-11-01", "end_date": "2026-11-15"}))
        .await;
    assert!(
        message.contains("15 days") && message.contains("at most 14") && message.contains("shorter range"),
        "{message}"
    );
    let message = h.call_invalid("get_daily_health", json!({"date": "yesterday"})).await;
    assert!(message.contains("YYYY-MM-DD") && message.contains("yesterday"), "{message}");
    let message = h
        .call_invalid("get_daily_health", json!({"start_date": "2026-11-10", "end_date": "2026-11-01"}))
        .await;
    assert!(message.contains("before"), "{message}");
    let message =
        h.call_invalid("get_daily_health", json!({"date": "2026-11-10", "start_date": "2026-11-01"})).await;
    assert!(message.contains("either"), "{message}");
    let message = h.call_invalid("get_daily_health", json!({"date": "2026-11-16"})).await;
    assert!(message.contains("future"), "{message}");
    assert!(h.gc_api_paths().is_empty(), "nothing is sent for bad arguments");
    // Fourteen days is fine.
    h.call_ok("get_daily_health", json!({"start_date": "2026-11-02", "end_date": "2026-11-15"})).await;
}

#[tokio::test]
async fn answers_stay_within_the_budget() {
    let h = Harness::start().await;
    for args in [
        json!({}),
        json!({"date": (today() - Duration::days(2)).to_string(), "detail": "full"}),
        json!({"start_date": "2026-11-02", "end_date": "2026-11-15"}),
    ] {
        let result = h.call("get_daily_health", args.clone()).await;
        assert_ne!(result.is_error, Some(true));
        let size = all_text(&result).len();
        println!("get_daily_health {args}: {size} bytes");
        assert!(size <= BUDGET_BYTES, "{args}: {size} bytes");
    }
}

#[tokio::test]
async fn an_expired_session_mid_call_is_renewed_and_the_day_still_answers() {
    let h = Harness::start().await;
    let date = NaiveDate::from_ymd_opt(2026, 11, 14).unwrap();
    let has_hrv = data(&h).day(date).unwrap().hrv.is_some();
    // A 401 on one request in the middle of the fan-out: renewed once, retried, answered.
    h.fake.push_fault(FaultRule::times(Fault::ExpireSession, 1).on_path("hrv-service"));
    let (_, out) = h.call_ok("get_daily_health", json!({"date": date.to_string()})).await;
    assert!(out["day"]["sleep"]["score"].is_number(), "{out}");
    assert_eq!(out["day"].get("hrv").is_some(), has_hrv, "{out}");
    // Every access cookie expired before the call: all concurrent requests recover.
    h.fake.expire_access_tokens();
    let (_, out) = h.call_ok("get_daily_health", json!({"date": date.to_string()})).await;
    assert_eq!(out["day"].get("hrv").is_some(), has_hrv, "{out}");
    assert!(out["day"]["activity"]["steps"].is_number(), "{out}");
}

#[tokio::test]
async fn a_429_with_retry_after_is_waited_out() {
    let h = Harness::start().await;
    h.fake.push_fault(
        FaultRule::times(Fault::RateLimited { retry_after_secs: Some(1) }, 1).on_path("dailySleepData"),
    );
    let (_, out) = h.call_ok("get_daily_health", json!({})).await;
    let score = data(&h).day(today()).unwrap().sleep.score;
    assert_eq!(out["day"]["sleep"]["score"], score);
    let statuses: Vec<u16> =
        h.fake.requests().iter().filter(|r| r.path.contains("dailySleepData")).map(|r| r.status).collect();
    assert_eq!(statuses, [429, 200]);
}

/// The sleep need (#29): Garmin's need of the night, its baseline and why it moved — here after a
/// hard training week (acute load above 1.2 × chronic), as the fake computes it.
#[tokio::test]
async fn the_sleep_need_and_its_reasons_are_shown_with_the_night() {
    let h = Harness::start().await;
    let date = find_day(&h, |d| d.fitness.acute > d.fitness.chronic * 1.2);
    let (_, out) = h.call_ok("get_daily_health", json!({"date": date.to_string()})).await;
    let need = &out["day"]["sleep"]["need"];
    let hrv_low =
        data(&h).day(date).unwrap().hrv.as_ref().is_some_and(|x| x.last_night_avg < x.weekly_avg - 5.0);
    let minutes = 480 + 20 + if hrv_low { 15 } else { 0 };
    assert_eq!(need["need"], hm(minutes * 60), "{out}");
    assert_eq!(need["baseline"], "8:00");
    let reasons = need["reasons"].as_array().unwrap();
    assert!(reasons.contains(&json!("recent training: increasing")), "{reasons:?}");
    assert_eq!(reasons.iter().any(|r| r == "HRV: increasing"), hrv_low, "{reasons:?}");
}

// ---------------------------------------------------------------------------------------------
// Health Status (#29 item 1): each metric against the athlete's baseline on the demo's watch,
// one sentence on the older-watch account and on an account without Garmin Connect+.

#[tokio::test]
async fn health_status_shows_each_metric_against_its_baseline_as_the_fake_gives_it() {
    let h = Harness::start().await;
    let date = today() - Duration::days(1);
    let (text, out) = h.call_ok("get_daily_health", json!({"date": date.to_string()})).await;
    let g = garmin::Client::builder().store(h.store.clone()).build().unwrap();
    let kept = g.metrics().health_status(date).await.unwrap().expect("the demo's watch records it");
    let metrics = out["day"]["health_status"]["metrics"].as_array().unwrap();
    let names = [
        ("HRV", "hrv"),
        ("RESTING_HEART_RATE", "resting heart rate"),
        ("RESPIRATION", "respiration"),
        ("SKIN_TEMPERATURE", "skin temperature"),
        ("SPO2", "spo2"),
    ];
    let mut out_of_range = Vec::new();
    for (key, name) in names {
        let Some(m) = kept.metric(key) else {
            assert!(!metrics.iter().any(|x| x["metric"] == name), "{name} has no value: absent, not 0");
            continue;
        };
        let shown = metrics.iter().find(|x| x["metric"] == name).unwrap_or_else(|| panic!("{name}: {out}"));
        assert_eq!(shown["value"], round1(m.value.unwrap()), "{name}");
        assert_eq!(shown["baseline_low"], round1(m.baseline_lower_limit.unwrap()), "{name}");
        assert_eq!(shown["baseline_high"], round1(m.baseline_upper_limit.unwrap()), "{name}");
        let status = match m.status.as_deref().unwrap() {
            "IN_RANGE" => "within baseline",
            "ABOVE_BASELINE" => "above baseline",
            "BELOW_BASELINE" => "below baseline",
            other => panic!("the fake has a baseline of 28 nights: {other}"),
        };
        assert_eq!(shown["status"], status, "{name}");
        // The status agrees with the numbers.
        let (v, lo, hi) =
            (m.value.unwrap(), m.baseline_lower_limit.unwrap(), m.baseline_upper_limit.unwrap());
        assert_eq!(status == "within baseline", (lo..=hi).contains(&v), "{name} {v} in {lo}–{hi}");
        if status != "within baseline" {
            out_of_range.push(name);
        }
    }
    assert!(metrics.len() >= 4, "{metrics:?}");
    for name in &out_of_range {
        assert!(text.contains(&format!("{name} ")), "the summary names {name}: {text}");
    }
    if out_of_range.is_empty() {
        assert!(text.contains("metrics within baseline"), "{text}");
    }
    assert!(out.get("not_recorded").is_none(), "{out}");
}

#[tokio::test]
async fn an_older_watch_gets_one_health_status_sentence_and_never_zeros() {
    let h = Harness::with_fake(FakeConfig::older_watch_account(today())).await;
    let (text, out) = h.call_ok("get_daily_health", json!({})).await;
    assert!(out["day"].get("health_status").is_none(), "{out}");
    let sentence = "your Forerunner 255 does not record Health Status.";
    assert_eq!(out["not_recorded"], json!([sentence]));
    assert!(text.contains(sentence), "{text}");
    let missing = out["missing"].as_array().unwrap();
    assert!(
        !missing.iter().any(|m| m.as_str().is_some_and(|m| m.starts_with("health_status"))),
        "{missing:?}"
    );
    // The rest of the day is still there.
    assert!(out["day"]["heart_rate"]["resting_bpm"].is_u64(), "{out}");
}

#[tokio::test]
async fn health_status_behind_garmin_connect_plus_is_one_sentence_from_the_typed_402() {
    let h = Harness::start().await;
    h.fake.push_fault(FaultRule::always(Fault::PaymentRequired).on_path("/healthstatus-service/"));
    let g = garmin::Client::builder().store(h.store.clone()).build().unwrap();
    let refused = g.metrics().health_status(today()).await.unwrap_err();
    assert_eq!(refused.kind(), garmin::ErrorKind::NeedsSubscription, "{refused}");
    assert!(refused.means_nothing_there());
    let (text, out) = h.call_ok("get_daily_health", json!({})).await;
    let sentence = "Health Status needs Garmin Connect+.";
    assert_eq!(out["not_recorded"], json!([sentence]));
    assert!(text.contains(sentence), "{text}");
    assert!(out["day"].get("health_status").is_none());
    assert!(out["day"]["sleep"].is_object(), "the rest still answers: {out}");
}

// ---------------------------------------------------------------------------------------------
// Health Status over a range (#29): each night's row from Garmin's range answer before a sync, from
// the history's `daily_metrics` after one (today live), and one sentence on an older watch.

/// What a range row should hold for `night`, computed from Garmin's answer (not through the tool):
/// the count within baseline and each metric outside it, by name and direction.
fn expected_row(night: &garmin::models::metrics::HealthStatus) -> (usize, Vec<String>) {
    let name = |key: &str| match key {
        "HRV" => "hrv",
        "RESTING_HEART_RATE" => "resting heart rate",
        "RESPIRATION" => "respiration",
        "SKIN_TEMPERATURE" => "skin temperature",
        "SPO2" => "spo2",
        other => panic!("unknown metric {other}"),
    };
    let (mut within, mut out) = (0, Vec::new());
    for m in night.metrics.iter().filter(|m| m.value.is_some()) {
        let key = m.metric_type.as_deref().unwrap();
        match m.status.as_deref() {
            Some("ABOVE_BASELINE") => {
                out.push(format!("{} above baseline ({} ", name(key), round1(m.value.unwrap())))
            }
            Some("BELOW_BASELINE") => {
                out.push(format!("{} below baseline ({} ", name(key), round1(m.value.unwrap())))
            }
            _ => within += 1,
        }
    }
    (within, out)
}

/// Each row's Health Status equals Garmin's night for that day; days without a night have none.
async fn assert_rows_are_garmins_nights(
    h: &Harness,
    out: &serde_json::Value,
    start: NaiveDate,
    end: NaiveDate,
) {
    let g = garmin::Client::builder().store(h.store.clone()).build().unwrap();
    let nights = g.metrics().health_status_range(start, end).await.unwrap();
    assert!(nights.len() >= 5, "the demo's watch records most nights: {nights:?}");
    let rows = out["days"].as_array().unwrap();
    let mut out_of_baseline = 0;
    for row in rows {
        let date: NaiveDate = row["date"].as_str().unwrap().parse().unwrap();
        let Some(night) = nights.iter().find(|n| n.calendar_date == Some(date)) else {
            assert!(row.get("health_status").is_none(), "{row}");
            continue;
        };
        let (within, out) = expected_row(night);
        let shown = &row["health_status"];
        assert_eq!(shown["within_baseline"], within, "{date}: {row}");
        let listed: Vec<&str> = shown["out_of_baseline"]
            .as_array()
            .map(|a| a.iter().map(|x| x.as_str().unwrap()).collect())
            .unwrap_or_default();
        assert_eq!(listed.len(), out.len(), "{date}: {listed:?} vs {out:?}");
        for (listed, expected) in listed.iter().zip(&out) {
            assert!(
                listed.starts_with(expected.as_str()) && listed.contains("baseline "),
                "{listed} / {expected}"
            );
        }
        out_of_baseline += out.len();
    }
    assert!(out_of_baseline > 0, "the fake's nights include some out of baseline: {nights:?}");
}

#[tokio::test]
async fn a_range_shows_each_nights_health_status_read_live_before_a_sync() {
    let h = Harness::start().await;
    let (start, end) = (today() - Duration::days(13), today());
    let (text, out) = h
        .call_ok("get_daily_health", json!({"start_date": start.to_string(), "end_date": end.to_string()}))
        .await;
    assert_rows_are_garmins_nights(&h, &out, start, end).await;
    assert_eq!(out["health_status_source"]["from"], "garmin", "{out}");
    assert!(text.contains("Health Status on "), "{text}");
    assert!(text.contains("all within baseline on "), "{text}");
    let status_requests: Vec<String> =
        h.gc_api_paths().into_iter().filter(|p| p.contains("/healthstatus-service/")).collect();
    assert_eq!(
        status_requests.len(),
        2,
        "the tool's one range request, then the test's: {status_requests:?}"
    );
    assert!(status_requests[0].ends_with(&format!("/summary/{start}/{end}")), "{status_requests:?}");
}

#[tokio::test]
async fn a_synced_history_answers_the_ranges_health_status_and_the_answer_says_so() {
    let h = Harness::start().await;
    let mut ended = false;
    for _ in 0..10 {
        let (_, data) = h.call_ok("sync_history", json!({"since": "2026-10-01"})).await;
        if data["status"] != "running" {
            ended = true;
            break;
        }
    }
    assert!(ended, "the sync did not end");
    // A range that ends yesterday: every night from the history, no request for Health Status.
    let (start, end) = (today() - Duration::days(14), today() - Duration::days(1));
    h.fake.clear_requests();
    let (text, out) = h
        .call_ok("get_daily_health", json!({"start_date": start.to_string(), "end_date": end.to_string()}))
        .await;
    assert!(
        !h.gc_api_paths().iter().any(|p| p.contains("/healthstatus-service/")),
        "{:#?}",
        h.gc_api_paths()
    );
    assert_eq!(out["health_status_source"]["from"], "history", "{out}");
    assert_eq!(out["health_status_source"]["history_to"], end.to_string());
    assert!(text.contains("Health Status source: the local history on this computer"), "{text}");
    assert_rows_are_garmins_nights(&h, &out, start, end).await;
    // A range that ends today: the history to yesterday, today's night alone asked live.
    let start = today() - Duration::days(6);
    h.fake.clear_requests();
    let (text, out) = h
        .call_ok(
            "get_daily_health",
            json!({"start_date": start.to_string(), "end_date": today().to_string()}),
        )
        .await;
    let asked: Vec<String> =
        h.gc_api_paths().into_iter().filter(|p| p.contains("/healthstatus-service/")).collect();
    assert_eq!(asked, [format!("/gc-api/healthstatus-service/healthstatus/summary/{}", today())]);
    assert_eq!(out["health_status_source"]["from"], "history+garmin", "{out}");
    assert!(text.contains("later days live from Garmin"), "{text}");
    assert_rows_are_garmins_nights(&h, &out, start, today()).await;
}

#[tokio::test]
async fn an_older_watch_gets_one_health_status_sentence_for_a_range_synced_or_not() {
    let h = Harness::with_fake(FakeConfig::older_watch_account(today())).await;
    let args =
        json!({"start_date": (today() - Duration::days(6)).to_string(), "end_date": today().to_string()});
    let sentence = "your Forerunner 255 does not record Health Status.";
    for synced in [false, true] {
        if synced {
            let mut ended = false;
            for _ in 0..10 {
                let (_, data) = h.call_ok("sync_history", json!({"since": "2026-10-15"})).await;
                if data["status"] != "running" {
                    ended = true;
                    break;
                }
            }
            assert!(ended, "the sync did not end");
        }
        let (text, out) = h.call_ok("get_daily_health", args.clone()).await;
        assert_eq!(out["not_recorded"], json!([sentence]), "synced {synced}: {out}");
        assert_eq!(text.matches(sentence).count(), 1, "{text}");
        let rows = out["days"].as_array().unwrap();
        assert_eq!(rows.len(), 7);
        assert!(rows.iter().all(|r| r.get("health_status").is_none()), "never zeros: {out}");
        assert!(rows.iter().all(|r| r["resting_hr_bpm"].is_u64()), "the rest of the range answers: {out}");
        assert!(out.get("health_status_source").is_none(), "{out}");
        let missing = out["missing"].as_array().unwrap();
        assert!(!missing.iter().any(|m| m.as_str().unwrap().starts_with("health_status")), "{missing:?}");
        assert!(!text.contains("Health Status on "), "{text}");
    }
}

// ---------------------------------------------------------------------------------------------
// Sleep need over a range (#29, migration 10): from the history where it covers the range.

#[tokio::test]
async fn a_ranges_sleep_need_comes_from_the_synced_history_and_equals_garmins_each_night() {
    let (start, end) = (today() - Duration::days(13), today() - Duration::days(1));
    let args = json!({"start_date": start.to_string(), "end_date": end.to_string()});
    let live_h = Harness::start().await;
    let (_, live) = live_h.call_ok("get_daily_health", args.clone()).await;
    let h = crate::support::synced_since("2026-09-01").await;
    let (_, kept) = h.call_ok("get_daily_health", args.clone()).await;
    // Garmin's need of each night, read through a client of the same fake, written `h:mm` here.
    let g = garmin::Client::builder().store(h.store.clone()).build().unwrap();
    let nights = g.wellness().sleep_stats(start, end).await.unwrap();
    let (live_days, kept_days) = (live["days"].as_array().unwrap(), kept["days"].as_array().unwrap());
    assert_eq!(kept_days.len(), 13);
    let mut needs = BTreeSet::new();
    for (a, b) in live_days.iter().zip(kept_days) {
        let day: NaiveDate = b["date"].as_str().unwrap().parse().unwrap();
        let minutes = nights
            .iter()
            .find(|n| n.calendar_date == Some(day))
            .and_then(|n| n.values.as_ref()?.sleep_need)
            .unwrap() as u64;
        let expected = format!("{}:{:02}", minutes / 60, minutes % 60);
        assert_eq!(b["sleep_need"], expected, "{day}");
        assert_eq!(a["sleep_need"], b["sleep_need"], "live and kept agree on {day}");
        needs.insert(minutes);
    }
    assert!(needs.len() > 1, "the fake's need moves with training and HRV: {needs:?}");
    // It is the history's: with Garmin's sleep range failing, each night keeps its need.
    h.fake
        .push_fault(FaultRule::always(Fault::ServerError(500)).on_path("/sleep-service/stats/sleep/daily/"));
    let (_, faulted) = h.call_ok("get_daily_health", args).await;
    for (a, b) in kept_days.iter().zip(faulted["days"].as_array().unwrap()) {
        assert_eq!(a["sleep_need"], b["sleep_need"], "{b}");
        assert!(b.get("sleep").is_none(), "the sleep itself is live: {b}");
    }
}
