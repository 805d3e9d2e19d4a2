//! Run: `cargo test -p garmin --test workout_spec errors::`.
//!
//! Every kind of invalid spec gets one problem with the right path, a useful "expected" and an
//! exact "found"; several problems give several errors, in document order.

use garmin::workout_spec::{SpecErrors, WorkoutSpec, parse_spec};
use serde_json::{Value, json};

/// A valid run workout whose first step is `step`.
fn run_with(step: Value) -> Value {
    json!({"name": "Test", "sport": "run", "steps": [step]})
}

fn swim_with(step: Value) -> Value {
    json!({"name": "Test", "sport": "swim", "steps": [step]})
}

/// Parses `spec`, which must give exactly one problem, at `path`, whose expected text contains
/// `expected` and whose found text is `found`.
#[track_caller]
fn one_problem(spec: Value, path: &str, expected: &str, found: &str) {
    let errors = parse_spec(&spec).expect_err("spec should be refused");
    assert_eq!(errors.0.len(), 1, "one problem expected, got:\n{errors}");
    let problem = &errors.0[0];
    assert_eq!(problem.path, path, "{errors}");
    assert!(problem.expected.contains(expected), "expected text {:?} lacks {expected:?}", problem.expected);
    assert_eq!(problem.found, found, "{errors}");
}

#[test]
fn workout_level_problems() {
    one_problem(json!([]), "", "a JSON object with \"name\"", "an empty array");
    one_problem(json!("run 5 km"), "", "a JSON object", "\"run 5 km\"");
    one_problem(
        json!({"sport": "run", "steps": [{"type": "warmup"}]}),
        "name",
        "a workout name",
        "nothing (the field is missing)",
    );
    one_problem(
        json!({"name": "  ", "sport": "run", "steps": [{"type": "warmup"}]}),
        "name",
        "1-255 characters",
        "\"  \"",
    );
    one_problem(
        json!({"name": 5, "sport": "run", "steps": [{"type": "warmup"}]}),
        "name",
        "a workout name",
        "5",
    );
    one_problem(
        json!({"name": "x".repeat(256), "sport": "run", "steps": [{"type": "warmup"}]}),
        "name",
        "at most 255 characters",
        "a name of 256 characters",
    );
    one_problem(
        json!({"name": "x", "steps": [{"type": "warmup"}]}),
        "sport",
        "\"run\", \"bike\", \"swim\", \"strength\"",
        "nothing (the field is missing)",
    );
    one_problem(
        json!({"name": "x", "sport": "walking", "steps": [{"type": "warmup"}]}),
        "sport",
        "Garmin has no other workout sports",
        "\"walking\"",
    );
    one_problem(
        json!({"name": "x", "sport": "swimm", "steps": [{"type": "warmup"}]}),
        "sport",
        "did you mean \"swim\"",
        "\"swimm\"",
    );
    one_problem(
        json!({"name": "x", "sport": "run"}),
        "steps",
        "a non-empty array of steps",
        "nothing (the field is missing)",
    );
    one_problem(
        json!({"name": "x", "sport": "run", "steps": []}),
        "steps",
        "a non-empty array",
        "an empty array",
    );
    one_problem(
        json!({"name": "x", "sport": "run", "steps": {"type": "warmup"}}),
        "steps",
        "a non-empty array",
        "an object",
    );
    one_problem(
        json!({"name": "x", "sport": "run", "steps": [{"type": "warmup"}], "sports": "run"}),
        "sports",
        "did you mean \"sport\"",
        "unknown field \"sports\"",
    );
    one_problem(
        json!({"name": "x", "sport": "run", "steps": [{"type": "warmup"}], "distance_m": 5000}),
        "distance_m",
        "step fields go on a step inside \"steps\"",
        "the step field \"distance_m\"",
    );
    one_problem(
        json!({"name": "x", "sport": "run", "steps": [{"type": "warmup"}], "pool_length_m": 25}),
        "pool_length_m",
        "for swim workouts only",
        "25",
    );
    one_problem(
        json!({"name": "x", "sport": "swim", "steps": [{"type": "warmup"}], "pool_length_m": 5}),
        "pool_length_m",
        "10-200",
        "5",
    );
    one_problem(
        json!({"name": "x", "sport": "run", "steps": [{"type": "warmup"}], "description": "a", "notes": "b"}),
        "notes",
        "not several",
        "\"b\"",
    );
}

#[test]
fn step_type_problems() {
    one_problem(run_with(json!(5)), "steps[0]", "a step object", "5");
    one_problem(
        run_with(json!({"duration_min": 10})),
        "steps[0].type",
        "warmup, interval (or run)",
        "nothing (the field is missing)",
    );
    one_problem(
        run_with(json!({"type": "warmpu"})),
        "steps[0].type",
        "did you mean \"warmup\"",
        "\"warmpu\"",
    );
    one_problem(run_with(json!({"type": "sprint"})), "steps[0].type", "cooldown, repeat", "\"sprint\"");
    one_problem(run_with(json!({"type": 3})), "steps[0].type", "the step's type", "3");
}

#[test]
fn end_condition_problems() {
    let step = |extra: Value| {
        let mut step = json!({"type": "interval"});
        step.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        run_with(step)
    };
    one_problem(
        step(json!({"distance": 800})),
        "steps[0].distance",
        "did you mean \"distance_m\"",
        "unknown field \"distance\"",
    );
    one_problem(
        step(json!({"duration": 10})),
        "steps[0].duration",
        "did you mean \"duration_min\"",
        "unknown field \"duration\"",
    );
    one_problem(
        step(json!({"distance_m": 800, "duration_min": 4})),
        "steps[0].duration_min",
        "one end per step: this step already ends by \"distance_m\"",
        "4",
    );
    one_problem(step(json!({"lap_button": false})), "steps[0].lap_button", "true, or another end", "false");
    one_problem(
        step(json!({"lap_button": "yes"})),
        "steps[0].lap_button",
        "true (end at the lap button)",
        "\"yes\"",
    );
    one_problem(step(json!({"distance_m": 0})), "steps[0].distance_m", "1-1000000", "0");
    one_problem(step(json!({"distance_m": "800"})), "steps[0].distance_m", "a distance in metres", "\"800\"");
    one_problem(step(json!({"distance_km": 2000})), "steps[0].distance_km", "0.001-1000", "2000");
    one_problem(step(json!({"duration_min": -1})), "steps[0].duration_min", "a duration in minutes", "-1");
    one_problem(step(json!({"duration_s": 90000})), "steps[0].duration_s", "1-86400", "90000");
    one_problem(step(json!({"calories": 2.5})), "steps[0].calories", "a whole number", "2.5");
    one_problem(step(json!({"until_hr_below": 300})), "steps[0].until_hr_below", "30-250", "300");
}

#[test]
fn target_problems() {
    let step = |extra: Value| {
        let mut step = json!({"type": "interval", "duration_min": 5});
        step.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        step
    };
    one_problem(
        run_with(step(json!({"pace": "5:7x"}))),
        "steps[0].pace",
        "a pace \"m:ss\" per km",
        "\"5:7x\"",
    );
    one_problem(run_with(step(json!({"pace": "0:30"}))), "steps[0].pace", "1:05-29:55", "\"0:30\"");
    one_problem(run_with(step(json!({"pace": 300}))), "steps[0].pace", "e.g. \"5:00\"", "300");
    one_problem(run_with(step(json!({"pace": "5:00/100m"}))), "steps[0].pace", "per km", "\"5:00/100m\"");
    one_problem(swim_with(step(json!({"pace": "1:45/km"}))), "steps[0].pace", "per 100 m", "\"1:45/km\"");
    one_problem(
        run_with(step(json!({"pace_range": "4:50"}))),
        "steps[0].pace_range",
        "\"m:ss-m:ss\"",
        "\"4:50\"",
    );
    one_problem(run_with(step(json!({"hr_zone": 6}))), "steps[0].hr_zone", "1-5", "6");
    one_problem(run_with(step(json!({"hr_zone": "4"}))), "steps[0].hr_zone", "1-5", "\"4\"");
    one_problem(run_with(step(json!({"hr_range": "165"}))), "steps[0].hr_range", "\"low-high\"", "\"165\"");
    one_problem(
        run_with(step(json!({"hr_range": "150.5-160"}))),
        "steps[0].hr_range",
        "whole numbers",
        "\"150.5-160\"",
    );
    one_problem(run_with(step(json!({"power_zone": 8}))), "steps[0].power_zone", "1-7", "8");
    one_problem(
        run_with(step(json!({"power_range": [200]}))),
        "steps[0].power_range",
        "watts",
        "an array of 1",
    );
    one_problem(
        run_with(step(json!({"cadence_range": "85-950"}))),
        "steps[0].cadence_range",
        "1-300",
        "\"85-950\"",
    );
    one_problem(run_with(step(json!({"speed_range": "fast"}))), "steps[0].speed_range", "km/h", "\"fast\"");
    one_problem(
        swim_with(step(json!({"power_range": "200-250"}))),
        "steps[0].power_range",
        "no power, cadence or speed targets in swims",
        "\"200-250\"",
    );
    one_problem(
        run_with(step(json!({"pace": "5:00", "pace_range": "4:50-5:10"}))),
        "steps[0].pace_range",
        "one pace/speed target per step: this step already has \"pace\"",
        "\"4:50-5:10\"",
    );
    one_problem(
        run_with(step(json!({"pace": "5:00", "hr_zone": 3, "cadence_range": "170-180"}))),
        "steps[0].cadence_range",
        "at most two targets per step",
        "\"170-180\"",
    );
}

#[test]
fn swim_field_problems() {
    one_problem(
        run_with(json!({"type": "interval", "stroke": "free"})),
        "steps[0].stroke",
        "for swim workouts only",
        "\"free\"",
    );
    one_problem(
        swim_with(json!({"type": "swim", "stroke": "butterflies"})),
        "steps[0].stroke",
        "did you mean \"butterfly\"",
        "\"butterflies\"",
    );
    one_problem(
        swim_with(json!({"type": "swim", "stroke": "doggy"})),
        "steps[0].stroke",
        "one of any_stroke, free",
        "\"doggy\"",
    );
    one_problem(
        swim_with(json!({"type": "swim", "equipment": "snorkle"})),
        "steps[0].equipment",
        "did you mean \"snorkel\"",
        "\"snorkle\"",
    );
}

#[test]
fn repeat_problems() {
    let repeat = |extra: Value| {
        let mut step =
            json!({"type": "repeat", "times": 3, "steps": [{"type": "interval", "distance_m": 400}]});
        step.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        run_with(step)
    };
    one_problem(
        run_with(json!({"type": "repeat", "steps": [{"type": "rest"}]})),
        "steps[0].times",
        "how many times to repeat",
        "nothing (the field is missing)",
    );
    one_problem(repeat(json!({"times": 0})), "steps[0].times", "1-99", "0");
    one_problem(repeat(json!({"times": 100})), "steps[0].times", "1-99", "100");
    one_problem(repeat(json!({"times": 2.5})), "steps[0].times", "a whole number", "2.5");
    one_problem(repeat(json!({"steps": []})), "steps[0].steps", "a non-empty array", "an empty array");
    one_problem(
        repeat(json!({"distance_m": 400})),
        "steps[0].distance_m",
        "put ends, targets, exercises and descriptions on the steps inside",
        "400",
    );
    one_problem(
        repeat(json!({"skip_last_rest": "yes"})),
        "steps[0].skip_last_rest",
        "true or false",
        "\"yes\"",
    );
    one_problem(
        repeat(json!({"time": 3})),
        "steps[0].time",
        "did you mean \"times\"",
        "unknown field \"time\"",
    );
    one_problem(
        run_with(json!({"type": "interval", "times": 3})),
        "steps[0].times",
        "only on a step of type \"repeat\"",
        "3",
    );
    let three_deep = json!({"type": "repeat", "times": 2, "steps": [
        {"type": "repeat", "times": 2, "steps": [
            {"type": "repeat", "times": 2, "steps": [{"type": "interval", "distance_m": 100}]}]}]});
    one_problem(
        run_with(three_deep),
        "steps[0].steps[0].steps[0]",
        "at most one repeat inside another",
        "a repeat inside 2 repeats",
    );
}

#[test]
fn several_problems_give_one_error_each_in_document_order() {
    let spec = json!({"name": "", "sport": "run", "steps": [
        {"type": "warmup", "duration_min": 10},
        {"type": "repeat", "times": 4, "steps": [
            {"type": "interval", "distance": 800, "pace": "5:7x"},
            {"type": "recovery", "duration_min": 2, "hr_zone": 9}]},
        {"type": "cooldwn"}]});
    let errors = parse_spec(&spec).unwrap_err();
    let paths: Vec<&str> = errors.0.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "name",
            "steps[1].steps[0].distance",
            "steps[1].steps[0].pace",
            "steps[1].steps[1].hr_zone",
            "steps[2].type"
        ]
    );
    // Display: one line per problem, "path: expected …, found …".
    let text = errors.to_string();
    assert_eq!(text.lines().count(), 5, "{text}");
    assert!(
        text.lines().any(|l| l.starts_with("steps[1].steps[0].pace: expected a pace \"m:ss\" per km")
            && l.ends_with("found \"5:7x\"")),
        "{text}"
    );
    let boxed: Box<dyn std::error::Error> = Box::new(errors.clone());
    assert_eq!(boxed.to_string(), text);
}

#[test]
fn serde_reads_specs_with_the_same_rules_and_messages() {
    let bad =
        json!({"name": "x", "sport": "run", "steps": [{"type": "interval", "pace": "fast", "distnce_m": 5}]});
    let message = serde_json::from_value::<WorkoutSpec>(bad.clone()).unwrap_err().to_string();
    let errors: SpecErrors = parse_spec(&bad).unwrap_err();
    assert_eq!(errors.0.len(), 2);
    for problem in &errors.0 {
        assert!(message.contains(&problem.to_string()), "{message} lacks {problem}");
    }
    let good: WorkoutSpec = serde_json::from_value(super::common::issue_example()).unwrap();
    assert_eq!(good, parse_spec(&super::common::issue_example()).unwrap());
}

#[test]
fn nulls_in_optional_fields_count_as_absent() {
    let spec = run_with(json!({"type": "interval", "distance_m": 800, "pace": null, "hr_zone": null,
        "description": null, "stroke": null, "lap_button": null}));
    let parsed = parse_spec(&spec).unwrap();
    let again = parse_spec(&run_with(json!({"type": "interval", "distance_m": 800}))).unwrap();
    assert_eq!(parsed, again);
    // Required fields may not be null.
    one_problem(
        json!({"name": null, "sport": "run", "steps": [{"type": "rest"}]}),
        "name",
        "a workout name",
        "null",
    );
}

/// 100,000 steps (a 2 MB preview and a 1 MB workout in Garmin before the cap) are refused at once
/// with one problem naming Garmin's limit, not one problem per step.
#[test]
fn a_spec_with_100000_steps_is_refused_with_one_problem_naming_the_step_limit() {
    let steps: Vec<Value> = (0..100_000).map(|_| json!({"type": "interval", "distance_m": 400})).collect();
    let errors = parse_spec(&json!({"name": "Flood", "sport": "run", "steps": steps})).expect_err("refused");
    assert_eq!(errors.0.len(), 1, "{errors}");
    assert_eq!(errors.0[0].path, "steps");
    assert!(errors.0[0].expected.contains("at most 50 steps"), "{errors}");
}

/// Fifty steps is Garmin's limit, and repeats and the steps inside them count.
#[test]
fn fifty_steps_pass_and_the_fifty_first_inside_a_repeat_is_refused() {
    let step = || json!({"type": "interval", "distance_m": 400});
    let fifty: Vec<Value> = (0..50).map(|_| step()).collect();
    assert!(parse_spec(&json!({"name": "Fifty", "sport": "run", "steps": fifty})).is_ok());
    let mut over: Vec<Value> = (0..48).map(|_| step()).collect();
    over.push(json!({"type": "repeat", "times": 2, "steps": [step(), step()]}));
    let errors = parse_spec(&json!({"name": "Over", "sport": "run", "steps": over})).expect_err("refused");
    assert_eq!(errors.0[0].path, "steps[48].steps", "{errors}");
}

/// Repeats nested 100 deep get an answer at once: the nesting limit, reported once per level
/// reached, and never more than a screenful of problems.
#[test]
fn repeats_nested_100_deep_are_refused_quickly_with_a_bounded_list_of_problems() {
    let mut step = json!({"type": "interval", "distance_m": 400});
    for _ in 0..100 {
        step = json!({"type": "repeat", "times": 2, "steps": [step]});
    }
    let errors = parse_spec(&json!({"name": "Deep", "sport": "run", "steps": [step]})).expect_err("refused");
    assert!(errors.0.len() <= 21, "{} problems", errors.0.len());
    assert!(errors.to_string().contains("at most one repeat inside another"), "{errors}");
}

/// A spec with hundreds of mistakes lists the first twenty and counts the rest.
#[test]
fn a_spec_with_hundreds_of_mistakes_lists_twenty_and_counts_the_rest() {
    let steps: Vec<Value> = (0..40).map(|_| json!({"type": "sprint"})).collect();
    let errors = parse_spec(&json!({"name": "Bad", "sport": "run", "steps": steps})).expect_err("refused");
    assert_eq!(errors.0.len(), 21, "{errors}");
    assert!(errors.0[20].found.contains("20 more problems"), "{errors}");
}
