//! The bridge over a Unix-domain socket in the data folder, with same-user checks on both ends.
//!
//! Both ends talk only to a process of their own user: the socket file must belong to us, and so
//! must the process at the other end (its credentials as the kernel reports them, `SO_PEERCRED` /
//! `getpeereid`). The app reads each connection's request on its own task, so a connection that
//! sends nothing holds up nobody else.

use std::os::unix::fs::{DirBuilderExt as _, FileTypeExt as _, MetadataExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt as _, AsyncRead, AsyncWriteExt as _, BufReader};
use tokio::net::{UnixListener, UnixStream};
use tokio::sync::{Mutex, Semaphore, mpsc};
use tokio::task::JoinHandle;

use crate::{BridgeError, MAX_LINE, Reply, Request, socket_path};

/// How long the app may take to read a request once connected (a sidecar writes it at once).
const READ_REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// Most connections whose request is being read at once; beyond that, new ones are closed at once
/// (a flood of silent connections cannot grow without bound).
const MAX_READING: usize = 64;

/// Requests read and not yet taken by [`AppListener::accept`].
const QUEUED_REQUESTS: usize = 64;

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
        let (read, mut write) = stream.into_split();
        let mut line = serde_json::to_vec(request).map_err(|e| BridgeError::Protocol(e.to_string()))?;
        line.push(b'\n');
        write.write_all(&line).await.map_err(io)?;
        let reply = tokio::time::timeout(wait, read_line(read))
            .await
            .map_err(|_| BridgeError::TimedOut(wait))?
            .map_err(io)?;
        match reply {
            Some(text) => serde_json::from_str(&text).map_err(|e| BridgeError::Protocol(e.to_string())),
            None => Err(BridgeError::Protocol("the app closed the connection without answering".into())),
        }
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
        let (queue, requests) = mpsc::channel(QUEUED_REQUESTS);
        let acceptor = tokio::spawn(accept_all(listener, me, path.clone(), queue));
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
async fn accept_all(listener: UnixListener, me: u32, path: PathBuf, queue: mpsc::Sender<Incoming>) {
    let reading = Arc::new(Semaphore::new(MAX_READING));
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
        let Ok(permit) = Arc::clone(&reading).try_acquire_owned() else {
            tracing::warn!(
                "app channel: {MAX_READING} connections are still sending their request; closing a new one"
            );
            continue;
        };
        let queue = queue.clone();
        tokio::spawn(async move {
            let incoming = read_request(stream).await;
            drop(permit);
            if let Some(incoming) = incoming {
                let _ = queue.send(incoming).await;
            }
        });
    }
}

/// The request on `stream`, or `None` (logged) when it sends nothing parseable in time.
async fn read_request(stream: UnixStream) -> Option<Incoming> {
    let (read, write) = stream.into_split();
    match tokio::time::timeout(READ_REQUEST_TIMEOUT, read_line(read)).await {
        Ok(Ok(Some(text))) => match serde_json::from_str::<Request>(&text) {
            Ok(request) => return Some(Incoming { request, write }),
            Err(e) => tracing::warn!("app channel: unreadable request: {e}"),
        },
        Ok(Ok(None)) => {}
        Ok(Err(e)) => tracing::warn!("app channel: {e}"),
        Err(_) => tracing::warn!("app channel: a peer sent nothing within {READ_REQUEST_TIMEOUT:?}"),
    }
    None
}

/// One request waiting for the app's reply.
#[derive(Debug)]
pub struct Incoming {
    request: crate::Request,
    write: tokio::net::unix::OwnedWriteHalf,
}

impl Incoming {
    /// What the sidecar asks.
    pub fn request(&self) -> &Request {
        &self.request
    }

    /// Answers and closes the connection. Fails when the sidecar gave up waiting.
    pub async fn reply(mut self, reply: &Reply) -> Result<(), BridgeError> {
        let mut line = serde_json::to_vec(reply).map_err(|e| BridgeError::Protocol(e.to_string()))?;
        line.push(b'\n');
        self.write
            .write_all(&line)
            .await
            .map_err(|source| BridgeError::Io { path: PathBuf::from(crate::SOCKET_NAME), source })?;
        let _ = self.write.shutdown().await;
        Ok(())
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

/// One line (without its newline), `None` at end of stream; lines over [`MAX_LINE`] are an error.
async fn read_line(read: impl AsyncRead + Unpin) -> std::io::Result<Option<String>> {
    let mut reader = BufReader::new(read);
    let mut bytes = Vec::new();
    loop {
        let buffer = reader.fill_buf().await?;
        if buffer.is_empty() {
            return Ok(if bytes.is_empty() {
                None
            } else {
                Some(String::from_utf8_lossy(&bytes).into_owned())
            });
        }
        if let Some(end) = buffer.iter().position(|b| *b == b'\n') {
            bytes.extend_from_slice(&buffer[..end]);
            return Ok(Some(String::from_utf8_lossy(&bytes).into_owned()));
        }
        bytes.extend_from_slice(buffer);
        let used = buffer.len();
        reader.consume(used);
        if bytes.len() > MAX_LINE {
            return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, "message too long"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Proposal;
    use garmin::changes::Change;

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
