//! `get_strength_progress` (toolset `analysis`): "how has my squat moved", "which muscles have I
//! neglected" — from the strength sets the local history keeps, the weekly sets and volume per
//! muscle group, each exercise's estimated one-rep max session by session, and the days since each
//! muscle group was trained. Parse → `domain::strength` → shape; no formula here.

use analytics::strength::{E1RM_CONVENTION, MUSCLE_CONVENTION, RECENCY_CONVENTION};
use chrono::{Duration, NaiveDate};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{schemars, tool, tool_router};
use serde::{Deserialize, Serialize};

use crate::domain::session_load::round1;
use crate::domain::strength::{
    DEFAULT_WEEKS, MAX_WEEKS, NEGLECTED_AFTER_DAYS, StrengthProgress, Trend, progress, resolve_exercise,
    week_range,
};
use crate::history::DataSource;
use crate::output::{Answer, BUDGET_BYTES};
use crate::server::GarminMcp;
use crate::tool_error::ToolError;

/// Exercises listed when none was named (most sessions first).
const LISTED_EXERCISES: usize = 10;

/// Arguments of `get_strength_progress`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct StrengthProgressArgs {
    /// Calendar weeks (Monday to Sunday) back to the week of yesterday, 1–52 (default 8).
    #[serde(default)]
    #[schemars(range(min = 1, max = 52))]
    pub weeks: Option<u32>,
    /// Only this exercise's estimated one-rep max (Garmin key, English or Chinese name, e.g.
    /// `barbell back squat`); the muscle groups always count every set.
    #[serde(default)]
    pub exercise: Option<String>,
}

/// One muscle group week by week.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct MuscleRow {
    /// The muscle group, e.g. `quads`.
    pub muscle: String,
    /// Sets per week, in the order of `week_starts` (primary 1, secondary 0.5).
    pub sets: Vec<f64>,
    /// Volume per week, kg (reps × kg; secondary half).
    pub volume_kg: Vec<f64>,
    /// Sets over the whole range.
    pub total_sets: f64,
}

/// One exercise's estimated one-rep max over time.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct ExerciseTrend {
    /// The exercise in words.
    pub exercise: String,
    /// Garmin's `CATEGORY/NAME`.
    pub exercise_key: String,
    /// The sessions' days, oldest first.
    pub dates: Vec<String>,
    /// Each session's best estimated one-rep max, kg (Epley).
    pub e1rm_kg: Vec<f64>,
    /// The last session's estimate minus the first's, kg.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change_kg: Option<f64>,
    /// The same in % of the first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change_pct: Option<f64>,
}

/// When a muscle group was last trained.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct MuscleSince {
    /// The muscle group.
    pub muscle: String,
    /// The last day a set worked it as a primary muscle (absent: never in the history).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_trained: Option<String>,
    /// Days from then to today.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub days_since: Option<i64>,
}

/// The answer of `get_strength_progress`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct StrengthProgressAnswer {
    /// First day (a Monday).
    pub start_date: String,
    /// Last day (yesterday at the latest).
    pub end_date: String,
    /// The exercise asked for, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exercise: Option<String>,
    /// Strength sessions with sets in the range.
    pub sessions: usize,
    /// How muscle groups, e1RM and "trained" are counted.
    pub convention: String,
    /// One line on the numbers.
    pub reading: String,
    /// The Mondays the weeks of `muscles` start on, oldest first.
    pub week_starts: Vec<String>,
    /// Sets and volume per muscle group and week, most sets first.
    pub muscles: Vec<MuscleRow>,
    /// Estimated one-rep max per exercise, most sessions first.
    pub exercises: Vec<ExerciseTrend>,
    /// Days since each muscle group was trained, longest first.
    pub days_since_trained: Vec<MuscleSince>,
    /// Muscle groups not trained for over 14 days (or never in the history).
    pub neglected: Vec<String>,
    /// What is missing or left out.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Where the numbers came from (absent when the history does not cover the range).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<DataSource>,
}

/// The conventions of the answer, as one sentence.
pub(crate) fn convention() -> String {
    format!(
        "Muscle groups: {MUSCLE_CONVENTION}. e1RM: Epley, kg × (1 + reps / 30), over sets of 1–12 reps; {E1RM_CONVENTION}. Days since: {RECENCY_CONVENTION}; neglected after {NEGLECTED_AFTER_DAYS} days."
    )
}

fn muscle_rows(p: &StrengthProgress, weeks: &[NaiveDate]) -> Vec<MuscleRow> {
    let mut rows: Vec<MuscleRow> = Vec::new();
    for w in &p.muscle_weeks {
        let Some(i) = weeks.iter().position(|d| *d == w.week_start) else { continue };
        let at = match rows.iter().position(|r| r.muscle == w.muscle) {
            Some(at) => at,
            None => {
                rows.push(MuscleRow {
                    muscle: w.muscle.clone(),
                    sets: vec![0.0; weeks.len()],
                    volume_kg: vec![0.0; weeks.len()],
                    total_sets: 0.0,
                });
                rows.len() - 1
            }
        };
        let row = &mut rows[at];
        row.sets[i] = w.sets;
        row.volume_kg[i] = round1(w.volume_kg);
        row.total_sets += w.sets;
    }
    rows.sort_by(|a, b| b.total_sets.total_cmp(&a.total_sets).then(a.muscle.cmp(&b.muscle)));
    rows
}

fn trend_row(t: &Trend) -> ExerciseTrend {
    let s = &t.progress.sessions;
    let first = s.first().map(|b| b.e1rm_kg);
    ExerciseTrend {
        exercise: t.words.clone(),
        exercise_key: t.progress.exercise.clone(),
        dates: s.iter().map(|b| b.date.to_string()).collect(),
        e1rm_kg: s.iter().map(|b| round1(b.e1rm_kg)).collect(),
        change_kg: t.progress.change_kg.map(round1),
        change_pct: t.progress.change_kg.zip(first).map(|(c, f)| round1(c / f * 100.0)),
    }
}

/// `Barbell back squat 80.3 → 84.1 kg (+3.8 kg, +4.7 %) over 8 sessions`.
fn trend_words(t: &ExerciseTrend) -> String {
    let (Some(first), Some(last)) = (t.e1rm_kg.first(), t.e1rm_kg.last()) else { return t.exercise.clone() };
    let change = match (t.change_kg, t.change_pct) {
        (Some(kg), Some(pct)) => format!(" ({kg:+} kg, {pct:+} %)"),
        _ => String::new(),
    };
    let n = t.dates.len();
    format!(
        "{} e1RM {first} → {last} kg{change} over {n} session{}",
        t.exercise,
        if n == 1 { "" } else { "s" }
    )
}

fn reading(answer: &StrengthProgressAnswer) -> String {
    if answer.sessions == 0 {
        return format!(
            "No strength session with sets from {} to {}{}.",
            answer.start_date,
            answer.end_date,
            answer.exercise.as_deref().map(|e| format!(" (asked: {e})")).unwrap_or_default()
        );
    }
    let mut parts = Vec::new();
    let trends: Vec<String> = answer.exercises.iter().take(3).map(trend_words).collect();
    if trends.is_empty() {
        parts.push(format!(
            "No weighted set of {} in the range",
            answer.exercise.as_deref().unwrap_or("any exercise")
        ));
    } else {
        parts.push(trends.join("; "));
    }
    let weeks = answer.week_starts.len().max(1) as f64;
    let top: Vec<String> =
        answer.muscles.iter().take(4).map(|m| format!("{} {:.1}", m.muscle, m.total_sets / weeks)).collect();
    if !top.is_empty() {
        parts.push(format!("most sets per week: {}", top.join(", ")));
    }
    if !answer.neglected.is_empty() {
        parts.push(format!(
            "neglected (not trained for over {NEGLECTED_AFTER_DAYS} days): {}",
            answer.neglected.join(", ")
        ));
    }
    let sentences: Vec<String> = parts.iter().map(|p| display::capitalise(p)).collect();
    format!("{}.", sentences.join(". "))
}

/// Shrinks `answer` to the response budget (a year of weeks and many exercises may not fit): the
/// exercises done in fewest sessions go first, then the muscle groups with fewest sets, each said in
/// the notes.
fn fit_budget(summary: &str, answer: &mut StrengthProgressAnswer) {
    let over =
        |a: &StrengthProgressAnswer| Answer::new(summary.to_owned(), a).text_len() > BUDGET_BYTES - 400;
    let (mut exercises, mut muscles) = (0, 0);
    while over(answer) && answer.exercises.len() > 1 {
        answer.exercises.pop();
        exercises += 1;
    }
    while over(answer) && answer.muscles.len() > 1 {
        answer.muscles.pop();
        muscles += 1;
    }
    if exercises > 0 {
        answer.notes.push(format!("{exercises} exercises left out to keep the answer short; name one with `exercise` or ask fewer weeks"));
    }
    if muscles > 0 {
        answer.notes.push(format!(
            "{muscles} muscle groups with the fewest sets left out to keep the answer short; ask fewer weeks"
        ));
    }
}

impl GarminMcp {
    /// What `get_strength_progress` answers (its description and schema are on the router).
    async fn get_strength_progress_answer(
        &self,
        args: StrengthProgressArgs,
    ) -> Result<Answer<StrengthProgressAnswer>, ToolError> {
        let weeks = args.weeks.unwrap_or(DEFAULT_WEEKS);
        if !(1..=MAX_WEEKS).contains(&weeks) {
            return Err(ToolError::invalid(format!("weeks must be between 1 and {MAX_WEEKS}, got {weeks}")));
        }
        let wanted = match args.exercise.as_deref().map(str::trim).filter(|e| !e.is_empty()) {
            Some(text) => Some(resolve_exercise(text)?),
            None => None,
        };
        let today = self.today();
        let (start, end) = week_range(today - Duration::days(1), weeks);
        let mut answer = StrengthProgressAnswer {
            start_date: start.to_string(),
            end_date: end.to_string(),
            exercise: wanted.as_ref().map(|w| w.words.clone()),
            sessions: 0,
            convention: convention(),
            reading: String::new(),
            week_starts: Vec::new(),
            muscles: Vec::new(),
            exercises: Vec::new(),
            days_since_trained: Vec::new(),
            neglected: Vec::new(),
            notes: Vec::new(),
            source: None,
        };
        let covered = match self.covered(start, end).await {
            Ok(c) => c,
            Err(note) => {
                answer.reading = format!("No strength progress: {note}.");
                let summary = format!("Strength progress {start} to {end}: {note}.");
                answer.notes.push(note);
                return Ok(self.answer(summary, answer));
            }
        };
        let history = covered.history.clone();
        let found =
            tokio::task::spawn_blocking(move || progress(&history, (start, end), today, wanted.as_ref()))
                .await
                .map_err(|e| {
                    ToolError::Local(format!("reading the strength sets stopped ({e}); try again"))
                })??;
        self.shape_strength(&mut answer, &found, start, end);
        answer.notes.extend(covered.notes);
        let summary = format!(
            "Strength progress {start} to {end} ({} session{}): {} Conventions: {} {}",
            answer.sessions,
            if answer.sessions == 1 { "" } else { "s" },
            answer.reading,
            answer.convention,
            covered.source.phrase()
        );
        answer.source = Some(covered.source);
        fit_budget(&summary, &mut answer);
        Ok(self.answer(summary, answer))
    }

    /// Fills `answer` from what the history's sets say.
    fn shape_strength(
        &self,
        answer: &mut StrengthProgressAnswer,
        found: &StrengthProgress,
        start: NaiveDate,
        end: NaiveDate,
    ) {
        let weeks: Vec<NaiveDate> = start.iter_weeks().take_while(|d| *d <= end).collect();
        answer.sessions = found.sessions;
        answer.week_starts = weeks.iter().map(NaiveDate::to_string).collect();
        answer.muscles = muscle_rows(found, &weeks);
        let listed = if answer.exercise.is_some() { usize::MAX } else { LISTED_EXERCISES };
        answer.exercises = found.trends.iter().take(listed).map(trend_row).collect();
        if found.trends.len() > answer.exercises.len() {
            answer.notes.push(format!(
                "{} more exercises left out (the {LISTED_EXERCISES} done in most sessions are listed); name one with `exercise`",
                found.trends.len() - answer.exercises.len()
            ));
        }
        answer.days_since_trained = found
            .recency
            .iter()
            .map(|r| MuscleSince {
                muscle: r.muscle.clone(),
                last_trained: r.last_trained.map(|d| d.to_string()),
                days_since: r.days_since,
            })
            .collect();
        answer.neglected = found.neglected.clone();
        if found.sessions_unread > 0 {
            answer.notes.push(format!(
                "{} strength sessions of the range have no sets in the history yet: run sync_history",
                found.sessions_unread
            ));
        }
        answer.reading = reading(answer);
    }
}

#[tool_router(router = strength_progress_tools, vis = "pub(crate)")]
impl GarminMcp {
    /// Strength progress from the local history's strength sets: weekly sets and volume per muscle
    /// group (a set counts 1 for each muscle it mainly works, 0.5 for each it also works), each
    /// exercise's estimated one-rep max session by session (Epley), the days since each muscle
    /// group was trained and the neglected ones. Use it for "how has my squat moved?", "which
    /// muscles have I neglected?". Default: the last 8 weeks. Needs the history (`sync_history`).
    #[tool(
        name = "get_strength_progress",
        annotations(
            title = "Strength progress",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<StrengthProgressAnswer>()
    )]
    async fn get_strength_progress(
        &self,
        Parameters(args): Parameters<StrengthProgressArgs>,
    ) -> Result<Answer<StrengthProgressAnswer>, ToolError> {
        self.get_strength_progress_answer(args).await
    }
}
