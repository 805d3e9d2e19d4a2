//! Run: `cargo test -p garmin --test api workouts::`.
//!
//! Workouts: the library, and the create → schedule → calendar → unschedule → delete round trip,
//! plus sending a workout to the watch.

use garmin::Error;
use garmin::models::workouts::Workout;

use super::support::{day, start};

fn from_fixture(name: &str) -> Workout {
    let path = format!("{}/../../sidecar/fake-garmin/fixtures/garmin/{name}", env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[tokio::test]
async fn the_library_lists_and_reads_workouts() {
    let env = start().await;
    let api = env.client.workouts();
    let list = api.list(0, 5).await.unwrap();
    assert_eq!(list.len(), 5);
    let id = list[0].workout_id.unwrap();
    let full = api.get(id).await.unwrap();
    assert_eq!(full.workout_name, list[0].workout_name);
    assert!(!full.all_steps().is_empty());
    assert!(matches!(api.get(1).await, Err(Error::NotFound { .. })));
}

#[tokio::test]
async fn create_schedule_see_on_calendar_unschedule_delete() {
    let env = start().await;
    let api = env.client.workouts();
    let calendar = env.client.calendar();
    let date = day(2026, 11, 25);

    // Create from the web editor's own request body.
    let draft = from_fixture("workout_create_request_web_ui_running.json");
    let created = api.create(&draft).await.unwrap();
    let workout_id = created.workout_id.unwrap();
    assert_eq!(created.workout_name, draft.workout_name);
    assert_eq!(created.all_steps().len(), draft.all_steps().len());
    let create_body =
        env.requests_to("/workout-service/workout").into_iter().find(|r| r.method == "POST").unwrap();
    assert!(!create_body.body.unwrap().contains("workoutId"), "no ids on create");

    // Full-replace update.
    let mut renamed = api.get(workout_id).await.unwrap();
    renamed.workout_name = Some("Tuesday tempo".into());
    api.update(workout_id, &renamed).await.unwrap();
    assert_eq!(api.get(workout_id).await.unwrap().workout_name.as_deref(), Some("Tuesday tempo"));

    // Schedule, and find the entry in the month feed by its schedule id.
    let entry = api.schedule(workout_id, date).await.unwrap();
    let schedule_id = entry.workout_schedule_id.unwrap();
    assert_ne!(schedule_id, workout_id);
    assert_eq!(entry.workout_id(), Some(workout_id));
    assert_eq!(api.get_schedule(schedule_id).await.unwrap().calendar_date, Some(date));
    let feed = calendar.month(2026, 11).await.unwrap();
    let item = feed.calendar_items.iter().find(|i| i.id == Some(schedule_id)).expect("on the calendar");
    assert_eq!((item.date, item.workout_id), (Some(date), Some(workout_id)));
    let summaries = api.scheduled_between(date, date).await.unwrap();
    assert!(summaries.iter().any(|s| s.scheduled_workout_id == Some(schedule_id)));

    // Unschedule with the schedule id; the workout stays in the library.
    api.unschedule(schedule_id).await.unwrap();
    let feed = calendar.month(2026, 11).await.unwrap();
    assert!(feed.calendar_items.iter().all(|i| i.id != Some(schedule_id)));
    assert!(matches!(api.get_schedule(schedule_id).await, Err(Error::NotFound { .. })));
    assert!(api.get(workout_id).await.is_ok());

    api.delete(workout_id).await.unwrap();
    assert!(matches!(api.get(workout_id).await, Err(Error::NotFound { .. })));
}

#[tokio::test]
async fn a_workout_is_sent_to_the_last_used_device() {
    let env = start().await;
    let api = env.client.workouts();
    let workout = api.list(0, 1).await.unwrap().remove(0);
    let id = workout.workout_id.unwrap();
    let sent = api.send_to_device(id, None).await.unwrap();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].item_id(), Some(id));
    assert_eq!(sent[0].name(), workout.workout_name.as_deref());

    let post = env.requests_to("/devicemessage/messages").into_iter().find(|r| r.method == "POST").unwrap();
    let body: serde_json::Value = serde_json::from_str(&post.body.unwrap()).unwrap();
    assert_eq!(body[0]["messageUrl"], format!("workout-service/workout/FIT/{id}"));
    assert_eq!(body[0]["messageName"], serde_json::json!(workout.workout_name));
    assert!(body[0]["groupName"].is_null());

    let queued = api.device_messages().await.unwrap();
    assert!(queued.messages.iter().any(|m| m.item_id() == Some(id)));
}

#[tokio::test]
async fn names_are_checked_before_sending() {
    let env = start().await;
    let api = env.client.workouts();
    let mut draft = from_fixture("workout_create_request_hr_zone_repeat.json");
    draft.workout_name = Some("x".repeat(300));
    assert!(matches!(api.create(&draft).await, Err(Error::InvalidInput(_))));
    draft.workout_name = None;
    assert!(matches!(api.create(&draft).await, Err(Error::InvalidInput(_))));
}

#[tokio::test]
async fn an_approved_workout_is_created_scheduled_and_journaled_and_a_failed_follow_up_is_only_reported() {
    use fake_garmin::faults::{Fault, FaultRule};
    use garmin::apply::{FollowUps, MadeBy, apply_and_journal};
    use garmin::changes::Change;
    use garmin::journal::Journal;

    let env = start().await;
    let folder = tempfile::tempdir().unwrap();
    let journal = Journal::in_dir(folder.path());
    let date = day(2026, 11, 25);
    // Garmin refuses to queue the watch message, after the workout was created and scheduled.
    env.fake.push_fault(FaultRule::always(Fault::ServerError(500)).on_path("/devicemessage/messages"));
    let change = Change::CreateWorkout {
        workout: Box::new(from_fixture("workout_create_request_web_ui_running.json")),
    };
    let follow_ups = FollowUps { schedule_on: Some(date), send_to_device: true, device_id: None };
    let done =
        apply_and_journal(&env.client, &journal, MadeBy::App, &change, None, &follow_ups).await.unwrap();

    assert_eq!(done.len(), 3, "{done:?}");
    let workout_id = done[0].ids["workout_id"];
    let schedule_id = done[1].ids["schedule_id"];
    assert!(env.client.workouts().get(workout_id).await.is_ok());
    assert_eq!(env.client.workouts().get_schedule(schedule_id).await.unwrap().calendar_date, Some(date));
    assert_eq!((done[0].change_id, done[1].change_id, done[2].change_id), (Some(1), Some(2), None));
    assert!(done[2].summary.starts_with("Not done: Send workout"), "{}", done[2].summary);
    assert!(done[0].can_undo && done[1].can_undo && !done[2].can_undo);
    let tools: Vec<String> = journal.entries().unwrap().into_iter().map(|e| e.tool).collect();
    assert_eq!(tools, ["app: create_workout", "app: schedule_workout"]);

    // Undoing the newest undoable entry takes the workout off the calendar, journaled as an undo.
    let entry = journal.undo_candidate(None).unwrap().unwrap();
    assert_eq!(entry.id, 2);
    let inverse = entry.inverse.unwrap();
    let undone =
        apply_and_journal(&env.client, &journal, MadeBy::App, &inverse, Some(2), &FollowUps::default())
            .await
            .unwrap();
    assert_eq!((undone.len(), undone[0].change_id, undone[0].can_undo), (1, Some(3), false));
    assert!(matches!(env.client.workouts().get_schedule(schedule_id).await, Err(Error::NotFound { .. })));
    let states: Vec<String> = journal.history().unwrap().iter().map(|h| h.state.to_string()).collect();
    assert_eq!(states, ["undo of #2", "undone", "done"]);
}
