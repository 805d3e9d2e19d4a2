//! `garmin-mcp.exe` as Windows runs it: over stdio on the demo (initialize, tools/list, every read
//! tool), over HTTP with a token, several processes sharing one session file under its lock while
//! Garmin rotates its one-time credential (the file private to its owner all along, and replaced
//! while a reader holds it open), `configure` into a scratch `%APPDATA%`/`%USERPROFILE%`, and the
//! app channel over a named pipe between `garmin-mcp.exe` and this test playing the app (approve,
//! decline, an answer of another kind refused). The whole file is Windows-only.
//!
//! Run under Wine on Linux: `cargo xtask windows` (it cross-builds this test and `garmin-mcp.exe`
//! for `x86_64-pc-windows-gnu` and runs them with `wine`); on Windows: `cargo test -p garmin-mcp
//! --test windows`. Wine runs every process as one user, so "a peer of another user" is proved in
//! `app-bridge`'s own named-pipe tests, which stage it (see `named_pipe_refuses_a_peer_of_another_user`).
#![cfg(windows)]

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use app_bridge::{AppListener, Reply, Request};
use fake_garmin::faults::{Fault, FaultRule};
use fake_garmin::{FakeConfig, FakeGarmin};
use garmin::changes::Change;
use local_data::private_files::acl::{AclVerdict, judge};
use local_data::private_files::windows::{current_user_sid, path_sddl, set_path_dacl};
use rmcp::ServiceExt as _;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader};
use tokio::process::Command;

const UA: &str = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) GarminMcpWindowsTests/1.0";

/// `garmin-mcp.exe`. Cargo gives its path as the build machine wrote it: under Wine that is a
/// Linux path, which Wine's `Z:` drive maps to.
fn exe() -> PathBuf {
    let built = env!("CARGO_BIN_EXE_garmin-mcp");
    match built.strip_prefix('/') {
        Some(rest) => PathBuf::from(format!("Z:\\{}", rest.replace('/', "\\"))),
        None => PathBuf::from(built),
    }
}

fn command(data_dir: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(exe());
    cmd.arg("--data-dir").arg(data_dir).args(args);
    cmd.env_remove("GARMIN_MCP_HOME").env_remove("GARMIN_CONNECT_URL").env_remove("GARMIN_SSO_URL");
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).stdin(Stdio::null());
    cmd
}

async fn fake(jwt_lifetime: Duration) -> FakeGarmin {
    FakeGarmin::start(FakeConfig {
        jwt_lifetime,
        today: chrono::NaiveDate::from_ymd_opt(2026, 11, 15).unwrap(),
        ..FakeConfig::default()
    })
    .await
    .unwrap()
}

/// Signs in to `fake` with `login --manual`, as a person pasting cookies would.
async fn sign_in(fake: &FakeGarmin, data_dir: &Path) {
    let issued = fake.issue_session(UA);
    let mut cmd = command(data_dir, &["login", "--manual", "--site", "global", "--user-agent", UA]);
    cmd.env("GARMIN_CONNECT_URL", fake.base_url()).stdin(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(format!("{}\n{}\n", issued.cookie_header(), issued.csrf_token).as_bytes()).await.unwrap();
    drop(stdin);
    let output = child.wait_with_output().await.unwrap();
    assert!(output.status.success(), "login failed: {}", String::from_utf8_lossy(&output.stderr));
}

/// The first value of `key` anywhere in a JSON answer.
fn first(value: &Value, key: &str) -> Option<Value> {
    match value {
        Value::Object(map) => map
            .get(key)
            .filter(|v| v.is_number())
            .cloned()
            .or_else(|| map.values().find_map(|v| first(v, key))),
        Value::Array(items) => items.iter().find_map(|v| first(v, key)),
        _ => None,
    }
}

fn is_read_only(tool: &rmcp::model::Tool) -> bool {
    tool.annotations.as_ref().and_then(|a| a.read_only_hint) == Some(true)
}

#[tokio::test(flavor = "multi_thread")]
async fn stdio_on_the_demo_initializes_lists_its_tools_and_every_read_tool_answers() {
    let dir = tempfile::tempdir().unwrap();
    let exports = dir.path().join("exports");
    let mut cmd = Command::new(exe());
    cmd.arg("--demo").arg("--today").arg("2026-11-15").arg("--data-dir").arg(dir.path());
    let (transport, _stderr) = TokioChildProcess::builder(cmd).stderr(Stdio::null()).spawn().unwrap();
    let client = ().serve(transport).await.unwrap();
    assert_eq!(client.peer_info().unwrap().server_info.as_ref().unwrap().name, "garmin-mcp");
    let tools = client.list_all_tools().await.unwrap();
    let reads: Vec<_> = tools.iter().filter(|t| is_read_only(t)).collect();
    assert!(
        reads.len() >= 16 && tools.len() > reads.len(),
        "{} tools, {} read-only",
        tools.len(),
        reads.len()
    );

    let list = client.call_tool(CallToolRequestParams::new("list_activities")).await.unwrap();
    let activity_id = first(list.structured_content.as_ref().unwrap(), "activity_id").expect("an activity");
    let workouts = client.call_tool(CallToolRequestParams::new("get_workouts")).await.unwrap();
    let workout_id = first(workouts.structured_content.as_ref().unwrap_or(&Value::Null), "workout_id");
    for tool in reads {
        let mut args = serde_json::Map::new();
        for name in tool.input_schema.get("required").and_then(Value::as_array).into_iter().flatten() {
            let value = match name.as_str().unwrap_or_default() {
                "activity_id" => activity_id.clone(),
                "workout_id" => workout_id.clone().expect("the demo has a workout"),
                "period" => "month".into(),
                "format" => "gpx".into(),
                "date" => "2026-11-10".into(),
                other => panic!("{}: add a value for required argument `{other}` to this test", tool.name),
            };
            args.insert(name.as_str().unwrap_or_default().to_owned(), value);
        }
        if tool.input_schema.get("properties").and_then(|p| p.get("folder")).is_some() {
            args.insert("folder".into(), exports.display().to_string().into());
        }
        let result = client
            .call_tool(CallToolRequestParams::new(tool.name.to_string()).with_arguments(args))
            .await
            .unwrap_or_else(|e| panic!("{}: {e}", tool.name));
        let text =
            result.content.first().and_then(|c| c.as_text()).map(|t| t.text.clone()).unwrap_or_default();
        assert_ne!(result.is_error, Some(true), "{} failed: {text}", tool.name);
        assert!(text.starts_with(garmin_mcp::demo::DEMO_LABEL), "{}: {text}", tool.name);
    }
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn http_with_a_token_refuses_a_caller_without_it_and_serves_one_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let token = "5f1c2e9a7b3d4c6e8f0a1b2c3d4e5f60718293a4b5c6d7e8f9011223344556677";
    let token_file = dir.path().join("token");
    std::fs::write(&token_file, token).unwrap();
    let mut server = command(dir.path(), &["--demo", "--http", "--port", "0", "--token-file"]);
    server.arg(&token_file).kill_on_drop(true);
    let mut child = server.spawn().unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let url = tokio::time::timeout(Duration::from_secs(60), async {
        while let Some(line) = lines.next_line().await.unwrap() {
            if let Some(url) = app_bridge::sidecar::served_url(&line) {
                return url.to_owned();
            }
        }
        panic!("garmin-mcp.exe --http ended without serving");
    })
    .await
    .expect("the start-up line");
    assert!(!url.contains(token), "the start-up line never shows the token");
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "wine-test", "version": "1"}}});
    let http = garmin::https::client().unwrap();
    let post = |bearer: Option<&str>| {
        let mut request =
            http.post(&url).header("Accept", "application/json, text/event-stream").json(&initialize);
        if let Some(bearer) = bearer {
            request = request.bearer_auth(bearer);
        }
        request.send()
    };
    assert_eq!(post(None).await.unwrap().status(), 401);
    assert_eq!(post(Some("wrong")).await.unwrap().status(), 401);
    let served = post(Some(token)).await.unwrap();
    assert_eq!(served.status(), 200);
    assert!(served.text().await.unwrap().contains("garmin-mcp"));
    child.kill().await.unwrap();
}

/// True under Wine, which derives a file's access list from its Unix mode bits and keeps no
/// descriptor that was set (Wine 8 on ext4 here): an owner-only list cannot be read back there.
/// The xtask runs Wine with `WINEPREFIX` set, and Wine hands the environment on.
fn under_wine() -> bool {
    std::env::var_os("WINEPREFIX").is_some()
}

/// The data folder and `session.json` as Windows keeps them: only their owner is let in. Checked
/// on Windows; under Wine see [`under_wine`].
fn assert_owner_only(path: &Path) {
    if under_wine() {
        return;
    }
    let me = current_user_sid().unwrap();
    let sddl = path_sddl(path).unwrap();
    assert_eq!(judge(&sddl, &me), AclVerdict::Private, "{}: {sddl}", path.display());
}

#[tokio::test(flavor = "multi_thread")]
async fn processes_share_one_session_under_its_lock_and_the_files_stay_owner_only() {
    const PROCESSES: usize = 4;
    let fake = fake(Duration::from_secs(2)).await;
    let parent = tempfile::tempdir().unwrap();
    let dir = parent.path().join("data");
    sign_in(&fake, &dir).await;
    let store = garmin::SessionStore::new(&dir);
    assert_owner_only(&dir);
    assert_owner_only(&store.path());
    fake.push_fault(FaultRule::always(Fault::Latency(Duration::from_millis(100))));

    let children: Vec<_> = (0..PROCESSES)
        .map(|_| {
            // 40 calls of at least 100 ms each outlast the 2 s session: it is renewed meanwhile.
            let mut cmd = command(&dir, &["api", "/userprofile-service/socialProfile", "--repeat", "40"]);
            cmd.env("GARMIN_CONNECT_URL", fake.base_url());
            cmd.spawn().unwrap()
        })
        .collect();
    let outputs = futures::future::join_all(children.into_iter().map(|c| c.wait_with_output())).await;
    for output in outputs {
        let output = output.unwrap();
        assert!(output.status.success(), "a process failed: {}", String::from_utf8_lossy(&output.stderr));
    }
    let uses = fake.refresh_credential_uses();
    assert!(!uses.is_empty(), "the session should have rotated");
    assert!(uses.values().all(|&n| n == 1), "a refresh credential was presented twice: {uses:?}");
    assert_eq!(fake.reuse_detected(), 0);
    assert_eq!(store.load().unwrap().unwrap().refresh_count as usize, uses.len(), "every renewal saved");
    assert_owner_only(&store.path());
}

/// A program reading `session.json` (opened sharing delete, as Rust and most programs open files)
/// does not make a write fail: Windows 10 and later replace the file under it at once (POSIX rename
/// semantics). Wine 8 has no such rename and refuses while the reader holds the file, so there the
/// reader lets go after half a second and the write's retries carry it through.
#[tokio::test(flavor = "multi_thread")]
async fn a_session_write_outlasts_a_reader_holding_the_file() {
    let fake = fake(Duration::from_secs(3600)).await;
    let parent = tempfile::tempdir().unwrap();
    let dir = parent.path().join("data");
    sign_in(&fake, &dir).await;
    let store = garmin::SessionStore::new(&dir);
    let mut session = store.load().unwrap().unwrap();
    let held = std::fs::File::open(store.path()).unwrap();
    let reader = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(if under_wine() { 500 } else { 3000 }));
        drop(held);
    });
    session.display_name = Some("Held Open".into());
    let started = std::time::Instant::now();
    store.save(&session).unwrap();
    assert!(started.elapsed() < Duration::from_secs(2), "took {:?}", started.elapsed());
    assert_eq!(store.load().unwrap().unwrap().display_name.as_deref(), Some("Held Open"));
    reader.join().unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_data_folder_opened_to_everyone_is_made_owner_only_again() {
    let fake = fake(Duration::from_secs(3600)).await;
    let parent = tempfile::tempdir().unwrap();
    let dir = parent.path().join("data");
    sign_in(&fake, &dir).await;
    let me = current_user_sid().unwrap();
    set_path_dacl(&dir, &format!("D:P(A;OICI;FA;;;{me})(A;OICI;FA;;;WD)")).unwrap();
    assert!(matches!(judge(&path_sddl(&dir).unwrap(), &me), AclVerdict::Open { .. }));
    let mut status = command(&dir, &["status"]);
    status.env("GARMIN_CONNECT_URL", fake.base_url());
    let output = status.output().await.unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("making it private to you"), "the repair is said: {stderr}");
    assert_owner_only(&dir);
}

#[tokio::test(flavor = "multi_thread")]
async fn configure_writes_into_a_scratch_appdata_and_userprofile_with_the_exe_path() {
    let scratch = tempfile::tempdir().unwrap();
    let (appdata, profile) = (scratch.path().join("Roaming"), scratch.path().join("Ann Lee"));
    let data = scratch.path().join("garmin data");
    let configure = |client: &str| {
        let mut cmd = command(&data, &["configure", client]);
        cmd.env("APPDATA", &appdata).env("USERPROFILE", &profile).env("PATH", "");
        for var in ["XDG_CONFIG_HOME", "CODEX_HOME", "DSH_HOME", "DEEPSEEK_MCP_CONFIG"] {
            cmd.env_remove(var);
        }
        cmd
    };
    let exe = std::fs::canonicalize(exe()).unwrap();
    let exe_text = exe.to_str().unwrap().trim_start_matches(r"\\?\");
    for client in ["claude-desktop", "cursor", "vscode", "codex"] {
        let output = configure(client).output().await.unwrap();
        assert!(output.status.success(), "{client}: {}", String::from_utf8_lossy(&output.stderr));
    }
    let claude = appdata.join("Claude").join("claude_desktop_config.json");
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&claude).unwrap()).unwrap();
    let entry = &json["mcpServers"]["garmin"];
    assert!(entry["command"].as_str().unwrap().ends_with("garmin-mcp.exe"), "{entry}");
    assert_eq!(entry["args"], json!(["--data-dir", data.to_str().unwrap()]));
    assert!(profile.join(".cursor").join("mcp.json").is_file());
    let vscode = std::fs::read_to_string(appdata.join("Code").join("User").join("mcp.json")).unwrap();
    assert!(
        vscode.contains("\r\n") && !vscode.replace("\r\n", "").contains('\n'),
        "VS Code's own endings: {vscode:?}"
    );
    let codex = std::fs::read_to_string(profile.join(".codex").join("config.toml")).unwrap();
    let escaped = exe_text.replace('\\', "\\\\");
    assert!(
        codex.contains(&format!("'{exe_text}'")) || codex.contains(&format!("\"{escaped}\"")),
        "the exe path, quoted as TOML needs: {codex}"
    );
}

/// A stdio `garmin-mcp.exe` signed in to `fake`, with the app channel of `dir`.
async fn signed_in_server(
    fake: &FakeGarmin,
    dir: &Path,
) -> rmcp::service::RunningService<rmcp::RoleClient, ()> {
    let mut cmd = Command::new(exe());
    cmd.arg("--data-dir")
        .arg(dir)
        .env("GARMIN_CONNECT_URL", fake.base_url())
        .env_remove("GARMIN_ALLOW_WRITE");
    let (transport, _stderr) = TokioChildProcess::builder(cmd).stderr(Stdio::null()).spawn().unwrap();
    ().serve(transport).await.unwrap()
}

/// The test as the app: answers hello, then the first confirmation with `answer`.
fn app_answering(
    listener: AppListener,
    answer: impl FnOnce(&app_bridge::Proposal) -> Reply + Send + 'static,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            let incoming = listener.accept().await.unwrap();
            match incoming.request().clone() {
                Request::Hello => {
                    incoming.reply(&Reply::Hello { app_version: "wine-test".into() }).await.unwrap()
                }
                Request::Confirm(proposal) => {
                    incoming.reply(&answer(&proposal)).await.unwrap();
                    return;
                }
                other => panic!("unexpected {other:?}"),
            }
        }
    })
}

fn workout_writes(fake: &FakeGarmin) -> usize {
    fake.requests()
        .iter()
        .filter(|r| r.path.starts_with("/gc-api/workout-service") && r.method != "GET")
        .count()
}

async fn create_workout(client: &rmcp::service::RunningService<rmcp::RoleClient, ()>) -> String {
    let args = json!({"name": "Wine 800s", "sport": "run", "steps": [
        {"type": "warmup", "duration_min": 10}, {"type": "interval", "distance_m": 800}]});
    let params =
        CallToolRequestParams::new("create_workout").with_arguments(args.as_object().unwrap().clone());
    let result = client.call_tool(params).await.unwrap();
    result.content.first().and_then(|c| c.as_text()).map(|t| t.text.clone()).unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_app_channel_over_a_named_pipe_applies_an_approval_and_nothing_else() {
    let fake = fake(Duration::from_secs(3600)).await;
    let parent = tempfile::tempdir().unwrap();
    let dir = parent.path().join("data");
    sign_in(&fake, &dir).await;
    let client = signed_in_server(&fake, &dir).await;

    // Approved as proposed: garmin-mcp.exe writes it.
    let app = app_answering(AppListener::bind(&dir).await.unwrap(), |proposal| Reply::Approved {
        change: proposal.change.clone(),
        schedule_on: None,
        send_to_device: false,
        device_id: None,
    });
    let text = create_workout(&client).await;
    app.await.unwrap();
    assert_eq!(workout_writes(&fake), 1, "approved: {text}");

    // Declined: nothing is written.
    let app = app_answering(AppListener::bind(&dir).await.unwrap(), |_| Reply::Cancelled {
        reason: Some("not today".into()),
    });
    let text = create_workout(&client).await;
    app.await.unwrap();
    assert!(text.contains("not today") || text.to_lowercase().contains("cancel"), "{text}");
    assert_eq!(workout_writes(&fake), 1, "declined: {text}");

    // An answer of another kind than proposed (a delete for a create) is refused.
    let app = app_answering(AppListener::bind(&dir).await.unwrap(), |_| Reply::Approved {
        change: Change::DeleteWorkout { workout_id: 1 },
        schedule_on: None,
        send_to_device: false,
        device_id: None,
    });
    let text = create_workout(&client).await;
    app.await.unwrap();
    assert!(text.contains("nothing was written"), "{text}");
    assert_eq!(workout_writes(&fake), 1, "refused: {text}");
    client.cancel().await.unwrap();
}

/// Ctrl-Break (what a console's Ctrl+Break and `GenerateConsoleCtrlEvent` send) stops the HTTP
/// server cleanly: it exits with 0, which Windows' default handler (exit code 0xC000013A) never does.
/// Wine cannot express this (no console event reaches another process there): under Wine the test
/// says so and stops; the check runs on Windows.
#[tokio::test(flavor = "multi_thread")]
async fn ctrl_break_stops_the_http_server_cleanly() {
    // Console events travel through a console: a test run from a pipe has none, so it makes one
    // (a no-op when it has one) before starting the server, which shares it.
    // SAFETY: a plain call without arguments.
    #[allow(unsafe_code, reason = "a console for the server's Ctrl-Break; Windows has no safe wrapper")]
    unsafe {
        windows_sys::Win32::System::Console::AllocConsole();
    }
    let dir = tempfile::tempdir().unwrap();
    let mut server = command(dir.path(), &["--demo", "--http", "--port", "0", "--no-token"]);
    // Its own console process group, so the event reaches it and not this test.
    server.creation_flags(windows_sys::Win32::System::Threading::CREATE_NEW_PROCESS_GROUP).kill_on_drop(true);
    let mut child = server.spawn().unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    tokio::time::timeout(Duration::from_secs(60), async {
        while let Some(line) = lines.next_line().await.unwrap() {
            if app_bridge::sidecar::served_url(&line).is_some() {
                return;
            }
        }
        panic!("garmin-mcp.exe --http ended without serving");
    })
    .await
    .expect("the start-up line");
    let group = child.id().unwrap();
    // SAFETY: a plain call with a process group id; no memory is shared.
    #[allow(unsafe_code, reason = "Ctrl-Break to the server's group; Windows has no safe wrapper")]
    let sent = unsafe {
        windows_sys::Win32::System::Console::GenerateConsoleCtrlEvent(
            windows_sys::Win32::System::Console::CTRL_BREAK_EVENT,
            group,
        )
    };
    if sent == 0 && under_wine() {
        // Wine 8 here delivers no console event to another process (ERROR_INVALID_ACCESS): the
        // handler (`http::stop_signal`) is then proved on Windows only.
        eprintln!("skipped under Wine: {}", std::io::Error::last_os_error());
        return;
    }
    assert_ne!(sent, 0, "GenerateConsoleCtrlEvent failed: {}", std::io::Error::last_os_error());
    let status =
        tokio::time::timeout(Duration::from_secs(30), child.wait()).await.expect("it stops").unwrap();
    assert!(status.success(), "stopped by Ctrl-Break without its handler: {status}");
}
