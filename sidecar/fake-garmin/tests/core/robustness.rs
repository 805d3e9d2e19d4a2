//! Run: `cargo test -p fake-garmin --test core robustness::`.
//!
//! Hostile input never panics the fake (it answers 4xx), many clients at once with short-lived
//! access cookies all get through when they refresh correctly, and shutdown frees the port.

use std::time::{Duration, Instant};

use reqwest::header::{HeaderMap, HeaderValue};
use reqwest::{Method, StatusCode};

use crate::support::{Browser, PROBE, assert_passed_auth, http, start, start_with};

#[tokio::test]
async fn garbage_cookies_and_non_utf8_headers_get_403_not_a_panic() {
    let fake = start().await;
    let b = Browser::signed_in(&fake);
    let hostile: [&[u8]; 6] = [
        b"session; JWT_WEB; ;;=;==",
        b"session=\xff\xfe; JWT_WEB=\x80",
        b"JWT_WEB=a.b.c; session=fake-iron.0",
        b"session==; JWT_WEB==",
        b"\x00\x01",
        b"",
    ];
    for cookie in hostile {
        let Ok(value) = HeaderValue::from_bytes(cookie) else { continue };
        for target in [PROBE, "/services/auth/token/di-oauth/refresh", "/app/"] {
            let mut headers = b.api_headers();
            headers.insert("cookie", value.clone());
            headers.insert("connect-csrf-token", HeaderValue::from_bytes(b"\xe9t\xe9").expect("obs-text"));
            headers.insert("user-agent", HeaderValue::from_bytes(b"\xc3\x28").expect("obs-text"));
            let res = b.send(Method::POST, target, headers.clone()).await;
            assert!(
                res.status().is_client_error() || res.status() == StatusCode::FOUND,
                "{target}: {}",
                res.status()
            );
            let res = b.send(Method::GET, target, headers).await;
            assert!(
                res.status().is_client_error() || res.status() == StatusCode::FOUND,
                "{target}: {}",
                res.status()
            );
        }
    }
    // Still serving, still correct.
    assert_passed_auth(Browser::signed_in(&fake).get(PROBE).await).await;
}

#[tokio::test]
async fn hostile_sign_in_forms_and_queries_do_not_panic() {
    let fake = start().await;
    let base = fake.base_url();
    for (query, body) in [
        ("service=%0d%0aSet-Cookie:%20x=1", "username=a&password=b"),
        ("service=//evil.example", "username=a&password=b"),
        ("service=%ff%fe", "username=%ff&password=%fe"),
        ("", "\u{0}\u{1}garbage&&&=="),
    ] {
        let res = http()
            .post(format!("{base}/portal/sso/en-US/sign-in?{query}"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body)
            .send()
            .await
            .expect("request");
        assert!(
            res.status().is_client_error() || res.status() == StatusCode::FOUND,
            "{query}: {}",
            res.status()
        );
        if let Some(location) = res.headers().get("location") {
            assert_eq!(location, "/app/", "unsafe service URLs fall back to /app/");
        }
    }
    let res = http().get(format!("{base}/portal/sso/%3Cscript%3E/sign-in?service=%22%3E%3Cb")).send().await;
    let html = res.expect("request").text().await.expect("html");
    assert!(!html.contains("<script>") && !html.contains("\"><b"), "page escapes what it echoes");
}

#[tokio::test]
async fn eight_clients_with_a_two_second_access_cookie_all_get_through() {
    let fake = start_with(|c| c.jwt_lifetime = Duration::from_secs(2)).await;
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let mut b = Browser::signed_in(&fake);
        tasks.push(tokio::spawn(async move {
            let (mut ok, mut refreshes) = (0u32, 0u32);
            let until = Instant::now() + Duration::from_millis(4500);
            while Instant::now() < until {
                let status = b.get(PROBE).await.status();
                match status {
                    StatusCode::UNAUTHORIZED => {
                        assert_eq!(b.refresh().await.0, StatusCode::CREATED);
                        refreshes += 1;
                    }
                    StatusCode::FORBIDDEN => panic!("a correct client was refused"),
                    _ => ok += 1,
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            (ok, refreshes)
        }));
    }
    let mut total_refreshes = 0;
    for task in tasks {
        let (ok, refreshes) = task.await.expect("client task");
        assert!(ok > 10 && refreshes >= 1, "ok={ok} refreshes={refreshes}");
        total_refreshes += refreshes;
    }
    assert_eq!(fake.reuse_detected(), 0);
    let uses = fake.refresh_credential_uses();
    assert_eq!(uses.values().sum::<u32>(), total_refreshes);
    assert!(uses.values().all(|&n| n == 1));
}

#[tokio::test]
async fn shutdown_frees_the_port() {
    let fake = start().await;
    let base = fake.base_url();
    let b = Browser::signed_in(&fake);
    b.send(Method::GET, "/app/", HeaderMap::new()).await;
    fake.shutdown().await;
    assert!(http().get(format!("{base}/app/")).send().await.is_err());
}

/// A plain blocking GET of `/app/` on `addr` (the fake's sign-in redirect page), returning the
/// status line; the read gives up after 30 s.
fn blocking_get_status(addr: &str) -> std::io::Result<String> {
    use std::io::{BufRead as _, BufReader, Write as _};
    let mut stream = std::net::TcpStream::connect(addr)?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    write!(stream, "GET /app/ HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n")?;
    let mut line = String::new();
    BufReader::new(stream).read_line(&mut line)?;
    Ok(line)
}

// A one-worker runtime blocked by the caller: a fake on that runtime could never answer.
#[tokio::test(flavor = "current_thread")]
async fn a_fake_on_its_own_thread_answers_while_the_callers_runtime_is_blocked_and_stops_when_dropped() {
    let fake =
        fake_garmin::FakeGarmin::start_on_own_thread(fake_garmin::FakeConfig::default()).await.unwrap();
    let addr = fake.base_url().trim_start_matches("http://").to_owned();
    // Blocking this runtime's only thread on purpose: the answer must come from the fake's thread.
    let status = blocking_get_status(&addr).unwrap();
    assert!(status.starts_with("HTTP/1.1 "), "no HTTP answer: {status:?}");
    drop(fake);
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(&addr).is_ok() {
        assert!(Instant::now() < deadline, "the fake's thread still listens on {addr} after being dropped");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
