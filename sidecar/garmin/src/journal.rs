//! The journal of changes made to the Garmin account: `changes.jsonl` in the data folder, one JSON
//! object per line, append-only, 0600 like the session.
//!
//! Every write that reached Garmin is recorded with its time, the tool, how the person confirmed
//! it ([`ConfirmedBy`]), the ids, the change as sent, Garmin's answer and the inverse change, so
//! `list_changes` can show it and `undo_change` can take it back. Fields added later are optional,
//! so journals written by older versions still load. An undo is itself an entry whose `undoes` names the entry it took back.
//! Several processes may append at once: ids are given out under an OS lock on `changes.lock`,
//! and each line is written whole with one `write` and flushed to disk before the lock is let go.
//! A torn last line (a crash mid-write) is skipped when reading, never fatal.
//! No cookies or tokens ever go in here: entries hold workouts, events, strength sets and ids.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write as _;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::changes::{Applied, Change};

const FILE_NAME: &str = "changes.jsonl";
/// Largest journal line. Every later `list_changes` and undo reads the whole journal, so one huge
/// write must not make them slow: past this, Garmin's answer is left out (the inverse, which undo
/// needs, is kept), and past it again the change is kept without its inverse (it cannot be undone).
pub const MAX_ENTRY_BYTES: usize = 256 * 1024;
/// Largest journal read (years of changes are a few megabytes).
const MAX_JOURNAL_BYTES: u64 = 256 * 1024 * 1024;
const LOCK_NAME: &str = "changes.lock";

/// How the person confirmed a change before it was written (the journal's `confirmed_by`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ConfirmedBy {
    /// In the Garmin MCP desktop app: its confirmation window, or its own buttons.
    App,
    /// In the chat: the person accepted the server's question (an MCP elicitation form).
    Elicitation,
    /// Not asked by the server: it allows direct writes (`GARMIN_ALLOW_WRITE=1`) and the assistant
    /// called with `confirm: true`.
    AllowWrite,
    /// A way a newer version records, which this one does not know.
    #[serde(other)]
    Other,
}

impl ConfirmedBy {
    /// In words, for answers: "in the Garmin MCP app", "in the chat", …
    pub fn words(self) -> &'static str {
        match self {
            ConfirmedBy::App => "confirmed in the Garmin MCP app",
            ConfirmedBy::Elicitation => "confirmed in the chat",
            ConfirmedBy::AllowWrite => "written directly (GARMIN_ALLOW_WRITE)",
            ConfirmedBy::Other => "confirmed another way",
        }
    }
}

/// One recorded change.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JournalEntry {
    /// 1, 2, 3… in the order the changes were made.
    pub id: u64,
    /// When Garmin accepted it.
    pub time: DateTime<Utc>,
    /// The tool (or app button) that made it.
    pub tool: String,
    /// How the person confirmed it (`None` in journals written before this was recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confirmed_by: Option<ConfirmedBy>,
    /// What was done, in words.
    pub summary: String,
    /// The change as requested.
    pub change: Change,
    /// Ids created or touched.
    #[serde(default)]
    pub ids: BTreeMap<String, u64>,
    /// Garmin's answer (or the copy read before a delete).
    #[serde(default)]
    pub answer: Value,
    /// How to take it back (`None`: it cannot be undone).
    #[serde(default)]
    pub inverse: Option<Change>,
    /// The entry this one undid, when it is an undo.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undoes: Option<u64>,
}

/// Where a journal entry stands now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryState {
    /// Made and still in effect (as far as this journal knows).
    Done,
    /// Taken back by a later entry.
    Undone,
    /// Itself the undo of entry n.
    UndoOf(u64),
}

impl std::fmt::Display for EntryState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EntryState::Done => f.write_str("done"),
            EntryState::Undone => f.write_str("undone"),
            EntryState::UndoOf(original) => write!(f, "undo of #{original}"),
        }
    }
}

/// A journal entry with where it stands ([`Journal::history`]).
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryItem {
    /// The entry as recorded.
    pub entry: JournalEntry,
    /// Done, undone, or an undo.
    pub state: EntryState,
    /// Whether it can be undone now (it has an inverse and is still in effect).
    pub can_undo: bool,
}

/// The journal file of one data folder.
#[derive(Clone, Debug)]
pub struct Journal {
    dir: PathBuf,
}

/// Why the journal could not be read or written.
#[derive(Debug, thiserror::Error)]
#[error("the change journal {path} could not be {action}: {source}")]
pub struct JournalError {
    path: PathBuf,
    action: &'static str,
    #[source]
    source: std::io::Error,
}

impl Journal {
    /// The journal in `dir` (the data folder that holds `session.json`).
    pub fn in_dir(dir: impl Into<PathBuf>) -> Self {
        Journal { dir: dir.into() }
    }

    /// Path of the journal file.
    pub fn path(&self) -> PathBuf {
        self.dir.join(FILE_NAME)
    }

    /// Records an applied change, confirmed as `confirmed_by` says, and returns the entry with its
    /// id.
    pub fn record(
        &self,
        tool: &str,
        confirmed_by: ConfirmedBy,
        change: &Change,
        applied: &Applied,
        undoes: Option<u64>,
    ) -> Result<JournalEntry, JournalError> {
        let _lock = self.lock()?;
        let next = self.entries()?.last().map_or(1, |e| e.id + 1);
        let entry = JournalEntry {
            id: next,
            time: Utc::now(),
            tool: tool.to_owned(),
            confirmed_by: Some(confirmed_by),
            summary: applied.summary.clone(),
            change: change.clone(),
            ids: applied.ids.clone(),
            answer: applied.answer.clone(),
            inverse: applied.inverse.clone(),
            undoes,
        };
        let entry = bounded(entry);
        let mut line = Vec::new();
        // A crash mid-write leaves a last line without its newline: start on a fresh line so this
        // entry is not glued to the torn one.
        if local_data::private_files::read_regular(&self.path(), MAX_JOURNAL_BYTES)
            .is_ok_and(|bytes| bytes.is_some_and(|b| b.last().is_some_and(|b| *b != b'\n')))
        {
            line.push(b'\n');
        }
        serde_json::to_writer(&mut line, &entry).map_err(|e| self.error("written", e.into()))?;
        line.push(b'\n');
        let mut file = open_private(&self.path(), true).map_err(|e| self.error("opened", e))?;
        file.write_all(&line).and_then(|()| file.sync_all()).map_err(|e| self.error("written", e))?;
        Ok(entry)
    }

    /// Every entry, oldest first. A line that does not parse (a torn write) is skipped.
    pub fn entries(&self) -> Result<Vec<JournalEntry>, JournalError> {
        let bytes = match local_data::private_files::read_regular(&self.path(), MAX_JOURNAL_BYTES) {
            Ok(Some(bytes)) => bytes,
            Ok(None) => return Ok(Vec::new()),
            Err(e) => return Err(self.error("read", e)),
        };
        let text = String::from_utf8_lossy(&bytes);
        Ok(text.lines().filter_map(|line| serde_json::from_str(line).ok()).collect())
    }

    /// The entry `id`, or the most recent one that can still be undone (has an inverse, is not
    /// itself an undo, and was not undone yet).
    pub fn undo_candidate(&self, id: Option<u64>) -> Result<Result<JournalEntry, String>, JournalError> {
        let entries = self.entries()?;
        let undone: Vec<u64> = entries.iter().filter_map(|e| e.undoes).collect();
        let Some(id) = id else {
            return Ok(entries
                .iter()
                .rev()
                .find(|e| e.inverse.is_some() && e.undoes.is_none() && !undone.contains(&e.id))
                .cloned()
                .ok_or_else(|| "there is no change left to undo (see list_changes)".to_owned()));
        };
        let Some(entry) = entries.iter().find(|e| e.id == id) else {
            return Ok(Err(format!("there is no change #{id} in the journal (see list_changes)")));
        };
        Ok(if undone.contains(&id) {
            Err(format!("change #{id} was already undone"))
        } else if let Some(original) = entry.undoes {
            Err(format!("change #{id} is itself the undo of #{original}; make the change again instead"))
        } else if entry.inverse.is_none() {
            Err(format!("change #{id} ({}) cannot be undone: {}", entry.tool, why_final(&entry.change)))
        } else {
            Ok(entry.clone())
        })
    }

    /// Every entry, newest first, with where it stands now (done, undone, or the undo of another)
    /// and whether it can still be undone: what `list_changes` and the app's list show.
    pub fn history(&self) -> Result<Vec<HistoryItem>, JournalError> {
        let entries = self.entries()?;
        let undone: Vec<u64> = entries.iter().filter_map(|e| e.undoes).collect();
        Ok(entries
            .into_iter()
            .rev()
            .map(|entry| {
                let state = match entry.undoes {
                    Some(original) => EntryState::UndoOf(original),
                    None if undone.contains(&entry.id) => EntryState::Undone,
                    None => EntryState::Done,
                };
                let can_undo = entry.inverse.is_some() && state == EntryState::Done;
                HistoryItem { entry, state, can_undo }
            })
            .collect())
    }

    /// Ids of entries that were undone.
    pub fn undone_ids(&self) -> Result<Vec<u64>, JournalError> {
        Ok(self.entries()?.iter().filter_map(|e| e.undoes).collect())
    }

    fn lock(&self) -> Result<File, JournalError> {
        local_data::private_files::ensure_folder(&self.dir).map_err(|e| self.error("created", e))?;
        let file = open_private(&self.dir.join(LOCK_NAME), false).map_err(|e| self.error("locked", e))?;
        file.lock().map_err(|e| self.error("locked", e))?;
        Ok(file)
    }

    fn error(&self, action: &'static str, source: std::io::Error) -> JournalError {
        JournalError { path: self.path(), action, source }
    }
}

fn why_final(change: &Change) -> &'static str {
    match change {
        Change::SendToDevice { .. } => "a workout sent to a watch cannot be recalled; delete it on the watch",
        _ => "Garmin gave nothing to restore it from",
    }
}

/// `entry` within [`MAX_ENTRY_BYTES`] once written (see there for what is left out, in order).
fn bounded(mut entry: JournalEntry) -> JournalEntry {
    let size = |e: &JournalEntry| serde_json::to_vec(e).map_or(usize::MAX, |bytes| bytes.len());
    if size(&entry) <= MAX_ENTRY_BYTES {
        return entry;
    }
    let answer_bytes = serde_json::to_vec(&entry.answer).map_or(0, |bytes| bytes.len());
    entry.answer = serde_json::json!({"omitted": format!("Garmin's answer ({answer_bytes} bytes) was too large to keep")});
    if size(&entry) > MAX_ENTRY_BYTES && entry.inverse.take().is_some() {
        entry.summary.push_str(" (too large to keep a copy for undo)");
    }
    entry
}

/// Opens a journal file 0600, never through a link (see [`local_data::private_files`]).
fn open_private(path: &Path, append: bool) -> std::io::Result<File> {
    let mut options = OpenOptions::new();
    options.create(true).read(true);
    if append {
        options.append(true);
    } else {
        options.write(true);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.mode(0o600);
    }
    local_data::private_files::open_regular(path, &mut options)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn applied(inverse: Option<Change>) -> Applied {
        Applied { summary: "did it".into(), ids: BTreeMap::new(), answer: Value::Null, inverse }
    }

    #[test]
    fn entries_get_increasing_ids_and_undo_targets_the_latest_undoable_one() {
        let dir = tempfile::tempdir().unwrap();
        let journal = Journal::in_dir(dir.path());
        let create = Change::DeleteWorkout { workout_id: 1 };
        let first = journal
            .record("create_workout", ConfirmedBy::App, &create, &applied(Some(create.clone())), None)
            .unwrap();
        let push = Change::SendToDevice { workout_id: 1, device_id: None };
        let second =
            journal.record("push_workout_to_device", ConfirmedBy::App, &push, &applied(None), None).unwrap();
        assert_eq!((first.id, second.id), (1, 2));
        // The push cannot be undone, so the default candidate is the create.
        assert_eq!(journal.undo_candidate(None).unwrap().unwrap().id, 1);
        let err = journal.undo_candidate(Some(2)).unwrap().unwrap_err();
        assert!(err.contains("cannot be recalled"), "{err}");
        journal.record("undo_change", ConfirmedBy::App, &create, &applied(None), Some(1)).unwrap();
        assert!(journal.undo_candidate(None).unwrap().is_err());
        assert!(journal.undo_candidate(Some(1)).unwrap().unwrap_err().contains("already undone"));
        assert!(journal.undo_candidate(Some(3)).unwrap().unwrap_err().contains("itself the undo"));

        let history = journal.history().unwrap();
        let states: Vec<(u64, String, bool)> =
            history.iter().map(|h| (h.entry.id, h.state.to_string(), h.can_undo)).collect();
        assert_eq!(
            states,
            [
                (3, "undo of #1".to_owned(), false),
                (2, "done".to_owned(), false),
                (1, "undone".to_owned(), false)
            ]
        );
    }

    #[test]
    fn journals_without_or_with_an_unknown_confirmation_still_load_and_new_entries_record_it() {
        let dir = tempfile::tempdir().unwrap();
        let journal = Journal::in_dir(dir.path());
        let change = Change::UnscheduleWorkout { schedule_id: 5 };
        let written = journal
            .record("unschedule_workout", ConfirmedBy::Elicitation, &change, &applied(None), None)
            .unwrap();
        let line = std::fs::read_to_string(journal.path()).unwrap();
        assert!(line.contains(r#""confirmed_by":"elicitation""#), "{line}");
        // The line an older version wrote (no `confirmed_by`), and one from a newer version.
        let mut old: Value = serde_json::from_str(line.trim()).unwrap();
        old.as_object_mut().unwrap().remove("confirmed_by");
        old["id"] = 2.into();
        let mut newer = old.clone();
        newer["id"] = 3.into();
        newer["confirmed_by"] = "carrier_pigeon".into();
        let mut file = OpenOptions::new().append(true).open(journal.path()).unwrap();
        writeln!(file, "{old}\n{newer}").unwrap();

        let entries = journal.entries().unwrap();
        let seen: Vec<(u64, Option<ConfirmedBy>)> = entries.iter().map(|e| (e.id, e.confirmed_by)).collect();
        assert_eq!(seen, [(1, Some(ConfirmedBy::Elicitation)), (2, None), (3, Some(ConfirmedBy::Other))]);
        assert_eq!(entries[0], written);
        assert_eq!(
            journal.record("t", ConfirmedBy::AllowWrite, &change, &applied(None), None).unwrap().id,
            4
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_huge_write_is_journaled_small_keeping_its_undo_when_it_fits() {
        let dir = tempfile::tempdir().unwrap();
        let journal = Journal::in_dir(dir.path());
        let change = Change::UnscheduleWorkout { schedule_id: 5 };
        let mut huge = applied(Some(Change::UnscheduleWorkout { schedule_id: 6 }));
        huge.answer = serde_json::json!({"steps": "x".repeat(3 * MAX_ENTRY_BYTES)});
        let entry = journal.record("t", ConfirmedBy::App, &change, &huge, None).unwrap();
        assert!(entry.answer["omitted"].as_str().unwrap().contains("too large"), "{:?}", entry.answer);
        assert!(entry.inverse.is_some(), "the undo is kept");
        let on_disk = std::fs::metadata(journal.path()).unwrap().len();
        assert!(on_disk < MAX_ENTRY_BYTES as u64, "{on_disk} bytes");
        assert_eq!(journal.entries().unwrap().len(), 1);
    }

    #[test]
    fn the_journal_is_private_and_a_torn_last_line_is_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let journal = Journal::in_dir(dir.path());
        let change = Change::RemoveEvent { event_id: 9 };
        journal
            .record("remove_calendar_event", ConfirmedBy::Elicitation, &change, &applied(None), None)
            .unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(journal.path()).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600);
        }
        let mut file = OpenOptions::new().append(true).open(journal.path()).unwrap();
        file.write_all(b"{\"id\":2,\"time\":\"20").unwrap();
        assert_eq!(journal.entries().unwrap().len(), 1);
        // The next writer appends after the torn line and still numbers correctly.
        let next = journal
            .record("remove_calendar_event", ConfirmedBy::Elicitation, &change, &applied(None), None)
            .unwrap();
        assert_eq!(next.id, 2);
        assert_eq!(journal.entries().unwrap().iter().map(|e| e.id).collect::<Vec<_>>(), [1, 2]);
    }
}
