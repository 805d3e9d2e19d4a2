//! The `social` toolset: `get_achievements` (badges, level and points, goals in progress),
//! `get_challenges` (badge, virtual and ad-hoc challenges available or under way) and
//! `get_social` (connections and groups).
//!
//! Garmin Connect's social graph is mutual connections (no separate followers/following), and
//! the level and points live on the social profile (`userLevel`, `userPoint`). Every read is a
//! typed model of the `garmin` client (social profile, ad-hoc challenges, pending requests).

use std::collections::HashSet;

use chrono::NaiveDateTime;
use garmin::api::{BadgeChallengeStatus, GoalStatus};
use garmin::models::challenges::{AdHocChallenge, Badge, BadgeChallenge, Goal, VirtualChallenge};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{schemars, tool, tool_router};
use serde::{Deserialize, Serialize};

use crate::domain::account::know_account;
use crate::domain::parts::{part, with_missing};
use crate::output::{self, Answer};
use crate::server::GarminMcp;
use crate::tool_error::ToolError;

/// Most goals and virtual challenges read.
const MAX_ROWS: u32 = 100;
/// JSON bytes an answer's data may use, leaving room for the summary.
const DATA_BUDGET: usize = output::BUDGET_BYTES - 1536;

fn json_len<T: Serialize>(value: &T) -> usize {
    serde_json::to_string(value).map_or(usize::MAX, |s| s.len())
}

fn check_limit(limit: Option<u32>) -> Result<usize, ToolError> {
    let limit = limit.unwrap_or(20);
    if !(1..=100).contains(&limit) {
        return Err(ToolError::invalid(format!("limit must be 1–100, got {limit}")));
    }
    Ok(limit as usize)
}

// ---------------------------------------------------------------------------------------------
// get_achievements

/// Arguments of `get_achievements`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct GetAchievementsArgs {
    /// Most badges to list, most recent first (default 20).
    #[serde(default)]
    #[schemars(range(min = 1, max = 100))]
    pub limit: Option<u32>,
}

/// Badges, level and goals.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Achievements {
    /// Garmin Connect level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<i64>,
    /// Points towards levels (Garmin's total).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total_points: Option<i64>,
    /// Points at which the next level starts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_level_at_points: Option<i64>,
    /// Badges earned.
    pub badges_earned: usize,
    /// Points of the badges earned.
    pub badge_points: f64,
    /// Badges earned, most recent first (at most `limit`).
    pub badges: Vec<BadgeView>,
    /// Goals running now.
    pub goals: Vec<GoalView>,
    /// Parts Garmin could not give, with why (the rest is still shown).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
}

/// One earned badge.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct BadgeView {
    /// Badge id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub badge_id: Option<u64>,
    /// Name.
    pub name: String,
    /// Earned on (`YYYY-MM-DD`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub earned: Option<String>,
    /// Points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<f64>,
    /// Times earned, when more than once.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub times: Option<u32>,
}

/// One goal in progress.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct GoalView {
    /// Goal id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub goal_id: Option<u64>,
    /// What it counts, e.g. `steps`, `weight`, `intensity minutes`.
    #[serde(rename = "type")]
    pub kind: String,
    /// Target in words, e.g. `10,000 steps a day`, `69 kg`.
    pub target: String,
    /// Progress in words, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub progress: Option<String>,
    /// Progress towards the target (%), when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub progress_pct: Option<f64>,
    /// Started (`YYYY-MM-DD`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_date: Option<String>,
    /// Ends (`YYYY-MM-DD`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_date: Option<String>,
}

// ---------------------------------------------------------------------------------------------
// get_challenges

/// Arguments of `get_challenges`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct GetChallengesArgs {
    /// Most challenges to list per group (default 20).
    #[serde(default)]
    #[schemars(range(min = 1, max = 100))]
    pub limit: Option<u32>,
}

/// Challenges under way and open to join.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Challenges {
    /// Challenges the athlete has joined and not finished.
    pub in_progress: Vec<ChallengeView>,
    /// Challenges open to join.
    pub available: Vec<ChallengeView>,
    /// Parts Garmin could not give, with why (the rest is still shown).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
}

/// One challenge.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct ChallengeView {
    /// `badge challenge`, `virtual challenge` or `ad-hoc challenge`.
    pub kind: String,
    /// Name.
    pub name: String,
    /// Starts (`YYYY-MM-DD`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_date: Option<String>,
    /// Ends (`YYYY-MM-DD`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_date: Option<String>,
    /// Goal in words, e.g. `20 activities`, `300,000 steps`, `6,961 m climbed`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub goal: Option<String>,
    /// Progress in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub progress: Option<String>,
    /// Progress towards the goal (%).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub progress_pct: Option<f64>,
    /// Ad-hoc challenges: the athlete's place.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ranking: Option<i64>,
    /// Challenge uuid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uuid: Option<String>,
}

// ---------------------------------------------------------------------------------------------
// get_social

/// Arguments of `get_social`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct GetSocialArgs {
    /// Most connections and groups to list (default 20).
    #[serde(default)]
    #[schemars(range(min = 1, max = 100))]
    pub limit: Option<u32>,
}

/// Connections and groups.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct SocialView {
    /// Connections (Garmin's connections are mutual: they are both followers and following).
    pub connections_total: usize,
    /// Connection requests waiting for an answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending_requests: Option<usize>,
    /// Connections (at most `limit`).
    pub connections: Vec<PersonView>,
    /// Groups the athlete belongs to.
    pub groups_total: usize,
    /// Groups (at most `limit`).
    pub groups: Vec<GroupView>,
    /// Parts Garmin could not give, with why (the rest is still shown).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
}

/// Another athlete.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct PersonView {
    /// displayName.
    pub display_name: String,
    /// Full name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub full_name: Option<String>,
    /// Location text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
}

/// A group.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct GroupView {
    /// Group id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group_id: Option<u64>,
    /// Name.
    pub name: String,
    /// Members.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub members: Option<u64>,
    /// Location text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// `public`, `private`…
    #[serde(skip_serializing_if = "Option::is_none")]
    pub privacy: Option<String>,
}

/// The circle from Garmin's answers, at most `limit` names of each kind and within the answer's
/// budget (the totals count all).
fn social_view(
    connections: &garmin::models::social::Connections,
    groups: &[garmin::models::social::Group],
    pending: Option<&[garmin::models::social::Connection]>,
    limit: usize,
    missing: Vec<String>,
) -> SocialView {
    let people: Vec<PersonView> = connections
        .connections
        .iter()
        .filter_map(|c| {
            Some(PersonView {
                display_name: c.display_name.clone()?,
                full_name: c.full_name.clone().filter(|n| !n.trim().is_empty()),
                location: c.location.clone().filter(|l| !l.trim().is_empty()),
            })
        })
        .take(limit)
        .collect();
    let connections_total =
        connections.total.and_then(|t| usize::try_from(t).ok()).unwrap_or(people.len()).max(people.len());
    let mut view = SocialView {
        connections_total,
        pending_requests: pending.map(<[_]>::len),
        connections: people,
        groups_total: groups.len(),
        groups: groups
            .iter()
            .take(limit)
            .map(|g| GroupView {
                group_id: g.group_id,
                name: g.group_name.clone().unwrap_or_else(|| "Group".to_owned()),
                members: g.member_count.map(|n| n.max(0.0).round() as u64),
                location: g.location.clone().filter(|l| !l.trim().is_empty()),
                privacy: g.group_privacy.as_deref().map(str::to_lowercase),
            })
            .collect(),
        missing,
    };
    // A large `limit` must not blow the budget: fewer names (the totals count all).
    while json_len(&view) > DATA_BUDGET {
        let longer = if view.groups.len() > view.connections.len() {
            view.groups.pop().is_some()
        } else {
            view.connections.pop().is_some()
        };
        if !longer {
            break;
        }
    }
    view
}

#[tool_router(router = social_tools, vis = "pub(crate)")]
impl GarminMcp {
    /// The athlete's Garmin achievements: badges earned (most recent first, with date and points),
    /// Garmin Connect level and total points, and goals in progress (steps, weight, hydration,
    /// intensity minutes…) with target and progress. Use it for "what badges did I earn?",
    /// "what level am I?" or "how am I doing on my goals?".
    #[tool(
        name = "get_achievements",
        annotations(
            title = "Badges, level and goals",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<Achievements>()
    )]
    async fn get_achievements(
        &self,
        Parameters(args): Parameters<GetAchievementsArgs>,
    ) -> Result<Answer<Achievements>, ToolError> {
        let limit = check_limit(args.limit)?;
        let client = self.web_session().await?;
        // The badges are the answer; level, points and goals complete it (named in `missing`
        // with why when they fail).
        let (badges, profile, goals) = futures::join!(
            async { client.challenges().badges_earned().await },
            async { client.profile().social_profile().await },
            async { client.challenges().goals(GoalStatus::Active, 0, MAX_ROWS).await },
        );
        let badges = badges?;
        let mut missing = Vec::new();
        let profile = part(&mut missing, "level and points", profile).unwrap_or_default();
        let goals = part(&mut missing, "goals", goals).unwrap_or_default();
        // A daily steps goal without Garmin's progress: today's steps so far tell it. (Skipped when
        // the session does not know the displayName: learning it would read the profile twice.)
        let today = self.today();
        let needs_steps = goals.iter().any(|g| is_daily_steps(g) && g.progress_value.is_none())
            && !client.display_name().is_empty();
        let steps_today = if needs_steps {
            part(&mut missing, "today's steps", client.wellness().daily_summary(today).await)
                .flatten()
                .and_then(|s| s.total_steps)
        } else {
            None
        };
        let mut earned: Vec<&Badge> = badges.iter().filter(|b| b.badge_earned_date.is_some()).collect();
        earned.sort_by_key(|b| std::cmp::Reverse(b.badge_earned_date));
        let mut view = Achievements {
            level: profile.user_level,
            total_points: profile.user_point.map(|v| v.round() as i64),
            next_level_at_points: profile.level_point_threshold.map(|v| v.round() as i64),
            badges_earned: earned.len(),
            badge_points: earned.iter().filter_map(|b| b.badge_points).sum(),
            badges: earned.iter().take(limit).map(|b| badge_view(b)).collect(),
            goals: goals.iter().map(|g| goal_view(g, steps_today)).collect(),
            missing,
        };
        // A large `limit` must not blow the budget: fewer badges (the totals still count all).
        while json_len(&view) > DATA_BUDGET && view.badges.pop().is_some() {}
        let summary = with_missing(achievements_summary(&view), &view.missing);
        Ok(self.answer(summary, view))
    }

    /// Garmin challenges the athlete has joined and those open to join: monthly badge
    /// challenges, virtual challenges (expeditions) and ad-hoc challenges with friends — name,
    /// dates, goal and progress. Use it for "which challenges am I in?" or "how far am I in my
    /// step challenge?".
    #[tool(
        name = "get_challenges",
        annotations(
            title = "Challenges",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<Challenges>()
    )]
    async fn get_challenges(
        &self,
        Parameters(args): Parameters<GetChallengesArgs>,
    ) -> Result<Answer<Challenges>, ToolError> {
        let limit = check_limit(args.limit)?;
        let client = self.web_session().await?;
        // The joined badge challenges are the answer; the other lists complete it (named in
        // `missing` with why when they fail).
        let (joined, open, virtuals, adhoc) = futures::join!(
            async { client.challenges().badge_challenges(BadgeChallengeStatus::NonCompleted).await },
            async { client.challenges().badge_challenges(BadgeChallengeStatus::Available).await },
            async { client.challenges().virtual_challenges(0, MAX_ROWS).await },
            async {
                match client.challenges().adhoc_open().await {
                    Err(garmin::Error::NotFound { .. }) => Ok(Vec::new()),
                    other => other,
                }
            },
        );
        let joined = joined?;
        let mut missing = Vec::new();
        let open = part(&mut missing, "challenges open to join", open).unwrap_or_default();
        let virtuals = part(&mut missing, "virtual challenges", virtuals).unwrap_or_default();
        let adhoc = part(&mut missing, "challenges with friends", adhoc).unwrap_or_default();
        let joined_ids: HashSet<&str> = joined.iter().filter_map(|c| c.uuid.as_deref()).collect();
        let mut in_progress: Vec<ChallengeView> = joined.iter().map(badge_challenge_view).collect();
        in_progress.extend(virtuals.iter().map(virtual_view));
        in_progress.extend(adhoc.iter().filter_map(adhoc_view));
        let available: Vec<ChallengeView> = open
            .iter()
            .filter(|c| c.uuid.as_deref().is_none_or(|u| !joined_ids.contains(u)))
            .map(badge_challenge_view)
            .collect();
        let (in_total, open_total) = (in_progress.len(), available.len());
        in_progress.truncate(limit);
        let mut available = available;
        available.truncate(limit);
        let mut view = Challenges { in_progress, available, missing };
        // A large `limit` must not blow the budget: fewer rows (the summary counts all).
        while json_len(&view) > DATA_BUDGET {
            let longer = if view.available.len() > view.in_progress.len() {
                &mut view.available
            } else {
                &mut view.in_progress
            };
            if longer.pop().is_none() {
                break;
            }
        }
        let summary = with_missing(challenges_summary(&view, in_total, open_total), &view.missing);
        Ok(self.answer(summary, view))
    }

    /// The athlete's Garmin Connect social circle: number of connections (Garmin's connections are
    /// mutual, there are no separate followers/following) with names, pending connection
    /// requests, and the groups they belong to with member counts. Use it for "who am I connected
    /// to?" or "which clubs am I in?".
    #[tool(
        name = "get_social",
        annotations(
            title = "Connections and groups",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<SocialView>()
    )]
    async fn get_social(
        &self,
        Parameters(args): Parameters<GetSocialArgs>,
    ) -> Result<Answer<SocialView>, ToolError> {
        let limit = check_limit(args.limit)?;
        let client = self.web_session().await?;
        know_account(&client).await?;
        // The connections are the answer; groups and pending requests complete it (named in
        // `missing` with why when they fail).
        let (connections, groups, pending) = futures::join!(
            async { client.social().connections(0, limit as u32).await },
            async { client.social().groups().await },
            async {
                match client.social().pending().await {
                    Err(garmin::Error::NotFound { .. }) => Ok(None),
                    other => other,
                }
            },
        );
        let connections = connections?;
        let mut missing = Vec::new();
        let groups = part(&mut missing, "groups", groups).unwrap_or_default();
        let pending = part(&mut missing, "pending requests", pending).flatten();
        let view = social_view(&connections, &groups, pending.as_deref(), limit, missing);
        let summary = with_missing(social_summary(&view), &view.missing);
        Ok(self.answer(summary, view))
    }
}

// ---------------------------------------------------------------------------------------------
// shaping

fn date_of(t: Option<NaiveDateTime>) -> Option<String> {
    t.map(|t| t.date().to_string())
}

/// `1234567.0` → `1,234,567`.
fn grouped(v: f64) -> String {
    display::thousands(v.round() as i64)
}

fn pct(progress: f64, target: f64) -> Option<f64> {
    (target > 0.0 && progress.is_finite()).then(|| (progress / target * 100.0).round())
}

fn badge_view(b: &Badge) -> BadgeView {
    BadgeView {
        badge_id: b.badge_id,
        name: b.badge_name.clone().or_else(|| b.badge_key.clone()).unwrap_or_else(|| "Badge".to_owned()),
        earned: date_of(b.badge_earned_date),
        points: b.badge_points,
        times: b.badge_earned_number.map(|n| n.round() as u32).filter(|n| *n > 1),
    }
}

fn is_daily_steps(g: &Goal) -> bool {
    g.user_goal_type.as_deref() == Some("STEPS")
        && g.tracking_period_type.as_deref().is_none_or(|p| p.eq_ignore_ascii_case("daily"))
}

/// A goal's target in words, by its type.
fn goal_target(kind: &str, value: f64, period: Option<&str>) -> String {
    let per = match period.map(str::to_lowercase).as_deref() {
        Some("daily") => " a day",
        Some("weekly") => " a week",
        Some("monthly") => " a month",
        _ => "",
    };
    match kind {
        "STEPS" => format!("{} steps{per}", grouped(value)),
        "HYDRATION" => format!("{} ml{per}", grouped(value)),
        "WEIGHT_GRAMS" | "WEIGHT" => format!("{:.1} kg", value / 1000.0),
        "INTENSITY_MINUTES" => format!("{} min{per}", grouped(value)),
        "DISTANCE" => format!("{:.1} km{per}", value / 1000.0),
        "FLOORS" | "FLOORS_CLIMBED" => format!("{} floors{per}", grouped(value)),
        "CALORIES" => format!("{} kcal{per}", grouped(value)),
        _ => format!("{}{per}", grouped(value)),
    }
}

fn goal_view(g: &Goal, steps_today: Option<f64>) -> GoalView {
    let kind_key = g.user_goal_type.clone().unwrap_or_else(|| "GOAL".to_owned());
    let target_value = g.goal_value.unwrap_or(0.0);
    let period = g.tracking_period_type.as_deref();
    let progress_value = g.progress_value.or_else(|| if is_daily_steps(g) { steps_today } else { None });
    let progress = progress_value.map(|p| {
        let text = goal_target(&kind_key, p, None);
        if g.progress_value.is_none() { format!("{text} today so far") } else { text }
    });
    let kind = match kind_key.as_str() {
        "WEIGHT_GRAMS" => "weight".to_owned(),
        other => g.goal_name.clone().unwrap_or_else(|| other.replace('_', " ").to_lowercase()),
    };
    GoalView {
        goal_id: g.user_goal_pk,
        kind,
        target: goal_target(&kind_key, target_value, period),
        progress,
        progress_pct: progress_value.and_then(|p| pct(p, target_value)),
        start_date: g.start_date.map(|d| d.to_string()),
        end_date: g.end_date.map(|d| d.to_string()),
    }
}

/// Amounts of a challenge by Garmin's unit id (1 distance, 2 metres climbed, 3 activities, 4 days,
/// 5 steps); unknown ids read as plain numbers.
fn amount(unit: Option<i64>, value: f64) -> String {
    match unit {
        // Distance targets come in metres for big values and km for small ones.
        Some(1) if value >= 1000.0 => format!("{:.1} km", value / 1000.0),
        Some(1) => format!("{} km", grouped(value)),
        Some(2) => format!("{} m climbed", grouped(value)),
        Some(3) => format!("{} activities", grouped(value)),
        Some(4) => format!("{} days", grouped(value)),
        Some(5) => format!("{} steps", grouped(value)),
        _ => grouped(value),
    }
}

fn challenge(
    kind: &str,
    name: Option<String>,
    dates: (Option<NaiveDateTime>, Option<NaiveDateTime>),
    progress: Option<f64>,
    target: Option<f64>,
    unit: Option<i64>,
    uuid: Option<String>,
) -> ChallengeView {
    ChallengeView {
        kind: kind.to_owned(),
        name: name.unwrap_or_else(|| "Challenge".to_owned()),
        start_date: date_of(dates.0),
        end_date: date_of(dates.1),
        goal: target.map(|t| amount(unit, t)),
        progress: progress.map(|p| amount(unit, p)),
        progress_pct: progress.zip(target).and_then(|(p, t)| pct(p, t)),
        ranking: None,
        uuid,
    }
}

fn badge_challenge_view(c: &BadgeChallenge) -> ChallengeView {
    challenge(
        "badge challenge",
        c.badge_challenge_name.clone(),
        (c.start_date, c.end_date),
        c.progress_value,
        c.target_value,
        c.unit_id,
        c.uuid.clone(),
    )
}

fn virtual_view(c: &VirtualChallenge) -> ChallengeView {
    challenge(
        "virtual challenge",
        c.challenge_name.clone(),
        (c.start_date, c.end_date),
        c.progress_value,
        c.target_value,
        c.unit_id,
        c.uuid.clone(),
    )
}

/// An ad-hoc challenge: its name, days and the athlete's ranking.
fn adhoc_view(c: &AdHocChallenge) -> Option<ChallengeView> {
    Some(ChallengeView {
        kind: "ad-hoc challenge".to_owned(),
        name: c.ad_hoc_challenge_name.clone()?,
        start_date: c.start_date.map(|d| d.to_string()),
        end_date: c.end_date.map(|d| d.to_string()),
        goal: None,
        progress: None,
        progress_pct: None,
        ranking: c.user_ranking,
        uuid: c.uuid.clone(),
    })
}

fn achievements_summary(a: &Achievements) -> String {
    let mut text = match (a.level, a.total_points) {
        (Some(level), Some(points)) => format!("Level {level} with {points} points. "),
        (Some(level), None) => format!("Level {level}. "),
        _ => String::new(),
    };
    if a.badges_earned == 0 {
        text.push_str("No badges earned yet.");
    } else {
        let recent: Vec<String> = a
            .badges
            .iter()
            .take(3)
            .map(|b| match &b.earned {
                Some(d) => format!("{} ({d})", b.name),
                None => b.name.clone(),
            })
            .collect();
        text.push_str(&format!(
            "{} {} earned ({} badge points); most recent: {}.",
            a.badges_earned,
            if a.badges_earned == 1 { "badge" } else { "badges" },
            a.badge_points,
            recent.join(", ")
        ));
    }
    if a.goals.is_empty() {
        text.push_str(" No goals in progress.");
    } else {
        let goals: Vec<String> = a
            .goals
            .iter()
            .map(|g| match g.progress_pct {
                Some(p) => format!("{} {} ({p} %)", g.kind, g.target),
                None => format!("{} {}", g.kind, g.target),
            })
            .collect();
        text.push_str(&format!(" Goals: {}.", goals.join("; ")));
    }
    text
}

fn challenges_summary(c: &Challenges, in_total: usize, open_total: usize) -> String {
    let describe = |v: &ChallengeView| match (&v.goal, v.progress_pct) {
        (Some(g), Some(pct)) => format!("{} ({pct} % of {g})", v.name),
        _ => match v.ranking {
            Some(r) => format!("{} (place {r})", v.name),
            None => v.name.clone(),
        },
    };
    let mut text = if in_total == 0 {
        "You are in no challenge right now.".to_owned()
    } else {
        let rows: Vec<String> = c.in_progress.iter().take(5).map(describe).collect();
        let more = if in_total > rows.len() {
            format!(" and {} more", in_total - rows.len())
        } else {
            String::new()
        };
        format!(
            "{in_total} {} in progress: {}{more}.",
            if in_total == 1 { "challenge" } else { "challenges" },
            rows.join("; ")
        )
    };
    if open_total > 0 {
        let rows: Vec<&str> = c.available.iter().take(5).map(|v| v.name.as_str()).collect();
        text.push_str(&format!(" {open_total} open to join: {}.", rows.join(", ")));
    }
    text
}

fn social_summary(s: &SocialView) -> String {
    let people: Vec<&str> =
        s.connections.iter().take(5).map(|p| p.full_name.as_deref().unwrap_or(&p.display_name)).collect();
    let mut text = match s.connections_total {
        0 => "You have no Garmin Connect connections.".to_owned(),
        n => format!(
            "You have {n} {}{}: {}{}.",
            if n == 1 { "connection" } else { "connections" },
            " (mutual, Garmin's followers and following in one)",
            people.join(", "),
            if n > people.len() { ", …" } else { "" }
        ),
    };
    if let Some(p) = s.pending_requests.filter(|p| *p > 0) {
        text.push_str(&format!(
            " {p} connection {} pending.",
            if p == 1 { "request is" } else { "requests are" }
        ));
    }
    if s.groups_total == 0 {
        text.push_str(" You are in no groups.");
    } else {
        let groups: Vec<String> = s
            .groups
            .iter()
            .take(5)
            .map(|g| match g.members {
                Some(m) => format!("{} ({m} members)", g.name),
                None => g.name.clone(),
            })
            .collect();
        text.push_str(&format!(
            " {} {}: {}.",
            s.groups_total,
            if s.groups_total == 1 { "group" } else { "groups" },
            groups.join(", ")
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ad_hoc_challenge_reads_name_dates_and_ranking() {
        let v: AdHocChallenge = serde_json::from_value(serde_json::json!({
            "uuid": "AB12", "adHocChallengeName": "Weekday Step Duel", "startDate": "2026-10-06T00:00:00.0",
            "endDate": "2026-10-12T23:59:59.0", "userRanking": 1, "players": []
        }))
        .unwrap();
        let c = adhoc_view(&v).unwrap();
        assert_eq!((c.name.as_str(), c.ranking), ("Weekday Step Duel", Some(1)));
        assert_eq!(
            (c.start_date.as_deref(), c.end_date.as_deref()),
            (Some("2026-10-06"), Some("2026-10-12"))
        );
        assert!(
            adhoc_view(&AdHocChallenge { uuid: Some("x".into()), ..AdHocChallenge::default() }).is_none()
        );
    }

    #[test]
    fn numbers_are_grouped_by_thousands() {
        assert_eq!(grouped(300_000.0), "300,000");
        assert_eq!(grouped(999.0), "999");
        assert_eq!(grouped(1_234_567.4), "1,234,567");
    }

    #[test]
    fn goal_targets_read_in_their_units() {
        assert_eq!(goal_target("STEPS", 10_000.0, Some("DAILY")), "10,000 steps a day");
        assert_eq!(goal_target("WEIGHT_GRAMS", 69_000.0, Some("DAILY")), "69.0 kg");
        assert_eq!(goal_target("INTENSITY_MINUTES", 150.0, Some("WEEKLY")), "150 min a week");
        assert_eq!(amount(Some(2), 6961.0), "6,961 m climbed");
        assert_eq!(pct(245.0, 1000.0), Some(25.0));
        assert_eq!(pct(1.0, 0.0), None);
    }
}
