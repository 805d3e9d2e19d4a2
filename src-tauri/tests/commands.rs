//! The app's commands driven through real IPC on tauri's `MockRuntime` (no display needed): the app
//! is built with the same `garmin_desktop::build` as the real one, its data folder pointed at a temp
//! folder, and Garmin played by the project's fake Garmin Connect where a command goes online.
//!
//! `MockRuntime` loads no page and reads no cookies, so the sign-in window is checked up to opening
//! it (and closing it); reading a signed-in window is covered by the library tests of `signin` and
//! by the end-to-end run (`cargo xtask e2e`).

use std::path::Path;
use std::time::{Duration, Instant};

use garmin_desktop::{Accounts, SIGN_IN_WINDOW_PREFIX};
use serde_json::{Value, json};
use tauri::test::{INVOKE_KEY, MockRuntime, get_ipc_response, mock_builder, mock_context, noop_assets};
use tauri::{App, Manager as _, WebviewWindow, WebviewWindowBuilder};

const UA: &str = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/605.1.15 GarminDesktopCommandTests";

/// The app with `accounts` managed, and its main window.
fn app_with(accounts: Accounts) -> (App<MockRuntime>, WebviewWindow<MockRuntime>) {
    let app = garmin_desktop::build(mock_builder()).build(mock_context(noop_assets())).expect("app builds");
    app.manage(accounts);
    let window = WebviewWindowBuilder::new(&app, "main", Default::default()).build().expect("window builds");
    (app, window)
}

/// The app with its data folder at `dir`, and its main window.
fn app(dir: &Path) -> (App<MockRuntime>, WebviewWindow<MockRuntime>) {
    app_with(Accounts::new(dir))
}

/// Invokes `cmd` with `args` as the UI would, from `url`; `Err` carries the `{code, message}` error.
fn invoke_from(
    window: &WebviewWindow<MockRuntime>,
    url: &str,
    cmd: &str,
    args: Value,
) -> Result<Value, Value> {
    let request = tauri::webview::InvokeRequest {
        cmd: cmd.into(),
        callback: tauri::ipc::CallbackFn(0),
        error: tauri::ipc::CallbackFn(1),
        url: url.parse().expect("valid url"),
        body: tauri::ipc::InvokeBody::Json(args),
        headers: Default::default(),
        invoke_key: INVOKE_KEY.to_string(),
    };
    get_ipc_response(window, request).map(|body| body.deserialize::<Value>().expect("JSON answer"))
}

/// Invokes `cmd` from the app's own UI.
fn invoke_with(window: &WebviewWindow<MockRuntime>, cmd: &str, args: Value) -> Result<Value, Value> {
    invoke_from(window, "tauri://localhost", cmd, args)
}

/// Invokes `cmd` without arguments from the app's own UI.
fn invoke(window: &WebviewWindow<MockRuntime>, cmd: &str) -> Result<Value, Value> {
    invoke_with(window, cmd, json!({}))
}

/// A session for `connect` (the Garmin origin) with a known account.
fn known_session(connect: &str) -> garmin::Session {
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
    session
}

/// Saves a signed-in session for `connect` in `dir`.
fn save_session(dir: &Path, connect: &str) {
    garmin::SessionStore::new(dir).save(&known_session(connect)).expect("session saved");
}

/// A running fake Garmin Connect (the project's faithful fake) and the runtime that serves it.
struct Garmin {
    fake: fake_garmin::FakeGarmin,
    _runtime: tokio::runtime::Runtime,
}

impl Garmin {
    fn origins(&self) -> garmin::Origins {
        garmin::Origins { connect: self.fake.base_url(), sso: self.fake.base_url() }
    }

    /// A signed-in browser's `Cookie` header (optionally with the `session` cookie forged) and CSRF.
    fn browser_cookies(&self, forge: bool) -> (String, String) {
        let issued = self.fake.issue_session(UA);
        let header: Vec<String> = issued
            .cookies
            .iter()
            .map(|(n, v)| if forge && n == "session" { format!("{n}=forged") } else { format!("{n}={v}") })
            .collect();
        (header.join("; "), issued.csrf_token)
    }
}

fn fake_garmin() -> Garmin {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let fake = runtime.block_on(fake_garmin::FakeGarmin::start(fake_garmin::FakeConfig::default())).unwrap();
    Garmin { fake, _runtime: runtime }
}

/// Saves the session the fake issues (optionally with its `session` cookie forged) in `dir`.
fn save_fake_session(dir: &Path, garmin: &Garmin, forge: bool) {
    let (header, csrf) = garmin.browser_cookies(forge);
    let session =
        garmin::Session::from_cookie_header(garmin::Site::Global, garmin.origins(), &header, &csrf, UA)
            .expect("valid cookie header");
    garmin::SessionStore::new(dir).save(&session).expect("session saved");
}

/// Waits (at most 10 s) for a sign-in window to exist and returns it.
fn sign_in_window(app: &App<MockRuntime>) -> WebviewWindow<MockRuntime> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let found =
            app.webview_windows().into_iter().find(|(label, _)| label.starts_with(SIGN_IN_WINDOW_PREFIX));
        if let Some((_, window)) = found {
            return window;
        }
        assert!(Instant::now() < deadline, "no sign-in window opened within 10 s");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn session_status_is_not_signed_in_in_an_empty_data_dir() {
    let dir = tempfile::tempdir().unwrap();
    let (_app, window) = app(dir.path());
    let error = invoke(&window, "session_status").unwrap_err();
    assert_eq!(error["code"], "not_signed_in", "{error}");
    assert!(error["message"].as_str().unwrap().contains("sign in"), "{error}");
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
    assert_eq!(status["demo"], false);
    assert_eq!(status["siteLabel"], garmin::Site::Cn.label());
    assert_eq!(status["refreshCount"], 0);
    assert_eq!(status["sessionExpiryStated"], false, "a pasted header states no expiry");
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
fn the_demo_account_uses_its_own_store_and_leaving_it_returns_to_the_real_account() {
    let dir = tempfile::tempdir().unwrap();
    save_session(dir.path(), "https://connect.garmin.cn");
    let (app, window) = app(dir.path());
    let accounts = app.state::<Accounts>();
    let mut demo_session = known_session("http://127.0.0.1:9");
    demo_session.display_name = Some("fake-athlete-1".into());
    accounts.store(true).save(&demo_session).unwrap();
    accounts.set_demo_active(true);

    let status = invoke(&window, "session_status").unwrap();
    assert_eq!(
        (status["demo"].clone(), status["displayName"].clone()),
        (json!(true), json!("fake-athlete-1"))
    );
    assert_eq!(status["siteLabel"], garmin_desktop::DEMO_LABEL);

    assert_eq!(invoke(&window, "sign_out"), Ok(Value::Null), "leaving the demo");
    assert!(!accounts.store(true).path().exists(), "the demo session is gone");
    let status = invoke(&window, "session_status").unwrap();
    assert_eq!((status["demo"].clone(), status["displayName"].clone()), (json!(false), json!("alex.runs")));
    assert!(dir.path().join("session.json").exists(), "the real session was never touched");
}

#[test]
fn sign_in_opens_the_sites_own_sign_in_page_and_cancel_ends_it_as_closed() {
    let dir = tempfile::tempdir().unwrap();
    let (app, window) = app(dir.path());
    let pending = {
        let window = window.clone();
        std::thread::spawn(move || {
            invoke_with(&window, "sign_in", json!({ "site": "cn", "windowTitle": "Sign in to Garmin China" }))
        })
    };
    let sign_in = sign_in_window(&app);
    let url = sign_in.url().unwrap();
    assert_eq!(url.host_str(), Some("sso.garmin.cn"));
    assert!(url.path().starts_with("/portal/sso/zh-CN/sign-in"), "{url}");
    assert!(url.as_str().contains("service=https%3A%2F%2Fconnect.garmin.cn%2Fapp"), "{url}");

    assert_eq!(invoke(&window, "cancel_sign_in"), Ok(Value::Null));
    let error = pending.join().unwrap().unwrap_err();
    assert_eq!(error["code"], "sign_in_closed", "{error}");
    assert!(!dir.path().join("session.json").exists());
    assert_eq!(invoke(&window, "cancel_sign_in"), Ok(Value::Null), "cancelling twice is harmless");
}

#[test]
fn demo_sign_in_opens_the_fake_garmin_running_inside_the_app() {
    let dir = tempfile::tempdir().unwrap();
    let (app, window) = app(dir.path());
    let pending = {
        let window = window.clone();
        std::thread::spawn(move || {
            invoke_with(&window, "sign_in", json!({ "site": "demo", "windowTitle": "Demo" }))
        })
    };
    let url = sign_in_window(&app).url().unwrap();
    assert_eq!(url.host_str(), Some("127.0.0.1"), "loopback only: {url}");
    assert!(url.path().starts_with("/portal/sso/"), "{url}");

    // The in-app fake really serves it: the labelled page that signs in by itself.
    let page = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async { reqwest::get(url).await?.text().await })
    })
    .join()
    .unwrap()
    .expect("the demo sign-in page loads");
    assert!(page.contains("FAKE Garmin sign-in") && page.contains(".submit()"), "{page}");

    assert_eq!(invoke(&window, "cancel_sign_in"), Ok(Value::Null));
    assert_eq!(pending.join().unwrap().unwrap_err()["code"], "sign_in_closed");
    assert!(!app.state::<Accounts>().demo_active(), "an unfinished demo sign-in changes nothing");
}

#[test]
fn pasted_cookies_garmin_accepts_are_saved_as_the_real_session() {
    let dir = tempfile::tempdir().unwrap();
    let garmin = fake_garmin();
    let (_app, window) = app_with(Accounts::new(dir.path()).with_garmin_origins(garmin.origins()));
    let (cookies, csrf) = garmin.browser_cookies(false);
    let args = json!({ "site": "global", "cookies": format!("Cookie: {cookies}"), "csrfToken": csrf, "userAgent": UA });
    let status = invoke_with(&window, "sign_in_with_cookies", args).unwrap();
    assert_eq!(
        (status["displayName"].clone(), status["demo"].clone()),
        (json!("fake-athlete-1"), json!(false))
    );
    let saved = garmin::SessionStore::new(dir.path()).load().unwrap().expect("saved");
    assert_eq!(saved.user_agent, UA);
    assert!(!status.to_string().contains(&csrf), "no secret crosses IPC");
}

#[test]
fn pasted_cookies_garmin_refuses_are_rejected_and_not_saved() {
    let dir = tempfile::tempdir().unwrap();
    let garmin = fake_garmin();
    let (_app, window) = app_with(Accounts::new(dir.path()).with_garmin_origins(garmin.origins()));
    let (cookies, csrf) = garmin.browser_cookies(true);
    let args = json!({ "site": "global", "cookies": cookies, "csrfToken": csrf, "userAgent": UA });
    let error = invoke_with(&window, "sign_in_with_cookies", args).unwrap_err();
    assert_eq!(error["code"], "sign_in_rejected", "{error}");
    assert!(!dir.path().join("session.json").exists());

    let args = json!({ "site": "global", "cookies": "session=only", "csrfToken": csrf });
    let error = invoke_with(&window, "sign_in_with_cookies", args).unwrap_err();
    assert_eq!(error["code"], "invalid_input", "{error}");
    assert!(error["message"].as_str().unwrap().contains("JWT_WEB"), "{error}");
}

#[test]
fn a_page_in_the_sign_in_window_cannot_invoke_app_commands() {
    let dir = tempfile::tempdir().unwrap();
    save_session(dir.path(), "https://connect.garmin.cn");
    let (app, _main) = app(dir.path());
    let sign_in = WebviewWindowBuilder::new(
        &app,
        format!("{SIGN_IN_WINDOW_PREFIX}99"),
        tauri::WebviewUrl::External("https://sso.garmin.com/portal/sso/en-US/sign-in".parse().unwrap()),
    )
    .build()
    .unwrap();
    for cmd in ["session_status", "sign_out"] {
        let refused =
            invoke_from(&sign_in, "https://sso.garmin.com/portal/sso/en-US/sign-in", cmd, json!({}));
        assert!(refused.is_err(), "{cmd} answered a Garmin page: {refused:?}");
    }
    assert!(dir.path().join("session.json").exists(), "sign_out from the page did nothing");
}

#[test]
fn only_the_main_window_has_a_capability_and_it_allows_every_command() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let capability: Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("capabilities/default.json")).unwrap())
            .unwrap();
    assert_eq!(capability["windows"], json!(["main"]));
    assert!(capability.get("remote").is_none(), "no remote page may use it");
    let capabilities = std::fs::read_dir(root.join("capabilities")).unwrap().count();
    assert_eq!(capabilities, 1, "one capability file, for the main window");
    let build = std::fs::read_to_string(root.join("build.rs")).unwrap();
    let permissions = capability["permissions"].to_string();
    for command in
        ["session_status", "check_session", "sign_out", "sign_in", "cancel_sign_in", "sign_in_with_cookies"]
    {
        assert!(build.contains(&format!("\"{command}\"")), "{command} is declared in build.rs");
        let allow = format!("\"allow-{}\"", command.replace('_', "-"));
        assert!(permissions.contains(&allow), "{allow} missing from the main window's capability");
    }
}

#[test]
fn app_identifier_names_the_folder_garmin_mcp_uses() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tauri.conf.json");
    let config: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(config["identifier"], garmin::APP_IDENTIFIER);
}
