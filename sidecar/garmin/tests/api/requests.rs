//! Run: `cargo test -p garmin --test api requests::`.
//!
//! Every request looks like the Garmin web app's: CSRF header, `Sec-Fetch-Site: same-origin`,
//! the session's User-Agent; `Accept: */*` on downloads and the API `Accept` elsewhere.

use garmin::api::ActivitySearch;

use super::support::{start, today};

#[tokio::test]
async fn requests_carry_the_browser_headers() {
    let env = start().await;
    let c = &env.client;
    let yesterday = today() - chrono::Days::new(1);
    let run = c.activities().search(&ActivitySearch::new().limit(1).activity_type("running")).await.unwrap();
    let id = run[0].activity_id.unwrap();
    c.wellness().sleep(yesterday).await.unwrap();
    c.metrics().training_readiness(yesterday).await.unwrap();
    c.downloads().activity_original(id).await.unwrap();
    c.workouts()
        .schedule(c.workouts().list(0, 1).await.unwrap()[0].workout_id.unwrap(), today())
        .await
        .unwrap();

    let requests: Vec<_> =
        env.fake.requests().into_iter().filter(|r| r.path.starts_with("/gc-api/")).collect();
    assert!(requests.len() >= 6);
    for r in &requests {
        assert_eq!(r.status / 100, 2, "{} {} answered {} ({:?})", r.method, r.path, r.status, r.note);
        assert!(r.header_names.iter().any(|h| h == "connect-csrf-token"), "{} has no CSRF header", r.path);
        assert_eq!(r.sec_fetch_site.as_deref(), Some("same-origin"), "{}", r.path);
        assert_eq!(r.user_agent.as_deref(), Some(garmin::DEFAULT_USER_AGENT), "{}", r.path);
        let accept = r.accept.as_deref().unwrap_or_default();
        if r.path.starts_with("/gc-api/download-service/") {
            assert_eq!(accept, "*/*", "{}", r.path);
        } else {
            assert!(accept.contains("application/json"), "{}: {accept}", r.path);
        }
    }
    let schedule = requests.iter().find(|r| r.method == "POST").unwrap();
    assert_eq!(schedule.content_type.as_deref(), Some("application/json"));
}
