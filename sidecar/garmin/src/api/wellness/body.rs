//! Sleep, HRV, weight and blood pressure (reference §4.2), on [`WellnessApi`]. Garmin answers a
//! night without sleep with a null-filled object and an HRV day without data with 204; both come
//! back as `None`.

use chrono::NaiveDate;

use super::WellnessApi;
use crate::Result;
use crate::api::paging::{MAX_RANGE_DAYS, fetch_chunked};
use crate::api::{check_range, display_name, ymd};
use crate::models::common::DatedValue;
use crate::models::wellness::{
    BloodPressureRange, Hrv, HrvRange, HrvSummary, Sleep, SleepStats, SleepStatsDay, WeightDay, WeightRange,
};

impl WellnessApi<'_> {
    /// `GET /gc-api/wellness-service/wellness/dailySleepData/{displayName}?date&nonSleepBufferMinutes=60`
    /// — the night ending on `date`; `None` when nothing about it was recorded (Garmin sends nulls).
    /// A night without a total sleep time, or with a null `dailySleepDTO` beside its resting heart
    /// rate, is kept: its stages, SpO2 and resting heart rate are real.
    pub async fn sleep(&self, date: NaiveDate) -> Result<Option<Sleep>> {
        let path = format!("/wellness-service/wellness/dailySleepData/{}", display_name(self.client).await?);
        let query = [("date", ymd(date)), ("nonSleepBufferMinutes", "60".to_owned())];
        let sleep: Option<Sleep> = self.client.get_json(&path, &query).await?;
        Ok(sleep.filter(Sleep::has_any))
    }

    /// `GET /gc-api/wellness-service/stats/daily/sleep/score/{start}/{end}` — the sleep score per
    /// night (≤ 28-day chunks, merged in date order).
    pub async fn sleep_scores(&self, start: NaiveDate, end: NaiveDate) -> Result<Vec<DatedValue>> {
        check_range(start, end)?;
        fetch_chunked(start, end, MAX_RANGE_DAYS, |from, to| {
            self.list(format!("/wellness-service/stats/daily/sleep/score/{}/{}", ymd(from), ymd(to)), vec![])
        })
        .await
    }

    /// `GET /gc-api/sleep-service/stats/sleep/daily/{start}/{end}` — per-night sleep figures
    /// (durations, stages, score, HRV, resting HR). Garmin allows 28 days per call, so longer
    /// ranges are fetched in chunks and merged in date order.
    pub async fn sleep_stats(&self, start: NaiveDate, end: NaiveDate) -> Result<Vec<SleepStatsDay>> {
        check_range(start, end)?;
        fetch_chunked(start, end, MAX_RANGE_DAYS, |from, to| async move {
            let path = crate::api::paths::sleep_stats(from, to);
            let stats: Option<SleepStats> = self.client.get_json(&path, &[]).await?;
            Ok(stats.map(|s| s.individual_stats).unwrap_or_default())
        })
        .await
    }

    /// `GET /gc-api/hrv-service/hrv/{date}` — one night's HRV summary and readings; `None` when the
    /// watch recorded none (Garmin answers 204).
    pub async fn hrv(&self, date: NaiveDate) -> Result<Option<Hrv>> {
        let hrv: Option<Hrv> = self.client.get_json(&format!("/hrv-service/hrv/{}", ymd(date)), &[]).await?;
        Ok(hrv.filter(Hrv::has_data))
    }

    /// `GET /gc-api/hrv-service/hrv/daily/{start}/{end}` — nightly HRV summaries, fetched in
    /// ≤ 28-day chunks and merged in date order.
    pub async fn hrv_range(&self, start: NaiveDate, end: NaiveDate) -> Result<Vec<HrvSummary>> {
        check_range(start, end)?;
        fetch_chunked(start, end, MAX_RANGE_DAYS, |from, to| async move {
            let path = crate::api::paths::hrv_range(from, to);
            let range: Option<HrvRange> = self.client.get_json(&path, &[]).await?;
            Ok(range.map(|r| r.hrv_summaries).unwrap_or_default())
        })
        .await
    }

    /// `GET /gc-api/weight-service/weight/range/{start}/{end}?includeAll=true` — weigh-ins per day
    /// and averages (grams).
    pub async fn weight_range(&self, start: NaiveDate, end: NaiveDate) -> Result<WeightRange> {
        check_range(start, end)?;
        let path = crate::api::paths::weight_range(start, end);
        Ok(self.client.get_json(&path, &[("includeAll", "true".to_owned())]).await?.unwrap_or_default())
    }

    /// `GET /gc-api/weight-service/weight/dayview/{date}` — the day's weigh-ins (grams).
    pub async fn weight_day(&self, date: NaiveDate) -> Result<WeightDay> {
        let path = format!("/weight-service/weight/dayview/{}", ymd(date));
        Ok(self.client.get_json(&path, &[]).await?.unwrap_or_default())
    }

    /// `GET /gc-api/weight-service/weight/dateRange?startDate&endDate` — body composition of a
    /// period.
    pub async fn body_composition(&self, start: NaiveDate, end: NaiveDate) -> Result<WeightDay> {
        check_range(start, end)?;
        let query = [("startDate", ymd(start)), ("endDate", ymd(end))];
        Ok(self.client.get_json("/weight-service/weight/dateRange", &query).await?.unwrap_or_default())
    }

    /// `GET /gc-api/bloodpressure-service/bloodpressure/range/{start}/{end}?includeAll=true` —
    /// blood-pressure readings (empty summaries when none).
    pub async fn blood_pressure(&self, start: NaiveDate, end: NaiveDate) -> Result<BloodPressureRange> {
        check_range(start, end)?;
        let path = format!("/bloodpressure-service/bloodpressure/range/{}/{}", ymd(start), ymd(end));
        Ok(self.client.get_json(&path, &[("includeAll", "true".to_owned())]).await?.unwrap_or_default())
    }
}
