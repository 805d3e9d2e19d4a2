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

    /// A 403 that is not about the session: Cloudflare's edge, Garmin refusing this to the
    /// account, a feature the account or its devices lack, or another athlete's item. Never
    /// renewed, never "sign in again"; [`ForbiddenKind`] says which and the message what to do.
    #[error("{}", forbidden_words(*kind, endpoint, message))]
    Forbidden {
        /// Which kind of 403 it was.
        kind: ForbiddenKind,
        /// Method and path that was refused.
        endpoint: String,
        /// Garmin's own words, or a description of the body.
        message: String,
    },

    /// The session lives on one Garmin Connect front end, and Garmin sent the request to another
    /// one whose host the session's cookies are not for (from mainland-China networks
    /// `connect.garmin.com` redirects to `connectus.garmin.cn`). A sign-in on this network makes a
    /// session for the front end in use.
    #[error(
        "Garmin Connect answered from {} instead of {}, where this session was made, and the session's cookies do not work there: sign in again in the Garmin MCP app on this network (the sign-in then keeps the session on {}), or run `garmin-mcp login --manual --site {site}` with cookies copied from {}",
        crate::site::describe_front_end(moved_to),
        crate::site::describe_front_end(session_front_end),
        crate::site::host_of(moved_to),
        moved_to
    )]
    OtherFrontEnd {
        /// `global` or `cn`.
        site: crate::Site,
        /// The Connect origin the session was made on.
        session_front_end: String,
        /// The Connect origin Garmin redirected to.
        moved_to: String,
    },

    /// 404: the id or date does not exist (or the activity was deleted).
    #[error("Garmin has no such item ({endpoint} answered 404): check the id or date")]
    NotFound {
        /// Method and path that answered 404.
        endpoint: String,
    },

    /// 204, an empty body or `null` where a read needs an answer: Garmin has nothing of this kind
    /// for the date or range (the reader's range reads, [`crate::reads`], say so with this; the
    /// typed API answers `None` instead).
    #[error("Garmin has nothing of this kind for the dates asked ({endpoint} answered with no content)")]
    NoContent {
        /// Method and path that answered with no content.
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

    /// 402 Payment Required: the feature needs a Garmin subscription (Garmin Connect+) this account
    /// does not have (reference `garmin-newest-metrics.md`, "Paywall and device notes"). An answer
    /// about the account, not a failure: signing in again or retrying changes nothing.
    #[error(
        "Garmin keeps this behind its Garmin Connect+ subscription, which this account does not have ({endpoint} answered HTTP 402: {message}); subscribe on Garmin Connect, or ask about something else"
    )]
    NeedsSubscription {
        /// Method and path that answered 402.
        endpoint: String,
        /// Garmin's own words, or a description of the body.
        message: String,
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

    /// Garmin refused the Personal API key: wrong, expired or deleted (docs/garmin-personal-api.md
    /// §2.4). Only a new key helps; the web session, if any, is not affected.
    #[error(
        "Garmin refused your Personal API key ({reason}). Make a new key on Garmin Connect (signed in at {}: Create Key, choose how long it lasts, copy it) and add it with `garmin-mcp login --api-key`",
        crate::personal::KEY_PAGE_URL
    )]
    ApiKeyRejected {
        /// What was observed (never the key).
        reason: String,
    },

    /// The caller's request hook ([`crate::reads::RequestHook`]) held the request back, so nothing
    /// was sent (the history's request budget is spent, for example).
    #[error("the request to Garmin was not sent: {reason}")]
    HeldBack {
        /// The hook's words.
        reason: String,
    },

    /// Only a Personal API key is saved and this comes only through the web sign-in
    /// (docs/garmin-personal-api.md §5 lists what the Personal API lacks).
    #[error(
        "{what} comes only through the Garmin Connect web sign-in, which Garmin's official Personal API key you saved does not replace: sign in in the Garmin MCP app, or run `garmin-mcp login --manual --site global`"
    )]
    WebSignInNeeded {
        /// What was asked for, in words ("the blood-pressure log", "this tool's data").
        what: String,
    },
}

/// The four kinds of 403 that are not about the session (docs/garmin-web-api.md §0).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ForbiddenKind {
    /// Cloudflare's edge refused the request (empty or HTML body, no `cf-cache-status`): it never
    /// reached Garmin.
    CloudflareEdge,
    /// Garmin's `ForbiddenException`: Garmin refuses this to the account.
    Account,
    /// A feature the account or its devices do not have (a device metric, a subscription).
    Feature,
    /// Another athlete's item (`UnauthorizedException`, "Only owner of …").
    NotOwner,
}

impl ForbiddenKind {
    /// A short name for status lines: "Cloudflare edge block", …
    pub fn label(self) -> &'static str {
        match self {
            ForbiddenKind::CloudflareEdge => "Cloudflare edge block",
            ForbiddenKind::Account => "refused for this account (ForbiddenException)",
            ForbiddenKind::Feature => "feature this account or device lacks",
            ForbiddenKind::NotOwner => "another athlete's item",
        }
    }
}

fn forbidden_words(kind: ForbiddenKind, endpoint: &str, message: &str) -> String {
    match kind {
        ForbiddenKind::CloudflareEdge => format!(
            "Cloudflare, in front of Garmin Connect, blocked {endpoint} (HTTP 403 from the edge: {message}). \
             The request never reached Garmin and the session is fine, so signing in again will not help. \
             It usually passes within minutes: wait and try again. If it keeps happening, this network, VPN \
             or proxy is being blocked: try another network, or open Garmin Connect once in a browser on this computer"
        ),
        ForbiddenKind::Account => format!(
            "Garmin refused {endpoint} for this account (HTTP 403 ForbiddenException: {message}). The session \
             is fine; Garmin does not let this account do this (a privacy setting, another person's data, or \
             an account or region restriction), so signing in again will not change it. Check it on the Garmin \
             Connect website"
        ),
        ForbiddenKind::Feature => format!(
            "Garmin says this account or its devices do not have this feature ({endpoint} answered HTTP 403: \
             {message}). The session is fine and signing in again will not change it: the feature needs a \
             watch that records it or a Garmin subscription. Ask about something else, or check the feature \
             on Garmin Connect"
        ),
        ForbiddenKind::NotOwner => {
            format!(
                "Garmin refused access to {endpoint}: {message} (HTTP 403: the item belongs to another account)"
            )
        }
    }
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
    /// Garmin moved the session's requests to another Connect front end: sign in on it.
    OtherFrontEnd,
    /// Access refused for this item.
    Forbidden,
    /// 404.
    NotFound,
    /// 204 (or an empty answer) where a read needed one.
    NoContent,
    /// 429.
    RateLimited,
    /// 5xx.
    Server,
    /// 402: the feature needs Garmin Connect+.
    NeedsSubscription,
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
    /// The Personal API key was refused (wrong, expired or deleted): make a new key.
    ApiKeyRejected,
    /// The caller's request hook held the request back; nothing was sent.
    HeldBack,
}

impl Error {
    /// The stable classification of this error.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::NotSignedIn { .. } => ErrorKind::NotSignedIn,
            Error::SessionExpired { .. } => ErrorKind::SessionExpired,
            Error::OtherFrontEnd { .. } => ErrorKind::OtherFrontEnd,
            Error::Forbidden { .. } => ErrorKind::Forbidden,
            Error::NotFound { .. } => ErrorKind::NotFound,
            Error::NoContent { .. } => ErrorKind::NoContent,
            Error::RateLimited { .. } => ErrorKind::RateLimited,
            Error::Server { .. } => ErrorKind::Server,
            Error::NeedsSubscription { .. } => ErrorKind::NeedsSubscription,
            Error::Rejected { .. } => ErrorKind::Rejected,
            Error::Network { .. } => ErrorKind::Network,
            Error::Decode { .. } => ErrorKind::Decode,
            Error::Store(_) => ErrorKind::Store,
            Error::InvalidInput(_) => ErrorKind::InvalidInput,
            Error::ApiKeyRejected { .. } => ErrorKind::ApiKeyRejected,
            Error::WebSignInNeeded { .. } => ErrorKind::NotSignedIn,
            Error::HeldBack { .. } => ErrorKind::HeldBack,
        }
    }

    /// True when the person must sign in (again) before anything else works.
    pub fn needs_sign_in(&self) -> bool {
        matches!(self.kind(), ErrorKind::NotSignedIn | ErrorKind::SessionExpired | ErrorKind::OtherFrontEnd)
    }

    /// True when Garmin answered that it has nothing here for this account: 404, no content, a
    /// 402 (behind Garmin Connect+), or a 403 from Garmin itself (the account or its devices lack
    /// it, or it is another athlete's) — not Cloudflare's edge, which never reached Garmin. An
    /// answer, not a failure.
    pub fn means_nothing_there(&self) -> bool {
        match self {
            Error::NotFound { .. } | Error::NoContent { .. } | Error::NeedsSubscription { .. } => true,
            Error::Forbidden { kind, .. } => *kind != ForbiddenKind::CloudflareEdge,
            _ => false,
        }
    }

    /// Which kind of 403 this is, for a [`Error::Forbidden`].
    pub fn forbidden_kind(&self) -> Option<ForbiddenKind> {
        match self {
            Error::Forbidden { kind, .. } => Some(*kind),
            _ => None,
        }
    }
}

/// A request that failed on the way (no HTTP answer), named by `method` and `path`.
pub(crate) fn network(method: &str, path: &str, e: &reqwest::Error) -> Error {
    Error::Network {
        endpoint: format!("{method} {path}"),
        message: describe_transport_error(e),
        maybe_sent: !e.is_connect(),
    }
}

/// A transport error in words, without the URL (which can carry a displayName in its path).
pub(crate) fn describe_transport_error(e: &reqwest::Error) -> String {
    let what = if e.is_timeout() {
        "timed out"
    } else if e.is_connect() {
        "connection failed"
    } else if e.is_body() || e.is_decode() {
        "the answer was cut off"
    } else {
        "request failed"
    };
    let mut cause = String::new();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        cause = s.to_string();
        source = s.source();
    }
    if cause.is_empty() { what.to_owned() } else { format!("{what} ({cause})") }
}
