//! `search_events`: Garmin's race catalogue (the fake's, filtered here independently) by name,
//! dates, city and distance; the athlete's next race from their calendar; empty searches, bad
//! arguments, 429s and expired sessions mid-call, the fallback to the bare race-search path when
//! `/gc-api` answers 404, and the budget at the largest limit.
//!
//! Run: `cargo test -p garmin-mcp --test tools events::`

use chrono::{Duration, NaiveDate};
use fake_garmin::data::races::{Race, catalogue};
use fake_garmin::faults::{Fault, FaultRule};
use garmin_mcp::output;
use serde_json::{Value, json};

use crate::support::{Harness, all_text, today};

/// The fake's catalogue, as Garmin would answer the tool's search: verified races between two
/// days (inclusive) for which `keep` holds, by date then name.
fn catalogue_between(
    h: &Harness,
    start: NaiveDate,
    end: NaiveDate,
    keep: impl Fn(&Race) -> bool,
) -> Vec<Race> {
    catalogue(h.fake.state().config().seed, today())
        .into_iter()
        .filter(|r| r.date >= start && r.date <= end && r.status != "UNVERIFIED" && keep(r))
        .collect()
}

/// A race's whole distance in metres, legs added up.
fn total_m(r: &Race) -> f64 {
    let factor = |unit: &str| match unit {
        "kilometer" => 1000.0,
        "mile" => 1609.344,
        _ => 1.0,
    };
    r.targets.iter().map(|(v, unit)| v * factor(unit)).sum()
}

fn within(r: &Race, metres: f64) -> bool {
    (total_m(r) - metres).abs() <= metres * 0.05
}

/// Whether `needle` names the race's city or state (English or native) or is its country code:
/// what the tool's `city` matches in the real row's `administrativeArea`.
fn located(r: &Race, needle: &str) -> bool {
    let needle = needle.to_lowercase();
    r.city.is_some_and(|c| {
        [Some(c.name), c.zh, Some(c.state), c.state_native]
            .into_iter()
            .flatten()
            .any(|n| n.to_lowercase().contains(&needle))
            || c.country_code.eq_ignore_ascii_case(&needle)
    })
}

/// The place the tool shows: city and state with their native names, and the country code.
fn place(r: &Race) -> Option<String> {
    let c = r.city?;
    let city = c.zh.map_or_else(|| c.name.to_owned(), |zh| format!("{} {zh}", c.name));
    let state = c.state_native.map_or_else(|| c.state.to_owned(), |n| format!("{} {n}", c.state));
    Some(if state == city {
        format!("{city}, {}", c.country_code)
    } else {
        format!("{city}, {state}, {}", c.country_code)
    })
}

fn uuids(data: &Value) -> Vec<String> {
    data["events"].as_array().unwrap().iter().map(|e| e["event_uuid"].as_str().unwrap().to_owned()).collect()
}

/// The answer lists the first of `want` in order and counts the rest.
fn assert_lists(data: &Value, want: &[Race]) {
    let got = uuids(data);
    let want_ids: Vec<String> = want.iter().map(|r| r.uuid.clone()).collect();
    assert!(!got.is_empty() || want.is_empty());
    assert_eq!(got, want_ids[..got.len()], "listed in date order");
    assert_eq!(got.len() + data["more_matches"].as_u64().unwrap() as usize, want.len(), "the rest counted");
}

/// Search arguments over the whole catalogue (a year back, six months ahead).
fn wide(extra: Value) -> Value {
    let mut args = json!({"start_date": (today() - Duration::days(364)).to_string(),
        "end_date": (today() + Duration::days(183)).to_string(), "limit": 50});
    args.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    args
}

fn wide_catalogue(h: &Harness, keep: impl Fn(&Race) -> bool) -> Vec<Race> {
    catalogue_between(h, today() - Duration::days(364), today() + Duration::days(183), keep)
}

#[tokio::test]
async fn without_filters_it_lists_the_next_180_days_of_the_catalogue_and_the_next_race() {
    let h = Harness::start().await;
    let (text, data) = h.call_ok("search_events", json!({})).await;
    let want = catalogue_between(&h, today(), today() + Duration::days(180), |_| true);
    assert!(want.len() > 20, "{}", want.len());
    assert_lists(&data, &want);
    let rows = data["events"].as_array().unwrap();
    assert_eq!(rows.len(), 20, "the default limit");
    for (row, r) in rows.iter().zip(&want) {
        assert_eq!(row["name"], r.name.as_str());
        assert_eq!(row["date"], r.date.to_string());
        assert_eq!(row["in_days"], (r.date - today()).num_days());
        assert_eq!(row["start_time"], json!(r.start_hhmm));
        assert_eq!(row["location"], json!(place(r)));
        assert_eq!(row["distance_km"].as_f64(), Some(display::km(total_m(r))));
        assert_eq!(
            row["legs_km"].as_array().map_or(0, Vec::len),
            if r.targets.len() > 1 { r.targets.len() } else { 0 }
        );
        assert_eq!(row["sport"], r.event_type);
        assert_eq!(row["is_virtual"], !r.in_person, "virtual means no place in the real row");
        assert_eq!(row["url"], r.url.as_str());
    }
    assert_eq!(data["source"], "Garmin's race and event catalogue");
    assert_eq!(data["next_race"]["name"], "Sampletown 10K", "the athlete's own calendar");
    assert_eq!(data["next_race"]["in_days"], 24);
    assert!(text.starts_with(&format!("{} races in Garmin's event catalogue between", want.len())), "{text}");
    assert!(text.contains("Your next race on your calendar: Sampletown 10K"), "{text}");

    let paths = h.gc_api_paths();
    assert_eq!(paths.len(), 2, "{paths:?}");
    assert!(
        paths.contains(&"/gc-api/race-search/events".to_owned())
            && paths.contains(&"/gc-api/calendar-service/events".to_owned())
    );
    let search = h.fake.requests().into_iter().find(|r| r.path.ends_with("race-search/events")).unwrap();
    let q = search.query.unwrap_or_default();
    assert!(
        q.contains("fromDate=2026-11-15&toDate=2027-05-14")
            && q.contains("verifiedStatuses=OFFICIAL%2CVERIFIED"),
        "{q}"
    );
    assert!(!q.contains("searchPhrase"), "{q}");
}

#[tokio::test]
async fn distance_filters_use_the_whole_distance_within_five_percent() {
    let h = Harness::start().await;
    for (asked, metres, name) in [
        ("marathon", 42_195.0, Some("marathon")),
        ("half", 21_097.5, Some("half marathon")),
        ("10k", 10_000.0, Some("10K")),
        ("5 km", 5_000.0, Some("5K")),
        ("51.5", 51_500.0, None),
        ("100", 100_000.0, None),
    ] {
        let (_, data) = h.call_ok("search_events", wide(json!({"distance": asked}))).await;
        let want = wide_catalogue(&h, |r| within(r, metres));
        assert!(!want.is_empty(), "{asked}");
        assert_lists(&data, &want);
        if let Some(name) = name {
            assert!(data["events"].as_array().unwrap().iter().all(|e| e["distance_name"] == name), "{asked}");
        }
    }
    let (_, data) = h.call_ok("search_events", wide(json!({"distance": "ultra"}))).await;
    let want = wide_catalogue(&h, |r| r.event_type.contains("run") && total_m(r) > 42_195.0 * 1.05);
    assert!(want.len() >= 5);
    assert_lists(&data, &want);
    let (_, data) = h.call_ok("search_events", wide(json!({"distance": "51.5"}))).await;
    let rows = data["events"].as_array().unwrap();
    assert!(
        rows.iter().any(|e| e["legs_km"].as_array().is_some_and(|l| l.len() == 3)),
        "an Olympic triathlon"
    );
}

#[tokio::test]
async fn city_and_query_filters_match_the_catalogue() {
    let h = Harness::start().await;
    for city in ["shanghai", "上海", "cn", "San José", "Sampletown", "guangdong", "江苏"] {
        let (_, data) = h.call_ok("search_events", wide(json!({"city": city}))).await;
        let want = wide_catalogue(&h, |r| located(r, city));
        assert!(!want.is_empty(), "{city}");
        assert_lists(&data, &want);
    }
    h.fake.clear_requests();
    let (text, data) = h.call_ok("search_events", wide(json!({"query": "Marathon"}))).await;
    let want = wide_catalogue(&h, |r| r.name.to_lowercase().contains("marathon"));
    assert_lists(&data, &want);
    assert!(text.contains("races in Garmin's event catalogue match"), "{text}");
    let q = h
        .fake
        .requests()
        .into_iter()
        .find(|r| r.path.ends_with("race-search/events"))
        .unwrap()
        .query
        .unwrap();
    assert!(q.starts_with("searchPhrase=Marathon&"), "the query goes to Garmin: {q}");

    let (_, data) = h.call_ok("search_events", wide(json!({"query": "马拉松"}))).await;
    assert_lists(&data, &wide_catalogue(&h, |r| r.name.contains("马拉松")));

    let (_, data) = h
        .call_ok("search_events", wide(json!({"query": "marathon", "city": "CN", "distance": "half"})))
        .await;
    let want = wide_catalogue(&h, |r| {
        r.name.to_lowercase().contains("marathon") && located(r, "CN") && within(r, 21_097.5)
    });
    assert!(!want.is_empty());
    assert_lists(&data, &want);
}

/// The real row (docs/garmin-web-api.md §0) carries the place in `administrativeArea` and the
/// start in `eventStartTime`: the city filter finds races by city, state or country code, and
/// rows show their start time and place; a country name is not a place Garmin's row names.
#[tokio::test]
async fn real_race_search_shapes_fill_the_city_filter_start_time_and_place() {
    let h = Harness::start().await;
    let (text, data) = h.call_ok("search_events", wide(json!({"city": "Shanghai"}))).await;
    let want = wide_catalogue(&h, |r| located(r, "shanghai"));
    assert!(want.iter().any(|r| r.city.is_some_and(|c| c.name == "Bayside")), "Bayside is in Shanghai");
    assert_lists(&data, &want);
    let rows = data["events"].as_array().unwrap();
    assert!(
        rows.iter()
            .all(|e| e["location"].as_str().is_some_and(|l| l.contains("上海") && l.ends_with(", CN")))
    );
    let timed = rows.iter().filter(|e| e["start_time"].as_str().is_some_and(|t| t.len() == 5)).count();
    assert!(
        timed > 0 && timed >= rows.len() - rows.len() / 4,
        "{timed} of {} rows have a start time",
        rows.len()
    );
    assert!(text.contains("Shanghai 上海, CN"), "{text}");

    let (_, data) = h.call_ok("search_events", wide(json!({"city": "广东"}))).await;
    let want = wide_catalogue(&h, |r| r.city.is_some_and(|c| c.state == "Guangdong"));
    assert!(!want.is_empty());
    assert_lists(&data, &want);

    let (_, data) = h.call_ok("search_events", wide(json!({"city": "US"}))).await;
    let want = wide_catalogue(&h, |r| r.city.is_some_and(|c| c.country_code == "US"));
    assert!(!want.is_empty());
    assert_lists(&data, &want);
    let (_, data) = h.call_ok("search_events", wide(json!({}))).await;
    let rows = data["events"].as_array().unwrap();
    assert!(
        rows.iter().any(|e| e["is_virtual"] == true && e.get("location").is_none()),
        "virtual races have no place"
    );
}

#[tokio::test]
async fn dates_bound_the_search_and_empty_answers_still_tell_the_next_race() {
    let h = Harness::start().await;
    let (start, end) =
        (NaiveDate::from_ymd_opt(2026, 1, 1).unwrap(), NaiveDate::from_ymd_opt(2026, 3, 31).unwrap());
    let (_, data) = h
        .call_ok(
            "search_events",
            json!({"start_date": start.to_string(), "end_date": end.to_string(), "limit": 50}),
        )
        .await;
    assert_lists(&data, &catalogue_between(&h, start, end, |_| true));
    assert!(data["events"][0]["in_days"].as_i64().unwrap() < 0, "past races are listed too");

    let (text, data) = h.call_ok("search_events", json!({"city": "Atlantis"})).await;
    assert_eq!(data["events"], json!([]));
    assert!(text.starts_with("No races in Garmin's event catalogue match"), "{text}");
    assert!(data["next_race"].is_object(), "the next race is still told");
    let (text, data) =
        h.call_ok("search_events", json!({"start_date": "2020-01-01", "end_date": "2020-12-31"})).await;
    assert_eq!(data["events"], json!([]));
    assert!(
        text.starts_with("No races in Garmin's event catalogue between 2020-01-01 and 2020-12-31"),
        "{text}"
    );
}

#[tokio::test]
async fn bad_dates_distances_and_limits_are_protocol_errors() {
    let h = Harness::start().await;
    let err = h.call_invalid("search_events", json!({"start_date": "next week"})).await;
    assert!(err.contains("start_date must be YYYY-MM-DD, got `next week`"), "{err}");
    let err =
        h.call_invalid("search_events", json!({"start_date": "2026-12-01", "end_date": "2026-11-01"})).await;
    assert!(err.contains("before"), "{err}");
    let err = h.call_invalid("search_events", json!({"distance": "far"})).await;
    assert!(err.contains("distance must be"), "{err}");
    let err = h.call_invalid("search_events", json!({"limit": 0})).await;
    assert!(err.contains("limit"), "{err}");
    let err =
        h.call_invalid("search_events", json!({"start_date": "2020-01-01", "end_date": "2026-01-01"})).await;
    assert!(err.contains("three years"), "{err}");
    assert!(h.fake.requests().is_empty());
}

#[tokio::test]
async fn an_expired_session_and_a_429_mid_call_still_answer() {
    let h = Harness::start().await;
    let want = wide_catalogue(&h, |r| within(r, 42_195.0));
    h.fake.expire_access_tokens();
    h.fake.push_fault(
        FaultRule::times(Fault::RateLimited { retry_after_secs: Some(1) }, 1).on_path("race-search"),
    );
    let (_, data) = h.call_ok("search_events", wide(json!({"distance": "marathon"}))).await;
    assert_lists(&data, &want);
    assert!(h.fake.requests().iter().any(|r| r.status == 429));
    assert!(h.fake.requests().iter().any(|r| r.status == 401));
    h.fake.push_fault(FaultRule::times(Fault::ExpireSession, 1).on_path("race-search"));
    let (_, data) = h.call_ok("search_events", wide(json!({"distance": "marathon"}))).await;
    assert_lists(&data, &want);
}

#[tokio::test]
async fn a_404_under_gc_api_falls_back_to_the_bare_race_search_path() {
    let h = Harness::start().await;
    h.fake.push_fault(FaultRule::always(Fault::NotFound).on_path("/gc-api/race-search/"));
    let (_, data) = h.call_ok("search_events", wide(json!({"city": "cn"}))).await;
    assert_lists(&data, &wide_catalogue(&h, |r| located(r, "cn")));
    let searches: Vec<(String, u16)> = h
        .fake
        .requests()
        .into_iter()
        .filter(|r| r.path.contains("race-search"))
        .map(|r| (r.path, r.status))
        .collect();
    assert_eq!(
        searches,
        [("/gc-api/race-search/events".to_owned(), 404), ("/race-search/events".to_owned(), 200)]
    );
}

#[tokio::test]
async fn the_largest_limit_stays_within_the_budget() {
    let h = Harness::start().await;
    let want = wide_catalogue(&h, |_| true);
    let result = h.call("search_events", wide(json!({}))).await;
    let size = all_text(&result).len();
    let data = result.structured_content.unwrap();
    assert!(size <= output::BUDGET_BYTES, "{size} bytes");
    assert_lists(&data, &want);
    let listed = data["events"].as_array().unwrap().len();
    assert!(listed >= 20, "{listed} listed");
    eprintln!("search_events: {size} bytes with {listed} of {} races listed", want.len());

    let result = h.call("search_events", json!({})).await;
    assert!(all_text(&result).len() <= output::BUDGET_BYTES);
    assert_eq!(result.structured_content.unwrap()["events"].as_array().unwrap().len(), 20);
}
