//! The one error shape that crosses IPC: `{ "code": "...", "message": "..." }`.
//!
//! `message` is the `garmin` error's text (what happened and what to do, never a secret); `code` is a
//! small enum the UI branches on, mirrored in `ui/src/errors.ts`. Add a code only when the UI needs to
//! act differently on it; everything else is `other` and the UI shows the message.

use serde::Serialize;

/// Result of a command.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What the UI does next, as a stable code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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
    fn error_serialises_as_code_and_message() {
        let e = Error::new(ErrorCode::NotSignedIn, "sign in");
        let json = serde_json::to_value(&e).unwrap();
        assert_eq!(json, serde_json::json!({ "code": "not_signed_in", "message": "sign in" }));
    }
}
