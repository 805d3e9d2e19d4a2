//! Remote access: the desktop app runs `garmin-mcp --http` as its child so an AI client on this
//! computer or on the home network can reach the person's Garmin data over MCP. This is the part of
//! the app↔sidecar contract that is not Tauri: the server's command line ([`server_args`], through
//! [`crate::sidecar::HttpServerArgs`]), its bearer token in a file only the person can read
//! ([`ensure_token_file`]; passed by file, never on the command line where other users could see
//! it), and the supervision of the process ([`RemoteAccess`]): its stderr (the start-up line
//! written by [`crate::sidecar::serving_line`]), its exit, and stopping it with SIGTERM (then a
//! kill when it does not stop in time). The server stops with its owner: the child is killed when
//! [`RemoteAccess`] is dropped, and [`RemoteAccess::shutdown_now`] serves an app's exit.
//!
//! The desktop app's panel commands are thin wrappers over this module; its tests run without a
//! webview.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tokio::io::{AsyncBufReadExt as _, BufReader};
use tokio::process::{Child, ChildStderr, Command};
use tokio::sync::{mpsc, watch};

use crate::sidecar::SidecarSearch;

pub mod owner;

/// Why remote access could not start or stop.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RemoteError {
    /// Started while a server is running.
    #[error("remote access is already on: stop it first")]
    AlreadyRunning,
    /// Anything else, in plain words with what to do.
    #[error("{0}")]
    Failed(String),
}

/// A remote-access result.
pub type Result<T> = std::result::Result<T, RemoteError>;

/// The token file's name inside the real data folder.
pub const TOKEN_FILE_NAME: &str = "remote-token";
/// The port `garmin-mcp --http` listens on by default.
pub const DEFAULT_PORT: u16 = 8765;
/// Random bytes in a token (shown as twice as many hex digits).
const TOKEN_BYTES: usize = 32;
/// How long starting waits for the start-up line.
const START_WAIT: Duration = Duration::from_secs(20);
/// How long stopping waits after SIGTERM before killing (the server lets calls finish first).
const STOP_GRACE: Duration = Duration::from_secs(10);
/// How long the app's exit waits after SIGTERM before killing.
const EXIT_GRACE: Duration = Duration::from_secs(3);
/// Lines of the server's output kept for the panel.
const OUTPUT_LINES: usize = 30;

/// What the person chose in the panel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct RemoteSettings {
    /// `false`: this computer only (127.0.0.1); `true`: my network (0.0.0.0).
    pub network: bool,
    /// The port to listen on.
    pub port: u16,
    /// Hide every tool that writes to Garmin.
    pub read_only: bool,
    /// The tunnel's public HTTPS origin (Tailscale Funnel, Cloudflare Tunnel): turns on OAuth so
    /// hosted assistants (claude.ai, ChatGPT…) can connect after the person approves each one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub public_url: Option<String>,
}

impl Default for RemoteSettings {
    fn default() -> Self {
        RemoteSettings { network: false, port: DEFAULT_PORT, read_only: true, public_url: None }
    }
}

impl RemoteSettings {
    /// The address the server listens on.
    pub fn host(&self) -> &'static str {
        if self.network { "0.0.0.0" } else { "127.0.0.1" }
    }
}

/// The server's arguments: HTTP mode on the chosen address and port, the token by file, the real
/// data folder, read-only when chosen, and `lan_address` as an extra allowed host name (clients on
/// the network address the server by it; the server refuses Host names it does not know). With
/// writes allowed, `--with-app`: the person turned remote access on in this app, which is running,
/// so remote writes are confirmed in its window as local ones are (without the flag an HTTP server
/// never asks the app, and writes would only be previewed).
pub fn server_args(
    settings: &RemoteSettings,
    data_dir: &Path,
    token_file: &Path,
    lan_address: Option<IpAddr>,
) -> Vec<OsString> {
    crate::sidecar::HttpServerArgs {
        host: settings.host(),
        port: settings.port,
        token_file,
        data_dir,
        read_only: settings.read_only,
        allow_host: lan_address.filter(|_| settings.network),
        public_url: settings.public_url.as_deref().map(str::trim).filter(|u| !u.is_empty()),
    }
    .to_args()
}

/// A fresh token: 32 bytes from the operating system's random source, as 64 hex digits.
pub fn generate_token() -> Result<String> {
    let mut bytes = [0u8; TOKEN_BYTES];
    getrandom::fill(&mut bytes).map_err(|e| {
        RemoteError::Failed(format!("the system's random source failed ({e}); try starting again"))
    })?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// The token in `dir`'s token file, written fresh (mode 0600) unless the file already holds a token
/// of ours that only its owner can read. Returns the file and the token.
pub fn ensure_token_file(dir: &Path) -> Result<(PathBuf, String)> {
    let path = dir.join(TOKEN_FILE_NAME);
    if let Some(token) = reusable_token(&path) {
        return Ok((path, token));
    }
    let token = generate_token()?;
    std::fs::create_dir_all(dir).map_err(|e| file_error(dir, "create the folder", &e))?;
    let partial = dir.join(format!("{TOKEN_FILE_NAME}.new"));
    // A leftover partial file may have other permissions; a new one is created with 0600.
    let _ = std::fs::remove_file(&partial);
    write_private(&partial, &token)?;
    std::fs::rename(&partial, &path).map_err(|e| file_error(&path, "replace", &e))?;
    Ok((path, token))
}

fn reusable_token(path: &Path) -> Option<String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let meta = std::fs::metadata(path).ok()?;
        if meta.permissions().mode() & 0o077 != 0 {
            return None;
        }
    }
    let token = std::fs::read_to_string(path).ok()?.trim().to_owned();
    let ours = token.len() == TOKEN_BYTES * 2 && token.bytes().all(|b| b.is_ascii_hexdigit());
    ours.then_some(token)
}

fn write_private(path: &Path, token: &str) -> Result<()> {
    use std::io::Write as _;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path).map_err(|e| file_error(path, "create", &e))?;
    file.write_all(format!("{token}\n").as_bytes()).map_err(|e| file_error(path, "write", &e))?;
    file.sync_all().map_err(|e| file_error(path, "write", &e))
}

fn file_error(path: &Path, what: &str, e: &std::io::Error) -> RemoteError {
    RemoteError::Failed(format!(
        "could not {what} {} for the remote-access token ({e}); check that the data folder is \
             writable",
        path.display()
    ))
}

/// This computer's address on its network, when the system knows a route out: the source address
/// of a UDP socket "connected" to a documentation address (nothing is sent).
pub fn lan_address() -> Option<IpAddr> {
    let socket = std::net::UdpSocket::bind("0.0.0.0:0").ok()?;
    socket.connect("192.0.2.1:9").ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_loopback() && !ip.is_unspecified()).then_some(ip)
}

/// What the panel shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct RemoteView {
    /// The server process is running.
    pub running: bool,
    /// The settings of the current (or last) run; the defaults before the first.
    pub settings: RemoteSettings,
    /// What clients put as the server's URL, once the server says where it listens.
    pub client_url: Option<String>,
    /// Why the URL needs editing (the network address could not be found), in plain words.
    pub url_note: Option<String>,
    /// The header clients must send, `Authorization: Bearer …`, while a run has a token.
    pub authorization_header: Option<String>,
    /// The server's start-up line, when it printed one.
    pub startup_line: Option<String>,
    /// The server's last lines of output.
    pub output: Vec<String>,
    /// How the last run ended, when it has.
    pub exit: Option<String>,
    /// Why the server cannot be started: the bundled program was not found.
    pub sidecar_missing: Option<String>,
    /// With a public URL: what hosted assistants are given (`https://…/mcp`).
    pub connector_url: Option<String>,
    /// The connector URL as a QR code (an `<svg>` element), for the phone.
    pub connector_qr: Option<String>,
    /// With a public URL, while the server runs: the approval side (pairing code, waiting and
    /// approved clients), filled by [`RemoteAccess::owner_view`].
    pub owner: Option<OwnerView>,
}

/// The approval side of the panel.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct OwnerView {
    /// The pairing code to type on the approval page.
    pub pairing: Option<owner::PairingCode>,
    /// Clients waiting for approval.
    pub pending: Vec<owner::PendingClient>,
    /// Approved clients.
    pub clients: Vec<owner::RemoteClient>,
    /// Why the server could not be asked, in plain words.
    pub problem: Option<String>,
}

/// The token, kept out of `Debug` output.
#[derive(Clone, Default)]
struct Secret(String);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(…)")
    }
}

/// The current (or last) run, shared between the commands and the supervising tasks.
#[derive(Clone, Debug, Default)]
struct Run {
    settings: RemoteSettings,
    data_dir: Option<PathBuf>,
    pairing: Option<(owner::PairingCode, std::time::Instant)>,
    running: bool,
    token: Option<Secret>,
    lan: Option<IpAddr>,
    startup_line: Option<String>,
    served_url: Option<String>,
    output: VecDeque<String>,
    exit: Option<String>,
}

enum Signal {
    Terminate,
    Kill,
}

/// The remote-access server (managed state): the program to run and the current run.
pub struct RemoteAccess {
    sidecar: SidecarSearch,
    run: watch::Sender<Run>,
    signals: std::sync::Mutex<Option<mpsc::UnboundedSender<Signal>>>,
    /// Starting and stopping one at a time.
    busy: tokio::sync::Mutex<()>,
}

impl std::fmt::Debug for RemoteAccess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RemoteAccess").field("sidecar", &self.sidecar).finish_non_exhaustive()
    }
}

impl RemoteAccess {
    /// Runs the `garmin-mcp` found by `sidecar` (tests point it at the workspace's build).
    pub fn new(sidecar: SidecarSearch) -> Self {
        RemoteAccess {
            sidecar,
            run: watch::Sender::new(Run::default()),
            signals: std::sync::Mutex::new(None),
            busy: tokio::sync::Mutex::new(()),
        }
    }

    /// What the panel shows now.
    pub fn view(&self) -> RemoteView {
        let run = self.run.borrow();
        let (client_url, url_note) = client_url(&run);
        let connector_url =
            run.settings.public_url.as_deref().map(|u| format!("{}/mcp", u.trim().trim_end_matches('/')));
        RemoteView {
            running: run.running,
            settings: run.settings.clone(),
            connector_qr: connector_url.as_deref().and_then(qr_svg),
            connector_url,
            owner: None,
            client_url,
            url_note,
            authorization_header: run
                .token
                .as_ref()
                .filter(|_| run.running)
                .map(|t| format!("Authorization: Bearer {}", t.0)),
            startup_line: run.startup_line.clone(),
            output: run.output.iter().cloned().collect(),
            exit: run.exit.clone(),
            sidecar_missing: self.sidecar.found.is_none().then(|| self.missing_sidecar()),
        }
    }

    fn missing_sidecar(&self) -> String {
        let places: Vec<String> = self.sidecar.looked_in.iter().map(|p| p.display().to_string()).collect();
        format!(
            "the garmin-mcp program was not found (looked in: {}). Reinstall the app, which ships it; \
             when running from source, build it with `cargo xtask sidecar`",
            if places.is_empty() {
                "nowhere: the app's own location is unknown".to_owned()
            } else {
                places.join(", ")
            }
        )
    }

    /// Starts the server with `settings` on the real data folder `data_dir` and waits (up to 20 s)
    /// for its start-up line or its exit. Must run inside a tokio runtime.
    pub async fn start(&self, settings: RemoteSettings, data_dir: &Path) -> Result<RemoteView> {
        let _busy = self.busy.lock().await;
        if self.run.borrow().running {
            return Err(RemoteError::AlreadyRunning);
        }
        let Some(program) = self.sidecar.found.clone() else {
            return Err(RemoteError::Failed(self.missing_sidecar()));
        };
        let data_dir = std::path::absolute(data_dir).map_err(|e| {
            RemoteError::Failed(format!("cannot make the data folder {} absolute: {e}", data_dir.display()))
        })?;
        let (token_file, token) = ensure_token_file(&data_dir)?;
        let lan = if settings.network { lan_address() } else { None };
        let mut child = crate::children::no_console_window(&mut Command::new(&program))
            .args(server_args(&settings, &data_dir, &token_file, lan))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| {
                RemoteError::Failed(format!(
                    "could not start {} ({e}); reinstall the app if it keeps failing",
                    program.display()
                ))
            })?;
        let stderr = child.stderr.take();
        let (signals, receiver) = mpsc::unbounded_channel();
        if let Ok(mut slot) = self.signals.lock() {
            *slot = Some(signals);
        }
        self.run.send_replace(Run {
            settings,
            data_dir: Some(data_dir.clone()),
            running: true,
            token: Some(Secret(token)),
            lan,
            ..Run::default()
        });
        tokio::spawn(supervise(child, stderr, receiver, self.run.clone()));
        let mut changes = self.run.subscribe();
        let started = changes.wait_for(|run| run.startup_line.is_some() || !run.running);
        let _ = tokio::time::timeout(START_WAIT, started).await;
        Ok(self.view())
    }

    /// The running server's owner API, when it serves with a public URL.
    fn owner(&self) -> Result<Option<owner::Owner>> {
        let run = self.run.borrow();
        if !run.running || run.settings.public_url.is_none() {
            return Ok(None);
        }
        let Some(dir) = run.data_dir.clone() else { return Ok(None) };
        drop(run);
        owner::Owner::find(&dir).map_err(RemoteError::Failed)
    }

    /// [`RemoteAccess::view`] with the approval side asked from the running server: a pairing code
    /// (a new one once the last expired), the waiting and the approved clients.
    pub async fn owner_view(&self) -> RemoteView {
        let mut view = self.view();
        let owner = match self.owner() {
            Ok(Some(owner)) => owner,
            Ok(None) => return view,
            Err(e) => {
                view.owner = Some(OwnerView { problem: Some(e.to_string()), ..OwnerView::default() });
                return view;
            }
        };
        let mut shown = OwnerView::default();
        let pairing = self.run.borrow().pairing.clone();
        let fresh = pairing.filter(|(code, at)| at.elapsed().as_secs() + 60 < code.expires_in_secs);
        shown.pairing = match fresh {
            Some((code, _)) => Some(code),
            None => match owner.pair().await {
                Ok(code) => {
                    self.run.send_modify(|run| run.pairing = Some((code.clone(), std::time::Instant::now())));
                    Some(code)
                }
                Err(e) => {
                    shown.problem = Some(e);
                    None
                }
            },
        };
        match (owner.pending().await, owner.clients().await) {
            (Ok(pending), Ok(clients)) => {
                shown.pending = pending;
                shown.clients = clients;
            }
            (Err(e), _) | (_, Err(e)) => shown.problem = Some(e),
        }
        view.owner = Some(shown);
        view
    }

    /// Allows or denies a waiting client.
    pub async fn decide(&self, id: &str, decision: owner::Decision) -> Result<RemoteView> {
        let owner = self.owner()?.ok_or_else(not_serving)?;
        owner.decide(id, decision).await.map_err(RemoteError::Failed)?;
        Ok(self.owner_view().await)
    }

    /// Revokes one approved client or all of them.
    pub async fn revoke(&self, which: &owner::Revoke) -> Result<RemoteView> {
        let owner = self.owner()?.ok_or_else(not_serving)?;
        owner.revoke(which).await.map_err(RemoteError::Failed)?;
        Ok(self.owner_view().await)
    }

    /// Makes a new pairing code (e.g. after a lockout).
    pub async fn new_code(&self) -> Result<RemoteView> {
        self.run.send_modify(|run| run.pairing = None);
        Ok(self.owner_view().await)
    }

    /// Stops the server: SIGTERM (it finishes calls in progress), then a kill after 10 s.
    pub async fn stop(&self) -> Result<RemoteView> {
        let _busy = self.busy.lock().await;
        if !self.run.borrow().running {
            return Ok(self.view());
        }
        let mut changes = self.run.subscribe();
        self.signal(Signal::Terminate);
        if tokio::time::timeout(STOP_GRACE, changes.wait_for(|run| !run.running)).await.is_err() {
            self.signal(Signal::Kill);
            let _ = tokio::time::timeout(Duration::from_secs(5), changes.wait_for(|run| !run.running)).await;
        }
        Ok(self.view())
    }

    /// For the app's exit (no async there): SIGTERM, up to 3 s to stop, then a kill.
    pub fn shutdown_now(&self) {
        if !self.run.borrow().running {
            return;
        }
        self.signal(Signal::Terminate);
        let deadline = std::time::Instant::now() + EXIT_GRACE;
        while self.run.borrow().running && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        if self.run.borrow().running {
            self.signal(Signal::Kill);
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    fn signal(&self, signal: Signal) {
        if let Ok(slot) = self.signals.lock()
            && let Some(sender) = slot.as_ref()
        {
            let _ = sender.send(signal);
        }
    }
}

fn not_serving() -> RemoteError {
    RemoteError::Failed(
        "remote access for hosted assistants is not on: start it with a public URL first".to_owned(),
    )
}

/// `text` as a QR code: an `<svg>` element (dark modules on white, with the quiet zone) that the
/// panel puts inline; it holds only the code's shapes, never the text.
pub fn qr_svg(text: &str) -> Option<String> {
    let code = qrcode::QrCode::new(text.as_bytes()).ok()?;
    let svg =
        code.render::<qrcode::render::svg::Color<'_>>().min_dimensions(200, 200).quiet_zone(true).build();
    // The XML prolog has no place inside an HTML page.
    svg.find("<svg").map(|start| svg[start..].to_owned())
}

impl Drop for RemoteAccess {
    fn drop(&mut self) {
        // Dropping the sender makes the supervisor kill the server.
        if let Ok(mut slot) = self.signals.lock() {
            slot.take();
        }
    }
}

/// The URL clients use: the served one, with this computer's network address instead of 0.0.0.0.
fn client_url(run: &Run) -> (Option<String>, Option<String>) {
    let Some(served) = &run.served_url else {
        return (None, None);
    };
    if !run.settings.network {
        return (Some(served.clone()), None);
    }
    match run.lan {
        Some(ip) => (Some(served.replacen("0.0.0.0", &ip.to_string(), 1)), None),
        None => (
            Some(served.clone()),
            Some(
                "this computer's network address could not be found (is it connected to a network?), so \
                 the server accepts only clients on this computer, at 127.0.0.1 in place of 0.0.0.0. \
                 Connect to your network, then stop and start remote access again"
                    .to_owned(),
            ),
        ),
    }
}

/// Owns the child: forwards signals to it, records its output and how it ended.
async fn supervise(
    mut child: Child,
    stderr: Option<ChildStderr>,
    mut signals: mpsc::UnboundedReceiver<Signal>,
    run: watch::Sender<Run>,
) {
    let reader = stderr.map(|stderr| tokio::spawn(record_output(stderr, run.clone())));
    let status = loop {
        tokio::select! {
            status = child.wait() => break status,
            signal = signals.recv() => match signal {
                Some(Signal::Terminate) => {
                    // `id()` is `None` once reaped, so the signal never reaches a reused pid.
                    if !child.id().is_some_and(terminate) {
                        let _ = child.start_kill();
                    }
                }
                Some(Signal::Kill) | None => {
                    let _ = child.start_kill();
                    break child.wait().await;
                }
            },
        }
    };
    if let Some(reader) = reader {
        let _ = tokio::time::timeout(Duration::from_secs(2), reader).await;
    }
    let exit = match status {
        Ok(status) => describe_exit(status),
        Err(e) => format!("could not tell how the server ended: {e}"),
    };
    run.send_modify(|run| {
        run.running = false;
        run.exit = Some(exit);
    });
}

/// Sends SIGTERM to `pid` (a positive pid: only that process); `false` when it could not be sent.
fn terminate(pid: u32) -> bool {
    if cfg!(unix) {
        std::process::Command::new("kill")
            .args(["-s", "TERM", &pid.to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|status| status.success())
    } else {
        false
    }
}

async fn record_output(stderr: ChildStderr, run: watch::Sender<Run>) {
    let mut lines = BufReader::new(stderr).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        run.send_modify(|run| {
            if let Some(url) = crate::sidecar::served_url(&line) {
                run.served_url = Some(url.to_owned());
                run.startup_line = Some(line.clone());
            }
            if run.output.len() == OUTPUT_LINES {
                run.output.pop_front();
            }
            run.output.push_back(line);
        });
    }
}

fn describe_exit(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        return if code == 0 { "stopped".to_owned() } else { format!("exited with code {code}") };
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt as _;
        if let Some(signal) = status.signal() {
            return format!("ended by signal {signal}");
        }
    }
    "ended".to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_pass_the_token_by_file_and_default_to_loopback_read_only() {
        let args = server_args(
            &RemoteSettings::default(),
            Path::new("/data"),
            Path::new("/data/remote-token"),
            Some("192.168.1.20".parse().expect("ip")),
        );
        let expected: Vec<OsString> = [
            "--http",
            "--host",
            "127.0.0.1",
            "--port",
            "8765",
            "--token-file",
            "/data/remote-token",
            "--data-dir",
            "/data",
            "--readonly",
        ]
        .iter()
        .map(OsString::from)
        .collect();
        assert_eq!(args, expected);
    }

    #[test]
    fn network_arguments_listen_everywhere_and_allow_the_lan_address() {
        let settings = RemoteSettings { network: true, port: 9000, read_only: false, public_url: None };
        let args = server_args(
            &settings,
            Path::new("/d"),
            Path::new("/d/t"),
            Some("192.168.1.20".parse().expect("ip")),
        );
        let text: Vec<&str> = args.iter().filter_map(|a| a.to_str()).collect();
        assert_eq!(&text[..5], ["--http", "--host", "0.0.0.0", "--port", "9000"]);
        assert!(!text.contains(&"--readonly"));
        assert!(text.contains(&"--with-app"), "writes are confirmed in the app: {text:?}");
        assert!(!text.contains(&"--token") && !text.contains(&"--no-token"));
        assert_eq!(&text[text.len() - 2..], ["--allow-host", "192.168.1.20"]);
    }

    #[test]
    fn a_public_url_is_passed_on_and_becomes_the_connector_url_with_its_qr_code() {
        let settings = RemoteSettings {
            public_url: Some(" https://pc.tail1.ts.net/ ".into()),
            ..RemoteSettings::default()
        };
        let args = server_args(&settings, Path::new("/d"), Path::new("/d/t"), None);
        let text: Vec<&str> = args.iter().filter_map(|a| a.to_str()).collect();
        let at = text.iter().position(|a| *a == "--public-url").expect("--public-url");
        assert_eq!(text[at + 1], "https://pc.tail1.ts.net/");
        let remote = RemoteAccess::new(SidecarSearch { found: None, looked_in: Vec::new() });
        remote.run.send_modify(|run| run.settings = settings.clone());
        let view = remote.view();
        assert_eq!(view.connector_url.as_deref(), Some("https://pc.tail1.ts.net/mcp"));
        let svg = view.connector_qr.expect("a QR code");
        assert!(
            svg.starts_with("<svg") && svg.contains("<path") && !svg.contains("pc.tail1"),
            "{}",
            &svg[..80]
        );
        assert!(qr_svg("https://a.example/mcp") != qr_svg("https://b.example/mcp"));
    }

    #[test]
    fn tokens_are_64_hex_digits_and_differ() {
        let a = generate_token().expect("token");
        let b = generate_token().expect("token");
        assert_eq!(a.len(), 64);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }

    #[cfg(unix)]
    #[test]
    fn token_file_is_private_and_reused_until_others_can_read_it() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().expect("temp dir");
        let (path, token) = ensure_token_file(dir.path()).expect("token file");
        let mode = std::fs::metadata(&path).expect("metadata").permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        assert_eq!(std::fs::read_to_string(&path).expect("read").trim(), token);
        let (_, again) = ensure_token_file(dir.path()).expect("token file");
        assert_eq!(again, token, "a private token is kept so clients need not be set up again");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        let (_, replaced) = ensure_token_file(dir.path()).expect("token file");
        assert_ne!(replaced, token, "a token others could read is replaced");
        let mode = std::fs::metadata(&path).expect("metadata").permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }

    #[test]
    fn network_url_names_the_lan_address() {
        let run = Run {
            settings: RemoteSettings { network: true, ..RemoteSettings::default() },
            lan: Some("10.0.0.5".parse().expect("ip")),
            served_url: Some("http://0.0.0.0:8765/mcp".to_owned()),
            ..Run::default()
        };
        assert_eq!(client_url(&run), (Some("http://10.0.0.5:8765/mcp".to_owned()), None));
        let unknown = Run { lan: None, ..run };
        let (url, note) = client_url(&unknown);
        assert_eq!(url.as_deref(), Some("http://0.0.0.0:8765/mcp"));
        assert!(note.is_some());
    }
}
