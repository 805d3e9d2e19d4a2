//! The app's end of the local channel (`app-bridge`) on which `garmin-mcp` sidecars ask the person
//! to confirm a write or to sign in.
//!
//! [`start`] listens on the socket in the real data folder (the one holding `session.json`) on
//! tauri's async runtime. Each request that needs the person is kept in [`BridgeRequests`]
//! (managed state) under a request id, the main window is brought to the front, and the main
//! window is told the list changed ([`PENDING_CHANGED_EVENT`]). The connection then waits for the
//! answer: `decide_proposal` (see `confirm.rs`), a completed sign-in ([`answer_sign_ins`]), or the
//! sidecar's own deadline passing. The sidecar applies an approved change itself; the app never
//! writes to Garmin on a sidecar's behalf.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use app_bridge::{AppLink, AppListener, BridgeError, Incoming, Proposal, Reply, Request};
use chrono::{DateTime, Utc};
use serde::Serialize;
use tauri::{AppHandle, Emitter as _, Manager as _, Runtime};
use tokio::sync::oneshot;

use crate::MAIN_WINDOW;

/// Event sent to the main window whenever the waiting requests change; the payload is the list
/// (`Vec<PendingRequest>`), the same as `pending_proposals` returns.
pub const PENDING_CHANGED_EVENT: &str = "pending-requests-changed";

/// A sidecar waits five minutes for the person (`garmin-mcp`'s `DECISION_WAIT`/`SIGN_IN_WAIT`);
/// a request still open a little after that has nobody waiting for it and is dropped.
const FORGET_AFTER: Duration = Duration::from_secs(330);

/// How long a second copy of the app waits for the first to answer "show your window".
const SHOW_WAIT: Duration = Duration::from_secs(3);

/// Most requests waiting for the person at once; more are answered at once with
/// [`Reply::Failed`] (a flood of proposals cannot bury the window).
pub const MAX_WAITING: usize = 20;

/// What a sidecar asked the person.
#[derive(Clone, Debug, PartialEq)]
pub enum Asked {
    /// Confirm (possibly after editing) or cancel a write.
    Confirm(Proposal),
    /// Sign in, because the sidecar found no usable session.
    SignIn {
        /// Why, in the sidecar's words.
        reason: String,
    },
}

/// The requests waiting for the person, keyed by request id (managed state).
#[derive(Debug, Default)]
pub struct BridgeRequests {
    pending: Mutex<BTreeMap<u64, Pending>>,
    next_id: AtomicU64,
}

#[derive(Debug)]
struct Pending {
    asked: Asked,
    received_at: DateTime<Utc>,
    reply: oneshot::Sender<Reply>,
}

/// A waiting request as the UI sees it (no secrets: workouts, ids and words only).
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct PendingRequest {
    /// The id `decide_proposal` takes.
    pub id: u64,
    /// When the request arrived.
    pub received_at: DateTime<Utc>,
    /// What is asked.
    #[serde(flatten)]
    pub asked: AskedView,
}

/// What is asked, tagged by `kind` (`confirm` or `sign_in`).
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
#[serde(tag = "kind", rename_all = "snake_case", rename_all_fields = "camelCase")]
pub enum AskedView {
    /// A write to confirm.
    Confirm {
        /// One line, e.g. "Create the workout '800m x4' in your Garmin library".
        title: String,
        /// The plain-words preview with totals.
        preview: String,
        /// The tool that proposed it (`create_workout`, `schedule_workout`, …).
        change_kind: &'static str,
        /// For a new workout: its spec in canonical form, for the step editor.
        #[ts(type = "Record<string, unknown> | null")]
        spec: Option<serde_json::Value>,
        /// The AI client that asked, when it said.
        requested_by: Option<String>,
        /// True when the sidecar serves the demo account.
        demo: bool,
    },
    /// A sign-in to do.
    SignIn {
        /// Why, in the sidecar's words.
        reason: String,
    },
}

impl Asked {
    /// What `request` asks the person, with every text the window shows cut to its limit and
    /// cleaned of control and bidirectional characters (`app_bridge::Request::for_display`: a
    /// sidecar's words are not trusted to be short or clean). `None` for requests answered at once.
    pub fn from_request(request: &Request) -> Option<Asked> {
        match request {
            Request::Confirm(proposal) => Some(Asked::Confirm(proposal.clone()).for_display()),
            Request::SignIn { reason } => Some(Asked::SignIn { reason: reason.clone() }.for_display()),
            Request::Hello | Request::Show => None,
        }
    }

    /// The same request with its texts cut and cleaned for the window.
    #[must_use]
    pub fn for_display(self) -> Asked {
        match self {
            Asked::Confirm(proposal) => Asked::Confirm(proposal.for_display()),
            Asked::SignIn { reason } => Asked::SignIn {
                reason: app_bridge::clean_display_text(&reason, app_bridge::MAX_REASON_CHARS),
            },
        }
    }
}

impl BridgeRequests {
    /// Keeps `asked` (cleaned for the window, see [`Asked::from_request`]) until answered; returns
    /// its id and where the answer arrives, or `None` when [`MAX_WAITING`] requests already wait.
    pub fn add(&self, asked: Asked) -> Option<(u64, oneshot::Receiver<Reply>)> {
        let asked = asked.for_display();
        let mut pending = self.lock();
        if pending.len() >= MAX_WAITING {
            return None;
        }
        let id = self.next_id.fetch_add(1, Ordering::SeqCst) + 1;
        let (reply, answer) = oneshot::channel();
        pending.insert(id, Pending { asked, received_at: Utc::now(), reply });
        Some((id, answer))
    }

    /// What request `id` asks, while it waits.
    pub fn get(&self, id: u64) -> Option<Asked> {
        self.lock().get(&id).map(|pending| pending.asked.clone())
    }

    /// Answers request `id` and stops keeping it; false when it no longer waits.
    pub fn answer(&self, id: u64, reply: Reply) -> bool {
        match self.lock().remove(&id) {
            Some(pending) => pending.reply.send(reply).is_ok(),
            None => false,
        }
    }

    /// Answers every waiting sign-in request with [`Reply::SignedIn`]; returns how many.
    pub fn answer_sign_ins(&self, display_name: Option<String>) -> usize {
        let mut pending = self.lock();
        let ids: Vec<u64> = pending
            .iter()
            .filter(|(_, p)| matches!(p.asked, Asked::SignIn { .. }))
            .map(|(id, _)| *id)
            .collect();
        for id in &ids {
            if let Some(request) = pending.remove(id) {
                let _ = request.reply.send(Reply::SignedIn { display_name: display_name.clone() });
            }
        }
        ids.len()
    }

    /// Stops keeping request `id` without answering it (nobody waits for it any more).
    fn forget(&self, id: u64) {
        self.lock().remove(&id);
    }

    /// The waiting requests, oldest first.
    pub fn list(&self) -> Vec<PendingRequest> {
        self.lock()
            .iter()
            .map(|(id, pending)| PendingRequest {
                id: *id,
                received_at: pending.received_at,
                asked: view(&pending.asked),
            })
            .collect()
    }

    fn lock(&self) -> MutexGuard<'_, BTreeMap<u64, Pending>> {
        self.pending.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

fn view(asked: &Asked) -> AskedView {
    match asked {
        Asked::Confirm(proposal) => AskedView::Confirm {
            title: proposal.title.clone(),
            preview: proposal.preview.clone(),
            change_kind: proposal.change.tool_name(),
            spec: proposal.editable_spec(),
            requested_by: proposal.requested_by.clone(),
            demo: proposal.demo,
        },
        Asked::SignIn { reason } => AskedView::SignIn { reason: reason.clone() },
    }
}

/// Starts listening for sidecars of the data folder `data_dir` (on tauri's async runtime). When
/// another copy of the app already listens there, this one leaves the channel to it.
pub fn start<R: Runtime>(app: &AppHandle<R>, data_dir: PathBuf) {
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        match AppListener::bind(&data_dir).await {
            Ok(listener) => serve(app, listener).await,
            Err(BridgeError::AlreadyRunning) => eprintln!(
                "garmin-desktop: another Garmin MCP app already answers the AI assistants for {}; this window will not get their requests",
                data_dir.display()
            ),
            Err(e) => eprintln!(
                "garmin-desktop: AI assistants cannot ask this app to confirm writes or to sign in: {e}"
            ),
        }
    });
}

/// When a copy of the app already runs for `data_dir`, asks it to bring its window to the front and
/// returns true: this copy should then quit instead of opening a second window. False when no copy
/// answers (none runs, or it is too old to know the request).
pub fn hand_over_to_running_app(data_dir: &Path) -> bool {
    let Ok(runtime) = tokio::runtime::Builder::new_current_thread().enable_all().build() else {
        return false;
    };
    let link = AppLink::in_dir(data_dir);
    let answer = runtime.block_on(link.ask(&Request::Show, SHOW_WAIT));
    matches!(answer, Ok(Reply::Hello { .. }))
}

/// Answers requests on `listener` until the app ends.
async fn serve<R: Runtime>(app: AppHandle<R>, listener: AppListener) {
    loop {
        match listener.accept().await {
            Ok(incoming) => {
                tauri::async_runtime::spawn(handle(app.clone(), incoming));
            }
            Err(e) => {
                eprintln!("garmin-desktop: the AI assistants' channel failed: {e}; retrying");
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    }
}

/// Answers one request: at once for `Hello`, after the person decided for the rest.
async fn handle<R: Runtime>(app: AppHandle<R>, incoming: Incoming) {
    let asked = match incoming.request() {
        Request::Hello => return say_hello(&app, incoming).await,
        Request::Show => {
            bring_to_front(&app);
            return say_hello(&app, incoming).await;
        }
        request => Asked::from_request(request),
    };
    let Some(asked) = asked else { return };
    let requests = app.state::<BridgeRequests>();
    let Some((id, answer)) = requests.add(asked) else {
        let message = format!(
            "{MAX_WAITING} requests already wait for the person in the Garmin MCP app; try again once they answered them"
        );
        let _ = incoming.reply(&Reply::Failed { message }).await;
        return;
    };
    notify(&app);
    bring_to_front(&app);
    let reply = tokio::time::timeout(FORGET_AFTER, answer).await;
    match reply {
        Ok(Ok(reply)) => {
            if let Err(e) = incoming.reply(&reply).await {
                eprintln!("garmin-desktop: the assistant stopped waiting before the answer arrived: {e}");
            }
        }
        // Timed out, or the app is shutting down: nobody will answer.
        _ => {
            requests.forget(id);
            notify(&app);
        }
    }
}

/// Answers at once that the app is here, with its version.
async fn say_hello<R: Runtime>(app: &AppHandle<R>, incoming: Incoming) {
    let app_version = app.package_info().version.to_string();
    let _ = incoming.reply(&Reply::Hello { app_version }).await;
}

/// Tells the main window the waiting requests changed.
pub fn notify<R: Runtime>(app: &AppHandle<R>) {
    let list = app.state::<BridgeRequests>().list();
    let _ = app.emit_to(MAIN_WINDOW, PENDING_CHANGED_EVENT, list);
}

/// Answers every waiting sign-in request once the person signed in to their real account.
pub fn answer_sign_ins<R: Runtime>(app: &AppHandle<R>, display_name: Option<String>) {
    if app.state::<BridgeRequests>().answer_sign_ins(display_name) > 0 {
        notify(app);
    }
}

/// Shows the main window (unminimized, focused).
pub(crate) fn bring_to_front<R: Runtime>(app: &AppHandle<R>) {
    if let Some(window) = app.get_webview_window(MAIN_WINDOW) {
        let _ = window.unminimize();
        let _ = window.show();
        let _ = window.set_focus();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_request_is_kept_until_answered_once_and_sign_ins_are_answered_together() {
        let requests = BridgeRequests::default();
        let (first, first_answer) =
            requests.add(Asked::SignIn { reason: "Claude needs sleep".into() }).unwrap();
        let (second, second_answer) =
            requests.add(Asked::SignIn { reason: "Cursor needs runs".into() }).unwrap();
        let (third, third_answer) = requests.add(Asked::SignIn { reason: "later".into() }).unwrap();
        assert!(first < second && second < third);
        let listed: Vec<u64> = requests.list().iter().map(|p| p.id).collect();
        assert_eq!(listed, vec![first, second, third]);

        assert!(requests.answer(third, Reply::Cancelled { reason: None }));
        assert!(!requests.answer(third, Reply::Cancelled { reason: None }), "answered once only");
        assert_eq!(third_answer.await.unwrap(), Reply::Cancelled { reason: None });

        assert_eq!(requests.answer_sign_ins(Some("alex".into())), 2);
        let signed_in = Reply::SignedIn { display_name: Some("alex".into()) };
        assert_eq!(first_answer.await.unwrap(), signed_in);
        assert_eq!(second_answer.await.unwrap(), signed_in);
        assert!(requests.list().is_empty());
        assert_eq!(requests.get(first), None);
    }

    #[test]
    fn a_sign_in_request_is_shown_with_its_reason() {
        let requests = BridgeRequests::default();
        requests.add(Asked::SignIn { reason: "Claude needs your sleep data".into() }).unwrap();
        let shown = serde_json::to_value(requests.list()).unwrap();
        assert_eq!(shown[0]["kind"], "sign_in");
        assert_eq!(shown[0]["reason"], "Claude needs your sleep data");
        assert!(shown[0]["receivedAt"].is_string(), "{shown}");
    }

    fn hostile_proposal(requested_by: String) -> Proposal {
        let date = chrono::NaiveDate::from_ymd_opt(2026, 12, 3).unwrap();
        Proposal {
            title: format!("Schedule workout 5 \u{202E}{}", "x".repeat(10_000)),
            preview: "Schedule workout 5 on 2026-12-03\u{1b}[2J\n\u{2066}line two".into(),
            change: garmin::changes::Change::ScheduleWorkout { workout_id: 5, date },
            spec: None,
            requested_by: Some(requested_by),
            demo: false,
        }
    }

    #[test]
    fn a_100_kb_client_name_with_bidi_controls_reaches_the_window_short_and_clean() {
        let mut name =
            String::from("\u{202E}edoc-edualc\u{202C}\n\r Garmin Security: re-enter your password at ");
        while name.len() < 100 * 1024 {
            name.push_str("\u{2067}\u{200F}\u{0}\u{7}https://garmin.example/\u{E0041}\u{FEFF}");
        }
        let request = Request::Confirm(hostile_proposal(name));
        let requests = BridgeRequests::default();
        requests.add(Asked::from_request(&request).unwrap()).unwrap();
        let shown = serde_json::to_value(requests.list()).unwrap();
        let client = shown[0]["requestedBy"].as_str().unwrap();
        assert!(client.chars().count() <= app_bridge::MAX_CLIENT_NAME_CHARS, "{client}");
        assert!(client.starts_with("edoc-edualc Garmin"), "{client:?}");
        let clean = |text: &str| {
            text.chars().all(|c| c == '\n' || !(c.is_control() || app_bridge::is_hidden_control(c)))
        };
        for field in ["requestedBy", "title", "preview"] {
            let text = shown[0][field].as_str().unwrap();
            assert!(clean(text), "{field}: {text:?}");
        }
        assert!(shown[0]["title"].as_str().unwrap().chars().count() <= app_bridge::MAX_TITLE_CHARS);
        assert_eq!(shown[0]["preview"], "Schedule workout 5 on 2026-12-03 [2J\nline two");
        assert!(!client.contains('\n'));
    }

    #[tokio::test]
    async fn a_flood_of_requests_fills_the_window_only_up_to_its_limit() {
        let requests = BridgeRequests::default();
        let mut waiting = Vec::new();
        for n in 0..MAX_WAITING {
            waiting.push(requests.add(Asked::SignIn { reason: format!("flood {n}") }).unwrap());
        }
        assert!(requests.add(Asked::Confirm(hostile_proposal("one more".into()))).is_none());
        assert_eq!(requests.list().len(), MAX_WAITING);
        // Once the person answered one, there is room again.
        assert!(requests.answer(waiting[0].0, Reply::Cancelled { reason: None }));
        assert!(requests.add(Asked::SignIn { reason: "now".into() }).is_some());
    }
}
