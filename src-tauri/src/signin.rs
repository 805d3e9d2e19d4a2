//! Signing in from the desktop app. The window-free steps — where a sign-in happens, turning the
//! webview's cookies and page into a session, the check-then-save step — are library code in
//! `app_bridge::signin`, re-exported here; this module holds what needs a window.
//!
//! | module | what |
//! |---|---|
//! | [`key_page`](self::key_page) | Garmin's Personal API key page, opened signed in through the SSO |
//! | [`window`](self::window) | the capability-less second webview on Garmin's sign-in page |

pub mod key_page;
pub mod window;

pub use app_bridge::signin::{
    BrowserCookie, Landing, PageReading, READ_PAGE_SCRIPT, SignInError, Target, session_from_browser,
    validate_and_save,
};

use crate::error::{Error, ErrorCode};

impl From<SignInError> for Error {
    fn from(e: SignInError) -> Self {
        let code = match &e {
            SignInError::WindowClosed => ErrorCode::SignInClosed,
            SignInError::WrongSite { .. } => ErrorCode::WrongSite,
            SignInError::MissingCookies { .. }
            | SignInError::NoCsrfToken { .. }
            | SignInError::Rejected { .. } => ErrorCode::SignInRejected,
            SignInError::InvalidInput(_) => ErrorCode::InvalidInput,
            SignInError::Window(_) => ErrorCode::Other,
            SignInError::Garmin(inner) => inner.kind().into(),
        };
        Error::new(code, e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sign_in_errors_carry_the_code_the_ui_branches_on() {
        let wrong = SignInError::WrongSite { picked: garmin::Site::Cn, landed: garmin::Site::Global };
        let error = Error::from(wrong);
        assert_eq!(error.code, ErrorCode::WrongSite);
        assert!(error.message.contains("connect.garmin.com") && error.message.contains("connect.garmin.cn"));
        assert_eq!(Error::from(SignInError::WindowClosed).code, ErrorCode::SignInClosed);
        assert_eq!(
            Error::from(SignInError::Rejected { detail: "403".into() }).code,
            ErrorCode::SignInRejected
        );
        let offline =
            garmin::Error::Network { endpoint: "GET /x".into(), message: "dns".into(), maybe_sent: false };
        assert_eq!(Error::from(SignInError::from(offline)).code, ErrorCode::Network);
    }
}
