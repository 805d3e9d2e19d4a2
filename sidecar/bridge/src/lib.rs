//! The local channel between `garmin-mcp` processes and the desktop app.
//!
//! A sidecar that needs the person — to confirm a write to their Garmin account, or to sign in —
//! connects to the app's socket, sends one [`Request`] and waits for one [`Reply`]; the app shows
//! its window, the person decides, the app answers. A second copy of the app uses the same channel
//! to ask the first to show its window ([`Request::Show`]) before quitting. One request per
//! connection, one JSON object per line.
//!
//! Safety: the socket lives in the data folder (0700, the same folder as `session.json`), is
//! itself 0600, carries no credentials (workouts, events, ids and words only), and both ends check
//! that the peer process belongs to the user who owns the data folder; anyone else is refused.
//! Today this is a Unix-domain socket; on other systems every call answers
//! [`BridgeError::Unsupported`] and the sidecar falls back to its preview (see the workouts docs).

use std::path::{Path, PathBuf};
use std::time::Duration;

use chrono::NaiveDate;
use garmin::changes::Change;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The socket's file name inside the data folder.
pub const SOCKET_NAME: &str = "app.sock";

/// Longest line either side accepts (a large workout is a few KB).
const MAX_LINE: usize = 1 << 20;

/// What a sidecar asks the app.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Request {
    /// Is the app there? (Answered at once with [`Reply::Hello`].)
    Hello,
    /// Another copy of the app was started: bring your window to the front (answered at once with
    /// [`Reply::Hello`]; the new copy then quits).
    Show,
    /// Show this proposed change and let the person approve, adjust or cancel it.
    Confirm(Proposal),
    /// No usable session: show the site picker and sign-in window.
    SignIn {
        /// Why, in words ("Claude asked for your sleep data").
        reason: String,
    },
}

/// A write waiting for the person's decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Proposal {
    /// One line for the window title ("Create workout '800m x4'").
    pub title: String,
    /// The plain-words preview with totals.
    pub preview: String,
    /// The change as the assistant proposed it.
    pub change: Change,
    /// For a new workout: the assistant's spec, which the editor shows as editable steps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spec: Option<Value>,
    /// The AI client that asked, when it said its name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requested_by: Option<String>,
    /// True when the sidecar serves the demo account.
    #[serde(default)]
    pub demo: bool,
}

/// What the app answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Reply {
    /// The app is running.
    Hello {
        /// The app's version.
        app_version: String,
    },
    /// The person approved `change` (possibly adjusted in the editor); the sidecar applies it and
    /// then the follow-ups.
    Approved {
        /// The change to apply.
        change: Change,
        /// After creating a workout: put it on the calendar on this day.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        schedule_on: Option<NaiveDate>,
        /// After creating a workout: send it to the watch.
        #[serde(default)]
        send_to_device: bool,
        /// Which device (`None` = the last used one).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        device_id: Option<u64>,
    },
    /// The person said no (or closed the window).
    Cancelled {
        /// Their words, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// The person signed in.
    SignedIn {
        /// Their Garmin display name.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        display_name: Option<String>,
    },
    /// The app could not do it.
    Failed {
        /// Why, in words.
        message: String,
    },
}

/// Why the app could not be asked.
#[derive(Debug, thiserror::Error)]
pub enum BridgeError {
    /// Nobody listens on the socket: the app is not running.
    #[error("the Garmin MCP app is not running")]
    NotRunning,
    /// The other end belongs to another user.
    #[error("the process at {0} belongs to another user; refusing to talk to it")]
    OtherUser(PathBuf),
    /// The app did not answer in time.
    #[error("the Garmin MCP app did not answer within {0:?}")]
    TimedOut(Duration),
    /// Something other than our protocol came through.
    #[error("the Garmin MCP app answered something unexpected: {0}")]
    Protocol(String),
    /// Another copy of the app already listens.
    #[error("another Garmin MCP app is already running for this data folder")]
    AlreadyRunning,
    /// The socket could not be used.
    #[error("the app channel {path} failed: {source}")]
    Io {
        /// The socket.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// No channel on this operating system yet.
    #[error("talking to the Garmin MCP app is not supported on this operating system yet")]
    Unsupported,
}

/// The socket path for a data folder.
pub fn socket_path(data_dir: &Path) -> PathBuf {
    data_dir.join(SOCKET_NAME)
}

#[cfg(unix)]
mod unix;
#[cfg(unix)]
pub use unix::{AppLink, AppListener, Incoming};

#[cfg(not(unix))]
mod unsupported;
#[cfg(not(unix))]
pub use unsupported::{AppLink, AppListener, Incoming};
