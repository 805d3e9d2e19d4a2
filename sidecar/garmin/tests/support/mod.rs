//! Shared set-up for the garmin crate's integration tests: a fake Garmin, a signed-in session saved
//! in a temporary data folder, and clients on it.

#![allow(dead_code)]

use std::time::Duration;

use chrono::NaiveDate;
use fake_garmin::{FakeConfig, FakeGarmin};
use garmin::{Client, ClientBuilder, Origins, RetryPolicy, Session, SessionStore, Site, StoredCookie};

/// The browser the test sessions "signed in" with.
pub const USER_AGENT: &str = "Mozilla/5.0 (X11; Linux x86_64) GarminMcpTests/1.0";

/// Fast retries so fault tests take milliseconds.
pub fn fast_retry() -> RetryPolicy {
    RetryPolicy {
        max_retries: 3,
        base_delay: Duration::from_millis(10),
        max_delay: Duration::from_millis(50),
        max_retry_after: Duration::from_secs(5),
    }
}

/// A fake Garmin plus a saved session for it.
pub struct Rig {
    pub fake: FakeGarmin,
    pub store: SessionStore,
    pub dir: tempfile::TempDir,
}

impl Rig {
    /// Starts a fake whose access cookies live `jwt_lifetime`, signs in, saves the session.
    pub async fn start(jwt_lifetime: Duration) -> Rig {
        let fake = FakeGarmin::start(FakeConfig {
            jwt_lifetime,
            today: NaiveDate::from_ymd_opt(2026, 11, 15).unwrap(),
            ..FakeConfig::default()
        })
        .await
        .expect("fake starts");
        let issued = fake.issue_session(USER_AGENT);
        let origins = Origins { connect: fake.base_url(), sso: fake.base_url() };
        let mut session = Session::from_cookie_header(
            Site::Global,
            origins,
            &issued.cookie_header(),
            &issued.csrf_token,
            USER_AGENT,
        )
        .unwrap();
        session.display_name = Some(issued.display_name.clone());
        session.profile_id = Some(issued.profile_id);
        let dir = tempfile::tempdir().unwrap();
        let store = SessionStore::new(dir.path());
        store.save(&session).unwrap();
        Rig { fake, store, dir }
    }

    /// A client on the saved session (a new one behaves like another process).
    pub fn client(&self) -> Client {
        self.client_with(|b| b)
    }

    /// A client with extra builder settings.
    pub fn client_with(&self, tweak: impl FnOnce(ClientBuilder) -> ClientBuilder) -> Client {
        tweak(Client::builder().store(self.store.clone()).retry(fast_retry())).build().unwrap()
    }
}

/// A deterministic session whose content depends on `n` (big enough that writing it takes a while).
pub fn sample_session(n: u64) -> Session {
    let mut session = Session::new(
        Site::Cn,
        Site::Cn.default_origins(),
        vec![StoredCookie {
            name: "JWT_WEB".into(),
            value: format!("{n:08}-{}", "x".repeat(256 * 1024)),
            domain: Some(".garmin.cn".into()),
            path: Some("/".into()),
            expires: None,
            secure: true,
            http_only: true,
        }],
        format!("csrf-{n}"),
        USER_AGENT.into(),
    );
    session.refresh_count = n;
    session.captured_at = chrono::DateTime::from_timestamp(1_700_000_000, 0).unwrap();
    session
}
