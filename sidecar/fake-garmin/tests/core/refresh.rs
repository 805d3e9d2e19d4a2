//! Run: `cargo test -p fake-garmin --test core refresh::`.
//!
//! The refresh call (reference §2.7): one-time, rotating credentials, and what happens when a
//! client presents one twice.

use std::time::Duration;

use reqwest::header::HeaderValue;
use reqwest::{Method, StatusCode};

use crate::support::{Browser, PROBE, assert_passed_auth, set_cookies, start, start_with};

#[tokio::test]
async fn refresh_rotates_jwt_and_csrf_and_old_jwt_is_dead() {
    let fake = start().await;
    let mut b = Browser::signed_in(&fake);
    let stale = b.clone();
    let res = b.send(Method::POST, "/services/auth/token/di-oauth/refresh", b.api_headers()).await;
    assert_eq!(res.status(), StatusCode::CREATED);
    let cookies = set_cookies(&res);
    let (_, jwt_cookie, attrs) =
        cookies.iter().find(|(n, _, _)| n == "JWT_WEB").expect("Set-Cookie JWT_WEB").clone();
    assert!(attrs.contains("HttpOnly") && attrs.contains("Secure") && attrs.contains("Path=/"), "{attrs}");
    let body: serde_json::Value = res.json().await.expect("json");
    assert_eq!(body["encryptedToken"], jwt_cookie.as_str());
    let csrf = body["csrfToken"].as_str().expect("csrfToken").to_owned();
    assert_ne!(jwt_cookie, stale.cookie("JWT_WEB"));
    assert_ne!(csrf, stale.csrf);

    b.jar.insert("JWT_WEB".into(), jwt_cookie);
    b.csrf = csrf;
    assert_passed_auth(b.get(PROBE).await).await;

    let mut old_jwt_new_csrf = b.clone();
    old_jwt_new_csrf.jar.insert("JWT_WEB".into(), stale.cookie("JWT_WEB"));
    assert_eq!(old_jwt_new_csrf.get(PROBE).await.status(), StatusCode::FORBIDDEN);
    let mut new_jwt_old_csrf = b.clone();
    new_jwt_old_csrf.csrf = stale.csrf.clone();
    assert_eq!(new_jwt_old_csrf.get(PROBE).await.status(), StatusCode::FORBIDDEN);
    assert_eq!(fake.reuse_detected(), 0, "using a spent JWT on /gc-api is not a refresh reuse");
}

#[tokio::test]
async fn refresh_accepts_an_expired_access_cookie() {
    let fake = start().await;
    let mut b = Browser::signed_in(&fake);
    fake.expire_access_tokens();
    assert_eq!(b.get(PROBE).await.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(b.refresh().await.0, StatusCode::CREATED);
    assert_passed_auth(b.get(PROBE).await).await;
}

#[tokio::test]
async fn many_refreshes_in_a_row_each_use_a_credential_once() {
    let fake = start().await;
    let mut b = Browser::signed_in(&fake);
    for _ in 0..5 {
        assert_eq!(b.refresh().await.0, StatusCode::CREATED);
    }
    let uses = fake.refresh_credential_uses();
    assert_eq!(uses.len(), 5);
    assert!(uses.values().all(|&n| n == 1), "{uses:?}");
    assert!(uses.keys().all(|k| k.len() == 8 && k.chars().all(|c| c.is_ascii_hexdigit())), "{uses:?}");
    assert!(!uses.contains_key(&b.cookie("JWT_WEB")));
    assert_passed_auth(b.get(PROBE).await).await;
}

#[tokio::test]
async fn reusing_a_spent_refresh_credential_kills_the_session_family() {
    let fake = start().await;
    let mut b = Browser::signed_in(&fake);
    let mut stale = b.clone();
    assert_eq!(b.refresh().await.0, StatusCode::CREATED);

    // Even with the current CSRF, a spent credential is reuse.
    stale.csrf = b.csrf.clone();
    assert_eq!(stale.refresh().await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(fake.reuse_detected(), 1);
    let uses = fake.refresh_credential_uses();
    assert_eq!(uses.values().copied().collect::<Vec<_>>(), [2], "one credential, presented twice");

    // The whole family is dead: the freshly rotated cookies too, on /gc-api and on refresh.
    assert_eq!(b.get(PROBE).await.status(), StatusCode::FORBIDDEN);
    assert_eq!(b.refresh().await.0, StatusCode::UNAUTHORIZED);
    // Other families are unaffected.
    assert_passed_auth(Browser::signed_in(&fake).get(PROBE).await).await;
}

#[tokio::test]
async fn a_stale_copy_with_its_stale_csrf_is_still_reuse() {
    let fake = start().await;
    let mut b = Browser::signed_in(&fake);
    let mut stale = b.clone();
    assert_eq!(b.refresh().await.0, StatusCode::CREATED);
    assert_eq!(stale.refresh().await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(fake.reuse_detected(), 1);
}

#[tokio::test]
async fn two_processes_refreshing_the_same_credential_at_once_kill_the_family() {
    let fake = start_with(|c| c.jwt_lifetime = Duration::from_secs(2)).await;
    let b = Browser::signed_in(&fake);
    let (mut one, mut two) = (b.clone(), b.clone());
    let (r1, r2) = tokio::join!(one.refresh(), two.refresh());
    let mut statuses = [r1.0, r2.0];
    statuses.sort();
    assert_eq!(statuses, [StatusCode::CREATED, StatusCode::UNAUTHORIZED]);
    assert_eq!(fake.reuse_detected(), 1);
    let mut winner = if r1.0 == StatusCode::CREATED { one } else { two };
    assert_eq!(winner.get(PROBE).await.status(), StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn refresh_with_stale_csrf_but_current_jwt_is_403_and_keeps_the_family() {
    let fake = start().await;
    let mut b = Browser::signed_in(&fake);
    let real_csrf = std::mem::replace(&mut b.csrf, "00000000-0000-4000-8000-000000000000".into());
    assert_eq!(b.refresh().await.0, StatusCode::FORBIDDEN);
    b.csrf = real_csrf;
    assert_eq!(b.refresh().await.0, StatusCode::CREATED);
    assert_eq!(fake.reuse_detected(), 0);
}

#[tokio::test]
async fn refresh_without_session_cookie_or_jwt_is_401() {
    let fake = start().await;
    for cookie in ["session", "JWT_WEB"] {
        let mut b = Browser::signed_in(&fake);
        b.jar.remove(cookie);
        assert_eq!(b.refresh().await.0, StatusCode::UNAUTHORIZED, "without {cookie}");
    }
    assert_eq!(fake.reuse_detected(), 0);
}

#[tokio::test]
async fn refresh_accepts_the_browser_body_and_no_body() {
    let fake = start().await;
    let b = Browser::signed_in(&fake);
    let mut headers = b.api_headers();
    headers.insert("content-type", HeaderValue::from_static("application/json"));
    let res = b
        .client
        .post(format!("{}/services/auth/token/di-oauth/refresh", b.base))
        .headers(headers)
        .body("{}")
        .send()
        .await
        .expect("request");
    assert_eq!(res.status(), StatusCode::CREATED);
}

#[tokio::test]
async fn modern_refresh_token_path_is_404_like_an_unknown_path() {
    let fake = start().await;
    let b = Browser::signed_in(&fake);
    let res = b.send(Method::POST, "/modern/di-oauth/refreshToken", b.api_headers()).await;
    assert_eq!(res.status(), StatusCode::NOT_FOUND);
    assert!(fake.refresh_credential_uses().is_empty());
}
