//! Shared by the tests of `cargo test -p fake-garmin --test core`.
//!
//! Test helpers: starting a fake, and a minimal "browser" that keeps a cookie jar, merges every
//! `Set-Cookie`, and sends the headers Garmin insists on (reference §2.5).

use std::collections::BTreeMap;
use std::time::Duration;

use fake_garmin::{FakeConfig, FakeGarmin, IssuedSession};
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use reqwest::{Method, Response, StatusCode};

/// The User-Agent the tests sign in with.
pub const UA: &str = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) fake-test";

/// A fake with the default config on a free port.
pub async fn start() -> FakeGarmin {
    start_with(|_| {}).await
}

/// A fake on a free port, with `tweak` applied to the default config.
pub async fn start_with(tweak: impl FnOnce(&mut FakeConfig)) -> FakeGarmin {
    let mut config = FakeConfig { port: 0, ..FakeConfig::default() };
    tweak(&mut config);
    FakeGarmin::start(config).await.expect("fake-garmin starts")
}

/// A client that neither follows redirects nor keeps cookies (the tests do that themselves).
pub fn http() -> reqwest::Client {
    garmin::https::client_builder()
        .unwrap()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(30))
        .build()
        .expect("reqwest client")
}

/// One client's view of a session: cookie jar, CSRF and User-Agent.
#[derive(Clone, Debug)]
pub struct Browser {
    pub base: String,
    pub jar: BTreeMap<String, String>,
    pub csrf: String,
    pub user_agent: String,
    pub client: reqwest::Client,
}

impl Browser {
    /// A browser holding a freshly issued session.
    pub fn signed_in(fake: &FakeGarmin) -> Self {
        Self::from_issued(fake, &fake.issue_session(UA))
    }

    pub fn from_issued(fake: &FakeGarmin, s: &IssuedSession) -> Self {
        Self {
            base: fake.base_url(),
            jar: s.cookies.iter().cloned().collect(),
            csrf: s.csrf_token.clone(),
            user_agent: s.user_agent.clone(),
            client: http(),
        }
    }

    pub fn cookie(&self, name: &str) -> String {
        self.jar.get(name).cloned().unwrap_or_default()
    }

    pub fn cookie_header(&self) -> String {
        self.jar.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("; ")
    }

    /// Every header a correct client sends on `/gc-api`.
    pub fn api_headers(&self) -> HeaderMap {
        let mut h = HeaderMap::new();
        let mut put = |name: &'static str, value: &str| {
            h.insert(HeaderName::from_static(name), HeaderValue::from_str(value).expect("header value"));
        };
        put("cookie", &self.cookie_header());
        put("connect-csrf-token", &self.csrf);
        put("sec-fetch-site", "same-origin");
        put("accept", "application/json, text/plain, */*");
        put("user-agent", &self.user_agent);
        h
    }

    /// Sends `headers` as given (no jar merge).
    pub async fn send(&self, method: Method, path: &str, headers: HeaderMap) -> Response {
        self.client
            .request(method, format!("{}{path}", self.base))
            .headers(headers)
            .send()
            .await
            .expect("request reaches the fake")
    }

    /// A correct `GET /gc-api…` call; merges `Set-Cookie`.
    pub async fn get(&mut self, path: &str) -> Response {
        let res = self.send(Method::GET, path, self.api_headers()).await;
        self.merge(&res);
        res
    }

    /// A correct refresh call; on 201 adopts the new `JWT_WEB` cookie and CSRF.
    pub async fn refresh(&mut self) -> (StatusCode, Option<serde_json::Value>) {
        let mut headers = self.api_headers();
        headers.remove("sec-fetch-site");
        headers.insert("nk", HeaderValue::from_static("NT"));
        headers.insert("accept", HeaderValue::from_static("application/json"));
        let res = self.send(Method::POST, "/services/auth/token/di-oauth/refresh", headers).await;
        self.merge(&res);
        let status = res.status();
        let body: Option<serde_json::Value> = res.json().await.ok();
        if status == StatusCode::CREATED
            && let Some(csrf) = body.as_ref().and_then(|b| b["csrfToken"].as_str())
        {
            self.csrf = csrf.to_owned();
        }
        (status, body)
    }

    /// Merges every `Set-Cookie` of `res` into the jar.
    pub fn merge(&mut self, res: &Response) {
        for (name, value, _) in set_cookies(res) {
            self.jar.insert(name, value);
        }
    }
}

/// `(name, value, attributes)` of every `Set-Cookie` header.
pub fn set_cookies(res: &Response) -> Vec<(String, String, String)> {
    res.headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|v| {
            let (pair, attrs) = v.split_once(';').unwrap_or((v, ""));
            let (name, value) = pair.split_once('=')?;
            Some((name.trim().to_owned(), value.trim().to_owned(), attrs.to_owned()))
        })
        .collect()
}

/// The path every "passes auth" test calls; the data helper serves it.
pub const PROBE: &str = "/gc-api/userprofile-service/socialProfile";

/// Auth passed: either the data route answered 200, or (while it does not exist yet) the loud
/// catch-all answered; never 401/403.
pub async fn assert_passed_auth(res: Response) {
    let status = res.status();
    let body = res.text().await.unwrap_or_default();
    assert!(
        status == StatusCode::OK
            || (status == StatusCode::INTERNAL_SERVER_ERROR && body.contains("(no route)")),
        "expected to pass auth, got {status}: {body}"
    );
}
