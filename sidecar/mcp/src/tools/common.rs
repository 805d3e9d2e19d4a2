//! Helpers shared by the `health` and `training` toolsets: date arguments, Garmin's keys and counts
//! as people write them, and Garmin's measurements as whole numbers.

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
