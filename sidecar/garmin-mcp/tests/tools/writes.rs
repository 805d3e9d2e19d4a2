//! Run: `cargo test -p garmin-mcp --test tools writes::`.
//!
//! The write tools and the safety model, end to end against the fake Garmin: no write reaches
//! Garmin without confirmation in any mode (the fake's request log proves it), direct writes with
//! `confirm: true`, the desktop app's decision over the real bridge socket (approve with edits,
//! cancel), the journal, and undo restoring the fake's state.

use std::time::Duration;

use app_bridge::{AppListener, Reply, Request};
use garmin::changes::Change;
use garmin::{Client, RetryPolicy};
use garmin_mcp::writes::WriteMode;
use serde_json::{Value, json};

use crate::support::{Harness, today};

fn spec_args(confirm: bool) -> Value {
    json!({
        "name": "800m x4",
        "sport": "run",
        "steps": [
            {"type": "warmup", "duration_min": 10},
            {"type": "repeat", "times": 4, "steps": [
                {"type": "interval", "distance_m": 800, "pace": "5:00"},
                {"type": "recovery", "duration_min": 2}
            ]},
            {"type": "cooldown", "duration_min": 10}
        ],
        "confirm": confirm
    })
}

/// Requests that change something on the fake (anything but GET).
fn writes_seen(h: &Harness) -> Vec<String> {
    h.fake
        .requests()
        .into_iter()
        .filter(|r| r.path.starts_with("/gc-api") && r.method != "GET")
        .map(|r| format!("{} {}", r.method, r.path))
        .collect()
}

/// The account's workouts, schedules and events as the fake reports them.
async fn account_state(h: &Harness) -> Value {
    let client = Client::builder().store(h.store.clone()).retry(RetryPolicy::default()).build().unwrap();
    let from = today() - chrono::Days::new(400);
    let to = today() + chrono::Days::new(400);
    let workouts = client.workouts().list(0, 1000).await.unwrap();
    let mut names: Vec<(Option<u64>, Option<String>)> =
        workouts.iter().map(|w| (w.workout_id, w.workout_name.clone())).collect();
    names.sort();
    let scheduled =
        client.workouts().scheduled_between(from, today() + chrono::Days::new(300)).await.unwrap();
    let mut schedules: Vec<(Option<u64>, Option<u64>, Option<chrono::NaiveDate>)> =
        scheduled.iter().map(|s| (s.scheduled_workout_id, s.workout_id, s.schedule_date)).collect();
    schedules.sort();
    let events = client.events().list(from, to, 1000, 1).await.unwrap();
    let mut events: Vec<(Option<String>, Option<chrono::NaiveDate>)> =
        events.iter().map(|e| (e.event_name.clone(), e.date)).collect();
    events.sort();
    json!({"workouts": names, "schedules": schedules, "events": events})
}

#[tokio::test(flavor = "multi_thread")]
async fn without_confirmation_no_write_reaches_garmin_in_any_mode() {
    for (mode, confirm) in
        [(WriteMode::Direct, false), (WriteMode::PreviewOnly, true), (WriteMode::AskApp, true)]
    {
        let h = Harness::start_with(|mut o| {
            o.write_mode = mode;
            o
        })
        .await;
        let (text, data) = h.call_ok("create_workout", spec_args(confirm)).await;
        assert_eq!(data["status"], "preview", "{mode:?}: {text}");
        assert!(text.contains("Repeat 4×") && text.contains("nothing was written"), "{mode:?}: {text}");
        let (_, data) = h
            .call_ok(
                "schedule_workout",
                json!({"workout_id": workout_id(&h).await, "date": "2026-11-20", "confirm": confirm}),
            )
            .await;
        assert_eq!(data["status"], "preview");
        assert!(data["how_to_write"].as_str().is_some_and(|s| !s.is_empty()));
        if mode != WriteMode::Direct {
            assert!(text.contains("GARMIN_ALLOW_WRITE=1"), "{mode:?} must say how to enable writes: {text}");
        }
        assert_eq!(writes_seen(&h), Vec::<String>::new(), "{mode:?} wrote without confirmation");
        let (_, changes) = h.call_ok("list_changes", json!({})).await;
        assert_eq!(changes["total"], 0);
    }
}

async fn workout_id(h: &Harness) -> u64 {
    let client = Client::builder().store(h.store.clone()).build().unwrap();
    let workouts = client.workouts().list(0, 10).await.unwrap();
    h.fake.clear_requests();
    workouts.iter().find_map(|w| w.workout_id).expect("the fake's library has a workout")
}

#[tokio::test(flavor = "multi_thread")]
async fn direct_writes_are_journaled_and_undo_restores_the_account_exactly() {
    let h = Harness::start_with(|mut o| {
        o.write_mode = WriteMode::Direct;
        o
    })
    .await;
    let before = account_state(&h).await;

    let (text, created) = h.call_ok("create_workout", spec_args(true)).await;
    assert_eq!(created["status"], "written", "{text}");
    let workout_id = created["changes"][0]["ids"]["workout_id"].as_u64().expect("workout id");
    assert!(text.contains("Created workout '800m x4'") && text.contains("undo_change"), "{text}");

    let (_, scheduled) = h
        .call_ok("schedule_workout", json!({"workout_id": workout_id, "date": "2026-11-19", "confirm": true}))
        .await;
    let schedule_id = scheduled["changes"][0]["ids"]["schedule_id"].as_u64().expect("schedule id");
    let (pushed_text, pushed) =
        h.call_ok("push_workout_to_device", json!({"workout_id": workout_id, "confirm": true})).await;
    assert_eq!(pushed["status"], "written");
    assert!(
        pushed_text.contains("Sent workout") && pushed["changes"][0]["ids"]["device_id"].is_u64(),
        "{pushed_text}"
    );
    assert_ne!(account_state(&h).await, before);

    let (_, list) = h.call_ok("list_changes", json!({})).await;
    let tools: Vec<&str> =
        list["changes"].as_array().unwrap().iter().filter_map(|c| c["tool"].as_str()).collect();
    assert_eq!(tools, ["push_workout_to_device", "schedule_workout", "create_workout"]);
    assert_eq!(list["changes"][0]["can_undo"], false, "a sent workout cannot be recalled");

    // The default undo skips the push and takes back the schedule, then the workout.
    let (undo_text, undone) = h.call_ok("undo_change", json!({"confirm": true})).await;
    assert!(undo_text.contains(&format!("Removed calendar entry {schedule_id}")), "{undo_text}");
    assert_eq!(undone["status"], "written");
    let (undo_text, _) = h.call_ok("undo_change", json!({"confirm": true})).await;
    assert!(undo_text.contains(&format!("Deleted workout '800m x4' (id {workout_id})")), "{undo_text}");
    assert_eq!(account_state(&h).await, before, "undo must restore the account");

    let nothing = h.call_err("undo_change", json!({"confirm": true})).await;
    assert!(nothing.contains("no change left to undo"), "{nothing}");
    let unknown = h.call_invalid("undo_change", json!({"change_id": 99, "confirm": true})).await;
    assert!(unknown.contains("no change #99"), "{unknown}");
    let (_, list) = h.call_ok("list_changes", json!({})).await;
    assert_eq!(list["total"], 5);
    assert_eq!(list["changes"][0]["state"], "undo of #1");
    assert_eq!(list["changes"][3]["state"], "undone");
}

#[tokio::test(flavor = "multi_thread")]
async fn deleted_workouts_and_events_come_back_from_the_journaled_copy() {
    let h = Harness::start_with(|mut o| {
        o.write_mode = WriteMode::Direct;
        o
    })
    .await;
    let (_, added) = h
        .call_ok(
            "add_calendar_event",
            json!({"name": "Shanghai Half", "date": "2026-12-06", "distance_km": 21.0975,
                   "goal_time": "1:45:00", "location": "Shanghai", "primary": true, "confirm": true}),
        )
        .await;
    let event_id = added["changes"][0]["ids"]["event_id"].as_u64().expect("event id");
    let before = account_state(&h).await;
    let victim = workout_id(&h).await;

    let (text, _) = h.call_ok("delete_workout", json!({"workout_id": victim, "confirm": true})).await;
    assert!(text.contains(&format!("(id {victim})")), "{text}");
    let (text, _) = h.call_ok("remove_calendar_event", json!({"event_id": event_id, "confirm": true})).await;
    assert!(text.contains("Shanghai Half"), "{text}");
    assert_ne!(account_state(&h).await, before);

    h.call_ok("undo_change", json!({"confirm": true})).await;
    h.call_ok("undo_change", json!({"confirm": true})).await;
    let after = account_state(&h).await;
    // The re-created workout has a new id; everything else is as before.
    let names = |state: &Value| -> Vec<Value> {
        state["workouts"].as_array().unwrap().iter().map(|w| w[1].clone()).collect()
    };
    assert_eq!(names(&after), names(&before));
    assert_eq!(after["events"], before["events"]);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_app_decides_approved_edits_are_applied_and_cancel_writes_nothing() {
    let h = Harness::start().await;
    let listener = AppListener::bind(h.store.dir()).await.unwrap();
    let app = tokio::spawn(async move {
        // First proposal: approve it renamed, scheduled and sent to the watch.
        let incoming = listener.accept().await.unwrap();
        if matches!(incoming.request(), Request::Hello) {
            incoming.reply(&Reply::Hello { app_version: "test".into() }).await.unwrap();
        }
        let incoming = listener.accept().await.unwrap();
        let Request::Confirm(proposal) = incoming.request().clone() else { panic!("confirm expected") };
        assert!(proposal.preview.contains("Repeat 4×"), "{}", proposal.preview);
        assert_eq!(proposal.spec.as_ref().map(|s| s["name"].clone()), Some(json!("800m x4")));
        let Change::CreateWorkout { mut workout } = proposal.change else { panic!("create expected") };
        workout.workout_name = Some("800m x5 (edited)".into());
        incoming
            .reply(&Reply::Approved {
                change: Change::CreateWorkout { workout },
                schedule_on: chrono::NaiveDate::from_ymd_opt(2026, 11, 18),
                send_to_device: true,
                device_id: None,
            })
            .await
            .unwrap();
        // Second proposal: cancel.
        loop {
            let incoming = listener.accept().await.unwrap();
            match incoming.request() {
                Request::Hello => incoming.reply(&Reply::Hello { app_version: "test".into() }).await.unwrap(),
                _ => {
                    incoming.reply(&Reply::Cancelled { reason: Some("not today".into()) }).await.unwrap();
                    break;
                }
            }
        }
    });

    let (text, data) = h.call_ok("create_workout", spec_args(false)).await;
    assert_eq!(data["status"], "written", "{text}");
    let tools: Vec<&str> =
        data["changes"].as_array().unwrap().iter().filter_map(|c| c["summary"].as_str()).collect();
    assert_eq!(tools.len(), 3, "{tools:?}");
    assert!(
        tools[0].contains("800m x5 (edited)") && tools[1].contains("Scheduled") && tools[2].contains("Sent")
    );
    let writes = writes_seen(&h);
    assert_eq!(writes.len(), 3, "{writes:?}");

    let victim = workout_id(&h).await; // (clears the request log)
    let (text, data) = h.call_ok("delete_workout", json!({"workout_id": victim})).await;
    assert_eq!(data["status"], "cancelled", "{text}");
    assert!(text.contains("not today"), "{text}");
    assert_eq!(writes_seen(&h), Vec::<String>::new(), "a cancelled proposal must not write");
    tokio::time::timeout(Duration::from_secs(5), app).await.unwrap().unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn an_invalid_spec_gets_one_precise_error_per_problem() {
    let h = Harness::start_with(|mut o| {
        o.write_mode = WriteMode::Direct;
        o
    })
    .await;
    let message = h
        .call_invalid(
            "create_workout",
            json!({"name": "bad", "sport": "run", "confirm": true, "steps": [
                {"type": "warmup", "duration_min": -3},
                {"type": "interval", "distance_m": 400, "pace": "fast"},
                {"type": "repeat", "times": 0, "steps": []}
            ]}),
        )
        .await;
    for path in ["steps[0].duration_min", "steps[1].pace", "steps[2].times"] {
        assert!(message.contains(path), "missing {path} in: {message}");
    }
    assert_eq!(writes_seen(&h), Vec::<String>::new());
}

#[tokio::test(flavor = "multi_thread")]
async fn read_only_servers_do_not_list_or_run_write_tools() {
    let h = Harness::start_with(|mut o| {
        o.read_only = true;
        o.write_mode = WriteMode::Direct;
        o
    })
    .await;
    let tools = h.client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    for write in ["create_workout", "schedule_workout", "delete_workout", "add_calendar_event", "undo_change"]
    {
        assert!(!names.contains(&write), "{write} listed in read-only mode");
    }
    assert!(names.contains(&"list_changes"));
    let refused = h.call_unknown("create_workout", spec_args(true)).await;
    assert!(refused.contains("tool not found"), "{refused}");
    assert_eq!(writes_seen(&h), Vec::<String>::new());
}

/// An MCP client that records the progress notifications it receives.
#[derive(Clone, Default)]
struct ProgressRecorder(std::sync::Arc<std::sync::Mutex<Vec<String>>>);

impl rmcp::ClientHandler for ProgressRecorder {
    async fn on_progress(
        &self,
        params: rmcp::model::ProgressNotificationParam,
        _context: rmcp::service::NotificationContext<rmcp::RoleClient>,
    ) {
        self.0.lock().unwrap().push(params.message.unwrap_or_default());
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn while_the_person_decides_the_client_gets_progress_notifications() {
    use rmcp::ServiceExt as _;
    let h = Harness::start().await;
    let mut options = garmin_mcp::ServerOptions::new(h.store.clone());
    options.today = Some(today());
    let server = garmin_mcp::GarminMcp::new(options).unwrap();
    let (server_end, client_end) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    let recorder = ProgressRecorder::default();
    let client = recorder.clone().serve(client_end).await.unwrap();

    let listener = AppListener::bind(h.store.dir()).await.unwrap();
    let app = async {
        loop {
            let incoming = listener.accept().await.unwrap();
            if let Request::Hello = incoming.request() {
                incoming.reply(&Reply::Hello { app_version: "test".into() }).await.unwrap();
                continue;
            }
            // The person takes a while to decide.
            tokio::time::sleep(Duration::from_secs(6)).await;
            incoming.reply(&Reply::Cancelled { reason: None }).await.unwrap();
            return;
        }
    };
    let mut params = rmcp::model::CallToolRequestParams::new("create_workout");
    params = params.with_arguments(spec_args(false).as_object().unwrap().clone());
    let mut meta = rmcp::model::RequestMetaObject::default();
    meta.set_progress_token(rmcp::model::ProgressToken(rmcp::model::NumberOrString::Number(7)));
    params.meta = Some(meta);
    let (result, ()) = tokio::join!(client.call_tool(params), app);
    let result = result.unwrap();
    assert_eq!(result.structured_content.unwrap()["status"], "cancelled");
    let notes = recorder.0.lock().unwrap().clone();
    assert!(!notes.is_empty(), "no progress notification while waiting 6 s");
    assert!(notes[0].contains("confirm in the Garmin MCP app"), "{notes:?}");
}

#[tokio::test(flavor = "multi_thread")]
async fn undo_of_a_schedule_deleted_behind_our_back_is_done_and_older_changes_still_undo() {
    let h = Harness::start_with(|mut o| {
        o.write_mode = WriteMode::Direct;
        o
    })
    .await;
    let before = account_state(&h).await;
    let (_, created) = h.call_ok("create_workout", spec_args(true)).await;
    let workout_id = created["changes"][0]["ids"]["workout_id"].as_u64().expect("workout id");
    let (_, scheduled) = h
        .call_ok("schedule_workout", json!({"workout_id": workout_id, "date": "2026-11-19", "confirm": true}))
        .await;
    let schedule_id = scheduled["changes"][0]["ids"]["schedule_id"].as_u64().expect("schedule id");

    // The person removes the entry in Garmin Connect itself: Garmin then answers 404 for it
    // (reference §4.12: a deleted schedule's GET and DELETE are 404, like a deleted activity).
    let other = Client::builder().store(h.store.clone()).build().unwrap();
    other.workouts().unschedule(schedule_id).await.unwrap();

    let (text, undone) = h.call_ok("undo_change", json!({"confirm": true})).await;
    assert_eq!(undone["status"], "written", "{text}");
    assert!(text.contains(&format!("Calendar entry {schedule_id} was already gone")), "{text}");
    let (_, list) = h.call_ok("list_changes", json!({})).await;
    assert_eq!(list["changes"][0]["state"], "undo of #2", "{list}");
    assert_eq!(list["changes"][1]["state"], "undone", "{list}");

    // The older change is not blocked.
    let (text, _) = h.call_ok("undo_change", json!({"confirm": true})).await;
    assert!(text.contains(&format!("Deleted workout '800m x4' (id {workout_id})")), "{text}");
    assert_eq!(account_state(&h).await, before);
}

/// An app that says hello, then answers the first confirmation with `answer(proposal)`; returns
/// the proposal it was asked about.
fn app_answering(
    listener: AppListener,
    answer: impl FnOnce(&app_bridge::Proposal) -> Reply + Send + 'static,
) -> tokio::task::JoinHandle<app_bridge::Proposal> {
    tokio::spawn(async move {
        loop {
            let incoming = listener.accept().await.unwrap();
            match incoming.request().clone() {
                Request::Hello => incoming.reply(&Reply::Hello { app_version: "test".into() }).await.unwrap(),
                Request::Confirm(proposal) => {
                    incoming.reply(&answer(&proposal)).await.unwrap();
                    return proposal;
                }
                other => panic!("unexpected {other:?}"),
            }
        }
    })
}

#[tokio::test(flavor = "multi_thread")]
async fn a_create_proposal_answered_with_a_delete_applies_nothing() {
    let h = Harness::start().await;
    let victim = workout_id(&h).await;
    let before = account_state(&h).await;
    h.fake.clear_requests();
    let listener = AppListener::bind(h.store.dir()).await.unwrap();
    let app = app_answering(listener, move |_| Reply::Approved {
        change: Change::DeleteWorkout { workout_id: victim },
        schedule_on: None,
        send_to_device: false,
        device_id: None,
    });

    let message = h.call_err("create_workout", spec_args(false)).await;
    assert!(
        message.contains("nothing was written")
            && message.contains("delete_workout")
            && message.contains("create_workout"),
        "{message}"
    );
    assert_eq!(writes_seen(&h), Vec::<String>::new(), "a decision of another kind must not be applied");
    tokio::time::timeout(Duration::from_secs(5), app).await.unwrap().unwrap();
    assert_eq!(account_state(&h).await, before);
    let (_, changes) = h.call_ok("list_changes", json!({})).await;
    assert_eq!(changes["total"], 0);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_schedule_proposal_answered_with_another_workout_or_a_send_applies_nothing() {
    let h = Harness::start().await;
    let workout = workout_id(&h).await;
    for answer in [
        Reply::Approved {
            change: Change::ScheduleWorkout {
                workout_id: workout + 1,
                date: chrono::NaiveDate::from_ymd_opt(2026, 11, 20).unwrap(),
            },
            schedule_on: None,
            send_to_device: false,
            device_id: None,
        },
        Reply::Approved {
            change: Change::ScheduleWorkout {
                workout_id: workout,
                date: chrono::NaiveDate::from_ymd_opt(2026, 11, 20).unwrap(),
            },
            schedule_on: None,
            send_to_device: true,
            device_id: Some(1),
        },
    ] {
        let listener = AppListener::bind(h.store.dir()).await.unwrap();
        let app = app_answering(listener, move |_| answer);
        let message =
            h.call_err("schedule_workout", json!({"workout_id": workout, "date": "2026-11-20"})).await;
        assert!(message.contains("nothing was written"), "{message}");
        assert_eq!(writes_seen(&h), Vec::<String>::new());
        drop(tokio::time::timeout(Duration::from_secs(5), app).await.unwrap().unwrap());
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_100_kb_client_name_with_bidi_controls_is_sent_to_the_app_short_and_clean() {
    use rmcp::ServiceExt as _;
    let h = Harness::start().await;
    let mut options = garmin_mcp::ServerOptions::new(h.store.clone());
    options.today = Some(today());
    let server = garmin_mcp::GarminMcp::new(options).unwrap();
    let (server_end, client_end) = tokio::io::duplex(1 << 20);
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    let mut name =
        String::from("\u{202E}evil\u{202C}\n\u{1b}[31m Garmin Security: re-enter your password at ");
    while name.len() < 100 * 1024 {
        name.push_str("\u{2066}\u{200F}\r\nhttps://garmin.example/\u{E0041}");
    }
    let info = rmcp::model::ClientConfig::new(
        rmcp::model::ClientCapabilities::default(),
        rmcp::model::Implementation::new(name, "1.0"),
    );
    let client = info.serve(client_end).await.unwrap();
    let listener = AppListener::bind(h.store.dir()).await.unwrap();
    let app = app_answering(listener, |_| Reply::Cancelled { reason: Some("\u{202E}no\n".repeat(10_000)) });

    let mut params = rmcp::model::CallToolRequestParams::new("create_workout");
    params = params.with_arguments(spec_args(false).as_object().unwrap().clone());
    let result = client.call_tool(params).await.unwrap();
    let proposal = tokio::time::timeout(Duration::from_secs(5), app).await.unwrap().unwrap();
    let shown = proposal.requested_by.unwrap_or_default();
    assert!(shown.chars().count() <= app_bridge::MAX_CLIENT_NAME_CHARS, "{shown}");
    assert!(shown.chars().all(|c| !c.is_control() && !app_bridge::is_hidden_control(c)), "{shown:?}");
    assert!(shown.starts_with("evil [31m Garmin"), "{shown:?}");
    // The person's (or a hostile app's) words come back to the client cut and clean as well.
    let text = crate::support::text_of(&result);
    assert!(text.len() < 1_000 && text.contains("(no no no"), "{text}");
    assert!(!text.contains('\u{202E}'), "{text:?}");
}
