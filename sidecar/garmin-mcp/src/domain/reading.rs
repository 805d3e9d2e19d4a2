//! What the domain layer reads from, handed over explicitly: the tool call's Garmin reader (the one
//! door to Garmin, `garmin::reads`), the local history when it may answer (`None` with `--no-cache`
//! or before the first sync), and the athlete's today. The server builds it for a call
//! (`GarminMcp::reading`); domain computations take it instead of reaching into the server.

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
}

impl Reading {
    /// The last day that is over (the history never holds today).
    pub(crate) fn yesterday(&self) -> NaiveDate {
        self.today - chrono::Duration::days(1)
    }
}
