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
    // The site is remembered for the picker; no secret goes into the preferences.
    assert_eq!(invoke(&window, "get_preferences").unwrap()["lastSite"], json!("global"));
    let preferences = std::fs::read_to_string(dir.path().join(PREFERENCES_FILE)).unwrap();
    assert!(!preferences.contains(&csrf) && !preferences.contains("JWT"), "{preferences}");
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

    // No cookie is required up front (Garmin's sign-ins differ): Garmin refuses the jar, and only
    // then is the missing cookie named.
    let args = json!({ "site": "global", "cookies": "session=only", "csrfToken": csrf });
    let error = invoke_with(&window, "sign_in_with_cookies", args).unwrap_err();
    assert_eq!(error["code"], "sign_in_rejected", "{error}");
    assert!(error["message"].as_str().unwrap().contains("no `JWT_WEB` cookie"), "{error}");
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
    // Every command the app serves (`generate_handler!` in lib.rs), not a copy that could go stale.
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).unwrap();
    let handler = lib.split("generate_handler![").nth(1).and_then(|rest| rest.split(']').next()).unwrap();
    let served: Vec<&str> = handler
        .split(',')
        .filter_map(|path| path.trim().rsplit("::").next())
        .filter(|name| !name.is_empty())
        .collect();
    assert!(served.len() >= 20, "generate_handler! read from lib.rs: {served:?}");
    for command in served {
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

/// The app with its data folder at `data`, AI clients looked for in the temporary home `home`
/// (Linux layout), and — when `with_sidecar` — a `garmin-mcp` beside a pretend app executable.
fn app_for_clients(
    data: &Path,
    home: &Path,
    with_sidecar: bool,
) -> (App<MockRuntime>, WebviewWindow<MockRuntime>, std::path::PathBuf) {
    let (clients, sidecar) = ai_clients(home, with_sidecar);
    let (app, window) = app(data);
    app.manage(clients);
    (app, window, sidecar)
}

/// The AI clients of the temporary home `home` and the sidecar path they start.
fn ai_clients(home: &Path, with_sidecar: bool) -> (garmin_desktop::AiClients, std::path::PathBuf) {
    let install = home.join("opt/garmin-mcp");
    let sidecar = install.join("garmin-mcp");
    if with_sidecar {
        std::fs::create_dir_all(&install).unwrap();
        std::fs::write(&sidecar, b"#!/bin/sh\n").unwrap();
    }
    let search = app_bridge::sidecar::locate_sidecar(&install.join("garmin-desktop"), None, "", "");
    let env = client_setup::Env::for_os(client_setup::Os::Linux, home);
    (garmin_desktop::AiClients::new(env, search), sidecar)
}

#[test]
fn add_to_vs_code_opens_its_install_link_with_the_bundled_sidecar_and_the_chosen_switches() {
    let (data, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (clients, sidecar) = ai_clients(home.path(), true);
    let opened = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let recorder = opened.clone();
    let clients = clients.with_link_opener(Box::new(move |url: &str| {
        recorder.lock().unwrap().push(url.to_owned());
        Ok(())
    }));
    let (app, window) = app(data.path());
    app.manage(clients);
    let list = invoke(&window, "list_clients").unwrap();
    let hosts: Vec<&str> =
        list["linkHosts"].as_array().unwrap().iter().map(|h| h["id"].as_str().unwrap()).collect();
    assert_eq!(hosts, ["vscode", "cursor", "goose", "lmstudio"]);

    let said =
        invoke_with(&window, "open_install_link", json!({"host": "vscode", "readonly": true})).unwrap();
    assert!(said.as_str().unwrap().contains("VS Code"), "{said}");
    let url = opened.lock().unwrap().pop().expect("a link was opened");
    let config = url.strip_prefix("vscode:mcp/install?").expect("VS Code's install link");
    let config: Value =
        serde_json::from_str(&percent_encoding::percent_decode_str(config).decode_utf8().unwrap()).unwrap();
    assert_eq!(config["command"], sidecar.display().to_string());
    let args: Vec<&str> = config["args"].as_array().unwrap().iter().map(|a| a.as_str().unwrap()).collect();
    assert_eq!(args[0], "--data-dir");
    assert!(args.contains(&"--readonly") && !args.contains(&"--demo"), "{args:?}");

    // Only the known hosts: the UI cannot make the app open an arbitrary URL.
    let refused =
        invoke_with(&window, "open_install_link", json!({"host": "https://example.com"})).unwrap_err();
    assert!(refused.to_string().contains("vscode, cursor, goose or lmstudio"), "{refused}");
    assert!(opened.lock().unwrap().is_empty());
}

#[test]
fn a_host_that_cannot_be_opened_is_named_with_what_to_do_instead() {
    let (data, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (clients, _) = ai_clients(home.path(), true);
    let clients =
        clients.with_link_opener(Box::new(|_: &str| Err(std::io::Error::other("no handler for goose://"))));
    let (app, window) = app(data.path());
    app.manage(clients);
    let error = invoke_with(&window, "open_install_link", json!({"host": "goose"})).unwrap_err();
    let text = error.to_string();
    assert!(text.contains("Goose") && text.contains("Configure"), "{text}");
}

/// The row of client `id` in `list_clients`' answer.
fn client_row(list: &Value, id: &str) -> Value {
    list["clients"]
        .as_array()
        .and_then(|rows| rows.iter().find(|row| row["id"] == id))
        .unwrap_or_else(|| panic!("no row for {id}: {list}"))
        .clone()
}

#[test]
fn configure_writes_claude_code_and_codex_entries_starting_the_sidecar_with_the_real_data_dir() {
    let (data, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (app, window, sidecar) = app_for_clients(data.path(), home.path(), true);
    app.state::<Accounts>().set_demo_active(true);
    let codex_file = home.path().join(".codex/config.toml");
    std::fs::create_dir_all(codex_file.parent().unwrap()).unwrap();
    let before = "model = \"o3\"\n\n[mcp_servers.other]\ncommand = \"/usr/bin/other\"\n";
    std::fs::write(&codex_file, before).unwrap();
    // Codex's own files (not just a config garmin-mcp could have written) show it is installed.
    std::fs::write(home.path().join(".codex/history.jsonl"), b"").unwrap();

    let list = invoke(&window, "list_clients").unwrap();
    assert_eq!(list["clients"].as_array().map(Vec::len), Some(client_setup::ClientId::ALL.len()));
    assert_eq!(list["sidecar"]["path"], sidecar.display().to_string());
    assert_eq!(list["dataDir"], data.path().display().to_string(), "the real folder, even in the demo");
    let codex = client_row(&list, "codex");
    assert_eq!((codex["installed"].clone(), codex["configured"].clone()), (json!(true), json!("no")));
    assert_eq!(client_row(&list, "claude-code")["configured"], "no");

    let claude = invoke_with(&window, "configure_client", json!({ "id": "claude-code" })).unwrap();
    assert_eq!(claude["outcome"], "created", "{claude}");
    assert_eq!(claude["backup"], Value::Null, "a new file needs no backup");
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(home.path().join(".claude.json")).unwrap()).unwrap();
    let entry = &written["mcpServers"]["garmin"];
    assert_eq!(entry["command"], sidecar.display().to_string());
    assert_eq!(entry["args"], json!(["--data-dir", data.path().display().to_string()]));

    let added = invoke_with(&window, "configure_client", json!({ "id": "codex" })).unwrap();
    assert_eq!(added["outcome"], "added", "{added}");
    let backup = added["backup"].as_str().expect("the existing file was backed up");
    assert_eq!(std::fs::read_to_string(backup).unwrap(), before);
    assert!(added["message"].as_str().unwrap().contains(backup), "the words name the backup: {added}");
    let toml = std::fs::read_to_string(&codex_file).unwrap();
    assert!(toml.starts_with(before), "the other server and settings are kept: {toml}");
    assert!(toml.contains(&format!("command = \"{}\"", sidecar.display())), "{toml}");
    assert!(toml.contains(&format!("args = [\"--data-dir\", \"{}\"]", data.path().display())), "{toml}");

    let list = invoke(&window, "list_clients").unwrap();
    assert_eq!(client_row(&list, "codex")["configured"], "yes");
    assert_eq!(client_row(&list, "claude-code")["configured"], "yes");
    let again = invoke_with(&window, "configure_client", json!({ "id": "codex" })).unwrap();
    assert_eq!(again["outcome"], "unchanged");

    let removed = invoke_with(&window, "remove_client", json!({ "id": "codex" })).unwrap();
    assert_eq!(removed["outcome"], "removed", "{removed}");
    assert_eq!(std::fs::read_to_string(&codex_file).unwrap().trim_end(), before.trim_end());
    assert_eq!(client_row(&invoke(&window, "list_clients").unwrap(), "codex")["configured"], "no");
}

#[test]
fn a_malformed_client_config_is_reported_with_its_path_and_left_untouched() {
    let (data, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (_app, window, _) = app_for_clients(data.path(), home.path(), true);
    let cursor_file = home.path().join(".cursor/mcp.json");
    std::fs::create_dir_all(cursor_file.parent().unwrap()).unwrap();
    let broken = "{ \"mcpServers\": { \"other\": { \"command\": \"x\" }\n";
    std::fs::write(&cursor_file, broken).unwrap();

    let row = client_row(&invoke(&window, "list_clients").unwrap(), "cursor");
    assert_eq!(row["configured"], "unknown", "{row}");
    assert!(row["configuredDetail"].as_str().unwrap().contains(&cursor_file.display().to_string()), "{row}");

    let error = invoke_with(&window, "configure_client", json!({ "id": "cursor" })).unwrap_err();
    let message = error["message"].as_str().unwrap();
    assert!(message.contains(&cursor_file.display().to_string()), "{error}");
    assert!(message.contains("left untouched") && message.contains("line"), "{error}");
    assert_eq!(std::fs::read_to_string(&cursor_file).unwrap(), broken);
    assert!(!client_setup::backup_path(&cursor_file).exists(), "no backup of a file never written");
}

#[test]
fn cherry_studio_gets_only_the_snippet_and_every_client_has_one() {
    let (data, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (_app, window, sidecar) = app_for_clients(data.path(), home.path(), true);
    let row = client_row(&invoke(&window, "list_clients").unwrap(), "cherry-studio");
    assert_eq!((row["manualOnly"].clone(), row["configPath"].clone()), (json!(true), Value::Null));

    let cherry = invoke_with(&window, "client_snippet", json!({ "id": "cherry-studio" })).unwrap();
    let snippet: Value = serde_json::from_str(cherry["snippet"].as_str().unwrap()).expect("JSON to paste");
    assert_eq!(snippet["mcpServers"]["garmin"]["command"], sidecar.display().to_string());
    assert!(cherry["whereToPut"].as_str().unwrap().contains("Import from JSON"), "{cherry}");
    assert!(invoke_with(&window, "configure_client", json!({ "id": "cherry-studio" })).is_err());

    let codex = invoke_with(&window, "client_snippet", json!({ "id": "codex" })).unwrap();
    assert!(codex["snippet"].as_str().unwrap().starts_with("[mcp_servers.garmin]"), "{codex}");
    let codex_file = home.path().join(".codex/config.toml").display().to_string();
    assert!(codex["whereToPut"].as_str().unwrap().contains(&codex_file), "{codex}");
}

/// The row's Demo account / Read-only boxes travel as `demo` / `readonly`: they go into the entry,
/// the row shows them afterwards, a Configure without them keeps them, `false` takes one out, and the
/// setup text carries them too.
#[test]
fn the_demo_and_readonly_boxes_go_into_the_entry_and_show_on_the_row() {
    let (data, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (_app, window, _) = app_for_clients(data.path(), home.path(), true);
    let data_dir = data.path().display().to_string();
    let file = home.path().join(".gemini/settings.json");
    let args = || -> Value {
        let text = std::fs::read_to_string(&file).unwrap();
        serde_json::from_str::<Value>(&text).unwrap()["mcpServers"]["garmin"]["args"].clone()
    };

    let done =
        invoke_with(&window, "configure_client", json!({"id": "gemini", "demo": true, "readonly": true}));
    assert_eq!(done.unwrap()["outcome"], "created");
    assert_eq!(args(), json!(["--data-dir", data_dir, "--demo", "--readonly"]));
    let row = client_row(&invoke(&window, "list_clients").unwrap(), "gemini");
    assert_eq!(
        (row["configured"].clone(), row["demo"].clone(), row["readonly"].clone()),
        (json!("yes"), json!(true), json!(true))
    );

    let again = invoke_with(&window, "configure_client", json!({"id": "gemini"})).unwrap();
    assert_eq!(again["outcome"], "unchanged", "absent boxes keep the entry's flags");
    let off =
        invoke_with(&window, "configure_client", json!({"id": "gemini", "demo": false, "readonly": true}));
    assert_eq!(off.unwrap()["outcome"], "updated");
    assert_eq!(args(), json!(["--data-dir", data_dir, "--readonly"]));

    let text =
        invoke_with(&window, "client_snippet", json!({"id": "generic", "demo": true, "readonly": false}));
    let snippet = text.unwrap()["snippet"].as_str().unwrap().to_owned();
    assert!(snippet.contains("\"--demo\"") && !snippet.contains("--readonly"), "{snippet}");
}

#[test]
fn without_the_sidecar_configure_is_refused_and_says_where_it_looked() {
    let (data, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (_app, window, sidecar) = app_for_clients(data.path(), home.path(), false);
    let list = invoke(&window, "list_clients").unwrap();
    assert_eq!(list["sidecar"]["path"], Value::Null);
    assert_eq!(list["sidecar"]["lookedIn"], json!([sidecar.display().to_string()]));

    let error = invoke_with(&window, "configure_client", json!({ "id": "claude-code" })).unwrap_err();
    assert!(error["message"].as_str().unwrap().contains(&sidecar.display().to_string()), "{error}");
    assert!(!home.path().join(".claude.json").exists(), "nothing written");

    let unknown = invoke_with(&window, "configure_client", json!({ "id": "notepad" })).unwrap_err();
    assert_eq!(unknown["code"], "invalid_input", "{unknown}");
    assert!(unknown["message"].as_str().unwrap().contains("claude-code"), "lists the known ids: {unknown}");
}

/// The intervals workout an assistant proposes in the confirmation tests.
fn intervals_spec() -> Value {
    json!({"name": "800m x4", "sport": "run", "steps": [
        {"type": "warmup", "duration_min": 10},
        {"type": "repeat", "times": 4, "steps": [
            {"type": "interval", "distance_m": 800, "pace": "5:00"},
            {"type": "recovery", "duration_min": 2}]},
        {"type": "cooldown", "duration_min": 10}]})
}

/// What `garmin-mcp`'s `create_workout` sends the app for [`intervals_spec`].
fn create_workout_proposal() -> app_bridge::Proposal {
    let workout = garmin::workout_spec::parse_spec(&intervals_spec()).expect("valid spec").to_garmin();
    app_bridge::Proposal {
        title: "Create the workout '800m x4' in your Garmin library".into(),
        preview: garmin::workout_spec::preview(&workout).text,
        change: garmin::changes::Change::CreateWorkout { workout: Box::new(workout) },
        spec: Some(intervals_spec()),
        requested_by: Some("claude-code".into()),
        demo: false,
    }
}

/// Sends `request` from a sidecar's end of the channel (a real `AppLink` on its own runtime) once
/// the app in `dir` answers, and waits up to 30 s for the reply.
fn ask_app(
    dir: &Path,
    request: app_bridge::Request,
) -> std::thread::JoinHandle<Result<app_bridge::Reply, app_bridge::BridgeError>> {
    let link = app_bridge::AppLink::in_dir(dir);
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let deadline = Instant::now() + Duration::from_secs(10);
            while !link.is_running().await {
                assert!(Instant::now() < deadline, "the app's channel did not open within 10 s");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            link.ask(&request, Duration::from_secs(30)).await
        })
    })
}

/// Waits (at most 10 s) until `pending_proposals` lists a request, and returns the list.
fn pending(window: &WebviewWindow<MockRuntime>) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let list = invoke(window, "pending_proposals").unwrap();
        let list = list.as_array().cloned().unwrap_or_default();
        if !list.is_empty() {
            return list;
        }
        assert!(Instant::now() < deadline, "no request reached the app within 10 s");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_sidecars_proposal_reaches_the_window_and_the_edited_workout_goes_back_approved() {
    let dir = tempfile::tempdir().unwrap();
    let (app, window) = app(dir.path());
    garmin_desktop::bridge::start(app.handle(), dir.path().to_path_buf());
    let hello = ask_app(dir.path(), app_bridge::Request::Hello).join().unwrap().unwrap();
    assert!(matches!(hello, app_bridge::Reply::Hello { .. }), "{hello:?}");

    let asked = ask_app(dir.path(), app_bridge::Request::Confirm(create_workout_proposal()));
    let list = pending(&window);
    assert_eq!(list.len(), 1, "{list:?}");
    let request = &list[0];
    assert_eq!(request["kind"], "confirm");
    assert_eq!(request["changeKind"], "create_workout");
    assert_eq!(request["requestedBy"], "claude-code");
    assert_eq!(request["demo"], false);
    assert_eq!(request["title"], "Create the workout '800m x4' in your Garmin library");
    assert_eq!(
        request["spec"]["steps"][1]["steps"][0]["pace_range"], "4:55-5:05",
        "the editor gets the canonical spec"
    );

    // The person makes it six repeats, schedules it and sends it to the watch.
    let mut edited = request["spec"].clone();
    edited["steps"][1]["times"] = json!(6);
    let decision =
        json!({ "kind": "approve", "spec": edited, "scheduleOn": "2026-12-03", "sendToDevice": true });
    let id = request["id"].clone();
    assert_eq!(
        invoke_with(&window, "decide_proposal", json!({ "id": id, "decision": decision })),
        Ok(Value::Null)
    );

    let reply = asked.join().unwrap().expect("the sidecar gets an answer");
    let expected = garmin::workout_spec::parse_spec(&edited).unwrap().to_garmin();
    let app_bridge::Reply::Approved { change, schedule_on, send_to_device, device_id } = reply else {
        panic!("approved expected, got {reply:?}");
    };
    assert_eq!(change, garmin::changes::Change::CreateWorkout { workout: Box::new(expected) });
    assert_eq!(schedule_on, chrono::NaiveDate::from_ymd_opt(2026, 12, 3));
    assert_eq!((send_to_device, device_id), (true, None));
    assert_eq!(invoke(&window, "pending_proposals"), Ok(json!([])), "answered requests leave the list");
    let again =
        invoke_with(&window, "decide_proposal", json!({ "id": id, "decision": { "kind": "cancel" } }));
    assert!(again.unwrap_err()["message"].as_str().unwrap().contains("no longer waiting"));
}

#[cfg(unix)]
#[test]
fn with_a_silent_connection_open_a_hostile_proposal_still_reaches_the_window_short_and_clean() {
    let dir = tempfile::tempdir().unwrap();
    let (app, window) = app(dir.path());
    garmin_desktop::bridge::start(app.handle(), dir.path().to_path_buf());
    let hello = ask_app(dir.path(), app_bridge::Request::Hello).join().unwrap().unwrap();
    assert!(matches!(hello, app_bridge::Reply::Hello { .. }), "{hello:?}");
    // A process that connects and says nothing (the app waits 10 s for a request).
    let silent = std::os::unix::net::UnixStream::connect(app_bridge::socket_path(dir.path())).unwrap();

    let mut name = String::from("\u{202E}edoc-edualc\u{202C}\n Garmin Security: re-enter your password at ");
    while name.len() < 100 * 1024 {
        name.push_str("\u{2066}\u{200F}\u{7}\r\nhttps://garmin.example/\u{E0041}");
    }
    let proposal = app_bridge::Proposal { requested_by: Some(name), ..create_workout_proposal() };
    let started = Instant::now();
    let asked = ask_app(dir.path(), app_bridge::Request::Confirm(proposal));
    let request = pending(&window)[0].clone();
    assert!(started.elapsed() < Duration::from_secs(5), "stalled {:?}", started.elapsed());
    let client = request["requestedBy"].as_str().unwrap();
    assert!(client.chars().count() <= app_bridge::MAX_CLIENT_NAME_CHARS, "{client}");
    assert!(client.chars().all(|c| !c.is_control() && !app_bridge::is_hidden_control(c)), "{client:?}");
    assert!(client.starts_with("edoc-edualc Garmin"), "{client:?}");

    let cancel = json!({ "id": request["id"], "decision": { "kind": "cancel" } });
    assert_eq!(invoke_with(&window, "decide_proposal", cancel), Ok(Value::Null));
    assert_eq!(asked.join().unwrap().unwrap(), app_bridge::Reply::Cancelled { reason: None });
    drop(silent);
}

#[test]
fn an_invalid_edit_is_refused_and_the_proposal_keeps_waiting_until_cancelled() {
    let dir = tempfile::tempdir().unwrap();
    let (app, window) = app(dir.path());
    garmin_desktop::bridge::start(app.handle(), dir.path().to_path_buf());
    let asked = ask_app(dir.path(), app_bridge::Request::Confirm(create_workout_proposal()));
    let id = pending(&window)[0]["id"].clone();

    let mut broken = intervals_spec();
    broken["steps"][1]["times"] = json!(0);
    let decision = json!({ "kind": "approve", "spec": broken });
    let error =
        invoke_with(&window, "decide_proposal", json!({ "id": id, "decision": decision })).unwrap_err();
    assert_eq!(error["code"], "invalid_input", "{error}");
    assert!(error["message"].as_str().unwrap().contains("steps[1].times"), "{error}");
    assert_eq!(pending(&window).len(), 1, "still waiting for a decision");

    let decision = json!({ "kind": "cancel", "reason": "not this week" });
    assert_eq!(
        invoke_with(&window, "decide_proposal", json!({ "id": id, "decision": decision })),
        Ok(Value::Null)
    );
    let reply = asked.join().unwrap().unwrap();
    assert_eq!(reply, app_bridge::Reply::Cancelled { reason: Some("not this week".into()) });
}

#[test]
fn a_sign_in_request_is_shown_with_its_reason_and_answered_by_signing_in() {
    let dir = tempfile::tempdir().unwrap();
    let garmin = fake_garmin();
    let (app, window) = app_with(Accounts::new(dir.path()).with_garmin_origins(garmin.origins()));
    garmin_desktop::bridge::start(app.handle(), dir.path().to_path_buf());

    // "Not now" in the window cancels it.
    let reason = "claude-code needs your Garmin data for `get_sleep`: sign in to continue.";
    let asked = ask_app(dir.path(), app_bridge::Request::SignIn { reason: reason.into() });
    let request = pending(&window)[0].clone();
    assert_eq!((request["kind"].clone(), request["reason"].clone()), (json!("sign_in"), json!(reason)));
    let approve = invoke_with(
        &window,
        "decide_proposal",
        json!({ "id": request["id"], "decision": { "kind": "approve" } }),
    );
    assert_eq!(approve.unwrap_err()["code"], "invalid_input", "a sign-in is answered by signing in");
    let cancel = json!({ "id": request["id"], "decision": { "kind": "cancel" } });
    assert_eq!(invoke_with(&window, "decide_proposal", cancel), Ok(Value::Null));
    assert_eq!(asked.join().unwrap().unwrap(), app_bridge::Reply::Cancelled { reason: None });

    // Signing in (here with pasted cookies) answers it.
    let asked = ask_app(dir.path(), app_bridge::Request::SignIn { reason: reason.into() });
    pending(&window);
    let (cookies, csrf) = garmin.browser_cookies(false);
    let args = json!({ "site": "global", "cookies": cookies, "csrfToken": csrf, "userAgent": UA });
    invoke_with(&window, "sign_in_with_cookies", args).unwrap();
    let reply = asked.join().unwrap().unwrap();
    assert_eq!(reply, app_bridge::Reply::SignedIn { display_name: Some("fake-athlete-1".into()) });
    assert_eq!(invoke(&window, "pending_proposals"), Ok(json!([])));
}

#[test]
fn preview_workout_recomputes_totals_in_rust_and_lists_every_problem() {
    let dir = tempfile::tempdir().unwrap();
    let (_app, window) = app(dir.path());
    let four = invoke_with(&window, "preview_workout", json!({ "spec": intervals_spec() })).unwrap();
    let mut longer = intervals_spec();
    longer["steps"][1]["times"] = json!(6);
    let six = invoke_with(&window, "preview_workout", json!({ "spec": longer })).unwrap();
    assert_eq!(four["problems"], json!([]));
    let (d4, d6) = (four["distanceM"].as_f64().unwrap(), six["distanceM"].as_f64().unwrap());
    assert!((d6 - d4 - 2.0 * (800.0 + 2.0 * 60.0 * 1000.0 / 420.0)).abs() < 50.0, "{d4} → {d6}");
    assert!(six["durationS"].as_f64().unwrap() > four["durationS"].as_f64().unwrap());
    assert!(six["text"].as_str().unwrap().contains("Repeat 6×"), "{six}");
    assert_eq!(six["lines"].as_array().map(Vec::len), Some(3));

    let broken = json!({ "name": "", "sport": "run", "steps": [{ "type": "interval", "pace": "fast" }] });
    let answer = invoke_with(&window, "preview_workout", json!({ "spec": broken })).unwrap();
    let paths: Vec<&str> =
        answer["problems"].as_array().unwrap().iter().filter_map(|p| p["path"].as_str()).collect();
    assert_eq!(paths, ["name", "steps[0].pace"], "{answer}");
    assert_eq!(answer["distanceM"], Value::Null);
}

#[test]
fn the_exercise_picker_searches_the_catalogue_and_the_preview_speaks_the_windows_language() {
    let dir = tempfile::tempdir().unwrap();
    let (_app, window) = app(dir.path());
    let hits =
        invoke_with(&window, "find_exercises", json!({ "query": { "name": "bench press", "limit": 3 } }))
            .unwrap();
    let hits = hits.as_array().unwrap();
    assert_eq!(hits.len(), 3);
    assert_eq!(hits[0]["exercise"], "BENCH_PRESS/BENCH_PRESS", "{hits:?}");
    assert!(hits.iter().all(|h| h["primary_muscles"].is_array()), "{hits:?}");
    let error =
        invoke_with(&window, "find_exercises", json!({ "query": { "muscle": "wings" } })).unwrap_err();
    assert!(error.to_string().contains("unknown muscle"), "{error}");
    let bench = json!({ "name": "Bench", "sport": "strength", "steps": [
        { "type": "repeat", "times": 3, "steps": [
            { "type": "exercise", "exercise": "barbell bench press", "reps": 8, "weight_kg": 60 },
            { "type": "rest", "duration_s": 90 }]}]});
    let en = invoke_with(&window, "preview_workout", json!({ "spec": bench })).unwrap();
    assert_eq!(en["text"], "3× Barbell bench press 8 reps @ 60 kg · rest 1:30 — 3 sets, 24 reps, 1,440 kg");
    let zh = invoke_with(&window, "preview_workout", json!({ "spec": bench, "language": "zh" })).unwrap();
    assert_eq!(zh["text"], "3× 杠铃卧推 8次 @ 60 kg · 休息 1:30 — 3组，24次，1,440 kg");
    assert_eq!(zh["total"], "3组，24次，1,440 kg");
}

#[test]
fn an_entry_starting_another_program_shows_as_different_and_configure_brings_it_up_to_date() {
    let (data, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (_app, window, sidecar) = app_for_clients(data.path(), home.path(), true);
    let cursor_file = home.path().join(".cursor/mcp.json");
    std::fs::create_dir_all(cursor_file.parent().unwrap()).unwrap();
    let old = json!({ "mcpServers": {
        "garmin": { "command": "/old/garmin-mcp", "args": ["--data-dir", "/old/data"], "timeout": 30 },
        "other": { "command": "/usr/bin/other" } } });
    std::fs::write(&cursor_file, serde_json::to_string_pretty(&old).unwrap()).unwrap();

    let row = client_row(&invoke(&window, "list_clients").unwrap(), "cursor");
    assert_eq!(row["configured"], "different", "{row}");
    assert!(row["configuredDetail"].as_str().is_some_and(|why| !why.is_empty()), "{row}");

    let updated = invoke_with(&window, "configure_client", json!({ "id": "cursor" })).unwrap();
    assert_eq!(updated["outcome"], "updated", "{updated}");
    let now: Value = serde_json::from_str(&std::fs::read_to_string(&cursor_file).unwrap()).unwrap();
    let entry = &now["mcpServers"]["garmin"];
    assert_eq!(entry["command"], sidecar.display().to_string());
    assert_eq!(entry["args"], json!(["--data-dir", data.path().display().to_string()]));
    assert_eq!(entry["timeout"], 30, "keys the app does not own are kept");
    assert_eq!(now["mcpServers"]["other"], old["mcpServers"]["other"]);
    assert_eq!(client_row(&invoke(&window, "list_clients").unwrap(), "cursor")["configured"], "yes");
}

/// The `garmin-mcp` built beside this test (`target/<profile>/garmin-mcp`, from
/// `cargo build -p garmin-mcp --bin garmin-mcp` or any workspace build).
fn built_sidecar() -> std::path::PathBuf {
    let exe = std::env::current_exe().expect("the test knows its own path");
    let profile_dir = exe.parent().and_then(Path::parent).expect("tests run from target/<profile>/deps");
    let sidecar = profile_dir.join(format!("garmin-mcp{}", std::env::consts::EXE_SUFFIX));
    assert!(
        sidecar.is_file(),
        "{} is missing: run `cargo build -p garmin-mcp --bin garmin-mcp` first",
        sidecar.display()
    );
    sidecar
}

/// The names of the tools `sidecar` marks read-only, asked independently of the tool check.
fn read_only_tools(sidecar: &Path, data_dir: &Path) -> Vec<String> {
    use rmcp::ServiceExt as _;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let mut cmd = tokio::process::Command::new(sidecar);
        cmd.arg("--data-dir").arg(data_dir);
        let (transport, _) = rmcp::transport::TokioChildProcess::builder(cmd)
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let client = ().serve(transport).await.unwrap();
        let tools = client.list_all_tools().await.unwrap();
        tools
            .iter()
            .filter(|t| t.annotations.as_ref().and_then(|a| a.read_only_hint) == Some(true))
            .map(|t| t.name.to_string())
            .collect()
    })
}

/// The tool check's row for `tool`.
fn check_row(report: &Value, tool: &str) -> Value {
    report["rows"]
        .as_array()
        .and_then(|rows| rows.iter().find(|row| row["tool"] == tool))
        .unwrap_or_else(|| panic!("no row for {tool}: {report}"))
        .clone()
}

#[test]
fn the_tool_check_runs_the_sidecar_on_every_read_tool_and_marks_no_data_and_failures() {
    let dir = tempfile::tempdir().unwrap();
    let garmin = fake_garmin();
    save_fake_session(dir.path(), &garmin, false);
    // Garmin answers the device list with nothing, and the gear list with broken JSON.
    use fake_garmin::faults::{Fault, FaultRule};
    garmin.fake.push_fault(FaultRule::always(Fault::NoContent).on_path("deviceregistration"));
    garmin.fake.push_fault(FaultRule::always(Fault::MalformedJson).on_path("gear-service"));
    let sidecar = built_sidecar();
    let (app, window) = app(dir.path());
    app.manage(garmin_desktop::ToolCheck::new(app_bridge::sidecar::SidecarSearch {
        found: Some(sidecar.clone()),
        looked_in: vec![sidecar.clone()],
    }));

    let report = invoke(&window, "run_tool_check").unwrap();
    assert_eq!(report["demo"], false);
    assert_eq!(report["sidecar"], sidecar.display().to_string());
    let checked: Vec<&str> =
        report["rows"].as_array().unwrap().iter().filter_map(|row| row["tool"].as_str()).collect();
    assert_eq!(checked, read_only_tools(&sidecar, dir.path()), "one row per read-only tool, in order");
    assert!(!checked.contains(&"create_workout"), "write tools are never called");

    let profile = check_row(&report, "get_profile");
    assert_eq!(profile["outcome"], "answered", "{profile}");
    assert!(!profile["summary"].as_str().unwrap().is_empty(), "{profile}");
    assert!(profile["title"].as_str().is_some_and(|t| !t.is_empty()), "the tool's title is shown: {profile}");
    let activity = check_row(&report, "get_activity");
    assert_eq!(activity["outcome"], "answered", "asked about list_activities' first row: {activity}");
    assert_eq!(check_row(&report, "get_period_stats")["outcome"], "answered", "period = week");
    let devices = check_row(&report, "get_devices");
    assert_eq!(devices["outcome"], "no_data", "{devices}");
    assert!(devices["summary"].as_str().unwrap().starts_with("No devices"), "{devices}");
    let gear = check_row(&report, "get_gear");
    assert_eq!(gear["outcome"], "failed", "{gear}");
    let requests = garmin.fake.requests();
    assert!(
        requests.iter().all(|r| r.method == "GET" || r.path.contains("sso") || r.path.contains("auth")),
        "only reads reach Garmin"
    );
}

#[test]
fn the_tool_check_without_a_session_is_not_signed_in() {
    let dir = tempfile::tempdir().unwrap();
    let (app, window) = app(dir.path());
    app.manage(garmin_desktop::ToolCheck::new(app_bridge::sidecar::SidecarSearch {
        found: Some(built_sidecar()),
        looked_in: Vec::new(),
    }));
    assert_eq!(invoke(&window, "run_tool_check").unwrap_err()["code"], "not_signed_in");
}

#[test]
fn a_workout_created_by_hand_reaches_garmin_journaled_as_the_apps_and_undo_takes_it_back() {
    let dir = tempfile::tempdir().unwrap();
    let garmin = fake_garmin();
    save_fake_session(dir.path(), &garmin, false);
    let (_app, window) = app(dir.path());
    let client = garmin::Client::from_store(garmin::SessionStore::new(dir.path())).unwrap();
    let workout_posts = || {
        garmin
            .fake
            .requests()
            .iter()
            .filter(|r| r.method == "POST" && r.path.contains("/workout-service"))
            .count()
    };

    // A broken spec is refused with every problem, and nothing reaches Garmin.
    let broken = json!({ "name": "", "sport": "run", "steps": [{ "type": "interval", "pace": "fast" }] });
    let refused =
        invoke_with(&window, "create_workout_by_hand", json!({ "spec": broken, "sendToDevice": false }))
            .unwrap_err();
    assert_eq!(refused["code"], "invalid_input", "{refused}");
    assert!(refused["message"].as_str().unwrap().contains("steps[0].pace"), "{refused}");
    assert_eq!(workout_posts(), 0);

    let args = json!({ "spec": intervals_spec(), "scheduleOn": "2026-12-03", "sendToDevice": true });
    let done = invoke_with(&window, "create_workout_by_hand", args).unwrap();
    let done = done.as_array().unwrap();
    let ids: Vec<&Value> = done.iter().map(|d| &d["changeId"]).collect();
    assert_eq!(ids, [&json!(1), &json!(2), &json!(3)], "{done:?}");
    let workout_id = done[0]["ids"]["workout_id"].as_u64().unwrap();
    let schedule_id = done[1]["ids"]["schedule_id"].as_u64().unwrap();
    let on_garmin = garmin._runtime.block_on(client.workouts().get(workout_id)).unwrap();
    assert_eq!(on_garmin.workout_name.as_deref(), Some("800m x4"));
    let scheduled = garmin._runtime.block_on(client.workouts().get_schedule(schedule_id)).unwrap();
    assert_eq!(scheduled.calendar_date, chrono::NaiveDate::from_ymd_opt(2026, 12, 3));

    let rows = invoke_with(&window, "recent_changes", json!({})).unwrap();
    assert!(rows.as_array().unwrap().iter().all(|r| r["confirmedBy"] == "app"), "who confirmed: {rows}");
    let rows: Vec<(String, bool)> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["tool"].as_str().unwrap().to_owned(), r["canUndo"].as_bool().unwrap()))
        .collect();
    let expected = [
        ("app: push_workout_to_device", false),
        ("app: schedule_workout", true),
        ("app: create_workout", true),
    ];
    assert_eq!(rows, expected.map(|(tool, undo)| (tool.to_owned(), undo)));

    // Undo the schedule, then the workout: both are gone from Garmin.
    let undone = invoke_with(&window, "undo_change", json!({ "id": 2 })).unwrap();
    assert_eq!(undone[0]["changeId"], 4, "{undone}");
    assert!(garmin._runtime.block_on(client.workouts().get_schedule(schedule_id)).is_err());
    invoke_with(&window, "undo_change", json!({ "id": 1 })).unwrap();
    assert!(matches!(
        garmin._runtime.block_on(client.workouts().get(workout_id)),
        Err(garmin::Error::NotFound { .. })
    ));
    let states: Vec<Value> = invoke_with(&window, "recent_changes", json!({ "limit": 5 }))
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["state"].clone())
        .collect();
    assert_eq!(
        states,
        [json!("undo of #1"), json!("undo of #2"), json!("done"), json!("undone"), json!("undone")]
    );

    // What cannot be undone is refused with the reason.
    let recalled = invoke_with(&window, "undo_change", json!({ "id": 3 })).unwrap_err();
    assert!(recalled["message"].as_str().unwrap().contains("cannot be recalled"), "{recalled}");
    let twice = invoke_with(&window, "undo_change", json!({ "id": 2 })).unwrap_err();
    assert!(twice["message"].as_str().unwrap().contains("already undone"), "{twice}");
}

#[test]
fn a_second_copy_of_the_app_hands_over_to_the_running_one() {
    let dir = tempfile::tempdir().unwrap();
    assert!(!garmin_desktop::bridge::hand_over_to_running_app(dir.path()), "no app runs yet");
    let (app, _window) = app(dir.path());
    garmin_desktop::bridge::start(app.handle(), dir.path().to_path_buf());
    let deadline = Instant::now() + Duration::from_secs(10);
    while !garmin_desktop::bridge::hand_over_to_running_app(dir.path()) {
        assert!(Instant::now() < deadline, "the running app did not answer within 10 s");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The athlete memory card's commands over IPC: a fact an assistant remembered (straight into the
/// shared `athlete.json`) is listed with its client; the person edits it, adds one and deletes one;
/// a bad field is refused as `invalid_input` naming it; every change is in the file `garmin-mcp`
/// reads.
#[test]
fn the_athlete_memory_is_listed_edited_added_to_and_deleted_from_the_app() {
    let dir = tempfile::tempdir().unwrap();
    let memory = garmin::athlete::AthleteMemory::in_dir(dir.path());
    let said = garmin::athlete::FactInput {
        kind: Some(garmin::athlete::FactKind::GoalRace),
        text: Some("Berlin Marathon".into()),
        date: Some("2099-09-26".into()),
        target_time: Some("3:15".into()),
        ..Default::default()
    };
    memory.remember(said, "claude-code", chrono::Utc::now()).unwrap();
    let (_app, window) = app(dir.path());

    let facts = invoke(&window, "athlete_facts").unwrap();
    assert_eq!(facts[0]["source"], "claude-code");
    assert_eq!(facts[0]["targetTime"], "3:15:00");
    assert!(facts[0]["daysToRace"].as_i64().is_some_and(|d| d > 0), "{facts}");

    let form = json!({"kind": "goal_race", "text": "Berlin Marathon", "date": "2099-09-26", "distanceKm": 42.195,
        "targetTime": "3:09:00", "weeklyKmCap": 0});
    let edited = invoke_with(&window, "edit_athlete_fact", json!({"id": 1, "fact": form})).unwrap();
    assert_eq!(
        (edited["targetTime"].clone(), edited["updatedBy"].clone()),
        (json!("3:09:00"), json!("Garmin MCP app"))
    );
    let bad = json!({"kind": "goal_race", "text": "Berlin", "date": "26.09.2099", "distanceKm": 0, "targetTime": "", "weeklyKmCap": 0});
    let refused = invoke_with(&window, "edit_athlete_fact", json!({"id": 1, "fact": bad})).unwrap_err();
    assert_eq!(refused["code"], "invalid_input");
    assert!(refused["message"].as_str().unwrap().contains("`date`"), "{refused}");

    let added = json!({"kind": "constraint", "text": "no running on Mondays", "date": "", "distanceKm": 0, "targetTime": "", "weeklyKmCap": 0});
    let added = invoke_with(&window, "add_athlete_fact", json!({"fact": added})).unwrap();
    assert_eq!(added["source"], "Garmin MCP app");
    invoke_with(&window, "delete_athlete_fact", json!({"id": 1})).unwrap();
    let gone = invoke_with(&window, "delete_athlete_fact", json!({"id": 1})).unwrap_err();
    assert_eq!(gone["code"], "invalid_input");
    let texts: Vec<String> = memory.facts().unwrap().into_iter().map(|f| f.text).collect();
    assert_eq!(texts, ["no running on Mondays"], "what garmin-mcp reads");
}

/// Collects the `history-sync` events the app emits, in order.
fn sync_events(app: &App<MockRuntime>) -> std::sync::Arc<std::sync::Mutex<Vec<Value>>> {
    use tauri::Listener as _;
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let sink = seen.clone();
    app.listen_any(garmin_desktop::SYNC_EVENT, move |event| {
        let payload: Value = serde_json::from_str(event.payload()).expect("JSON payload");
        sink.lock().unwrap().push(payload);
    });
    seen
}

/// Waits (at most 2 minutes) for the event that says the sync ended, and returns every event.
fn until_sync_ends(seen: &std::sync::Mutex<Vec<Value>>) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let events = seen.lock().unwrap().clone();
        if events.last().is_some_and(|e| e["running"] == false) {
            return events;
        }
        assert!(Instant::now() < deadline, "the sync did not end within 2 minutes: {events:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn the_sync_button_runs_in_the_background_with_progress_events_and_a_second_click_starts_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let garmin = fake_garmin();
    save_fake_session(dir.path(), &garmin, false);
    let (app, window) = app(dir.path());
    let seen = sync_events(&app);

    let before = invoke(&window, "history_status").unwrap();
    assert_eq!(before["history"]["exists"], false, "{before}");
    assert_eq!(before["sync"]["running"], false);

    let started = invoke(&window, "start_history_sync").unwrap();
    assert_eq!(
        (started["running"].clone(), started["demo"].clone()),
        (json!(true), json!(false)),
        "{started}"
    );
    // A second click while it runs reports the same sync and starts no other.
    let again = invoke(&window, "start_history_sync").unwrap();
    assert_eq!(again["running"], true, "{again}");

    let events = until_sync_ends(&seen);
    let progress: Vec<(u64, u64)> = events
        .iter()
        .filter_map(|e| Some((e["progress"]["done"].as_u64()?, e["progress"]["total"].as_u64()?)))
        .collect();
    assert!(progress.len() >= 2, "progress was reported as it went: {events:?}");
    assert!(progress.windows(2).all(|w| w[0].0 <= w[1].0), "progress never goes back: {progress:?}");
    let total = progress.last().unwrap().1;
    assert!(total >= 365, "a year of days: {total}");
    let last = events.last().unwrap();
    assert_eq!(last["last"]["end"], "complete", "{last}");
    assert!(last["last"]["activitiesAdded"].as_u64().unwrap() > 50, "{last}");

    // One sync ran: every block's activity list was asked for exactly once.
    let lists: Vec<String> = garmin
        .fake
        .requests()
        .into_iter()
        .filter(|r| r.path.ends_with("/activitylist-service/activities/search/activities"))
        .map(|r| r.query.unwrap_or_default())
        .collect();
    let mut unique = lists.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(lists.len(), unique.len(), "no block was read twice: {lists:?}");

    let after = invoke(&window, "history_status").unwrap();
    let history = &after["history"];
    assert_eq!(history["exists"], true);
    assert_eq!(history["activities"], last["last"]["activitiesAdded"], "{after}");
    assert!(history["days"].as_u64().unwrap() >= 365, "{after}");
    assert!(history["firstDay"].is_string() && history["lastDay"].is_string(), "{after}");
    assert!(history["lastSyncedAt"].is_string(), "{after}");
    assert_eq!(after["sync"]["last"]["end"], "complete");

    // The automatic first sync after a sign-in does nothing once the history was synced.
    let requests = garmin.fake.requests().len();
    let first_only = invoke_with(&window, "start_history_sync", json!({ "firstOnly": true })).unwrap();
    assert_eq!(first_only["running"], false, "{first_only}");
    assert_eq!(garmin.fake.requests().len(), requests, "no request to Garmin");
}

#[test]
fn a_sync_garmin_rate_limits_stops_politely_and_says_when_to_resume() {
    let dir = tempfile::tempdir().unwrap();
    let garmin = fake_garmin();
    save_fake_session(dir.path(), &garmin, false);
    // Garmin answers every daily summary with 429, asking for ten minutes.
    garmin.fake.push_fault(
        fake_garmin::faults::FaultRule::always(fake_garmin::faults::Fault::RateLimited {
            retry_after_secs: Some(600),
        })
        .on_path("/usersummary/daily/"),
    );
    let (app, window) = app(dir.path());
    let seen = sync_events(&app);
    let asked = chrono::Utc::now();
    invoke(&window, "start_history_sync").unwrap();
    let events = until_sync_ends(&seen);
    let last = &events.last().unwrap()["last"];
    assert_eq!(last["end"], "rate_limited", "{last}");
    let resume: chrono::DateTime<chrono::Utc> = last["resumeAfter"].as_str().unwrap().parse().unwrap();
    assert!(resume >= asked + chrono::Duration::seconds(590), "{resume}");
    assert!(last["summary"].as_str().unwrap().contains("Resume after"), "{last}");
    assert!(last["error"].is_null(), "a polite stop is not a failure: {last}");
}

#[test]
fn a_sync_without_a_session_is_refused_as_not_signed_in_and_one_garmin_refuses_fails_in_the_error_shape() {
    let dir = tempfile::tempdir().unwrap();
    let (_app, window) = app(dir.path());
    let refused = invoke(&window, "start_history_sync").unwrap_err();
    assert_eq!(refused["code"], "not_signed_in", "{refused}");
    assert!(!dir.path().join("history.sqlite3").exists(), "nothing was created");

    // A session Garmin refuses: the background sync ends as failed, with the code to sign in again.
    let dir = tempfile::tempdir().unwrap();
    let garmin = fake_garmin();
    save_fake_session(dir.path(), &garmin, true);
    let (app, window) = app(dir.path());
    let seen = sync_events(&app);
    invoke(&window, "start_history_sync").unwrap();
    let events = until_sync_ends(&seen);
    let last = &events.last().unwrap()["last"];
    assert_eq!(last["end"], "failed", "{last}");
    assert_eq!(last["error"]["code"], "session_expired", "{last}");
    assert!(last["error"]["message"].as_str().is_some_and(|m| !m.is_empty()), "{last}");
}

/// The app with a global session on the fake and the Personal API pointed at it.
fn app_with_personal_api(dir: &Path, garmin: &Garmin) -> (App<MockRuntime>, WebviewWindow<MockRuntime>) {
    save_fake_session(dir, garmin, false);
    app_with(Accounts::new(dir).with_personal_api_origin(garmin.fake.base_url()))
}

fn exchanges(garmin: &Garmin) -> u32 {
    garmin.fake.personal_api_exchanges().values().sum()
}

#[test]
fn a_pasted_personal_api_key_is_checked_with_one_exchange_saved_0600_shown_with_its_expiry_and_removable() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().unwrap();
    let garmin = fake_garmin();
    let (_app, window) = app_with_personal_api(dir.path(), &garmin);
    let before = invoke(&window, "personal_key_status").unwrap();
    assert_eq!((before["offered"].clone(), before["saved"].clone()), (json!(true), json!(false)), "{before}");

    let minted = garmin.fake.mint_personal_api_key(Duration::from_secs(30 * 24 * 3600));
    let pasted = format!("  {}\n", minted.key);
    let view = invoke_with(&window, "add_personal_key", json!({ "key": pasted, "validDays": 30 })).unwrap();
    assert_eq!(view["saved"], true, "{view}");
    assert!(matches!(view["daysLeft"].as_i64(), Some(29 | 30)), "{view}");
    assert_eq!((view["expiresSoon"].clone(), view["expired"].clone()), (json!(false), json!(false)));
    assert!(!view.to_string().contains(&minted.key), "the key never goes back to the window");
    assert_eq!(exchanges(&garmin), 1, "checked with exactly one token exchange");

    let file = dir.path().join("session.json");
    assert_eq!(std::fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o600);
    let saved = garmin::SessionStore::new(dir.path()).load_personal().unwrap().unwrap();
    assert_eq!(saved.key, minted.key, "saved trimmed");
    assert_eq!(saved.origin.as_deref(), Some(garmin.fake.base_url().as_str()));
    assert!(invoke(&window, "session_status").is_ok(), "the web session stays beside the key");

    let removed = invoke(&window, "remove_personal_key").unwrap();
    assert_eq!(removed["saved"], false, "{removed}");
    assert!(garmin::SessionStore::new(dir.path()).load_personal().unwrap().is_none());
    assert!(invoke(&window, "session_status").is_ok(), "removing the key keeps the web sign-in");
}

#[test]
fn a_key_garmin_refuses_or_a_lifetime_garmin_does_not_offer_is_invalid_input_and_nothing_is_saved() {
    let dir = tempfile::tempdir().unwrap();
    let garmin = fake_garmin();
    let (_app, window) = app_with_personal_api(dir.path(), &garmin);
    let wrong =
        invoke_with(&window, "add_personal_key", json!({ "key": "gcpak_not_a_key", "validDays": 90 }))
            .unwrap_err();
    assert_eq!(wrong["code"], "invalid_input", "{wrong}");
    assert!(wrong["message"].as_str().unwrap().contains("does not accept this key"), "{wrong}");
    assert!(!wrong.to_string().contains("gcpak_not_a_key"), "the key is never echoed: {wrong}");

    let minted = garmin.fake.mint_personal_api_key(Duration::from_secs(90 * 24 * 3600));
    let exchanged = exchanges(&garmin);
    let odd =
        invoke_with(&window, "add_personal_key", json!({ "key": minted.key, "validDays": 45 })).unwrap_err();
    assert_eq!(odd["code"], "invalid_input", "{odd}");
    assert!(odd["message"].as_str().unwrap().contains("45 days"), "{odd}");
    assert_eq!(exchanges(&garmin), exchanged, "refused before asking Garmin");

    garmin.fake.revoke_personal_api_key(&minted.key);
    let deleted =
        invoke_with(&window, "add_personal_key", json!({ "key": minted.key, "validDays": 90 })).unwrap_err();
    assert_eq!(deleted["code"], "invalid_input", "{deleted}");
    assert!(garmin::SessionStore::new(dir.path()).load_personal().unwrap().is_none(), "nothing saved");
    assert_eq!(invoke(&window, "personal_key_status").unwrap()["saved"], false);
}

#[test]
fn china_accounts_are_told_the_personal_api_is_not_offered_and_no_key_is_checked() {
    let dir = tempfile::tempdir().unwrap();
    let garmin = fake_garmin();
    // A Garmin China session (connect.garmin.cn).
    save_session(dir.path(), &garmin.fake.base_url());
    let (_app, window) = app_with(Accounts::new(dir.path()).with_personal_api_origin(garmin.fake.base_url()));
    let view = invoke(&window, "personal_key_status").unwrap();
    assert_eq!(view["offered"], false, "{view}");
    assert!(view["notOffered"].as_str().unwrap().contains("connect.garmin.cn"), "{view}");

    let minted = garmin.fake.mint_personal_api_key(Duration::from_secs(30 * 24 * 3600));
    let refused =
        invoke_with(&window, "add_personal_key", json!({ "key": minted.key, "validDays": 30 })).unwrap_err();
    assert_eq!(refused["code"], "invalid_input", "{refused}");
    assert!(refused["message"].as_str().unwrap().contains("not offered"), "{refused}");
    assert_eq!(exchanges(&garmin), 0, "no key exchange was tried");
    let page = invoke_with(&window, "open_personal_key_page", json!({ "windowTitle": "Key" })).unwrap_err();
    assert_eq!(page["code"], "invalid_input", "{page}");
    assert!(garmin::SessionStore::new(dir.path()).load_personal().unwrap().is_none());
}

#[test]
fn the_key_page_opens_in_a_capability_less_sign_in_window_and_needs_a_web_sign_in() {
    let dir = tempfile::tempdir().unwrap();
    let (_app, window) = app(dir.path());
    let refused =
        invoke_with(&window, "open_personal_key_page", json!({ "windowTitle": "Key" })).unwrap_err();
    assert_eq!(refused["code"], "not_signed_in", "{refused}");

    let garmin = fake_garmin();
    let (app, window) = app_with_personal_api(dir.path(), &garmin);
    invoke_with(&window, "open_personal_key_page", json!({ "windowTitle": "Garmin Personal API key" }))
        .unwrap();
    let label = garmin_desktop::signin::window::KEY_PAGE_WINDOW;
    let key_window = app.get_webview_window(label).expect("the key page window is open");
    assert!(label.starts_with(SIGN_IN_WINDOW_PREFIX), "a sign-in window: no capability");
    // Nothing it loads can call the app.
    let blocked =
        invoke_from(&key_window, &garmin.fake.base_url(), "add_personal_key", json!({ "key": "k" }));
    assert!(blocked.is_err(), "{blocked:?}");
    // Opening it again replaces it rather than stacking windows.
    invoke_with(&window, "open_personal_key_page", json!({ "windowTitle": "Again" })).unwrap();
    let open = app.webview_windows().keys().filter(|l| l.as_str() == label).count();
    assert_eq!(open, 1);
}

/// The preferences file in `dir`, as JSON.
fn preferences_file(dir: &Path) -> Value {
    let text = std::fs::read_to_string(dir.join(PREFERENCES_FILE)).expect("preferences.json written");
    serde_json::from_str(&text).expect("preferences.json is JSON")
}

#[test]
fn preferences_start_at_the_defaults_and_a_change_is_saved_for_the_next_start() {
    let dir = tempfile::tempdir().unwrap();
    {
        let (_app, window) = app(dir.path());
        let defaults = invoke(&window, "get_preferences").unwrap();
        assert_eq!(
            defaults,
            json!({
                "language": null,
                "lastSite": null,
                "remote": { "network": false, "port": 8765, "readOnly": true },
                "autoFirstSync": true,
                "window": null,
            })
        );
        let changed =
            invoke_with(&window, "set_preferences", json!({ "update": { "language": "zh" } })).unwrap();
        assert_eq!(
            (changed["language"].clone(), changed["autoFirstSync"].clone()),
            (json!("zh"), json!(true))
        );
        let changed =
            invoke_with(&window, "set_preferences", json!({ "update": { "autoFirstSync": false } })).unwrap();
        assert_eq!(changed["language"], json!("zh"), "a field not given stays as it was");
        // Saved at once, one key per field.
        let file = preferences_file(dir.path());
        assert_eq!((file["language"].clone(), file["autoFirstSync"].clone()), (json!("zh"), json!(false)));
    }
    // The next start of the app reads them back.
    let (_app, window) = app(dir.path());
    let read = invoke(&window, "get_preferences").unwrap();
    assert_eq!((read["language"].clone(), read["autoFirstSync"].clone()), (json!("zh"), json!(false)));
    assert!(!dir.path().join("session.json").exists(), "the session is never in the preferences' place");
}

#[cfg(unix)]
#[test]
fn the_preferences_create_a_missing_data_folder_private_like_the_sessions() {
    use std::os::unix::fs::PermissionsExt as _;
    let parent = tempfile::tempdir().unwrap();
    let data_dir = parent.path().join("not-yet");
    let (_app, window) = app(&data_dir);
    invoke_with(&window, "set_preferences", json!({ "update": { "language": "en" } })).unwrap();
    let mode = std::fs::metadata(&data_dir).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700, "the data folder is private: {mode:o}");
    assert_eq!(preferences_file(&data_dir)["language"], json!("en"));
}

#[test]
fn set_preferences_refuses_a_language_the_window_does_not_speak_and_saves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (_app, window) = app(dir.path());
    let refused = invoke_with(&window, "set_preferences", json!({ "update": { "language": "fr" } }));
    let error = refused.expect_err("an unknown language is refused");
    assert!(error.to_string().contains("fr"), "the error names what was wrong: {error}");
    assert_eq!(invoke(&window, "get_preferences").unwrap()["language"], json!(null));
}

#[test]
fn a_damaged_preferences_file_does_not_stop_the_app_and_is_kept_aside() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(PREFERENCES_FILE), "{ \"language\": \"zh\", oops").unwrap();
    let (_app, window) = app(dir.path());
    let read = invoke(&window, "get_preferences").expect("the defaults, not an error");
    assert_eq!(read["language"], json!(null));
    assert_eq!(read["autoFirstSync"], json!(true));
    let kept = std::fs::read_to_string(dir.path().join("preferences.json.damaged")).expect("kept aside");
    assert!(kept.contains("oops"), "{kept}");
    assert_eq!(preferences_file(dir.path())["autoFirstSync"], json!(true), "rewritten with the defaults");
}

#[test]
fn hand_edited_invalid_fields_read_as_their_defaults_and_are_corrected_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let edited = json!({
        "language": "tlh",
        "lastSite": "cn",
        "remote": { "network": true, "port": 70000, "readOnly": false },
        "window": { "width": 1100, "height": 720, "maximized": false },
    });
    std::fs::write(dir.path().join(PREFERENCES_FILE), edited.to_string()).unwrap();
    let (_app, window) = app(dir.path());
    let read = invoke(&window, "get_preferences").unwrap();
    assert_eq!(read["language"], json!(null), "an unknown language: the system's");
    assert_eq!(read["lastSite"], json!("cn"), "the usable fields are kept");
    assert_eq!(read["remote"], json!({ "network": true, "port": 8765, "readOnly": false }));
    assert_eq!(read["window"], json!({ "width": 1100, "height": 720, "maximized": false }));
    let file = preferences_file(dir.path());
    assert_eq!((file["language"].clone(), file["remote"]["port"].clone()), (json!(null), json!(8765)));
}

#[test]
fn the_remote_access_panel_offers_the_choices_remembered_in_the_preferences() {
    let dir = tempfile::tempdir().unwrap();
    let remembered = json!({ "network": true, "port": 9123, "readOnly": false });
    std::fs::write(dir.path().join(PREFERENCES_FILE), json!({ "remote": remembered }).to_string()).unwrap();
    let (_app, window) = app(dir.path());
    let panel = invoke(&window, "remote_status").unwrap();
    assert_eq!(panel["running"], json!(false));
    assert_eq!(panel["settings"], remembered);
}
