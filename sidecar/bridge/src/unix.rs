//! The bridge over a Unix-domain socket in the data folder, with same-user checks on both ends.

use std::os::unix::fs::{DirBuilderExt as _, MetadataExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt as _, AsyncRead, AsyncWriteExt as _, BufReader};
use tokio::net::{UnixListener, UnixStream};

use crate::{BridgeError, MAX_LINE, Reply, Request, socket_path};

/// How long the app may take to read a request once connected.
const READ_REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

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

    /// Sends `request` and waits up to `wait` for the reply.
    pub async fn ask(&self, request: &Request, wait: Duration) -> Result<Reply, BridgeError> {
        let path = socket_path(&self.dir);
        let io = |source| BridgeError::Io { path: path.clone(), source };
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
        check_peer(&stream, &self.dir, &path)?;
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

/// The app's end: listens on the data folder's socket.
#[derive(Debug)]
pub struct AppListener {
    listener: UnixListener,
    dir: PathBuf,
    path: PathBuf,
}

impl AppListener {
    /// Listens in the data folder `dir` (created 0700 if missing). A socket left by a crashed app
    /// is replaced; a live one means another app runs: [`BridgeError::AlreadyRunning`].
    pub async fn bind(dir: &Path) -> Result<Self, BridgeError> {
        let path = socket_path(dir);
        let io = |source| BridgeError::Io { path: path.clone(), source };
        if !dir.is_dir() {
            std::fs::DirBuilder::new().recursive(true).mode(0o700).create(dir).map_err(io)?;
        }
        if path.exists() {
            if UnixStream::connect(&path).await.is_ok() {
                return Err(BridgeError::AlreadyRunning);
            }
            std::fs::remove_file(&path).map_err(io)?;
        }
        let listener = UnixListener::bind(&path).map_err(io)?;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).map_err(io)?;
        Ok(AppListener { listener, dir: dir.to_path_buf(), path })
    }

    /// The next request from a process of the same user. Peers of other users, and connections
    /// that send nothing parseable in time, are dropped (and logged) without an answer.
    pub async fn accept(&self) -> Result<Incoming, BridgeError> {
        loop {
            let (stream, _) = self
                .listener
                .accept()
                .await
                .map_err(|source| BridgeError::Io { path: self.path.clone(), source })?;
            if let Err(e) = check_peer(&stream, &self.dir, &self.path) {
                tracing::warn!("app channel: {e}");
                continue;
            }
            let (read, write) = stream.into_split();
            match tokio::time::timeout(READ_REQUEST_TIMEOUT, read_line(read)).await {
                Ok(Ok(Some(text))) => match serde_json::from_str::<Request>(&text) {
                    Ok(request) => return Ok(Incoming { request, write }),
                    Err(e) => tracing::warn!("app channel: unreadable request: {e}"),
                },
                Ok(Ok(None)) => {}
                Ok(Err(e)) => tracing::warn!("app channel: {e}"),
                Err(_) => tracing::warn!("app channel: a peer sent nothing within {READ_REQUEST_TIMEOUT:?}"),
            }
        }
    }

    /// The socket's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for AppListener {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
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

/// The peer must run as the user who owns the data folder (who is us: the folder is 0700).
fn check_peer(stream: &UnixStream, dir: &Path, path: &Path) -> Result<(), BridgeError> {
    let io = |source| BridgeError::Io { path: path.to_path_buf(), source };
    let owner = std::fs::metadata(dir).map_err(io)?.uid();
    let peer = stream.peer_cred().map_err(io)?.uid();
    if peer == owner { Ok(()) } else { Err(BridgeError::OtherUser(path.to_path_buf())) }
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
