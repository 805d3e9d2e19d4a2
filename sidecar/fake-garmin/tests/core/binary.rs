//! Run: `cargo test -p fake-garmin --test core binary::`.
//!
//! The standalone `fake-garmin` binary: announces its URL on stderr, prints an issued session on
//! stdout only when asked, serves, and exits cleanly on SIGTERM.

use std::process::Stdio;
use std::time::Duration;

use fake_garmin::IssuedSession;
use reqwest::Method;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::Command;

use crate::support::{PROBE, assert_passed_auth, http};

#[tokio::test]
async fn binary_prints_url_and_session_then_stops_on_sigterm() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fake-garmin"))
        .args(["--port", "0", "--site", "cn", "--jwt-lifetime-secs", "60", "--seed", "7"])
        .args(["--today", "2025-06-30", "--issue-session-for-ua", "Mozilla/5.0 (bin test)"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("spawn fake-garmin");
    let mut stderr = BufReader::new(child.stderr.take().expect("stderr")).lines();
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let line = tokio::time::timeout(Duration::from_secs(60), stderr.next_line())
        .await
        .expect("announces itself")
        .expect("read stderr")
        .expect("a line");
    let base = line
        .split_whitespace()
        .find(|w| w.starts_with("http://127.0.0.1:"))
        .unwrap_or_else(|| panic!("no URL in {line}"))
        .to_owned();
    assert!(line.contains("/portal/sso/zh-CN/sign-in"), "{line}");
    let json = stdout.next_line().await.expect("read stdout").expect("session line");
    let issued: IssuedSession = serde_json::from_str(&json).expect("IssuedSession JSON");

    let mut headers = reqwest::header::HeaderMap::new();
    let cookie = issued.cookies.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("; ");
    headers.insert("cookie", cookie.parse().expect("cookie"));
    headers.insert("connect-csrf-token", issued.csrf_token.parse().expect("csrf"));
    headers.insert("sec-fetch-site", "same-origin".parse().expect("sfs"));
    headers.insert("user-agent", issued.user_agent.parse().expect("ua"));
    let res =
        http().request(Method::GET, format!("{base}{PROBE}")).headers(headers).send().await.expect("request");
    assert_passed_auth(res).await;

    #[cfg(unix)]
    {
        let pid = child.id().expect("running").to_string();
        let kill = Command::new("kill").args(["-TERM", &pid]).status().await.expect("kill -TERM");
        assert!(kill.success());
        let status = tokio::time::timeout(Duration::from_secs(10), child.wait())
            .await
            .expect("exits after SIGTERM")
            .expect("wait");
        assert!(status.success(), "{status}");
    }
}
