//! The Training view's command (`training`): the fitness chart and newest activities of the account
//! shown, read from its local history after a sync from the fake Garmin.
//!
//! Run: `cargo test -p garmin-desktop --test commands training::`

use super::*;

#[test]
fn the_training_view_is_empty_before_a_sync_and_shows_the_demo_accounts_synced_fitness_and_activities() {
    let dir = tempfile::tempdir().unwrap();
    let (app, window) = app(dir.path());

    // Nothing synced yet: an empty view, and no history file is created by asking.
    let empty = invoke(&window, "training_overview").unwrap();
    assert_eq!(empty["demo"], false, "{empty}");
    assert_eq!(empty["fitness"], Value::Null, "{empty}");
    assert_eq!(empty["recent"], json!([]), "{empty}");
    assert_eq!(empty["history"]["exists"], false, "{empty}");
    assert!(!dir.path().join("history.sqlite3").exists(), "reading creates nothing");

    // The demo account, synced from the fake Garmin with the Sync button's command.
    let demo_dir = dir.path().join(garmin_desktop::DEMO_FOLDER);
    let garmin = fake_garmin();
    save_fake_session(&demo_dir, &garmin, false);
    app.state::<Accounts>().set_demo_active(true);
    let ended = std::sync::Arc::new(std::sync::Mutex::new(false));
    {
        use tauri::Listener as _;
        let ended = ended.clone();
        app.listen_any(garmin_desktop::SYNC_EVENT, move |event| {
            let payload: Value = serde_json::from_str(event.payload()).expect("JSON payload");
            if payload["running"] == false {
                *ended.lock().unwrap() = true;
            }
        });
    }
    invoke(&window, "start_history_sync").unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    while !*ended.lock().unwrap() {
        assert!(Instant::now() < deadline, "the demo's sync did not end within 2 minutes");
        std::thread::sleep(Duration::from_millis(50));
    }

    let view = invoke(&window, "training_overview").unwrap();
    assert_eq!(view["demo"], true, "the view says the data is the demo's");
    assert_eq!(view["history"]["exists"], true);
    assert!(view["history"]["lastSyncedAt"].is_string(), "the sync status travels with the data");

    let fitness = &view["fitness"];
    let dates: Vec<chrono::NaiveDate> =
        serde_json::from_value(fitness["dates"].clone()).expect("the chart's dates");
    assert_eq!(dates.len(), 90, "three months of days");
    assert!(dates.windows(2).all(|w| w[1] - w[0] == chrono::Duration::days(1)), "one entry per day, no gap");
    for column in ["ctl", "atl", "tsb"] {
        assert_eq!(fitness[column].as_array().map(Vec::len), Some(90), "{column} has a value per day");
    }
    let ctl = fitness["ctl"].as_array().unwrap();
    assert!(ctl.iter().any(|v| v.as_f64().unwrap() > 0.0), "a year of the demo's training builds fitness");
    let (ctl_last, atl_last, tsb_last) = (
        ctl[89].as_f64().unwrap(),
        fitness["atl"][89].as_f64().unwrap(),
        fitness["tsb"][89].as_f64().unwrap(),
    );
    let yesterday = (fitness["ctl"][88].as_f64().unwrap(), fitness["atl"][88].as_f64().unwrap());
    assert!(
        (tsb_last - (yesterday.0 - yesterday.1)).abs() < 1e-9 && ctl_last.is_finite() && atl_last.is_finite(),
        "form is yesterday's fitness − fatigue (the convention named): {fitness}"
    );
    assert!(fitness["convention"].as_str().unwrap().contains("TSB"), "{fitness}");
    assert!(!fitness["loadConvention"].as_str().unwrap().is_empty(), "{fitness}");

    let recent = view["recent"].as_array().unwrap();
    assert_eq!(recent.len(), 10, "the ten newest of the demo's year");
    let days: Vec<&str> = recent.iter().map(|a| a["date"].as_str().unwrap()).collect();
    assert!(days.windows(2).all(|w| w[0] >= w[1]), "newest first: {days:?}");
    assert!(
        days[0] <= dates[89].to_string().as_str(),
        "nothing after the chart's last day (today): {days:?}"
    );
    assert!(recent.iter().all(|a| a["activityId"].as_u64().is_some() && a["name"].is_string()), "{recent:?}");

    // The real account's view stays empty: one account's data never shows under another.
    app.state::<Accounts>().set_demo_active(false);
    let real = invoke(&window, "training_overview").unwrap();
    assert_eq!((real["demo"].clone(), real["recent"].clone()), (json!(false), json!([])), "{real}");
}
