//! Every exercise of the catalogue, and every category's generic form, survives a round trip
//! through the fake Garmin: written as a spec of a sport whose list holds it, checked against
//! Garmin's rules, created, read back, and turned into the same spec again — so no exercise the
//! spec accepts is one Garmin would blank, and the preview names it the same before and after.
//!
//! Run: `cargo test -p garmin --test workout_spec catalogue::`.

use garmin::exercises::{self, List, Resolved};
use garmin::workout_spec::{SpecStep, check_garmin_rules, parse_spec, preview, spec_from_garmin};
use serde_json::{Value, json};

/// The spec sport that uses each list.
fn sport_of(list: List) -> &'static str {
    match list {
        List::Strength => "strength",
        List::Yoga => "yoga",
        List::Pilates => "pilates",
        List::Mobility => "mobility",
    }
}

/// Specs of `sport` holding `steps`, at most 50 steps each (Garmin's cap).
fn specs(sport: &str, steps: Vec<Value>) -> Vec<Value> {
    steps
        .chunks(garmin::workout_spec::MAX_STEPS)
        .enumerate()
        .map(|(i, chunk)| json!({"name": format!("{sport} catalogue {i}"), "sport": sport, "steps": chunk}))
        .collect()
}

/// An exercise step for every entry of `list` (reps, a time or a weight in turn) and a generic step
/// for every category of the list.
fn steps_of(list: List) -> Vec<Value> {
    let mut steps: Vec<Value> = exercises::exercises()
        .iter()
        .filter(|e| e.in_list(list))
        .enumerate()
        .map(|(i, e)| match i % 3 {
            0 => json!({"type": "exercise", "exercise": e.garmin_key(), "reps": 10}),
            1 => json!({"type": "exercise", "exercise": e.garmin_key(), "duration_s": 45}),
            _ => json!({"type": "exercise", "exercise": e.garmin_key(), "reps": 5, "weight_kg": 20}),
        })
        .collect();
    steps.extend(
        exercises::categories()
            .iter()
            .filter(|c| c.in_list(list))
            .map(|c| json!({"type": "exercise", "category": c.key, "reps": 8})),
    );
    steps
}

#[test]
fn every_catalogue_exercise_and_category_survives_a_round_trip_through_the_fake() {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let env = runtime.block_on(super::support::start());
    let mut checked = 0;
    for list in List::ALL {
        for spec_json in specs(sport_of(list), steps_of(list)) {
            let spec = parse_spec(&spec_json).unwrap_or_else(|e| panic!("{e}"));
            let body = spec.to_garmin();
            assert_eq!(check_garmin_rules(&body), Ok(()), "{}", spec.name);
            let created = runtime.block_on(env.client.workouts().create(&body)).unwrap();
            let read = runtime.block_on(env.client.workouts().get(created.workout_id.unwrap())).unwrap();
            let sent: Vec<(Option<&str>, Option<&str>)> = body
                .all_steps()
                .iter()
                .map(|s| (s.category.as_deref(), s.exercise_name.as_deref()))
                .collect();
            let kept: Vec<(Option<&str>, Option<&str>)> = read
                .all_steps()
                .iter()
                .map(|s| (s.category.as_deref(), s.exercise_name.as_deref()))
                .collect();
            assert_eq!(kept, sent, "{}: Garmin kept every category and name", spec.name);
            assert_eq!(spec_from_garmin(&read).as_ref(), Ok(&spec), "{}", spec.name);
            assert_eq!(preview(&read).text, preview(&body).text, "{}", spec.name);
            checked +=
                spec.steps.iter().filter(|s| matches!(s, SpecStep::Work(w) if w.exercise.is_some())).count();
        }
    }
    runtime.block_on(env.fake.shutdown());
    let expected: usize = List::ALL
        .iter()
        .map(|l| {
            exercises::exercises().iter().filter(|e| e.in_list(*l)).count()
                + exercises::categories().iter().filter(|c| c.in_list(*l)).count()
        })
        .sum();
    assert_eq!(checked, expected, "every entry of every list and every category's generic form");
    // The generic forms are Garmin's `exerciseName: ""`.
    assert_eq!(Resolved::Generic(exercises::category("WARM_UP").unwrap()).exercise_name(), "");
}
