//! What the domain layer reads from, handed over explicitly: the tool call's Garmin reader (the one
//! door to Garmin, `garmin::reads`), the local history when it may answer (`None` with `--no-cache`,
//! before the first sync, or while it is locked or broken), and the athlete's today. The server builds it for a call
//! (`GarminMcp::reading`); domain computations take it instead of reaching into the server.

use std::sync::Arc;

use ::history::History;
use chrono::NaiveDate;
use garmin::Garmin;

/// The inputs a domain computation reads.
#[derive(Clone, Debug)]
pub(crate) struct Reading {
    /// This call's reader of Garmin.
    pub reads: Garmin,
    /// The local history, when it may answer.
    pub history: Option<History>,
    /// The athlete's today.
    pub today: NaiveDate,
    /// The server's hold on the history, told when a read of it fails.
    pub history_slot: Arc<crate::history::Slot>,
}

impl Reading {
    /// The last day that is over (the history never holds today).
    pub(crate) fn yesterday(&self) -> NaiveDate {
        self.today - chrono::Duration::days(1)
    }

    /// Remembers that reading the history failed now: the next calls answer live for a while
    /// without waiting on it again (`crate::history::RETRY_AFTER`).
    pub(crate) fn history_failed(&self) {
        self.history_slot.failed();
    }
}
