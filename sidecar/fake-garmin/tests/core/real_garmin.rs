//! Run: `cargo test -p fake-garmin --test core real_garmin::`.
//!
//! Behaviours the fake learned from independent clients and real recorded answers
//! (docs/garmin-web-api.md §0, "Sign-in, renewal and 403s"): the connectus front end, the kinds of
//! 403, cookie-only refresh answers, sign-ins without a `session` cookie, and the SSO's `CASTGC`.

use fake_garmin::faults::{Fault, FaultRule};
use fake_garmin::{RefreshAnswer, SessionOptions};
use reqwest::header::HeaderValue;
use reqwest::{Method, StatusCode};

use crate::support::{Browser, PROBE, UA, assert_passed_auth, http, set_cookies, start};

#[tokio::test]
async fn mainland_network_sends_connect_requests_to_the_connectus_origin_which_serves_gc_api() {
    let mut fake = start().await;
    let connectus = fake.start_connectus().await.expect("second origin");
    assert_ne!(connectus, fake.base_url());
    let mut b = Browser::signed_in(&fake);
    assert_passed_auth(b.get(PROBE).await).await;

    fake.set_mainland_network(true);
    for path in [PROBE, "/app/", "/services/auth/token/di-oauth/refresh"] {
        let res = b.send(Method::GET, &format!("{path}?x=1"), b.api_headers()).await;
        assert_eq!(res.status(), StatusCode::FOUND, "{path}");
        assert_eq!(res.headers()["location"], format!("{connectus}{path}?x=1").as_str(), "{path}");
    }
    // SSO stays where it is.
    let sso = http().get(fake.sign_in_url()).send().await.expect("request");
    assert_eq!(sso.status(), StatusCode::OK);
    // The connectus origin serves the same accounts.
    b.base = connectus;
    assert_passed_auth(b.get(PROBE).await).await;
    assert_eq!(fake.refresh_credential_uses().len(), 0, "a redirected refresh spends nothing");
}

#[tokio::test]
async fn cloudflare_edge_403_has_no_cf_cache_status_and_garmin_answers_do() {
    let fake = start().await;
    let mut b = Browser::signed_in(&fake);
    let through = b.get(PROBE).await;
    assert_eq!(through.headers()["cf-cache-status"], "DYNAMIC");
    let mut stale = b.clone();
    stale.csrf = "stale".into();
    let refused = stale.get(PROBE).await;
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    assert!(refused.headers().contains_key("cf-cache-status"), "Garmin's own refusal passed Cloudflare");

    for (fault, html) in [(Fault::EdgeForbidden, false), (Fault::EdgeForbiddenHtml, true)] {
        fake.push_fault(FaultRule::times(fault, 1));
        let res = b.get(PROBE).await;
        assert_eq!(res.status(), StatusCode::FORBIDDEN);
        assert!(!res.headers().contains_key("cf-cache-status"), "{html}");
        let body = res.text().await.expect("body");
        assert_eq!(body.contains("Cloudflare"), html, "{body}");
        assert_eq!(body.is_empty(), !html);
    }
}

#[tokio::test]
async fn forbidden_exception_fault_answers_garmins_json_on_the_chosen_path() {
    let fake = start().await;
    let mut b = Browser::signed_in(&fake);
    fake.push_fault(FaultRule::times(Fault::ForbiddenException, 1).on_path("/hrv-service/"));
    assert_passed_auth(b.get(PROBE).await).await;
    let res = b.get("/gc-api/hrv-service/hrv/2026-11-14").await;
    assert_eq!(res.status(), StatusCode::FORBIDDEN);
    assert_eq!(res.headers()["cf-cache-status"], "DYNAMIC");
    let body: serde_json::Value = res.json().await.expect("json");
    assert_eq!(body, serde_json::json!({"message": "HTTP 403 Forbidden", "error": "ForbiddenException"}));
}

#[tokio::test]
async fn a_cookie_only_refresh_answer_sets_jwt_web_and_keeps_the_csrf() {
    for (answer, body) in
        [(RefreshAnswer::CookieOnlyEmptyBody, ""), (RefreshAnswer::CookieOnlyTokenlessBody, "{}")]
    {
        let fake = start().await;
        fake.set_session_options(SessionOptions { refresh_answer: answer, ..SessionOptions::default() });
        let mut b = Browser::signed_in(&fake);
        let old = b.cookie("JWT_WEB");
        let res = b.send(Method::POST, "/services/auth/token/di-oauth/refresh", b.api_headers()).await;
        assert_eq!(res.status(), StatusCode::OK, "{answer:?}");
        b.merge(&res);
        assert_eq!(res.text().await.expect("body"), body);
        assert_ne!(b.cookie("JWT_WEB"), old, "{answer:?}: the new JWT_WEB comes in Set-Cookie");
        assert_passed_auth(b.get(PROBE).await).await;
        assert!(fake.refresh_credential_uses().values().all(|&n| n == 1));
    }
}

#[tokio::test]
async fn a_sign_in_without_a_session_cookie_is_known_by_its_jwt_web() {
    let fake = start().await;
    fake.set_session_options(SessionOptions { no_session_cookie: true, ..SessionOptions::default() });
    let issued = fake.issue_session(UA);
    let names: Vec<&str> = issued.cookies.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["SESSIONID", "JWT_WEB", "__cf_bm"]);
    let mut b = Browser::from_issued(&fake, &issued);
    assert_passed_auth(b.get(PROBE).await).await;
    assert_eq!(b.refresh().await.0, StatusCode::CREATED);
    assert_passed_auth(b.get(PROBE).await).await;
    // A family that does have a `session` cookie still needs it.
    fake.set_session_options(SessionOptions::default());
    let mut strict = Browser::signed_in(&fake);
    strict.jar.remove("session");
    assert_eq!(strict.get(PROBE).await.status(), StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_live_castgc_gets_a_one_time_ticket_that_becomes_a_new_session() {
    let fake = start().await;
    let client = http();
    let signed_in = client
        .post(fake.sign_in_url())
        .header("user-agent", UA)
        .header("content-type", "application/x-www-form-urlencoded")
        .body("username=a%40example.com&password=pw")
        .send()
        .await
        .expect("sign in");
    let castgc = set_cookies(&signed_in).into_iter().find(|(n, _, _)| n == "CASTGC").expect("CASTGC").1;

    let without = client.get(fake.sign_in_url()).send().await.expect("request");
    assert_eq!(without.status(), StatusCode::OK, "no CASTGC: the form");
    let with = client
        .get(fake.sign_in_url())
        .header("cookie", HeaderValue::from_str(&format!("CASTGC={castgc}")).expect("header"))
        .send()
        .await
        .expect("request");
    assert_eq!(with.status(), StatusCode::FOUND);
    let location = with.headers()["location"].to_str().expect("location").to_owned();
    let service = format!("{}/app/?ticket=ST-", fake.base_url());
    assert!(location.starts_with(&service), "{location}");

    let redeem = || client.get(&location).header("user-agent", UA).send();
    let first = redeem().await.expect("ticket");
    assert_eq!(first.status(), StatusCode::FOUND);
    assert_eq!(first.headers()["location"], "/app/");
    let names: Vec<String> = set_cookies(&first).into_iter().map(|(n, _, _)| n).collect();
    assert!(["session", "SESSIONID", "JWT_WEB"].iter().all(|n| names.iter().any(|m| m == n)), "{names:?}");
    let again = redeem().await.expect("ticket again");
    assert!(!set_cookies(&again).iter().any(|(n, _, _)| n == "JWT_WEB"), "a ticket is good once");

    let bogus =
        client.get(fake.sign_in_url()).header("cookie", "CASTGC=TGT-forged").send().await.expect("request");
    assert_eq!(bogus.status(), StatusCode::OK, "an unknown CASTGC gets the form");
}

#[tokio::test]
async fn a_slow_answer_spends_the_refresh_credential_before_a_client_that_gave_up_hears_it() {
    let fake = start().await;
    let mut b = Browser::signed_in(&fake);
    fake.push_fault(
        FaultRule::times(Fault::SlowAnswer(std::time::Duration::from_secs(2)), 1)
            .on_path("/di-oauth/refresh"),
    );
    let impatient = garmin::https::client_builder()
        .unwrap()
        .timeout(std::time::Duration::from_millis(300))
        .build()
        .expect("client");
    let mut headers = b.api_headers();
    headers.remove("sec-fetch-site");
    let lost = impatient
        .post(format!("{}/services/auth/token/di-oauth/refresh", b.base))
        .headers(headers)
        .send()
        .await;
    assert!(lost.is_err_and(|e| e.is_timeout()));
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    assert_eq!(fake.refresh_credential_uses().len(), 1, "the credential was taken");
    assert_eq!(b.get(PROBE).await.status(), StatusCode::FORBIDDEN, "the client's copy is spent");
}
