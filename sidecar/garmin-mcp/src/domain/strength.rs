//! Strength progress from the local history, shared by `get_strength_progress` and the `strength`
//! chart: the history's sets (`history::read_sets`) named, keyed and given their muscles and
//! estimated one-rep max by the `garmin` crate's strength log (Epley, the catalogue), and handed to
//! `analytics::strength` for the weekly muscle volume, the e1RM trends and the days since each
//! muscle group was trained. No formula lives here.

use analytics::strength::{self, ExerciseProgress, LiftedSet, MuscleRecency, MuscleWeek};
use chrono::{Duration, NaiveDate};
use garmin::exercises::{self, List, Lookup};
use garmin::strength_log;
use history::History;
use history::read_sets::StrengthSet;

use crate::tool_error::ToolError;

/// Default weeks of `get_strength_progress` and the `strength` chart.
pub const DEFAULT_WEEKS: u32 = 8;
/// Most weeks asked at once.
pub const MAX_WEEKS: u32 = 52;
/// A muscle group not trained for more days than this is neglected.
pub const NEGLECTED_AFTER_DAYS: i64 = 14;

/// The exercise a person named, as the history keys it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wanted {
    /// `CATEGORY/NAME`, or the category alone (any exercise of it).
    pub key: String,
    /// In words.
    pub words: String,
    /// Whether any exercise of the category counts (a category named alone).
    pub whole_category: bool,
}

impl Wanted {
    fn matches(&self, set: &StrengthSet) -> bool {
        if self.whole_category {
            set.category.as_deref() == Some(self.key.as_str())
        } else {
            strength_log::exercise_key(set.category.as_deref(), set.exercise_name.as_deref()) == self.key
        }
    }
}

/// Resolves `text` through Garmin's catalogue (strength list): exactly or by a clear fuzzy match;
/// otherwise a refusal naming the closest exercises.
pub fn resolve_exercise(text: &str) -> Result<Wanted, ToolError> {
    let closest = |near: &[exercises::Resolved]| -> String {
        near.iter().map(exercises::Resolved::suggestion).collect::<Vec<_>>().join(", ")
    };
    let found = match exercises::resolve(text, List::Strength) {
        Lookup::Exact(r) | Lookup::Fuzzy(r) => r,
        Lookup::Unsure(near) => {
            return Err(ToolError::invalid(format!(
                "exercise \"{}\" matches several exercises about as well: did you mean {}?",
                crate::output::echo(text),
                closest(&near)
            )));
        }
        Lookup::Unknown(near) => {
            let hint = if near.is_empty() {
                "search Garmin's catalogue with get_workouts (find_exercise)".to_owned()
            } else {
                format!("closest: {}", closest(&near))
            };
            return Err(ToolError::invalid(format!(
                "exercise \"{}\" is not in Garmin's strength exercise list; {hint}",
                crate::output::echo(text)
            )));
        }
        Lookup::OtherList { found, .. } => {
            return Err(ToolError::invalid(format!(
                "exercise \"{}\" ({}) is a yoga, pilates or mobility exercise; strength progress follows strength exercises",
                crate::output::echo(text),
                found.garmin_key()
            )));
        }
    };
    Ok(Wanted {
        key: found.garmin_key(),
        words: found.display(false),
        whole_category: found.exercise().is_none(),
    })
}

/// The range of `weeks` calendar weeks (Monday to Sunday) ending with the week of `end`.
pub fn week_range(end: NaiveDate, weeks: u32) -> (NaiveDate, NaiveDate) {
    let first_monday = strength::week_start(end) - Duration::days(7 * (i64::from(weeks) - 1));
    (first_monday, end)
}

/// One exercise's e1RM trend, in words.
#[derive(Clone, Debug)]
pub struct Trend {
    /// The exercise in words.
    pub words: String,
    /// Its progress (key, sessions, change).
    pub progress: ExerciseProgress,
}

/// What the history's sets say about a range.
#[derive(Clone, Debug, Default)]
pub struct StrengthProgress {
    /// Strength sessions of the range with sets.
    pub sessions: usize,
    /// Sets and volume per muscle group and week.
    pub muscle_weeks: Vec<MuscleWeek>,
    /// e1RM trends, most sessions first (only the wanted exercise when one was named).
    pub trends: Vec<Trend>,
    /// Days since each muscle group was trained (all of the history up to the range's end).
    pub recency: Vec<MuscleRecency>,
    /// The muscle groups not trained for over [`NEGLECTED_AFTER_DAYS`] days.
    pub neglected: Vec<String>,
    /// Strength sessions of the range whose sets the history has not read yet.
    pub sessions_unread: u32,
}

/// A history set as the analytics take it: keyed, with its muscles and its Epley estimate.
fn lifted(set: &StrengthSet) -> LiftedSet {
    let (category, name) = (set.category.as_deref(), set.exercise_name.as_deref());
    let (primary_muscles, secondary_muscles) = strength_log::muscles(category, name);
    LiftedSet {
        date: set.date,
        session: set.activity_id,
        exercise: strength_log::exercise_key(category, name),
        reps: set.reps,
        weight_kg: set.weight_kg,
        e1rm_kg: set.weight_kg.zip(set.reps).and_then(|(kg, reps)| strength_log::e1rm_epley(kg, reps)),
        primary_muscles,
        secondary_muscles,
    }
}

/// The strength progress of `from..=to` from `history`, days since counted to `today`.
pub fn progress(
    history: &History,
    (from, to): (NaiveDate, NaiveDate),
    today: NaiveDate,
    wanted: Option<&Wanted>,
) -> Result<StrengthProgress, ToolError> {
    let local = |e: history::HistoryError| ToolError::Local(e.to_string());
    let all = history.strength_sets(NaiveDate::MIN, to).map_err(local)?;
    let coverage = history.strength_coverage(from, to).map_err(local)?;
    let lifted_all: Vec<LiftedSet> = all.iter().map(lifted).collect();
    let in_range: Vec<LiftedSet> =
        lifted_all.iter().filter(|s| (from..=to).contains(&s.date)).cloned().collect();
    let mut sessions: Vec<u64> = in_range.iter().map(|s| s.session).collect();
    sessions.sort_unstable();
    sessions.dedup();
    let chosen: Vec<LiftedSet> = all
        .iter()
        .zip(&lifted_all)
        .filter(|(raw, l)| (from..=to).contains(&l.date) && wanted.is_none_or(|w| w.matches(raw)))
        .map(|(_, l)| l.clone())
        .collect();
    let mut trends: Vec<Trend> = strength::e1rm_progress(&chosen)
        .into_iter()
        .map(|progress| {
            let set = all.iter().find(|s| {
                strength_log::exercise_key(s.category.as_deref(), s.exercise_name.as_deref())
                    == progress.exercise
            });
            let words = set.map_or_else(
                || progress.exercise.clone(),
                |s| strength_log::exercise_words(s.category.as_deref(), s.exercise_name.as_deref()),
            );
            Trend { words, progress }
        })
        .collect();
    trends.sort_by(|a, b| {
        b.progress.sessions.len().cmp(&a.progress.sessions.len()).then(a.words.cmp(&b.words))
    });
    let muscles: Vec<String> = exercises::muscles().iter().map(|m| m.name.to_lowercase()).collect();
    let muscle_refs: Vec<&str> = muscles.iter().map(String::as_str).collect();
    let recency = strength::days_since_trained(&lifted_all, &muscle_refs, today);
    Ok(StrengthProgress {
        sessions: sessions.len(),
        muscle_weeks: strength::weekly_muscle_volume(&in_range, from, to),
        trends,
        neglected: strength::neglected(&recency, NEGLECTED_AFTER_DAYS),
        recency,
        sessions_unread: coverage.sessions.saturating_sub(coverage.with_sets_read),
    })
}
