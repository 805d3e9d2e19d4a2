//! Run: `cargo test -p garmin --test api races::`.
//!
//! Garmin's race search (`EventsApi::search_races`, reference §4.10): the query the web app sends,
//! answers equal to the fake's catalogue filtered here, the fallback from `/gc-api` to the bare
//! path on a 404 (open question 12) with the same session headers and renewal, input checks, and
//! the providers list.

use chrono::Duration;
use fake_garmin::data::races::{Race, catalogue};
use fake_garmin::faults::{Fault, FaultRule};
use garmin::Error;
use garmin::api::RaceSearch;

use super::support::{start, today};

/// The fake's catalogue (seed 42, the suite's today).
fn races() -> Vec<Race> {
    catalogue(42, today())
}

fn verified(r: &Race) -> bool {
    r.status == "OFFICIAL" || r.status == "VERIFIED"
}

fn uuids<'a>(races: impl IntoIterator<Item = &'a Race>) -> Vec<String> {
    races.into_iter().map(|r| r.uuid.clone()).collect()
}

fn got(found: &[garmin::models::events::RaceEvent]) -> Vec<String> {
    found.iter().map(|r| r.garmin_event_uuid.clone().unwrap_or_default()).collect()
}

#[tokio::test]
async fn a_search_sends_the_web_apps_query_and_decodes_the_catalogue() {
    let env = start().await;
    env.fake.clear_requests();
    let (from, to) = (today(), today() + Duration::days(180));
    let found = env.client.events().search_races(&RaceSearch::new().between(from, to)).await.unwrap();

    let sent = env.requests_to("race-search");
    assert_eq!(sent.len(), 1, "served under /gc-api: no fallback");
    assert_eq!(sent[0].path, "/gc-api/race-search/events");
    assert_eq!(
        sent[0].query.as_deref(),
        Some(
            "fromDate=2026-11-15&toDate=2027-05-14&includeInPerson=true&includeVirtual=true\
             &verifiedStatuses=OFFICIAL%2CVERIFIED&limit=200"
        )
    );
    let all = races();
    let want: Vec<&Race> = all.iter().filter(|r| r.date >= from && r.date <= to && verified(r)).collect();
    assert!(want.len() >= 30);
    assert_eq!(got(&found), uuids(want.iter().copied()));
    for (race, want) in found.iter().zip(&want) {
        assert_eq!(race.event_name.as_deref(), Some(want.name.as_str()));
        assert_eq!(race.event_date, Some(want.date));
        assert_eq!(race.event_type.as_deref(), Some(want.event_type));
        let metres = race.distances_meters();
        assert_eq!(metres.len(), want.targets.len());
        for (m, w) in metres.iter().zip(want.targets_m()) {
            assert!((m - w).abs() < 1e-6, "{}: {m} vs {w}", want.name);
        }
        let point = race.location_start_point.as_ref().map(|p| (p.lat.unwrap(), p.lon.unwrap()));
        assert_eq!(point, want.start_point());
        let area = race.administrative_area.as_ref();
        assert_eq!(area.and_then(|a| a.city_en.clone()), want.city.map(|c| c.name.to_owned()));
        assert_eq!(area.and_then(|a| a.country_code.clone()), want.city.map(|c| c.country_code.to_owned()));
        assert_eq!(race.is_virtual_only(), !want.in_person);
        assert_eq!(race.start_hh_mm(), want.start_hhmm.as_deref());
        assert_eq!(race.provider.as_deref(), Some(want.provider));
        assert_eq!(race.is_official, Some(want.status == "OFFICIAL"));
        assert_eq!(race.event_url.as_deref(), Some(want.url.as_str()));
    }
    let triathlon = found.iter().find(|r| r.completion_targets.len() == 3).expect("a triathlon ahead");
    let legs = triathlon.distances_meters();
    assert_eq!(triathlon.total_meters(), Some(legs.iter().sum()));
}

#[tokio::test]
async fn phrase_place_and_kind_filters_reach_the_catalogue() {
    let env = start().await;
    let api = env.client.events();
    let all = races();

    let found =
        api.search_races(&RaceSearch::new().phrase("Half Marathon").include_unverified()).await.unwrap();
    assert_eq!(got(&found), uuids(all.iter().filter(|r| r.name.to_lowercase().contains("half marathon"))));

    let found =
        api.search_races(&RaceSearch::new().near(31.2304, 121.4737, 50_000.0).limit(5)).await.unwrap();
    assert!(!found.is_empty() && found.len() <= 5);
    assert!(found.iter().all(|r| r.is_in("CN") && r.place().is_some_and(|p| p.ends_with(", CN"))));
    assert!(
        found.iter().all(|r| r.distance_to_event.is_some_and(|m| m <= 50_000.0)),
        "metres from the point"
    );
    let q = env.requests_to("race-search").pop().unwrap().query.unwrap();
    assert!(q.starts_with("poiLat=31.2304&poiLon=121.4737&withinMeters=50000&"), "{q}");
    assert!(q.ends_with("&limit=5"), "{q}");

    let found = api.search_races(&RaceSearch::new().kinds(false, true)).await.unwrap();
    assert_eq!(got(&found), uuids(all.iter().filter(|r| r.is_virtual && verified(r))));
}

#[tokio::test]
async fn a_404_under_gc_api_falls_back_to_the_bare_path_with_the_same_session() {
    let env = start().await;
    env.fake.push_fault(FaultRule::always(Fault::NotFound).on_path("/gc-api/race-search/"));
    env.fake.clear_requests();
    let search = RaceSearch::new().phrase("marathon");
    let found = env.client.events().search_races(&search).await.unwrap();
    let want = uuids(races().iter().filter(|r| r.name.to_lowercase().contains("marathon") && verified(r)));
    assert_eq!(got(&found), want);

    let sent = env.requests_to("race-search");
    let paths: Vec<(&str, u16)> = sent.iter().map(|r| (r.path.as_str(), r.status)).collect();
    assert_eq!(paths, [("/gc-api/race-search/events", 404), ("/race-search/events", 200)]);
    assert_eq!(sent[0].query, sent[1].query);
    let bare = &sent[1];
    assert!(bare.header_names.iter().any(|h| h == "connect-csrf-token"));
    assert_eq!(bare.sec_fetch_site.as_deref(), Some("same-origin"));
    assert_eq!(bare.user_agent.as_deref(), Some(garmin::DEFAULT_USER_AGENT));
    assert!(bare.accept.as_deref().unwrap_or_default().contains("application/json"));

    // Expiry on the bare path: renewed once, then answered.
    env.fake.push_fault(FaultRule::times(Fault::ExpireSession, 1).on_path("/race-search/events?"));
    env.fake.clear_requests();
    let again = env.client.events().search_races(&search).await.unwrap();
    assert_eq!(got(&again), got(&found));
    let statuses: Vec<(String, u16)> = env.fake.requests().into_iter().map(|r| (r.path, r.status)).collect();
    assert_eq!(statuses.len(), 4, "{statuses:?}");
    assert_eq!(statuses[1], ("/race-search/events".to_owned(), 401));
    assert!(statuses[2].0.ends_with("/di-oauth/refresh"), "{statuses:?}");
    assert_eq!(statuses[3], ("/race-search/events".to_owned(), 200));
}

#[tokio::test]
async fn a_404_at_both_paths_is_not_found_and_bad_input_sends_nothing() {
    let env = start().await;
    env.fake.push_fault(FaultRule::always(Fault::NotFound).on_path("race-search/"));
    let err = env.client.events().search_races(&RaceSearch::new()).await.unwrap_err();
    assert!(matches!(&err, Error::NotFound { endpoint } if endpoint == "GET /race-search/events"), "{err}");
    env.fake.clear_faults();
    env.fake.clear_requests();

    let api = env.client.events();
    let reversed = RaceSearch::new().between(today(), today() - Duration::days(1));
    assert!(matches!(api.search_races(&reversed).await, Err(Error::InvalidInput(_))));
    let nowhere = RaceSearch::new().near(95.0, 0.0, 1000.0);
    assert!(matches!(api.search_races(&nowhere).await, Err(Error::InvalidInput(_))));
    assert!(matches!(
        api.search_races(&RaceSearch::new().near(0.0, 0.0, 0.0)).await,
        Err(Error::InvalidInput(_))
    ));
    assert!(env.requests_to("race-search").is_empty());
    assert_eq!(RaceSearch::new().limit(5000).limit, 200);
}

#[tokio::test]
async fn providers_are_listed_and_races_refer_to_them() {
    let env = start().await;
    let providers = env.client.events().race_providers().await.unwrap();
    assert_eq!(env.requests_to("providers")[0].path, "/gc-api/calendar-service/race-events/providers");
    assert!(providers.len() >= 3 && providers.iter().all(|p| p.events_provider_name.is_some()));
    assert!(providers.iter().any(|p| p.logo_url.is_some()) && providers.iter().any(|p| p.logo_url.is_none()));
    let found = env.client.events().search_races(&RaceSearch::new().limit(50)).await.unwrap();
    assert_eq!(found.len(), 50);
    assert!(
        found
            .iter()
            .all(|r| r.provider.is_some() && providers.iter().any(|p| p.events_provider_key == r.provider))
    );
}

/// The shapes docs/garmin-web-api.md §0 gives from a 2024 capture of a Go calendar client: the
/// city is in `administrativeArea`, the start time in `eventStartTime`, `provider` is a key of the
/// providers list (whose rows are `eventsProviderKey`/`eventsProviderName`…).
#[tokio::test]
async fn real_race_search_shapes_give_the_city_start_time_place_and_providers() {
    let env = start().await;
    let body = serde_json::json!([{
        "provider": "RUNSIGNUP", "eventRef": "123", "eventName": "Oakland Running Festival",
        "eventDate": "2025-03-23", "eventStartTime": "07:30:00", "eventUrl": "https://example.org/orf",
        "registrationUrl": null, "completionTargets": [{"value": 42.195, "unit": "kilometer"}],
        "locationStartPoint": {"lat": 37.8, "lon": -122.27}, "eventType": "running",
        "distanceToEvent": 1234, "administrativeArea": {"countryCode": "US", "cityEn": "Oakland",
        "stateEn": "California", "cityNative": "Oakland", "stateNative": "California",
        "nativeLocale": "en_US"}, "hasCourse": true, "verifiedStatus": "OFFICIAL",
        "garminEventUuid": "7b2c", "sig": "x", "detailsEndpoints": [], "isOfficial": true
    }]);
    let race: garmin::models::events::RaceEvent = serde_json::from_value(body[0].clone()).unwrap();
    assert_eq!(race.start_hh_mm(), Some("07:30"));
    assert_eq!(race.place().as_deref(), Some("Oakland, California, US"));
    assert!(race.is_in("oakland") && race.is_in("CALIFORNIA") && race.is_in("us") && !race.is_in("u"));
    assert_eq!(race.total_meters(), Some(42_195.0));
    assert!(!race.is_virtual_only());
    assert!(race.extra.contains_key("sig"), "unmodelled fields are kept");
    let provider: garmin::models::events::RaceProvider = serde_json::from_value(serde_json::json!({
        "eventsProviderKey": "RUNSIGNUP", "eventsProviderName": "RunSignup", "verifiedStatus": "VERIFIED",
        "logoURL": null, "canMakeOfficial": false
    }))
    .unwrap();
    assert_eq!(provider.events_provider_key, race.provider);

    // The same through the fake: a Chinese city by its native name, its start time, its place.
    let found = env.client.events().search_races(&RaceSearch::new().include_unverified()).await.unwrap();
    let shanghai: Vec<_> = found.iter().filter(|r| r.is_in("上海")).collect();
    assert!(!shanghai.is_empty());
    assert!(shanghai.iter().all(|r| r.place().is_some_and(|p| p.contains("上海") && p.ends_with("CN"))));
    assert!(found.iter().filter(|r| r.start_hh_mm().is_some()).count() > found.len() / 2);
    assert!(found.iter().any(|r| r.start_hh_mm().is_none()), "some listings have no start time");
    let providers = env.client.events().race_providers().await.unwrap();
    assert!(!providers.is_empty());
}
