//! The bridge over a Windows named pipe, with same-user checks on both ends: what `unix.rs` does
//! with a socket file and `SO_PEERCRED`, done the Windows way.
//!
//! * The pipe's name ([`crate::pipe_name`]) holds our user's SID and a hash of the data folder.
//! * The app creates it with an owner-only security descriptor (only our user may open it,
//!   `local_data::private_files::acl::owner_only_pipe_sddl`), refusing remote clients
//!   (`PIPE_REJECT_REMOTE_CLIENTS`), and as the first instance of that name: if the name is taken,
//!   another copy of the app runs ([`BridgeError::AlreadyRunning`]) or a process of another user
//!   squats it ([`BridgeError::OtherUser`]; unlike a stale socket file it cannot be replaced, and
//!   sidecars refuse to talk to it).
//! * Both ends check the user of the process at the other end: the pipe's peer process id
//!   (`GetNamedPipeClientProcessId` / `GetNamedPipeServerProcessId`), that process's token, its user
//!   SID, compared with ours. A peer of another user is refused before a byte is read or written.
//! * Each connection is served on its own pipe instance and its request read on a task of its own,
//!   with the framing and caps of every transport (`framing.rs`).
//!
//! A pipe vanishes with the process that created it, so there is no stale file to clean up.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use local_data::private_files::acl::owner_only_pipe_sddl;
use local_data::private_files::windows::{
    Descriptor, PipeEnd, create_pipe, current_user_sid, pipe_peer_pid, process_user_sid,
};
use tokio::net::windows::named_pipe::{
    ClientOptions, NamedPipeClient, NamedPipeServer, PipeMode, ServerOptions,
};
use tokio::sync::{Mutex, mpsc};
use tokio::task::JoinHandle;

use crate::framing::{Incoming, Reader, exchange};
use crate::{BridgeError, Reply, Request, pipe_name};

/// Windows errors the client tells apart.
const ERROR_FILE_NOT_FOUND: i32 = 2;
const ERROR_ACCESS_DENIED: i32 = 5;
const ERROR_PIPE_BUSY: i32 = 231;

/// How long a sidecar keeps trying while every instance of the pipe is busy (the app makes a new
/// one right after each connection, so this is a blink).
const BUSY_WAIT: Duration = Duration::from_secs(2);

/// The sidecar's end: asks the app of one data folder.
#[derive(Clone, Debug)]
pub struct AppLink {
    dir: PathBuf,
    /// The user the app must run as; `None`: ourselves (tests set another to see a refusal).
    trusted_user: Option<String>,
}

impl AppLink {
    /// The app of the data folder `dir`.
    pub fn in_dir(dir: impl Into<PathBuf>) -> Self {
        AppLink { dir: dir.into(), trusted_user: None }
    }

    /// True when an app answers [`Request::Hello`] within a second.
    pub async fn is_running(&self) -> bool {
        matches!(self.ask(&Request::Hello, Duration::from_secs(1)).await, Ok(Reply::Hello { .. }))
    }

    /// Sends `request` and waits up to `wait` for the reply. A pipe served by a process of another
    /// user is refused ([`BridgeError::OtherUser`]) before anything is sent.
    pub async fn ask(&self, request: &Request, wait: Duration) -> Result<Reply, BridgeError> {
        let me = current_user_sid().map_err(|source| io_error(&self.dir, source))?;
        let name = pipe_name(&self.dir, &me);
        let path = PathBuf::from(&name);
        let io = |source| BridgeError::Io { path: path.clone(), source };
        let pipe = open(&name).await.map_err(|e| match e.raw_os_error() {
            Some(ERROR_FILE_NOT_FOUND) => BridgeError::NotRunning,
            Some(ERROR_ACCESS_DENIED) => BridgeError::OtherUser(path.clone()),
            _ => io(e),
        })?;
        let app = check_peer(&pipe, PipeEnd::Client, self.trusted_user.as_deref().unwrap_or(&me), &path)?;
        if matches!(request, Request::Show) {
            let_app_take_the_foreground(app);
        }
        let (read, write) = tokio::io::split(pipe);
        exchange(read, write, request, wait, io).await
    }
}

/// Windows lets only the process the person is using bring a window to the front; a second copy
/// of the app (just started by the person) hands that right to the first before asking it to show
/// its window, or the first could only flash its taskbar button.
fn let_app_take_the_foreground(pid: u32) {
    // SAFETY: a plain call with a process id; it only changes who may set the foreground window.
    #[allow(unsafe_code, reason = "Windows has no safe wrapper for AllowSetForegroundWindow")]
    let allowed = unsafe { windows_sys::Win32::UI::WindowsAndMessaging::AllowSetForegroundWindow(pid) };
    if allowed == 0 {
        tracing::debug!("could not let the app take the foreground: {}", io::Error::last_os_error());
    }
}

/// Opens the pipe, waiting while every instance is busy.
async fn open(name: &str) -> io::Result<NamedPipeClient> {
    let started = std::time::Instant::now();
    loop {
        match ClientOptions::new().pipe_mode(PipeMode::Byte).open(name) {
            Err(e) if e.raw_os_error() == Some(ERROR_PIPE_BUSY) && started.elapsed() < BUSY_WAIT => {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            other => return other,
        }
    }
}

fn io_error(dir: &Path, source: io::Error) -> BridgeError {
    BridgeError::Io { path: dir.to_path_buf(), source }
}

/// The app's end: serves the data folder's pipe. A task accepts connections (one pipe instance
/// each) and reads each one's request on a task of its own; [`AppListener::accept`] hands out the
/// requests read.
#[derive(Debug)]
pub struct AppListener {
    requests: Mutex<mpsc::Receiver<Incoming>>,
    acceptor: JoinHandle<()>,
    path: PathBuf,
}

impl AppListener {
    /// Serves the pipe of the data folder `dir` (created private if missing). Another copy of the
    /// app already serving it: [`BridgeError::AlreadyRunning`]; a process of another user holding
    /// the name: [`BridgeError::OtherUser`].
    pub async fn bind(dir: &Path) -> Result<Self, BridgeError> {
        let me = current_user_sid().map_err(|source| io_error(dir, source))?;
        Self::bind_trusting(dir, me).await
    }

    /// [`AppListener::bind`], accepting peers of the user `trusted_user` (ourselves, except in tests).
    async fn bind_trusting(dir: &Path, trusted_user: String) -> Result<Self, BridgeError> {
        local_data::private_files::ensure_folder(dir).map_err(|source| io_error(dir, source))?;
        let me = current_user_sid().map_err(|source| io_error(dir, source))?;
        let name = pipe_name(dir, &me);
        let path = PathBuf::from(&name);
        let io = |source| BridgeError::Io { path: path.clone(), source };
        let descriptor = Arc::new(Descriptor::from_sddl(&owner_only_pipe_sddl(&me)).map_err(io)?);
        // Someone serving the name already is asked first (Wine ignores FIRST_PIPE_INSTANCE);
        // Windows then closes the race between this look and the creation below.
        match ClientOptions::new().open(&name) {
            Err(e) if e.raw_os_error() == Some(ERROR_FILE_NOT_FOUND) => {}
            _ => return Err(taken_by(&name, &me, &path).await),
        }
        let first = match new_instance(&name, &descriptor, true) {
            Ok(first) => first,
            Err(e) if e.raw_os_error() == Some(ERROR_ACCESS_DENIED) => {
                return Err(taken_by(&name, &me, &path).await);
            }
            Err(e) => return Err(io(e)),
        };
        let (reader, requests) = Reader::new();
        let acceptor = tokio::spawn(accept_all(first, name, descriptor, trusted_user, reader));
        Ok(AppListener { requests: Mutex::new(requests), acceptor, path })
    }

    /// The next request from a process of the same user. Peers of other users, and connections
    /// that send nothing parseable in time, are dropped (and logged) without an answer; each
    /// connection is read on its own, so a silent one delays no other.
    pub async fn accept(&self) -> Result<Incoming, BridgeError> {
        self.requests.lock().await.recv().await.ok_or_else(|| BridgeError::Io {
            path: self.path.clone(),
            source: io::Error::other("the app channel stopped accepting connections"),
        })
    }

    /// The pipe's name (`\\.\pipe\…`).
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for AppListener {
    fn drop(&mut self) {
        // Dropping the task drops its pipe instances: the name is gone with them.
        self.acceptor.abort();
    }
}

/// One more instance of the pipe: owner-only, byte stream, no remote clients.
fn new_instance(name: &str, descriptor: &Descriptor, first: bool) -> io::Result<NamedPipeServer> {
    let mut options = ServerOptions::new();
    options.first_pipe_instance(first).reject_remote_clients(true).pipe_mode(PipeMode::Byte);
    create_pipe(&options, name, descriptor)
}

/// Why the pipe's name could not be had: a copy of the app of ours serves it, or someone else does.
async fn taken_by(name: &str, me: &str, path: &Path) -> BridgeError {
    match open(name).await {
        Ok(pipe) => match check_peer(&pipe, PipeEnd::Client, me, path) {
            Ok(_) => BridgeError::AlreadyRunning,
            Err(e) => e,
        },
        // Busy for two seconds, or not ours to open: not a pipe of ours.
        Err(e) if e.raw_os_error() == Some(ERROR_ACCESS_DENIED) => BridgeError::OtherUser(path.to_path_buf()),
        Err(_) => BridgeError::AlreadyRunning,
    }
}

/// Accepts connections until the listener is dropped: each connected instance is checked and read
/// on its own, and a fresh instance waits for the next sidecar.
async fn accept_all(
    mut waiting: NamedPipeServer,
    name: String,
    descriptor: Arc<Descriptor>,
    trusted_user: String,
    reader: Reader,
) {
    let path = PathBuf::from(&name);
    loop {
        let connected = waiting.connect().await;
        // The next instance exists before this one is handled, so sidecars never find no pipe.
        let next = loop {
            match new_instance(&name, &descriptor, false) {
                Ok(next) => break next,
                Err(e) => {
                    tracing::warn!("app channel: could not make another instance of {name}: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            }
        };
        let pipe = std::mem::replace(&mut waiting, next);
        if let Err(e) = connected {
            tracing::warn!("app channel: {name} could not accept a connection: {e}");
            continue;
        }
        if let Err(e) = check_peer(&pipe, PipeEnd::Server, &trusted_user, &path) {
            tracing::warn!("app channel: {e}");
            continue;
        }
        let Some(permit) = reader.permit() else { continue };
        let (read, write) = tokio::io::split(pipe);
        reader.read_on_its_own(permit, read, write);
    }
}

/// The process at the other end of `pipe` must run as `trusted_user`; returns its id.
fn check_peer(
    pipe: &impl std::os::windows::io::AsHandle,
    ours: PipeEnd,
    trusted_user: &str,
    path: &Path,
) -> Result<u32, BridgeError> {
    let io = |source| BridgeError::Io { path: path.to_path_buf(), source };
    let pid = pipe_peer_pid(pipe, ours).map_err(io)?;
    let user = process_user_sid(pid).map_err(io)?;
    if user.eq_ignore_ascii_case(trusted_user) {
        Ok(pid)
    } else {
        Err(BridgeError::OtherUser(path.to_path_buf()))
    }
}

// Run on Windows (under Wine in CI: `cargo xtask windows`). Wine runs every process as one user,
// so "another user" is staged by telling one end to trust a different SID than the one its peer
// really runs as: the real check (peer pid, its token, its SID) runs and refuses.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::Proposal;
    use crate::framing::READ_REQUEST_TIMEOUT;
    use local_data::private_files::acl::{AclVerdict, judge};
    use local_data::private_files::windows::handle_sddl;

    /// A SID no process here runs as.
    const SOMEONE_ELSE: &str = "S-1-5-21-1111111111-2222222222-3333333333-4242";

    fn proposal() -> Proposal {
        Proposal {
            title: "Schedule workout 5".into(),
            preview: "Schedule workout 5 on 2026-12-03".into(),
            change: garmin::changes::Change::ScheduleWorkout {
                workout_id: 5,
                date: chrono::NaiveDate::from_ymd_opt(2026, 12, 3).unwrap_or_default(),
            },
            spec: None,
            requested_by: Some("claude-code".into()),
            demo: false,
        }
    }

    fn hello_app(listener: AppListener) -> JoinHandle<()> {
        tokio::spawn(async move {
            while let Ok(incoming) = listener.accept().await {
                if matches!(incoming.request(), Request::Hello) {
                    let _ = incoming.reply(&Reply::Hello { app_version: "test".into() }).await;
                }
            }
        })
    }

    #[tokio::test]
    async fn named_pipe_carries_a_proposal_and_the_apps_decision() {
        let dir = tempfile::tempdir().unwrap();
        let listener = AppListener::bind(dir.path()).await.unwrap();
        let app = tokio::spawn(async move {
            let incoming = listener.accept().await.unwrap();
            let Request::Confirm(proposal) = incoming.request().clone() else { panic!("confirm expected") };
            incoming
                .reply(&Reply::Cancelled { reason: Some(format!("not {}", proposal.title)) })
                .await
                .unwrap();
            listener
        });
        let reply =
            AppLink::in_dir(dir.path()).ask(&Request::Confirm(proposal()), Duration::from_secs(5)).await;
        assert_eq!(reply.unwrap(), Reply::Cancelled { reason: Some("not Schedule workout 5".into()) });
        drop(app.await.unwrap());
        // The pipe goes with the listener's task, which the runtime drops right after the abort.
        let link = AppLink::in_dir(dir.path());
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while !matches!(link.ask(&Request::Hello, Duration::from_secs(1)).await, Err(BridgeError::NotRunning))
        {
            assert!(std::time::Instant::now() < deadline, "the pipe outlived the app");
            tokio::task::yield_now().await;
        }
    }

    #[tokio::test]
    async fn named_pipe_is_owner_only_and_a_second_app_is_told_one_runs() {
        let dir = tempfile::tempdir().unwrap();
        let listener = AppListener::bind(dir.path()).await.unwrap();
        let me = current_user_sid().unwrap();
        let pipe = ClientOptions::new().open(listener.path()).unwrap();
        let sddl = handle_sddl(&pipe).unwrap();
        assert_eq!(judge(&sddl, &me), AclVerdict::Private, "{sddl}");
        assert!(sddl.contains(&format!("(A;;FA;;;{me})")) || sddl.contains(&format!(";;;{me})")), "{sddl}");
        assert!(!sddl.contains(";;;WD)") && !sddl.contains(";;;BU)"), "no one else is let in: {sddl}");
        drop(pipe);
        let second = AppListener::bind(dir.path()).await;
        assert!(matches!(second, Err(BridgeError::AlreadyRunning)), "{second:?}");
        drop(listener);
    }

    /// Wine cannot run a second user: the app is told to trust [`SOMEONE_ELSE`], so our own
    /// sidecar is, to it, a peer of another user. The real peer check refuses it unanswered.
    #[tokio::test]
    async fn named_pipe_refuses_a_peer_of_another_user() {
        let dir = tempfile::tempdir().unwrap();
        let listener = AppListener::bind_trusting(dir.path(), SOMEONE_ELSE.to_owned()).await.unwrap();
        let asked = AppLink::in_dir(dir.path()).ask(&Request::Hello, Duration::from_secs(2)).await;
        assert!(matches!(asked, Err(BridgeError::Protocol(_) | BridgeError::Io { .. })), "{asked:?}");
        let nothing = tokio::time::timeout(Duration::from_millis(300), listener.accept()).await;
        assert!(nothing.is_err(), "the refused peer's request never reaches the app");

        // And the sidecar's side: an app that is not of its user is not talked to.
        let own = tempfile::tempdir().unwrap();
        let app = hello_app(AppListener::bind(own.path()).await.unwrap());
        let wary = AppLink { dir: own.path().to_path_buf(), trusted_user: Some(SOMEONE_ELSE.to_owned()) };
        let asked = wary.ask(&Request::Hello, Duration::from_secs(2)).await;
        assert!(matches!(asked, Err(BridgeError::OtherUser(_))), "{asked:?}");
        let trusting = AppLink::in_dir(own.path());
        assert!(matches!(
            trusting.ask(&Request::Hello, Duration::from_secs(2)).await,
            Ok(Reply::Hello { .. })
        ));
        app.abort();
    }

    #[tokio::test]
    async fn named_pipe_serves_each_connection_on_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let listener = AppListener::bind(dir.path()).await.unwrap();
        let name = listener.path().to_path_buf();
        let app = hello_app(listener);
        // Connects and sends nothing, for longer than the app waits for a request.
        let silent = ClientOptions::new().open(&name).unwrap();
        let link = AppLink::in_dir(dir.path());
        let started = std::time::Instant::now();
        for _ in 0..3 {
            let reply = link.ask(&Request::Hello, Duration::from_secs(3)).await;
            assert!(matches!(reply, Ok(Reply::Hello { .. })), "{reply:?}");
        }
        assert!(started.elapsed() < READ_REQUEST_TIMEOUT / 2, "{:?}", started.elapsed());
        drop(silent);
        app.abort();
    }
}
