//! The confirmation window's commands and the plain functions behind them: what the person decided
//! about a sidecar's request becomes the bridge's [`Reply`], and an edited workout spec becomes a
//! `Change::CreateWorkout` through the `garmin` crate's own parser and translator. Totals are
//! recomputed by `garmin::workout_spec::preview`, never in the UI.

use app_bridge::Reply;
use chrono::NaiveDate;
use garmin::changes::Change;
use garmin::exercises::{self, ExerciseHit, ExerciseQuery};
use garmin::workout_spec::{self, EditorGrammar, SpecProblem};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tauri::{AppHandle, Runtime, State};

use crate::bridge::{self, Asked, BridgeRequests, PendingRequest};
use crate::error::{Error, ErrorCode, Result};
use crate::preferences::Language;

/// What the person decided about a waiting request (tagged by `kind`).
#[derive(Clone, Debug, PartialEq, Deserialize, ts_rs::TS)]
#[serde(tag = "kind", rename_all = "snake_case", rename_all_fields = "camelCase")]
pub enum Decision {
    /// Do it: for a new workout with the (possibly edited) `spec`, then optionally schedule it on
    /// `schedule_on` and send it to the watch.
    Approve {
        /// The edited workout spec; `None` keeps the change as proposed.
        #[serde(default)]
        #[ts(optional, type = "Record<string, unknown> | null")]
        spec: Option<Value>,
        /// New workouts only: put it on the calendar on this day.
        #[serde(default)]
        #[ts(optional = nullable)]
        schedule_on: Option<NaiveDate>,
        /// New workouts only: send it to the last used watch.
        #[serde(default)]
        #[ts(as = "Option<bool>", optional)]
        send_to_device: bool,
    },
    /// Do not do it (or not sign in now).
    Cancel {
        /// The person's words, if any.
        #[serde(default)]
        #[ts(optional = nullable)]
        reason: Option<String>,
    },
}

/// A workout spec checked and previewed by the `garmin` crate, for the editor's live totals.
#[derive(Clone, Debug, PartialEq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct WorkoutPreview {
    /// The whole workout in words with totals; empty when the spec has problems.
    pub text: String,
    /// The totals in words (`≈ 7.2 km · ≈ 0:44:00`; metres in swims and under 1 km); empty when
    /// the spec has problems.
    pub total: String,
    /// One line per top-level step.
    pub lines: Vec<String>,
    /// Estimated distance in metres.
    pub distance_m: Option<f64>,
    /// Estimated time in seconds.
    pub duration_s: Option<f64>,
    /// True when the totals lean on assumptions (open steps, steps without a pace).
    pub estimated: bool,
    /// Every problem in the spec (path, expected, found); empty when it is valid.
    pub problems: Vec<SpecProblem>,
}

/// The requests waiting for the person, oldest first.
#[tauri::command]
pub async fn pending_proposals(requests: State<'_, BridgeRequests>) -> Result<Vec<PendingRequest>> {
    Ok(requests.list())
}

/// Answers request `id` with the person's `decision`; the waiting sidecar then applies an approved
/// change itself (and journals it).
#[tauri::command]
pub async fn decide_proposal<R: Runtime>(
    app: AppHandle<R>,
    requests: State<'_, BridgeRequests>,
    id: u64,
    decision: Decision,
) -> Result<()> {
    let asked = requests.get(id).ok_or_else(no_longer_waiting)?;
    let reply = reply_for(&asked, decision)?;
    let delivered = requests.answer(id, reply);
    bridge::notify(&app);
    if delivered { Ok(()) } else { Err(no_longer_waiting()) }
}

/// Checks `spec` and describes it with estimated totals (the editor calls this on every change),
/// in the window's language (English when none is given).
#[tauri::command]
pub async fn preview_workout(spec: Value, language: Option<Language>) -> Result<WorkoutPreview> {
    Ok(preview_spec_in(&spec, language.unwrap_or(Language::En)))
}

/// Garmin's exercise catalogue searched by name, muscle and equipment (the editor's exercise
/// picker), the same search `get_workouts`' `find_exercise` answers with.
#[tauri::command]
pub async fn find_exercises(query: ExerciseQuery) -> Result<Vec<ExerciseHit>> {
    exercises::search(&query).map_err(|e| Error::new(ErrorCode::InvalidInput, e.to_string()))
}

/// The workout spec language as the step editor needs it (types, ends, targets, aliases, defaults,
/// templates): the editor keeps no copy of it.
#[tauri::command]
pub async fn workout_grammar() -> Result<EditorGrammar> {
    Ok(workout_spec::editor_grammar())
}

fn no_longer_waiting() -> Error {
    Error::new(
        ErrorCode::Other,
        "this request is no longer waiting (the assistant stopped waiting for it); ask the assistant again",
    )
}

/// Checks and previews `spec` with the `garmin` crate, in `language`.
pub fn preview_spec_in(spec: &Value, language: Language) -> WorkoutPreview {
    let words = match language {
        Language::En => workout_spec::Language::En,
        Language::Zh => workout_spec::Language::Zh,
    };
    match workout_spec::parse_spec(spec) {
        Ok(parsed) => {
            let preview = workout_spec::preview_in(&parsed.to_garmin(), words);
            WorkoutPreview {
                text: preview.text,
                total: preview.total,
                lines: preview.lines,
                distance_m: preview.distance_m,
                duration_s: preview.duration_s,
                estimated: preview.estimated,
                problems: Vec::new(),
            }
        }
        Err(errors) => WorkoutPreview {
            text: String::new(),
            total: String::new(),
            lines: Vec::new(),
            distance_m: None,
            duration_s: None,
            estimated: false,
            problems: errors.0,
        },
    }
}

/// The bridge's answer to `asked` for `decision`. An edited spec replaces a proposed new workout;
/// scheduling and sending apply to new workouts only. A sign-in request cannot be approved here:
/// it is answered when the person has signed in.
pub fn reply_for(asked: &Asked, decision: Decision) -> Result<Reply> {
    match (asked, decision) {
        (_, Decision::Cancel { reason }) => {
            let reason = reason.map(|r| r.trim().to_owned()).filter(|r| !r.is_empty());
            Ok(Reply::Cancelled { reason })
        }
        (Asked::SignIn { .. }, Decision::Approve { .. }) => Err(Error::new(
            ErrorCode::InvalidInput,
            "a sign-in request is answered by signing in: pick your Garmin site and sign in, or cancel it",
        )),
        (Asked::Confirm(proposal), Decision::Approve { spec, schedule_on, send_to_device }) => {
            let creates = matches!(proposal.change, Change::CreateWorkout { .. });
            let change = match spec {
                Some(spec) if creates => change_from_spec(&spec)?,
                Some(_) => {
                    return Err(Error::new(
                        ErrorCode::InvalidInput,
                        "only a new workout can be edited before it is approved; approve or cancel this change as it is",
                    ));
                }
                None => proposal.change.clone(),
            };
            let (schedule_on, send_to_device) = (schedule_on.filter(|_| creates), send_to_device && creates);
            // The rule the sidecar applies the answer by (`Proposal::check_approval`), checked here too.
            proposal
                .check_approval(&change, schedule_on, send_to_device, None)
                .map_err(|why| Error::new(ErrorCode::InvalidInput, why))?;
            Ok(Reply::Approved { change, schedule_on, send_to_device, device_id: None })
        }
    }
}

/// A new workout from an edited spec, through the same parser and translator the sidecar uses.
pub fn change_from_spec(spec: &Value) -> Result<Change> {
    let parsed = workout_spec::parse_spec(spec).map_err(|errors| {
        Error::new(
            ErrorCode::InvalidInput,
            format!("the workout cannot be created yet; fix these first:\n{errors}"),
        )
    })?;
    Ok(Change::CreateWorkout { workout: Box::new(parsed.to_garmin()) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use app_bridge::Proposal;
    use serde_json::json;

    /// Checks and previews `spec` in English.
    fn preview_spec(spec: &Value) -> WorkoutPreview {
        preview_spec_in(spec, Language::En)
    }

    fn intervals() -> Value {
        json!({"name": "800m x4", "sport": "run", "steps": [
            {"type": "warmup", "duration_min": 10},
            {"type": "repeat", "times": 4, "steps": [
                {"type": "interval", "distance_m": 800, "pace": "5:00"},
                {"type": "recovery", "duration_min": 2}]},
            {"type": "cooldown", "duration_min": 10}]})
    }

    fn create_proposal(spec: Option<Value>) -> Proposal {
        let workout = workout_spec::parse_spec(&intervals()).unwrap().to_garmin();
        Proposal {
            title: "Create workout".into(),
            preview: "…".into(),
            change: Change::CreateWorkout { workout: Box::new(workout) },
            spec,
            requested_by: Some("claude-code".into()),
            demo: false,
        }
    }

    fn workout_of(reply: &Reply) -> &garmin::models::workouts::Workout {
        match reply {
            Reply::Approved { change: Change::CreateWorkout { workout }, .. } => workout,
            other => panic!("an approved new workout expected, got {other:?}"),
        }
    }

    #[test]
    fn an_edited_spec_becomes_the_approved_workout_with_its_follow_ups() {
        let asked = Asked::Confirm(create_proposal(Some(intervals())));
        let mut edited = intervals();
        edited["name"] = json!("800m x6");
        edited["steps"][1]["times"] = json!(6);
        let date = NaiveDate::from_ymd_opt(2026, 12, 3);
        let decision =
            Decision::Approve { spec: Some(edited.clone()), schedule_on: date, send_to_device: true };
        let reply = reply_for(&asked, decision).unwrap();
        let expected = workout_spec::parse_spec(&edited).unwrap().to_garmin();
        assert_eq!(workout_of(&reply), &expected);
        assert_ne!(workout_of(&reply), &workout_spec::parse_spec(&intervals()).unwrap().to_garmin());
        let Reply::Approved { schedule_on, send_to_device, device_id, .. } = reply else { unreachable!() };
        assert_eq!((schedule_on, send_to_device, device_id), (date, true, None));
    }

    #[test]
    fn approving_without_edits_keeps_the_proposed_change_and_follow_ups_only_apply_to_new_workouts() {
        let proposal = create_proposal(None);
        let reply = reply_for(
            &Asked::Confirm(proposal.clone()),
            Decision::Approve { spec: None, schedule_on: None, send_to_device: false },
        )
        .unwrap();
        assert_eq!(
            reply,
            Reply::Approved {
                change: proposal.change,
                schedule_on: None,
                send_to_device: false,
                device_id: None
            }
        );

        let date = NaiveDate::from_ymd_opt(2026, 12, 3).unwrap();
        let schedule = Change::ScheduleWorkout { workout_id: 5, date };
        let asked =
            Asked::Confirm(Proposal { change: schedule.clone(), spec: None, ..create_proposal(None) });
        let decision = Decision::Approve { spec: None, schedule_on: Some(date), send_to_device: true };
        assert_eq!(
            reply_for(&asked, decision).unwrap(),
            Reply::Approved { change: schedule, schedule_on: None, send_to_device: false, device_id: None }
        );
        let edit = Decision::Approve { spec: Some(intervals()), schedule_on: None, send_to_device: false };
        assert_eq!(reply_for(&asked, edit).unwrap_err().code, ErrorCode::InvalidInput);
    }

    #[test]
    fn an_invalid_edit_is_refused_with_every_problem_and_cancel_carries_the_reason() {
        let asked = Asked::Confirm(create_proposal(None));
        let mut broken = intervals();
        broken["name"] = json!("");
        broken["steps"][1]["steps"][0]["pace"] = json!("5:7x");
        let decision = Decision::Approve { spec: Some(broken), schedule_on: None, send_to_device: false };
        let error = reply_for(&asked, decision).unwrap_err();
        assert_eq!(error.code, ErrorCode::InvalidInput);
        assert!(
            error.message.contains("name") && error.message.contains("steps[1].steps[0].pace"),
            "{error}"
        );

        let cancel = Decision::Cancel { reason: Some("  not this week ".into()) };
        assert_eq!(
            reply_for(&asked, cancel).unwrap(),
            Reply::Cancelled { reason: Some("not this week".into()) }
        );
        let sign_in = Asked::SignIn { reason: "x".into() };
        let approve = Decision::Approve { spec: None, schedule_on: None, send_to_device: false };
        assert_eq!(reply_for(&sign_in, approve).unwrap_err().code, ErrorCode::InvalidInput);
        assert_eq!(
            reply_for(&sign_in, Decision::Cancel { reason: None }).unwrap(),
            Reply::Cancelled { reason: None }
        );
    }

    #[test]
    fn a_strength_correction_shows_its_words_without_an_editor_and_is_approved_exactly_as_proposed() {
        let sets: Vec<garmin::strength_edit::SavedSet> = serde_json::from_value(json!([
            {"exercises": [{"category": "ROW", "name": "BARBELL_ROW", "probability": 100.0}], "duration": 30.0,
             "repetitionCount": 8, "weight": 60000.0, "setType": "ACTIVE", "startTime": "2026-11-30T07:05:00.0",
             "wktStepIndex": null, "messageIndex": 0}]))
        .unwrap();
        let change = Change::CorrectStrengthSets { activity_id: 7, sets };
        let proposal = Proposal {
            title: change.describe(),
            preview: "Correct 1 of 1 sets of 'Lift' (activity 7): set 1 Dumbbell biceps curl 10 reps @ 20 kg → Barbell row 8 reps @ 60 kg — volume 200 kg → 480 kg".into(),
            change: change.clone(),
            ..create_proposal(None)
        };
        assert_eq!(proposal.editable_spec(), None, "sets are approved as they are, not edited here");
        let asked = Asked::Confirm(proposal);
        let approve = Decision::Approve { spec: None, schedule_on: None, send_to_device: true };
        assert_eq!(
            reply_for(&asked, approve).unwrap(),
            Reply::Approved { change, schedule_on: None, send_to_device: false, device_id: None }
        );
        let edit = Decision::Approve { spec: Some(intervals()), schedule_on: None, send_to_device: false };
        assert_eq!(reply_for(&asked, edit).unwrap_err().code, ErrorCode::InvalidInput);
    }

    #[test]
    fn the_editor_gets_the_canonical_spec_even_when_the_assistant_sent_none() {
        let from_spec = create_proposal(Some(intervals())).editable_spec().unwrap();
        assert_eq!(from_spec["steps"][1]["steps"][0]["pace_range"], "4:55-5:05");
        assert_eq!(from_spec["steps"][0]["duration_s"], 600.0);
        let from_workout = create_proposal(None).editable_spec().unwrap();
        assert_eq!(from_workout["steps"][1]["times"], 4);
        assert_eq!(from_workout["steps"].as_array().map(Vec::len), Some(3));
        let date = NaiveDate::from_ymd_opt(2026, 12, 3).unwrap();
        let schedule =
            Proposal { change: Change::ScheduleWorkout { workout_id: 5, date }, ..create_proposal(None) };
        assert_eq!(schedule.editable_spec(), None);
    }

    #[test]
    fn previews_recompute_totals_in_the_core_and_list_problems_of_a_broken_spec() {
        let four = preview_spec(&intervals());
        let mut six = intervals();
        six["steps"][1]["times"] = json!(6);
        let six = preview_spec(&six);
        assert!(four.problems.is_empty() && six.problems.is_empty());
        let (d4, d6) = (four.distance_m.unwrap(), six.distance_m.unwrap());
        assert!(d6 > d4 + 1500.0, "two more 800 m repeats: {d4} → {d6}");
        assert!(six.duration_s.unwrap() > four.duration_s.unwrap());
        assert!(four.text.contains("Repeat 4×"), "{}", four.text);
        assert!(
            four.text.ends_with(&format!("total {}", four.total)) && four.total.contains(" km"),
            "{}",
            four.total
        );

        let broken = preview_spec(
            &json!({"name": "x", "sport": "run", "steps": [{"type": "interval", "pace": "fast"}]}),
        );
        assert!(broken.text.is_empty() && broken.distance_m.is_none());
        assert_eq!(broken.problems.len(), 1);
        assert_eq!(broken.problems[0].path, "steps[0].pace");
    }
}
