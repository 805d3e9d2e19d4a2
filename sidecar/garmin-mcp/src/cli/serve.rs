//! `garmin-mcp` with no command: serve MCP over stdio (what AI clients start), or with `--http` over
//! streamable HTTP as a long-lived service (see `crate::http`). In stdio mode stdout carries only the
//! protocol; in both modes everything else goes to stderr, and the HTTP token is never printed (only
//! the file that holds it). Over HTTP the server never starts or asks the desktop app unless
//! `--with-app` says so, and its answers hide this computer's paths.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use garmin::SessionStore;
use rmcp::ServiceExt as _;

use crate::demo::Demo;
use crate::http::{self, HttpOptions, Token};
use crate::server::{GarminMcp, ServerOptions};

/// Server flags from the command line.
#[derive(Debug)]
pub struct ServeArgs {
    /// `--readonly`.
    pub readonly: bool,
    /// `--toolsets`.
    pub toolsets: Option<Vec<String>>,
    /// `--demo`.
    pub demo: bool,
    /// `--today` (`None`: the computer's date).
    pub today: Option<chrono::NaiveDate>,
    /// `--no-cache`.
    pub no_cache: bool,
    /// `--http` and its flags (`None`: stdio).
    pub http: Option<HttpArgs>,
}

/// `--http` flags.
#[derive(Debug)]
pub struct HttpArgs {
    /// `--host`.
    pub host: String,
    /// `--port`.
    pub port: u16,
    /// `--token` (unchecked).
    pub token: Option<Token>,
    /// `--token-file`.
    pub token_file: Option<PathBuf>,
    /// `--no-token`.
    pub no_token: bool,
    /// `--with-app`.
    pub with_app: bool,
    /// The hidden `--abandoned-session-secs`.
    pub abandoned_session_secs: Option<u64>,
    /// `--resume-window-secs`.
    pub resume_window_secs: Option<u64>,
    /// `--allow-host`.
    pub allow_hosts: Vec<String>,
    /// `--public-url` (unchecked).
    pub public_url: Option<String>,
    /// The hidden `--allow-client-metadata-host`.
    pub metadata_hosts: Vec<String>,
}

/// Serves until the client closes stdin (stdio) or until SIGTERM/Ctrl-C (HTTP).
pub async fn run(args: ServeArgs, store: SessionStore) -> ExitCode {
    // HTTP refusals (no token off loopback, a readable token file, a busy port) come first, before
    // anything starts.
    let listening = match &args.http {
        Some(flags) => match listen(flags, store.dir()).await {
            Ok(listening) => Some(listening),
            Err(code) => return code,
        },
        None => None,
    };
    let demo = if args.demo {
        match Demo::start(args.today).await {
            Ok(demo) => Some(demo),
            Err(e) => {
                eprintln!("garmin-mcp: could not start the demo account: {e}");
                return ExitCode::FAILURE;
            }
        }
    } else {
        None
    };
    let mut options = ServerOptions::new(demo.as_ref().map_or(store, |d| d.store.clone()));
    options.read_only = args.readonly;
    options.toolsets = args.toolsets;
    options.demo = demo.is_some();
    options.today = args.today;
    options.no_cache = args.no_cache;
    options.write_mode = crate::writes::WriteMode::from_env();
    if let Some(flags) = &args.http {
        options.use_app = flags.with_app;
        options.remote_callers = true;
    }
    let server = match GarminMcp::new(options) {
        Ok(server) => server,
        Err(message) => {
            eprintln!("garmin-mcp: {message}");
            return ExitCode::from(2);
        }
    };
    if let Some(listening) = listening {
        eprintln!("{}", listening.startup_line(args.readonly, demo.is_some()));
        if let Some(code) = listening.pairing_code() {
            eprintln!(
                "garmin-mcp: pairing code {} {} — type it on the approval page a hosted assistant opens (valid 15 \
                 minutes, once; `garmin-mcp remote pair` prints a new one)",
                &code[..3],
                &code[3..]
            );
        }
        listening.serve(server, http::stop_signal()).await;
        drop(demo);
        return ExitCode::SUCCESS;
    }
    let running = match server.serve(crate::stdio::LineTransport::stdio()).await {
        Ok(running) => running,
        Err(e) => {
            eprintln!("garmin-mcp: MCP start-up failed: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Err(e) = running.waiting().await {
        tracing::warn!("MCP session ended with an error: {e}");
    }
    drop(demo);
    ExitCode::SUCCESS
}

/// Checks or creates the token and binds the address; the error is already explained on stderr.
async fn listen(flags: &HttpArgs, data_dir: &Path) -> Result<http::Listening, ExitCode> {
    let token = match (&flags.token, &flags.token_file, flags.no_token) {
        (Some(token), _, _) => token.clone().validated().map(|t| (Some(t), None)),
        (None, Some(path), _) => Token::from_file(path).map(|t| (Some(t), Some(path.clone()))),
        (None, None, true) => Ok((None, None)),
        (None, None, false) => Token::load_or_create(data_dir).map(|(path, t)| (Some(t), Some(path))),
    };
    let (token, token_file) = match token {
        Ok(token) => token,
        Err(message) => {
            eprintln!("garmin-mcp: {message}");
            return Err(ExitCode::from(2));
        }
    };
    let mut sessions = http::SessionLimits::default();
    if let Some(secs) = flags.abandoned_session_secs {
        sessions.abandoned_after = std::time::Duration::from_secs(secs.max(1));
    }
    if let Some(secs) = flags.resume_window_secs {
        sessions.resume_window = std::time::Duration::from_secs(secs);
    }
    let oauth = match &flags.public_url {
        Some(url) => match http::oauth::PublicUrl::parse(url) {
            Ok(public_url) => Some(http::oauth::Settings {
                public_url,
                data_dir: data_dir.to_path_buf(),
                metadata_hosts: flags.metadata_hosts.clone(),
            }),
            Err(message) => {
                eprintln!("garmin-mcp: {message}");
                return Err(ExitCode::from(2));
            }
        },
        None => None,
    };
    let options = HttpOptions {
        host: flags.host.clone(),
        port: flags.port,
        token,
        token_file,
        allow_hosts: flags.allow_hosts.clone(),
        sessions,
        oauth,
    };
    let listening = http::bind(options).await.map_err(|e| {
        eprintln!("garmin-mcp: {e}");
        if e.is_usage() { ExitCode::from(2) } else { ExitCode::FAILURE }
    })?;
    if flags.no_token {
        eprintln!(
            "garmin-mcp: warning: --no-token: any program or user on this computer can read your Garmin data through {}",
            listening.url()
        );
    }
    Ok(listening)
}
