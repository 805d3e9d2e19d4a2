//! Signing in, as library code that needs no window (the desktop app's window glue is
//! `src-tauri/src/signin/window.rs`): where a sign-in happens and when it is done ([`Target`],
//! [`Landing`]), turning what the sign-in webview holds into a session ([`session_from_browser`],
//! from [`BrowserCookie`]s the app copies out of its webview), and the one check-then-save step
//! every path ends in ([`validate_and_save`]). The "paste cookies" fallback is
//! `garmin::Session::from_cookie_export`, shared with `garmin-mcp login --manual`.
//!
//! Everything here is tested with plain values and the fake Garmin, no webview.
//!
//! | module | what |
//! |---|---|
//! | [`target`](self::target) | the site, its origins and sign-in URL; which page means "signed in" |
//! | [`capture`](self::capture) | webview cookies + the Connect page's CSRF/User-Agent → `garmin::Session` |
//! | [`complete`](self::complete) | one authenticated call, then the shared session store |

mod capture;
mod complete;
mod target;

pub use capture::{BrowserCookie, PageReading, READ_PAGE_SCRIPT, session_from_browser};
pub use complete::validate_and_save;
pub use target::{Landing, Target};

/// Why a sign-in did not produce a saved session. Every message says what happened and what to do.
/// Not `non_exhaustive`: the app maps each kind to the code its UI branches on, and a new kind must
/// make that mapping fail to compile until it is given one.
#[derive(Debug, thiserror::Error)]
pub enum SignInError {
    /// The person closed the sign-in window (or pressed Cancel) before it finished.
    #[error("the sign-in window was closed before signing in finished; pick your Garmin site to start again")]
    WindowClosed,
    /// The account signed in on the other Garmin site than the one picked.
    #[error(
        "you picked {}, but Garmin signed you in to {}: your account lives there, so pick that site and sign in again",
        .picked.label(),
        .landed.label()
    )]
    WrongSite {
        /// The site picked in the app.
        picked: garmin::Site,
        /// The site the sign-in ended on.
        landed: garmin::Site,
    },
    /// Garmin refused the session from sign-in, and the jar lacked cookies a signed-in browser
    /// usually holds (said only after the check failed: sign-ins differ in which cookies they set).
    #[error(
        "Garmin did not accept the session from sign-in at {connect} ({detail}): {missing}; sign in again, or use \"Paste cookies\" if it keeps happening"
    )]
    MissingCookies {
        /// What was missing, e.g. "the cookies had no `JWT_WEB` cookie (Garmin's access cookie)".
        missing: String,
        /// The Connect origin.
        connect: String,
        /// What Garmin answered, without secrets.
        detail: String,
    },
    /// The Connect page after sign-in carried no CSRF token.
    #[error(
        "the Garmin Connect page at {connect} did not show a signed-in session (no CSRF token on it); sign in again, or use \"Paste cookies\" if it keeps happening"
    )]
    NoCsrfToken {
        /// The Connect origin.
        connect: String,
    },
    /// Garmin answered the check call with "not signed in" (401/403).
    #[error(
        "Garmin did not accept the session from sign-in ({detail}); sign in again, or use \"Paste cookies\""
    )]
    Rejected {
        /// What Garmin answered, without secrets.
        detail: String,
    },
    /// What the person pasted or typed is not usable.
    #[error("{0}")]
    InvalidInput(String),
    /// The sign-in window could not be opened or read.
    #[error("the sign-in window did not work ({0}); close it and try again, or use \"Paste cookies\"")]
    Window(String),
    /// Anything Garmin or the session store reported (network, rate limit, disk…).
    #[error(transparent)]
    Garmin(#[from] garmin::Error),
}
