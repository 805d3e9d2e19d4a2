//! `garmin-mcp remote pair | clients | revoke ID | revoke --all`: the owner's side of remote access
//! (`--public-url`) from a terminal, e.g. on a headless server. While a server with remote access
//! runs on the data folder it holds the grants' lock, and these commands ask it through its
//! owner API (`app_bridge::remote::owner`, loopback only, secret from the data folder); without a
//! server they read or edit the grants file themselves under that lock.

use std::path::Path;
use std::process::ExitCode;

use app_bridge::remote::owner::{Owner, RemoteClient, Revoke};
use clap::{Args, Subcommand};

use crate::http::oauth::grants::{Store, take_lock};

/// `remote` and its sub-commands.
#[derive(Debug, Args)]
pub struct RemoteArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: RemoteCommand,
}

/// Sub-commands of `remote`.
#[derive(Debug, Subcommand)]
pub enum RemoteCommand {
    /// Print a new 6-digit pairing code for the approval page (needs the server running).
    Pair,
    /// List the approved clients: name, scopes, first and last use.
    Clients,
    /// Revoke a client's access at once (its id from `remote clients`), or --all.
    Revoke {
        /// The client's grant id.
        #[arg(required_unless_present = "all", conflicts_with = "all")]
        id: Option<String>,
        /// Revoke every client.
        #[arg(long)]
        all: bool,
    },
}

/// Runs `remote …` on the data folder `dir`.
pub async fn run(args: RemoteArgs, dir: &Path) -> ExitCode {
    match act(args.command, dir).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("garmin-mcp: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Either the running server or the file itself (while holding the lock).
enum Target {
    Server(Owner),
    File(Store, std::fs::File),
}

fn target(dir: &Path) -> Result<Target, String> {
    if let Some(lock) = take_lock(dir)? {
        return Ok(Target::File(Store::unlocked(dir)?, lock));
    }
    match Owner::find(dir)? {
        Some(owner) => Ok(Target::Server(owner)),
        None => Err(format!(
            "a garmin-mcp server holds the remote-access lock of {} but left no control file; stop it and start it \
             again",
            dir.display()
        )),
    }
}

async fn act(command: RemoteCommand, dir: &Path) -> Result<(), String> {
    match (command, target(dir)?) {
        (RemoteCommand::Pair, Target::Server(owner)) => {
            let code = owner.pair().await?;
            println!(
                "Pairing code: {} {}\nType it on the approval page your assistant opened. It works once, within {} minutes.",
                &code.code[..3],
                &code.code[3..],
                code.expires_in_secs / 60
            );
            Ok(())
        }
        (RemoteCommand::Pair, Target::File(..)) => Err(format!(
            "no garmin-mcp server with remote access is running on {}: start `garmin-mcp --http --public-url \
             https://…` first (a pairing code works only for the server that made it)",
            dir.display()
        )),
        (RemoteCommand::Clients, Target::Server(owner)) => {
            print_clients(&owner.clients().await?);
            Ok(())
        }
        (RemoteCommand::Clients, Target::File(store, _lock)) => {
            print_clients(&store.list());
            Ok(())
        }
        (RemoteCommand::Revoke { id, all }, Target::Server(owner)) => {
            let revoked = owner.revoke(&Revoke { id: id.clone(), all }).await?.revoked;
            report_revoked(revoked, id.as_deref())
        }
        (RemoteCommand::Revoke { id, all }, Target::File(store, _lock)) => {
            let revoked = match (&id, all) {
                (_, true) => store.revoke_all(),
                (Some(id), false) => usize::from(store.revoke(id)),
                (None, false) => 0,
            };
            report_revoked(revoked, id.as_deref())
        }
    }
}

fn report_revoked(revoked: usize, id: Option<&str>) -> Result<(), String> {
    match (revoked, id) {
        (0, Some(id)) => {
            Err(format!("no approved client has the id {id}; `garmin-mcp remote clients` lists them"))
        }
        (n, _) => {
            println!("Revoked {n} client(s): their tokens stopped working at once.");
            Ok(())
        }
    }
}

fn print_clients(clients: &[RemoteClient]) {
    if clients.is_empty() {
        println!("No client is approved for remote access.");
        return;
    }
    println!("{:<10}  {:<24}  {:<24}  {:<17}  LAST USED", "ID", "NAME", "ACCESS", "APPROVED");
    for client in clients {
        let access = if client.scopes.iter().any(|s| s == crate::http::oauth::WRITE_SCOPE) {
            "read and write"
        } else {
            "read only"
        };
        println!(
            "{:<10}  {:<24}  {:<24}  {:<17}  {}",
            client.id,
            client.name,
            access,
            when(Some(client.created)),
            when(client.last_used)
        );
    }
}

/// A Unix time as `2026-12-06 05:40 UTC` (the same on every machine).
fn when(secs: Option<u64>) -> String {
    secs.and_then(|s| i64::try_from(s).ok())
        .and_then(|s| chrono::DateTime::from_timestamp(s, 0))
        .map_or_else(|| "never".to_owned(), |t| t.format("%Y-%m-%d %H:%M UTC").to_string())
}
