//! The app's commands driven through real IPC on tauri's `MockRuntime` (no display needed): the app
//! is built with the same `garmin_desktop::build` as the real one, its data folder pointed at a temp
//! folder, and Garmin played by the project's fake Garmin Connect where a command goes online.
//!
//! `MockRuntime` loads no page and reads no cookies, so the sign-in window is checked up to opening
//! it (and closing it); reading a signed-in window is covered by the library tests of `signin` and
//! by the end-to-end run (`cargo xtask e2e`).
// Unix sockets and file modes in places: Unix only.
#![cfg(unix)]

use std::path::Path;
use std::time::{Duration, Instant};

use garmin_desktop::preferences::PREFERENCES_FILE;
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

/// The intervals workout an assistant proposes in the confirmation and workout tests.
fn intervals_spec() -> Value {
    json!({"name": "800m x4", "sport": "run", "steps": [
        {"type": "warmup", "duration_min": 10},
        {"type": "repeat", "times": 4, "steps": [
            {"type": "interval", "distance_m": 800, "pace": "5:00"},
            {"type": "recovery", "duration_min": 2}]},
        {"type": "cooldown", "duration_min": 10}]})
}

// The commands, by the module of the app they belong to.
mod athlete;
mod clients;
mod confirm;
mod history_sync;
mod personal_key;
mod preferences;
mod session;
mod tool_check;
mod training;
mod writes;
