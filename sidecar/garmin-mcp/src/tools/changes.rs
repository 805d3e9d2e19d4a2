//! The `changes` toolset: `list_changes` reads the journal of changes made to the Garmin account
//! (`garmin::journal`), `undo_change` takes one back (default: the last one) through the same
//! safety model as every write ([`crate::writes`]).

use garmin::journal::{ConfirmedBy, Journal};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::service::RequestContext;
use rmcp::{RoleServer, schemars, tool, tool_router};
use serde::{Deserialize, Serialize};

use crate::output::Answer;
use crate::server::GarminMcp;
use crate::tool_error::ToolError;
use crate::writes::{Proposed, WriteOutcome};

/// Arguments of `list_changes`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct ListChangesArgs {
    /// Most recent changes to list (default 20).
    #[serde(default)]
    #[schemars(range(min = 1, max = 200))]
    pub limit: Option<usize>,
}

/// Arguments of `undo_change`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct UndoChangeArgs {
    /// The change number from list_changes (default: the last change that can be undone).
    #[serde(default)]
    pub change_id: Option<u64>,
    /// Write now (see create_workout).
    #[serde(default)]
    pub confirm: bool,
}

/// The journal, newest first.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct ChangeList {
    /// Changes, newest first.
    pub changes: Vec<ChangeRow>,
    /// How many changes the journal holds in all.
    pub total: usize,
}

/// One journal entry.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct ChangeRow {
    /// Its number (for undo_change).
    pub change_id: u64,
    /// When, UTC (RFC 3339).
    pub time: String,
    /// The tool that made it.
    pub tool: String,
    /// How the person confirmed it: `app` (in the Garmin MCP app), `elicitation` (in the chat,
    /// answering the server's question) or `allow_write` (nobody was asked: the server allows
    /// direct writes and the call had confirm: true); absent for changes from before this was
    /// recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confirmed_by: Option<ConfirmedBy>,
    /// What was done.
    pub summary: String,
    /// Ids created or touched.
    pub ids: std::collections::BTreeMap<String, u64>,
    /// `done`, `undone` (taken back by a later change), or `undo of #n`.
    pub state: String,
    /// Whether undo_change can take it back now.
    pub can_undo: bool,
}

#[tool_router(router = changes_tools, vis = "pub(crate)")]
impl GarminMcp {
    /// List the changes this server made to the person's Garmin account (workouts created,
    /// scheduled, sent, deleted; events added or removed; strength sets corrected; undos), newest
    /// first, with the number undo_change needs. Reads a local journal only.
    #[tool(
        name = "list_changes",
        annotations(title = "List changes made to Garmin", read_only_hint = true, open_world_hint = false),
        output_schema = rmcp::handler::server::tool::schema_for_output::<ChangeList>()
    )]
    async fn list_changes(
        &self,
        Parameters(args): Parameters<ListChangesArgs>,
    ) -> Result<Answer<ChangeList>, ToolError> {
        let journal = Journal::in_dir(self.store().dir());
        let history = journal.history().map_err(|e| ToolError::Local(e.to_string()))?;
        let total = history.len();
        let limit = args.limit.unwrap_or(20).clamp(1, 200);
        let changes: Vec<ChangeRow> = history
            .into_iter()
            .take(limit)
            .map(|item| ChangeRow {
                change_id: item.entry.id,
                time: item.entry.time.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
                tool: item.entry.tool,
                confirmed_by: item.entry.confirmed_by,
                summary: item.entry.summary,
                ids: item.entry.ids,
                state: item.state.to_string(),
                can_undo: item.can_undo,
            })
            .collect();
        let summary = match changes.first() {
            None => "No changes have been made to the Garmin account from here yet.".to_owned(),
            Some(last) => format!(
                "{} change(s) in the journal; the latest is #{}: {} ({}{}).",
                total,
                last.change_id,
                last.summary,
                last.state,
                last.confirmed_by.map_or_else(String::new, |how| format!(", {}", how.words()))
            ),
        };
        Ok(self.answer(summary, ChangeList { changes, total }))
    }

    /// Undo a change made from here (default: the last one that can be undone): deletes what was
    /// created, unschedules what was scheduled, re-creates a deleted workout or event from the
    /// journaled copy, puts a strength session's previous sets back. A workout already sent to a
    /// watch cannot be recalled. Confirmed like create_workout.
    #[tool(
        name = "undo_change",
        annotations(
            title = "Undo a change",
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = false,
            open_world_hint = true
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<WriteOutcome>()
    )]
    async fn undo_change(
        &self,
        Parameters(args): Parameters<UndoChangeArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<Answer<WriteOutcome>, ToolError> {
        let journal = Journal::in_dir(self.store().dir());
        let entry = journal
            .undo_candidate(args.change_id)
            .map_err(|e| ToolError::Local(e.to_string()))?
            // Nothing left to undo is a state of the journal; a bad change number is a bad argument.
            .map_err(|why| {
                if args.change_id.is_some() { ToolError::invalid(why) } else { ToolError::NoData(why) }
            })?;
        let Some(inverse) = entry.inverse.clone() else {
            return Err(ToolError::invalid(format!("change #{} cannot be undone", entry.id)));
        };
        let proposed = Proposed {
            preview: format!("Undo #{} ({}): {}", entry.id, entry.summary, inverse.describe()),
            change: inverse,
            spec: None,
            undoes: Some(entry.id),
        };
        self.writes().propose(proposed, args.confirm, &ctx).await
    }
}
