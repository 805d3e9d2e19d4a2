//! Run: `cargo test -p garmin-mcp --test tools session::`.
//!
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

#[tokio::test(flavor = "multi_thread")]
async fn a_call_without_a_session_asks_the_app_to_sign_in_and_then_answers() {
    use app_bridge::{AppListener, Reply, Request};
    let h = Harness::signed_out().await;
    let listener = AppListener::bind(h.store.dir()).await.unwrap();
    let app = async {
        loop {
            let incoming = listener.accept().await.unwrap();
            match incoming.request().clone() {
                Request::Hello => incoming.reply(&Reply::Hello { app_version: "test".into() }).await.unwrap(),
                Request::SignIn { reason } => {
                    // The person signs in in the app's window; the app saves the session.
                    garmin_mcp::demo::sign_in(&h.fake, crate::support::USER_AGENT, &h.store).unwrap();
                    incoming.reply(&Reply::SignedIn { display_name: None }).await.unwrap();
                    return reason;
                }
                other => panic!("unexpected {other:?}"),
            }
        }
    };
    let call = h.call("get_profile", serde_json::json!({}));
    let (result, reason) = tokio::join!(call, app);
    assert!(reason.contains("get_profile"), "{reason}");
    assert_ne!(result.is_error, Some(true), "{}", crate::support::text_of(&result));
    assert!(h.store.load().unwrap().is_some());
}

#[tokio::test(flavor = "multi_thread")]
async fn when_the_person_does_not_sign_in_the_first_answer_with_the_steps_stands() {
    use app_bridge::{AppListener, Reply, Request};
    let h = Harness::signed_out().await;
    let listener = AppListener::bind(h.store.dir()).await.unwrap();
    let app = async {
        loop {
            let incoming = listener.accept().await.unwrap();
            if let Request::Hello = incoming.request() {
                incoming.reply(&Reply::Hello { app_version: "test".into() }).await.unwrap();
            } else {
                incoming.reply(&Reply::Cancelled { reason: Some("window closed".into()) }).await.unwrap();
                return;
            }
        }
    };
    let (message, ()) = tokio::join!(h.call_err("get_profile", serde_json::json!({})), app);
    assert!(message.starts_with(garmin_mcp::tool_error::SIGN_IN_NEEDED), "{message}");
    assert!(message.contains("`login` tool"), "{message}");
}
