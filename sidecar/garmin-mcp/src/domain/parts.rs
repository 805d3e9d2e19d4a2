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

/// One secondary part shaped from its request: `Some` when the request worked and `shape` found
/// something in it; else `None`, with `name: why` in `missing` when the request failed, or
/// `name: empty` when Garmin had nothing (`empty` says what, e.g. `none recorded`).
pub(crate) fn shaped_part<T, U>(
    missing: &mut Vec<String>,
    name: &str,
    result: Result<T, garmin::Error>,
    empty: &str,
    shape: impl FnOnce(T) -> Option<U>,
) -> Option<U> {
    let shaped = shape(part(missing, name, result)?);
    if shaped.is_none() {
        missing.push(format!("{name}: {empty}"));
    }
    shaped
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
