//! Commands of workouts made by hand, journaled, and undone (`writes`).
//!
//! Run: `cargo test -p garmin-desktop --test commands writes::`

use super::*;

#[test]
fn a_workout_created_by_hand_reaches_garmin_journaled_as_the_apps_and_undo_takes_it_back() {
    let dir = tempfile::tempdir().unwrap();
    let garmin = fake_garmin();
    save_fake_session(dir.path(), &garmin, false);
    let (_app, window) = app(dir.path());
    let client = garmin::Client::from_store(garmin::SessionStore::new(dir.path())).unwrap();
    let workout_posts = || {
        garmin
            .fake
            .requests()
            .iter()
            .filter(|r| r.method == "POST" && r.path.contains("/workout-service"))
            .count()
    };

    // A broken spec is refused with every problem, and nothing reaches Garmin.
    let broken = json!({ "name": "", "sport": "run", "steps": [{ "type": "interval", "pace": "fast" }] });
    let refused =
        invoke_with(&window, "create_workout_by_hand", json!({ "spec": broken, "sendToDevice": false }))
            .unwrap_err();
    assert_eq!(refused["code"], "invalid_input", "{refused}");
    assert!(refused["message"].as_str().unwrap().contains("steps[0].pace"), "{refused}");
    assert_eq!(workout_posts(), 0);

    let args = json!({ "spec": intervals_spec(), "scheduleOn": "2026-12-03", "sendToDevice": true });
    let done = invoke_with(&window, "create_workout_by_hand", args).unwrap();
    let done = done.as_array().unwrap();
    let ids: Vec<&Value> = done.iter().map(|d| &d["changeId"]).collect();
    assert_eq!(ids, [&json!(1), &json!(2), &json!(3)], "{done:?}");
    let workout_id = done[0]["ids"]["workout_id"].as_u64().unwrap();
    let schedule_id = done[1]["ids"]["schedule_id"].as_u64().unwrap();
    let on_garmin = garmin._runtime.block_on(client.workouts().get(workout_id)).unwrap();
    assert_eq!(on_garmin.workout_name.as_deref(), Some("800m x4"));
    let scheduled = garmin._runtime.block_on(client.workouts().get_schedule(schedule_id)).unwrap();
    assert_eq!(scheduled.calendar_date, chrono::NaiveDate::from_ymd_opt(2026, 12, 3));

    let rows = invoke_with(&window, "recent_changes", json!({})).unwrap();
    assert!(rows.as_array().unwrap().iter().all(|r| r["confirmedBy"] == "app"), "who confirmed: {rows}");
    let rows: Vec<(String, bool)> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["tool"].as_str().unwrap().to_owned(), r["canUndo"].as_bool().unwrap()))
        .collect();
    let expected = [
        ("app: push_workout_to_device", false),
        ("app: schedule_workout", true),
        ("app: create_workout", true),
    ];
    assert_eq!(rows, expected.map(|(tool, undo)| (tool.to_owned(), undo)));

    // Undo the schedule, then the workout: both are gone from Garmin.
    let undone = invoke_with(&window, "undo_change", json!({ "id": 2 })).unwrap();
    assert_eq!(undone[0]["changeId"], 4, "{undone}");
    assert!(garmin._runtime.block_on(client.workouts().get_schedule(schedule_id)).is_err());
    invoke_with(&window, "undo_change", json!({ "id": 1 })).unwrap();
    assert!(matches!(
        garmin._runtime.block_on(client.workouts().get(workout_id)),
        Err(garmin::Error::NotFound { .. })
    ));
    let states: Vec<Value> = invoke_with(&window, "recent_changes", json!({ "limit": 5 }))
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["state"].clone())
        .collect();
    assert_eq!(
        states,
        [json!("undo of #1"), json!("undo of #2"), json!("done"), json!("undone"), json!("undone")]
    );

    // What cannot be undone is refused with the reason.
    let recalled = invoke_with(&window, "undo_change", json!({ "id": 3 })).unwrap_err();
    assert!(recalled["message"].as_str().unwrap().contains("cannot be recalled"), "{recalled}");
    let twice = invoke_with(&window, "undo_change", json!({ "id": 2 })).unwrap_err();
    assert!(twice["message"].as_str().unwrap().contains("already undone"), "{twice}");
}
