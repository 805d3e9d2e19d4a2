//! The workout and activity sides of strength, HIIT, yoga and multisport as Garmin behaves
//! (module docs of `data/workouts.rs` and `routes/activity_detail.rs` name each behaviour's source
//! and confidence): exercise bodies stored as sent, `400 Invalid category`, unknown exercise names
//! blanked, repeats without an iterations end corrupted, time-bounded repeats kept, repeated step
//! orders refused in multisport, legs Garmin rewrites split; strength activities with the watch's
//! ranked guesses, grams and seconds, two sessions a week with rising loads, and their `PUT`.
//!
//! Run: `cargo test -p fake-garmin --test endpoints strength::`.

use reqwest::StatusCode;
use serde_json::{Value, json};

use super::support::{Api, fixture, type_key};

fn step(kind: (u64, &str), end: (u64, &str), value: f64, extra: Value) -> Value {
    let mut s = json!({
        "type": "ExecutableStepDTO",
        "stepType": {"stepTypeId": kind.0, "stepTypeKey": kind.1},
        "endCondition": {"conditionTypeId": end.0, "conditionTypeKey": end.1},
        "endConditionValue": value,
        "targetType": {"workoutTargetTypeId": 1, "workoutTargetTypeKey": "no.target"},
    });
    s.as_object_mut().unwrap().extend(extra.as_object().cloned().unwrap_or_default());
    s
}

fn exercise(category: &str, name: &str, reps: f64) -> Value {
    step((3, "interval"), (10, "reps"), reps, json!({"category": category, "exerciseName": name}))
}

fn strength(steps: Vec<Value>) -> Value {
    json!({"workoutName": "Strength", "sportType": {"sportTypeId": 5, "sportTypeKey": "strength_training"},
        "workoutSegments": [{"segmentOrder": 1, "sportType": {"sportTypeId": 5, "sportTypeKey": "strength_training"},
            "workoutSteps": steps}]})
}

fn group(end: Value, count: Option<u64>, steps: Vec<Value>) -> Value {
    let mut g = json!({"type": "RepeatGroupDTO", "stepType": {"stepTypeId": 6, "stepTypeKey": "repeat"},
        "endConditionValue": count, "workoutSteps": steps});
    if let Some(n) = count {
        g["numberOfIterations"] = json!(n);
    }
    if !end.is_null() {
        g["endCondition"] = end;
    }
    g
}

#[tokio::test]
async fn a_real_strength_body_is_stored_with_its_exercises_reps_and_pound_weights() {
    let api = Api::start().await;
    let (status, stored) =
        api.post("/workout-service/workout", &fixture("workout_get_strength_supersets.json")).await;
    assert_eq!(status, StatusCode::OK, "{stored}");
    let first = &stored["workoutSegments"][0]["workoutSteps"][0]["workoutSteps"][0];
    assert_eq!(
        (first["category"].as_str(), first["exerciseName"].as_str()),
        (Some("BENCH_PRESS"), Some("INCLINE_DUMBBELL_BENCH_PRESS"))
    );
    assert_eq!(first["weightValue"], 69.99676824369863);
    assert_eq!(first["weightUnit"]["unitKey"], "pound");
    assert_eq!(first["endCondition"]["conditionTypeKey"], "reps");
    let landmine = &stored["workoutSegments"][0]["workoutSteps"][2]["workoutSteps"][0];
    assert_eq!(
        (landmine["category"].as_str(), landmine["exerciseName"].as_str()),
        (Some("SHOULDER_PRESS"), Some(""))
    );
    let group = &stored["workoutSegments"][0]["workoutSteps"][0];
    assert_eq!(
        (group["numberOfIterations"].as_u64(), group["endCondition"]["conditionTypeId"].as_u64()),
        (Some(4), Some(7))
    );
}

#[tokio::test]
async fn an_invalid_category_refuses_the_whole_workout_and_an_unknown_name_is_blanked() {
    let api = Api::start().await;
    let (status, body) = api
        .post("/workout-service/workout", &strength(vec![exercise("UNASSIGNED", "BENCH_PRESS", 5.0)]))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["message"], "Invalid category");
    let (status, stored) = api
        .post(
            "/workout-service/workout",
            &strength(vec![
                exercise("BENCH_PRESS", "BARBEL_BENCH_PRESS", 5.0),
                exercise("POSE", "DOWNWARD_FACING_DOG", 1.0),
            ]),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "a typo is not refused: Garmin stores it blank");
    let steps = &stored["workoutSegments"][0]["workoutSteps"];
    assert_eq!(
        (steps[0]["category"].as_str(), steps[0]["exerciseName"].as_str()),
        (Some("BENCH_PRESS"), Some(""))
    );
    assert_eq!(steps[1]["exerciseName"], "DOWNWARD_FACING_DOG", "POSE names are kept (garminconnect-js)");
}

#[tokio::test]
async fn a_repeat_without_its_iterations_end_is_silently_corrupted_and_a_time_bounded_one_is_kept() {
    let api = Api::start().await;
    let squat = || exercise("SQUAT", "GOBLET_SQUAT", 10.0);
    let body = strength(vec![
        group(json!({"conditionTypeId": 7, "conditionTypeKey": "iterations"}), Some(3), vec![squat()]),
        group(Value::Null, Some(5), vec![squat()]),
        group(json!({"conditionTypeId": 2, "conditionTypeKey": "time"}), None, vec![squat()]),
    ]);
    let mut body = body;
    body["workoutSegments"][0]["workoutSteps"][2]["endConditionValue"] = json!(1200.0);
    body["sportType"] = json!({"sportTypeId": 9, "sportTypeKey": "hiit"});
    let (status, stored) = api.post("/workout-service/workout", &body).await;
    assert_eq!(status, StatusCode::OK, "{stored}");
    let groups = &stored["workoutSegments"][0]["workoutSteps"];
    assert_eq!(
        (groups[0]["numberOfIterations"].as_u64(), groups[0]["endCondition"]["conditionTypeKey"].as_str()),
        (Some(3), Some("iterations"))
    );
    // Taxuspt #112: the count is gone and the end is a heart rate.
    assert!(groups[1]["numberOfIterations"].is_null());
    assert_eq!(groups[1]["endCondition"]["conditionTypeKey"], "heart.rate");
    assert_eq!(groups[1]["endConditionValue"], 5.0);
    // Garmin's HIIT "Repeat Until Time Is".
    assert!(groups[2]["numberOfIterations"].is_null());
    assert_eq!(
        (groups[2]["endCondition"]["conditionTypeId"].as_u64(), groups[2]["endConditionValue"].as_f64()),
        (Some(2), Some(1200.0))
    );
}

fn leg(sport: (u64, &str), steps: Vec<Value>) -> Value {
    json!({"sportType": {"sportTypeId": sport.0, "sportTypeKey": sport.1}, "workoutSteps": steps})
}

fn multisport(legs: Vec<Value>) -> Value {
    json!({"workoutName": "Brick", "sportType": {"sportTypeId": 10, "sportTypeKey": "multi_sport"},
        "isSessionTransitionEnabled": true, "workoutSegments": legs})
}

#[tokio::test]
async fn repeated_step_orders_are_refused_in_multisport_and_renumbered_in_one_sport() {
    let api = Api::start().await;
    let bike = (2, "cycling");
    let run = (1, "running");
    let work = |order: u64| {
        let mut s = step((3, "interval"), (2, "time"), 600.0, json!({}));
        s["stepOrder"] = json!(order);
        s
    };
    let (status, body) = api
        .post(
            "/workout-service/workout",
            &multisport(vec![leg(bike, vec![work(1)]), leg(run, vec![work(1)])]),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(
        body["message"],
        "The workout steps need to have unique step orders, or all be unset and rely on submission structure order."
    );
    let (status, stored) = api
        .post(
            "/workout-service/workout",
            &multisport(vec![leg(bike, vec![work(1)]), leg(run, vec![work(2)])]),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{stored}");
    assert_eq!(stored["isSessionTransitionEnabled"], true);
    // kaiord's recorded strength request restarts the count inside its repeat; Garmin renumbers.
    let (status, stored) =
        api.post("/workout-service/workout", &fixture("workout_create_request_strength_reps.json")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(stored["workoutSegments"][0]["workoutSteps"][1]["workoutSteps"][0]["stepOrder"], 3);
}

#[tokio::test]
async fn a_multisport_leg_garmin_does_not_keep_is_split_into_legs() {
    let api = Api::start().await;
    let run = (1, "running");
    let warmup = step((1, "warmup"), (2, "time"), 600.0, json!({}));
    let interval = step((3, "interval"), (3, "distance"), 1000.0, json!({}));
    let repeat = group(
        json!({"conditionTypeId": 7, "conditionTypeKey": "iterations"}),
        Some(4),
        vec![interval.clone()],
    );
    // warmup + repeat + interval in one leg: two legs (kaiord's spike 1562037033).
    let (status, stored) = api
        .post(
            "/workout-service/workout",
            &multisport(vec![
                leg(run, vec![warmup.clone(), repeat, interval.clone()]),
                leg((2, "cycling"), vec![interval.clone()]),
            ]),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{stored}");
    let legs: Vec<(String, usize)> = stored["workoutSegments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["sportType"]["sportTypeKey"].as_str().unwrap().to_owned(),
                l["workoutSteps"].as_array().unwrap().len(),
            )
        })
        .collect();
    assert_eq!(legs, [("running".to_owned(), 2), ("running".to_owned(), 1), ("cycling".to_owned(), 1)]);
    let orders: Vec<u64> = stored["workoutSegments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["segmentOrder"].as_u64().unwrap())
        .collect();
    assert_eq!(orders, [1, 2, 3]);
    // A layout Garmin keeps is stored as sent.
    let (_, kept) = api
        .post(
            "/workout-service/workout",
            &multisport(vec![leg(run, vec![warmup, interval.clone()]), leg((2, "cycling"), vec![interval])]),
        )
        .await;
    assert_eq!(
        kept["workoutSegments"].as_array().unwrap().len(),
        3,
        "warmup + interval is split too (kaiord)"
    );
}

#[tokio::test]
async fn strength_activities_have_ranked_guesses_grams_seconds_and_progress_over_the_year() {
    let api = Api::start().await;
    let all = api.all_activities().await;
    let sessions: Vec<&Value> = all.iter().filter(|a| type_key(a) == "strength_training").collect();
    let thursdays = sessions.iter().filter(|a| {
        let day = chrono::NaiveDate::parse_from_str(&a["startTimeLocal"].as_str().unwrap()[..10], "%Y-%m-%d")
            .unwrap();
        chrono::Datelike::weekday(&day) == chrono::Weekday::Thu
    });
    assert!(thursdays.count() > 40, "a second weekly session on Thursdays");
    let mut squats: Vec<f64> = Vec::new();
    let mut several_guesses = 0;
    let mut wrong_first = 0;
    for session in &sessions {
        let sets =
            api.get(&format!("/activity-service/activity/{}/exerciseSets", session["activityId"])).await;
        for set in sets["exerciseSets"].as_array().unwrap() {
            assert!(set["duration"].as_f64().unwrap() < 200.0, "seconds, not milliseconds: {set}");
            if set["setType"] == "REST" {
                assert_eq!(set["exercises"], json!([]));
                continue;
            }
            let guesses = set["exercises"].as_array().unwrap();
            let p: Vec<f64> = guesses.iter().map(|g| g["probability"].as_f64().unwrap()).collect();
            assert!(
                p.windows(2).all(|w| w[0] >= w[1]) && p.iter().all(|x| (0.0..=100.0).contains(x)),
                "{set}"
            );
            several_guesses += usize::from(guesses.len() > 1);
            wrong_first += usize::from(guesses.iter().skip(1).any(|g| g["name"] == "BARBELL_BACK_SQUAT"));
            // Squat sets: the squat first, not a calf raise the watch took for a squat.
            let calf = guesses.iter().any(|g| g["name"] == "STANDING_CALF_RAISE");
            if guesses[0]["name"] == "BARBELL_BACK_SQUAT" && !calf {
                squats.push(set["weight"].as_f64().unwrap());
            }
        }
    }
    assert!(several_guesses > 50 && wrong_first > 0, "{several_guesses} {wrong_first}");
    // Grams, about 60 kg at the start of the year and some 20 % more by its end.
    let (first, last) = (squats[0], *squats.last().unwrap());
    assert!((55_000.0..=65_000.0).contains(&first), "{first}");
    assert!(last > first * 1.12, "{first} → {last}");
}

#[tokio::test]
async fn replacing_exercise_sets_checks_every_name_and_then_answers_with_the_new_sets() {
    let api = Api::start().await;
    let session = api.newest(|a| type_key(a) == "strength_training").await;
    let path = format!("/activity-service/activity/{}/exerciseSets", session["activityId"]);
    let before = api.get(&path).await;
    let mut sets = before["exerciseSets"].as_array().unwrap().clone();
    let set = |category: &str, name: Value| {
        json!({"exercises": [{"category": category, "name": name, "probability": 100.0}], "duration": 30.0,
            "repetitionCount": 8, "weight": 20000.0, "setType": "ACTIVE", "startTime": null, "wktStepIndex": null, "messageIndex": 0})
    };
    for (bad, why) in [
        (set("ROW", json!("DUMBELL_ROW")), "Invalid Sub-Category Passed"),
        (set("UNASSIGNED", Value::Null), "Invalid Category Passed"),
        (json!({"exercises": [], "setType": "WARMUP"}), "Invalid Set Type Passed"),
    ] {
        let mut body = before.clone();
        body["exerciseSets"] = json!([bad]);
        let (status, answer) = api.put(&path, &body).await;
        assert_eq!((status, answer["message"].as_str()), (StatusCode::BAD_REQUEST, Some(why)));
    }
    assert_eq!(api.get(&path).await, before, "a refused PUT changes nothing");
    // The watch thought the first set was something else: correct it to dumbbell rows.
    sets[0] = set("ROW", json!("DUMBBELL_ROW"));
    sets[1] = set("ROW", Value::Null);
    let mut body = before.clone();
    body["exerciseSets"] = Value::Array(sets.clone());
    let (status, _) = api.put(&path, &body).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let after = api.get(&path).await;
    assert_eq!(after["exerciseSets"], Value::Array(sets), "replace-all: the sets as sent");
    let run = api.newest(|a| type_key(a) == "running").await;
    let (status, _) =
        api.put(&format!("/activity-service/activity/{}/exerciseSets", run["activityId"]), &body).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}
