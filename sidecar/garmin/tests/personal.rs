//! The Personal API client against the fake Garmin: the key in the session file (old files load, a
//! key-only file loads, web writes keep the key), single-flight token renewal across store handles,
//! refused keys, range windows within each cap, `Retry-After`, no repeat of a 4xx, and the key
//! never leaking.
//!
//! Run: `cargo test -p garmin --test personal`

mod support;

use std::time::{Duration, Instant};

use chrono::NaiveDate;
use fake_garmin::faults::{Fault, FaultRule};
use fake_garmin::{FakeConfig, FakeGarmin, PersonalOptions};
use garmin::{Error, ErrorKind, PersonalApiKey, PersonalClient, RetryPolicy, SessionStore};
use support::sample_session;

const TODAY: (i32, u32, u32) = (2026, 11, 30);

fn day(m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(if m > TODAY.1 { 2025 } else { 2026 }, m, d).unwrap()
}

async fn fake() -> FakeGarmin {
    let today = NaiveDate::from_ymd_opt(TODAY.0, TODAY.1, TODAY.2).unwrap();
    FakeGarmin::start(FakeConfig { today, ..FakeConfig::default() }).await.unwrap()
}

/// A data folder holding `key`, and a client on it.
fn keyed(fake: &FakeGarmin, key: &str) -> (tempfile::TempDir, SessionStore, PersonalClient) {
    let dir = tempfile::tempdir().unwrap();
    let store = SessionStore::new(dir.path());
    store.lock().unwrap().write_personal(Some(&PersonalApiKey::new(key, None))).unwrap();
    let client = PersonalClient::new(store.clone(), fake.base_url()).unwrap();
    (dir, store, client)
}

fn fast() -> RetryPolicy {
    RetryPolicy {
        max_retries: 2,
        base_delay: Duration::from_millis(10),
        max_delay: Duration::from_millis(50),
        max_retry_after: Duration::from_secs(5),
    }
}

#[test]
fn old_session_files_load_a_key_only_file_loads_and_each_write_keeps_the_other_credential() {
    let tmp = tempfile::tempdir().unwrap();
    let store = SessionStore::new(tmp.path());
    // A file written before keys existed.
    store.save(&sample_session(1)).unwrap();
    assert!(store.load().unwrap().is_some());
    assert!(store.load_personal().unwrap().is_none());
    // Adding a key keeps the web session; saving the web session keeps the key.
    store.lock().unwrap().write_personal(Some(&PersonalApiKey::new("k-123", None))).unwrap();
    store.save(&sample_session(2)).unwrap();
    assert_eq!(store.load().unwrap(), Some(sample_session(2)));
    assert_eq!(store.load_personal().unwrap().map(|k| k.key), Some("k-123".to_owned()));
    // Signing out of the web keeps the key: the file then holds only it, and loads.
    assert!(store.clear().unwrap());
    assert!(store.load().unwrap().is_none());
    assert_eq!(store.load_personal().unwrap().map(|k| k.key), Some("k-123".to_owned()));
    let text = std::fs::read_to_string(store.path()).unwrap();
    assert!(!text.contains("cookies"), "{text}");
    // A hand-written key-only file loads too.
    std::fs::write(
        store.path(),
        r#"{"version":1,"personal_api":{"key":"k-9","added_at":"2026-11-01T00:00:00Z"}}"#,
    )
    .unwrap();
    assert_eq!(store.load_personal().unwrap().map(|k| k.key), Some("k-9".to_owned()));
    // Removing the key of a key-only file removes the file.
    store.lock().unwrap().write_personal(None).unwrap();
    assert!(!store.path().exists());
}

#[tokio::test]
async fn eight_store_handles_renewing_at_once_present_the_key_exactly_once() {
    let fake = fake().await;
    let key = fake.mint_personal_api_key(Duration::from_secs(90 * 86_400));
    let (_dir, store, _) = keyed(&fake, &key.key);
    // Each handle is what a separate process has: its own memory, the same file and lock.
    let calls = (0..8).map(|_| {
        let client = PersonalClient::new(store.clone(), fake.base_url()).unwrap();
        async move { client.daily_summary(day(11, 20)).await }
    });
    for r in futures::future::join_all(calls).await {
        assert!(r.unwrap().is_some());
    }
    assert_eq!(fake.personal_api_exchanges().values().copied().collect::<Vec<_>>(), vec![1]);
    let saved = store.load_personal().unwrap().unwrap();
    assert_eq!(saved.exchanges, 1);
    let left = saved.token_expires_at.unwrap() - chrono::Utc::now();
    assert!(left > chrono::TimeDelta::hours(23), "a 24 h token: {left}");

    // Once the token dies (401), exactly one handle renews it again.
    fake.expire_personal_api_tokens();
    let calls = (0..8).map(|_| {
        let client = PersonalClient::new(store.clone(), fake.base_url()).unwrap();
        async move { client.hrv(day(11, 20)).await }
    });
    for r in futures::future::join_all(calls).await {
        r.unwrap();
    }
    assert_eq!(fake.personal_api_exchanges().values().copied().collect::<Vec<_>>(), vec![2]);
}

#[tokio::test]
async fn an_expired_or_deleted_key_is_refused_with_how_to_make_a_new_one() {
    let fake = fake().await;
    let expired = fake.mint_personal_api_key(Duration::from_secs(86_400));
    fake.expire_personal_api_key(&expired.key);
    let (_d1, _, client) = keyed(&fake, &expired.key);
    let e = client.daily_summary(day(11, 20)).await.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::ApiKeyRejected);
    let text = e.to_string();
    assert!(
        text.contains("expired") && text.contains("personalApiToken") && text.contains("login --api-key"),
        "{text}"
    );

    let deleted = fake.mint_personal_api_key(Duration::from_secs(86_400));
    let (_d2, _, client) = keyed(&fake, &deleted.key);
    client.daily_summary(day(11, 20)).await.unwrap();
    fake.revoke_personal_api_key(&deleted.key);
    let e = client.hrv(day(11, 20)).await.unwrap_err();
    assert!(matches!(e, Error::ApiKeyRejected { .. }), "{e:?}");
    assert!(e.to_string().contains("deleted"), "{e}");
    for text in [format!("{e}"), format!("{e:?}")] {
        assert!(!text.contains(&deleted.key) && !text.contains(&expired.key));
    }
}

#[tokio::test]
async fn a_year_of_sleep_costs_twelve_requests_each_within_the_31_day_cap_and_never_more_than_two_in_flight()
{
    let fake = fake().await;
    // Two in flight is allowed; a third at once would be answered 429.
    fake.set_personal_options(PersonalOptions { max_in_flight: 2, retry_after_secs: 1, latency_ms: 30 });
    let key = fake.mint_personal_api_key(Duration::from_secs(86_400));
    let (_dir, _, client) = keyed(&fake, &key.key);
    let (start, end) = (day(12, 1), day(11, 30));
    let stats = client.sleep_stats(start, end).await.unwrap();
    assert!(stats.len() > 300, "{} nights", stats.len());
    let log = fake.requests();
    let windows: Vec<_> = log.iter().filter(|r| r.path.ends_with("dailySleepSummariesByDate")).collect();
    assert_eq!(windows.len(), 12, "365 days in windows of at most 31");
    assert!(log.iter().all(|r| r.status != 429), "never more than two in flight");
    let mut covered = 0;
    for w in &windows {
        let q: std::collections::HashMap<String, String> =
            url::form_urlencoded::parse(w.query.as_deref().unwrap().as_bytes()).into_owned().collect();
        let (s, e) =
            (q["startDate"].parse::<NaiveDate>().unwrap(), q["endDate"].parse::<NaiveDate>().unwrap());
        let days = (e - s).num_days() + 1;
        assert!(days <= 31, "{s}..{e}");
        covered += days;
    }
    assert_eq!(covered, 365);
    // HRV's cap is 365: one request for the same year.
    fake.clear_requests();
    client.hrv_range(start, end).await.unwrap();
    assert_eq!(fake.requests().iter().filter(|r| r.path.starts_with("/hrv-service/hrv/daily/")).count(), 1);
}

#[tokio::test]
async fn a_429_is_retried_after_its_retry_after_and_a_404_is_not_retried() {
    let fake = fake().await;
    let key = fake.mint_personal_api_key(Duration::from_secs(86_400));
    let (_dir, _, client) = keyed(&fake, &key.key);
    let client = client.with_retry(fast());
    fake.push_fault(
        FaultRule::times(Fault::RateLimited { retry_after_secs: Some(1) }, 1).on_path("/hrv-service/"),
    );
    let started = Instant::now();
    client.hrv(day(11, 20)).await.unwrap();
    assert!(started.elapsed() >= Duration::from_secs(1), "waited as Garmin asked");
    let hrv: Vec<u16> =
        fake.requests().iter().filter(|r| r.path.starts_with("/hrv-service/")).map(|r| r.status).collect();
    assert_eq!(hrv, vec![429, 200]);

    fake.clear_requests();
    fake.push_fault(FaultRule::times(Fault::NotFound, 5).on_path("/usersummary-service/"));
    let e = client.daily_summary(day(11, 20)).await.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::NotFound);
    assert_eq!(fake.requests().iter().filter(|r| r.path.starts_with("/usersummary-service/")).count(), 1);
}

#[tokio::test]
async fn the_key_and_token_never_appear_in_debug_output_errors_the_request_log_or_other_files() {
    let fake = fake().await;
    let key = fake.mint_personal_api_key(Duration::from_secs(86_400));
    let (dir, store, client) = keyed(&fake, &key.key);
    client.daily_summary(day(11, 20)).await.unwrap();
    let saved = store.load_personal().unwrap().unwrap();
    let token = saved.token.clone().unwrap();
    let outputs = [
        format!("{saved:?}"),
        format!("{client:?}"),
        format!("{:?}", PersonalClient::exchange_key(&fake.base_url(), &key.key).await.unwrap()),
        serde_json::to_string(&fake.requests()).unwrap(),
        PersonalClient::exchange_key(&fake.base_url(), "wrong").await.unwrap_err().to_string(),
    ];
    for text in &outputs {
        assert!(!text.contains(&key.key) && !text.contains(&token), "leak in {text}");
    }
    // The session file holds both; no other file in the data folder holds either.
    assert!(std::fs::read_to_string(store.path()).unwrap().contains(&key.key));
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let path = entry.unwrap().path();
        if path != store.path() {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            assert!(!text.contains(&key.key) && !text.contains(&token), "{}", path.display());
        }
    }
}

#[tokio::test]
async fn the_remaining_endpoints_answer_what_the_web_reads_answer_for_the_same_athlete() {
    let rig = support::Rig::start(Duration::from_secs(3600)).await;
    let fake = &rig.fake;
    let key = fake.mint_personal_api_key(Duration::from_secs(86_400));
    rig.store.lock().unwrap().write_personal(Some(&PersonalApiKey::new(&key.key, None))).unwrap();
    let personal = PersonalClient::new(rig.store.clone(), fake.base_url()).unwrap();
    let web = rig.client();
    let date = NaiveDate::from_ymd_opt(2026, 11, 10).unwrap();

    // E13 heart-rate zones, E17 SpO2, E19 fitness age, E26 settings: the web's figures.
    assert_eq!(personal.hr_zones().await.unwrap(), web.metrics().hr_zones().await.unwrap());
    let (p, w) =
        (personal.spo2(date).await.unwrap().unwrap(), web.wellness().spo2(date).await.unwrap().unwrap());
    assert_eq!(p, w);
    assert!(p.average_spo2.is_some());
    assert_eq!(personal.fitness_age(date).await.unwrap(), web.metrics().fitness_age(date).await.unwrap());
    assert_eq!(personal.settings().await.unwrap(), web.profile().settings().await.unwrap());

    // E4 the original file: the same FIT bytes as the web download.
    let id = web.activities().search(&garmin::api::ActivitySearch::new().limit(1)).await.unwrap()[0]
        .activity_id
        .unwrap();
    let (p, w) =
        (personal.original_file(id).await.unwrap(), web.downloads().activity_original(id).await.unwrap());
    assert_eq!((p.format, p.file.bytes.len()), (w.format, w.file.bytes.len()));
    assert_eq!(p.file.bytes, w.file.bytes);
    assert!(
        fake.requests()
            .iter()
            .any(|r| r.path == format!("/download-service/files/activity/{id}") && r.status == 200),
        "read on the Personal API's path, without /gc-api"
    );

    // E22 the weight goal is the web goal list's (grams); E3, E18 empty for this athlete; E23 the
    // day's goals without meals; E24/E25 nothing (no cycle tracked).
    let goals = personal.weight_goals(date - chrono::Duration::days(30), date).await.unwrap();
    assert_eq!(goals.len(), 1);
    assert_eq!(goals[0].goal_value, Some(69_000.0));
    assert!(personal.activity_workouts(id).await.unwrap().is_empty());
    assert!(personal.wellness_activities(date, date).await.unwrap().is_empty());
    let food = personal.nutrition_log(date).await.unwrap().unwrap();
    assert_eq!(food["mealDetails"], serde_json::json!([]));
    assert!(personal.cycle_summary(date).await.unwrap().is_none());
    assert!(personal.cycle_day(date).await.unwrap().is_none());
    // Every one of those went to the Personal API's paths with a bearer token, none over 2 at once.
    assert!(fake.requests().iter().all(|r| r.status != 429));
}

#[tokio::test]
async fn the_original_file_needs_a_zip_accept_and_the_raw_weigh_in_list_is_400_as_garmin_answers() {
    let fake = fake().await;
    let key = fake.mint_personal_api_key(Duration::from_secs(86_400));
    let token = PersonalClient::exchange_key(&fake.base_url(), &key.key).await.unwrap().token;
    let http = garmin::https::client().unwrap();
    let get = |path: String, accept: &'static str| {
        http.get(format!("{}{path}", fake.base_url())).bearer_auth(&token).header("accept", accept).send()
    };
    let id = fake_first_activity(&fake, &get).await;
    let octet =
        get(format!("/download-service/files/activity/{id}"), "application/octet-stream").await.unwrap();
    assert_eq!(octet.status().as_u16(), 406, "application/octet-stream alone is refused");
    let zip =
        get(format!("/download-service/files/activity/{id}"), "application/x-zip-compressed").await.unwrap();
    assert_eq!(zip.status().as_u16(), 200);
    let all =
        get("/weight-service/weight/all/2026-11-01/2026-11-10".into(), "application/json").await.unwrap();
    assert_eq!(all.status().as_u16(), 400);
    // Without a bearer token, every data path is 401.
    let bare =
        http.get(format!("{}/biometric-service/heartRateZones/v2", fake.base_url())).send().await.unwrap();
    assert_eq!(bare.status().as_u16(), 401);
}

/// The newest activity's id, read through the Personal API's search.
async fn fake_first_activity<F, Fut>(_fake: &FakeGarmin, get: &F) -> u64
where
    F: Fn(String, &'static str) -> Fut,
    Fut: std::future::Future<Output = reqwest::Result<reqwest::Response>>,
{
    let list: serde_json::Value =
        get("/activitylist-service/activities/search/activities?start=0&limit=1".into(), "application/json")
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
    list[0]["activityId"].as_u64().unwrap()
}
