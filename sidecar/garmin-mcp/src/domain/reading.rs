//! What the domain layer reads from, handed over explicitly: the tool call's Garmin reader (the one
//! door to Garmin, `garmin::reads`), the local history when it may answer (`None` with `--no-cache`,
//! before the first sync, or while it is locked or broken), and the athlete's today. The server
//! builds it for a call (`GarminMcp::reading`); domain computations take it instead of reaching
//! into the server. Beside it, the cache-first read of a range's activities
//! ([`activities_cache_first`]): the history where it covers the range, Garmin for the rest.

use std::sync::Arc;

use ::history::History;
use ::history::daily_metrics::DailyMetrics;
use chrono::{Duration, NaiveDate};
use garmin::Garmin;
use garmin::models::activities::ActivitySummary;

use crate::history::DataSource;
use crate::tool_error::ToolError;

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

/// The activities of `from..=to` (newest first, optionally of one type and its children) from
/// the history where it covers the range, the days after it live; `None` when the history covers
/// none of the range (the caller reads Garmin as it always did). The history is read on the
/// blocking pool; a failure is remembered (see [`Slot::failed`]) and the tool answers live.
pub(crate) async fn activities_cache_first(
    reading: &Reading,
    from: NaiveDate,
    to: NaiveDate,
    type_key: Option<&str>,
) -> Result<Option<(Vec<ActivitySummary>, DataSource)>, ToolError> {
    // Today is always live: its activities may still come.
    let yesterday = reading.yesterday();
    if from > yesterday {
        return Ok(None);
    }
    let Some(history) = reading.history.clone() else { return Ok(None) };
    let key = type_key.map(str::to_owned);
    let stored = tokio::task::spawn_blocking(move || {
        let coverage = history.coverage(from, to.min(yesterday))?;
        let Some(covered_to) = coverage.covered_to else { return Ok(None) };
        Ok(Some((history.activities(from, covered_to, key.as_deref())?, covered_to, coverage.synced_at)))
    })
    .await
    .unwrap_or_else(|e| Err(::history::HistoryError::Interrupted(format!("reading the history ({e})"))));
    let (mut rows, covered_to, synced_at) = match stored {
        Ok(Some(found)) => found,
        Ok(None) => return Ok(None),
        Err(e) => {
            tracing::warn!("reading the local history failed, answering live: {e}");
            reading.history_failed();
            return Ok(None);
        }
    };
    let live_after = covered_to < to;
    if live_after {
        let mut newer =
            reading.reads.activities_between(covered_to + Duration::days(1), to, type_key).await?.value;
        newer.append(&mut rows);
        rows = newer;
    }
    Ok(Some((rows, DataSource::history(covered_to, synced_at, live_after))))
}

/// The newest metrics' kept days (`daily_metrics`) of `first..=date` when the history covers them
/// up to yesterday (or `date`, if earlier), with where they came from; `None` otherwise (the caller
/// reads Garmin). Today is never in the history: a `date` of today makes the source
/// `history+garmin`, and the caller reads today live.
pub(crate) async fn kept_daily_metrics(
    history: Option<History>,
    first: NaiveDate,
    date: NaiveDate,
    today: NaiveDate,
) -> Option<(Vec<DailyMetrics>, DataSource)> {
    kept_days(history, first, date, today, History::daily_metrics).await
}

/// The kept sleep need (minutes) of each night of `first..=date` that has one, as
/// [`kept_daily_metrics`] reads its days (`None`: the history does not cover them).
pub(crate) async fn kept_sleep_needs(
    history: Option<History>,
    first: NaiveDate,
    date: NaiveDate,
    today: NaiveDate,
) -> Option<(Vec<(NaiveDate, f64)>, DataSource)> {
    kept_days(history, first, date, today, History::sleep_needs).await
}

/// What `read` gives of `first..` up to yesterday (or `date`, if earlier) when the history covers
/// those days, with where it came from.
async fn kept_days<T: Send + 'static>(
    history: Option<History>,
    first: NaiveDate,
    date: NaiveDate,
    today: NaiveDate,
    read: fn(&History, NaiveDate, NaiveDate) -> ::history::Result<T>,
) -> Option<(T, DataSource)> {
    let history = history?;
    let last = date.min(today - Duration::days(1));
    if last < first {
        return None;
    }
    let kept = tokio::task::spawn_blocking(move || {
        let coverage = history.coverage(first, last)?;
        if coverage.covered_to != Some(last) {
            return Ok(None);
        }
        Ok::<_, ::history::HistoryError>(Some((read(&history, first, last)?, coverage.synced_at)))
    })
    .await;
    match kept {
        Ok(Ok(Some((days, synced_at)))) => Some((days, DataSource::history(last, synced_at, last < date))),
        Ok(Err(e)) => {
            tracing::warn!("reading the local history failed, answering live: {e}");
            None
        }
        _ => None,
    }
}
