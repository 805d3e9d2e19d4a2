//! The desktop app as the sidecar sees it: start it when the person is needed, and ask it through
//! the local bridge (`app-bridge`) to confirm a write or to sign in.
//!
//! Starting the app is a process on the person's computer, so it is guarded: at most one start per
//! [`START_INTERVAL`] (a flood of `login` calls cannot fork-bomb the host), and every started
//! process is waited for by a small reaper thread (a second copy that hands over to the running
//! one and exits at once must not stay a zombie). Whether a server may use the app at all is the
//! server's decision ([`crate::server::GarminMcp::may_use_app`]): over HTTP only when the person who
//! started it asked for it.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use app_bridge::{AppLink, BridgeError, Reply, Request};
use rmcp::RoleServer;
use rmcp::model::ProgressNotificationParam;
use rmcp::service::RequestContext;

/// How long a freshly started app gets to open its channel.
const START_WAIT: Duration = Duration::from_secs(15);
/// How long a tool waits for the person to sign in.
const SIGN_IN_WAIT: Duration = Duration::from_secs(300);
/// How often a waiting tool tells the client it is still waiting.
const PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// Shortest time between two starts of the app by this process.
pub const START_INTERVAL: Duration = Duration::from_secs(30);

/// When this process last started the app.
static LAST_START: Mutex<Option<Instant>> = Mutex::new(None);

/// Starts the desktop app installed beside this binary (the app bundles `garmin-mcp` next to its
/// own executable), detached, with no access to our stdio (stdout is the MCP channel). True when
/// the app was started now or less than [`START_INTERVAL`] ago (its window is on its way); a start
/// within that interval is not repeated.
pub(crate) fn open_desktop_app() -> bool {
    let Some(app) = desktop_app_path() else { return false };
    let Ok(mut last) = LAST_START.lock() else { return false };
    if last.is_some_and(|at| at.elapsed() < START_INTERVAL) {
        return true;
    }
    let child = std::process::Command::new(app)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(e) => {
            tracing::info!("could not start the desktop app: {e}");
            return false;
        }
    };
    *last = Some(Instant::now());
    // Waits for the app so its exit is collected (no zombie), however long it runs.
    let reaper = std::thread::Builder::new().name("app-reaper".to_owned()).spawn(move || {
        let _ = child.wait();
    });
    if let Err(e) = reaper {
        tracing::warn!("could not start the thread that waits for the desktop app: {e}");
    }
    true
}

fn desktop_app_path() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let dir = exe.parent()?;
    let name = format!("{}{}", app_bridge::sidecar::APP_PROGRAM, std::env::consts::EXE_SUFFIX);
    let candidate = dir.join(name);
    candidate.is_file().then_some(candidate)
}

/// The app of `link`'s data folder, started (when `may_start`) if it is installed and not
/// running; false when it cannot be reached.
pub(crate) async fn reach(link: &AppLink, may_start: bool) -> bool {
    if link.is_running().await {
        return true;
    }
    if !may_start || !open_desktop_app() {
        return false;
    }
    let deadline = tokio::time::Instant::now() + START_WAIT;
    while tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(300)).await;
        if link.is_running().await {
            return true;
        }
    }
    false
}

/// Asks the app to show its sign-in (site picker, Garmin's page) because `tool` found no usable
/// session, and waits for the person. True when they signed in; false when the app is not there,
/// they closed the window, or time ran out.
pub(crate) async fn ask_to_sign_in(link: &AppLink, tool: &str, ctx: &RequestContext<RoleServer>) -> bool {
    if !reach(link, true).await {
        return false;
    }
    let client = ctx.peer.peer_info().and_then(|info| app_bridge::clean_client_name(&info.client_info.name));
    let reason = match client {
        Some(client) => format!("{client} needs your Garmin data for `{tool}`: sign in to continue."),
        None => format!("Your assistant needs your Garmin data for `{tool}`: sign in to continue."),
    };
    let request = Request::SignIn { reason }.for_display();
    let asked = link.ask(&request, SIGN_IN_WAIT);
    let reply =
        wait_with_progress(asked, ctx, "Waiting for you to sign in to Garmin in the Garmin MCP app…").await;
    match reply {
        Ok(Reply::SignedIn { .. }) => true,
        Ok(other) => {
            tracing::info!("sign-in not completed: {other:?}");
            false
        }
        Err(e) => {
            tracing::info!("sign-in through the app failed: {e}");
            false
        }
    }
}

/// Awaits `reply`, sending a progress notification every few seconds when the client asked for
/// progress, and gives up if the client cancels the call.
pub(crate) async fn wait_with_progress<F>(
    reply: F,
    ctx: &RequestContext<RoleServer>,
    message: &str,
) -> Result<Reply, BridgeError>
where
    F: std::future::Future<Output = Result<Reply, BridgeError>>,
{
    let started = std::time::Instant::now();
    match with_progress(reply, ctx, message).await {
        Some(result) => result,
        None => Err(BridgeError::TimedOut(Duration::from_secs(started.elapsed().as_secs()))),
    }
}

/// Awaits `work` (the person deciding, in the app or in the chat), sending a progress notification
/// every few seconds when the client asked for progress; `None` when the client cancels the call.
pub(crate) async fn with_progress<F: std::future::Future>(
    work: F,
    ctx: &RequestContext<RoleServer>,
    message: &str,
) -> Option<F::Output> {
    let token = ctx.meta.get_progress_token();
    let mut ticks = tokio::time::interval(PROGRESS_EVERY);
    ticks.tick().await;
    tokio::pin!(work);
    let mut waited = 0u64;
    loop {
        tokio::select! {
            // Cancellation first: a call cancelled before its answer arrived writes nothing even
            // when both are ready at once.
            biased;
            () = ctx.ct.cancelled() => return None,
            result = &mut work => return Some(result),
            _ = ticks.tick() => {
                waited += PROGRESS_EVERY.as_secs();
                if let Some(token) = &token {
                    let note = ProgressNotificationParam::new(token.clone(), waited as f64)
                        .with_message(message);
                    let _ = ctx.peer.notify_progress(note).await;
                }
            }
        }
    }
}
