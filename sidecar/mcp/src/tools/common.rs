//! Helpers shared by the toolsets: date arguments, Garmin's keys and counts as people write them,
//! Garmin's measurements as whole numbers, and the rule that one failing part of an answer never
//! sinks the rest ([`part`]).

use chrono::NaiveDate;

use crate::tool_error::ToolError;

pub(crate) fn parse_date(name: &str, text: &str) -> Result<NaiveDate, ToolError> {
    NaiveDate::parse_from_str(text.trim(), "%Y-%m-%d")
        .map_err(|_| ToolError::invalid(format!("{name} must be YYYY-MM-DD, got `{text}`")))
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
