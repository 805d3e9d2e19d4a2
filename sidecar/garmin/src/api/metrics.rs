//! Training status and fitness metrics (reference §4.5): status and load, readiness, VO2max,
//! race predictions, lactate threshold, endurance and hill scores, HR zones, fitness age.

use chrono::NaiveDate;

use super::{Many, check_range, display_name, ymd};
use crate::models::metrics::{
    BiometricValue, CriticalSwimSpeed, EnduranceScore, EnduranceScoreRange, FitnessAge,
    FunctionalThresholdPower, HealthStatus, HillScore, HillScoreRange, HrZones, LactateThreshold, MaxMetrics,
    RacePredictions, RunningTolerance, TrainingReadiness, TrainingStatus,
};
use crate::{Client, Result};

/// Training and fitness metrics (reference §4.5). Made by [`Client::metrics`].
#[derive(Clone, Copy, Debug)]
pub struct MetricsApi<'a> {
    pub(crate) client: &'a Client,
}

impl MetricsApi<'_> {
    /// `GET /gc-api/metrics-service/metrics/trainingstatus/aggregated/{date}` — training status,
    /// acute/chronic load and load balance per device, latest VO2max; `None` without any.
    pub async fn training_status(&self, date: NaiveDate) -> Result<Option<TrainingStatus>> {
        let path = super::paths::training_status(date);
        let status: Option<TrainingStatus> = self.client.get_json(&path, &[]).await?;
        Ok(status.filter(TrainingStatus::has_data))
    }

    /// `GET /gc-api/metrics-service/metrics/trainingreadiness/{date}` — readiness entries of the day
    /// (an array: one per device and update); entries without a score are dropped, so a day
    /// without readiness is empty. [`TrainingReadiness::latest`] picks the one to report.
    pub async fn training_readiness(&self, date: NaiveDate) -> Result<Vec<TrainingReadiness>> {
        let path = format!("/metrics-service/metrics/trainingreadiness/{}", ymd(date));
        let entries: Option<Many<TrainingReadiness>> = self.client.get_json(&path, &[]).await?;
        Ok(entries
            .map(Many::into_vec)
            .unwrap_or_default()
            .into_iter()
            .filter(TrainingReadiness::has_data)
            .collect())
    }

    /// `GET /gc-api/metrics-service/metrics/maxmet/daily/{start}/{end}` — VO2max per day.
    pub async fn max_metrics(&self, start: NaiveDate, end: NaiveDate) -> Result<Vec<MaxMetrics>> {
        check_range(start, end)?;
        let path = format!("/metrics-service/metrics/maxmet/daily/{}/{}", ymd(start), ymd(end));
        let entries: Option<Many<MaxMetrics>> = self.client.get_json(&path, &[]).await?;
        Ok(entries.map(Many::into_vec).unwrap_or_default())
    }

    /// `GET /gc-api/metrics-service/metrics/maxmet/latest/{date}` — the latest VO2max on or before
    /// `date`.
    pub async fn max_metrics_latest(&self, date: NaiveDate) -> Result<Option<MaxMetrics>> {
        let path = format!("/metrics-service/metrics/maxmet/latest/{}", ymd(date));
        let entries: Option<Many<MaxMetrics>> = self.client.get_json(&path, &[]).await?;
        Ok(entries.and_then(|m| m.into_vec().pop()).filter(|m| m.generic.is_some() || m.cycling.is_some()))
    }

    /// `GET /gc-api/metrics-service/metrics/racepredictions/latest/{displayName}` — predicted 5K,
    /// 10K, half and full marathon times (s).
    pub async fn race_predictions(&self) -> Result<Option<RacePredictions>> {
        let path =
            format!("/metrics-service/metrics/racepredictions/latest/{}", display_name(self.client).await?);
        let entries: Option<Many<RacePredictions>> = self.client.get_json(&path, &[]).await?;
        Ok(entries.and_then(|m| m.into_vec().pop()))
    }

    /// `GET /gc-api/biometric-service/biometric/latestLactateThreshold` — the latest lactate
    /// threshold (speed and heart rate).
    pub async fn lactate_threshold(&self) -> Result<Option<LactateThreshold>> {
        let path = "/biometric-service/biometric/latestLactateThreshold";
        let entries: Option<Many<LactateThreshold>> = self.client.get_json(path, &[]).await?;
        Ok(entries.and_then(|m| {
            m.into_vec().into_iter().rev().find(|t| t.speed.is_some() || t.heart_rate.is_some())
        }))
    }

    /// `GET /gc-api/metrics-service/metrics/endurancescore?calendarDate={date}` — endurance score;
    /// `None` when there is none (Garmin answers 204).
    pub async fn endurance_score(&self, date: NaiveDate) -> Result<Option<EnduranceScore>> {
        let score: Option<EnduranceScore> = self
            .client
            .get_json("/metrics-service/metrics/endurancescore", &[("calendarDate", ymd(date))])
            .await?;
        Ok(score.filter(|s| s.overall_score.is_some()))
    }

    /// `GET /gc-api/metrics-service/metrics/hillscore?calendarDate={date}` — hill score; `None`
    /// when there is none.
    pub async fn hill_score(&self, date: NaiveDate) -> Result<Option<HillScore>> {
        let score: Option<HillScore> = self
            .client
            .get_json("/metrics-service/metrics/hillscore", &[("calendarDate", ymd(date))])
            .await?;
        Ok(score.filter(|s| s.overall_score.is_some()))
    }

    /// `GET /gc-api/metrics-service/metrics/hillscore/stats?startDate&endDate&aggregation=daily` —
    /// hill scores of a range.
    pub async fn hill_score_range(&self, start: NaiveDate, end: NaiveDate) -> Result<HillScoreRange> {
        check_range(start, end)?;
        let query = [("startDate", ymd(start)), ("endDate", ymd(end)), ("aggregation", "daily".to_owned())];
        Ok(self
            .client
            .get_json("/metrics-service/metrics/hillscore/stats", &query)
            .await?
            .unwrap_or_default())
    }

    /// `GET /gc-api/biometric-service/heartRateZones` — heart-rate zone floors per sport.
    pub async fn hr_zones(&self) -> Result<Vec<HrZones>> {
        Ok(self.client.get_json("/biometric-service/heartRateZones", &[]).await?.unwrap_or_default())
    }

    /// `GET /gc-api/fitnessage-service/fitnessage/{date}` — fitness age.
    pub async fn fitness_age(&self, date: NaiveDate) -> Result<Option<FitnessAge>> {
        let age: Option<FitnessAge> =
            self.client.get_json(&format!("/fitnessage-service/fitnessage/{}", ymd(date)), &[]).await?;
        Ok(age.filter(|a| a.fitness_age.is_some() || a.chronological_age.is_some()))
    }

    /// `GET /gc-api/metrics-service/metrics/runningtolerance/stats?startDate&endDate&aggregation=daily`
    /// — Running Tolerance and impact load per day; rows without either are dropped, so a watch
    /// that does not record it gives an empty list (Garmin may also answer 204 or 404).
    pub async fn running_tolerance(&self, start: NaiveDate, end: NaiveDate) -> Result<Vec<RunningTolerance>> {
        check_range(start, end)?;
        let query = [("startDate", ymd(start)), ("endDate", ymd(end)), ("aggregation", "daily".to_owned())];
        let rows: Option<Many<RunningTolerance>> =
            self.client.get_json(super::paths::RUNNING_TOLERANCE, &query).await?;
        Ok(rows
            .map(Many::into_vec)
            .unwrap_or_default()
            .into_iter()
            .filter(RunningTolerance::has_data)
            .collect())
    }

    /// `GET /gc-api/healthstatus-service/healthstatus/summary/{date}` — Health Status: each
    /// overnight metric against the athlete's baseline (path *unverified*, see
    /// [`HealthStatus`]); `None` when the day has none (Garmin answers 204).
    pub async fn health_status(&self, date: NaiveDate) -> Result<Option<HealthStatus>> {
        let path = format!("/healthstatus-service/healthstatus/summary/{}", ymd(date));
        let status: Option<Many<HealthStatus>> = self.client.get_json(&path, &[]).await?;
        Ok(status.and_then(|s| s.into_vec().into_iter().find(HealthStatus::has_data)))
    }

    /// `GET /gc-api/healthstatus-service/healthstatus/summary/{start}/{end}` — Health Status per
    /// day (*unverified*); days without a value are dropped.
    pub async fn health_status_range(&self, start: NaiveDate, end: NaiveDate) -> Result<Vec<HealthStatus>> {
        check_range(start, end)?;
        let path = format!("/healthstatus-service/healthstatus/summary/{}/{}", ymd(start), ymd(end));
        let days: Option<Many<HealthStatus>> = self.client.get_json(&path, &[]).await?;
        Ok(days.map(Many::into_vec).unwrap_or_default().into_iter().filter(HealthStatus::has_data).collect())
    }

    /// `GET /gc-api/biometric-service/stats/{series}/range/{start}/{end}` with `series`
    /// `lactateThresholdHeartRate` or `lactateThresholdSpeed` (sport `RUNNING`), or
    /// `functionalThresholdPower` (sport `CYCLING`): each value with the days it held.
    pub async fn biometric_history(
        &self,
        series: BiometricSeries,
        start: NaiveDate,
        end: NaiveDate,
    ) -> Result<Vec<BiometricValue>> {
        check_range(start, end)?;
        let path = format!("/biometric-service/stats/{}/range/{}/{}", series.key(), ymd(start), ymd(end));
        let query = [
            ("sport", series.sport().to_owned()),
            ("aggregation", "daily".to_owned()),
            ("aggregationStrategy", "LATEST".to_owned()),
        ];
        let rows: Option<Many<BiometricValue>> = self.client.get_json(&path, &query).await?;
        Ok(rows.map(Many::into_vec).unwrap_or_default().into_iter().filter(|r| r.value.is_some()).collect())
    }

    /// `GET /gc-api/biometric-service/biometric/latestFunctionalThresholdPower/CYCLING` — the
    /// latest cycling FTP.
    pub async fn ftp_latest(&self) -> Result<Option<FunctionalThresholdPower>> {
        let path = "/biometric-service/biometric/latestFunctionalThresholdPower/CYCLING";
        let ftp: Option<Many<FunctionalThresholdPower>> = self.client.get_json(path, &[]).await?;
        Ok(ftp.and_then(|m| m.into_vec().into_iter().find(|f| f.functional_threshold_power.is_some())))
    }

    /// `GET /gc-api/biometric-service/criticalSwimSpeed/latest/{date}` — the latest Critical Swim
    /// Speed on or before `date` (path *unverified*, see [`CriticalSwimSpeed`]).
    pub async fn critical_swim_speed(&self, date: NaiveDate) -> Result<Option<CriticalSwimSpeed>> {
        let path = format!("/biometric-service/criticalSwimSpeed/latest/{}", ymd(date));
        let css: Option<Many<CriticalSwimSpeed>> = self.client.get_json(&path, &[]).await?;
        Ok(css.and_then(|m| m.into_vec().into_iter().find(|c| c.speed.is_some_and(|s| s > 0.0))))
    }

    /// `GET /gc-api/metrics-service/metrics/endurancescore/stats?startDate&endDate&aggregation=daily`
    /// — endurance scores of a range, one group per day (tamcore asks `weekly`; `daily` is the
    /// hill-score twin's aggregation, for this path *unverified*).
    pub async fn endurance_score_range(
        &self,
        start: NaiveDate,
        end: NaiveDate,
    ) -> Result<EnduranceScoreRange> {
        check_range(start, end)?;
        let query = [("startDate", ymd(start)), ("endDate", ymd(end)), ("aggregation", "daily".to_owned())];
        Ok(self
            .client
            .get_json("/metrics-service/metrics/endurancescore/stats", &query)
            .await?
            .unwrap_or_default())
    }
}

/// A biometric series with a history ([`MetricsApi::biometric_history`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BiometricSeries {
    /// Lactate-threshold heart rate (bpm), running.
    LactateThresholdHeartRate,
    /// Lactate-threshold speed (m/s ÷ 10), running.
    LactateThresholdSpeed,
    /// Functional threshold power (W), cycling.
    FunctionalThresholdPower,
}

impl BiometricSeries {
    fn key(self) -> &'static str {
        match self {
            BiometricSeries::LactateThresholdHeartRate => "lactateThresholdHeartRate",
            BiometricSeries::LactateThresholdSpeed => "lactateThresholdSpeed",
            BiometricSeries::FunctionalThresholdPower => "functionalThresholdPower",
        }
    }

    fn sport(self) -> &'static str {
        match self {
            BiometricSeries::FunctionalThresholdPower => "CYCLING",
            _ => "RUNNING",
        }
    }
}
