//! Commands of sessions, sign-in, the demo account, pasted cookies and which window may call commands (`state`, `signin`, `models`, `lifecycle`).
//!
//! Run: `cargo test -p garmin-desktop --test commands session::`

use super::*;

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
        runtime.block_on(async { garmin::https::client().unwrap().get(url).send().await?.text().await })
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
