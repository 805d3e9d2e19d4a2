//! Date arguments: one parser for every tool, bounded to the days Garmin can have, with one
//! friendly message naming the argument, what was expected and what was found.

use chrono::{Datelike as _, NaiveDate};

use crate::tool_error::ToolError;

/// The earliest day a date argument may name: Garmin has nothing recorded before 1990.
pub(crate) const EARLIEST_DAY: NaiveDate = match NaiveDate::from_ymd_opt(1990, 1, 1) {
    Some(day) => day,
    None => NaiveDate::MIN,
};

/// The latest day a date argument may name: 31 December of next year (Garmin has nothing later,
/// and nothing can be planned further ahead).
pub(crate) fn latest_day(today: NaiveDate) -> NaiveDate {
    NaiveDate::from_ymd_opt(today.year().saturating_add(1), 12, 31).unwrap_or(today)
}

/// The one parser of every date argument: `YYYY-MM-DD` between [`EARLIEST_DAY`] and
/// [`latest_day`], so no date arithmetic downstream can overflow. The error names the argument,
/// what was expected and what was found.
pub(crate) fn parse_date(name: &str, text: &str, today: NaiveDate) -> Result<NaiveDate, ToolError> {
    let shown: String = text.chars().take(40).collect();
    let day = NaiveDate::parse_from_str(text.trim(), "%Y-%m-%d")
        .map_err(|_| ToolError::invalid(format!("{name} must be YYYY-MM-DD, got `{shown}`")))?;
    let latest = latest_day(today);
    if day < EARLIEST_DAY || day > latest {
        return Err(ToolError::invalid(format!(
            "{name} must be a day between {EARLIEST_DAY} and {latest} (Garmin has nothing outside those \
             dates), got `{shown}`"
        )));
    }
    Ok(day)
}

/// An optional date argument (absent or blank: `None`), parsed as [`parse_date`] does.
pub(crate) fn parse_opt_date(
    name: &str,
    text: Option<&str>,
    today: NaiveDate,
) -> Result<Option<NaiveDate>, ToolError> {
    text.filter(|t| !t.trim().is_empty()).map(|t| parse_date(name, t, today)).transpose()
}
