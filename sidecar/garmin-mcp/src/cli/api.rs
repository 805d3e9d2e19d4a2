//! `garmin-mcp api PATH`: one authenticated GET against `/gc-api` printed as JSON, like `gh api`.
//! For troubleshooting ("what does Garmin actually send?") and for soak-testing a session with
//! `--repeat`. Uses the saved session exactly as the MCP server does (renewal included).

use std::process::ExitCode;

use clap::Args;
use garmin::{Client, Error, SessionStore};

use super::output::fail;

/// Options of `api`.
#[derive(Debug, Args)]
pub struct ApiArgs {
    /// Path under /gc-api, e.g. `/userprofile-service/socialProfile`.
    pub path: String,

    /// Query parameter `key=value` (repeatable).
    #[arg(short, long = "query", value_name = "KEY=VALUE")]
    pub query: Vec<String>,

    /// Call it this many times (prints the last answer); for checking a session under load.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub repeat: u32,
}

/// Runs `api`.
pub async fn run(args: ApiArgs, store: &SessionStore) -> ExitCode {
    let mut query = Vec::new();
    for pair in &args.query {
        let Some((key, value)) = pair.split_once('=') else {
            return fail(&Error::InvalidInput(format!("--query `{pair}` is not KEY=VALUE")));
        };
        query.push((key, value.to_owned()));
    }
    let path = if args.path.starts_with('/') { args.path.clone() } else { format!("/{}", args.path) };
    let client = match Client::from_store(store.clone()) {
        Ok(client) => client,
        Err(e) => return fail(&e),
    };
    let mut last = None;
    for _ in 0..args.repeat.max(1) {
        match client.get_value(&path, &query).await {
            Ok(value) => last = Some(value),
            Err(e) => return fail(&e),
        }
    }
    match last.flatten() {
        Some(value) => println!("{}", serde_json::to_string_pretty(&value).unwrap_or_default()),
        None => println!("null"),
    }
    ExitCode::SUCCESS
}
