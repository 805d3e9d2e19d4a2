//! `login`: reports the session and guides sign-in.

use serde_json::json;

use crate::support::Harness;

#[tokio::test]
async fn login_reports_the_signed_in_account_after_one_cheap_call() {
    let h = Harness::start().await;
    let (text, data) = h.call_ok("login", json!({})).await;
    assert_eq!(data["signed_in"], true);
    assert_eq!(data["display_name"], "fake-athlete-1");
    assert!(text.contains("Signed in") && text.contains("fake-athlete-1"), "{text}");
    assert_eq!(h.gc_api_paths(), ["/gc-api/userprofile-service/socialProfile"]);
}

#[tokio::test]
async fn login_when_signed_out_gives_the_exact_steps() {
    let h = Harness::signed_out().await;
    let (text, data) = h.call_ok("login", json!({"open_app": false})).await;
    assert_eq!(data["signed_in"], false);
    assert_eq!(data["app_opened"], false);
    let steps = data["next_steps"].to_string();
    assert!(steps.contains("garmin-mcp login --manual --site global --data-dir"), "{steps}");
    assert!(steps.contains(&h.dir.path().display().to_string()), "{steps}");
    assert!(text.starts_with("Not signed in"), "{text}");
}

#[tokio::test]
async fn login_after_the_session_died_explains_and_recovers_once_signed_in_again() {
    let h = Harness::start().await;
    std::fs::remove_file(h.store.path()).unwrap();
    let (_, data) = h.call_ok("login", json!({"open_app": false})).await;
    assert_eq!(data["signed_in"], false);
    assert!(data["problem"].as_str().unwrap().contains("not signed in"));
}
