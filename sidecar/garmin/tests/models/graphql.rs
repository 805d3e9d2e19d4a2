//! Run: `cargo test -p garmin --test models graphql::`.
//!
//! The `response` parts of the GraphQL fixtures whose shapes the REST models share (GraphQL
//! answers reuse the REST bodies; placeholders such as `"user_id: int"` read as absent ids).

use garmin::models::activities::ActivitySummary;
use garmin::models::challenges::{BadgeChallenge, Goal};
use garmin::models::events::Event;
use garmin::models::metrics::{
    HeatAltitudeAcclimation, MaxMetrics, TrainingLoadBalance, TrainingReadiness, TrainingStatusLatest,
    TrainingStatusReport,
};
use garmin::models::wellness::{DailySleep, HrvRange, WeightEntry, WeightRange};
use garmin::models::workouts::ScheduledWorkoutSummary;
use serde::de::DeserializeOwned;

use super::{close, fixture_text};

/// GraphQL fixtures decoded here, and those whose shape no model covers yet.
pub const FILES: &[&str] = &[
    "activities_scalar.json",
    "badge_challenges_scalar.json",
    "expeditions_challenges_scalar.json",
    "heat_altitude_acclimation_scalar.json",
    "hrv_scalar.json",
    "latest_weight_scalar.json",
    "my_day_card_events_scalar.json",
    "sleep_summaries_scalar.json",
    "training_load_balance_scalar.json",
    "training_readiness_range_scalar.json",
    "training_status_daily_scalar.json",
    "training_status_weekly_scalar.json",
    "user_goals_scalar.json",
    "vo2max_scalar.json",
    "weight_scalar.json",
    "workout_schedule_summaries_scalar_empty.json",
    // Not modelled: activityStatsScalar, enduranceScoreScalar (weekly groups), epochChartScalar,
    // trainingPlanScalar (empty), userDailySummaryV2Scalar.
];

/// `response` at `pointer` (e.g. `/data/hrvScalar`) of `graphql/<name>`, decoded as `T`.
fn gql<T: DeserializeOwned>(name: &str, pointer: &str) -> T {
    let whole: serde_json::Value = serde_json::from_str(&fixture_text(&format!("graphql/{name}"))).unwrap();
    let part =
        whole.pointer(&format!("/response{pointer}")).unwrap_or_else(|| panic!("{name}: no {pointer}"));
    serde_json::from_value(part.clone()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn activities_and_sleep() {
    let list: Vec<ActivitySummary> = gql("activities_scalar.json", "/data/activitiesScalar/activityList");
    assert_eq!(list.len(), 8);
    assert_eq!(list[0].type_key(), Some("running"));
    assert!(list[0].start_time_gmt.is_some());

    let nights: Vec<DailySleep> = gql("sleep_summaries_scalar.json", "/data/sleepSummariesScalar");
    assert_eq!(nights.len(), 28);
    close(nights[0].sleep_time_seconds, 28800.0);
    // `"userProfilePK": "user_id: int"` is a placeholder, not an id.
    assert_eq!(nights[0].user_profile_pk, None);
}

#[test]
fn challenges_goals_and_events() {
    let badges: Vec<BadgeChallenge> = gql("badge_challenges_scalar.json", "/data/badgeChallengesScalar");
    assert_eq!(badges.len(), 3);
    assert_eq!(badges[0].badge_challenge_name.as_deref(), Some("July Weekend 10K"));
    let expeditions: Vec<BadgeChallenge> =
        gql("expeditions_challenges_scalar.json", "/data/expeditionsChallengesScalar");
    assert_eq!(expeditions[0].badge_challenge_name.as_deref(), Some("Aconcagua"));
    close(expeditions[0].target_value, 6961.0);

    let goals: Vec<Goal> = gql("user_goals_scalar.json", "/data/userGoalsScalar");
    assert_eq!(goals.len(), 4);
    assert_eq!(goals[0].user_goal_type.as_deref(), Some("HYDRATION"));
    close(goals[0].goal_value, 2000.0);

    let events: Vec<Event> = gql("my_day_card_events_scalar.json", "/data/myDayCardEventsScalar/eventMyDay");
    assert_eq!(events[0].event_name.as_deref(), Some("Example Seaside 5k (5K)"));
    close(events[0].distance_meters(), 5000.0);
}

#[test]
fn training_metrics() {
    let hrv: HrvRange = gql("hrv_scalar.json", "/data/heartRateVariabilityScalar");
    assert!(!hrv.hrv_summaries.is_empty());
    close(hrv.hrv_summaries[0].last_night_avg, 64.0);

    let readiness: Vec<TrainingReadiness> =
        gql("training_readiness_range_scalar.json", "/data/trainingReadinessRangeScalar");
    close(readiness[0].score, 83.0);

    let vo2: Vec<MaxMetrics> = gql("vo2max_scalar.json", "/data/vo2MaxScalar");
    close(vo2[0].generic.as_ref().unwrap().vo2_max_precise_value, 60.5);

    let balance: TrainingLoadBalance =
        gql("training_load_balance_scalar.json", "/data/trainingLoadBalanceScalar");
    assert!(balance.metrics_training_load_balance_dto_map.contains_key("3900000004"));

    let daily: TrainingStatusLatest =
        gql("training_status_daily_scalar.json", "/data/trainingStatusDailyScalar");
    assert_eq!(daily.latest_training_status_data["3900000004"].training_status, Some(4));

    let weekly: TrainingStatusReport =
        gql("training_status_weekly_scalar.json", "/data/trainingStatusWeeklyScalar");
    assert!(!weekly.report_data["3900000004"].is_empty());

    let heat: HeatAltitudeAcclimation =
        gql("heat_altitude_acclimation_scalar.json", "/data/heatAltitudeAcclimationScalar");
    close(heat.heat_acclimation_percentage, 100.0);
    assert_eq!(heat.heat_trend.as_deref(), Some("ACCLIMATIZED"));
}

#[test]
fn weight_and_schedule_summaries() {
    let latest: WeightEntry = gql("latest_weight_scalar.json", "/data/latestWeightScalar");
    close(latest.weight, 82372.0);
    assert_eq!(latest.source_type.as_deref(), Some("MFP"));

    let range: WeightRange = gql("weight_scalar.json", "/data/weightScalar");
    close(range.daily_weight_summaries[0].max_weight, 82372.0);

    let none: Vec<ScheduledWorkoutSummary> =
        gql("workout_schedule_summaries_scalar_empty.json", "/data/workoutScheduleSummariesScalar");
    assert!(none.is_empty());
}
