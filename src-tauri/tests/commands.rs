//! The app's commands driven through real IPC on tauri's `MockRuntime` (no display needed): the app
//! is built with the same `garmin_desktop::build` as the real one, its data folder pointed at a temp
//! folder, and Garmin played by the project's fake Garmin Connect where a command goes online.

use std::path::Path;

use garmin_desktop::DataDir;
use serde_json::{Value, json};
use tauri::test::{INVOKE_KEY, MockRuntime, get_ipc_response, mock_builder, mock_context, noop_assets};
use tauri::{App, Manager as _, WebviewWindow, WebviewWindowBuilder};

/// The app with its data folder at `dir`, and its main window.
fn app(dir: &Path) -> (App<MockRuntime>, WebviewWindow<MockRuntime>) {
    let app = garmin_desktop::build(mock_builder()).build(mock_context(noop_assets())).expect("app builds");
    app.manage(DataDir::new(dir));
    let window = WebviewWindowBuilder::new(&app, "main", Default::default()).build().expect("window builds");
    (app, window)
}

/// Invokes `cmd` (no arguments) as the UI would; `Err` carries the `{code, message}` error.
fn invoke(window: &WebviewWindow<MockRuntime>, cmd: &str) -> Result<Value, Value> {
    let request = tauri::webview::InvokeRequest {
        cmd: cmd.into(),
        callback: tauri::ipc::CallbackFn(0),
        error: tauri::ipc::CallbackFn(1),
        url: "tauri://localhost".parse().expect("valid url"),
        body: tauri::ipc::InvokeBody::default(),
        headers: Default::default(),
        invoke_key: INVOKE_KEY.to_string(),
    };
    get_ipc_response(window, request).map(|body| body.deserialize::<Value>().expect("JSON answer"))
}

/// Saves a signed-in session for `connect` (the Garmin origin) in `dir`.
fn save_session(dir: &Path, connect: &str) {
    let origins = garmin::Origins { connect: connect.into(), sso: connect.into() };
    let mut session = garmin::Session::from_cookie_header(
        garmin::Site::Cn,
        origins,
        "session=s1; JWT_WEB=j1",
        "csrf-1",
        "UA",
    )
    .expect("valid cookie header");
    session.display_name = Some("alex.runs".into());
    session.full_name = Some("Alex Rivera".into());
    garmin::SessionStore::new(dir).save(&session).expect("session saved");
}

/// A running fake Garmin Connect (the project's faithful fake) and the runtime that serves it.
struct Garmin {
    fake: fake_garmin::FakeGarmin,
    _runtime: tokio::runtime::Runtime,
}

fn fake_garmin() -> Garmin {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let fake = runtime.block_on(fake_garmin::FakeGarmin::start(fake_garmin::FakeConfig::default())).unwrap();
    Garmin { fake, _runtime: runtime }
}

/// Saves the session the fake issues (optionally with its `session` cookie forged) in `dir`.
fn save_fake_session(dir: &Path, garmin: &Garmin, forge: bool) {
    let issued = garmin.fake.issue_session(garmin::DEFAULT_USER_AGENT);
    let origins = garmin::Origins { connect: garmin.fake.base_url(), sso: garmin.fake.base_url() };
    let header: Vec<String> = issued
        .cookies
        .iter()
        .map(|(n, v)| if forge && n == "session" { format!("{n}=forged") } else { format!("{n}={v}") })
        .collect();
    let session = garmin::Session::from_cookie_header(
        garmin::Site::Global,
        origins,
        &header.join("; "),
        &issued.csrf_token,
        &issued.user_agent,
    )
    .expect("valid cookie header");
    garmin::SessionStore::new(dir).save(&session).expect("session saved");
}

#[test]
fn session_status_is_not_signed_in_in_an_empty_data_dir() {
    let dir = tempfile::tempdir().unwrap();
    let (_app, window) = app(dir.path());
    let error = invoke(&window, "session_status").unwrap_err();
    assert_eq!(error["code"], "not_signed_in", "{error}");
    assert!(error["message"].as_str().unwrap().contains("garmin-mcp login --manual"), "{error}");
}

#[test]
fn session_status_shows_the_account_of_a_saved_session() {
    let dir = tempfile::tempdir().unwrap();
    save_session(dir.path(), "https://connect.garmin.cn");
    let (_app, window) = app(dir.path());
    let status = invoke(&window, "session_status").unwrap();
    assert_eq!(status["displayName"], "alex.runs");
    assert_eq!(status["fullName"], "Alex Rivera");
    assert_eq!(status["site"], "cn");
    assert_eq!(status["siteLabel"], garmin::Site::Cn.label());
    assert_eq!(status["refreshCount"], 0);
    let shown = status.to_string();
    assert!(!shown.contains("s1") && !shown.contains("csrf-1"), "no secret crosses IPC: {shown}");
}

#[test]
fn sign_out_removes_session_json() {
    let dir = tempfile::tempdir().unwrap();
    save_session(dir.path(), "https://connect.garmin.cn");
    let (_app, window) = app(dir.path());
    assert_eq!(invoke(&window, "sign_out"), Ok(Value::Null));
    assert!(!dir.path().join("session.json").exists());
    assert_eq!(invoke(&window, "session_status").unwrap_err()["code"], "not_signed_in");
}

#[test]
fn check_session_returns_the_account_garmin_reports() {
    let dir = tempfile::tempdir().unwrap();
    let garmin = fake_garmin();
    save_fake_session(dir.path(), &garmin, false);
    let (_app, window) = app(dir.path());
    let result = invoke(&window, "check_session").unwrap();
    assert_eq!(result["account"], json!({ "displayName": "fake-athlete-1", "fullName": "Alex Example" }));
    assert_eq!(
        result["session"]["displayName"], "fake-athlete-1",
        "the check records the account in the session"
    );
}

#[test]
fn check_session_refused_by_garmin_is_session_expired() {
    let dir = tempfile::tempdir().unwrap();
    let garmin = fake_garmin();
    save_fake_session(dir.path(), &garmin, true);
    let (_app, window) = app(dir.path());
    let error = invoke(&window, "check_session").unwrap_err();
    assert_eq!(error["code"], "session_expired", "{error}");
}

#[test]
fn check_session_without_a_session_is_not_signed_in() {
    let dir = tempfile::tempdir().unwrap();
    let (_app, window) = app(dir.path());
    assert_eq!(invoke(&window, "check_session").unwrap_err()["code"], "not_signed_in");
}

#[test]
fn app_identifier_names_the_folder_garmin_mcp_uses() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tauri.conf.json");
    let config: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(config["identifier"], garmin::APP_IDENTIFIER);
}
