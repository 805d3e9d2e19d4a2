//! FIT workout files written by `garmin::workout_fit`, read back by two decoders we did not write:
//! the `fitparser` crate and Garmin's official FIT SDK for Python (`garmin-fit-sdk`, through
//! `tests/interop/decode_fit.py`; skipped with a message when `.ci/.venv` lacks it).
//!
//! The workouts are Garmin's own JSON (the recorded create requests in the fake's fixtures, and the
//! fake's strength workout). What each file must hold is written out below per step, worked out by
//! hand from that JSON and the FIT profile (time in s, distance in m, HR as bpm + 100, power as
//! W + 1000, speed in m/s, repeats as `repeat_until_steps_cmplt` pointing back at the group's first
//! step), and compared with the decoders' scaled sub-fields.
//!
//! Run: `cargo test -p garmin --test workout_fit`.

use std::path::{Path, PathBuf};
use std::process::Command;

use chrono::{DateTime, TimeZone, Utc};
use garmin::models::workouts::Workout;
use garmin::workout_fit::{FitWorkout, WorkoutFitError, encode};
use serde_json::{Map, Value, json};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn fixture_json(name: &str) -> Value {
    let path = root().join("sidecar/fake-garmin/fixtures/garmin").join(name);
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn workout(value: Value) -> Workout {
    serde_json::from_value(value).unwrap()
}

fn created() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 28, 7, 30, 0).unwrap()
}

/// A workout, and what a decoder must find in its `workout` message and in each step.
struct Case {
    name: &'static str,
    workout: Workout,
    header: Value,
    steps: Vec<Value>,
}

// ---- the expected steps, in the decoders' words (sub-field names, scaled values) ----

fn time(s: f64) -> Value {
    json!({"duration_type": "time", "duration_time": s})
}
fn distance(m: f64) -> Value {
    json!({"duration_type": "distance", "duration_distance": m})
}
fn open() -> Value {
    json!({"duration_type": "open"})
}
fn calories(kcal: u32) -> Value {
    json!({"duration_type": "calories", "duration_calories": kcal})
}
fn reps(n: u32) -> Value {
    json!({"duration_type": "reps", "duration_reps": n})
}
fn repeat(first_step: u32, times: u32) -> Value {
    json!({"duration_type": "repeat_until_steps_cmplt", "duration_step": first_step,
           "target_type": "open", "repeat_steps": times})
}

/// `fields` of every part merged, plus intensity (none for repeat steps) and target (`open` when
/// no part names one).
fn step(intensity: &str, parts: &[Value]) -> Value {
    let mut out = Map::new();
    out.insert("intensity".into(), intensity.into());
    out.insert("target_type".into(), "open".into());
    for part in parts {
        for (k, v) in part.as_object().unwrap() {
            out.insert(k.clone(), v.clone());
        }
    }
    Value::Object(out)
}
fn hr_zone(zone: u32) -> Value {
    json!({"target_type": "heart_rate", "target_hr_zone": zone})
}
fn hr_bpm(low: u32, high: u32) -> Value {
    json!({"target_type": "heart_rate", "target_hr_zone": 0,
           "custom_target_heart_rate_low": low + 100, "custom_target_heart_rate_high": high + 100})
}
fn speed(low: f64, high: f64) -> Value {
    json!({"target_type": "speed", "target_speed_zone": 0,
           "custom_target_speed_low": low, "custom_target_speed_high": high})
}
fn power_zone(zone: u32) -> Value {
    json!({"target_type": "power", "target_power_zone": zone})
}
fn watts(low: u32, high: u32) -> Value {
    json!({"target_type": "power", "target_power_zone": 0,
           "custom_target_power_low": low + 1000, "custom_target_power_high": high + 1000})
}
fn cadence(low: u32, high: u32) -> Value {
    json!({"target_type": "cadence", "target_cadence_zone": 0,
           "custom_target_cadence_low": low, "custom_target_cadence_high": high})
}
fn stroke(name: &str) -> Value {
    json!({"target_type": "swim_stroke", "target_stroke_type": name})
}
fn secondary(target: Value) -> Value {
    let map = target.as_object().unwrap();
    Value::Object(map.iter().map(|(k, v)| (format!("secondary_{k}"), v.clone())).collect())
}
fn equipment(name: &str) -> Value {
    json!({"equipment": name})
}

fn cases() -> Vec<Case> {
    let repeat_step = |first, times| repeat(first, times);
    vec![
        Case {
            name: "running, nested repeats (kaiord round trip)",
            workout: workout(fixture_json("workout_create_request_running_nested_repeats.json")),
            header: json!({"sport": "running", "num_valid_steps": 10, "wkt_name": "MEGA RUN - Complete API Test"}),
            steps: vec![
                step("warmup", &[open()]),
                step("active", &[time(600.0), hr_zone(4)]),
                step("recovery", &[distance(400.0), hr_bpm(120, 140)]),
                step("active", &[calories(50), speed(3.5, 4.0), secondary(hr_bpm(160, 175))]),
                // Outer repeat ×3 of (inner repeat ×4 of (400 m, 200 m), rest 3 min).
                step("active", &[distance(400.0), speed(4.5, 5.0)]),
                step("recovery", &[distance(200.0)]),
                repeat_step(4, 4),
                step("rest", &[time(180.0)]),
                repeat_step(4, 3),
                step("cooldown", &[open()]),
            ],
        },
        Case {
            name: "cycling, power, cadence and speed",
            workout: workout(fixture_json("workout_create_request_cycling_power_cadence.json")),
            header: json!({"sport": "cycling", "num_valid_steps": 8}),
            steps: vec![
                step("warmup", &[time(600.0), power_zone(2)]),
                step("active", &[time(1200.0), watts(200, 250), secondary(cadence(85, 95))]),
                step("active", &[calories(100), speed(7.0, 8.5)]),
                step("active", &[time(300.0), watts(280, 320), secondary(hr_bpm(165, 180))]),
                step("recovery", &[time(180.0), watts(100, 150)]),
                repeat_step(3, 5),
                step("active", &[time(600.0), cadence(95, 105)]),
                step("cooldown", &[open()]),
            ],
        },
        Case {
            name: "pool swim, strokes and equipment",
            workout: workout(fixture_json("workout_create_request_swimming_all_strokes.json")),
            header: json!({"sport": "swimming", "sub_sport": "lap_swimming", "num_valid_steps": 13,
                           "pool_length": 25.0, "pool_length_unit": "metric"}),
            steps: vec![
                step("warmup", &[distance(200.0)]),
                step("active", &[distance(100.0), stroke("butterfly")]),
                step("active", &[distance(100.0), stroke("backstroke")]),
                step("active", &[distance(100.0), stroke("breaststroke")]),
                step("active", &[distance(100.0)]),
                step("active", &[distance(200.0), stroke("drill"), equipment("swim_kickboard")]),
                step("active", &[distance(200.0), equipment("swim_pull_buoy")]),
                step("active", &[distance(200.0), equipment("swim_fins")]),
                step("active", &[distance(200.0), equipment("swim_paddles")]),
                step("active", &[distance(100.0)]),
                step("rest", &[time(20.0)]),
                repeat_step(9, 4),
                step("cooldown", &[distance(100.0)]),
            ],
        },
        Case {
            name: "running, Garmin's own editor (HR end, pace, cadence)",
            workout: workout(fixture_json("workout_create_request_web_ui_running.json")),
            header: json!({"sport": "running", "num_valid_steps": 6, "wkt_name": "Run Workout"}),
            steps: vec![
                step("warmup", &[open()]),
                // 6:00–5:50 /km as m/s, to the millimetre FIT keeps.
                step("active", &[distance(1000.0), speed(2.778, 2.857)]),
                step("active", &[time(1800.0), hr_zone(2)]),
                step(
                    "active",
                    &[json!({"duration_type": "hr_less_than", "duration_hr": 250}), cadence(175, 185)],
                ),
                step("cooldown", &[distance(1000.0)]),
                step("cooldown", &[open()]),
            ],
        },
        Case {
            name: "strength, reps and exercises",
            workout: workout(json!({
                "workoutName": "Core Strength", "sportType": {"sportTypeId": 5, "sportTypeKey": "strength_training"},
                "workoutSegments": [{"segmentOrder": 1, "workoutSteps": [
                    {"type": "ExecutableStepDTO", "stepType": {"stepTypeId": 1}, "endCondition": {"conditionTypeId": 2}, "endConditionValue": 300},
                    {"type": "RepeatGroupDTO", "stepType": {"stepTypeId": 6}, "numberOfIterations": 3, "workoutSteps": [
                        {"type": "ExecutableStepDTO", "stepType": {"stepTypeId": 3}, "endCondition": {"conditionTypeId": 10},
                         "endConditionValue": 10, "category": "SQUAT", "exerciseName": "BARBELL_BACK_SQUAT",
                         "weightValue": 60, "weightUnit": {"unitId": 8, "unitKey": "kilogram", "factor": 1000}},
                        {"type": "ExecutableStepDTO", "stepType": {"stepTypeId": 5}, "endCondition": {"conditionTypeId": 2}, "endConditionValue": 90},
                        {"type": "ExecutableStepDTO", "stepType": {"stepTypeId": 3}, "endCondition": {"conditionTypeId": 10},
                         "endConditionValue": 12, "category": "LUNGE", "exerciseName": "DUMBBELL_LUNGE"}
                    ]}
                ]}]
            })),
            header: json!({"sport": "training", "sub_sport": "strength_training", "num_valid_steps": 5}),
            steps: vec![
                step("warmup", &[time(300.0)]),
                step(
                    "active",
                    &[
                        reps(10),
                        json!({"exercise_category": "squat", "exercise_name": 6, "exercise_weight": 60.0, "weight_display_unit": "kilogram"}),
                    ],
                ),
                step("rest", &[time(90.0)]),
                step("active", &[reps(12), json!({"exercise_category": "lunge", "exercise_name": 21})]),
                repeat_step(1, 3),
            ],
        },
        Case {
            name: "HIIT: a repeat until 20 min, weights in pounds, a generic category",
            workout: workout(json!({
                "workoutName": "Engine", "sportType": {"sportTypeId": 9, "sportTypeKey": "hiit"},
                "workoutSegments": [{"segmentOrder": 1, "workoutSteps": [
                    {"type": "RepeatGroupDTO", "stepType": {"stepTypeId": 6},
                     "endCondition": {"conditionTypeId": 2, "conditionTypeKey": "time"}, "endConditionValue": 1200, "workoutSteps": [
                        {"type": "ExecutableStepDTO", "stepType": {"stepTypeId": 3}, "endCondition": {"conditionTypeId": 10},
                         "endConditionValue": 10, "category": "TOTAL_BODY", "exerciseName": "BURPEE"},
                        {"type": "ExecutableStepDTO", "stepType": {"stepTypeId": 3}, "endCondition": {"conditionTypeId": 10},
                         "endConditionValue": 8, "category": "BENCH_PRESS", "exerciseName": "",
                         "weightValue": 69.99676824369863, "weightUnit": {"unitId": 9, "unitKey": "pound", "factor": 453.59237}}
                    ]}
                ]}]
            })),
            header: json!({"sport": "hiit", "num_valid_steps": 3}),
            steps: vec![
                step("active", &[reps(10), json!({"exercise_category": "total_body", "exercise_name": 0})]),
                // 69.9968 lb is 31.75 kg, kept in kg × 100 and shown in pounds.
                step(
                    "active",
                    &[
                        reps(8),
                        json!({"exercise_category": "bench_press", "exercise_weight": 31.75, "weight_display_unit": "pound"}),
                    ],
                ),
                json!({"duration_type": "repeat_until_time", "duration_step": 0, "target_type": "open", "repeat_time": 1200.0}),
            ],
        },
    ]
}

/// Repeat steps carry no intensity.
fn expected_steps(case: &Case) -> Vec<Value> {
    case.steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let mut s = s.clone();
            s["message_index"] = json!(i);
            if s["duration_type"] == "repeat_until_steps_cmplt" || s["duration_type"] == "repeat_until_time" {
                s.as_object_mut().unwrap().remove("intensity");
            }
            s
        })
        .collect()
}

/// Fields that carry meaning: a decoded step must have exactly the expected ones among these.
const MEANINGFUL: &[&str] = &[
    "duration_type",
    "duration_time",
    "duration_distance",
    "duration_calories",
    "duration_hr",
    "duration_reps",
    "duration_step",
    "target_type",
    "target_hr_zone",
    "target_speed_zone",
    "target_power_zone",
    "target_cadence_zone",
    "target_stroke_type",
    "repeat_steps",
    "repeat_time",
    "custom_target_heart_rate_low",
    "custom_target_heart_rate_high",
    "custom_target_speed_low",
    "custom_target_speed_high",
    "custom_target_power_low",
    "custom_target_power_high",
    "custom_target_cadence_low",
    "custom_target_cadence_high",
    "secondary_target_type",
    "secondary_custom_target_heart_rate_low",
    "secondary_custom_target_cadence_low",
    "intensity",
    "equipment",
    "exercise_category",
    "exercise_weight",
    "message_index",
];

fn same(actual: &Value, expected: &Value) -> bool {
    match (actual.as_f64(), expected.as_f64()) {
        (Some(a), Some(e)) => (a - e).abs() < 1e-6,
        _ => actual == expected,
    }
}

/// Problems with one decoded file (empty = as expected).
fn compare(
    decoder: &str,
    case: &Case,
    header: &Map<String, Value>,
    steps: &[Map<String, Value>],
) -> Vec<String> {
    let mut problems = Vec::new();
    for (key, want) in case.header.as_object().unwrap() {
        match header.get(key) {
            Some(got) if same(got, want) => {}
            got => problems.push(format!("{decoder}, {}: workout.{key} = {got:?}, want {want}", case.name)),
        }
    }
    let expected = expected_steps(case);
    if steps.len() != expected.len() {
        problems.push(format!("{decoder}, {}: {} steps, want {}", case.name, steps.len(), expected.len()));
    }
    for (i, (got, want)) in steps.iter().zip(&expected).enumerate() {
        let want = want.as_object().unwrap();
        for (key, value) in want {
            match got.get(key) {
                Some(g) if same(g, value) => {}
                g => problems.push(format!("{decoder}, {} step {i}: {key} = {g:?}, want {value}", case.name)),
            }
        }
        for key in MEANINGFUL {
            if got.contains_key(*key) && !want.contains_key(*key) {
                problems.push(format!("{decoder}, {} step {i}: unexpected {key} = {}", case.name, got[*key]));
            }
        }
    }
    problems
}

// ---- the decoders ----

/// `file_id`, `workout` and the steps as `fitparser` reads them (scaled sub-fields, enum names).
/// One decoded message: field name → value.
type Fields = Map<String, Value>;

fn fitparser_decode(bytes: &[u8]) -> (Fields, Fields, Vec<Fields>) {
    let records = fitparser::from_bytes(bytes).expect("fitparser reads the file (CRC, definitions)");
    let fields = |r: &fitparser::FitDataRecord| -> Fields {
        r.fields().iter().map(|f| (f.name().to_owned(), serde_json::to_value(f.value()).unwrap())).collect()
    };
    let mut file_id = Map::new();
    let mut header = Map::new();
    let mut steps = Vec::new();
    for record in &records {
        match record.kind() {
            fitparser::profile::MesgNum::FileId => file_id = fields(record),
            fitparser::profile::MesgNum::Workout => header = fields(record),
            fitparser::profile::MesgNum::WorkoutStep => steps.push(fields(record)),
            other => panic!("unexpected message {other:?} in a workout file"),
        }
    }
    (file_id, header, steps)
}

fn encoded(case: &Case) -> FitWorkout {
    encode(&case.workout, created()).unwrap_or_else(|e| panic!("{}: {e}", case.name))
}

#[test]
fn fitparser_reads_the_steps_durations_and_targets_of_every_sport() {
    let mut problems = Vec::new();
    for case in cases() {
        let fit = encoded(&case);
        assert_eq!(usize::from(fit.steps), case.steps.len(), "{}", case.name);
        let (_, header, steps) = fitparser_decode(&fit.bytes);
        problems.extend(compare("fitparser", &case, &header, &steps));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_file_id_says_workout_made_by_a_development_tool_at_the_given_time() {
    let case = cases().remove(0);
    let (file_id, _, _) = fitparser_decode(&encoded(&case).bytes);
    assert_eq!(file_id["type"], "workout");
    assert_eq!(file_id["manufacturer"], "development");
    let when: DateTime<Utc> = file_id["time_created"].as_str().unwrap().parse().unwrap();
    assert_eq!(when, created());
}

/// Garmin's FIT SDK for Python, when `.ci/.venv` has it (`.ci/setup` installs it); otherwise the
/// test says so and passes.
fn python_with_fit_sdk() -> Option<PathBuf> {
    let python = root().join(".ci/.venv/bin/python");
    let has_sdk = Command::new(&python)
        .args(["-c", "import garmin_fit_sdk"])
        .output()
        .is_ok_and(|o| o.status.success());
    if has_sdk {
        Some(python)
    } else {
        eprintln!("skipped: {} lacks garmin-fit-sdk (run .ci/setup)", python.display());
        None
    }
}

#[test]
fn garmin_fit_sdk_reads_the_steps_durations_and_targets() {
    let Some(python) = python_with_fit_sdk() else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut problems = Vec::new();
    for (i, case) in cases().into_iter().enumerate() {
        let path = dir.path().join(format!("workout_{i}.fit"));
        std::fs::write(&path, encoded(&case).bytes).unwrap();
        let output = Command::new(&python)
            .arg(root().join("tests/interop/decode_fit.py"))
            .arg(&path)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "{}: the FIT SDK refused the file:\n{stdout}\n{}",
            case.name,
            String::from_utf8_lossy(&output.stderr)
        );
        let decoded: Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(decoded["integrity"], true, "{}", case.name);
        assert_eq!(decoded["file_id"]["type"], "workout", "{}", case.name);
        let header = decoded["workout"].as_object().unwrap().clone();
        let steps: Vec<Map<String, Value>> =
            decoded["steps"].as_array().unwrap().iter().map(|s| s.as_object().unwrap().clone()).collect();
        problems.extend(compare("garmin-fit-sdk", &case, &header, &steps));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn yard_pools_are_written_in_metres_with_the_statute_unit() {
    let mut json = fixture_json("workout_create_request_swimming_all_strokes.json");
    json["poolLengthUnit"] = json!({"unitId": 230, "unitKey": "yard", "factor": 91.44});
    let (_, header, _) = fitparser_decode(&encode(&workout(json), created()).unwrap().bytes);
    assert!(same(&header["pool_length"], &json!(22.86)), "{header:?}");
    assert_eq!(header["pool_length_unit"], "statute");
}

#[test]
fn a_name_longer_than_fit_allows_is_cut_and_said() {
    let case = workout(fixture_json("workout_create_request_edge_cases.json"));
    let fit = encode(&case, created()).unwrap();
    let (_, header, steps) = fitparser_decode(&fit.bytes);
    let name = header["wkt_name"].as_str().unwrap();
    assert!(name.len() <= 254 && name.starts_with("EDGE-TEST-"), "{}", name.len());
    assert!(fit.notes.iter().any(|n| n.contains("name was cut")), "{:?}", fit.notes);
    assert_eq!(steps.len(), 2, "one step and its repeat");
}

#[test]
fn skipping_the_last_rest_is_not_in_fit_and_the_notes_say_so() {
    let mut json = fixture_json("workout_create_request_hr_zone_repeat.json");
    json["workoutSegments"][0]["workoutSteps"][1]["skipLastRestStep"] = json!(true);
    let fit = encode(&workout(json), created()).unwrap();
    assert_eq!(fit.notes.len(), 1, "{:?}", fit.notes);
    assert!(fit.notes[0].starts_with("step 2") && fit.notes[0].contains("last rest"), "{:?}", fit.notes);
}

fn unsupported_at(result: Result<FitWorkout, WorkoutFitError>) -> (String, String) {
    match result {
        Err(WorkoutFitError::Unsupported { at, problem }) => (at, problem),
        other => panic!("expected Unsupported, got {other:?}"),
    }
}

#[test]
fn garmin_fit_sdk_reads_a_multisport_workout_as_legs_pointing_into_one_step_list() {
    // kaiord's recorded triathlon: bike 10:00, run 1 km, swim 500 m in a 25 m pool.
    let fit = encode(&workout(fixture_json("workout_create_request_multisport_triathlon.json")), created())
        .unwrap();
    assert_eq!(fit.steps, 3);
    assert!(fit.notes.iter().any(|n| n.contains("whether a watch accepts")), "{:?}", fit.notes);
    let records = fitparser::from_bytes(&fit.bytes).expect("fitparser reads it");
    let kinds: Vec<String> = records.iter().map(|r| format!("{:?}", r.kind())).collect();
    assert_eq!(
        kinds,
        [
            "FileId",
            "Workout",
            "WorkoutSession",
            "WorkoutSession",
            "WorkoutSession",
            "WorkoutStep",
            "WorkoutStep",
            "WorkoutStep"
        ]
    );
    let Some(python) = python_with_fit_sdk() else { return };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("triathlon.fit");
    std::fs::write(&path, &fit.bytes).unwrap();
    let output =
        Command::new(&python).arg(root().join("tests/interop/decode_fit.py")).arg(&path).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the FIT SDK refused the file:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let decoded: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(decoded["integrity"], true);
    assert_eq!(decoded["unknown"], json!([]), "every field is in the SDK's profile");
    assert_eq!(decoded["workout"]["sport"], "multisport");
    let legs: Vec<(String, u64, u64)> = decoded["workout_sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["sport"].as_str().unwrap().to_owned(),
                s["first_step_index"].as_u64().unwrap(),
                s["num_valid_steps"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(legs, [("cycling".into(), 0, 1), ("running".into(), 1, 1), ("swimming".into(), 2, 1)]);
    assert_eq!(decoded["workout_sessions"][2]["pool_length"], 25.0);
    let ends: Vec<&str> =
        decoded["steps"].as_array().unwrap().iter().map(|s| s["duration_type"].as_str().unwrap()).collect();
    assert_eq!(ends, ["time", "distance", "distance"]);
}

#[test]
fn what_a_fit_workout_cannot_hold_is_an_error_naming_the_step() {
    let (at, problem) = unsupported_at(encode(
        &workout(json!({"workoutName": "x", "sportType": {"sportTypeId": 10, "sportTypeKey": "multi_sport"},
            "workoutSegments": [{"segmentOrder": 1, "workoutSteps": [
                {"type": "ExecutableStepDTO", "stepType": {"stepTypeId": 3}, "endCondition": {"conditionTypeId": 1}}]}]})),
        created(),
    ));
    assert_eq!(at, "workout");
    assert!(problem.contains("its own segment"), "{problem}");

    let base = fixture_json("workout_create_request_hr_zone_repeat.json");
    let edit = |path: &str, value: Value| {
        let mut json = base.clone();
        *json.pointer_mut(path).unwrap() = value;
        encode(&workout(json), created())
    };
    let steps = "/workoutSegments/0/workoutSteps";
    // An HR end condition must say below or above.
    let (at, problem) = unsupported_at(edit(
        &format!("{steps}/0"),
        json!({"type": "ExecutableStepDTO", "stepType": {"stepTypeKey": "warmup"},
               "endCondition": {"conditionTypeKey": "heart.rate"}, "endConditionValue": 150}),
    ));
    assert_eq!(at, "step 1 (warmup)");
    assert!(problem.contains("`lt` or `gt`"), "{problem}");
    // Steps are counted depth first, as Garmin's stepOrder: the repeat's second child is step 4.
    let (at, problem) = unsupported_at(edit(
        &format!("{steps}/1/workoutSteps/1/targetType"),
        json!({"workoutTargetTypeKey": "swim.css.offset"}),
    ));
    assert_eq!(at, "step 4 (recovery)");
    assert!(problem.contains("swim.css.offset"), "{problem}");
    let (_, problem) = unsupported_at(edit(&format!("{steps}/1/workoutSteps"), json!([])));
    assert!(problem.contains("no steps"), "{problem}");
    let (_, problem) = unsupported_at(edit(&format!("{steps}/1/numberOfIterations"), json!(0)));
    assert!(problem.contains("repeat count"), "{problem}");
    let (_, problem) = unsupported_at(edit(&format!("{steps}/0/endConditionValue"), json!(-5)));
    assert!(problem.contains("not a usable time"), "{problem}");
    let (_, problem) = unsupported_at(edit(&format!("{steps}/1/workoutSteps/0/zoneNumber"), json!(9)));
    assert!(problem.contains("zones go from 1 to 5"), "{problem}");
    let (_, problem) =
        unsupported_at(edit(&format!("{steps}/0/endCondition"), json!({"conditionTypeKey": "iterations"})));
    assert!(problem.contains("only a repeat group"), "{problem}");
}

/// Every step of every fixture with odd values in each field the encoder reads: the result is a
/// file fitparser reads or an error, never a panic.
#[test]
fn odd_values_anywhere_give_a_file_or_an_error_never_a_panic() {
    let odd = [
        json!(null),
        json!(0),
        json!(-1),
        json!(1e300),
        json!(4_294_967_295_u64),
        json!(0.5),
        json!("x"),
        json!({}),
    ];
    let fields = [
        "endConditionValue",
        "targetValueOne",
        "targetValueTwo",
        "zoneNumber",
        "secondaryTargetValueOne",
        "secondaryZoneNumber",
        "numberOfIterations",
        "weightValue",
        "category",
        "exerciseName",
        "description",
    ];
    let objects = [
        ("endCondition", "conditionTypeId"),
        ("targetType", "workoutTargetTypeId"),
        ("secondaryTargetType", "workoutTargetTypeId"),
        ("stepType", "stepTypeId"),
        ("strokeType", "strokeTypeId"),
        ("equipmentType", "equipmentTypeId"),
    ];
    let mut tried = 0;
    for name in [
        "workout_create_request_running_nested_repeats.json",
        "workout_create_request_cycling_power_cadence.json",
        "workout_create_request_swimming_all_strokes.json",
        "workout_create_request_web_ui_running.json",
        "workout_create_request_strength_reps.json",
    ] {
        let base = fixture_json(name);
        for path in step_paths(&base) {
            let mut variants = Vec::new();
            for field in fields {
                for value in &odd {
                    variants.push((format!("{path}/{field}"), value.clone()));
                }
            }
            for (object, id) in objects {
                for value in [json!(0), json!(99), json!(-3)] {
                    variants.push((format!("{path}/{object}"), json!({ id: value })));
                }
                variants.push((format!("{path}/{object}"), json!({"unknown": true})));
            }
            for (pointer, value) in variants {
                let mut json = base.clone();
                let (parent, key) = pointer.rsplit_once('/').unwrap();
                json.pointer_mut(parent).unwrap()[key] = value;
                // Values Garmin's types refuse never reach the encoder.
                let Ok(w) = serde_json::from_value::<Workout>(json) else { continue };
                tried += 1;
                if let Ok(fit) = encode(&w, created()) {
                    fitparser::from_bytes(&fit.bytes).unwrap_or_else(|e| panic!("{name} {pointer}: {e}"));
                }
            }
        }
    }
    assert!(tried > 1000, "only {tried} variants reached the encoder");
}

/// JSON pointers of every step, depth first.
fn step_paths(workout: &Value) -> Vec<String> {
    fn walk(value: &Value, path: &str, out: &mut Vec<String>) {
        for (i, step) in value.as_array().into_iter().flatten().enumerate() {
            let here = format!("{path}/{i}");
            out.push(here.clone());
            walk(&step["workoutSteps"], &format!("{here}/workoutSteps"), out);
        }
    }
    let mut out = Vec::new();
    for (s, segment) in workout["workoutSegments"].as_array().into_iter().flatten().enumerate() {
        walk(&segment["workoutSteps"], &format!("/workoutSegments/{s}/workoutSteps"), &mut out);
    }
    out
}

#[test]
fn garmin_fit_sdk_decodes_the_workouts_our_spec_writes_for_every_sport() {
    // The editor's template of every sport (strength with weights, cardio, HIIT until a time, yoga
    // poses, pilates, mobility, a brick) and a strength session in pounds, through `to_garmin`.
    let mut specs: Vec<Value> =
        garmin::workout_spec::editor_grammar().templates.into_iter().map(|t| t.spec).collect();
    specs.push(json!({"name": "Upper", "sport": "strength", "steps": [
        {"type": "repeat", "times": 4, "steps": [
            {"type": "exercise", "exercise": "INCLINE_DUMBBELL_BENCH_PRESS", "reps": 6, "weight_lb": 70},
            {"type": "rest"},
            {"type": "exercise", "exercise": "face pull", "reps": 15, "weight_lb": 70},
            {"type": "rest", "duration_s": 90}]}]}));
    let python = python_with_fit_sdk();
    let dir = tempfile::tempdir().unwrap();
    for (i, spec) in specs.iter().enumerate() {
        let body = garmin::workout_spec::parse_spec(spec).unwrap().to_garmin();
        let fit = encode(&body, created()).unwrap_or_else(|e| panic!("{}: {e}", spec["sport"]));
        fitparser::from_bytes(&fit.bytes).unwrap_or_else(|e| panic!("{}: fitparser: {e}", spec["sport"]));
        let Some(python) = &python else { continue };
        let path = dir.path().join(format!("spec_{i}.fit"));
        std::fs::write(&path, &fit.bytes).unwrap();
        let output =
            Command::new(python).arg(root().join("tests/interop/decode_fit.py")).arg(&path).output().unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{}: the FIT SDK refused it:\n{stdout}", spec["sport"]);
        let decoded: Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(
            (decoded["integrity"].as_bool(), decoded["errors"].as_array().map(Vec::len)),
            (Some(true), Some(0)),
            "{}",
            spec["sport"]
        );
        let steps = decoded["steps"].as_array().unwrap();
        assert_eq!(steps.len(), usize::from(fit.steps), "{}", spec["sport"]);
        if spec["name"] == "Upper" {
            let bench = &steps[0];
            assert_eq!(bench["exercise_category"], "bench_press");
            assert_eq!(bench["duration_reps"], 6);
            assert!((bench["exercise_weight"].as_f64().unwrap() - 31.75).abs() < 0.01, "{bench}");
            assert_eq!(bench["weight_display_unit"], "pound");
            assert_eq!(steps[2]["exercise_category"], "row");
        }
    }
}
