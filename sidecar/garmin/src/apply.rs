//! Making an approved change and keeping it in the journal: the one path every write to Garmin
//! takes, whether an MCP tool makes it (after the person approved it) or the desktop app's own
//! buttons do (a workout created by hand, an undo).
//!
//! A new workout may bring follow-ups (put it on the calendar, send it to the watch). Each is
//! applied and journaled as its own entry, so each can be listed and undone on its own. A follow-up
//! that fails is reported in words and does not take back what was done before it; a journal that
//! cannot be written does not undo Garmin's write either: the summary says it cannot be undone here.
//!
//! An undo that would remove something already gone from Garmin (a calendar entry, workout or event
//! deleted in Garmin Connect since) is done, not failed: Garmin answers 404 for it every time, and
//! failing would block undoing anything older. It is journaled as the undo, saying it was gone.

use std::collections::BTreeMap;

use chrono::NaiveDate;

use crate::Client;
use crate::changes::{Applied, Change};
use crate::journal::{ConfirmedBy, Journal, JournalEntry};

/// Who made a change, as the journal's `tool` and `confirmed_by` record it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MadeBy {
    /// An MCP tool (after the person approved, as the [`ConfirmedBy`] says): `create_workout`,
    /// `undo_change`, …
    Assistant(ConfirmedBy),
    /// The desktop app's own buttons: `app: create_workout`, `app: undo_change`, …
    App,
}

impl MadeBy {
    /// How the person confirmed the change.
    pub fn confirmed_by(self) -> ConfirmedBy {
        match self {
            MadeBy::Assistant(confirmed_by) => confirmed_by,
            MadeBy::App => ConfirmedBy::App,
        }
    }

    /// The journal's `tool` for `change` (an undo when it `undoes` an entry).
    pub fn tool_label(self, change: &Change, undoes: Option<u64>) -> String {
        let tool = if undoes.is_some() { "undo_change" } else { change.tool_name() };
        match self {
            MadeBy::Assistant(_) => tool.to_owned(),
            MadeBy::App => format!("app: {tool}"),
        }
    }
}

/// What to do right after creating a workout (ignored for other changes).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FollowUps {
    /// Put the new workout on the calendar on this day.
    pub schedule_on: Option<NaiveDate>,
    /// Send the new workout to the watch.
    pub send_to_device: bool,
    /// Which watch; `None` = the last used one.
    pub device_id: Option<u64>,
}

/// One change that was made (or a follow-up that could not be).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Done {
    /// Its number in the journal; `None` when it was not journaled (or not done).
    pub change_id: Option<u64>,
    /// What was done, in words ("Not done: …" for a follow-up that failed).
    pub summary: String,
    /// Ids created or touched (`workout_id`, `schedule_id`, `event_id`, `device_id`).
    pub ids: BTreeMap<String, u64>,
    /// Whether it can be taken back now.
    pub can_undo: bool,
}

/// Applies `change` (the undo of entry `undoes`, when given), then for a new workout the
/// `follow_ups`, recording each in `journal` as made by `made_by`. Fails only when `change` itself
/// fails (nothing was written then); the follow-ups' failures are in the returned list.
pub async fn apply_and_journal(
    client: &Client,
    journal: &Journal,
    made_by: MadeBy,
    change: &Change,
    undoes: Option<u64>,
    follow_ups: &FollowUps,
) -> crate::Result<Vec<Done>> {
    let first = match change.apply(client).await {
        Ok(applied) => applied,
        Err(crate::Error::NotFound { .. }) if undoes.is_some() && change.removes() => already_gone(change),
        Err(e) => return Err(e),
    };
    let mut done = vec![record(journal, made_by, change, &first, undoes)];
    let created = match change {
        Change::CreateWorkout { .. } => first.ids.get("workout_id").copied(),
        _ => None,
    };
    let Some(workout_id) = created else { return Ok(done) };
    let mut next = Vec::new();
    if let Some(date) = follow_ups.schedule_on {
        next.push(Change::ScheduleWorkout { workout_id, date });
    }
    if follow_ups.send_to_device {
        next.push(Change::SendToDevice { workout_id, device_id: follow_ups.device_id });
    }
    for change in next {
        match change.apply(client).await {
            Ok(applied) => done.push(record(journal, made_by, &change, &applied, None)),
            Err(e) => done.push(Done {
                change_id: None,
                summary: format!("Not done: {} — {e}", change.describe()),
                ids: BTreeMap::new(),
                can_undo: false,
            }),
        }
    }
    Ok(done)
}

/// What an undo did when what it was to remove was already gone from Garmin: nothing to write,
/// nothing to take back.
fn already_gone(change: &Change) -> Applied {
    let (what, key, id) = match change {
        Change::UnscheduleWorkout { schedule_id } => ("Calendar entry", "schedule_id", *schedule_id),
        Change::DeleteWorkout { workout_id } => ("Workout", "workout_id", *workout_id),
        Change::RemoveEvent { event_id } => ("Event", "event_id", *event_id),
        _ => ("The item", "id", 0),
    };
    Applied {
        summary: format!(
            "{what} {id} was already gone from Garmin (removed there since), so there was nothing left to undo"
        ),
        ids: BTreeMap::from([(key.to_owned(), id)]),
        answer: serde_json::json!({"already_gone": true}),
        inverse: None,
    }
}

/// Journals an applied change; a journal that cannot be written is said in the summary.
fn record(
    journal: &Journal,
    made_by: MadeBy,
    change: &Change,
    applied: &Applied,
    undoes: Option<u64>,
) -> Done {
    match journal.record(&made_by.tool_label(change, undoes), made_by.confirmed_by(), change, applied, undoes)
    {
        Ok(JournalEntry { id, inverse, .. }) => Done {
            change_id: Some(id),
            summary: applied.summary.clone(),
            ids: applied.ids.clone(),
            can_undo: inverse.is_some() && undoes.is_none(),
        },
        Err(e) => {
            tracing::warn!("{e}");
            Done {
                change_id: None,
                summary: format!("{} (not journaled, so it cannot be undone here: {e})", applied.summary),
                ids: applied.ids.clone(),
                can_undo: false,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_journal_tool_names_the_app_when_the_app_made_the_change() {
        let create = Change::DeleteWorkout { workout_id: 3 };
        let assistant = MadeBy::Assistant(ConfirmedBy::Elicitation);
        assert_eq!(assistant.tool_label(&create, None), "delete_workout");
        assert_eq!(assistant.tool_label(&create, Some(2)), "undo_change");
        assert_eq!(assistant.confirmed_by(), ConfirmedBy::Elicitation);
        assert_eq!(MadeBy::App.confirmed_by(), ConfirmedBy::App);
        assert_eq!(MadeBy::App.tool_label(&create, None), "app: delete_workout");
        assert_eq!(MadeBy::App.tool_label(&create, Some(2)), "app: undo_change");
    }
}
