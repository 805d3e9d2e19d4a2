//! The app's commands driven through real IPC on tauri's `MockRuntime` (no display needed): the app
//! is built with the same `garmin_desktop::build` as the real one, its data folder pointed at a temp
//! folder, and Garmin replaced by a tiny local HTTP stub where a command goes online.

use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::net::TcpListener;
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

/// Serves every connection with one fixed HTTP answer, on a free local port; returns its origin.
fn garmin_stub(status: &'static str, body: &'static str) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("free port");
    let origin = format!("http://{}", listener.local_addr().expect("bound"));
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            // Read the request head and body (if any) before answering.
            let mut reader = BufReader::new(&mut stream);
            let mut length = 0;
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 0) && line != "\r\n" {
                if let Some(value) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = value.trim().parse().unwrap_or(0);
                }
                line.clear();
            }
            let _ = reader.read_exact(&mut vec![0; length]);
            let _ = write!(
                stream,
                "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    origin
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
    let stub = garmin_stub("200 OK", r#"{"displayName":"alex.runs","profileId":7,"fullName":"Alex R."}"#);
    save_session(dir.path(), &stub);
    let (_app, window) = app(dir.path());
    let result = invoke(&window, "check_session").unwrap();
    assert_eq!(result["account"], json!({ "displayName": "alex.runs", "fullName": "Alex R." }));
    assert_eq!(result["session"]["fullName"], "Alex R.", "the check records the account in the session");
}

#[test]
fn check_session_refused_by_garmin_is_session_expired() {
    let dir = tempfile::tempdir().unwrap();
    let stub = garmin_stub("401 Unauthorized", "{}");
    save_session(dir.path(), &stub);
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
