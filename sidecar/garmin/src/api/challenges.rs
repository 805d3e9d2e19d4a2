//! Badges, challenges and goals (reference §4.8).

use super::Many;
use crate::models::challenges::{AdHocChallenge, Badge, BadgeChallenge, Goal, VirtualChallenge};
use crate::{Client, Result};

/// Which badge challenges to list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BadgeChallengeStatus {
    /// Joined and finished.
    Completed,
    /// Open to join.
    Available,
    /// Joined, not finished.
    NonCompleted,
}

impl BadgeChallengeStatus {
    fn path(self) -> &'static str {
        match self {
            BadgeChallengeStatus::Completed => "completed",
            BadgeChallengeStatus::Available => "available",
            BadgeChallengeStatus::NonCompleted => "non-completed",
        }
    }
}

/// Which goals to list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoalStatus {
    /// Running now.
    Active,
    /// Starting later.
    Future,
    /// Ended.
    Past,
}

impl GoalStatus {
    fn query(self) -> &'static str {
        match self {
            GoalStatus::Active => "active",
            GoalStatus::Future => "future",
            GoalStatus::Past => "past",
        }
    }
}

/// Badges, challenges and goals (reference §4.8). Made by [`Client::challenges`].
#[derive(Clone, Copy, Debug)]
pub struct ChallengesApi<'a> {
    pub(crate) client: &'a Client,
}

impl ChallengesApi<'_> {
    /// `GET /gc-api/badge-service/badge/earned` — badges earned.
    pub async fn badges_earned(&self) -> Result<Vec<Badge>> {
        Ok(self.client.get_json("/badge-service/badge/earned", &[]).await?.unwrap_or_default())
    }

    /// `GET /gc-api/badge-service/badge/available?showExclusiveBadge=true` — badges still to earn.
    pub async fn badges_available(&self) -> Result<Vec<Badge>> {
        let query = [("showExclusiveBadge", "true".to_owned())];
        Ok(self.client.get_json("/badge-service/badge/available", &query).await?.unwrap_or_default())
    }

    /// `GET /gc-api/badgechallenge-service/badgeChallenge/{completed|available|non-completed}` —
    /// badge challenges.
    pub async fn badge_challenges(&self, status: BadgeChallengeStatus) -> Result<Vec<BadgeChallenge>> {
        let path = format!("/badgechallenge-service/badgeChallenge/{}", status.path());
        let answer: Option<Many<BadgeChallenge>> = self.client.get_json(&path, &[]).await?;
        Ok(answer.map(Many::into_vec).unwrap_or_default().into_iter().filter(|c| c.uuid.is_some()).collect())
    }

    /// `GET /gc-api/badgechallenge-service/virtualChallenge/inProgress?start&limit` — virtual
    /// challenges in progress (`start` 0-based).
    pub async fn virtual_challenges(&self, start: u32, limit: u32) -> Result<Vec<VirtualChallenge>> {
        let query = [("start", start.to_string()), ("limit", limit.clamp(1, 1000).to_string())];
        let path = "/badgechallenge-service/virtualChallenge/inProgress";
        let answer: Option<Many<VirtualChallenge>> = self.client.get_json(path, &query).await?;
        Ok(answer.map(Many::into_vec).unwrap_or_default().into_iter().filter(|c| c.uuid.is_some()).collect())
    }

    /// `GET /gc-api/adhocchallenge-service/adHocChallenge/nonCompleted` — ad-hoc challenges with
    /// friends not finished yet (those without a name are dropped).
    pub async fn adhoc_open(&self) -> Result<Vec<AdHocChallenge>> {
        let path = "/adhocchallenge-service/adHocChallenge/nonCompleted";
        let answer: Option<Many<AdHocChallenge>> = self.client.get_json(path, &[]).await?;
        Ok(answer
            .map(Many::into_vec)
            .unwrap_or_default()
            .into_iter()
            .filter(|c| c.ad_hoc_challenge_name.is_some())
            .collect())
    }

    /// `GET /gc-api/goal-service/goal/goals?status&start&limit&sortOrder=asc` — goals (`start`
    /// 0-based).
    pub async fn goals(&self, status: GoalStatus, start: u32, limit: u32) -> Result<Vec<Goal>> {
        let query = [
            ("status", status.query().to_owned()),
            ("start", start.to_string()),
            ("limit", limit.clamp(1, 1000).to_string()),
            ("sortOrder", "asc".to_owned()),
        ];
        Ok(self.client.get_json("/goal-service/goal/goals", &query).await?.unwrap_or_default())
    }
}
