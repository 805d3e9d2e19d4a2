//! The home window's tool check: the app starts the bundled `garmin-mcp` exactly as an AI client
//! would (MCP over stdio, `--data-dir` the shown account's folder), calls every read-only tool with
//! default arguments and reports, per tool, whether it answered (✅), had no data (⚠️) or failed (❌),
//! how long it took and the first sentence of its answer.
//!
//! Only tools whose annotations say `readOnlyHint: true` are called, so a check never changes the
//! Garmin account. Required arguments get a sensible default — `activity_id` from the first row
//! `list_activities` answers, `period` = `week` — and a tool whose arguments cannot be filled is
//! listed as skipped with the reason. Tools that save a file (`folder`) save it in a scratch folder
//! removed afterwards. Once a tool finds the session unusable or does not answer in time, the rest
//! are listed as not called rather than each waiting for the same failure.
//!
//! [`check_tools`] is the library part (tested against the real binary and the fake Garmin);
//! [`run_tool_check`] is the thin command the UI invokes.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use rmcp::ServiceExt as _;
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, Implementation, Tool,
};
use rmcp::transport::TokioChildProcess;
use serde::Serialize;
use serde_json::{Map, Value};
use tauri::State;

use crate::clients::SidecarSearch;
use crate::error::{Error, ErrorCode, Result};
use crate::state::Accounts;

/// Longest wait for the sidecar to start and list its tools.
const START_TIMEOUT: Duration = Duration::from_secs(30);
/// Longest wait for one tool's answer (reads retry Garmin's hiccups, so allow several tries).
const CALL_TIMEOUT: Duration = Duration::from_secs(60);
/// The `period` the check asks period tools for.
const DEFAULT_PERIOD: &str = "week";
/// Longest one-line summary shown in the table, in characters.
const SUMMARY_MAX_CHARS: usize = 160;
/// How the server's "sign in first" answers start (`SIGN_IN_NEEDED` in garmin-mcp's `tool_error.rs`).
const SESSION_UNUSABLE: &str = "Your Garmin session is not usable";
/// How a row of a call that got no answer in time starts.
const NO_ANSWER: &str = "No answer within";
/// The tool whose first row supplies `activity_id`.
const LIST_ACTIVITIES: &str = "list_activities";

/// How one tool did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolOutcome {
    /// It answered (✅).
    Answered,
    /// It said Garmin has nothing recorded for what was asked (⚠️).
    NoData,
    /// It failed: an error answer, a protocol error, or no answer in time (❌).
    Failed,
    /// Not called: its arguments could not be filled; the summary says why.
    Skipped,
}

/// One row of the tool check's table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCheckRow {
    /// The tool's name (`get_profile`).
    pub tool: String,
    /// Its human title, when the server gives one.
    pub title: Option<String>,
    /// How it did.
    pub outcome: ToolOutcome,
    /// Time from call to answer, in milliseconds (0 when skipped).
    pub millis: u64,
    /// The first sentence of its answer, or why it failed or was skipped.
    pub summary: String,
}

/// What the UI shows after a check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCheckReport {
    /// The check ran against the demo account.
    pub demo: bool,
    /// The `garmin-mcp` program that was started.
    pub sidecar: String,
    /// One row per read-only tool, in the server's order.
    pub rows: Vec<ToolCheckRow>,
    /// The whole check, start-up included, in milliseconds.
    pub total_millis: u64,
}

/// The tool check's side of the app (managed state): which `garmin-mcp` it starts, and a guard so
/// only one check runs at a time.
#[derive(Debug)]
pub struct ToolCheck {
    sidecar: SidecarSearch,
    running: tokio::sync::Mutex<()>,
}

impl ToolCheck {
    /// A check that starts the sidecar `sidecar` found (tests point it at `target/debug`).
    pub fn new(sidecar: SidecarSearch) -> Self {
        ToolCheck { sidecar, running: tokio::sync::Mutex::new(()) }
    }

    /// The sidecar beside this executable, as the AI clients panel finds it ([`SidecarSearch::bundled`]).
    pub fn resolve() -> Self {
        let sidecar = SidecarSearch::bundled();
        ToolCheck::new(sidecar)
    }

    fn program(&self) -> Result<&Path> {
        self.sidecar.found.as_deref().ok_or_else(|| {
            let places: Vec<String> =
                self.sidecar.looked_in.iter().map(|p| p.display().to_string()).collect();
            Error::new(
                ErrorCode::Other,
                format!(
                    "the tool check needs the garmin-mcp program, which was not found (looked in: {}). \
                     Reinstall the app, which ships it; when running from source, build it with \
                     `cargo xtask sidecar`",
                    if places.is_empty() { "nowhere".to_owned() } else { places.join(", ") }
                ),
            )
        })
    }
}

/// Runs the tool check on the account shown now: starts the bundled `garmin-mcp` with that account's
/// data folder and calls every read-only tool. Refused when the account has no saved session (the
/// sidecar would ask the app to sign in) or a check is already running.
#[tauri::command]
pub async fn run_tool_check(
    accounts: State<'_, Accounts>,
    check: State<'_, ToolCheck>,
) -> Result<ToolCheckReport> {
    let (store, demo) = accounts.active();
    if store.load()?.is_none() {
        return Err(garmin::Error::NotSignedIn { data_dir: store.dir().to_path_buf() }.into());
    }
    let program = check.program()?;
    let Ok(_running) = check.running.try_lock() else {
        return Err(Error::new(
            ErrorCode::Other,
            "a tool check is already running; wait for its table to appear, then run it again",
        ));
    };
    let started = Instant::now();
    let rows = check_tools(program, store.dir()).await?;
    Ok(ToolCheckReport {
        demo,
        sidecar: program.display().to_string(),
        rows,
        total_millis: millis_since(started),
    })
}

/// Starts `program` as an MCP server over stdio with `--data-dir data_dir`, calls each of its
/// read-only tools once with default arguments, and returns one row per read-only tool in the
/// server's order. Fails only when the server cannot be started or will not list its tools; a tool
/// that fails is a row.
pub async fn check_tools(program: &Path, data_dir: &Path) -> Result<Vec<ToolCheckRow>> {
    let scratch = ScratchFolder::new();
    let mut command = tokio::process::Command::new(program);
    command.arg("--data-dir").arg(data_dir);
    // The folder is given explicitly; an inherited override must not point elsewhere.
    command.env_remove("GARMIN_MCP_HOME");
    let (transport, _stderr) = TokioChildProcess::builder(command)
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| start_error(program, &e.to_string()))?;
    let identity = ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("Garmin MCP app (tool check)", env!("CARGO_PKG_VERSION")),
    );
    let client = tokio::time::timeout(START_TIMEOUT, identity.serve(transport))
        .await
        .map_err(|_| start_error(program, "it did not answer within 30 seconds"))?
        .map_err(|e| start_error(program, &e.to_string()))?;
    let tools = tokio::time::timeout(START_TIMEOUT, client.list_all_tools())
        .await
        .map_err(|_| start_error(program, "it did not list its tools within 30 seconds"))?
        .map_err(|e| start_error(program, &e.to_string()))?;
    let read_tools: Vec<&Tool> = tools.iter().filter(|tool| is_read_only(tool)).collect();

    // `list_activities` goes first: its first row is the `activity_id` other tools are asked about.
    let mut activity_id = None;
    let mut listed = None;
    if let Some(list) = read_tools.iter().find(|tool| tool.name == LIST_ACTIVITIES) {
        let (row, answer) = call(&client, list, Map::new()).await;
        activity_id = answer.as_ref().and_then(|a| a.structured_content.as_ref()).and_then(first_activity_id);
        listed = Some(row);
    }

    // Once a tool finds the session unusable or does not answer in time, the others would wait and
    // fail the same way: they are listed as not called instead.
    let mut halted = listed.as_ref().and_then(halt_reason);
    let mut rows = Vec::with_capacity(read_tools.len());
    for tool in read_tools {
        if tool.name == LIST_ACTIVITIES
            && let Some(row) = listed.take()
        {
            rows.push(row);
            continue;
        }
        let row = match (&halted, default_arguments(tool, activity_id.as_ref(), scratch.path())) {
            (Some(why), _) => skipped(tool, why.clone()),
            (None, Ok(args)) => call(&client, tool, args).await.0,
            (None, Err(why)) => skipped(tool, why),
        };
        if halted.is_none() {
            halted = halt_reason(&row);
        }
        rows.push(row);
    }
    let mut client = client;
    // Closing ends the sidecar's stdin, so it exits; dropping the transport kills it if it does not.
    let _closed = client.close_with_timeout(Duration::from_secs(5)).await;
    Ok(rows)
}

fn start_error(program: &Path, why: &str) -> Error {
    Error::new(
        ErrorCode::Other,
        format!(
            "the tool check could not start {} as an MCP server: {why}. Reinstall the app, or run that \
             program in a terminal to see what is wrong",
            program.display()
        ),
    )
}

fn skipped(tool: &Tool, why: String) -> ToolCheckRow {
    ToolCheckRow {
        tool: tool.name.to_string(),
        title: title(tool),
        outcome: ToolOutcome::Skipped,
        millis: 0,
        summary: why,
    }
}

/// Why the check stops calling tools after `row`: the session is unusable (sign in again) or the
/// server stopped answering.
fn halt_reason(row: &ToolCheckRow) -> Option<String> {
    let stops = row.outcome == ToolOutcome::Failed
        && (row.summary.starts_with(SESSION_UNUSABLE) || row.summary.starts_with(NO_ANSWER));
    stops.then(|| format!("not called after {}: {}", row.tool, row.summary))
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
) -> std::result::Result<Map<String, Value>, String> {
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

/// Calls `tool` with `args` and makes its row; also returns the answer when there was one.
async fn call(
    client: &rmcp::service::RunningService<rmcp::RoleClient, ClientConfig>,
    tool: &Tool,
    args: Map<String, Value>,
) -> (ToolCheckRow, Option<CallToolResult>) {
    let params = CallToolRequestParams::new(tool.name.to_string()).with_arguments(args);
    let started = Instant::now();
    let answer = tokio::time::timeout(CALL_TIMEOUT, client.call_tool(params)).await;
    let millis = millis_since(started);
    let (outcome, summary, result) = match answer {
        Err(_) => (ToolOutcome::Failed, format!("{NO_ANSWER} {} seconds.", CALL_TIMEOUT.as_secs()), None),
        Ok(Err(e)) => (ToolOutcome::Failed, first_sentence(&e.to_string()), None),
        Ok(Ok(result)) => {
            let summary = first_sentence(&answer_text(&result));
            let outcome = classify(&result, &summary);
            (outcome, summary, Some(result))
        }
    };
    let row = ToolCheckRow { tool: tool.name.to_string(), title: title(tool), outcome, millis, summary };
    (row, result)
}

/// ✅ for an answer, ⚠️ for an error answer that says there is no data, ❌ for any other error.
fn classify(result: &CallToolResult, first_sentence: &str) -> ToolOutcome {
    if result.is_error != Some(true) {
        ToolOutcome::Answered
    } else if is_no_data_sentence(first_sentence) {
        ToolOutcome::NoData
    } else {
        ToolOutcome::Failed
    }
}

/// The server's "nothing recorded" answers start with "No …" ("No sleep recorded for …", "No devices
/// are registered …") or "Nothing …"; its failures name what went wrong instead.
fn is_no_data_sentence(sentence: &str) -> bool {
    sentence.starts_with("No ") || sentence.starts_with("Nothing ")
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

    #[test]
    fn error_answers_saying_nothing_is_recorded_are_no_data_and_others_are_failures() {
        let answer = |error: bool| {
            let mut result = CallToolResult::success(vec![]);
            result.is_error = Some(error);
            result
        };
        assert_eq!(classify(&answer(false), "No devices"), ToolOutcome::Answered);
        assert_eq!(
            classify(&answer(true), "No devices are registered on your Garmin account."),
            ToolOutcome::NoData
        );
        assert_eq!(classify(&answer(true), "Garmin answered 500: try again later."), ToolOutcome::Failed);
    }

    #[test]
    fn an_unusable_session_or_a_silent_server_stops_the_check_and_other_failures_do_not() {
        let row = |outcome, summary: &str| ToolCheckRow {
            tool: "get_profile".into(),
            title: None,
            outcome,
            millis: 5,
            summary: summary.into(),
        };
        let why = halt_reason(&row(
            ToolOutcome::Failed,
            "Your Garmin session is not usable: Garmin refused it (HTTP 401).",
        ))
        .expect("a session Garmin refuses stops the check");
        assert!(why.contains("get_profile") && why.contains("not usable"), "{why}");
        assert!(halt_reason(&row(ToolOutcome::Failed, "No answer within 60 seconds.")).is_some());
        assert!(halt_reason(&row(ToolOutcome::Failed, "Garmin answered 500.")).is_none());
        assert!(halt_reason(&row(ToolOutcome::NoData, "No answer within reach.")).is_none());
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
