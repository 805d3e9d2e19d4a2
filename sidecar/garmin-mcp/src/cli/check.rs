//! `garmin-mcp check [--json]`: the tool check ([`crate::check`]) on the saved session (or the demo
//! account with `--demo`): every read-only tool called once, one line per tool. `--json` prints the
//! report the desktop app reads (`app_bridge::sidecar::CheckReport`).
//!
//! Exit status: 0 when no tool failed, 1 when one did (the rows say which and why), 2 when the
//! check could not run at all (stderr says why; nothing on stdout).

use std::process::ExitCode;

use app_bridge::sidecar::{CheckReport, ToolOutcome};
use clap::Args;
use garmin::SessionStore;

use crate::demo::Demo;
use crate::server::ServerOptions;

/// Options of `check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Print the report as JSON (what the desktop app reads) instead of one line per tool.
    #[arg(long)]
    pub json: bool,
}

/// What `check` runs on, from the global flags.
#[derive(Debug)]
pub struct Target {
    /// `--demo`.
    pub demo: bool,
    /// `--today`.
    pub today: Option<chrono::NaiveDate>,
    /// `--toolsets`.
    pub toolsets: Option<Vec<String>>,
}

/// Runs `check`.
pub async fn run(args: CheckArgs, target: Target, store: SessionStore) -> ExitCode {
    let demo = if target.demo {
        match Demo::start(target.today).await {
            Ok(demo) => Some(demo),
            Err(e) => {
                eprintln!("garmin-mcp: could not start the demo account: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        None
    };
    let mut options = ServerOptions::new(demo.as_ref().map_or(store, |d| d.store.clone()));
    options.demo = demo.is_some();
    options.today = target.today;
    options.toolsets = target.toolsets;
    let report = match crate::check::check_tools(options).await {
        Ok(report) => report,
        Err(why) => {
            eprintln!("garmin-mcp: the tool check could not run: {why}");
            return ExitCode::from(2);
        }
    };
    drop(demo);
    if args.json {
        match serde_json::to_string_pretty(&report) {
            Ok(text) => println!("{text}"),
            Err(e) => {
                eprintln!("garmin-mcp: could not encode the report: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        print_table(&report);
    }
    if report.rows.iter().any(|row| row.outcome == ToolOutcome::Failed) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn print_table(report: &CheckReport) {
    let width = report.rows.iter().map(|row| row.tool.len()).max().unwrap_or(0);
    for row in &report.rows {
        let mark = match row.outcome {
            ToolOutcome::Answered => "ok     ",
            ToolOutcome::NoData => "no data",
            ToolOutcome::Failed => "FAILED ",
            ToolOutcome::Skipped => "skipped",
        };
        let via = match row.sources.as_slice() {
            [] => String::new(),
            sources => format!("[via {}] ", sources.join(" + ").replace('_', " ")),
        };
        println!("{mark}  {:<width$}  {:>6} ms  {via}{}", row.tool, row.millis, row.summary);
    }
    for (source, words) in
        [("personal_api", "Garmin's Personal API (the key)"), ("web_session", "the web session")]
    {
        let served: Vec<&str> = report
            .rows
            .iter()
            .filter(|r| r.sources.iter().any(|s| s == source))
            .map(|r| r.tool.as_str())
            .collect();
        if !served.is_empty() {
            println!("Served by {words}: {}.", served.join(", "));
        }
    }
    let count = |outcome| report.rows.iter().filter(|row| row.outcome == outcome).count();
    println!(
        "{} tools checked in {:.1} s: {} answered, {} without data, {} failed, {} skipped.",
        report.rows.len(),
        report.total_millis as f64 / 1000.0,
        count(ToolOutcome::Answered),
        count(ToolOutcome::NoData),
        count(ToolOutcome::Failed),
        count(ToolOutcome::Skipped)
    );
}
