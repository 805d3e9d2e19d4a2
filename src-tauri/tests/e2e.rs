//! End-to-end: the real app under Xvfb, driven through tauri-driver and WebKitWebDriver with plain
//! W3C WebDriver HTTP calls. It signs in twice, the way a person would:
//!
//! 1. the demo account — the fake Garmin running inside the app — where the tool check runs the
//!    bundled `garmin-mcp` on the demo session and shows a row per read-only tool;
//! 2. "Garmin international", pointed by `GARMIN_CONNECT_URL` at a fake Garmin this test runs.
//!
//! WebDriver reaches only the app's first webview, so the sign-in window is not driven: both fakes'
//! sign-in pages fill themselves in and submit (`BrowserOptions::auto_sign_in`), while the app reads
//! the window's cookies and page exactly as it does with Garmin. After each sign-in the test checks
//! that the session file holds the HttpOnly cookies with mode 0600, in the right folder, and that
//! the home window shows the account. The signed-in window's navigation (Training, Workouts, AI
//! clients, Remote access, Account) is clicked as a person would before each step, opens on the
//! view shown last, and every view is screenshot. In the demo, the Training view first says nothing
//! is synced; after the sync it draws the demo's fitness chart (the MCP App's chart component) and
//! its newest activities, labelled as the demo's. In the demo, the Sync button fills the local history with a
//! progress bar and the history card shows what it holds; on "Garmin international" Garmin's
//! official API key is added: the key page opens, signed in, in a sign-in window (the fake's log
//! shows it served to a session), the key is pasted, checked with one exchange, saved 0600 and its
//! expiry shown. Then, in the AI clients panel, it clicks Configure for Claude
//! Code and Codex and reads their config files in the app's temporary HOME. Last, an AI assistant's
//! proposed workout (sent on the app's local channel as `garmin-mcp` sends it) is edited and
//! confirmed with "Create in Garmin", and the approved workout is made on the fake; a workout is made
//! by hand in the Workouts card, scheduled, and its schedule undone; and a sidecar's sign-in request
//! brings up the site picker with its reason (the site signed in to last highlighted) and is
//! answered by signing in. The app's preferences (`preferences.json`) start with the automatic
//! first sync off, hold the language chosen in the header, and take the first sync's box when it
//! is ticked again. Screenshots of every
//! step (and of the whole screen while the sign-in window is open) go to `target/e2e-screenshots/`
//! (or `$E2E_SCREENSHOTS`).
//!
//! Needs `Xvfb`, `WebKitWebDriver` (Debian `webkit2gtk-driver`) and `tauri-driver` (`.ci/setup`
//! installs them). Ignored by plain `cargo test`; `cargo xtask e2e` builds the UI and runs it.
//!
//! Run: `cargo xtask e2e`.

#![cfg(target_os = "linux")]

use std::io::{BufRead as _, BufReader};
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine as _;
use fake_garmin::{BrowserOptions, FakeConfig, FakeGarmin};
use serde_json::{Value, json};

/// How long the app may take to show something after an action (a cold WebKit start is slow).
const STEP_TIMEOUT: Duration = Duration::from_secs(60);
/// The whole run, cold start included.
const WHOLE_RUN_TIMEOUT: Duration = Duration::from_secs(300);
/// The sign-in windows' titles, as the UI sets them in English.
const DEMO_WINDOW_TITLE: &str = "Demo sign-in (fake Garmin, sample data)";
const GARMIN_WINDOW_TITLE: &str = "Sign in to Garmin international (connect.garmin.com)";
const KEY_WINDOW_TITLE: &str = "Garmin Personal API key";
/// A captured window smaller than this (as PNG) is still blank.
const BLANK_PNG_BYTES: u64 = 2 * 1024;
/// The fakes' account.
const FULL_NAME: &str = "Alex Example";
const DISPLAY_NAME: &str = "fake-athlete-1";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs Xvfb, WebKitWebDriver and tauri-driver: run `cargo xtask e2e`"]
async fn signing_in_through_the_sign_in_window_saves_the_httponly_session_and_shows_the_account() {
    // A stuck step must fail the test (and so stop every process it started), never hang CI.
    if tokio::time::timeout(WHOLE_RUN_TIMEOUT, run()).await.is_err() {
        panic!("the end-to-end run took longer than {} s", WHOLE_RUN_TIMEOUT.as_secs());
    }
}

async fn run() {
    for tool in ["Xvfb", "WebKitWebDriver", "tauri-driver"] {
        assert!(on_path(tool), "`{tool}` is not installed: run .ci/setup (see README, end-to-end test)");
    }
    let shots = Screenshots::new();
    let home = tempfile::tempdir().expect("temp folder");
    let data_dir = home.path().join("garmin-data");
    // The Sync button is tested by hand below: no automatic first sync after the first sign-ins,
    // set as a person's earlier run would have left it in the app's preferences.
    local_data::private_files::ensure_folder(&data_dir).expect("the data folder");
    let preferences_file = data_dir.join(garmin_desktop::preferences::PREFERENCES_FILE);
    std::fs::write(&preferences_file, r#"{ "autoFirstSync": false }"#).expect("preferences written");

    // "Garmin international" for this run: a fake Garmin whose sign-in page submits itself.
    let garmin = FakeGarmin::start(FakeConfig::default()).await.expect("fake Garmin starts");
    garmin.set_browser_options(BrowserOptions { secure_cookies: false, auto_sign_in: true });

    let display = tokio::task::block_in_place(Xvfb::start);
    step(&format!("Xvfb on display {}", display.name));
    let driver = tokio::task::block_in_place(|| {
        TauriDriver::start(&display.name, home.path(), &data_dir, &garmin.base_url())
    });
    step(&format!("tauri-driver at {}", driver.url));
    let app = env!("CARGO_BIN_EXE_garmin-desktop");
    let ui = WebDriver::new_session(&driver.url, app, &shots).await;
    step("the app is running under WebDriver");

    // First run: the site picker, in both languages.
    ui.wait_for("[data-testid=site-picker]", "the site picker on first run").await;
    ui.screenshot("01-site-picker").await;
    ui.choose_language("zh").await;
    let title = ui.text("[data-testid=site-picker] h2").await;
    assert!(title.contains("Garmin 账户"), "the picker did not switch to Chinese: {title}");
    wait_for_preference(&preferences_file, "language", &json!("zh")).await;
    ui.screenshot("02-site-picker-chinese").await;
    ui.choose_language("en").await;
    wait_for_preference(&preferences_file, "language", &json!("en")).await;
    assert_eq!(preference(&preferences_file, "autoFirstSync"), json!(false), "the file's choice is kept");

    // 1. The demo account.
    step("signing in to the demo account");
    ui.click("[data-testid=site-demo]").await;
    tokio::task::block_in_place(|| {
        capture_sign_in_window(&display.name, &shots, "03-demo-sign-in-window", DEMO_WINDOW_TITLE)
    });
    ui.wait_for("[data-testid=account-name]", "the home window after the demo sign-in").await;
    // The signed-in window opens on Training (nothing remembered yet): nothing synced, said plainly.
    ui.wait_for("[data-testid=nav-training][aria-current=page]", "the navigation on Training").await;
    ui.wait_for("[data-testid=training-empty]", "the Training view's empty state before a sync").await;
    assert!(
        ui.find("[data-testid=training-demo]").await.is_some(),
        "the demo's Training view says it is the demo's"
    );
    ui.screenshot("04a-training-demo-empty").await;
    ui.open_view("account").await;
    assert!(ui.text("[data-testid=account-name]").await.contains(FULL_NAME));
    ui.wait_for("[data-testid=demo-badge]", "the Demo badge on the demo account").await;
    assert!(ui.text("[data-testid=site-label]").await.contains("Demo"), "the site label says Demo");
    ui.screenshot("04-home-demo").await;
    let demo_file = data_dir.join(garmin_desktop::DEMO_FOLDER).join("session.json");
    assert_private_httponly_session(&demo_file);
    assert!(!data_dir.join("session.json").exists(), "the demo sign-in must not touch the real session");

    ui.click("[data-testid=check-now]").await;
    ui.wait_for("[data-testid=check-ok]", "\"Garmin accepted the session\" after Check now (demo)").await;
    ui.screenshot("05-home-demo-checked").await;

    // The tool check runs the bundled garmin-mcp on the demo account's session, in the app's fake.
    step("running the tool check on the demo account");
    ui.click("[data-testid=run-tool-check]").await;
    ui.wait_for("[data-testid=tool-check-table]", "the tool check's table (demo)").await;
    let outcome = |tool: &str| {
        format!("return document.querySelector('[data-testid=tool-row-{tool}]')?.dataset.outcome ?? null")
    };
    assert_eq!(ui.script(&outcome("get_profile")).await, "answered", "get_profile answers in the demo");
    assert_eq!(ui.script(&outcome("list_activities")).await, "answered", "list_activities answers");
    assert_eq!(ui.script(&outcome("create_workout")).await, Value::Null, "write tools are not called");
    ui.script("document.querySelector('[data-testid=tool-check]').scrollIntoView(); return null").await;
    ui.screenshot("05-home-demo-tool-check").await;

    // The Sync button: the demo's year of history in the background, with a progress bar; then
    // the Training view draws the synced fitness and activities.
    ui.open_view("training").await;
    sync_the_history(&ui, &data_dir.join(garmin_desktop::DEMO_FOLDER)).await;
    training_shows_the_synced_demo(&ui).await;
    screenshot_every_view(&ui, "demo").await;

    ui.open_view("account").await;
    wait_for_preference(&preferences_file, "homeView", &json!("account")).await;

    ui.click("[data-testid=sign-out]").await;
    ui.click("[data-testid=confirm-sign-out]").await;
    ui.wait_for("[data-testid=site-picker]", "the site picker after leaving the demo").await;
    assert!(!demo_file.exists(), "leaving the demo removes its session");

    // 2. "Garmin international" (the test's fake): the real account's store.
    step("signing in to \"Garmin international\" (the test's fake Garmin)");
    ui.click("[data-testid=site-global]").await;
    tokio::task::block_in_place(|| {
        capture_sign_in_window(&display.name, &shots, "06-garmin-sign-in-window", GARMIN_WINDOW_TITLE)
    });
    ui.wait_for("[data-testid=account-name]", "the home window after signing in to Garmin").await;
    // The window opens on the view shown last (Account, remembered in the preferences).
    ui.wait_for("[data-testid=nav-account][aria-current=page]", "the view shown last").await;
    assert!(ui.text("[data-testid=account-name]").await.contains(FULL_NAME));
    assert!(ui.find("[data-testid=demo-badge]").await.is_none(), "no Demo badge on a real account");
    ui.screenshot("07-home-garmin").await;
    let session = assert_private_httponly_session(&data_dir.join("session.json"));
    assert_eq!(session["origins"]["connect"], garmin.base_url().as_str());
    // The fake lets a session in only with the User-Agent it signed in with: a 200 proves the app
    // kept the sign-in window's own.
    let checked = garmin.requests().into_iter().any(|r| {
        r.path == "/gc-api/userprofile-service/socialProfile"
            && r.status == 200
            && r.user_agent.as_deref() == session["user_agent"].as_str()
    });
    assert!(checked, "the app checked the session with Garmin using the sign-in window's User-Agent");

    // 2b. Garmin's official API key: the key page in the signed-in sign-in window, the key pasted.
    add_a_personal_api_key(&ui, &data_dir, &garmin, &display.name, &shots).await;

    // 3. One click per AI client, in the app's temporary HOME.
    ui.open_view("clients").await;
    configure_two_clients(&ui, home.path(), &data_dir).await;

    // 3b. Remote access for a hosted assistant: approved with a click in the panel, then revoked.
    ui.open_view("remote").await;
    remote_access_for_a_hosted_assistant(&ui).await;

    // 4. A workout an AI assistant proposes, confirmed in the window and then made on the fake.
    confirm_a_proposed_workout(&ui, &data_dir, &garmin).await;

    // 5. A workout made by hand in the Workouts view, scheduled, then the schedule undone.
    ui.open_view("workouts").await;
    make_a_workout_by_hand(&ui, &data_dir).await;

    // 6. An AI assistant that found no usable session asks the app for a sign-in; with the
    // automatic first sync back on, the history starts filling by itself after that sign-in.
    ui.open_view("training").await;
    ui.click("[data-testid=auto-sync]").await;
    wait_for_preference(&preferences_file, "autoFirstSync", &json!(true)).await;
    assert!(!data_dir.join("history.sqlite3").exists(), "no history yet for the Garmin account");
    sign_in_on_request(&ui, &data_dir, &display.name, &shots).await;
    first_sync_starts_by_itself(&ui, &data_dir).await;

    ui.end().await;
    step("done");
}

/// A PKCE verifier and its S256 challenge (BASE64URL(SHA-256(verifier)), computed once).
const PKCE_VERIFIER: &str = "dBjftJeZ4CVP-mJ92K27uhbUJU1p1r_wW1gFWFOEjXk";
const PKCE_CHALLENGE: &str = "ngF5GsXcbwljx6u133FFr3Xht9xooA_DuaX_3QwODtc";

/// Turns remote access on with a public URL (loopback, as a tunnel's stand-in), checks the panel
/// shows the connector URL, its QR code and a pairing code; then a hosted assistant registers and
/// opens the approval page (as the phone's browser would), the panel lists it, Allow is clicked,
/// the page's form goes on and the assistant gets tokens that work at `/mcp`; Revoke in the panel
/// ends them at once, and Stop ends remote access.
async fn remote_access_for_a_hosted_assistant(ui: &WebDriver<'_>) {
    step("remote access: a hosted assistant approved with a click, then revoked");
    let port = free_port();
    let public = format!("http://127.0.0.1:{port}");
    ui.click("[data-testid=open-remote]").await;
    ui.wait_for("[data-testid=remote-public-url]", "the remote-access choices").await;
    ui.script(&format!(
        "const set = (css, value) => {{ const i = document.querySelector(css); i.value = value; \
           i.dispatchEvent(new Event('input', {{ bubbles: true }})); }}; \
         set('[data-testid=remote-port]', '{port}'); set('[data-testid=remote-public-url]', '{public}'); \
         document.querySelector('[data-testid=remote-access]').scrollIntoView(); return null"
    ))
    .await;
    ui.click("[data-testid=start-remote]").await;
    ui.wait_for("[data-testid=remote-pairing-code]", "the pairing code once remote access runs").await;
    let code = ui.text("[data-testid=remote-pairing-code]").await;
    assert_eq!(code.chars().filter(char::is_ascii_digit).count(), 6, "{code}");
    let connector = ui.script("return document.querySelector('[data-testid=remote-connector]').value").await;
    assert_eq!(connector, json!(format!("{public}/mcp")));
    ui.wait_for("[data-testid=remote-qr] svg", "the connector URL's QR code").await;
    ui.screenshot("11a-remote-on").await;

    // The hosted assistant registers and the phone's browser opens the approval page.
    let http = garmin::https::client_builder()
        .unwrap()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    let redirect = "http://127.0.0.1:43117/callback";
    let registered: Value = http
        .post(format!("{public}/register"))
        .json(&json!({"client_name": "E2E Assistant", "redirect_uris": [redirect]}))
        .send()
        .await
        .expect("register")
        .json()
        .await
        .expect("registration JSON");
    let client_id = registered["client_id"].as_str().expect("client_id").to_owned();
    let query: String = url_query(&[
        ("response_type", "code"),
        ("client_id", &client_id),
        ("redirect_uri", redirect),
        ("state", "e2e"),
        ("code_challenge", PKCE_CHALLENGE),
        ("code_challenge_method", "S256"),
        ("resource", &format!("{public}/mcp")),
    ]);
    let page = http.get(format!("{public}/authorize?{query}")).send().await.expect("approval page");
    assert_eq!(page.status(), 200);
    let cookie =
        page.headers()["set-cookie"].to_str().expect("cookie").split(';').next().unwrap_or("").to_owned();
    let html = page.text().await.expect("page");
    let hidden = |name: &str| {
        let marker = format!("name=\"{name}\" value=\"");
        let start = html.find(&marker).map(|i| i + marker.len()).expect("hidden field");
        html[start..].split('"').next().unwrap_or("").to_owned()
    };
    let (request, csrf) = (hidden("request"), hidden("csrf"));

    // The panel lists it; the owner clicks Allow.
    ui.wait_for("[data-testid=remote-allow]", "the waiting assistant in the panel").await;
    assert!(ui.text("[data-testid=remote-pending]").await.contains("E2E Assistant"));
    ui.script("document.querySelector('[data-testid=remote-pending]').scrollIntoView(); return null").await;
    ui.screenshot("11b-remote-pending").await;
    ui.click("[data-testid=remote-allow]").await;
    // The page learns of the decision as its script does: from `/authorize/status`.
    let deadline = Instant::now() + STEP_TIMEOUT;
    loop {
        let status: Value = http
            .get(format!("{public}/authorize/status?request={request}"))
            .header("cookie", &cookie)
            .send()
            .await
            .expect("status")
            .json()
            .await
            .unwrap_or(Value::Null);
        if status["decided"] == json!(true) {
            break;
        }
        assert!(Instant::now() < deadline, "the click on Allow did not reach the server");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    // The page's form goes on (its script does so once the app decided): the code comes back.
    let answer = http
        .post(format!("{public}/authorize"))
        .header("cookie", &cookie)
        .form_encoded(&[("request", request.as_str()), ("csrf", csrf.as_str())])
        .send()
        .await
        .expect("the approval form");
    assert_eq!(answer.status(), 303, "approved in the app, the page redirects with a code");
    let location = url::Url::parse(answer.headers()["location"].to_str().expect("location")).expect("a URL");
    let code =
        location.query_pairs().find(|(k, _)| k == "code").map(|(_, v)| v.into_owned()).expect("a code");
    let tokens: Value = http
        .post(format!("{public}/token"))
        .form_encoded(&[
            ("grant_type", "authorization_code"),
            ("code", code.as_str()),
            ("redirect_uri", redirect),
            ("code_verifier", PKCE_VERIFIER),
            ("client_id", client_id.as_str()),
        ])
        .send()
        .await
        .expect("token")
        .json()
        .await
        .expect("token JSON");
    let access =
        tokens["access_token"].as_str().unwrap_or_else(|| panic!("no access token: {tokens}")).to_owned();
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "e2e", "version": "1"}}});
    let mcp = |token: String| {
        http.post(format!("{public}/mcp"))
            .bearer_auth(token)
            .header("accept", "application/json, text/event-stream")
            .json(&initialize)
            .send()
    };
    assert_eq!(mcp(access.clone()).await.expect("mcp").status(), 200, "the approved assistant gets in");
    ui.wait_for("[data-testid=remote-revoke]", "the approved assistant with its Revoke button").await;
    assert!(ui.text("[data-testid=remote-client]").await.contains("E2E Assistant"));
    ui.script("document.querySelector('[data-testid=remote-client]').scrollIntoView(); return null").await;
    ui.screenshot("11c-remote-approved").await;

    // Revoke in the panel: the token stops working at once.
    ui.click("[data-testid=remote-revoke]").await;
    ui.wait_for("[data-testid=remote-no-clients]", "no approved assistant after Revoke").await;
    assert_eq!(mcp(access).await.expect("mcp").status(), 401, "revoked in the app, refused at once");
    ui.screenshot("11d-remote-revoked").await;
    ui.click("[data-testid=stop-remote]").await;
    ui.wait_for("[data-testid=start-remote]", "remote access off again").await;
    ui.click("[data-testid=open-remote]").await;
}

/// `application/x-www-form-urlencoded` bodies (reqwest's `form` feature is not enabled here).
trait FormEncoded {
    fn form_encoded(self, pairs: &[(&str, &str)]) -> Self;
}

impl FormEncoded for reqwest::RequestBuilder {
    fn form_encoded(self, pairs: &[(&str, &str)]) -> Self {
        let mut body = url::form_urlencoded::Serializer::new(String::new());
        for (name, value) in pairs {
            body.append_pair(name, value);
        }
        self.header("content-type", "application/x-www-form-urlencoded").body(body.finish())
    }
}

fn url_query(pairs: &[(&str, &str)]) -> String {
    let mut query = url::form_urlencoded::Serializer::new(String::new());
    for (k, v) in pairs {
        query.append_pair(k, v);
    }
    query.finish()
}

/// Opens the AI clients panel, clicks Configure for Claude Code and Codex, and checks that both
/// files in the temporary `home` start the bundled sidecar with `--data-dir` the real data folder.
async fn configure_two_clients(ui: &WebDriver<'_>, home: &Path, data_dir: &Path) {
    step("configuring Claude Code and Codex in the AI clients panel");
    ui.click("[data-testid=open-clients]").await;
    ui.wait_for("[data-testid=client-codex]", "the AI clients panel's rows").await;
    if ui.find("[data-testid=sidecar-missing]").await.is_some() {
        let shown = ui.text("[data-testid=sidecar-missing]").await;
        panic!("the app found no garmin-mcp to configure (build it: `cargo build -p garmin-mcp`):\n{shown}");
    }
    for id in ["claude-code", "codex"] {
        ui.click(&format!("[data-testid=configure-{id}]")).await;
        let done = format!("[data-testid=result-{id}][data-outcome=created]");
        ui.wait_for(&done, &format!("\"Configured\" for {id}")).await;
        ui.wait_for(&format!("[data-testid=client-{id}][data-configured=yes]"), "the row shows ✅").await;
    }
    // Claude Desktop (a bundle) and the hosts with an install link get "Add to …" (not clicked here:
    // it would start the host).
    for host in ["claude-desktop", "vscode", "cursor", "goose", "lmstudio"] {
        ui.wait_for(&format!("[data-testid=install-link-{host}]"), &format!("\"Add to\" for {host}")).await;
    }
    ui.click("[data-testid=show-snippet-codex]").await;
    ui.wait_for("[data-testid=snippet-codex]", "the setup text for Codex").await;
    ui.script("document.querySelector('[data-testid=clients]').scrollIntoView()").await;
    ui.screenshot("08-ai-clients").await;
    ui.script("document.querySelector('[data-testid=client-codex]').scrollIntoView()").await;
    ui.screenshot("09-ai-clients-codex-setup-text").await;

    let data_dir = data_dir.display().to_string();
    let claude_file = home.join(".claude.json");
    let claude = std::fs::read_to_string(&claude_file)
        .unwrap_or_else(|e| panic!("Configure wrote no {}: {e}", claude_file.display()));
    let claude: Value = serde_json::from_str(&claude).expect("~/.claude.json is JSON");
    let entry = &claude["mcpServers"]["garmin"];
    assert_eq!(entry["args"], json!(["--data-dir", data_dir]), "{claude}");
    let command = entry["command"].as_str().unwrap_or_default();
    assert!(Path::new(command).is_absolute() && Path::new(command).is_file(), "runs the sidecar: {command}");
    assert!(command.contains("garmin-mcp"), "{command}");

    let codex_file = home.join(".codex/config.toml");
    let codex = std::fs::read_to_string(&codex_file)
        .unwrap_or_else(|e| panic!("Configure wrote no {}: {e}", codex_file.display()));
    assert!(codex.contains("[mcp_servers.garmin]"), "{codex}");
    assert!(codex.contains(&format!("command = \"{command}\"")), "the same sidecar: {codex}");
    assert!(codex.contains(&format!("args = [\"--data-dir\", \"{data_dir}\"]")), "{codex}");
}

/// Sends a `create_workout` proposal to the running app as a `garmin-mcp` sidecar does (a real
/// `AppLink` on the data folder), edits it in the confirmation view (4 → 5 repeats, totals
/// recomputed by the app), clicks "Create in Garmin", and checks the approved workout is the edited
/// one. Then applies it as the sidecar does and reads it back from the fake Garmin.
async fn confirm_a_proposed_workout(ui: &WebDriver<'_>, data_dir: &Path, garmin: &FakeGarmin) {
    use garmin::changes::Change;
    use garmin::workout_spec::{parse_spec, preview};

    step("confirming a workout an AI assistant proposed");
    let spec = json!({"name": "800m x4", "sport": "run", "steps": [
        {"type": "warmup", "duration_min": 10},
        {"type": "repeat", "times": 4, "steps": [
            {"type": "interval", "distance_m": 800, "pace": "5:00"},
            {"type": "recovery", "duration_min": 2}]},
        {"type": "cooldown", "duration_min": 10}]});
    let parsed = parse_spec(&spec).expect("valid spec");
    let workout = parsed.to_garmin();
    let change = Change::CreateWorkout { workout: Box::new(workout.clone()) };
    let proposal = app_bridge::Proposal {
        title: change.describe(),
        preview: preview(&workout).text,
        change,
        spec: Some(spec),
        requested_by: Some("e2e-assistant".into()),
        demo: false,
    };
    let link = app_bridge::AppLink::in_dir(data_dir);
    assert!(link.is_running().await, "the app listens for AI assistants in {}", data_dir.display());
    let asked = tokio::spawn(async move {
        link.ask(&app_bridge::Request::Confirm(proposal), Duration::from_secs(120)).await
    });

    ui.wait_for("[data-testid=confirm-change]", "the confirmation view for the proposed workout").await;
    ui.wait_for("[data-testid=confirm-preview]", "the workout's totals from the app").await;
    assert!(ui.text("[data-testid=confirm-change] h2").await.contains("800m x4"));
    let steps = ui.script("return document.querySelectorAll('[data-testid=workout-step]').length").await;
    assert_eq!(steps, json!(5), "3 steps, 2 of them inside the repeat");
    // Five repeats instead of four, typed as a person would (input event).
    ui.script(
        "const i = document.querySelector('[data-testid=repeat-times]'); i.value = '5'; \
         i.dispatchEvent(new Event('input', { bubbles: true }));",
    )
    .await;
    let deadline = Instant::now() + STEP_TIMEOUT;
    while !ui.text("[data-testid=confirm-preview]").await.contains("Repeat 5×") {
        assert!(Instant::now() < deadline, "the totals were not recomputed after the edit");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    ui.script("document.querySelector('[data-testid=confirm-change]').scrollIntoView()").await;
    ui.screenshot("10-confirm-workout").await;
    ui.click("[data-testid=confirm-create]").await;

    let reply = asked.await.expect("the sidecar side ran").expect("the app answered");
    let app_bridge::Reply::Approved { change, schedule_on, send_to_device, .. } = reply else {
        panic!("\"Create in Garmin\" must approve, the app answered {reply:?}");
    };
    let mut edited = serde_json::to_value(&parsed).expect("canonical spec");
    edited["steps"][1]["times"] = json!(5);
    let expected = parse_spec(&edited).expect("edited spec").to_garmin();
    assert_eq!(change, Change::CreateWorkout { workout: Box::new(expected) }, "the edited workout");
    assert_eq!((schedule_on, send_to_device), (None, false));
    let deadline = Instant::now() + STEP_TIMEOUT;
    while ui.find("[data-testid=confirm-change]").await.is_some() {
        assert!(Instant::now() < deadline, "the confirmation view stayed after the answer");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    ui.wait_for("[data-testid=account-name]", "the home window again after confirming").await;

    // What the sidecar does with the approval: apply it with the saved session.
    let client = garmin::Client::from_store(garmin::SessionStore::new(data_dir)).expect("the saved session");
    let applied = change.apply(&client).await.expect("the fake Garmin creates the workout");
    let id = applied.ids.get("workout_id").copied().expect("a workout id");
    let stored = client.workouts().get(id).await.expect("the fake has the workout");
    assert_eq!(stored.workout_name.as_deref(), Some("800m x4"));
    assert!(
        garmin.requests().iter().any(|r| r.method == "POST" && r.path.ends_with("/workout-service/workout"))
    );
}

/// Opens "New workout" in the home window, renames the run template, schedules it on a date with
/// "Schedule on…", and checks the fake Garmin has the workout and the calendar entry and the
/// journal records both as the app's. Then Undo (asked twice) on the newest change takes the
/// calendar entry off Garmin again.
async fn make_a_workout_by_hand(ui: &WebDriver<'_>, data_dir: &Path) {
    use garmin::journal::Journal;

    step("making a workout by hand in the home window");
    ui.click("[data-testid=new-workout]").await;
    ui.wait_for("[data-testid=workouts] [data-testid=confirm-preview]", "the new workout's totals").await;
    ui.script(
        "const set = (css, value) => { const i = document.querySelector(css); i.value = value; \
           i.dispatchEvent(new Event('input', { bubbles: true })); }; \
         set('[data-testid=workouts] [data-testid=workout-name]', 'Tempo by hand'); \
         set('[data-testid=new-workout-date]', '2026-12-05'); \
         document.querySelector('[data-testid=workouts]').scrollIntoView(); return null",
    )
    .await;
    ui.screenshot("10a-new-workout").await;
    // Every sport's button fits the window: a row wider than the window once pushed the page
    // sideways and WebKit's click on Schedule landed beside the button.
    let overflow = ui.script("return document.documentElement.scrollWidth - window.innerWidth").await;
    assert!(overflow.as_i64().is_some_and(|px| px <= 0), "the home window scrolls sideways by {overflow} px");
    ui.click("[data-testid=new-workout-schedule]").await;
    ui.wait_for("[data-testid=workouts-done]", "what the app did after Schedule").await;
    assert!(ui.text("[data-testid=workouts-done]").await.contains("Tempo by hand"));

    let journal = Journal::in_dir(data_dir);
    let made: Vec<_> = journal.entries().expect("the journal").into_iter().rev().take(2).collect();
    let tools: Vec<&str> = made.iter().map(|e| e.tool.as_str()).collect();
    assert_eq!(tools, ["app: schedule_workout", "app: create_workout"], "journaled as the app's");
    let (workout_id, schedule_id) = (made[1].ids["workout_id"], made[0].ids["schedule_id"]);
    let client = garmin::Client::from_store(garmin::SessionStore::new(data_dir)).expect("the saved session");
    let stored = client.workouts().get(workout_id).await.expect("the fake has the workout");
    assert_eq!(stored.workout_name.as_deref(), Some("Tempo by hand"));
    let entry = client.workouts().get_schedule(schedule_id).await.expect("the fake has the calendar entry");
    assert_eq!(entry.calendar_date, chrono::NaiveDate::from_ymd_opt(2026, 12, 5));

    ui.wait_for("[data-testid=change-row] [data-testid=undo]", "Undo next to the newest change").await;
    ui.click("[data-testid=change-row] [data-testid=undo]").await;
    ui.click("[data-testid=undo-yes]").await;
    let deadline = Instant::now() + STEP_TIMEOUT;
    while !journal.entries().expect("the journal").iter().any(|e| e.undoes == Some(made[0].id)) {
        assert!(Instant::now() < deadline, "Undo did not reach the journal");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(client.workouts().get_schedule(schedule_id).await.is_err(), "the calendar entry is gone");
    ui.wait_for("[data-testid=recent-changes]", "the recent changes").await;
    ui.script("document.querySelector('[data-testid=recent-changes]').scrollIntoView(); return null").await;
    ui.screenshot("10b-recent-changes").await;
}

/// Asks the running app for a sign-in as a `garmin-mcp` sidecar without a usable session does,
/// checks the site picker shows the reason, signs in to "Garmin international" (the test's fake),
/// and checks the sidecar's end is told who signed in.
async fn sign_in_on_request(ui: &WebDriver<'_>, data_dir: &Path, display: &str, shots: &Screenshots) {
    step("signing in because an AI assistant asked");
    let reason = "e2e-assistant needs your Garmin data for `get_sleep`: sign in to continue.";
    let link = app_bridge::AppLink::in_dir(data_dir);
    let request = app_bridge::Request::SignIn { reason: reason.into() };
    let asked = tokio::spawn(async move { link.ask(&request, Duration::from_secs(120)).await });
    ui.wait_for("[data-testid=sign-in-request]", "the sign-in request above the site picker").await;
    assert!(ui.text("[data-testid=sign-in-request]").await.contains(reason));
    ui.screenshot("11-sign-in-requested").await;
    let highlighted = ui.script("return document.querySelector('[data-testid=site-last]')?.closest('button')?.dataset.testid ?? null").await;
    assert_eq!(highlighted, json!("site-global"), "the picker highlights the site signed in to last");
    ui.click("[data-testid=site-global]").await;
    tokio::task::block_in_place(|| {
        capture_sign_in_window(display, shots, "12-requested-sign-in-window", GARMIN_WINDOW_TITLE)
    });
    let reply = asked.await.expect("the sidecar side ran").expect("the app answered");
    assert_eq!(reply, app_bridge::Reply::SignedIn { display_name: Some(DISPLAY_NAME.into()) });
    ui.wait_for("[data-testid=account-name]", "the home window after the requested sign-in").await;
    assert!(ui.find("[data-testid=sign-in-request]").await.is_none(), "the request is answered");
}

/// The field `key` of the app's preferences file (`null` when missing or unreadable).
fn preference(file: &Path, key: &str) -> Value {
    let text = std::fs::read_to_string(file).unwrap_or_default();
    serde_json::from_str::<Value>(&text).unwrap_or_default().get(key).cloned().unwrap_or_default()
}

/// Waits until the app's preferences file holds `expected` for `key` (the UI saves through a command).
async fn wait_for_preference(file: &Path, key: &str, expected: &Value) {
    let deadline = Instant::now() + STEP_TIMEOUT;
    while &preference(file, key) != expected {
        assert!(
            Instant::now() < deadline,
            "{} never held {key} = {expected}; it holds: {}",
            file.display(),
            std::fs::read_to_string(file).unwrap_or_default()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// After the demo's sync, the Training view shows the demo's data, labelled as the demo's: the
/// shared fitness chart with its three lines drawn over 90 days and the convention named, and the
/// ten newest activities, newest first.
async fn training_shows_the_synced_demo(ui: &WebDriver<'_>) {
    step("the Training view shows the synced demo data");
    for series in ["ctl", "atl", "tsb"] {
        let css = format!("[data-testid=training-chart] path[data-series={series}]");
        ui.wait_for(&css, &format!("the fitness chart's {series} line after the sync")).await;
    }
    let points = ui
        .script("return [...document.querySelectorAll('[data-testid=training-chart] path[data-series]')].map(p => Number(p.dataset.points))")
        .await;
    assert_eq!(points, json!([90, 90, 90]), "each line has a point per day of the 90 shown");
    let note = ui.text("[data-testid=training-chart] [data-convention]").await;
    assert!(note.contains("CTL") && note.contains("TSB"), "the chart names its convention: {note}");
    assert!(ui.text("[data-testid=training-demo]").await.contains("Demo data"), "the demo is labelled");
    let days = ui
        .script("return [...document.querySelectorAll('[data-testid=recent-activity]')].map(r => r.dataset.activityId)")
        .await;
    assert_eq!(days.as_array().map(Vec::len), Some(10), "the ten newest activities: {days}");
    assert!(ui.find("[data-testid=training-empty]").await.is_none(), "no empty state once synced");
    // The chart's hover readout works in the app as in the MCP App view.
    ui.script(
        "const svg = document.querySelector('[data-testid=training-chart] svg[data-panel]');          const box = svg.getBoundingClientRect();          svg.dispatchEvent(new MouseEvent('mousemove', { bubbles: true, clientX: box.right - 20, clientY: box.top + box.height / 2 }));          return null",
    )
    .await;
    let tip = ui.text("[data-testid=training-chart] .tip").await;
    assert!(tip.contains("Fitness (CTL)"), "hovering the chart reads its values: {tip}");
    ui.screenshot("05c-training-demo").await;
}

/// A screenshot of every view of the signed-in window, reached through the navigation.
async fn screenshot_every_view(ui: &WebDriver<'_>, account: &str) {
    for view in ["training", "workouts", "clients", "remote", "account"] {
        ui.open_view(view).await;
        ui.script("window.scrollTo(0, 0); return null").await;
        ui.screenshot(&format!("05d-view-{view}-{account}")).await;
    }
}

/// Right after a sign-in, with the automatic first sync left on (the default), the history card
/// shows a sync running or done without any click, and the history file appears in `data_dir`.
async fn first_sync_starts_by_itself(ui: &WebDriver<'_>, data_dir: &Path) {
    step("the first sync starts by itself after the sign-in");
    let started = "[data-testid=sync-progress], [data-testid=sync-done]";
    ui.wait_for(started, "a sync running or done without a click on Sync").await;
    ui.script("document.querySelector('[data-testid=history]').scrollIntoView(); return null").await;
    ui.screenshot("13-first-sync-by-itself").await;
    assert!(data_dir.join("history.sqlite3").exists(), "the automatic sync writes the account's history");
}

/// Clicks Sync on the home window, checks a progress bar showed while it ran (a DOM observer set
/// up before the click records it: against the in-app fake a year takes seconds) and that the
/// history card then shows what the history holds; the file is private in `data_dir`.
async fn sync_the_history(ui: &WebDriver<'_>, data_dir: &Path) {
    use std::os::unix::fs::PermissionsExt as _;
    step("syncing the history with the Sync button");
    ui.wait_for("[data-testid=history-empty]", "the history card before the first sync").await;
    ui.script(
        "window.__syncProgress = []; \
         new MutationObserver(() => { const p = document.querySelector('[data-testid=sync-progress]'); \
           if (p) window.__syncProgress.push(Number(p.value)); }) \
           .observe(document.body, { subtree: true, childList: true, attributes: true }); \
         document.querySelector('[data-testid=history]').scrollIntoView(); return null",
    )
    .await;
    ui.click("[data-testid=sync-now]").await;
    ui.wait_for("[data-testid=history-summary]", "the history summary after the sync").await;
    ui.wait_for("[data-testid=sync-done]", "\"Synced\" after the sync").await;
    let seen = ui.script("return window.__syncProgress").await;
    let seen: Vec<f64> =
        seen.as_array().map(|v| v.iter().filter_map(Value::as_f64).collect()).unwrap_or_default();
    assert!(!seen.is_empty(), "the progress bar showed while the sync ran");
    assert!(seen.iter().any(|v| *v > 0.0), "the progress bar moved: {seen:?}");
    let counts = ui.text("[data-testid=history-counts]").await;
    assert!(counts.contains("activities") && !counts.starts_with("0 "), "{counts}");
    ui.screenshot("05b-history-synced").await;
    let file = data_dir.join("history.sqlite3");
    let mode = std::fs::metadata(&file).expect("the history file").permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "{} is private", file.display());
}

/// Adds Garmin's official API key on the home window: the key page opens, signed in, in a sign-in
/// window (the fake's log shows the page served to a session); the key the person makes there
/// (minted on the fake: WebDriver does not reach that window) is pasted with its lifetime, checked
/// with one token exchange, saved 0600 in the session file, and its expiry shown.
async fn add_a_personal_api_key(
    ui: &WebDriver<'_>,
    data_dir: &Path,
    garmin: &FakeGarmin,
    display: &str,
    shots: &Screenshots,
) {
    use std::os::unix::fs::PermissionsExt as _;
    step("adding Garmin's official API key");
    ui.script("document.querySelector('[data-testid=personal-key]').scrollIntoView(); return null").await;
    ui.click("[data-testid=add-personal-key]").await;
    let key_page = fake_garmin::key_page::KEY_PAGE_PATH;
    let deadline = Instant::now() + STEP_TIMEOUT;
    while !garmin.requests().iter().any(|r| r.path == key_page && r.status == 200) {
        assert!(Instant::now() < deadline, "the key page was not served signed in to the sign-in window");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    tokio::task::block_in_place(|| {
        capture_sign_in_window(display, shots, "07b-key-page-window", KEY_WINDOW_TITLE)
    });
    let minted = garmin.mint_personal_api_key(Duration::from_secs(30 * 24 * 3600));
    ui.wait_for("[data-testid=personal-key-form]", "the form to paste the key").await;
    ui.script(&format!(
        "const i = document.querySelector('[data-testid=personal-key-input]'); i.value = '{}'; \
         i.dispatchEvent(new Event('input', {{ bubbles: true }})); \
         const d = document.querySelector('[data-testid=personal-key-days]'); d.value = '30'; \
         d.dispatchEvent(new Event('change', {{ bubbles: true }})); return null",
        minted.key
    ))
    .await;
    ui.screenshot("07c-key-pasted").await;
    ui.click("[data-testid=personal-key-save]").await;
    ui.wait_for("[data-testid=personal-key-ok]", "\"Garmin accepted the key\"").await;
    let expiry = ui.text("[data-testid=personal-key-expiry]").await;
    assert!(expiry.contains("days left"), "the expiry is shown: {expiry}");
    ui.screenshot("07d-key-saved").await;
    let file = data_dir.join("session.json");
    assert_eq!(std::fs::metadata(&file).expect("session file").permissions().mode() & 0o777, 0o600);
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(&file).expect("readable")).expect("JSON");
    assert_eq!(saved["personal_api"]["key"], minted.key.as_str(), "the key is in the session file");
    assert!(saved["personal_api"]["key_expires_at"].is_string(), "with its expiry");
    assert_eq!(garmin.personal_api_exchanges().values().sum::<u32>(), 1, "checked with one exchange");
}

fn step(what: &str) {
    eprintln!("e2e: {what}");
}

/// Asserts `path` is a 0600 session file holding the HttpOnly `session` and `JWT_WEB` cookies of the
/// fake's account, captured with a WebKit User-Agent; returns its JSON.
fn assert_private_httponly_session(path: &Path) -> Value {
    use std::os::unix::fs::PermissionsExt as _;
    let meta =
        std::fs::metadata(path).unwrap_or_else(|e| panic!("no session file at {}: {e}", path.display()));
    assert_eq!(meta.permissions().mode() & 0o777, 0o600, "{} must be private (0600)", path.display());
    let text = std::fs::read_to_string(path).expect("session file readable");
    let session: Value = serde_json::from_str(&text).expect("session file is JSON");
    for name in ["session", "JWT_WEB"] {
        let cookie = session["cookies"]
            .as_array()
            .and_then(|cookies| cookies.iter().find(|c| c["name"] == name))
            .unwrap_or_else(|| panic!("{} has no {name} cookie", path.display()));
        assert_eq!(cookie["http_only"], true, "{name} must be stored as the HttpOnly cookie it is");
        assert!(cookie["value"].as_str().is_some_and(|v| !v.is_empty()), "{name} has a value");
    }
    assert_eq!(session["display_name"], DISPLAY_NAME);
    let ua = session["user_agent"].as_str().unwrap_or_default();
    assert!(ua.contains("AppleWebKit"), "the User-Agent is the sign-in window's, not a default: {ua}");
    assert!(session["csrf_token"].as_str().is_some_and(|t| !t.is_empty()), "the CSRF token was read");
    session
}

/// A capture of the sign-in window while it shows the fake's page (which submits itself two
/// seconds after loading): found by its title with `xwininfo`, captured with ImageMagick's `import`.
/// Best effort, never a failure: without the tools, or if the window is not found in time, the
/// whole screen is captured (or nothing). Every call is bounded by `timeout`: `import` waits for a
/// mouse click when it cannot resolve a window.
fn capture_sign_in_window(display: &str, shots: &Screenshots, name: &str, title: &str) {
    if !on_path("import") {
        eprintln!("e2e: no ImageMagick `import`: no screenshot of the sign-in window");
        return;
    }
    let bounded = |program: &str, args: &[&str]| {
        Command::new("timeout")
            .arg("10")
            .arg(program)
            .args(args)
            .env("DISPLAY", display)
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
            .ok()
            .filter(|out| out.status.success())
    };
    let window_id = || {
        let out = bounded("xwininfo", &["-name", title])?;
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let id = text.split("Window id: ").nth(1)?.split_whitespace().next()?.to_owned();
        Some(id)
    };
    let path = shots.path(name);
    let attempt = path.with_extension("attempt.png");
    let attempt_arg = attempt.to_string_lossy().into_owned();
    let deadline = Instant::now() + Duration::from_secs(6);
    let mut window = None;
    while window.is_none() && on_path("xwininfo") && Instant::now() < deadline {
        window = window_id();
        std::thread::sleep(Duration::from_millis(100));
    }
    // Capture until the page has rendered (a blank window compresses to a tiny PNG) or it closes.
    let mut rendered = false;
    while let Some(id) = window.as_deref()
        && !rendered
        && Instant::now() < deadline
        && bounded("import", &["-window", id, &attempt_arg]).is_some()
    {
        rendered = std::fs::metadata(&attempt).is_ok_and(|m| m.len() > BLANK_PNG_BYTES);
        std::thread::sleep(Duration::from_millis(100));
    }
    let saved = if rendered {
        std::fs::rename(&attempt, &path).is_ok()
    } else {
        let _ = std::fs::remove_file(&attempt);
        bounded("import", &["-window", "root", &path.to_string_lossy()]).is_some()
    };
    if saved {
        eprintln!("e2e: screenshot {}{}", path.display(), if rendered { "" } else { " (whole screen)" });
    }
}

fn on_path(tool: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(tool).is_file()))
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port()
}

/// Where screenshots go.
struct Screenshots(PathBuf);

impl Screenshots {
    fn new() -> Self {
        let dir = std::env::var_os("E2E_SCREENSHOTS").map_or_else(
            || Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/e2e-screenshots"),
            PathBuf::from,
        );
        std::fs::create_dir_all(&dir).expect("screenshot folder");
        Screenshots(dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(format!("{name}.png"))
    }
}

/// A child process in its own process group; dropping it ends every process of that group (the
/// driver's WebKitWebDriver and the app with it): SIGTERM, then SIGKILL for what lingers.
///
/// Signals go to single, positive pids found in `/proc`, never to `-pgid`: procps-ng 4.0.2's
/// `kill -TERM -<pgid>` (Debian 12) did not stay within the group.
struct Group {
    child: Child,
    name: &'static str,
}

impl Group {
    fn spawn(name: &'static str, command: &mut Command) -> Group {
        let child = command
            .process_group(0)
            .spawn()
            .unwrap_or_else(|e| panic!("could not start {name}: {e}; run .ci/setup"));
        Group { child, name }
    }

    /// Live members of this group (its leader's pid is the group id), from `/proc/<pid>/stat`.
    fn members(&self) -> Vec<u32> {
        let group = self.child.id();
        let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
        entries
            .filter_map(|entry| {
                let pid: u32 = entry.ok()?.file_name().to_str()?.parse().ok()?;
                let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
                // "pid (comm) state ppid pgrp …"; comm may hold spaces and parentheses.
                let mut fields = stat[stat.rfind(')')? + 1..].split_whitespace();
                let (state, _ppid, pgrp) = (fields.next()?, fields.next()?, fields.next()?);
                let member = pgrp.parse::<u32>().ok()? == group && state != "Z";
                (member && pid > 1 && pid != std::process::id()).then_some(pid)
            })
            .collect()
    }

    fn signal(pids: &[u32], signal: &str) {
        if !pids.is_empty() {
            let pids = pids.iter().map(u32::to_string);
            let _ = Command::new("kill").args(["-s", signal]).args(pids).stderr(Stdio::null()).status();
        }
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        Group::signal(&self.members(), "TERM");
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline && !self.members().is_empty() {
            std::thread::sleep(Duration::from_millis(100));
        }
        Group::signal(&self.members(), "KILL");
        let _ = self.child.kill();
        let _ = self.child.wait();
        eprintln!("e2e: stopped {}", self.name);
    }
}

/// A private X server.
struct Xvfb {
    name: String,
    _process: Group,
}

impl Xvfb {
    fn start() -> Xvfb {
        // -displayfd 1: Xvfb picks a free display and prints its number once it accepts clients.
        let mut process = Group::spawn(
            "Xvfb",
            Command::new("Xvfb")
                .args(["-displayfd", "1", "-screen", "0", "1280x900x24", "-nolisten", "tcp"])
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::null()),
        );
        let stdout = process.child.stdout.take().expect("Xvfb stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let number = rx
            .recv_timeout(Duration::from_secs(20))
            .ok()
            .and_then(|line| line.trim().parse::<u32>().ok())
            .expect("Xvfb did not report a display within 20 s");
        Xvfb { name: format!(":{number}"), _process: process }
    }
}

/// tauri-driver (which starts WebKitWebDriver, which starts the app) with the app's environment.
struct TauriDriver {
    url: String,
    _process: Group,
}

impl TauriDriver {
    fn start(display: &str, home: &Path, data_dir: &Path, garmin: &str) -> TauriDriver {
        let (port, native_port) = (free_port(), free_port());
        let process = Group::spawn(
            "tauri-driver",
            Command::new("tauri-driver")
                .args(["--port", &port.to_string(), "--native-port", &native_port.to_string()])
                .env("DISPLAY", display)
                // Everything the app writes stays in the temp folder.
                .env("GARMIN_MCP_HOME", data_dir)
                // AI clients' config files (~/.claude.json, ~/.codex/config.toml) land in the temp home.
                .env("HOME", home)
                .env_remove("CODEX_HOME")
                .env("XDG_DATA_HOME", home.join("xdg-data"))
                .env("XDG_CONFIG_HOME", home.join("xdg-config"))
                .env("XDG_CACHE_HOME", home.join("xdg-cache"))
                .env("GARMIN_CONNECT_URL", garmin)
                // The same fake plays Garmin's Personal API (the key the test adds is checked there).
                .env("GARMIN_PERSONAL_API_URL", garmin)
                .env_remove("GARMIN_SSO_URL")
                .env("LANG", "C.UTF-8")
                .env("LANGUAGE", "en")
                // Not WEBKIT_DISABLE_COMPOSITING_MODE: with it WebKitWebDriver's screenshots hang.
                .stdin(Stdio::null()),
        );
        // tauri-driver listens at once but starts WebKitWebDriver beside it, which takes a moment
        // more on a loaded machine: a session asked for before both listen fails to connect.
        let deadline = Instant::now() + Duration::from_secs(30);
        for (who, p) in [("tauri-driver", port), ("WebKitWebDriver", native_port)] {
            while std::net::TcpStream::connect(("127.0.0.1", p)).is_err() {
                assert!(Instant::now() < deadline, "{who} did not listen on port {p} within 30 s");
                std::thread::sleep(Duration::from_millis(100));
            }
        }
        TauriDriver { url: format!("http://127.0.0.1:{port}"), _process: process }
    }
}

/// A W3C WebDriver session on the app's main window, in plain HTTP calls.
struct WebDriver<'a> {
    http: reqwest::Client,
    session: String,
    shots: &'a Screenshots,
}

const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

impl<'a> WebDriver<'a> {
    async fn new_session(driver: &str, app: &str, shots: &'a Screenshots) -> WebDriver<'a> {
        let http = garmin::https::client_builder()
            .unwrap()
            .timeout(Duration::from_secs(90))
            .build()
            .expect("http client");
        let capabilities =
            json!({ "capabilities": { "alwaysMatch": { "tauri:options": { "application": app } } } });
        let url = format!("{driver}/session");
        let answer = http.post(&url).json(&capabilities).send().await;
        let answer: Value = match answer {
            Ok(res) => res.json().await.expect("WebDriver answers JSON"),
            Err(e) => panic!("tauri-driver refused a session for {app}: {e}"),
        };
        let session = answer["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("the app did not start under WebDriver: {answer}"))
            .to_owned();
        WebDriver { http, session: format!("{url}/{session}"), shots }
    }

    async fn call(&self, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
        let mut request = self.http.request(method.clone(), format!("{}{path}", self.session));
        if let Some(body) = body {
            request = request.json(&body);
        }
        let answer = request.send().await.unwrap_or_else(|e| panic!("WebDriver {method} {path}: {e}"));
        answer
            .json::<Value>()
            .await
            .unwrap_or_else(|e| panic!("WebDriver {method} {path} answered no JSON: {e}"))
    }

    /// The element matching `css`, if there is one now.
    async fn find(&self, css: &str) -> Option<String> {
        let answer = self
            .call(reqwest::Method::POST, "/element", Some(json!({ "using": "css selector", "value": css })))
            .await;
        answer["value"][ELEMENT_KEY].as_str().map(str::to_owned)
    }

    /// Waits for `css` to appear; on time-out saves a screenshot and fails with what the window shows.
    async fn wait_for(&self, css: &str, what: &str) -> String {
        let deadline = Instant::now() + STEP_TIMEOUT;
        loop {
            if let Some(element) = self.find(css).await {
                return element;
            }
            if Instant::now() > deadline {
                let shot = format!("failed-waiting-for-{}", css.replace(|c: char| !c.is_alphanumeric(), "-"));
                self.screenshot(&shot).await;
                let shown = self.script("return document.body.innerText").await;
                panic!(
                    "{what} did not appear within {} s (`{css}`). The window shows:\n{}\n(screenshot {})",
                    STEP_TIMEOUT.as_secs(),
                    shown.as_str().unwrap_or_default(),
                    self.shots.path(&shot).display()
                );
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    }

    async fn click(&self, css: &str) {
        let element = self.wait_for(css, css).await;
        let answer =
            self.call(reqwest::Method::POST, &format!("/element/{element}/click"), Some(json!({}))).await;
        assert!(answer["value"].is_null(), "clicking {css} failed: {answer}");
    }

    async fn text(&self, css: &str) -> String {
        let element = self.wait_for(css, css).await;
        let answer = self.call(reqwest::Method::GET, &format!("/element/{element}/text"), None).await;
        answer["value"].as_str().unwrap_or_default().to_owned()
    }

    async fn script(&self, script: &str) -> Value {
        let body = json!({ "script": script, "args": [] });
        self.call(reqwest::Method::POST, "/execute/sync", Some(body)).await["value"].clone()
    }

    /// Opens a view of the signed-in window with its navigation button, as a person would, and
    /// waits until it is the one shown (and the button says so with `aria-current`).
    async fn open_view(&self, view: &str) {
        self.click(&format!("[data-testid=nav-{view}]")).await;
        self.wait_for(&format!("[data-section={view}]:not([hidden])"), &format!("the {view} view")).await;
        self.wait_for(&format!("[data-testid=nav-{view}][aria-current=page]"), "the navigation marks it")
            .await;
    }

    /// Picks a language in the header's switcher as a person would (select + change event).
    async fn choose_language(&self, locale: &str) {
        self.wait_for("[data-testid=language]", "the language switcher").await;
        let script = format!(
            "const s = document.querySelector('[data-testid=language]'); s.value = '{locale}'; \
             s.dispatchEvent(new Event('change', {{ bubbles: true }})); return document.documentElement.lang;"
        );
        let lang = self.script(&script).await;
        assert!(
            lang.as_str().is_some_and(|l| l.starts_with(locale)),
            "language {locale} not applied: {lang}"
        );
    }

    async fn screenshot(&self, name: &str) {
        // WebKit captures the last painted frame: give a change just made time to reach the screen.
        tokio::time::sleep(Duration::from_millis(400)).await;
        let answer = self.call(reqwest::Method::GET, "/screenshot", None).await;
        let png = answer["value"]
            .as_str()
            .and_then(|b64| base64::engine::general_purpose::STANDARD.decode(b64).ok())
            .unwrap_or_else(|| panic!("no screenshot from WebDriver: {answer}"));
        let path = self.shots.path(name);
        std::fs::write(&path, png).unwrap_or_else(|e| panic!("could not write {}: {e}", path.display()));
        eprintln!("e2e: screenshot {}", path.display());
    }

    async fn end(self) {
        let _ = self.http.delete(&self.session).send().await;
    }
}
