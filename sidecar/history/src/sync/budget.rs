//! The sync's request budget and what a failed read means for the run. The budget is the reader's
//! [`RequestHook`]: every request the run's reader sends is counted here first, and once
//! `--max-requests` is spent the reader holds the next one back ([`garmin::Error::HeldBack`]). A
//! failed read becomes a [`Miss`]: stop the run politely, fail it, or note the part and go on.

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use chrono::Utc;
use garmin::Error;
use garmin::reads::RequestHook;

use super::Stopped;

/// How long to suggest waiting when Garmin rate-limits without saying for how long.
const DEFAULT_PAUSE: Duration = Duration::from_secs(15 * 60);

/// The requests of one run, within its optional limit.
#[derive(Debug)]
pub(crate) struct Budget {
    sent: AtomicU32,
    limit: Option<u32>,
}

impl Budget {
    pub(crate) fn new(limit: Option<u32>) -> Budget {
        Budget { sent: AtomicU32::new(0), limit }
    }

    /// Requests counted so far.
    pub(crate) fn count(&self) -> u32 {
        self.sent.load(Ordering::SeqCst)
    }

    /// Counts `n` requests about to be sent; `false` (nothing counted) when they do not fit.
    fn take(&self, n: u32) -> bool {
        let sent = self.sent.fetch_add(n, Ordering::SeqCst);
        if let Some(limit) = self.limit
            && sent + n > limit
        {
            self.sent.fetch_sub(n, Ordering::SeqCst);
            return false;
        }
        true
    }

    /// Counts `n` requests sent outside the reader's reads (the athlete profile's three).
    pub(crate) fn reserve(&self, n: u32) -> Result<(), Miss> {
        if self.take(n) { Ok(()) } else { Err(Miss::Stop(self.spent())) }
    }

    fn spent(&self) -> Stopped {
        Stopped::Budget { requests: self.limit.unwrap_or(0) }
    }
}

impl RequestHook for Budget {
    fn before_sending(&self, requests: u32) -> Result<(), String> {
        if self.take(requests) {
            Ok(())
        } else {
            Err(format!("the sync's budget of {} requests is spent", self.limit.unwrap_or(0)))
        }
    }
}

/// Why a read gave no answer, for the run: stop it politely, fail it, or note the part.
#[derive(Debug)]
pub(crate) enum Miss {
    /// Rate limited, or the budget is spent: what is finished is kept.
    Stop(Stopped),
    /// A sign-in is needed or the key was refused: nothing more can be read.
    Fatal(Error),
    /// This part failed; it is read again next time.
    Part(String),
}

impl Miss {
    /// What Garmin's `error` reading `what` means for the run (by its kind, never its words).
    pub(crate) fn of(error: Error, what: &str, budget: &Budget) -> Miss {
        match error {
            Error::HeldBack { .. } => Miss::Stop(budget.spent()),
            Error::RateLimited { retry_after } => {
                let wait = chrono::Duration::from_std(retry_after.unwrap_or(DEFAULT_PAUSE))
                    .unwrap_or(chrono::Duration::minutes(15));
                Miss::Stop(Stopped::RateLimited { resume_after: Utc::now() + wait })
            }
            e if e.needs_sign_in() || matches!(e, Error::ApiKeyRejected { .. }) => Miss::Fatal(e),
            e => Miss::Part(format!("{what}: {e}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_holds_back_what_does_not_fit_and_counts_nothing_for_it() {
        let budget = Budget::new(Some(3));
        assert!(budget.before_sending(2).is_ok());
        assert!(budget.before_sending(2).is_err(), "4 of 3");
        assert_eq!(budget.count(), 2);
        assert!(budget.reserve(1).is_ok());
        assert!(matches!(budget.reserve(1), Err(Miss::Stop(Stopped::Budget { requests: 3 }))));
        assert!(Budget::new(None).before_sending(u32::MAX / 2).is_ok());
    }

    #[test]
    fn failures_are_told_apart_by_their_kind() {
        let budget = Budget::new(Some(1));
        let held = Error::HeldBack { reason: "spent".into() };
        assert!(matches!(Miss::of(held, "x", &budget), Miss::Stop(Stopped::Budget { requests: 1 })));
        let limited = Error::RateLimited { retry_after: Some(Duration::from_secs(600)) };
        let Miss::Stop(Stopped::RateLimited { resume_after }) = Miss::of(limited, "x", &budget) else {
            panic!("a 429 stops the run")
        };
        assert!(resume_after > Utc::now() + chrono::Duration::seconds(590));
        let refused = Error::ApiKeyRejected { reason: "401".into() };
        assert!(matches!(Miss::of(refused, "x", &budget), Miss::Fatal(_)));
        let server = Error::Server { status: 503, endpoint: "GET /x".into() };
        assert!(
            matches!(Miss::of(server, "the sleep", &budget), Miss::Part(m) if m.starts_with("the sleep: "))
        );
    }
}
