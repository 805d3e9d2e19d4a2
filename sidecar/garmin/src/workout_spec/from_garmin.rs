//! Garmin workout → spec, so the desktop app's workout editor can open a workout read from
//! Garmin (or one the assistant proposed, after translation). Best effort: what the spec can say is
//! carried over exactly (values are rounded to the spec's hundredths; a weight Garmin stored as
//! 69.9968 lb reads as 70 lb); what it cannot say — other sports, power/“fixed” end conditions,
//! targets other than pace, speed, heart rate, power and cadence, repeats nested deeper than one
//! level, swim-CSS targets, exercises missing from the catalogue, multisport legs Garmin would
//! rewrite — makes the conversion fail with a message naming each such step, rather than open a
//! silently different workout. Two things are adjusted instead of refused: a name longer
//! than the spec's 255 characters (Garmin's own cut names are 256) is shortened to 252 + `...`,
//! and a nameless workout is called "Workout {id}".

use super::pace::hundredths;
use super::{
    MAX_NAME_CHARS, RepeatEnd, RepeatStep, SpecSegment, SpecSport, SpecStep, StepEnd, StepTarget, Weight,
    WeightUnit, WorkStep, WorkoutSpec, ids, parse_spec,
};
use crate::exercises::{self, Resolved};
use crate::models::workouts::{Workout, WorkoutSegment, WorkoutStep};

/// The spec of a Garmin workout (see the module docs for what cannot be expressed); the result is
/// checked with [`parse_spec`], so it is a valid spec in canonical form.
pub fn spec_from_garmin(workout: &Workout) -> Result<WorkoutSpec, String> {
    let sport_type = workout.sport_type.as_ref();
    let sport = sport_type
        .and_then(|s| s.sport_type_key.as_deref())
        .and_then(ids::sport_from_key)
        .or_else(|| sport_type.and_then(|s| s.sport_type_id).and_then(ids::sport_from_id));
    let Some(sport) = sport else {
        let named = workout.sport_key().map_or_else(|| "no sport".to_owned(), |k| format!("sport \"{k}\""));
        return Err(format!(
            "this workout has {named}: the workout spec covers running, cycling, swimming, strength, cardio, \
             HIIT, yoga, pilates, mobility and multisport"
        ));
    };
    if workout.workout_segments.is_empty() {
        return Err("this workout has no steps (a list entry? read it in full first)".to_owned());
    }
    let mut problems = Vec::new();
    let (steps, segments, transitions) = if sport == SpecSport::Multisport {
        let legs = legs(workout, &mut problems);
        let transitions =
            workout.extra.get("isSessionTransitionEnabled").and_then(serde_json::Value::as_bool);
        (Vec::new(), legs, Some(transitions.unwrap_or(false)))
    } else {
        let [segment] = workout.workout_segments.as_slice() else {
            return Err(format!(
                "this {} workout has {} segments; only multisport workouts have several",
                sport.as_str(),
                workout.workout_segments.len()
            ));
        };
        (steps_of(segment, sport, "steps", &mut problems), Vec::new(), None)
    };
    if !problems.is_empty() {
        return Err(format!(
            "this workout uses what the workout spec cannot express: {}",
            problems.join("; ")
        ));
    }
    let pool_length_m = (sport == SpecSport::Swim).then(|| pool_of(workout, None)).flatten();
    let spec = WorkoutSpec {
        name: spec_name(workout),
        sport,
        description: workout.description.clone(),
        pool_length_m,
        steps,
        segments,
        transitions,
    };
    let value = serde_json::to_value(&spec).map_err(|e| format!("could not write the spec: {e}"))?;
    parse_spec(&value).map_err(|errors| format!("the workout does not make a valid spec:\n{errors}"))
}

/// The steps of one segment, converted (problems named under `path`).
fn steps_of(
    segment: &WorkoutSegment,
    sport: SpecSport,
    path: &str,
    problems: &mut Vec<String>,
) -> Vec<SpecStep> {
    segment
        .workout_steps
        .iter()
        .enumerate()
        .filter_map(|(i, step)| convert(step, sport, &format!("{path}[{i}]"), problems))
        .collect()
}

/// The legs of a multisport workout.
fn legs(workout: &Workout, problems: &mut Vec<String>) -> Vec<SpecSegment> {
    let mut out = Vec::new();
    for (i, segment) in workout.workout_segments.iter().enumerate() {
        let sport_type = segment.sport_type.as_ref();
        let sport = sport_type
            .and_then(|s| s.sport_type_key.as_deref())
            .and_then(ids::sport_from_key)
            .or_else(|| sport_type.and_then(|s| s.sport_type_id).and_then(ids::sport_from_id));
        let Some(sport) = sport.filter(|s| s.is_endurance()) else {
            problems.push(format!("segments[{i}]: a leg that is not run, bike or swim"));
            continue;
        };
        let steps = steps_of(segment, sport, &format!("segments[{i}].steps"), problems);
        let pool_length_m = (sport == SpecSport::Swim).then(|| pool_of(workout, Some(segment))).flatten();
        out.push(SpecSegment { sport, pool_length_m, steps });
    }
    out
}

/// A pool length in metres: the segment's own, else the workout's.
fn pool_of(workout: &Workout, segment: Option<&WorkoutSegment>) -> Option<f64> {
    let own = segment.and_then(|s| s.pool_length.map(|l| (l, s.pool_length_unit.as_ref())));
    let (length, unit) = own.or(workout.pool_length.map(|l| (l, workout.pool_length_unit.as_ref())))?;
    let factor = unit.and_then(|u| u.factor).unwrap_or(100.0);
    Some(hundredths(length * factor / 100.0))
}

/// The workout's name as a spec can hold it: Garmin's own cut names (253 characters + `...`) are
/// shortened to fit the spec's 255, and a nameless workout gets a placeholder to rename.
fn spec_name(workout: &Workout) -> String {
    let name = workout.workout_name.as_deref().map(str::trim).unwrap_or_default();
    if name.is_empty() {
        return workout
            .workout_id
            .map_or_else(|| "Untitled workout".to_owned(), |id| format!("Workout {id}"));
    }
    if name.chars().count() <= MAX_NAME_CHARS {
        return name.to_owned();
    }
    let head: String = name.chars().take(MAX_NAME_CHARS - 3).collect();
    format!("{}...", head.trim_end())
}

fn convert(step: &WorkoutStep, sport: SpecSport, path: &str, problems: &mut Vec<String>) -> Option<SpecStep> {
    if step.is_repeat() {
        return repeat_of(step, sport, path, problems).map(SpecStep::Repeat);
    }
    let type_id = step.step_type.as_ref().and_then(|t| t.step_type_id);
    let Some(kind) = ids::step_kind(step.type_key(), type_id) else {
        let named = step.type_key().map_or_else(|| format!("{type_id:?}"), str::to_owned);
        problems.push(format!("{path}: the step type \"{named}\""));
        return None;
    };
    let exercise = exercise_of(step, sport, path, problems);
    let weight = weight_of(step, sport);
    let end = end_of(step, path, problems);
    let target = target_of(step, false, sport, path, problems);
    let secondary_target = target_of(step, true, sport, path, problems);
    let stroke = step.stroke_type.as_ref().and_then(|s| s.stroke_type_id).and_then(ids::stroke_of_id);
    let equipment =
        step.equipment_type.as_ref().and_then(|e| e.equipment_type_id).and_then(ids::equipment_of_id);
    let swim = sport == SpecSport::Swim;
    Some(SpecStep::Work(WorkStep {
        kind,
        end: end?,
        target: target?,
        secondary_target: secondary_target?,
        stroke: stroke.filter(|_| swim),
        equipment: equipment.filter(|_| swim),
        description: step.description.clone().filter(|d| !d.trim().is_empty()),
        exercise: exercise?,
        weight,
    }))
}

fn repeat_of(
    step: &WorkoutStep,
    sport: SpecSport,
    path: &str,
    problems: &mut Vec<String>,
) -> Option<RepeatStep> {
    let condition = step.end_condition.as_ref();
    let timed = condition.and_then(|c| c.condition_type_key.as_deref()) == Some("time")
        || condition.and_then(|c| c.condition_type_id) == Some(2);
    let times = step
        .number_of_iterations
        .or_else(|| step.end_condition_value.filter(|v| v.fract() == 0.0).map(|v| v as i64))
        .and_then(|n| u32::try_from(n).ok());
    let children: Vec<SpecStep> = step
        .workout_steps
        .iter()
        .enumerate()
        .filter_map(|(i, child)| convert(child, sport, &format!("{path}.steps[{i}]"), problems))
        .collect();
    let end = match (timed, step.end_condition_value.filter(|v| v.is_finite() && *v > 0.0), times) {
        (true, Some(seconds), _) => RepeatEnd::Until { seconds: hundredths(seconds) },
        (false, _, Some(times)) => RepeatEnd::Times(times),
        _ => {
            problems.push(format!("{path}: a repeat without a repeat count"));
            return None;
        }
    };
    if step.smart_repeat == Some(true) {
        problems.push(format!("{path}: a smart repeat (repeat until the lap button)"));
    }
    Some(RepeatStep { end, steps: children, skip_last_rest: step.skip_last_rest_step == Some(true) })
}

/// The step's exercise: `Some(None)` for none, `None` (with a problem) when it cannot be named.
fn exercise_of(
    step: &WorkoutStep,
    sport: SpecSport,
    path: &str,
    problems: &mut Vec<String>,
) -> Option<Option<Resolved>> {
    let category = step.category.as_deref().filter(|c| !c.is_empty());
    let name = step.exercise_name.as_deref().filter(|n| !n.is_empty());
    let Some(category) = category else {
        if let Some(name) = name {
            problems.push(format!("{path}: the exercise {name} without a category"));
            return None;
        }
        return Some(None);
    };
    if !sport.is_exercise_sport() {
        problems.push(format!("{path}: a strength exercise in a {} workout", sport.as_str()));
        return None;
    }
    let found = match name {
        Some(name) => exercises::find(category, name).map(Resolved::Exercise),
        None => exercises::category(category).map(Resolved::Generic),
    };
    if found.is_none() {
        let what = name.map_or_else(|| format!("the category {category}"), |n| format!("{category}/{n}"));
        problems.push(format!("{path}: {what}, which is not in Garmin's exercise catalogue"));
    }
    found.map(Some)
}

/// The step's weight in the unit Garmin stored it in (rounded to hundredths); none for 0.
fn weight_of(step: &WorkoutStep, sport: SpecSport) -> Option<Weight> {
    let value = step.weight_value.filter(|w| w.is_finite() && *w > 0.0 && sport.is_exercise_sport())?;
    let unit = step.weight_unit.as_ref();
    let pounds =
        unit.is_some_and(|u| u.unit_key.as_deref() == Some("pound") || u.unit_id == Some(ids::UNIT_POUND.0));
    Some(Weight { value: hundredths(value), unit: if pounds { WeightUnit::Lb } else { WeightUnit::Kg } })
}

fn end_of(step: &WorkoutStep, path: &str, problems: &mut Vec<String>) -> Option<StepEnd> {
    let condition = step.end_condition.as_ref();
    let key = condition
        .and_then(|c| c.condition_type_key.as_deref())
        .or_else(|| condition.and_then(|c| c.condition_type_id).and_then(ids::end_key_of_id));
    let value = step.end_condition_value.filter(|v| v.is_finite() && *v > 0.0);
    let whole = |v: f64| (v.fract() == 0.0).then_some(v).and_then(|v| u16::try_from(v as i64).ok());
    let end = match (key, value) {
        (Some("lap.button") | None, _) => Some(StepEnd::LapButton),
        (Some("reps"), Some(count)) => whole(count).map(|n| StepEnd::Reps { count: u32::from(n) }),
        (Some("time"), Some(seconds)) => Some(StepEnd::Time { seconds: hundredths(seconds) }),
        (Some("distance"), Some(meters)) => Some(StepEnd::Distance { meters: hundredths(meters) }),
        (Some("calories"), Some(kcal)) => whole(kcal).map(|kcal| StepEnd::Calories { kcal }),
        (Some("heart.rate"), Some(bpm)) => {
            let bpm = whole(bpm);
            match step.end_condition_compare.as_deref() {
                Some("lt") => bpm.map(|bpm| StepEnd::HeartRateBelow { bpm }),
                Some("gt") => bpm.map(|bpm| StepEnd::HeartRateAbove { bpm }),
                _ => None,
            }
        }
        _ => None,
    };
    if end.is_none() {
        let value = step.end_condition_value.map_or_else(|| "no value".to_owned(), |v| v.to_string());
        problems.push(format!("{path}: the end condition \"{}\" ({value})", key.unwrap_or("unknown")));
    }
    end
}

/// The primary or secondary target: `Some(None)` for none, `None` when it cannot be expressed.
fn target_of(
    step: &WorkoutStep,
    secondary: bool,
    sport: SpecSport,
    path: &str,
    problems: &mut Vec<String>,
) -> Option<Option<StepTarget>> {
    let (kind, one, two, zone) = if secondary {
        (
            step.secondary_target_type.as_ref(),
            step.secondary_target_value_one,
            step.secondary_target_value_two,
            step.secondary_zone_number,
        )
    } else {
        (step.target_type.as_ref(), step.target_value_one, step.target_value_two, step.zone_number)
    };
    let key = kind
        .and_then(|k| k.workout_target_type_key.as_deref())
        .or_else(|| kind.and_then(|k| k.workout_target_type_id).and_then(ids::target_key_of_id));
    let bounds = match (one, two) {
        (Some(a), Some(b)) if a.is_finite() && b.is_finite() && a > 0.0 && b > 0.0 => {
            Some((a.min(b), a.max(b)))
        }
        _ => None,
    };
    let whole = |v: f64| u16::try_from(v.round() as i64).ok();
    let zone = zone.and_then(|z| u8::try_from(z).ok());
    let target = match key {
        None | Some("no.target") => return Some(None),
        Some("pace.zone") => bounds.map(|(slow, fast)| {
            let per = sport.pace_distance_m();
            StepTarget::Pace { fastest_s: hundredths(per / fast), slowest_s: hundredths(per / slow) }
        }),
        Some("speed.zone") => bounds.map(|(low, high)| StepTarget::Speed {
            low_kmh: hundredths(low * 3.6),
            high_kmh: hundredths(high * 3.6),
        }),
        Some("heart.rate.zone") => match zone {
            Some(zone) => Some(StepTarget::HeartRateZone { zone }),
            None => bounds
                .and_then(|(l, h)| Some(StepTarget::HeartRate { low_bpm: whole(l)?, high_bpm: whole(h)? })),
        },
        Some("power.zone") => match zone {
            Some(zone) => Some(StepTarget::PowerZone { zone }),
            None => bounds.and_then(|(l, h)| Some(StepTarget::Power { low_w: whole(l)?, high_w: whole(h)? })),
        },
        Some("cadence" | "cadence.zone") => {
            bounds.and_then(|(l, h)| Some(StepTarget::Cadence { low: whole(l)?, high: whole(h)? }))
        }
        Some(_) => None,
    };
    if target.is_none() {
        let which = if secondary { "secondary target" } else { "target" };
        problems.push(format!("{path}: the {which} \"{}\"", key.unwrap_or("unknown")));
        return None;
    }
    Some(target)
}
