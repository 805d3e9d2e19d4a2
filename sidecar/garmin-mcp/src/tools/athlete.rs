//! The `athlete` toolset: the athlete memory (`local_data::athlete`, `athlete.json` in the data folder)
//! as four tools — `remember_athlete_fact`, `update_athlete_fact`, `list_athlete_facts` and
//! `forget_athlete_fact` — so goal races, injuries, constraints and preferences said in one
//! conversation hold in the next. Each fact keeps the MCP client that said it (`clientInfo.name`).
//!
//! These tools write only to this computer (never to Garmin: `openWorldHint` false). With
//! `--readonly` the three that write are not listed (like every tool that is not read-only);
//! `list_athlete_facts` and the `garmin://athlete` resources stay. The memory also feeds the
//! server's instructions, the race-readiness and plan-next-week prompts and `get_training_status`
//! (days to the next goal race), through [`GarminMcp::athlete_facts`] and [`GoalRaceNote`].
//!
//! A fact reaches every later client of this computer, so over HTTP — where callers may be anyone
//! holding the token — a new fact, or new words for one, is kept only once the person confirms it
//! the way writes are confirmed ([`GarminMcp::confirm_remote_fact`]): asked in their chat when the
//! client can ask, written directly only when the server's owner allowed writes
//! (`GARMIN_ALLOW_WRITE=1`), never with previews only (`GARMIN_WORKOUT_EDITOR=0`).

use chrono::NaiveDate;
use local_data::athlete::{self, AthleteMemory, Fact, FactInput, FactKind, MemoryError};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::service::RequestContext;
use rmcp::{RoleServer, schemars, tool, tool_router};
use serde::{Deserialize, Serialize};

use crate::domain::goal_race::GoalRaceNote;
use crate::elicit::Asked;
use crate::output::{Answer, BUDGET_BYTES};
use crate::server::GarminMcp;
use crate::tool_error::ToolError;
use crate::writes::WriteMode;

/// Arguments of `remember_athlete_fact`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RememberArgs {
    /// What kind of fact: `goal_race` (needs `date`), `injury`, `constraint`, `preference`,
    /// `volume_cap`, `equipment` or `other`.
    pub kind: FactKind,
    /// The fact in the athlete's words, e.g. "Berlin Marathon", "sore left Achilles", "no running on
    /// Mondays", "trains by heart rate, not pace", "answers in Chinese" (at most 500 characters).
    #[schemars(length(max = 500))]
    pub text: String,
    /// A goal race's day (required for `goal_race`), or since when an injury hurts: `YYYY-MM-DD`.
    #[serde(default)]
    #[schemars(length(max = 10))]
    pub date: Option<String>,
    /// A goal race's distance in km (e.g. 42.195, 21.1, 10).
    #[serde(default)]
    #[schemars(range(min = 0.0, max = 1000.0))]
    pub distance_km: Option<f64>,
    /// A goal race's target time, `h:mm:ss` or `h:mm` (e.g. `3:15:00`, `0:45:00`).
    #[serde(default)]
    #[schemars(length(max = 12))]
    pub target_time: Option<String>,
    /// For `volume_cap`: most km a week.
    #[serde(default)]
    #[schemars(range(min = 0.0, max = 2000.0))]
    pub weekly_km_cap: Option<f64>,
}

/// Arguments of `update_athlete_fact`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateArgs {
    /// The fact's number (from list_athlete_facts).
    pub fact_id: u64,
    /// A new kind.
    #[serde(default)]
    pub kind: Option<FactKind>,
    /// New words for the fact (at most 500 characters).
    #[serde(default)]
    #[schemars(length(max = 500))]
    pub text: Option<String>,
    /// A new day, `YYYY-MM-DD` (empty removes it; a goal race keeps needing one).
    #[serde(default)]
    #[schemars(length(max = 10))]
    pub date: Option<String>,
    /// A new distance in km (0 removes it).
    #[serde(default)]
    #[schemars(range(min = 0.0, max = 1000.0))]
    pub distance_km: Option<f64>,
    /// A new target time, `h:mm:ss` or `h:mm` (empty removes it).
    #[serde(default)]
    #[schemars(length(max = 12))]
    pub target_time: Option<String>,
    /// A new weekly cap in km (0 removes it).
    #[serde(default)]
    #[schemars(range(min = 0.0, max = 2000.0))]
    pub weekly_km_cap: Option<f64>,
}

/// Arguments of `list_athlete_facts`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListArgs {
    /// Only facts of this kind.
    #[serde(default)]
    pub kind: Option<FactKind>,
    /// Only this fact.
    #[serde(default)]
    pub fact_id: Option<u64>,
}

/// Arguments of `forget_athlete_fact`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ForgetArgs {
    /// The fact's number (from list_athlete_facts).
    pub fact_id: u64,
}

/// One remembered fact as tools answer it.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct FactRow {
    /// Its number (for update_athlete_fact and forget_athlete_fact).
    pub fact_id: u64,
    /// `goal_race`, `injury`, `constraint`, `preference`, `volume_cap`, `equipment` or `other`.
    pub kind: String,
    /// The fact in the athlete's words.
    pub text: String,
    /// A goal race's day, or since when an injury hurts (`YYYY-MM-DD`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// For a goal race: days from today to the race (negative once it is past).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub days_to_race: Option<i64>,
    /// A goal race's distance, km.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance_km: Option<f64>,
    /// A goal race's target time, `h:mm:ss`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_time: Option<String>,
    /// Most km a week.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weekly_km_cap: Option<f64>,
    /// When it was remembered, UTC (RFC 3339).
    pub created: String,
    /// When it last changed, UTC (RFC 3339).
    pub updated: String,
    /// The client (or the app) that remembered it.
    pub source: String,
    /// Who changed it last, when someone did.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub updated_by: Option<String>,
}

impl FactRow {
    /// The row of `fact` on `today`.
    pub fn new(fact: &Fact, today: NaiveDate) -> Self {
        let stamp = |t: chrono::DateTime<chrono::Utc>| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
        FactRow {
            fact_id: fact.id,
            kind: fact.kind.id().to_owned(),
            text: fact.text.clone(),
            date: fact.date.map(|d| d.to_string()),
            days_to_race: (fact.kind == FactKind::GoalRace).then(|| fact.days_from(today)).flatten(),
            distance_km: fact.distance_km,
            target_time: fact.target_time.clone(),
            weekly_km_cap: fact.weekly_km_cap,
            created: stamp(fact.created),
            updated: stamp(fact.updated),
            source: fact.source.clone(),
            updated_by: fact.updated_by.clone(),
        }
    }
}

/// The memory, or one part of it.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct FactList {
    /// The facts, goal races first (soonest first), then injuries, constraints, volume caps,
    /// preferences, equipment and other.
    pub facts: Vec<FactRow>,
    /// How many facts the memory holds in all.
    pub total: usize,
    /// The next goal race, with the days to it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_goal_race: Option<GoalRaceNote>,
}

/// What a change to the memory did.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct FactChange {
    /// `remembered`, `updated` or `forgotten`.
    pub action: String,
    /// The fact as it is now (as it was, when forgotten).
    pub fact: FactRow,
    /// How many facts the memory holds now.
    pub total: usize,
}

/// A memory refusal as the model reads it: bad arguments (naming the argument) and unknown ids are
/// argument errors; file trouble is a local error with what to do.
fn tool_error(error: MemoryError) -> ToolError {
    match error {
        MemoryError::Invalid { .. } | MemoryError::NotFound { .. } | MemoryError::Full => {
            ToolError::invalid(capitalise(&error.to_string()))
        }
        other => ToolError::Local(capitalise(&other.to_string())),
    }
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// The MCP client's name from `initialize` (`clientInfo.name`).
fn client_name(ctx: &RequestContext<RoleServer>) -> String {
    ctx.peer.peer_info().map(|info| info.client_info.name.clone()).unwrap_or_default()
}

/// Runs blocking file work (the lock may wait) off the runtime's threads.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, MemoryError> + Send + 'static,
) -> Result<T, ToolError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| ToolError::Local(format!("the athlete memory task stopped: {e}")))?
        .map_err(tool_error)
}

/// The order facts are listed in: goal races by date, then the kinds in [`FactKind::ALL`] order.
fn sorted(mut facts: Vec<Fact>) -> Vec<Fact> {
    let rank = |k: FactKind| FactKind::ALL.iter().position(|x| *x == k).unwrap_or(usize::MAX);
    facts.sort_by_key(|f| (rank(f.kind), f.date, f.id));
    facts
}

impl GarminMcp {
    /// The athlete memory of this server's data folder.
    pub(crate) fn athlete_memory(&self) -> AthleteMemory {
        AthleteMemory::in_dir(self.store().dir())
    }

    /// Every remembered fact; empty when none, or when the file cannot be read (the analyses that
    /// use it must not fail because of it; the athlete tools report the problem).
    pub(crate) fn athlete_facts(&self) -> Vec<Fact> {
        self.athlete_memory().facts().unwrap_or_else(|e| {
            tracing::warn!("the athlete memory cannot be read: {e}");
            Vec::new()
        })
    }

    /// The next goal race (for analyses such as `get_training_status`), when the `athlete` toolset
    /// is offered and one is remembered.
    pub(crate) fn next_goal_race(&self) -> Option<GoalRaceNote> {
        if !self.offers_tool("list_athlete_facts") {
            return None;
        }
        GoalRaceNote::next(&self.athlete_facts(), self.today())
    }

    /// For a caller over HTTP, the person's confirmation of `what` (a fact to remember, new words
    /// for one), as writes to Garmin are confirmed (see the module docs); `Ok` to go ahead. Local
    /// (stdio) callers are the person's own client and are not asked.
    async fn confirm_remote_fact(
        &self,
        what: &str,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<(), ToolError> {
        if !self.has_remote_callers() {
            return Ok(());
        }
        let not_kept = "Nothing was remembered";
        if self.write_mode() == WriteMode::PreviewOnly {
            return Err(ToolError::Local(format!(
                "{not_kept}: this server only previews changes (GARMIN_WORKOUT_EDITOR=0). The fact would be: {what}."
            )));
        }
        if !crate::elicit::client_can_ask(ctx) {
            if self.write_mode() == WriteMode::Direct {
                return Ok(());
            }
            return Err(ToolError::Local(format!(
                "{not_kept}: over HTTP a fact is kept only once the person confirms it in their chat, and this AI client \
                 cannot ask them (it did not declare MCP elicitation). Remember it from the Garmin MCP app or a client on \
                 the server's computer instead. The fact would be: {what}."
            )));
        }
        let message = format!(
            "Garmin MCP asks before remembering this about you (every assistant connected to Garmin MCP on this \
             computer will read it as a note):\n{what}\n\nTick \"Yes, remember this\" and submit to keep it; decline to leave \
             the athlete memory as it is."
        );
        let question = crate::elicit::yes_no_question(message, "Yes, remember this");
        let waiting = "Waiting for the person to confirm the fact in the chat…";
        let answer = match self.chat().ask(question, ctx, waiting).await {
            Asked::Answered(answer) => answer,
            Asked::Cancelled => return Err(ToolError::Local(format!("{not_kept}: the call was cancelled."))),
            Asked::TimedOut(_) => {
                return Err(ToolError::Local(format!(
                    "{not_kept}: nobody answered the question in the chat in time. Ask the person whether they want it kept."
                )));
            }
            Asked::Busy(why) => return Err(ToolError::Local(why)),
            Asked::Failed(why) => {
                return Err(ToolError::Local(format!(
                    "{not_kept}: this AI client could not show the question ({why})."
                )));
            }
        };
        match crate::elicit::said_yes(&answer) {
            Ok(true) => Ok(()),
            Ok(false) => Err(ToolError::Local(format!(
                "{not_kept}: the person did not confirm it in the chat. Do not ask again unless they say so."
            ))),
            Err(why) => Err(ToolError::Local(format!("{not_kept}: the answer cannot be used ({why})."))),
        }
    }

    fn change_answer(&self, action: &str, fact: &Fact, total: usize) -> Answer<FactChange> {
        let today = self.today();
        let row = FactRow::new(fact, today);
        let when = row.days_to_race.map(|d| format!(", {}", athlete::days_phrase(d))).unwrap_or_default();
        let summary = format!(
            "{} #{}: {}{when}. The athlete memory holds {total} fact(s), on this computer only.",
            capitalise(action),
            fact.id,
            fact.describe()
        );
        self.answer(summary, FactChange { action: action.to_owned(), fact: row, total })
    }
}

#[tool_router(router = athlete_tools, vis = "pub(crate)")]
impl GarminMcp {
    /// Remember a fact about the athlete for later conversations: a goal race (with `date`, and
    /// `distance_km` and `target_time` when known), an injury or niggle, a constraint ("no running on
    /// Mondays"), a preference (units, pace or heart-rate training, language), a weekly volume cap
    /// (`weekly_km_cap`) or equipment. Call it when the athlete tells you something that should still
    /// hold next time; check list_athlete_facts first so the same fact is not kept twice (change it
    /// with update_athlete_fact instead). Kept on this computer only, never sent to Garmin.
    #[tool(
        name = "remember_athlete_fact",
        annotations(
            title = "Remember a fact about the athlete",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = false
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<FactChange>()
    )]
    async fn remember_athlete_fact(
        &self,
        Parameters(args): Parameters<RememberArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<Answer<FactChange>, ToolError> {
        let memory = self.athlete_memory();
        let source = client_name(&ctx);
        let input = FactInput {
            kind: Some(args.kind),
            text: Some(args.text),
            date: args.date,
            distance_km: args.distance_km,
            target_time: args.target_time,
            weekly_km_cap: args.weekly_km_cap,
        };
        let checked = AthleteMemory::check(&input, &source, chrono::Utc::now()).map_err(tool_error)?;
        self.confirm_remote_fact(&checked.describe(), &ctx).await?;
        let (fact, total) = blocking(move || {
            let fact = memory.remember(input, &source, chrono::Utc::now())?;
            Ok((fact, memory.facts()?.len()))
        })
        .await?;
        Ok(self.change_answer("remembered", &fact, total))
    }

    /// Change a remembered fact (a new target time, a race moved, an injury better): only the fields
    /// given change; an empty `date` or `target_time`, or a 0 distance or cap, removes that field.
    /// Kept on this computer only.
    #[tool(
        name = "update_athlete_fact",
        annotations(
            title = "Change a remembered fact",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<FactChange>()
    )]
    async fn update_athlete_fact(
        &self,
        Parameters(args): Parameters<UpdateArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<Answer<FactChange>, ToolError> {
        let memory = self.athlete_memory();
        let source = client_name(&ctx);
        let input = FactInput {
            kind: args.kind,
            text: args.text,
            date: args.date,
            distance_km: args.distance_km,
            target_time: args.target_time,
            weekly_km_cap: args.weekly_km_cap,
        };
        let id = args.fact_id;
        if let Some(text) = &input.text {
            let words =
                serde_json::to_string(&display::text::clean_display_text(text, athlete::MAX_TEXT_CHARS))
                    .unwrap_or_default();
            self.confirm_remote_fact(&format!("fact #{id} now reads {words}"), &ctx).await?;
        }
        let (fact, total) = blocking(move || {
            let fact = memory.update(id, input, &source, chrono::Utc::now())?;
            Ok((fact, memory.facts()?.len()))
        })
        .await?;
        Ok(self.change_answer("updated", &fact, total))
    }

    /// What is remembered about the athlete — goal races (with the days to the next one), injuries,
    /// constraints, volume caps, preferences, equipment — each with its number, when and by which
    /// client it was remembered. Read it before planning or judging training, and before remembering
    /// something new. Reads a local file only.
    #[tool(
        name = "list_athlete_facts",
        annotations(title = "What is remembered about the athlete", read_only_hint = true, open_world_hint = false),
        output_schema = rmcp::handler::server::tool::schema_for_output::<FactList>()
    )]
    async fn list_athlete_facts(
        &self,
        Parameters(args): Parameters<ListArgs>,
    ) -> Result<Answer<FactList>, ToolError> {
        let memory = self.athlete_memory();
        let all = blocking(move || memory.facts()).await?;
        let today = self.today();
        let total = all.len();
        let next_goal_race = GoalRaceNote::next(&all, today);
        if let Some(id) = args.fact_id {
            let fact =
                all.iter().find(|f| f.id == id).ok_or_else(|| tool_error(MemoryError::NotFound { id }))?;
            if let Some(kind) = args.kind
                && fact.kind != kind
            {
                return Err(ToolError::invalid(format!(
                    "Fact #{id} is a {}, not a {}.",
                    fact.kind.label(),
                    kind.label()
                )));
            }
        }
        let chosen: Vec<Fact> = sorted(all)
            .into_iter()
            .filter(|f| args.kind.is_none_or(|k| f.kind == k) && args.fact_id.is_none_or(|id| f.id == id))
            .collect();
        let shown = chosen.len();
        let mut list = FactList {
            facts: chosen.iter().map(|f| FactRow::new(f, today)).collect(),
            total,
            next_goal_race,
        };
        let mut summary = list_summary(&chosen, &list, &args);
        // Within the budget: drop rows from the end and say so.
        while !list.facts.is_empty() && Answer::new(summary.clone(), &list).text_len() > BUDGET_BYTES - 400 {
            list.facts.pop();
            summary = format!(
                "{} Only the first {} of {shown} are listed: ask for one `kind` or `fact_id` to see the rest.",
                list_summary(&chosen, &list, &args),
                list.facts.len()
            );
        }
        Ok(self.answer(summary, list))
    }

    /// Forget a remembered fact for good (a race that is over, an injury healed, a preference that
    /// changed). Kept on this computer only; nothing in Garmin changes.
    #[tool(
        name = "forget_athlete_fact",
        annotations(
            title = "Forget a remembered fact",
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = true,
            open_world_hint = false
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<FactChange>()
    )]
    async fn forget_athlete_fact(
        &self,
        Parameters(args): Parameters<ForgetArgs>,
    ) -> Result<Answer<FactChange>, ToolError> {
        let memory = self.athlete_memory();
        let id = args.fact_id;
        let (fact, total) = blocking(move || {
            let fact = memory.forget(id)?;
            Ok((fact, memory.facts()?.len()))
        })
        .await?;
        Ok(self.change_answer("forgot", &fact, total))
    }
}

/// The list's summary: how many, the next race, and the facts in a line while they fit.
fn list_summary(chosen: &[Fact], list: &FactList, args: &ListArgs) -> String {
    if list.total == 0 {
        return "Nothing is remembered about the athlete yet. When they mention a goal race, an injury, a \
                constraint or a preference worth keeping, offer to remember it (remember_athlete_fact)."
            .to_owned();
    }
    if chosen.is_empty() {
        let what = args.kind.map(|k| format!(" of kind {}", k.label())).unwrap_or_default();
        return format!("No remembered fact{what}; the athlete memory holds {} in all.", list.total);
    }
    let mut text = if chosen.len() == list.total {
        format!("{} fact(s) remembered about the athlete", list.total)
    } else {
        format!("{} of the {} remembered fact(s)", chosen.len(), list.total)
    };
    let lines: Vec<String> =
        chosen.iter().take(list.facts.len()).map(|f| format!("#{} {}", f.id, f.describe())).collect();
    let joined = lines.join("; ");
    if joined.len() <= 1500 {
        text.push_str(&format!(": {joined}."));
    } else {
        text.push('.');
    }
    if let Some(race) = &list.next_goal_race {
        text.push(' ');
        text.push_str(&race.sentence());
    }
    text
}
