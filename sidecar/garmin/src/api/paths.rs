//! The Garmin paths more than one read names — the typed web API, the Personal API (which serves the
//! same services under the same paths, `docs/garmin-personal-api.md` §6) and the history's kept reads
//! ([`crate::reads::kept`]) — written once. Each is relative to the API root: `/gc-api` on the web
//! session's Connect origin, the Personal API's origin for a key.

use chrono::NaiveDate;

use super::ymd;

/// `activitylist-service`: the activity search (E1 with a key), paged by `start` and `limit`.
pub(crate) const ACTIVITY_SEARCH: &str = "/activitylist-service/activities/search/activities";
/// Every activity type (web session only).
pub(crate) const ACTIVITY_TYPES: &str = "/activity-service/activity/activityTypes";
/// E6: the daily summaries of a range (Personal API only), `?startDate&endDate`.
pub(crate) const DAILY_SUMMARIES: &str = "/usersummary-service/v2/dailysummaries";
/// E11: the sleep nights of a range (Personal API only), `?startDate&endDate`.
pub(crate) const SLEEP_NIGHTS: &str = "/sleep-service/sleep/dailySleepSummariesByDate";

/// One activity's laps.
pub(crate) fn splits(activity_id: u64) -> String {
    format!("/activity-service/activity/{activity_id}/splits")
}

/// One activity's seconds per heart-rate zone.
pub(crate) fn hr_time_in_zones(activity_id: u64) -> String {
    format!("/activity-service/activity/{activity_id}/hrTimeInZones")
}

/// One strength activity's sets (web session only), with the person's corrections.
pub(crate) fn exercise_sets(activity_id: u64) -> String {
    format!("/activity-service/activity/{activity_id}/exerciseSets")
}

/// The web's daily summary of the account `display_name` (encoded), `?calendarDate`.
pub(crate) fn daily_summary(display_name: &str) -> String {
    format!("/usersummary-service/usersummary/daily/{display_name}")
}

/// The web's per-night sleep figures of a range (at most 28 days).
pub(crate) fn sleep_stats(from: NaiveDate, to: NaiveDate) -> String {
    format!("/sleep-service/stats/sleep/daily/{}/{}", ymd(from), ymd(to))
}

/// Nightly HRV summaries of a range (both sources; E15).
pub(crate) fn hrv_range(from: NaiveDate, to: NaiveDate) -> String {
    format!("/hrv-service/hrv/daily/{}/{}", ymd(from), ymd(to))
}

/// Weigh-ins of a range, `?includeAll=true` (both sources; E20).
pub(crate) fn weight_range(from: NaiveDate, to: NaiveDate) -> String {
    format!("/weight-service/weight/range/{}/{}", ymd(from), ymd(to))
}

/// Garmin's training status snapshot on a day (web session only).
pub(crate) fn training_status(date: NaiveDate) -> String {
    format!("/metrics-service/metrics/trainingstatus/aggregated/{}", ymd(date))
}

/// Running Tolerance and impact load per day or week, `?startDate&endDate&aggregation`
/// (python-garminconnect `get_running_tolerance`; web session only).
pub(crate) const RUNNING_TOLERANCE: &str = "/metrics-service/metrics/runningtolerance/stats";

// Training plans (#29).

/// The training plans the athlete follows (web session only).
pub(crate) const TRAINING_PLANS: &str = "/trainingplan-service/trainingplan/plans";

/// One plan's detail: `fbt-adaptive/{id}` for a Garmin Coach plan, `phased/{id}` otherwise
/// (`plans/{id}` answers 404 now, python-garminconnect PR #310).
pub(crate) fn training_plan(plan_id: u64, adaptive: bool) -> String {
    let kind = if adaptive { "fbt-adaptive" } else { "phased" };
    format!("/trainingplan-service/trainingplan/{kind}/{plan_id}")
}
