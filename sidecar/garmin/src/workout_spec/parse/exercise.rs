//! A step's exercise and weight: `exercise` (a name or Garmin key, resolved in the sport's list of
//! Garmin's catalogue), `category` (Garmin's generic "any exercise of this category"), and
//! `weight_kg` / `weight_lb`. Every name that does not resolve to exactly one exercise is refused
//! with the closest ones, because Garmin silently stores an exercise it does not know as `""`.

use serde_json::{Map, Value};

use super::{Parser, field, join};
use crate::exercises::{self, List, Lookup, Resolved};
use crate::workout_spec::errors::describe;
use crate::workout_spec::{MAX_WEIGHT_KG, SpecSport, StepKind, Weight, WeightUnit, pace::hundredths};

const EXERCISE_SPORTS: &str = "strength, cardio, hiit, yoga, pilates and mobility workouts";

fn closest(found: &[Resolved]) -> String {
    let names: Vec<String> = found.iter().map(Resolved::suggestion).collect();
    match names.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

impl Parser {
    /// The step's exercise: `Some(None)` when it has none (and needs none), `None` when invalid.
    pub(in crate::workout_spec) fn exercise(
        &mut self,
        obj: &Map<String, Value>,
        path: &str,
        sport: Option<SpecSport>,
        kind: Option<(StepKind, bool)>,
    ) -> Option<Option<Resolved>> {
        let named = field(obj, "exercise");
        let category = field(obj, "category");
        let written_as_exercise = kind.is_some_and(|(_, exercise)| exercise);
        if let Some(sport) = sport.filter(|s| !s.is_exercise_sport()) {
            return self.no_exercise(obj, path, sport, written_as_exercise).then_some(None);
        }
        if let Some((StepKind::Rest | StepKind::Recovery, _)) = kind
            && let Some(value) = named.or(category)
        {
            self.push(
                join(path, "exercise"),
                "no exercise on a rest: put it on an exercise, warmup or cooldown step",
                describe(value),
            );
            return None;
        }
        let list = sport.and_then(SpecSport::exercise_list).unwrap_or(List::Strength);
        match (named, category) {
            (Some(_), Some(value)) => {
                self.push(
                    join(path, "category"),
                    "either \"exercise\" or \"category\" (the category's generic form), not both",
                    describe(value),
                );
                None
            }
            (Some(value), None) => self.named_exercise(value, &join(path, "exercise"), list).map(Some),
            (None, Some(value)) => self.generic_category(value, &join(path, "category"), list).map(Some),
            (None, None) => {
                let needed = written_as_exercise
                    || (sport.is_some() && kind.is_some_and(|(k, _)| k == StepKind::Interval));
                if needed {
                    self.push(
                        join(path, "exercise"),
                        "an exercise of Garmin's catalogue, e.g. \"barbell bench press\" or \"BENCH_PRESS/BARBELL_BENCH_PRESS\" \
                         (Garmin shows \"An exercise is required\" on a work step without one)",
                        super::super::errors::MISSING,
                    );
                    return None;
                }
                Some(None)
            }
        }
    }

    /// A run, bike, swim or multisport step has no exercise: whether it has none (else a problem).
    fn no_exercise(
        &mut self,
        obj: &Map<String, Value>,
        path: &str,
        sport: SpecSport,
        written_as_exercise: bool,
    ) -> bool {
        let offending = field(obj, "exercise")
            .map(|v| ("exercise", v))
            .or(field(obj, "category").map(|v| ("category", v)));
        if let Some((key, value)) = offending {
            let expected =
                format!("no exercise in a {} workout: exercises are for {EXERCISE_SPORTS}", sport.as_str());
            self.push(join(path, key), expected, describe(value));
            return false;
        }
        if written_as_exercise {
            let expected = format!("interval (\"exercise\" steps are for {EXERCISE_SPORTS})");
            self.push(join(path, "type"), expected, "\"exercise\"");
            return false;
        }
        true
    }

    fn named_exercise(&mut self, value: &Value, path: &str, list: List) -> Option<Resolved> {
        let Some(text) = value.as_str() else {
            self.push(path, "an exercise name or Garmin key, e.g. \"barbell bench press\"", describe(value));
            return None;
        };
        let found = exercises::resolve(text, list);
        let (expected, found_text) = match found {
            Lookup::Exact(r) | Lookup::Fuzzy(r) => return Some(r),
            Lookup::Unsure(near) => (
                format!(
                    "one exercise; \"{text}\" matches several about as well: did you mean {}?",
                    closest(&near)
                ),
                describe(value),
            ),
            Lookup::Unknown(near) if near.is_empty() => (
                format!(
                    "an exercise of Garmin's {} list (Garmin blanks names it does not know); search the catalogue by name, muscle or equipment",
                    list.file()
                ),
                describe(value),
            ),
            Lookup::Unknown(near) => (
                format!(
                    "an exercise of Garmin's {} list (Garmin blanks names it does not know); closest: {}",
                    list.file(),
                    closest(&near)
                ),
                describe(value),
            ),
            Lookup::OtherList { found, lists } => {
                let sports: Vec<&str> = lists.iter().map(|l| l.sports()).collect();
                (
                    format!(
                        "an exercise of the {} list ({}): this one is only in the list for {} workouts; change the sport or pick another exercise",
                        list.file(),
                        list.sports(),
                        sports.join(", ")
                    ),
                    format!("{} ({})", describe(value), found.garmin_key()),
                )
            }
        };
        self.push(path, expected, found_text);
        None
    }

    fn generic_category(&mut self, value: &Value, path: &str, list: List) -> Option<Resolved> {
        let key = value.as_str().map(|t| t.trim().to_uppercase().replace([' ', '-'], "_"));
        match key.as_deref().and_then(exercises::category) {
            Some(c) if c.in_list(list) => Some(Resolved::Generic(c)),
            _ => {
                let known: Vec<&str> =
                    exercises::categories().iter().filter(|c| c.in_list(list)).map(|c| c.key).collect();
                let lower: Vec<String> = known.iter().map(|k| k.to_lowercase()).collect();
                let lower_refs: Vec<&str> = lower.iter().map(String::as_str).collect();
                let close = key
                    .as_deref()
                    .and_then(|k| super::super::errors::did_you_mean(k, &lower_refs))
                    .map(str::to_uppercase);
                let expected = match close {
                    Some(c) => format!(
                        "one of Garmin's categories for {} workouts (Garmin refuses the whole workout for another: 400 Invalid category); did you mean \"{c}\"?",
                        list.sports()
                    ),
                    None => format!(
                        "one of Garmin's categories for {} workouts (Garmin refuses the whole workout for another: 400 Invalid category): {}",
                        list.sports(),
                        known.join(", ")
                    ),
                };
                self.push(path, expected, describe(value));
                None
            }
        }
    }

    /// `weight_kg` or `weight_lb`: `Some(None)` when none (or 0), `None` when invalid.
    pub(in crate::workout_spec) fn weight(
        &mut self,
        obj: &Map<String, Value>,
        path: &str,
        sport: Option<SpecSport>,
        named_exercise: bool,
    ) -> Option<Option<Weight>> {
        let given: Vec<(&str, &Value)> =
            ["weight_kg", "weight_lb"].into_iter().filter_map(|k| field(obj, k).map(|v| (k, v))).collect();
        let (key, value) = match given.as_slice() {
            [] => return Some(None),
            [one] => *one,
            [_, (key, value), ..] => {
                self.push(join(path, key), "one of weight_kg or weight_lb, not both", describe(value));
                return None;
            }
        };
        let here = join(path, key);
        if let Some(sport) = sport.filter(|s| !s.is_exercise_sport()) {
            self.push(
                here,
                format!("no weight in a {} workout: weights are for {EXERCISE_SPORTS}", sport.as_str()),
                describe(value),
            );
            return None;
        }
        if !named_exercise {
            self.push(
                here,
                "a weight on a step with an exercise (\"exercise\" or \"category\")",
                describe(value),
            );
            return None;
        }
        let (unit, max) = if key == "weight_kg" {
            (WeightUnit::Kg, MAX_WEIGHT_KG)
        } else {
            (WeightUnit::Lb, hundredths(MAX_WEIGHT_KG * 1000.0 / crate::workout_spec::GRAMS_PER_POUND))
        };
        let expected =
            format!("a weight of 0-{max} {}, e.g. 60", if unit == WeightUnit::Kg { "kg" } else { "lb" });
        let amount = self.number(value, &here, &expected, 0.0, max)?;
        Some((amount > 0.0).then(|| Weight { value: hundredths(amount), unit }))
    }
}
