//! The desktop app's Tauri-free core, shared with `garmin-mcp` and testable without a webview: the
//! local channel between sidecars and the app (this file), the contract both ends compile in
//! ([`sidecar`]), the app's preferences as data ([`preferences`]), the remote-access server the
//! app supervises ([`remote`]), the children that end with the app ([`children`]) and the
//! window-free steps of signing in ([`signin`]).
//!
//! # The channel
//!
//! A sidecar that needs the person — to confirm a write to their Garmin account, or to sign in —
//! connects to the app's socket, sends one [`Request`] and waits for one [`Reply`]; the app shows
//! its window, the person decides, the app answers. A second copy of the app uses the same channel
//! to ask the first to show its window ([`Request::Show`]) before quitting. One request per
//! connection, one JSON object per line.
//!
//! Safety: the socket lives in the data folder (0700, the same folder as `session.json`), is
//! itself 0600, carries no credentials (workouts, events, ids and words only), and both ends check
//! that the socket file and the process at the other end belong to their own user; anything else
//! is refused (and the app replaces such a socket with its own).
//! On Unix this is a Unix-domain socket (`unix.rs`). On Windows it is a named pipe (`windows.rs`)
//! whose name is made from our user's SID and the data folder ([`pipe_name`]), created with an
//! owner-only security descriptor, refusing remote clients, and checking the user of the process
//! at the other end (the pipe's peer process id, its token's user SID) on both ends. Both carry the
//! same framing and caps (`framing.rs`). On any other system every call answers
//! [`BridgeError::Unsupported`] and the sidecar falls back to its preview (see the workouts docs).
//!
//! Neither end trusts the other's words: text that reaches the app's window is cut short and
//! cleaned of control and bidirectional-override characters ([`clean_display_text`],
//! [`Request::for_display`]) on both ends, and the sidecar applies only an approval of the kind
//! it proposed ([`Proposal::check_approval`]).

use std::path::{Path, PathBuf};
use std::time::Duration;

use chrono::NaiveDate;
use garmin::changes::Change;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The one cleaner of text shown to people (`display::text`), re-exported where the app channel has
/// always offered it.
pub use display::text::{clean_display_lines, clean_display_text, is_hidden_control};

/// The socket's file name inside the data folder.
pub const SOCKET_NAME: &str = "app.sock";

/// Longest line either side accepts (a large workout is a few KB).
const MAX_LINE: usize = 1 << 20;

/// Longest client name the window shows: real ones are short ("claude-code", "Visual Studio
/// Code"), and a long one is room for a message posing as ours.
pub const MAX_CLIENT_NAME_CHARS: usize = 32;
/// Longest title the window shows.
pub const MAX_TITLE_CHARS: usize = 200;
/// Longest sign-in reason the window shows.
pub const MAX_REASON_CHARS: usize = 300;
/// Longest preview the window shows (a long workout is a few dozen lines).
pub const MAX_PREVIEW_CHARS: usize = 16_000;

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

impl Request {
    /// The request with every text the window shows cut to its limit and cleaned
    /// ([`clean_display_text`]); an empty client name becomes `None`. The sidecar sends it so and
    /// the app applies it again to whatever arrives.
    #[must_use]
    pub fn for_display(self) -> Request {
        match self {
            Request::Confirm(proposal) => Request::Confirm(proposal.for_display()),
            Request::SignIn { reason } => {
                Request::SignIn { reason: clean_display_text(&reason, MAX_REASON_CHARS) }
            }
            other => other,
        }
    }
}

impl Proposal {
    /// The spec the app's editor shows, in canonical form: the assistant's spec, or for a new
    /// workout without one, the spec read back from the workout itself. `None` for other changes
    /// (they are approved as they are).
    pub fn editable_spec(&self) -> Option<Value> {
        let Change::CreateWorkout { workout } = &self.change else { return None };
        let spec = match self.spec.as_ref().map(garmin::workout_spec::parse_spec) {
            Some(Ok(spec)) => spec,
            // The sidecar checked it; anything else is shown as it came.
            Some(Err(_)) => return self.spec.clone(),
            None => garmin::workout_spec::spec_from_garmin(workout).ok()?,
        };
        serde_json::to_value(spec).ok()
    }

    /// The proposal with its title, preview and client name cut and cleaned (see
    /// [`Request::for_display`]).
    #[must_use]
    pub fn for_display(self) -> Proposal {
        Proposal {
            title: clean_display_text(&self.title, MAX_TITLE_CHARS),
            preview: clean_display_lines(&self.preview, MAX_PREVIEW_CHARS),
            requested_by: self.requested_by.as_deref().and_then(clean_client_name),
            ..self
        }
    }

    /// Whether the app's approval may be applied for this proposal: only a decision of the
    /// proposal's own kind. A new workout may come back edited (any new workout) and with its
    /// follow-ups (schedule it, send it to a watch); every other change must come back exactly as
    /// proposed, without follow-ups. Anything else (say, a delete in answer to a create) is
    /// refused with what was proposed and what came back.
    pub fn check_approval(
        &self,
        change: &Change,
        schedule_on: Option<NaiveDate>,
        send_to_device: bool,
        device_id: Option<u64>,
    ) -> Result<(), String> {
        let follow_ups = schedule_on.is_some() || send_to_device || device_id.is_some();
        match (&self.change, change) {
            (Change::CreateWorkout { .. }, Change::CreateWorkout { .. }) => Ok(()),
            (proposed, approved) if proposed == approved && !follow_ups => Ok(()),
            (proposed, approved) if proposed == approved => Err(format!(
                "the app added a schedule or a send to a {} proposal; only a new workout has those",
                proposed.tool_name()
            )),
            (proposed, approved) if proposed.tool_name() == approved.tool_name() => Err(format!(
                "the app approved a different {} than the one proposed (\"{}\" instead of \"{}\")",
                proposed.tool_name(),
                clean_display_text(&approved.describe(), MAX_TITLE_CHARS),
                clean_display_text(&proposed.describe(), MAX_TITLE_CHARS),
            )),
            (proposed, approved) => Err(format!(
                "the app approved a {} in answer to a {} proposal",
                approved.tool_name(),
                proposed.tool_name()
            )),
        }
    }
}

/// A client's name as the window shows it, or `None` when nothing readable is left.
pub fn clean_client_name(name: &str) -> Option<String> {
    Some(clean_display_text(name, MAX_CLIENT_NAME_CHARS)).filter(|name| !name.is_empty())
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

/// The Windows named pipe of the app of `data_dir` run by the user `user_sid`:
/// `\\.\pipe\garmin-mcp-<user SID>-<16 hex digits>`. Pipe names are global to the computer, so
/// the user's SID keeps two people's apps apart, and a hash of the data folder (compared as Windows
/// compares paths: case-insensitive, either slash, no trailing slash) keeps a demo or test folder
/// apart from the real one. The hash is FNV-1a (64-bit), fixed here so that an app and a sidecar
/// built separately agree.
pub fn pipe_name(data_dir: &Path, user_sid: &str) -> String {
    let folder = data_dir.to_string_lossy().replace('/', "\\").to_lowercase();
    let folder = folder.trim_end_matches('\\');
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in folder.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!(r"\\.\pipe\garmin-mcp-{user_sid}-{hash:016x}")
}

pub mod children;
mod framing;
pub mod preferences;
pub mod remote;
pub mod sidecar;
pub mod signin;

pub use framing::Incoming;

#[cfg(unix)]
mod unix;
#[cfg(unix)]
pub use unix::{AppLink, AppListener};

#[cfg(windows)]
mod windows;
#[cfg(windows)]
pub use windows::{AppLink, AppListener};

#[cfg(not(any(unix, windows)))]
mod unsupported;
#[cfg(not(any(unix, windows)))]
pub use unsupported::{AppLink, AppListener};

#[cfg(test)]
mod tests {
    use super::*;

    fn hostile_name() -> String {
        // 100 KB: bidi overrides and isolates, line breaks, escape sequences, a tag-character
        // message, and a fake security notice for the window.
        let mut name = String::from("claude\u{202E}edoc\u{202C}\u{2066}\n\r\u{1b}[2J\u{7}\u{E0041}\u{E0042}");
        name.push_str(" Garmin Security: re-enter your password at https://garmin.example ");
        while name.len() < 100 * 1024 {
            name.push_str("\u{200F}\u{202B}\t\u{0}x\u{FEFF}\u{200B}");
        }
        name
    }

    fn is_clean(text: &str) -> bool {
        text.chars().all(|c| !(c.is_control() || is_hidden_control(c)))
    }

    #[test]
    fn a_100_kb_client_name_with_bidi_controls_reaches_the_window_short_and_clean() {
        let name = hostile_name();
        let request = Request::Confirm(Proposal {
            title: format!("Create the workout '{}'", "\u{202E}4x m008".repeat(5_000)),
            preview: format!("Warm up 10 min\n\u{2067}Repeat 4×\u{2069}\r\n\n\n\n{}", "y".repeat(50_000)),
            change: Change::DeleteWorkout { workout_id: 1 },
            spec: None,
            requested_by: Some(name.clone()),
            demo: false,
        });
        let Request::Confirm(shown) = request.for_display() else { panic!("still a confirmation") };
        let client = shown.requested_by.unwrap_or_default();
        assert!(client.chars().count() <= MAX_CLIENT_NAME_CHARS, "{client}");
        assert!(is_clean(&client), "{client:?}");
        assert!(client.starts_with("claudeedoc [2J"), "{client:?}");
        assert!(client.ends_with('…'), "{client:?}");
        assert!(
            shown.title.chars().count() <= MAX_TITLE_CHARS && is_clean(&shown.title),
            "{:?}",
            shown.title
        );
        assert!(shown.preview.chars().count() <= MAX_PREVIEW_CHARS);
        assert!(shown.preview.starts_with("Warm up 10 min\nRepeat 4×\n\ny"), "{:?}", &shown.preview[..40]);
        assert!(shown.preview.chars().all(|c| c == '\n' || !(c.is_control() || is_hidden_control(c))));

        let Request::SignIn { reason } =
            Request::SignIn { reason: format!("{name} needs your Garmin data") }.for_display()
        else {
            panic!("still a sign-in")
        };
        assert!(reason.chars().count() <= MAX_REASON_CHARS && is_clean(&reason), "{reason:?}");
        // A name of nothing but invisible characters is no name.
        assert_eq!(clean_client_name("\u{202E}\u{200B}\n\t "), None);
    }

    #[test]
    fn the_pipe_name_is_per_user_and_per_folder_however_the_folder_is_spelled() {
        let sid = "S-1-5-21-1-2-3-1001";
        let name = pipe_name(Path::new(r"C:\Users\Ann\AppData\Roaming\dev.garminmcp.desktop"), sid);
        assert!(name.starts_with(r"\\.\pipe\garmin-mcp-S-1-5-21-1-2-3-1001-"), "{name}");
        assert_eq!(name.len(), r"\\.\pipe\garmin-mcp-".len() + sid.len() + 1 + 16, "{name}");
        for spelling in [
            r"c:\users\ann\appdata\roaming\DEV.GARMINMCP.DESKTOP",
            r"C:\Users\Ann\AppData\Roaming\dev.garminmcp.desktop\",
            "C:/Users/Ann/AppData/Roaming/dev.garminmcp.desktop",
        ] {
            assert_eq!(pipe_name(Path::new(spelling), sid), name, "{spelling}");
        }
        assert_ne!(pipe_name(Path::new(r"C:\Users\Ann\AppData\Roaming\other"), sid), name);
        assert_ne!(
            pipe_name(
                Path::new(r"C:\Users\Ann\AppData\Roaming\dev.garminmcp.desktop"),
                "S-1-5-21-1-2-3-1002"
            ),
            name,
            "another person's app has another pipe"
        );
    }

    fn create() -> Change {
        Change::CreateWorkout { workout: Box::default() }
    }

    fn proposal(change: Change) -> Proposal {
        Proposal {
            title: change.describe(),
            preview: String::new(),
            change,
            spec: None,
            requested_by: None,
            demo: false,
        }
    }

    #[test]
    fn an_approval_of_another_kind_than_proposed_is_refused() {
        let day = NaiveDate::from_ymd_opt(2026, 12, 3);
        let delete = Change::DeleteWorkout { workout_id: 7 };
        let create_proposal = proposal(create());
        let refused = create_proposal.check_approval(&delete, None, false, None).unwrap_err();
        assert!(refused.contains("delete_workout") && refused.contains("create_workout"), "{refused}");
        assert_eq!(create_proposal.check_approval(&create(), day, true, Some(3)), Ok(()));

        let schedule = Change::ScheduleWorkout { workout_id: 5, date: day.unwrap_or_default() };
        let schedule_proposal = proposal(schedule.clone());
        assert_eq!(schedule_proposal.check_approval(&schedule, None, false, None), Ok(()));
        let other_day = Change::ScheduleWorkout { workout_id: 6, date: day.unwrap_or_default() };
        assert!(schedule_proposal.check_approval(&other_day, None, false, None).is_err());
        assert!(schedule_proposal.check_approval(&schedule, day, false, None).is_err());
        assert!(schedule_proposal.check_approval(&schedule, None, true, None).is_err());
        assert!(schedule_proposal.check_approval(&create(), None, false, None).is_err());
    }
}
