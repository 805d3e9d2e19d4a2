//! The answer types of the `health` toolset: what `get_daily_health` sends back for one day or a
//! range, with the doc comments that become its output schema.

use rmcp::schemars;
use serde::Serialize;

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
    /// One plain sentence per metric the watch does not record or Garmin keeps from this account
    /// ("your Forerunner 255 does not record Health Status"), never shown as zeros.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_recorded: Vec<String>,
    /// Where the range's Health Status came from: the local history when it covers the range
    /// (`history`, or `history+garmin` with today live), else Garmin live (range form).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub health_status_source: Option<crate::history::DataSource>,
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
    /// Health Status: each overnight metric against the athlete's own baseline range (recent
    /// watches).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub health_status: Option<HealthStatusPart>,
}

/// Health Status: the night's metrics against the athlete's own baseline.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct HealthStatusPart {
    /// Garmin's overall verdict in words (`all in range`, `out of range`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overall: Option<String>,
    /// HRV, resting heart rate, respiration, skin temperature and SpO2, those Garmin gave.
    pub metrics: Vec<HealthStatusMetricPart>,
}

/// One metric of Health Status.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct HealthStatusMetricPart {
    /// `hrv`, `resting heart rate`, `respiration`, `skin temperature` or `spo2`.
    pub metric: String,
    /// The night's value, in `unit`.
    pub value: f64,
    /// `ms`, `bpm`, `breaths/min`, `°C change` (from the usual) or `%`.
    pub unit: String,
    /// The athlete's baseline range, low end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline_low: Option<f64>,
    /// The athlete's baseline range, high end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline_high: Option<f64>,
    /// `within baseline`, `above baseline`, `below baseline` or `no baseline yet`.
    pub status: String,
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
    /// Time asleep (`h:mm`); absent when Garmin kept the stages but no total.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<String>,
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
    /// Sleep Garmin judged this night needed (`h:mm`), with the baseline and why they differ.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub need: Option<SleepNeedPart>,
    /// Stage timeline (detail=full): consecutive segments, at most 40, short ones merged into
    /// their neighbours.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stages: Vec<SleepSegment>,
}

/// Sleep need: Garmin's baseline and the night's need, with the reasons it moved.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct SleepNeedPart {
    /// The night's need (`h:mm`).
    pub need: String,
    /// The athlete's baseline need (`h:mm`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baseline: Option<String>,
    /// Why the need differs from the baseline, e.g. `recent training: increasing`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<String>,
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
    /// The latest reading (`detail: full`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub latest_pct: Option<f64>,
    /// The average of the last seven days (`detail: full`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seven_day_avg_pct: Option<f64>,
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
    /// The sleep Garmin said the night needed (`h:mm`): from the local history when it covers the
    /// range, else from the night's sleep row.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sleep_need: Option<String>,
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
    /// The night's Health Status against the athlete's baseline (recent watches).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub health_status: Option<HealthStatusRow>,
}

/// One night's Health Status in a range row.
#[derive(Debug, Default, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct HealthStatusRow {
    /// Metrics within the athlete's baseline (or without one yet) that night.
    pub within_baseline: usize,
    /// The metrics outside it with their numbers, e.g. `resting heart rate above baseline (58
    /// bpm, baseline 48–54)`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub out_of_baseline: Vec<String>,
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
