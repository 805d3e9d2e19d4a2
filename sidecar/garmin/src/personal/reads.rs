//! The Personal API's reads (reference §3.2: E1, E2, E5–E12, E14–E16, E20), answering with the web
//! client's models so a tool reads the same types from either source. Range reads are split into
//! windows within each endpoint's per-request cap ([`caps`], reference §4.2) and fetched through
//! the process-wide limit of two requests in flight.

use chrono::NaiveDate;
use serde::Deserialize;

use super::PersonalClient;
use crate::Result;
use crate::api::paging::fetch_chunked;
use crate::api::{ActivitySearch, check_range, required, ymd};
use crate::models::activities::{Activity, ActivitySummary};
use crate::models::common::DatedValue;
use crate::models::wellness::{
    BodyBatteryReport, DailySleep, DailySummary, HeartRateDay, Hrv, HrvRange, HrvSummary, Hydration, Sleep,
    SleepStatsDay, SleepStatsValues, StepsDay, StressDay, WeightRange,
};

/// Most days per request of each range endpoint (reference §4.2; inclusive days).
pub mod caps {
    /// E7 steps: 28 `[S]`.
    pub const STEPS: u32 = 28;
    /// E8 stress: 28 `[S]` (kav: 31 rejected).
    pub const STRESS: u32 = 28;
    /// E9 hydration: 31 `[S]`.
    pub const HYDRATION: u32 = 31;
    /// E11 sleep summaries: 31 `[S]` (kav: 35 rejected).
    pub const SLEEP: u32 = 31;
    /// E16 Body Battery: 31 `[S]`.
    pub const BODY_BATTERY: u32 = 31;
    /// E6 v2 daily summaries: documented 365, live 500 beyond about 90; 31 is what other clients
    /// use `[S]`.
    pub const DAILY_SUMMARIES: u32 = 31;
    /// E15 HRV: 365 `[S]`.
    pub const HRV: u32 = 365;
    /// E20 weight: about a year `[S]`; kept whole when shorter, since its average covers the
    /// range `[1]`.
    pub const WEIGHT: u32 = 365;
}

/// E6's envelope.
#[derive(Deserialize, Default)]
#[serde(default)]
struct Summaries {
    data: Vec<DailySummary>,
}

impl PersonalClient {
    /// A list endpoint (owned arguments, so window closures can return the future).
    async fn list<T: serde::de::DeserializeOwned>(
        &self,
        path: String,
        query: Vec<(&'static str, String)>,
    ) -> Result<Vec<T>> {
        Ok(self.get_json(&path, &query).await?.unwrap_or_default())
    }

    /// E1 `GET /activitylist-service/activities/search/activities?start&limit&…` — one page of
    /// activities (same parameters as the web search).
    pub async fn search_activities(&self, search: &ActivitySearch) -> Result<Vec<ActivitySummary>> {
        let query = search.query();
        self.list("/activitylist-service/activities/search/activities".to_owned(), query).await
    }

    /// Every page of `search` (from its `start`, `limit` per page) until a short page, one after
    /// the other, as the web client's `search_all` does (E1 is the only paged endpoint, §3.1).
    pub async fn search_all_activities(&self, search: &ActivitySearch) -> Result<Vec<ActivitySummary>> {
        let mut page = search.clone();
        page.limit = page.limit.clamp(1, 1000);
        let mut all = Vec::new();
        for _ in 0..1000 {
            let items = self.search_activities(&page).await?;
            let got = u32::try_from(items.len()).unwrap_or(u32::MAX);
            all.extend(items);
            if got < page.limit {
                break;
            }
            page.start = page.start.saturating_add(got);
        }
        Ok(all)
    }

    /// E2 `GET /activity-service/activity/{id}` — one activity's summary.
    pub async fn activity(&self, activity_id: u64) -> Result<Activity> {
        let path = format!("/activity-service/activity/{activity_id}");
        required(self.get_json(&path, &[]).await?, &format!("GET {path} (Personal API)"))
    }

    /// E5 `GET /usersummary-service/usersummary/daily?calendarDate=D` — the day in numbers; `None`
    /// when nothing was recorded.
    pub async fn daily_summary(&self, date: NaiveDate) -> Result<Option<DailySummary>> {
        let summary: Option<DailySummary> =
            self.get_json("/usersummary-service/usersummary/daily", &[("calendarDate", ymd(date))]).await?;
        Ok(summary.filter(DailySummary::has_data))
    }

    /// E6 `GET /usersummary-service/v2/dailysummaries?startDate&endDate` — daily summaries of a
    /// range, in windows of [`caps::DAILY_SUMMARIES`] days.
    pub async fn daily_summaries(&self, start: NaiveDate, end: NaiveDate) -> Result<Vec<DailySummary>> {
        check_range(start, end)?;
        fetch_chunked(start, end, caps::DAILY_SUMMARIES, |from, to| async move {
            let query = [("startDate", ymd(from)), ("endDate", ymd(to))];
            let page: Option<Summaries> =
                self.get_json("/usersummary-service/v2/dailysummaries", &query).await?;
            Ok(page.unwrap_or_default().data)
        })
        .await
    }

    /// Resting heart rate per day, from E6 (the Personal API has no metric endpoint for it).
    pub async fn resting_heart_rate(&self, start: NaiveDate, end: NaiveDate) -> Result<Vec<DatedValue>> {
        let days = self.daily_summaries(start, end).await?;
        Ok(days
            .into_iter()
            .filter(|d| d.resting_heart_rate.is_some())
            .map(|d| DatedValue { calendar_date: d.calendar_date, value: d.resting_heart_rate })
            .collect())
    }

    /// E12 `GET /wellness-service/wellness/dailyHeartRate?date=D` — heart rate through the day.
    pub async fn heart_rate(&self, date: NaiveDate) -> Result<Option<HeartRateDay>> {
        self.get_json("/wellness-service/wellness/dailyHeartRate", &[("date", ymd(date))]).await
    }

    /// E10 `GET /sleep-service/sleep/dailySleep?date=D` — the night ending on `date` (the web
    /// API's `dailySleepDTO`, flat); `None` when nothing was recorded. Stages, movement and the
    /// SpO2 block are not in the Personal API (reference §5).
    pub async fn sleep(&self, date: NaiveDate) -> Result<Option<Sleep>> {
        let night: Option<DailySleep> =
            self.get_json("/sleep-service/sleep/dailySleep", &[("date", ymd(date))]).await?;
        let sleep = Sleep { daily_sleep: night, ..Sleep::default() };
        Ok(Some(sleep).filter(Sleep::has_any))
    }

    /// E11 `GET /sleep-service/sleep/dailySleepSummariesByDate?startDate&endDate` — the nights of a
    /// range, in windows of [`caps::SLEEP`] days.
    pub async fn sleep_nights(&self, start: NaiveDate, end: NaiveDate) -> Result<Vec<DailySleep>> {
        check_range(start, end)?;
        fetch_chunked(start, end, caps::SLEEP, |from, to| {
            self.list(
                "/sleep-service/sleep/dailySleepSummariesByDate".to_owned(),
                vec![("startDate", ymd(from)), ("endDate", ymd(to))],
            )
        })
        .await
    }

    /// Per-night sleep figures in the web API's `sleep_stats` shape, from E11.
    pub async fn sleep_stats(&self, start: NaiveDate, end: NaiveDate) -> Result<Vec<SleepStatsDay>> {
        let nights = self.sleep_nights(start, end).await?;
        Ok(nights
            .into_iter()
            .filter(DailySleep::has_data)
            .map(|n| SleepStatsDay {
                calendar_date: n.calendar_date,
                values: Some(SleepStatsValues {
                    total_sleep_time_in_seconds: n.sleep_time_seconds,
                    deep_time: n.deep_sleep_seconds,
                    light_time: n.light_sleep_seconds,
                    rem_time: n.rem_sleep_seconds,
                    awake_time: n.awake_sleep_seconds,
                    sleep_score: n
                        .sleep_scores
                        .as_ref()
                        .and_then(|s| s.overall.as_ref())
                        .and_then(|o| o.value),
                    sleep_score_quality: n
                        .sleep_scores
                        .as_ref()
                        .and_then(|s| s.overall.as_ref())
                        .and_then(|o| o.qualifier_key.clone()),
                    respiration: n.average_respiration_value,
                    spo2: n.average_spo2_value,
                    local_sleep_start: n.sleep_start_local,
                    local_sleep_end: n.sleep_end_local,
                    ..SleepStatsValues::default()
                }),
            })
            .collect())
    }

    /// E14 `GET /hrv-service/hrv/{D}` — one night's HRV; `None` on 204 (reference §3.1 `[1]`).
    pub async fn hrv(&self, date: NaiveDate) -> Result<Option<Hrv>> {
        let hrv: Option<Hrv> = self.get_json(&format!("/hrv-service/hrv/{}", ymd(date)), &[]).await?;
        Ok(hrv.filter(Hrv::has_data))
    }

    /// E15 `GET /hrv-service/hrv/daily/{S}/{E}` — nightly HRV summaries, in windows of
    /// [`caps::HRV`] days.
    pub async fn hrv_range(&self, start: NaiveDate, end: NaiveDate) -> Result<Vec<HrvSummary>> {
        check_range(start, end)?;
        fetch_chunked(start, end, caps::HRV, |from, to| async move {
            let path = format!("/hrv-service/hrv/daily/{}/{}", ymd(from), ymd(to));
            let range: Option<HrvRange> = self.get_json(&path, &[]).await?;
            Ok(range.map(|r| r.hrv_summaries).unwrap_or_default())
        })
        .await
    }

    /// E8 `GET /usersummary-service/stats/stress/daily/{S}/{E}` — stress per day, in windows of
    /// [`caps::STRESS`] days.
    pub async fn stress_daily(&self, start: NaiveDate, end: NaiveDate) -> Result<Vec<StressDay>> {
        check_range(start, end)?;
        fetch_chunked(start, end, caps::STRESS, |from, to| {
            self.list(format!("/usersummary-service/stats/stress/daily/{}/{}", ymd(from), ymd(to)), vec![])
        })
        .await
    }

    /// E7 `GET /usersummary-service/stats/steps/daily/{S}/{E}` — steps per day, in windows of
    /// [`caps::STEPS`] days.
    pub async fn steps_daily(&self, start: NaiveDate, end: NaiveDate) -> Result<Vec<StepsDay>> {
        check_range(start, end)?;
        fetch_chunked(start, end, caps::STEPS, |from, to| {
            self.list(format!("/usersummary-service/stats/steps/daily/{}/{}", ymd(from), ymd(to)), vec![])
        })
        .await
    }

    /// E9 `GET /usersummary-service/stats/hydration/daily/{S}/{E}` — water per day, in windows of
    /// [`caps::HYDRATION`] days.
    pub async fn hydration_daily(&self, start: NaiveDate, end: NaiveDate) -> Result<Vec<Hydration>> {
        check_range(start, end)?;
        fetch_chunked(start, end, caps::HYDRATION, |from, to| {
            self.list(format!("/usersummary-service/stats/hydration/daily/{}/{}", ymd(from), ymd(to)), vec![])
        })
        .await
    }

    /// One day's water, from E9.
    pub async fn hydration(&self, date: NaiveDate) -> Result<Option<Hydration>> {
        Ok(self.hydration_daily(date, date).await?.into_iter().find(|h| h.calendar_date == Some(date)))
    }

    /// E16 `GET /wellness-service/wellness/bodyBattery/reports/daily?startDate&endDate` — Body
    /// Battery per day, in windows of [`caps::BODY_BATTERY`] days; days without data left out.
    pub async fn body_battery(&self, start: NaiveDate, end: NaiveDate) -> Result<Vec<BodyBatteryReport>> {
        check_range(start, end)?;
        let reports: Vec<BodyBatteryReport> = fetch_chunked(start, end, caps::BODY_BATTERY, |from, to| {
            self.list(
                "/wellness-service/wellness/bodyBattery/reports/daily".to_owned(),
                vec![("startDate", ymd(from)), ("endDate", ymd(to))],
            )
        })
        .await?;
        Ok(reports.into_iter().filter(BodyBatteryReport::has_data).collect())
    }

    /// E20 `GET /weight-service/weight/range/{S}/{E}?includeAll=true` — weigh-ins per day (grams).
    /// Ranges over [`caps::WEIGHT`] days are read in windows whose days are merged.
    pub async fn weight_range(&self, start: NaiveDate, end: NaiveDate) -> Result<WeightRange> {
        check_range(start, end)?;
        let windows: Vec<WeightRange> = fetch_chunked(start, end, caps::WEIGHT, |from, to| async move {
            let path = format!("/weight-service/weight/range/{}/{}", ymd(from), ymd(to));
            let range: Option<WeightRange> =
                self.get_json(&path, &[("includeAll", "true".to_owned())]).await?;
            Ok(vec![range.unwrap_or_default()])
        })
        .await?;
        let mut windows = windows.into_iter();
        let mut merged = windows.next().unwrap_or_default();
        for w in windows {
            merged.daily_weight_summaries.extend(w.daily_weight_summaries);
        }
        Ok(merged)
    }
}
