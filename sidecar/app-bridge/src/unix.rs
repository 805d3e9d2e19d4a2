//! The bridge over a Unix-domain socket in the data folder, with same-user checks on both ends.
//!
//! Both ends talk only to a process of their own user: the socket file must belong to us, and so
//! must the process at the other end (its credentials as the kernel reports them, `SO_PEERCRED` /
//! `getpeereid`). The app reads each connection's request on its own task, so a connection that
//! sends nothing holds up nobody else.

use std::os::unix::fs::{DirBuilderExt as _, FileTypeExt as _, MetadataExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};
use std::time::Duration;

use tokio::net::{UnixListener, UnixStream};
use tokio::sync::{Mutex, mpsc};
use tokio::task::JoinHandle;

use crate::framing::{Incoming, Reader, exchange};
use crate::{BridgeError, Reply, Request, socket_path};

/// The sidecar's end: asks the app of one data folder.
#[derive(Clone, Debug)]
pub struct AppLink {
    dir: PathBuf,
}

impl AppLink {
    /// The app of the data folder `dir`.
    pub fn in_dir(dir: impl Into<PathBuf>) -> Self {
        AppLink { dir: dir.into() }
    }

    /// True when an app answers [`Request::Hello`] within a second.
    pub async fn is_running(&self) -> bool {
        matches!(self.ask(&Request::Hello, Duration::from_secs(1)).await, Ok(Reply::Hello { .. }))
    }

    /// Sends `request` and waits up to `wait` for the reply. A socket file or a listening process
    /// of another user is refused ([`BridgeError::OtherUser`]) before anything is sent.
    pub async fn ask(&self, request: &Request, wait: Duration) -> Result<Reply, BridgeError> {
        let path = socket_path(&self.dir);
        let io = |source| BridgeError::Io { path: path.clone(), source };
        let me = our_uid().map_err(io)?;
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.uid() != me => return Err(BridgeError::OtherUser(path)),
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(BridgeError::NotRunning),
            Err(e) => return Err(io(e)),
        }
        let stream = match UnixStream::connect(&path).await {
            Ok(stream) => stream,
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::ConnectionRefused
                ) =>
            {
                return Err(BridgeError::NotRunning);
            }
            Err(e) => return Err(io(e)),
        };
        check_peer(&stream, me, &path)?;
        let (read, write) = stream.into_split();
        exchange(read, write, request, wait, io).await
    }
}

/// The app's end: listens on the data folder's socket. A task accepts connections and reads each
/// one's request on a task of its own; [`AppListener::accept`] hands out the requests read.
#[derive(Debug)]
pub struct AppListener {
    requests: Mutex<mpsc::Receiver<Incoming>>,
    acceptor: JoinHandle<()>,
    path: PathBuf,
}

impl AppListener {
    /// Listens in the data folder `dir` (created 0700 if missing). A socket left by a crashed app
    /// is replaced; so is one that belongs to another user, or where a process of another user
    /// answers (it is not trusted, and not deferred to). A live socket of ours means another copy
    /// of the app runs: [`BridgeError::AlreadyRunning`].
    pub async fn bind(dir: &Path) -> Result<Self, BridgeError> {
        let path = socket_path(dir);
        let io = |source| BridgeError::Io { path: path.clone(), source };
        if !dir.is_dir() {
            std::fs::DirBuilder::new().recursive(true).mode(0o700).create(dir).map_err(io)?;
        }
        let me = our_uid().map_err(io)?;
        match std::fs::symlink_metadata(&path) {
            Ok(meta) => {
                let foreign = meta.uid() != me;
                if foreign {
                    tracing::warn!(
                        "app channel: {} belongs to user {}, not to us; replacing it",
                        path.display(),
                        meta.uid()
                    );
                } else if meta.file_type().is_socket()
                    && let Ok(stream) = UnixStream::connect(&path).await
                {
                    match check_peer(&stream, me, &path) {
                        Ok(()) => return Err(BridgeError::AlreadyRunning),
                        Err(e) => tracing::warn!("app channel: {e}; replacing it"),
                    }
                }
                std::fs::remove_file(&path)
                    .map_err(|e| if foreign { BridgeError::OtherUser(path.clone()) } else { io(e) })?;
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(io(e)),
        }
        let listener = UnixListener::bind(&path).map_err(io)?;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).map_err(io)?;
        let (reader, requests) = Reader::new();
        let acceptor = tokio::spawn(accept_all(listener, me, path.clone(), reader));
        Ok(AppListener { requests: Mutex::new(requests), acceptor, path })
    }

    /// The next request from a process of the same user. Peers of other users, and connections
    /// that send nothing parseable in time, are dropped (and logged) without an answer; each
    /// connection is read on its own, so a silent one delays no other.
    pub async fn accept(&self) -> Result<Incoming, BridgeError> {
        self.requests.lock().await.recv().await.ok_or_else(|| BridgeError::Io {
            path: self.path.clone(),
            source: std::io::Error::other("the app channel stopped accepting connections"),
        })
    }

    /// The socket's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for AppListener {
    fn drop(&mut self) {
        self.acceptor.abort();
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Accepts connections until the listener is dropped, checking each peer and reading its request
/// on a task of its own.
async fn accept_all(listener: UnixListener, me: u32, path: PathBuf, reader: Reader) {
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of file descriptors and the like: wait a little rather than spin.
                tracing::warn!("app channel: {} could not accept a connection: {e}", path.display());
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        if let Err(e) = check_peer(&stream, me, &path) {
            tracing::warn!("app channel: {e}");
            continue;
        }
        let Some(permit) = reader.permit() else { continue };
        let (read, write) = stream.into_split();
        reader.read_on_its_own(permit, read, write);
    }
}

/// Our own user id, as the kernel reports it for a socket pair we just made (no `unsafe`, no
/// extra dependency: the credentials of a socket pair's peer are our own).
fn our_uid() -> std::io::Result<u32> {
    let (ours, _theirs) = UnixStream::pair()?;
    Ok(ours.peer_cred()?.uid())
}

/// The process at the other end must run as us (`me`).
fn check_peer(stream: &UnixStream, me: u32, path: &Path) -> Result<(), BridgeError> {
    let peer = stream.peer_cred().map_err(|source| BridgeError::Io { path: path.to_path_buf(), source })?;
    if peer.uid() == me { Ok(()) } else { Err(BridgeError::OtherUser(path.to_path_buf())) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Proposal;
    use crate::framing::READ_REQUEST_TIMEOUT;
    use garmin::changes::Change;
    use tokio::io::AsyncWriteExt as _;

    fn proposal() -> Proposal {
        Proposal {
            title: "Schedule workout 5".into(),
            preview: "Schedule workout 5 on 2026-12-03".into(),
            change: Change::ScheduleWorkout {
                workout_id: 5,
                date: chrono::NaiveDate::from_ymd_opt(2026, 12, 3).unwrap_or_default(),
            },
            spec: None,
            requested_by: Some("claude-code".into()),
            demo: false,
        }
    }

    #[tokio::test]
    async fn a_sidecar_gets_the_apps_decision_for_its_proposal() {
        let dir = tempfile::tempdir().unwrap();
        let listener = AppListener::bind(dir.path()).await.unwrap();
        let mode = std::fs::metadata(listener.path()).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let app = tokio::spawn(async move {
            let incoming = listener.accept().await.unwrap();
            let Request::Confirm(proposal) = incoming.request().clone() else { panic!("confirm expected") };
            incoming
                .reply(&Reply::Cancelled { reason: Some(format!("not {}", proposal.title)) })
                .await
                .unwrap();
            listener
        });
        let link = AppLink::in_dir(dir.path());
        let reply = link.ask(&Request::Confirm(proposal()), Duration::from_secs(5)).await.unwrap();
        assert_eq!(reply, Reply::Cancelled { reason: Some("not Schedule workout 5".into()) });
        drop(app.await.unwrap());
        assert!(!socket_path(dir.path()).exists(), "the socket is removed when the app stops");
    }

    #[tokio::test]
    async fn without_an_app_the_sidecar_is_told_it_is_not_running_and_a_stale_socket_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let link = AppLink::in_dir(dir.path());
        assert!(matches!(
            link.ask(&Request::Hello, Duration::from_secs(1)).await,
            Err(BridgeError::NotRunning)
        ));
        // A socket file nobody listens on (the app crashed).
        drop(std::os::unix::net::UnixListener::bind(socket_path(dir.path())).unwrap());
        assert!(matches!(
            link.ask(&Request::Hello, Duration::from_secs(1)).await,
            Err(BridgeError::NotRunning)
        ));
        let listener = AppListener::bind(dir.path()).await.unwrap();
        assert!(matches!(AppListener::bind(dir.path()).await, Err(BridgeError::AlreadyRunning)));
        drop(listener);
    }

    #[tokio::test]
    async fn a_missing_data_folder_is_created_private_and_the_socket_is_private() {
        let parent = tempfile::tempdir().unwrap();
        let dir = parent.path().join("first-run").join("garmin-mcp");
        let listener = AppListener::bind(&dir).await.unwrap();
        let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&dir), 0o700, "the data folder");
        assert_eq!(mode(listener.path()), 0o600, "the socket");
    }

    /// An app that answers every `Hello`, until dropped.
    fn hello_app(listener: AppListener) -> tokio::task::JoinHandle<()> {
        tokio::spawn(async move {
            while let Ok(incoming) = listener.accept().await {
                if matches!(incoming.request(), Request::Hello) {
                    let _ = incoming.reply(&Reply::Hello { app_version: "test".into() }).await;
                }
            }
        })
    }

    #[tokio::test]
    async fn one_silent_connection_does_not_stall_other_sidecars() {
        let dir = tempfile::tempdir().unwrap();
        let app = hello_app(AppListener::bind(dir.path()).await.unwrap());
        // Connects and sends nothing, for longer than the app waits for a request.
        let silent = UnixStream::connect(socket_path(dir.path())).await.unwrap();
        tokio::time::sleep(Duration::from_millis(100)).await;
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

    #[tokio::test]
    async fn a_socket_owned_by_another_user_is_not_trusted() {
        let dir = tempfile::tempdir().unwrap();
        let path = socket_path(dir.path());
        // Someone else's socket, answering, where ours belongs (making it needs root: chown).
        let foreign = std::os::unix::net::UnixListener::bind(&path).unwrap();
        if let Err(e) = std::os::unix::fs::chown(&path, Some(65534), Some(65534)) {
            eprintln!("skipped: giving a socket to another user needs root ({e})");
            return;
        }
        let link = AppLink::in_dir(dir.path());
        let asked = link.ask(&Request::Hello, Duration::from_secs(1)).await;
        assert!(
            matches!(asked, Err(BridgeError::OtherUser(_))),
            "the sidecar must not talk to it: {asked:?}"
        );

        // The app neither defers to it nor keeps it: it listens there itself.
        let listener = AppListener::bind(dir.path()).await.unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().uid(), our_uid().unwrap());
        let app = hello_app(listener);
        let reply = link.ask(&Request::Hello, Duration::from_secs(3)).await;
        assert!(matches!(reply, Ok(Reply::Hello { .. })), "{reply:?}");
        drop(foreign);
        app.abort();
    }

    #[tokio::test]
    async fn a_slow_app_times_out_and_garbage_is_a_protocol_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = socket_path(dir.path());
        let raw = UnixListener::bind(&path).unwrap();
        let server = tokio::spawn(async move {
            let (mut first, _) = raw.accept().await.unwrap();
            let (mut second, _) = raw.accept().await.unwrap();
            second.write_all(b"{\"type\":\"nonsense\"}\n").await.unwrap();
            tokio::time::sleep(Duration::from_millis(500)).await;
            first.shutdown().await.unwrap();
        });
        let link = AppLink::in_dir(dir.path());
        let slow = link.ask(&Request::Hello, Duration::from_millis(200));
        assert!(matches!(slow.await, Err(BridgeError::TimedOut(_))));
        let garbage = link.ask(&Request::Hello, Duration::from_secs(2)).await;
        assert!(matches!(garbage, Err(BridgeError::Protocol(_))), "{garbage:?}");
        server.await.unwrap();
    }
}
