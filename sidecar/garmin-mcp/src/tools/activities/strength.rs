//! `get_activity`'s strength log: a strength activity's sets (Garmin's `exerciseSets`, read through
//! the one reader) per exercise — sets, reps, weight, volume, best set and estimated one-rep max —
//! and in order, shaped from `garmin::strength_log` (which owns the units and Epley's formula), and
//! the sentence that says it.

use garmin::models::activities::ExerciseSets;
use garmin::strength_log::{self, ExerciseSummary, LoggedSet};
use rmcp::schemars;
use serde::Serialize;

use crate::domain::parts::shaped_part;
use crate::domain::session_load::round1;

/// A strength activity's sets.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct StrengthLog {
    /// Active sets (rests not counted).
    pub total_sets: u32,
    /// Repetitions over all sets.
    pub total_reps: u32,
    /// Σ reps × kg over all sets.
    pub total_volume_kg: f64,
    /// Per exercise, in the order first done.
    pub exercises: Vec<StrengthExercise>,
    /// Every active set in order.
    pub sets: Vec<StrengthSet>,
}

/// One exercise of the session.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct StrengthExercise {
    /// The exercise in words, e.g. `Barbell back squat`.
    pub exercise: String,
    /// Garmin's `CATEGORY/NAME` (or the category alone), as in a workout spec.
    pub exercise_key: String,
    /// Sets done.
    pub sets: u32,
    /// Repetitions over its sets.
    pub reps: u32,
    /// Σ reps × kg.
    pub volume_kg: f64,
    /// The heaviest set (most reps among equals).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_set: Option<BestSet>,
    /// Estimated one-rep max (Epley, `kg × (1 + reps/30)`) of its best set of 1–12 reps, kg.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub estimated_1rm_kg: Option<f64>,
    /// Mean rest after its sets, seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean_rest_s: Option<f64>,
    /// Muscles it mainly works.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub primary_muscles: Vec<String>,
}

/// The heaviest set of an exercise.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct BestSet {
    /// kg.
    pub weight_kg: f64,
    /// Repetitions.
    pub reps: u32,
}

/// One set as logged.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct StrengthSet {
    /// Its number (1, 2, 3…; rests not counted), as correct_strength_sets names it.
    pub set: u32,
    /// The exercise in words.
    pub exercise: String,
    /// Repetitions (none for timed sets).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reps: Option<u32>,
    /// kg (none for body weight).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weight_kg: Option<f64>,
    /// Seconds of work.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_s: Option<f64>,
    /// Seconds of rest after it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rest_after_s: Option<f64>,
}

/// The strength log of an activity's parts, when its sets were read; a failed read is named in
/// `missing` (one failing part never sinks the answer), as is a strength session without sets.
pub(super) fn strength_part(
    missing: &mut Vec<String>,
    sets: Option<Result<Option<ExerciseSets>, garmin::Error>>,
) -> Option<StrengthLog> {
    shaped_part(missing, "strength sets", sets?, "none logged", strength_log)
}

/// The log of `sets`; `None` when Garmin kept no active set.
fn strength_log(sets: Option<ExerciseSets>) -> Option<StrengthLog> {
    let logged = strength_log::log(&sets?);
    if logged.is_empty() {
        return None;
    }
    let exercises: Vec<StrengthExercise> =
        strength_log::summarize(&logged).into_iter().map(exercise).collect();
    Some(StrengthLog {
        total_sets: exercises.iter().map(|e| e.sets).sum(),
        total_reps: exercises.iter().map(|e| e.reps).sum(),
        total_volume_kg: round1(exercises.iter().map(|e| e.volume_kg).sum()),
        exercises,
        sets: logged.into_iter().zip(1..).map(|(logged, number)| set(logged, number)).collect(),
    })
}

fn exercise(summary: ExerciseSummary) -> StrengthExercise {
    StrengthExercise {
        exercise: summary.exercise,
        exercise_key: summary.exercise_key,
        sets: summary.sets,
        reps: summary.reps,
        volume_kg: round1(summary.volume_kg),
        best_set: summary.best_set.map(|(kg, reps)| BestSet { weight_kg: round1(kg), reps }),
        estimated_1rm_kg: summary.e1rm_kg.map(round1),
        mean_rest_s: summary.mean_rest_s.map(f64::round),
        primary_muscles: summary.primary_muscles,
    }
}

fn set(logged: LoggedSet, number: u32) -> StrengthSet {
    StrengthSet {
        set: number,
        exercise: logged.exercise,
        reps: logged.reps,
        weight_kg: logged.weight_kg.map(round1),
        duration_s: logged.duration_s.map(f64::round),
        rest_after_s: logged.rest_after_s.map(f64::round),
    }
}

/// ` Strength: 4 exercises, 16 sets, 140 reps, 5230 kg lifted; heaviest: Barbell back squat
/// 100 kg × 5 (estimated 1RM 117 kg).`
pub(super) fn strength_sentence(log: &StrengthLog) -> String {
    let mut text = format!(
        " Strength: {} exercise{}, {} sets, {} reps, {} kg lifted",
        log.exercises.len(),
        if log.exercises.len() == 1 { "" } else { "s" },
        log.total_sets,
        log.total_reps,
        log.total_volume_kg.round()
    );
    let heaviest = log
        .exercises
        .iter()
        .filter_map(|e| e.best_set.as_ref().map(|b| (e, b)))
        .max_by(|(_, a), (_, b)| a.weight_kg.total_cmp(&b.weight_kg));
    if let Some((e, best)) = heaviest {
        text.push_str(&format!("; heaviest: {} {} kg × {}", e.exercise, best.weight_kg, best.reps));
        if let Some(e1rm) = e.estimated_1rm_kg {
            text.push_str(&format!(" (estimated 1RM {} kg)", e1rm.round()));
        }
    }
    text.push('.');
    text
}
