//! What the history holds, in one glance (the desktop app's home window shows it next to its Sync
//! button): the days it covers, how many activities and days it keeps, and when it was last synced.

use chrono::{DateTime, NaiveDate, Utc};

use crate::store::parse_ymd;
use crate::{History, Result};

/// The history at a glance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// First day of the oldest finished block (`None`: no block finished yet).
    pub first_day: Option<NaiveDate>,
    /// Last day a finished block covers (a day that was over when it was read).
    pub last_day: Option<NaiveDate>,
    /// Activities kept.
    pub activities: u64,
    /// Days with a daily summary kept.
    pub days: u64,
    /// When a block was last finished.
    pub last_synced_at: Option<DateTime<Utc>>,
}

impl History {
    /// What the history holds now (one short read; other processes may be syncing meanwhile).
    pub fn summary(&self) -> Result<Summary> {
        let (first, last, synced): (Option<String>, Option<String>, Option<i64>) = self.conn().query_row(
            "SELECT MIN(block_start), MAX(covered_to), MAX(synced_at) FROM sync_blocks",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )?;
        let counts = self.counts()?;
        Ok(Summary {
            first_day: first.as_deref().and_then(parse_ymd),
            last_day: last.as_deref().and_then(parse_ymd),
            activities: counts.activities,
            days: counts.days,
            last_synced_at: synced.and_then(|s| DateTime::from_timestamp(s, 0)),
        })
    }
}
