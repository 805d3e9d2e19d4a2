//! What one client, or a flood of them, may take from `--http`: MCP sessions, event streams and
//! request bodies are all bounded, so memory stays bounded and a legitimate client always gets an
//! answer (at worst `503` with `Retry-After`) instead of waiting forever.
//!
//! * [`Sessions`] wraps rmcp's in-memory session manager: at most [`SessionLimits::max`] live
//!   sessions and [`SessionLimits::per_client`] per client — the authenticated caller
//!   ([`crate::caller::ClientKey`]), else the peer address ([`client_of`]), so behind a tunnel or a
//!   reverse proxy, where every remote client is 127.0.0.1, one client cannot shut the others out;
//!   a session that made no request after its `initialize` is closed after
//!   [`SessionLimits::abandoned_after`]; sessions in use end after [`IDLE_SESSION_TIMEOUT`] without
//!   traffic (rmcp's keep-alive). Each call it opens a stream for is bounded and cancelled when its
//!   client leaves ([`super::inflight`]).
//! * [`admit`] (middleware, after authentication) answers `503` + `Retry-After` past the session
//!   cap, limits GET event streams ([`MAX_STREAMS_PER_SESSION`] per session, [`MAX_STREAMS`] in
//!   all, far below the connection cap so requests always find room), answers `404` to a `DELETE`
//!   of an unknown session, and reads POST bodies itself: too long `413`, broken framing `400`,
//!   too slow `408` (rmcp would answer `500` to the last two); a body naming a JSON key twice is
//!   handled as `crate::protocol` says. It also moves the request's connection to its client
//!   ([`super::connections`]).
//! * [`refuse_oversized`] (outermost middleware) answers a declared `Content-Length` over the
//!   limit with `413` at once, without waiting for the body.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures::Stream;
use http_body::{Frame, SizeHint};
use http_body_util::BodyExt as _;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::WorkerTransport;
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError, LocalSessionWorker,
};
use rmcp::transport::streamable_http_server::session::{ServerSseMessage, SessionId, SessionManager};

use super::connections::Connection;
use super::inflight::{CallRefused, CallSlot, CallStream, Calls};
use super::replay::{self, Replay};
use super::{BODY_READ_TIMEOUT, MAX_BODY_BYTES};
use crate::caller::client_of;

/// A session in use ends after this long without any traffic (the client starts a new one).
pub const IDLE_SESSION_TIMEOUT: Duration = Duration::from_secs(300);
/// Open GET event streams per session: the spec lets a client keep several (the MCP conformance
/// suite's `server-sse-multiple-streams` opens three beside the SDK's own), a flood is stopped by
/// [`MAX_STREAMS`].
pub const MAX_STREAMS_PER_SESSION: usize = 4;
/// Open GET event streams in all; well below [`super::MAX_CONNECTIONS`], so requests always have
/// connections left.
pub const MAX_STREAMS: usize = 64;
/// `Retry-After` of a refused event stream.
const STREAM_RETRY_AFTER: Duration = Duration::from_secs(5);
/// `Retry-After` of a refused call or connection.
const CALL_RETRY_AFTER: Duration = Duration::from_secs(1);
/// How long the events of a finished or cancelled call are kept for a client resuming its stream.
const COMPLETED_CACHE_TTL: Duration = Duration::from_secs(5);
/// The MCP session header.
const SESSION_HEADER: &str = "mcp-session-id";

/// How many sessions may live, and how long an abandoned one is kept.
#[derive(Clone, Copy, Debug)]
pub struct SessionLimits {
    /// Live sessions in all.
    pub max: usize,
    /// Live sessions per client (the authenticated caller, else the peer address).
    pub per_client: usize,
    /// A session with no request after `initialize` is closed after this long.
    pub abandoned_after: Duration,
    /// A call whose connection broke waits this long for its client to resume it
    /// (`--resume-window-secs`; see [`super::inflight`]).
    pub resume_window: Duration,
}

impl Default for SessionLimits {
    fn default() -> Self {
        SessionLimits {
            max: 256,
            per_client: 64,
            abandoned_after: Duration::from_secs(30),
            resume_window: super::inflight::DEFAULT_RESUME_WINDOW,
        }
    }
}

/// One live session.
#[derive(Debug)]
struct Live {
    client: String,
    created: Instant,
    /// A request other than `initialize` arrived (a real client, not a flood).
    used: bool,
}

#[derive(Debug, Default)]
struct Book {
    live: HashMap<SessionId, Live>,
    per_client: HashMap<String, usize>,
}

impl Book {
    fn remove(&mut self, id: &SessionId) {
        let Some(live) = self.live.remove(id) else { return };
        if let Some(count) = self.per_client.get_mut(&live.client) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                self.per_client.remove(&live.client);
            }
        }
    }
}

/// Why a new session was refused, and when to try again.
#[derive(Clone, Copy, Debug)]
struct Full {
    per_client: bool,
    retry_after: Duration,
}

tokio::task_local! {
    /// The client of the request being handled, and whether its session was refused: set by
    /// [`admit`] around rmcp's handling, read by [`Sessions::create_session`] (rmcp calls it
    /// within the same task).
    static ADMISSION: Admission;
}

#[derive(Debug)]
struct Admission {
    client: String,
    refused: Mutex<Option<Full>>,
    /// The place [`admit`] took for the call this request carries, for its stream to hold.
    call: Mutex<Option<CallSlot>>,
}

/// rmcp's session manager, with the caps and the clean-up of abandoned sessions.
#[derive(Debug)]
pub(super) struct Sessions {
    inner: LocalSessionManager,
    limits: SessionLimits,
    book: Mutex<Book>,
    /// The calls in progress, for a resume to take its call back.
    calls: Calls,
    /// Every stream's recent events, for resumes.
    replay: Arc<Replay>,
}

/// Why [`Sessions`] failed.
#[derive(Debug)]
pub(super) enum SessionsError {
    /// The cap is reached (the middleware turns this into 503).
    Full,
    /// rmcp's own error.
    Local(LocalSessionManagerError),
}

impl From<LocalSessionManagerError> for SessionsError {
    fn from(e: LocalSessionManagerError) -> Self {
        SessionsError::Local(e)
    }
}

impl std::fmt::Display for SessionsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SessionsError::Full => f.write_str("too many MCP sessions"),
            SessionsError::Local(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SessionsError {}

impl Sessions {
    pub(super) fn new(limits: SessionLimits, calls: Calls) -> Self {
        // Every stream's events are kept a while, so a client whose connection broke can resume.
        let replay = Arc::new(Replay::default());
        let mut inner = LocalSessionManager::default().with_event_store(replay.clone());
        inner.session_config.keep_alive = Some(IDLE_SESSION_TIMEOUT);
        inner.session_config.init_timeout = Some(limits.abandoned_after);
        inner.session_config.completed_cache_ttl = COMPLETED_CACHE_TTL;
        Sessions { inner, limits, book: Mutex::new(Book::default()), calls, replay }
    }

    fn book(&self) -> std::sync::MutexGuard<'_, Book> {
        self.book.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn knows(&self, id: &SessionId) -> bool {
        self.book().live.contains_key(id)
    }

    fn mark_used(&self, id: &SessionId) {
        if let Some(live) = self.book().live.get_mut(id) {
            live.used = true;
        }
    }

    /// Reserves a place for a new session of `client`, or says when to come back.
    fn reserve(&self, id: &SessionId, client: &str) -> Result<(), Full> {
        let mut book = self.book();
        let now = Instant::now();
        let of_client = book.per_client.get(client).copied().unwrap_or(0);
        let per_client = of_client >= self.limits.per_client;
        if per_client || book.live.len() >= self.limits.max {
            // The earliest an abandoned session (of this client, when that is the limit) ends.
            let retry_after = book
                .live
                .values()
                .filter(|l| !l.used && (!per_client || l.client == client))
                .map(|l| (l.created + self.limits.abandoned_after).saturating_duration_since(now))
                .min()
                .unwrap_or(self.limits.abandoned_after);
            return Err(Full { per_client, retry_after });
        }
        book.live.insert(id.clone(), Live { client: client.to_owned(), created: now, used: false });
        *book.per_client.entry(client.to_owned()).or_insert(0) += 1;
        Ok(())
    }

    /// Closes the sessions nobody used since their `initialize` within the allowed time.
    pub(super) async fn close_abandoned(&self) {
        let expired: Vec<SessionId> = {
            let book = self.book();
            book.live
                .iter()
                .filter(|(_, l)| !l.used && l.created.elapsed() >= self.limits.abandoned_after)
                .map(|(id, _)| id.clone())
                .collect()
        };
        for id in expired {
            tracing::debug!(session = %id, "closing a session abandoned after initialize");
            if let Err(e) = self.close_session(&id).await {
                tracing::debug!("closing an abandoned session failed: {e}");
            }
        }
    }
}

impl SessionManager for Sessions {
    type Error = SessionsError;
    type Transport = WorkerTransport<LocalSessionWorker>;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        let client = ADMISSION.try_with(|a| a.client.clone()).unwrap_or_default();
        // Reserve before creating, so concurrent requests can never overshoot the cap.
        let placeholder: SessionId = format!("reserved-{}", next_reservation()).into();
        if let Err(full) = self.reserve(&placeholder, &client) {
            let _ = ADMISSION.try_with(|a| {
                *a.refused.lock().unwrap_or_else(PoisonError::into_inner) = Some(full);
            });
            return Err(SessionsError::Full);
        }
        match self.inner.create_session().await {
            Ok((id, transport)) => {
                let mut book = self.book();
                let live = book.live.remove(&placeholder);
                let live = live.unwrap_or(Live { client, created: Instant::now(), used: false });
                book.live.insert(id.clone(), live);
                Ok((id, transport))
            }
            Err(e) => {
                self.book().remove(&placeholder);
                Err(e.into())
            }
        }
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        Ok(self.inner.initialize_session(id, message).await?)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        Ok(self.inner.has_session(id).await?)
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        self.book().remove(id);
        Ok(self.inner.close_session(id).await?)
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.mark_used(id);
        let call = match &message {
            ClientJsonRpcMessage::Request(request) => Some(request.id.clone()),
            _ => None,
        };
        let slot = ADMISSION
            .try_with(|a| a.call.lock().unwrap_or_else(PoisonError::into_inner).take())
            .ok()
            .flatten();
        let handle = self.inner.sessions.read().await.get(id).cloned();
        let stream = self.inner.create_stream(id, message).await?;
        Ok(match (call, slot, handle) {
            (Some(call), Some(slot), Some(handle)) => futures::future::Either::Right(CallStream::new(
                stream,
                slot,
                handle,
                call,
                self.replay.clone(),
            )),
            _ => futures::future::Either::Left(stream),
        })
    }

    async fn accept_message(&self, id: &SessionId, message: ClientJsonRpcMessage) -> Result<(), Self::Error> {
        Ok(self.inner.accept_message(id, message).await?)
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.mark_used(id);
        Ok(self.inner.create_standalone_stream(id).await?)
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.mark_used(id);
        // A call whose connection broke, taken back by its client: its place goes with the replay.
        if !self.inner.has_session(id).await? {
            return Err(SessionsError::Local(LocalSessionManagerError::SessionNotFound(id.clone())));
        }
        // The events the client missed, from this session's own streams only; a replay ends after
        // them (a call still running is polled again).
        let events = match self.replay.after(id, &last_event_id) {
            Ok(events) => events,
            Err(why) => {
                tracing::debug!("a resume replays nothing: {why}");
                Vec::new()
            }
        };
        let stream = futures::stream::iter(events);
        let adopted =
            replay::stream_of(&last_event_id).and_then(|stream| self.calls.adopt(id.as_ref(), stream));
        Ok(match adopted {
            Some(adopted) => futures::future::Either::Right(CallStream::resumed(stream, adopted)),
            None => futures::future::Either::Left(stream),
        })
    }
}

/// A process-unique number for a reservation's placeholder name (never sent anywhere).
fn next_reservation() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Open GET event streams, per session and in all.
#[derive(Debug, Default)]
pub(super) struct Streams {
    open: Mutex<HashMap<String, usize>>,
}

impl Streams {
    fn open(self: &Arc<Self>, session: &str) -> Result<StreamGuard, bool> {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let total: usize = open.values().sum();
        let of_session = open.get(session).copied().unwrap_or(0);
        if of_session >= MAX_STREAMS_PER_SESSION {
            return Err(true);
        }
        if total >= MAX_STREAMS {
            return Err(false);
        }
        *open.entry(session.to_owned()).or_insert(0) += 1;
        Ok(StreamGuard { streams: self.clone(), session: session.to_owned() })
    }
}

/// Holds one stream's place until the response body is dropped.
#[derive(Debug)]
struct StreamGuard {
    streams: Arc<Streams>,
    session: String,
}

impl Drop for StreamGuard {
    fn drop(&mut self) {
        let mut open = self.streams.open.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = open.get_mut(&self.session) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                open.remove(&self.session);
            }
        }
    }
}

/// A response body that holds a [`StreamGuard`] until it is dropped.
#[derive(Debug)]
struct Held {
    inner: Body,
    _guard: StreamGuard,
}

impl http_body::Body for Held {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        std::pin::Pin::new(&mut self.get_mut().inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// What [`admit`] needs.
#[derive(Debug)]
pub(super) struct Limits {
    pub(super) sessions: Arc<Sessions>,
    pub(super) streams: Arc<Streams>,
    pub(super) calls: Calls,
}

fn plain(status: StatusCode, message: String) -> Response {
    (status, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], message).into_response()
}

/// A refusal that also closes the connection, so a refused client does not keep holding one of
/// the server's connections.
fn closing(mut response: Response) -> Response {
    response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

fn busy(message: String, retry_after: Duration) -> Response {
    let mut response = plain(StatusCode::SERVICE_UNAVAILABLE, message);
    let secs = retry_after.as_secs_f64().ceil().max(1.0) as u64;
    response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(secs));
    response
}

fn session_of(request: &Request) -> Option<String> {
    request.headers().get(SESSION_HEADER).and_then(|v| v.to_str().ok()).map(str::to_owned)
}

/// Middleware in front of rmcp: session and stream caps, `DELETE` of unknown sessions, and POST
/// bodies read here with clear refusals.
pub(super) async fn admit(State(state): State<Arc<Limits>>, request: Request, next: Next) -> Response {
    let client = client_of(request.extensions());
    if let Some(connection) = request.extensions().get::<Arc<Connection>>()
        && connection.authenticated(&client).is_err()
    {
        return closing(too_many(
            format!(
                "Too Many Requests: this client already holds {} connections to the server; close some first",
                super::connections::MAX_CONNECTIONS_PER_CLIENT
            ),
            CALL_RETRY_AFTER,
        ));
    }
    let session = session_of(&request);
    match (request.method(), &session) {
        (&Method::DELETE, Some(id)) if !state.sessions.knows(&id.as_str().into()) => {
            return plain(
                StatusCode::NOT_FOUND,
                "Not Found: no such MCP session (it ended or never existed)".to_owned(),
            );
        }
        (&Method::GET, Some(id)) => {
            let guard = match state.streams.open(id) {
                Ok(guard) => guard,
                Err(true) => {
                    return closing(plain(
                        StatusCode::CONFLICT,
                        format!(
                            "Conflict: this session already has {MAX_STREAMS_PER_SESSION} event streams open; close one first"
                        ),
                    ));
                }
                Err(false) => {
                    return closing(busy(
                        format!("Service Unavailable: {MAX_STREAMS} event streams are open; try again later"),
                        STREAM_RETRY_AFTER,
                    ));
                }
            };
            let response = next.run(request).await;
            return response.map(|inner| Body::new(Held { inner, _guard: guard }));
        }
        _ => {}
    }
    let request = if request.method() == Method::POST {
        match read_body(request).await {
            Ok(request) => request,
            Err(refusal) => return refusal,
        }
    } else {
        request
    };
    // A call takes its place before rmcp sees it, so a refusal costs nothing but this answer.
    let call = match (&session, request.extensions().get::<Envelope>()) {
        (Some(session), Some(Envelope { id: Some(id), method: Some(method) })) if method != "initialize" => {
            match state.calls.enter(session, &client, id) {
                Ok(slot) => Some(slot),
                Err(refused) => return closing(refused_call(&refused)),
            }
        }
        _ => None,
    };
    let admission = Admission { client, refused: Mutex::new(None), call: Mutex::new(call) };
    let (response, admission) = ADMISSION
        .scope(admission, async move {
            let response = next.run(request).await;
            let refused = ADMISSION.with(|a| a.refused.lock().unwrap_or_else(PoisonError::into_inner).take());
            (response, refused)
        })
        .await;
    match admission {
        Some(Full { per_client: true, retry_after }) => busy(
            format!(
                "Service Unavailable: this client already has {} MCP sessions open; end unused ones (DELETE) or try again later",
                state.sessions.limits.per_client
            ),
            retry_after,
        ),
        Some(Full { per_client: false, retry_after }) => busy(
            format!(
                "Service Unavailable: the server has {} MCP sessions open, its limit; try again later",
                state.sessions.limits.max
            ),
            retry_after,
        ),
        None => response,
    }
}

/// The answer to a call refused before it started (see [`super::inflight`]).
fn refused_call(refused: &CallRefused) -> Response {
    use super::inflight::{MAX_CALLS, MAX_CALLS_PER_CLIENT, MAX_CALLS_PER_SESSION};
    match refused {
        CallRefused::Session => too_many(
            format!(
                "Too Many Requests: this session already has {MAX_CALLS_PER_SESSION} calls in progress; wait for their answers"
            ),
            CALL_RETRY_AFTER,
        ),
        CallRefused::Client => too_many(
            format!(
                "Too Many Requests: this client already has {MAX_CALLS_PER_CLIENT} calls in progress; wait for their answers"
            ),
            CALL_RETRY_AFTER,
        ),
        CallRefused::Server => busy(
            format!(
                "Service Unavailable: the server has {MAX_CALLS} calls in progress, its limit; try again shortly"
            ),
            CALL_RETRY_AFTER,
        ),
        CallRefused::DuplicateId(id) => plain(
            StatusCode::BAD_REQUEST,
            format!(
                "Bad Request: request id {id} is already used by a call of this session still in progress; give each request a new id"
            ),
        ),
    }
}

/// `429` with `Retry-After`.
fn too_many(message: String, retry_after: Duration) -> Response {
    let mut response = busy(message, retry_after);
    *response.status_mut() = StatusCode::TOO_MANY_REQUESTS;
    response
}

/// Reads a POST body within [`BODY_READ_TIMEOUT`] and [`MAX_BODY_BYTES`], and hands rmcp a
/// complete one — without a key named twice (`crate::protocol::screen`).
async fn read_body(request: Request) -> Result<Request, Response> {
    let (parts, body) = request.into_parts();
    let limited = http_body_util::Limited::new(body, MAX_BODY_BYTES);
    let collected = match tokio::time::timeout(BODY_READ_TIMEOUT, limited.collect()).await {
        Err(_) => {
            return Err(plain(
                StatusCode::REQUEST_TIMEOUT,
                format!("Request Timeout: the body did not arrive within {}s", BODY_READ_TIMEOUT.as_secs()),
            ));
        }
        Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => return Err(too_large()),
        Ok(Err(e)) => {
            tracing::debug!("unreadable request body: {e}");
            return Err(plain(
                StatusCode::BAD_REQUEST,
                "Bad Request: the request body is malformed (its length or chunked encoding does not match what was sent)"
                    .to_owned(),
            ));
        }
        Ok(Ok(collected)) => collected.to_bytes(),
    };
    let collected = match crate::protocol::screen(&collected) {
        crate::protocol::Screened::Pass => collected,
        crate::protocol::Screened::Replace(bytes) => Bytes::from(bytes),
        crate::protocol::Screened::Refuse(answer) => {
            return Err((
                StatusCode::BAD_REQUEST,
                [(header::CONTENT_TYPE, "application/json")],
                answer.to_string(),
            )
                .into_response());
        }
        crate::protocol::Screened::Drop => return Err(StatusCode::ACCEPTED.into_response()),
    };
    let mut request = Request::from_parts(parts, Body::from(collected.clone()));
    if let Ok(envelope) = serde_json::from_slice::<Envelope>(&collected) {
        request.extensions_mut().insert(envelope);
    }
    Ok(request)
}

/// What [`admit`] reads of a JSON-RPC message: a request has both.
#[derive(Clone, Debug, serde::Deserialize)]
struct Envelope {
    #[serde(default)]
    id: Option<rmcp::model::RequestId>,
    #[serde(default)]
    method: Option<String>,
}

fn too_large() -> Response {
    plain(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!("Payload Too Large: request bodies are limited to {MAX_BODY_BYTES} bytes"),
    )
}

/// Outermost middleware: a declared body length over the limit is refused before any byte of it
/// is read.
pub(super) async fn refuse_oversized(request: Request, next: Next) -> Response {
    let declared = request.headers().get_all(header::CONTENT_LENGTH).iter().find_map(|v| {
        v.to_str().ok().and_then(|v| v.trim().parse::<u64>().ok()).filter(|&n| n > MAX_BODY_BYTES as u64)
    });
    if declared.is_some() {
        let mut response = too_large();
        response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
        return response;
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sessions_behind_one_address_are_capped_per_authenticated_client_not_per_address() {
        let limits = SessionLimits {
            max: 10,
            per_client: 2,
            abandoned_after: Duration::from_secs(30),
            ..SessionLimits::default()
        };
        let sessions = Sessions::new(limits, Calls::new(Duration::ZERO));
        // Behind a tunnel every remote client is 127.0.0.1; two OAuth grants are two clients.
        for i in 0..2 {
            sessions.reserve(&format!("a{i}").into(), "oauth:a").unwrap();
        }
        let full = sessions.reserve(&"a2".into(), "oauth:a").unwrap_err();
        assert!(full.per_client);
        sessions.reserve(&"b0".into(), "oauth:b").expect("another client of the same address gets in");
    }
}
