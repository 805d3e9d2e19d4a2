//! Strength, HIIT, yoga and multisport through the MCP tools: `create_workout` previews sets,
//! reps and volume and writes what Garmin stores (checked on the fake), refuses unknown and
//! ambiguous exercise names with the closest ones, writes multisport legs; `get_workouts` reads a
//! strength workout back with its exercises and weights, and its `find_exercise` mode searches
//! Garmin's catalogue by name, muscle and equipment; `correct_strength_sets` corrects a finished
//! session's sets (previewed old → new, confirmed in the app, journaled, undone to the old sets),
//! refuses unknown names before anything is sent and says Garmin's own refusal plainly.
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

// ---------- correct_strength_sets ----------

/// The newest strength session of the fake's account and its sets as Garmin holds them.
async fn strength_session(h: &Harness) -> (u64, garmin::models::activities::ExerciseSets) {
    let client = garmin::Client::builder().store(h.store.clone()).build().unwrap();
    let search = garmin::api::ActivitySearch::new().limit(1).activity_type("strength_training");
    let id = client.activities().search(&search).await.unwrap()[0].activity_id.unwrap();
    let sets = client.activities().exercise_sets(id).await.unwrap().unwrap();
    h.fake.clear_requests();
    (id, sets)
}

async fn sets_now(h: &Harness, id: u64) -> garmin::models::activities::ExerciseSets {
    let client = garmin::Client::builder().store(h.store.clone()).build().unwrap();
    client.activities().exercise_sets(id).await.unwrap().unwrap()
}

/// Requests that changed something on the fake.
fn writes_seen(h: &Harness) -> Vec<String> {
    h.fake
        .requests()
        .into_iter()
        .filter(|r| r.path.starts_with("/gc-api") && r.method != "GET")
        .map(|r| format!("{} {}", r.method, r.path))
        .collect()
}

/// The desktop app approving every proposal as it came, `count` of them; answers the proposals.
fn app_approving(
    listener: app_bridge::AppListener,
    count: usize,
) -> tokio::task::JoinHandle<Vec<app_bridge::Proposal>> {
    use app_bridge::{Reply, Request};
    tokio::spawn(async move {
        let mut seen = Vec::new();
        while seen.len() < count {
            let incoming = listener.accept().await.unwrap();
            match incoming.request().clone() {
                Request::Hello => incoming.reply(&Reply::Hello { app_version: "test".into() }).await.unwrap(),
                Request::Confirm(proposal) => {
                    let approved = Reply::Approved {
                        change: proposal.change.clone(),
                        schedule_on: None,
                        send_to_device: false,
                        device_id: None,
                    };
                    incoming.reply(&approved).await.unwrap();
                    seen.push(proposal);
                }
                other => panic!("unexpected {other:?}"),
            }
        }
        seen
    })
}

#[tokio::test(flavor = "multi_thread")]
async fn corrected_sets_are_previewed_old_to_new_confirmed_in_the_app_journaled_and_undone_to_the_old_sets() {
    let h = Harness::start().await;
    let (id, before) = strength_session(&h).await;
    let (_, shown) = h.call_ok("get_activity", json!({"activity_id": id})).await;
    let first = &shown["strength"]["sets"][0];
    assert_eq!(first["set"], 1, "get_activity numbers the sets: {first}");
    let listener = app_bridge::AppListener::bind(h.store.dir()).await.unwrap();
    let app = app_approving(listener, 2);

    let fix = json!({"activity_id": id, "sets": [{"set": 1, "exercise": "barbell row", "reps": 8, "weight_kg": 60}]});
    let (text, data) = h.call_ok("correct_strength_sets", fix).await;
    assert_eq!(data["status"], "written", "{text}");
    let was = first["exercise"].as_str().unwrap();
    let preview = data["preview"].as_str().unwrap();
    assert!(
        preview.starts_with("Correct 1 of ") && preview.contains(&format!("(activity {id}, ")),
        "{preview}"
    );
    assert!(
        preview.contains(&format!("set 1 {was} ")) && preview.contains(" → Barbell row 8 reps @ 60 kg"),
        "{preview}"
    );
    assert!(text.contains(&format!("Replaced the sets of strength activity {id}: 1 of")), "{text}");

    // The fake holds the corrected set, in grams, one guess at 100; every other set as it was.
    let stored = h.fake.state().inner.data.read().unwrap().exercise_sets[&id].clone();
    let at = before.exercise_sets.iter().position(|s| s.set_type.as_deref() == Some("ACTIVE")).unwrap();
    assert_eq!(
        stored[at]["exercises"],
        json!([{"category": "ROW", "name": "BARBELL_ROW", "probability": 100.0}])
    );
    assert_eq!(
        (stored[at]["weight"].as_f64(), stored[at]["repetitionCount"].as_u64()),
        (Some(60000.0), Some(8))
    );
    let after = sets_now(&h, id).await;
    assert_eq!(after.exercise_sets.len(), before.exercise_sets.len());
    assert!(
        after
            .exercise_sets
            .iter()
            .zip(&before.exercise_sets)
            .enumerate()
            .all(|(i, (a, b))| i == at || a == b)
    );
    let (_, shown) = h.call_ok("get_activity", json!({"activity_id": id})).await;
    assert_eq!(shown["strength"]["sets"][0]["exercise"], "Barbell row");

    let (_, list) = h.call_ok("list_changes", json!({})).await;
    let entry = &list["changes"][0];
    assert_eq!(
        (entry["tool"].as_str(), entry["confirmed_by"].as_str()),
        (Some("correct_strength_sets"), Some("app"))
    );
    assert_eq!((entry["can_undo"].as_bool(), entry["ids"]["activity_id"].as_u64()), (Some(true), Some(id)));

    let (text, undone) = h.call_ok("undo_change", json!({})).await;
    assert_eq!(undone["status"], "written", "{text}");
    assert_eq!(sets_now(&h, id).await, before, "undo restores the old sets exactly");
    let proposals = tokio::time::timeout(std::time::Duration::from_secs(30), app).await.unwrap().unwrap();
    assert!(proposals[0].preview.contains(" → Barbell row 8 reps @ 60 kg"), "{}", proposals[0].preview);
    assert!(proposals[1].preview.starts_with("Undo #1 (Replaced the sets"), "{}", proposals[1].preview);
    let (_, list) = h.call_ok("list_changes", json!({})).await;
    assert_eq!(
        (list["changes"][0]["state"].as_str(), list["changes"][1]["state"].as_str()),
        (Some("undo of #1"), Some("undone"))
    );
}

#[tokio::test]
async fn an_unknown_exercise_is_refused_with_the_three_closest_before_garmin_is_asked_anything() {
    let h = Harness::start_with(|mut o| {
        o.write_mode = WriteMode::Direct;
        o
    })
    .await;
    let (id, before) = strength_session(&h).await;
    let args = json!({"activity_id": id, "confirm": true,
        "sets": [{"set": 1, "exercise": "underwater squat"}, {"set": 2, "exercise": "dumbbell press"}]});
    let error = h.call_invalid("correct_strength_sets", args).await;
    assert!(error.contains("Nothing was sent to Garmin"), "{error}");
    let closest = error.lines().find(|l| l.contains("underwater squat")).unwrap();
    assert!(
        closest.contains("closest: ")
            && closest.matches("(SQUAT/").count() + closest.matches("/").count() >= 3,
        "{closest}"
    );
    assert_eq!(
        closest.split("closest: ").nth(1).unwrap().matches(", ").count(),
        2,
        "three suggestions: {closest}"
    );
    assert!(
        error.contains("\"dumbbell press\" matches several") && error.contains("did you mean"),
        "{error}"
    );
    assert!(
        h.fake.requests().iter().all(|r| !r.path.contains("/activity-service/")),
        "nothing asked of Garmin"
    );
    let far = h
        .call_invalid("correct_strength_sets", json!({"activity_id": id, "sets": [{"set": 99, "reps": 5}]}))
        .await;
    assert!(far.contains("set 99: this session has"), "{far}");
    assert_eq!(writes_seen(&h), Vec::<String>::new());
    assert_eq!(sets_now(&h, id).await, before);
}

#[tokio::test]
async fn the_preview_speaks_chinese_when_asked_and_writes_nothing_without_confirm() {
    let h = Harness::start_with(|mut o| {
        o.write_mode = WriteMode::Direct;
        o
    })
    .await;
    let (id, _) = strength_session(&h).await;
    let args =
        json!({"activity_id": id, "language": "zh", "sets": [{"set": 2, "reps": 3, "weight_lb": 135}]});
    let (text, data) = h.call_ok("correct_strength_sets", args).await;
    assert_eq!(data["status"], "preview", "{text}");
    let preview = data["preview"].as_str().unwrap();
    assert!(
        preview.starts_with("更正「") && preview.contains("第2组 ") && preview.contains("3次 @ 61.24 kg"),
        "{preview}"
    );
    assert!(preview.contains("总量 "), "{preview}");
    assert_eq!(writes_seen(&h), Vec::<String>::new());
}

#[tokio::test]
async fn garmins_400_is_said_plainly_and_nothing_is_journaled_or_changed() {
    let h = Harness::start_with(|mut o| {
        o.write_mode = WriteMode::Direct;
        o
    })
    .await;
    let (id, before) = strength_session(&h).await;
    // A set the watch named with an exercise Connect's lists do not have (a newer watch's name):
    // the save sends it back as it is, and Garmin refuses the whole body.
    let mut held = garmin::strength_edit::saved_sets(&before);
    let last = held.iter().rposition(|s| s.set_type == "ACTIVE").unwrap();
    held[last].exercises[0].name = Some("SEATED_CABLE_ROW_WIDE_GRIP_V2".into());
    held[last].exercises[0].category = "ROW".into();
    h.fake.state().inner.data.write().unwrap().exercise_sets.insert(id, serde_json::to_value(&held).unwrap());
    let held_now = sets_now(&h, id).await;

    let args = json!({"activity_id": id, "confirm": true, "sets": [{"set": 1, "reps": 11}]});
    let error = h.call_err("correct_strength_sets", args).await;
    assert!(
        error.contains("HTTP 400")
            && error.contains("Invalid Sub-Category Passed")
            && error.contains("nothing was changed"),
        "{error}"
    );
    assert_eq!(sets_now(&h, id).await, held_now, "Garmin kept the sets it had");
    let (_, list) = h.call_ok("list_changes", json!({})).await;
    assert_eq!(list["total"], 0, "a refused write is not journaled: {list}");
}
