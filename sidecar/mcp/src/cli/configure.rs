//! `garmin-mcp configure <client>`: points an AI client at this binary, the same way the desktop
//! app's "Configure" button does (both use the `client-setup` library). The entry runs this very
//! program by absolute path with `--data-dir <absolute data folder>`, because clients start servers
//! with a stripped environment and from unknown folders.

use std::path::Path;
use std::process::ExitCode;

use clap::Args;
use client_setup::{ClientId, Configured, Env, ServerEntry, SetupError};

/// Options of `configure`.
#[derive(Debug, Args)]
pub struct ConfigureArgs {
    /// The AI client: claude-code, claude-desktop, codex, cursor, vscode, windsurf, gemini,
    /// cherry-studio, workbuddy, zcode, deepseek or generic.
    #[arg(value_parser = parse_client, required_unless_present = "list", conflicts_with = "list")]
    pub client: Option<ClientId>,

    /// Remove the `garmin` server from the client's config instead (other servers stay).
    #[arg(long)]
    pub remove: bool,

    /// Only print the text to add by hand and where it goes; change no file.
    #[arg(long, conflicts_with = "remove")]
    pub print: bool,

    /// List every known client: installed?, configured?, and its config file.
    #[arg(long, conflicts_with_all = ["remove", "print"])]
    pub list: bool,
}

fn parse_client(text: &str) -> Result<ClientId, String> {
    text.parse::<ClientId>().map_err(|e| e.to_string())
}

/// Runs `configure`; `data_dir` is the folder the sidecar was told to use (or its default).
pub fn run(args: ConfigureArgs, data_dir: &Path) -> ExitCode {
    match execute(&args, data_dir) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("garmin-mcp: {message}");
            ExitCode::FAILURE
        }
    }
}

fn execute(args: &ConfigureArgs, data_dir: &Path) -> Result<ExitCode, String> {
    let entry = this_program(data_dir)?;
    let env = Env::current().map_err(|e| e.to_string())?;
    if args.list {
        list(&env, &entry);
        return Ok(ExitCode::SUCCESS);
    }
    let Some(client) = args.client else {
        return Err("name a client, or pass --list to see them all".to_owned());
    };
    if args.print {
        print!("{}", client_setup::snippet(client, &entry));
        eprintln!("{}", client_setup::where_to_put(client, &env));
        return Ok(ExitCode::SUCCESS);
    }
    warn_if_temporary(&entry.command);
    let result = if args.remove {
        client_setup::remove(client, &env, &entry.name)
    } else {
        client_setup::configure(client, &env, &entry)
    };
    match result {
        Ok(change) => {
            println!("{change}");
            Ok(ExitCode::SUCCESS)
        }
        // Nothing to write for a client that keeps its servers in the app: show what to paste.
        Err(SetupError::ManualOnly { hint, .. }) if !args.remove => {
            print!("{}", client_setup::snippet(client, &entry));
            eprintln!("{hint}");
            Ok(ExitCode::SUCCESS)
        }
        Err(
            e @ (SetupError::Malformed { .. }
            | SetupError::UnexpectedShape { .. }
            | SetupError::Symlink { .. }
            | SetupError::MergeFailed { .. }),
        ) => Err(format!("{e} (`garmin-mcp configure {} --print` shows it)", client.id())),
        Err(e) => Err(e.to_string()),
    }
}

/// The entry that starts this binary, with the data folder made absolute.
fn this_program(data_dir: &Path) -> Result<ServerEntry, String> {
    let command = std::env::current_exe()
        .map_err(|e| format!("cannot tell where this program is ({e}); run it by its full path"))?;
    let data_dir = std::path::absolute(data_dir)
        .map_err(|e| format!("cannot make the data folder {} absolute: {e}", data_dir.display()))?;
    ServerEntry::new(command, &data_dir).map_err(|e| e.to_string())
}

/// An AppImage runs from a mount that disappears when it exits: a config pointing there breaks.
fn warn_if_temporary(command: &Path) {
    if std::env::var_os("APPIMAGE").is_some() {
        eprintln!(
            "garmin-mcp: warning: this copy runs from inside an AppImage ({}), which vanishes when it \
             exits; install the .deb or copy garmin-mcp to ~/.local/bin and configure from there",
            command.display()
        );
    }
}

fn list(env: &Env, entry: &ServerEntry) {
    let rows: Vec<_> = ClientId::ALL.iter().map(|client| client_setup::status(*client, env, entry)).collect();
    let width = ClientId::ALL.iter().map(|c| c.id().len()).max().unwrap_or(0);
    println!("{:width$}  {:9}  {:10}  config file", "client", "installed", "configured");
    for row in &rows {
        let configured = match &row.configured {
            Configured::Yes => "yes",
            Configured::No => "no",
            Configured::Different(_) => "differs",
            Configured::Unknown(_) => "?",
        };
        let file = row
            .config_path
            .as_ref()
            .map_or_else(|| "(inside the app)".to_owned(), |p| p.display().to_string());
        let installed = if row.installed { "yes" } else { "no" };
        println!("{:width$}  {installed:9}  {configured:10}  {file}", row.client.id());
        if let Configured::Different(why) | Configured::Unknown(why) = &row.configured {
            println!("{:width$}  {why}", "");
        }
    }
    println!("\nAdd one with: garmin-mcp configure <client>   (print the text instead: --print)");
}
