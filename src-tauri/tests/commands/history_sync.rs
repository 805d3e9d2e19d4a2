//! Commands of the Sync button (`history_sync`).
//!
//! Run: `cargo test -p garmin-desktop --test commands history_sync::`

use super::*;

/// Collects the `history-sync` events the app emits, in order.
fn sync_events(app: &App<MockRuntime>) -> std::sync::Arc<std::sync::Mutex<Vec<Value>>> {
    use tauri::Listener as _;
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let sink = seen.clone();
    app.listen_any(garmin_desktop::SYNC_EVENT, move |event| {
        let payload: Value = serde_json::from_str(event.payload()).expect("JSON payload");
        sink.lock().unwrap().push(payload);
    });
    seen
}

/// Waits (at most 2 minutes) for the event that says the sync ended, and returns every event.
fn until_sync_ends(seen: &std::sync::Mutex<Vec<Value>>) -> Vec<Value> {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let events = seen.lock().unwrap().clone();
        if events.last().is_some_and(|e| e["running"] == false) {
            return events;
        }
        assert!(Instant::now() < deadline, "the sync did not end within 2 minutes: {events:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn the_sync_button_runs_in_the_background_with_progress_events_and_a_second_click_starts_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let garmin = fake_garmin();
    save_fake_session(dir.path(), &garmin, false);
    let (app, window) = app(dir.path());
    let seen = sync_events(&app);

    let before = invoke(&window, "history_status").unwrap();
    assert_eq!(before["history"]["exists"], false, "{before}");
    assert_eq!(before["sync"]["running"], false);

    let started = invoke(&window, "start_history_sync").unwrap();
    assert_eq!(
        (started["running"].clone(), started["demo"].clone()),
        (json!(true), json!(false)),
        "{started}"
    );
    // A second click while it runs reports the same sync and starts no other.
    let again = invoke(&window, "start_history_sync").unwrap();
    assert_eq!(again["running"], true, "{again}");

    let events = until_sync_ends(&seen);
    let progress: Vec<(u64, u64)> = events
        .iter()
        .filter_map(|e| Some((e["progress"]["done"].as_u64()?, e["progress"]["total"].as_u64()?)))
        .collect();
    assert!(progress.len() >= 2, "progress was reported as it went: {events:?}");
    assert!(progress.windows(2).all(|w| w[0].0 <= w[1].0), "progress never goes back: {progress:?}");
    let total = progress.last().unwrap().1;
    assert!(total >= 365, "a year of days: {total}");
    let last = events.last().unwrap();
    assert_eq!(last["last"]["end"], "complete", "{last}");
    assert!(last["last"]["activitiesAdded"].as_u64().unwrap() > 50, "{last}");

    // One sync ran: every block's activity list was asked for exactly once.
    let lists: Vec<String> = garmin
        .fake
        .requests()
        .into_iter()
        .filter(|r| r.path.ends_with("/activitylist-service/activities/search/activities"))
        .map(|r| r.query.unwrap_or_default())
        .collect();
    let mut unique = lists.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(lists.len(), unique.len(), "no block was read twice: {lists:?}");

    let after = invoke(&window, "history_status").unwrap();
    let history = &after["history"];
    assert_eq!(history["exists"], true);
    assert_eq!(history["activities"], last["last"]["activitiesAdded"], "{after}");
    assert!(history["days"].as_u64().unwrap() >= 365, "{after}");
    assert!(history["firstDay"].is_string() && history["lastDay"].is_string(), "{after}");
    assert!(history["lastSyncedAt"].is_string(), "{after}");
    assert_eq!(after["sync"]["last"]["end"], "complete");

    // The automatic first sync after a sign-in does nothing once the history was synced.
    let requests = garmin.fake.requests().len();
    let first_only = invoke_with(&window, "start_history_sync", json!({ "firstOnly": true })).unwrap();
    assert_eq!(first_only["running"], false, "{first_only}");
    assert_eq!(garmin.fake.requests().len(), requests, "no request to Garmin");
}

#[test]
fn a_sync_garmin_rate_limits_stops_politely_and_says_when_to_resume() {
    let dir = tempfile::tempdir().unwrap();
    let garmin = fake_garmin();
    save_fake_session(dir.path(), &garmin, false);
    // Garmin answers every daily summary with 429, asking for ten minutes.
    garmin.fake.push_fault(
        fake_garmin::faults::FaultRule::always(fake_garmin::faults::Fault::RateLimited {
            retry_after_secs: Some(600),
        })
        .on_path("/usersummary/daily/"),
    );
    let (app, window) = app(dir.path());
    let seen = sync_events(&app);
    let asked = chrono::Utc::now();
    invoke(&window, "start_history_sync").unwrap();
    let events = until_sync_ends(&seen);
    let last = &events.last().unwrap()["last"];
    assert_eq!(last["end"], "rate_limited", "{last}");
    let resume: chrono::DateTime<chrono::Utc> = last["resumeAfter"].as_str().unwrap().parse().unwrap();
    assert!(resume >= asked + chrono::Duration::seconds(590), "{resume}");
    assert!(last["summary"].as_str().unwrap().contains("Resume after"), "{last}");
    assert!(last["error"].is_null(), "a polite stop is not a failure: {last}");
}

#[test]
fn a_sync_without_a_session_is_refused_as_not_signed_in_and_one_garmin_refuses_fails_in_the_error_shape() {
    let dir = tempfile::tempdir().unwrap();
    let (_app, window) = app(dir.path());
    let refused = invoke(&window, "start_history_sync").unwrap_err();
    assert_eq!(refused["code"], "not_signed_in", "{refused}");
    assert!(!dir.path().join("history.sqlite3").exists(), "nothing was created");

    // A session Garmin refuses: the background sync ends as failed, with the code to sign in again.
    let dir = tempfile::tempdir().unwrap();
    let garmin = fake_garmin();
    save_fake_session(dir.path(), &garmin, true);
    let (app, window) = app(dir.path());
    let seen = sync_events(&app);
    invoke(&window, "start_history_sync").unwrap();
    let events = until_sync_ends(&seen);
    let last = &events.last().unwrap()["last"];
    assert_eq!(last["end"], "failed", "{last}");
    assert_eq!(last["error"]["code"], "session_expired", "{last}");
    assert!(last["error"]["message"].as_str().is_some_and(|m| !m.is_empty()), "{last}");
}
