//! The rule that one failing part of an answer never sinks the rest: a tool that makes several
//! Garmin requests keeps what came and names what is missing ([`part`], [`with_missing`]).

use crate::tool_error::ToolError;

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
