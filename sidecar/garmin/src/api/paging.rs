//! Long date ranges against endpoints Garmin limits to about a month per call (daily steps and
//! sleep stats: 28 days; stress and HRV ranges: paged in ≤ 28-day chunks by other clients).
//!
//! [`date_chunks`] splits an inclusive range into consecutive chunks; [`fetch_chunked`] requests
//! them concurrently (the client's semaphore bounds how many run at once) and concatenates the
//! answers in chunk order, so results stay in date order.

use std::future::Future;

use chrono::{Duration, NaiveDate};

use crate::Result;

/// Most days per call for the range endpoints that are known to be limited.
pub const MAX_RANGE_DAYS: u32 = 28;

/// Splits `start..=end` into consecutive inclusive chunks of at most `max_days` days (at least
/// one day each). Empty when `end < start`.
pub fn date_chunks(start: NaiveDate, end: NaiveDate, max_days: u32) -> Vec<(NaiveDate, NaiveDate)> {
    let step = i64::from(max_days.max(1));
    let mut chunks = Vec::new();
    let mut from = start;
    while from <= end {
        let to = from.checked_add_signed(Duration::days(step - 1)).map_or(end, |t| t.min(end));
        chunks.push((from, to));
        match to.succ_opt() {
            Some(next) => from = next,
            None => break,
        }
    }
    chunks
}

/// Calls `fetch(chunk_start, chunk_end)` for every chunk of `start..=end` concurrently and
/// returns all items in chunk order. The first error wins.
pub async fn fetch_chunked<T, F, Fut>(
    start: NaiveDate,
    end: NaiveDate,
    max_days: u32,
    fetch: F,
) -> Result<Vec<T>>
where
    F: Fn(NaiveDate, NaiveDate) -> Fut,
    Fut: Future<Output = Result<Vec<T>>>,
{
    let calls = date_chunks(start, end, max_days).into_iter().map(|(from, to)| fetch(from, to));
    let parts = futures::future::try_join_all(calls).await?;
    Ok(parts.into_iter().flatten().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, m, day).unwrap()
    }

    #[test]
    fn a_long_range_splits_into_consecutive_28_day_chunks() {
        let chunks = date_chunks(d(1, 1), d(3, 15), 28);
        assert_eq!(chunks, vec![(d(1, 1), d(1, 28)), (d(1, 29), d(2, 25)), (d(2, 26), d(3, 15))]);
    }

    #[test]
    fn short_and_reversed_ranges() {
        assert_eq!(date_chunks(d(5, 5), d(5, 5), 28), vec![(d(5, 5), d(5, 5))]);
        assert!(date_chunks(d(5, 6), d(5, 5), 28).is_empty());
        assert_eq!(date_chunks(d(5, 1), d(5, 3), 0).len(), 3);
    }

    #[tokio::test]
    async fn chunk_results_are_merged_in_date_order_even_when_later_chunks_finish_first() {
        let got = fetch_chunked(d(1, 1), d(2, 28), 28, |from, to| async move {
            // The first chunk answers last.
            let delay = if from == d(1, 1) { 30 } else { 0 };
            tokio::time::sleep(std::time::Duration::from_millis(delay)).await;
            Ok(vec![from, to])
        })
        .await
        .unwrap();
        assert_eq!(got, vec![d(1, 1), d(1, 28), d(1, 29), d(2, 25), d(2, 26), d(2, 28)]);
    }
}
