//! Exercise sports refuse what Garmin would refuse or silently spoil, each with one precise problem
//! at its path: unknown exercise names with the closest ones, ambiguous names with the three
//! closest, exercises of another sport's list, invalid categories, work steps without an exercise,
//! targets, calorie or heart-rate ends, weights where they do not belong, and HIIT forms outside
//! HIIT or that do not divide evenly.
//!
//! Run: `cargo test -p garmin --test workout_spec exercise_errors::`.

use garmin::workout_spec::{SpecProblem, parse_spec};
use serde_json::{Value, json};

fn problems(sport: &str, steps: Value) -> Vec<SpecProblem> {
    match parse_spec(&json!({"name": "x", "sport": sport, "steps": steps})) {
        Ok(spec) => panic!("should be refused: {spec:?}"),
        Err(errors) => errors.0,
    }
}

/// The spec has exactly one problem, at `path`, whose expected text holds every piece.
#[track_caller]
fn one(sport: &str, steps: Value, path: &str, pieces: &[&str]) -> SpecProblem {
    let found = problems(sport, steps);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].path, path, "{found:#?}");
    for piece in pieces {
        assert!(found[0].expected.contains(piece), "{:?} lacks {piece:?}", found[0].expected);
    }
    found[0].clone()
}

#[test]
fn an_unknown_exercise_is_refused_with_the_closest_names() {
    let p = one(
        "strength",
        json!([{"type": "exercise", "exercise": "underwater squat", "reps": 5}]),
        "steps[0].exercise",
        &["Garmin blanks names it does not know", "closest:"],
    );
    assert_eq!(p.expected.matches("/SQUAT)").count(), 3, "three suggestions: {}", p.expected);
    one(
        "strength",
        json!([{"type": "exercise", "exercise": "zzqx flurb"}]),
        "steps[0].exercise",
        &["Exercises.json", "search the catalogue"],
    );
}

#[test]
fn an_ambiguous_name_offers_the_three_closest() {
    let p = one(
        "strength",
        json!([{"type": "exercise", "exercise": "dumbbell press", "reps": 10}]),
        "steps[0].exercise",
        &["matches several about as well", "did you mean"],
    );
    assert_eq!(p.expected.matches("Dumbbell").count(), 3, "{}", p.expected);
    assert!(p.expected.contains(" or "), "{}", p.expected);
}

#[test]
fn an_exercise_of_another_sports_list_says_which_sport_it_belongs_to() {
    let p = one(
        "strength",
        json!([{"type": "exercise", "exercise": "downward facing dog", "duration_s": 30}]),
        "steps[0].exercise",
        &["only in the list for yoga"],
    );
    assert!(p.found.contains("POSE/DOWNWARD_FACING_DOG"), "{}", p.found);
    assert!(
        parse_spec(&json!({"name": "x", "sport": "yoga", "steps": [
        {"type": "exercise", "exercise": "downward facing dog", "duration_s": 30}]}))
        .is_ok()
    );
}

#[test]
fn categories_garmin_refuses_are_refused_before_sending() {
    one(
        "strength",
        json!([{"type": "exercise", "category": "UNASSIGNED", "reps": 5}]),
        "steps[0].category",
        &["400 Invalid category"],
    );
    one(
        "strength",
        json!([{"type": "exercise", "category": "SHOULDER_PRES", "reps": 5}]),
        "steps[0].category",
        &["did you mean \"SHOULDER_PRESS\""],
    );
    // POSE is a category Garmin keeps, but for yoga and pilates, not strength.
    one(
        "strength",
        json!([{"type": "exercise", "category": "POSE"}]),
        "steps[0].category",
        &["strength, cardio or HIIT"],
    );
}

#[test]
fn a_work_step_needs_an_exercise_and_a_rest_cannot_have_one() {
    one(
        "strength",
        json!([{"type": "interval", "reps": 10}]),
        "steps[0].exercise",
        &["An exercise is required"],
    );
    one(
        "strength",
        json!([{"type": "rest", "exercise": "plank", "duration_s": 30}]),
        "steps[0].exercise",
        &["no exercise on a rest"],
    );
    // Warm-ups and cool-downs may go without.
    assert!(
        parse_spec(
            &json!({"name": "x", "sport": "strength", "steps": [{"type": "warmup", "duration_min": 5}]})
        )
        .is_ok()
    );
}

#[test]
fn exercise_fields_stay_in_exercise_sports_and_targets_out_of_them() {
    one("run", json!([{"type": "interval", "reps": 10}]), "steps[0].reps", &["reps are for exercise steps"]);
    one(
        "run",
        json!([{"type": "interval", "exercise": "plank"}]),
        "steps[0].exercise",
        &["no exercise in a run workout"],
    );
    one(
        "bike",
        json!([{"type": "exercise", "duration_s": 30}]),
        "steps[0].type",
        &["\"exercise\" steps are for"],
    );
    one(
        "strength",
        json!([{"type": "exercise", "exercise": "plank", "duration_s": 30, "hr_zone": 2}]),
        "steps[0].hr_zone",
        &["no pace, power, cadence or heart-rate target"],
    );
    one(
        "strength",
        json!([{"type": "exercise", "exercise": "plank", "calories": 30}]),
        "steps[0].calories",
        &["reps, a duration, a distance or the lap button"],
    );
}

#[test]
fn weights_are_one_unit_in_range_on_an_exercise() {
    let bench = |extra: Value| {
        let mut step = json!({"type": "exercise", "exercise": "barbell bench press", "reps": 5});
        step.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        json!([step])
    };
    one("strength", bench(json!({"weight_kg": 60, "weight_lb": 135})), "steps[0].weight_lb", &["not both"]);
    one("strength", bench(json!({"weight_kg": 600})), "steps[0].weight_kg", &["0-500 kg"]);
    one("strength", bench(json!({"weight_lb": -5})), "steps[0].weight_lb", &["lb"]);
    one(
        "strength",
        json!([{"type": "warmup", "weight_kg": 10}]),
        "steps[0].weight_kg",
        &["with an exercise"],
    );
    one(
        "swim",
        json!([{"type": "interval", "weight_kg": 10}]),
        "steps[0].weight_kg",
        &["no weight in a swim workout"],
    );
}

#[test]
fn hiit_forms_stay_in_their_sports_and_divide_evenly() {
    let burpee = json!({"type": "exercise", "exercise": "burpee", "reps": 10});
    one(
        "strength",
        json!([{"type": "repeat", "until_min": 20, "steps": [burpee]}]),
        "steps[0].until_min",
        &["use sport \"hiit\""],
    );
    one(
        "strength",
        json!([{"type": "amrap", "duration_min": 12, "steps": [burpee]}]),
        "steps[0].type",
        &["hiit"],
    );
    one(
        "run",
        json!([{"type": "emom", "minutes": 10, "steps": [burpee]}]),
        "steps[0].type",
        &["strength, cardio"],
    );
    one(
        "hiit",
        json!([{"type": "emom", "minutes": 9, "steps": [burpee, burpee]}]),
        "steps[0].minutes",
        &["whole rounds of the 2 step(s)"],
    );
    one(
        "hiit",
        json!([{"type": "tabata", "rounds": 7, "steps": [burpee, burpee]}]),
        "steps[0].rounds",
        &["share evenly"],
    );
    one(
        "hiit",
        json!([{"type": "emom", "minutes": 10, "steps": [{"type": "exercise", "exercise": "burpee", "duration_s": 30}]}]),
        "steps[0].steps[0]",
        &["each emom step lasts 60 s"],
    );
    one(
        "hiit",
        json!([{"type": "repeat", "times": 3, "until_min": 5, "steps": [burpee]}]),
        "steps[0].until_min",
        &["one of times"],
    );
}
