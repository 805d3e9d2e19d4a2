//! The safety model every tool that changes the Garmin account goes through, decided here once.
//!
//! A write tool builds a [`Proposed`] change (what, in words, with the preview) and hands it to
//! [`Writes::propose`] (`self.writes().propose(…)` in a tool). What happens next depends on the [`WriteMode`]:
//!
//! * [`WriteMode::AskApp`] (default): nothing is written by the tool itself; the person is asked,
//!   in this order:
//!   1. the desktop app, when it is running now (reachable on the local bridge; over HTTP only with
//!      `--with-app`): the proposal goes to its window, where the person adjusts and approves it,
//!      or cancels. The tool waits (sending MCP progress notifications) and then applies exactly
//!      what was approved;
//!   2. else the chat, when the client declared MCP elicitation at `initialize`: a question with
//!      the same preview and a small form ([`crate::elicit`]);
//!   3. else the app again, started if it is installed (not over HTTP without `--with-app`, not
//!      for the demo); if it cannot be reached, the tool answers with the preview and how to
//!      enable writes.
//! * [`WriteMode::Direct`] (`GARMIN_ALLOW_WRITE=1`): the tool writes, but only when called with
//!   `confirm: true`; otherwise it answers with the preview (a dry run). Nobody is asked.
//! * [`WriteMode::PreviewOnly`] (`GARMIN_WORKOUT_EDITOR=0` without `GARMIN_ALLOW_WRITE`): previews
//!   only. Nobody is asked, in the app or in the chat: whoever set it chose a server that never
//!   writes.
//!
//! The preview is one clean line (`display::text`) before anyone sees it: names in it come from the
//! caller or from Garmin, and a line break in one must not write a line of its own into a question.
//!
//! (`--readonly` goes further: write tools are not even listed.) Every change that reached Garmin
//! is recorded in the journal (`garmin::journal`) with its inverse and how it was confirmed
//! ([`ConfirmedBy`]), for `list_changes` and `undo_change`.

use std::collections::BTreeMap;
use std::future::Future;
use std::path::Path;
use std::pin::Pin;
use std::time::Duration;

use app_bridge::{
    AppLink, BridgeError, MAX_PREVIEW_CHARS, MAX_REASON_CHARS, Proposal, Reply, Request, clean_display_text,
};
use chrono::NaiveDate;
use garmin::Client;
use garmin::apply::{Done, FollowUps, MadeBy, apply_and_journal};
use garmin::changes::Change;
use garmin::journal::{ConfirmedBy, Journal};
use rmcp::RoleServer;
use rmcp::model::ElicitationAction;
use rmcp::schemars;
use rmcp::service::RequestContext;
use serde::Serialize;
use serde_json::Value;

use crate::elicit::{Accepted, Asked, Chat, Question, client_can_ask, wait_words};
use crate::output::Answer;
use crate::tool_error::ToolError;

/// `1` (or `true`/`yes`) lets write tools write when called with `confirm: true`.
pub const ALLOW_WRITE_ENV: &str = "GARMIN_ALLOW_WRITE";
/// `0` (or `false`/`no`/`off`) turns off the app's confirmation window.
pub const EDITOR_ENV: &str = "GARMIN_WORKOUT_EDITOR";

/// How long a tool waits for the person's decision in the app.
const DECISION_WAIT: Duration = Duration::from_secs(300);

/// Who confirms a write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteMode {
    /// The person, in the desktop app's window.
    AskApp,
    /// The assistant, with `confirm: true` (after asking the person in the chat).
    Direct,
    /// Nobody: previews only.
    PreviewOnly,
}

impl WriteMode {
    /// The mode this process's environment asks for.
    pub fn from_env() -> Self {
        Self::from_settings(
            std::env::var(ALLOW_WRITE_ENV).ok().as_deref(),
            std::env::var(EDITOR_ENV).ok().as_deref(),
        )
    }

    /// The mode for these values of [`ALLOW_WRITE_ENV`] and [`EDITOR_ENV`].
    pub fn from_settings(allow_write: Option<&str>, editor: Option<&str>) -> Self {
        let yes = |v: &str| matches!(v.trim().to_ascii_lowercase().as_str(), "1" | "true" | "yes" | "on");
        let no = |v: &str| matches!(v.trim().to_ascii_lowercase().as_str(), "0" | "false" | "no" | "off");
        if allow_write.is_some_and(yes) {
            WriteMode::Direct
        } else if editor.is_some_and(no) {
            WriteMode::PreviewOnly
        } else {
            WriteMode::AskApp
        }
    }
}

/// A change a tool wants to make.
#[derive(Debug)]
pub(crate) struct Proposed {
    /// The change.
    pub change: Change,
    /// The plain-words preview (with totals for workouts).
    pub preview: String,
    /// For a new workout: the assistant's spec, for the app's editor.
    pub spec: Option<Value>,
    /// For an undo: the journal entry it takes back.
    pub undoes: Option<u64>,
}

/// What became of a proposed write.
#[derive(Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum WriteStatus {
    /// Garmin has it.
    Written,
    /// Nothing was written; the preview shows what would be.
    Preview,
    /// The person said no or did not confirm (in the app or in the chat); nothing was written.
    Cancelled,
}

/// The answer of every write tool.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct WriteOutcome {
    /// Written, preview (nothing written) or cancelled.
    pub status: WriteStatus,
    /// What the change is, in words.
    pub preview: String,
    /// The changes made, in order (a new workout may also be scheduled and sent).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<DoneChange>,
    /// When nothing was written: how to make it happen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub how_to_write: Option<String>,
}

/// One change that reached Garmin.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct DoneChange {
    /// Its number in the journal (for `undo_change`).
    pub change_id: Option<u64>,
    /// What was done.
    pub summary: String,
    /// Ids created or touched (`workout_id`, `schedule_id`, `event_id`, `device_id`).
    pub ids: BTreeMap<String, u64>,
    /// Whether `undo_change` can take it back.
    pub can_undo: bool,
}

impl From<Done> for DoneChange {
    fn from(done: Done) -> Self {
        DoneChange {
            change_id: done.change_id,
            summary: done.summary,
            ids: done.ids,
            can_undo: done.can_undo,
        }
    }
}

/// Where a write gets the web session it writes through: asked only when something is written, so
/// a preview needs no sign-in. The server gives its call's session (`GarminMcp::writes`).
pub(crate) trait WebSession: Sync {
    /// The web session of the shared session file, or why there is none.
    fn web_session(&self) -> Pin<Box<dyn Future<Output = Result<Client, ToolError>> + Send + '_>>;
}

/// One tool call's door to the safety model: the settings and parts the write flow uses, named one
/// by one (the server builds it for each call, `GarminMcp::writes`), so the flow depends on these
/// and not on the server type, and the server type carries no write logic.
pub(crate) struct Writes<'a> {
    /// Who confirms.
    pub mode: WriteMode,
    /// The data folder: the app's local bridge and the journal are found there.
    pub data_dir: &'a Path,
    /// Whether the desktop app on this computer may be asked (not over HTTP without `--with-app`).
    pub may_use_app: bool,
    /// Whether the app may be started when it is not running (never for the demo).
    pub may_start_app: bool,
    /// Serving the demo account: answers and questions say so.
    pub demo: bool,
    /// The athlete's today, for the days the person types into a question.
    pub today: NaiveDate,
    /// Where the person can be asked in the chat.
    pub chat: Chat<'a>,
    /// The web session writes go through.
    pub session: &'a dyn WebSession,
}

impl Writes<'_> {
    /// Runs `proposed` through the safety model (see the module docs).
    pub(crate) async fn propose(
        &self,
        proposed: Proposed,
        confirm: bool,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<Answer<WriteOutcome>, ToolError> {
        // One clean line, whatever names it quotes: the same preview goes into the app's window,
        // the question in the chat and the answer, and a name must never start a line there.
        let proposed =
            Proposed { preview: clean_display_text(&proposed.preview, MAX_PREVIEW_CHARS), ..proposed };
        match self.mode {
            WriteMode::Direct if confirm => {
                let preview = proposed.preview.clone();
                let changes = self
                    .apply(proposed.change, proposed.undoes, FollowUps::default(), ConfirmedBy::AllowWrite)
                    .await?;
                Ok(self.written(preview, changes))
            }
            WriteMode::Direct => Ok(self.preview(
                proposed.preview,
                "Nothing was written (dry run). Show this to the person and, if they agree, call the tool again with the same arguments and confirm: true.",
            )),
            WriteMode::PreviewOnly => Ok(self.preview(proposed.preview, &how_to_enable_writes())),
            WriteMode::AskApp => self.ask_person(proposed, ctx).await,
        }
    }

    /// Asks the person: the running app, else the chat, else the app started now (see the module
    /// docs).
    async fn ask_person(
        &self,
        proposed: Proposed,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<Answer<WriteOutcome>, ToolError> {
        let link = AppLink::in_dir(self.data_dir);
        // Over HTTP without `--with-app`, callers may not use the app on this computer (nor start
        // it); the person in their chat may still be asked.
        if self.may_use_app && link.is_running().await {
            return self.ask_app(proposed, link, ctx).await;
        }
        if client_can_ask(ctx) {
            return self.ask_in_chat(proposed, ctx).await;
        }
        if !self.may_use_app {
            return Ok(self.preview(proposed.preview, &how_to_enable_writes_over_http()));
        }
        // The demo's data folder is a temporary one no app watches: never start the app for it.
        if !crate::app::reach(&link, self.may_start_app).await {
            return Ok(self.preview(proposed.preview, &format!("{} {NO_CHAT}", how_to_enable_writes())));
        }
        self.ask_app(proposed, link, ctx).await
    }

    async fn ask_app(
        &self,
        proposed: Proposed,
        link: AppLink,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<Answer<WriteOutcome>, ToolError> {
        let proposal = Proposal {
            title: proposed.change.describe(),
            preview: proposed.preview.clone(),
            change: proposed.change.clone(),
            spec: proposed.spec.clone(),
            requested_by: ctx.peer.peer_info().map(|info| info.client_info.name.clone()),
            demo: self.demo,
        }
        .for_display();
        let request = Request::Confirm(proposal.clone());
        let reply = crate::app::wait_with_progress(
            link.ask(&request, DECISION_WAIT),
            ctx,
            "Waiting for the person to confirm in the Garmin MCP app…",
        )
        .await;
        match reply {
            Ok(Reply::Approved { change, schedule_on, send_to_device, device_id }) => {
                // Only a decision of the proposal's own kind is applied (an edited new workout,
                // its schedule and send); anything else the app answers writes nothing.
                if let Err(why) = proposal.check_approval(&change, schedule_on, send_to_device, device_id) {
                    tracing::warn!("refused the app's approval: {why}");
                    return Err(ToolError::Local(format!(
                        "The Garmin MCP app answered with a change that was not proposed ({why}); nothing was written. Ask the person to look at the app, update the app and the server together, and try again."
                    )));
                }
                let change = match change {
                    // A new workout never carries the ids of an existing one.
                    Change::CreateWorkout { workout } => {
                        Change::CreateWorkout { workout: Box::new(workout.for_create()) }
                    }
                    other => other,
                };
                let follow = FollowUps { schedule_on, send_to_device, device_id };
                let changes = self.apply(change, proposed.undoes, follow, ConfirmedBy::App).await?;
                Ok(self.written(proposed.preview, changes))
            }
            Ok(Reply::Cancelled { reason }) => {
                let why = reason
                    .map(|r| clean_display_text(&r, MAX_REASON_CHARS))
                    .filter(|r| !r.is_empty())
                    .map_or_else(String::new, |r| format!(" ({r})"));
                Ok(self.answer(
                    format!("The person cancelled this in the Garmin MCP app{why}; nothing was written."),
                    WriteOutcome {
                        status: WriteStatus::Cancelled,
                        preview: proposed.preview,
                        changes: Vec::new(),
                        how_to_write: None,
                    },
                ))
            }
            Ok(Reply::Failed { message }) => Err(ToolError::Local(format!(
                "The Garmin MCP app could not show the confirmation: {}. Nothing was written.",
                clean_display_text(&message, MAX_REASON_CHARS)
            ))),
            Ok(other) => Err(ToolError::Local(format!(
                "The Garmin MCP app answered {} to a confirmation request; nothing was written. Update the app and the server together.",
                clean_display_text(&format!("{other:?}"), MAX_REASON_CHARS)
            ))),
            Err(BridgeError::TimedOut(wait)) => Err(ToolError::Local(format!(
                "Nobody confirmed within {} minutes, so nothing was written. Ask the person to look at the Garmin MCP app and try again.",
                wait.as_secs() / 60
            ))),
            Err(e) => Ok(self.preview(proposed.preview, &format!("{e}. {}", how_to_enable_writes()))),
        }
    }

    /// Asks the person in the chat to confirm `proposed` (see the module docs) and writes exactly
    /// what they accepted.
    async fn ask_in_chat(
        &self,
        proposed: Proposed,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<Answer<WriteOutcome>, ToolError> {
        let question = Question::for_change(&proposed.change, proposed.undoes, &proposed.preview, self.demo);
        let waiting = "Waiting for the person to answer the confirmation question in the chat…";
        let answer = match self.chat.ask(question.params(), ctx, waiting).await {
            Asked::Answered(answer) => answer,
            Asked::Cancelled => {
                return Err(ToolError::Local(
                    "The call was cancelled while the person was being asked; nothing was written."
                        .to_owned(),
                ));
            }
            Asked::TimedOut(timeout) => {
                return Err(ToolError::Local(format!(
                    "Nobody answered the confirmation question in the chat within {}, so nothing was written. Ask the person whether they still want this change before calling again.",
                    wait_words(timeout)
                )));
            }
            Asked::Busy(why) => return Err(ToolError::Local(why)),
            Asked::Failed(why) => {
                return Ok(self.preview(
                    proposed.preview,
                    &format!(
                        "This AI client could not show the confirmation question ({why}), so nothing was written. {}",
                        how_to_enable_writes()
                    ),
                ));
            }
        };
        let not_written = |summary: String| {
            self.answer(
                summary,
                WriteOutcome {
                    status: WriteStatus::Cancelled,
                    preview: proposed.preview.clone(),
                    changes: Vec::new(),
                    how_to_write: None,
                },
            )
        };
        match answer.action {
            ElicitationAction::Decline => Ok(not_written(
                "The person declined this change in the chat, so nothing was written. Do not call again for it unless they ask; if they saw no question, their AI client declines such questions by itself, and they can confirm in the Garmin MCP app instead.".to_owned(),
            )),
            ElicitationAction::Cancel => Ok(not_written(
                "The person dismissed the confirmation question without answering, so nothing was written. Ask them in words whether they want this change before calling again.".to_owned(),
            )),
            ElicitationAction::Accept => {
                match question.read_answer(&proposed.change, answer.content.as_ref(), self.today) {
                    Err(why) => Err(ToolError::Local(format!(
                        "The answer to the confirmation question cannot be used: {why}. Nothing was written; call the tool again to ask the person once more."
                    ))),
                    Ok(Accepted::NotConfirmed) => Ok(not_written(
                        "The person submitted the confirmation without ticking \"Yes, write this\", so nothing was written. Ask them in words whether they want this change before calling again.".to_owned(),
                    )),
                    Ok(Accepted::NothingChosen) => Ok(not_written(
                        "The person confirmed with neither a day to schedule the workout nor sending it to the watch, so there was nothing to write.".to_owned(),
                    )),
                    Ok(Accepted::Write(plan)) => {
                        let mut changes = self
                            .apply(plan.change, proposed.undoes, plan.follow_ups, ConfirmedBy::Elicitation)
                            .await?;
                        for next in plan.then {
                            let describe = next.describe();
                            match self.apply(next, None, FollowUps::default(), ConfirmedBy::Elicitation).await {
                                Ok(done) => changes.extend(done),
                                Err(e) => changes.push(DoneChange {
                                    change_id: None,
                                    summary: format!("Not done: {describe} — {}", e.message()),
                                    ids: Default::default(),
                                    can_undo: false,
                                }),
                            }
                        }
                        Ok(self.written(proposed.preview, changes))
                    }
                }
            }
            other => Ok(not_written(format!(
                "The chat client answered the confirmation question with {other:?}, which this server does not know, so nothing was written."
            ))),
        }
    }

    /// Applies `change` and the follow-ups, recording each in the journal as confirmed by
    /// `confirmed_by` (`garmin::apply`).
    pub(crate) async fn apply(
        &self,
        change: Change,
        undoes: Option<u64>,
        follow_ups: FollowUps,
        confirmed_by: ConfirmedBy,
    ) -> Result<Vec<DoneChange>, ToolError> {
        let client = self.session.web_session().await?;
        let journal = Journal::in_dir(self.data_dir);
        let made_by = MadeBy::Assistant(confirmed_by);
        let done = apply_and_journal(&client, &journal, made_by, &change, undoes, &follow_ups).await?;
        Ok(done.into_iter().map(DoneChange::from).collect())
    }

    pub(crate) fn written(&self, preview: String, changes: Vec<DoneChange>) -> Answer<WriteOutcome> {
        let summary = changes.iter().map(|c| c.summary.as_str()).collect::<Vec<_>>().join(". ");
        let undo = changes
            .iter()
            .filter(|c| c.can_undo)
            .filter_map(|c| c.change_id)
            .map(|id| format!("#{id}"))
            .collect::<Vec<_>>();
        let undo = if undo.is_empty() {
            String::new()
        } else {
            format!(" (undo with undo_change: {})", undo.join(", "))
        };
        self.answer(
            format!("{summary}.{undo}"),
            WriteOutcome { status: WriteStatus::Written, preview, changes, how_to_write: None },
        )
    }

    pub(crate) fn preview(&self, preview: String, how_to_write: &str) -> Answer<WriteOutcome> {
        self.answer(
            format!("Preview only — nothing was written. {preview}\n{how_to_write}"),
            WriteOutcome {
                status: WriteStatus::Preview,
                preview,
                changes: Vec::new(),
                how_to_write: Some(how_to_write.to_owned()),
            },
        )
    }

    /// An answer, labelled as demo data when serving the demo account.
    fn answer(&self, summary: impl Into<String>, data: WriteOutcome) -> Answer<WriteOutcome> {
        Answer::for_account(self.demo, summary, data)
    }
}

/// The exact ways to let writes through.
pub(crate) fn how_to_enable_writes() -> String {
    format!(
        "To write it, either open the Garmin MCP desktop app (it shows each change for the person to approve) and call the tool again, or set {ALLOW_WRITE_ENV}=1 in this MCP server's environment (the `env` of its entry in the AI client's settings), restart the client, and call again with confirm: true after the person agreed."
    )
}

/// Said when the client could not be asked in the chat either.
const NO_CHAT: &str = "(An AI client that supports MCP elicitation would be asked to confirm in the chat instead; this one did not declare it.)";

fn how_to_enable_writes_over_http() -> String {
    format!(
        "This HTTP server may not ask the person on its computer to approve changes (it was started without --with-app). To write it, the person who runs the server restarts it with `--with-app` (the Garmin MCP desktop app then shows each change for approval), or with {ALLOW_WRITE_ENV}=1 in its environment, and you call again with confirm: true after the person agreed. {NO_CHAT}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allow_write_wins_then_editor_off_means_preview_only_else_the_app_confirms() {
        assert_eq!(WriteMode::from_settings(Some("1"), Some("0")), WriteMode::Direct);
        assert_eq!(WriteMode::from_settings(Some("true"), None), WriteMode::Direct);
        assert_eq!(WriteMode::from_settings(Some("0"), Some("off")), WriteMode::PreviewOnly);
        assert_eq!(WriteMode::from_settings(None, Some("1")), WriteMode::AskApp);
        assert_eq!(WriteMode::from_settings(None, None), WriteMode::AskApp);
    }
}
