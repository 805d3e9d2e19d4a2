//! The tool check (`garmin-mcp check`, and the desktop app's "Check the tools" table through it):
//! this server, built with the given options, is connected to rmcp's client in-process and every
//! read-only tool is called once with default arguments. Per tool it reports whether it answered
//! (✅), had no data (⚠️) or failed (❌), how long it took and the first sentence of its answer. It is
//! also the doctor people run when "the assistant cannot see my data".
//!
//! Only tools whose annotations say `readOnlyHint: true` are called, so a check never changes the
//! Garmin account. Required arguments get a sensible default — `activity_id` from the first row
//! `list_activities` answers, `period` = `week` — and a tool whose arguments cannot be filled is
//! listed as skipped with the reason. Tools that save a file (`folder`) save it in a scratch folder
//! removed afterwards. Once a tool finds the session unusable or does not answer in time, the rest
//! are listed as not called rather than each waiting for the same failure. Failures are classified
//! by the kind every failed result names in `_meta` ([`crate::tool_error::ERROR_KIND_META`]), never
//! by their words. The check never asks the desktop app to sign in.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use app_bridge::sidecar::{CheckReport, ToolCheckRow, ToolOutcome};
use rmcp::ServiceExt as _;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, Implementation, Tool,
};
use serde_json::{Map, Value};

use crate::server::{GarminMcp, ServerOptions};
use crate::tool_error::ERROR_KIND_META;

/// Longest wait for the server to start and list its tools.
const START_TIMEOUT: Duration = Duration::from_secs(30);
/// Longest wait for one tool's answer (reads retry Garmin's hiccups, so allow several tries).
const CALL_TIMEOUT: Duration = Duration::from_secs(60);
/// The `period` the check asks period tools for.
const DEFAULT_PERIOD: &str = "week";
/// Longest one-line summary shown in the table, in characters.
const SUMMARY_MAX_CHARS: usize = 160;
/// The tool whose first row supplies `activity_id`.
const LIST_ACTIVITIES: &str = "list_activities";

type Client = rmcp::service::RunningService<rmcp::RoleClient, ClientConfig>;

/// Why the check stops calling tools: the session is unusable, or a tool did not answer in time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Halt {
    SignInNeeded,
    NoAnswer,
}

/// Builds the server from `options` (never using the desktop app), calls each read-only tool once
/// and reports one row per read-only tool in the server's order. Fails only when the server cannot
/// be built or will not list its tools; a tool that fails is a row.
pub async fn check_tools(mut options: ServerOptions) -> Result<CheckReport, String> {
    let started = Instant::now();
    options.use_app = false;
    let server = GarminMcp::new(options).map_err(|e| format!("the server could not be built: {e}"))?;
    let (server_end, client_end) = tokio::io::duplex(1 << 20);
    let serving = tokio::spawn(async move {
        if let Ok(running) = server.serve(server_end).await {
            let _ended = running.waiting().await;
        }
    });
    let identity = ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("garmin-mcp check", env!("CARGO_PKG_VERSION")),
    );
    let client = tokio::time::timeout(START_TIMEOUT, identity.serve(client_end))
        .await
        .map_err(|_| "the server did not answer within 30 seconds".to_owned())?
        .map_err(|e| format!("the server did not start: {e}"))?;
    let tools = tokio::time::timeout(START_TIMEOUT, client.list_all_tools())
        .await
        .map_err(|_| "the server did not list its tools within 30 seconds".to_owned())?
        .map_err(|e| format!("the server did not list its tools: {e}"))?;
    let rows = check_listed(&client, &tools).await;
    let mut client = client;
    let _closed = client.close_with_timeout(Duration::from_secs(5)).await;
    serving.abort();
    Ok(CheckReport { rows, total_millis: millis_since(started) })
}

/// Calls the read-only tools among `tools`, `list_activities` first.
async fn check_listed(client: &Client, tools: &[Tool]) -> Vec<ToolCheckRow> {
    let scratch = ScratchFolder::new();
    let read_tools: Vec<&Tool> = tools.iter().filter(|tool| is_read_only(tool)).collect();

    // `list_activities` goes first: its first row is the `activity_id` other tools are asked about.
    let mut activity_id = None;
    let mut listed = None;
    if let Some(list) = read_tools.iter().find(|tool| tool.name == LIST_ACTIVITIES) {
        let (row, halt, answer) = call(client, list, Map::new()).await;
        activity_id = answer.as_ref().and_then(|a| a.structured_content.as_ref()).and_then(first_activity_id);
        listed = Some((row, halt));
    }

    // Once a tool finds the session unusable or does not answer in time, the others would wait and
    // fail the same way: they are listed as not called instead.
    let mut halted = listed.as_ref().and_then(|(row, halt)| halt.map(|_| halted_after(row)));
    let mut rows = Vec::with_capacity(read_tools.len());
    for tool in read_tools {
        if tool.name == LIST_ACTIVITIES
            && let Some((row, _)) = listed.take()
        {
            rows.push(row);
            continue;
        }
        let (row, halt) = match (&halted, default_arguments(tool, activity_id.as_ref(), scratch.path())) {
            (Some(why), _) => (skipped(tool, why.clone()), None),
            (None, Ok(args)) => {
                let (row, halt, _) = call(client, tool, args).await;
                (row, halt)
            }
            (None, Err(why)) => (skipped(tool, why), None),
        };
        if halted.is_none() && halt.is_some() {
            halted = Some(halted_after(&row));
        }
        rows.push(row);
    }
    rows
}

fn skipped(tool: &Tool, why: String) -> ToolCheckRow {
    ToolCheckRow {
        tool: tool.name.to_string(),
        title: title(tool),
        outcome: ToolOutcome::Skipped,
        millis: 0,
        summary: why,
        sources: Vec::new(),
    }
}

/// What the rows after `row` say when it stopped the check.
fn halted_after(row: &ToolCheckRow) -> String {
    format!("not called after {}: {}", row.tool, row.summary)
}

/// The tool's human title: its own, else the one in its annotations.
fn title(tool: &Tool) -> Option<String> {
    tool.title.clone().or_else(|| tool.annotations.as_ref().and_then(|a| a.title.clone()))
}

fn is_read_only(tool: &Tool) -> bool {
    tool.annotations.as_ref().and_then(|a| a.read_only_hint) == Some(true)
}

/// The arguments the check calls `tool` with, or why it cannot call it.
fn default_arguments(
    tool: &Tool,
    activity_id: Option<&Value>,
    scratch: &Path,
) -> Result<Map<String, Value>, String> {
    let mut args = Map::new();
    let required = tool.input_schema.get("required").and_then(Value::as_array).cloned().unwrap_or_default();
    for name in required.iter().filter_map(Value::as_str) {
        let value = match name {
            "activity_id" => activity_id.cloned().ok_or_else(|| {
                format!("needs an activity id, and {LIST_ACTIVITIES} gave none to try it with")
            })?,
            "period" => Value::from(DEFAULT_PERIOD),
            other => return Err(format!("needs `{other}`, which the check has no default for")),
        };
        args.insert(name.to_owned(), value);
    }
    let properties = tool.input_schema.get("properties").and_then(Value::as_object);
    let accepts = |name: &str| properties.is_some_and(|p| p.contains_key(name));
    // `login` would otherwise open the app's sign-in; the check only wants to know the session state.
    if accepts("open_app") {
        args.insert("open_app".into(), false.into());
    }
    // Tools that save a file save it where nobody has to clean up after the check.
    if accepts("folder") {
        args.insert("folder".into(), scratch.display().to_string().into());
    }
    Ok(args)
}

/// Calls `tool` with `args` and makes its row; also says whether it stops the check, and returns
/// the answer when there was one.
async fn call(
    client: &Client,
    tool: &Tool,
    args: Map<String, Value>,
) -> (ToolCheckRow, Option<Halt>, Option<CallToolResult>) {
    let params = CallToolRequestParams::new(tool.name.to_string()).with_arguments(args);
    let started = Instant::now();
    let answer = tokio::time::timeout(CALL_TIMEOUT, client.call_tool(params)).await;
    let millis = millis_since(started);
    let (outcome, halt, summary, result) = match answer {
        Err(_) => (
            ToolOutcome::Failed,
            Some(Halt::NoAnswer),
            format!("No answer within {} seconds.", CALL_TIMEOUT.as_secs()),
            None,
        ),
        Ok(Err(e)) => (ToolOutcome::Failed, None, first_sentence(&e.to_string()), None),
        Ok(Ok(result)) => {
            let (outcome, halt) = classify(&result);
            (outcome, halt, first_sentence(&answer_text(&result)), Some(result))
        }
    };
    let sources = result.as_ref().map(served_by).unwrap_or_default();
    let row =
        ToolCheckRow { tool: tool.name.to_string(), title: title(tool), outcome, millis, summary, sources };
    (row, halt, result)
}

/// The credentials an answer's `_meta` says served it ([`crate::sources::META_KEY`]).
fn served_by(result: &CallToolResult) -> Vec<String> {
    result
        .meta
        .as_ref()
        .and_then(|m| m.get(crate::sources::META_KEY))
        .and_then(|v| v.get("sources"))
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).map(str::to_owned).collect())
        .unwrap_or_default()
}

/// ✅ for an answer, ⚠️ for a failed result of kind `no_data`, ❌ for any other; a `sign_in_needed`
/// failure also stops the check.
fn classify(result: &CallToolResult) -> (ToolOutcome, Option<Halt>) {
    if result.is_error != Some(true) {
        return (ToolOutcome::Answered, None);
    }
    match result.meta.as_ref().and_then(|meta| meta.get(ERROR_KIND_META)).and_then(Value::as_str) {
        Some("no_data") => (ToolOutcome::NoData, None),
        Some("sign_in_needed") => (ToolOutcome::Failed, Some(Halt::SignInNeeded)),
        _ => (ToolOutcome::Failed, None),
    }
}

/// The text blocks of an answer, joined; the first is the server's human summary.
fn answer_text(result: &CallToolResult) -> String {
    result.content.iter().filter_map(|c| c.as_text()).map(|t| t.text.as_str()).collect::<Vec<_>>().join("\n")
}

/// The first sentence of `text` (up to `. `, `! `, `? `, `。` or a line break), at most
/// [`SUMMARY_MAX_CHARS`] characters.
fn first_sentence(text: &str) -> String {
    let text = text.trim();
    let mut end = text.len();
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let next = chars.peek().map(|&(_, n)| n);
        let ends = match c {
            '\n' => Some(at),
            '。' | '！' | '？' => Some(at + c.len_utf8()),
            '.' | '!' | '?' if next.is_none_or(char::is_whitespace) => Some(at + 1),
            _ => None,
        };
        if let Some(stop) = ends {
            end = stop;
            break;
        }
    }
    let sentence = text[..end].trim();
    if sentence.chars().count() > SUMMARY_MAX_CHARS {
        let cut: String = sentence.chars().take(SUMMARY_MAX_CHARS - 1).collect();
        format!("{}…", cut.trim_end())
    } else {
        sentence.to_owned()
    }
}

/// The first `activity_id` number anywhere in `value` (the first row of `list_activities`).
fn first_activity_id(value: &Value) -> Option<Value> {
    match value {
        Value::Object(map) => map
            .get("activity_id")
            .filter(|v| v.is_number())
            .cloned()
            .or_else(|| map.values().find_map(first_activity_id)),
        Value::Array(items) => items.iter().find_map(first_activity_id),
        _ => None,
    }
}

fn millis_since(started: Instant) -> u64 {
    u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// A folder for files tools save during a check, removed (with what is in it) when dropped.
#[derive(Debug)]
struct ScratchFolder(PathBuf);

impl ScratchFolder {
    fn new() -> Self {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        ScratchFolder(
            std::env::temp_dir().join(format!("garmin-mcp-tool-check-{}-{nanos}", std::process::id())),
        )
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for ScratchFolder {
    fn drop(&mut self) {
        if self.0.exists() {
            let _ignored = std::fs::remove_dir_all(&self.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_is_the_first_sentence_and_keeps_decimals() {
        assert_eq!(first_sentence("Ran 5.2 km in 27:01. Then rested."), "Ran 5.2 km in 27:01.");
        assert_eq!(first_sentence("Alex Rivera\n{\"json\":1}"), "Alex Rivera");
        assert_eq!(
            first_sentence("  No sleep recorded for the night to 2026-11-28."),
            "No sleep recorded for the night to 2026-11-28."
        );
        assert_eq!(first_sentence("本周跑了 3 次。下周继续"), "本周跑了 3 次。");
        let long = "x".repeat(400);
        let cut = first_sentence(&long);
        assert_eq!(cut.chars().count(), SUMMARY_MAX_CHARS);
        assert!(cut.ends_with('…'));
    }

    fn failed_as(kind: Option<&str>) -> CallToolResult {
        let mut result = CallToolResult::error(vec![]);
        if let Some(kind) = kind {
            let mut meta = rmcp::model::MetaObject::new();
            meta.insert(ERROR_KIND_META.to_owned(), Value::from(kind));
            result.meta = Some(meta);
        }
        result
    }

    #[test]
    fn failures_are_told_apart_by_the_kind_in_meta_not_by_their_words() {
        assert_eq!(classify(&CallToolResult::success(vec![])), (ToolOutcome::Answered, None));
        assert_eq!(classify(&failed_as(Some("no_data"))), (ToolOutcome::NoData, None));
        assert_eq!(
            classify(&failed_as(Some("sign_in_needed"))),
            (ToolOutcome::Failed, Some(Halt::SignInNeeded))
        );
        assert_eq!(classify(&failed_as(Some("garmin"))), (ToolOutcome::Failed, None));
        assert_eq!(classify(&failed_as(None)), (ToolOutcome::Failed, None), "another server's failure");
    }

    fn tool(schema: Value) -> Tool {
        let Value::Object(schema) = schema else { panic!("schema is an object") };
        Tool::new("t", "a tool", schema)
    }

    #[test]
    fn required_arguments_get_defaults_or_the_tool_is_skipped_with_the_reason() {
        let scratch = Path::new("/tmp/scratch");
        let period = tool(serde_json::json!({"required": ["period"], "properties": {"period": {}}}));
        assert_eq!(default_arguments(&period, None, scratch).unwrap()["period"], "week");

        let activity = tool(serde_json::json!({"required": ["activity_id"]}));
        assert_eq!(default_arguments(&activity, Some(&Value::from(42)), scratch).unwrap()["activity_id"], 42);
        let why = default_arguments(&activity, None, scratch).unwrap_err();
        assert!(why.contains("list_activities"), "{why}");

        let unknown = tool(serde_json::json!({"required": ["workout_id"]}));
        assert!(default_arguments(&unknown, None, scratch).unwrap_err().contains("workout_id"));

        let saves = tool(serde_json::json!({"properties": {"folder": {}, "open_app": {}}}));
        let args = default_arguments(&saves, None, scratch).unwrap();
        assert_eq!(args["folder"], "/tmp/scratch");
        assert_eq!(args["open_app"], false);
    }
}
