//! Shared by the tests of `cargo test -p fake-garmin --test endpoints`.
//!
//! Helpers of the endpoint suite: a fake anchored at a fixed "today", a client that sends the
//! headers a real web client sends (reference §2.5), the recorded fixtures, and
//! [`assert_same_shape`], which checks a body against a fixture's key set.

use std::time::Duration;

use chrono::NaiveDate;
use fake_garmin::{FakeConfig, FakeGarmin};
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use reqwest::{Method, StatusCode};
use serde_json::Value;

/// The User-Agent the suite signs in with.
pub const UA: &str = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) endpoint-test";

/// "Today" of every fake in this suite.
pub fn today() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 3, 15).expect("valid date")
}

/// The day before [`today`] (always has a run).
pub fn yesterday() -> NaiveDate {
    today().pred_opt().expect("valid date")
}

/// A signed-in client of one fake.
pub struct Api {
    /// Keeps the server running for as long as the client lives.
    _fake: FakeGarmin,
    base: String,
    headers: HeaderMap,
    client: reqwest::Client,
    pub display_name: String,
}

impl Api {
    /// Starts a fake with the suite's fixed date and seed 42 and signs in.
    pub async fn start() -> Self {
        Self::start_with(42).await
    }

    /// Starts a fake with `seed` and signs in.
    pub async fn start_with(seed: u64) -> Self {
        let fake = FakeGarmin::start(FakeConfig { today: today(), seed, ..FakeConfig::default() })
            .await
            .expect("fake starts");
        let session = fake.issue_session(UA);
        let mut headers = HeaderMap::new();
        let cookie = session.cookies.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("; ");
        for (name, value) in [
            ("cookie", cookie.as_str()),
            ("connect-csrf-token", session.csrf_token.as_str()),
            ("sec-fetch-site", "same-origin"),
            ("accept", "application/json, text/plain, */*"),
            ("user-agent", UA),
        ] {
            headers.insert(HeaderName::from_static(name), HeaderValue::from_str(value).expect("header"));
        }
        let client = garmin::https::client_builder()
            .unwrap()
            .timeout(Duration::from_secs(60))
            .build()
            .expect("client");
        Self {
            base: format!("{}/gc-api", fake.base_url()),
            _fake: fake,
            headers,
            client,
            display_name: session.display_name,
        }
    }

    /// Sends a request to `/gc-api{path}` with an optional JSON body.
    pub async fn call(&self, method: Method, path: &str, body: Option<&Value>) -> reqwest::Response {
        let mut req =
            self.client.request(method, format!("{}{path}", self.base)).headers(self.headers.clone());
        if let Some(b) = body {
            req = req.header("content-type", "application/json").body(b.to_string());
        }
        req.send().await.expect("request reaches the fake")
    }

    /// Status and JSON body (`Value::Null` when the body is empty or not JSON).
    pub async fn json(&self, method: Method, path: &str, body: Option<&Value>) -> (StatusCode, Value) {
        let res = self.call(method, path, body).await;
        let status = res.status();
        let text = res.text().await.unwrap_or_default();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    /// `GET` that must answer 200; returns the JSON body.
    pub async fn get(&self, path: &str) -> Value {
        let (status, body) = self.json(Method::GET, path, None).await;
        assert_eq!(status, StatusCode::OK, "GET {path} → {status}: {body}");
        body
    }

    /// `GET` returning only the status.
    pub async fn status(&self, path: &str) -> StatusCode {
        self.call(Method::GET, path, None).await.status()
    }

    /// `POST` with a JSON body.
    pub async fn post(&self, path: &str, body: &Value) -> (StatusCode, Value) {
        self.json(Method::POST, path, Some(body)).await
    }

    /// `GET` a path outside `/gc-api` (the bare race search), signed in or with no credentials at
    /// all; status and JSON body (`Value::Null` when not JSON).
    pub async fn outside_api(&self, path: &str, signed_in: bool) -> (StatusCode, Value) {
        let url = format!("{}{path}", self.base.trim_end_matches("/gc-api"));
        let headers = if signed_in { self.headers.clone() } else { HeaderMap::new() };
        let res = self.client.get(url).headers(headers).send().await.expect("request reaches the fake");
        let status = res.status();
        (status, serde_json::from_str(&res.text().await.unwrap_or_default()).unwrap_or(Value::Null))
    }

    /// `PUT` with a JSON body.
    pub async fn put(&self, path: &str, body: &Value) -> (StatusCode, Value) {
        self.json(Method::PUT, path, Some(body)).await
    }

    /// `DELETE`, returning the status.
    pub async fn delete(&self, path: &str) -> StatusCode {
        self.call(Method::DELETE, path, None).await.status()
    }

    /// Raw bytes of a download (`Accept: */*`), with status and content type.
    pub async fn download(&self, path: &str) -> (StatusCode, String, Vec<u8>) {
        let mut headers = self.headers.clone();
        headers.insert("accept", HeaderValue::from_static("*/*"));
        let res =
            self.client.get(format!("{}{path}", self.base)).headers(headers).send().await.expect("download");
        let status = res.status();
        let kind =
            res.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
        (status, kind, res.bytes().await.expect("body").to_vec())
    }

    /// Every activity of the data set, oldest first.
    pub async fn all_activities(&self) -> Vec<Value> {
        let mut list = self
            .get("/activitylist-service/activities/search/activities?start=0&limit=1000&sortOrder=asc")
            .await;
        list.as_array_mut().map(std::mem::take).unwrap_or_default()
    }

    /// The newest activity whose name or type matches `pred`.
    pub async fn newest(&self, pred: impl Fn(&Value) -> bool) -> Value {
        self.all_activities().await.into_iter().rev().find(|a| pred(a)).expect("a matching activity")
    }
}

/// `fixtures/garmin/<name>` parsed.
pub fn fixture(name: &str) -> Value {
    let path = format!("{}/fixtures/garmin/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Type of an activity-list row.
pub fn type_key(a: &Value) -> &str {
    a["activityType"]["typeKey"].as_str().unwrap_or_default()
}

/// Placeholders upstream put where a value was scrubbed (`"user_id: int"`…): any type matches.
fn placeholder(v: &Value) -> bool {
    v.as_str().is_some_and(|s| s.contains("user_id") || s == "display_name" || s == "owner_name")
}

/// Objects keyed by ids or dates (`{"3900000002": {…}}`): compared by value, not by key.
fn keyed_by_data(m: &serde_json::Map<String, Value>) -> bool {
    !m.is_empty()
        && m.keys()
            .all(|k| k.parse::<u64>().is_ok() || chrono::NaiveDate::parse_from_str(k, "%Y-%m-%d").is_ok())
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Collects every way `actual` lacks the shape of `fixture`: every fixture key present
/// (recursively), same JSON types where both are non-null, arrays compared on the element of
/// `actual` that shares most keys with the fixture's first element. Extra keys are allowed.
pub fn shape_errors(fixture: &Value, actual: &Value, path: &str, out: &mut Vec<String>) {
    if fixture.is_null() || actual.is_null() || placeholder(fixture) {
        return;
    }
    if kind(fixture) != kind(actual) {
        out.push(format!("{path}: expected {}, got {}", kind(fixture), kind(actual)));
        return;
    }
    match (fixture, actual) {
        (Value::Object(f), Value::Object(a)) if keyed_by_data(f) => {
            if let (Some(fv), Some(av)) = (f.values().next(), a.values().next()) {
                shape_errors(fv, av, &format!("{path}.<key>"), out);
            }
        }
        (Value::Object(f), Value::Object(a)) => {
            for (k, fv) in f {
                match a.get(k) {
                    Some(av) => shape_errors(fv, av, &format!("{path}.{k}"), out),
                    None => out.push(format!("{path}.{k}: missing")),
                }
            }
        }
        (Value::Array(f), Value::Array(a)) => {
            let Some(first) = f.first() else { return };
            let overlap = |x: &Value| match (first, x) {
                (Value::Object(fo), Value::Object(xo)) => fo.keys().filter(|k| xo.contains_key(*k)).count(),
                _ => 0,
            };
            let best = if first.is_object() { a.iter().rev().max_by_key(|x| overlap(x)) } else { a.first() };
            if let Some(best) = best {
                shape_errors(first, best, &format!("{path}[]"), out);
            }
        }
        _ => {}
    }
}

/// Panics with every shape difference between `fixture` and `actual`.
pub fn assert_same_shape(what: &str, fixture: &Value, actual: &Value) {
    let mut errors = Vec::new();
    shape_errors(fixture, actual, "$", &mut errors);
    assert!(
        errors.is_empty(),
        "{what} differs from its fixture:\n  {}\nactual: {}",
        errors.join("\n  "),
        truncate(actual)
    );
}

fn truncate(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 1500 {
        format!("{}…", &s[..s.char_indices().take_while(|(i, _)| *i < 1500).last().map_or(0, |(i, _)| i)])
    } else {
        s
    }
}
