//! Run: `cargo test -p fake-garmin --test endpoints races::`.
//!
//! The race search (reference §4.10): the same catalogue at `/gc-api/race-search/events` and at
//! the bare `/race-search/events` (open question 12), both behind the auth gate; every filter
//! checked against the catalogue filtered here independently; bad parameters are 400s; the
//! providers list.

use chrono::{Datelike, Duration, NaiveDate, Weekday};
use fake_garmin::data::races::{Race, catalogue};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::support::{Api, today};

/// The catalogue of the suite's fake (seed 42).
fn races() -> Vec<Race> {
    catalogue(42, today())
}

/// `garminEventUuid`s of an answer, in order.
fn uuids(body: &Value) -> Vec<String> {
    body.as_array()
        .expect("a list")
        .iter()
        .map(|r| r["garminEventUuid"].as_str().expect("uuid").to_owned())
        .collect()
}

fn uuids_of<'a>(races: impl IntoIterator<Item = &'a Race>) -> Vec<String> {
    races.into_iter().map(|r| r.uuid.clone()).collect()
}

/// Great-circle metres, written out here so the fake's own formula is checked, not reused.
fn metres(a: (f64, f64), b: (f64, f64)) -> f64 {
    let r = 6_371_000.0_f64;
    let (p1, p2) = (a.0.to_radians(), b.0.to_radians());
    let (dp, dl) = (p2 - p1, (b.1 - a.1).to_radians());
    let x = (dp / 2.0).sin().powi(2) + p1.cos() * p2.cos() * (dl / 2.0).sin().powi(2);
    2.0 * r * x.sqrt().asin()
}

#[tokio::test]
async fn the_catalogue_is_served_at_both_paths_behind_the_auth_gate() {
    let api = Api::start().await;
    let under_api = api.get("/race-search/events").await;
    let (status, bare) = api.outside_api("/race-search/events", true).await;
    assert_eq!(status, StatusCode::OK, "{bare}");
    assert_eq!(under_api, bare);
    let all = races();
    assert_eq!(uuids(&bare), uuids_of(&all), "everything, by date then name");
    let (first, last) = (today() - Duration::days(364), today() + Duration::days(183));
    for r in &all {
        assert!(r.date >= first && r.date <= last && matches!(r.date.weekday(), Weekday::Sat | Weekday::Sun));
    }
    assert!(all.iter().filter(|r| r.date > today()).count() >= 40, "half a year of races ahead");

    let (status, _) = api.outside_api("/race-search/events", false).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "the bare path checks cookies and CSRF too");
    let (status, _) = api.outside_api("/race-search/nothing", true).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "unknown paths stay loud");

    let providers = api.get("/calendar-service/race-events/providers").await;
    let keys: Vec<&str> =
        providers.as_array().expect("list").iter().filter_map(|p| p["eventsProviderKey"].as_str()).collect();
    assert!(keys.len() >= 3);
    assert!(
        bare.as_array().expect("list").iter().all(|r| keys.contains(&r["provider"].as_str().unwrap_or("")))
    );
}

/// The row and provider shapes of docs/garmin-web-api.md §0 (a 2024 capture of a Go calendar
/// client), with no key of the fake's old guesses.
#[tokio::test]
async fn races_and_providers_have_the_real_shapes() {
    let api = Api::start().await;
    let body = api.get("/race-search/events").await;
    let list = body.as_array().expect("list");
    for key in [
        "provider",
        "eventRef",
        "eventName",
        "eventDate",
        "eventStartTime",
        "eventUrl",
        "registrationUrl",
        "completionTargets",
        "locationStartPoint",
        "eventType",
        "distanceToEvent",
        "administrativeArea",
        "hasCourse",
        "verifiedStatus",
        "garminEventUuid",
        "isOfficial",
    ] {
        assert!(list.iter().all(|r| r.get(key).is_some()), "{key} on every race");
    }
    for old in ["location", "city", "countryCode", "inPerson", "virtual", "providerId", "eventTimeLocal"] {
        assert!(list.iter().all(|r| r.get(old).is_none()), "{old} is not a field of the real row");
    }
    assert!(
        list.iter()
            .all(|r| r["provider"].is_string() && r["isOfficial"] == (r["verifiedStatus"] == "OFFICIAL"))
    );
    let marathon = list
        .iter()
        .find(|r| r["eventName"].as_str().is_some_and(|n| n.ends_with(" Marathon") && !n.contains("Half")))
        .expect("a marathon");
    assert_eq!(marathon["completionTargets"], json!([{"value": 42.195, "unit": "kilometer"}]));
    assert_eq!(marathon["eventType"], "running");
    assert!(marathon["locationStartPoint"]["lat"].is_f64());
    let area = &marathon["administrativeArea"];
    for key in ["countryCode", "cityEn", "stateEn", "cityNative", "stateNative", "nativeLocale"] {
        assert!(area[key].is_string(), "administrativeArea.{key}");
    }
    let shanghai = list.iter().find(|r| r["administrativeArea"]["cityEn"] == "Shanghai").expect("Shanghai");
    assert_eq!(
        shanghai["administrativeArea"],
        json!({"countryCode": "CN", "cityEn": "Shanghai", "stateEn": "Shanghai", "cityNative": "上海",
            "stateNative": "上海", "nativeLocale": "zh_CN"})
    );
    let timed = list.iter().filter(|r| r["eventStartTime"]["startTimeHhMm"].is_string()).count();
    assert!(timed > list.len() / 2 && timed < list.len(), "most listings have a start time, some do not");
    let triathlon = list.iter().find(|r| r["eventType"] == "triathlon").expect("a triathlon");
    assert_eq!(triathlon["completionTargets"].as_array().map(Vec::len), Some(3), "swim, bike, run");
    let online = list.iter().find(|r| r["administrativeArea"].is_null()).expect("a virtual-only race");
    assert_eq!(online["locationStartPoint"], Value::Null);
    assert!(list.iter().all(|r| r["distanceToEvent"].is_null()), "only point searches measure it");
    for kind in ["trail_running", "cycling"] {
        assert!(list.iter().any(|r| r["eventType"] == kind), "{kind}");
    }
    assert!(list.iter().any(|r| r["eventName"].as_str().is_some_and(|n| n.contains("马拉松"))));
    assert!(list.iter().any(|r| r["completionTargets"][0]["unit"] == "mile"));

    let near = api.get("/race-search/events?poiLat=31.2304&poiLon=121.4737&withinMeters=100000").await;
    let near = near.as_array().expect("list");
    assert!(!near.is_empty());
    assert!(near.iter().all(|r| r["distanceToEvent"].as_u64().is_some_and(|m| m <= 100_000)));

    let providers = api.get("/calendar-service/race-events/providers").await;
    for p in providers.as_array().expect("list") {
        let mut keys: Vec<&str> = p.as_object().expect("object").keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(
            keys,
            ["canMakeOfficial", "eventsProviderKey", "eventsProviderName", "logoURL", "verifiedStatus"]
        );
    }
}

#[tokio::test]
async fn every_filter_matches_the_catalogue_filtered_independently() {
    let api = Api::start().await;
    let all = races();
    let api = &api;
    let search = |query: &str| {
        let path = format!("/race-search/events?{query}");
        async move { uuids(&api.get(&path).await) }
    };

    let want = uuids_of(all.iter().filter(|r| r.name.to_lowercase().contains("marathon")));
    assert!(want.len() >= 20);
    assert_eq!(search("searchPhrase=MaRaThOn").await, want, "case-insensitive");
    let want = uuids_of(all.iter().filter(|r| r.name.contains("马拉松")));
    assert!(!want.is_empty());
    assert_eq!(search("searchPhrase=%E9%A9%AC%E6%8B%89%E6%9D%BE").await, want, "Chinese names");

    let (from, to) = (today(), today() + Duration::days(60));
    let want = uuids_of(all.iter().filter(|r| r.date >= from && r.date <= to));
    assert!(!want.is_empty());
    assert_eq!(search(&format!("fromDate={from}&toDate={to}")).await, want);
    let day = all[10].date;
    assert_eq!(
        search(&format!("fromDate={day}&toDate={day}")).await,
        uuids_of(all.iter().filter(|r| r.date == day))
    );

    let shanghai = (31.2304, 121.4737);
    let want: Vec<String> = uuids_of(
        all.iter().filter(|r| r.city.is_some_and(|c| metres(shanghai, (c.lat, c.lon)) <= 100_000.0)),
    );
    assert!(!want.is_empty());
    let near = search("poiLat=31.2304&poiLon=121.4737&withinMeters=100000").await;
    assert_eq!(near, want);
    let towns: std::collections::BTreeSet<&str> =
        all.iter().filter(|r| near.contains(&r.uuid)).filter_map(|r| r.city.map(|c| c.name)).collect();
    assert!(towns.contains("Suzhou") && !towns.contains("Hangzhou"), "{towns:?}");

    let want = uuids_of(all.iter().filter(|r| r.in_person));
    assert_eq!(search("includeVirtual=false").await, want);
    let want = uuids_of(all.iter().filter(|r| r.is_virtual));
    assert!(want.len() > all.iter().filter(|r| !r.in_person).count(), "some races are both");
    assert_eq!(search("includeInPerson=false&includeVirtual=true").await, want);
    assert!(search("includeInPerson=false&includeVirtual=false").await.is_empty());

    let want = uuids_of(all.iter().filter(|r| r.status != "UNVERIFIED"));
    assert!(want.len() < all.len());
    assert_eq!(search("verifiedStatuses=OFFICIAL,VERIFIED").await, want);

    assert_eq!(search("limit=5").await, uuids_of(&all[..5]));
    assert_eq!(search("limit=1000").await.len(), all.len(), "at most 200, and there are fewer");

    let want = uuids_of(all.iter().filter(|r| {
        r.name.to_lowercase().contains("10k") && r.date >= today() && r.in_person && r.status != "UNVERIFIED"
    }));
    let q = format!(
        "searchPhrase=10k&fromDate={}&toDate={}&includeInPerson=true&includeVirtual=false\
         &verifiedStatuses=OFFICIAL,VERIFIED&limit=200",
        today(),
        today() + Duration::days(183)
    );
    assert_eq!(search(&q).await, want, "filters combine");
}

#[tokio::test]
async fn bad_parameters_are_400s() {
    let api = Api::start().await;
    for query in [
        "fromDate=2026-1-1",
        "fromDate=2026-05-01&toDate=2026-04-01",
        "poiLat=31.2",
        "poiLat=31.2&poiLon=121.4",
        "poiLat=91&poiLon=0&withinMeters=10",
        "poiLat=x&poiLon=0&withinMeters=10",
        "limit=many",
        "includeVirtual=maybe",
    ] {
        let (status, body) =
            api.json(reqwest::Method::GET, &format!("/race-search/events?{query}"), None).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{query}: {body}");
        assert_eq!(body["error"], "BadRequestException", "{query}");
    }
    let day = NaiveDate::from_ymd_opt(2020, 1, 1).expect("date");
    assert_eq!(api.get(&format!("/race-search/events?fromDate={day}&toDate={day}")).await, json!([]));
}
