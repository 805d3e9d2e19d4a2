//! `garmin-mcp configure <client>`: points an AI client at this binary, the same way the desktop
//! app's "Configure" button does (both use the `client-setup` library). The entry runs this very
//! program by absolute path with `--data-dir <absolute data folder>`, because clients start servers
//! with a stripped environment and from unknown folders. `--demo` and `--readonly` go into the
//! entry; a later run that does not mention them keeps what the entry has (`--no-demo`,
//! `--no-readonly` take them out), as it keeps any argument the person added by hand.

use std::path::Path;
use std::process::ExitCode;

use clap::Args;
use client_setup::{ClientId, Configured, Env, ServerEntry, SetupError};

/// Options of `configure`.
#[derive(Debug, Args)]
#[command(after_help = "\
Each client's own file is edited in place: other servers, comments (Gemini CLI, Qwen Code, VS Code, \
opencode) and layout stay as they were, and the original is kept once as <file>.garmin-mcp.bak.
`generic` prints a project .mcp.json (Claude Code, Copilot CLI and Qwen Code read it); no file is written.
Gemini CLI and Qwen Code only start servers in folders you trust.")]
pub struct ConfigureArgs {
    /// The AI client: claude-code, claude-desktop, codex, cursor, vscode, windsurf, gemini, qwen,
    /// copilot, opencode, cherry-studio, workbuddy, zcode, deepseek, or generic (a project's
    /// .mcp.json, printed).
    #[arg(value_parser = parse_client, required_unless_present = "list", conflicts_with = "list")]
    pub client: Option<ClientId>,

    /// Have the client start the offline demo account (`--demo` in the entry). Later runs keep it.
    #[arg(long, conflicts_with_all = ["no_demo", "remove", "list"])]
    pub demo: bool,

    /// Take `--demo` out of the client's entry.
    #[arg(long, conflicts_with_all = ["remove", "list"])]
    pub no_demo: bool,

    /// Have the client start the server read-only: no tool writes to Garmin (`--readonly` in the
    /// entry). Later runs keep it.
    #[arg(long, alias = "read-only", conflicts_with_all = ["no_readonly", "remove", "list"])]
    pub readonly: bool,

    /// Take `--readonly` out of the client's entry.
    #[arg(long, conflicts_with_all = ["remove", "list"])]
    pub no_readonly: bool,

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

/// `Some(true)`: put the flag in; `Some(false)`: take it out; `None`: keep what the entry has.
fn switch(on: bool, off: bool, name: &str) -> Result<Option<bool>, String> {
    match (on, off) {
        (true, true) => Err(format!("--{name} and --no-{name} contradict each other; pass one")),
        (true, false) => Ok(Some(true)),
        (false, true) => Ok(Some(false)),
        (false, false) => Ok(None),
    }
}

fn execute(args: &ConfigureArgs, data_dir: &Path) -> Result<ExitCode, String> {
    let entry = this_program(data_dir)?.with_flags(
        switch(args.demo, args.no_demo, "demo")?,
        switch(args.readonly, args.no_readonly, "readonly")?,
    );
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
        let file = row.config_path.as_ref().map_or_else(
            || "(no file: `configure <client>` prints the text)".to_owned(),
            |p| p.display().to_string(),
        );
        let installed = if row.installed { "yes" } else { "no" };
        println!("{:width$}  {installed:9}  {configured:10}  {file}", row.client.id());
        if let Configured::Different(why) | Configured::Unknown(why) = &row.configured {
            println!("{:width$}  {why}", "");
        }
        if !row.entry_flags.is_empty() {
            println!("{:width$}  starts it with {}", "", row.entry_flags.join(" "));
        }
    }
    println!(
        "\nAdd one with: garmin-mcp configure <client> [--demo] [--readonly]   (print the text instead: --print)"
    );
}
