//! Badges, badge, virtual and ad-hoc challenges, and goals (`badge-service`,
//! `badgechallenge-service`, `adhocchallenge-service`, `goal-service`; the GraphQL twins `badgeChallengesScalar` and `userGoalsScalar` share shapes).

use chrono::{NaiveDate, NaiveDateTime};
use serde::{Deserialize, Serialize};

use super::de;

/// A badge, earned or available.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Badge {
    /// Badge id.
    #[serde(deserialize_with = "de::id")]
    pub badge_id: Option<u64>,
    /// Key, e.g. `challenge_run_10k_2024_07`.
    pub badge_key: Option<String>,
    /// Name.
    pub badge_name: Option<String>,
    /// Category id.
    #[serde(deserialize_with = "de::int")]
    pub badge_category_id: Option<i64>,
    /// Difficulty id.
    #[serde(deserialize_with = "de::int")]
    pub badge_difficulty_id: Option<i64>,
    /// Points.
    pub badge_points: Option<f64>,
    /// When earned (null when not yet).
    #[serde(deserialize_with = "de::local")]
    pub badge_earned_date: Option<NaiveDateTime>,
    /// Times earned.
    pub badge_earned_number: Option<f64>,
    /// Progress towards it.
    pub badge_progress_value: Option<f64>,
    /// Target.
    pub badge_target_value: Option<f64>,
}

/// A badge challenge (`badgechallenge-service/badgeChallenge/{status}`, `badgeChallengesScalar`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct BadgeChallenge {
    /// Uuid.
    pub uuid: Option<String>,
    /// Name.
    pub badge_challenge_name: Option<String>,
    /// Badge key.
    pub badge_key: Option<String>,
    /// Category id.
    #[serde(deserialize_with = "de::int")]
    pub challenge_category_id: Option<i64>,
    /// Starts.
    #[serde(deserialize_with = "de::local")]
    pub start_date: Option<NaiveDateTime>,
    /// Ends.
    #[serde(deserialize_with = "de::local")]
    pub end_date: Option<NaiveDateTime>,
    /// Progress.
    pub progress_value: Option<f64>,
    /// Target.
    pub target_value: Option<f64>,
    /// Unit id of progress and target.
    #[serde(deserialize_with = "de::int")]
    pub unit_id: Option<i64>,
    /// Status id.
    #[serde(deserialize_with = "de::int")]
    pub badge_challenge_status_id: Option<i64>,
}

/// A virtual challenge in progress (`…/virtualChallenge/inProgress`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct VirtualChallenge {
    /// Uuid.
    pub uuid: Option<String>,
    /// Name.
    #[serde(alias = "badgeChallengeName")]
    pub challenge_name: Option<String>,
    /// Starts.
    #[serde(deserialize_with = "de::local")]
    pub start_date: Option<NaiveDateTime>,
    /// Ends.
    #[serde(deserialize_with = "de::local")]
    pub end_date: Option<NaiveDateTime>,
    /// Progress.
    pub progress_value: Option<f64>,
    /// Target.
    pub target_value: Option<f64>,
    /// Unit id.
    #[serde(deserialize_with = "de::int")]
    pub unit_id: Option<i64>,
}

/// A goal (`goal-service/goal/goals`, `userGoalsScalar`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Goal {
    /// Goal key.
    #[serde(deserialize_with = "de::id")]
    pub user_goal_pk: Option<u64>,
    /// `MANUAL`, `AUTO`…
    pub user_goal_category: Option<String>,
    /// `STEPS`, `HYDRATION`, `DISTANCE`, `WEIGHT`…
    pub user_goal_type: Option<String>,
    /// Name.
    pub goal_name: Option<String>,
    /// Target value (unit depends on the type).
    pub goal_value: Option<f64>,
    /// Progress so far, when Garmin sends it.
    pub progress_value: Option<f64>,
    /// Starts.
    #[serde(deserialize_with = "de::date")]
    pub start_date: Option<NaiveDate>,
    /// Ends.
    #[serde(deserialize_with = "de::date")]
    pub end_date: Option<NaiveDate>,
    /// `DAILY`, `WEEKLY`…
    pub tracking_period_type: Option<String>,
    /// Activity type id the goal is for.
    #[serde(deserialize_with = "de::int")]
    pub activity_type_pk: Option<i64>,
}

/// An ad-hoc challenge with friends (`adhocchallenge-service/adHocChallenge/nonCompleted`,
/// `…/historical`, `…/{uuid}`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AdHocChallenge {
    /// Uuid.
    pub uuid: Option<String>,
    /// Name.
    pub ad_hoc_challenge_name: Option<String>,
    /// Starts (local).
    #[serde(deserialize_with = "de::date")]
    pub start_date: Option<NaiveDate>,
    /// Ends (local).
    #[serde(deserialize_with = "de::date")]
    pub end_date: Option<NaiveDate>,
    /// The athlete's place among the players.
    #[serde(deserialize_with = "de::int")]
    pub user_ranking: Option<i64>,
}
