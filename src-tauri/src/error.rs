//! The one error shape that crosses IPC: `{ "code": "...", "message": "..." }`.
//!
//! `message` is the `garmin` error's text (what happened and what to do, never a secret); `code` is a
//! small enum the UI branches on, mirrored in `ui/src/errors.ts`. Add a code only when the UI needs to
//! act differently on it; everything else is `other` and the UI shows the message.

use serde::Serialize;

/// Result of a command.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What the UI does next, as a stable code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// No saved session: show how to sign in.
    NotSignedIn,
    /// Garmin refused the session and it could not be renewed: sign in again.
    SessionExpired,
    /// Garmin could not be reached: check the connection, then retry.
    Network,
    /// The sign-in window was closed (or cancelled) before sign-in finished: pick a site again.
    SignInClosed,
    /// The account signed in on the other Garmin site than the one picked: pick the other site.
    WrongSite,
    /// Garmin did not hand over, or did not accept, the session from sign-in: sign in again, or
    /// paste cookies.
    SignInRejected,
    /// What the person typed or pasted is not usable: the message says what to fix.
    InvalidInput,
    /// Anything else: show the message.
    Other,
}

impl ErrorCode {
    /// Every code, in declaration order (the UI's `ERROR_CODES` is generated from this list).
    pub const ALL: [ErrorCode; 8] = [
        ErrorCode::NotSignedIn,
        ErrorCode::SessionExpired,
        ErrorCode::Network,
        ErrorCode::SignInClosed,
        ErrorCode::WrongSite,
        ErrorCode::SignInRejected,
        ErrorCode::InvalidInput,
        ErrorCode::Other,
    ];

    /// The code as the UI receives it (`not_signed_in`).
    pub fn as_str(self) -> &'static str {
        // Exhaustive on purpose: a new code fails to compile here until it is named (add it to
        // `ALL` too; a test checks `ALL` against these names).
        match self {
            ErrorCode::NotSignedIn => "not_signed_in",
            ErrorCode::SessionExpired => "session_expired",
            ErrorCode::Network => "network",
            ErrorCode::SignInClosed => "sign_in_closed",
            ErrorCode::WrongSite => "wrong_site",
            ErrorCode::SignInRejected => "sign_in_rejected",
            ErrorCode::InvalidInput => "invalid_input",
            ErrorCode::Other => "other",
        }
    }
}

impl From<garmin::ErrorKind> for ErrorCode {
    fn from(kind: garmin::ErrorKind) -> Self {
        match kind {
            garmin::ErrorKind::NotSignedIn => ErrorCode::NotSignedIn,
            // Another Connect front end (connectus): a sign-in on this network is what fixes it.
            garmin::ErrorKind::SessionExpired | garmin::ErrorKind::OtherFrontEnd => ErrorCode::SessionExpired,
            garmin::ErrorKind::Network => ErrorCode::Network,
            _ => ErrorCode::Other,
        }
    }
}

/// A command's failure, as the UI receives it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ts_rs::TS)]
#[ts(rename = "CommandError")]
pub struct Error {
    /// What the UI does next.
    pub code: ErrorCode,
    /// What happened and what to do, in plain words.
    pub message: String,
}

impl Error {
    /// An error with the given code and message.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Error { code, message: message.into() }
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

impl From<garmin::Error> for Error {
    fn from(e: garmin::Error) -> Self {
        Error::new(e.kind().into(), e.to_string())
    }
}

impl From<garmin::StoreError> for Error {
    fn from(e: garmin::StoreError) -> Self {
        garmin::Error::from(e).into()
    }
}

impl From<tauri::Error> for Error {
    fn from(e: tauri::Error) -> Self {
        Error::new(ErrorCode::Other, format!("internal error in the app: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn garmin_errors_map_to_the_codes_the_ui_branches_on() {
        let expired = garmin::Error::SessionExpired { site: garmin::Site::Cn, detail: "401".into() };
        let offline =
            garmin::Error::Network { endpoint: "GET /x".into(), message: "dns".into(), maybe_sent: false };
        let limited = garmin::Error::RateLimited { retry_after: None };
        assert_eq!(Error::from(expired).code, ErrorCode::SessionExpired);
        assert_eq!(Error::from(offline).code, ErrorCode::Network);
        assert_eq!(Error::from(limited).code, ErrorCode::Other);
    }

    #[test]
    fn every_code_is_listed_once_with_the_name_serde_sends() {
        let names: Vec<String> = ErrorCode::ALL
            .iter()
            .map(|c| serde_json::to_value(c).unwrap().as_str().unwrap().to_owned())
            .collect();
        let listed: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
        assert_eq!(names, listed);
        let mut unique = listed.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), listed.len(), "{listed:?}");
    }

    #[test]
    fn error_serialises_as_code_and_message() {
        let e = Error::new(ErrorCode::NotSignedIn, "sign in");
        let json = serde_json::to_value(&e).unwrap();
        assert_eq!(json, serde_json::json!({ "code": "not_signed_in", "message": "sign in" }));
    }
}
