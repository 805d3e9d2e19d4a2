//! Run: `cargo test -p garmin-mcp --test tools stats::`.
//!
//! `get_period_stats` against the fake's data set: totals of a month, the change against the
//! previous period, running periods, weeks, custom ranges, the sport filter, paging, failures and
//! the budget. Expectations are summed from the fake's generated activities (`h.fake.state()`).

use std::collections::BTreeSet;

use chrono::NaiveDate;
use fake_garmin::data::activity::{Activity, Sport};
use fake_garmin::faults::{Fault, FaultRule};
use garmin_mcp::output::BUDGET_BYTES;
use serde_json::json;

use crate::support::{Harness, all_text};
use crate::support::{api_requests, close, km};

fn date(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
}

/// The fake's live activities on local days `start..=end` (optionally one sport).
fn fake_between(h: &Harness, start: &str, end: &str, sport: Option<Sport>) -> Vec<Activity> {
    let (start, end) = (date(start), date(end));
    let data = h.fake.state().inner.data.read().unwrap();
    data.live()
        .filter(|a| (start..=end).contains(&a.start_local.date()))
        .filter(|a| sport.is_none_or(|s| a.sport() == s))
        .cloned()
        .collect()
}

/// What Garmin's list rows say, summed: (count, metres, seconds, metres climbed).
fn sums(list: &[Activity]) -> (u64, f64, f64, f64) {
    let meters = list.iter().map(|a| a.stats.distance).sum();
    let seconds = list.iter().map(|a| a.stats.duration).sum();
    // The list sends the ascent as whole metres per activity.
    let gain = list.iter().map(|a| a.stats.elev_gain.round()).sum();
    (list.len() as u64, meters, seconds, gain)
}

const LIST: &str = "/gc-api/activitylist-service/activities/search/activities";

#[tokio::test]
async fn get_period_stats_month_totals_equal_the_fake_activities_of_that_month() {
    let h = Harness::start().await;
    let (text, data) = h.call_ok("get_period_stats", json!({"period": "month", "date": "2026-10-09"})).await;
    let october = fake_between(&h, "2026-10-01", "2026-10-31", None);
    let (count, meters, seconds, gain) = sums(&october);
    let totals = &data["totals"];
    assert_eq!(totals["count"], count);
    assert!(close(&totals["distance_km"], km(meters), 0.011), "{totals} vs {meters}");
    assert_eq!(totals["duration"], display::duration(seconds));
    assert_eq!(totals["elevation_gain_m"], gain as u64);
    assert_eq!(data["label"], "October 2026");
    assert_eq!(
        (data["start_date"].as_str(), data["end_date"].as_str()),
        (Some("2026-10-01"), Some("2026-10-31"))
    );
    assert!(data.get("so_far_to").is_none());
    assert!(
        text.starts_with(&format!("{count} activities in October 2026: {:.1} km", meters / 1000.0)),
        "{text}"
    );

    // Weekly rows, Monday-based and clipped to the month, adding up to the month.
    assert_eq!(data["breakdown_by"], "week");
    let weeks = data["breakdown"].as_array().unwrap();
    assert_eq!(weeks[0]["period"], "2026-10-01 to 2026-10-04");
    assert_eq!(weeks[1]["period"], "2026-10-05 to 2026-10-11");
    let counted: u64 = weeks.iter().map(|w| w["count"].as_u64().unwrap()).sum();
    assert_eq!(counted, count);
    let week2 = fake_between(&h, "2026-10-05", "2026-10-11", None);
    assert!(close(&weeks[1]["distance_km"], km(sums(&week2).1), 0.011));

    // The longest is the month's longest by distance.
    let longest = october.iter().max_by(|a, b| a.stats.distance.total_cmp(&b.stats.distance)).unwrap();
    assert_eq!(data["longest"]["activity_id"], longest.id);
    // Mixed sports: one row per sport, summing to the month.
    let sports = data["by_sport"].as_array().unwrap();
    let runs = fake_between(&h, "2026-10-01", "2026-10-31", Some(Sport::Running));
    let running = sports.iter().find(|s| s["sport"] == "running").unwrap();
    assert_eq!(running["count"], runs.len() as u64);
    assert!(running["pace_per_km"].is_string());
    assert_eq!(sports.iter().map(|s| s["count"].as_u64().unwrap()).sum::<u64>(), count);
}

#[tokio::test]
async fn get_period_stats_compares_a_finished_month_with_the_whole_month_before() {
    let h = Harness::start().await;
    let (text, data) = h.call_ok("get_period_stats", json!({"period": "month", "date": "2026-10-31"})).await;
    let (now_n, now_m, now_s, _) = sums(&fake_between(&h, "2026-10-01", "2026-10-31", None));
    let (then_n, then_m, then_s, _) = sums(&fake_between(&h, "2026-09-01", "2026-09-30", None));
    let c = &data["change"];
    assert_eq!(
        (c["previous_start"].as_str(), c["previous_end"].as_str()),
        (Some("2026-09-01"), Some("2026-09-30"))
    );
    assert_eq!(c["previous_count"], then_n);
    assert_eq!(c["count_change"], now_n as i64 - then_n as i64);
    assert!(close(&c["previous_distance_km"], km(then_m), 0.011));
    assert!(close(&c["distance_change_km"], km(now_m - then_m), 0.011), "{c}");
    let pct = (now_m - then_m) / then_m * 100.0;
    assert!(close(&c["distance_change_pct"], pct, 0.051), "{c} vs {pct}");
    assert_eq!(c["duration_change_min"], ((now_s - then_s) / 60.0).round() as i64);
    let word = if pct >= 0.0 { "more" } else { "less" };
    assert!(text.contains(&format!("{:.0} % {word} distance than September 2026", pct.abs())), "{text}");

    // Exactly one page request covering both months: no per-day or repeated calls.
    let requests = api_requests(&h);
    assert_eq!(requests.len(), 1, "{requests:?}");
    assert_eq!(requests[0].0, LIST);
    assert!(requests[0].1.contains("startDate=2026-09-01") && requests[0].1.contains("endDate=2026-10-31"));
}

#[tokio::test]
async fn get_period_stats_this_month_so_far_compares_with_the_same_days_of_last_month() {
    let h = Harness::start().await;
    let (text, data) = h.call_ok("get_period_stats", json!({"period": "month"})).await;
    assert_eq!(data["label"], "November 2026");
    assert_eq!(data["so_far_to"], "2026-11-15");
    let c = &data["change"];
    assert_eq!(
        (c["previous_start"].as_str(), c["previous_end"].as_str()),
        (Some("2026-10-01"), Some("2026-10-15"))
    );
    assert_eq!(c["previous_count"], fake_between(&h, "2026-10-01", "2026-10-15", None).len() as u64);
    assert_eq!(data["totals"]["count"], fake_between(&h, "2026-11-01", "2026-11-15", None).len() as u64);
    assert!(text.contains("so far") && text.contains("2026-10-01 to 2026-10-15"), "{text}");
}

#[tokio::test]
async fn get_period_stats_sport_filter_counts_only_that_sport_with_its_pace() {
    let h = Harness::start().await;
    let (text, data) =
        h.call_ok("get_period_stats", json!({"period": "month", "date": "2026-10-09", "sport": "run"})).await;
    let runs = fake_between(&h, "2026-10-01", "2026-10-31", Some(Sport::Running));
    let (count, meters, seconds, _) = sums(&runs);
    assert_eq!(data["sport"], "running");
    assert_eq!(data["totals"]["count"], count);
    assert!(close(&data["totals"]["distance_km"], km(meters), 0.011));
    let pace = (seconds / meters * 1000.0).round() as u64;
    assert_eq!(data["totals"]["pace_per_km"], format!("{}'{:02}\"", pace / 60, pace % 60));
    assert!(data.get("by_sport").is_none());
    assert!(
        text.starts_with(&format!("{count} runs in October 2026")) && text.contains("avg pace"),
        "{text}"
    );
    assert!(api_requests(&h).iter().all(|(_, q)| q.contains("activityType=running")));

    let (_, rides) = h
        .call_ok("get_period_stats", json!({"period": "month", "date": "2026-10-09", "sport": "ride"}))
        .await;
    assert!(rides["totals"]["speed_kmh"].is_number(), "{}", rides["totals"]);
}

#[tokio::test]
async fn get_period_stats_week_starts_on_monday_with_a_row_per_day() {
    let h = Harness::start().await;
    let (_, data) = h.call_ok("get_period_stats", json!({"period": "week", "date": "2026-11-05"})).await;
    assert_eq!(
        (data["start_date"].as_str(), data["end_date"].as_str()),
        (Some("2026-11-02"), Some("2026-11-08"))
    );
    assert_eq!(data["breakdown_by"], "day");
    let days = data["breakdown"].as_array().unwrap();
    assert_eq!(days.len(), 7);
    assert_eq!(days[0]["period"], "2026-11-02 Mon");
    for (i, day) in days.iter().enumerate() {
        let d = (date("2026-11-02") + chrono::Duration::days(i as i64)).to_string();
        assert_eq!(day["count"], fake_between(&h, &d, &d, None).len() as u64, "{d}");
    }
    assert_eq!(data["change"]["previous_start"], "2026-10-26");
    assert_eq!(data["change"]["previous_end"], "2026-11-01");
}

#[tokio::test]
async fn get_period_stats_custom_range_compares_with_the_same_number_of_days_before() {
    let h = Harness::start().await;
    let (_, data) = h
        .call_ok(
            "get_period_stats",
            json!({"period": "custom", "start_date": "2026-09-10", "end_date": "2026-10-09"}),
        )
        .await;
    assert_eq!(data["totals"]["count"], fake_between(&h, "2026-09-10", "2026-10-09", None).len() as u64);
    assert_eq!(data["change"]["previous_start"], "2026-08-11");
    assert_eq!(data["change"]["previous_end"], "2026-09-09");
    assert_eq!(
        data["change"]["previous_count"],
        fake_between(&h, "2026-08-11", "2026-09-09", None).len() as u64
    );
    assert_eq!(data["breakdown_by"], "week");

    let (_, long) = h
        .call_ok(
            "get_period_stats",
            json!({"period": "custom", "start_date": "2026-03-01", "end_date": "2026-10-31"}),
        )
        .await;
    assert_eq!(long["breakdown_by"], "month");
    assert_eq!(long["breakdown"].as_array().unwrap().len(), 8);
}

#[tokio::test]
async fn get_period_stats_refuses_bad_ranges_as_protocol_errors() {
    let h = Harness::start().await;
    let e = h
        .call_invalid(
            "get_period_stats",
            json!({"period": "custom", "start_date": "2026-10-10", "end_date": "2026-10-01"}),
        )
        .await;
    assert!(e.contains("before"), "{e}");
    let e = h.call_invalid("get_period_stats", json!({"period": "custom", "start_date": "2026-10-10"})).await;
    assert!(e.contains("start_date and end_date"), "{e}");
    let e = h.call_invalid("get_period_stats", json!({"period": "week", "start_date": "2026-10-10"})).await;
    assert!(e.contains("period=custom"), "{e}");
    let e = h.call_invalid("get_period_stats", json!({"period": "fortnight"})).await;
    assert!(e.contains("week, month, year, all or custom"), "{e}");
    let e = h.call_invalid("get_period_stats", json!({"period": "month", "date": "11/15/2026"})).await;
    assert!(e.contains("date must be YYYY-MM-DD"), "{e}");
    let e = h.call_invalid("get_period_stats", json!({"period": "month", "sport": "🏃"})).await;
    assert!(e.contains("not an activity type"), "{e}");
    assert!(api_requests(&h).is_empty());
}

#[tokio::test]
async fn get_period_stats_of_an_empty_period_answers_zero_totals_and_says_nothing_was_recorded() {
    let h = Harness::start().await;
    let (text, data) = h.call_ok("get_period_stats", json!({"period": "month", "date": "2020-01-15"})).await;
    assert!(text.contains("No activities recorded in January 2020 (nor in December 2019)"), "{text}");
    assert_eq!(data["totals"]["count"], 0);
    assert_eq!(data["totals"]["distance_km"], 0.0);
    assert_eq!(data["change"]["previous_count"], 0, "the previous period is still there to compare");
    assert_eq!(data["start_date"], "2020-01-01");
}

/// On the 1st of a month, before any activity that day, "this month" has nothing in it yet: that is
/// an answer (zero so far, and the same day of last month to compare with), never an error.
#[tokio::test]
async fn get_period_stats_this_month_on_the_first_before_any_activity_is_an_answer() {
    let h = Harness::start_on(date("2026-12-01")).await;
    let (text, data) = h.call_ok("get_period_stats", json!({"period": "month"})).await;
    assert_eq!(data["start_date"], "2026-12-01");
    assert_eq!(data["so_far_to"], "2026-12-01");
    let count = data["totals"]["count"].as_u64().unwrap();
    let today = fake_between(&h, "2026-12-01", "2026-12-01", None);
    assert_eq!(count, today.len() as u64, "{text}");
    assert_eq!(data["change"]["previous_start"], "2026-11-01");
    assert_eq!(data["change"]["previous_end"], "2026-11-01");
    assert!(text.contains("December 2026"), "{text}");
}

#[tokio::test]
async fn get_period_stats_year_walks_pages_and_breaks_down_per_month() {
    let h = Harness::start().await;
    let (_, data) = h.call_ok("get_period_stats", json!({"period": "year"})).await;
    let year = fake_between(&h, "2026-01-01", "2026-12-31", None);
    assert_eq!(data["totals"]["count"], year.len() as u64);
    assert_eq!(data["breakdown_by"], "month");
    // The year is still running: January to November, no rows for months still to come.
    let months = data["breakdown"].as_array().unwrap();
    assert_eq!(months.len(), 11);
    assert_eq!(months[10]["period"], "2026-11");
    assert_eq!(data["so_far_to"], "2026-11-15");
    assert_eq!(data["change"]["previous_end"], "2025-11-15");

    // One request per page of 500 over 2025-01-01..2026-12-31, each different.
    let requests = api_requests(&h);
    let in_range = fake_between(&h, "2025-01-01", "2026-12-31", None).len();
    assert_eq!(requests.len(), in_range / 500 + 1, "{requests:?}");
    assert!(requests.iter().all(|(p, _)| p == LIST));
    let distinct: BTreeSet<&(String, String)> = requests.iter().collect();
    assert_eq!(distinct.len(), requests.len(), "no request twice");
}

#[tokio::test]
async fn get_period_stats_all_time_covers_the_account_within_the_budget() {
    let h = Harness::start().await;
    let result = h.call("get_period_stats", json!({"period": "all"})).await;
    let size = all_text(&result).len();
    println!("get_period_stats all: {size} bytes");
    assert!(size <= BUDGET_BYTES, "{size} bytes");
    let data = result.structured_content.clone().unwrap();
    let everything: Vec<Activity> = {
        let d = h.fake.state().inner.data.read().unwrap();
        d.live().cloned().collect()
    };
    assert_eq!(data["totals"]["count"], everything.len() as u64);
    assert_eq!(data["start_date"], everything[0].start_local.date().to_string());
    assert_eq!(data["breakdown_by"], "month");
    assert!(data.get("change").is_none());

    for period in ["week", "month", "year"] {
        let result = h.call("get_period_stats", json!({"period": period})).await;
        let size = all_text(&result).len();
        println!("get_period_stats {period}: {size} bytes");
        assert!(size <= BUDGET_BYTES, "{period}: {size} bytes");
    }
}

#[tokio::test]
async fn get_period_stats_survives_an_expired_session_and_a_429() {
    let h = Harness::start().await;
    h.fake.expire_access_tokens();
    h.fake.push_fault(FaultRule::times(Fault::RateLimited { retry_after_secs: Some(1) }, 1));
    let (_, data) = h.call_ok("get_period_stats", json!({"period": "month", "date": "2026-10-09"})).await;
    assert_eq!(data["totals"]["count"], fake_between(&h, "2026-10-01", "2026-10-31", None).len() as u64);
    assert!(h.fake.requests().iter().any(|r| r.status == 429));
}
