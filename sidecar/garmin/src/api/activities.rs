//! `activitylist-service` and `activity-service` (reference §4.3): find activities, page through a
//! date range, read one activity and what it recorded, rename or delete it, correct a strength
//! session's sets.

use std::future::Future;

use chrono::NaiveDate;
use reqwest::Method;
use serde::de::IgnoredAny;
use serde_json::json;

use super::{required, ymd};
use crate::models::activities::{
    Activity, ActivityCount, ActivityDetails, ActivitySplits, ActivitySummary, ActivityType, ActivityWeather,
    ExerciseSets, TimeInZone,
};
use crate::strength_edit::{ExerciseSetsBody, SavedSet};
use crate::{Client, Error, Result};

/// Garmin's largest page for the activity search.
const MAX_PAGE: u32 = 1000;
/// Safety stop for [`ActivitySearch::walk_pages`]: never walk more pages than this.
const MAX_PAGES: u32 = 1000;

/// Rows asked of `details` for a whole series: a day at 1 Hz, so Garmin sends it unthinned.
pub const SERIES_ROWS: u32 = 86_400;

/// Order of the activity search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SortOrder {
    /// Newest first (Garmin's default).
    Descending,
    /// Oldest first.
    Ascending,
}

/// Parameters of `GET /activitylist-service/activities/search/activities`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActivitySearch {
    /// 0-based offset.
    pub start: u32,
    /// Page size, 1–1000.
    pub limit: u32,
    /// Activity type key (`running`, `cycling`…); parents include their children.
    pub activity_type: Option<String>,
    /// First day (inclusive).
    pub start_date: Option<NaiveDate>,
    /// Last day (inclusive).
    pub end_date: Option<NaiveDate>,
    /// Sort order.
    pub sort_order: Option<SortOrder>,
}

impl Default for ActivitySearch {
    fn default() -> Self {
        ActivitySearch {
            start: 0,
            limit: 20,
            activity_type: None,
            start_date: None,
            end_date: None,
            sort_order: None,
        }
    }
}

impl ActivitySearch {
    /// The 20 most recent activities.
    pub fn new() -> Self {
        Self::default()
    }

    /// 0-based offset.
    pub fn start(mut self, start: u32) -> Self {
        self.start = start;
        self
    }

    /// Page size (clamped to 1–1000).
    pub fn limit(mut self, limit: u32) -> Self {
        self.limit = limit.clamp(1, MAX_PAGE);
        self
    }

    /// Only this activity type key.
    pub fn activity_type(mut self, type_key: impl Into<String>) -> Self {
        self.activity_type = Some(type_key.into());
        self
    }

    /// Only activities from `start` to `end` (inclusive).
    pub fn between(mut self, start: NaiveDate, end: NaiveDate) -> Self {
        self.start_date = Some(start);
        self.end_date = Some(end);
        self
    }

    /// Sort order.
    pub fn sort(mut self, order: SortOrder) -> Self {
        self.sort_order = Some(order);
        self
    }

    pub(crate) fn query(&self) -> Vec<(&'static str, String)> {
        let mut query =
            vec![("start", self.start.to_string()), ("limit", self.limit.clamp(1, MAX_PAGE).to_string())];
        if let Some(t) = &self.activity_type {
            query.push(("activityType", t.clone()));
        }
        if let Some(d) = self.start_date {
            query.push(("startDate", ymd(d)));
        }
        if let Some(d) = self.end_date {
            query.push(("endDate", ymd(d)));
        }
        if let Some(order) = self.sort_order {
            query.push(("sortOrder", if order == SortOrder::Ascending { "asc" } else { "desc" }.to_owned()));
        }
        query
    }

    /// Walks every page of this search (from its `start`, `limit` per page, the limit kept within
    /// Garmin's largest page) until a short page, at most [`MAX_PAGES`] pages, one after the other.
    /// `fetch_page` reads one page; the web client and the Personal API (E1) both page this way.
    pub(crate) async fn walk_pages<F, Fut>(&self, fetch_page: F) -> Result<Vec<ActivitySummary>>
    where
        F: Fn(ActivitySearch) -> Fut,
        Fut: Future<Output = Result<Vec<ActivitySummary>>>,
    {
        let mut page = self.clone();
        page.limit = page.limit.clamp(1, MAX_PAGE);
        let mut all = Vec::new();
        for _ in 0..MAX_PAGES {
            let items = fetch_page(page.clone()).await?;
            let got = u32::try_from(items.len()).unwrap_or(u32::MAX);
            all.extend(items);
            if got < page.limit {
                break;
            }
            page.start = page.start.saturating_add(got);
        }
        Ok(all)
    }
}

/// Activities (reference §4.3). Made by [`Client::activities`].
#[derive(Clone, Copy, Debug)]
pub struct ActivitiesApi<'a> {
    pub(crate) client: &'a Client,
}

impl ActivitiesApi<'_> {
    /// `GET /gc-api/activitylist-service/activities/search/activities?start&limit&activityType&startDate&endDate`
    /// — one page of activities, newest first unless sorted otherwise.
    pub async fn search(&self, search: &ActivitySearch) -> Result<Vec<ActivitySummary>> {
        let query = search.query();
        Ok(self.client.get_json(super::paths::ACTIVITY_SEARCH, &query).await?.unwrap_or_default())
    }

    /// Walks every page of `search` (from its `start`, `limit` per page) until a short page — the
    /// way to get all activities of a date range. Pages are read one after the other.
    pub async fn search_all(&self, search: &ActivitySearch) -> Result<Vec<ActivitySummary>> {
        search.walk_pages(|page| async move { self.search(&page).await }).await
    }

    /// All activities from `start` to `end` (inclusive), optionally of one type, walking pages of
    /// 100 (`GET …/activities/search/activities` repeatedly).
    pub async fn between(
        &self,
        start: NaiveDate,
        end: NaiveDate,
        activity_type: Option<&str>,
    ) -> Result<Vec<ActivitySummary>> {
        super::check_range(start, end)?;
        let mut search = ActivitySearch::new().limit(100).between(start, end);
        search.activity_type = activity_type.map(str::to_owned);
        self.search_all(&search).await
    }

    /// `GET /gc-api/activitylist-service/activities/count` — how many activities the account has.
    pub async fn count(&self) -> Result<u64> {
        let count: Option<ActivityCount> =
            self.client.get_json("/activitylist-service/activities/count", &[]).await?;
        Ok(count.and_then(|c| c.total_count).and_then(|n| u64::try_from(n).ok()).unwrap_or(0))
    }

    /// `GET /gc-api/activity-service/activity/{id}` — one activity's summary, metadata and splits
    /// summaries; [`Error::NotFound`] for an unknown or deleted id.
    pub async fn get(&self, activity_id: u64) -> Result<Activity> {
        let path = format!("/activity-service/activity/{activity_id}");
        required(self.client.get_json(&path, &[]).await?, &format!("GET /gc-api{path}"))
    }

    /// `GET /gc-api/activity-service/activity/{id}/details?maxChartSize&maxPolylineSize` — the
    /// recorded time series (at most `max_chart_size` rows; Garmin's web uses 2000) and the track.
    pub async fn details(&self, activity_id: u64, max_chart_size: u32) -> Result<Option<ActivityDetails>> {
        self.series(activity_id, max_chart_size, true).await
    }

    /// [`ActivitiesApi::details`], with the GPS track (4000 points, as Garmin's web asks) or
    /// without it (`track: false`, one point: the history's curves need only the rows). Garmin
    /// thins the rows to `max_chart_size`; a day at 1 Hz ([`SERIES_ROWS`]) keeps every row.
    pub async fn series(
        &self,
        activity_id: u64,
        max_chart_size: u32,
        track: bool,
    ) -> Result<Option<ActivityDetails>> {
        let path = format!("/activity-service/activity/{activity_id}/details");
        let polyline = if track { "4000" } else { "1" };
        let query =
            [("maxChartSize", max_chart_size.max(1).to_string()), ("maxPolylineSize", polyline.to_owned())];
        self.client.get_json(&path, &query).await
    }

    /// `GET /gc-api/activity-service/activity/{id}/splits` — the laps.
    pub async fn splits(&self, activity_id: u64) -> Result<ActivitySplits> {
        Ok(self.client.get_json(&super::paths::splits(activity_id), &[]).await?.unwrap_or_default())
    }

    /// `GET /gc-api/activity-service/activity/{id}/hrTimeInZones` — seconds per heart-rate zone.
    pub async fn hr_time_in_zones(&self, activity_id: u64) -> Result<Vec<TimeInZone>> {
        Ok(self.client.get_json(&super::paths::hr_time_in_zones(activity_id), &[]).await?.unwrap_or_default())
    }

    /// `GET /gc-api/activity-service/activity/{id}/powerTimeInZones` — seconds per power zone.
    pub async fn power_time_in_zones(&self, activity_id: u64) -> Result<Vec<TimeInZone>> {
        let path = format!("/activity-service/activity/{activity_id}/powerTimeInZones");
        Ok(self.client.get_json(&path, &[]).await?.unwrap_or_default())
    }

    /// `GET /gc-api/activity-service/activity/{id}/weather` — conditions during the activity
    /// (°F); `None` for indoor activities.
    pub async fn weather(&self, activity_id: u64) -> Result<Option<ActivityWeather>> {
        let path = format!("/activity-service/activity/{activity_id}/weather");
        self.client.get_json(&path, &[]).await
    }

    /// `GET /gc-api/activity-service/activity/{id}/exerciseSets` — strength sets; `None` when the
    /// activity has none.
    pub async fn exercise_sets(&self, activity_id: u64) -> Result<Option<ExerciseSets>> {
        let path = super::paths::exercise_sets(activity_id);
        self.client.get_json(&path, &[]).await
    }

    /// `PUT /gc-api/activity-service/activity/{id}/exerciseSets` `{activityId, exerciseSets}` —
    /// replaces every set of a strength activity with `sets` (weights in grams, durations in
    /// seconds; [`crate::strength_edit`] builds them). Garmin refuses the whole body (`400 "Invalid
    /// Sub-Category Passed"`) for an exercise name it does not know.
    pub async fn replace_exercise_sets(&self, activity_id: u64, sets: &[SavedSet]) -> Result<()> {
        let path = super::paths::exercise_sets(activity_id);
        let body = ExerciseSetsBody { activity_id, exercise_sets: sets };
        self.client.send_json::<_, IgnoredAny>(Method::PUT, &path, &body).await.map(|_| ())
    }

    /// `GET /gc-api/activity-service/activity/activityTypes` — every activity type.
    pub async fn activity_types(&self) -> Result<Vec<ActivityType>> {
        Ok(self.client.get_json(super::paths::ACTIVITY_TYPES, &[]).await?.unwrap_or_default())
    }

    /// `PUT /gc-api/activity-service/activity/{id}` `{activityId, activityName}` — renames it.
    pub async fn rename(&self, activity_id: u64, name: &str) -> Result<()> {
        let name = name.trim();
        if name.is_empty() {
            return Err(Error::InvalidInput("an activity name cannot be empty".into()));
        }
        self.update(activity_id, json!({ "activityId": activity_id, "activityName": name })).await
    }

    /// `PUT /gc-api/activity-service/activity/{id}` `{activityId, description}` — sets its
    /// description.
    pub async fn set_description(&self, activity_id: u64, description: &str) -> Result<()> {
        self.update(activity_id, json!({ "activityId": activity_id, "description": description })).await
    }

    /// `DELETE /gc-api/activity-service/activity/{id}` — deletes it for good (a later `get` is
    /// [`Error::NotFound`]).
    pub async fn delete(&self, activity_id: u64) -> Result<()> {
        self.client.delete(&format!("/activity-service/activity/{activity_id}")).await
    }

    async fn update(&self, activity_id: u64, body: serde_json::Value) -> Result<()> {
        let path = format!("/activity-service/activity/{activity_id}");
        self.client.send_json::<_, IgnoredAny>(Method::PUT, &path, &body).await.map(|_| ())
    }
}
