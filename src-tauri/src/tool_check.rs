//! The home window's tool check: the app runs the bundled `garmin-mcp check --json` on the shown
//! account's data folder (the check itself, calling every read-only tool through MCP, lives in the
//! sidecar: `garmin_mcp::check`) and shows its report, with which program ran and whether it was
//! the demo account. The command line and the report's shape are the app↔sidecar contract
//! (`app_bridge::sidecar`).

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use app_bridge::sidecar::{CheckReport, check_args};
use serde::Serialize;
use tauri::State;

use crate::error::{Error, ErrorCode, Result};
use crate::state::Accounts;
use app_bridge::sidecar::SidecarSearch;

pub use app_bridge::sidecar::{ToolCheckRow, ToolOutcome};

/// Longest wait for the whole check: start-up plus every tool (each allowed up to a minute, and a
/// check stops calling tools after the first that does not answer in time).
const CHECK_TIMEOUT: Duration = Duration::from_secs(300);

/// What the UI shows after a check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
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

    /// The sidecar beside this executable, as the AI clients panel finds it ([`crate::clients::bundled_sidecar`]).
    pub fn resolve() -> Self {
        let sidecar = crate::clients::bundled_sidecar();
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

/// Runs the tool check on the account shown now: `garmin-mcp check --json` with that account's data
/// folder. Refused when the account has no saved session or a check is already running.
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
    let report = check_tools(program, store.dir()).await?;
    Ok(ToolCheckReport {
        demo,
        sidecar: program.display().to_string(),
        rows: report.rows,
        total_millis: millis_since(started),
    })
}

/// Runs `program check --json` on `data_dir` and reads its report. Fails only when the program
/// cannot be run or gives no report; a tool that fails is a row.
pub async fn check_tools(program: &Path, data_dir: &Path) -> Result<CheckReport> {
    let mut command = tokio::process::Command::new(program);
    command.args(check_args(data_dir));
    // The folder is given explicitly; an inherited override must not point elsewhere.
    command.env_remove("GARMIN_MCP_HOME");
    command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).kill_on_drop(true);
    app_bridge::children::no_console_window(&mut command);
    let output = tokio::time::timeout(CHECK_TIMEOUT, command.output())
        .await
        .map_err(|_| start_error(program, "it did not finish within 5 minutes"))?
        .map_err(|e| start_error(program, &e.to_string()))?;
    serde_json::from_slice::<CheckReport>(&output.stdout).map_err(|_| {
        let said = String::from_utf8_lossy(&output.stderr);
        let said = said.lines().last().unwrap_or("no message").trim().to_owned();
        start_error(program, &format!("it gave no report ({said})"))
    })
}

fn start_error(program: &Path, why: &str) -> Error {
    Error::new(
        ErrorCode::Other,
        format!(
            "the tool check could not run {}: {why}. Reinstall the app, or run `garmin-mcp check` in \
             a terminal to see what is wrong",
            program.display()
        ),
    )
}

fn millis_since(started: Instant) -> u64 {
    u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX)
}
