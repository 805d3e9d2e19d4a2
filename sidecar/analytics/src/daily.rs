//! One home for "a load per calendar day": the caller's per-day (or per-session) loads become one
//! contiguous series from the first day to the last, with rest days and gaps as 0. The PMC and the
//! acute:chronic ratios both read their days through here.

use chrono::NaiveDate;
use serde::Serialize;

use crate::AnalyticsError;

/// The longest span of days an analysis accepts (about 100 years). Garmin's history starts in the
/// 2000s; a span longer than this is a wrong date, not a long career.
pub const MAX_SPAN_DAYS: i64 = 36_525;

/// The load of one day (or of one session on that day: several entries for a day are added up).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct DailyLoad {
    /// The calendar day, in the athlete's own time zone.
    pub date: NaiveDate,
    /// The load (TSS, hrTSS or Garmin's load; one kind per series, see [`crate::load::daily_loads`]).
    pub load: f64,
}

/// The contiguous series of days from `first` on.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct DaySeries {
    /// The first day of the series.
    pub first: NaiveDate,
    /// The load of each day from `first` on; rest days and gaps are 0.
    pub loads: Vec<f64>,
    /// Entries that were not a finite, non-negative number and were counted as 0.
    pub ignored: usize,
}

/// Lays `loads` (in any order, several per day allowed) out day by day from the earliest day to
/// `last` (default: the latest day given). Loads after `last` are left out. Non-finite or negative
/// loads count as 0 and are counted in `ignored`. `Ok(None)` when there is no day to lay out.
pub(crate) fn lay_out(
    loads: &[DailyLoad],
    last: Option<NaiveDate>,
) -> Result<Option<DaySeries>, AnalyticsError> {
    let Some(first) = loads.iter().map(|d| d.date).min() else {
        return Ok(None);
    };
    let last = match last {
        Some(day) => day,
        None => loads.iter().map(|d| d.date).max().unwrap_or(first),
    };
    if last < first {
        return Ok(None);
    }
    let span = (last - first).num_days();
    if span >= MAX_SPAN_DAYS {
        return Err(AnalyticsError::SpanTooLong { first, last, max_days: MAX_SPAN_DAYS });
    }
    let mut days = vec![0.0; span as usize + 1];
    let mut ignored = 0;
    for entry in loads {
        let offset = (entry.date - first).num_days();
        let Some(slot) = usize::try_from(offset).ok().and_then(|i| days.get_mut(i)) else {
            continue;
        };
        match crate::usable(entry.load) {
            Some(load) => *slot += load,
            None => ignored += 1,
        }
    }
    Ok(Some(DaySeries { first, loads: days, ignored }))
}
