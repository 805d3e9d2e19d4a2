//! The app's own writes to Garmin, made when the person clicks (they are the ones confirming): a
//! workout created by hand in the home window, and Undo in the list of recent changes.
//!
//! Both go through `garmin::apply`, the same path a sidecar takes after the person approved its
//! proposal, so every change lands in the one journal (`changes.jsonl` of the account's data
//! folder) that `list_changes` / `undo_change` read, marked `app: …`. The workout spec is parsed
//! and translated by `garmin::workout_spec` (see `confirm::change_from_spec`); nothing here knows
//! Garmin's shapes.

use std::collections::BTreeMap;

use chrono::{DateTime, NaiveDate, Utc};
use garmin::SessionStore;
use garmin::apply::{Done, FollowUps, MadeBy, apply_and_journal};
use garmin::journal::{Journal, JournalError};
use serde::Serialize;
use serde_json::Value;
use tauri::State;

use crate::confirm::change_from_spec;
use crate::error::{Error, ErrorCode, Result};
use crate::state::Accounts;

/// Most changes the list shows.
const MAX_LISTED: usize = 200;

/// One change made (or a follow-up that could not be), as the UI shows it.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct DoneView {
    /// Its number in the journal (`None` when it was not journaled or not done).
    pub change_id: Option<u64>,
    /// What was done, in words (English).
    pub summary: String,
    /// Ids created or touched (`workout_id`, `schedule_id`, …).
    pub ids: BTreeMap<String, u64>,
    /// Whether Undo can take it back.
    pub can_undo: bool,
}

impl From<Done> for DoneView {
    fn from(done: Done) -> Self {
        DoneView { change_id: done.change_id, summary: done.summary, ids: done.ids, can_undo: done.can_undo }
    }
}

/// A journal entry in the recent-changes list.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct ChangeRowView {
    /// Its number (what Undo takes).
    pub id: u64,
    /// When Garmin accepted it.
    pub time: DateTime<Utc>,
    /// Who made it: an MCP tool's name, or `app: …` for the app's buttons.
    pub tool: String,
    /// What was done, in words (English).
    pub summary: String,
    /// `done`, `undone` or `undo of #n`.
    pub state: String,
    /// Whether Undo can take it back now.
    pub can_undo: bool,
    /// How the person confirmed it: `app`, `elicitation` (in the chat) or `allow_write`
    /// (`GARMIN_ALLOW_WRITE`); `None` in journals written before this was recorded.
    pub confirmed_by: Option<garmin::journal::ConfirmedBy>,
}

/// Creates the workout `spec` in the account shown, then optionally schedules it on `schedule_on`
/// and sends it to the last used watch; each step is journaled.
#[tauri::command]
pub async fn create_workout_by_hand(
    accounts: State<'_, Accounts>,
    spec: Value,
    schedule_on: Option<NaiveDate>,
    send_to_device: bool,
) -> Result<Vec<DoneView>> {
    let (store, _demo) = accounts.active();
    let follow_ups = FollowUps { schedule_on, send_to_device, device_id: None };
    create_and_journal(&store, &spec, &follow_ups).await
}

/// The account's recent changes, newest first (at most `limit`, default 20).
#[tauri::command]
pub async fn recent_changes(
    accounts: State<'_, Accounts>,
    limit: Option<usize>,
) -> Result<Vec<ChangeRowView>> {
    let (store, _demo) = accounts.active();
    recent(&store, limit.unwrap_or(20))
}

/// Takes back change `id` of the account shown (deletes what was created, unschedules what was
/// scheduled, re-creates what was deleted from the journaled copy).
#[tauri::command]
pub async fn undo_change(accounts: State<'_, Accounts>, id: u64) -> Result<Vec<DoneView>> {
    let (store, _demo) = accounts.active();
    undo(&store, id).await
}

/// Creates `spec` in the account of `store` with its follow-ups, journaled as the app's.
pub async fn create_and_journal(
    store: &SessionStore,
    spec: &Value,
    follow_ups: &FollowUps,
) -> Result<Vec<DoneView>> {
    let change = change_from_spec(spec)?;
    let client = garmin::Client::from_store(store.clone())?;
    let journal = Journal::in_dir(store.dir());
    let done = apply_and_journal(&client, &journal, MadeBy::App, &change, None, follow_ups).await?;
    Ok(done.into_iter().map(DoneView::from).collect())
}

/// The newest `limit` changes in the journal of `store`'s account.
pub fn recent(store: &SessionStore, limit: usize) -> Result<Vec<ChangeRowView>> {
    let history = Journal::in_dir(store.dir()).history().map_err(journal_error)?;
    Ok(history
        .into_iter()
        .take(limit.clamp(1, MAX_LISTED))
        .map(|item| ChangeRowView {
            id: item.entry.id,
            time: item.entry.time,
            tool: item.entry.tool,
            summary: item.entry.summary,
            state: item.state.to_string(),
            can_undo: item.can_undo,
            confirmed_by: item.entry.confirmed_by,
        })
        .collect())
}

/// Undoes entry `id` of `store`'s journal through its recorded inverse, journaled as the app's.
pub async fn undo(store: &SessionStore, id: u64) -> Result<Vec<DoneView>> {
    let journal = Journal::in_dir(store.dir());
    let entry = journal.undo_candidate(Some(id)).map_err(journal_error)?.map_err(|why| {
        Error::new(ErrorCode::InvalidInput, format!("{why}; the list shows what can be undone"))
    })?;
    let Some(inverse) = entry.inverse else {
        return Err(Error::new(ErrorCode::InvalidInput, format!("change #{id} cannot be undone")));
    };
    let client = garmin::Client::from_store(store.clone())?;
    let done =
        apply_and_journal(&client, &journal, MadeBy::App, &inverse, Some(id), &FollowUps::default()).await?;
    Ok(done.into_iter().map(DoneView::from).collect())
}

fn journal_error(e: JournalError) -> Error {
    Error::new(ErrorCode::Other, format!("{e}; check that the data folder is readable and writable"))
}
