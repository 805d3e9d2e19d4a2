//! How commands report a failure: one line on stderr, `garmin-mcp: <what happened and what to do>`,
//! and exit code 1.

use std::process::ExitCode;

/// Prints `error` for a person and returns the failing exit code.
pub(crate) fn fail(error: &garmin::Error) -> ExitCode {
    eprintln!("garmin-mcp: {error}");
    ExitCode::FAILURE
}
