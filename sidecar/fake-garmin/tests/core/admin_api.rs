//! Run: `cargo test -p fake-garmin --test core admin_api::`.
//!
//! The `/__fake/` control API does over HTTP what `FakeGarmin`'s methods do in-process.

use fake_garmin::IssuedSession;
use fake_garmin::log::RecordedRequest;
use reqwest::StatusCode;

use crate::support::{Browser, PROBE, assert_passed_auth, http, start};

#[tokio::test]
async fn admin_api_issues_sessions_and_reports_refresh_uses() {
    let fake = start().await;
    let base = fake.base_url();
    let res = http()
        .post(format!("{base}/__fake/sessions"))
        .body(r#"{"user_agent": "Mozilla/5.0 (admin test)"}"#)
        .send()
        .await
        .expect("request");
    assert_eq!(res.status(), StatusCode::OK);
    let issued: IssuedSession = res.json().await.expect("IssuedSession JSON");
    assert_eq!(issued.user_agent, "Mozilla/5.0 (admin test)");
    assert_eq!(issued.display_name, "fake-athlete-1");
    let mut b = Browser::from_issued(&fake, &issued);
    assert_passed_auth(b.get(PROBE).await).await;

    let mut stale = b.clone();
    b.refresh().await;
    stale.refresh().await;
    let uses: serde_json::Value = http()
        .get(format!("{base}/__fake/refresh-uses"))
        .send()
        .await
        .expect("request")
        .json()
        .await
        .expect("json");
    assert_eq!(uses["reuse_detected"], 1);
    assert_eq!(uses["uses"].as_object().expect("uses").values().next(), Some(&serde_json::json!(2)));
}

#[tokio::test]
async fn admin_api_pushes_and_clears_faults() {
    let fake = start().await;
    let base = fake.base_url();
    let mut b = Browser::signed_in(&fake);
    let res = http()
        .post(format!("{base}/__fake/faults"))
        .body(r#"{"fault": {"RateLimited": {"retry_after_secs": 7}}}"#)
        .send()
        .await
        .expect("request");
    assert_eq!(res.status(), StatusCode::NO_CONTENT);
    assert_eq!(b.get(PROBE).await.status(), StatusCode::TOO_MANY_REQUESTS);
    http().delete(format!("{base}/__fake/faults")).send().await.expect("request");
    assert_passed_auth(b.get(PROBE).await).await;

    let res = http().post(format!("{base}/__fake/faults")).body("{not json").send().await.expect("request");
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn admin_api_serves_and_clears_the_request_log() {
    let fake = start().await;
    let base = fake.base_url();
    let mut b = Browser::signed_in(&fake);
    b.get(PROBE).await;
    let log: Vec<RecordedRequest> = http()
        .get(format!("{base}/__fake/requests"))
        .send()
        .await
        .expect("request")
        .json()
        .await
        .expect("json");
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].path, PROBE);
    let res = http().delete(format!("{base}/__fake/requests")).send().await.expect("request");
    assert_eq!(res.status(), StatusCode::NO_CONTENT);
    assert!(fake.requests().is_empty());
}

#[tokio::test]
async fn admin_api_expires_access_cookies() {
    let fake = start().await;
    let mut b = Browser::signed_in(&fake);
    let res = http().post(format!("{}/__fake/expire-access", fake.base_url())).send().await.expect("request");
    assert_eq!(res.status(), StatusCode::NO_CONTENT);
    assert_eq!(b.get(PROBE).await.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn admin_api_rejects_a_session_request_without_user_agent() {
    let fake = start().await;
    let res =
        http().post(format!("{}/__fake/sessions", fake.base_url())).body("{}").send().await.expect("request");
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
    let health = http().get(format!("{}/__fake/health", fake.base_url())).send().await.expect("request");
    assert_eq!(health.text().await.expect("body"), "ok");
}
