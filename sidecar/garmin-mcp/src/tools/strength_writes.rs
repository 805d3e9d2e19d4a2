//! The `activities` toolset's write: `correct_strength_sets` corrects a finished strength session
//! ("the watch thought my rows were curls"): other exercises, reps, weights or times for some of its
//! sets, through the safety model ([`crate::writes`]) like every write, journaled with the sets
//! Garmin held before so `undo_change` restores them.
//!
//! The corrections are checked against Garmin's exercise catalogue before Garmin is asked anything
//! (an unknown or ambiguous name is refused with the three closest: Garmin refuses the whole save
//! for one name it does not know); then the session and its sets are read to check the set numbers
//! and say the change in words, old → new per set (`garmin::strength_edit`).

use garmin::changes::Change;
use garmin::models::activities::Activity;
use garmin::reads::records_sets;
use garmin::strength_edit::{self, SetCorrection};
use garmin::workout_spec::Language;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::service::RequestContext;
use rmcp::{RoleServer, schemars, tool, tool_router};
use serde::Deserialize;

use crate::output::Answer;
use crate::server::GarminMcp;
use crate::tool_error::ToolError;
use crate::writes::{Proposed, WriteOutcome};

/// Arguments of `correct_strength_sets`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct CorrectSetsArgs {
    /// The strength activity (an id from list_activities).
    pub activity_id: u64,
    /// The corrections, one per set to change, by the set's number in get_activity's strength log
    /// (1, 2, 3…; rests not counted); what a correction leaves out stays as it is. Example:
    /// [{"set": 3, "exercise": "barbell row"}, {"set": 4, "exercise": "barbell row", "reps": 8,
    /// "weight_kg": 60}].
    pub sets: Vec<SetCorrection>,
    /// Language of the preview the person reads: "en" (default) or "zh".
    #[serde(default)]
    pub language: Option<Language>,
    /// Write now (see create_workout).
    #[serde(default)]
    pub confirm: bool,
}

#[tool_router(router = strength_writes_tools, vis = "pub(crate)")]
impl GarminMcp {
    /// Correct a finished strength session's sets when the watch logged the wrong exercise, reps or
    /// weight ("my rows were logged as curls"): give the set numbers from get_activity and what
    /// each really was. Exercise names are matched to Garmin's catalogue (unknown or ambiguous
    /// names are refused with the closest ones). Answers with the change in words, old → new per
    /// set; nothing is written until the person confirms (like create_workout), and undo_change
    /// puts the previous sets back.
    #[tool(
        name = "correct_strength_sets",
        annotations(
            title = "Correct a strength session's sets",
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = true,
            open_world_hint = true
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<WriteOutcome>()
    )]
    async fn correct_strength_sets(
        &self,
        Parameters(args): Parameters<CorrectSetsArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<Answer<WriteOutcome>, ToolError> {
        let checked = strength_edit::check(&args.sets).map_err(|why| {
            ToolError::invalid(format!("Nothing was sent to Garmin; the corrections have problems:\n{why}"))
        })?;
        let client = self.web_session().await?;
        let id = args.activity_id;
        let activities = client.activities();
        let (activity, sets) = tokio::try_join!(activities.get(id), activities.exercise_sets(id))?;
        if !records_sets(&activity) {
            return Err(ToolError::invalid(format!(
                "activity {id} is a {} activity, not a strength session: only strength sessions have sets to correct",
                activity.type_key().unwrap_or("different")
            )));
        }
        let current = sets.map(|s| strength_edit::saved_sets(&s)).unwrap_or_default();
        let corrected = strength_edit::apply(&current, &checked).map_err(|why| {
            ToolError::invalid(format!(
                "Nothing was sent to Garmin; the corrections do not fit this session:\n{why}"
            ))
        })?;
        let language = args.language.unwrap_or_default();
        let proposed = Proposed {
            preview: strength_edit::preview(&corrected, &session_words(&activity, id, language), language),
            change: Change::CorrectStrengthSets { activity_id: id, sets: corrected.sets },
            spec: None,
            undoes: None,
        };
        self.writes().propose(proposed, args.confirm, &ctx).await
    }
}

/// The session as the preview names it: `'Strength A' (activity 7, Tue 2026-12-01)` /
/// `「Strength A」（活动 7，2026-12-01）`.
fn session_words(activity: &Activity, id: u64, language: Language) -> String {
    let name = activity.activity_name.as_deref().filter(|n| !n.trim().is_empty()).unwrap_or("Strength");
    let start = activity.summary.as_ref().and_then(|s| s.start_time_local);
    match language {
        Language::En => {
            let day = start.map_or_else(String::new, |t| format!(", {}", t.format("%a %Y-%m-%d")));
            format!("'{name}' (activity {id}{day})")
        }
        Language::Zh => {
            let day = start.map_or_else(String::new, |t| format!("，{}", t.format("%Y-%m-%d")));
            format!("「{name}」（活动 {id}{day}）")
        }
    }
}
