//! `garmin-mcp` with Garmin's official Personal API key, as people run it: `login --api-key`
//! (validated, saved privately, a readable key file refused, China refused), `status` (expiry and
//! its 14-day warning), eight processes renewing the token at once, and the key never shown on
//! stdout or stderr at `-vv`.
//!
//! Run: `cargo test -p garmin-mcp --test personal_cli`
// Unix file modes throughout: Unix only (the Windows black-box is tests/windows.rs).
#![cfg(unix)]

use std::path::Path;
use std::process::{Output, Stdio};
use std::time::Duration;

use chrono::NaiveDate;
use fake_garmin::{FakeConfig, FakeGarmin};
use tokio::io::AsyncWriteExt;
use tokio::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_garmin-mcp");

async fn fake() -> FakeGarmin {
    let today = NaiveDate::from_ymd_opt(2026, 11, 15).unwrap();
    FakeGarmin::start(FakeConfig { today, ..FakeConfig::default() }).await.unwrap()
}

fn command(fake: &FakeGarmin, data_dir: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.arg("--data-dir").arg(data_dir).args(args);
    cmd.env_remove("GARMIN_MCP_HOME").env_remove("GARMIN_CONNECT_URL").env_remove("GARMIN_PERSONAL_API_KEY");
    cmd.env("GARMIN_PERSONAL_API_URL", fake.base_url());
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).stdin(Stdio::piped());
    cmd
}

async fn run(mut cmd: Command, stdin: &str) -> (Output, String, String) {
    let mut child = cmd.spawn().unwrap();
    let mut pipe = child.stdin.take().unwrap();
    pipe.write_all(stdin.as_bytes()).await.unwrap();
    drop(pipe);
    let output = child.wait_with_output().await.unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (output, stdout, stderr)
}

#[tokio::test]
async fn login_api_key_validates_saves_privately_and_status_shows_the_expiry_with_a_warning() {
    use std::os::unix::fs::PermissionsExt;
    let fake = fake().await;
    let dir = tempfile::tempdir().unwrap();
    let key = fake.mint_personal_api_key(Duration::from_secs(10 * 86_400)).key;
    let expires = (chrono::Utc::now() + chrono::TimeDelta::days(10)).format("%Y-%m-%d").to_string();
    let login = command(&fake, dir.path(), &["-vv", "login", "--api-key", "--key-expires", &expires]);
    let (out, stdout, stderr) = run(login, &format!("{key}\n")).await;
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("accepted") && stdout.contains(&expires), "{stdout}");
    assert!(stdout.contains("login --manual"), "says what needs the web sign-in: {stdout}");
    let session = dir.path().join("session.json");
    assert_eq!(std::fs::metadata(&session).unwrap().permissions().mode() & 0o777, 0o600);
    assert!(std::fs::read_to_string(&session).unwrap().contains(&key));

    let (out, status_out, status_err) = run(command(&fake, dir.path(), &["-vv", "status"]), "").await;
    assert!(out.status.success(), "{status_out}{status_err}");
    assert!(status_out.contains("Personal API key: works") && status_out.contains(&expires), "{status_out}");
    assert!(
        status_out.contains("expires on") && status_out.contains("make a new one"),
        "14-day warning: {status_out}"
    );
    assert!(status_out.contains("list_activities"), "{status_out}");
    let (_, json, _) = run(command(&fake, dir.path(), &["status", "--json"]), "").await;
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["personal_api"]["ok"], true, "{json}");
    assert!(json["personal_api"]["warning"].is_string());
    // The token saved at login served status: one exchange in all.
    assert_eq!(fake.personal_api_exchanges().values().sum::<u32>(), 1);
    for text in [&stdout, &stderr, &status_out, &status_err] {
        assert!(!text.contains(&key), "the key leaked: {text}");
    }
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let path = entry.unwrap().path();
        if path != session {
            assert!(!std::fs::read_to_string(&path).unwrap_or_default().contains(&key), "{}", path.display());
        }
    }
}

#[tokio::test]
async fn login_api_key_refuses_a_key_file_others_can_read_a_key_garmin_refuses_and_china() {
    use std::os::unix::fs::PermissionsExt;
    let fake = fake().await;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("key.txt");
    std::fs::write(&file, "wrong-key\n").unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    let file_arg = file.to_str().unwrap();
    let (out, _, stderr) =
        run(command(&fake, dir.path(), &["login", "--api-key", "--api-key-file", file_arg]), "").await;
    assert!(!out.status.success());
    assert!(stderr.contains("chmod 600"), "{stderr}");
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
    let (out, _, stderr) =
        run(command(&fake, dir.path(), &["login", "--api-key", "--api-key-file", file_arg]), "").await;
    assert!(!out.status.success());
    assert!(
        stderr.contains("refused your Personal API key") && stderr.contains("personalApiToken"),
        "{stderr}"
    );
    assert!(!dir.path().join("session.json").exists(), "nothing saved");
    let (out, _, stderr) =
        run(command(&fake, dir.path(), &["login", "--api-key", "--site", "cn"]), "k\n").await;
    assert!(!out.status.success());
    assert!(stderr.contains("not offered for Garmin Connect China"), "{stderr}");
}

#[tokio::test]
async fn eight_processes_needing_a_token_at_once_present_the_key_exactly_once() {
    let fake = fake().await;
    let dir = tempfile::tempdir().unwrap();
    let key = fake.mint_personal_api_key(Duration::from_secs(90 * 86_400)).key;
    let store = garmin::SessionStore::new(dir.path());
    store.lock().unwrap().write_personal(Some(&garmin::PersonalApiKey::new(key.clone(), None))).unwrap();
    let runs = (0..8).map(|_| run(command(&fake, dir.path(), &["status"]), ""));
    for (out, stdout, stderr) in futures::future::join_all(runs).await {
        assert!(out.status.success(), "{stdout}{stderr}");
        assert!(stdout.contains("Personal API key: works"), "{stdout}");
    }
    assert_eq!(fake.personal_api_exchanges().values().copied().collect::<Vec<_>>(), vec![1]);
    // Once Garmin's 24 hours are over, eight more processes renew it once again.
    fake.expire_personal_api_tokens();
    let runs = (0..8).map(|_| run(command(&fake, dir.path(), &["status"]), ""));
    for (out, stdout, stderr) in futures::future::join_all(runs).await {
        assert!(out.status.success(), "{stdout}{stderr}");
    }
    assert_eq!(fake.personal_api_exchanges().values().copied().collect::<Vec<_>>(), vec![2]);
}

/// Every file under `dir`, recursively.
fn files_under(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() { todo.push(path) } else { found.push(path) }
        }
    }
    found
}

/// The real `garmin-mcp` over stdio at `-vv` with only a key: several tools answer through the
/// Personal API, and neither the key nor its bearer token appears in the server's stderr, in any
/// answer, or in any file under the data folder but `session.json`.
#[tokio::test(flavor = "multi_thread")]
async fn the_key_never_appears_in_stderr_at_vv_in_answers_or_in_any_file_but_the_session_file() {
    use rmcp::ServiceExt as _;
    use rmcp::model::{CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation};
    use rmcp::transport::TokioChildProcess;
    use tokio::io::AsyncReadExt as _;

    let fake = fake().await;
    let dir = tempfile::tempdir().unwrap();
    let key = fake.mint_personal_api_key(Duration::from_secs(90 * 86_400)).key;
    let (out, stdout, stderr) =
        run(command(&fake, dir.path(), &["login", "--api-key"]), &format!("{key}\n")).await;
    assert!(out.status.success(), "{stdout}{stderr}");

    let exports = dir.path().join("exports");
    std::fs::create_dir(&exports).unwrap();
    let cmd = command(&fake, dir.path(), &["-vv", "--today", "2026-11-15"]);
    let (transport, stderr) = TokioChildProcess::builder(cmd).stderr(Stdio::piped()).spawn().unwrap();
    let mut stderr = stderr.unwrap();
    let log = tokio::spawn(async move {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text).await;
        text
    });
    let info = ClientConfig::new(ClientCapabilities::default(), Implementation::new("leak-check", "1.0"));
    let client = info.serve(transport).await.unwrap();
    let call = |name: &str, args: serde_json::Value| {
        let params =
            CallToolRequestParams::new(name.to_owned()).with_arguments(args.as_object().cloned().unwrap());
        client.call_tool(params)
    };
    let mut answers = Vec::new();
    let list =
        call("list_activities", serde_json::json!({"start_date": "2026-11-01", "end_date": "2026-11-14"}))
            .await
            .unwrap();
    assert_ne!(list.is_error, Some(true), "{:?}", list.content);
    let id = list.structured_content.as_ref().unwrap()["activities"][0]["activity_id"].as_u64().unwrap();
    answers.push(list);
    let folder = exports.display().to_string();
    for (name, args) in [
        ("get_daily_health", serde_json::json!({"start_date": "2026-11-01", "end_date": "2026-11-14"})),
        ("get_daily_health", serde_json::json!({"date": "2026-11-10", "detail": "full"})),
        ("get_period_stats", serde_json::json!({"period": "month", "date": "2026-11-10"})),
        ("get_activity", serde_json::json!({"activity_id": id, "include_series": true})),
        ("export_activity", serde_json::json!({"activity_id": id, "format": "fit", "folder": folder})),
        ("render_chart", serde_json::json!({"kind": "activity", "activity_id": id, "folder": folder})),
        ("get_training_status", serde_json::json!({})),
    ] {
        answers.push(call(name, args).await.unwrap());
    }
    let served = answers.iter().filter(|a| a.is_error != Some(true)).count();
    assert!(served >= 7, "the Personal API tools answered: {served}");
    client.cancel().await.unwrap();
    let stderr = log.await.unwrap();
    assert!(stderr.contains("DEBUG") || stderr.contains("TRACE"), "-vv logs: {stderr}");

    let session = dir.path().join("session.json");
    let saved: serde_json::Value = serde_json::from_slice(&std::fs::read(&session).unwrap()).unwrap();
    let token = saved["personal_api"]["token"].as_str().expect("a token was cached").to_owned();
    for secret in [&key, &token] {
        assert!(!stderr.contains(secret.as_str()), "a secret in stderr");
        for answer in &answers {
            assert!(
                !serde_json::to_string(answer).unwrap().contains(secret.as_str()),
                "a secret in an answer"
            );
        }
        for file in files_under(dir.path()).into_iter().filter(|f| *f != session) {
            let bytes = std::fs::read(&file).unwrap();
            let found = bytes.windows(secret.len()).any(|w| w == secret.as_bytes());
            assert!(!found, "a secret in {}", file.display());
        }
    }
    assert!(files_under(&exports).iter().any(|f| f.extension().is_some_and(|e| e == "fit")));
}

/// `status` and `check` with both credentials: status shows the key's tools and that the web
/// session serves the rest; the tool check names, per tool, the credential that served it (the
/// Personal API for its reads, the web session for the others) and lists each credential's tools.
#[tokio::test(flavor = "multi_thread")]
async fn status_and_check_show_both_credentials_and_which_tools_each_serves() {
    let fake = fake().await;
    let dir = tempfile::tempdir().unwrap();
    let store = garmin::SessionStore::new(dir.path());
    garmin_mcp::demo::sign_in(&fake, "Mozilla/5.0 GarminMcpPersonalCli/1.0", &store).unwrap();
    let key = fake.mint_personal_api_key(Duration::from_secs(90 * 86_400)).key;
    let (out, stdout, stderr) =
        run(command(&fake, dir.path(), &["login", "--api-key"]), &format!("{key}\n")).await;
    assert!(out.status.success(), "{stdout}{stderr}");

    let (out, status, err) = run(command(&fake, dir.path(), &["status"]), "").await;
    assert!(out.status.success(), "{status}{err}");
    assert!(status.contains("Personal API key: works") && status.contains("get_activity"), "{status}");
    assert!(status.contains("Served by the web session"), "{status}");

    let (out, json, err) = run(command(&fake, dir.path(), &["check", "--json"]), "").await;
    assert!(out.status.success(), "{json}{err}");
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    let sources = |tool: &str| {
        report["rows"].as_array().unwrap().iter().find(|r| r["tool"] == tool).map(|r| r["sources"].clone())
    };
    assert_eq!(sources("list_activities"), Some(serde_json::json!(["personal_api"])), "{json}");
    assert_eq!(sources("get_workouts"), Some(serde_json::json!(["web_session"])), "{json}");
    let (_, table, _) = run(command(&fake, dir.path(), &["check"]), "").await;
    assert!(table.contains("[via personal api]") && table.contains("[via web session]"), "{table}");
    assert!(
        table.contains("Served by Garmin's Personal API (the key): ") && table.contains("list_activities"),
        "{table}"
    );
    assert!(!json.contains(&key) && !table.contains(&key) && !status.contains(&key));
}

/// Runs `inner` (a shell command line) in a real terminal (a pseudo-terminal made by util-linux
/// `script`, with bash as its shell) until `login --api-key`'s prompt shows; gives the process,
/// what it wrote so far and the rest of its output. `None` where `script` is absent.
async fn at_the_key_prompt(
    fake: &FakeGarmin,
    inner: &str,
) -> Option<(tokio::process::Child, tokio::process::ChildStdin, String)> {
    use tokio::io::AsyncReadExt as _;
    if std::process::Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: util-linux `script` is not installed");
        return None;
    }
    let mut cmd = Command::new("script");
    cmd.args(["-qec", inner, "/dev/null"]).env("SHELL", "/bin/bash");
    cmd.env_remove("GARMIN_MCP_HOME").env_remove("GARMIN_PERSONAL_API_KEY");
    cmd.env("GARMIN_PERSONAL_API_URL", fake.base_url());
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).stdin(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let mut seen = String::new();
    let mut buf = [0u8; 4096];
    let out = child.stdout.as_mut().unwrap();
    while !seen.contains("Paste the key:") {
        let n = tokio::time::timeout(Duration::from_secs(30), out.read(&mut buf)).await.unwrap().unwrap();
        assert!(n > 0, "no prompt: {seen}");
        seen.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
    let stdin = child.stdin.take().unwrap();
    Some((child, stdin, seen))
}

/// Types `input` at the prompt [`at_the_key_prompt`] reached and gives everything written after it.
async fn type_at_the_prompt(
    mut child: tokio::process::Child,
    mut stdin: tokio::process::ChildStdin,
    input: &[u8],
) -> String {
    use tokio::io::AsyncReadExt as _;
    stdin.write_all(input).await.unwrap();
    let mut rest = String::new();
    let out = child.stdout.as_mut().unwrap();
    tokio::time::timeout(Duration::from_secs(30), out.read_to_string(&mut rest)).await.unwrap().unwrap();
    drop(stdin);
    let _ = child.wait().await;
    rest
}

/// `login --api-key` at a real terminal: the key typed after the prompt is not echoed, and is
/// accepted and saved. Echo is turned off before the prompt shows, so typing once the prompt is
/// seen cannot race it. Skipped where `script` is absent.
#[tokio::test]
async fn the_key_typed_at_a_terminal_is_not_echoed() {
    let fake = fake().await;
    let dir = tempfile::tempdir().unwrap();
    let key = fake.mint_personal_api_key(Duration::from_secs(90 * 86_400)).key;
    let inner = format!("'{BIN}' --data-dir '{}' login --api-key", dir.path().display());
    let Some((child, stdin, seen)) = at_the_key_prompt(&fake, &inner).await else { return };
    let rest = type_at_the_prompt(child, stdin, format!("{key}\n").as_bytes()).await;
    let all = format!("{seen}{rest}");
    assert!(all.contains("accepted"), "{all}");
    assert!(!all.contains(&key), "the typed key was echoed: {all}");
    assert!(std::fs::read_to_string(dir.path().join("session.json")).unwrap().contains(&key));
}

/// Ctrl-C at the `login --api-key` prompt in a real terminal: the terminal's echo is back on
/// afterwards, as `stty` run next in the same terminal shows, the command says nothing was saved,
/// and no session file is written. Before the fix the signal killed the process with echo off, and
/// the person's shell typed blind. Skipped where `script` is absent.
#[tokio::test]
async fn ctrl_c_at_the_key_prompt_gives_the_terminal_its_echo_back() {
    let fake = fake().await;
    let dir = tempfile::tempdir().unwrap();
    // bash goes on to `stty` when the command it waited for handled the interrupt itself.
    let inner =
        format!("'{BIN}' --data-dir '{}' login --api-key; echo exit=$?; stty -a", dir.path().display());
    let Some((child, stdin, seen)) = at_the_key_prompt(&fake, &inner).await else { return };
    // What the Ctrl-C key sends; the terminal makes it SIGINT.
    let rest = type_at_the_prompt(child, stdin, b"\x03").await;
    assert!(rest.contains("nothing was saved") && rest.contains("exit=1"), "{seen}{rest}");
    let modes = rest.split_whitespace().collect::<Vec<_>>();
    assert!(modes.contains(&"echo") && !modes.contains(&"-echo"), "echo stayed off: {rest}");
    assert!(!dir.path().join("session.json").exists());
}

#[tokio::test]
async fn sync_with_only_a_key_fills_the_history_through_the_personal_api_and_says_so() {
    let fake = fake().await;
    let dir = tempfile::tempdir().unwrap();
    let key = fake.mint_personal_api_key(Duration::from_secs(90 * 86_400)).key;
    let (out, stdout, stderr) =
        run(command(&fake, dir.path(), &["login", "--api-key"]), &format!("{key}\n")).await;
    assert!(out.status.success(), "{stdout}{stderr}");
    fake.clear_requests();
    let args = ["--today", "2026-11-15", "sync", "--since", "2026-10-01"];
    let (out, stdout, stderr) = run(command(&fake, dir.path(), &args), "").await;
    assert!(out.status.success(), "exit {:?}: {stdout}{stderr}", out.status.code());
    assert!(stdout.contains("Served by Garmin's official Personal API."), "{stdout}");
    assert!(
        stdout.contains("Only a Personal API key is saved") && stdout.contains("garmin-mcp login"),
        "{stdout}"
    );
    assert!(dir.path().join("history.sqlite3").exists());
    let requests = fake.requests();
    assert!(requests.iter().any(|r| r.path.contains("/v2/dailysummaries")), "daily summaries by range");
    let web: Vec<&str> =
        requests.iter().filter(|r| r.path.starts_with("/gc-api")).map(|r| r.path.as_str()).collect();
    assert!(web.is_empty(), "no web-session path: {web:?}");
    assert!(!stdout.contains(&key) && !stderr.contains(&key));
}

// ---- Hostile stand-ins and values (issue 24) ----

#[tokio::test]
async fn login_key_expiry_dates_in_1900_or_in_year_262142_are_refused_and_nothing_is_sent() {
    let fake = fake().await;
    let dir = tempfile::tempdir().unwrap();
    let key = fake.mint_personal_api_key(Duration::from_secs(30 * 86_400)).key;
    for expiry in ["1900-01-01", "+262142-01-01", "2400-06-30"] {
        let login = command(&fake, dir.path(), &["login", "--api-key", "--key-expires", expiry]);
        let (out, stdout, stderr) = run(login, &format!("{key}\n")).await;
        assert!(!out.status.success(), "{expiry} was accepted: {stdout}{stderr}");
        assert!(stderr.contains("--key-expires"), "{stderr}");
        if !expiry.starts_with('+') {
            assert!(stderr.contains("at most 365 days"), "{stderr}");
        }
    }
    assert_eq!(fake.personal_api_exchanges().values().sum::<u32>(), 0, "the key was sent");
    assert!(!dir.path().join("session.json").exists());
}

/// An address of this machine other than loopback (its LAN address when it has one; `0.0.0.0`,
/// which reaches this machine too, otherwise), for a listener posing as the Personal API.
fn lan_address() -> std::net::IpAddr {
    let probe = std::net::UdpSocket::bind("0.0.0.0:0").ok();
    probe
        .and_then(|s| s.connect("192.0.2.1:9").ok().map(|()| s))
        .and_then(|s| s.local_addr().ok())
        .map(|a| a.ip())
        .filter(|ip| !ip.is_loopback() && !ip.is_unspecified())
        .unwrap_or(std::net::IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED))
}

#[tokio::test]
async fn a_plain_http_personal_api_url_to_another_computer_is_refused_before_the_key_travels() {
    let fake = fake().await;
    let dir = tempfile::tempdir().unwrap();
    let key = fake.mint_personal_api_key(Duration::from_secs(30 * 86_400)).key;
    // A listener on this machine's LAN address, as anyone on the network could run.
    let listener = tokio::net::TcpListener::bind("0.0.0.0:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let received = tokio::spawn(async move {
        use tokio::io::AsyncReadExt as _;
        let (mut stream, _) = listener.accept().await.unwrap();
        let mut bytes = vec![0; 4096];
        let n = stream.read(&mut bytes).await.unwrap_or(0);
        String::from_utf8_lossy(&bytes[..n]).into_owned()
    });
    let url = format!("http://{}:{port}", lan_address());
    let mut login = command(&fake, dir.path(), &["login", "--api-key"]);
    login.env("GARMIN_PERSONAL_API_URL", &url);
    let (out, stdout, stderr) =
        tokio::time::timeout(Duration::from_secs(30), run(login, &format!("{key}\n")))
            .await
            .expect("login hung");
    assert!(!out.status.success(), "{stdout}{stderr}");
    assert!(stderr.contains("plain http://") && stderr.contains("https://"), "{stderr}");
    assert!(!stderr.contains(&key) && !stdout.contains(&key));
    // Nothing reached the listener (give a connection that was on its way a moment to land).
    let arrived = tokio::time::timeout(Duration::from_millis(500), received).await;
    assert!(arrived.is_err(), "the listener received: {:?}", arrived.map(|r| r.unwrap_or_default()));
}

#[tokio::test]
async fn a_200_megabyte_token_answer_is_cut_off_at_its_cap() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let dir = tempfile::tempdir().unwrap();
    // A stand-in on loopback that answers the token exchange with 200 MB.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let sent = std::sync::Arc::new(AtomicUsize::new(0));
    let counter = sent.clone();
    tokio::spawn(async move {
        use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
        while let Ok((mut stream, _)) = listener.accept().await {
            let counter = counter.clone();
            tokio::spawn(async move {
                let mut head = vec![0; 8192];
                let _ = stream.read(&mut head).await;
                let total: usize = 200 * 1024 * 1024;
                let header =
                    format!("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: {total}\r\n\r\n");
                if stream.write_all(header.as_bytes()).await.is_err() {
                    return;
                }
                let chunk = vec![b'a'; 64 * 1024];
                while counter.load(Ordering::Relaxed) < total {
                    if stream.write_all(&chunk).await.is_err() {
                        return;
                    }
                    counter.fetch_add(chunk.len(), Ordering::Relaxed);
                }
            });
        }
    });
    let fake = fake().await;
    let mut login = command(&fake, dir.path(), &["login", "--api-key"]);
    login.env("GARMIN_PERSONAL_API_URL", &url);
    let (out, stdout, stderr) =
        tokio::time::timeout(Duration::from_secs(60), run(login, "a-key-0123456789abcdef\n"))
            .await
            .expect("login hung");
    assert!(!out.status.success(), "{stdout}{stderr}");
    assert!(stderr.contains("larger than"), "{stderr}");
    // The stand-in could write what the sockets buffer, no more.
    let written = sent.load(Ordering::Relaxed);
    assert!(written < 32 * 1024 * 1024, "{written} bytes were read from a 200 MB answer");
}
