//! The Personal API's reads (reference §3.2: all 26 but E21, which Garmin answers 400 for every
//! input, §3.8 `[1]`), answering with the web client's models so a tool reads the same types from either source. Range reads are split into
//! windows within each endpoint's per-request cap ([`caps`], reference §4.2) and fetched through
//! the process-wide limit of two requests in flight.

use chrono::NaiveDate;
use serde::Deserialize;

use super::PersonalClient;
use crate::Result;
use crate::api::downloads::original_from_download;
use crate::api::paging::fetch_chunked;
use crate::api::{ActivitySearch, check_range, paths, required, ymd};
use crate::models::activities::{Activity, ActivitySummary};
use crate::models::challenges::Goal;
use crate::models::common::DatedValue;
use crate::models::downloads::{DownloadedFile, OriginalFile};
use crate::models::metrics::{FitnessAge, HrZones};
use crate::models::profile::ProfileSettings;
use crate::models::wellness::{
    BodyBatteryReport, DailySleep, DailySummary, HeartRateDay, Hrv, HrvRange, HrvSummary, Hydration, Sleep,
    SleepStatsDay, Spo2, StepsDay, StressDay, WeightRange,
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

/// `Accept` of the original-file download: what Garmin's own client sends (reference §3.3 E4
/// `[G]`); `application/octet-stream` alone is refused with 406 (`[1]` gcpapi).
const ZIP_ACCEPT: &str = "application/zip, application/x-zip-compressed, application/octet-stream";

/// E22's envelope.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct UserGoals {
    user_goals: Vec<Goal>,
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
        self.list(paths::ACTIVITY_SEARCH.to_owned(), query).await
    }

    /// Every page of `search` (from its `start`, `limit` per page) until a short page, one after
    /// the other, as the web client's `search_all` does (E1 is the only paged endpoint, §3.1).
    pub async fn search_all_activities(&self, search: &ActivitySearch) -> Result<Vec<ActivitySummary>> {
        search.walk_pages(|page| async move { self.search_activities(&page).await }).await
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
            let page: Option<Summaries> = self.get_json(paths::DAILY_SUMMARIES, &query).await?;
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
            self.list(paths::SLEEP_NIGHTS.to_owned(), vec![("startDate", ymd(from)), ("endDate", ymd(to))])
        })
        .await
    }

    /// Per-night sleep figures in the web API's `sleep_stats` shape, from E11.
    pub async fn sleep_stats(&self, start: NaiveDate, end: NaiveDate) -> Result<Vec<SleepStatsDay>> {
        let nights = self.sleep_nights(start, end).await?;
        Ok(nights.into_iter().filter(DailySleep::has_data).map(|n| n.stats_day()).collect())
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
            let range: Option<HrvRange> = self.get_json(&paths::hrv_range(from, to), &[]).await?;
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
            let path = paths::weight_range(from, to);
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

    /// E3 `GET /activity-service/activity/{id}/workouts` — the workouts done in an activity, as
    /// sent (reference §3.3 `[O]`: name, sport, steps with targets).
    pub async fn activity_workouts(&self, activity_id: u64) -> Result<Vec<serde_json::Value>> {
        self.list(format!("/activity-service/activity/{activity_id}/workouts"), vec![]).await
    }

    /// E4 `GET /download-service/files/activity/{id}` — the original file, unpacked from Garmin's
    /// zip exactly as the web download is (`.fit`, or the `.gpx`/`.tcx` of an upload).
    pub async fn original_file(&self, activity_id: u64) -> Result<OriginalFile> {
        let path = format!("/download-service/files/activity/{activity_id}");
        let endpoint = format!("GET {path} (Personal API)");
        let (_, bytes) = self.get(&path, &[], ZIP_ACCEPT).await?;
        if bytes.is_empty() {
            return Err(crate::Error::Decode { endpoint, field: ".".into(), message: "empty file".into() });
        }
        let (name, format, content) = original_from_download(&bytes, &endpoint)?;
        let file_name = name.unwrap_or_else(|| format!("{activity_id}_ACTIVITY.{}", format.extension()));
        let file = DownloadedFile { file_name, content_type: format.content_type(), bytes: content };
        Ok(OriginalFile { format, file })
    }

    /// E13 `GET /biometric-service/heartRateZones/v2` — heart-rate zone floors per sport.
    pub async fn hr_zones(&self) -> Result<Vec<HrZones>> {
        self.list("/biometric-service/heartRateZones/v2".to_owned(), vec![]).await
    }

    /// E17 `GET /wellness-service/wellness/daily/spo2acclimation/{D}` — the day's blood oxygen
    /// (same fields as the web's `daily/spo2`, reference §3.7).
    pub async fn spo2(&self, date: NaiveDate) -> Result<Option<Spo2>> {
        self.get_json(&format!("/wellness-service/wellness/daily/spo2acclimation/{}", ymd(date)), &[]).await
    }

    /// E18 `GET /wellnessactivity-service/activity/summary/range/{S}/{E}` — breathing and
    /// health-monitoring sessions, as sent (reference §3.7 `[O]`; no documented cap).
    pub async fn wellness_activities(
        &self,
        start: NaiveDate,
        end: NaiveDate,
    ) -> Result<Vec<serde_json::Value>> {
        check_range(start, end)?;
        self.list(
            format!("/wellnessactivity-service/activity/summary/range/{}/{}", ymd(start), ymd(end)),
            vec![],
        )
        .await
    }

    /// E19 `GET /fitnessage-service/fitnessage/v2/{D}` — fitness age (one object live, although
    /// the spec says an array: reference §3.7 `[1]`).
    pub async fn fitness_age(&self, date: NaiveDate) -> Result<Option<FitnessAge>> {
        let age: Option<FitnessAge> =
            self.get_json(&format!("/fitnessage-service/fitnessage/v2/{}", ymd(date)), &[]).await?;
        Ok(age.filter(|a| a.fitness_age.is_some() || a.chronological_age.is_some()))
    }

    /// E22 `GET /goal-service/goal/user/effective/weightgoal/{S}/{E}` — the weight goals in effect
    /// (grams).
    pub async fn weight_goals(&self, start: NaiveDate, end: NaiveDate) -> Result<Vec<Goal>> {
        check_range(start, end)?;
        let path = format!("/goal-service/goal/user/effective/weightgoal/{}/{}", ymd(start), ymd(end));
        let goals: Option<UserGoals> = self.get_json(&path, &[]).await?;
        Ok(goals.unwrap_or_default().user_goals)
    }

    /// E23 `GET /nutrition-service/food/logs/{D}` — the day's food log with goals, as sent.
    pub async fn nutrition_log(&self, date: NaiveDate) -> Result<Option<serde_json::Value>> {
        let query = [("includeGoals", "true".to_owned()), ("includeNutrition", "true".to_owned())];
        self.get_json(&format!("/nutrition-service/food/logs/{}", ymd(date)), &query).await
    }

    /// E24 `GET /periodichealth-service/menstrualcycle/summary/{D}` — the cycle summary, as sent;
    /// `None` when the person does not track one (reference §3.8 `[S]`).
    pub async fn cycle_summary(&self, date: NaiveDate) -> Result<Option<serde_json::Value>> {
        self.get_json(&format!("/periodichealth-service/menstrualcycle/summary/{}", ymd(date)), &[]).await
    }

    /// E25 `GET /periodichealth-service/menstrualcycle/dayview/{D}?todayDate=D` — the day's cycle
    /// log, as sent (Garmin's client always sends `todayDate`, reference §3.2); `None` when not
    /// tracked.
    pub async fn cycle_day(&self, date: NaiveDate) -> Result<Option<serde_json::Value>> {
        let path = format!("/periodichealth-service/menstrualcycle/dayview/{}", ymd(date));
        self.get_json(&path, &[("todayDate", ymd(date))]).await
    }

    /// E26 `GET /userprofile-service/userprofile/settings` — locale, units and time zone.
    pub async fn settings(&self) -> Result<ProfileSettings> {
        Ok(self.get_json("/userprofile-service/userprofile/settings", &[]).await?.unwrap_or_default())
    }
}
