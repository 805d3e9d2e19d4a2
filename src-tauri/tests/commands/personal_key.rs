//! Commands of Garmin's Personal API key from the app (`personal_key`).
//!
//! Run: `cargo test -p garmin-desktop --test commands personal_key::`

use super::*;

/// The app with a global session on the fake and the Personal API pointed at it.
fn app_with_personal_api(dir: &Path, garmin: &Garmin) -> (App<MockRuntime>, WebviewWindow<MockRuntime>) {
    save_fake_session(dir, garmin, false);
    app_with(Accounts::new(dir).with_personal_api_origin(garmin.fake.base_url()))
}

fn exchanges(garmin: &Garmin) -> u32 {
    garmin.fake.personal_api_exchanges().values().sum()
}

#[test]
fn a_pasted_personal_api_key_is_checked_with_one_exchange_saved_0600_shown_with_its_expiry_and_removable() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().unwrap();
    let garmin = fake_garmin();
    let (_app, window) = app_with_personal_api(dir.path(), &garmin);
    let before = invoke(&window, "personal_key_status").unwrap();
    assert_eq!((before["offered"].clone(), before["saved"].clone()), (json!(true), json!(false)), "{before}");

    let minted = garmin.fake.mint_personal_api_key(Duration::from_secs(30 * 24 * 3600));
    let pasted = format!("  {}\n", minted.key);
    let view = invoke_with(&window, "add_personal_key", json!({ "key": pasted, "validDays": 30 })).unwrap();
    assert_eq!(view["saved"], true, "{view}");
    assert!(matches!(view["daysLeft"].as_i64(), Some(29 | 30)), "{view}");
    assert_eq!((view["expiresSoon"].clone(), view["expired"].clone()), (json!(false), json!(false)));
    assert!(!view.to_string().contains(&minted.key), "the key never goes back to the window");
    assert_eq!(exchanges(&garmin), 1, "checked with exactly one token exchange");

    let file = dir.path().join("session.json");
    assert_eq!(std::fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o600);
    let saved = garmin::SessionStore::new(dir.path()).load_personal().unwrap().unwrap();
    assert_eq!(saved.key, minted.key, "saved trimmed");
    assert_eq!(saved.origin.as_deref(), Some(garmin.fake.base_url().as_str()));
    assert!(invoke(&window, "session_status").is_ok(), "the web session stays beside the key");

    let removed = invoke(&window, "remove_personal_key").unwrap();
    assert_eq!(removed["saved"], false, "{removed}");
    assert!(garmin::SessionStore::new(dir.path()).load_personal().unwrap().is_none());
    assert!(invoke(&window, "session_status").is_ok(), "removing the key keeps the web sign-in");
}

#[test]
fn a_key_garmin_refuses_or_a_lifetime_garmin_does_not_offer_is_invalid_input_and_nothing_is_saved() {
    let dir = tempfile::tempdir().unwrap();
    let garmin = fake_garmin();
    let (_app, window) = app_with_personal_api(dir.path(), &garmin);
    let wrong =
        invoke_with(&window, "add_personal_key", json!({ "key": "gcpak_not_a_key", "validDays": 90 }))
            .unwrap_err();
    assert_eq!(wrong["code"], "invalid_input", "{wrong}");
    assert!(wrong["message"].as_str().unwrap().contains("does not accept this key"), "{wrong}");
    assert!(!wrong.to_string().contains("gcpak_not_a_key"), "the key is never echoed: {wrong}");

    let minted = garmin.fake.mint_personal_api_key(Duration::from_secs(90 * 24 * 3600));
    let exchanged = exchanges(&garmin);
    let odd =
        invoke_with(&window, "add_personal_key", json!({ "key": minted.key, "validDays": 45 })).unwrap_err();
    assert_eq!(odd["code"], "invalid_input", "{odd}");
    assert!(odd["message"].as_str().unwrap().contains("45 days"), "{odd}");
    assert_eq!(exchanges(&garmin), exchanged, "refused before asking Garmin");

    garmin.fake.revoke_personal_api_key(&minted.key);
    let deleted =
        invoke_with(&window, "add_personal_key", json!({ "key": minted.key, "validDays": 90 })).unwrap_err();
    assert_eq!(deleted["code"], "invalid_input", "{deleted}");
    assert!(garmin::SessionStore::new(dir.path()).load_personal().unwrap().is_none(), "nothing saved");
    assert_eq!(invoke(&window, "personal_key_status").unwrap()["saved"], false);
}

#[test]
fn china_accounts_are_told_the_personal_api_is_not_offered_and_no_key_is_checked() {
    let dir = tempfile::tempdir().unwrap();
    let garmin = fake_garmin();
    // A Garmin China session (connect.garmin.cn).
    save_session(dir.path(), &garmin.fake.base_url());
    let (_app, window) = app_with(Accounts::new(dir.path()).with_personal_api_origin(garmin.fake.base_url()));
    let view = invoke(&window, "personal_key_status").unwrap();
    assert_eq!(view["offered"], false, "{view}");
    assert!(view["notOffered"].as_str().unwrap().contains("connect.garmin.cn"), "{view}");

    let minted = garmin.fake.mint_personal_api_key(Duration::from_secs(30 * 24 * 3600));
    let refused =
        invoke_with(&window, "add_personal_key", json!({ "key": minted.key, "validDays": 30 })).unwrap_err();
    assert_eq!(refused["code"], "invalid_input", "{refused}");
    assert!(refused["message"].as_str().unwrap().contains("not offered"), "{refused}");
    assert_eq!(exchanges(&garmin), 0, "no key exchange was tried");
    let page = invoke_with(&window, "open_personal_key_page", json!({ "windowTitle": "Key" })).unwrap_err();
    assert_eq!(page["code"], "invalid_input", "{page}");
    assert!(garmin::SessionStore::new(dir.path()).load_personal().unwrap().is_none());
}

#[test]
fn the_key_page_opens_in_a_capability_less_sign_in_window_and_needs_a_web_sign_in() {
    let dir = tempfile::tempdir().unwrap();
    let (_app, window) = app(dir.path());
    let refused =
        invoke_with(&window, "open_personal_key_page", json!({ "windowTitle": "Key" })).unwrap_err();
    assert_eq!(refused["code"], "not_signed_in", "{refused}");

    let garmin = fake_garmin();
    let (app, window) = app_with_personal_api(dir.path(), &garmin);
    invoke_with(&window, "open_personal_key_page", json!({ "windowTitle": "Garmin Personal API key" }))
        .unwrap();
    let label = garmin_desktop::signin::window::KEY_PAGE_WINDOW;
    let key_window = app.get_webview_window(label).expect("the key page window is open");
    assert!(label.starts_with(SIGN_IN_WINDOW_PREFIX), "a sign-in window: no capability");
    // Nothing it loads can call the app.
    let blocked =
        invoke_from(&key_window, &garmin.fake.base_url(), "add_personal_key", json!({ "key": "k" }));
    assert!(blocked.is_err(), "{blocked:?}");
    // Opening it again replaces it rather than stacking windows.
    invoke_with(&window, "open_personal_key_page", json!({ "windowTitle": "Again" })).unwrap();
    let open = app.webview_windows().keys().filter(|l| l.as_str() == label).count();
    assert_eq!(open, 1);
}
