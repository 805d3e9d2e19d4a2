//! The rules Garmin's workout service enforces — loudly or silently — checked on a Garmin workout
//! body before it is sent (every create and update goes through [`check_garmin_rules`]), so a
//! workout built by hand, re-created from the change journal or edited elsewhere cannot reach
//! Garmin in a form it refuses or quietly corrupts. Each rule names its source (research note
//! `garmin-workouts-strength-multisport.md`):
//!
//! * a known sport (ids 1–11, 13), its id and key agreeing (§4; id 4 saved strength as swimming);
//! * `stepOrder` unique across the whole workout, every segment included (`400 "The workout steps
//!   need to have unique step orders…"`, §1.5 and §3.1), or absent on every step;
//! * every repeat ends by `iterations` (id 7) with its count on both fields — a repeat without it
//!   is stored with a heart-rate end and no count (§1.5, Taxuspt issue #112) — or, in HIIT, by a
//!   time with its seconds (Garmin's time-bounded repeat);
//! * every exercise category is one of Garmin's for the sport's list (`400 Invalid category` for
//!   the whole workout otherwise, §1.9) and every exercise name one of that category (Garmin stores
//!   an unknown one as `""`, §1.9); no exercises in run, bike or swim steps; reps only in exercise
//!   sports;
//! * a weight comes with its unit, kilogram (8) or pound (9) (§1.4);
//! * a multisport workout has two or more legs of run, bike or swim, each laid out as Garmin keeps
//!   it (§3.1), swim legs with a pool; other workouts have one segment;
//! * at most [`MAX_STEPS`] steps and repeats nested at most [`MAX_REPEAT_DEPTH`] deep.

use std::collections::HashSet;

use super::{MAX_REPEAT_DEPTH, MAX_STEPS, SpecSport, ids};
use crate::exercises::{self, List};
use crate::models::workouts::{Workout, WorkoutSegment, WorkoutStep};

/// The text Garmin answers a workout with repeated step orders (reference §1.5).
pub const DUPLICATE_STEP_ORDER: &str = "The workout steps need to have unique step orders, or all be unset and rely on submission structure order.";

/// Numbers every step with one depth-first `stepOrder` counter across all segments, the one form
/// Garmin accepts everywhere: it refuses repeated step orders in a multisport workout and renumbers
/// them in a one-sport workout (kaiord's recorded round trips restart the count inside repeats).
pub fn number_steps(workout: &mut Workout) {
    fn walk(steps: &mut [WorkoutStep], order: &mut i64) {
        for step in steps {
            *order += 1;
            step.step_order = Some(*order);
            walk(&mut step.workout_steps, order);
        }
    }
    let mut order = 0;
    for segment in &mut workout.workout_segments {
        walk(&mut segment.workout_steps, &mut order);
    }
}

/// Checks `workout` against Garmin's rules; every problem found, in words, naming the step.
pub fn check_garmin_rules(workout: &Workout) -> Result<(), Vec<String>> {
    let mut problems = Vec::new();
    let sport = workout_sport(workout, &mut problems);
    let mut orders = Orders::default();
    let mut count = 0;
    match sport {
        Some(SpecSport::Multisport) => multisport(workout, &mut problems),
        Some(_) if workout.workout_segments.len() != 1 => problems.push(format!(
            "a workout that is not multisport has one segment, this one has {}",
            workout.workout_segments.len()
        )),
        _ => {}
    }
    for (i, segment) in workout.workout_segments.iter().enumerate() {
        let leg_sport = segment_sport(segment).or(sport);
        let walk = Walk { sport: leg_sport, segment: i + 1 };
        for step in &segment.workout_steps {
            walk.step(step, 0, &mut orders, &mut count, &mut problems);
        }
    }
    if count > MAX_STEPS {
        problems.push(format!("{count} steps: Garmin Connect and the watches take at most {MAX_STEPS}"));
    }
    if orders.duplicate || (orders.set > 0 && orders.unset > 0) {
        problems.push(format!("step orders: Garmin answers 400 \"{DUPLICATE_STEP_ORDER}\""));
    }
    if problems.is_empty() { Ok(()) } else { Err(problems) }
}

fn sport_of(key: Option<&str>, id: Option<i64>) -> Result<Option<SpecSport>, String> {
    let by_key = key.map(|k| {
        ids::sport_from_key(k)
            .ok_or_else(|| format!("the sport key \"{k}\" is not one of Garmin's workout sports"))
    });
    let by_id = id.map(|i| {
        ids::sport_from_id(i).ok_or_else(|| format!("the sport id {i} is not one of Garmin's workout sports"))
    });
    match (by_key.transpose()?, by_id.transpose()?) {
        (Some(a), Some(b)) if a != b => Err(format!(
            "the sport id {} and key \"{}\" disagree (id 4 is swimming, 5 strength training)",
            id.unwrap_or_default(),
            key.unwrap_or_default()
        )),
        (a, b) => Ok(a.or(b)),
    }
}

fn workout_sport(workout: &Workout, problems: &mut Vec<String>) -> Option<SpecSport> {
    let sport = workout.sport_type.as_ref();
    match sport_of(sport.and_then(|s| s.sport_type_key.as_deref()), sport.and_then(|s| s.sport_type_id)) {
        Ok(Some(s)) => Some(s),
        Ok(None) => {
            problems.push("the workout has no sport".to_owned());
            None
        }
        Err(why) => {
            problems.push(why);
            None
        }
    }
}

fn segment_sport(segment: &WorkoutSegment) -> Option<SpecSport> {
    let sport = segment.sport_type.as_ref()?;
    sport_of(sport.sport_type_key.as_deref(), sport.sport_type_id).ok().flatten()
}

fn multisport(workout: &Workout, problems: &mut Vec<String>) {
    let count = workout.workout_segments.len();
    if count < 2 {
        problems.push(format!("a multisport workout has two or more legs, this one has {count}"));
    }
    for (i, segment) in workout.workout_segments.iter().enumerate() {
        let n = i + 1;
        match segment_sport(segment) {
            Some(s) if s.is_endurance() => {
                if s == SpecSport::Swim && segment.pool_length.is_none() && workout.pool_length.is_none() {
                    problems.push(format!("leg {n} (swim) has no pool length"));
                }
            }
            _ => problems.push(format!("leg {n} is not run, bike or swim")),
        }
        let shapes: Vec<Shape> = segment.workout_steps.iter().map(shape_of_garmin).collect();
        if !layout_kept(&shapes, i == 0, n == count) {
            problems.push(format!(
                "leg {n}'s steps are laid out in a way Garmin silently splits or reorders (one work step or \
                 one repeat per leg; warmup first, cooldown last)"
            ));
        }
    }
}

/// The shape of a multisport leg's top-level steps, as Garmin's segment rewrite sees them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Shape {
    Warmup,
    Cooldown,
    Work,
    Repeat,
}

fn shape_of_garmin(step: &WorkoutStep) -> Shape {
    if step.is_repeat() {
        return Shape::Repeat;
    }
    let id = step.step_type.as_ref().and_then(|t| t.step_type_id);
    match ids::step_kind(step.type_key(), id) {
        Some(super::StepKind::Warmup) => Shape::Warmup,
        Some(super::StepKind::Cooldown) => Shape::Cooldown,
        _ => Shape::Work,
    }
}

/// Whether Garmin keeps a leg of these shapes as it is, at this place in the workout (reference
/// §3.1, kaiord's spikes): any leg may be one work step or one repeat, the first also `warmup` or
/// `warmup + repeat`, the last `work + cooldown` or `cooldown`; anything else is split or reordered.
pub(super) fn layout_kept(shapes: &[Shape], first: bool, last: bool) -> bool {
    use Shape::{Cooldown, Repeat, Warmup, Work};
    match shapes {
        [Work] | [Repeat] => true,
        [Warmup] | [Warmup, Repeat] => first,
        [Work, Cooldown] | [Cooldown] => last,
        _ => false,
    }
}

#[derive(Default)]
struct Orders {
    seen: HashSet<i64>,
    set: usize,
    unset: usize,
    duplicate: bool,
}

/// Where the walk is: the sport of the leg and its number (1-based).
struct Walk {
    sport: Option<SpecSport>,
    segment: usize,
}

impl Walk {
    fn step(
        &self,
        step: &WorkoutStep,
        depth: usize,
        orders: &mut Orders,
        count: &mut usize,
        problems: &mut Vec<String>,
    ) {
        *count += 1;
        let at = match step.step_order {
            Some(order) => format!("step {order}"),
            None => format!("step #{count}"),
        };
        let at = if self.segment > 1 { format!("{at} (leg {})", self.segment) } else { at };
        match step.step_order {
            Some(order) => {
                orders.set += 1;
                orders.duplicate |= !orders.seen.insert(order);
            }
            None => orders.unset += 1,
        }
        if step.is_repeat() {
            if depth + 1 > MAX_REPEAT_DEPTH {
                problems
                    .push(format!("{at}: a repeat nested {} deep (at most {MAX_REPEAT_DEPTH})", depth + 1));
            }
            self.repeat(step, &at, problems);
            for child in &step.workout_steps {
                self.step(child, depth + 1, orders, count, problems);
            }
        } else {
            self.executable(step, &at, problems);
        }
    }

    fn repeat(&self, step: &WorkoutStep, at: &str, problems: &mut Vec<String>) {
        let end = step.end_condition.as_ref();
        let id = end.and_then(|e| e.condition_type_id);
        let value = step.end_condition_value;
        match id {
            Some(7) => {
                let count = step.number_of_iterations;
                let agrees = count.is_some_and(|n| n >= 1 && value.is_some_and(|v| (v - n as f64).abs() < 1e-9));
                if !agrees {
                    problems.push(format!(
                        "{at}: a repeat needs its count on both numberOfIterations and endConditionValue (found {count:?} and {value:?})"
                    ));
                }
            }
            Some(2) if self.sport == Some(SpecSport::Hiit) => {
                if !value.is_some_and(|v| v.is_finite() && v > 0.0) {
                    problems.push(format!("{at}: a repeat until a time is up needs the seconds in endConditionValue"));
                }
            }
            Some(2) => problems.push(format!("{at}: only HIIT workouts repeat until a time is up")),
            _ => problems.push(format!(
                "{at}: a repeat without the iterations end condition (id 7) is stored by Garmin with a heart-rate end and no count"
            )),
        }
        if step.workout_steps.is_empty() {
            problems.push(format!("{at}: a repeat with no steps"));
        }
    }

    fn executable(&self, step: &WorkoutStep, at: &str, problems: &mut Vec<String>) {
        let exercise_sport = self.sport.is_some_and(SpecSport::is_exercise_sport);
        let end_id = step.end_condition.as_ref().and_then(|e| e.condition_type_id);
        let reps = step.end_condition_key() == Some("reps") || end_id == Some(ids::END_REPS.0);
        if reps && !exercise_sport {
            problems.push(format!(
                "{at}: reps end a step only in strength, cardio, HIIT, yoga, pilates and mobility workouts"
            ));
        }
        if reps && !step.end_condition_value.is_some_and(|v| v >= 1.0 && v.fract() == 0.0) {
            problems.push(format!("{at}: a reps end needs a whole number of reps"));
        }
        if end_id == Some(ids::END_ITERATIONS.0) {
            problems.push(format!("{at}: only a repeat ends by iterations"));
        }
        self.exercise(step, at, exercise_sport, problems);
        if step.weight_value.is_some_and(|w| w > 0.0) {
            let unit = step.weight_unit.as_ref();
            let known = unit.is_some_and(|u| {
                matches!(
                    (u.unit_id, u.unit_key.as_deref()),
                    (Some(8) | None, Some("kilogram"))
                        | (Some(9) | None, Some("pound"))
                        | (Some(8 | 9), None)
                )
            });
            if !known {
                problems.push(format!("{at}: a weight needs its unit, kilogram (8) or pound (9)"));
            }
        }
    }

    fn exercise(&self, step: &WorkoutStep, at: &str, exercise_sport: bool, problems: &mut Vec<String>) {
        let Some(category) = step.category.as_deref() else {
            if step.exercise_name.as_deref().is_some_and(|n| !n.is_empty()) {
                problems.push(format!("{at}: an exercise name without its category"));
            }
            return;
        };
        if !exercise_sport {
            problems.push(format!(
                "{at}: an exercise in a workout that is not strength, cardio, HIIT, yoga, pilates or mobility"
            ));
            return;
        }
        let list = self.sport.and_then(SpecSport::exercise_list).unwrap_or(List::Strength);
        match exercises::category(category) {
            Some(c) if c.in_list(list) => {}
            _ => {
                problems.push(format!(
                    "{at}: \"{category}\" is not one of Garmin's exercise categories for {} workouts (Garmin answers 400 Invalid category)",
                    list.sports()
                ));
                return;
            }
        }
        if let Some(name) = step.exercise_name.as_deref().filter(|n| !n.is_empty())
            && !exercises::find(category, name).is_some_and(|e| e.in_list(list))
        {
            problems.push(format!(
                "{at}: {category}/{name} is not in Garmin's {} list (Garmin would store it as \"\", showing \"An exercise is required\")",
                list.file()
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workout_spec::parse_spec;
    use serde_json::json;

    fn body(spec: serde_json::Value) -> Workout {
        parse_spec(&spec).unwrap().to_garmin()
    }

    #[test]
    fn bodies_the_spec_writes_pass_every_rule() {
        let strength = body(json!({"name": "Upper", "sport": "strength", "steps": [
            {"type": "repeat", "times": 3, "steps": [
                {"type": "exercise", "exercise": "barbell bench press", "reps": 8, "weight_kg": 60},
                {"type": "rest", "duration_s": 90}]}]}));
        assert_eq!(check_garmin_rules(&strength), Ok(()));
        let brick = body(json!({"name": "Brick", "sport": "multisport", "transitions": true, "segments": [
            {"sport": "bike", "steps": [{"type": "interval", "duration_min": 40}]},
            {"sport": "run", "steps": [{"type": "interval", "distance_km": 5}]}]}));
        assert_eq!(check_garmin_rules(&brick), Ok(()));
    }

    #[test]
    fn each_silent_or_loud_garmin_refusal_is_caught_with_its_reason() {
        let good = body(json!({"name": "Upper", "sport": "strength", "steps": [
            {"type": "repeat", "times": 3, "steps": [
                {"type": "exercise", "exercise": "barbell bench press", "reps": 8, "weight_kg": 60},
                {"type": "rest", "duration_s": 90}]}]}));
        let broken = |change: &dyn Fn(&mut Workout)| {
            let mut w = good.clone();
            change(&mut w);
            check_garmin_rules(&w).unwrap_err().join("\n")
        };
        fn group(w: &mut Workout) -> &mut WorkoutStep {
            &mut w.workout_segments[0].workout_steps[0]
        }
        assert!(broken(&|w| group(w).end_condition = None).contains("heart-rate end"));
        assert!(broken(&|w| group(w).workout_steps[1].step_order = Some(1)).contains(DUPLICATE_STEP_ORDER));
        assert!(
            broken(&|w| group(w).workout_steps[0].category = Some("UNASSIGNED".into()))
                .contains("400 Invalid category")
        );
        assert!(
            broken(&|w| group(w).workout_steps[0].exercise_name = Some("BENCH_PRES".into())).contains("\"\"")
        );
        assert!(broken(&|w| group(w).workout_steps[0].weight_unit = None).contains("unit"));
        assert!(broken(&|w| w.sport_type.as_mut().unwrap().sport_type_id = Some(4)).contains("disagree"));
    }

    #[test]
    fn steps_numbered_per_repeat_are_renumbered_with_one_global_counter() {
        let mut w = body(json!({"name": "Brick", "sport": "multisport", "segments": [
            {"sport": "bike", "steps": [{"type": "repeat", "times": 2, "steps": [{"type": "interval"}, {"type": "recovery"}]}]},
            {"sport": "run", "steps": [{"type": "interval", "distance_km": 5}]}]}));
        // As some clients send it: every list counted from 1.
        w.workout_segments[0].workout_steps[0].workout_steps[0].step_order = Some(1);
        w.workout_segments[0].workout_steps[0].workout_steps[1].step_order = Some(2);
        w.workout_segments[1].workout_steps[0].step_order = Some(1);
        assert!(check_garmin_rules(&w).unwrap_err().join("").contains(DUPLICATE_STEP_ORDER));
        number_steps(&mut w);
        let orders: Vec<Option<i64>> = w.all_steps().iter().map(|s| s.step_order).collect();
        assert_eq!(orders, [Some(1), Some(2), Some(3), Some(4)]);
        assert_eq!(check_garmin_rules(&w), Ok(()));
    }

    #[test]
    fn a_multisport_leg_garmin_would_rewrite_is_refused() {
        let mut brick = body(json!({"name": "Brick", "sport": "multisport", "segments": [
            {"sport": "bike", "steps": [{"type": "interval", "duration_min": 40}]},
            {"sport": "run", "steps": [{"type": "interval", "distance_km": 5}]}]}));
        let extra = brick.workout_segments[1].workout_steps[0].clone();
        brick.workout_segments[1].workout_steps.push(WorkoutStep { step_order: Some(9), ..extra });
        let why = check_garmin_rules(&brick).unwrap_err().join("\n");
        assert!(why.contains("leg 2") && why.contains("splits"), "{why}");
    }
}
