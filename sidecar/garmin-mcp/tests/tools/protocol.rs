//! Run: `cargo test -p garmin-mcp --test tools protocol::`.
//!
//! The MCP surface beyond tools, through rmcp's real client: prompts listed and rendered in English
//! and Chinese, argument completion (closed sets and ids looked up in the account), resources and
//! templates read through the same tools (one activity as JSON, a chart as a PNG blob), log
//! notifications at the level the session chose, and wrong arguments answered as `isError` results
//! while an unknown tool stays a protocol error.
// MCP logging is deprecated for 2026-07-28 (SEP-2577) but part of 2025-11-25, which we serve.
#![allow(deprecated, reason = "MCP logging is deprecated for 2026-07-28 but part of 2025-11-25")]

use std::time::Duration;

use base64::Engine as _;
use fake_garmin::{FakeConfig, FakeGarmin};
use garmin::SessionStore;
use garmin_mcp::{GarminMcp, ServerOptions};
use rmcp::model::{
    CallToolRequestParams, GetPromptRequestParams, LoggingLevel, LoggingMessageNotificationParam,
    ReadResourceRequestParams, ResourceContents,
};
use rmcp::service::NotificationContext;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Value, json};

use crate::support::{Harness, USER_AGENT, today};

fn prompt_text(result: &rmcp::model::GetPromptResult) -> String {
    serde_json::to_string(&result.messages).unwrap()
}

#[tokio::test]
async fn six_coaching_prompts_are_listed_with_descriptions_and_arguments() {
    let h = Harness::start().await;
    let prompts = h.client.list_prompts(None).await.unwrap().prompts;
    let names: Vec<&str> = prompts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "weekly_review",
            "analyse_last_run",
            "race_readiness",
            "plan_next_week",
            "sleep_recovery_check",
            "explain_workout"
        ]
    );
    for prompt in &prompts {
        assert!(prompt.description.as_deref().is_some_and(|d| d.len() > 40), "{}", prompt.name);
        let args = prompt.arguments.as_deref().unwrap_or_default();
        assert!(args.iter().any(|a| a.name == "language"), "{} takes a language", prompt.name);
    }
    let explain = prompts.iter().find(|p| p.name == "explain_workout").unwrap();
    let workout_id = explain.arguments.as_ref().unwrap().iter().find(|a| a.name == "workout_id").unwrap();
    assert_eq!(workout_id.required, Some(true));
}

#[tokio::test]
async fn prompts_name_their_tools_and_answer_shape_in_english_and_chinese() {
    let h = Harness::start().await;
    let get = |name: &str, args: Value| {
        let mut params = GetPromptRequestParams::new(name);
        params.arguments = args.as_object().cloned();
        h.client.get_prompt(params)
    };
    let en = get("weekly_review", json!({})).await.unwrap();
    let text = prompt_text(&en);
    // The fake's today is Sunday 2026-11-15: the last full week is the one before.
    assert!(text.contains("from 2026-11-02 to 2026-11-08"), "{text}");
    assert!(text.contains("`get_period_stats`") && text.contains("Shape of the answer"), "{text}");
    assert!(text.contains("Answer in English"), "{text}");

    let zh = get("sleep_recovery_check", json!({"language": "zh", "days": "14"})).await.unwrap();
    let text = prompt_text(&zh);
    assert!(text.contains("请检查我 2026-11-02 至 2026-11-15 的睡眠和恢复情况"), "{text}");
    assert!(text.contains("`get_daily_health`") && text.contains("请用中文回答"), "{text}");

    let workout = get("explain_workout", json!({"workout_id": "123", "language": "en"})).await.unwrap();
    assert!(prompt_text(&workout).contains("`get_workouts` (workout_id=123)"));

    let wrong = get("weekly_review", json!({"language": "fr"})).await.unwrap_err().to_string();
    assert!(wrong.contains("`language` must be one of `en`, `zh`; found `fr`"), "{wrong}");
    let missing = get("explain_workout", json!({})).await.unwrap_err().to_string();
    assert!(missing.contains("needs `workout_id`"), "{missing}");
}

#[tokio::test]
async fn prompt_arguments_complete_from_closed_sets_and_from_the_workout_library() {
    let h = Harness::start().await;
    let language = h.client.complete_prompt_simple("weekly_review", "language", "z").await.unwrap();
    assert_eq!(language, ["zh"]);
    let all = h.client.complete_prompt_simple("plan_next_week", "language", "").await.unwrap();
    assert_eq!(all, ["en", "zh"]);

    let (_, library) = h.call_ok("get_workouts", json!({"limit": 100})).await;
    let ids: Vec<String> =
        library["library"].as_array().unwrap().iter().map(|w| w["workout_id"].to_string()).collect();
    assert!(!ids.is_empty(), "the fake has a workout library");
    let completed = h.client.complete_prompt_simple("explain_workout", "workout_id", "").await.unwrap();
    assert_eq!(completed, ids, "every library workout is offered");
    let prefix = &ids[0][..3];
    let narrowed = h.client.complete_prompt_simple("explain_workout", "workout_id", prefix).await.unwrap();
    assert!(!narrowed.is_empty() && narrowed.iter().all(|id| id.starts_with(prefix)), "{narrowed:?}");

    let unknown = h.client.complete_prompt_simple("test_prompt_with_arguments", "arg1", "t").await.unwrap();
    assert!(unknown.is_empty(), "an unknown prompt completes to nothing, not an error");
}

#[tokio::test]
async fn resources_and_templates_are_listed_with_their_mime_types() {
    let h = Harness::start().await;
    let resources = h.client.list_resources(None).await.unwrap().resources;
    let listed: Vec<(&str, Option<&str>)> =
        resources.iter().map(|r| (r.uri.as_str(), r.mime_type.as_deref())).collect();
    assert_eq!(
        listed,
        [
            ("garmin://activities/recent", Some("application/json")),
            ("garmin://readiness/today", Some("application/json")),
            ("garmin://workouts", Some("application/json")),
            ("garmin://chart/activity/latest", Some("image/png")),
            ("garmin://athlete", Some("application/json")),
            ("ui://garmin-mcp/charts.html", Some("text/html;profile=mcp-app")),
        ]
    );
    let templates = h.client.list_resource_templates(None).await.unwrap().resource_templates;
    let uris: Vec<&str> = templates.iter().map(|t| t.uri_template.as_str()).collect();
    assert_eq!(
        uris,
        ["garmin://activity/{id}", "garmin://chart/activity/{id}", "garmin://athlete/goal/{id}"]
    );
}

#[tokio::test]
async fn resources_whose_tool_is_hidden_are_neither_listed_nor_read() {
    let h = Harness::start_with(|mut o| {
        o.toolsets = Some(vec!["activities".to_owned()]);
        o
    })
    .await;
    let resources = h.client.list_resources(None).await.unwrap().resources;
    let uris: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
    // `get_activity` (activities) draws in the MCP Apps view, so the view stays.
    assert_eq!(uris, ["garmin://activities/recent", "ui://garmin-mcp/charts.html"]);
    let templates = h.client.list_resource_templates(None).await.unwrap().resource_templates;
    assert_eq!(
        templates.iter().map(|t| t.uri_template.as_str()).collect::<Vec<_>>(),
        ["garmin://activity/{id}"]
    );
    let refused = h.client.read_resource(ReadResourceRequestParams::new("garmin://chart/activity/1")).await;
    let refused = refused.unwrap_err().to_string();
    assert!(refused.contains("`render_chart` tool, which this server does not offer"), "{refused}");
    assert!(h.gc_api_paths().is_empty(), "nothing reached Garmin");
}

fn text_contents(result: &rmcp::model::ReadResourceResult) -> (String, Value) {
    match &result.contents[0] {
        ResourceContents::TextResourceContents { mime_type, text, .. } => {
            (mime_type.clone().unwrap_or_default(), serde_json::from_str(text).unwrap())
        }
        other => panic!("text expected: {other:?}"),
    }
}

#[tokio::test]
async fn an_activity_resource_is_the_same_answer_get_activity_gives() {
    let h = Harness::start().await;
    let recent =
        h.client.read_resource(ReadResourceRequestParams::new("garmin://activities/recent")).await.unwrap();
    let (mime, list) = text_contents(&recent);
    assert_eq!(mime, "application/json");
    let id = list["activities"][0]["activity_id"].as_u64().unwrap();
    assert!(list["summary"].as_str().is_some_and(|s| !s.is_empty()), "the summary travels with the data");

    let uri = format!("garmin://activity/{id}");
    let read = h.client.read_resource(ReadResourceRequestParams::new(uri.clone())).await.unwrap();
    let (_, activity) = text_contents(&read);
    let (_, tool) = h.call_ok("get_activity", json!({"activity_id": id})).await;
    assert_eq!(activity, tool, "the resource is the tool's structured answer");

    let ids = h.client.complete_resource_simple("garmin://activity/{id}", "id", "").await.unwrap();
    assert!(ids.contains(&id.to_string()), "{ids:?}");

    let bad = h.client.read_resource(ReadResourceRequestParams::new("garmin://activity/yesterday")).await;
    let bad = bad.unwrap_err().to_string();
    assert!(bad.contains("must be a Garmin activity id") && bad.contains("`yesterday`"), "{bad}");
    let unknown =
        h.client.read_resource(ReadResourceRequestParams::new("garmin://nothing")).await.unwrap_err();
    assert!(unknown.to_string().contains("There is no resource"), "{unknown}");
}

#[tokio::test]
async fn a_chart_resource_is_a_png_blob_with_its_mime_type() {
    let h = Harness::start().await;
    let (_, list) = h.call_ok("list_activities", json!({"activity_type": "running", "limit": 1})).await;
    let id = list["activities"][0]["activity_id"].as_u64().unwrap();
    let uri = format!("garmin://chart/activity/{id}");
    let read = h.client.read_resource(ReadResourceRequestParams::new(uri.clone())).await.unwrap();
    let ResourceContents::BlobResourceContents { uri: got, mime_type, blob, .. } = &read.contents[0] else {
        panic!("a blob expected")
    };
    assert_eq!((got.as_str(), mime_type.as_deref()), (uri.as_str(), Some("image/png")));
    let png = base64::engine::general_purpose::STANDARD.decode(blob).unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 10_000, "{} bytes", png.len());
    let cached = std::fs::read_dir(h.dir.path().join("charts")).unwrap().count();
    assert_eq!(cached, 1, "the chart is kept in the data folder, not the person's export folder");
    h.client.read_resource(ReadResourceRequestParams::new(uri)).await.unwrap();
    assert_eq!(
        std::fs::read_dir(h.dir.path().join("charts")).unwrap().count(),
        1,
        "reused, not written twice"
    );
}

/// A client that keeps every log notification and resource update it receives.
#[derive(Clone)]
struct Catcher(tokio::sync::mpsc::UnboundedSender<Value>);

impl ClientHandler for Catcher {
    async fn on_logging_message(
        &self,
        params: LoggingMessageNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let _ = self.0.send(serde_json::to_value(params).unwrap());
    }

    async fn on_resource_updated(
        &self,
        params: rmcp::model::ResourceUpdatedNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let _ = self.0.send(json!({"updated": params.uri}));
    }
}

/// A signed-in server (options adjusted by `tweak`) with a [`Catcher`] client; returns the client,
/// what it caught, and the fake and data folder to keep alive.
async fn catching_client(
    tweak: impl FnOnce(ServerOptions) -> ServerOptions,
) -> (
    rmcp::service::RunningService<RoleClient, Catcher>,
    tokio::sync::mpsc::UnboundedReceiver<Value>,
    FakeGarmin,
    tempfile::TempDir,
) {
    let fake = FakeGarmin::start(FakeConfig { today: today(), ..FakeConfig::default() }).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = SessionStore::new(dir.path());
    garmin_mcp::demo::sign_in(&fake, USER_AGENT, &store).unwrap();
    let mut options = ServerOptions::new(store);
    options.today = Some(today());
    let server = GarminMcp::new(tweak(options)).unwrap();
    let (server_end, client_end) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let client = Catcher(tx).serve(client_end).await.unwrap();
    (client, rx, fake, dir)
}

#[tokio::test]
async fn the_log_level_the_client_sets_decides_which_notifications_it_gets() {
    let (client, mut rx, _fake, dir) = catching_client(|o| o).await;
    let next = |rx: &mut tokio::sync::mpsc::UnboundedReceiver<Value>| {
        let got = rx.try_recv();
        got.map(|v| serde_json::from_value::<LoggingMessageNotificationParam>(v).unwrap())
    };
    let call = |name: &str, args: Value| {
        client.call_tool(
            CallToolRequestParams::new(name.to_owned()).with_arguments(args.as_object().cloned().unwrap()),
        )
    };

    call("get_profile", json!({})).await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(next(&mut rx).is_err(), "nothing is sent before the client sets a level");

    client.set_level(rmcp::model::SetLevelRequestParams::new(LoggingLevel::Info)).await.unwrap();
    call("get_profile", json!({})).await.unwrap();
    let info = tokio::time::timeout(Duration::from_secs(5), rx.recv()).await.unwrap().unwrap();
    let info: LoggingMessageNotificationParam = serde_json::from_value(info).unwrap();
    assert_eq!(info.level, LoggingLevel::Info);
    assert_eq!(info.logger.as_deref(), Some("garmin-mcp"));
    assert!(
        info.data.as_str().is_some_and(|t| t.starts_with("`get_profile` answered in")),
        "{:?}",
        info.data
    );

    client.set_level(rmcp::model::SetLevelRequestParams::new(LoggingLevel::Warning)).await.unwrap();
    call("get_profile", json!({})).await.unwrap();
    call("get_workouts", json!({"limit": "ten"})).await.unwrap();
    let warning = tokio::time::timeout(Duration::from_secs(5), rx.recv()).await.unwrap().unwrap();
    let warning: LoggingMessageNotificationParam = serde_json::from_value(warning).unwrap();
    assert_eq!(warning.level, LoggingLevel::Warning, "the successful call at info was not sent");
    let text = warning.data.as_str().unwrap_or_default().to_owned();
    assert!(text.contains("`get_workouts` could not answer") && text.contains("`limit`"), "{text}");
    let session = std::fs::read_to_string(dir.path().join("session.json")).unwrap_or_default();
    for secret in session.split('"').filter(|s| s.len() >= 24) {
        assert!(!text.contains(secret), "a session value reached a log notification");
    }
}

#[tokio::test]
async fn wrong_arguments_are_error_results_naming_the_argument_and_unknown_tools_protocol_errors() {
    let h = Harness::start().await;
    let text = h.call_invalid("get_workouts", json!({"limit": "ten"})).await;
    assert!(
        text.starts_with("`limit` of `get_workouts` must be a whole number from 0 up; found string \"ten\""),
        "{text}"
    );
    let text = h.call_invalid("get_activity", json!({})).await;
    assert!(text.contains("`activity_id` is required by `get_activity`"), "{text}");
    let text = h.call_invalid("list_activities", json!({"keyword": "x".repeat(5000)})).await;
    assert!(text.contains("`keyword` is 5000 characters long"), "{text}");
    assert!(h.gc_api_paths().is_empty(), "nothing reached Garmin");

    let unknown = h.client.call_tool(CallToolRequestParams::new("test_error_handling")).await.unwrap_err();
    assert!(unknown.to_string().contains("tool not found"), "{unknown}");
}

#[tokio::test]
async fn the_readme_names_every_prompt_and_resource_served() {
    let h = Harness::start().await;
    let readme =
        std::fs::read_to_string(std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../README.md"))
            .unwrap();
    let section = readme.split("## Prompts and resources").nth(1).unwrap().split("\n## ").next().unwrap();
    for prompt in h.client.list_prompts(None).await.unwrap().prompts {
        assert!(
            section.contains(&format!("| `{}` |", prompt.name)),
            "README lacks the prompt {}",
            prompt.name
        );
    }
    for resource in h.client.list_resources(None).await.unwrap().resources {
        assert!(section.contains(&format!("`{}`", resource.uri)), "README lacks {}", resource.uri);
    }
    for template in h.client.list_resource_templates(None).await.unwrap().resource_templates {
        assert!(
            section.contains(&format!("`{}`", template.uri_template)),
            "README lacks {}",
            template.uri_template
        );
    }
}

#[tokio::test]
async fn a_subscriber_to_the_workout_library_hears_when_a_workout_is_created() {
    let (client, mut rx, fake, _dir) = catching_client(|mut o| {
        o.write_mode = garmin_mcp::writes::WriteMode::Direct;
        o
    })
    .await;
    let subscribe = |uri: &str| client.subscribe(rmcp::model::SubscribeRequestParams::new(uri));
    subscribe("garmin://workouts").await.unwrap();
    let unknown = subscribe("test://watched-resource").await.unwrap_err().to_string();
    assert!(unknown.contains("no resource `test://watched-resource`"), "{unknown}");

    let spec = json!({"name": "Strides", "sport": "run", "steps": [{"type": "interval", "duration_min": 1}]});
    let mut preview = spec.clone();
    preview["confirm"] = json!(false);
    let call = |args: Value| {
        client.call_tool(
            CallToolRequestParams::new("create_workout").with_arguments(args.as_object().cloned().unwrap()),
        )
    };
    call(preview).await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(rx.try_recv().is_err(), "a preview changes nothing, so no update is sent");

    let mut write = spec;
    write["confirm"] = json!(true);
    let created = call(write).await.unwrap();
    assert_ne!(created.is_error, Some(true), "{:?}", created.content);
    assert!(fake.requests().iter().any(|r| r.method == "POST" && r.path.contains("workout")), "written");
    let update = tokio::time::timeout(Duration::from_secs(5), rx.recv()).await.unwrap().unwrap();
    assert_eq!(update, json!({"updated": "garmin://workouts"}));

    client.unsubscribe(rmcp::model::UnsubscribeRequestParams::new("garmin://workouts")).await.unwrap();
    let mut again =
        json!({"name": "Strides 2", "sport": "run", "steps": [{"type": "interval", "duration_min": 1}]});
    again["confirm"] = json!(true);
    call(again).await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(rx.try_recv().is_err(), "no update after unsubscribing");
}

// ---- Hostile clients on the protocol surfaces (issue 24) ----

/// A megabyte of text a client sends as a name.
fn megabyte(c: char) -> String {
    std::iter::repeat_n(c, 1024 * 1024).collect()
}

#[tokio::test]
async fn megabyte_prompt_names_argument_names_uris_and_tool_names_are_never_echoed_back() {
    let (client, mut rx, _fake, _dir) = catching_client(|o| o).await;
    let mut refusals = Vec::new();
    let mut params = GetPromptRequestParams::new(megabyte('p'));
    refusals.push(client.get_prompt(params.clone()).await.unwrap_err().to_string());
    params.name = "weekly_review".into();
    params.arguments = json!({ megabyte('a'): "x" }).as_object().cloned();
    refusals.push(client.get_prompt(params.clone()).await.unwrap_err().to_string());
    params.arguments = json!({"week": megabyte('w')}).as_object().cloned();
    refusals.push(client.get_prompt(params).await.unwrap_err().to_string());
    let long_uri = format!("garmin://{}", megabyte('u'));
    let digits = format!("garmin://activity/{}", megabyte('7'));
    for uri in [long_uri.as_str(), digits.as_str()] {
        refusals
            .push(client.read_resource(ReadResourceRequestParams::new(uri)).await.unwrap_err().to_string());
        let subscribe = client.subscribe(rmcp::model::SubscribeRequestParams::new(uri)).await;
        refusals.push(subscribe.unwrap_err().to_string());
    }
    for refusal in &refusals {
        assert!(
            refusal.len() < 1_000,
            "a refusal of {} bytes echoes what was sent: {}…",
            refusal.len(),
            &refusal[..200]
        );
    }
    // A megabyte tool name in the debug log notifications: quoted short.
    client.set_level(rmcp::model::SetLevelRequestParams::new(LoggingLevel::Debug)).await.unwrap();
    let _ = client.call_tool(CallToolRequestParams::new(megabyte('t'))).await;
    let mut logged = Vec::new();
    while let Ok(Some(note)) = tokio::time::timeout(Duration::from_millis(500), rx.recv()).await {
        logged.push(note.to_string());
    }
    assert!(!logged.is_empty(), "the debug level hears the call");
    for note in &logged {
        assert!(note.len() < 2_000, "a log notification of {} bytes quotes the tool name whole", note.len());
    }
}

/// Raw JSON-RPC lines to a server on the stdio transport (`garmin_mcp::stdio::LineTransport`), for
/// messages rmcp's client cannot send: answers are read line by line.
struct RawStdio {
    to_server: tokio::io::WriteHalf<tokio::io::DuplexStream>,
    from_server: tokio::io::Lines<tokio::io::BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>>,
    _fake: FakeGarmin,
    _dir: tempfile::TempDir,
}

impl RawStdio {
    async fn start(capabilities: Value) -> RawStdio {
        use tokio::io::AsyncBufReadExt as _;
        let fake = FakeGarmin::start(FakeConfig { today: today(), ..FakeConfig::default() }).await.unwrap();
        let dir = tempfile::tempdir().unwrap();
        let store = SessionStore::new(dir.path());
        garmin_mcp::demo::sign_in(&fake, USER_AGENT, &store).unwrap();
        let mut options = ServerOptions::new(store);
        options.today = Some(today());
        let server = GarminMcp::new(options).unwrap();
        let (server_end, client_end) = tokio::io::duplex(1 << 20);
        let (server_read, server_write) = tokio::io::split(server_end);
        tokio::spawn(async move {
            let transport = garmin_mcp::stdio::LineTransport::new(server_read, server_write);
            if let Ok(running) = server.serve(transport).await {
                let _ = running.waiting().await;
            }
        });
        let (read, write) = tokio::io::split(client_end);
        let mut raw = RawStdio {
            to_server: write,
            from_server: tokio::io::BufReader::new(read).lines(),
            _fake: fake,
            _dir: dir,
        };
        raw.send(
            &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": capabilities,
            "clientInfo": {"name": "raw", "version": "1"}}})
            .to_string(),
        )
        .await;
        raw.answer_to(json!(0)).await;
        raw.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).await;
        raw
    }

    async fn send(&mut self, line: &str) {
        use tokio::io::AsyncWriteExt as _;
        self.to_server.write_all(format!("{line}\n").as_bytes()).await.unwrap();
    }

    /// The next message from the server.
    async fn next(&mut self) -> Value {
        let line = tokio::time::timeout(Duration::from_secs(10), self.from_server.next_line())
            .await
            .expect("the server answered within 10 s")
            .unwrap()
            .expect("the server is still there");
        serde_json::from_str(&line).unwrap()
    }

    /// The answer (result or error) to request `id`, skipping notifications and other messages.
    async fn answer_to(&mut self, id: Value) -> Value {
        loop {
            let message = self.next().await;
            if message.get("id") == Some(&id) && message.get("method").is_none() {
                return message;
            }
        }
    }
}

#[tokio::test]
async fn an_unknown_log_level_is_invalid_params_not_method_not_found() {
    let mut raw = RawStdio::start(json!({})).await;
    raw.send(r#"{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"verbose"}}"#).await;
    let answer = raw.answer_to(json!(1)).await;
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(message.contains("found `verbose`") && message.contains("debug, info"), "{message}");
    raw.send(r#"{"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"info"}}"#).await;
    assert!(raw.answer_to(json!(2)).await.get("result").is_some(), "a known level is set");
    raw.send(r#"{"jsonrpc":"2.0","id":3,"method":"no/such/method"}"#).await;
    assert_eq!(raw.answer_to(json!(3)).await["error"]["code"], -32601);
}

#[tokio::test]
async fn a_confirmation_answered_with_a_duplicated_confirm_key_over_stdio_writes_nothing() {
    let mut raw = RawStdio::start(json!({"elicitation": {}})).await;
    let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
        "name": "create_workout", "arguments": {"name": "Dup 4x1k", "sport": "run",
            "steps": [{"type": "interval", "distance_m": 1000}]}}});
    raw.send(&call.to_string()).await;
    let question = loop {
        let message = raw.next().await;
        if message["method"] == "elicitation/create" {
            break message;
        }
    };
    // `confirm` twice: false first (what the person's own client may read), true last (what serde
    // would keep).
    let answer = format!(
        r#"{{"jsonrpc":"2.0","id":{},"result":{{"action":"accept","content":{{"confirm":false,"schedule_on":"","confirm":true}}}}}}"#,
        question["id"]
    );
    raw.send(&answer).await;
    let result = raw.answer_to(json!(7)).await;
    let text = result["result"]["content"][0]["text"].as_str().unwrap_or_default().to_owned();
    assert_ne!(result["result"]["structuredContent"]["status"], "written", "{result}");
    assert!(text.contains("nothing was written"), "{text}");
    let wrote = raw._fake.requests().iter().any(|r| r.path.starts_with("/gc-api") && r.method != "GET");
    assert!(!wrote, "a workout reached Garmin on an ambiguous answer");
}

#[tokio::test]
async fn a_subscription_flood_is_refused_for_resources_that_never_change_and_past_the_session_cap() {
    let h = Harness::start().await;
    let subscribe = |uri: String| h.client.subscribe(rmcp::model::SubscribeRequestParams::new(uri));
    // Any activity id used to be accepted, 104,909 of them in 40 s.
    for id in [1u64, 17_000_000_001, 42] {
        let refused = subscribe(format!("garmin://activity/{id}")).await.unwrap_err().to_string();
        assert!(refused.contains("does not change once recorded"), "{refused}");
        let chart = subscribe(format!("garmin://chart/activity/{id}")).await.unwrap_err().to_string();
        assert!(chart.contains("no resource"), "{chart}");
    }
    let unknown_goal = subscribe("garmin://athlete/goal/999".to_owned()).await.unwrap_err().to_string();
    assert!(unknown_goal.contains("no resource"), "a goal race that is not remembered: {unknown_goal}");
    for uri in ["garmin://workouts", "garmin://activities/recent", "garmin://athlete"] {
        subscribe(uri.to_owned()).await.unwrap();
        subscribe(uri.to_owned()).await.unwrap();
    }
    // Goal races that exist can be subscribed to, up to the session's cap.
    let cap = garmin_mcp::resources::MAX_SUBSCRIPTIONS_PER_SESSION;
    for i in 0..cap {
        let args = json!({"kind": "goal_race", "text": format!("Race {i}"), "date": "2027-05-01"});
        let (_, fact) = h.call_ok("remember_athlete_fact", args).await;
        let id = fact["fact"]["fact_id"].as_u64().unwrap();
        let subscribed = subscribe(format!("garmin://athlete/goal/{id}")).await;
        if i + 3 < cap {
            subscribed.unwrap();
        } else {
            let refused = subscribed.unwrap_err().to_string();
            assert!(refused.contains(&format!("{cap} subscriptions")), "{refused}");
        }
    }
}

#[tokio::test]
async fn a_closed_session_frees_its_subscriptions() {
    let fake = FakeGarmin::start(FakeConfig { today: today(), ..FakeConfig::default() }).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = SessionStore::new(dir.path());
    garmin_mcp::demo::sign_in(&fake, USER_AGENT, &store).unwrap();
    let mut options = ServerOptions::new(store);
    options.today = Some(today());
    let server = GarminMcp::new(options).unwrap();
    // Every session of one server shares its subscriptions; this clone only looks at them.
    let probe = server.clone();
    let (server_end, client_end) = tokio::io::duplex(1 << 20);
    let served = tokio::spawn(async move {
        if let Ok(running) = server.serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    let client = ().serve(client_end).await.unwrap();
    for uri in ["garmin://workouts", "garmin://activities/recent", "garmin://athlete"] {
        client.subscribe(rmcp::model::SubscribeRequestParams::new(uri)).await.unwrap();
    }
    assert_eq!(probe.subscriptions_held(), 3);
    client.cancel().await.unwrap();
    tokio::time::timeout(Duration::from_secs(10), served).await.unwrap().unwrap();
    assert_eq!(probe.subscriptions_held(), 0, "the ended session still holds subscriptions");
}

#[tokio::test]
async fn fifty_completion_keystrokes_ask_garmin_once() {
    let h = Harness::start().await;
    let typed = "1234567890";
    let mut offered = 0;
    for i in 0..50 {
        let prefix = &typed[..(i % typed.len())];
        offered +=
            h.client.complete_prompt_simple("explain_workout", "workout_id", prefix).await.unwrap().len();
        offered +=
            h.client.complete_prompt_simple("analyse_last_run", "activity_id", prefix).await.unwrap().len();
    }
    assert!(offered > 0, "the completions offered ids");
    let asked = h.gc_api_paths();
    // One lookup each: the workout library (get_workouts, which also reads the training plans, the
    // plan's detail and its goal race's events) and the recent runs (a paged list may take two).
    let workouts: Vec<&String> = asked.iter().filter(|p| !p.contains("/activitylist-service/")).collect();
    let distinct: std::collections::BTreeSet<&&String> = workouts.iter().collect();
    assert_eq!(distinct.len(), workouts.len(), "the library lookup ran twice for 100 completions: {asked:?}");
    assert!(asked.len() <= 6, "{} Garmin requests for 100 completions: {asked:?}", asked.len());
}

#[tokio::test]
async fn under_readonly_every_listed_resource_can_be_read() {
    let h = Harness::start_with(|mut o| {
        o.read_only = true;
        o
    })
    .await;
    let resources = h.client.list_resources(None).await.unwrap().resources;
    assert!(resources.iter().any(|r| r.uri == "garmin://chart/activity/latest"), "the chart is listed");
    let (_, listed) = h.call_ok("list_activities", json!({"limit": 1})).await;
    let id = listed["activities"][0]["activity_id"].to_string();
    let mut uris: Vec<String> = resources.iter().map(|r| r.uri.clone()).collect();
    for template in h.client.list_resource_templates(None).await.unwrap().resource_templates {
        if !template.uri_template.contains("athlete/goal") {
            uris.push(template.uri_template.replace("{id}", &id));
        }
    }
    for uri in uris {
        let read = h.client.read_resource(ReadResourceRequestParams::new(uri.clone())).await;
        assert!(read.is_ok(), "{uri} is listed but cannot be read: {}", read.unwrap_err());
    }
    assert!(!h.dir.path().join("charts").exists(), "read-only: no chart was kept");
}

/// `race_readiness` without a race: the goal race of the athlete's Garmin Coach plan (the fake's
/// primary race, its distance and goal from the calendar event) when the athlete memory holds
/// none; the remembered one once there is one.
#[tokio::test]
async fn race_readiness_uses_the_plans_goal_race_unless_one_is_remembered() {
    let h = Harness::start().await;
    let get = || h.client.get_prompt(GetPromptRequestParams::new("race_readiness"));
    let text = prompt_text(&get().await.unwrap());
    assert!(
        text.contains(r#"from my Garmin training plan; none is remembered in the athlete memory): \"Example Big City Marathon\" on 2027-02-18, 95 days from today (42.2 km, target 3:30:00)"#),
        "{text}"
    );
    h.call_ok(
        "remember_athlete_fact",
        json!({"kind": "goal_race", "text": "Berlin Marathon", "date": "2027-09-26", "target_time": "3:15"}),
    )
    .await;
    let text = prompt_text(&get().await.unwrap());
    assert!(text.contains("Berlin Marathon") && text.contains("from the athlete memory"), "{text}");
    assert!(!text.contains("Example Big City Marathon"), "{text}");
}
