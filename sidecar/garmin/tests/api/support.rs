//! Shared by the tests of `cargo test -p garmin --test api`.
//!
//! Starting a fake Garmin and a client signed in to it, and small helpers.

use chrono::NaiveDate;
use fake_garmin::log::RecordedRequest;
use fake_garmin::{FakeConfig, FakeGarmin};

/// "Today" of the fake's data set.
pub const TODAY: (i32, u32, u32) = (2026, 11, 15);

/// A running fake and a client whose session it issued (kept alive together).
pub struct Env {
    pub fake: FakeGarmin,
    pub client: garmin::Client,
    _dir: tempfile::TempDir,
}

impl Env {
    /// Requests so far whose path contains `part`.
    pub fn requests_to(&self, part: &str) -> Vec<RecordedRequest> {
        self.fake.requests().into_iter().filter(|r| r.path.contains(part)).collect()
    }
}

/// A day.
pub fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

/// The fake's today.
pub fn today() -> NaiveDate {
    day(TODAY.0, TODAY.1, TODAY.2)
}

/// Starts a fake and signs a client in, the way the desktop app hands a session over.
pub async fn start() -> Env {
    let fake = FakeGarmin::start(FakeConfig { today: today(), ..Default::default() }).await.unwrap();
    let issued = fake.issue_session(garmin::DEFAULT_USER_AGENT);
    let origins = garmin::Origins { connect: fake.base_url(), sso: fake.base_url() };
    let cookie_header = issued.cookie_header();
    let mut session = garmin::Session::from_cookie_header(
        garmin::Site::Global,
        origins,
        &cookie_header,
        &issued.csrf_token,
        &issued.user_agent,
    )
    .unwrap();
    session.display_name = Some(issued.display_name.clone());
    session.profile_id = Some(issued.profile_id);
    let dir = tempfile::tempdir().unwrap();
    let store = garmin::SessionStore::new(dir.path());
    store.save(&session).unwrap();
    let client = garmin::Client::builder().store(store).build().unwrap();
    Env { fake, client, _dir: dir }
}
