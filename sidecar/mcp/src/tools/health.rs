//! The `health` toolset: `get_daily_health`, one day's health in numbers (steps, heart rate,
//! sleep, stress, Body Battery, respiration, SpO2, HRV, intensity minutes, body composition,
//! blood pressure, hydration) or a short range as one compact row per day.
//!
//! One request per Garmin endpoint, all fanned out at once; a range uses Garmin's range endpoints
//! (steps, resting heart rate, sleep stats, stress, Body Battery, HRV, weight), never per-day
//! loops. Parts Garmin has nothing for are named in `missing`; only a day (or range) with nothing
//! at all is a "no data" error.

use chrono::{Duration, NaiveDate, NaiveDateTime, Timelike};
use garmin::models::wellness::{
    BloodPressureRange, DailyStress, DailySummary, Hrv, Hydration, IntensityMinutesDay, Sleep, StressDay,
    WeightEntry, WeightRange,
};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{schemars, tool, tool_router};
use serde::{Deserialize, Serialize};

use crate::output::{self, Answer};
use crate::server::GarminMcp;
use crate::tool_error::ToolError;

/// Longest range `get_daily_health` answers, in days.
pub const MAX_RANGE_DAYS: i64 = 14;
/// Most segments in a night's stage timeline.
pub const MAX_SLEEP_SEGMENTS: usize = 40;
/// How far back the latest weigh-in may lie, in days.
const WEIGHT_LOOKBACK_DAYS: i64 = 30;

/// How much of a day to report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Detail {
    /// The day's numbers (default).
    #[default]
    Summary,
    /// Also the night's sleep-stage timeline and an hourly stress and Body Battery summary.
    Full,
}

/// Arguments of `get_daily_health`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct DailyHealthArgs {
    /// The day, `YYYY-MM-DD` (default today). Its night is the sleep that ended that morning.
    #[serde(default)]
    pub date: Option<String>,
    /// First day of a range, `YYYY-MM-DD` (instead of `date`; at most 14 days).
    #[serde(default)]
    pub start_date: Option<String>,
    /// Last day of a range, `YYYY-MM-DD` (default today).
    #[serde(default)]
    pub end_date: Option<String>,
    /// `summary` (default) or `full` (adds the sleep-stage timeline and an hourly stress summary;
    /// one day only).
    #[serde(default)]
    pub detail: Option<Detail>,
}

/// `get_daily_health`'s answer: one day in depth (`day`) or a range as rows (`days` + `averages`).
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct DailyHealth {
    /// The day reported (one-day form).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// First day (range form).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_date: Option<String>,
    /// Last day (range form).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_date: Option<String>,
    /// The day's health (one-day form).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub day: Option<HealthDay>,
    /// One row per day (range form), oldest first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub days: Vec<HealthRow>,
    /// Averages over the days that have each value (range form).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub averages: Option<HealthAverages>,
    /// Parts Garmin has no data for, e.g. `hrv` (a range: `hrv: 2026-11-03, 2026-11-10`).
    pub missing: Vec<String>,
}

/// One day's health; a part is absent when Garmin has nothing for it (see `missing`).
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct HealthDay {
    /// Steps, distance, floors, calories.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activity: Option<DayActivity>,
    /// Heart rate (bpm).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heart_rate: Option<DayHeartRate>,
    /// The night that ended this morning.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sleep: Option<DaySleep>,
    /// Stress (0–100).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stress: Option<DayStress>,
    /// Body Battery (0–100).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_battery: Option<DayBodyBattery>,
    /// Breathing rate (breaths/min).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub respiration: Option<DayRespiration>,
    /// Blood oxygen (%).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spo2: Option<DaySpo2>,
    /// Overnight heart-rate variability (ms).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hrv: Option<DayHrv>,
    /// Intensity minutes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub intensity_minutes: Option<DayIntensity>,
    /// Latest weigh-in on or before the day (within 30 days).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_composition: Option<DayBody>,
    /// Blood pressure, when measured that day.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blood_pressure: Option<DayBloodPressure>,
    /// Water drunk.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hydration: Option<DayHydration>,
}

/// Steps, distance, floors, calories.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct DayActivity {
    /// Steps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps: Option<u64>,
    /// Step goal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step_goal: Option<u64>,
    /// Distance covered (km).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance_km: Option<f64>,
    /// Floors climbed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub floors_climbed: Option<u64>,
    /// Calories burnt in total (kcal).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub calories_kcal: Option<u64>,
    /// Active calories (kcal).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub active_calories_kcal: Option<u64>,
}

/// Heart rate of a day (bpm).
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct DayHeartRate {
    /// Resting.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resting_bpm: Option<u64>,
    /// Lowest.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_bpm: Option<u64>,
    /// Highest.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_bpm: Option<u64>,
    /// Seven-day average resting.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resting_7d_avg_bpm: Option<u64>,
}

/// A night's sleep; durations as `h:mm`.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct DaySleep {
    /// Fell asleep (local `HH:MM`, usually the evening before).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// Woke up (local `HH:MM`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end: Option<String>,
    /// Time asleep (`h:mm`).
    pub total: String,
    /// Deep sleep (`h:mm`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deep: Option<String>,
    /// Light sleep (`h:mm`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub light: Option<String>,
    /// REM sleep (`h:mm`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rem: Option<String>,
    /// Awake in bed (`h:mm`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub awake: Option<String>,
    /// Sleep score 0–100.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<u64>,
    /// `excellent`, `good`, `fair` or `poor`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quality: Option<String>,
    /// Stage timeline (detail=full): consecutive segments, at most 40, short ones merged into
    /// their neighbours.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stages: Vec<SleepSegment>,
}

/// A stretch of one sleep stage.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct SleepSegment {
    /// Start (local `HH:MM`).
    pub start: String,
    /// `deep`, `light`, `rem` or `awake`.
    pub stage: String,
    /// Length (minutes).
    pub min: u64,
}

/// Stress of a day.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct DayStress {
    /// Average (0–100).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub avg: Option<u64>,
    /// Highest.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<u64>,
    /// Garmin's word for the day (`calm`, `balanced`, `stressful`…).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qualifier: Option<String>,
    /// Minutes at rest (0–25).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rest_min: Option<u64>,
    /// Minutes of low stress (26–50).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub low_min: Option<u64>,
    /// Minutes of medium stress (51–75).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub medium_min: Option<u64>,
    /// Minutes of high stress (76–100).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub high_min: Option<u64>,
    /// Hour by hour (detail=full): average and peak stress, Body Battery at the end of the hour.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hourly: Vec<StressHour>,
}

/// One hour of the day (detail=full).
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct StressHour {
    /// Hour start (local `HH:00`).
    pub hour: String,
    /// Average stress in the hour.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub avg: Option<u64>,
    /// Highest stress in the hour.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<u64>,
    /// Body Battery at the end of the hour.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_battery: Option<u64>,
}

/// Body Battery of a day.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct DayBodyBattery {
    /// Charged during the day.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub charged: Option<u64>,
    /// Drained during the day.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drained: Option<u64>,
    /// Highest.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub highest: Option<u64>,
    /// Lowest.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lowest: Option<u64>,
    /// At wake-up.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at_wake: Option<u64>,
}

/// Breathing rate (breaths/min).
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct DayRespiration {
    /// Average while awake.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub avg_waking_brpm: Option<f64>,
    /// Average while asleep.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub avg_sleeping_brpm: Option<f64>,
}

/// Blood oxygen (%).
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct DaySpo2 {
    /// Average.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub avg_pct: Option<f64>,
    /// Lowest.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lowest_pct: Option<f64>,
}

/// Overnight HRV (ms).
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct DayHrv {
    /// Last night's average.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_night_avg_ms: Option<f64>,
    /// Seven-day average.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weekly_avg_ms: Option<f64>,
    /// Personal baseline: lower bound of "balanced".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline_low_ms: Option<f64>,
    /// Personal baseline: upper bound of "balanced".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline_high_ms: Option<f64>,
    /// `balanced`, `unbalanced`, `low`, `poor` (none while the baseline builds).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
}

/// Intensity minutes.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct DayIntensity {
    /// Moderate minutes that day.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moderate: Option<u64>,
    /// Vigorous minutes that day (count double towards the goal).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vigorous: Option<u64>,
    /// Week total so far (vigorous counted twice).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub week_total: Option<u64>,
    /// Weekly goal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub week_goal: Option<u64>,
}

/// A weigh-in.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct DayBody {
    /// Day of the weigh-in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// Weight (kg).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weight_kg: Option<f64>,
    /// Body-mass index.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bmi: Option<f64>,
    /// Body fat (%).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_fat_pct: Option<f64>,
}

/// The day's last blood-pressure reading.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct DayBloodPressure {
    /// Systolic (mmHg).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub systolic: Option<f64>,
    /// Diastolic (mmHg).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diastolic: Option<f64>,
    /// Pulse (bpm).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pulse: Option<f64>,
    /// Garmin's category (`normal`, `stage 1 high`…).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// Readings that day.
    pub readings: usize,
}

/// Water drunk (ml).
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct DayHydration {
    /// Drunk.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub intake_ml: Option<f64>,
    /// Goal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub goal_ml: Option<f64>,
}

/// One day of a range.
#[derive(Debug, Default, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct HealthRow {
    /// The day.
    pub date: String,
    /// Steps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps: Option<u64>,
    /// Resting heart rate (bpm).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resting_hr_bpm: Option<u64>,
    /// Time asleep the night before (`h:mm`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sleep: Option<String>,
    /// Sleep score.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sleep_score: Option<u64>,
    /// Average stress.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stress_avg: Option<u64>,
    /// Highest Body Battery.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_battery_high: Option<u64>,
    /// Lowest Body Battery.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_battery_low: Option<u64>,
    /// Overnight HRV (ms).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hrv_ms: Option<f64>,
    /// Weigh-in that day (kg).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weight_kg: Option<f64>,
}

/// Averages of a range, over the days that have each value.
#[derive(Debug, Default, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct HealthAverages {
    /// Steps per day.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps: Option<u64>,
    /// Resting heart rate (bpm).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resting_hr_bpm: Option<u64>,
    /// Time asleep (`h:mm`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sleep: Option<String>,
    /// Sleep score.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sleep_score: Option<u64>,
    /// Stress.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stress_avg: Option<u64>,
    /// Daily highest Body Battery.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_battery_high: Option<u64>,
    /// Daily lowest Body Battery.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_battery_low: Option<u64>,
    /// Overnight HRV (ms).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hrv_ms: Option<f64>,
}

#[tool_router(router = health_tools, vis = "pub(crate)")]
impl GarminMcp {
    /// Daily health from the watch: steps, resting heart rate, last night's sleep (times, stages,
    /// score), stress, Body Battery, respiration, SpO2, HRV, intensity minutes, weight and body
    /// composition, blood pressure and hydration — for one day (`date`, default today) or, as one
    /// compact row per day plus averages, for up to 14 days (`start_date`/`end_date`). Use it for
    /// "how did I sleep?", "what's my resting heart rate?", "how stressed was I this week?". Parts
    /// Garmin has no data for are listed in `missing`. `detail=full` adds the sleep-stage timeline
    /// and an hourly stress/Body Battery summary for one day.
    #[tool(
        name = "get_daily_health",
        annotations(
            title = "Daily health: sleep, HRV, stress, Body Battery, steps",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<DailyHealth>()
    )]
    async fn get_daily_health(
        &self,
        Parameters(args): Parameters<DailyHealthArgs>,
    ) -> Result<Answer<DailyHealth>, ToolError> {
        let today = self.today();
        let detail = args.detail.unwrap_or_default();
        match (&args.date, &args.start_date, &args.end_date) {
            (Some(_), Some(_), _) | (Some(_), _, Some(_)) => Err(ToolError::invalid(
                "give either `date` (one day) or `start_date`/`end_date` (a range), not both",
            )),
            (None, None, Some(_)) => Err(ToolError::invalid("`end_date` needs a `start_date`")),
            (_, Some(start), end) => {
                let start = parse_date("start_date", start)?;
                let end = match end {
                    Some(end) => parse_date("end_date", end)?,
                    None => today,
                };
                if end < start {
                    return Err(ToolError::invalid(format!("end_date {end} is before start_date {start}")));
                }
                let days = (end - start).num_days() + 1;
                if end > today {
                    return Err(ToolError::invalid(format!(
                        "end_date {end} is in the future (today is {today})"
                    )));
                }
                if days > MAX_RANGE_DAYS {
                    return Err(ToolError::invalid(format!(
                        "{start} to {end} is {days} days; get_daily_health takes at most {MAX_RANGE_DAYS} days: use a shorter range (or get_period_stats for longer periods)"
                    )));
                }
                if detail == Detail::Full {
                    return Err(ToolError::invalid(
                        "detail=full is for one day: pass `date` instead of a range",
                    ));
                }
                let (summary, data) = self.health_range(start, end).await?;
                Ok(self.answer(summary, data))
            }
            (date, None, None) => {
                let date = match date {
                    Some(text) => parse_date("date", text)?,
                    None => today,
                };
                if date > today {
                    return Err(ToolError::invalid(format!(
                        "date {date} is in the future (today is {today})"
                    )));
                }
                let (summary, data) = self.health_day(date, detail).await?;
                Ok(self.answer(summary, data))
            }
        }
    }
}

impl GarminMcp {
    /// One day: every endpoint once, concurrently.
    async fn health_day(&self, date: NaiveDate, detail: Detail) -> Result<(String, DailyHealth), ToolError> {
        let client = self.garmin().await?;
        let w = client.wellness();
        let full = detail == Detail::Full;
        let series = async { if full { w.stress(date).await } else { Ok(None) } };
        let (summary, sleep, hrv, im, weight, bp, hydration, stress_day, series) = tokio::try_join!(
            w.daily_summary(date),
            w.sleep(date),
            w.hrv(date),
            w.intensity_minutes(date),
            w.weight_range(date - Duration::days(WEIGHT_LOOKBACK_DAYS), date),
            w.blood_pressure(date, date),
            w.hydration(date),
            w.stress_daily(date, date),
            series,
        )?;
        let stress_day = stress_day.into_iter().find(|d| d.calendar_date == Some(date));
        let parts =
            DayParts { date, summary, sleep, hrv, im, weight, bp, hydration, stress_day, series, full };
        let (day, missing) = parts.build();
        if missing.len() == PART_NAMES.len() {
            return Err(ToolError::NoData(format!("No health data recorded for {date}")));
        }
        let text = day_summary(date, &day, &missing);
        Ok((
            text,
            DailyHealth { date: Some(date.to_string()), day: Some(day), missing, ..DailyHealth::default() },
        ))
    }

    /// A range: one range request per endpoint, concurrently.
    async fn health_range(
        &self,
        start: NaiveDate,
        end: NaiveDate,
    ) -> Result<(String, DailyHealth), ToolError> {
        let client = self.garmin().await?;
        let w = client.wellness();
        let (steps, rhr, sleep, stress, battery, hrv, weight) = tokio::try_join!(
            w.steps_daily(start, end),
            w.resting_heart_rate(start, end),
            w.sleep_stats(start, end),
            w.stress_daily(start, end),
            w.body_battery(start, end),
            w.hrv_range(start, end),
            w.weight_range(start, end),
        )?;
        let mut rows = Vec::new();
        let mut missing_by_part: Vec<(&str, Vec<String>)> =
            ["steps", "resting_hr", "sleep", "stress", "body_battery", "hrv"]
                .iter()
                .map(|p| (*p, Vec::new()))
                .collect();
        let mut day = start;
        while day <= end {
            let mut row = HealthRow { date: day.to_string(), ..HealthRow::default() };
            row.steps = steps
                .iter()
                .find(|s| s.calendar_date == Some(day))
                .and_then(|s| s.total_steps)
                .and_then(whole);
            row.resting_hr_bpm =
                rhr.iter().find(|r| r.calendar_date == Some(day)).and_then(|r| r.value).and_then(whole);
            if let Some(values) =
                sleep.iter().find(|s| s.calendar_date == Some(day)).and_then(|s| s.values.as_ref())
            {
                row.sleep = values.total_sleep_time_in_seconds.filter(|s| *s > 0.0).map(hm);
                row.sleep_score = values.sleep_score.and_then(whole);
            }
            row.stress_avg = stress
                .iter()
                .find(|s| s.calendar_date == Some(day))
                .and_then(|s| s.values.as_ref())
                .and_then(|v| v.overall_stress_level)
                .and_then(whole);
            if let Some(report) = battery.iter().find(|b| b.date == Some(day)) {
                let levels: Vec<f64> = report.points().iter().map(|p| p.value).collect();
                row.body_battery_high = levels.iter().copied().reduce(f64::max).and_then(whole);
                row.body_battery_low = levels.iter().copied().reduce(f64::min).and_then(whole);
            }
            row.hrv_ms = hrv.iter().find(|h| h.calendar_date == Some(day)).and_then(|h| h.last_night_avg);
            row.weight_kg = weight_on(&weight, day).and_then(|e| e.weight).map(kg);
            let present = [
                row.steps.is_some(),
                row.resting_hr_bpm.is_some(),
                row.sleep.is_some(),
                row.stress_avg.is_some(),
                row.body_battery_high.is_some(),
                row.hrv_ms.is_some(),
            ];
            for (i, has) in present.iter().enumerate() {
                if !has {
                    missing_by_part[i].1.push(day.to_string());
                }
            }
            rows.push(row);
            day += Duration::days(1);
        }
        let empty = |r: &HealthRow| HealthRow { date: r.date.clone(), ..HealthRow::default() } == *r;
        if rows.iter().all(empty) {
            return Err(ToolError::NoData(format!("No health data recorded from {start} to {end}")));
        }
        let averages = range_averages(&rows);
        let missing: Vec<String> = missing_by_part
            .into_iter()
            .filter(|(_, days)| !days.is_empty())
            .map(|(part, days)| format!("{part}: {}", days.join(", ")))
            .collect();
        let text = range_summary(start, end, &rows, &averages, &missing);
        Ok((
            text,
            DailyHealth {
                start_date: Some(start.to_string()),
                end_date: Some(end.to_string()),
                days: rows,
                averages: Some(averages),
                missing,
                ..DailyHealth::default()
            },
        ))
    }
}

/// Every part of a day, in the order `missing` lists them.
const PART_NAMES: [&str; 12] = [
    "activity",
    "heart_rate",
    "sleep",
    "stress",
    "body_battery",
    "respiration",
    "spo2",
    "hrv",
    "intensity_minutes",
    "body_composition",
    "blood_pressure",
    "hydration",
];

/// What Garmin answered for one day.
struct DayParts {
    date: NaiveDate,
    summary: Option<DailySummary>,
    sleep: Option<Sleep>,
    hrv: Option<Hrv>,
    im: Option<IntensityMinutesDay>,
    weight: WeightRange,
    bp: BloodPressureRange,
    hydration: Option<Hydration>,
    stress_day: Option<StressDay>,
    series: Option<DailyStress>,
    full: bool,
}

impl DayParts {
    /// The day's parts and the names of those Garmin has nothing for.
    fn build(self) -> (HealthDay, Vec<String>) {
        let s = self.summary.as_ref();
        let field = |f: fn(&DailySummary) -> Option<f64>| s.and_then(f);
        let sleep_dto = self.sleep.as_ref().and_then(|x| x.daily_sleep.as_ref());
        // Local wall time = GMT + offset; the day's own bounds give the offset, the night's too.
        let day_offset = s
            .and_then(|x| x.wellness_start_time_gmt)
            .map(|gmt| self.date.and_time(chrono::NaiveTime::MIN) - gmt.naive_utc());
        let sleep_offset =
            sleep_dto.and_then(|d| Some(d.sleep_start_local? - d.sleep_start_gmt?.naive_utc()));
        let offset_for_day = day_offset.or(sleep_offset).unwrap_or_else(Duration::zero);
        let offset_for_sleep = sleep_offset.or(day_offset).unwrap_or_else(Duration::zero);

        let activity = DayActivity {
            steps: field(|x| x.total_steps).and_then(whole),
            step_goal: field(|x| x.daily_step_goal).and_then(whole),
            distance_km: field(|x| x.total_distance_meters).map(output::km),
            floors_climbed: field(|x| x.floors_ascended).and_then(whole),
            calories_kcal: field(|x| x.total_kilocalories).and_then(whole),
            active_calories_kcal: field(|x| x.active_kilocalories).and_then(whole),
        };
        let activity = (activity.steps.is_some() || activity.distance_km.is_some()).then_some(activity);

        let heart_rate = DayHeartRate {
            resting_bpm: field(|x| x.resting_heart_rate)
                .or_else(|| self.sleep.as_ref().and_then(|x| x.resting_heart_rate))
                .and_then(whole),
            min_bpm: field(|x| x.min_heart_rate).and_then(whole),
            max_bpm: field(|x| x.max_heart_rate).and_then(whole),
            resting_7d_avg_bpm: field(|x| x.last_seven_days_avg_resting_heart_rate).and_then(whole),
        };
        let heart_rate =
            (heart_rate.resting_bpm.is_some() || heart_rate.max_bpm.is_some()).then_some(heart_rate);

        let sleep = sleep_dto.filter(|d| d.has_data()).map(|d| {
            let overall = d.sleep_scores.as_ref().and_then(|x| x.overall.as_ref());
            let local = |gmt: Option<chrono::DateTime<chrono::Utc>>, local: Option<NaiveDateTime>| {
                local
                    .or_else(|| gmt.map(|g| g.naive_utc() + offset_for_sleep))
                    .map(|t| t.format("%H:%M").to_string())
            };
            DaySleep {
                start: local(d.sleep_start_gmt, d.sleep_start_local),
                end: local(d.sleep_end_gmt, d.sleep_end_local),
                total: hm(d.sleep_time_seconds.unwrap_or_default()),
                deep: d.deep_sleep_seconds.map(hm),
                light: d.light_sleep_seconds.map(hm),
                rem: d.rem_sleep_seconds.map(hm),
                awake: d.awake_sleep_seconds.map(hm),
                score: overall.and_then(|o| o.value).and_then(whole),
                quality: overall.and_then(|o| o.qualifier_key.as_deref()).map(words),
                stages: if self.full {
                    self.sleep.as_ref().map(|x| sleep_timeline(x, offset_for_sleep)).unwrap_or_default()
                } else {
                    Vec::new()
                },
            }
        });

        let levels = self.stress_day.as_ref().and_then(|d| d.values.as_ref());
        let minutes = |secs: Option<f64>| secs.map(|x| (x / 60.0).round() as u64);
        let stress = DayStress {
            avg: field(|x| x.average_stress_level)
                .or_else(|| levels.and_then(|v| v.overall_stress_level))
                .and_then(whole),
            max: field(|x| x.max_stress_level).and_then(whole),
            qualifier: s.and_then(|x| x.stress_qualifier.as_deref()).map(words),
            rest_min: minutes(levels.and_then(|v| v.rest_stress_duration)),
            low_min: minutes(levels.and_then(|v| v.low_stress_duration)),
            medium_min: minutes(levels.and_then(|v| v.medium_stress_duration)),
            high_min: minutes(levels.and_then(|v| v.high_stress_duration)),
            hourly: self.series.as_ref().map(|x| hourly(x, self.date, offset_for_day)).unwrap_or_default(),
        };
        let stress = (stress.avg.is_some() || stress.rest_min.is_some()).then_some(stress);

        let body_battery = DayBodyBattery {
            charged: field(|x| x.body_battery_charged_value).and_then(whole),
            drained: field(|x| x.body_battery_drained_value).and_then(whole),
            highest: field(|x| x.body_battery_highest_value).and_then(whole),
            lowest: field(|x| x.body_battery_lowest_value).and_then(whole),
            at_wake: field(|x| x.body_battery_at_wake_time).and_then(whole),
        };
        let body_battery =
            (body_battery.highest.is_some() || body_battery.charged.is_some()).then_some(body_battery);

        let respiration = DayRespiration {
            avg_waking_brpm: field(|x| x.avg_waking_respiration_value).filter(|v| *v > 0.0),
            avg_sleeping_brpm: sleep_dto.and_then(|d| d.average_respiration_value).filter(|v| *v > 0.0),
        };
        let respiration = (respiration.avg_waking_brpm.is_some() || respiration.avg_sleeping_brpm.is_some())
            .then_some(respiration);

        let spo2 = DaySpo2 {
            avg_pct: field(|x| x.average_spo2).or_else(|| sleep_dto.and_then(|d| d.average_spo2_value)),
            lowest_pct: field(|x| x.lowest_spo2).or_else(|| sleep_dto.and_then(|d| d.lowest_spo2_value)),
        };
        let spo2 = (spo2.avg_pct.is_some() || spo2.lowest_pct.is_some()).then_some(spo2);

        let hrv = self.hrv.as_ref().and_then(|h| h.hrv_summary.as_ref()).filter(|x| x.has_data()).map(|x| {
            let baseline = x.baseline.as_ref();
            DayHrv {
                last_night_avg_ms: x.last_night_avg,
                weekly_avg_ms: x.weekly_avg,
                baseline_low_ms: baseline.and_then(|b| b.balanced_low),
                baseline_high_ms: baseline.and_then(|b| b.balanced_upper),
                status: x.status.as_deref().map(words),
            }
        });

        let im = self.im.as_ref();
        let intensity = DayIntensity {
            moderate: im
                .and_then(|x| x.moderate_minutes)
                .or_else(|| field(|x| x.moderate_intensity_minutes))
                .and_then(whole),
            vigorous: im
                .and_then(|x| x.vigorous_minutes)
                .or_else(|| field(|x| x.vigorous_intensity_minutes))
                .and_then(whole),
            week_total: im.and_then(|x| x.end_day_minutes).and_then(whole),
            week_goal: im
                .and_then(|x| x.weekly_goal)
                .or_else(|| field(|x| x.intensity_minutes_goal))
                .and_then(whole),
        };
        let intensity = (intensity.moderate.is_some() || intensity.vigorous.is_some()).then_some(intensity);

        let body = latest_weight(&self.weight, self.date).map(|(day, e)| DayBody {
            date: Some(day.to_string()),
            weight_kg: e.weight.map(kg),
            bmi: e.bmi.map(round1),
            body_fat_pct: e.body_fat.map(round1),
        });

        let readings: Vec<_> = self
            .bp
            .measurement_summaries
            .iter()
            .filter(|d| d.start_date.is_none_or(|x| x == self.date))
            .flat_map(|d| d.measurements.iter())
            .collect();
        let blood_pressure =
            readings.iter().max_by_key(|r| r.measurement_timestamp_gmt).map(|r| DayBloodPressure {
                systolic: r.systolic,
                diastolic: r.diastolic,
                pulse: r.pulse,
                category: r.category.as_deref().map(words),
                readings: readings.len(),
            });

        let hydration = self
            .hydration
            .as_ref()
            .filter(|h| h.value_in_ml.is_some())
            .map(|h| DayHydration { intake_ml: h.value_in_ml, goal_ml: h.goal_in_ml });

        let day = HealthDay {
            activity,
            heart_rate,
            sleep,
            stress,
            body_battery,
            respiration,
            spo2,
            hrv,
            intensity_minutes: intensity,
            body_composition: body,
            blood_pressure,
            hydration,
        };
        let present = [
            day.activity.is_some(),
            day.heart_rate.is_some(),
            day.sleep.is_some(),
            day.stress.is_some(),
            day.body_battery.is_some(),
            day.respiration.is_some(),
            day.spo2.is_some(),
            day.hrv.is_some(),
            day.intensity_minutes.is_some(),
            day.body_composition.is_some(),
            day.blood_pressure.is_some(),
            day.hydration.is_some(),
        ];
        let missing = PART_NAMES
            .iter()
            .zip(present)
            .filter(|(_, has)| !has)
            .map(|(name, _)| (*name).to_owned())
            .collect();
        (day, missing)
    }
}

/// The summary sentence(s) of one day.
fn day_summary(date: NaiveDate, day: &HealthDay, missing: &[String]) -> String {
    let mut parts = Vec::new();
    if let Some(s) = &day.sleep {
        let asleep = parse_hm(&s.total).unwrap_or_default();
        let mut text = format!("{date}: slept {}", output::hours_minutes(asleep));
        if let (Some(a), Some(b)) = (&s.start, &s.end) {
            text.push_str(&format!(" ({a}–{b})"));
        }
        if let Some(score) = s.score {
            text.push_str(&format!(", sleep score {score}"));
            if let Some(q) = &s.quality {
                text.push_str(&format!(" ({q})"));
            }
        }
        parts.push(text);
    } else {
        parts.push(format!("{date}: no sleep recorded for the night"));
    }
    if let Some(rhr) = day.heart_rate.as_ref().and_then(|h| h.resting_bpm) {
        parts.push(format!("resting HR {rhr} bpm"));
    }
    if let Some(h) = &day.hrv
        && let Some(avg) = h.last_night_avg_ms
    {
        let status = h.status.as_deref().map(|s| format!(" ({s})")).unwrap_or_default();
        parts.push(format!("HRV {avg:.0} ms{status}"));
    }
    if let Some(avg) = day.stress.as_ref().and_then(|s| s.avg) {
        parts.push(format!("stress avg {avg}"));
    }
    if let Some(b) = &day.body_battery
        && let (Some(hi), Some(lo)) = (b.highest, b.lowest)
    {
        parts.push(format!("Body Battery {lo}–{hi}"));
    }
    if let Some(steps) = day.activity.as_ref().and_then(|a| a.steps) {
        parts.push(format!("{} steps", thousands(steps)));
    }
    let mut text = parts.join(", ") + ".";
    if missing.iter().any(|m| m == "hrv") {
        text.push_str(&format!(" No HRV reading for {date}."));
    }
    let others: Vec<String> =
        missing.iter().filter(|m| m.as_str() != "hrv" && m.as_str() != "sleep").map(|m| words(m)).collect();
    if !others.is_empty() {
        text.push_str(&format!(" Not recorded: {}.", others.join(", ")));
    }
    text
}

/// The summary sentence(s) of a range.
fn range_summary(
    start: NaiveDate,
    end: NaiveDate,
    rows: &[HealthRow],
    avg: &HealthAverages,
    missing: &[String],
) -> String {
    let mut parts = Vec::new();
    if let Some(steps) = avg.steps {
        parts.push(format!("{} steps/day", thousands(steps)));
    }
    if let Some(rhr) = avg.resting_hr_bpm {
        parts.push(format!("resting HR {rhr} bpm"));
    }
    if let Some(sleep) = avg.sleep.as_deref().and_then(parse_hm).map(output::hours_minutes) {
        let score = avg.sleep_score.map(|s| format!(" (score {s})")).unwrap_or_default();
        parts.push(format!("sleep {sleep}{score}"));
    }
    if let Some(stress) = avg.stress_avg {
        parts.push(format!("stress {stress}"));
    }
    if let Some(hrv) = avg.hrv_ms {
        parts.push(format!("HRV {hrv:.0} ms"));
    }
    let mut text = format!("{start} to {end} ({} days), daily averages: {}.", rows.len(), parts.join(", "));
    if let Some(worst) = rows.iter().filter(|r| r.sleep_score.is_some()).min_by_key(|r| r.sleep_score)
        && let Some(score) = worst.sleep_score
    {
        text.push_str(&format!(" Lowest sleep score {score} on {}.", worst.date));
    }
    if !missing.is_empty() {
        text.push_str(&format!(" Gaps: {}.", missing.join("; ")));
    }
    text
}

/// Averages over the rows that have each value.
fn range_averages(rows: &[HealthRow]) -> HealthAverages {
    fn mean(values: impl Iterator<Item = f64>) -> Option<f64> {
        let v: Vec<f64> = values.collect();
        (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
    }
    let u =
        |f: fn(&HealthRow) -> Option<u64>| mean(rows.iter().filter_map(f).map(|x| x as f64)).and_then(whole);
    let sleep_s = mean(rows.iter().filter_map(|r| r.sleep.as_deref()).filter_map(parse_hm));
    HealthAverages {
        steps: u(|r| r.steps),
        resting_hr_bpm: u(|r| r.resting_hr_bpm),
        sleep: sleep_s.map(hm),
        sleep_score: u(|r| r.sleep_score),
        stress_avg: u(|r| r.stress_avg),
        body_battery_high: u(|r| r.body_battery_high),
        body_battery_low: u(|r| r.body_battery_low),
        hrv_ms: mean(rows.iter().filter_map(|r| r.hrv_ms)).map(round1),
    }
}

/// The latest weigh-in on or before `date` in a weight range, with its day.
fn latest_weight(range: &WeightRange, date: NaiveDate) -> Option<(NaiveDate, &WeightEntry)> {
    range
        .daily_weight_summaries
        .iter()
        .filter_map(|d| {
            let day = d.summary_date?;
            let entry = d.latest_weight.as_ref().filter(|e| e.weight.is_some()).or_else(|| {
                d.all_weight_metrics.iter().filter(|e| e.weight.is_some()).max_by_key(|e| e.timestamp_gmt)
            })?;
            (day <= date).then_some((day, entry))
        })
        .max_by_key(|(day, e)| (*day, e.timestamp_gmt))
}

/// The weigh-in of exactly `date`, if any.
fn weight_on(range: &WeightRange, date: NaiveDate) -> Option<&WeightEntry> {
    latest_weight(range, date).filter(|(day, _)| *day == date).map(|(_, e)| e)
}

/// The night's stage timeline: consecutive same-stage stretches merged, then the shortest
/// segments folded into their longer neighbour until at most [`MAX_SLEEP_SEGMENTS`] remain.
pub fn sleep_timeline(sleep: &Sleep, offset: Duration) -> Vec<SleepSegment> {
    let mut segs: Vec<(NaiveDateTime, NaiveDateTime, u8)> = sleep
        .sleep_levels
        .iter()
        .filter_map(|l| {
            let start = l.start_gmt?.naive_utc() + offset;
            let end = l.end_gmt?.naive_utc() + offset;
            let level = l.activity_level?.round();
            ((0.0..=3.0).contains(&level) && end > start).then_some((start, end, level as u8))
        })
        .collect();
    segs.sort_by_key(|s| s.0);
    merge_segments(&mut segs, MAX_SLEEP_SEGMENTS);
    segs.into_iter()
        .map(|(start, end, level)| SleepSegment {
            start: start.format("%H:%M").to_string(),
            stage: stage_name(level).to_owned(),
            min: ((end - start).num_seconds() as f64 / 60.0).round() as u64,
        })
        .collect()
}

/// Merges equal neighbours, then folds the shortest segment into its longer neighbour until at
/// most `max` remain. Segments are `(start, end, level)`, sorted by start.
pub fn merge_segments<T: Copy + Ord + std::ops::Sub<Output = Duration>>(
    segs: &mut Vec<(T, T, u8)>,
    max: usize,
) {
    fn coalesce<T: Copy>(segs: &mut Vec<(T, T, u8)>) {
        let mut out: Vec<(T, T, u8)> = Vec::with_capacity(segs.len());
        for s in segs.drain(..) {
            match out.last_mut() {
                Some(last) if last.2 == s.2 => last.1 = s.1,
                _ => out.push(s),
            }
        }
        *segs = out;
    }
    coalesce(segs);
    while segs.len() > max.max(1) {
        let Some(i) = (0..segs.len()).min_by_key(|&i| segs[i].1 - segs[i].0) else { break };
        let len = |j: usize| segs[j].1 - segs[j].0;
        let into_prev = match (i.checked_sub(1), (i + 1 < segs.len()).then_some(i + 1)) {
            (Some(p), Some(n)) => len(p) >= len(n),
            (Some(_), None) => true,
            _ => false,
        };
        let removed = segs.remove(i);
        if into_prev {
            segs[i - 1].1 = removed.1;
        } else {
            segs[i].0 = removed.0;
        }
        coalesce(segs);
    }
}

/// Hour-by-hour stress and Body Battery of `date` from the day's 3-minute series.
fn hourly(series: &DailyStress, date: NaiveDate, offset: Duration) -> Vec<StressHour> {
    let mut hours: Vec<(Vec<f64>, Option<f64>)> = vec![(Vec::new(), None); 24];
    let hour_of = |at: chrono::DateTime<chrono::Utc>| {
        let local = at.naive_utc() + offset;
        (local.date() == date).then(|| local.hour() as usize)
    };
    for p in series.stress_points() {
        if let Some(h) = hour_of(p.at) {
            hours[h].0.push(p.value);
        }
    }
    let mut battery = series.body_battery_points();
    battery.sort_by_key(|p| p.at);
    for p in battery {
        if let Some(h) = hour_of(p.at) {
            hours[h].1 = Some(p.value);
        }
    }
    hours
        .into_iter()
        .enumerate()
        .filter(|(_, (stress, bb))| !stress.is_empty() || bb.is_some())
        .map(|(h, (stress, bb))| StressHour {
            hour: format!("{h:02}:00"),
            avg: (!stress.is_empty())
                .then(|| stress.iter().sum::<f64>() / stress.len() as f64)
                .and_then(whole),
            max: stress.iter().copied().reduce(f64::max).and_then(whole),
            body_battery: bb.and_then(whole),
        })
        .collect()
}

fn stage_name(level: u8) -> &'static str {
    match level {
        0 => "deep",
        1 => "light",
        2 => "rem",
        _ => "awake",
    }
}

pub(crate) fn parse_date(name: &str, text: &str) -> Result<NaiveDate, ToolError> {
    NaiveDate::parse_from_str(text.trim(), "%Y-%m-%d")
        .map_err(|_| ToolError::invalid(format!("{name} must be YYYY-MM-DD, got `{text}`")))
}

/// A non-negative measurement as a whole number (Garmin uses -1/-2 for "none").
fn whole(x: f64) -> Option<u64> {
    (x.is_finite() && x >= 0.0).then(|| x.round() as u64)
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// Kilograms (one decimal) from grams.
fn kg(grams: f64) -> f64 {
    round1(grams / 1000.0)
}

/// `h:mm` from seconds.
pub fn hm(seconds: f64) -> String {
    let minutes = (seconds.max(0.0) / 60.0).round() as u64;
    format!("{}:{:02}", minutes / 60, minutes % 60)
}

fn parse_hm(text: &str) -> Option<f64> {
    let (h, m) = text.split_once(':')?;
    Some(h.parse::<f64>().ok()? * 3600.0 + m.parse::<f64>().ok()? * 60.0)
}

/// Garmin's `SOME_KEY` as `some key`.
pub(crate) fn words(key: &str) -> String {
    key.trim().to_lowercase().replace('_', " ")
}

/// `12,345`.
pub(crate) fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(min: i64) -> NaiveDateTime {
        NaiveDate::from_ymd_opt(2026, 11, 15).unwrap().and_hms_opt(0, 0, 0).unwrap() + Duration::minutes(min)
    }

    #[test]
    fn a_long_night_folds_into_at_most_forty_segments_covering_the_whole_night() {
        // 120 alternating 3-minute segments with a few long ones.
        let mut segs: Vec<(NaiveDateTime, NaiveDateTime, u8)> =
            (0..120).map(|i| (t(i * 3), t(i * 3 + 3), (i % 4) as u8)).collect();
        segs[10].1 = t(33);
        merge_segments(&mut segs, MAX_SLEEP_SEGMENTS);
        assert!(segs.len() <= MAX_SLEEP_SEGMENTS, "{}", segs.len());
        assert_eq!(segs.first().unwrap().0, t(0));
        assert_eq!(segs.last().unwrap().1, t(360));
        for pair in segs.windows(2) {
            assert_eq!(pair[0].1, pair[1].0, "segments stay contiguous");
            assert_ne!(pair[0].2, pair[1].2, "equal neighbours are merged");
        }
    }

    #[test]
    fn equal_neighbours_merge_and_short_nights_stay_as_they_are() {
        let mut segs = vec![(t(0), t(10), 1), (t(10), t(20), 1), (t(20), t(50), 0)];
        merge_segments(&mut segs, MAX_SLEEP_SEGMENTS);
        assert_eq!(segs, vec![(t(0), t(20), 1), (t(20), t(50), 0)]);
    }

    #[test]
    fn helpers_format_like_people_write() {
        assert_eq!(hm(27_120.0), "7:32");
        assert_eq!(hm(59.0), "0:01");
        assert_eq!(parse_hm("7:32"), Some(27_120.0));
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(999), "999");
        assert_eq!(words("STAGE_1_HIGH"), "stage 1 high");
        assert_eq!(whole(-1.0), None);
    }
}
