//! Counting MCP calls in progress, so graceful shutdown can wait for them. A POST to `/mcp` is in
//! progress until its response body (an SSE stream carrying the call's result) has been sent or
//! dropped; the count goes down when that body is dropped.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::Response;
use http_body::{Frame, SizeHint};
use tokio::sync::Notify;

/// Number of POSTs whose response has not finished, and a signal for when it reaches zero.
#[derive(Clone, Debug, Default)]
pub(super) struct InFlight {
    count: Arc<AtomicUsize>,
    idle: Arc<Notify>,
}

impl InFlight {
    pub(super) fn count(&self) -> usize {
        self.count.load(Ordering::SeqCst)
    }

    /// Resolves once no call is in progress.
    pub(super) async fn idle(&self) {
        loop {
            // Created before the check, so a wake-up between the two is not lost.
            let notified = self.idle.notified();
            if self.count() == 0 {
                return;
            }
            notified.await;
        }
    }

    fn enter(&self) -> Guard {
        self.count.fetch_add(1, Ordering::SeqCst);
        Guard(self.clone())
    }
}

#[derive(Debug)]
struct Guard(InFlight);

impl Drop for Guard {
    fn drop(&mut self) {
        if self.0.count.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.0.idle.notify_waiters();
        }
    }
}

/// A response body that holds its call's [`Guard`] until it is dropped.
#[derive(Debug)]
struct Tracked {
    inner: Body,
    _guard: Guard,
}

impl http_body::Body for Tracked {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.get_mut().inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// Middleware: counts POSTs (calls) until their response body is done.
pub(super) async fn track(State(inflight): State<InFlight>, request: Request, next: Next) -> Response {
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let guard = inflight.enter();
    next.run(request).await.map(|inner| Body::new(Tracked { inner, _guard: guard }))
}
