//! Run: `cargo test -p fake-garmin --test core gc_api_auth::`.
//!
//! The `/gc-api` gate: what a request must carry (reference §2.5) and which status each lack
//! earns (§2.6: expired access → 401, everything else → 403). Statuses come before routing, so
//! these tests do not depend on the data endpoints.

use std::time::Duration;

use reqwest::header::HeaderValue;
use reqwest::{Method, StatusCode};

use crate::support::{Browser, PROBE, assert_passed_auth, start, start_with};

#[tokio::test]
async fn gc_api_with_every_required_header_passes_auth() {
    let fake = start().await;
    let mut b = Browser::signed_in(&fake);
    assert_passed_auth(b.get(PROBE).await).await;
}

async fn status_without(header: &str) -> StatusCode {
    let fake = start().await;
    let b = Browser::signed_in(&fake);
    let mut headers = b.api_headers();
    headers.remove(header);
    b.send(Method::GET, PROBE, headers).await.status()
}

#[tokio::test]
async fn gc_api_without_csrf_header_is_403() {
    assert_eq!(status_without("connect-csrf-token").await, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn gc_api_without_sec_fetch_site_is_403() {
    assert_eq!(status_without("sec-fetch-site").await, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn gc_api_without_cookies_is_403() {
    assert_eq!(status_without("cookie").await, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn gc_api_without_user_agent_is_403_when_the_sign_in_had_one() {
    assert_eq!(status_without("user-agent").await, StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn csrf_header_name_is_case_insensitive_on_the_wire() {
    let fake = start().await;
    let mut b = Browser::signed_in(&fake);
    // Title-cased names on the wire: `Connect-Csrf-Token`, `Sec-Fetch-Site`…
    b.client = garmin::https::client_builder().unwrap().http1_title_case_headers().build().expect("client");
    assert_passed_auth(b.get(PROBE).await).await;
}

#[tokio::test]
async fn gc_api_with_stale_or_foreign_csrf_is_403() {
    let fake = start().await;
    let mut b = Browser::signed_in(&fake);
    let other = Browser::signed_in(&fake);
    b.csrf = other.csrf.clone();
    assert_eq!(b.get(PROBE).await.status(), StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn gc_api_with_another_sec_fetch_site_is_403() {
    let fake = start().await;
    let b = Browser::signed_in(&fake);
    let mut headers = b.api_headers();
    headers.insert("sec-fetch-site", HeaderValue::from_static("cross-site"));
    assert_eq!(b.send(Method::GET, PROBE, headers).await.status(), StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn gc_api_missing_either_session_or_jwt_cookie_is_403() {
    let fake = start().await;
    for cookie in ["session", "JWT_WEB"] {
        let mut b = Browser::signed_in(&fake);
        b.jar.remove(cookie);
        assert_eq!(b.get(PROBE).await.status(), StatusCode::FORBIDDEN, "without {cookie}");
    }
}

#[tokio::test]
async fn jwt_of_one_session_with_the_session_cookie_of_another_is_403() {
    let fake = start().await;
    let mut a = Browser::signed_in(&fake);
    let b = Browser::signed_in(&fake);
    a.jar.insert("JWT_WEB".into(), b.cookie("JWT_WEB"));
    assert_eq!(a.get(PROBE).await.status(), StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_cookie_sent_twice_with_different_values_is_403() {
    let fake = start().await;
    let b = Browser::signed_in(&fake);
    let other = Browser::signed_in(&fake);
    let mut headers = b.api_headers();
    let cookie = format!("{}; JWT_WEB={}", b.cookie_header(), other.cookie("JWT_WEB"));
    headers.insert("cookie", HeaderValue::from_str(&cookie).expect("cookie"));
    assert_eq!(b.send(Method::GET, PROBE, headers).await.status(), StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn gc_api_with_bearer_authorization_next_to_cookies_is_403() {
    let fake = start().await;
    let b = Browser::signed_in(&fake);
    let mut headers = b.api_headers();
    headers.insert("authorization", HeaderValue::from_static("Bearer abc"));
    assert_eq!(b.send(Method::GET, PROBE, headers).await.status(), StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn gc_api_with_another_user_agent_than_the_sign_in_is_403() {
    let fake = start().await;
    let mut b = Browser::signed_in(&fake);
    b.user_agent = "curl/8.0".into();
    assert_eq!(b.get(PROBE).await.status(), StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn user_agent_check_can_be_switched_off() {
    let fake = start_with(|c| c.require_user_agent_match = false).await;
    let mut b = Browser::signed_in(&fake);
    b.user_agent = "curl/8.0".into();
    assert_passed_auth(b.get(PROBE).await).await;
}

#[tokio::test]
async fn expired_access_cookie_gives_401_with_an_empty_body() {
    let fake = start().await;
    let mut b = Browser::signed_in(&fake);
    fake.expire_access_tokens();
    let res = b.get(PROBE).await;
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(res.text().await.expect("body"), "");
}

#[tokio::test]
async fn access_cookie_expires_after_jwt_lifetime() {
    let fake = start_with(|c| c.jwt_lifetime = Duration::from_millis(300)).await;
    let mut b = Browser::signed_in(&fake);
    assert_passed_auth(b.get(PROBE).await).await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(b.get(PROBE).await.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn expired_session_cookie_is_403_and_cannot_refresh() {
    let fake = start_with(|c| c.session_lifetime = Duration::from_millis(300)).await;
    let mut b = Browser::signed_in(&fake);
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert_eq!(b.get(PROBE).await.status(), StatusCode::FORBIDDEN);
    assert_eq!(b.refresh().await.0, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn jwt_web_is_jwt_shaped_with_iat_exp_and_generation() {
    use base64::Engine as _;
    let fake = start().await;
    let b = Browser::signed_in(&fake);
    let jwt = b.cookie("JWT_WEB");
    let parts: Vec<&str> = jwt.split('.').collect();
    assert_eq!(parts.len(), 3, "{jwt}");
    let payload = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(parts[1]).expect("base64url");
    let claims: serde_json::Value = serde_json::from_slice(&payload).expect("json payload");
    let (iat, exp) = (claims["iat"].as_u64().expect("iat"), claims["exp"].as_u64().expect("exp"));
    assert!(exp >= iat + 3600 && exp <= iat + 3602, "{claims}");
    assert_eq!(claims["gen"], 1);
    assert!(b.cookie("session").len() >= 20 && !b.cookie("session").starts_with("Fe26.2*"));
    let csrf = &b.csrf;
    assert_eq!(csrf.split('-').map(str::len).collect::<Vec<_>>(), [8, 4, 4, 4, 12], "{csrf}");
}
