//! The tools' reads, typed ([`crate::models`]), each saying which sources serve it (the policy is
//! the module doc of [`crate::reads`]). The Personal API's answers use the web's models (it reuses
//! the same backend services and field names, `docs/garmin-personal-api.md` §6), so a tool reads the
//! same types from either source.

use chrono::NaiveDate;

use super::{Garmin, Read, Served};
use crate::Result;
use crate::api::ActivitySearch;
use crate::models::activities::{Activity, ActivitySummary, ActivityWeather, ExerciseSets};
use crate::models::common::DatedValue;
use crate::models::devices::Device;
use crate::models::downloads::{DownloadedFile, ExportFormat, OriginalFile};
use crate::models::metrics::{FitnessAge, HealthStatus, HrZones, RunningTolerance};
use crate::models::profile::ProfileSettings;
use crate::models::wellness::{
    BloodPressureRange, BodyBatteryReport, DailyStress, DailySummary, Hrv, HrvSummary, Hydration,
    IntensityMinutesDay, Sleep, SleepStatsDay, Spo2, StepsDay, StressDay, WeightRange,
};

/// Why a read that both sources serve is asked (only seen when neither can answer).
const BOTH: &str = "this tool's data";

impl Garmin {
    /// One activity's summary.
    pub async fn activity(&self, id: u64) -> Result<Served<Activity>> {
        self.serve(
            Read::new(BOTH)
                .personal(move |p| Box::pin(p.activity(id)))
                .web(move |w| Box::pin(async move { w.activities().get(id).await })),
        )
        .await
    }

    /// The activity's original file (FIT, or the GPX/TCX it was uploaded as).
    pub async fn original_file(&self, id: u64) -> Result<Served<OriginalFile>> {
        self.serve(
            Read::new(BOTH)
                .personal(move |p| Box::pin(p.original_file(id)))
                .web(move |w| Box::pin(async move { w.downloads().activity_original(id).await })),
        )
        .await
    }

    /// Garmin's conversion of an activity to GPX, TCX, KML or CSV (web session only: the Personal
    /// API serves only the original file).
    pub async fn export(&self, id: u64, format: ExportFormat) -> Result<Served<Option<DownloadedFile>>> {
        let what = "Garmin's GPX/TCX/KML/CSV conversion of an activity (the original FIT file works with the key alone)";
        self.serve(
            Read::new(what).web(move |w| Box::pin(async move { w.downloads().export(id, format).await })),
        )
        .await
    }

    /// Heart-rate zone floors per sport.
    pub async fn hr_zones(&self) -> Result<Served<Vec<HrZones>>> {
        self.serve(
            Read::new(BOTH)
                .personal(|p| Box::pin(p.hr_zones()))
                .web(|w| Box::pin(async move { w.metrics().hr_zones().await })),
        )
        .await
    }

    /// The day's blood oxygen.
    pub async fn spo2(&self, date: NaiveDate) -> Result<Served<Option<Spo2>>> {
        self.serve(
            Read::new(BOTH)
                .personal(move |p| Box::pin(p.spo2(date)))
                .web(move |w| Box::pin(async move { w.wellness().spo2(date).await })),
        )
        .await
    }

    /// Fitness age on a day.
    pub async fn fitness_age(&self, date: NaiveDate) -> Result<Served<Option<FitnessAge>>> {
        self.serve(
            Read::new(BOTH)
                .personal(move |p| Box::pin(p.fitness_age(date)))
                .web(move |w| Box::pin(async move { w.metrics().fitness_age(date).await })),
        )
        .await
    }

    /// Locale, units and time zone.
    pub async fn settings(&self) -> Result<Served<ProfileSettings>> {
        self.serve(
            Read::new(BOTH)
                .personal(|p| Box::pin(p.settings()))
                .web(|w| Box::pin(async move { w.profile().settings().await })),
        )
        .await
    }

    /// The weather during an activity (web session only: not in the Personal API).
    pub async fn weather(&self, id: u64) -> Result<Served<Option<ActivityWeather>>> {
        self.serve(
            Read::new("the weather of an activity")
                .web(move |w| Box::pin(async move { w.activities().weather(id).await })),
        )
        .await
    }

    /// A strength activity's sets as Garmin keeps them, with the person's corrections (web session
    /// only: the Personal API serves the original FIT file, whose sets keep the watch's raw guesses).
    pub async fn exercise_sets(&self, id: u64) -> Result<Served<Option<ExerciseSets>>> {
        self.serve(
            Read::new("the sets of a strength activity")
                .web(move |w| Box::pin(async move { w.activities().exercise_sets(id).await })),
        )
        .await
    }

    /// One page of the activity search.
    pub async fn search(&self, search: &ActivitySearch) -> Result<Served<Vec<ActivitySummary>>> {
        self.serve(
            Read::new(BOTH)
                .personal(move |p| Box::pin(p.search_activities(search)))
                .web(move |w| Box::pin(async move { w.activities().search(search).await })),
        )
        .await
    }

    /// Every page of the activity search.
    pub async fn search_all(&self, search: &ActivitySearch) -> Result<Served<Vec<ActivitySummary>>> {
        self.serve(
            Read::new(BOTH)
                .personal(move |p| Box::pin(p.search_all_activities(search)))
                .web(move |w| Box::pin(async move { w.activities().search_all(search).await })),
        )
        .await
    }

    /// Every activity of `start..=end` (inclusive), optionally of one type and its children, in
    /// pages of 100.
    pub async fn activities_between(
        &self,
        start: NaiveDate,
        end: NaiveDate,
        activity_type: Option<&str>,
    ) -> Result<Served<Vec<ActivitySummary>>> {
        crate::api::check_range(start, end)?;
        let mut search = ActivitySearch::new().limit(100).between(start, end);
        search.activity_type = activity_type.map(str::to_owned);
        self.search_all(&search).await
    }

    /// The day in numbers.
    pub async fn daily_summary(&self, date: NaiveDate) -> Result<Served<Option<DailySummary>>> {
        self.serve(
            Read::new(BOTH)
                .personal(move |p| Box::pin(p.daily_summary(date)))
                .web(move |w| Box::pin(async move { w.wellness().daily_summary(date).await })),
        )
        .await
    }

    /// The night ending on `date`; with `stages`, the stage timeline too (web session first: the
    /// Personal API has no stages).
    pub async fn sleep(&self, date: NaiveDate, stages: bool) -> Result<Served<Option<Sleep>>> {
        let read = Read::new(BOTH)
            .personal(move |p| Box::pin(p.sleep(date)))
            .web(move |w| Box::pin(async move { w.wellness().sleep(date).await }));
        self.serve(if stages { read.web_first() } else { read }).await
    }

    /// One night's HRV.
    pub async fn hrv(&self, date: NaiveDate) -> Result<Served<Option<Hrv>>> {
        self.serve(
            Read::new(BOTH)
                .personal(move |p| Box::pin(p.hrv(date)))
                .web(move |w| Box::pin(async move { w.wellness().hrv(date).await })),
        )
        .await
    }

    /// Weigh-ins of a range.
    pub async fn weight_range(&self, start: NaiveDate, end: NaiveDate) -> Result<Served<WeightRange>> {
        self.serve(
            Read::new(BOTH)
                .personal(move |p| Box::pin(p.weight_range(start, end)))
                .web(move |w| Box::pin(async move { w.wellness().weight_range(start, end).await })),
        )
        .await
    }

    /// One day's water.
    pub async fn hydration(&self, date: NaiveDate) -> Result<Served<Option<Hydration>>> {
        self.serve(
            Read::new(BOTH)
                .personal(move |p| Box::pin(p.hydration(date)))
                .web(move |w| Box::pin(async move { w.wellness().hydration(date).await })),
        )
        .await
    }

    /// Stress per day.
    pub async fn stress_daily(&self, start: NaiveDate, end: NaiveDate) -> Result<Served<Vec<StressDay>>> {
        self.serve(
            Read::new(BOTH)
                .personal(move |p| Box::pin(p.stress_daily(start, end)))
                .web(move |w| Box::pin(async move { w.wellness().stress_daily(start, end).await })),
        )
        .await
    }

    /// Steps per day.
    pub async fn steps_daily(&self, start: NaiveDate, end: NaiveDate) -> Result<Served<Vec<StepsDay>>> {
        self.serve(
            Read::new(BOTH)
                .personal(move |p| Box::pin(p.steps_daily(start, end)))
                .web(move |w| Box::pin(async move { w.wellness().steps_daily(start, end).await })),
        )
        .await
    }

    /// Resting heart rate per day.
    pub async fn resting_heart_rate(
        &self,
        start: NaiveDate,
        end: NaiveDate,
    ) -> Result<Served<Vec<DatedValue>>> {
        self.serve(
            Read::new(BOTH)
                .personal(move |p| Box::pin(p.resting_heart_rate(start, end)))
                .web(move |w| Box::pin(async move { w.wellness().resting_heart_rate(start, end).await })),
        )
        .await
    }

    /// Per-night sleep figures.
    pub async fn sleep_stats(&self, start: NaiveDate, end: NaiveDate) -> Result<Served<Vec<SleepStatsDay>>> {
        self.serve(
            Read::new(BOTH)
                .personal(move |p| Box::pin(p.sleep_stats(start, end)))
                .web(move |w| Box::pin(async move { w.wellness().sleep_stats(start, end).await })),
        )
        .await
    }

    /// Body Battery per day.
    pub async fn body_battery(
        &self,
        start: NaiveDate,
        end: NaiveDate,
    ) -> Result<Served<Vec<BodyBatteryReport>>> {
        self.serve(
            Read::new(BOTH)
                .personal(move |p| Box::pin(p.body_battery(start, end)))
                .web(move |w| Box::pin(async move { w.wellness().body_battery(start, end).await })),
        )
        .await
    }

    /// Nightly HRV summaries.
    pub async fn hrv_range(&self, start: NaiveDate, end: NaiveDate) -> Result<Served<Vec<HrvSummary>>> {
        self.serve(
            Read::new(BOTH)
                .personal(move |p| Box::pin(p.hrv_range(start, end)))
                .web(move |w| Box::pin(async move { w.wellness().hrv_range(start, end).await })),
        )
        .await
    }

    /// Intensity minutes (web session only).
    pub async fn intensity_minutes(&self, date: NaiveDate) -> Result<Served<Option<IntensityMinutesDay>>> {
        self.serve(
            Read::new("the intensity-minutes count")
                .web(move |w| Box::pin(async move { w.wellness().intensity_minutes(date).await })),
        )
        .await
    }

    /// Blood pressure (web session only).
    pub async fn blood_pressure(
        &self,
        start: NaiveDate,
        end: NaiveDate,
    ) -> Result<Served<BloodPressureRange>> {
        self.serve(
            Read::new("the blood-pressure log")
                .web(move |w| Box::pin(async move { w.wellness().blood_pressure(start, end).await })),
        )
        .await
    }

    /// The day's stress and Body Battery series (web session only).
    pub async fn stress(&self, date: NaiveDate) -> Result<Served<Option<DailyStress>>> {
        self.serve(
            Read::new("the day's stress and Body Battery timeline")
                .web(move |w| Box::pin(async move { w.wellness().stress(date).await })),
        )
        .await
    }

    /// Running Tolerance and impact load per day (web session only; recent watches only, an
    /// empty list or a 404/204 from others).
    pub async fn running_tolerance(
        &self,
        start: NaiveDate,
        end: NaiveDate,
    ) -> Result<Served<Vec<RunningTolerance>>> {
        self.serve(
            Read::new("Running Tolerance")
                .web(move |w| Box::pin(async move { w.metrics().running_tolerance(start, end).await })),
        )
        .await
    }

    /// The day's Health Status, each overnight metric against its baseline (web session only;
    /// fēnix 8 era watches, 204/404 from others, 402 where Garmin keeps it behind Connect+).
    pub async fn health_status(&self, date: NaiveDate) -> Result<Served<Option<HealthStatus>>> {
        self.serve(
            Read::new("Health Status")
                .web(move |w| Box::pin(async move { w.metrics().health_status(date).await })),
        )
        .await
    }

    /// Health Status of each night of `start..=end` that has one (web session only; recent watches,
    /// 204/404 from others, 402 where Garmin keeps it behind Connect+).
    pub async fn health_status_range(
        &self,
        start: NaiveDate,
        end: NaiveDate,
    ) -> Result<Served<Vec<HealthStatus>>> {
        self.serve(
            Read::new("Health Status")
                .web(move |w| Box::pin(async move { w.metrics().health_status_range(start, end).await })),
        )
        .await
    }

    /// The account's devices (web session only), to name the watch in what it does not record.
    pub async fn devices(&self) -> Result<Served<Vec<Device>>> {
        self.serve(
            Read::new("the list of devices").web(|w| Box::pin(async move { w.devices().list().await })),
        )
        .await
    }

    /// The heart-rate zone sets, read once per reader (the history's FIT files and a tool's
    /// activity both need them); a failure is not kept, so the next call asks again.
    pub async fn zone_sets(&self) -> Result<&[HrZones]> {
        let sets = self
            .state
            .zone_sets
            .get_or_try_init(|| async { self.hr_zones().await.map(Served::into_value) })
            .await?;
        Ok(sets.as_slice())
    }
}
