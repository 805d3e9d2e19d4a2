//! The one reader (`garmin::reads::Garmin`) against the fake: which source answers each read (the
//! fake's request log), the served source as a value and in the reader's log, a failure the person
//! must act on answered at once, Garmin's "nothing here" answered as such (typed, and no other
//! source asked), the request hook holding a read back, and one FIT download per activity.
//!
//! Run with `cargo test -p garmin --test api reads`.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use fake_garmin::faults::{Fault, FaultRule};
use fake_garmin::{FakeConfig, FakeGarmin, Untracked};
use garmin::reads::{RequestHook, Wanted};
use garmin::{Client, Error, Garmin, PersonalApiKey, PersonalClient, RetryPolicy, SessionStore, Source};

use crate::support::{day, today};

/// A fake (with `untracked` kinds) and a data folder holding a web session and/or a key for it.
struct Rig {
    fake: FakeGarmin,
    dir: tempfile::TempDir,
    key: Option<String>,
}

fn fast() -> RetryPolicy {
    RetryPolicy {
        max_retries: 1,
        base_delay: Duration::from_millis(5),
        max_delay: Duration::from_millis(20),
        max_retry_after: Duration::from_secs(1),
    }
}

impl Rig {
    async fn start(web: bool, key: bool, untracked: Untracked) -> Rig {
        let fake = FakeGarmin::start(FakeConfig { today: today(), untracked, ..FakeConfig::default() })
            .await
            .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let store = SessionStore::new(dir.path());
        if web {
            let issued = fake.issue_session(garmin::DEFAULT_USER_AGENT);
            let origins = garmin::Origins { connect: fake.base_url(), sso: fake.base_url() };
            let mut session = garmin::Session::from_cookie_header(
                garmin::Site::Global,
                origins,
                &issued.cookie_header(),
                &issued.csrf_token,
                &issued.user_agent,
            )
            .unwrap();
            session.display_name = Some(issued.display_name.clone());
            session.profile_id = Some(issued.profile_id);
            store.save(&session).unwrap();
        }
        let key = key.then(|| fake.mint_personal_api_key(Duration::from_secs(30 * 86_400)).key);
        if let Some(key) = &key {
            let mut record = PersonalApiKey::new(key.clone(), None);
            record.origin = Some(fake.base_url());
            store.lock().unwrap().write_personal(Some(&record)).unwrap();
        }
        Rig { fake, dir, key }
    }

    /// The reader of the data folder, as the tools and the sync build it (fast retries).
    fn reader(&self) -> Garmin {
        let store = SessionStore::new(self.dir.path());
        let personal = self
            .key
            .as_ref()
            .map(|_| PersonalClient::new(store.clone(), self.fake.base_url()).unwrap().with_retry(fast()));
        let web = Client::builder().store(store).retry(fast()).build().ok();
        Garmin::new(web, personal).unwrap()
    }

    /// Paths the fake saw through the web session (`/gc-api`) and through the Personal API.
    fn paths(&self) -> (Vec<String>, Vec<String>) {
        let (mut web, mut personal) = (Vec::new(), Vec::new());
        for r in self.fake.requests() {
            if r.path.starts_with("/gc-api") {
                web.push(r.path);
            } else if !r.path.contains("personal-api-key/token") && !r.path.starts_with("/__fake") {
                personal.push(r.path);
            }
        }
        (web, personal)
    }
}

#[tokio::test]
async fn the_personal_api_answers_first_and_the_web_session_covers_its_failures_each_source_a_value() {
    let rig = Rig::start(true, true, Untracked::default()).await;
    let reader = rig.reader();
    let first = reader.daily_summary(day(2026, 11, 10)).await.unwrap();
    assert_eq!(first.source, Source::PersonalApi);
    assert!(first.value.is_some_and(|s| s.total_steps.is_some()));
    assert!(rig.paths().0.iter().all(|p| !p.contains("/usersummary/")), "{:?}", rig.paths().0);

    rig.fake
        .push_fault(FaultRule::always(Fault::ServerError(503)).on_path("personal-api:/usersummary-service/"));
    let covered = reader.daily_summary(day(2026, 11, 11)).await.unwrap();
    assert_eq!(covered.source, Source::WebSession, "the web session answered after the Personal API's 503");
    assert_eq!(reader.served().into_iter().collect::<Vec<_>>(), [Source::PersonalApi, Source::WebSession]);
    assert!(reader.fresh().served().is_empty(), "a fresh reader starts with an empty log");
}

#[tokio::test]
async fn a_refused_key_is_answered_at_once_and_never_papered_over_by_the_web_session() {
    let rig = Rig::start(true, true, Untracked::default()).await;
    rig.fake.revoke_personal_api_key(rig.key.as_deref().unwrap());
    rig.fake.clear_requests();
    let err = rig.reader().daily_summary(day(2026, 11, 10)).await.unwrap_err();
    assert!(matches!(err, Error::ApiKeyRejected { .. }), "{err}");
    assert!(rig.paths().0.is_empty(), "the web session was not asked: {:?}", rig.paths().0);
}

#[tokio::test]
async fn garmin_having_nothing_of_a_kind_is_a_typed_answer_and_no_other_source_is_asked() {
    let rig = Rig::start(true, true, Untracked::BIKE_COMPUTER).await;
    rig.fake.clear_requests();
    let reader = rig.reader();
    let (start, end) = (day(2026, 10, 19), day(2026, 11, 15));
    let sleep = reader.kept_sleep(start, end).await.unwrap_err();
    assert!(matches!(sleep, Error::NotFound { .. }) && sleep.means_nothing_there(), "{sleep}");
    let hrv = reader.kept_hrv(start, end).await.unwrap_err();
    assert!(matches!(hrv, Error::NoContent { .. }) && hrv.means_nothing_there(), "{hrv}");
    let weight = reader.kept_weight(start, end).await.unwrap_err();
    assert!(matches!(weight, Error::NoContent { .. }), "{weight}");
    let (web, personal) = rig.paths();
    assert_eq!(personal.len(), 3, "one Personal API request per kind: {personal:?}");
    assert!(web.is_empty(), "Garmin's answer was not asked again of the web session: {web:?}");

    // The same account without a key: the web session answers the same way.
    let web_only = Rig::start(true, false, Untracked::BIKE_COMPUTER).await;
    let reader = web_only.reader();
    assert!(matches!(reader.kept_sleep(start, end).await, Err(Error::NotFound { .. })));
    assert!(matches!(reader.kept_hrv(start, end).await, Err(Error::NoContent { .. })));
    // A tracked account's block has rows, each with Garmin's JSON beside its typed value.
    let tracked = Rig::start(true, false, Untracked::default()).await;
    let nights = tracked.reader().kept_sleep(start, end).await.unwrap();
    assert_eq!(nights.source, Source::WebSession);
    assert!(nights.value.len() > 20, "{}", nights.value.len());
    let night = &nights.value[0];
    assert_eq!(
        night.json.get("calendarDate").and_then(|d| d.as_str()),
        night.value.calendar_date.map(|d| d.to_string()).as_deref()
    );
}

/// A hook allowing `left` requests, counting what it was told.
#[derive(Debug)]
struct Allowance {
    left: AtomicU32,
    told: AtomicU32,
}

impl RequestHook for Allowance {
    fn before_sending(&self, requests: u32) -> Result<(), String> {
        self.told.fetch_add(requests, Ordering::SeqCst);
        let left = self.left.load(Ordering::SeqCst);
        if requests > left {
            return Err("no requests left".to_owned());
        }
        self.left.store(left - requests, Ordering::SeqCst);
        Ok(())
    }
}

#[tokio::test]
async fn the_hook_is_told_of_each_request_and_holds_one_back_before_anything_is_sent() {
    let rig = Rig::start(true, false, Untracked::default()).await;
    let hook = Arc::new(Allowance { left: AtomicU32::new(1), told: AtomicU32::new(0) });
    let reader = rig.reader().with_hook(hook.clone());
    rig.fake.clear_requests();
    assert!(reader.kept_hrv(day(2026, 10, 19), day(2026, 11, 15)).await.is_ok());
    let err = reader.kept_weight(day(2026, 10, 19), day(2026, 11, 15)).await.unwrap_err();
    assert!(matches!(&err, Error::HeldBack { reason } if reason == "no requests left"), "{err}");
    assert_eq!(hook.told.load(Ordering::SeqCst), 2);
    assert_eq!(rig.paths().0.len(), 1, "the held-back read sent nothing: {:?}", rig.paths().0);
}

#[tokio::test]
async fn with_only_a_key_an_activitys_laps_zones_and_series_come_from_one_fit_download() {
    let rig = Rig::start(false, true, Untracked::default()).await;
    let reader = rig.reader();
    let runs = reader.activities_between(day(2026, 11, 1), day(2026, 11, 14), Some("running")).await.unwrap();
    let id = runs.value.iter().find_map(|a| a.activity_id).expect("a run in November");
    rig.fake.clear_requests();
    let parts = reader
        .activity_parts(id, Wanted { weather: false, series_rows: Some(2000), strength_sets: false })
        .await;
    assert!(parts.splits.as_ref().is_ok_and(|s| !s.laps.is_empty()), "{:?}", parts.splits.as_ref().err());
    assert!(parts.zones.as_ref().is_ok_and(|z| !z.is_empty()), "{:?}", parts.zones.as_ref().err());
    let recording = parts.recording.unwrap().unwrap();
    assert_eq!(recording.source, Source::PersonalApi);
    assert!(recording.value.into_details().is_some_and(|d| !d.activity_detail_metrics.is_empty()));
    let (web, personal) = rig.paths();
    assert!(web.is_empty());
    let downloads = personal.iter().filter(|p| p.starts_with("/download-service/files/activity/")).count();
    assert_eq!(downloads, 1, "{personal:?}");
}

#[tokio::test]
async fn a_strength_activitys_sets_are_read_through_the_web_once_its_summary_says_strength() {
    let rig = Rig::start(true, true, Untracked::default()).await;
    let reader = rig.reader();
    let wanted = Wanted { weather: false, series_rows: None, strength_sets: true };
    let month = reader.activities_between(day(2026, 10, 15), day(2026, 11, 14), None).await.unwrap().value;
    let id_of = |key: &str| month.iter().find(|a| a.type_key() == Some(key)).and_then(|a| a.activity_id);
    let strength = id_of("strength_training").expect("a strength session in a month");
    rig.fake.clear_requests();
    let parts = reader.activity_parts(strength, wanted).await;
    let sets = parts.strength_sets.expect("asked of a strength activity").unwrap().expect("sets");
    assert!(sets.exercise_sets.iter().any(|s| s.set_type.as_deref() == Some("ACTIVE")), "{sets:?}");
    let (web, _) = rig.paths();
    assert_eq!(web.iter().filter(|p| p.ends_with("/exerciseSets")).count(), 1, "{web:?}");
    assert!(reader.served().contains(&Source::WebSession));

    let run = id_of("running").expect("a run in a month");
    rig.fake.clear_requests();
    let parts = reader.activity_parts(run, wanted).await;
    assert!(parts.strength_sets.is_none());
    assert!(!rig.paths().0.iter().any(|p| p.ends_with("/exerciseSets")), "{:?}", rig.paths().0);
}

#[tokio::test]
async fn the_kept_sets_of_a_strength_activity_are_garmins_json_beside_the_typed_sets_and_none_for_a_run() {
    let rig = Rig::start(true, true, Untracked::default()).await;
    let reader = rig.reader();
    let month = reader.activities_between(day(2026, 10, 15), day(2026, 11, 14), None).await.unwrap().value;
    let id_of = |key: &str| month.iter().find(|a| a.type_key() == Some(key)).and_then(|a| a.activity_id);
    let strength = id_of("strength_training").expect("a strength session in a month");
    rig.fake.clear_requests();
    let kept = reader.kept_exercise_sets(strength).await.unwrap();
    assert_eq!(kept.source, Source::WebSession, "only the web session serves the corrected sets");
    let raw = kept.value.expect("sets");
    let json_sets = raw.json["exerciseSets"].as_array().unwrap();
    assert_eq!(json_sets.len(), raw.value.exercise_sets.len());
    assert!(
        json_sets.iter().any(|s| s["weight"].as_f64().is_some_and(|g| g > 1000.0)),
        "grams as Garmin sends them"
    );
    let (web, personal) = rig.paths();
    assert_eq!(web, [format!("/gc-api/activity-service/activity/{strength}/exerciseSets")]);
    assert!(personal.is_empty(), "{personal:?}");
    // A run: Garmin answers `exerciseSets: null`, which is none.
    let run = id_of("running").expect("a run in a month");
    assert_eq!(reader.kept_exercise_sets(run).await.unwrap().value, None);
}
