//! The channel's framing and caps, the same over every transport (a Unix-domain socket, a Windows
//! named pipe): one JSON request line, one JSON reply line, lines capped at [`MAX_LINE`]; the app
//! reads each connection's request on a task of its own, waits at most [`READ_REQUEST_TIMEOUT`] for
//! it, reads at most [`MAX_READING`] at once and queues at most [`QUEUED_REQUESTS`].

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt as _, AsyncRead, AsyncWrite, AsyncWriteExt as _, BufReader};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};

use crate::{BridgeError, MAX_LINE, Reply, Request};

/// How long the app may take to read a request once connected (a sidecar writes it at once).
pub(crate) const READ_REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// Most connections whose request is being read at once; beyond that, new ones are closed at once
/// (a flood of silent connections cannot grow without bound).
pub(crate) const MAX_READING: usize = 64;

/// Requests read and not yet taken by `AppListener::accept`.
pub(crate) const QUEUED_REQUESTS: usize = 64;

/// The write half of a connection, whatever the transport.
type ReplyWriter = Box<dyn AsyncWrite + Send + Unpin>;

/// One request waiting for the app's reply.
pub struct Incoming {
    request: Request,
    write: ReplyWriter,
}

impl std::fmt::Debug for Incoming {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Incoming").field("request", &self.request).finish_non_exhaustive()
    }
}

impl Incoming {
    /// What the sidecar asks.
    pub fn request(&self) -> &Request {
        &self.request
    }

    /// Answers and closes the connection. Fails when the sidecar gave up waiting.
    pub async fn reply(mut self, reply: &Reply) -> Result<(), BridgeError> {
        let line = encode(reply)?;
        self.write
            .write_all(&line)
            .await
            .map_err(|source| BridgeError::Io { path: PathBuf::from(crate::SOCKET_NAME), source })?;
        let _ = self.write.shutdown().await;
        Ok(())
    }
}

/// The reading side of the app: a permit per connection being read, and the queue of requests read.
#[derive(Debug, Clone)]
pub(crate) struct Reader {
    reading: Arc<Semaphore>,
    queue: mpsc::Sender<Incoming>,
}

impl Reader {
    /// A reader and the receiving end of its queue.
    pub(crate) fn new() -> (Reader, mpsc::Receiver<Incoming>) {
        let (queue, requests) = mpsc::channel(QUEUED_REQUESTS);
        (Reader { reading: Arc::new(Semaphore::new(MAX_READING)), queue }, requests)
    }

    /// A permit to read one more connection, `None` (logged) when [`MAX_READING`] are being read:
    /// the caller then closes the connection.
    pub(crate) fn permit(&self) -> Option<OwnedSemaphorePermit> {
        let permit = Arc::clone(&self.reading).try_acquire_owned().ok();
        if permit.is_none() {
            tracing::warn!(
                "app channel: {MAX_READING} connections are still sending their request; closing a new one"
            );
        }
        permit
    }

    /// Reads the connection's request on a task of its own and queues it.
    pub(crate) fn read_on_its_own<R, W>(&self, permit: OwnedSemaphorePermit, read: R, write: W)
    where
        R: AsyncRead + Send + Unpin + 'static,
        W: AsyncWrite + Send + Unpin + 'static,
    {
        let queue = self.queue.clone();
        tokio::spawn(async move {
            let incoming = read_request(read, Box::new(write)).await;
            drop(permit);
            if let Some(incoming) = incoming {
                let _ = queue.send(incoming).await;
            }
        });
    }
}

/// The request on a connection, or `None` (logged) when it sends nothing parseable in time.
async fn read_request(read: impl AsyncRead + Unpin, write: ReplyWriter) -> Option<Incoming> {
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

/// The sidecar's side of one exchange: writes `request`, then waits up to `wait` for the reply.
pub(crate) async fn exchange(
    read: impl AsyncRead + Unpin,
    mut write: impl AsyncWrite + Unpin,
    request: &Request,
    wait: Duration,
    io: impl Fn(std::io::Error) -> BridgeError,
) -> Result<Reply, BridgeError> {
    write.write_all(&encode(request)?).await.map_err(&io)?;
    let reply = tokio::time::timeout(wait, read_line(read))
        .await
        .map_err(|_| BridgeError::TimedOut(wait))?
        .map_err(io)?;
    match reply {
        Some(text) => serde_json::from_str(&text).map_err(|e| BridgeError::Protocol(e.to_string())),
        None => Err(BridgeError::Protocol("the app closed the connection without answering".into())),
    }
}

/// One message as a line.
fn encode(message: &impl serde::Serialize) -> Result<Vec<u8>, BridgeError> {
    let mut line = serde_json::to_vec(message).map_err(|e| BridgeError::Protocol(e.to_string()))?;
    line.push(b'\n');
    Ok(line)
}

/// One line (without its newline), `None` at end of stream; lines over [`MAX_LINE`] are an error.
pub(crate) async fn read_line(read: impl AsyncRead + Unpin) -> std::io::Result<Option<String>> {
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

    #[tokio::test]
    async fn a_line_over_the_cap_is_refused_and_a_last_line_without_newline_is_read() {
        let long = vec![b'x'; MAX_LINE + 10];
        let err = read_line(&long[..]).await.unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidData);
        assert_eq!(read_line(&b"{\"a\":1}"[..]).await.unwrap().as_deref(), Some("{\"a\":1}"));
        assert_eq!(read_line(&b""[..]).await.unwrap(), None);
    }
}
