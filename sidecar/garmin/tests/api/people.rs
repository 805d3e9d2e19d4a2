//! Run: `cargo test -p garmin --test api people::`.
//!
//! Gear, badges, challenges, goals, connections and groups.

use garmin::api::{ActivitySearch, BadgeChallengeStatus, GoalStatus};

use super::support::start;

#[tokio::test]
async fn gear_and_the_distance_on_it() {
    let env = start().await;
    let api = env.client.gear();
    let gear = api.list().await.unwrap();
    assert!(gear.len() >= 3);
    assert!(gear.iter().any(|g| g.is_retired()));
    let shoes =
        gear.iter().find(|g| !g.is_retired() && g.gear_type_name.as_deref() == Some("Shoes")).unwrap();
    assert!(!shoes.name().is_empty());
    let stats = api.stats(shoes.uuid.as_deref().unwrap()).await.unwrap().unwrap();
    assert!(stats.total_distance.unwrap() > 0.0 && stats.total_activities.unwrap() > 0.0);
    assert!(!api.types().await.unwrap().is_empty());

    let run = env
        .client
        .activities()
        .search(&ActivitySearch::new().limit(1).activity_type("running"))
        .await
        .unwrap()
        .remove(0);
    let used = api.for_activity(run.activity_id.unwrap()).await.unwrap();
    assert_eq!(used.len(), 1);
}

#[tokio::test]
async fn badges_challenges_and_goals() {
    let env = start().await;
    let api = env.client.challenges();
    let earned = api.badges_earned().await.unwrap();
    assert!(earned.iter().all(|b| b.badge_earned_date.is_some()) && !earned.is_empty());
    assert!(!api.badges_available().await.unwrap().is_empty());
    let available = api.badge_challenges(BadgeChallengeStatus::Available).await.unwrap();
    assert!(available.iter().all(|c| c.badge_challenge_name.is_some()));
    let _ = api.badge_challenges(BadgeChallengeStatus::Completed).await.unwrap();
    let _ = api.badge_challenges(BadgeChallengeStatus::NonCompleted).await.unwrap();
    assert!(!api.virtual_challenges(0, 10).await.unwrap().is_empty());
    let goals = api.goals(GoalStatus::Active, 0, 10).await.unwrap();
    assert!(goals.iter().any(|g| g.user_goal_type.as_deref() == Some("STEPS")));
}

#[tokio::test]
async fn connections_and_groups() {
    let env = start().await;
    let connections = env.client.social().connections(0, 10).await.unwrap();
    assert!(!connections.connections.is_empty());
    assert_eq!(connections.total, Some(i64::try_from(connections.connections.len()).unwrap()));
    let groups = env.client.social().groups().await.unwrap();
    assert!(groups[0].group_id.is_some() && groups[0].group_name.is_some());
}

#[tokio::test]
async fn the_fakes_adhoc_challenges_pending_requests_and_training_plans_decode_into_their_models() {
    let env = start().await;
    // The fake's answers: no open ad-hoc challenge, no pending request, one Garmin Coach plan whose
    // adaptive detail carries its goal race, scheduled workouts and phases.
    assert!(env.client.challenges().adhoc_open().await.unwrap().is_empty());
    assert_eq!(env.client.social().pending().await.unwrap().map(|p| p.len()), Some(0));
    let plans = env.client.workouts().training_plans().await.unwrap();
    assert_eq!(plans.len(), 1);
    assert!(plans[0].is_adaptive() && plans[0].task_list.is_empty());
    let id = plans[0].training_plan_id.unwrap();
    let detail = env.client.workouts().training_plan(id, true).await.unwrap().unwrap();
    assert!(detail.goal_race().and_then(|r| r.race_name.as_deref()).is_some());
    assert!(!detail.task_list.is_empty() && !detail.phases().is_empty());
}
