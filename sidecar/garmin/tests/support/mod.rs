//! Shared set-up for the garmin crate's integration tests: a fake Garmin, a signed-in session saved
//! in a temporary data folder, and clients on it.
//!
//! Run: shared by the `garmin` test binaries, e.g. `cargo test -p garmin --test api`.

#![allow(dead_code, reason = "shared by several test binaries; each uses part of it")]

use std::time::Duration;

use chrono::NaiveDate;
use fake_garmin::{FakeConfig, FakeGarmin, SessionOptions};
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
        Rig::start_with(jwt_lifetime, SessionOptions::default()).await
    }

    /// [`Rig::start`] with the fake's sign-ins and renewals answering as `options` says.
    pub async fn start_with(jwt_lifetime: Duration, options: SessionOptions) -> Rig {
        let fake = FakeGarmin::start(FakeConfig {
            jwt_lifetime,
            today: NaiveDate::from_ymd_opt(2026, 11, 15).unwrap(),
            ..FakeConfig::default()
        })
        .await
        .expect("fake starts");
        fake.set_session_options(options);
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

    /// A fake and a session made the way a browser signs in: the SSO form (which also sets the
    /// SSO's `CASTGC`), then the Connect page for the CSRF token; every cookie kept.
    pub async fn start_through_sso(jwt_lifetime: Duration) -> Rig {
        let rig = Rig::start(jwt_lifetime).await;
        let http = garmin::https::client_builder()
            .unwrap()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        let signed_in = http
            .post(rig.fake.sign_in_url())
            .header("user-agent", USER_AGENT)
            .header("content-type", "application/x-www-form-urlencoded")
            .body("username=runner%40example.com&password=pw")
            .send()
            .await
            .unwrap();
        assert_eq!(signed_in.status(), 302);
        let cookies: Vec<String> = signed_in
            .headers()
            .get_all("set-cookie")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .filter_map(|v| v.split(';').next().map(str::to_owned))
            .collect();
        let header = cookies.join("; ");
        let page = http
            .get(format!("{}/app/", rig.fake.base_url()))
            .header("user-agent", USER_AGENT)
            .header("cookie", &header)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let csrf =
            page.split(r#"name="csrf-token" content=""#).nth(1).and_then(|r| r.split('"').next()).unwrap();
        let origins = Origins { connect: rig.fake.base_url(), sso: rig.fake.base_url() };
        let session = Session::from_cookie_header(Site::Global, origins, &header, csrf, USER_AGENT).unwrap();
        rig.store.save(&session).unwrap();
        rig
    }

    /// Presents the saved session's refresh credential twice, as a broken other client would:
    /// Garmin sees the replay and kills the session family.
    pub async fn kill_session_family(&self) {
        let session = self.store.load().unwrap().unwrap();
        let cookie: Vec<String> = session.cookies.iter().map(|c| format!("{}={}", c.name, c.value)).collect();
        let http = garmin::https::client().unwrap();
        for _ in 0..2 {
            http.post(format!("{}/services/auth/token/di-oauth/refresh", self.fake.base_url()))
                .header("user-agent", USER_AGENT)
                .header("cookie", cookie.join("; "))
                .header("connect-csrf-token", &session.csrf_token)
                .send()
                .await
                .unwrap();
        }
        assert_eq!(self.fake.reuse_detected(), 1);
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
