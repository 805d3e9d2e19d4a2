//! Daily health (reference §4.2): the daily summary, heart rate, stress, Body Battery,
//! respiration, SpO2, floors, intensity minutes, steps and hydration. Sleep, HRV, weight and blood
//! pressure are in [`body`] (same [`WellnessApi`]).

mod body;

use chrono::NaiveDate;

use super::paging::{MAX_RANGE_DAYS, fetch_chunked};
use super::{check_range, display_name, ymd};
use crate::models::common::{DatedValue, MetricStatistics};
use crate::models::wellness::{
    BodyBatteryEvent, BodyBatteryReport, DailyStress, DailySummary, EpochRequest, Floors, HeartRateDay,
    Hydration, IntensityMinutesDay, IntensityMinutesStat, Respiration, Spo2, StepsBucket, StepsDay,
    StepsWeek, StressDay,
};
use crate::{Client, Result};

/// Resting heart rate metric id of `userstats-service/wellness/daily`.
const RESTING_HR_METRIC: &str = "60";

/// Daily health (reference §4.2). Made by [`Client::wellness`].
#[derive(Clone, Copy, Debug)]
pub struct WellnessApi<'a> {
    pub(crate) client: &'a Client,
}

impl WellnessApi<'_> {
    /// A list endpoint (owned arguments, so chunk closures can return the future).
    async fn list<T: serde::de::DeserializeOwned>(
        &self,
        path: String,
        query: Vec<(&'static str, String)>,
    ) -> Result<Vec<T>> {
        Ok(self.client.get_json(&path, &query).await?.unwrap_or_default())
    }

    /// `GET /gc-api/usersummary-service/usersummary/daily/{displayName}?calendarDate={date}` — the
    /// day in numbers; `None` when nothing was recorded.
    pub async fn daily_summary(&self, date: NaiveDate) -> Result<Option<DailySummary>> {
        let path = super::paths::daily_summary(&display_name(self.client).await?);
        let summary: Option<DailySummary> =
            self.client.get_json(&path, &[("calendarDate", ymd(date))]).await?;
        Ok(summary.filter(DailySummary::has_data))
    }

    /// `GET /gc-api/wellness-service/wellness/dailySummaryChart/{displayName}?date={date}` — steps
    /// in 15-minute buckets.
    pub async fn steps_chart(&self, date: NaiveDate) -> Result<Vec<StepsBucket>> {
        let path =
            format!("/wellness-service/wellness/dailySummaryChart/{}", display_name(self.client).await?);
        self.list(path, vec![("date", ymd(date))]).await
    }

    /// `GET /gc-api/wellness-service/wellness/dailyHeartRate/{displayName}?date={date}` — heart rate
    /// through the day.
    pub async fn heart_rate(&self, date: NaiveDate) -> Result<Option<HeartRateDay>> {
        let path = format!("/wellness-service/wellness/dailyHeartRate/{}", display_name(self.client).await?);
        self.client.get_json(&path, &[("date", ymd(date))]).await
    }

    /// `GET /gc-api/userstats-service/wellness/daily/{displayName}?fromDate&untilDate&metricId=60`
    /// — resting heart rate per day (bpm).
    pub async fn resting_heart_rate(&self, start: NaiveDate, end: NaiveDate) -> Result<Vec<DatedValue>> {
        check_range(start, end)?;
        let path = format!("/userstats-service/wellness/daily/{}", display_name(self.client).await?);
        let query =
            [("fromDate", ymd(start)), ("untilDate", ymd(end)), ("metricId", RESTING_HR_METRIC.to_owned())];
        let stats: Option<MetricStatistics> = self.client.get_json(&path, &query).await?;
        let Some(stats) = stats else { return Ok(Vec::new()) };
        let rows = stats.metric("WELLNESS_RESTING_HEART_RATE");
        if !rows.is_empty() {
            return Ok(rows.to_vec());
        }
        // Another key name: take the only metric there is.
        Ok(stats.all_metrics.and_then(|m| m.metrics_map.into_values().next()).unwrap_or_default())
    }

    /// `GET /gc-api/wellness-service/wellness/dailyStress/{date}` — stress and Body Battery through
    /// the day.
    pub async fn stress(&self, date: NaiveDate) -> Result<Option<DailyStress>> {
        self.client.get_json(&format!("/wellness-service/wellness/dailyStress/{}", ymd(date)), &[]).await
    }

    /// `GET /gc-api/usersummary-service/stats/stress/daily/{start}/{end}` — stress per day, fetched
    /// in ≤ 28-day chunks.
    pub async fn stress_daily(&self, start: NaiveDate, end: NaiveDate) -> Result<Vec<StressDay>> {
        check_range(start, end)?;
        fetch_chunked(start, end, MAX_RANGE_DAYS, |from, to| {
            self.list(format!("/usersummary-service/stats/stress/daily/{}/{}", ymd(from), ymd(to)), vec![])
        })
        .await
    }

    /// `GET /gc-api/usersummary-service/stats/stress/weekly/{end}/{weeks}` — average stress per
    /// week for the `weeks` weeks ending at `end`.
    pub async fn stress_weekly(&self, end: NaiveDate, weeks: u32) -> Result<Vec<DatedValue>> {
        self.list(format!("/usersummary-service/stats/stress/weekly/{}/{}", ymd(end), weeks.max(1)), vec![])
            .await
    }

    /// `GET /gc-api/wellness-service/wellness/bodyBattery/reports/daily?startDate&endDate` — Body
    /// Battery per day; days without data are left out.
    pub async fn body_battery(&self, start: NaiveDate, end: NaiveDate) -> Result<Vec<BodyBatteryReport>> {
        check_range(start, end)?;
        let reports: Vec<BodyBatteryReport> = fetch_chunked(start, end, MAX_RANGE_DAYS, |from, to| {
            self.list(
                "/wellness-service/wellness/bodyBattery/reports/daily".to_owned(),
                vec![("startDate", ymd(from)), ("endDate", ymd(to))],
            )
        })
        .await?;
        Ok(reports.into_iter().filter(BodyBatteryReport::has_data).collect())
    }

    /// `GET /gc-api/wellness-service/wellness/bodyBattery/events/{date}` — what charged and drained
    /// Body Battery (sleep, activities, naps).
    pub async fn body_battery_events(&self, date: NaiveDate) -> Result<Vec<BodyBatteryEvent>> {
        self.list(format!("/wellness-service/wellness/bodyBattery/events/{}", ymd(date)), vec![]).await
    }

    /// `GET /gc-api/wellness-service/wellness/daily/respiration/{date}` — breathing rate.
    pub async fn respiration(&self, date: NaiveDate) -> Result<Option<Respiration>> {
        self.client
            .get_json(&format!("/wellness-service/wellness/daily/respiration/{}", ymd(date)), &[])
            .await
    }

    /// `GET /gc-api/wellness-service/wellness/daily/spo2/{date}` — blood oxygen.
    pub async fn spo2(&self, date: NaiveDate) -> Result<Option<Spo2>> {
        self.client.get_json(&format!("/wellness-service/wellness/daily/spo2/{}", ymd(date)), &[]).await
    }

    /// `GET /gc-api/wellness-service/wellness/floorsChartData/daily/{date}` — floors climbed.
    pub async fn floors(&self, date: NaiveDate) -> Result<Option<Floors>> {
        self.client
            .get_json(&format!("/wellness-service/wellness/floorsChartData/daily/{}", ymd(date)), &[])
            .await
    }

    /// `GET /gc-api/wellness-service/wellness/daily/im/{date}` — the day's intensity minutes and
    /// the week so far.
    pub async fn intensity_minutes(&self, date: NaiveDate) -> Result<Option<IntensityMinutesDay>> {
        self.client.get_json(&format!("/wellness-service/wellness/daily/im/{}", ymd(date)), &[]).await
    }

    /// `GET /gc-api/usersummary-service/stats/im/daily/{start}/{end}` — intensity minutes per day
    /// (≤ 28-day chunks).
    pub async fn intensity_minutes_daily(
        &self,
        start: NaiveDate,
        end: NaiveDate,
    ) -> Result<Vec<IntensityMinutesStat>> {
        check_range(start, end)?;
        fetch_chunked(start, end, MAX_RANGE_DAYS, |from, to| {
            self.list(format!("/usersummary-service/stats/im/daily/{}/{}", ymd(from), ymd(to)), vec![])
        })
        .await
    }

    /// `GET /gc-api/usersummary-service/stats/im/weekly/{start}/{end}` — intensity minutes per week.
    pub async fn intensity_minutes_weekly(
        &self,
        start: NaiveDate,
        end: NaiveDate,
    ) -> Result<Vec<IntensityMinutesStat>> {
        check_range(start, end)?;
        self.list(format!("/usersummary-service/stats/im/weekly/{}/{}", ymd(start), ymd(end)), vec![]).await
    }

    /// `GET /gc-api/usersummary-service/stats/steps/daily/{start}/{end}` — steps per day; Garmin
    /// allows 28 days per call, so longer ranges are fetched in chunks and merged in date order.
    pub async fn steps_daily(&self, start: NaiveDate, end: NaiveDate) -> Result<Vec<StepsDay>> {
        check_range(start, end)?;
        fetch_chunked(start, end, MAX_RANGE_DAYS, |from, to| {
            self.list(format!("/usersummary-service/stats/steps/daily/{}/{}", ymd(from), ymd(to)), vec![])
        })
        .await
    }

    /// `GET /gc-api/usersummary-service/stats/steps/weekly/{end}/{weeks}` — steps per week for the
    /// `weeks` weeks ending at `end`.
    pub async fn steps_weekly(&self, end: NaiveDate, weeks: u32) -> Result<Vec<StepsWeek>> {
        self.list(format!("/usersummary-service/stats/steps/weekly/{}/{}", ymd(end), weeks.max(1)), vec![])
            .await
    }

    /// `POST /gc-api/wellness-service/wellness/epoch/request/{date}` — asks Garmin to rebuild the
    /// day's wellness data from the device uploads.
    pub async fn request_reload(&self, date: NaiveDate) -> Result<Option<EpochRequest>> {
        let path = format!("/wellness-service/wellness/epoch/request/{}", ymd(date));
        self.client.send_json(reqwest::Method::POST, &path, &serde_json::json!({})).await
    }

    /// `GET /gc-api/usersummary-service/usersummary/hydration/daily/{date}` — water drunk (ml).
    pub async fn hydration(&self, date: NaiveDate) -> Result<Option<Hydration>> {
        self.client
            .get_json(&format!("/usersummary-service/usersummary/hydration/daily/{}", ymd(date)), &[])
            .await
    }

    /// `GET /gc-api/usersummary-service/stats/hydration/daily/{start}/{end}` — water per day
    /// (≤ 28-day chunks).
    pub async fn hydration_daily(&self, start: NaiveDate, end: NaiveDate) -> Result<Vec<Hydration>> {
        check_range(start, end)?;
        fetch_chunked(start, end, MAX_RANGE_DAYS, |from, to| {
            self.list(format!("/usersummary-service/stats/hydration/daily/{}/{}", ymd(from), ymd(to)), vec![])
        })
        .await
    }
}
