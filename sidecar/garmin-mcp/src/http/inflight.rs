//! MCP calls in progress over HTTP: how many, whose, and what becomes of a call whose client left.
//!
//! A call is a JSON-RPC request on a session (`tools/call`, `resources/read`, `prompts/get`…); rmcp
//! answers it on an event stream of its own ([`super::limits::Sessions`] opens it). The call is in
//! progress from then until its answer is on that stream — not until the client has read it — or
//! until the stream is gone:
//!
//! * **Bounded.** At most [`MAX_CALLS_PER_SESSION`] calls per session, [`MAX_CALLS_PER_CLIENT`]
//!   per client (the authenticated caller, else the peer address) and [`MAX_CALLS`] in all; past
//!   that a call is refused at once (`429`/`503` with `Retry-After`) without reaching a tool. A
//!   request id already used by a call of the session still in progress is refused too (`400`):
//!   rmcp routes answers by id, and a second call with the same id left the first one's stream
//!   waiting forever.
//! * **Cancelled when its client is gone.** rmcp keeps a call running after its stream is dropped
//!   (so a client could resume it). Here a stream dropped before it carried the answer — the client
//!   closed the connection — cancels the call (`notifications/cancelled` into the session): the tool
//!   stops, its confirmation question is withdrawn, and a late answer confirms nothing.
//! * **Counted for shutdown.** SIGTERM waits for the calls in progress ([`Calls::idle`]); a call
//!   that has answered, or whose client is gone, is not one of them.

use std::collections::{HashMap, HashSet};
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};

use futures::Stream;
use rmcp::model::{
    CancelledNotification, CancelledNotificationParam, ClientJsonRpcMessage, ClientNotification, RequestId,
    ServerJsonRpcMessage,
};
use rmcp::transport::streamable_http_server::session::ServerSseMessage;
use rmcp::transport::streamable_http_server::session::local::LocalSessionHandle;
use tokio::sync::Notify;

/// Calls in progress per session: more than any client runs at once.
pub const MAX_CALLS_PER_SESSION: usize = 32;
/// Calls in progress per client, over all its sessions.
pub const MAX_CALLS_PER_CLIENT: usize = 128;
/// Calls in progress in all.
pub const MAX_CALLS: usize = 256;

/// Why a call was refused before it started.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum CallRefused {
    /// The session has [`MAX_CALLS_PER_SESSION`] in progress.
    Session,
    /// The client has [`MAX_CALLS_PER_CLIENT`] in progress.
    Client,
    /// The server has [`MAX_CALLS`] in progress.
    Server,
    /// A call of the session with this id (shown) is still in progress.
    DuplicateId(String),
}

/// The calls in progress, shared by the session manager and the shutdown.
#[derive(Clone, Debug, Default)]
pub(super) struct Calls {
    inner: Arc<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    book: Mutex<Book>,
    idle: Notify,
}

#[derive(Debug, Default)]
struct Book {
    total: usize,
    per_session: HashMap<String, usize>,
    per_client: HashMap<String, usize>,
    ids: HashSet<(String, RequestId)>,
}

impl Calls {
    fn book(&self) -> std::sync::MutexGuard<'_, Book> {
        self.inner.book.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Calls in progress now.
    pub(super) fn count(&self) -> usize {
        self.book().total
    }

    /// Resolves once no call is in progress.
    pub(super) async fn idle(&self) {
        loop {
            // Created before the check, so a wake-up between the two is not lost.
            let notified = self.inner.idle.notified();
            if self.count() == 0 {
                return;
            }
            notified.await;
        }
    }

    /// Takes a place for call `id` of `session` by `client`, or says why there is none.
    pub(super) fn enter(&self, session: &str, client: &str, id: &RequestId) -> Result<CallSlot, CallRefused> {
        let mut book = self.book();
        let key = (session.to_owned(), id.clone());
        if book.ids.contains(&key) {
            return Err(CallRefused::DuplicateId(crate::output::echo(&id.to_string())));
        }
        if book.per_session.get(session).copied().unwrap_or(0) >= MAX_CALLS_PER_SESSION {
            return Err(CallRefused::Session);
        }
        if book.per_client.get(client).copied().unwrap_or(0) >= MAX_CALLS_PER_CLIENT {
            return Err(CallRefused::Client);
        }
        if book.total >= MAX_CALLS {
            return Err(CallRefused::Server);
        }
        book.total += 1;
        *book.per_session.entry(session.to_owned()).or_insert(0) += 1;
        *book.per_client.entry(client.to_owned()).or_insert(0) += 1;
        book.ids.insert(key.clone());
        Ok(CallSlot { calls: self.clone(), key, client: client.to_owned() })
    }
}

/// One call's place; given back when dropped.
#[derive(Debug)]
pub(super) struct CallSlot {
    calls: Calls,
    key: (String, RequestId),
    client: String,
}

impl Drop for CallSlot {
    fn drop(&mut self) {
        let mut book = self.calls.book();
        book.ids.remove(&self.key);
        book.total = book.total.saturating_sub(1);
        lower(&mut book.per_session, &self.key.0);
        lower(&mut book.per_client, &self.client);
        let idle = book.total == 0;
        drop(book);
        if idle {
            self.calls.inner.idle.notify_waiters();
        }
    }
}

fn lower(counts: &mut HashMap<String, usize>, key: &str) {
    if let Some(count) = counts.get_mut(key) {
        *count = count.saturating_sub(1);
        if *count == 0 {
            counts.remove(key);
        }
    }
}

/// A call's event stream: gives its place back once the answer went out, and cancels the call when
/// dropped before that (see the module docs).
pub(super) struct CallStream<S> {
    inner: S,
    slot: Option<CallSlot>,
    /// To cancel the call: its session and id.
    session: LocalSessionHandle,
    id: RequestId,
}

impl<S> CallStream<S> {
    pub(super) fn new(inner: S, slot: CallSlot, session: LocalSessionHandle, id: RequestId) -> Self {
        CallStream { inner, slot: Some(slot), session, id }
    }
}

impl<S> std::fmt::Debug for CallStream<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CallStream").field("id", &self.id).field("answered", &self.slot.is_none()).finish()
    }
}

impl<S: Stream<Item = ServerSseMessage> + Unpin> Stream for CallStream<S> {
    type Item = ServerSseMessage;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<ServerSseMessage>> {
        let this = self.get_mut();
        let next = Pin::new(&mut this.inner).poll_next(cx);
        match &next {
            Poll::Ready(Some(event)) if answers(event, &this.id) => this.slot = None,
            Poll::Ready(None) => this.slot = None,
            _ => {}
        }
        next
    }
}

/// True when `event` carries the answer (result or error) to request `id`.
fn answers(event: &ServerSseMessage, id: &RequestId) -> bool {
    match event.message.as_deref() {
        Some(ServerJsonRpcMessage::Response(response)) => &response.id == id,
        Some(ServerJsonRpcMessage::Error(error)) => error.id.as_ref() == Some(id),
        _ => false,
    }
}

impl<S> Drop for CallStream<S> {
    fn drop(&mut self) {
        // Answered: nothing to cancel. Otherwise the client is gone before its answer.
        let Some(slot) = self.slot.take() else { return };
        let session = self.session.clone();
        let param = CancelledNotificationParam::new(
            Some(self.id.clone()),
            Some("the client closed the connection that was to carry the answer".to_owned()),
        );
        let cancel = ClientJsonRpcMessage::notification(ClientNotification::CancelledNotification(
            CancelledNotification::new(param),
        ));
        let Ok(runtime) = tokio::runtime::Handle::try_current() else { return };
        runtime.spawn(async move {
            if let Err(e) = session.push_message(cancel, None).await {
                tracing::debug!("cancelling a call whose client left failed (the session ended): {e}");
            }
            // The place stays taken until the cancellation reached the session.
            drop(slot);
        });
    }
}
