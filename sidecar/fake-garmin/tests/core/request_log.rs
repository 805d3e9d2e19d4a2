//! Run: `cargo test -p fake-garmin --test core request_log::`.
//!
//! The request log records what clients sent, explains refusals, and never holds a secret.

use reqwest::StatusCode;

use crate::support::{Browser, PROBE, UA, http, start};

#[tokio::test]
async fn request_log_never_contains_cookie_or_csrf_values() {
    let fake = start().await;
    let mut b = Browser::signed_in(&fake);
    let mut secrets: Vec<String> = b.jar.values().cloned().collect();
    secrets.push(b.csrf.clone());
    b.get(PROBE).await;
    let (status, body) = b.refresh().await;
    assert_eq!(status, StatusCode::CREATED);
    assert!(body.is_some());
    secrets.extend(b.jar.values().cloned());
    secrets.push(b.csrf.clone());
    b.get(PROBE).await;
    let res = b.send(reqwest::Method::GET, "/app/", b.api_headers()).await;
    b.merge(&res);
    secrets.extend(b.jar.values().cloned());
    // The SSO form carries a password.
    let form = "username=runner%40example.com&password=hunter2-secret";
    http()
        .post(format!("{}/portal/sso/en-US/sign-in", fake.base_url()))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(form)
        .send()
        .await
        .expect("sign in");
    secrets.push("hunter2-secret".into());

    let log = serde_json::to_string(&fake.requests()).expect("log as JSON");
    for secret in secrets.iter().filter(|s| s.len() > 4) {
        assert!(!log.contains(secret.as_str()), "log holds a secret: {secret}");
    }
    let first = &fake.requests()[0];
    assert_eq!((first.method.as_str(), first.path.as_str()), ("GET", PROBE));
    for name in ["cookie", "connect-csrf-token", "sec-fetch-site", "user-agent", "accept"] {
        assert!(first.header_names.iter().any(|h| h == name), "{name} in {:?}", first.header_names);
    }
    assert_eq!(first.user_agent.as_deref(), Some(UA));
    assert_eq!(first.sec_fetch_site.as_deref(), Some("same-origin"));
    assert_eq!(first.accept.as_deref(), Some("application/json, text/plain, */*"));
}

#[tokio::test]
async fn request_log_keeps_json_write_bodies_and_query_strings() {
    let fake = start().await;
    let b = Browser::signed_in(&fake);
    let body = r#"{"workoutName":"Easy 5k"}"#;
    b.client
        .post(format!("{}/gc-api/workout-service/workout?x=1", b.base))
        .headers(b.api_headers())
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .expect("request");
    let log = fake.requests();
    let entry = log.last().expect("one entry");
    assert_eq!(entry.method, "POST");
    assert_eq!(entry.path, "/gc-api/workout-service/workout");
    assert_eq!(entry.query.as_deref(), Some("x=1"));
    assert_eq!(entry.content_type.as_deref(), Some("application/json"));
    assert_eq!(entry.body.as_deref(), Some(body));
}

#[tokio::test]
async fn request_log_notes_why_a_request_was_refused() {
    let fake = start().await;
    let mut b = Browser::signed_in(&fake);
    b.csrf = "stale".into();
    b.get(PROBE).await;
    let entry = fake.requests().pop().expect("entry");
    assert_eq!(entry.status, 403);
    assert_eq!(entry.note.as_deref(), Some("403: missing or stale Connect-Csrf-Token"));
}

#[tokio::test]
async fn clear_requests_empties_the_log_and_admin_calls_are_not_logged() {
    let fake = start().await;
    http().get(format!("{}/app/", fake.base_url())).send().await.expect("request");
    http().get(format!("{}/__fake/requests", fake.base_url())).send().await.expect("request");
    assert_eq!(fake.requests().len(), 1);
    fake.clear_requests();
    assert!(fake.requests().is_empty());
}
