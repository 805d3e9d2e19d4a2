//! The command line: flags and sub-commands of `garmin-mcp`, and the dispatch to one module per
//! command under `cli/`. Every command prints its result to stdout and its problems to stderr, and
//! exits non-zero when something needs the person's attention.

mod api;
mod api_key;
mod check;
mod configure;
mod login;
mod output;
mod remote;
mod serve;
mod status;
mod sync;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use garmin::SessionStore;

/// Talk to your Garmin Connect data from any MCP client.
#[derive(Debug, Parser)]
#[command(name = "garmin-mcp", version, about, long_about = None)]
pub struct Cli {
    /// Folder holding the shared session (default: the desktop app's data folder; env GARMIN_MCP_HOME).
    #[arg(long, global = true, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,

    /// More log detail on stderr (-v, -vv). Cookies and tokens are never logged.
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,

    /// Hide and refuse every tool that writes to Garmin (MCP server). Env GARMIN_MCP_READONLY=true
    /// (how an MCP Bundle passes its option).
    #[arg(long, alias = "read-only", env = "GARMIN_MCP_READONLY", hide_env = true)]
    pub readonly: bool,

    /// Only offer these toolsets, comma-separated (MCP server; `session` is always on).
    #[arg(long, value_delimiter = ',', value_name = "SET,SET")]
    pub toolsets: Option<Vec<String>>,

    /// Answer everything live from Garmin, never from the local history (MCP server).
    #[arg(long)]
    pub no_cache: bool,

    /// Serve the offline demo account (a fake athlete's year of data) instead of your Garmin account.
    /// Env GARMIN_MCP_DEMO=true (how an MCP Bundle passes its option).
    #[arg(long, env = "GARMIN_MCP_DEMO", hide_env = true)]
    pub demo: bool,

    /// The athlete's "today" as YYYY-MM-DD (default: this computer's date). Pins every date the
    /// server works out ("this month", "last night") and anchors the demo's data set: for tests,
    /// demos and reproducing an answer seen on another day.
    #[arg(long, global = true, env = "GARMIN_MCP_TODAY", value_name = "YYYY-MM-DD", hide_short_help = true)]
    pub today: Option<chrono::NaiveDate>,

    /// Serve MCP over HTTP at http://HOST:PORT/mcp (streamable HTTP) instead of stdio.
    #[arg(long, help_heading = "HTTP mode")]
    pub http: bool,

    /// Address to listen on (e.g. 0.0.0.0 for the whole network; a token is always required there).
    #[arg(
        long,
        default_value = "127.0.0.1",
        value_name = "ADDRESS",
        requires = "http",
        help_heading = "HTTP mode"
    )]
    pub host: String,

    /// Port to listen on (0 picks a free one).
    #[arg(long, default_value_t = crate::http::DEFAULT_PORT, requires = "http", help_heading = "HTTP mode")]
    pub port: u16,

    /// Bearer token every request must carry. Prefer --token-file: command lines are visible to
    /// other users of this computer.
    #[arg(
        long,
        value_name = "TOKEN",
        requires = "http",
        conflicts_with = "token_file",
        help_heading = "HTTP mode"
    )]
    pub token: Option<crate::http::Token>,

    /// File holding the bearer token (must be private: chmod 600). Default: `remote-token` in the
    /// data folder, generated on first start.
    #[arg(long, value_name = "FILE", requires = "http", help_heading = "HTTP mode")]
    pub token_file: Option<PathBuf>,

    /// Serve without a token (loopback only): any program or user on this computer can then use
    /// your Garmin data through the server.
    #[arg(long, requires = "http", conflicts_with_all = ["token", "token_file"], help_heading = "HTTP mode")]
    pub no_token: bool,

    /// Let callers open the Garmin MCP desktop app on this computer (sign-in on demand) and ask it
    /// to confirm writes. Off by default: HTTP callers may be anywhere.
    #[arg(long, requires = "http", help_heading = "HTTP mode")]
    pub with_app: bool,

    /// Seconds an MCP session may stay unused after `initialize` before it is closed (tests).
    #[arg(long, hide = true, value_name = "SECS", requires = "http")]
    pub abandoned_session_secs: Option<u64>,

    /// Seconds a call whose connection broke waits for its client to resume the stream before it
    /// is cancelled (default 30; 0 cancels at once).
    #[arg(long, value_name = "SECS", requires = "http", help_heading = "HTTP mode")]
    pub resume_window_secs: Option<u64>,

    /// Another host name clients may use (Host/Origin check), e.g. a reverse proxy's public name or
    /// this machine's LAN address; repeat or comma-separate.
    #[arg(long, value_delimiter = ',', value_name = "NAME", requires = "http", help_heading = "HTTP mode")]
    pub allow_host: Vec<String>,

    /// The public HTTPS origin a tunnel gives this server (e.g. https://my-pc.tail1234.ts.net): turns
    /// on OAuth so claude.ai, ChatGPT and other hosted assistants can connect at URL/mcp after you
    /// approve each one. Keep listening on 127.0.0.1; the tunnel forwards to it.
    #[arg(
        long,
        value_name = "URL",
        requires = "http",
        conflicts_with = "no_token",
        help_heading = "HTTP mode"
    )]
    pub public_url: Option<String>,

    /// A host (`name` or `name:port`) whose OAuth client metadata documents may be fetched although
    /// it is a private or loopback address (tests; a document served on the home network).
    #[arg(long, hide = true, value_name = "HOST", requires = "public_url")]
    pub allow_client_metadata_host: Vec<String>,

    /// What to do (none: serve MCP over stdio, or HTTP with --http).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Sub-commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Save a Garmin Connect session copied from a signed-in browser (--manual), or Garmin's
    /// official Personal API key (--api-key).
    Login(login::LoginArgs),
    /// Check that the saved session works and show whose it is.
    Status(status::StatusArgs),
    /// Forget the saved session on this computer.
    Logout,
    /// Call a Garmin Connect API path (GET) and print its JSON: for troubleshooting.
    Api(api::ApiArgs),
    /// Copy your Garmin history (a year, or from --since) into the local history database, with a
    /// progress bar; later runs read only what changed.
    Sync(sync::SyncArgs),
    /// Set up an AI client (Claude, Codex, Gemini, Copilot, opencode, …) to start this server; --list shows them.
    Configure(configure::ConfigureArgs),
    /// Call every read-only tool once on the saved session (or --demo) and say how each did.
    Check(check::CheckArgs),
    /// Remote access (--public-url): a pairing code, the approved clients, revoking them.
    Remote(remote::RemoteArgs),
}

impl Cli {
    /// True when this command line serves MCP over stdio (no command, no `--http`).
    pub fn serves_stdio(&self) -> bool {
        self.command.is_none() && !self.http
    }
}

/// Runs the parsed command line.
pub async fn run(cli: Cli) -> ExitCode {
    let Some(store) = SessionStore::resolve(cli.data_dir.as_deref()) else {
        eprintln!(
            "garmin-mcp: cannot find a home folder for the session; pass --data-dir DIR or set {}",
            garmin::DATA_DIR_ENV
        );
        return ExitCode::FAILURE;
    };
    match cli.command {
        Some(Command::Login(args)) => login::run(args, &store).await,
        Some(Command::Status(args)) => status::run(args, &store).await,
        Some(Command::Logout) => logout(&store),
        Some(Command::Api(args)) => api::run(args, &store).await,
        Some(Command::Check(args)) => {
            let target = check::Target { demo: cli.demo, today: cli.today, toolsets: cli.toolsets };
            check::run(args, target, store).await
        }
        Some(Command::Sync(args)) => sync::run(args, &store, cli.today).await,
        Some(Command::Remote(args)) => remote::run(args, store.dir()).await,
        Some(Command::Configure(mut args)) => {
            // `garmin-mcp --demo configure …` means the same as `configure … --demo`.
            args.demo |= cli.demo;
            args.readonly |= cli.readonly;
            configure::run(args, store.dir())
        }
        None => {
            let http = cli.http.then_some(serve::HttpArgs {
                host: cli.host,
                port: cli.port,
                token: cli.token,
                token_file: cli.token_file,
                no_token: cli.no_token,
                with_app: cli.with_app,
                abandoned_session_secs: cli.abandoned_session_secs,
                resume_window_secs: cli.resume_window_secs,
                allow_hosts: cli.allow_host,
                public_url: cli.public_url,
                metadata_hosts: cli.allow_client_metadata_host,
            });
            let args = serve::ServeArgs {
                readonly: cli.readonly,
                toolsets: cli.toolsets,
                demo: cli.demo,
                today: cli.today,
                no_cache: cli.no_cache,
                http,
            };
            serve::run(args, store).await
        }
    }
}

fn logout(store: &SessionStore) -> ExitCode {
    match store.clear() {
        Ok(true) => {
            println!("Signed out: removed {}", store.path().display());
            ExitCode::SUCCESS
        }
        Ok(false) => {
            println!("Already signed out (no session in {})", store.dir().display());
            ExitCode::SUCCESS
        }
        Err(e) => output::fail(&e.into()),
    }
}
