//! `garmin-mcp --http`: MCP over the streamable HTTP transport at `/mcp`, so a phone or another
//! machine can reach the server as a long-lived service. Because that makes the server reachable from
//! a network, everything in front of rmcp's service is about refusing strangers:
//!
//! * a bearer token is the default: generated on first start and saved (0600) in the data folder
//!   unless one is given; `--no-token` is allowed on loopback only, with a warning ([`bind`],
//!   [`auth`]);
//! * every request must use an origin-form target, name one allowed `Host` and, when it carries
//!   one, an allowed `Origin` (DNS-rebinding protection, 400/403) — [`guard`];
//! * with a token, every request needs `Authorization: Bearer <token>`, compared in constant time
//!   (401 otherwise, before anything reaches a tool) — [`auth`]; OAuth discovery and client
//!   registration paths answer a plain 404, so clients tell the person to send the header;
//! * with `--public-url`, also an OAuth 2.1 authorization server for hosted assistants behind a
//!   tunnel, each client approved by the owner ([`oauth`]; its routes sit beside `/mcp`);
//! * sessions, event streams and bodies are bounded ([`limits`]: 503 with `Retry-After` past the
//!   session cap, 413 for a declared or real body over [`MAX_BODY_BYTES`], 400 for broken framing),
//!   headers and bodies must arrive in time, and connections are capped at [`MAX_CONNECTIONS`]
//!   (past it, new connections get an immediate 503 instead of waiting in the queue); one address
//!   holds only a few connections until one of them is authenticated, and an authenticated client
//!   only its share ([`connections`]), so a slowloris from one address leaves room for everyone
//!   else; per-client caps key on the authenticated caller ([`crate::caller::ClientKey`]), not the address,
//!   which behind a tunnel is everyone's;
//! * calls are bounded per session, per client and in all, and a call whose client closed its
//!   connection before the answer is cancelled ([`inflight`]);
//! * answers on the event stream are framed so every client reads them: `event: message` on each
//!   message, and the priming event only for clients of protocol 2025-11-25 or later ([`framing`]);
//! * SIGTERM/Ctrl-C stops accepting, lets calls in progress finish ([`inflight`]: a call that has
//!   answered, or whose client is gone, is not in progress), then ends the sessions and closes the
//!   connections.
//!
//! Every session gets a clone of one [`GarminMcp`], so all clients share one Garmin client and the
//! session store on disk; renewals happen in this process through that store, like in stdio mode.

pub mod auth;
mod connections;
mod framing;
mod guard;
mod inflight;
mod limits;
pub mod oauth;
mod replay;

use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::response::IntoResponse;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tower::ServiceExt as _;

pub use crate::caller::{ClientKey, Peer, Scopes};
pub use auth::{TOKEN_FILE_NAME, Token};
pub use connections::{MAX_CONNECTIONS_PER_CLIENT, MAX_UNAUTHENTICATED_PER_PEER};
pub use guard::AllowedHost;
pub use inflight::{MAX_CALLS, MAX_CALLS_PER_CLIENT, MAX_CALLS_PER_SESSION};
pub use limits::{IDLE_SESSION_TIMEOUT, MAX_STREAMS, MAX_STREAMS_PER_SESSION, SessionLimits};

use crate::server::GarminMcp;

/// Where MCP is served.
pub const MCP_PATH: &str = "/mcp";
/// Default port of `--http`.
pub const DEFAULT_PORT: u16 = 8765;
/// Largest accepted request body (a tool call's arguments are a few KiB at most).
pub const MAX_BODY_BYTES: usize = 1024 * 1024;
/// A client must send its request headers within this time (slow-header attacks); it is also how
/// long an idle kept-alive connection stays open.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(5);
/// A client must send its whole request body within this time.
pub const BODY_READ_TIMEOUT: Duration = Duration::from_secs(30);
/// How long shutdown waits for calls in progress before ending the sessions anyway.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(30);
/// Open connections served at once.
pub const MAX_CONNECTIONS: usize = 512;
/// Connections past [`MAX_CONNECTIONS`] that are answered 503 at once; beyond these, closed.
const OVERFLOW_CONNECTIONS: usize = 64;

/// How `--http` is set up.
#[derive(Clone, Debug)]
pub struct HttpOptions {
    /// Address or host name to listen on (`--host`).
    pub host: String,
    /// Port (`--port`; 0 picks a free one).
    pub port: u16,
    /// The bearer token every request must carry (`None`: `--no-token`).
    pub token: Option<Token>,
    /// The file the token came from, for the start-up line (never the token itself).
    pub token_file: Option<PathBuf>,
    /// Extra names clients may use in `Host`/`Origin` (`--allow-host`, e.g. a reverse proxy's name).
    pub allow_hosts: Vec<String>,
    /// Session caps and the clean-up of abandoned sessions.
    pub sessions: SessionLimits,
    /// `--public-url`: the OAuth authorization server for hosted assistants (`None`: off).
    pub oauth: Option<oauth::Settings>,
}

impl HttpOptions {
    /// Loopback on the default port, with `token`, no extra host names, default limits.
    pub fn loopback(token: Option<Token>) -> Self {
        HttpOptions {
            host: "127.0.0.1".to_owned(),
            port: DEFAULT_PORT,
            token,
            token_file: None,
            allow_hosts: Vec::new(),
            sessions: SessionLimits::default(),
            oauth: None,
        }
    }
}

/// Why the HTTP server did not start.
#[derive(Debug)]
pub enum StartError {
    /// A non-loopback address with `--no-token`.
    TokenRequired {
        /// The `--host` value.
        host: String,
    },
    /// `--allow-host` value that is not a host name or address.
    BadAllowedHost(String),
    /// The host name did not resolve.
    Resolve {
        /// The `--host` value.
        host: String,
        /// What the resolver said.
        error: std::io::Error,
    },
    /// `--public-url` without a token (the owner's clients would have no way in).
    OAuthNeedsToken,
    /// The authorization server could not start (its data folder is in use…).
    OAuth(String),
    /// The address could not be bound (in use, no permission…).
    Bind {
        /// `host:port`.
        address: String,
        /// What the OS said.
        error: std::io::Error,
    },
}

impl StartError {
    /// True when the command line itself is at fault (exit code 2), not the machine.
    pub fn is_usage(&self) -> bool {
        matches!(
            self,
            StartError::TokenRequired { .. } | StartError::BadAllowedHost(_) | StartError::OAuthNeedsToken
        )
    }
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::TokenRequired { host } => write!(
                f,
                "refusing to listen on {host} without a token: anyone who can reach this address could read \
                 your Garmin data. Leave out --no-token (a token is then generated and saved in the data \
                 folder), or give your own in a file only you can read (for example \
                 `openssl rand -hex 32 > ~/.garmin-mcp-token && chmod 600 ~/.garmin-mcp-token` and \
                 `--token-file ~/.garmin-mcp-token`), or listen on 127.0.0.1 only"
            ),
            StartError::BadAllowedHost(value) => {
                write!(
                    f,
                    "--allow-host `{value}` is not a host name or address (examples: garmin.example.com, 192.168.1.20)"
                )
            }
            StartError::OAuthNeedsToken => f.write_str(
                "--public-url needs the bearer token (leave out --no-token): the tunnel makes the server reachable \
                 from the internet, and local programs then use the token",
            ),
            StartError::OAuth(message) => f.write_str(message),
            StartError::Resolve { host, error } => write!(f, "cannot find the address of `{host}`: {error}"),
            StartError::Bind { address, error } => write!(f, "cannot listen on {address}: {error}"),
        }
    }
}

impl std::error::Error for StartError {}

/// A bound listener, checked and ready to serve.
#[derive(Debug)]
pub struct Listening {
    listener: TcpListener,
    local: SocketAddr,
    url: String,
    loopback_only: bool,
    access: Arc<guard::Access>,
    auth: Arc<auth::Auth>,
    token_file: Option<PathBuf>,
    sessions: SessionLimits,
}

/// Resolves and binds the address, refusing a non-loopback one without a token.
pub async fn bind(options: HttpOptions) -> Result<Listening, StartError> {
    let mut allowed = Vec::new();
    for name in ["localhost", "127.0.0.1", "::1", options.host.as_str()] {
        allowed.extend(AllowedHost::parse(name));
    }
    for extra in &options.allow_hosts {
        allowed.push(AllowedHost::parse(extra).ok_or_else(|| StartError::BadAllowedHost(extra.clone()))?);
    }
    if let Some(settings) = &options.oauth {
        if options.token.is_none() {
            return Err(StartError::OAuthNeedsToken);
        }
        let public = &settings.public_url;
        let name = match public.port() {
            Some(port) => format!("{}:{port}", public.host()),
            None => public.host().to_owned(),
        };
        allowed.extend(AllowedHost::parse(&name));
    }
    let addresses: Vec<SocketAddr> = tokio::net::lookup_host((options.host.as_str(), options.port))
        .await
        .map_err(|error| StartError::Resolve { host: options.host.clone(), error })?
        .collect();
    let loopback_only = !addresses.is_empty() && addresses.iter().all(|a| a.ip().is_loopback());
    if !loopback_only && options.token.is_none() {
        return Err(StartError::TokenRequired { host: options.host });
    }
    let listener = TcpListener::bind(addresses.as_slice())
        .await
        .map_err(|error| StartError::Bind { address: format!("{}:{}", options.host, options.port), error })?;
    let local = listener
        .local_addr()
        .map_err(|error| StartError::Bind { address: format!("{}:{}", options.host, options.port), error })?;
    let url_host = match options.host.parse::<IpAddr>() {
        Ok(IpAddr::V6(ip)) => format!("[{ip}]"),
        Ok(IpAddr::V4(ip)) => ip.to_string(),
        Err(_) => options.host.clone(),
    };
    let url = format!("http://{url_host}:{}{MCP_PATH}", local.port());
    let oauth = match &options.oauth {
        Some(settings) => {
            let oauth = oauth::OAuth::open(settings, write_tools()).map_err(StartError::OAuth)?;
            let loopback = if local.ip().is_unspecified() || local.ip().is_loopback() {
                format!("http://127.0.0.1:{}", local.port())
            } else {
                format!("http://{url_host}:{}", local.port())
            };
            oauth.publish_control(&loopback).map_err(StartError::OAuth)?;
            Some(Arc::new(oauth))
        }
        None => None,
    };
    let auth = Arc::new(auth::Auth { token: options.token.clone(), oauth });
    let access = Arc::new(guard::Access { allowed, token: options.token });
    Ok(Listening {
        listener,
        local,
        url,
        loopback_only,
        access,
        auth,
        token_file: options.token_file,
        sessions: options.sessions,
    })
}

/// The tools that change Garmin data (not marked read-only): what a read-only OAuth grant may
/// neither list nor call.
fn write_tools() -> std::collections::HashSet<String> {
    crate::listing::write_tools().map(str::to_owned).collect()
}

impl Listening {
    /// The address actually bound (the port is real even with `--port 0`).
    pub fn local_addr(&self) -> SocketAddr {
        self.local
    }

    /// The MCP endpoint, e.g. `http://127.0.0.1:8765/mcp`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The one start-up line, in plain words: where, whether a token is needed, read-only or not.
    /// It never contains the token.
    pub fn startup_line(&self, read_only: bool, demo: bool) -> String {
        let token = match (&self.access.token, &self.token_file) {
            (Some(_), Some(file)) => {
                format!("every request needs the bearer token saved in {}", file.display())
            }
            (Some(_), None) => "every request needs the bearer token".to_owned(),
            (None, _) => {
                "no token needed (--no-token: any program or user on this computer can use it)".to_owned()
            }
        };
        let writes = if read_only {
            "read-only (write tools hidden)"
        } else {
            "write tools on (writes still need confirmation)"
        };
        let mut details = vec![token, writes.to_owned()];
        if demo {
            details.push("demo account (fake data)".to_owned());
        }
        if let Some(oauth) = &self.auth.oauth {
            details.push(format!(
                "remote access on: hosted assistants connect at {} after you approve them (OAuth)",
                oauth.urls.resource
            ));
        }
        if !self.loopback_only {
            let names: Vec<String> = self.access.allowed.iter().map(ToString::to_string).collect();
            details.push(format!(
                "clients must address it as one of: {} (add others with --allow-host)",
                names.join(", ")
            ));
        }
        app_bridge::sidecar::serving_line(&self.url, &details)
    }

    /// With `--public-url`: the pairing code made at start, for the terminal.
    pub fn pairing_code(&self) -> Option<String> {
        self.auth.oauth.as_ref().and_then(|oauth| oauth.startup_code())
    }

    /// Serves until `shutdown` resolves, then lets calls in progress finish (up to
    /// [`SHUTDOWN_GRACE`]), ends the MCP sessions and closes every connection.
    pub async fn serve(self, server: GarminMcp, shutdown: impl Future<Output = ()>) {
        let sessions = CancellationToken::new();
        let calls = inflight::Calls::new(self.sessions.resume_window);
        let limits = Arc::new(limits::Limits {
            sessions: Arc::new(limits::Sessions::new(self.sessions, calls.clone())),
            streams: Arc::default(),
            calls: calls.clone(),
        });
        let connections = Arc::new(connections::Connections::default());
        let reaper = tokio::spawn(close_abandoned_sessions(limits.sessions.clone(), self.sessions));
        let app = router(server, self.access.clone(), self.auth.clone(), limits, sessions.clone());
        let mut http = hyper::server::conn::http1::Builder::new();
        http.timer(TokioTimer::new()).header_read_timeout(HEADER_READ_TIMEOUT);
        let graceful = GracefulShutdown::new();
        let permits = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
        let overflow = Arc::new(tokio::sync::Semaphore::new(OVERFLOW_CONNECTIONS));
        tokio::pin!(shutdown);
        loop {
            let (stream, peer) = tokio::select! {
                accepted = self.listener.accept() => match accepted {
                    Ok(accepted) => accepted,
                    Err(e) => {
                        // Out of file descriptors and the like: wait a little rather than spin.
                        tracing::warn!("could not accept a connection: {e}");
                        tokio::time::sleep(Duration::from_millis(50)).await;
                        continue;
                    }
                },
                () = &mut shutdown => break,
            };
            let _ = stream.set_nodelay(true);
            let Some(connection) = connections.open(peer.ip()) else {
                // This address holds its share of connections not yet authenticated: say so and
                // close, without reading anything from it.
                let _ = stream.try_write(PEER_FULL.as_bytes());
                continue;
            };
            let Ok(permit) = permits.clone().try_acquire_owned() else {
                // Full: say so at once rather than leave the client waiting in the queue.
                if let Ok(permit) = overflow.clone().try_acquire_owned() {
                    let connection =
                        http.serve_connection(TokioIo::new(stream), hyper::service::service_fn(busy));
                    tokio::spawn(async move {
                        let _ = tokio::time::timeout(HEADER_READ_TIMEOUT, connection).await;
                        drop(permit);
                    });
                }
                continue;
            };
            let service =
                TowerToHyperService::new(app.clone().map_request(move |request: Request<Incoming>| {
                    let mut request = request.map(Body::new);
                    request.extensions_mut().insert(Peer(peer));
                    request.extensions_mut().insert(connection.clone());
                    request
                }));
            let connection = graceful.watch(http.serve_connection(TokioIo::new(stream), service));
            tokio::spawn(async move {
                if let Err(e) = connection.await {
                    tracing::debug!(%peer, "connection ended: {e}");
                }
                drop(permit);
            });
        }
        drop(self.listener);
        reaper.abort();
        // Nobody resumes a broken stream now: its call is cancelled rather than waited for.
        calls.cancel_orphans();
        let busy = calls.count();
        if busy > 0 {
            eprintln!("garmin-mcp: stopping after {busy} call(s) in progress finish");
        } else {
            eprintln!("garmin-mcp: stopping");
        }
        // Connections finish their current request and close; no new request starts.
        let closing = tokio::spawn(graceful.shutdown());
        if tokio::time::timeout(SHUTDOWN_GRACE, calls.idle()).await.is_err() {
            eprintln!("garmin-mcp: calls still running after {}s; stopping anyway", SHUTDOWN_GRACE.as_secs());
        }
        // Ends the sessions, which closes their event streams and lets those connections go.
        sessions.cancel();
        if tokio::time::timeout(Duration::from_secs(5), closing).await.is_err() {
            tracing::warn!("some connections did not close in time");
        }
        if let Some(oauth) = &self.auth.oauth {
            oauth.flush();
        }
    }
}

/// Closes sessions abandoned after `initialize`, checking a few times per allowed period.
async fn close_abandoned_sessions(sessions: Arc<limits::Sessions>, limits: SessionLimits) {
    let every = (limits.abandoned_after / 4).clamp(Duration::from_millis(100), Duration::from_secs(5));
    let mut ticks = tokio::time::interval(every);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        sessions.close_abandoned().await;
    }
}

/// The answer on a connection past [`MAX_CONNECTIONS`].
async fn busy(_request: Request<Incoming>) -> Result<axum::http::Response<String>, std::convert::Infallible> {
    let mut response = axum::http::Response::new(format!(
        "Service Unavailable: the server has {MAX_CONNECTIONS} connections open, its limit; try again shortly"
    ));
    *response.status_mut() = StatusCode::SERVICE_UNAVAILABLE;
    let headers = response.headers_mut();
    headers.insert(axum::http::header::RETRY_AFTER, axum::http::HeaderValue::from_static("1"));
    headers.insert(axum::http::header::CONNECTION, axum::http::HeaderValue::from_static("close"));
    headers.insert(
        axum::http::header::CONTENT_TYPE,
        axum::http::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    Ok(response)
}

/// The answer to a connection from an address that holds its share of unauthenticated ones
/// ([`connections::MAX_UNAUTHENTICATED_PER_PEER`]), written before closing it.
const PEER_FULL: &str = "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 94\r\n\r\nService Unavailable: this address holds too many connections that have not sent a request yet\n";

/// The whole HTTP application, outermost first: a declared body length over the limit, the
/// target/Host/Origin check, OAuth paths (404), bearer auth, session/stream/body/call limits,
/// event-stream framing, then rmcp's streamable HTTP service at [`MCP_PATH`] (404 elsewhere).
fn router(
    server: GarminMcp,
    access: Arc<guard::Access>,
    auth: Arc<auth::Auth>,
    limits: Arc<limits::Limits>,
    sessions: CancellationToken,
) -> Router {
    // rmcp checks Host and Origin too; give it the same lists so both layers agree.
    let config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(access.allowed.iter().map(AllowedHost::authority))
        .with_allowed_origins(access.allowed.iter().flat_map(AllowedHost::origins))
        .with_max_request_body_bytes(MAX_BODY_BYTES)
        .with_cancellation_token(sessions);
    let mcp = StreamableHttpService::new(move || Ok(server.clone()), limits.sessions.clone(), config);
    let oauth = auth.oauth.clone().map(oauth::routes).unwrap_or_default();
    Router::new()
        .nest_service(MCP_PATH, mcp)
        .merge(oauth)
        .fallback(|| async {
            (StatusCode::NOT_FOUND, format!("Not found: MCP is served at {MCP_PATH}")).into_response()
        })
        .layer(axum::middleware::from_fn(framing::frame_events))
        .layer(axum::middleware::from_fn_with_state(limits, limits::admit))
        .layer(axum::middleware::from_fn_with_state(auth.clone(), auth::require_bearer))
        .layer(axum::middleware::from_fn_with_state(auth, auth::no_oauth))
        .layer(axum::middleware::from_fn_with_state(access, guard::check_host_and_origin))
        .layer(axum::middleware::from_fn(limits::refuse_oversized))
}

/// Resolves on Ctrl-C, or SIGTERM on Unix (what systemd sends), or on Windows Ctrl-Break (what
/// `GenerateConsoleCtrlEvent` and a console's Ctrl+Break send), the console window closing, or the
/// system shutting down: the server then stops cleanly instead of being ended mid-answer.
pub async fn stop_signal() {
    #[cfg(windows)]
    {
        use tokio::signal::windows::{ctrl_break, ctrl_close, ctrl_shutdown};
        if let (Ok(mut brk), Ok(mut close), Ok(mut shutdown)) = (ctrl_break(), ctrl_close(), ctrl_shutdown())
        {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = brk.recv() => {}
                _ = close.recv() => {}
                _ = shutdown.recv() => {}
            }
            return;
        }
    }
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}
