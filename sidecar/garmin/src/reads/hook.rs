//! The reader's one hook for a caller that keeps a request budget (the history sync counts its
//! requests and stops at `--max-requests`): told before each request, it may hold it back. The
//! reader knows nothing of budgets; a held-back read fails with [`crate::Error::HeldBack`] and
//! nothing is sent.

/// Told before a reader sends requests (see [`crate::reads::Garmin::with_hook`]).
pub trait RequestHook: Send + Sync + std::fmt::Debug {
    /// `requests` are about to be sent for one attempt at a read (one, or a few for a read that
    /// fans out). `Err(reason)` holds them back: the read fails with
    /// [`crate::Error::HeldBack`] carrying `reason`.
    fn before_sending(&self, requests: u32) -> Result<(), String>;
}
