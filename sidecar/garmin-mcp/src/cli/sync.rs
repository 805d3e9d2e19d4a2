//! `garmin-mcp sync [--since DATE] [--full]`: fills the local history (`history.sqlite3` in the data
//! folder) from Garmin with a progress bar on stderr (drawn only on a terminal), then prints what
//! it did. Exit codes: 0 when the range is complete, 3 when it stopped early (rate limit or
//! `--max-requests`; run it again to continue), 1 on an error (no session, unwritable folder) or
//! when another program is syncing the same data folder (one sync at a time: `history::sync_once`).

use std::process::ExitCode;

use clap::Args;
use garmin::SessionStore;
use history::History;
use history::sync::{self, SyncOptions};
use indicatif::{ProgressBar, ProgressStyle};

/// Options of `sync`.
#[derive(Debug, Args)]
pub struct SyncArgs {
    /// First day to keep, YYYY-MM-DD (default: a year before today on the first sync; later syncs
    /// read only what changed and the last few days Garmin may still revise).
    #[arg(long, value_name = "YYYY-MM-DD")]
    pub since: Option<chrono::NaiveDate>,
    /// Read everything in the range again, even what the history already has.
    #[arg(long)]
    pub full: bool,
    /// Stop after this many Garmin requests (run again to continue).
    #[arg(long, value_name = "N")]
    pub max_requests: Option<u32>,
}

/// Runs `sync`; `today` is the athlete's date (`--today`, else this computer's).
pub async fn run(args: SyncArgs, store: &SessionStore, today: Option<chrono::NaiveDate>) -> ExitCode {
    let today = today.unwrap_or_else(|| chrono::Local::now().date_naive());
    if let Some(since) = args.since
        && since > today
    {
        eprintln!("garmin-mcp: --since {since} is after today ({today}); give a day in the past");
        return ExitCode::from(2);
    }
    // The web session and/or the Personal API key of the session file (`garmin::reads`).
    let garmin = match garmin::Garmin::from_store(store) {
        Ok(garmin) => garmin,
        Err(e) => return super::output::fail(&e),
    };
    let history = match History::open(store.dir()) {
        Ok(history) => history,
        Err(e) => {
            eprintln!("garmin-mcp: {e}");
            return ExitCode::FAILURE;
        }
    };
    let lock = match history::sync_once::try_lock(store.dir()) {
        Ok(Ok(lock)) => lock,
        Ok(Err(busy)) => {
            let who = busy.holder.map_or_else(String::new, |h| format!(" (process {})", h.pid));
            eprintln!(
                "garmin-mcp: another program{who} is syncing this history now; wait until it ends, then run `garmin-mcp sync` again if you still need to"
            );
            return ExitCode::FAILURE;
        }
        Err(e) => {
            eprintln!("garmin-mcp: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Some(aside) = history.moved_aside() {
        eprintln!(
            "garmin-mcp: the history file could not be read; it was moved aside to {} and a fresh one started",
            aside.display()
        );
    }
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} days  {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let options =
        SyncOptions { today, since: args.since, full: args.full, request_budget: args.max_requests };
    let tell = {
        let bar = bar.clone();
        move |p: &sync::Progress| {
            bar.set_length(p.total);
            bar.set_position(p.done);
            bar.set_message(format!("{} · {} requests", p.message, p.requests));
        }
    };
    let report = sync::sync(&history, &garmin, &options, &tell).await;
    lock.finish(history::sync_once::Finished::of(&options, &report));
    bar.finish_and_clear();
    match report {
        Ok(report) => {
            println!("{}", report.summary());
            println!("Database: {}", history.path().display());
            if report.complete() { ExitCode::SUCCESS } else { ExitCode::from(3) }
        }
        Err(history::HistoryError::Garmin(e)) => super::output::fail(&e),
        Err(e) => {
            eprintln!("garmin-mcp: {e}");
            ExitCode::FAILURE
        }
    }
}
