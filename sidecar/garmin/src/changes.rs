//! Every change this product can make to a Garmin account, as data: what to do ([`Change`]), how
//! to do it ([`Change::apply`]), and how to take it back (the inverse [`Applied::inverse`]).
//!
//! Keeping writes as values lets one code path serve the MCP write tools, the desktop app's
//! confirmation window and `undo_change`: a proposal is a `Change` shown to the person; once
//! approved it is applied, and the journal ([`crate::journal`]) keeps the change, Garmin's answer
//! and the inverse. Before a delete the thing is read, so its inverse can re-create it; before a
//! strength session's sets are replaced, the sets Garmin holds are read, so the inverse restores them.
//! A device message cannot be recalled (the watch may already have it): it has no inverse.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::models::events::Event;
use crate::models::workouts::Workout;
use crate::strength_edit::{self, SavedSet};
use crate::{Client, Error, Result};

/// One write to the Garmin account.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Change {
    /// Add a workout to the library.
    CreateWorkout {
        /// The workout in Garmin's shape (no ids).
        workout: Box<Workout>,
    },
    /// Delete a workout from the library.
    DeleteWorkout {
        /// The workout.
        workout_id: u64,
    },
    /// Put a library workout on the calendar.
    ScheduleWorkout {
        /// The workout.
        workout_id: u64,
        /// The day.
        date: NaiveDate,
    },
    /// Take a calendar entry off (the workout stays in the library).
    UnscheduleWorkout {
        /// The calendar entry (`workoutScheduleId`).
        schedule_id: u64,
    },
    /// Queue a workout for a watch (it arrives at the next sync).
    SendToDevice {
        /// The workout.
        workout_id: u64,
        /// The device; `None` = the last used one.
        device_id: Option<u64>,
    },
    /// Add a race or event to the calendar.
    AddEvent {
        /// The event in Garmin's shape (no id).
        event: Box<Event>,
    },
    /// Delete a calendar event.
    RemoveEvent {
        /// The event.
        event_id: u64,
    },
    /// Replace every set of a finished strength activity (corrected exercises, reps, weights).
    CorrectStrengthSets {
        /// The strength activity.
        activity_id: u64,
        /// Every set, in order, as Garmin's `PUT` takes them ([`crate::strength_edit`]).
        sets: Vec<SavedSet>,
    },
}

/// What [`Change::apply`] did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Applied {
    /// One sentence: what was done, with names and ids.
    pub summary: String,
    /// Ids that were created or touched (`workout_id`, `schedule_id`, `event_id`, `device_id`…).
    pub ids: BTreeMap<String, u64>,
    /// Garmin's answer (or the copy read before a delete).
    pub answer: Value,
    /// The change that undoes this one, when there is one.
    pub inverse: Option<Change>,
}

impl Change {
    /// A short name of the kind of change, as the tools call it.
    pub fn tool_name(&self) -> &'static str {
        match self {
            Change::CreateWorkout { .. } => "create_workout",
            Change::DeleteWorkout { .. } => "delete_workout",
            Change::ScheduleWorkout { .. } => "schedule_workout",
            Change::UnscheduleWorkout { .. } => "unschedule_workout",
            Change::SendToDevice { .. } => "push_workout_to_device",
            Change::AddEvent { .. } => "add_calendar_event",
            Change::RemoveEvent { .. } => "remove_calendar_event",
            Change::CorrectStrengthSets { .. } => "correct_strength_sets",
        }
    }

    /// True for a change that removes something from the account (an undo of it may find it
    /// already gone).
    pub fn removes(&self) -> bool {
        matches!(
            self,
            Change::DeleteWorkout { .. } | Change::UnscheduleWorkout { .. } | Change::RemoveEvent { .. }
        )
    }

    /// What the change would do, in words (for previews and confirmations).
    pub fn describe(&self) -> String {
        match self {
            Change::CreateWorkout { workout } => {
                format!("Create the workout '{}' in your Garmin library", workout_name(workout))
            }
            Change::DeleteWorkout { workout_id } => {
                format!("Delete workout {workout_id} from your Garmin library")
            }
            Change::ScheduleWorkout { workout_id, date } => {
                format!("Schedule workout {workout_id} on {date}")
            }
            Change::UnscheduleWorkout { schedule_id } => {
                format!("Remove calendar entry {schedule_id} (the workout stays in your library)")
            }
            Change::SendToDevice { workout_id, device_id: Some(device) } => {
                format!("Send workout {workout_id} to device {device} (it arrives at the next sync)")
            }
            Change::SendToDevice { workout_id, device_id: None } => {
                format!("Send workout {workout_id} to your last used device (it arrives at the next sync)")
            }
            Change::AddEvent { event } => format!(
                "Add '{}' on {} to your Garmin calendar",
                shown_name(event.event_name.as_deref(), "event"),
                event.date.map_or_else(|| "?".to_owned(), |d| d.to_string())
            ),
            Change::RemoveEvent { event_id } => format!("Delete event {event_id} from your Garmin calendar"),
            Change::CorrectStrengthSets { activity_id, sets } => format!(
                "Replace the sets of strength activity {activity_id} ({} sets, rests included)",
                sets.len()
            ),
        }
    }

    /// Does it, and says how to undo it. Deletes read the thing first so the inverse can bring it
    /// back; nothing is retried blindly (writes go through the client's write path).
    pub async fn apply(&self, client: &Client) -> Result<Applied> {
        match self {
            Change::CreateWorkout { workout } => {
                let created = client.workouts().create(workout).await?;
                let id = created.workout_id.unwrap_or_default();
                Ok(Applied {
                    summary: format!("Created workout '{}' (id {id})", workout_name(&created)),
                    ids: ids(&[("workout_id", id)]),
                    answer: to_value(&created),
                    inverse: Some(Change::DeleteWorkout { workout_id: id }),
                })
            }
            Change::DeleteWorkout { workout_id } => {
                let copy = client.workouts().get(*workout_id).await?;
                client.workouts().delete(*workout_id).await?;
                Ok(Applied {
                    summary: format!("Deleted workout '{}' (id {workout_id})", workout_name(&copy)),
                    ids: ids(&[("workout_id", *workout_id)]),
                    answer: to_value(&copy),
                    inverse: Some(Change::CreateWorkout { workout: Box::new(copy.for_create()) }),
                })
            }
            Change::ScheduleWorkout { workout_id, date } => {
                let entry = client.workouts().schedule(*workout_id, *date).await?;
                let schedule_id = entry.workout_schedule_id.unwrap_or_default();
                Ok(Applied {
                    summary: format!(
                        "Scheduled workout {workout_id} on {date} (calendar entry {schedule_id})"
                    ),
                    ids: ids(&[("workout_id", *workout_id), ("schedule_id", schedule_id)]),
                    answer: to_value(&entry),
                    inverse: Some(Change::UnscheduleWorkout { schedule_id }),
                })
            }
            Change::UnscheduleWorkout { schedule_id } => {
                let entry = client.workouts().get_schedule(*schedule_id).await?;
                client.workouts().unschedule(*schedule_id).await?;
                let inverse = match (entry.workout_id(), entry.calendar_date) {
                    (Some(workout_id), Some(date)) => Some(Change::ScheduleWorkout { workout_id, date }),
                    _ => None,
                };
                let when = entry.calendar_date.map_or_else(String::new, |d| format!(" on {d}"));
                Ok(Applied {
                    summary: format!("Removed calendar entry {schedule_id}{when}"),
                    ids: ids(&[("schedule_id", *schedule_id)]),
                    answer: to_value(&entry),
                    inverse,
                })
            }
            Change::SendToDevice { workout_id, device_id } => {
                let (device_id, device_name) = resolve_device(client, *device_id).await?;
                let messages = client.workouts().send_to_device(*workout_id, Some(device_id)).await?;
                Ok(Applied {
                    summary: format!(
                        "Sent workout {workout_id} to {device_name} (device {device_id}); it arrives at the next sync"
                    ),
                    ids: ids(&[("workout_id", *workout_id), ("device_id", device_id)]),
                    answer: to_value(&messages),
                    inverse: None,
                })
            }
            Change::AddEvent { event } => {
                let created = client.events().create(event).await?;
                let id = created.id.unwrap_or_default();
                Ok(Applied {
                    summary: format!(
                        "Added '{}' on {} to your calendar (event {id})",
                        shown_name(created.event_name.as_deref(), "event"),
                        created.date.map_or_else(|| "?".to_owned(), |d| d.to_string())
                    ),
                    ids: ids(&[("event_id", id)]),
                    answer: to_value(&created),
                    inverse: Some(Change::RemoveEvent { event_id: id }),
                })
            }
            Change::RemoveEvent { event_id } => {
                let copy = client.events().get(*event_id).await?;
                client.events().delete(*event_id).await?;
                let mut again = copy.clone();
                again.id = None;
                Ok(Applied {
                    summary: format!(
                        "Deleted '{}' (event {event_id}) from your calendar",
                        shown_name(copy.event_name.as_deref(), "event")
                    ),
                    ids: ids(&[("event_id", *event_id)]),
                    answer: to_value(&copy),
                    inverse: Some(Change::AddEvent { event: Box::new(again) }),
                })
            }
            Change::CorrectStrengthSets { activity_id, sets } => {
                replace_sets(client, *activity_id, sets).await
            }
        }
    }
}

/// Replaces the sets of strength activity `activity_id` with `sets`, reading the sets Garmin holds
/// first: the inverse puts them back. Sets added or removed in Connect since the correction was
/// prepared (a different count) stop it: replacing them would lose that edit.
async fn replace_sets(client: &Client, activity_id: u64, sets: &[SavedSet]) -> Result<Applied> {
    let previous = client.activities().exercise_sets(activity_id).await?;
    let previous = previous.map(|p| strength_edit::saved_sets(&p)).unwrap_or_default();
    if previous.is_empty() {
        return Err(Error::InvalidInput(format!(
            "activity {activity_id} has no strength sets in Garmin Connect to replace (is it a strength activity?)"
        )));
    }
    if previous.len() != sets.len() {
        return Err(Error::InvalidInput(format!(
            "the sets of activity {activity_id} changed in Garmin Connect since this correction was prepared ({} sets then, {} now); nothing was changed: ask for the correction again",
            sets.len(),
            previous.len()
        )));
    }
    client.activities().replace_exercise_sets(activity_id, sets).await.map_err(|e| match e {
        Error::Rejected { status: 400, endpoint, message } => Error::Rejected {
            status: 400,
            endpoint,
            message: format!(
                "{message} — Garmin did not take the sets (an exercise, category or set it does not accept); nothing was changed"
            ),
        },
        other => other,
    })?;
    Ok(Applied {
        summary: format!(
            "Replaced the sets of strength activity {activity_id}: {} of {} changed",
            strength_edit::sets_changed(&previous, sets),
            sets.len()
        ),
        ids: ids(&[("activity_id", activity_id)]),
        answer: serde_json::json!({"previous_sets": previous.len(), "sets": sets.len()}),
        inverse: Some(Change::CorrectStrengthSets { activity_id, sets: previous }),
    })
}

/// The device to send to and its name: the given id (named from the device list), or the last
/// used device.
async fn resolve_device(client: &Client, device_id: Option<u64>) -> Result<(u64, String)> {
    if let Some(id) = device_id {
        let devices = client.devices().list().await?;
        let Some(device) = devices.iter().find(|d| d.device_id == Some(id)) else {
            let known: Vec<String> = devices
                .iter()
                .filter_map(|d| Some(format!("{} ({})", d.name().unwrap_or("device"), d.device_id?)))
                .collect();
            return Err(Error::InvalidInput(format!(
                "device {id} is not one of your devices; yours are: {}",
                if known.is_empty() { "none".to_owned() } else { known.join(", ") }
            )));
        };
        return Ok((id, device.name().unwrap_or("your device").to_owned()));
    }
    let last = client.devices().last_used().await?;
    let Some(id) = last.as_ref().and_then(|d| d.user_device_id) else {
        return Err(Error::InvalidInput(
            "no device has synced with Garmin Connect yet: name the device to send to (see get_devices)"
                .into(),
        ));
    };
    let name = last.and_then(|d| d.last_used_device_name).unwrap_or_else(|| "your last used device".into());
    Ok((id, name))
}

fn workout_name(workout: &Workout) -> String {
    shown_name(workout.workout_name.as_deref(), "workout")
}

/// Longest name a description or summary quotes.
const NAME_CHARS: usize = 100;

/// A workout's or event's name as descriptions, confirmations and summaries quote it: one clean
/// line (`display::text`), so a name with line breaks or hidden characters cannot write text of its
/// own into what the person reads; `fallback` when it has none.
fn shown_name(name: Option<&str>, fallback: &str) -> String {
    let shown = display::text::clean_display_text(name.unwrap_or_default(), NAME_CHARS);
    if shown.is_empty() { fallback.to_owned() } else { shown }
}

fn ids(pairs: &[(&str, u64)]) -> BTreeMap<String, u64> {
    pairs.iter().map(|(k, v)| ((*k).to_owned(), *v)).collect()
}

fn to_value<T: Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_serialize_with_a_kind_tag_and_read_back_equal() {
        let change = Change::ScheduleWorkout {
            workout_id: 7,
            date: NaiveDate::from_ymd_opt(2026, 12, 3).unwrap_or_default(),
        };
        let json = serde_json::to_value(&change).unwrap_or_default();
        assert_eq!(json["kind"], "schedule_workout");
        assert_eq!(json["date"], "2026-12-03");
        let back: Change = serde_json::from_value(json).unwrap_or(Change::RemoveEvent { event_id: 0 });
        assert_eq!(back, change);
        assert_eq!(change.tool_name(), "schedule_workout");
        assert!(change.describe().contains("2026-12-03"));
    }
}
