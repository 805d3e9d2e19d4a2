//! A strength activity's sets as a log a person reads: Garmin's `exerciseSets` answer
//! ([`ExerciseSets`], research note `garmin-workouts-strength-multisport.md` §2) turned into
//! sets with the exercise named from the catalogue, the weight in kg and the rest that followed, and
//! per exercise the sets, reps, volume, best set and estimated one-rep max. Pure functions: no
//! request is made here (the tools will read through the one reader of Garmin data).
//!
//! Units (§2.1): Garmin's `weight` is in **grams** (garmin-grafana and Taxuspt both read and write
//! it so; a `-1` Taxuspt writes for "no weight" and `0` mean none), `duration` in **seconds**, the
//! exercise guesses `probability` 0–100 (one synthetic fixture uses 0–1: a set whose guesses are all
//! at most 1 is read on that scale). The exercise of a set is its most probable guess.
//!
//! Estimated one-rep max: **Epley**, `e1RM = weight × (1 + reps / 30)` (and the weight itself for a
//! single), over sets of 1–12 reps (beyond, the estimate is too loose to report).

use serde::Serialize;

use crate::exercises;
use crate::models::activities::{Exercise, ExerciseSet, ExerciseSets};

/// Most reps a set may have for its e1RM to be estimated.
pub const E1RM_MAX_REPS: u32 = 12;

/// One set as logged.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LoggedSet {
    /// Position among the activity's sets (0-based, rests included).
    pub index: usize,
    /// Garmin's category of the most probable exercise, e.g. `SQUAT` (`None` when unrecognised).
    pub category: Option<String>,
    /// Garmin's name of the most probable exercise, e.g. `BARBELL_BACK_SQUAT` (`None`: the
    /// category only).
    pub name: Option<String>,
    /// The exercise in words (`Barbell back squat`), from the catalogue when it knows it.
    pub exercise: String,
    /// How sure the watch was of it, 0–100 (`None` when Garmin gave no probability).
    pub probability: Option<f64>,
    /// Repetitions (`None` for timed sets).
    pub reps: Option<u32>,
    /// Weight in kg (`None` for body weight).
    pub weight_kg: Option<f64>,
    /// Seconds of work.
    pub duration_s: Option<f64>,
    /// Seconds of rest after it (the rest set that follows, if any).
    pub rest_after_s: Option<f64>,
}

/// Per exercise: what was done and the best of it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExerciseSummary {
    /// `CATEGORY/NAME` (or the category alone), as in a workout spec.
    pub exercise_key: String,
    /// The exercise in words.
    pub exercise: String,
    /// Sets done.
    pub sets: u32,
    /// Repetitions over all sets.
    pub reps: u32,
    /// Σ reps × kg.
    pub volume_kg: f64,
    /// The heaviest set (most reps among equals): `(kg, reps)`.
    pub best_set: Option<(f64, u32)>,
    /// The highest Epley estimate of any set of 1–12 reps, kg.
    pub e1rm_kg: Option<f64>,
    /// Mean rest after its sets, seconds.
    pub mean_rest_s: Option<f64>,
    /// Muscles it mainly works (catalogue), in words.
    pub primary_muscles: Vec<String>,
    /// Muscles it also works, in words.
    pub secondary_muscles: Vec<String>,
    /// Rests counted in `mean_rest_s`.
    #[serde(skip)]
    rests: usize,
}

/// Epley's estimated one-rep max for `reps` at `weight_kg`: `weight × (1 + reps/30)`, the weight
/// itself for one rep; `None` outside 1–[`E1RM_MAX_REPS`] reps or without a weight.
pub fn e1rm_epley(weight_kg: f64, reps: u32) -> Option<f64> {
    if !(weight_kg.is_finite() && weight_kg > 0.0 && (1..=E1RM_MAX_REPS).contains(&reps)) {
        return None;
    }
    Some(if reps == 1 { weight_kg } else { weight_kg * (1.0 + f64::from(reps) / 30.0) })
}

/// The most probable guess of a set, probabilities on Garmin's 0–100 scale.
fn best_guess(set: &ExerciseSet) -> Option<(&Exercise, Option<f64>)> {
    let fraction =
        !set.exercises.is_empty() && set.exercises.iter().all(|e| e.probability.is_some_and(|p| p <= 1.0));
    set.exercises
        .iter()
        .max_by(|a, b| a.probability.unwrap_or(0.0).total_cmp(&b.probability.unwrap_or(0.0)))
        .map(|e| (e, e.probability.map(|p| if fraction { p * 100.0 } else { p })))
}

/// The exercise in words: the catalogue's name, the category's generic form, or the keys in words.
pub fn exercise_words(category: Option<&str>, name: Option<&str>) -> String {
    match (category, name) {
        (Some(c), Some(n)) => exercises::find(c, n)
            .map_or_else(|| display::capitalise(&display::words(n)), |e| e.display(false)),
        (Some(c), None) => exercises::category(c).map_or_else(
            || display::capitalise(&display::words(c)),
            |cat| exercises::Resolved::Generic(cat).display(false),
        ),
        (None, _) => "Unrecognised exercise".to_owned(),
    }
}

/// `CATEGORY/NAME`, the category alone, or `UNKNOWN`: how an exercise is keyed (as in a workout
/// spec).
pub fn exercise_key(category: Option<&str>, name: Option<&str>) -> String {
    match (category, name) {
        (Some(c), Some(n)) => format!("{c}/{n}"),
        (Some(c), None) => c.to_owned(),
        (None, _) => "UNKNOWN".to_owned(),
    }
}

/// The muscles an exercise mainly and also works, in words (lower case), after the catalogue;
/// none when the catalogue does not know it (or for a category alone).
pub fn muscles(category: Option<&str>, name: Option<&str>) -> (Vec<String>, Vec<String>) {
    let Some(known) = category.zip(name).and_then(|(c, n)| exercises::find(c, n)) else {
        return (Vec::new(), Vec::new());
    };
    let words =
        |it: &mut dyn Iterator<Item = &'static exercises::Named>| it.map(|m| m.name.to_lowercase()).collect();
    (words(&mut known.primary_muscles()), words(&mut known.secondary_muscles()))
}

/// The active sets of `sets` as a log, each with the rest that followed it.
pub fn log(sets: &ExerciseSets) -> Vec<LoggedSet> {
    let all = &sets.exercise_sets;
    let mut out = Vec::new();
    for (index, set) in all.iter().enumerate() {
        if set.set_type.as_deref() == Some("REST") {
            continue;
        }
        let guess = best_guess(set);
        let category = guess.and_then(|(e, _)| e.category.clone()).filter(|c| !c.is_empty());
        let name = guess.and_then(|(e, _)| e.name.clone()).filter(|n| !n.is_empty());
        let rest_after_s = all
            .get(index + 1)
            .filter(|next| next.set_type.as_deref() == Some("REST"))
            .and_then(|next| next.duration)
            .filter(|d| d.is_finite() && *d >= 0.0);
        out.push(LoggedSet {
            index,
            exercise: exercise_words(category.as_deref(), name.as_deref()),
            category,
            name,
            probability: guess.and_then(|(_, p)| p),
            reps: set.repetition_count.filter(|r| r.is_finite() && *r >= 1.0).map(|r| r.round() as u32),
            weight_kg: set.weight.filter(|g| g.is_finite() && *g > 0.0).map(|g| g / 1000.0),
            duration_s: set.duration.filter(|d| d.is_finite() && *d >= 0.0),
            rest_after_s,
        });
    }
    out
}

/// Per exercise (by its keys, in the order first done): sets, reps, volume, best set, e1RM, mean
/// rest and muscles.
pub fn summarize(log: &[LoggedSet]) -> Vec<ExerciseSummary> {
    let mut out: Vec<ExerciseSummary> = Vec::new();
    for set in log {
        let key = exercise_key(set.category.as_deref(), set.name.as_deref());
        let i = match out.iter().position(|s| s.exercise_key == key) {
            Some(i) => i,
            None => {
                out.push(empty_summary(key, set));
                out.len() - 1
            }
        };
        add_set(&mut out[i], set);
    }
    out
}

fn empty_summary(key: String, set: &LoggedSet) -> ExerciseSummary {
    let (primary_muscles, secondary_muscles) = muscles(set.category.as_deref(), set.name.as_deref());
    ExerciseSummary {
        exercise_key: key,
        exercise: set.exercise.clone(),
        sets: 0,
        reps: 0,
        volume_kg: 0.0,
        best_set: None,
        e1rm_kg: None,
        mean_rest_s: None,
        primary_muscles,
        secondary_muscles,
        rests: 0,
    }
}

fn add_set(summary: &mut ExerciseSummary, set: &LoggedSet) {
    let rests_before = summary.mean_rest_s.map(|m| (m, summary.rests));
    summary.sets += 1;
    let reps = set.reps.unwrap_or(0);
    summary.reps += reps;
    if let Some(kg) = set.weight_kg {
        summary.volume_kg += kg * f64::from(reps);
        let better = summary
            .best_set
            .is_none_or(|(best_kg, best_reps)| kg > best_kg || (kg == best_kg && reps > best_reps));
        if better {
            summary.best_set = Some((kg, reps));
        }
        if let Some(e1rm) = e1rm_epley(kg, reps) {
            summary.e1rm_kg = Some(summary.e1rm_kg.map_or(e1rm, |m| m.max(e1rm)));
        }
    }
    if let Some(rest) = set.rest_after_s {
        summary.mean_rest_s = Some(match rests_before {
            Some((mean, n)) => (mean * n as f64 + rest) / (n + 1) as f64,
            None => rest,
        });
        summary.rests += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sets(value: serde_json::Value) -> ExerciseSets {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn epley_is_weight_times_one_plus_reps_over_thirty() {
        assert_eq!(e1rm_epley(100.0, 1), Some(100.0));
        assert!((e1rm_epley(100.0, 10).unwrap() - 133.333_333).abs() < 1e-3);
        assert!((e1rm_epley(60.0, 8).unwrap() - 76.0).abs() < 1e-9);
        assert_eq!(e1rm_epley(100.0, 13), None);
        assert_eq!(e1rm_epley(0.0, 5), None);
        assert_eq!(e1rm_epley(100.0, 0), None);
    }

    #[test]
    fn grams_become_kg_seconds_stay_and_the_best_guess_names_the_set() {
        let logged = log(&sets(json!({"activityId": 1, "exerciseSets": [
            {"exercises": [{"category": "CURL", "name": "DUMBBELL_BICEPS_CURL", "probability": 55.0},
                           {"category": "ROW", "name": "DUMBBELL_ROW", "probability": 40.0}],
             "duration": 30.0, "repetitionCount": 10, "weight": 20000.0, "setType": "ACTIVE"},
            {"exercises": [], "duration": 90.0, "repetitionCount": null, "weight": null, "setType": "REST"},
            {"exercises": [{"category": "PLANK", "name": "PLANK", "probability": 0.99609375}],
             "duration": 45.0, "repetitionCount": null, "weight": -1.0, "setType": "ACTIVE"}]})));
        assert_eq!(logged.len(), 2);
        assert_eq!(logged[0].exercise, "Dumbbell biceps curl");
        assert_eq!(
            (logged[0].weight_kg, logged[0].reps, logged[0].rest_after_s),
            (Some(20.0), Some(10), Some(90.0))
        );
        assert_eq!(logged[1].index, 2);
        assert_eq!((logged[1].weight_kg, logged[1].reps, logged[1].duration_s), (None, None, Some(45.0)));
        assert!(
            (logged[1].probability.unwrap() - 99.609375).abs() < 1e-9,
            "a 0-1 probability on the 0-100 scale"
        );
    }

    #[test]
    fn per_exercise_sets_reps_volume_best_set_e1rm_and_rest() {
        let active = |kg: f64, reps: u32| {
            json!({"exercises": [{"category": "SQUAT", "name": "BARBELL_BACK_SQUAT", "probability": 100.0}],
                   "duration": 30.0, "repetitionCount": reps, "weight": kg * 1000.0, "setType": "ACTIVE"})
        };
        let rest = |s: f64| json!({"exercises": [], "duration": s, "setType": "REST"});
        let logged = log(&sets(json!({"exerciseSets": [
            active(60.0, 8), rest(120.0), active(70.0, 5), rest(180.0), active(70.0, 6),
            {"exercises": [{"category": "SHOULDER_PRESS", "name": null, "probability": 100.0}],
             "duration": 20.0, "repetitionCount": 8, "weight": 20000.0, "setType": "ACTIVE"}]})));
        let summary = summarize(&logged);
        assert_eq!(summary.len(), 2);
        let squat = &summary[0];
        assert_eq!(squat.exercise_key, "SQUAT/BARBELL_BACK_SQUAT");
        assert_eq!((squat.sets, squat.reps), (3, 19));
        assert!((squat.volume_kg - (480.0 + 350.0 + 420.0)).abs() < 1e-9);
        assert_eq!(squat.best_set, Some((70.0, 6)));
        // Epley: 70 × (1 + 6/30) = 84 beats 60 × (1 + 8/30) = 76 and 70 × (1 + 5/30) ≈ 81.7.
        assert!((squat.e1rm_kg.unwrap() - 84.0).abs() < 1e-9);
        assert_eq!(squat.mean_rest_s, Some(150.0));
        assert_eq!(squat.primary_muscles, ["glutes", "quads"]);
        let press = &summary[1];
        assert_eq!(
            (press.exercise_key.as_str(), press.exercise.as_str()),
            ("SHOULDER_PRESS", "Shoulder press (any)")
        );
        assert_eq!(press.mean_rest_s, None);
    }
}
