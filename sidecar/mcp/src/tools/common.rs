//! Helpers shared by the toolsets: date arguments (one parser, bounded), Garmin's keys and counts
//! as people write them, Garmin's measurements as whole numbers, and the rule that one failing part
//! of an answer never sinks the rest ([`part`]).

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

/// Garmin's `SOME_KEY` as `some key`.
pub(crate) fn words(key: &str) -> String {
    key.trim().to_lowercase().replace('_', " ")
}

/// `12,345`.
pub(crate) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A non-negative measurement as a whole number (Garmin uses -1/-2 for "none").
pub(crate) fn whole(x: f64) -> Option<u64> {
    (x.is_finite() && x >= 0.0).then(|| x.round() as u64)
}

/// One secondary request of a tool that makes several: its value, or `None` with the part's name
/// and why it is missing (Garmin's failure, as the model should read it) added to `missing`. Only
/// the primary request of a tool may fail the whole answer.
pub(crate) fn part<T>(missing: &mut Vec<String>, name: &str, result: Result<T, garmin::Error>) -> Option<T> {
    match result {
        Ok(value) => Some(value),
        Err(e) => {
            missing.push(gap(name, e));
            None
        }
    }
}

/// `name: why` for a request that failed.
pub(crate) fn gap(name: &str, e: garmin::Error) -> String {
    format!("{name}: {}", ToolError::from(e).message())
}

/// A summary followed by what Garmin could not give (`Not shown: …`), when anything.
pub(crate) fn with_missing(mut summary: String, missing: &[String]) -> String {
    if !missing.is_empty() {
        summary.push_str(&format!(" Not shown: {}.", missing.join("; ")));
    }
    summary
}
