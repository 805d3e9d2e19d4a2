//! Strength, HIIT, yoga and multisport through the MCP tools: `create_workout` previews sets,
//! reps and volume and writes what Garmin stores (checked on the fake), refuses unknown and
//! ambiguous exercise names with the closest ones, writes multisport legs; `get_workouts` reads a
//! strength workout back with its exercises and weights, and its `find_exercise` mode searches
//! Garmin's catalogue by name, muscle and equipment.
//!
//! Run: `cargo test -p garmin-mcp --test tools strength::`

use garmin_mcp::writes::WriteMode;
use serde_json::{Value, json};

use crate::support::Harness;

fn upper_a(confirm: bool) -> Value {
    json!({"name": "Upper A", "sport": "strength", "confirm": confirm, "steps": [
        {"type": "warmup", "duration_min": 5},
        {"type": "repeat", "times": 3, "steps": [
            {"type": "exercise", "exercise": "barbell bench press", "reps": 8, "weight_kg": 60},
            {"type": "rest", "duration_s": 90}]},
        {"type": "exercise", "exercise": "plank", "duration_s": 45}]})
}

#[tokio::test(flavor = "multi_thread")]
async fn a_strength_workout_is_previewed_in_sets_then_written_as_garmin_stores_it_and_read_back() {
    let h = Harness::start_with(|mut o| {
        o.write_mode = WriteMode::Direct;
        o
    })
    .await;
    let (text, proposed) = h.call_ok("create_workout", upper_a(false)).await;
    assert!(
        text.contains("3× Barbell bench press 8 reps @ 60 kg · rest 1:30")
            && text.contains("4 sets, 24 reps, 1,440 kg"),
        "{text}"
    );
    assert_ne!(proposed["status"], "written");
    let (text, created) = h.call_ok("create_workout", upper_a(true)).await;
    assert_eq!(created["status"], "written", "{text}");
    let id = created["changes"][0]["ids"]["workout_id"].as_u64().unwrap();
    let stored = h.fake.state().inner.data.read().unwrap().workouts[&id].clone();
    assert_eq!(stored["sportType"]["sportTypeId"], 5);
    let bench = &stored["workoutSegments"][0]["workoutSteps"][1]["workoutSteps"][0];
    assert_eq!(
        (bench["category"].as_str(), bench["exerciseName"].as_str()),
        (Some("BENCH_PRESS"), Some("BARBELL_BENCH_PRESS"))
    );
    assert_eq!(
        (bench["weightValue"].as_f64(), bench["weightUnit"]["unitKey"].as_str()),
        (Some(60.0), Some("kilogram"))
    );
    assert_eq!(bench["endCondition"]["conditionTypeKey"], "reps");

    let (text, data) = h.call_ok("get_workouts", json!({"workout_id": id})).await;
    let steps = &data["workout"]["steps"];
    assert_eq!(steps[1]["steps"][0]["exercise"], "Barbell bench press");
    assert_eq!(steps[1]["steps"][0]["weight"], "60 kg");
    assert_eq!(data["workout"]["sets_reps_volume"], "4 sets, 24 reps, 1,440 kg");
    assert!(text.contains("4 sets, 24 reps, 1,440 kg"), "{text}");
}

#[tokio::test]
async fn unknown_and_ambiguous_exercise_names_are_refused_with_the_closest_ones() {
    let h = Harness::start().await;
    let mut args = upper_a(false);
    args["steps"][1]["steps"][0]["exercise"] = json!("underwater squat");
    let error = h.call_invalid("create_workout", args).await;
    assert!(
        error.contains("steps[1].steps[0].exercise")
            && error.contains("closest:")
            && error.contains("SQUAT/"),
        "{error}"
    );
    let mut args = upper_a(false);
    args["steps"][1]["steps"][0]["exercise"] = json!("dumbbell press");
    let error = h.call_invalid("create_workout", args).await;
    assert!(error.contains("did you mean") && error.matches("Dumbbell").count() >= 3, "{error}");
    assert!(h.fake.requests().iter().all(|r| r.method == "GET"), "nothing sent to Garmin");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_brick_is_written_as_legs_with_the_transition_flag() {
    let h = Harness::start_with(|mut o| {
        o.write_mode = WriteMode::Direct;
        o
    })
    .await;
    let mut brick = json!({"name": "Brick", "sport": "multisport", "transitions": true, "steps": [], "segments": [
        {"sport": "bike", "steps": [{"type": "interval", "duration_min": 40, "power_range": "200-220"}]},
        {"sport": "run", "steps": [{"type": "interval", "distance_km": 5, "pace": "4:45"}]}]});
    let (text, _) = h.call_ok("create_workout", brick.clone()).await;
    assert!(text.contains("Cycling: Ride 40:00 @ 200-220 W / Running: Run 5 km"), "{text}");
    brick["confirm"] = json!(true);
    let (text, created) = h.call_ok("create_workout", brick).await;
    assert_eq!(created["status"], "written", "{text}");
    let id = created["changes"][0]["ids"]["workout_id"].as_u64().unwrap();
    let stored = h.fake.state().inner.data.read().unwrap().workouts[&id].clone();
    assert_eq!(stored["sportType"]["sportTypeKey"], "multi_sport");
    assert_eq!(stored["isSessionTransitionEnabled"], true);
    let legs: Vec<&str> = stored["workoutSegments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["sportType"]["sportTypeKey"].as_str().unwrap())
        .collect();
    assert_eq!(legs, ["cycling", "running"]);
    // A leg Garmin would rewrite is refused before anything is sent.
    let error = h
        .call_invalid(
            "create_workout",
            json!({"name": "Bad", "sport": "multisport", "steps": [], "segments": [
                {"sport": "run", "steps": [{"type": "interval"}, {"type": "interval"}]},
                {"sport": "bike", "steps": [{"type": "interval"}]}]}),
        )
        .await;
    assert!(error.contains("segments[0].steps") && error.contains("silently split"), "{error}");
}

#[tokio::test]
async fn find_exercise_searches_the_catalogue_by_name_muscle_and_equipment() {
    let h = Harness::start().await;
    let (text, data) =
        h.call_ok("get_workouts", json!({"find_exercise": {"name": "bench press", "limit": 5}})).await;
    let rows = data["exercises"].as_array().unwrap();
    assert_eq!(rows.len(), 5);
    assert!(rows.iter().all(|r| r["exercise"].as_str().unwrap().contains('/')), "{rows:?}");
    assert!(text.contains("create_workout"), "{text}");
    let (_, data) = h
        .call_ok(
            "get_workouts",
            json!({"find_exercise": {"muscle": "glutes", "equipment": "kettlebell", "limit": 20}}),
        )
        .await;
    for row in data["exercises"].as_array().unwrap() {
        assert!(row["equipment"].as_array().unwrap().iter().any(|e| e == "kettlebell"), "{row}");
        let muscles: Vec<&Value> = row["primary_muscles"]
            .as_array()
            .unwrap()
            .iter()
            .chain(row["secondary_muscles"].as_array().into_iter().flatten())
            .collect();
        assert!(muscles.iter().any(|m| *m == "glutes"), "{row}");
    }
    let (_, yoga) =
        h.call_ok("get_workouts", json!({"find_exercise": {"name": "下犬式", "sport": "yoga"}})).await;
    assert_eq!(yoga["exercises"][0]["exercise"], "POSE/DOWNWARD_FACING_DOG");
    let error = h.call_invalid("get_workouts", json!({"find_exercise": {"muscle": "wings"}})).await;
    assert!(error.contains("unknown muscle") && error.contains("quads"), "{error}");
    let error =
        h.call_invalid("get_workouts", json!({"workout_id": 1, "find_exercise": {"name": "plank"}})).await;
    assert!(error.contains("not both"), "{error}");
    assert!(h.gc_api_paths().is_empty(), "the catalogue is compiled in: no request to Garmin");
}
