//! The one walk over a date range's activity rows that every reader shares (`read`, `read_laps`,
//! `read_curves`): the range and sport filter, the order, the id and date every reader needs, and
//! the child rows (laps, zones, curve points) of each activity.

use chrono::NaiveDate;
use rusqlite::{Connection, Row, Statement, params};

use crate::Result;
use crate::store::{parse_ymd, ymd};

/// Garmin's own type filter in SQL, on `activities a` with the type key as `?3`: that type and its
/// children (`running` includes trail runs), or every type when `?3` is NULL.
pub(crate) const TYPE_FILTER: &str = "(?3 IS NULL OR a.type_key = ?3
    OR a.parent_type_id IN (SELECT type_id FROM activity_types WHERE type_key = ?3))";

/// The id and date of an activity row, and its key for child queries.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Head {
    /// The stored key (Garmin's id as SQLite's integer).
    pub key: i64,
    /// Garmin's id.
    pub activity_id: u64,
    /// Local date of the start.
    pub date: NaiveDate,
}

/// The activities of `from..=to` (of `type_key` and its children when given), oldest first:
/// `columns` (SQL over `activities a`) are mapped by `map`, whose row starts at index 2 (0 and 1
/// are the id and date). Rows whose id or date is unusable are skipped.
pub(crate) fn activity_rows<T>(
    conn: &Connection,
    from: NaiveDate,
    to: NaiveDate,
    type_key: Option<&str>,
    columns: &str,
    map: impl Fn(&Row<'_>) -> rusqlite::Result<T>,
) -> Result<Vec<(Head, T)>> {
    let sql = format!(
        "SELECT a.activity_id, a.local_date, {columns} FROM activities a
         WHERE a.local_date BETWEEN ?1 AND ?2 AND {TYPE_FILTER}
         ORDER BY a.start_local, a.activity_id"
    );
    let mut stmt = conn.prepare(&sql)?;
    let rows = stmt.query_map(params![ymd(from), ymd(to), type_key], |r| {
        Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?, map(r)?))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (key, date, value) = row?;
        let (Ok(activity_id), Some(date)) = (u64::try_from(key), parse_ymd(&date)) else { continue };
        out.push((Head { key, activity_id, date }, value));
    }
    Ok(out)
}

/// The child rows of one activity: `stmt` takes the activity's key as `?1`.
pub(crate) fn children<T>(
    stmt: &mut Statement<'_>,
    key: i64,
    map: impl FnMut(&Row<'_>) -> rusqlite::Result<T>,
) -> Result<Vec<T>> {
    Ok(stmt.query_map([key], map)?.collect::<rusqlite::Result<Vec<_>>>()?)
}
