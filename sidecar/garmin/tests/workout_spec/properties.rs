//! Run: `cargo test -p garmin --test workout_spec properties::`.
//!
//! Property tests. (a) Any generated valid spec — every sport, step type, end, target, alias,
//! nesting — parses, serialises back to itself, and its Garmin body is accepted by the fake Garmin,
//! whose answer reads back as the same spec (64 cases: each is an HTTP round trip). (b) Mutated
//! valid specs and arbitrary JSON never panic the parser; a mutation that must be invalid gives a
//! problem at the mutated path; anything accepted survives serialise → parse and translates and
//! previews without panicking; generated valid specs also round-trip without the network (2,000
//! cases each, or `PROPTEST_CASES`).

use garmin::workout_spec::{WorkoutSpec, parse_spec, preview, spec_from_garmin};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{Map, Value, json};

// ---------------------------------------------------------------- valid specs

fn pace_text(seconds: u32) -> String {
    format!("{}:{:02}", seconds / 60, seconds % 60)
}

/// An end for a step of `sport`, as the spec writes it (`None` = lap button by default).
fn end_strategy(swim: bool) -> BoxedStrategy<Option<(String, Value)>> {
    let mut ends: Vec<BoxedStrategy<Option<(String, Value)>>> = vec![
        Just(None).boxed(),
        (1u32..=20_000).prop_map(|m| Some(("distance_m".to_owned(), json!(m)))).boxed(),
        (1u32..=200).prop_map(|t| Some(("distance_km".to_owned(), json!(f64::from(t) / 10.0)))).boxed(),
        (1u32..=120).prop_map(|m| Some(("duration_min".to_owned(), json!(m)))).boxed(),
        (1u32..=7200).prop_map(|s| Some(("duration_s".to_owned(), json!(s)))).boxed(),
        Just(Some(("lap_button".to_owned(), json!(true)))).boxed(),
        (100u32..=180).prop_map(|b| Some(("until_hr_below".to_owned(), json!(b)))).boxed(),
        (120u32..=200).prop_map(|b| Some(("until_hr_above".to_owned(), json!(b)))).boxed(),
    ];
    if !swim {
        ends.push((1u32..=2000).prop_map(|k| Some(("calories".to_owned(), json!(k)))).boxed());
    }
    proptest::strategy::Union::new(ends).boxed()
}

/// One target per family: (family, field, value).
fn target_strategy(sport: &'static str) -> BoxedStrategy<Vec<(u8, String, Value)>> {
    let swim = sport == "swim";
    let (pace_low, pace_high) = if swim { (60u32, 180u32) } else { (150u32, 600u32) };
    let speed: BoxedStrategy<(u8, String, Value)> = prop_oneof![
        (pace_low..=pace_high).prop_map(|p| (0, "pace".to_owned(), json!(pace_text(p)))),
        (pace_low..=pace_high, pace_low..=pace_high).prop_map(|(a, b)| (
            0,
            "pace_range".to_owned(),
            json!(format!("{}-{}", pace_text(a), pace_text(b)))
        )),
        (10u32..=60, 10u32..=60).prop_map(|(a, b)| (0, "speed_range".to_owned(), json!(format!("{a}-{b}")))),
    ]
    .boxed();
    let heart = prop_oneof![
        (1u32..=5).prop_map(|z| (2, "hr_zone".to_owned(), json!(z))),
        (90u32..=200, 90u32..=200).prop_map(|(a, b)| (2, "hr_range".to_owned(), json!(format!("{a}-{b}")))),
        (90u32..=200, 90u32..=200).prop_map(|(a, b)| (2, "hr_range".to_owned(), json!([a, b]))),
    ]
    .boxed();
    let power = prop_oneof![
        (1u32..=7).prop_map(|z| (1, "power_zone".to_owned(), json!(z))),
        (50u32..=500, 50u32..=500).prop_map(|(a, b)| (
            1,
            "power_range".to_owned(),
            json!(format!("{a}-{b} W"))
        )),
    ]
    .boxed();
    let cadence = (50u32..=200, 50u32..=200)
        .prop_map(|(a, b)| (3, "cadence_range".to_owned(), json!(format!("{a}-{b}"))))
        .boxed();
    let families: Vec<BoxedStrategy<(u8, String, Value)>> = if swim {
        // Swims: pace (per 100 m) and heart rate only.
        vec![(pace_low..=pace_high).prop_map(|p| (0, "pace".to_owned(), json!(pace_text(p)))).boxed(), heart]
    } else {
        vec![speed, heart, power, cadence]
    };
    let count = families.len();
    // Pick a subset of at most two families, then a value from each.
    let all = families;
    proptest::sample::subsequence((0..count).collect::<Vec<_>>(), 0..=2)
        .prop_flat_map(move |chosen| chosen.into_iter().map(|i| all[i].clone()).collect::<Vec<_>>())
        .boxed()
}

/// A step to do, as JSON.
fn work_step(sport: &'static str) -> BoxedStrategy<Value> {
    let swim = sport == "swim";
    let kinds = prop_oneof![
        Just("warmup"),
        Just("interval"),
        Just("run"),
        Just("recovery"),
        Just("rest"),
        Just("cooldown"),
        Just("swim")
    ];
    let description = proptest::option::of(prop_oneof![
        Just("easy"),
        Just("Lauf – locker 🏃"),
        Just("  stay relaxed  "),
        Just("\"quoted\" \\ text")
    ]);
    let strokes = proptest::option::of(prop_oneof![
        Just("free"),
        Just("backstroke"),
        Just("breast"),
        Just("butterfly"),
        Just("drill"),
        Just("im"),
        Just("any_stroke")
    ]);
    let equipment = proptest::option::of(prop_oneof![
        Just("fins"),
        Just("kickboard"),
        Just("paddles"),
        Just("pull_buoy"),
        Just("snorkel")
    ]);
    (kinds, end_strategy(swim), target_strategy(sport), description, strokes, equipment)
        .prop_map(move |(kind, end, targets, description, stroke, equipment)| {
            let mut step = Map::new();
            step.insert("type".into(), json!(kind));
            if let Some((key, value)) = end {
                step.insert(key, value);
            }
            for (_, key, value) in targets {
                step.insert(key, value);
            }
            if let Some(text) = description {
                step.insert("description".into(), json!(text));
            }
            if swim {
                if let Some(stroke) = stroke {
                    step.insert("stroke".into(), json!(stroke));
                }
                if let Some(kit) = equipment {
                    step.insert("equipment".into(), json!(kit));
                }
            }
            Value::Object(step)
        })
        .boxed()
}

/// A step, possibly a repeat (nested at most once more when `depth` allows).
fn any_step(sport: &'static str, depth: usize) -> BoxedStrategy<Value> {
    let work = work_step(sport);
    if depth >= 2 {
        return work;
    }
    let repeat = (1u32..=12, proptest::collection::vec(any_step(sport, depth + 1), 1..=3), any::<bool>())
        .prop_map(|(times, steps, skip)| {
            let mut step = json!({"type": "repeat", "times": times, "steps": steps});
            if skip {
                step["skip_last_rest"] = json!(true);
            }
            step
        });
    prop_oneof![3 => work, 1 => repeat].boxed()
}

/// A valid workout spec as an assistant might write it.
fn valid_spec() -> BoxedStrategy<Value> {
    prop_oneof![Just("run"), Just("bike"), Just("swim")]
        .prop_flat_map(|sport| {
            let pool = if sport == "swim" {
                proptest::option::of(prop_oneof![Just(25), Just(50), Just(33)]).boxed()
            } else {
                Just(None).boxed()
            };
            ("[A-Za-z0-9][A-Za-z0-9 x×/-]{0,40}", proptest::collection::vec(any_step(sport, 0), 1..=6), pool)
                .prop_map(move |(name, steps, pool)| {
                    let mut spec = json!({"name": name, "sport": sport, "steps": steps});
                    if let Some(pool) = pool {
                        spec["pool_length_m"] = json!(pool);
                    }
                    spec
                })
        })
        .boxed()
}

fn runner(cases: u32) -> TestRunner {
    TestRunner::new(Config { cases, failure_persistence: None, ..Config::default() })
}

#[test]
fn generated_specs_are_accepted_by_the_fake_and_read_back_unchanged() {
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
    let env = runtime.block_on(super::support::start());
    let result = runner(64).run(&valid_spec(), |json| {
        let parsed = parse_spec(&json).map_err(|e| TestCaseError::fail(format!("{e}\n{json:#}")))?;
        let canonical = serde_json::to_value(&parsed).unwrap();
        let reparsed = parse_spec(&canonical);
        prop_assert_eq!(reparsed.as_ref(), Ok(&parsed), "canonical form parses to itself");
        let body = parsed.to_garmin();
        let created = runtime
            .block_on(env.client.workouts().create(&body))
            .map_err(|e| TestCaseError::fail(format!("the fake refused it: {e}\n{json:#}")))?;
        prop_assert!(created.workout_id.is_some());
        let orders = |w: &garmin::models::workouts::Workout| -> Vec<Option<i64>> {
            w.all_steps().iter().map(|s| s.step_order).collect()
        };
        prop_assert_eq!(orders(&created), orders(&body), "Garmin's numbering is ours");
        prop_assert_eq!(spec_from_garmin(&created), Ok(parsed.clone()), "the created workout reads back");
        prop_assert_eq!(preview(&created).text, preview(&body).text, "same preview before and after");
        Ok(())
    });
    runtime.block_on(env.fake.shutdown());
    if let Err(failure) = result {
        panic!("{failure}");
    }
}

// ---------------------------------------------------------------- invalid and arbitrary JSON

fn parser_cases() -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(2000)
}

/// Arbitrary JSON, biased towards the spec's own field names and value shapes.
fn arbitrary_json() -> BoxedStrategy<Value> {
    let keys = prop_oneof![
        Just("name".to_owned()),
        Just("sport".to_owned()),
        Just("steps".to_owned()),
        Just("type".to_owned()),
        Just("times".to_owned()),
        Just("pace".to_owned()),
        Just("pace_range".to_owned()),
        Just("hr_range".to_owned()),
        Just("distance_m".to_owned()),
        Just("duration_min".to_owned()),
        Just("stroke".to_owned()),
        Just("pool_length_m".to_owned()),
        "[a-z_]{0,12}",
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>().prop_map(|n| serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number)),
        prop_oneof![
            Just("run".to_owned()),
            Just("swim".to_owned()),
            Just("repeat".to_owned()),
            Just("interval".to_owned()),
            Just("5:00".to_owned()),
            Just("4:50-5:10".to_owned()),
            Just("150-165".to_owned()),
            Just("-".to_owned()),
            Just("9:99/mi".to_owned()),
            ".{0,12}",
        ]
        .prop_map(Value::String),
    ];
    leaf.prop_recursive(6, 64, 6, move |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            proptest::collection::vec((keys.clone(), inner), 0..6)
                .prop_map(|pairs| Value::Object(pairs.into_iter().collect())),
        ]
    })
    .boxed()
}

/// Paths (in the parser's notation) and values of every step object in a spec.
fn step_objects(steps: &Value, path: &str, out: &mut Vec<String>) {
    for (i, step) in steps.as_array().into_iter().flatten().enumerate() {
        let here = format!("{path}[{i}]");
        out.push(here.clone());
        step_objects(&step["steps"], &format!("{here}.steps"), out);
    }
}

fn object_at<'a>(spec: &'a mut Value, path: &str) -> &'a mut Map<String, Value> {
    let mut at = spec;
    for part in path.split('.').filter(|p| !p.is_empty()) {
        let (key, index) = part
            .split_once('[')
            .map_or((part, None), |(k, i)| (k, i.trim_end_matches(']').parse::<usize>().ok()));
        at = &mut at[key];
        if let Some(i) = index {
            at = &mut at[i];
        }
    }
    at.as_object_mut().unwrap()
}

/// Ways to break a valid spec for sure, each with the path that must be reported.
#[derive(Clone, Debug)]
enum Mutation {
    /// An unknown field in the workout or in a step.
    UnknownField { object: usize },
    /// A field of a step (or the workout) replaced by an object, which no field accepts.
    ObjectInField { object: usize, field: usize },
    /// A required workout field removed.
    Remove { field: usize },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        any::<usize>().prop_map(|object| Mutation::UnknownField { object }),
        (any::<usize>(), any::<usize>())
            .prop_map(|(object, field)| Mutation::ObjectInField { object, field }),
        any::<usize>().prop_map(|field| Mutation::Remove { field }),
    ]
}

/// Applies `mutation`, returning the path the parser must report.
fn apply(spec: &mut Value, mutation: &Mutation) -> String {
    let mut objects = vec![String::new()];
    step_objects(&spec["steps"], "steps", &mut objects);
    let join =
        |object: &str, key: &str| if object.is_empty() { key.to_owned() } else { format!("{object}.{key}") };
    match *mutation {
        Mutation::UnknownField { object } => {
            let object = &objects[object % objects.len()];
            object_at(spec, object).insert("zz_not_a_field".into(), json!(1));
            join(object, "zz_not_a_field")
        }
        Mutation::ObjectInField { object, field } => {
            let object = &objects[object % objects.len()];
            let map = object_at(spec, object);
            let keys: Vec<String> = map.keys().filter(|k| k.as_str() != "steps").cloned().collect();
            let key = keys[field % keys.len()].clone();
            map.insert(key.clone(), json!({"nested": true}));
            join(object, &key)
        }
        Mutation::Remove { field } => {
            let key = ["name", "sport", "steps"][field % 3];
            spec.as_object_mut().unwrap().remove(key);
            key.to_owned()
        }
    }
}

/// Whatever was accepted is canonical after one round and translates and previews cleanly.
fn check_accepted(spec: &WorkoutSpec) -> Result<(), TestCaseError> {
    let canonical = serde_json::to_value(spec).unwrap();
    let reparsed = parse_spec(&canonical);
    prop_assert_eq!(reparsed.as_ref(), Ok(spec));
    let body = spec.to_garmin();
    let shown = preview(&body);
    prop_assert!(!shown.text.is_empty() && shown.duration_s.is_some_and(f64::is_finite));
    let readback = spec_from_garmin(&body);
    prop_assert_eq!(readback.as_ref(), Ok(spec));
    Ok(())
}

#[test]
fn generated_specs_translate_and_read_back_without_the_network() {
    let result = runner(parser_cases()).run(&valid_spec(), |json| {
        let parsed = parse_spec(&json).map_err(|e| TestCaseError::fail(format!("{e}\n{json:#}")))?;
        check_accepted(&parsed)
    });
    if let Err(failure) = result {
        panic!("{failure}");
    }
}

#[test]
fn mutated_specs_are_refused_at_the_mutated_path() {
    let result = runner(parser_cases()).run(&(valid_spec(), mutation()), |(mut json, mutation)| {
        let path = apply(&mut json, &mutation);
        match parse_spec(&json) {
            Ok(spec) => Err(TestCaseError::fail(format!("{mutation:?} at {path} was accepted: {spec:?}"))),
            Err(errors) => {
                prop_assert!(
                    errors.0.iter().any(|p| p.path == path),
                    "no problem at {} for {:?}:\n{}",
                    path,
                    mutation,
                    errors
                );
                prop_assert_eq!(errors.to_string().lines().count(), errors.0.len());
                Ok(())
            }
        }
    });
    if let Err(failure) = result {
        panic!("{failure}");
    }
}

#[test]
fn arbitrary_json_never_panics_and_what_passes_is_sound() {
    let result = runner(parser_cases()).run(&arbitrary_json(), |json| {
        match parse_spec(&json) {
            Ok(spec) => check_accepted(&spec)?,
            Err(errors) => prop_assert!(!errors.0.is_empty()),
        }
        // Also as the `steps` of an otherwise valid workout, where it reaches the step parser.
        let wrapped = json!({"name": "x", "sport": "run", "steps": [json]});
        if let Ok(spec) = parse_spec(&wrapped) {
            check_accepted(&spec)?;
        }
        Ok(())
    });
    if let Err(failure) = result {
        panic!("{failure}");
    }
}
