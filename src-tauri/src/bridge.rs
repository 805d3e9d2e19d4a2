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
#[derive(Clone, Debug, PartialEq, Serialize)]
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
#[derive(Clone, Debug, PartialEq, Serialize)]
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

impl BridgeRequests {
    /// Keeps `asked` until answered; returns its id and where the answer arrives.
    pub fn add(&self, asked: Asked) -> (u64, oneshot::Receiver<Reply>) {
        let id = self.next_id.fetch_add(1, Ordering::SeqCst) + 1;
        let (reply, answer) = oneshot::channel();
        self.lock().insert(id, Pending { asked, received_at: Utc::now(), reply });
        (id, answer)
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
            spec: crate::confirm::editable_spec(proposal),
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
        Request::Confirm(proposal) => Asked::Confirm(proposal.clone()),
        Request::SignIn { reason } => Asked::SignIn { reason: reason.clone() },
    };
    let requests = app.state::<BridgeRequests>();
    let (id, answer) = requests.add(asked);
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

fn bring_to_front<R: Runtime>(app: &AppHandle<R>) {
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
        let (first, first_answer) = requests.add(Asked::SignIn { reason: "Claude needs sleep".into() });
        let (second, second_answer) = requests.add(Asked::SignIn { reason: "Cursor needs runs".into() });
        let (third, third_answer) = requests.add(Asked::SignIn { reason: "later".into() });
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
        requests.add(Asked::SignIn { reason: "Claude needs your sleep data".into() });
        let shown = serde_json::to_value(requests.list()).unwrap();
        assert_eq!(shown[0]["kind"], "sign_in");
        assert_eq!(shown[0]["reason"], "Claude needs your sleep data");
        assert!(shown[0]["receivedAt"].is_string(), "{shown}");
    }
}
