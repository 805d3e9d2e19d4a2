//! The calendar feed (reference §4.11). Callers use months 1–12; Garmin's path wants 0–11, and
//! its month feed repeats neighbouring weeks, so items are deduplicated by id
//! ([`crate::models::calendar::dedupe_items`]).

use chrono::{Datelike, Months, NaiveDate};

use super::{check_range, required};
use crate::models::calendar::{CalendarItem, CalendarMonth, dedupe_items, month0};
use crate::{Client, Error, Result};

/// Most months [`CalendarApi::items_between`] reads in one call.
const MAX_MONTHS: usize = 24;

/// The calendar feed (reference §4.11). Made by [`Client::calendar`].
#[derive(Clone, Copy, Debug)]
pub struct CalendarApi<'a> {
    pub(crate) client: &'a Client,
}

impl CalendarApi<'_> {
    /// `GET /gc-api/calendar-service/year/{year}/month/{month - 1}` — the month's feed (`month`
    /// 1–12; Garmin counts from 0), items deduplicated by id and ordered by day. Neighbouring
    /// weeks are included as Garmin sends them.
    pub async fn month(&self, year: i32, month: u32) -> Result<CalendarMonth> {
        let m0 =
            month0(month).ok_or_else(|| Error::InvalidInput(format!("month must be 1–12, not {month}")))?;
        let path = format!("/calendar-service/year/{year}/month/{m0}");
        // 204 (or an empty body) is a month with nothing in it (reference §3.3), not an error.
        let mut feed: CalendarMonth = self.client.get_json(&path, &[]).await?.unwrap_or_default();
        feed.calendar_items = dedupe_items(std::mem::take(&mut feed.calendar_items));
        Ok(feed)
    }

    /// `GET /gc-api/calendar-service/year/{year}/month/{month0}/day/{day}/start/1` — the week
    /// containing `date`.
    pub async fn week(&self, date: NaiveDate) -> Result<CalendarMonth> {
        let path = format!(
            "/calendar-service/year/{}/month/{}/day/{}/start/1",
            date.year(),
            date.month0(),
            date.day()
        );
        let mut feed: CalendarMonth =
            required(self.client.get_json(&path, &[]).await?, &format!("GET /gc-api{path}"))?;
        feed.calendar_items = dedupe_items(std::mem::take(&mut feed.calendar_items));
        Ok(feed)
    }

    /// Every item dated `start..=end`: reads each month the range touches concurrently
    /// (`GET …/year/{Y}/month/{M0}`), merges, deduplicates by id and orders by day. At most 24
    /// months.
    pub async fn items_between(&self, start: NaiveDate, end: NaiveDate) -> Result<Vec<CalendarItem>> {
        check_range(start, end)?;
        let mut months = Vec::new();
        let mut cursor = start.with_day(1).unwrap_or(start);
        while cursor <= end {
            months.push((cursor.year(), cursor.month()));
            if months.len() > MAX_MONTHS {
                return Err(Error::InvalidInput(format!(
                    "a calendar range can span at most {MAX_MONTHS} months"
                )));
            }
            match cursor.checked_add_months(Months::new(1)) {
                Some(next) => cursor = next,
                None => break,
            }
        }
        let feeds = futures::future::try_join_all(months.into_iter().map(|(y, m)| self.month(y, m))).await?;
        let items = feeds.into_iter().flat_map(|f| f.calendar_items);
        Ok(dedupe_items(items)
            .into_iter()
            .filter(|i| i.date.is_some_and(|d| start <= d && d <= end))
            .collect())
    }
}
