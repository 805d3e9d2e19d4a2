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

/// A checked range of days from `start` to `end`, both included: the one place that refuses an
/// end before the start, with the same sentence for every tool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DateRange {
    /// The first day.
    pub start: NaiveDate,
    /// The last day (on or after `start`).
    pub end: NaiveDate,
}

impl DateRange {
    /// The range from `start` to `end`; an error naming both when `end` is before `start`.
    pub(crate) fn new(start: NaiveDate, end: NaiveDate) -> Result<DateRange, ToolError> {
        if end < start {
            return Err(ToolError::invalid(format!("end_date {end} is before start_date {start}")));
        }
        Ok(DateRange { start, end })
    }

    /// How many days it covers, both ends included.
    pub(crate) fn days(self) -> i64 {
        (self.end - self.start).num_days() + 1
    }
}

/// A range from optional `start_name`/`end_name` arguments: the end defaults to yesterday (the
/// last day the history can hold), the start to `default_days` before it; at most `max_days`.
pub(crate) fn date_range(
    today: NaiveDate,
    (start_name, start): (&str, Option<&str>),
    (end_name, end): (&str, Option<&str>),
    default_days: i64,
    max_days: i64,
) -> Result<(NaiveDate, NaiveDate), ToolError> {
    let end = parse_opt_date(end_name, end, today)?.unwrap_or(today - chrono::Duration::days(1));
    if end > today {
        return Err(ToolError::invalid(format!(
            "{end_name} {end} is after today ({today}): the history holds past days only"
        )));
    }
    let start =
        parse_opt_date(start_name, start, today)?.unwrap_or(end - chrono::Duration::days(default_days - 1));
    if end < start {
        return Err(ToolError::invalid(format!("{end_name} {end} is before {start_name} {start}")));
    }
    if (end - start).num_days() + 1 > max_days {
        return Err(ToolError::invalid(format!(
            "{start_name} to {end_name} spans more than {max_days} days ({start} to {end}); ask for a shorter range"
        )));
    }
    Ok((start, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> NaiveDate {
        NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn a_range_ending_before_it_starts_is_refused_naming_both_days() {
        let err = DateRange::new(d("2026-11-10"), d("2026-11-09")).unwrap_err();
        assert_eq!(err.message(), "end_date 2026-11-09 is before start_date 2026-11-10");
        let one_day = DateRange::new(d("2026-11-10"), d("2026-11-10")).unwrap();
        assert_eq!(one_day.days(), 1);
    }

    #[test]
    fn dates_outside_what_garmin_can_have_are_refused_with_the_argument_named() {
        let today = d("2026-12-01");
        assert_eq!(parse_date("date", "2026-12-31", today).unwrap(), d("2026-12-31"));
        let err = parse_date("start_date", "1989-12-31", today).unwrap_err();
        assert!(
            err.message().starts_with("start_date must be a day between 1990-01-01 and 2027-12-31"),
            "{}",
            err.message()
        );
        let err = parse_date("date", "yesterday", today).unwrap_err();
        assert_eq!(err.message(), "date must be YYYY-MM-DD, got `yesterday`");
        assert_eq!(parse_opt_date("date", Some("  "), today).unwrap(), None);
    }
}
