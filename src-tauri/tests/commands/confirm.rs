//! Commands of an assistant's proposals and sign-in requests reaching the window, and the Rust-side preview (`bridge`, `confirm`).
//!
//! Run: `cargo test -p garmin-desktop --test commands confirm::`

use super::*;

/// What `garmin-mcp`'s `create_workout` sends the app for [`intervals_spec`].
fn create_workout_proposal() -> app_bridge::Proposal {
    let workout = garmin::workout_spec::parse_spec(&intervals_spec()).expect("valid spec").to_garmin();
    app_bridge::Proposal {
        title: "Create the workout '800m x4' in your Garmin library".into(),
        preview: garmin::workout_spec::preview(&workout).text,
        change: garmin::changes::Change::CreateWorkout { workout: Box::new(workout) },
        spec: Some(intervals_spec()),
        requested_by: Some("claude-code".into()),
        demo: false,
    }
}

/// Sends `request` from a sidecar's end of the channel (a real `AppLink` on its own runtime) once
/// the app in `dir` answers, and waits up to 30 s for the reply.
fn ask_app(
    dir: &Path,
    request: app_bridge::Request,
) -> std::thread::JoinHandle<Result<app_bridge::Reply, app_bridge::BridgeError>> {
    let link = app_bridge::AppLink::in_dir(dir);
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let deadline = Instant::now() + Duration::from_secs(10);
            while !link.is_running().await {
                assert!(Instant::now() < deadline, "the app's channel did not open within 10 s");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            link.ask(&request, Duration::from_secs(30)).await
        })
    })
}

/// Waits (at most 10 s) until `pending_proposals` lists a request, and returns the list.
fn pending(window: &WebviewWindow<MockRuntime>) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let list = invoke(window, "pending_proposals").unwrap();
        let list = list.as_array().cloned().unwrap_or_default();
        if !list.is_empty() {
            return list;
        }
        assert!(Instant::now() < deadline, "no request reached the app within 10 s");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_sidecars_proposal_reaches_the_window_and_the_edited_workout_goes_back_approved() {
    let dir = tempfile::tempdir().unwrap();
    let (app, window) = app(dir.path());
    garmin_desktop::bridge::start(app.handle(), dir.path().to_path_buf());
    let hello = ask_app(dir.path(), app_bridge::Request::Hello).join().unwrap().unwrap();
    assert!(matches!(hello, app_bridge::Reply::Hello { .. }), "{hello:?}");

    let asked = ask_app(dir.path(), app_bridge::Request::Confirm(create_workout_proposal()));
    let list = pending(&window);
    assert_eq!(list.len(), 1, "{list:?}");
    let request = &list[0];
    assert_eq!(request["kind"], "confirm");
    assert_eq!(request["changeKind"], "create_workout");
    assert_eq!(request["requestedBy"], "claude-code");
    assert_eq!(request["demo"], false);
    assert_eq!(request["title"], "Create the workout '800m x4' in your Garmin library");
    assert_eq!(
        request["spec"]["steps"][1]["steps"][0]["pace_range"], "4:55-5:05",
        "the editor gets the canonical spec"
    );

    // The person makes it six repeats, schedules it and sends it to the watch.
    let mut edited = request["spec"].clone();
    edited["steps"][1]["times"] = json!(6);
    let decision =
        json!({ "kind": "approve", "spec": edited, "scheduleOn": "2026-12-03", "sendToDevice": true });
    let id = request["id"].clone();
    assert_eq!(
        invoke_with(&window, "decide_proposal", json!({ "id": id, "decision": decision })),
        Ok(Value::Null)
    );

    let reply = asked.join().unwrap().expect("the sidecar gets an answer");
    let expected = garmin::workout_spec::parse_spec(&edited).unwrap().to_garmin();
    let app_bridge::Reply::Approved { change, schedule_on, send_to_device, device_id } = reply else {
        panic!("approved expected, got {reply:?}");
    };
    assert_eq!(change, garmin::changes::Change::CreateWorkout { workout: Box::new(expected) });
    assert_eq!(schedule_on, chrono::NaiveDate::from_ymd_opt(2026, 12, 3));
    assert_eq!((send_to_device, device_id), (true, None));
    assert_eq!(invoke(&window, "pending_proposals"), Ok(json!([])), "answered requests leave the list");
    let again =
        invoke_with(&window, "decide_proposal", json!({ "id": id, "decision": { "kind": "cancel" } }));
    assert!(again.unwrap_err()["message"].as_str().unwrap().contains("no longer waiting"));
}

#[cfg(unix)]
#[test]
fn with_a_silent_connection_open_a_hostile_proposal_still_reaches_the_window_short_and_clean() {
    let dir = tempfile::tempdir().unwrap();
    let (app, window) = app(dir.path());
    garmin_desktop::bridge::start(app.handle(), dir.path().to_path_buf());
    let hello = ask_app(dir.path(), app_bridge::Request::Hello).join().unwrap().unwrap();
    assert!(matches!(hello, app_bridge::Reply::Hello { .. }), "{hello:?}");
    // A process that connects and says nothing (the app waits 10 s for a request).
    let silent = std::os::unix::net::UnixStream::connect(app_bridge::socket_path(dir.path())).unwrap();

    let mut name = String::from("\u{202E}edoc-edualc\u{202C}\n Garmin Security: re-enter your password at ");
    while name.len() < 100 * 1024 {
        name.push_str("\u{2066}\u{200F}\u{7}\r\nhttps://garmin.example/\u{E0041}");
    }
    let proposal = app_bridge::Proposal { requested_by: Some(name), ..create_workout_proposal() };
    let started = Instant::now();
    let asked = ask_app(dir.path(), app_bridge::Request::Confirm(proposal));
    let request = pending(&window)[0].clone();
    assert!(started.elapsed() < Duration::from_secs(5), "stalled {:?}", started.elapsed());
    let client = request["requestedBy"].as_str().unwrap();
    assert!(client.chars().count() <= app_bridge::MAX_CLIENT_NAME_CHARS, "{client}");
    assert!(client.chars().all(|c| !c.is_control() && !app_bridge::is_hidden_control(c)), "{client:?}");
    assert!(client.starts_with("edoc-edualc Garmin"), "{client:?}");

    let cancel = json!({ "id": request["id"], "decision": { "kind": "cancel" } });
    assert_eq!(invoke_with(&window, "decide_proposal", cancel), Ok(Value::Null));
    assert_eq!(asked.join().unwrap().unwrap(), app_bridge::Reply::Cancelled { reason: None });
    drop(silent);
}

#[test]
fn an_invalid_edit_is_refused_and_the_proposal_keeps_waiting_until_cancelled() {
    let dir = tempfile::tempdir().unwrap();
    let (app, window) = app(dir.path());
    garmin_desktop::bridge::start(app.handle(), dir.path().to_path_buf());
    let asked = ask_app(dir.path(), app_bridge::Request::Confirm(create_workout_proposal()));
    let id = pending(&window)[0]["id"].clone();

    let mut broken = intervals_spec();
    broken["steps"][1]["times"] = json!(0);
    let decision = json!({ "kind": "approve", "spec": broken });
    let error =
        invoke_with(&window, "decide_proposal", json!({ "id": id, "decision": decision })).unwrap_err();
    assert_eq!(error["code"], "invalid_input", "{error}");
    assert!(error["message"].as_str().unwrap().contains("steps[1].times"), "{error}");
    assert_eq!(pending(&window).len(), 1, "still waiting for a decision");

    let decision = json!({ "kind": "cancel", "reason": "not this week" });
    assert_eq!(
        invoke_with(&window, "decide_proposal", json!({ "id": id, "decision": decision })),
        Ok(Value::Null)
    );
    let reply = asked.join().unwrap().unwrap();
    assert_eq!(reply, app_bridge::Reply::Cancelled { reason: Some("not this week".into()) });
}

#[test]
fn a_sign_in_request_is_shown_with_its_reason_and_answered_by_signing_in() {
    let dir = tempfile::tempdir().unwrap();
    let garmin = fake_garmin();
    let (app, window) = app_with(Accounts::new(dir.path()).with_garmin_origins(garmin.origins()));
    garmin_desktop::bridge::start(app.handle(), dir.path().to_path_buf());

    // "Not now" in the window cancels it.
    let reason = "claude-code needs your Garmin data for `get_sleep`: sign in to continue.";
    let asked = ask_app(dir.path(), app_bridge::Request::SignIn { reason: reason.into() });
    let request = pending(&window)[0].clone();
    assert_eq!((request["kind"].clone(), request["reason"].clone()), (json!("sign_in"), json!(reason)));
    let approve = invoke_with(
        &window,
        "decide_proposal",
        json!({ "id": request["id"], "decision": { "kind": "approve" } }),
    );
    assert_eq!(approve.unwrap_err()["code"], "invalid_input", "a sign-in is answered by signing in");
    let cancel = json!({ "id": request["id"], "decision": { "kind": "cancel" } });
    assert_eq!(invoke_with(&window, "decide_proposal", cancel), Ok(Value::Null));
    assert_eq!(asked.join().unwrap().unwrap(), app_bridge::Reply::Cancelled { reason: None });

    // Signing in (here with pasted cookies) answers it.
    let asked = ask_app(dir.path(), app_bridge::Request::SignIn { reason: reason.into() });
    pending(&window);
    let (cookies, csrf) = garmin.browser_cookies(false);
    let args = json!({ "site": "global", "cookies": cookies, "csrfToken": csrf, "userAgent": UA });
    invoke_with(&window, "sign_in_with_cookies", args).unwrap();
    let reply = asked.join().unwrap().unwrap();
    assert_eq!(reply, app_bridge::Reply::SignedIn { display_name: Some("fake-athlete-1".into()) });
    assert_eq!(invoke(&window, "pending_proposals"), Ok(json!([])));
}

#[test]
fn preview_workout_recomputes_totals_in_rust_and_lists_every_problem() {
    let dir = tempfile::tempdir().unwrap();
    let (_app, window) = app(dir.path());
    let four = invoke_with(&window, "preview_workout", json!({ "spec": intervals_spec() })).unwrap();
    let mut longer = intervals_spec();
    longer["steps"][1]["times"] = json!(6);
    let six = invoke_with(&window, "preview_workout", json!({ "spec": longer })).unwrap();
    assert_eq!(four["problems"], json!([]));
    let (d4, d6) = (four["distanceM"].as_f64().unwrap(), six["distanceM"].as_f64().unwrap());
    assert!((d6 - d4 - 2.0 * (800.0 + 2.0 * 60.0 * 1000.0 / 420.0)).abs() < 50.0, "{d4} → {d6}");
    assert!(six["durationS"].as_f64().unwrap() > four["durationS"].as_f64().unwrap());
    assert!(six["text"].as_str().unwrap().contains("Repeat 6×"), "{six}");
    assert_eq!(six["lines"].as_array().map(Vec::len), Some(3));

    let broken = json!({ "name": "", "sport": "run", "steps": [{ "type": "interval", "pace": "fast" }] });
    let answer = invoke_with(&window, "preview_workout", json!({ "spec": broken })).unwrap();
    let paths: Vec<&str> =
        answer["problems"].as_array().unwrap().iter().filter_map(|p| p["path"].as_str()).collect();
    assert_eq!(paths, ["name", "steps[0].pace"], "{answer}");
    assert_eq!(answer["distanceM"], Value::Null);
}

#[test]
fn the_exercise_picker_searches_the_catalogue_and_the_preview_speaks_the_windows_language() {
    let dir = tempfile::tempdir().unwrap();
    let (_app, window) = app(dir.path());
    let hits =
        invoke_with(&window, "find_exercises", json!({ "query": { "name": "bench press", "limit": 3 } }))
            .unwrap();
    let hits = hits.as_array().unwrap();
    assert_eq!(hits.len(), 3);
    assert_eq!(hits[0]["exercise"], "BENCH_PRESS/BENCH_PRESS", "{hits:?}");
    assert!(hits.iter().all(|h| h["primary_muscles"].is_array()), "{hits:?}");
    let error =
        invoke_with(&window, "find_exercises", json!({ "query": { "muscle": "wings" } })).unwrap_err();
    assert!(error.to_string().contains("unknown muscle"), "{error}");
    let bench = json!({ "name": "Bench", "sport": "strength", "steps": [
        { "type": "repeat", "times": 3, "steps": [
            { "type": "exercise", "exercise": "barbell bench press", "reps": 8, "weight_kg": 60 },
            { "type": "rest", "duration_s": 90 }]}]});
    let en = invoke_with(&window, "preview_workout", json!({ "spec": bench })).unwrap();
    assert_eq!(en["text"], "3× Barbell bench press 8 reps @ 60 kg · rest 1:30 — 3 sets, 24 reps, 1,440 kg");
    let zh = invoke_with(&window, "preview_workout", json!({ "spec": bench, "language": "zh" })).unwrap();
    assert_eq!(zh["text"], "3× 杠铃卧推 8次 @ 60 kg · 休息 1:30 — 3组，24次，1,440 kg");
    assert_eq!(zh["total"], "3组，24次，1,440 kg");
}
