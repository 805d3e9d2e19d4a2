//! Run: `cargo test -p fake-garmin --test core pages::`.
//!
//! The browser-facing side: the FAKE SSO sign-in page and form, the `/app/` shell a client scrapes
//! for CSRF and profile (reference §2.2–2.4), the Cloudflare cookie, and the loud catch-all.

use std::collections::BTreeMap;

use reqwest::header::HeaderValue;
use reqwest::{Method, StatusCode};

use crate::support::{Browser, PROBE, UA, assert_passed_auth, http, set_cookies, start, start_with};

#[tokio::test]
async fn app_page_carries_csrf_meta_and_viewer_profile() {
    let fake = start().await;
    let b = Browser::signed_in(&fake);
    let res = b.send(Method::GET, "/app/", cookie_only(&b)).await;
    assert_eq!(res.status(), StatusCode::OK);
    assert!(res.headers()["content-type"].to_str().expect("ct").starts_with("text/html"));
    assert!(!set_cookies(&res).iter().any(|(n, _, _)| n == "JWT_WEB"), "fresh JWT_WEB is not rotated");
    let html = res.text().await.expect("html");
    assert!(html.contains(&format!(r#"<meta name="csrf-token" content="{}">"#, b.csrf)), "{html}");
    assert!(html.contains("window.USE_DI_SESSION = true;"));
    let profile = between(&html, "window.VIEWER_SOCIAL_PROFILE = ", ";\n");
    let profile: serde_json::Value = serde_json::from_str(profile).expect("profile JSON");
    assert_eq!(profile["displayName"], "fake-athlete-1");
    assert_eq!(profile["profileId"], 1_000_001);
    assert_eq!(profile["fullName"], "Alex Example");
    assert_eq!(profile["userName"], "fake-athlete-1");
    assert!(profile["garminGUID"].as_str().is_some_and(|g| g.len() == 36));
}

#[tokio::test]
async fn app_page_profile_agrees_with_the_social_profile_endpoint() {
    let fake = start().await;
    let mut b = Browser::signed_in(&fake);
    let html = b.send(Method::GET, "/app/", cookie_only(&b)).await.text().await.expect("html");
    let page: serde_json::Value =
        serde_json::from_str(between(&html, "window.VIEWER_SOCIAL_PROFILE = ", ";\n")).expect("profile");
    let res = b.get(PROBE).await;
    if res.status() != StatusCode::OK {
        return; // the data endpoint is not there yet
    }
    let api: serde_json::Value = res.json().await.expect("socialProfile JSON");
    for key in ["displayName", "profileId", "garminGUID", "fullName", "userName"] {
        assert_eq!(page[key], api[key], "{key}");
    }
}

#[tokio::test]
async fn app_subpages_and_modern_serve_the_same_shell() {
    let fake = start().await;
    let b = Browser::signed_in(&fake);
    for path in ["/app", "/app/home", "/app/workouts/123", "/modern/", "/modern"] {
        let res = b.send(Method::GET, path, cookie_only(&b)).await;
        assert_eq!(res.status(), StatusCode::OK, "{path}");
        assert!(res.text().await.expect("html").contains("csrf-token"), "{path}");
    }
}

#[tokio::test]
async fn app_page_without_session_redirects_to_sso_sign_in() {
    let fake = start().await;
    let res = http().get(format!("{}/app/workouts", fake.base_url())).send().await.expect("request");
    assert_eq!(res.status(), StatusCode::FOUND);
    let location = res.headers()["location"].to_str().expect("location");
    let expected_service = format!("{}/app/workouts", fake.base_url());
    let encoded: String = url::form_urlencoded::byte_serialize(expected_service.as_bytes()).collect();
    assert_eq!(location, format!("/portal/sso/en-US/sign-in?clientId=GarminConnect&service={encoded}"));
}

#[tokio::test]
async fn app_page_renews_an_expired_access_cookie_and_spends_the_old_one() {
    let fake = start().await;
    let mut b = Browser::signed_in(&fake);
    let old = b.clone();
    fake.expire_access_tokens();
    let res = b.send(Method::GET, "/app/", cookie_only(&b)).await;
    assert_eq!(res.status(), StatusCode::OK);
    b.merge(&res);
    assert_ne!(b.cookie("JWT_WEB"), old.cookie("JWT_WEB"));
    assert_passed_auth(b.get(PROBE).await).await;
    let mut old = old;
    assert_eq!(old.get(PROBE).await.status(), StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn app_page_with_only_the_session_cookie_issues_a_jwt() {
    let fake = start().await;
    let mut b = Browser::signed_in(&fake);
    b.jar.remove("JWT_WEB");
    let res = b.send(Method::GET, "/app/", cookie_only(&b)).await;
    b.merge(&res);
    assert!(!b.cookie("JWT_WEB").is_empty());
    assert_passed_auth(b.get(PROBE).await).await;
}

#[tokio::test]
async fn sso_sign_in_page_is_a_labelled_fake_form() {
    let fake = start().await;
    let res = http().get(fake.sign_in_url()).send().await.expect("request");
    assert_eq!(res.status(), StatusCode::OK);
    let html = res.text().await.expect("html");
    for needle in
        ["<title>", "Garmin", "FAKE", r#"name="username""#, r#"name="password""#, r#"type="submit""#]
    {
        assert!(html.contains(needle), "missing {needle}: {html}");
    }
}

#[tokio::test]
async fn cn_site_sign_in_page_is_zh_cn_and_accepts_a_phone_number() {
    let fake = start_with(|c| c.site = fake_garmin::FakeSite::Cn).await;
    assert!(fake.sign_in_url().contains("/portal/sso/zh-CN/sign-in?clientId=GarminConnect"));
    let html = http().get(fake.sign_in_url()).send().await.expect("request").text().await.expect("html");
    assert!(html.contains("+86") && html.contains("FAKE"), "{html}");
    let res =
        post_form(&fake.base_url(), "zh-CN", &[("username", "+8613800000000"), ("password", "pw")]).await;
    assert_eq!(res.status(), StatusCode::FOUND);
    // Both locales work on either site.
    let res = post_form(&fake.base_url(), "en-US", &[("username", "a@b.c"), ("password", "pw")]).await;
    assert_eq!(res.status(), StatusCode::FOUND);
}

#[tokio::test]
async fn sso_form_post_sets_httponly_cookies_and_redirects_to_app() {
    let fake = start().await;
    let res =
        post_form(&fake.base_url(), "en-US", &[("username", "runner@example.com"), ("password", "pw")]).await;
    assert_eq!(res.status(), StatusCode::FOUND);
    assert_eq!(res.headers()["location"], format!("{}/app/", fake.base_url()).as_str());
    let cookies: BTreeMap<String, (String, String)> =
        set_cookies(&res).into_iter().map(|(n, v, a)| (n, (v, a))).collect();
    for name in ["session", "JWT_WEB", "SESSIONID", "CASTGC"] {
        let (_, attrs) = cookies.get(name).unwrap_or_else(|| panic!("no Set-Cookie {name}"));
        assert!(attrs.contains("HttpOnly") && attrs.contains("Path=/"), "{name}: {attrs}");
    }
    assert_eq!(cookies["GARMIN-SSO"].0, "1");
    assert!(cookies["CASTGC"].0.starts_with("TGT-"));

    // Then the way a login window continues: load /app/, scrape the CSRF, call /gc-api.
    let mut b = Browser {
        base: fake.base_url(),
        jar: cookies.into_iter().map(|(n, (v, _))| (n, v)).collect(),
        csrf: String::new(),
        user_agent: UA.into(),
        client: http(),
    };
    let res = b.send(Method::GET, "/app/", cookie_only(&b)).await;
    b.merge(&res);
    let html = res.text().await.expect("html");
    b.csrf = between(&html, r#"<meta name="csrf-token" content=""#, r#"""#).to_owned();
    assert_passed_auth(b.get(PROBE).await).await;
    b.user_agent = "another browser".into();
    assert_eq!(b.get(PROBE).await.status(), StatusCode::FORBIDDEN, "UA of the form POST is the session's");
}

#[tokio::test]
async fn wrong_password_stays_on_sign_in_page() {
    let fake = start().await;
    let res =
        post_form(&fake.base_url(), "en-US", &[("username", "runner@example.com"), ("password", "wrong")])
            .await;
    assert_eq!(res.status(), StatusCode::UNAUTHORIZED);
    assert!(!set_cookies(&res).iter().any(|(n, _, _)| n == "session" || n == "JWT_WEB"));
    let html = res.text().await.expect("html");
    assert!(html.contains(r#"name="password""#) && html.contains("Invalid sign in"), "{html}");
}

#[tokio::test]
async fn empty_credentials_stay_on_sign_in_page() {
    let fake = start().await;
    let res = post_form(&fake.base_url(), "en-US", &[("username", ""), ("password", "pw")]).await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn cf_bm_cookie_is_set_only_when_the_request_lacks_one() {
    let fake = start().await;
    let b = Browser::signed_in(&fake);
    let without = http().get(format!("{}/app/", fake.base_url())).send().await.expect("request");
    assert!(set_cookies(&without).iter().any(|(n, _, _)| n == "__cf_bm"));
    let with = b.send(Method::GET, "/app/", cookie_only(&b)).await;
    assert!(!set_cookies(&with).iter().any(|(n, _, _)| n == "__cf_bm"));
}

#[tokio::test]
async fn unmatched_route_is_loud_500() {
    let fake = start().await;
    let res = http().get(format!("{}/nope/here?x=1", fake.base_url())).send().await.expect("request");
    assert_eq!(res.status(), StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(res.text().await.expect("body"), "fake-garmin: unexpected GET /nope/here?x=1 (no route)");

    let mut b = Browser::signed_in(&fake);
    let res = b.get("/gc-api/no-such-service/thing?a=b").await;
    assert_eq!(res.status(), StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(
        res.text().await.expect("body"),
        "fake-garmin: unexpected GET /gc-api/no-such-service/thing?a=b (no route)"
    );
}

#[tokio::test]
async fn unmatched_gc_api_route_still_needs_auth_first() {
    let fake = start().await;
    let res =
        http().get(format!("{}/gc-api/no-such-service", fake.base_url())).send().await.expect("request");
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
}

pub fn cookie_only(b: &Browser) -> reqwest::header::HeaderMap {
    let mut h = reqwest::header::HeaderMap::new();
    h.insert("cookie", HeaderValue::from_str(&b.cookie_header()).expect("cookie"));
    h.insert("accept", HeaderValue::from_static("text/html"));
    h.insert("user-agent", HeaderValue::from_str(&b.user_agent).expect("ua"));
    h
}

async fn post_form(base: &str, locale: &str, fields: &[(&str, &str)]) -> reqwest::Response {
    let service = format!("{base}/app/");
    let body: String = url::form_urlencoded::Serializer::new(String::new()).extend_pairs(fields).finish();
    http()
        .post(format!("{base}/portal/sso/{locale}/sign-in"))
        .query(&[("clientId", "GarminConnect"), ("service", service.as_str())])
        .header("content-type", "application/x-www-form-urlencoded")
        .header("user-agent", UA)
        .body(body)
        .send()
        .await
        .expect("request")
}

fn between<'a>(text: &'a str, start: &str, end: &str) -> &'a str {
    let from = text.find(start).map(|i| i + start.len()).unwrap_or_else(|| panic!("no {start} in {text}"));
    let len = text[from..].find(end).unwrap_or_else(|| panic!("no {end} after {start}"));
    &text[from..from + len]
}
