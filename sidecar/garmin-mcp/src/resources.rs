//! MCP resources: the athlete's data a client can attach to a conversation without a tool call —
//! recent activities, today's readiness, the workout library, one activity
//! (`garmin://activity/{id}`), an activity's chart as a PNG (`garmin://chart/activity/{id}`), and
//! the athlete memory (`garmin://athlete`, one `garmin://athlete/goal/{id}` per goal race, listed
//! as resources too), as JSON: `list_athlete_facts`'s answer.
//!
//! Every resource is read by running the tool that answers the same question (through the same
//! router, so `--toolsets` and `--readonly` apply), never by a second copy of its Garmin calls or
//! shaping: a JSON resource is the tool's structured answer (with its `summary`), the chart is the
//! tool's PNG. This module only maps URIs to tool calls and tool answers to resource contents.

use rmcp::ErrorData;
use rmcp::model::{CallToolResult, ReadResourceResult, Resource, ResourceContents, ResourceTemplate};
use serde_json::{Value, json};

use crate::output::echo;

/// The newest activities (the last 30 days, 20 rows).
pub const RECENT_ACTIVITIES: &str = "garmin://activities/recent";
/// Today's training status and readiness.
pub const READINESS_TODAY: &str = "garmin://readiness/today";
/// The workout library and training plans.
pub const WORKOUT_LIBRARY: &str = "garmin://workouts";
/// The chart of the newest activity.
pub const LATEST_CHART: &str = "garmin://chart/activity/latest";
/// Everything remembered about the athlete.
pub const ATHLETE: &str = "garmin://athlete";
/// One remembered goal race.
pub const ATHLETE_GOAL_TEMPLATE: &str = "garmin://athlete/goal/{id}";
/// One activity in depth.
pub const ACTIVITY_TEMPLATE: &str = "garmin://activity/{id}";
/// One activity's chart.
pub const CHART_TEMPLATE: &str = "garmin://chart/activity/{id}";

const JSON: &str = "application/json";
const PNG: &str = "image/png";

/// The fixed resources.
pub fn list() -> Vec<Resource> {
    vec![
        Resource::new(RECENT_ACTIVITIES, "recent_activities")
            .with_title("Recent activities")
            .with_description("The last 30 days of activities, newest first (as `list_activities` answers).")
            .with_mime_type(JSON),
        Resource::new(READINESS_TODAY, "readiness_today")
            .with_title("Today's readiness")
            .with_description(
                "Today's training status, readiness, load and HRV (as `get_training_status` answers).",
            )
            .with_mime_type(JSON),
        Resource::new(WORKOUT_LIBRARY, "workout_library")
            .with_title("Workout library")
            .with_description("The Garmin workout library and training plans (as `get_workouts` answers).")
            .with_mime_type(JSON),
        Resource::new(LATEST_CHART, "latest_activity_chart")
            .with_title("Chart of the newest activity")
            .with_description(
                "Pace and heart rate of the newest activity, as a PNG (as `render_chart` draws it).",
            )
            .with_mime_type(PNG),
        Resource::new(ATHLETE, "athlete_memory")
            .with_title("Athlete memory")
            .with_description(
                "Everything remembered about the athlete on this computer — goal races with the days to \
                 them, injuries, constraints, preferences, volume caps, equipment — as JSON (as \
                 `list_athlete_facts` answers).",
            )
            .with_mime_type(JSON),
    ]
}

/// One resource per remembered goal race (`garmin://athlete/goal/{id}`), soonest first.
pub fn goal_resources(facts: &[local_data::athlete::Fact], today: chrono::NaiveDate) -> Vec<Resource> {
    let mut races: Vec<&local_data::athlete::Fact> =
        facts.iter().filter(|f| f.kind == local_data::athlete::FactKind::GoalRace).collect();
    races.sort_by_key(|f| (f.date, f.id));
    races
        .into_iter()
        .map(|f| {
            let when = f.days_from(today).map(local_data::athlete::days_phrase).unwrap_or_default();
            Resource::new(goal_uri(f.id), format!("goal_race_{}", f.id))
                .with_title(format!("Goal race: {}", f.text))
                .with_description(format!("{} ({when}), from the athlete memory.", f.describe()))
                .with_mime_type(JSON)
        })
        .collect()
}

/// The URI of goal race `id`.
pub fn goal_uri(id: u64) -> String {
    format!("garmin://athlete/goal/{id}")
}

/// The ids of the remembered goal races, for completing `garmin://athlete/goal/{id}`.
pub fn goal_ids(facts: &[local_data::athlete::Fact]) -> Vec<String> {
    facts
        .iter()
        .filter(|f| f.kind == local_data::athlete::FactKind::GoalRace)
        .map(|f| f.id.to_string())
        .collect()
}

/// The parameterised resources.
pub fn templates() -> Vec<ResourceTemplate> {
    vec![
        ResourceTemplate::new(ACTIVITY_TEMPLATE, "activity")
            .with_title("One activity")
            .with_description("One activity in depth, by Garmin activity id (as `get_activity` answers).")
            .with_mime_type(JSON),
        ResourceTemplate::new(CHART_TEMPLATE, "activity_chart")
            .with_title("Chart of one activity")
            .with_description("Pace and heart rate of one activity over distance, as a PNG.")
            .with_mime_type(PNG),
        ResourceTemplate::new(ATHLETE_GOAL_TEMPLATE, "athlete_goal_race")
            .with_title("One goal race")
            .with_description(
                "One remembered goal race (date, distance, target time, days to go), by its fact id \
                 (as `list_athlete_facts` answers).",
            )
            .with_mime_type(JSON),
    ]
}

/// The tool call that reads a resource.
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    /// The tool answering it.
    pub tool: &'static str,
    /// Its arguments.
    pub arguments: Value,
    /// The resource is the tool's PNG (else its structured answer as JSON).
    pub png: bool,
}

/// Longest resource URI read or subscribed to: ours are under 60 characters.
pub const MAX_URI_CHARS: usize = 256;

/// Maps `uri` to its tool call; `chart_folder` is where charts drawn for resources are kept (`None`:
/// not kept, as under `--readonly`, where a chart is drawn and shown but never saved). A URI longer
/// than [`MAX_URI_CHARS`] is refused without being looked at, and refusals quote what was sent only
/// cleaned and cut short ([`crate::output::echo`]).
pub fn resolve(uri: &str, chart_folder: Option<&str>) -> Result<Reading, ErrorData> {
    check_length(uri)?;
    let json = |tool, arguments| Ok(Reading { tool, arguments, png: false });
    match uri {
        RECENT_ACTIVITIES => return json("list_activities", json!({})),
        READINESS_TODAY => return json("get_training_status", json!({})),
        WORKOUT_LIBRARY => return json("get_workouts", json!({})),
        ATHLETE => return json("list_athlete_facts", json!({})),
        LATEST_CHART => {
            return Ok(Reading { tool: "render_chart", arguments: chart(None, chart_folder), png: true });
        }
        _ => {}
    }
    if let Some(id) = uri.strip_prefix("garmin://chart/activity/") {
        let id = activity_id(uri, id)?;
        return Ok(Reading { tool: "render_chart", arguments: chart(Some(id), chart_folder), png: true });
    }
    if let Some(text) = uri.strip_prefix("garmin://athlete/goal/") {
        let id = text.parse::<u64>().map_err(|_| {
            ErrorData::invalid_params(
                format!(
                    "In `{}`, the id must be a goal race's fact id (digits, from `garmin://athlete`); found `{}`.",
                    echo(uri),
                    echo(text)
                ),
                None,
            )
        })?;
        return json("list_athlete_facts", json!({"fact_id": id, "kind": "goal_race"}));
    }
    if let Some(id) = uri.strip_prefix("garmin://activity/") {
        let id = activity_id(uri, id)?;
        return json("get_activity", json!({"activity_id": id}));
    }
    Err(ErrorData::resource_not_found(
        format!(
            "There is no resource `{}`. Resources: {RECENT_ACTIVITIES}, {READINESS_TODAY}, {WORKOUT_LIBRARY}, \
             {LATEST_CHART}, {ATHLETE}, {ACTIVITY_TEMPLATE}, {CHART_TEMPLATE}, {ATHLETE_GOAL_TEMPLATE}.",
            echo(uri)
        ),
        None,
    ))
}

/// `render_chart`'s arguments for an activity's chart (the newest without `id`), kept in `folder`.
fn chart(id: Option<u64>, folder: Option<&str>) -> Value {
    let mut arguments = json!({"kind": "activity"});
    if let Some(id) = id {
        arguments["activity_id"] = json!(id);
    }
    if let Some(folder) = folder {
        arguments["folder"] = json!(folder);
    }
    arguments
}

fn activity_id(uri: &str, text: &str) -> Result<u64, ErrorData> {
    text.parse::<u64>().map_err(|_| {
        ErrorData::invalid_params(
            format!(
                "In `{}`, the id must be a Garmin activity id (digits, from `list_activities`); found `{}`.",
                echo(uri),
                echo(text)
            ),
            None,
        )
    })
}

/// Refuses a URI longer than [`MAX_URI_CHARS`], saying how long it was instead of quoting it.
pub fn check_length(uri: &str) -> Result<(), ErrorData> {
    let chars = uri.chars().count();
    if chars > MAX_URI_CHARS {
        return Err(ErrorData::invalid_params(
            format!(
                "The resource URI is {chars} characters long; this server's URIs are under {MAX_URI_CHARS} (see resources/list and resources/templates/list)."
            ),
            None,
        ));
    }
    Ok(())
}

/// The resource's contents from the tool's answer. A failed answer (no session, an unknown id,
/// Garmin down) becomes an error carrying the tool's sentence.
pub fn contents(
    uri: &str,
    reading: &Reading,
    answer: &CallToolResult,
) -> Result<ReadResourceResult, ErrorData> {
    let first_text =
        answer.content.iter().find_map(|c| c.as_text()).map(|t| t.text.clone()).unwrap_or_default();
    if answer.is_error == Some(true) {
        return Err(ErrorData::internal_error(format!("`{}` cannot be read: {first_text}", echo(uri)), None));
    }
    if reading.png {
        let image = answer.content.iter().find_map(|c| c.as_image()).map(|image| image.data.clone());
        let Some(data) = image else {
            return Err(ErrorData::internal_error(
                format!("`{}`: the chart came back without an image.", echo(uri)),
                None,
            ));
        };
        return Ok(ReadResourceResult::new(vec![ResourceContents::blob(data, uri).with_mime_type(PNG)]));
    }
    let structured = answer.structured_content.clone().unwrap_or_else(|| json!({"summary": first_text}));
    let text = serde_json::to_string(&structured)
        .map_err(|e| ErrorData::internal_error(format!("could not encode `{uri}`: {e}"), None))?;
    Ok(ReadResourceResult::new(vec![ResourceContents::text(text, uri).with_mime_type(JSON)]))
}

/// Ids in a tool's structured answer: every `key` of the objects in `list` (e.g. the `activity_id`
/// of each row of `activities`), as strings for completion.
pub fn ids_in(answer: &CallToolResult, list: &str, key: &str) -> Vec<String> {
    answer
        .structured_content
        .as_ref()
        .and_then(|s| s.get(list))
        .and_then(Value::as_array)
        .map(|rows| rows.iter().filter_map(|row| row.get(key)).map(|id| id.to_string()).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_map_to_the_tools_that_answer_them() {
        let r = resolve("garmin://activity/123", Some("/tmp/c")).ok();
        assert_eq!(r.map(|r| (r.tool, r.arguments)), Some(("get_activity", json!({"activity_id": 123}))));
        let r = resolve("garmin://chart/activity/9", Some("/tmp/c")).ok();
        assert!(r.is_some_and(|r| r.png && r.tool == "render_chart" && r.arguments["activity_id"] == 9));
        let e =
            resolve("garmin://activity/abc", None).err().map(|e| e.message.to_string()).unwrap_or_default();
        assert!(e.contains("found `abc`"), "{e}");
        let e = resolve("garmin://nope", None).err().map(|e| e.code);
        assert_eq!(e, Some(rmcp::model::ErrorCode::RESOURCE_NOT_FOUND));
    }
}

/// Resources a write by `tool` changes, when it wrote something (see [`Subscriptions`]).
pub fn changed_by(tool: &str) -> &'static [&'static str] {
    match tool {
        "create_workout" | "delete_workout" | "undo_change" => &[WORKOUT_LIBRARY],
        _ => &[],
    }
}

/// What a change to the athlete memory means for resources.
#[derive(Debug, Default, PartialEq)]
pub struct AthleteChange {
    /// Resources whose content changed (`garmin://athlete`, the goal race's own).
    pub updated: Vec<String>,
    /// Whether the resource list changed (a goal race came or went, or changed its title).
    pub list_changed: bool,
}

/// The resources a successful call of athlete memory tool `tool` changed, read from its answer
/// (`fact.fact_id`, `fact.kind`); `None` for every other tool.
pub fn athlete_change(tool: &str, structured: Option<&Value>) -> Option<AthleteChange> {
    if !["remember_athlete_fact", "update_athlete_fact", "forget_athlete_fact"].contains(&tool) {
        return None;
    }
    let fact = structured.and_then(|s| s.get("fact"));
    let mut change = AthleteChange { updated: vec![ATHLETE.to_owned()], list_changed: false };
    if let Some(id) = fact.and_then(|f| f.get("fact_id")).and_then(Value::as_u64) {
        // A goal race's own resource changes; an update may also have made or unmade one.
        let goal = fact.and_then(|f| f.get("kind")).and_then(Value::as_str) == Some("goal_race");
        if goal || tool == "update_athlete_fact" {
            change.updated.push(goal_uri(id));
            change.list_changed = true;
        }
    }
    Some(change)
}

/// Subscriptions one session may hold: every resource this server sends updates for is well
/// under this (five fixed ones and the goal races).
pub const MAX_SUBSCRIPTIONS_PER_SESSION: usize = 64;
/// Subscriptions of all sessions of one client together (the authenticated caller over HTTP; see
/// `crate::caller::client_of_call`).
pub const MAX_SUBSCRIPTIONS_PER_CLIENT: usize = 512;
/// Subscriptions of all sessions together.
pub const MAX_SUBSCRIPTIONS: usize = 4096;

/// Why a subscription was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubscribeRefused {
    /// This session holds [`MAX_SUBSCRIPTIONS_PER_SESSION`] already.
    SessionFull,
    /// The client's sessions hold [`MAX_SUBSCRIPTIONS_PER_CLIENT`] already.
    ClientFull,
    /// All sessions together hold [`MAX_SUBSCRIPTIONS`].
    ServerFull,
}

impl SubscribeRefused {
    /// The refusal as the client reads it.
    pub fn message(self) -> String {
        match self {
            SubscribeRefused::SessionFull => format!(
                "This session already holds {MAX_SUBSCRIPTIONS_PER_SESSION} subscriptions, the most one session may; unsubscribe from some first."
            ),
            SubscribeRefused::ClientFull => format!(
                "This client's sessions already hold {MAX_SUBSCRIPTIONS_PER_CLIENT} subscriptions; unsubscribe from some, or end unused sessions, first."
            ),
            SubscribeRefused::ServerFull => {
                format!("The server holds {MAX_SUBSCRIPTIONS} subscriptions, its limit; try again later.")
            }
        }
    }
}

/// Which session subscribed to which resource (`resources/subscribe`), shared by every session of
/// one server, so a workout created from one client updates another client's library. Bounded per
/// session and in all; a session's subscriptions end with it ([`SessionTag`]'s drop), and a client
/// that went away is also forgotten the first time a notification cannot reach it.
#[derive(Debug, Default)]
pub struct Subscriptions {
    sessions: std::sync::Mutex<std::collections::HashMap<u64, Subscriber>>,
}

/// One session's subscriptions, its client and how to reach it.
#[derive(Debug)]
struct Subscriber {
    peer: rmcp::Peer<rmcp::RoleServer>,
    client: String,
    uris: std::collections::BTreeSet<String>,
}

impl Subscriptions {
    fn sessions(&self) -> std::sync::MutexGuard<'_, std::collections::HashMap<u64, Subscriber>> {
        self.sessions.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Subscribes `session` of `client` (reached through `peer`) to `uri`, within the caps.
    pub fn add(
        &self,
        session: u64,
        client: &str,
        uri: &str,
        peer: rmcp::Peer<rmcp::RoleServer>,
    ) -> Result<(), SubscribeRefused> {
        let mut sessions = self.sessions();
        if sessions.get(&session).is_some_and(|s| s.uris.contains(uri)) {
            return Ok(());
        }
        if sessions.get(&session).is_some_and(|s| s.uris.len() >= MAX_SUBSCRIPTIONS_PER_SESSION) {
            return Err(SubscribeRefused::SessionFull);
        }
        let of_client: usize = sessions.values().filter(|s| s.client == client).map(|s| s.uris.len()).sum();
        if of_client >= MAX_SUBSCRIPTIONS_PER_CLIENT {
            return Err(SubscribeRefused::ClientFull);
        }
        if sessions.values().map(|s| s.uris.len()).sum::<usize>() >= MAX_SUBSCRIPTIONS {
            return Err(SubscribeRefused::ServerFull);
        }
        let subscriber = sessions.entry(session).or_insert_with(|| Subscriber {
            peer,
            client: client.to_owned(),
            uris: Default::default(),
        });
        subscriber.uris.insert(uri.to_owned());
        Ok(())
    }

    /// Ends `session`'s subscription to `uri`.
    pub fn remove(&self, session: u64, uri: &str) {
        let mut sessions = self.sessions();
        if let Some(subscriber) = sessions.get_mut(&session) {
            subscriber.uris.remove(uri);
            if subscriber.uris.is_empty() {
                sessions.remove(&session);
            }
        }
    }

    /// Forgets every subscription of `session` (it ended).
    pub fn end_session(&self, session: u64) {
        self.sessions().remove(&session);
    }

    /// Subscriptions held by all sessions together.
    pub fn count(&self) -> usize {
        self.sessions().values().map(|s| s.uris.len()).sum()
    }

    /// Tells every subscriber of `uri` that it changed.
    pub async fn updated(&self, uri: &str) {
        let peers: Vec<(u64, rmcp::Peer<rmcp::RoleServer>)> = self
            .sessions()
            .iter()
            .filter(|(_, s)| s.uris.contains(uri))
            .map(|(id, s)| (*id, s.peer.clone()))
            .collect();
        for (session, peer) in peers {
            let param = rmcp::model::ResourceUpdatedNotificationParam::new(uri);
            if peer.notify_resource_updated(param).await.is_err() {
                self.end_session(session);
            }
        }
    }

    /// Tells the session that made the change (`peer`, session `current`) and every other
    /// subscribed session that the resource list changed
    /// (`notifications/resources/list_changed`).
    pub async fn list_changed(&self, current: u64, peer: &rmcp::Peer<rmcp::RoleServer>) {
        let mut peers: Vec<(u64, rmcp::Peer<rmcp::RoleServer>)> = self
            .sessions()
            .iter()
            .filter(|(id, _)| **id != current)
            .map(|(id, s)| (*id, s.peer.clone()))
            .collect();
        peers.sort_by_key(|(s, _)| *s);
        let _ = peer.notify_resource_list_changed().await;
        for (session, other) in peers {
            if other.notify_resource_list_changed().await.is_err() {
                self.end_session(session);
            }
        }
    }
}

/// Tells one session from another: every clone of the server (one per session) draws a new one.
/// When the session's server is dropped (the session ended), its subscriptions go with it.
#[derive(Debug)]
pub struct SessionTag {
    /// The session's number.
    pub id: u64,
    subscriptions: std::sync::Arc<Subscriptions>,
}

static NEXT_SESSION: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl SessionTag {
    /// A new session of the server whose subscriptions are `subscriptions`.
    pub fn new(subscriptions: std::sync::Arc<Subscriptions>) -> Self {
        SessionTag { id: NEXT_SESSION.fetch_add(1, std::sync::atomic::Ordering::Relaxed), subscriptions }
    }

    /// The subscriptions of every session of this server.
    pub fn subscriptions(&self) -> &Subscriptions {
        &self.subscriptions
    }
}

impl Clone for SessionTag {
    fn clone(&self) -> Self {
        SessionTag::new(self.subscriptions.clone())
    }
}

impl Drop for SessionTag {
    fn drop(&mut self) {
        self.subscriptions.end_session(self.id);
    }
}
