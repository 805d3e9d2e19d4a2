//! Commands of the preferences file and the remote access choices it keeps (`preferences`).
//!
//! Run: `cargo test -p garmin-desktop --test commands preferences::`

use super::*;

/// The preferences file in `dir`, as JSON.
fn preferences_file(dir: &Path) -> Value {
    let text = std::fs::read_to_string(dir.join(PREFERENCES_FILE)).expect("preferences.json written");
    serde_json::from_str(&text).expect("preferences.json is JSON")
}

#[test]
fn preferences_start_at_the_defaults_and_a_change_is_saved_for_the_next_start() {
    let dir = tempfile::tempdir().unwrap();
    {
        let (_app, window) = app(dir.path());
        let defaults = invoke(&window, "get_preferences").unwrap();
        assert_eq!(
            defaults,
            json!({
                "language": null,
                "lastSite": null,
                "remote": { "network": false, "port": 8765, "readOnly": true },
                "autoFirstSync": true,
                "window": null,
                "homeView": null,
            })
        );
        let changed =
            invoke_with(&window, "set_preferences", json!({ "update": { "language": "zh" } })).unwrap();
        assert_eq!(
            (changed["language"].clone(), changed["autoFirstSync"].clone()),
            (json!("zh"), json!(true))
        );
        let changed =
            invoke_with(&window, "set_preferences", json!({ "update": { "autoFirstSync": false } })).unwrap();
        assert_eq!(changed["language"], json!("zh"), "a field not given stays as it was");
        // Saved at once, one key per field.
        let file = preferences_file(dir.path());
        assert_eq!((file["language"].clone(), file["autoFirstSync"].clone()), (json!("zh"), json!(false)));
    }
    // The next start of the app reads them back.
    let (_app, window) = app(dir.path());
    let read = invoke(&window, "get_preferences").unwrap();
    assert_eq!((read["language"].clone(), read["autoFirstSync"].clone()), (json!("zh"), json!(false)));
    assert!(!dir.path().join("session.json").exists(), "the session is never in the preferences' place");
}

#[cfg(unix)]
#[test]
fn the_preferences_create_a_missing_data_folder_private_like_the_sessions() {
    use std::os::unix::fs::PermissionsExt as _;
    let parent = tempfile::tempdir().unwrap();
    let data_dir = parent.path().join("not-yet");
    let (_app, window) = app(&data_dir);
    invoke_with(&window, "set_preferences", json!({ "update": { "language": "en" } })).unwrap();
    let mode = std::fs::metadata(&data_dir).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700, "the data folder is private: {mode:o}");
    assert_eq!(preferences_file(&data_dir)["language"], json!("en"));
}

#[test]
fn set_preferences_refuses_a_language_the_window_does_not_speak_and_saves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (_app, window) = app(dir.path());
    let refused = invoke_with(&window, "set_preferences", json!({ "update": { "language": "fr" } }));
    let error = refused.expect_err("an unknown language is refused");
    assert!(error.to_string().contains("fr"), "the error names what was wrong: {error}");
    assert_eq!(invoke(&window, "get_preferences").unwrap()["language"], json!(null));
}

#[test]
fn a_damaged_preferences_file_does_not_stop_the_app_and_is_kept_aside() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(PREFERENCES_FILE), "{ \"language\": \"zh\", oops").unwrap();
    let (_app, window) = app(dir.path());
    let read = invoke(&window, "get_preferences").expect("the defaults, not an error");
    assert_eq!(read["language"], json!(null));
    assert_eq!(read["autoFirstSync"], json!(true));
    let kept = std::fs::read_to_string(dir.path().join("preferences.json.damaged")).expect("kept aside");
    assert!(kept.contains("oops"), "{kept}");
    assert_eq!(preferences_file(dir.path())["autoFirstSync"], json!(true), "rewritten with the defaults");
}

#[test]
fn hand_edited_invalid_fields_read_as_their_defaults_and_are_corrected_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let edited = json!({
        "language": "tlh",
        "lastSite": "cn",
        "remote": { "network": true, "port": 70000, "readOnly": false },
        "window": { "width": 1100, "height": 720, "maximized": false },
    });
    std::fs::write(dir.path().join(PREFERENCES_FILE), edited.to_string()).unwrap();
    let (_app, window) = app(dir.path());
    let read = invoke(&window, "get_preferences").unwrap();
    assert_eq!(read["language"], json!(null), "an unknown language: the system's");
    assert_eq!(read["lastSite"], json!("cn"), "the usable fields are kept");
    assert_eq!(read["remote"], json!({ "network": true, "port": 8765, "readOnly": false }));
    assert_eq!(read["window"], json!({ "width": 1100, "height": 720, "maximized": false }));
    let file = preferences_file(dir.path());
    assert_eq!((file["language"].clone(), file["remote"]["port"].clone()), (json!(null), json!(8765)));
}

#[test]
fn the_remote_access_panel_offers_the_choices_remembered_in_the_preferences() {
    let dir = tempfile::tempdir().unwrap();
    let remembered = json!({ "network": true, "port": 9123, "readOnly": false });
    std::fs::write(dir.path().join(PREFERENCES_FILE), json!({ "remote": remembered }).to_string()).unwrap();
    let (_app, window) = app(dir.path());
    let panel = invoke(&window, "remote_status").unwrap();
    assert_eq!(panel["running"], json!(false));
    assert_eq!(panel["settings"], remembered);
}
