//! The one error type of the Garmin client.
//!
//! Each variant is a different thing the caller (and the person behind it) does next: sign in again,
//! check an id, wait, retry later, check the network, or report a Garmin API change. Messages say
//! what happened and what to do, and never contain cookies, tokens or CSRF values.

use std::path::PathBuf;
use std::time::Duration;

use crate::store::StoreError;

/// Result alias for the Garmin client.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What went wrong talking to Garmin Connect.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// There is no saved session at all.
    #[error(
        "not signed in to Garmin Connect (no session in {}): open the Garmin MCP app and sign in, or run `garmin-mcp login --manual --site global|cn`",
        data_dir.display()
    )]
    NotSignedIn {
        /// The data folder that was searched.
        data_dir: PathBuf,
    },

    /// Garmin answered 401/403 and the session could not be renewed.
    #[error(
        "the Garmin Connect session has expired ({detail}): sign in again in the Garmin MCP app, or run `garmin-mcp login --manual --site {site}`"
    )]
    SessionExpired {
        /// `global` or `cn`, for the sign-in hint.
        site: crate::Site,
        /// What was observed, without secrets.
        detail: String,
    },

    /// Garmin refused access to something the session is not allowed to see (e.g. another
    /// athlete's activity), as opposed to an expired session.
    #[error("Garmin refused access to {endpoint}: {message}")]
    Forbidden {
        /// Method and path that was refused.
        endpoint: String,
        /// Garmin's own words.
        message: String,
    },

    /// 404: the id or date does not exist (or the activity was deleted).
    #[error("Garmin has no such item ({endpoint} answered 404): check the id or date")]
    NotFound {
        /// Method and path that answered 404.
        endpoint: String,
    },

    /// 429, or a 200 whose body says `"status-code": "429"`.
    #[error("Garmin is rate limiting requests{}; wait and try again", retry_hint(*retry_after))]
    RateLimited {
        /// How long Garmin asked us to wait, when it said.
        retry_after: Option<Duration>,
    },

    /// 5xx after the allowed retries.
    #[error("Garmin Connect had a server error (HTTP {status} from {endpoint}); try again in a few minutes")]
    Server {
        /// HTTP status.
        status: u16,
        /// Method and path.
        endpoint: String,
    },

    /// Another 4xx: Garmin understood the request and refused its content.
    #[error("Garmin rejected the request to {endpoint} (HTTP {status}): {message}")]
    Rejected {
        /// HTTP status.
        status: u16,
        /// Method and path.
        endpoint: String,
        /// Garmin's own words, or a description of the body.
        message: String,
    },

    /// Garmin could not be reached (DNS, TLS, connection, timeout).
    #[error("could not reach Garmin Connect ({endpoint}): {message}; check the internet connection or proxy")]
    Network {
        /// Method and path.
        endpoint: String,
        /// The transport error, without URLs' query strings.
        message: String,
        /// Whether the request may have reached Garmin (matters for writes: outcome unknown).
        maybe_sent: bool,
    },

    /// Garmin answered with something we could not read.
    #[error(
        "unexpected answer from Garmin for {endpoint} (at `{field}`: {message}); Garmin may have changed its API, please report this"
    )]
    Decode {
        /// Method and path.
        endpoint: String,
        /// JSON path of the offending field (`.` for the whole body).
        field: String,
        /// What was wrong.
        message: String,
    },

    /// The session file could not be read or written.
    #[error(transparent)]
    Store(#[from] StoreError),

    /// Bad input from the user or caller, caught before anything was sent.
    #[error("{0}")]
    InvalidInput(String),
}

fn retry_hint(retry_after: Option<Duration>) -> String {
    match retry_after {
        Some(d) => format!(" (Garmin asks to wait {} s)", d.as_secs().max(1)),
        None => String::new(),
    }
}

/// A coarse, stable classification of [`Error`], for UIs and tool results that branch on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ErrorKind {
    /// No session saved.
    NotSignedIn,
    /// Session expired and could not be renewed.
    SessionExpired,
    /// Access refused for this item.
    Forbidden,
    /// 404.
    NotFound,
    /// 429.
    RateLimited,
    /// 5xx.
    Server,
    /// Other 4xx.
    Rejected,
    /// Transport failure.
    Network,
    /// Unreadable answer.
    Decode,
    /// Session file problem.
    Store,
    /// Bad input.
    InvalidInput,
}

impl Error {
    /// The stable classification of this error.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::NotSignedIn { .. } => ErrorKind::NotSignedIn,
            Error::SessionExpired { .. } => ErrorKind::SessionExpired,
            Error::Forbidden { .. } => ErrorKind::Forbidden,
            Error::NotFound { .. } => ErrorKind::NotFound,
            Error::RateLimited { .. } => ErrorKind::RateLimited,
            Error::Server { .. } => ErrorKind::Server,
            Error::Rejected { .. } => ErrorKind::Rejected,
            Error::Network { .. } => ErrorKind::Network,
            Error::Decode { .. } => ErrorKind::Decode,
            Error::Store(_) => ErrorKind::Store,
            Error::InvalidInput(_) => ErrorKind::InvalidInput,
        }
    }

    /// True when the person must sign in (again) before anything else works.
    pub fn needs_sign_in(&self) -> bool {
        matches!(self.kind(), ErrorKind::NotSignedIn | ErrorKind::SessionExpired)
    }
}
