//! The shared session under stress: the file's guarantees (mode, atomicity, locking, survival of a
//! SIGKILL mid-write) and the client's renewal rules against the fake Garmin (one-time refresh
//! credentials, adoption of another process's renewal, fallbacks, faults, retries).
//!
//! Run: `cargo test -p garmin --test session`
// Unix file modes, links and FIFOs throughout: Unix only (Windows: `garmin-mcp`'s tests/windows.rs).
#![cfg(unix)]

mod support;

use std::time::{Duration, Instant};

use fake_garmin::faults::{Fault, FaultRule};
use fake_garmin::{RefreshAnswer, SessionOptions};
use garmin::{Error, ErrorKind, ForbiddenKind, SessionStore};
use support::{Rig, fast_retry, sample_session};

// ---------------------------------------------------------------- the file

#[test]
fn session_file_is_0600_in_a_0700_folder_and_round_trips() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("nested").join("data");
    let store = SessionStore::new(&dir);
    let session = sample_session(0);
    store.save(&session).unwrap();
    assert_eq!(store.load().unwrap().as_ref(), Some(&session));
    let file_mode = std::fs::metadata(store.path()).unwrap().permissions().mode() & 0o777;
    let dir_mode = std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
    assert_eq!((file_mode, dir_mode), (0o600, 0o700));
}

#[test]
fn a_session_file_readable_by_others_is_tightened_on_read() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let store = SessionStore::new(tmp.path());
    store.save(&sample_session(0)).unwrap();
    std::fs::set_permissions(store.path(), std::fs::Permissions::from_mode(0o644)).unwrap();
    store.load().unwrap();
    let mode = std::fs::metadata(store.path()).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
}

#[test]
fn concurrent_read_modify_writes_under_the_lock_lose_no_update() {
    let tmp = tempfile::tempdir().unwrap();
    let store = SessionStore::new(tmp.path());
    store.save(&sample_session(0)).unwrap();
    let threads: Vec<_> = (0..8)
        .map(|_| {
            let store = store.clone();
            std::thread::spawn(move || {
                for _ in 0..25 {
                    store
                        .update(|s| {
                            let mut s = s.expect("session present");
                            s.refresh_count += 1;
                            Some(s)
                        })
                        .unwrap();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    assert_eq!(store.load().unwrap().unwrap().refresh_count, 200);
}

#[test]
fn damaged_session_file_is_reported_with_the_fix() {
    let tmp = tempfile::tempdir().unwrap();
    let store = SessionStore::new(tmp.path());
    std::fs::write(store.path(), b"{\"version\": 1, \"site\": \"global\"").unwrap();
    let message = store.load().unwrap_err().to_string();
    assert!(message.contains("damaged") && message.contains("sign in again"), "{message}");
}

#[test]
fn session_file_from_a_newer_version_is_refused_with_an_update_hint() {
    let tmp = tempfile::tempdir().unwrap();
    let store = SessionStore::new(tmp.path());
    let mut value = serde_json::to_value(sample_session(0)).unwrap();
    value["version"] = 99.into();
    std::fs::write(store.path(), serde_json::to_vec(&value).unwrap()).unwrap();
    let message = store.load().unwrap_err().to_string();
    assert!(message.contains("format 99") && message.contains("update"), "{message}");
}

#[test]
fn sign_out_removes_the_file_and_a_client_then_says_not_signed_in() {
    let tmp = tempfile::tempdir().unwrap();
    let store = SessionStore::new(tmp.path());
    store.save(&sample_session(0)).unwrap();
    assert!(store.clear().unwrap());
    assert!(!store.clear().unwrap());
    let err = garmin::Client::from_store(store).unwrap_err();
    assert!(matches!(err, Error::NotSignedIn { .. }), "{err}");
    assert!(err.to_string().contains("garmin-mcp login --manual"));
}

/// Child half of the SIGKILL test: when `KILL_WRITER_DIR` is set, write sessions forever, saying
/// `writing` on stdout once the first write is done (the parent kills it only after that).
#[test]
fn kill_writer_child() {
    use std::io::Write as _;
    let Some(dir) = std::env::var_os("KILL_WRITER_DIR") else { return };
    let store = SessionStore::new(dir);
    let mut n = store.load().ok().flatten().map_or(0, |s| s.refresh_count);
    for written in 0u64.. {
        n += 1;
        store.save(&sample_session(n)).unwrap();
        if written == 0 {
            let mut out = std::io::stdout();
            let _ = writeln!(out, "writing");
            let _ = out.flush();
        }
    }
}

#[test]
fn session_file_is_always_old_or_new_when_the_writer_is_killed_mid_write() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let store = SessionStore::new(tmp.path());
    store.save(&sample_session(0)).unwrap();
    let exe = std::env::current_exe().unwrap();
    let mut last = 0;
    let mut interrupted_writes = 0;
    for round in 0..40u64 {
        let mut child = std::process::Command::new(&exe)
            .args(["kill_writer_child", "--exact", "--test-threads=1", "--nocapture"])
            .env("KILL_WRITER_DIR", tmp.path())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        // Kill only once the child is writing (a loaded machine can take longer than any fixed
        // delay to start it), then at a different point of its write loop each round.
        let mut said = String::new();
        let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
        while !said.contains("writing") {
            let mut line = String::new();
            let read = std::io::BufRead::read_line(&mut out, &mut line).unwrap();
            assert!(read > 0, "round {round}: the writer ended before it wrote: {said}");
            said.push_str(&line);
        }
        std::thread::sleep(Duration::from_millis((round * 7) % 23));
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        interrupted_writes += std::fs::read_dir(tmp.path())
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .count();
        let session = store.load().expect("file must always be complete").expect("file must exist");
        assert_eq!(
            session,
            sample_session(session.refresh_count),
            "round {round}: content must be a whole session"
        );
        assert!(session.refresh_count >= last, "round {round}: went backwards");
        last = session.refresh_count;
        let mode = std::fs::metadata(store.path()).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "round {round}");
    }
    assert!(last > 0, "the writer never completed a write; the test proved nothing");
    // The next writer clears what killed writers left behind.
    store.save(&sample_session(last + 1)).unwrap();
    let leftovers = std::fs::read_dir(tmp.path())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .count();
    assert_eq!(leftovers, 0);
    eprintln!("{last} writes completed; {interrupted_writes} kills landed mid-write");
}

// ---------------------------------------------------------------- renewal

#[tokio::test]
async fn expired_access_is_renewed_once_saved_and_the_call_succeeds() {
    let rig = Rig::start(Duration::from_secs(3600)).await;
    let client = rig.client();
    rig.fake.expire_access_tokens();
    let profile = client.get_value("/userprofile-service/socialProfile", &[]).await.unwrap();
    assert!(profile.is_some());
    let saved = rig.store.load().unwrap().unwrap();
    assert_eq!(saved.refresh_count, 1);
    assert!(saved.last_refresh_at.is_some());
    assert!(rig.fake.refresh_credential_uses().values().all(|&n| n == 1));
    assert_eq!(rig.fake.reuse_detected(), 0);
    let statuses: Vec<(String, u16)> = rig.fake.requests().into_iter().map(|r| (r.path, r.status)).collect();
    assert_eq!(
        statuses,
        [
            ("/gc-api/userprofile-service/socialProfile".to_owned(), 401),
            ("/services/auth/token/di-oauth/refresh".to_owned(), 201),
            ("/gc-api/userprofile-service/socialProfile".to_owned(), 200),
        ]
    );
}

#[tokio::test]
async fn access_about_to_expire_is_renewed_before_the_call() {
    // The token's iat/exp are whole seconds, so its lifetime reads as 8–9 s and the renewal margin
    // (a quarter of it) starts by 6.75 s after issue; the fake rejects it from 8 s on.
    let rig = Rig::start(Duration::from_secs(8)).await;
    let client = rig.client();
    tokio::time::sleep(Duration::from_millis(7000)).await;
    client.get_value("/userprofile-service/socialProfile", &[]).await.unwrap();
    let paths: Vec<(String, u16)> = rig.fake.requests().into_iter().map(|r| (r.path, r.status)).collect();
    assert_eq!(paths[0], ("/services/auth/token/di-oauth/refresh".to_owned(), 201), "{paths:?}");
    assert!(paths.iter().all(|(_, status)| *status != 401 && *status != 403), "{paths:?}");
}

#[tokio::test]
async fn another_process_renewal_is_adopted_without_spending_the_credential_twice() {
    let rig = Rig::start(Duration::from_secs(3600)).await;
    // Two clients on one store behave like two processes: separate memory, one file.
    let first = rig.client();
    let second = rig.client();
    second.get_value("/userprofile-service/socialProfile", &[]).await.unwrap();
    rig.fake.expire_access_tokens();
    first.get_value("/userprofile-service/socialProfile", &[]).await.unwrap();
    rig.fake.clear_requests();
    second.get_value("/userprofile-service/socialProfile", &[]).await.unwrap();
    let requests = rig.fake.requests();
    assert_eq!(
        requests.len(),
        1,
        "the second client picks up the saved renewal before calling: {requests:?}"
    );
    assert_eq!(requests[0].status, 200);
    assert!(rig.fake.refresh_credential_uses().values().all(|&n| n == 1));
    assert_eq!(rig.fake.reuse_detected(), 0);
}

#[tokio::test]
async fn refresh_answer_without_tokens_never_overwrites_and_the_app_page_renews_instead() {
    let rig = Rig::start(Duration::from_secs(3600)).await;
    let client = rig.client();
    let before = rig.store.load().unwrap().unwrap();
    rig.fake.push_fault(FaultRule::times(Fault::EmptyBody, 1).on_path("/di-oauth/refresh"));
    rig.fake.expire_access_tokens();
    client.get_value("/userprofile-service/socialProfile", &[]).await.unwrap();
    let paths: Vec<(String, u16)> = rig.fake.requests().into_iter().map(|r| (r.path, r.status)).collect();
    let expected_order = [
        "/gc-api/userprofile-service/socialProfile",
        "/services/auth/token/di-oauth/refresh",
        "/app/",
        "/gc-api/userprofile-service/socialProfile",
    ];
    let got: Vec<&str> = paths.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(got, expected_order, "{paths:?}");
    let after = rig.store.load().unwrap().unwrap();
    assert_eq!(after.refresh_count, 1);
    assert_ne!(after.cookies, before.cookies, "the app page's Set-Cookie renewed JWT_WEB");
}

#[tokio::test]
async fn a_dead_session_says_expired_and_how_to_sign_in_again() {
    let rig = Rig::start(Duration::from_secs(3600)).await;
    // A broken client replays the credential: Garmin ends the whole session family. (A stale copy
    // written back alone no longer does: see `a_bare_403_from_garmin_rereads_the_page_…`.)
    rig.kill_session_family().await;
    rig.fake.clear_requests();
    let err = rig.client().get_value("/userprofile-service/socialProfile", &[]).await.unwrap_err();
    assert!(matches!(err, Error::SessionExpired { .. }), "{err}");
    assert!(err.to_string().contains("sign in again"), "{err}");
    assert_eq!(refresh_calls(&rig), 0, "a dead family's credential is not presented again");
}

#[tokio::test]
async fn set_cookie_on_any_answer_is_merged_into_the_saved_session() {
    let rig = Rig::start(Duration::from_secs(3600)).await;
    rig.store
        .update(|s| {
            let mut s = s?;
            s.cookies.retain(|c| c.name != "__cf_bm");
            Some(s)
        })
        .unwrap();
    rig.client().get_value("/userprofile-service/socialProfile", &[]).await.unwrap();
    let saved = rig.store.load().unwrap().unwrap();
    assert!(saved.cookies.iter().any(|c| c.name == "__cf_bm"), "{saved:?}");
}

#[tokio::test]
async fn session_expiring_every_second_never_fails_a_call() {
    let rig = Rig::start(Duration::from_secs(1)).await;
    let client = rig.client();
    let deadline = Instant::now() + Duration::from_secs(4);
    let mut calls = 0;
    while Instant::now() < deadline {
        let batch: Vec<_> =
            (0..4).map(|_| client.get_value("/userprofile-service/socialProfile", &[])).collect();
        for result in futures::future::join_all(batch).await {
            result.unwrap();
            calls += 1;
        }
    }
    assert!(rig.store.load().unwrap().unwrap().refresh_count >= 2, "sessions should have rotated");
    assert!(rig.fake.refresh_credential_uses().values().all(|&n| n == 1));
    assert!(calls > 8);
}

// ---------------------------------------------------------------- faults and retries

#[tokio::test]
async fn rate_limited_read_waits_for_retry_after_then_succeeds() {
    let rig = Rig::start(Duration::from_secs(3600)).await;
    rig.fake.push_fault(FaultRule::times(Fault::RateLimited { retry_after_secs: Some(1) }, 1));
    let started = Instant::now();
    rig.client().get_value("/userprofile-service/socialProfile", &[]).await.unwrap();
    assert!(started.elapsed() >= Duration::from_secs(1), "Retry-After must be honoured");
    let statuses: Vec<u16> = rig.fake.requests().iter().map(|r| r.status).collect();
    assert_eq!(statuses, [429, 200]);
}

#[tokio::test]
async fn retry_after_beyond_the_limit_fails_at_once_with_the_delay() {
    let rig = Rig::start(Duration::from_secs(3600)).await;
    rig.fake.push_fault(FaultRule::always(Fault::RateLimited { retry_after_secs: Some(3600) }));
    let err = rig.client().get_value("/userprofile-service/socialProfile", &[]).await.unwrap_err();
    assert!(
        matches!(err, Error::RateLimited { retry_after: Some(d) } if d == Duration::from_secs(3600)),
        "{err}"
    );
    assert!(err.to_string().contains("3600 s"), "{err}");
    assert_eq!(rig.fake.requests().len(), 1);
}

#[tokio::test]
async fn rate_limit_hidden_in_a_200_body_is_retried() {
    let rig = Rig::start(Duration::from_secs(3600)).await;
    rig.fake.push_fault(FaultRule::times(Fault::RateLimitedInBody, 2));
    let value = rig.client().get_value("/userprofile-service/socialProfile", &[]).await.unwrap();
    assert!(value.unwrap().get("displayName").is_some());
    assert_eq!(rig.fake.requests().len(), 3);
}

#[tokio::test]
async fn server_errors_are_retried_a_bounded_number_of_times() {
    let rig = Rig::start(Duration::from_secs(3600)).await;
    rig.fake.push_fault(FaultRule::always(Fault::ServerError(503)));
    let err = rig.client().get_value("/userprofile-service/socialProfile", &[]).await.unwrap_err();
    assert!(matches!(err, Error::Server { status: 503, .. }), "{err}");
    assert_eq!(rig.fake.requests().len() as u32, 1 + fast_retry().max_retries);
}

#[tokio::test]
async fn a_passing_server_error_is_invisible_to_the_caller() {
    let rig = Rig::start(Duration::from_secs(3600)).await;
    rig.fake.push_fault(FaultRule::times(Fault::ServerError(502), 2));
    rig.client().get_value("/userprofile-service/socialProfile", &[]).await.unwrap();
    let statuses: Vec<u16> = rig.fake.requests().iter().map(|r| r.status).collect();
    assert_eq!(statuses, [502, 502, 200]);
}

#[tokio::test]
async fn malformed_json_is_a_decode_error_naming_the_endpoint() {
    let rig = Rig::start(Duration::from_secs(3600)).await;
    rig.fake.push_fault(FaultRule::times(Fault::MalformedJson, 1));
    let err = rig.client().get_value("/userprofile-service/socialProfile", &[]).await.unwrap_err();
    assert!(matches!(err, Error::Decode { .. }), "{err}");
    assert!(err.to_string().contains("GET /gc-api/userprofile-service/socialProfile"), "{err}");
}

#[tokio::test]
async fn empty_and_no_content_answers_mean_no_data() {
    let rig = Rig::start(Duration::from_secs(3600)).await;
    let client = rig.client();
    rig.fake.push_fault(FaultRule::times(Fault::EmptyBody, 1));
    assert_eq!(client.get_value("/userprofile-service/socialProfile", &[]).await.unwrap(), None);
    rig.fake.push_fault(FaultRule::times(Fault::NoContent, 1));
    assert_eq!(client.get_value("/userprofile-service/socialProfile", &[]).await.unwrap(), None);
}

#[tokio::test]
async fn independent_requests_respect_the_concurrency_limit() {
    let rig = Rig::start(Duration::from_secs(3600)).await;
    rig.fake.push_fault(FaultRule::always(Fault::Latency(Duration::from_millis(300))));
    let client = rig.client_with(|b| b.max_concurrency(2));
    let started = Instant::now();
    let calls: Vec<_> = (0..6).map(|_| client.get_value("/userprofile-service/socialProfile", &[])).collect();
    for result in futures::future::join_all(calls).await {
        result.unwrap();
    }
    // Six 300 ms calls, two at a time, take at least three rounds.
    assert!(started.elapsed() >= Duration::from_millis(900), "{:?}", started.elapsed());
}

#[tokio::test]
async fn requests_carry_the_headers_the_web_app_sends() {
    let rig = Rig::start(Duration::from_secs(3600)).await;
    rig.client().get_value("/userprofile-service/socialProfile", &[]).await.unwrap();
    let request = rig.fake.requests().pop().unwrap();
    for header in ["cookie", "connect-csrf-token", "sec-fetch-site", "accept", "user-agent", "referer"] {
        assert!(request.header_names.iter().any(|h| h == header), "missing {header}: {request:?}");
    }
    assert_eq!(request.sec_fetch_site.as_deref(), Some("same-origin"));
    assert_eq!(request.accept.as_deref(), Some("application/json, text/plain, */*"));
    assert_eq!(request.user_agent.as_deref(), Some(support::USER_AGENT));
}

#[tokio::test]
async fn a_different_user_agent_than_at_sign_in_is_refused_by_garmin() {
    let rig = Rig::start(Duration::from_secs(3600)).await;
    rig.store
        .update(|s| {
            let mut s = s?;
            s.user_agent = "curl/8".into();
            Some(s)
        })
        .unwrap();
    let err = rig.client().get_value("/userprofile-service/socialProfile", &[]).await.unwrap_err();
    assert!(err.needs_sign_in(), "{err}");
}

#[tokio::test]
async fn a_401_in_the_middle_of_a_run_is_renewed_transparently() {
    let rig = Rig::start(Duration::from_secs(3600)).await;
    let client = rig.client();
    client.get_value("/userprofile-service/socialProfile", &[]).await.unwrap();
    rig.fake.push_fault(FaultRule::times(Fault::ExpireSession, 1));
    client.get_value("/userprofile-service/socialProfile", &[]).await.unwrap();
    client.get_value("/userprofile-service/socialProfile", &[]).await.unwrap();
    let statuses: Vec<u16> = rig.fake.requests().iter().map(|r| r.status).collect();
    assert_eq!(statuses, [200, 401, 201, 200, 200]);
    assert_eq!(rig.store.load().unwrap().unwrap().refresh_count, 1);
}

#[tokio::test]
async fn a_write_that_meets_a_server_error_is_not_repeated() {
    let rig = Rig::start(Duration::from_secs(3600)).await;
    rig.fake.push_fault(FaultRule::always(Fault::ServerError(503)));
    let err = rig.client().activities().rename(90_000_000_001, "Renamed").await.unwrap_err();
    assert!(matches!(err, Error::Server { status: 503, .. }), "{err}");
    let writes: Vec<_> = rig.fake.requests().into_iter().filter(|r| r.method == "PUT").collect();
    assert_eq!(writes.len(), 1, "a write may have happened; it must not be sent twice");
}

#[tokio::test]
async fn a_write_refused_for_an_expired_session_is_sent_again_after_renewal() {
    let rig = Rig::start(Duration::from_secs(3600)).await;
    rig.fake.expire_access_tokens();
    rig.client().activities().rename(90_000_000_001, "Renamed").await.unwrap();
    let statuses: Vec<(String, u16)> =
        rig.fake.requests().into_iter().map(|r| (r.method, r.status)).collect();
    // Garmin refuses a 401 before applying anything, so repeating it once after renewal is safe.
    assert_eq!(statuses, [("PUT".to_owned(), 401), ("POST".to_owned(), 201), ("PUT".to_owned(), 204)]);
}

/// A lock held by a stopped process used to hang `status` and every tool for as long as it stayed
/// stopped: a waiter now gives up after a bounded wait and names the holder.
#[test]
fn a_session_lock_held_too_long_is_reported_with_the_holders_pid_instead_of_hanging() {
    let dir = tempfile::tempdir().unwrap();
    let holder = garmin::SessionStore::new(dir.path());
    let _held = holder.lock().unwrap();
    let waiter = garmin::SessionStore::new(dir.path()).with_lock_wait(std::time::Duration::from_millis(300));
    let started = std::time::Instant::now();
    let error = waiter.lock().unwrap_err();
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    let text = error.to_string();
    assert!(text.contains(&format!("pid {}", std::process::id())), "{text}");
    assert!(text.contains("stopped process"), "{text}");
}

/// `session.json` swapped for a FIFO or a link to `/dev/zero` is refused at once, without blocking
/// or reading until memory runs out; a link to another file is never read nor re-moded.
#[cfg(unix)]
#[test]
fn a_session_file_swapped_for_a_fifo_or_a_link_is_refused_at_once() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().unwrap();
    let store = garmin::SessionStore::new(dir.path());
    let path = store.path();
    assert!(std::process::Command::new("mkfifo").arg(&path).status().unwrap().success());
    let error = store.load().unwrap_err().to_string();
    assert!(error.contains("not a regular file"), "{error}");
    std::fs::remove_file(&path).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
    assert!(store.load().unwrap_err().to_string().contains("is a link"));
    std::fs::remove_file(&path).unwrap();
    let victim = dir.path().join("owners-notes.txt");
    std::fs::write(&victim, "{}").unwrap();
    std::fs::set_permissions(&victim, std::fs::Permissions::from_mode(0o644)).unwrap();
    std::os::unix::fs::symlink(&victim, &path).unwrap();
    assert!(store.load().is_err());
    let mode = std::fs::metadata(&victim).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o644, "the link's target keeps its mode");
}

// ---------------------------------------------------------------- what real Garmin taught us

/// Calls the fake's log shows to the refresh endpoint (each presents a refresh credential).
fn refresh_calls(rig: &Rig) -> usize {
    rig.fake.requests().iter().filter(|r| r.path == "/services/auth/token/di-oauth/refresh").count()
}

#[tokio::test]
async fn a_non_session_403_presents_no_refresh_credential() {
    // Each 403 kind, even with an access cookie that has expired meanwhile: never a renewal.
    let kinds = [
        (Fault::EdgeForbidden, "/userprofile-service/", ForbiddenKind::CloudflareEdge),
        (Fault::EdgeForbiddenHtml, "/userprofile-service/", ForbiddenKind::CloudflareEdge),
        (Fault::ForbiddenException, "/userprofile-service/", ForbiddenKind::Account),
        (Fault::ForbiddenException, "/hrv-service/", ForbiddenKind::Feature),
        (Fault::NotOwner, "/userprofile-service/", ForbiddenKind::NotOwner),
    ];
    for (fault, path, kind) in kinds {
        let rig = Rig::start(Duration::from_secs(3600)).await;
        rig.fake.push_fault(FaultRule::always(fault.clone()).on_path(path));
        let call = if path == "/hrv-service/" {
            "/hrv-service/hrv/2026-11-14"
        } else {
            "/userprofile-service/socialProfile"
        };
        let err = rig.client().get_value(call, &[]).await.unwrap_err();
        assert_eq!(err.forbidden_kind(), Some(kind), "{fault:?}: {err}");
        assert!(!err.needs_sign_in(), "{fault:?}: {err}");
        assert!(!err.to_string().contains("sign in again in"), "{fault:?}: {err}");
        assert_eq!(refresh_calls(&rig), 0, "{fault:?} presented a refresh credential");
        assert!(rig.fake.refresh_credential_uses().is_empty(), "{fault:?}");
        assert_eq!(rig.fake.requests().len(), 1, "{fault:?}: one call, no repeat, no page visit");
        assert_eq!(rig.store.load().unwrap().unwrap().refresh_count, 0);
    }
}

#[tokio::test]
async fn a_cloudflare_edge_403_is_named_with_what_to_do() {
    let rig = Rig::start(Duration::from_secs(3600)).await;
    rig.fake.push_fault(FaultRule::times(Fault::EdgeForbiddenHtml, 1));
    let err = rig.client().get_value("/userprofile-service/socialProfile", &[]).await.unwrap_err();
    let text = err.to_string();
    assert!(text.contains("Cloudflare") && text.contains("never reached Garmin"), "{text}");
    assert!(text.contains("wait and try again") && text.contains("another network"), "{text}");
    assert_eq!(err.kind(), ErrorKind::Forbidden);
}

#[tokio::test]
async fn garmins_forbidden_exception_is_refused_for_the_account_not_a_dead_session() {
    let rig = Rig::start(Duration::from_secs(3600)).await;
    rig.fake.push_fault(FaultRule::times(Fault::ForbiddenException, 1).on_path("/workout-service/"));
    let err = rig.client().get_value("/workout-service/workouts", &[]).await.unwrap_err();
    let text = err.to_string();
    assert!(text.contains("ForbiddenException") && text.contains("HTTP 403 Forbidden"), "{text}");
    assert!(text.contains("session is fine") && text.contains("will not change it"), "{text}");
}

#[tokio::test]
async fn a_403_on_a_feature_the_device_lacks_says_so() {
    let rig = Rig::start(Duration::from_secs(3600)).await;
    rig.fake.push_fault(FaultRule::times(Fault::ForbiddenException, 1).on_path("/metrics-service/"));
    let err = rig
        .client()
        .get_value("/metrics-service/metrics/trainingreadiness/2026-11-14", &[])
        .await
        .unwrap_err();
    assert_eq!(err.forbidden_kind(), Some(ForbiddenKind::Feature));
    let text = err.to_string();
    assert!(text.contains("do not have this feature") && text.contains("watch that records it"), "{text}");
}

#[tokio::test]
async fn a_bare_403_from_garmin_rereads_the_page_instead_of_spending_the_credential() {
    let rig = Rig::start(Duration::from_secs(3600)).await;
    let original = rig.store.load().unwrap().unwrap();
    rig.fake.expire_access_tokens();
    rig.client().get_value("/userprofile-service/socialProfile", &[]).await.unwrap();
    // A stale copy written back holds the spent credential: Garmin answers a bare 403 for it (with
    // cf-cache-status), and the Connect page hands over a new access cookie without a refresh call.
    rig.store.save(&original).unwrap();
    rig.fake.clear_requests();
    rig.client().get_value("/userprofile-service/socialProfile", &[]).await.unwrap();
    let paths: Vec<(String, u16)> = rig.fake.requests().into_iter().map(|r| (r.path, r.status)).collect();
    let got: Vec<(&str, u16)> = paths.iter().map(|(p, s)| (p.as_str(), *s)).collect();
    assert_eq!(
        got,
        [
            ("/gc-api/userprofile-service/socialProfile", 403),
            ("/app/", 200),
            ("/gc-api/userprofile-service/socialProfile", 200)
        ]
    );
    assert_eq!(rig.fake.reuse_detected(), 0, "the spent credential was never presented again");
    assert!(rig.fake.refresh_credential_uses().values().all(|&n| n == 1));
}

async fn cookie_only_refresh_is_absorbed(answer: RefreshAnswer) {
    let rig = Rig::start(Duration::from_secs(3600)).await;
    rig.fake.set_session_options(SessionOptions { refresh_answer: answer, ..SessionOptions::default() });
    let before = rig.store.load().unwrap().unwrap();
    rig.fake.expire_access_tokens();
    rig.client().get_value("/userprofile-service/socialProfile", &[]).await.unwrap();
    let statuses: Vec<(String, u16)> = rig.fake.requests().into_iter().map(|r| (r.path, r.status)).collect();
    assert_eq!(
        statuses,
        [
            ("/gc-api/userprofile-service/socialProfile".to_owned(), 401),
            ("/services/auth/token/di-oauth/refresh".to_owned(), 200),
            ("/gc-api/userprofile-service/socialProfile".to_owned(), 200),
        ],
        "{answer:?}: the new JWT_WEB from Set-Cookie is used, no fallback needed"
    );
    let after = rig.store.load().unwrap().unwrap();
    assert_eq!(after.refresh_count, 1);
    assert_eq!(after.csrf_token, before.csrf_token, "a cookie-only answer keeps the CSRF token");
    let jwts = after.cookies.iter().filter(|c| c.name == "JWT_WEB").count();
    assert_eq!(jwts, 1, "one JWT_WEB in the jar, never an old copy beside the new one");
    assert!(rig.fake.refresh_credential_uses().values().all(|&n| n == 1));
}

#[tokio::test]
async fn a_refresh_answer_with_the_new_jwt_only_in_set_cookie_and_an_empty_body_is_absorbed() {
    cookie_only_refresh_is_absorbed(RefreshAnswer::CookieOnlyEmptyBody).await;
}

#[tokio::test]
async fn a_refresh_answer_with_the_new_jwt_only_in_set_cookie_and_a_tokenless_body_is_absorbed() {
    cookie_only_refresh_is_absorbed(RefreshAnswer::CookieOnlyTokenlessBody).await;
}

#[tokio::test]
async fn no_request_ever_goes_to_the_modern_refresh_token_path() {
    let rig = Rig::start(Duration::from_secs(3600)).await;
    let client = rig.client();
    // The refresh call failing in every way it can: a server error, an answer without tokens, a
    // dead session (reuse), and plain success.
    rig.fake.push_fault(FaultRule::times(Fault::ServerError(500), 1).on_path("/di-oauth/refresh"));
    rig.fake.push_fault(FaultRule::times(Fault::EmptyBody, 1).on_path("/di-oauth/refresh"));
    for _ in 0..3 {
        rig.fake.expire_access_tokens();
        client.get_value("/userprofile-service/socialProfile", &[]).await.unwrap();
    }
    let original = rig.store.load().unwrap().unwrap();
    rig.fake.expire_access_tokens();
    client.get_value("/userprofile-service/socialProfile", &[]).await.unwrap();
    rig.store.save(&original).unwrap();
    rig.fake.push_fault(FaultRule::times(Fault::ExpireSession, 1));
    let _ = rig.client().get_value("/userprofile-service/socialProfile", &[]).await;
    let requests = rig.fake.requests();
    assert!(requests.len() > 8, "{requests:?}");
    assert!(requests.iter().all(|r| !r.path.contains("/modern/di-oauth")), "{requests:?}");
}

#[tokio::test]
async fn a_session_without_a_session_cookie_is_valid_when_garmin_accepts_it() {
    let rig = Rig::start_with(
        Duration::from_secs(3600),
        SessionOptions { no_session_cookie: true, ..SessionOptions::default() },
    )
    .await;
    let saved = rig.store.load().unwrap().unwrap();
    assert!(!saved.cookies.iter().any(|c| c.name == "session"), "{saved:?}");
    let client = rig.client();
    let account = client.verify().await.unwrap();
    assert_eq!(account.display_name, "fake-athlete-1");
    // It renews like any other.
    rig.fake.expire_access_tokens();
    client.get_value("/userprofile-service/socialProfile", &[]).await.unwrap();
    assert_eq!(rig.store.load().unwrap().unwrap().refresh_count, 1);
}

#[tokio::test]
async fn a_refused_jar_names_the_cookie_it_lacked_only_after_the_call_failed() {
    let rig = Rig::start(Duration::from_secs(3600)).await;
    rig.store
        .update(|s| {
            let mut s = s?;
            s.cookies.retain(|c| c.name != "JWT_WEB" && c.name != "session");
            Some(s)
        })
        .unwrap();
    let err = rig.client().get_value("/userprofile-service/socialProfile", &[]).await.unwrap_err();
    assert!(err.needs_sign_in(), "{err}");
    assert!(err.to_string().contains("no `JWT_WEB` cookie"), "{err}");
}

#[tokio::test]
async fn garmin_moving_the_session_to_connectus_is_followed_and_saved() {
    let mut rig = Rig::start(Duration::from_secs(3600)).await;
    let connectus = rig.fake.start_connectus().await.unwrap();
    rig.fake.set_mainland_network(true);
    let client = rig.client();
    let profile = client.get_value("/userprofile-service/socialProfile", &[]).await.unwrap();
    assert!(profile.is_some());
    let saved = rig.store.load().unwrap().unwrap();
    assert_eq!(saved.origins.connect, connectus, "the session lives on the front end in use");
    assert_eq!(client.info().connect_url, connectus);
    let statuses: Vec<u16> = rig.fake.requests().iter().map(|r| r.status).collect();
    assert_eq!(statuses, [302, 200]);
    // From now on every call (and renewal) goes straight there.
    rig.fake.clear_requests();
    rig.fake.expire_access_tokens();
    rig.client().get_value("/userprofile-service/socialProfile", &[]).await.unwrap();
    let statuses: Vec<u16> = rig.fake.requests().iter().map(|r| r.status).collect();
    assert_eq!(statuses, [401, 201, 200], "no more redirects");
    assert_eq!(refresh_calls(&rig), 1);
}

#[tokio::test]
async fn a_dead_session_signs_in_again_silently_through_the_sso_before_asking_the_person() {
    let rig = Rig::start_through_sso(Duration::from_secs(3600)).await;
    // Someone else replays the credential: Garmin kills the whole session family.
    rig.kill_session_family().await;
    rig.fake.clear_requests();
    let client = rig.client();
    client.get_value("/userprofile-service/socialProfile", &[]).await.unwrap();
    let paths: Vec<String> = rig.fake.requests().into_iter().map(|r| r.path).collect();
    assert!(paths.iter().any(|p| p.starts_with("/portal/sso/")), "{paths:?}");
    assert_eq!(refresh_calls(&rig), 0, "a dead family's credential is never presented: {paths:?}");
    assert_eq!(paths.last().map(String::as_str), Some("/gc-api/userprofile-service/socialProfile"));
    let saved = rig.store.load().unwrap().unwrap();
    assert_eq!(saved.refresh_count, 1);
    assert!(saved.cookies.iter().any(|c| c.name == "CASTGC"), "the SSO cookie is kept for next time");
}

// ---------------------------------------------------------------- a renewal cut short

/// A renewal that presents its one-time credential and never hears Garmin's answer (the process
/// gave up or was killed): Garmin has rotated, the new credential is lost, the file still holds the
/// spent one. Returns once the saved access cookie is due for renewal again.
async fn renewal_cut_short() -> Rig {
    let rig = Rig::start(Duration::from_secs(4)).await;
    rig.fake.push_fault(
        FaultRule::times(Fault::SlowAnswer(Duration::from_secs(3)), 1).on_path("/di-oauth/refresh"),
    );
    rig.fake.expire_access_tokens();
    let doomed = rig.client_with(|b| b.timeout(Duration::from_millis(500)));
    let err = doomed.get_value("/userprofile-service/socialProfile", &[]).await.unwrap_err();
    assert!(matches!(err, Error::Network { .. }), "{err}");
    assert_eq!(rig.fake.refresh_credential_uses().len(), 1, "Garmin took the credential");
    let saved = rig.store.load().unwrap().unwrap();
    assert!(saved.renewal_in_flight.is_some(), "the renewal was recorded before the credential was spent");
    // Let the saved access cookie come due, so the next process renews before its first call.
    tokio::time::sleep(Duration::from_millis(3300)).await;
    rig.fake.clear_requests();
    rig
}

#[tokio::test]
async fn a_process_that_finds_an_orphaned_renewal_recovers_without_replaying_the_spent_credential() {
    let rig = renewal_cut_short().await;
    rig.client().get_value("/userprofile-service/socialProfile", &[]).await.unwrap();
    assert_eq!(rig.fake.reuse_detected(), 0, "the spent credential was never presented again");
    assert_eq!(refresh_calls(&rig), 0);
    assert!(rig.fake.requests().iter().any(|r| r.path == "/app/" && r.status == 200));
    let saved = rig.store.load().unwrap().unwrap();
    assert_eq!(saved.renewal_in_flight, None);
    assert_eq!(saved.refresh_count, 1);
}

#[tokio::test]
async fn an_orphaned_renewal_that_nothing_can_recover_asks_the_person_and_says_why() {
    let rig = renewal_cut_short().await;
    rig.fake.end_sessions();
    let err = rig.client().get_value("/userprofile-service/socialProfile", &[]).await.unwrap_err();
    assert!(err.needs_sign_in(), "{err}");
    assert!(err.to_string().contains("interrupted"), "{err}");
    assert_eq!(refresh_calls(&rig), 0, "never a replay, even as a last resort");
    assert_eq!(rig.fake.reuse_detected(), 0);
    assert_eq!(rig.store.load().unwrap().unwrap().renewal_in_flight, None, "given up, not left pending");
}
