//! The seeded workout library (what the athlete built in the Garmin editor) and its calendar
//! schedule. Bodies are written like a client's create request and stored through the same
//! [`super::workouts::normalize`] a `POST /workout-service/workout` uses, so seeded and created
//! workouts cannot differ in shape.

use serde_json::{Value, json};

/// Id of the seeded interval workout (followed by Tuesday sessions).
pub const INTERVALS_ID: u64 = 800_000_001;
/// Id of the seeded tempo workout (followed by tempo Fridays).
pub const TEMPO_ID: u64 = 800_000_002;

fn exec(step_type: (u64, &str), end: (u64, &str), value: f64, target: Value) -> Value {
    let mut v = json!({
        "type": "ExecutableStepDTO",
        "stepType": {"stepTypeId": step_type.0, "stepTypeKey": step_type.1},
        "endCondition": {"conditionTypeId": end.0, "conditionTypeKey": end.1, "displayable": true},
        "endConditionValue": value,
        "targetType": {"workoutTargetTypeId": 1, "workoutTargetTypeKey": "no.target"},
    });
    if let (Some(obj), Some(t)) = (v.as_object_mut(), target.as_object()) {
        for (k, val) in t {
            obj.insert(k.clone(), val.clone());
        }
    }
    v
}

fn repeat(n: u64, steps: Vec<Value>) -> Value {
    json!({
        "type": "RepeatGroupDTO",
        "stepType": {"stepTypeId": 6, "stepTypeKey": "repeat"},
        "numberOfIterations": n,
        "smartRepeat": false,
        "endCondition": {"conditionTypeId": 7, "conditionTypeKey": "iterations", "displayable": false},
        "endConditionValue": n,
        "workoutSteps": steps,
    })
}

fn pace(fast_s_per_km: f64, slow_s_per_km: f64) -> Value {
    json!({
        "targetType": {"workoutTargetTypeId": 6, "workoutTargetTypeKey": "pace.zone"},
        "targetValueOne": 1000.0 / fast_s_per_km,
        "targetValueTwo": 1000.0 / slow_s_per_km,
    })
}

fn hr_zone(zone: u64) -> Value {
    json!({"targetType": {"workoutTargetTypeId": 4, "workoutTargetTypeKey": "heart.rate.zone"}, "zoneNumber": zone})
}

fn workout(name: &str, sport: (u64, &str), steps: Vec<Value>, extra: Value) -> Value {
    let mut w = json!({
        "workoutName": name,
        "sportType": {"sportTypeId": sport.0, "sportTypeKey": sport.1},
        "workoutSegments": [{"segmentOrder": 1, "sportType": {"sportTypeId": sport.0, "sportTypeKey": sport.1}, "workoutSteps": steps}],
    });
    if let (Some(obj), Some(e)) = (w.as_object_mut(), extra.as_object()) {
        for (k, v) in e {
            obj.insert(k.clone(), v.clone());
        }
    }
    w
}

/// `(workoutId, days before today it was created, create body)` of every seeded workout.
pub fn seeds() -> Vec<(u64, i64, Value)> {
    const WARMUP: (u64, &str) = (1, "warmup");
    const COOLDOWN: (u64, &str) = (2, "cooldown");
    const INTERVAL: (u64, &str) = (3, "interval");
    const RECOVERY: (u64, &str) = (4, "recovery");
    const REST: (u64, &str) = (5, "rest");
    const TIME: (u64, &str) = (2, "time");
    const DISTANCE: (u64, &str) = (3, "distance");
    const REPS: (u64, &str) = (10, "reps");
    let running = (1, "running");
    let none = Value::Null;
    let editor: Value = serde_json::from_str(include_str!(
        "../../fixtures/garmin/workout_create_request_web_ui_running.json"
    ))
    .unwrap_or_default();
    vec![
        (
            INTERVALS_ID,
            400,
            workout(
                "Track Intervals 6x800m",
                running,
                vec![
                    exec(WARMUP, DISTANCE, 2000.0, none.clone()),
                    repeat(
                        6,
                        vec![
                            exec(INTERVAL, DISTANCE, 800.0, pace(255.0, 265.0)),
                            exec(RECOVERY, DISTANCE, 400.0, none.clone()),
                        ],
                    ),
                    exec(COOLDOWN, DISTANCE, 1500.0, none.clone()),
                ],
                json!({"avgTrainingSpeed": 3.2}),
            ),
        ),
        (
            TEMPO_ID,
            390,
            workout(
                "Tempo 25 min",
                running,
                vec![
                    exec(WARMUP, TIME, 900.0, none.clone()),
                    exec(INTERVAL, TIME, 1500.0, pace(280.0, 290.0)),
                    exec(COOLDOWN, TIME, 600.0, none.clone()),
                ],
                json!({"avgTrainingSpeed": 3.1}),
            ),
        ),
        (
            800_000_003,
            200,
            workout(
                "Long Run Zone 2",
                running,
                vec![exec(INTERVAL, TIME, 5400.0, hr_zone(2))],
                json!({"description": "Easy aerobic long run"}),
            ),
        ),
        (
            800_000_004,
            150,
            workout(
                "Pool 10x100",
                (4, "swimming"),
                vec![
                    exec(WARMUP, DISTANCE, 300.0, json!({"strokeType": {"strokeTypeId": 1}})),
                    repeat(
                        10,
                        vec![
                            exec(INTERVAL, DISTANCE, 100.0, json!({"strokeType": {"strokeTypeId": 6}})),
                            exec(REST, TIME, 20.0, none.clone()),
                        ],
                    ),
                    exec(COOLDOWN, DISTANCE, 200.0, json!({"strokeType": {"strokeTypeId": 1}})),
                ],
                json!({"poolLength": 25.0, "poolLengthUnit": {"unitKey": "meter"}}),
            ),
        ),
        (
            800_000_005,
            120,
            workout(
                "Core Strength",
                (5, "strength_training"),
                vec![
                    exec(WARMUP, TIME, 300.0, none.clone()),
                    repeat(
                        3,
                        vec![
                            exec(
                                INTERVAL,
                                REPS,
                                10.0,
                                json!({"category": "SQUAT", "exerciseName": "BARBELL_BACK_SQUAT"}),
                            ),
                            exec(REST, TIME, 90.0, none.clone()),
                            exec(
                                INTERVAL,
                                REPS,
                                12.0,
                                json!({"category": "LUNGE", "exerciseName": "DUMBBELL_LUNGE"}),
                            ),
                            exec(REST, TIME, 90.0, none.clone()),
                        ],
                    ),
                ],
                none.clone(),
            ),
        ),
        (800_000_006, 30, editor),
    ]
}
