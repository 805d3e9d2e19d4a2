//! `get_achievements`, `get_challenges`, `get_social`: badges, level, goals, challenges,
//! connections and groups against the fake's raw answers (read with the Garmin client on the same
//! session) and its data set, Garmin's "no data" forms, session renewal and 429s, the budget.
//!
//! Run: `cargo test -p garmin-mcp --test tools social::`

use std::collections::{BTreeSet, HashSet};

use fake_garmin::faults::{Fault, FaultRule};
use garmin::api::{BadgeChallengeStatus, GoalStatus};
use garmin_mcp::output;
use serde_json::json;

use crate::support::{Harness, all_text, today};

/// Every successful request of the call, as `path?query`; none may repeat.
fn assert_no_repeated_request(h: &Harness) {
    let mut seen = HashSet::new();
    for r in h.fake.requests().into_iter().filter(|r| r.path.starts_with("/gc-api") && r.status < 400) {
        let key = format!("{}?{}", r.path, r.query.unwrap_or_default());
        assert!(seen.insert(key.clone()), "requested twice: {key}");
    }
}

fn client(h: &Harness) -> garmin::Client {
    garmin::Client::from_store(h.store.clone()).unwrap()
}

fn paths(h: &Harness) -> BTreeSet<String> {
    h.gc_api_paths().into_iter().collect()
}

// ---------------------------------------------------------------------------------------------
// get_achievements

#[tokio::test]
async fn badges_are_listed_most_recent_first_with_level_points_and_totals() {
    let h = Harness::start().await;
    let (text, data) = h.call_ok("get_achievements", json!({})).await;
    assert_eq!(
        paths(&h),
        [
            "/gc-api/badge-service/badge/earned",
            "/gc-api/userprofile-service/socialProfile",
            "/gc-api/goal-service/goal/goals",
            "/gc-api/usersummary-service/usersummary/daily/fake-athlete-1",
        ]
        .into_iter()
        .map(str::to_owned)
        .collect()
    );
    assert_no_repeated_request(&h);

    let c = client(&h);
    let mut earned = c.challenges().badges_earned().await.unwrap();
    earned.sort_by_key(|b| std::cmp::Reverse(b.badge_earned_date));
    let profile = c.get_value("/userprofile-service/socialProfile", &[]).await.unwrap().unwrap();

    assert_eq!(data["badges_earned"], earned.len());
    let points: f64 = earned.iter().filter_map(|b| b.badge_points).sum();
    assert_eq!(data["badge_points"].as_f64(), Some(points));
    let rows = data["badges"].as_array().unwrap();
    assert_eq!(rows.len(), earned.len());
    for (row, b) in rows.iter().zip(&earned) {
        assert_eq!(row["name"].as_str(), b.badge_name.as_deref());
        assert_eq!(row["earned"], b.badge_earned_date.unwrap().date().to_string());
        assert_eq!(row["points"].as_f64(), b.badge_points);
    }
    assert_eq!(data["level"], profile["userLevel"]);
    assert_eq!(data["total_points"], profile["userPoint"]);
    assert_eq!(data["next_level_at_points"], profile["levelPointThreshold"]);
    assert!(
        text.starts_with(&format!("Level {} with {} points.", profile["userLevel"], profile["userPoint"])),
        "{text}"
    );
    assert!(text.contains(earned[0].badge_name.as_deref().unwrap()), "{text}");
}

#[tokio::test]
async fn goals_in_progress_show_target_and_todays_step_progress() {
    let h = Harness::start().await;
    let (text, data) = h.call_ok("get_achievements", json!({})).await;
    let active = client(&h).challenges().goals(GoalStatus::Active, 0, 100).await.unwrap();
    let goals = data["goals"].as_array().unwrap();
    assert_eq!(goals.len(), active.len());
    let steps_goal = active.iter().find(|g| g.user_goal_type.as_deref() == Some("STEPS")).unwrap();
    let row = goals.iter().find(|g| g["goal_id"] == steps_goal.user_goal_pk.unwrap()).unwrap();
    assert_eq!(row["type"], "steps");
    assert_eq!(row["target"], "10,000 steps a day");
    let steps = f64::from(h.fake.state().inner.data.read().unwrap().day(today()).unwrap().steps);
    let pct = (steps / steps_goal.goal_value.unwrap() * 100.0).round();
    assert_eq!(row["progress_pct"].as_f64(), Some(pct));
    let weight = goals.iter().find(|g| g["type"] == "weight").unwrap();
    assert_eq!(weight["target"], "69.0 kg");
    assert!(weight.get("progress_pct").is_none(), "no progress without Garmin's");
    assert!(text.contains(&format!("steps 10,000 steps a day ({pct} %)")), "{text}");
}

#[tokio::test]
async fn the_badge_limit_keeps_the_most_recent_and_no_badges_is_an_answer() {
    let h = Harness::start().await;
    let (_, data) = h.call_ok("get_achievements", json!({"limit": 2})).await;
    let rows = data["badges"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert!(rows[0]["earned"].as_str() >= rows[1]["earned"].as_str());
    assert!(data["badges_earned"].as_u64().unwrap() > 2, "the total still counts them all");

    // Garmin's 204 "nothing" for badges and goals.
    h.fake.push_fault(FaultRule::always(Fault::NoContent).on_path("badge-service"));
    h.fake.push_fault(FaultRule::always(Fault::NoContent).on_path("goal-service"));
    let (text, data) = h.call_ok("get_achievements", json!({})).await;
    assert_eq!(data["badges_earned"], 0);
    assert_eq!(data["goals"], json!([]));
    assert!(text.contains("No badges earned yet.") && text.contains("No goals in progress."), "{text}");
    let err = h.call_invalid("get_achievements", json!({"limit": 0})).await;
    assert!(err.contains("limit"), "{err}");
}

// ---------------------------------------------------------------------------------------------
// get_challenges

#[tokio::test]
async fn challenges_under_way_carry_goal_and_progress_from_garmin() {
    let h = Harness::start().await;
    let (text, data) = h.call_ok("get_challenges", json!({})).await;
    assert_eq!(
        paths(&h),
        [
            "/gc-api/badgechallenge-service/badgeChallenge/non-completed",
            "/gc-api/badgechallenge-service/badgeChallenge/available",
            "/gc-api/badgechallenge-service/virtualChallenge/inProgress",
            "/gc-api/adhocchallenge-service/adHocChallenge/nonCompleted",
        ]
        .into_iter()
        .map(str::to_owned)
        .collect()
    );
    assert_no_repeated_request(&h);

    let c = client(&h);
    let joined = c.challenges().badge_challenges(BadgeChallengeStatus::NonCompleted).await.unwrap();
    let open = c.challenges().badge_challenges(BadgeChallengeStatus::Available).await.unwrap();
    let virtuals = c.challenges().virtual_challenges(0, 100).await.unwrap();
    let rows = data["in_progress"].as_array().unwrap();
    assert_eq!(rows.len(), joined.len() + virtuals.len());
    for want in &joined {
        let row = rows.iter().find(|r| r["uuid"].as_str() == want.uuid.as_deref()).unwrap();
        assert_eq!(row["kind"], "badge challenge");
        assert_eq!(row["name"].as_str(), want.badge_challenge_name.as_deref());
        let pct = (want.progress_value.unwrap() / want.target_value.unwrap() * 100.0).round();
        assert_eq!(row["progress_pct"].as_f64(), Some(pct));
        assert_eq!(row["start_date"], want.start_date.unwrap().date().to_string());
        assert_eq!(row["end_date"], want.end_date.unwrap().date().to_string());
    }
    let steps = rows.iter().find(|r| r["name"].as_str().is_some_and(|n| n.ends_with("Step Month"))).unwrap();
    assert_eq!(steps["goal"], "300,000 steps");
    for want in &virtuals {
        let row = rows.iter().find(|r| r["uuid"].as_str() == want.uuid.as_deref()).unwrap();
        assert_eq!(row["kind"], "virtual challenge");
        assert!(row["goal"].as_str().unwrap().ends_with("m climbed"));
    }
    // The fake lists the joined monthly challenges as available too: they are not repeated.
    let joined_ids: HashSet<_> = joined.iter().filter_map(|c| c.uuid.clone()).collect();
    let expected_open =
        open.iter().filter(|c| c.uuid.as_ref().is_none_or(|u| !joined_ids.contains(u))).count();
    assert_eq!(data["available"].as_array().unwrap().len(), expected_open);
    assert!(text.starts_with(&format!("{} challenges in progress", rows.len())), "{text}");
}

#[tokio::test]
async fn no_challenges_at_all_is_an_answer_not_an_error() {
    let h = Harness::start().await;
    for part in ["badgeChallenge", "virtualChallenge", "adHocChallenge"] {
        h.fake.push_fault(FaultRule::always(Fault::NoContent).on_path(part));
    }
    let (text, data) = h.call_ok("get_challenges", json!({})).await;
    assert_eq!(data["in_progress"], json!([]));
    assert_eq!(data["available"], json!([]));
    assert_eq!(text, "You are in no challenge right now.");
}

#[tokio::test]
async fn challenges_survive_an_expired_session_and_a_429() {
    let h = Harness::start().await;
    h.fake.expire_access_tokens();
    h.fake.push_fault(
        FaultRule::times(Fault::RateLimited { retry_after_secs: Some(1) }, 1).on_path("virtualChallenge"),
    );
    h.fake.push_fault(FaultRule::times(Fault::ExpireSession, 1).on_path("badgeChallenge/available"));
    let (_, data) = h.call_ok("get_challenges", json!({})).await;
    assert!(data["in_progress"].as_array().unwrap().iter().any(|r| r["kind"] == "virtual challenge"));
    assert!(h.fake.requests().iter().any(|r| r.status == 429));
}

// ---------------------------------------------------------------------------------------------
// get_social

#[tokio::test]
async fn connections_and_groups_match_garmins_lists() {
    let h = Harness::start().await;
    let (text, data) = h.call_ok("get_social", json!({})).await;
    let requests: Vec<_> = h.fake.requests().into_iter().filter(|r| r.path.starts_with("/gc-api")).collect();
    let conn = requests
        .iter()
        .find(|r| r.path == "/gc-api/userprofile-service/socialProfile/connections/pagination/fake-athlete-1")
        .unwrap();
    assert_eq!(conn.query.as_deref(), Some("start=0&limit=20"));
    assert!(paths(&h).contains("/gc-api/group-service/groups/fake-athlete-1"));
    assert!(paths(&h).contains("/gc-api/userprofile-service/connection/pending"));
    assert_eq!(requests.len(), 3);
    assert_no_repeated_request(&h);

    let c = client(&h);
    let connections = c.social().connections(0, 100).await.unwrap();
    let groups = c.social().groups().await.unwrap();
    assert_eq!(data["connections_total"].as_i64(), connections.total);
    let got: Vec<(&str, &str)> = data["connections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["display_name"].as_str().unwrap(), p["full_name"].as_str().unwrap()))
        .collect();
    let want: Vec<(&str, &str)> = connections
        .connections
        .iter()
        .map(|p| (p.display_name.as_deref().unwrap(), p.full_name.as_deref().unwrap()))
        .collect();
    assert_eq!(got, want);
    assert_eq!(data["groups_total"], groups.len());
    assert_eq!(data["groups"][0]["name"].as_str(), groups[0].group_name.as_deref());
    assert_eq!(data["groups"][0]["members"].as_f64(), groups[0].member_count);
    assert_eq!(data["pending_requests"], 0);
    assert!(text.contains("2 connections") && text.contains("Sam Sample"), "{text}");
    assert!(text.contains("Sampletown Running Club (3 members)"), "{text}");
}

#[tokio::test]
async fn the_connection_limit_is_sent_to_garmin_and_the_total_still_counts_all() {
    let h = Harness::start().await;
    let (_, data) = h.call_ok("get_social", json!({"limit": 1})).await;
    assert_eq!(data["connections"].as_array().unwrap().len(), 1);
    assert_eq!(data["connections_total"], 2);
    let q =
        h.fake.requests().into_iter().find(|r| r.path.contains("/connections/pagination/")).unwrap().query;
    assert_eq!(q.as_deref(), Some("start=0&limit=1"));
}

#[tokio::test]
async fn no_connections_or_groups_is_an_answer() {
    let h = Harness::start().await;
    h.fake.push_fault(FaultRule::always(Fault::NoContent).on_path("connections/pagination"));
    h.fake.push_fault(FaultRule::always(Fault::NoContent).on_path("group-service"));
    let (text, data) = h.call_ok("get_social", json!({})).await;
    assert_eq!(data["connections_total"], 0);
    assert_eq!(data["groups"], json!([]));
    assert!(
        text.starts_with("You have no Garmin Connect connections.") && text.contains("no groups"),
        "{text}"
    );
}

#[tokio::test]
async fn social_survives_an_expired_session_and_a_429() {
    let h = Harness::start().await;
    h.fake.expire_access_tokens();
    h.fake.push_fault(
        FaultRule::times(Fault::RateLimited { retry_after_secs: Some(1) }, 1).on_path("group-service"),
    );
    let (_, data) = h.call_ok("get_social", json!({})).await;
    assert_eq!(data["groups_total"], 1);
    assert!(h.fake.requests().iter().any(|r| r.status == 429));
}

#[tokio::test]
async fn achievements_challenges_and_social_fit_the_budget() {
    let h = Harness::start().await;
    for tool in ["get_achievements", "get_challenges", "get_social"] {
        let size = all_text(&h.call(tool, json!({})).await).len();
        assert!(size <= output::BUDGET_BYTES, "{tool}: {size} bytes");
        eprintln!("{tool}: {size} bytes");
    }
}

#[tokio::test]
async fn a_session_that_does_not_know_the_account_learns_it_once_per_call() {
    for tool in ["get_social", "get_achievements"] {
        let h = Harness::start().await;
        let mut session = h.store.load().unwrap().unwrap();
        session.display_name = None;
        session.profile_id = None;
        h.store.save(&session).unwrap();
        h.call_ok(tool, json!({})).await;
        let social = h.gc_api_paths().iter().filter(|p| p.ends_with("/socialProfile")).count();
        assert_eq!(social, 1, "{tool}: {:?}", h.gc_api_paths());
        assert_no_repeated_request(&h);
    }
}
