//! In-chat confirmation of a write by MCP elicitation: when the desktop app is not running and the
//! client declared at `initialize` that it can ask the person (`elicitation`, form mode), a write
//! tool asks inside the chat (`elicitation/create`) instead of answering with a preview.
//!
//! The question carries the same plain-words preview the app shows, and a form made only of what
//! the spec allows (a flat object of primitive fields with defaults): `confirm`, and for a workout
//! being created, scheduled or sent, the day to schedule it (`schedule_on`, a `date` string,
//! defaulting to the proposed day) and whether to send it to the watch (`send_to_watch`, defaulting
//! to what was proposed). The answer is checked here ([`Question::read_answer`]): only an accepted
//! form with `confirm` ticked writes, a field left out counts as its default, and a value that does
//! not fit (a day that is not `YYYY-MM-DD`, a word where a yes/no belongs) is refused with a sentence
//! and writes nothing. What is written is exactly what was accepted ([`Plan`]); declining,
//! dismissing, or a client that fails or does not answer writes nothing (the write flow, `crate::writes`, acts on
//! the answer).
//! The journal records these changes as confirmed by `elicitation`.
//!
//! A question costs the server a waiting call, so questions are bounded and never outlive their
//! call ([`Chat::ask`]): at most [`MAX_QUESTIONS_PER_SESSION`] wait per session and
//! [`MAX_QUESTIONS`] in all (past that a write is answered at once, nothing written); a call that
//! ends without an answer — cancelled, timed out, its client gone — withdraws its question
//! (`notifications/cancelled`), so an answer sent later finds nothing to confirm. The preview in the
//! question is one clean line (`display::text`): a name with line breaks cannot write a line of its
//! own into what the person reads.

use std::sync::Arc;
use std::time::Duration;

use app_bridge::{MAX_PREVIEW_CHARS, MAX_TITLE_CHARS, clean_display_text};
use chrono::NaiveDate;
use garmin::apply::FollowUps;
use garmin::changes::Change;
use rmcp::RoleServer;
use rmcp::model::{
    BooleanSchema, CancelledNotificationParam, ClientResult, ElicitRequest, ElicitRequestParams,
    ElicitResult, ElicitationAction, ElicitationSchema, PrimitiveSchemaDefinition, ProtocolVersion,
    RequestId, ServerRequest, StringSchema,
};
use rmcp::service::{PeerRequestOptions, RequestContext, ServiceError};
use serde_json::Value;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The form's yes/no: the change is written only when the person ticks it.
pub const CONFIRM_FIELD: &str = "confirm";
/// The form's day to put the workout on the calendar (`YYYY-MM-DD`; empty: not scheduled).
pub const SCHEDULE_FIELD: &str = "schedule_on";
/// The form's "send it to my watch".
pub const SEND_FIELD: &str = "send_to_watch";

/// Questions one session may have waiting for the person at once: a person answers one at a time.
pub const MAX_QUESTIONS_PER_SESSION: usize = 4;
/// Questions waiting in all sessions together.
pub const MAX_QUESTIONS: usize = 64;

/// The places for waiting questions: one pool shared by every session, one per session (a clone of
/// the server, i.e. a new session, gets a pool of its own).
#[derive(Debug)]
pub(crate) struct Questions {
    all: Arc<Semaphore>,
    session: Arc<Semaphore>,
}

impl Questions {
    /// The pools of a new server.
    pub(crate) fn new() -> Self {
        Questions {
            all: Arc::new(Semaphore::new(MAX_QUESTIONS)),
            session: Arc::new(Semaphore::new(MAX_QUESTIONS_PER_SESSION)),
        }
    }

    /// A place for one more question, or the sentence saying why there is none.
    fn reserve(&self) -> Result<[OwnedSemaphorePermit; 2], String> {
        let session = self.session.clone().try_acquire_owned().map_err(|_| {
            format!(
                "{MAX_QUESTIONS_PER_SESSION} confirmation questions of this session are already waiting for the person; nothing was written. Wait until they answer (or the questions time out) before asking again."
            )
        })?;
        let all = self.all.clone().try_acquire_owned().map_err(|_| {
            format!(
                "{MAX_QUESTIONS} confirmation questions are already waiting on this server; nothing was written. Try again once the person has answered them."
            )
        })?;
        Ok([session, all])
    }
}

impl Clone for Questions {
    /// A new session: the shared pool, and a pool of its own.
    fn clone(&self) -> Self {
        Questions { all: self.all.clone(), session: Arc::new(Semaphore::new(MAX_QUESTIONS_PER_SESSION)) }
    }
}

/// What became of a question asked in the chat ([`Chat::ask`]).
#[derive(Debug)]
pub(crate) enum Asked {
    /// The person (or their client) answered.
    Answered(ElicitResult),
    /// The call was cancelled while waiting (its question was withdrawn).
    Cancelled,
    /// Nobody answered within this long (the question was withdrawn).
    TimedOut(Duration),
    /// Too many questions are waiting: the sentence says so. Nothing was asked.
    Busy(String),
    /// The client could not ask (its error, cleaned and short).
    Failed(String),
}

/// Withdraws a question from the client when dropped before it was answered: the call was
/// cancelled, its client went away, or its future was dropped for any other reason. The client
/// drops the question, and the server forgets it, so a late answer confirms nothing.
struct Withdraw {
    peer: rmcp::Peer<RoleServer>,
    id: Option<RequestId>,
}

impl Drop for Withdraw {
    fn drop(&mut self) {
        let Some(id) = self.id.take() else { return };
        let peer = self.peer.clone();
        let Ok(runtime) = tokio::runtime::Handle::try_current() else { return };
        runtime.spawn(async move {
            let param = CancelledNotificationParam::new(
                Some(id),
                Some("the call that asked this question has ended".to_owned()),
            );
            if let Err(e) = peer.notify_cancelled(param).await {
                tracing::debug!("withdrawing a question failed (the client is gone): {e}");
            }
        });
    }
}

/// Whether the client of this call can be asked in the chat: it declared form elicitation at
/// `initialize` (a bare `elicitation: {}` means form, as the 2025-06-18 spec had it), on a protocol
/// version that still lets a server ask the client during a call (2026-07-28 forbids it).
pub(crate) fn client_can_ask(ctx: &RequestContext<RoleServer>) -> bool {
    let Some(capabilities) = ctx.client_capabilities() else { return false };
    let Some(elicitation) = capabilities.elicitation else { return false };
    let form = elicitation.form.is_some() || elicitation.url.is_none();
    let version_allows = ctx.protocol_version().is_none_or(|version| version < ProtocolVersion::V_2026_07_28);
    form && version_allows
}

/// A workout the form can place on the calendar and send to the watch.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Placement {
    /// The workout being created (`create_workout`): the form may also schedule and send it.
    New,
    /// A library workout being scheduled or sent: the form decides the day and the send.
    Existing { workout_id: u64, device_id: Option<u64> },
}

/// The question asked for one proposed change.
#[derive(Clone, Debug)]
pub(crate) struct Question {
    /// What the person reads: the change and its preview.
    pub message: String,
    /// The form.
    pub schema: ElicitationSchema,
    placement: Option<(Placement, Option<NaiveDate>, bool)>,
}

/// What to write once the person accepted: `change` (with `follow_ups` for a new workout), then
/// `then`, each journaled on its own.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Plan {
    /// The first change; nothing else is written if it fails.
    pub change: Change,
    /// For a new workout: schedule it, send it.
    pub follow_ups: FollowUps,
    /// For a library workout: the send after its scheduling.
    pub then: Vec<Change>,
}

/// What an accepted form says.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Accepted {
    /// Write this.
    Write(Plan),
    /// `confirm` was not ticked.
    NotConfirmed,
    /// Confirmed, but with neither a day nor the watch for a library workout: nothing to do.
    NothingChosen,
}

impl Question {
    /// The question for a proposed `change` and its `preview` (`undoes`: the journal entry an undo
    /// takes back), labelled as the demo account's when `demo`.
    pub(crate) fn for_change(change: &Change, undoes: Option<u64>, preview: &str, demo: bool) -> Question {
        let placement = match (change, undoes) {
            (_, Some(_)) => None,
            (Change::CreateWorkout { .. }, None) => Some((Placement::New, None, false)),
            (Change::ScheduleWorkout { workout_id, date }, None) => {
                Some((Placement::Existing { workout_id: *workout_id, device_id: None }, Some(*date), false))
            }
            (Change::SendToDevice { workout_id, device_id }, None) => {
                Some((Placement::Existing { workout_id: *workout_id, device_id: *device_id }, None, true))
            }
            _ => None,
        };
        let title = clean_display_text(&change.describe(), MAX_TITLE_CHARS);
        let preview = clean_display_text(preview, MAX_PREVIEW_CHARS);
        let account = if demo { "the demo account (fake data)" } else { "your Garmin account" };
        let placement_words = match &placement {
            Some((Placement::New, ..)) => {
                " You can also put it on your calendar on a day and send it to your watch."
            }
            Some((Placement::Existing { .. }, ..)) => {
                " You can change the day it goes on your calendar (empty: none) and whether it is sent to your watch."
            }
            None => "",
        };
        let message = format!(
            "Garmin MCP asks before changing {account}:\n{title}\n\n{preview}\n\nTick \"Yes, write this\" and submit to make this change.{placement_words} Decline to leave {account} as it is."
        );
        let mut properties = Vec::new();
        if let Some((placed, date, send)) = &placement {
            let mut day = StringSchema::date()
                .title("Schedule on")
                .description("The day to put it on your Garmin calendar, YYYY-MM-DD (empty: not scheduled)");
            if let Some(date) = date {
                day = day.with_default(date.to_string());
            }
            properties.push((SCHEDULE_FIELD, PrimitiveSchemaDefinition::String(day)));
            let watch = match placed {
                Placement::Existing { device_id: Some(device), .. } => format!("Send it to device {device}"),
                _ => "Send it to my watch (the device that synced last)".to_owned(),
            };
            properties.push((
                SEND_FIELD,
                PrimitiveSchemaDefinition::Boolean(
                    BooleanSchema::new()
                        .title(watch)
                        .description("It arrives at the watch's next sync")
                        .with_default(*send),
                ),
            ));
        }
        properties.push((
            CONFIRM_FIELD,
            PrimitiveSchemaDefinition::Boolean(
                BooleanSchema::new()
                    .title("Yes, write this")
                    .description(format!("Make this change in {account}"))
                    .with_default(false),
            ),
        ));
        let order: Vec<String> = properties.iter().map(|(name, _)| (*name).to_owned()).collect();
        let mut schema = ElicitationSchema::new(
            properties.into_iter().map(|(name, schema)| (name.to_owned(), schema)).collect(),
        )
        .with_required(vec![CONFIRM_FIELD.to_owned()]);
        schema.property_order = Some(order);
        Question { message, schema, placement }
    }

    /// The `elicitation/create` parameters.
    pub(crate) fn params(&self) -> ElicitRequestParams {
        ElicitRequestParams::FormElicitationParams {
            meta: None,
            message: self.message.clone(),
            requested_schema: self.schema.clone(),
        }
    }

    /// Reads an accepted form's `content` for `change` (the proposed change). A field left out
    /// counts as its default; a field that does not fit is an error sentence (nothing is written).
    /// Days are checked like every date argument, against `today`.
    pub(crate) fn read_answer(
        &self,
        change: &Change,
        content: Option<&Value>,
        today: NaiveDate,
    ) -> Result<Accepted, String> {
        let empty = serde_json::Map::new();
        let fields = match content {
            None | Some(Value::Null) => &empty,
            Some(Value::Object(fields)) => fields,
            Some(other) => return Err(format!("the answer is {}, not a form's fields", kind(other))),
        };
        let confirmed = yes_no(fields, CONFIRM_FIELD, false)?;
        let Some((placed, proposed_day, proposed_send)) = &self.placement else {
            // Only a yes: the change exactly as proposed.
            return Ok(if confirmed {
                Accepted::Write(Plan {
                    change: change.clone(),
                    follow_ups: FollowUps::default(),
                    then: Vec::new(),
                })
            } else {
                Accepted::NotConfirmed
            });
        };
        // The other fields are checked even when `confirm` is not ticked: a bad day is said as such.
        let day = match fields.get(SCHEDULE_FIELD) {
            None => *proposed_day,
            Some(Value::Null) => None,
            Some(Value::String(text)) if text.trim().is_empty() => None,
            Some(Value::String(text)) => Some(
                crate::domain::dates::parse_date(&format!("`{SCHEDULE_FIELD}`"), text, today)
                    .map_err(|e| e.message())?,
            ),
            Some(other) => {
                return Err(format!("`{SCHEDULE_FIELD}` must be a day as YYYY-MM-DD, not {}", kind(other)));
            }
        };
        let send = yes_no(fields, SEND_FIELD, *proposed_send)?;
        if !confirmed {
            return Ok(Accepted::NotConfirmed);
        }
        Ok(match placed {
            Placement::New => Accepted::Write(Plan {
                change: change.clone(),
                follow_ups: FollowUps { schedule_on: day, send_to_device: send, device_id: None },
                then: Vec::new(),
            }),
            Placement::Existing { workout_id, device_id } => {
                let workout_id = *workout_id;
                let mut changes: Vec<Change> = day
                    .map(|date| Change::ScheduleWorkout { workout_id, date })
                    .into_iter()
                    .chain(send.then_some(Change::SendToDevice { workout_id, device_id: *device_id }))
                    .collect();
                if changes.is_empty() {
                    return Ok(Accepted::NothingChosen);
                }
                let first = changes.remove(0);
                Accepted::Write(Plan { change: first, follow_ups: FollowUps::default(), then: changes })
            }
        })
    }
}

/// A question that only asks for a yes (`confirm`, unticked by default): `message` is what the
/// person reads, `yes` the box's title.
pub(crate) fn yes_no_question(message: String, yes: &str) -> ElicitRequestParams {
    let mut schema = ElicitationSchema::new(
        [(
            CONFIRM_FIELD.to_owned(),
            PrimitiveSchemaDefinition::Boolean(
                BooleanSchema::new().title(yes.to_owned()).with_default(false),
            ),
        )]
        .into_iter()
        .collect(),
    )
    .with_required(vec![CONFIRM_FIELD.to_owned()]);
    schema.property_order = Some(vec![CONFIRM_FIELD.to_owned()]);
    ElicitRequestParams::FormElicitationParams { meta: None, message, requested_schema: schema }
}

/// Whether an answer to a [`yes_no_question`] is a yes: accepted with `confirm` ticked. A
/// `confirm` that is not true or false is an error sentence.
pub(crate) fn said_yes(answer: &ElicitResult) -> Result<bool, String> {
    if answer.action != ElicitationAction::Accept {
        return Ok(false);
    }
    match answer.content.as_ref() {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Object(fields)) => yes_no(fields, CONFIRM_FIELD, false),
        Some(other) => Err(format!("the answer is {}, not a form's fields", kind(other))),
    }
}

/// A client that could not ask, in a short clean sentence.
fn failed(error: &ServiceError) -> Asked {
    tracing::info!("the client could not ask the person: {error}");
    Asked::Failed(clean_display_text(&error.to_string(), 200))
}

/// "5 minutes", "1 minute", "30 seconds".
pub(crate) fn wait_words(wait: std::time::Duration) -> String {
    let seconds = wait.as_secs();
    match (seconds % 60, seconds / 60) {
        (0, 1) => "1 minute".to_owned(),
        (0, minutes) if minutes > 1 => format!("{minutes} minutes"),
        _ if seconds == 1 => "1 second".to_owned(),
        _ => format!("{seconds} seconds"),
    }
}

/// A yes/no field of the form; `default` when left out.
fn yes_no(fields: &serde_json::Map<String, Value>, name: &str, default: bool) -> Result<bool, String> {
    match fields.get(name) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::Bool(value)) => Ok(*value),
        Some(other) => Err(format!("`{name}` must be true or false, not {}", kind(other))),
    }
}

/// A client's value in words, cut short ("the text \"tomorrow\"", "the number 3").
fn kind(value: &Value) -> String {
    let shown: String = value.to_string().chars().take(40).collect();
    match value {
        Value::String(_) => format!("the text {shown}"),
        Value::Number(_) => format!("the number {shown}"),
        Value::Bool(_) => format!("the value {shown}"),
        Value::Null => "nothing".to_owned(),
        Value::Array(_) => "a list".to_owned(),
        Value::Object(_) => "an object".to_owned(),
    }
}

/// The chat of one call, where the person can be asked: the server's places for waiting questions
/// and how long a question waits for its answer.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Chat<'a> {
    /// The places for waiting questions (per session and in all).
    pub questions: &'a Questions,
    /// How long a question waits for the person.
    pub wait: Duration,
}

impl Chat<'_> {
    /// Asks the person a question in the chat (`elicitation/create`), waiting at most
    /// [`Chat::wait`] with progress notifications (`waiting`). At most
    /// [`MAX_QUESTIONS_PER_SESSION`] questions wait per session and [`MAX_QUESTIONS`] in all; past
    /// that nothing is asked. A question not answered when this ends (cancelled, timed out, the
    /// future dropped because the client went away) is withdrawn.
    pub(crate) async fn ask(
        &self,
        params: ElicitRequestParams,
        ctx: &RequestContext<RoleServer>,
        waiting: &str,
    ) -> Asked {
        let _places = match self.questions.reserve() {
            Ok(places) => places,
            Err(why) => return Asked::Busy(why),
        };
        let request = ServerRequest::ElicitRequest(ElicitRequest::new(params));
        let options = PeerRequestOptions::with_timeout(self.wait);
        let handle = match ctx.peer.send_request_with_option(request, options).await {
            Ok(handle) => handle,
            Err(e) => return failed(&e),
        };
        let mut withdraw = Withdraw { peer: ctx.peer.clone(), id: Some(handle.id.clone()) };
        let answer = crate::app::with_progress(handle.await_response(), ctx, waiting).await;
        if answer.is_some() {
            // Answered, refused or timed out: rmcp has forgotten the question (and withdrawn it
            // on a timeout) already.
            withdraw.id = None;
        }
        match answer {
            None => Asked::Cancelled,
            Some(Ok(ClientResult::ElicitResult(answer))) => Asked::Answered(answer),
            Some(Ok(_)) => Asked::Failed("it answered something other than the form".to_owned()),
            Some(Err(ServiceError::Timeout { timeout })) => Asked::TimedOut(timeout),
            Some(Err(e)) => failed(&e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(text: &str) -> NaiveDate {
        NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
    }

    /// A proposed change as the write flow hands it over.
    struct Proposed {
        change: Change,
        preview: String,
        undoes: Option<u64>,
    }

    fn proposed(change: Change) -> Proposed {
        Proposed { change, preview: "Schedule 'Easy' on Fri 2026-11-20".into(), undoes: None }
    }

    fn question_for(proposed: &Proposed, demo: bool) -> Question {
        Question::for_change(&proposed.change, proposed.undoes, &proposed.preview, demo)
    }

    #[test]
    fn the_form_is_flat_primitives_with_the_proposed_defaults_and_confirm_off() {
        let schedule = Change::ScheduleWorkout { workout_id: 7, date: day("2026-11-20") };
        let question = question_for(&proposed(schedule), false);
        let wire = serde_json::to_value(&question.schema).unwrap();
        assert_eq!(wire["type"], "object");
        assert_eq!(wire["required"], serde_json::json!(["confirm"]));
        let properties = wire["properties"].as_object().unwrap();
        assert_eq!(properties.len(), 3);
        // On the wire the form reads top to bottom: the day, the watch, then the yes.
        let text = serde_json::to_string(&question.schema).unwrap();
        let at = |name: &str| text.find(&format!("\"{name}\":{{")).unwrap_or(usize::MAX);
        assert!(at("schedule_on") < at("send_to_watch") && at("send_to_watch") < at("confirm"), "{text}");
        assert_eq!(properties["schedule_on"]["type"], "string");
        assert_eq!(properties["schedule_on"]["format"], "date");
        assert_eq!(properties["schedule_on"]["default"], "2026-11-20");
        assert_eq!(properties["send_to_watch"]["default"], false);
        assert_eq!(properties["confirm"]["default"], false);
        for (name, field) in properties {
            assert!(
                ["string", "boolean"].contains(&field["type"].as_str().unwrap_or("")),
                "{name} is not a primitive: {field}"
            );
        }
        assert!(question.message.contains("Schedule 'Easy' on Fri 2026-11-20"), "{}", question.message);

        // A send proposes the send; a delete (or an undo) asks only for the yes.
        let send = Change::SendToDevice { workout_id: 7, device_id: Some(3) };
        let wire = serde_json::to_value(&question_for(&proposed(send), false).schema).unwrap();
        assert_eq!(wire["properties"]["send_to_watch"]["default"], true);
        assert!(wire["properties"]["schedule_on"].get("default").is_none());
        let delete = question_for(&proposed(Change::DeleteWorkout { workout_id: 7 }), true);
        let wire = serde_json::to_value(&delete.schema).unwrap();
        assert_eq!(wire["properties"].as_object().unwrap().len(), 1);
        assert!(delete.message.contains("demo account"), "{}", delete.message);
        let mut undo = proposed(Change::ScheduleWorkout { workout_id: 7, date: day("2026-11-20") });
        undo.undoes = Some(4);
        let wire = serde_json::to_value(&question_for(&undo, false).schema).unwrap();
        assert_eq!(wire["properties"].as_object().unwrap().len(), 1);
    }

    #[test]
    fn an_accepted_form_becomes_exactly_the_changes_it_names() {
        let today = day("2026-11-15");
        let schedule = Change::ScheduleWorkout { workout_id: 7, date: day("2026-11-20") };
        let question = question_for(&proposed(schedule.clone()), false);
        let read = |content: Value| question.read_answer(&schedule, Some(&content), today);

        // Moved a day and sent to the watch: the new day, then the send.
        let plan =
            read(serde_json::json!({"confirm": true, "schedule_on": "2026-11-21", "send_to_watch": true}));
        assert_eq!(
            plan,
            Ok(Accepted::Write(Plan {
                change: Change::ScheduleWorkout { workout_id: 7, date: day("2026-11-21") },
                follow_ups: FollowUps::default(),
                then: vec![Change::SendToDevice { workout_id: 7, device_id: None }],
            }))
        );
        // Left out: the proposal's defaults.
        let plan = read(serde_json::json!({"confirm": true}));
        assert_eq!(
            plan,
            Ok(Accepted::Write(Plan {
                change: schedule.clone(),
                follow_ups: FollowUps::default(),
                then: vec![]
            }))
        );
        assert_eq!(read(serde_json::json!({"confirm": false})), Ok(Accepted::NotConfirmed));
        assert_eq!(read(serde_json::json!({})), Ok(Accepted::NotConfirmed));
        assert_eq!(
            read(serde_json::json!({"confirm": true, "schedule_on": ""})),
            Ok(Accepted::NothingChosen)
        );

        for (bad, says) in [
            (serde_json::json!({"confirm": true, "schedule_on": "2026-13-40"}), "YYYY-MM-DD"),
            (serde_json::json!({"confirm": true, "schedule_on": "next friday"}), "next friday"),
            (serde_json::json!({"confirm": true, "schedule_on": "2191-01-01"}), "between"),
            (serde_json::json!({"confirm": true, "schedule_on": 20261121}), "the number 20261121"),
            (serde_json::json!({"confirm": "yes"}), "`confirm` must be true or false"),
            (serde_json::json!({"confirm": false, "send_to_watch": 1}), "`send_to_watch`"),
        ] {
            let why = read(bad.clone()).expect_err(&bad.to_string());
            assert!(why.contains(says), "{bad}: {why}");
        }
        let why = question.read_answer(&schedule, Some(&serde_json::json!([true])), today).unwrap_err();
        assert!(why.contains("a list"), "{why}");
    }

    #[test]
    fn waits_are_said_in_minutes_or_seconds() {
        let words = |s| wait_words(std::time::Duration::from_secs(s));
        assert_eq!(
            [words(300), words(60), words(90), words(2), words(1)],
            ["5 minutes", "1 minute", "90 seconds", "2 seconds", "1 second"]
        );
    }

    #[test]
    fn a_new_workout_takes_the_day_and_the_watch_as_follow_ups() {
        let workout = garmin::models::workouts::Workout::default();
        let create = Change::CreateWorkout { workout: Box::new(workout) };
        let question = question_for(&proposed(create.clone()), false);
        let plan = question.read_answer(
            &create,
            Some(&serde_json::json!({"confirm": true, "schedule_on": "2026-11-18", "send_to_watch": true})),
            day("2026-11-15"),
        );
        assert_eq!(
            plan,
            Ok(Accepted::Write(Plan {
                change: create.clone(),
                follow_ups: FollowUps {
                    schedule_on: Some(day("2026-11-18")),
                    send_to_device: true,
                    device_id: None
                },
                then: vec![],
            }))
        );
        let plan =
            question.read_answer(&create, Some(&serde_json::json!({"confirm": true})), day("2026-11-15"));
        assert_eq!(
            plan,
            Ok(Accepted::Write(Plan { change: create, follow_ups: FollowUps::default(), then: vec![] }))
        );
    }
}
