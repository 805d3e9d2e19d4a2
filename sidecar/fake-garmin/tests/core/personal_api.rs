//! Run: `cargo test -p fake-garmin --test core personal_api::`.
//!
//! The fake's Personal API (docs/garmin-personal-api.md): the key-for-token exchange, refused keys,
//! range caps, the 429 on bursts, and the same athlete's numbers as the web API.

use std::time::Duration;

use base64::Engine as _;
use fake_garmin::{FakeConfig, FakeSite, PersonalOptions};
use reqwest::StatusCode;
use serde_json::Value;

use super::support::{Browser, http, start, start_with};

const TOKEN: &str = "/personalapitoken-service/personal-api/personal-api-key/token";

async fn exchange(base: &str, key: &str) -> reqwest::Response {
    http()
        .post(format!("{base}{TOKEN}"))
        .header("authorization", format!("ApiKey {key}"))
        .send()
        .await
        .unwrap()
}

async fn token(base: &str, key: &str) -> String {
    let res = exchange(base, key).await;
    assert_eq!(res.status(), StatusCode::OK);
    res.text().await.unwrap().trim().to_owned()
}

fn claims(jwt: &str) -> Value {
    let payload = jwt.split('.').nth(1).expect("three parts");
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(payload).expect("base64url");
    serde_json::from_slice(&bytes).expect("json payload")
}

async fn get(base: &str, bearer: &str, path: &str) -> reqwest::Response {
    http().get(format!("{base}{path}")).bearer_auth(bearer).send().await.unwrap()
}

#[tokio::test]
async fn the_token_exchange_answers_a_bare_jwt_living_24_hours_capped_at_the_key_expiry() {
    let fake = start().await;
    let base = fake.base_url();
    let year = fake.mint_personal_api_key(Duration::from_secs(365 * 86_400));
    let res = exchange(&base, &year.key).await;
    assert_eq!(res.status(), StatusCode::OK);
    let body = res.text().await.unwrap();
    assert!(body.ends_with('\n') && !body.trim().starts_with('{'), "plain text JWT: {body}");
    let c = claims(body.trim());
    let (iat, exp) = (c["iat"].as_u64().unwrap(), c["exp"].as_u64().unwrap());
    assert_eq!(exp - iat, 86_400);
    let short = fake.mint_personal_api_key(Duration::from_secs(7200));
    let c = claims(&token(&base, &short.key).await);
    assert!(c["exp"].as_u64().unwrap() <= short.expires_at_ms / 1000);
    assert!(c["exp"].as_u64().unwrap() - c["iat"].as_u64().unwrap() <= 7200);
    // The log names the call but never holds the key.
    let log = serde_json::to_string(&fake.requests()).unwrap();
    assert!(log.contains(TOKEN) && !log.contains(&year.key) && !log.contains(&short.key));
}

#[tokio::test]
async fn wrong_expired_and_deleted_keys_are_refused_and_a_deleted_key_kills_its_tokens() {
    let fake = start().await;
    let base = fake.base_url();
    assert_eq!(exchange(&base, "not-a-key").await.status(), StatusCode::UNAUTHORIZED);
    let key = fake.mint_personal_api_key(Duration::from_secs(86_400 * 30));
    let bearer = token(&base, &key.key).await;
    let path = "/usersummary-service/usersummary/daily?calendarDate=2026-11-20";
    assert_eq!(get(&base, &bearer, path).await.status(), StatusCode::OK);
    assert!(fake.revoke_personal_api_key(&key.key));
    assert_eq!(get(&base, &bearer, path).await.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(exchange(&base, &key.key).await.status(), StatusCode::UNAUTHORIZED);
    let old = fake.mint_personal_api_key(Duration::from_secs(86_400));
    assert!(fake.expire_personal_api_key(&old.key));
    assert_eq!(exchange(&base, &old.key).await.status(), StatusCode::FORBIDDEN);
    // Without a token, or with an expired one: 401.
    assert_eq!(http().get(format!("{base}{path}")).send().await.unwrap().status(), StatusCode::UNAUTHORIZED);
    let live = fake.mint_personal_api_key(Duration::from_secs(86_400));
    let bearer = token(&base, &live.key).await;
    fake.expire_personal_api_tokens();
    assert_eq!(get(&base, &bearer, path).await.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(fake.personal_api_exchanges().values().sum::<u32>(), 4, "the unknown key is no key of ours");
}

#[tokio::test]
async fn each_range_endpoint_refuses_one_day_over_its_cap_as_garmin_does() {
    let fake = start_with(|c| c.today = chrono::NaiveDate::from_ymd_opt(2026, 11, 30).unwrap()).await;
    let base = fake.base_url();
    let key = fake.mint_personal_api_key(Duration::from_secs(86_400));
    let bearer = token(&base, &key.key).await;
    for (ok_path, over_path, over_status) in [
        (
            "/usersummary-service/stats/stress/daily/2026-10-01/2026-10-28",
            "/usersummary-service/stats/stress/daily/2026-10-01/2026-10-29",
            400,
        ),
        (
            "/usersummary-service/stats/steps/daily/2026-10-01/2026-10-28",
            "/usersummary-service/stats/steps/daily/2026-10-01/2026-10-29",
            400,
        ),
        (
            "/sleep-service/sleep/dailySleepSummariesByDate?startDate=2026-10-01&endDate=2026-10-31",
            "/sleep-service/sleep/dailySleepSummariesByDate?startDate=2026-10-01&endDate=2026-11-01",
            400,
        ),
        (
            "/wellness-service/wellness/bodyBattery/reports/daily?startDate=2026-10-01&endDate=2026-10-31",
            "/wellness-service/wellness/bodyBattery/reports/daily?startDate=2026-10-01&endDate=2026-11-01",
            400,
        ),
        (
            "/usersummary-service/v2/dailysummaries?startDate=2026-08-01&endDate=2026-10-29",
            "/usersummary-service/v2/dailysummaries?startDate=2026-08-01&endDate=2026-10-30",
            500,
        ),
        ("/hrv-service/hrv/daily/2025-12-01/2026-11-30", "/hrv-service/hrv/daily/2025-11-30/2026-11-30", 400),
    ] {
        assert_eq!(get(&base, &bearer, ok_path).await.status(), StatusCode::OK, "{ok_path}");
        assert_eq!(get(&base, &bearer, over_path).await.status().as_u16(), over_status, "{over_path}");
    }
}

#[tokio::test]
async fn a_burst_of_twelve_parallel_requests_gets_429_with_retry_after() {
    let fake = start().await;
    let base = fake.base_url();
    fake.set_personal_options(PersonalOptions { latency_ms: 300, ..PersonalOptions::default() });
    let key = fake.mint_personal_api_key(Duration::from_secs(86_400));
    let bearer = token(&base, &key.key).await;
    let tasks: Vec<_> = (0..12)
        .map(|_| {
            let (base, bearer) = (base.clone(), bearer.clone());
            tokio::spawn(
                async move { get(&base, &bearer, "/hrv-service/hrv/daily/2026-10-01/2026-10-07").await },
            )
        })
        .collect();
    let mut answers = Vec::new();
    for t in tasks {
        answers.push(t.await.unwrap());
    }
    let limited: Vec<_> = answers.iter().filter(|r| r.status() == StatusCode::TOO_MANY_REQUESTS).collect();
    assert!(limited.len() >= 6, "{} of 12 limited", limited.len());
    assert!(limited.iter().all(|r| r.headers().get("retry-after").is_some_and(|v| v == "14")));
    assert!(answers.iter().filter(|r| r.status() == StatusCode::OK).count() >= 2);
}

#[tokio::test]
async fn both_paths_answer_the_same_nights_sleep_and_daily_summary() {
    let fake = start_with(|c| c.today = chrono::NaiveDate::from_ymd_opt(2026, 11, 30).unwrap()).await;
    let base = fake.base_url();
    let key = fake.mint_personal_api_key(Duration::from_secs(86_400));
    let bearer = token(&base, &key.key).await;
    let mut web = Browser::signed_in(&fake);
    let web_sleep: Value =
        web.get("/gc-api/sleep-service/sleep/dailySleepData?date=2026-11-20").await.json().await.unwrap();
    let personal_sleep: Value =
        get(&base, &bearer, "/sleep-service/sleep/dailySleep?date=2026-11-20").await.json().await.unwrap();
    assert_eq!(web_sleep["dailySleepDTO"]["sleepTimeSeconds"], personal_sleep["sleepTimeSeconds"]);
    assert!(personal_sleep["sleepTimeSeconds"].as_u64().unwrap() > 0);
    let web_day: Value = web
        .get("/gc-api/usersummary-service/usersummary/daily/x?calendarDate=2026-11-20")
        .await
        .json()
        .await
        .unwrap();
    let v2: Value =
        get(&base, &bearer, "/usersummary-service/v2/dailysummaries?startDate=2026-11-20&endDate=2026-11-20")
            .await
            .json()
            .await
            .unwrap();
    assert_eq!(web_day["totalSteps"], v2["data"][0]["totalSteps"]);
    assert_eq!(web_day["restingHeartRate"], v2["data"][0]["restingHeartRate"]);
}

#[tokio::test]
async fn the_china_site_refuses_every_token_exchange_with_526() {
    let fake = start_with(|c: &mut FakeConfig| c.site = FakeSite::Cn).await;
    let key = fake.mint_personal_api_key(Duration::from_secs(86_400));
    let res = exchange(&fake.base_url(), &key.key).await;
    assert_eq!(res.status().as_u16(), 526);
    assert!(res.text().await.unwrap().contains("TOKEN_EXCHANGE_FAILED"));
}

/// The `value` of `<… id="{id}" …>` text between `>` and `<` in `html`.
fn element_text<'a>(html: &'a str, id: &str) -> &'a str {
    let start = html.find(&format!(r#"id="{id}""#)).expect(id);
    let rest = &html[start..];
    let open = rest.find('>').expect("tag end") + 1;
    let close = rest[open..].find('<').expect("element end");
    &rest[open..open + close]
}

#[tokio::test]
async fn the_key_page_makes_a_key_shown_once_that_the_token_exchange_accepts() {
    let fake = start().await;
    let base = fake.base_url();
    let page = fake_garmin::key_page::KEY_PAGE_PATH;
    // Not signed in: off to the sign-in page, as for every Connect page.
    let anonymous = http().get(format!("{base}{page}")).send().await.unwrap();
    assert_eq!(anonymous.status(), StatusCode::FOUND);
    assert!(anonymous.headers()["location"].to_str().unwrap().contains("/sign-in?"));

    let b = Browser::signed_in(&fake);
    let form = |fields: &[(&str, &str)]| {
        url::form_urlencoded::Serializer::new(String::new()).extend_pairs(fields).finish()
    };
    let post = |body: String| {
        http()
            .post(format!("{base}{page}"))
            .header("cookie", b.cookie_header())
            .header("user-agent", b.user_agent.clone())
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body)
            .send()
    };
    let shown = http()
        .get(format!("{base}{page}"))
        .header("cookie", b.cookie_header())
        .header("user-agent", b.user_agent.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(shown.status(), StatusCode::OK);
    let html = shown.text().await.unwrap();
    assert!(html.contains("Create Key") && html.contains(r#"value="365""#), "{html}");
    assert!(!html.contains("personal-api-key"), "no key before one is made");

    // Terms not accepted, or a stale CSRF token: no key.
    let refused = post(form(&[("csrf", &b.csrf), ("days", "90")])).await.unwrap();
    assert_eq!(refused.status(), StatusCode::BAD_REQUEST);
    let stale = post(form(&[("csrf", "stale"), ("days", "90"), ("accept", "on")])).await.unwrap();
    assert_eq!(stale.status(), StatusCode::FORBIDDEN);
    assert!(fake.personal_api_exchanges().is_empty(), "no key was made");

    let made = post(form(&[("csrf", &b.csrf), ("days", "30"), ("accept", "on")])).await.unwrap();
    assert_eq!(made.status(), StatusCode::OK);
    let html = made.text().await.unwrap();
    let key = element_text(&html, "personal-api-key").to_owned();
    assert!(key.starts_with("gcpak_"), "{key}");
    let expires_ms: u64 = element_text(&html, "key-expires-ms").trim().parse().unwrap();
    let days = (expires_ms / 1000).saturating_sub(chrono::Utc::now().timestamp().unsigned_abs()) / 86_400;
    assert!((29..=30).contains(&days), "{days}");
    let jwt = token(&base, &key).await;
    assert_eq!(jwt.split('.').count(), 3);
}
