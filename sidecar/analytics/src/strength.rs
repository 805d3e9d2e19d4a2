//! Strength progress from the sets an athlete logged (issue #28 §4): weekly sets and volume per
//! muscle group, the estimated one-rep max of each exercise session by session, and how long ago
//! each muscle group was last trained, with the groups left alone too long.
//!
//! The caller names each set's exercise, its muscles (Garmin's catalogue) and its estimated one-rep
//! max (the strength log's formula, Epley); nothing here knows Garmin or reads a clock: "today" is
//! an argument.
//!
//! Conventions ([`MUSCLE_CONVENTION`], [`E1RM_CONVENTION`], [`RECENCY_CONVENTION`]): a set counts
//! fully for each muscle it mainly works and half for each muscle it also works; weeks run Monday to
//! Sunday; an exercise's e1RM in a session is the best of its sets'; a muscle is trained on a day
//! when a set worked it as a primary muscle.

use std::collections::BTreeMap;

use chrono::{Datelike, Duration, NaiveDate};
use serde::Serialize;

/// How sets and volume are given to muscle groups.
pub const MUSCLE_CONVENTION: &str = "per muscle group, a set counts 1 set and all its volume (reps × kg) for each muscle it mainly works (primary) and 0.5 set and half its volume for each muscle it also works (secondary), after Garmin's exercise catalogue; weeks run Monday to Sunday";
/// How an exercise's estimated one-rep max is followed.
pub const E1RM_CONVENTION: &str =
    "an exercise's estimated one-rep max in a session is the best estimate of any of its sets";
/// When a muscle group counts as trained.
pub const RECENCY_CONVENTION: &str =
    "a muscle group is trained on a day when a set works it as a primary muscle";

/// Share of a set given to each muscle it also works (secondary).
pub const SECONDARY_SHARE: f64 = 0.5;

/// One logged set, named and estimated by the caller.
#[derive(Clone, Debug, PartialEq)]
pub struct LiftedSet {
    /// The day of the session.
    pub date: NaiveDate,
    /// The session (activity) it belongs to.
    pub session: u64,
    /// The exercise (a key the caller chooses, e.g. `SQUAT/BARBELL_BACK_SQUAT`).
    pub exercise: String,
    /// Repetitions (`None` for a timed set).
    pub reps: Option<u32>,
    /// kg (`None` for body weight).
    pub weight_kg: Option<f64>,
    /// The set's estimated one-rep max, kg (`None` when it has none).
    pub e1rm_kg: Option<f64>,
    /// Muscles the exercise mainly works.
    pub primary_muscles: Vec<String>,
    /// Muscles it also works.
    pub secondary_muscles: Vec<String>,
}

impl LiftedSet {
    /// reps × kg, 0 for a timed or body-weight set or a number that is not one.
    fn volume_kg(&self) -> f64 {
        match (self.reps, self.weight_kg) {
            (Some(reps), Some(kg)) if kg.is_finite() && kg > 0.0 => f64::from(reps) * kg,
            _ => 0.0,
        }
    }
}

/// One muscle group's week.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MuscleWeek {
    /// The Monday the week starts on.
    pub week_start: NaiveDate,
    /// The muscle group.
    pub muscle: String,
    /// Sets (primary 1, secondary 0.5).
    pub sets: f64,
    /// Volume, kg (primary all of a set's, secondary half).
    pub volume_kg: f64,
}

/// The Monday of `day`'s week.
pub fn week_start(day: NaiveDate) -> NaiveDate {
    day - Duration::days(i64::from(day.weekday().num_days_from_monday()))
}

/// Sets and volume per muscle group and week (Monday to Sunday) of the sets done in
/// `from..=to`, oldest week first, muscles in name order within a week. A muscle appears in a week
/// only when a set worked it.
pub fn weekly_muscle_volume(sets: &[LiftedSet], from: NaiveDate, to: NaiveDate) -> Vec<MuscleWeek> {
    let mut weeks: BTreeMap<(NaiveDate, &str), (f64, f64)> = BTreeMap::new();
    for set in sets.iter().filter(|s| (from..=to).contains(&s.date)) {
        let week = week_start(set.date);
        let volume = set.volume_kg();
        let shares = set.primary_muscles.iter().map(|m| (m, 1.0));
        for (muscle, share) in shares.chain(set.secondary_muscles.iter().map(|m| (m, SECONDARY_SHARE))) {
            let slot = weeks.entry((week, muscle.as_str())).or_default();
            slot.0 += share;
            slot.1 += share * volume;
        }
    }
    weeks
        .into_iter()
        .map(|((week_start, muscle), (sets, volume_kg))| MuscleWeek {
            week_start,
            muscle: muscle.to_owned(),
            sets,
            volume_kg,
        })
        .collect()
}

/// An exercise's best estimate in one session.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SessionBest {
    /// The day.
    pub date: NaiveDate,
    /// The session.
    pub session: u64,
    /// The best estimated one-rep max of its sets, kg.
    pub e1rm_kg: f64,
    /// The set that gave it: kg.
    pub weight_kg: f64,
    /// The set that gave it: reps.
    pub reps: u32,
}

/// One exercise's estimated one-rep max over time.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExerciseProgress {
    /// The exercise key.
    pub exercise: String,
    /// Session by session, oldest first.
    pub sessions: Vec<SessionBest>,
    /// The last session's estimate minus the first's, kg (`None` with one session).
    pub change_kg: Option<f64>,
}

/// The estimated one-rep max of each exercise, best set per session, oldest session first;
/// exercises in key order, only those with at least one estimate.
pub fn e1rm_progress(sets: &[LiftedSet]) -> Vec<ExerciseProgress> {
    let mut by_exercise: BTreeMap<&str, BTreeMap<(NaiveDate, u64), SessionBest>> = BTreeMap::new();
    for set in sets {
        let (Some(e1rm), Some(kg), Some(reps)) = (set.e1rm_kg, set.weight_kg, set.reps) else { continue };
        if !(e1rm.is_finite() && e1rm > 0.0) {
            continue;
        }
        let best = SessionBest { date: set.date, session: set.session, e1rm_kg: e1rm, weight_kg: kg, reps };
        let sessions = by_exercise.entry(set.exercise.as_str()).or_default();
        match sessions.get_mut(&(set.date, set.session)) {
            Some(kept) if kept.e1rm_kg >= e1rm => {}
            Some(kept) => *kept = best,
            None => {
                sessions.insert((set.date, set.session), best);
            }
        }
    }
    by_exercise
        .into_iter()
        .map(|(exercise, sessions)| {
            let sessions: Vec<SessionBest> = sessions.into_values().collect();
            let change_kg = match (sessions.first(), sessions.last()) {
                (Some(first), Some(last)) if sessions.len() > 1 => Some(last.e1rm_kg - first.e1rm_kg),
                _ => None,
            };
            ExerciseProgress { exercise: exercise.to_owned(), sessions, change_kg }
        })
        .collect()
}

/// When a muscle group was last trained.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MuscleRecency {
    /// The muscle group.
    pub muscle: String,
    /// The last day a set worked it as a primary muscle, up to `today` (`None`: never in the sets).
    pub last_trained: Option<NaiveDate>,
    /// Days from then to `today` (`None`: never).
    pub days_since: Option<i64>,
}

/// For each of `muscles` (and any other a set names as primary), the last day it was trained up to
/// `today` and the days since; longest ago first, never trained first of all, then by name.
pub fn days_since_trained(sets: &[LiftedSet], muscles: &[&str], today: NaiveDate) -> Vec<MuscleRecency> {
    let mut last: BTreeMap<&str, Option<NaiveDate>> = muscles.iter().map(|m| (*m, None)).collect();
    for set in sets.iter().filter(|s| s.date <= today) {
        for muscle in &set.primary_muscles {
            let slot = last.entry(muscle.as_str()).or_default();
            *slot = Some(slot.map_or(set.date, |d| d.max(set.date)));
        }
    }
    let mut out: Vec<MuscleRecency> = last
        .into_iter()
        .map(|(muscle, last_trained)| MuscleRecency {
            muscle: muscle.to_owned(),
            last_trained,
            days_since: last_trained.map(|d| (today - d).num_days()),
        })
        .collect();
    out.sort_by(|a, b| {
        let key = |r: &MuscleRecency| std::cmp::Reverse(r.days_since.unwrap_or(i64::MAX));
        key(a).cmp(&key(b)).then_with(|| a.muscle.cmp(&b.muscle))
    });
    out
}

/// The muscle groups not trained for more than `after_days` days, or never: the neglected ones, in
/// the order of `recency`.
pub fn neglected(recency: &[MuscleRecency], after_days: i64) -> Vec<String> {
    recency.iter().filter(|r| r.days_since.is_none_or(|d| d > after_days)).map(|r| r.muscle.clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, d).unwrap()
    }

    fn set(date: NaiveDate, session: u64, exercise: &str, reps: u32, kg: f64) -> LiftedSet {
        let (primary, secondary): (&[&str], &[&str]) = match exercise {
            "squat" => (&["quads", "glutes"], &["hamstrings"]),
            "bench" => (&["chest"], &["triceps", "shoulders"]),
            _ => (&["abs"], &[]),
        };
        LiftedSet {
            date,
            session,
            exercise: exercise.to_owned(),
            reps: Some(reps),
            weight_kg: (kg > 0.0).then_some(kg),
            e1rm_kg: (kg > 0.0).then(|| if reps == 1 { kg } else { kg * (1.0 + f64::from(reps) / 30.0) }),
            primary_muscles: primary.iter().map(|m| (*m).to_owned()).collect(),
            secondary_muscles: secondary.iter().map(|m| (*m).to_owned()).collect(),
        }
    }

    #[test]
    fn weeks_start_on_monday() {
        // 2026-11-02 is a Monday, 2026-11-08 the Sunday of its week.
        assert_eq!(week_start(day(2)), day(2));
        assert_eq!(week_start(day(8)), day(2));
        assert_eq!(week_start(day(9)), day(9));
    }

    #[test]
    fn primary_muscles_count_a_whole_set_and_secondary_half_of_it_and_of_its_volume() {
        let sets = [
            set(day(2), 1, "squat", 5, 100.0),
            set(day(2), 1, "squat", 5, 100.0),
            set(day(4), 2, "bench", 8, 60.0),
            set(day(9), 3, "squat", 5, 105.0),
            set(day(20), 9, "squat", 5, 200.0),
        ];
        let weeks = weekly_muscle_volume(&sets, day(1), day(15));
        let find = |w: u32, m: &str| weeks.iter().find(|x| x.week_start == day(w) && x.muscle == m).unwrap();
        assert_eq!((find(2, "quads").sets, find(2, "quads").volume_kg), (2.0, 1000.0));
        assert_eq!((find(2, "hamstrings").sets, find(2, "hamstrings").volume_kg), (1.0, 500.0));
        assert_eq!((find(2, "chest").sets, find(2, "chest").volume_kg), (1.0, 480.0));
        assert_eq!((find(2, "triceps").sets, find(2, "triceps").volume_kg), (0.5, 240.0));
        assert_eq!((find(9, "glutes").sets, find(9, "glutes").volume_kg), (1.0, 525.0));
        assert!(weeks.iter().all(|w| w.week_start <= day(9)), "the set after `to` is left out");
        assert!(!weeks.iter().any(|w| w.week_start == day(9) && w.muscle == "chest"), "no empty rows");
    }

    #[test]
    fn the_e1rm_of_a_session_is_its_best_set_and_the_change_is_last_minus_first() {
        let sets = [
            set(day(2), 1, "squat", 8, 60.0),  // 76
            set(day(2), 1, "squat", 6, 70.0),  // 84
            set(day(2), 1, "squat", 15, 50.0), // no estimate given below
            set(day(9), 2, "squat", 5, 80.0),  // 93.33
            set(day(9), 2, "plank", 1, 0.0),   // body weight: none
        ];
        let mut sets = sets.to_vec();
        sets[2].e1rm_kg = None;
        let progress = e1rm_progress(&sets);
        assert_eq!(progress.len(), 1, "the plank has no estimate: {progress:?}");
        let squat = &progress[0];
        assert_eq!(squat.sessions.len(), 2);
        assert!((squat.sessions[0].e1rm_kg - 84.0).abs() < 1e-9);
        assert_eq!((squat.sessions[0].weight_kg, squat.sessions[0].reps), (70.0, 6));
        assert!((squat.sessions[1].e1rm_kg - 80.0 * (1.0 + 5.0 / 30.0)).abs() < 1e-9);
        assert!((squat.change_kg.unwrap() - (80.0 * (1.0 + 5.0 / 30.0) - 84.0)).abs() < 1e-9);
    }

    #[test]
    fn one_session_has_no_change_and_bad_numbers_are_skipped() {
        let mut odd = set(day(3), 1, "bench", 5, 60.0);
        odd.e1rm_kg = Some(f64::NAN);
        let mut heavy = set(day(3), 1, "bench", 3, 70.0);
        heavy.weight_kg = Some(f64::INFINITY);
        let progress = e1rm_progress(&[odd, set(day(3), 1, "bench", 5, 60.0), heavy.clone()]);
        assert_eq!(progress[0].sessions.len(), 1);
        assert_eq!(progress[0].change_kg, None);
        let weeks = weekly_muscle_volume(&[heavy], day(1), day(30));
        assert!(weeks.iter().all(|w| w.volume_kg == 0.0), "an infinite weight adds no volume");
    }

    #[test]
    fn days_since_counts_from_the_given_today_primary_muscles_only_never_trained_first() {
        let sets = [
            set(day(2), 1, "squat", 5, 100.0),
            set(day(10), 2, "bench", 5, 60.0),
            set(day(25), 3, "bench", 5, 60.0), // after today: not counted
        ];
        let recency = days_since_trained(&sets, &["abs", "chest", "quads", "hamstrings"], day(16));
        let order: Vec<(&str, Option<i64>)> =
            recency.iter().map(|r| (r.muscle.as_str(), r.days_since)).collect();
        assert_eq!(
            order,
            [
                ("abs", None),
                ("hamstrings", None), // secondary to the squat only: not trained
                ("glutes", Some(14)),
                ("quads", Some(14)),
                ("chest", Some(6)),
            ]
        );
        assert_eq!(recency[2].last_trained, Some(day(2)));
        assert_eq!(neglected(&recency, 10), ["abs", "hamstrings", "glutes", "quads"]);
        assert_eq!(neglected(&recency, 14), ["abs", "hamstrings"]);
    }
}
