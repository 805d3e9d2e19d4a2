//! Run: `cargo test -p fake-garmin --test core faults::`.
//!
//! Each fault kind answers as documented, rules apply after auth, in order, and use up `times`.

use std::time::{Duration, Instant};

use fake_garmin::faults::{Fault, FaultRule};
use reqwest::StatusCode;

use crate::support::{Browser, PROBE, assert_passed_auth, http, start};

/// Status and body of one authenticated `/gc-api` call with `fault` pushed once.
async fn with_fault(fault: Fault) -> reqwest::Response {
    let fake = start().await;
    fake.push_fault(FaultRule::times(fault, 1));
    let mut b = Browser::signed_in(&fake);
    let res = b.get(PROBE).await;
    assert_passed_auth(b.get(PROBE).await).await;
    res
}

#[tokio::test]
async fn latency_fault_delays_then_answers_normally() {
    let started = Instant::now();
    let res = with_fault(Fault::Latency(Duration::from_millis(300))).await;
    assert!(started.elapsed() >= Duration::from_millis(300));
    assert_passed_auth(res).await;
}

#[tokio::test]
async fn rate_limited_fault_is_429_with_retry_after() {
    let res = with_fault(Fault::RateLimited { retry_after_secs: Some(30) }).await;
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(res.headers()["retry-after"], "30");
    let res = with_fault(Fault::RateLimited { retry_after_secs: None }).await;
    assert_eq!(res.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(res.headers().get("retry-after").is_none());
}

#[tokio::test]
async fn rate_limited_in_body_fault_is_a_200_with_the_error_json() {
    let res = with_fault(Fault::RateLimitedInBody).await;
    assert_eq!(res.status(), StatusCode::OK);
    let body: serde_json::Value = res.json().await.expect("json");
    assert_eq!(body["error"]["status-code"], "429");
}

#[tokio::test]
async fn server_error_fault_uses_the_given_5xx() {
    let res = with_fault(Fault::ServerError(503)).await;
    assert_eq!(res.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert!(res.text().await.expect("body").contains("<html>"));
    assert_eq!(with_fault(Fault::ServerError(502)).await.status(), StatusCode::BAD_GATEWAY);
    assert_eq!(with_fault(Fault::ServerError(500)).await.status(), StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(with_fault(Fault::ServerError(200)).await.status(), StatusCode::INTERNAL_SERVER_ERROR);
}

#[tokio::test]
async fn malformed_json_fault_is_a_200_json_that_does_not_parse() {
    let res = with_fault(Fault::MalformedJson).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(res.headers()["content-type"].to_str().expect("ct").starts_with("application/json"));
    let text = res.text().await.expect("body");
    assert!(!text.is_empty() && serde_json::from_str::<serde_json::Value>(&text).is_err());
}

#[tokio::test]
async fn empty_body_fault_is_a_200_with_nothing() {
    let res = with_fault(Fault::EmptyBody).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert_eq!(res.text().await.expect("body"), "");
}

#[tokio::test]
async fn no_content_fault_is_204() {
    assert_eq!(with_fault(Fault::NoContent).await.status(), StatusCode::NO_CONTENT);
}

#[tokio::test]
async fn expire_session_fault_is_401_like_an_expired_access_cookie() {
    let res = with_fault(Fault::ExpireSession).await;
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(res.text().await.expect("body"), "");
}

#[tokio::test]
async fn faults_apply_in_order_pushed_and_use_up_their_times() {
    let fake = start().await;
    fake.push_fault(FaultRule::times(Fault::ServerError(503), 2));
    fake.push_fault(FaultRule::times(Fault::NoContent, 1));
    let mut b = Browser::signed_in(&fake);
    let mut seen = Vec::new();
    for _ in 0..3 {
        seen.push(b.get(PROBE).await.status().as_u16());
    }
    assert_eq!(seen, [503, 503, 204]);
    assert_passed_auth(b.get(PROBE).await).await;
    assert!(fake.state().inner.faults.lock().expect("faults").rules().is_empty());
}

#[tokio::test]
async fn forever_fault_stays_until_cleared() {
    let fake = start().await;
    fake.push_fault(FaultRule::always(Fault::RateLimitedInBody));
    let mut b = Browser::signed_in(&fake);
    for _ in 0..3 {
        assert_eq!(b.get(PROBE).await.text().await.expect("body"), r#"{"error":{"status-code":"429"}}"#);
    }
    fake.clear_faults();
    assert_passed_auth(b.get(PROBE).await).await;
}

#[tokio::test]
async fn path_filtered_fault_only_hits_matching_paths() {
    let fake = start().await;
    fake.push_fault(FaultRule::always(Fault::ServerError(502)).on_path("sleep-service"));
    let mut b = Browser::signed_in(&fake);
    assert_passed_auth(b.get(PROBE).await).await;
    let res = b.get("/gc-api/sleep-service/sleep/dailySleepData?date=2025-01-01").await;
    assert_eq!(res.status(), StatusCode::BAD_GATEWAY);
}

#[tokio::test]
async fn faults_come_after_auth_and_are_not_used_up_by_refused_requests() {
    let fake = start().await;
    fake.push_fault(FaultRule::times(Fault::NoContent, 1));
    let res = http().get(format!("{}{PROBE}", fake.base_url())).send().await.expect("request");
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    let mut b = Browser::signed_in(&fake);
    assert_eq!(b.get(PROBE).await.status(), StatusCode::NO_CONTENT);
}

#[tokio::test]
async fn a_path_fault_can_hit_the_refresh_call_before_the_credential_is_spent() {
    let fake = start().await;
    fake.push_fault(FaultRule::times(Fault::ServerError(503), 1).on_path("/di-oauth/refresh"));
    fake.push_fault(FaultRule::always(Fault::NoContent));
    let mut b = Browser::signed_in(&fake);
    assert_eq!(b.refresh().await.0, StatusCode::SERVICE_UNAVAILABLE);
    assert!(fake.refresh_credential_uses().is_empty());
    assert_eq!(b.refresh().await.0, StatusCode::CREATED, "path-less faults never touch refresh");
}

#[test]
fn fault_rules_have_a_readable_json_form() {
    let rule: FaultRule =
        serde_json::from_str(r#"{"path_contains": "sleep", "fault": {"ServerError": 503}, "times": 1}"#)
            .expect("rule");
    assert_eq!(rule, FaultRule::times(Fault::ServerError(503), 1).on_path("sleep"));
    let rule: FaultRule = serde_json::from_str(r#"{"fault": {"Latency": 250}}"#).expect("rule");
    assert_eq!(rule, FaultRule::always(Fault::Latency(Duration::from_millis(250))));
    let rule: FaultRule = serde_json::from_str(r#"{"fault": "NoContent"}"#).expect("rule");
    assert_eq!(rule.fault, Fault::NoContent);
    let json = serde_json::to_value(FaultRule::always(Fault::RateLimited { retry_after_secs: Some(5) }))
        .expect("json");
    assert_eq!(json["fault"]["RateLimited"]["retry_after_secs"], 5);
}
