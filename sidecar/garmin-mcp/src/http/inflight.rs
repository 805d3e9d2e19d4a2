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
//! * **Kept a while for a client that reconnects.** A broken connection is not a cancellation
//!   (the MCP spec says so, and proxies and phones break connections): a stream dropped before it
//!   carried the answer leaves its call running for the resume window (`--resume-window-secs`,
//!   [`DEFAULT_RESUME_WINDOW`]), still counted against the caps above. A client that resumes the
//!   stream (`GET` with `Last-Event-ID`, [`super::replay`] keeps the events, the answer included)
//!   takes the call back; each resume that ends before the answer opens a new window.
//! * **Cancelled when its client is gone.** A call nobody resumed within the window, or whose
//!   stream was dropped before it carried any event id to resume from, is cancelled
//!   (`notifications/cancelled` into the session): the tool stops, its confirmation question is
//!   withdrawn, and a late answer confirms nothing.
//! * **Counted for shutdown.** SIGTERM waits for the calls in progress ([`Calls::idle`]) after
//!   cancelling those waiting for a resume; a call that has answered, or whose client is gone, is
//!   not one of them.

use std::collections::{HashMap, HashSet};
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use futures::Stream;
use rmcp::model::{
    CancelledNotification, CancelledNotificationParam, ClientJsonRpcMessage, ClientNotification, RequestId,
    ServerJsonRpcMessage,
};
use rmcp::transport::streamable_http_server::session::ServerSseMessage;
use rmcp::transport::streamable_http_server::session::local::LocalSessionHandle;
use tokio::sync::Notify;

use super::replay::Replay;

/// Calls in progress per session: more than any client runs at once.
pub const MAX_CALLS_PER_SESSION: usize = 32;
/// Calls in progress per client, over all its sessions.
pub const MAX_CALLS_PER_CLIENT: usize = 128;
/// Calls in progress in all.
pub const MAX_CALLS: usize = 256;
/// How long a call whose connection broke waits for its client to resume the stream.
pub const DEFAULT_RESUME_WINDOW: Duration = Duration::from_secs(30);

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
#[derive(Clone, Debug)]
pub(super) struct Calls {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    book: Mutex<Book>,
    idle: Notify,
    /// Calls whose stream broke, by the stream a resume names; waiting for their client.
    orphans: Mutex<HashMap<String, Orphan>>,
    /// How long an orphan waits (zero: cancelled at once).
    resume_window: Duration,
    /// Tells each orphan's timer apart from a later one of the same stream.
    next_orphan: std::sync::atomic::AtomicU64,
    /// The server is stopping: nobody can resume now, so a call whose stream breaks is cancelled at
    /// once instead of holding the shutdown for the resume window. Set and read under `orphans`'
    /// lock, so no call slips between the shutdown's sweep and this flag.
    stopping: std::sync::atomic::AtomicBool,
}

/// A call whose stream broke before its answer, and what it takes to give it back or cancel it.
#[derive(Debug)]
struct Orphan {
    slot: CallSlot,
    session: LocalSessionHandle,
    id: RequestId,
    number: u64,
}

/// A call taken back by a resume: what its new stream needs.
pub(super) struct Adopted {
    slot: CallSlot,
    session: LocalSessionHandle,
    id: RequestId,
    stream: String,
}

#[derive(Debug, Default)]
struct Book {
    total: usize,
    per_session: HashMap<String, usize>,
    per_client: HashMap<String, usize>,
    ids: HashSet<(String, RequestId)>,
}

impl Calls {
    /// No calls yet; a call whose connection broke waits `resume_window` for its client.
    pub(super) fn new(resume_window: Duration) -> Self {
        Calls {
            inner: Arc::new(Inner {
                book: Mutex::default(),
                idle: Notify::new(),
                orphans: Mutex::default(),
                resume_window,
                next_orphan: std::sync::atomic::AtomicU64::new(0),
                stopping: std::sync::atomic::AtomicBool::new(false),
            }),
        }
    }

    fn orphans(&self) -> std::sync::MutexGuard<'_, HashMap<String, Orphan>> {
        self.inner.orphans.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The call of `session` whose stream `stream` broke, if it still waits for its client.
    pub(super) fn adopt(&self, session: &str, stream: &str) -> Option<Adopted> {
        let mut orphans = self.orphans();
        if orphans.get(stream).is_none_or(|o| o.slot.key.0 != session) {
            return None;
        }
        let orphan = orphans.remove(stream)?;
        Some(Adopted { slot: orphan.slot, session: orphan.session, id: orphan.id, stream: stream.to_owned() })
    }

    /// Cancels every call waiting for its client, and from now on every call whose stream breaks
    /// (at shutdown: nobody will resume them now).
    pub(super) fn cancel_orphans(&self) {
        let orphans: Vec<Orphan> = {
            let mut orphans = self.orphans();
            self.inner.stopping.store(true, std::sync::atomic::Ordering::Relaxed);
            orphans.drain().map(|(_, orphan)| orphan).collect()
        };
        for orphan in orphans {
            cancel(orphan.session, orphan.id, orphan.slot, "the server is stopping");
        }
    }

    /// Keeps the call of `stream` for its client to resume; cancels it when the window passes.
    fn orphan(&self, stream: String, slot: CallSlot, session: LocalSessionHandle, id: RequestId) {
        let window = self.inner.resume_window;
        let number = self.inner.next_orphan.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let Ok(runtime) = tokio::runtime::Handle::try_current() else { return };
        if window.is_zero() {
            cancel(session, id, slot, "the client closed the connection that was to carry the answer");
            return;
        }
        {
            let mut orphans = self.orphans();
            if self.inner.stopping.load(std::sync::atomic::Ordering::Relaxed) {
                drop(orphans);
                cancel(session, id, slot, "the server is stopping");
                return;
            }
            orphans.insert(stream.clone(), Orphan { slot, session, id, number });
        }
        let calls = self.clone();
        runtime.spawn(async move {
            tokio::time::sleep(window).await;
            let mut orphans = calls.orphans();
            if orphans.get(&stream).is_none_or(|o| o.number != number) {
                return; // resumed (and maybe orphaned again, with a timer of its own)
            }
            let Some(orphan) = orphans.remove(&stream) else { return };
            drop(orphans);
            let why = "the client closed the connection that was to carry the answer and did not resume it";
            cancel(orphan.session, orphan.id, orphan.slot, why);
        });
    }

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

/// A call's event stream: gives its place back once the answer went out; dropped before that, it
/// leaves the call for its client to resume, or cancels it (see the module docs).
pub(super) struct CallStream<S> {
    inner: S,
    slot: Option<CallSlot>,
    /// To cancel the call: its session and id.
    session: LocalSessionHandle,
    id: RequestId,
    /// The stream a resume names (learnt from the first event id that went out).
    stream: Option<String>,
    /// A replay for a resume: it ends after the events kept so far, answered or not.
    resumed: bool,
    /// The stream ended.
    ended: bool,
    /// Where the stream's events are kept, to claim the stream for the call's session.
    replay: Option<Arc<Replay>>,
}

impl<S> CallStream<S> {
    /// The stream of a call just made.
    pub(super) fn new(
        inner: S,
        slot: CallSlot,
        session: LocalSessionHandle,
        id: RequestId,
        replay: Arc<Replay>,
    ) -> Self {
        let slot = Some(slot);
        CallStream {
            inner,
            slot,
            session,
            id,
            stream: None,
            resumed: false,
            ended: false,
            replay: Some(replay),
        }
    }

    /// The replay of a call's stream for a client that resumed it.
    pub(super) fn resumed(inner: S, adopted: Adopted) -> Self {
        let Adopted { slot, session, id, stream } = adopted;
        let slot = Some(slot);
        CallStream {
            inner,
            slot,
            session,
            id,
            stream: Some(stream),
            resumed: true,
            ended: false,
            replay: None,
        }
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
            Poll::Ready(Some(event)) => {
                if this.stream.is_none()
                    && let Some(stream) = event.event_id.as_deref().and_then(super::replay::stream_of)
                {
                    // The stream is this call's session's, and only its (see `super::replay`).
                    if let (Some(replay), Some(slot)) = (&this.replay, &this.slot) {
                        replay.claim(stream, &slot.key.0);
                    }
                    this.stream = Some(stream.to_owned());
                }
                if answers(event, &this.id) {
                    this.slot = None;
                }
            }
            Poll::Ready(None) => this.ended = true,
            Poll::Pending => {}
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
        // Answered: nothing to cancel.
        let Some(slot) = self.slot.take() else { return };
        // rmcp ended the call's own stream without an answer (the call was cancelled, the session
        // closed): nothing left to wait for.
        if self.ended && !self.resumed {
            return;
        }
        match self.stream.take() {
            Some(stream) => slot.calls.clone().orphan(stream, slot, self.session.clone(), self.id.clone()),
            // Nothing went out that a client could resume from: it is gone.
            None => cancel(
                self.session.clone(),
                self.id.clone(),
                slot,
                "the client closed the connection that was to carry the answer",
            ),
        }
    }
}

/// Cancels call `id` of `session` (`notifications/cancelled`), then gives its place back.
fn cancel(session: LocalSessionHandle, id: RequestId, slot: CallSlot, why: &str) {
    let param = CancelledNotificationParam::new(Some(id), Some(why.to_owned()));
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
