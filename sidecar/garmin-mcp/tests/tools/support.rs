//! Shared by the tests of `cargo test -p garmin-mcp --test tools`.
//!
//! The harness: a fake Garmin with a signed-in session in a temporary data folder, the
//! `garmin-mcp` server built in-process, and rmcp's client connected to it over a duplex pipe.

#![allow(dead_code, reason = "the harness of every tools test; each file uses part of it")]

use std::time::Duration;

use chrono::NaiveDate;
use fake_garmin::{FakeConfig, FakeGarmin};
use garmin::{RetryPolicy, SessionStore};
use garmin_mcp::{GarminMcp, ServerOptions};
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt};
use serde_json::Value;

/// The fake's "today": its data set is the year before.
pub fn today() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, 15).unwrap()
}

/// The browser the test session signed in with.
pub const USER_AGENT: &str = "Mozilla/5.0 (X11; Linux x86_64) GarminMcpToolTests/1.0";

/// A connected client, the fake behind the server, and the data folder.
pub struct Harness {
    pub fake: FakeGarmin,
    pub client: RunningService<RoleClient, ()>,
    pub store: SessionStore,
    pub dir: tempfile::TempDir,
}

impl Harness {
    /// Signed in, every toolset, default options.
    pub async fn start() -> Harness {
        Harness::start_with(|o| o).await
    }

    /// Signed in, with server options adjusted by `tweak`.
    pub async fn start_with(tweak: impl FnOnce(ServerOptions) -> ServerOptions) -> Harness {
        Harness::start_on_with(today(), tweak).await
    }

    /// Signed in, with the fake's data set and the server's "today" both on `day`.
    pub async fn start_on(day: NaiveDate) -> Harness {
        Harness::start_on_with(day, |o| o).await
    }

    async fn start_on_with(day: NaiveDate, tweak: impl FnOnce(ServerOptions) -> ServerOptions) -> Harness {
        let fake = FakeGarmin::start(FakeConfig { today: day, ..FakeConfig::default() }).await.unwrap();
        let dir = tempfile::tempdir().unwrap();
        let store = SessionStore::new(dir.path());
        garmin_mcp::demo::sign_in(&fake, USER_AGENT, &store).unwrap();
        Harness::connect(fake, dir, store, move |mut o| {
            o.today = Some(day);
            tweak(o)
        })
        .await
    }

    /// Signed in to a fake started with `config` (its `today` is the server's too).
    pub async fn with_fake(config: FakeConfig) -> Harness {
        let day = config.today;
        let fake = FakeGarmin::start(config).await.unwrap();
        let dir = tempfile::tempdir().unwrap();
        let store = SessionStore::new(dir.path());
        garmin_mcp::demo::sign_in(&fake, USER_AGENT, &store).unwrap();
        Harness::connect(fake, dir, store, move |mut o| {
            o.today = Some(day);
            o
        })
        .await
    }

    /// Not signed in (empty data folder).
    pub async fn signed_out() -> Harness {
        let fake = FakeGarmin::start(FakeConfig { today: today(), ..FakeConfig::default() }).await.unwrap();
        let dir = tempfile::tempdir().unwrap();
        let store = SessionStore::new(dir.path());
        Harness::connect(fake, dir, store, |o| o).await
    }

    /// A Personal API key saved (pointing at the fake), and a web session too when `with_web`.
    pub async fn with_key(with_web: bool) -> (Harness, String) {
        let fake = FakeGarmin::start(FakeConfig { today: today(), ..FakeConfig::default() }).await.unwrap();
        let dir = tempfile::tempdir().unwrap();
        let store = SessionStore::new(dir.path());
        if with_web {
            garmin_mcp::demo::sign_in(&fake, USER_AGENT, &store).unwrap();
        }
        let key = fake.mint_personal_api_key(Duration::from_secs(90 * 86_400)).key;
        let mut record = garmin::PersonalApiKey::new(key.clone(), None);
        record.origin = Some(fake.base_url());
        store.lock().unwrap().write_personal(Some(&record)).unwrap();
        (Harness::connect(fake, dir, store, |o| o).await, key)
    }

    async fn connect(
        fake: FakeGarmin,
        dir: tempfile::TempDir,
        store: SessionStore,
        tweak: impl FnOnce(ServerOptions) -> ServerOptions,
    ) -> Harness {
        let client = serve_client((), tweak(server_options(&store))).await;
        fake.clear_requests();
        Harness { fake, client, store, dir }
    }

    /// Another client, with its own `handler` (its capabilities at `initialize`, its answers to the
    /// server's requests), of a new server on this harness's fake and data folder, with the
    /// harness's options adjusted by `tweak`.
    pub async fn client_with<C: rmcp::ClientHandler>(
        &self,
        handler: C,
        tweak: impl FnOnce(ServerOptions) -> ServerOptions,
    ) -> RunningService<RoleClient, C> {
        serve_client(handler, tweak(server_options(&self.store))).await
    }

    /// Calls a tool; protocol errors panic with their message.
    pub async fn call(&self, tool: &str, args: Value) -> CallToolResult {
        let mut params = CallToolRequestParams::new(tool.to_owned());
        if let Value::Object(map) = args {
            params = params.with_arguments(map);
        }
        let result =
            self.client.call_tool(params).await.unwrap_or_else(|e| panic!("{tool}: protocol error {e}"));
        assert_summary_is_structured(tool, &result);
        result
    }

    /// Calls a tool that must succeed; returns (summary text, structured content).
    pub async fn call_ok(&self, tool: &str, args: Value) -> (String, Value) {
        let result = self.call(tool, args).await;
        let text = text_of(&result);
        assert_ne!(result.is_error, Some(true), "{tool} failed: {text}");
        (text, result.structured_content.clone().unwrap_or(Value::Null))
    }

    /// Calls a tool that must fail as a tool result (`isError`); returns its message.
    pub async fn call_err(&self, tool: &str, args: Value) -> String {
        let result = self.call(tool, args).await;
        assert_eq!(result.is_error, Some(true), "{tool} should have failed: {}", text_of(&result));
        text_of(&result)
    }

    /// Calls a tool whose arguments must be refused: MCP 2025-11-25 (SEP-1303) wants an `isError`
    /// result the model can read and correct itself from, not a protocol error. Returns its message.
    pub async fn call_invalid(&self, tool: &str, args: Value) -> String {
        let mut params = CallToolRequestParams::new(tool.to_owned());
        if let Value::Object(map) = args {
            params = params.with_arguments(map);
        }
        match self.client.call_tool(params).await {
            Err(e) => panic!("{tool}: wrong arguments must be an isError result, not a protocol error: {e}"),
            Ok(result) => {
                assert_eq!(
                    result.is_error,
                    Some(true),
                    "{tool} accepted invalid arguments: {}",
                    text_of(&result)
                );
                assert!(
                    result.structured_content.is_none(),
                    "{tool}: a refusal carries no structured content"
                );
                text_of(&result)
            }
        }
    }

    /// Calls a tool this server does not offer (unknown, or hidden by `--readonly`/`--toolsets`):
    /// that stays a protocol error. Returns its message.
    pub async fn call_unknown(&self, tool: &str, args: Value) -> String {
        let mut params = CallToolRequestParams::new(tool.to_owned());
        if let Value::Object(map) = args {
            params = params.with_arguments(map);
        }
        match self.client.call_tool(params).await {
            Err(e) => e.to_string(),
            Ok(result) => panic!("{tool} is not offered but answered: {}", text_of(&result)),
        }
    }

    /// Paths (under `/gc-api`) the fake saw, in order.
    pub fn gc_api_paths(&self) -> Vec<String> {
        self.fake.requests().into_iter().filter(|r| r.path.starts_with("/gc-api")).map(|r| r.path).collect()
    }
}

/// Signed in like [`Harness::start`], with the local history already synced from `since` to
/// today, as a first `sync_history` leaves it.
///
/// The sync runs once per `since` in this test process, on a harness of its own; each caller gets
/// a consistent copy of that history file (`VACUUM INTO`) in its own data folder, beside its own
/// fake and server. The file is the real sync's output, so every test reads what a person reads
/// after syncing and restarting their client; a test about the sync itself syncs on its own.
pub async fn synced_since(since: &str) -> Harness {
    let template = synced_template(since).await;
    let h = Harness::start().await;
    let file = h.dir.path().join(history::FILE_NAME);
    std::fs::copy(&template, &file).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    h
}

/// The history file a sync from `since` leaves, made once per test process.
async fn synced_template(since: &str) -> std::path::PathBuf {
    static TEMPLATES: std::sync::LazyLock<
        std::sync::Mutex<
            std::collections::HashMap<String, std::sync::Arc<tokio::sync::OnceCell<std::path::PathBuf>>>,
        >,
    > = std::sync::LazyLock::new(Default::default);
    let cell = TEMPLATES.lock().unwrap().entry(since.to_owned()).or_default().clone();
    cell.get_or_init(|| async {
        let h = Harness::start().await;
        sync_until_complete(&h, since).await;
        let file = templates_dir().join(format!("synced-{}-since-{since}.sqlite3", std::process::id()));
        let _ = std::fs::remove_file(&file);
        let conn = rusqlite::Connection::open(h.dir.path().join(history::FILE_NAME)).unwrap();
        conn.execute("VACUUM INTO ?1", [file.display().to_string()]).unwrap();
        file
    })
    .await
    .clone()
}

/// Where this process keeps its synced templates: the test target's scratch folder, cleared of the
/// templates of earlier runs.
fn templates_dir() -> std::path::PathBuf {
    static DIR: std::sync::LazyLock<std::path::PathBuf> = std::sync::LazyLock::new(|| {
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("tools-synced-histories");
        std::fs::create_dir_all(&dir).unwrap();
        let mine = format!("synced-{}-", std::process::id());
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            if !entry.file_name().to_string_lossy().starts_with(&mine) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
        dir
    });
    DIR.clone()
}

/// Runs `sync_history` from `since` until it reports that it ended, and checks it completed.
pub async fn sync_until_complete(h: &Harness, since: &str) {
    for _ in 0..40 {
        let (_, data) = h.call_ok("sync_history", serde_json::json!({ "since": since })).await;
        if data["status"] != "running" {
            assert_eq!(data["status"], "complete", "{data}");
            return;
        }
    }
    panic!("the sync from {since} did not end");
}

/// The harness's server options: every toolset, "today" pinned, quick retries.
fn server_options(store: &SessionStore) -> ServerOptions {
    let mut options = ServerOptions::new(store.clone());
    options.today = Some(today());
    options.retry = RetryPolicy {
        max_retries: 2,
        base_delay: Duration::from_millis(5),
        max_delay: Duration::from_millis(20),
        max_retry_after: Duration::from_secs(3),
    };
    options
}

/// A server with `options`, and `handler`'s client connected to it over a duplex pipe.
async fn serve_client<C: rmcp::ClientHandler>(
    handler: C,
    options: ServerOptions,
) -> RunningService<RoleClient, C> {
    let server = GarminMcp::new(options).unwrap();
    let (server_end, client_end) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    handler.serve(client_end).await.unwrap()
}

/// Claude Code and Codex pass the model only the structured result: every structured answer of
/// every call in this suite must carry the summary sentence, with every hint and note the text has,
/// as its `summary`.
pub fn assert_summary_is_structured(tool: &str, result: &CallToolResult) {
    if let Some(structured) = &result.structured_content {
        assert_eq!(
            structured.get("summary").and_then(Value::as_str),
            Some(text_of(result).as_str()),
            "{tool}: the structured result lacks the summary the text gives"
        );
    }
}

/// The first text block (the human summary).
pub fn text_of(result: &CallToolResult) -> String {
    result.content.first().and_then(|c| c.as_text()).map(|t| t.text.clone()).unwrap_or_default()
}

/// Every text block joined (what a text-only client shows the model).
pub fn all_text(result: &CallToolResult) -> String {
    result.content.iter().filter_map(|c| c.as_text()).map(|t| t.text.as_str()).collect::<Vec<_>>().join("\n")
}

/// `(path, query)` of every `/gc-api` request the fake saw, in order.
pub fn api_requests(h: &Harness) -> Vec<(String, String)> {
    h.fake
        .requests()
        .into_iter()
        .filter(|r| r.path.starts_with("/gc-api"))
        .map(|r| (r.path, r.query.unwrap_or_default()))
        .collect()
}

/// True when a JSON number is within `tolerance` of `expected`.
pub fn close(actual: &Value, expected: f64, tolerance: f64) -> bool {
    actual.as_f64().is_some_and(|a| (a - expected).abs() <= tolerance)
}

/// Kilometres with two decimals, computed independently of the server's formatting helpers.
pub fn km(meters: f64) -> f64 {
    (meters / 10.0).round() / 100.0
}
