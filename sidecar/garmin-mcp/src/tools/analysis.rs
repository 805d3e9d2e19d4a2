//! The `analysis` toolset: training analyses computed from the local history (issue #16 §4) —
//! load balance (ACWR both ways, monotony and strain), weekly intensity distribution, two periods
//! side by side, and efficiency with decoupling. Each tool reads the `history` crate and hands the
//! numbers to the `analytics` crate (no formula lives here), then answers compactly with the
//! numbers, the conventions the analytics results carry and a one-line reading. A range the
//! history does not cover is said plainly, with how to fill it (`sync_history`).

use ::history::History;
use ::history::read::ActivityLoad;
use ::history::read_laps::ActivityLaps;
use chrono::{Datelike, Duration, NaiveDate};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{schemars, tool, tool_router};
use serde::{Deserialize, Serialize};

use crate::domain::dates::{date_range, parse_opt_date};
use crate::domain::session_load::{Athlete, load_choice, round1, session_loads};
use crate::history::DataSource;
use crate::output::Answer;
use crate::server::GarminMcp;
use crate::tool_error::ToolError;

/// Longest range of the weekly analyses (26 weeks keep the answer within the budget).
const WEEKLY_MAX_DAYS: i64 = 182;
/// Default range of the weekly analyses.
const WEEKLY_DEFAULT_DAYS: i64 = 84;
/// Longest range of one period or of the efficiency trend.
const PERIOD_MAX_DAYS: i64 = 366;
/// Activities listed one by one in the efficiency trend (newest).
const EFFICIENCY_LISTED: usize = 25;
/// How far an activity's average heart rate may be from the asked one for speed at a heart rate.
const HR_TOLERANCE_BPM: f64 = 5.0;

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// The history and how much of a range it covers.
pub(crate) struct Covered {
    pub(crate) history: History,
    pub(crate) source: DataSource,
    pub(crate) notes: Vec<String>,
}

impl GarminMcp {
    /// The history for `start..=end` (today is never in it), or `Err(note)` saying the range is not
    /// covered and how to sync it.
    pub(crate) fn covered(&self, start: NaiveDate, end: NaiveDate) -> Result<Covered, String> {
        let hint = format!(
            "the local history does not cover {start} to {end}: run sync_history (since {start}) first, then ask again"
        );
        let yesterday = self.today() - Duration::days(1);
        let Some(history) = self.history_for_reads() else { return Err(hint) };
        let last = end.min(yesterday);
        if start > last {
            return Err(format!(
                "{start} to {end} has no finished day yet: the history holds days that are over"
            ));
        }
        let coverage = match history.coverage(start, last) {
            Ok(c) => c,
            Err(e) => {
                tracing::warn!("reading the local history failed: {e}");
                return Err(hint);
            }
        };
        let Some(covered_to) = coverage.covered_to else { return Err(hint) };
        let mut notes = Vec::new();
        if covered_to < end {
            notes.push(format!(
                "the history covers {start} to {covered_to} only; days after it are not counted (run sync_history to bring it up to date)"
            ));
        }
        Ok(Covered { history, source: DataSource::history(covered_to, coverage.synced_at, false), notes })
    }
}

/// Daily loads on one scale for `activities`, with the athlete's profile read live when the
/// choice needs it; the notes say what was missing.
async fn daily_loads_of(
    server: &GarminMcp,
    activities: &[ActivityLoad],
    choice: analytics::load::LoadChoice,
) -> Result<(analytics::load::DailyLoadSeries, Vec<String>), ToolError> {
    use analytics::load::LoadChoice;
    let need_hr = matches!(choice, LoadChoice::Auto | LoadChoice::HeartRate);
    let need_power = matches!(choice, LoadChoice::Auto | LoadChoice::Power);
    let athlete = if need_hr || need_power {
        let client = server.garmin().await?;
        server.athlete(&client, need_hr, need_power).await
    } else {
        Athlete::default()
    };
    let sessions = session_loads(activities, &athlete);
    Ok((analytics::load::daily_loads(&sessions, choice), athlete.notes))
}

fn scale_word(scale: Option<analytics::load::LoadScale>) -> &'static str {
    match scale {
        Some(analytics::load::LoadScale::Tss) => "tss",
        Some(analytics::load::LoadScale::Garmin) => "garmin",
        None => "none",
    }
}

fn band_word(band: Option<analytics::acwr::AcwrBand>) -> Option<String> {
    use analytics::acwr::AcwrBand;
    band.map(|b| {
        match b {
            AcwrBand::Under => "under",
            AcwrBand::Productive => "productive",
            AcwrBand::Caution => "caution",
            AcwrBand::HighRisk => "high_risk",
        }
        .to_owned()
    })
}

fn monotony_word(level: Option<analytics::acwr::MonotonyLevel>) -> Option<String> {
    use analytics::acwr::MonotonyLevel;
    level.map(|l| {
        match l {
            MonotonyLevel::Varied => "varied",
            MonotonyLevel::Warn => "warn",
            MonotonyLevel::High => "high",
        }
        .to_owned()
    })
}

// ---------------------------------------------------------------------------------------------
// get_load_balance

/// Arguments of `get_load_balance`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct LoadBalanceArgs {
    /// First day, `YYYY-MM-DD` (default: 84 days before `end_date`; at most 182 days).
    #[serde(default)]
    pub start_date: Option<String>,
    /// Last day, `YYYY-MM-DD` (default: yesterday, the last day the history holds).
    #[serde(default)]
    pub end_date: Option<String>,
    /// Which load per session, as in `get_fitness_trend`: `auto` (default, best available, never
    /// mixed), `garmin`, `hr` or `power`.
    #[serde(default)]
    #[schemars(extend("enum" = ["auto", "garmin", "hr", "power"]))]
    pub load: Option<String>,
}

/// The 7 days ending on `week_end`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct BalanceWeek {
    /// Last day of the week (weeks end on `end_date`).
    pub week_end: String,
    /// The 7 days' load, on `load_scale`.
    pub load: f64,
    /// Rolling ACWR (7-day sum / (28-day sum / 4)); absent before 28 days of data or without chronic load.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub acwr_rolling: Option<f64>,
    /// Its band: `under`, `productive`, `caution` or `high_risk`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rolling_band: Option<String>,
    /// EWMA ACWR (λ 2/8 acute, 2/29 chronic).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub acwr_ewma: Option<f64>,
    /// Its band.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ewma_band: Option<String>,
    /// Foster monotony of the 7 days (capped at 10); absent for a week without load.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub monotony: Option<f64>,
    /// `varied`, `warn` (≥ 1.5) or `high` (≥ 2.0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub monotony_level: Option<String>,
    /// Strain = the week's load × monotony.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strain: Option<f64>,
    /// True within the first 28 days of the history: ratios are rough.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub settling: bool,
}

/// The answer of `get_load_balance`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct LoadBalance {
    /// First day asked.
    pub start_date: String,
    /// Last day asked.
    pub end_date: String,
    /// The load asked for.
    pub load: String,
    /// `tss`, `garmin` or `none` (no session with a load of that kind).
    pub load_scale: String,
    /// What was counted as each day's load.
    pub load_convention: String,
    /// The ACWR convention.
    pub acwr_convention: String,
    /// The monotony and strain convention.
    pub monotony_convention: String,
    /// One line: where the balance stands at the end of the range.
    pub reading: String,
    /// One entry per 7 days ending on `end_date`, oldest first.
    pub weeks: Vec<BalanceWeek>,
    /// What is missing or left out.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Where the numbers came from (absent when the history does not cover the range).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<DataSource>,
}

// ---------------------------------------------------------------------------------------------
// get_intensity_distribution

/// Arguments of `get_intensity_distribution`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct IntensityArgs {
    /// First day, `YYYY-MM-DD` (default: 84 days before `end_date`; at most 182 days).
    #[serde(default)]
    pub start_date: Option<String>,
    /// Last day, `YYYY-MM-DD` (default: yesterday).
    #[serde(default)]
    pub end_date: Option<String>,
}

/// Time in heart-rate zones over some days.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct ZoneWeek {
    /// Monday of the week (the period's first day for the whole-period entry).
    pub from: String,
    /// Activities with zone times.
    pub activities: usize,
    /// Minutes in heart-rate zones 1–5.
    pub zone_minutes: Vec<f64>,
    /// Percent of the zone time in zones 1–2.
    pub low_share_percent: f64,
    /// Treff polarization index; absent when undefined (see `pi_note`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub polarization_index: Option<f64>,
    /// PI > 2.0.
    pub polarized: bool,
    /// Why the index is undefined or floored.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub pi_note: String,
}

/// The answer of `get_intensity_distribution`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct IntensityDistribution {
    /// First day asked.
    pub start_date: String,
    /// Last day asked.
    pub end_date: String,
    /// The zone convention.
    pub zone_convention: String,
    /// The polarization index convention (with its edge cases).
    pub pi_convention: String,
    /// One line on the whole period.
    pub reading: String,
    /// The whole period.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub period: Option<ZoneWeek>,
    /// One entry per calendar week (Monday to Sunday) touching the range, oldest first.
    pub weeks: Vec<ZoneWeek>,
    /// Activities in the range without stored zone times.
    pub activities_without_zones: usize,
    /// What is missing.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Where the numbers came from (absent when the history does not cover the range).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<DataSource>,
}

/// Seconds in zones 1–5 of an activity (other zone numbers ignored).
fn five_zones(a: &ActivityLoad) -> Option<[f64; 5]> {
    let mut out = [0.0; 5];
    let mut any = false;
    for (zone, seconds, _) in &a.hr_zones {
        if let Some(slot) =
            usize::try_from(*zone).ok().and_then(|z| z.checked_sub(1)).and_then(|i| out.get_mut(i))
        {
            *slot += *seconds;
            any = true;
        }
    }
    any.then_some(out)
}

/// Seconds in zones 1–5 per calendar week (Monday first) from `start`'s week to `end`, the whole
/// range's, and the activities without zone times.
type WeekZones = (NaiveDate, usize, [f64; 5]);
fn weekly_zones(
    activities: &[ActivityLoad],
    start: NaiveDate,
    end: NaiveDate,
) -> (Vec<WeekZones>, (usize, [f64; 5]), usize) {
    let monday = |d: NaiveDate| d - Duration::days(i64::from(d.weekday().num_days_from_monday()));
    let mut weeks: std::collections::BTreeMap<NaiveDate, (usize, [f64; 5])> = Default::default();
    let mut total = (0usize, [0.0f64; 5]);
    let mut without = 0;
    for a in activities {
        let Some(zones) = five_zones(a) else {
            without += 1;
            continue;
        };
        let week = weeks.entry(monday(a.date)).or_default();
        week.0 += 1;
        total.0 += 1;
        for (i, seconds) in zones.iter().enumerate() {
            week.1[i] += seconds;
            total.1[i] += seconds;
        }
    }
    let mut out = Vec::new();
    let mut week = monday(start);
    while week <= end {
        let (count, seconds) = weeks.get(&week).copied().unwrap_or_default();
        out.push((week, count, seconds));
        week += Duration::days(7);
    }
    (out, total, without)
}

fn zone_week(from: NaiveDate, activities: usize, seconds: [f64; 5]) -> ZoneWeek {
    use analytics::intensity::{polarization_index, three_zones_from_five, zone_distribution};
    let dist = zone_distribution(&seconds, 2);
    let pi = polarization_index(three_zones_from_five(seconds));
    ZoneWeek {
        from: from.to_string(),
        activities,
        zone_minutes: dist.seconds.iter().map(|s| round1(s / 60.0)).collect(),
        low_share_percent: round1(dist.low_share * 100.0),
        polarization_index: pi.value.map(round2),
        polarized: pi.polarized,
        pi_note: pi.note.to_owned(),
    }
}

// ---------------------------------------------------------------------------------------------
// compare_periods

/// Arguments of `compare_periods`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct ComparePeriodsArgs {
    /// First (reference) period's first day, `YYYY-MM-DD` (default: as long before `first_end` as the second period lasts).
    #[serde(default)]
    pub first_start: Option<String>,
    /// First period's last day (default: the day before `second_start`).
    #[serde(default)]
    pub first_end: Option<String>,
    /// Second period's first day (default: 27 days before `second_end`).
    #[serde(default)]
    pub second_start: Option<String>,
    /// Second period's last day (default: yesterday). Each period at most 366 days.
    #[serde(default)]
    pub second_end: Option<String>,
    /// Which load per session: `auto` (default), `garmin`, `hr` or `power`; one scale for both periods.
    #[serde(default)]
    #[schemars(extend("enum" = ["auto", "garmin", "hr", "power"]))]
    pub load: Option<String>,
}

/// One period's totals.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct PeriodSide {
    /// First day.
    pub from: String,
    /// Last day.
    pub to: String,
    /// Activities.
    pub activities: usize,
    /// Total timer time, hours.
    pub hours: f64,
    /// Total distance, km.
    pub distance_km: f64,
    /// Total load, on `load_scale`.
    pub load: f64,
    /// Percent of heart-rate zone time in zones 1–2.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub low_intensity_percent: Option<f64>,
    /// Duration-weighted mean EF of the runs, (m/min)/bpm.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run_efficiency: Option<f64>,
}

/// A change, second minus first.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct PeriodChange {
    /// Difference (in the side's unit; percentage points for the low-intensity share).
    pub difference: f64,
    /// Percent of the first; absent when the first is 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub percent: Option<f64>,
}

/// The changes from the first period to the second.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct PeriodChanges {
    /// Activities.
    pub activities: PeriodChange,
    /// Hours.
    pub hours: PeriodChange,
    /// Kilometres.
    pub distance_km: PeriodChange,
    /// Load.
    pub load: PeriodChange,
    /// Low-intensity share, percentage points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub low_intensity_points: Option<f64>,
    /// Run efficiency.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run_efficiency: Option<PeriodChange>,
}

/// The answer of `compare_periods`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct PeriodComparisonAnswer {
    /// The first (reference) period.
    pub first: PeriodSide,
    /// The second period.
    pub second: PeriodSide,
    /// Second minus first.
    pub change: PeriodChanges,
    /// The load asked for.
    pub load: String,
    /// `tss`, `garmin` or `none`.
    pub load_scale: String,
    /// What was counted as load.
    pub load_convention: String,
    /// The comparison convention.
    pub convention: String,
    /// One line on what changed.
    pub reading: String,
    /// What is missing.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Where the numbers came from (absent when the history does not cover the periods).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<DataSource>,
}

fn change(c: analytics::compare::Delta, scale: f64) -> PeriodChange {
    PeriodChange { difference: round2(c.difference * scale), percent: c.percent.map(round1) }
}

// ---------------------------------------------------------------------------------------------
// get_efficiency_trend

/// Arguments of `get_efficiency_trend`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct EfficiencyArgs {
    /// First day, `YYYY-MM-DD` (default: 182 days before `end_date`; at most 366 days).
    #[serde(default)]
    pub start_date: Option<String>,
    /// Last day, `YYYY-MM-DD` (default: yesterday).
    #[serde(default)]
    pub end_date: Option<String>,
    /// `running` (default: EF from speed, and speed at a heart rate per month) or `cycling` (EF
    /// from Garmin's normalized power).
    #[serde(default)]
    #[schemars(extend("enum" = ["running", "cycling"]))]
    pub sport: Option<String>,
    /// Heart rate for the monthly speed at a heart rate, bpm (running; default: the median
    /// average heart rate of the runs in the range).
    #[serde(default)]
    #[schemars(range(min = 60, max = 230))]
    pub heart_rate: Option<u32>,
}

/// One activity's efficiency.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct ActivityEfficiency {
    /// The day.
    pub date: String,
    /// Garmin's id.
    pub activity_id: u64,
    /// EF in `unit`.
    pub ef: f64,
    /// Output used: mean speed (m/min) or NP (W).
    pub output: f64,
    /// Average heart rate, bpm.
    pub avg_hr: f64,
    /// Passed the steadiness test (≥ 20 min, lap-to-lap variation within the limit).
    pub steady: bool,
    /// Aerobic decoupling, percent (steady efforts only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decoupling_percent: Option<f64>,
}

/// One month's efficiency.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct MonthEfficiency {
    /// `YYYY-MM`.
    pub month: String,
    /// Activities with an EF.
    pub activities: usize,
    /// Duration-weighted mean EF.
    pub ef: f64,
    /// Speed at the heart rate asked (running), min/km.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pace_at_hr: Option<String>,
    /// Runs within ±5 bpm of that heart rate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub runs_at_hr: Option<usize>,
}

/// The answer of `get_efficiency_trend`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct EfficiencyTrend {
    /// First day asked.
    pub start_date: String,
    /// Last day asked.
    pub end_date: String,
    /// `running` or `cycling`.
    pub sport: String,
    /// EF unit: `(m/min)/bpm` or `W/bpm`.
    pub unit: String,
    /// The heart rate of `pace_at_hr` (running).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heart_rate: Option<f64>,
    /// The EF and decoupling convention.
    pub convention: String,
    /// How the history's data were used (laps, not seconds).
    pub method: String,
    /// The speed-at-heart-rate convention (running).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pace_convention: Option<String>,
    /// One line on the trend.
    pub reading: String,
    /// One entry per month with an EF, oldest first.
    pub months: Vec<MonthEfficiency>,
    /// The newest activities (at most 25), newest first.
    pub activities: Vec<ActivityEfficiency>,
    /// Activities with an EF in the range.
    pub activities_total: usize,
    /// What is missing or left out.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Where the numbers came from (absent when the history does not cover the range).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<DataSource>,
}

/// How `get_efficiency_trend` uses the history.
pub const EFFICIENCY_METHOD: &str = "the history keeps lap averages, not second-by-second series: each activity is laid out \
     second by second at its laps' average speed (or power) and heart rate (one lap from the summary when there are none), \
     halves split by time; the steadiness test then measures lap-to-lap variation; cycling EF uses Garmin's normalized power";

/// Is this activity of the sport (its type or its parent type)?
fn of_sport(a: &ActivityLaps, sport: &str) -> bool {
    let is = |key: &Option<String>| {
        key.as_deref().is_some_and(|k| match sport {
            "cycling" => k.contains("cycling") || k.contains("biking") || k == "virtual_ride",
            _ => k.contains("running"),
        })
    };
    is(&a.type_key) || is(&a.parent_type_key)
}

/// An activity laid out second by second from its laps: (output, heart rate).
fn lap_series(a: &ActivityLaps, power: bool) -> (Vec<f64>, Vec<f64>) {
    let mut output = Vec::new();
    let mut hr = Vec::new();
    let mut push = |seconds: Option<f64>, value: Option<f64>, bpm: Option<f64>| {
        let n = seconds.filter(|s| s.is_finite() && *s > 0.0).map_or(0, |s| s.round().min(86_400.0) as usize);
        let value = value.unwrap_or(0.0);
        let bpm = bpm.unwrap_or(0.0);
        output.extend(std::iter::repeat_n(value, n));
        hr.extend(std::iter::repeat_n(bpm, n));
    };
    let speed = |d: Option<f64>, t: Option<f64>| d.zip(t).filter(|(_, t)| *t > 0.0).map(|(d, t)| d / t);
    if a.laps.is_empty() {
        let value = if power { a.norm_power } else { speed(a.distance_m, a.duration_s) };
        push(a.duration_s, value, a.avg_hr);
    } else {
        for lap in &a.laps {
            let value = if power {
                lap.avg_power
            } else {
                lap.avg_speed_mps.or(speed(lap.distance_m, lap.duration_s))
            };
            push(lap.duration_s, value, lap.avg_hr);
        }
    }
    output.truncate(86_400);
    hr.truncate(86_400);
    (output, hr)
}

/// `m/s` as `m:ss` per km.
fn pace(speed_mps: f64) -> Option<String> {
    if !(speed_mps.is_finite() && speed_mps > 0.0) {
        return None;
    }
    let seconds = (1000.0 / speed_mps).round() as u64;
    Some(format!("{}:{:02}/km", seconds / 60, seconds % 60))
}

/// Default range of `get_plan_vs_actual`: the last 7 days ending yesterday.
const PLAN_DEFAULT_DAYS: i64 = 7;
/// Longest range of `get_plan_vs_actual` (the calendar is read a month per request).
const PLAN_MAX_DAYS: i64 = 92;
/// Planned workouts and unplanned activities listed one by one (the counts cover all).
const PLAN_LISTED: usize = 60;

/// Arguments of `get_plan_vs_actual`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct PlanVsActualArgs {
    /// First day, `YYYY-MM-DD` (default: 6 days before `end_date`, a week in all; at most 92 days).
    #[serde(default)]
    pub start_date: Option<String>,
    /// Last day, `YYYY-MM-DD` (default: yesterday; today counts too when asked, its workouts not
    /// yet done shown as pending).
    #[serde(default)]
    pub end_date: Option<String>,
}

/// One scheduled workout and what was done for it.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct PlannedWorkoutRow {
    /// The day it was scheduled on.
    pub date: String,
    /// Workout name.
    pub name: String,
    /// Sport family: `running`, `cycling`, `swimming`, `walking/hiking` or `other`.
    pub sport: String,
    /// The library workout (for `get_workouts`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workout_id: Option<u64>,
    /// The calendar entry (`workoutScheduleId`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schedule_id: Option<u64>,
    /// Planned time, `h:mm:ss`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub planned_duration: Option<String>,
    /// Planned distance, km.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub planned_distance_km: Option<f64>,
    /// True when the planned totals are the preview's estimate (an easy pace, a typical length
    /// for an open step) rather than the steps' own numbers.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub planned_estimated: bool,
    /// `done`, `missed` (a day that is over with nothing of its sport) or `pending` (today, not
    /// done yet).
    pub status: String,
    /// The activity that did it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activity_id: Option<u64>,
    /// Its name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activity_name: Option<String>,
    /// Its time, `h:mm:ss`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actual_duration: Option<String>,
    /// Its distance, km.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actual_distance_km: Option<f64>,
    /// What the percentage compares: `time`, or `distance` when the workout has no planned time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compared_on: Option<String>,
    /// 100 × actual / planned, whole percent (0 when missed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub percent: Option<i64>,
    /// `green` (80–120 %), `yellow` (50–79 % or 121–150 %) or `red` (otherwise, missed included).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colour: Option<String>,
}

/// An activity no workout was planned for.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct UnplannedRow {
    /// The day.
    pub date: String,
    /// Activity id (for `get_activity`).
    pub activity_id: u64,
    /// Name.
    pub name: String,
    /// Activity type, e.g. `running`.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Time, `h:mm:ss`.
    pub duration: String,
    /// Distance, km.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance_km: Option<f64>,
}

/// Counts of `get_plan_vs_actual`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct PlanCounts {
    /// Workouts scheduled in the range.
    pub planned: usize,
    /// Green (within ±20 % of the plan).
    pub green: usize,
    /// Yellow.
    pub yellow: usize,
    /// Red, missed ones included.
    pub red: usize,
    /// Missed (nothing of the workout's sport that day).
    pub missed: usize,
    /// Scheduled for today and not done yet.
    pub pending: usize,
    /// Activities with no workout planned.
    pub unplanned: usize,
}

/// The answer of `get_plan_vs_actual`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct PlanVsActual {
    /// First day.
    pub start_date: String,
    /// Last day.
    pub end_date: String,
    /// How workouts and activities are matched and coloured, in one sentence.
    pub convention: String,
    /// The counts.
    pub counts: PlanCounts,
    /// Each scheduled workout, by day.
    pub workouts: Vec<PlannedWorkoutRow>,
    /// Activities done without a planned workout, by day.
    pub unplanned: Vec<UnplannedRow>,
    /// Rows left out to keep the answer short (the counts cover them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rows_left_out: Option<usize>,
    /// Parts Garmin could not give, with why; the rest is still compared.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
    /// Where the activities came from (the calendar is always read live).
    pub source: DataSource,
}

/// How `get_plan_vs_actual` matches and colours.
pub const PLAN_MATCHING: &str = "each workout scheduled on Garmin's calendar is matched with an activity of the same sport \
     on the same day (the one closest to the planned time; longer plans choose first); planned time and distance \
     are the workout preview's totals; compared on time, or on distance when the workout has no planned time";

fn plan_row(c: &crate::domain::plan::Checked) -> PlannedWorkoutRow {
    use crate::domain::plan::{Basis, Outcome};
    let p = &c.planned;
    PlannedWorkoutRow {
        date: p.date.to_string(),
        name: p.name.clone(),
        sport: p.family.sport_name().to_owned(),
        workout_id: p.workout_id,
        schedule_id: p.schedule_id,
        planned_duration: p.duration_s.map(display::duration_hms),
        planned_distance_km: p.distance_m.filter(|m| *m > 0.0).map(|m| round2(m / 1000.0)),
        planned_estimated: p.estimated,
        status: match c.outcome {
            Outcome::Done => "done",
            Outcome::Missed => "missed",
            Outcome::Pending => "pending",
        }
        .to_owned(),
        activity_id: c.done.as_ref().map(|d| d.activity_id),
        activity_name: c.done.as_ref().map(|d| d.name.clone()),
        actual_duration: c.done.as_ref().map(|d| display::duration_hms(d.duration_s)),
        actual_distance_km: c.done.as_ref().and_then(|d| d.distance_m).map(|m| round2(m / 1000.0)),
        compared_on: c.basis.map(|b| if b == Basis::Time { "time" } else { "distance" }.to_owned()),
        percent: c.check.as_ref().map(|k| k.percent),
        colour: c.check.as_ref().map(|k| {
            serde_json::to_value(k.compliance)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default()
        }),
    }
}

fn unplanned_row(d: &crate::domain::plan::Done) -> UnplannedRow {
    UnplannedRow {
        date: d.date.to_string(),
        activity_id: d.activity_id,
        name: d.name.clone(),
        kind: d.type_key.clone(),
        duration: display::duration_hms(d.duration_s),
        distance_km: d.distance_m.filter(|m| *m > 0.0).map(|m| round2(m / 1000.0)),
    }
}

/// The one-line reading of a comparison.
fn plan_reading(start: NaiveDate, end: NaiveDate, counts: &PlanCounts) -> String {
    if counts.planned == 0 {
        return format!(
            "No workout was scheduled on Garmin's calendar from {start} to {end}; {} activities were done.",
            counts.unplanned
        );
    }
    let mut line = format!(
        "{start} to {end}: {} workouts planned — {} green, {} yellow, {} red ({} missed)",
        counts.planned, counts.green, counts.yellow, counts.red, counts.missed
    );
    if counts.pending > 0 {
        line.push_str(&format!(", {} still to do today", counts.pending));
    }
    line.push_str(&format!("; {} unplanned activities.", counts.unplanned));
    line
}

#[tool_router(router = analysis_tools, vis = "pub(crate)")]
impl GarminMcp {
    /// Load balance week by week from the local history: acute:chronic workload ratio both ways
    /// (rolling 7/28-day and EWMA) with its bands, Foster's monotony and strain, on one load scale
    /// (`load`, as in get_fitness_trend), with the conventions and a one-line reading. Use it for
    /// "am I ramping up too fast?", "is my training too monotonous?". Needs the history
    /// (`sync_history`).
    #[tool(
        name = "get_load_balance",
        annotations(
            title = "Load balance: ACWR, monotony, strain",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<LoadBalance>()
    )]
    async fn get_load_balance(
        &self,
        Parameters(args): Parameters<LoadBalanceArgs>,
    ) -> Result<Answer<LoadBalance>, ToolError> {
        use analytics::acwr::{ACWR_CONVENTION, MONOTONY_CONVENTION, acute_chronic, monotony_strain};
        let today = self.today();
        let (start, end) = date_range(
            today,
            ("start_date", args.start_date.as_deref()),
            ("end_date", args.end_date.as_deref()),
            WEEKLY_DEFAULT_DAYS,
            WEEKLY_MAX_DAYS,
        )?;
        let (load_word, choice) = load_choice(args.load.as_deref())?;
        let mut answer = LoadBalance {
            start_date: start.to_string(),
            end_date: end.to_string(),
            load: load_word.clone(),
            load_scale: "none".to_owned(),
            load_convention: String::new(),
            acwr_convention: ACWR_CONVENTION.to_owned(),
            monotony_convention: MONOTONY_CONVENTION.to_owned(),
            reading: String::new(),
            weeks: Vec::new(),
            notes: Vec::new(),
            source: None,
        };
        let covered = match self.covered(start, end) {
            Ok(c) => c,
            Err(note) => {
                answer.reading = format!("No load balance: {note}.");
                let summary = format!("Load balance {start} to {end}: {note}.");
                answer.notes.push(note);
                return Ok(self.answer(summary, answer));
            }
        };
        let activities = covered
            .history
            .activity_loads(NaiveDate::MIN, end)
            .map_err(|e| ToolError::Local(e.to_string()))?;
        let (loads, notes) = daily_loads_of(self, &activities, choice).await?;
        let acwr = acute_chronic(&loads.days, Some(end)).map_err(|e| ToolError::Local(e.to_string()))?;
        let monotony =
            monotony_strain(&loads.days, Some(end)).map_err(|e| ToolError::Local(e.to_string()))?;
        let mut week_end = end;
        while week_end >= start {
            let a = acwr.days.iter().find(|d| d.date == week_end);
            let m = monotony.days.iter().find(|d| d.date == week_end);
            if a.is_some() || m.is_some() {
                answer.weeks.push(BalanceWeek {
                    week_end: week_end.to_string(),
                    load: round1(m.map_or_else(
                        || a.map_or(0.0, |a| a.rolling.map_or(0.0, |r| r.acute)),
                        |m| m.weekly_load,
                    )),
                    acwr_rolling: a.and_then(|a| a.rolling).and_then(|r| r.ratio).map(round2),
                    rolling_band: band_word(a.and_then(|a| a.rolling).and_then(|r| r.band)),
                    acwr_ewma: a.and_then(|a| a.ewma.ratio).map(round2),
                    ewma_band: band_word(a.and_then(|a| a.ewma.band)),
                    monotony: m.and_then(|m| m.monotony).map(round2),
                    monotony_level: monotony_word(m.and_then(|m| m.level)),
                    strain: m.and_then(|m| m.strain).map(round1),
                    settling: a.is_some_and(|a| a.settling),
                });
            }
            week_end -= Duration::days(7);
        }
        answer.weeks.reverse();
        answer.load_scale = scale_word(loads.scale).to_owned();
        answer.load_convention = loads.convention.clone();
        answer.reading = match answer.weeks.last() {
            None => format!("No session with a {load_word} load up to {end} in the history."),
            Some(w) => {
                let ratio = |r: Option<f64>, b: &Option<String>| match (r, b) {
                    (Some(r), Some(b)) => format!("{r:.2} ({})", b.replace('_', " ")),
                    _ => "n/a".to_owned(),
                };
                let mut line = format!(
                    "Week to {}: load {:.0}, ACWR rolling {} / EWMA {}, monotony {}{}.",
                    w.week_end,
                    w.load,
                    ratio(w.acwr_rolling, &w.rolling_band),
                    ratio(w.acwr_ewma, &w.ewma_band),
                    w.monotony.map_or("n/a".to_owned(), |m| format!("{m:.2}")),
                    w.strain.map(|s| format!(", strain {s:.0}")).unwrap_or_default()
                );
                if w.settling {
                    line.push_str(
                        " The first 28 days of the history are settling: read the ratios as rough.",
                    );
                }
                line
            }
        };
        answer.notes.extend(covered.notes);
        answer.notes.extend(notes);
        let summary = format!(
            "Load balance {start} to {end} ({}): {} Conventions: {ACWR_CONVENTION}. {MONOTONY_CONVENTION}. {}",
            loads.convention,
            answer.reading,
            covered.source.phrase()
        );
        answer.source = Some(covered.source);
        Ok(self.answer(summary, answer))
    }

    /// Weekly intensity distribution from the local history: minutes in heart-rate zones 1–5 per
    /// week (Monday to Sunday) and for the whole range, the share in the low zones (1–2) and
    /// Treff's polarization index with its edge cases stated. Use it for "how polarised is my
    /// training?", "do I do enough easy running?". Needs the history (`sync_history`).
    #[tool(
        name = "get_intensity_distribution",
        annotations(
            title = "Intensity distribution",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<IntensityDistribution>()
    )]
    async fn get_intensity_distribution(
        &self,
        Parameters(args): Parameters<IntensityArgs>,
    ) -> Result<Answer<IntensityDistribution>, ToolError> {
        use analytics::intensity::{PI_CONVENTION, ZONE_CONVENTION};
        let today = self.today();
        let (start, end) = date_range(
            today,
            ("start_date", args.start_date.as_deref()),
            ("end_date", args.end_date.as_deref()),
            WEEKLY_DEFAULT_DAYS,
            WEEKLY_MAX_DAYS,
        )?;
        let mut answer = IntensityDistribution {
            start_date: start.to_string(),
            end_date: end.to_string(),
            zone_convention: ZONE_CONVENTION.to_owned(),
            pi_convention: PI_CONVENTION.to_owned(),
            reading: String::new(),
            period: None,
            weeks: Vec::new(),
            activities_without_zones: 0,
            notes: Vec::new(),
            source: None,
        };
        let covered = match self.covered(start, end) {
            Ok(c) => c,
            Err(note) => {
                answer.reading = format!("No intensity distribution: {note}.");
                let summary = format!("Intensity distribution {start} to {end}: {note}.");
                answer.notes.push(note);
                return Ok(self.answer(summary, answer));
            }
        };
        let activities =
            covered.history.activity_loads(start, end).map_err(|e| ToolError::Local(e.to_string()))?;
        let (weeks, total, without) = weekly_zones(&activities, start, end);
        answer.activities_without_zones = without;
        answer.weeks = weeks.iter().map(|&(week, count, seconds)| zone_week(week, count, seconds)).collect();
        let period = zone_week(start, total.0, total.1);
        answer.reading = if total.0 == 0 {
            "No activity with heart-rate zone times in the range.".to_owned()
        } else {
            format!(
                "{:.0} % of the zone time in zones 1–2 over {} activities; polarization index {}{}.",
                period.low_share_percent,
                total.0,
                period.polarization_index.map_or("undefined".to_owned(), |p| format!("{p:.2}")),
                if period.polarized {
                    " (polarised)".to_owned()
                } else if period.pi_note.is_empty() {
                    " (not polarised)".to_owned()
                } else {
                    format!(" ({})", period.pi_note)
                }
            )
        };
        answer.period = Some(period);
        answer.notes.extend(covered.notes);
        let summary = format!(
            "Intensity distribution {start} to {end}, {} weeks: {} Conventions: {ZONE_CONVENTION}. {PI_CONVENTION}. {}",
            answer.weeks.len(),
            answer.reading,
            covered.source.phrase()
        );
        answer.source = Some(covered.source);
        Ok(self.answer(summary, answer))
    }

    /// Two date ranges side by side from the local history: activities, hours, distance, load
    /// (one scale for both), share of low-intensity zone time and the runs' mean efficiency, with
    /// the change and the convention. Use it for "this marathon block against last year's", "this
    /// month against the last". Defaults: the last 28 days against the 28 before. Needs the
    /// history (`sync_history`).
    #[tool(
        name = "compare_periods",
        annotations(
            title = "Compare two periods",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<PeriodComparisonAnswer>()
    )]
    async fn compare_periods(
        &self,
        Parameters(args): Parameters<ComparePeriodsArgs>,
    ) -> Result<Answer<PeriodComparisonAnswer>, ToolError> {
        use analytics::compare::{ActivityFacts, COMPARE_CONVENTION, PeriodTotals, compare_periods};
        let today = self.today();
        let (second_start, second_end) = date_range(
            today,
            ("second_start", args.second_start.as_deref()),
            ("second_end", args.second_end.as_deref()),
            28,
            PERIOD_MAX_DAYS,
        )?;
        let default_first_end = (second_start - Duration::days(1)).to_string();
        let first_end_text =
            args.first_end.as_deref().filter(|t| !t.trim().is_empty()).unwrap_or(&default_first_end);
        let first_end = parse_opt_date("first_end", Some(first_end_text), today)?.unwrap_or(second_start);
        let length = (second_end - second_start).num_days() + 1;
        let default_first_start = (first_end - Duration::days(length - 1)).to_string();
        let first_start_text =
            args.first_start.as_deref().filter(|t| !t.trim().is_empty()).unwrap_or(&default_first_start);
        let (first_start, first_end) = date_range(
            today,
            ("first_start", Some(first_start_text)),
            ("first_end", Some(first_end_text)),
            length,
            PERIOD_MAX_DAYS,
        )?;
        let (load_word, choice) = load_choice(args.load.as_deref())?;
        let side = |from: NaiveDate, to: NaiveDate, t: &PeriodTotals| PeriodSide {
            from: from.to_string(),
            to: to.to_string(),
            activities: t.activities,
            hours: round2(t.duration_s / 3600.0),
            distance_km: round2(t.distance_m / 1000.0),
            load: round1(t.load),
            low_intensity_percent: t.low_intensity_share.map(|s| round1(s * 100.0)),
            run_efficiency: t.efficiency.map(round3),
        };
        let mut notes = Vec::new();
        let mut source = None;
        let mut totals = [PeriodTotals::default(), PeriodTotals::default()];
        let mut scale = None;
        let mut load_convention = String::new();
        let periods = [(first_start, first_end), (second_start, second_end)];
        let mut missing = Vec::new();
        let mut covers = Vec::new();
        for (from, to) in periods {
            match self.covered(from, to) {
                Ok(c) => covers.push(c),
                Err(note) => missing.push(note),
            }
        }
        if missing.is_empty() {
            let history = covers[0].history.clone();
            let read =
                |from, to| history.activity_loads(from, to).map_err(|e| ToolError::Local(e.to_string()));
            let laps =
                |from, to| history.activity_laps(from, to).map_err(|e| ToolError::Local(e.to_string()));
            let loads_all = [read(first_start, first_end)?, read(second_start, second_end)?];
            let both: Vec<ActivityLoad> = loads_all.iter().flatten().cloned().collect();
            let (daily, load_notes) = daily_loads_of(self, &both, choice).await?;
            notes.extend(load_notes);
            scale = daily.scale;
            load_convention = daily.convention.clone();
            for (i, (from, to)) in periods.into_iter().enumerate() {
                let laps = laps(from, to)?;
                let facts: Vec<ActivityFacts> = loads_all[i]
                    .iter()
                    .map(|a| {
                        let row = laps.iter().find(|l| l.activity_id == a.activity_id);
                        let zones = five_zones(a);
                        let ef = row.filter(|r| of_sport(r, "running")).and_then(|r| {
                            let (output, hr) = lap_series(r, false);
                            analytics::efficiency::efficiency(&analytics::efficiency::Effort {
                                kind: analytics::efficiency::OutputKind::Speed,
                                output: &output,
                                heart_rate: &hr,
                                grade: None,
                            })
                            .ok()
                            .map(|e| e.ef)
                        });
                        ActivityFacts {
                            duration_s: a.duration_s.unwrap_or(0.0),
                            distance_m: row.and_then(|r| r.distance_m).unwrap_or(0.0),
                            load: None,
                            low_zone_s: zones.map(|z| z[0] + z[1]),
                            zone_s: zones.map(|z| z.iter().sum()),
                            ef,
                        }
                    })
                    .collect();
                totals[i] = PeriodTotals::from_activities(&facts);
                // The load on the one scale chosen over both periods.
                totals[i].load =
                    daily.days.iter().filter(|d| d.date >= from && d.date <= to).map(|d| d.load).sum();
            }
            for c in &covers {
                notes.extend(c.notes.iter().cloned());
            }
            source = covers.pop().map(|c| c.source);
        } else {
            notes.extend(missing);
        }
        let cmp = compare_periods(&totals[0], &totals[1], None);
        let first = side(first_start, first_end, &cmp.first);
        let second = side(second_start, second_end, &cmp.second);
        let changes = PeriodChanges {
            activities: change(cmp.activities, 1.0),
            hours: change(cmp.duration_s, 1.0 / 3600.0),
            distance_km: change(cmp.distance_m, 1.0 / 1000.0),
            load: change(cmp.load, 1.0),
            low_intensity_points: cmp.low_intensity_share_points.map(round1),
            run_efficiency: cmp
                .efficiency
                .map(|c| PeriodChange { difference: round3(c.difference), percent: c.percent.map(round1) }),
        };
        let pct = |c: &PeriodChange| c.percent.map(|p| format!(" ({p:+.0} %)")).unwrap_or_default();
        let reading = if source.is_none() {
            format!("No comparison: {}.", notes.join("; "))
        } else {
            let mut line = format!(
                "{second_start} to {second_end} against {first_start} to {first_end}: {} activities ({:+}), {:.1} h{}, {:.1} km{}, load {:.0}{}",
                second.activities,
                changes.activities.difference,
                second.hours,
                pct(&changes.hours),
                second.distance_km,
                pct(&changes.distance_km),
                second.load,
                pct(&changes.load)
            );
            if let Some(p) = changes.low_intensity_points {
                line.push_str(&format!(", low-intensity share {p:+.1} points"));
            }
            if let Some(e) = &changes.run_efficiency {
                line.push_str(&format!(", run efficiency{}", pct(e).trim_end()));
            }
            line.push('.');
            line
        };
        let summary = format!(
            "Period comparison: {reading} Convention: {COMPARE_CONVENTION}; load: {}. {}",
            if load_convention.is_empty() { "none" } else { &load_convention },
            source.as_ref().map_or(String::new(), DataSource::phrase)
        );
        Ok(self.answer(
            summary.trim_end().to_owned(),
            PeriodComparisonAnswer {
                first,
                second,
                change: changes,
                load: load_word,
                load_scale: scale_word(scale).to_owned(),
                load_convention,
                convention: COMPARE_CONVENTION.to_owned(),
                reading,
                notes,
                source,
            },
        ))
    }

    /// Efficiency trend from the local history: EF per activity (running: speed / average heart
    /// rate; cycling: normalized power / average heart rate), aerobic decoupling (first half
    /// against second half by time) where the effort passes the steadiness test, the monthly
    /// mean EF and, for running, the monthly pace at a given heart rate. States its conventions
    /// and method. Use it for "am I more efficient at the same heart rate than in spring?".
    /// Needs the history (`sync_history`).
    #[tool(
        name = "get_efficiency_trend",
        annotations(
            title = "Efficiency and decoupling",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<EfficiencyTrend>()
    )]
    async fn get_efficiency_trend(
        &self,
        Parameters(args): Parameters<EfficiencyArgs>,
    ) -> Result<Answer<EfficiencyTrend>, ToolError> {
        use analytics::compare::{ActivityFacts, PeriodTotals};
        use analytics::efficiency::{
            EFFICIENCY_CONVENTION, Effort, OutputKind, SPEED_AT_HR_CONVENTION, SpeedAndHr, decoupling,
            efficiency, speed_at_heart_rate, steadiness,
        };
        let today = self.today();
        let (start, end) = date_range(
            today,
            ("start_date", args.start_date.as_deref()),
            ("end_date", args.end_date.as_deref()),
            182,
            PERIOD_MAX_DAYS,
        )?;
        let sport = args
            .sport
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .unwrap_or("running")
            .to_lowercase();
        if sport != "running" && sport != "cycling" {
            return Err(ToolError::invalid(format!("sport must be running or cycling, got `{sport}`")));
        }
        if let Some(bpm) = args.heart_rate
            && !(60..=230).contains(&bpm)
        {
            return Err(ToolError::invalid(format!("heart_rate must be 60 to 230 bpm, got {bpm}")));
        }
        let power = sport == "cycling";
        let mut answer = EfficiencyTrend {
            start_date: start.to_string(),
            end_date: end.to_string(),
            sport: sport.clone(),
            unit: if power { "W/bpm" } else { "(m/min)/bpm" }.to_owned(),
            heart_rate: None,
            convention: EFFICIENCY_CONVENTION.to_owned(),
            method: EFFICIENCY_METHOD.to_owned(),
            pace_convention: (!power).then(|| SPEED_AT_HR_CONVENTION.to_owned()),
            reading: String::new(),
            months: Vec::new(),
            activities: Vec::new(),
            activities_total: 0,
            notes: Vec::new(),
            source: None,
        };
        let covered = match self.covered(start, end) {
            Ok(c) => c,
            Err(note) => {
                answer.reading = format!("No efficiency trend: {note}.");
                let summary = format!("Efficiency trend {start} to {end}: {note}.");
                answer.notes.push(note);
                return Ok(self.answer(summary, answer));
            }
        };
        let rows = covered.history.activity_laps(start, end).map_err(|e| ToolError::Local(e.to_string()))?;
        let mut per_activity = Vec::new();
        let mut by_month: std::collections::BTreeMap<String, Vec<ActivityFacts>> = Default::default();
        let mut speeds = Vec::new();
        let mut left_out = 0;
        for row in rows.iter().filter(|r| of_sport(r, &sport)) {
            // EF: for rides, Garmin's NP over the whole ride; for runs, the lap-laid speed.
            let (lap_output, lap_hr) = lap_series(row, power);
            let ef = if power {
                let (Some(np), Some(hr), Some(t)) = (row.norm_power, row.avg_hr, row.duration_s) else {
                    left_out += 1;
                    continue;
                };
                let n = t.max(0.0).round().min(86_400.0) as usize;
                let output = vec![np; n];
                let hr = vec![hr; n];
                efficiency(&Effort { kind: OutputKind::Power, output: &output, heart_rate: &hr, grade: None })
            } else {
                efficiency(&Effort {
                    kind: OutputKind::Speed,
                    output: &lap_output,
                    heart_rate: &lap_hr,
                    grade: None,
                })
            };
            let Ok(ef) = ef else {
                left_out += 1;
                continue;
            };
            let effort = Effort {
                kind: if power { OutputKind::Power } else { OutputKind::Speed },
                output: &lap_output,
                heart_rate: &lap_hr,
                grade: None,
            };
            let steady = steadiness(&effort).steady;
            let decoupled =
                if steady { decoupling(&effort).ok().map(|d| round1(d.decoupling_percent)) } else { None };
            by_month.entry(format!("{:04}-{:02}", row.date.year(), row.date.month())).or_default().push(
                ActivityFacts {
                    duration_s: row.duration_s.unwrap_or(0.0),
                    ef: Some(ef.ef),
                    ..Default::default()
                },
            );
            if !power {
                speeds.push(SpeedAndHr {
                    date: row.date,
                    speed_mps: ef.output / 60.0,
                    average_hr: ef.average_hr,
                });
            }
            per_activity.push(ActivityEfficiency {
                date: row.date.to_string(),
                activity_id: row.activity_id,
                ef: round3(ef.ef),
                output: round1(ef.output),
                avg_hr: round1(ef.average_hr),
                steady,
                decoupling_percent: decoupled,
            });
        }
        if left_out > 0 {
            answer.notes.push(format!(
                "{left_out} {sport} activit{} without heart rate or {} left out",
                if left_out == 1 { "y" } else { "ies" },
                if power { "normalized power" } else { "speed" }
            ));
        }
        answer.activities_total = per_activity.len();
        // Speed at a heart rate (running): the asked one, else the median of the runs' averages.
        let mut pace_months = std::collections::BTreeMap::new();
        if !power && !speeds.is_empty() {
            let target = match args.heart_rate {
                Some(bpm) => f64::from(bpm),
                None => {
                    let mut hrs: Vec<f64> = speeds.iter().map(|s| s.average_hr).collect();
                    hrs.sort_by(f64::total_cmp);
                    hrs[hrs.len() / 2].round()
                }
            };
            answer.heart_rate = Some(target);
            if let Ok(at) = speed_at_heart_rate(&speeds, target, HR_TOLERANCE_BPM) {
                for m in at.months {
                    pace_months.insert(m.month.clone(), (pace(m.speed_mps), m.activities));
                }
            }
        }
        for (month, facts) in &by_month {
            let totals = PeriodTotals::from_activities(facts);
            let Some(ef) = totals.efficiency else { continue };
            let at = pace_months.get(month);
            answer.months.push(MonthEfficiency {
                month: month.clone(),
                activities: totals.activities,
                ef: round3(ef),
                pace_at_hr: at.and_then(|(p, _)| p.clone()),
                runs_at_hr: (!power).then(|| at.map_or(0, |(_, n)| *n)),
            });
        }
        per_activity.reverse();
        per_activity.truncate(EFFICIENCY_LISTED);
        answer.activities = per_activity;
        answer.reading = match (answer.months.first(), answer.months.last()) {
            (Some(first), Some(last)) if answer.months.len() > 1 => {
                let mut line = format!(
                    "Mean EF {:.3} in {} against {:.3} in {} ({:+.1} %)",
                    last.ef,
                    last.month,
                    first.ef,
                    first.month,
                    100.0 * (last.ef - first.ef) / first.ef
                );
                if let (Some(hr), Some(a), Some(b)) = (answer.heart_rate, &first.pace_at_hr, &last.pace_at_hr)
                {
                    line.push_str(&format!("; pace at {hr:.0} bpm {b} against {a}"));
                }
                line.push('.');
                line
            }
            (Some(only), _) => {
                format!("Mean EF {:.3} in {} ({} activities).", only.ef, only.month, only.activities)
            }
            _ => format!(
                "No {sport} activity with heart rate and {} in the range.",
                if power { "power" } else { "speed" }
            ),
        };
        let decoupled: Vec<f64> = answer.activities.iter().filter_map(|a| a.decoupling_percent).collect();
        if let Some(last) =
            answer.activities.iter().find_map(|a| a.decoupling_percent.map(|d| (a.date.clone(), d)))
        {
            answer.reading.push_str(&format!(
                " Latest steady effort ({}) decoupled {:.1} % ({}); {} of the listed efforts were steady enough to measure.",
                last.0,
                last.1,
                if last.1 < analytics::efficiency::GOOD_DECOUPLING_PERCENT { "good" } else { "heart rate drifted" },
                decoupled.len()
            ));
        }
        answer.notes.extend(covered.notes);
        let summary = format!(
            "Efficiency trend ({sport}) {start} to {end}: {} Convention: {EFFICIENCY_CONVENTION}. Method: {EFFICIENCY_METHOD}. {}",
            answer.reading,
            covered.source.phrase()
        );
        answer.source = Some(covered.source);
        Ok(self.answer(summary, answer))
    }
    /// Plan against actual: the workouts scheduled on the athlete's Garmin calendar against the
    /// activities done on the same days — per workout the planned time and distance (from the
    /// workout's steps), the activity that did it, the percentage of the planned time and a
    /// colour (80–120 % green, 50–79 % or 121–150 % yellow, otherwise red), the workouts missed
    /// and the activities done without a plan. Use it for "did I stick to my plan this week?".
    /// Default: the last 7 days ending yesterday; activities from the local history when synced.
    #[tool(
        name = "get_plan_vs_actual",
        annotations(
            title = "Plan vs actual",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<PlanVsActual>()
    )]
    async fn get_plan_vs_actual(
        &self,
        Parameters(args): Parameters<PlanVsActualArgs>,
    ) -> Result<Answer<PlanVsActual>, ToolError> {
        use crate::domain::plan::{Outcome, compare_plan};
        let today = self.today();
        let (start, end) = date_range(
            today,
            ("start_date", args.start_date.as_deref()),
            ("end_date", args.end_date.as_deref()),
            PLAN_DEFAULT_DAYS,
            PLAN_MAX_DAYS,
        )?;
        let inputs = self.plan_inputs(start, end).await?;
        let compared = compare_plan(inputs.planned, inputs.done, today);
        let (green, yellow, red) = compared.colours();
        let counts = PlanCounts {
            planned: compared.workouts.len(),
            green,
            yellow,
            red,
            missed: compared.count(Outcome::Missed),
            pending: compared.count(Outcome::Pending),
            unplanned: compared.unplanned.len(),
        };
        let reading = plan_reading(start, end, &counts);
        let workouts: Vec<PlannedWorkoutRow> =
            compared.workouts.iter().take(PLAN_LISTED).map(plan_row).collect();
        let room = PLAN_LISTED.saturating_sub(workouts.len());
        let unplanned: Vec<UnplannedRow> = compared.unplanned.iter().take(room).map(unplanned_row).collect();
        let left_out = counts.planned + counts.unplanned - workouts.len() - unplanned.len();
        let summary = format!(
            "Plan vs actual {reading} Convention: {}. {}",
            analytics::compare::PLAN_CONVENTION,
            inputs.source.phrase()
        );
        Ok(self.answer(
            summary,
            PlanVsActual {
                start_date: start.to_string(),
                end_date: end.to_string(),
                convention: format!("{PLAN_MATCHING}; {}", analytics::compare::PLAN_CONVENTION),
                counts,
                workouts,
                unplanned,
                rows_left_out: (left_out > 0).then_some(left_out),
                missing: inputs.missing,
                source: inputs.source,
            },
        ))
    }
}

impl GarminMcp {
    /// `render_chart` kind `intensity`: the `weeks` calendar weeks ending with `end`'s week, time
    /// in heart-rate zones from the local history (the same sums as `get_intensity_distribution`).
    pub(crate) async fn intensity_chart(
        &self,
        end: NaiveDate,
        weeks: u32,
        options: garmin_charts::ChartOptions,
    ) -> Result<super::charts::Drawn, ToolError> {
        use analytics::intensity::{PI_CONVENTION, ZONE_CONVENTION};
        let start = end
            - Duration::days(i64::from(end.weekday().num_days_from_monday()))
            - Duration::days(7 * (i64::from(weeks) - 1));
        let covered = self
            .covered(start, end)
            .map_err(|note| ToolError::NoData(format!("No intensity chart: {note}.")))?;
        let activities =
            covered.history.activity_loads(start, end).map_err(|e| ToolError::Local(e.to_string()))?;
        let (weekly, total, _) = weekly_zones(&activities, start, end);
        if total.0 == 0 {
            return Err(ToolError::NoData(format!(
                "No activity with heart-rate zone times from {start} to {end} in the local history."
            )));
        }
        let period = zone_week(start, total.0, total.1);
        let chart = garmin_charts::IntensityChart {
            weeks: weekly
                .iter()
                .map(|(week, _, seconds)| garmin_charts::IntensityWeek {
                    label: week.to_string(),
                    zone_seconds: seconds.to_vec(),
                })
                .collect(),
            low_zones: 2,
        };
        let png = super::charts::draw_off_thread("the intensity distribution", move || {
            garmin_charts::intensity(&chart, &options)
        })
        .await?;
        let period_text = super::charts::span(start, end);
        let summary = format!(
            "Weekly intensity distribution {period_text} ({} activities): {:.0} % of the zone time in zones 1–2, polarization index {}. Conventions: {ZONE_CONVENTION}. {PI_CONVENTION}. {}",
            total.0,
            period.low_share_percent,
            period.polarization_index.map_or("undefined".to_owned(), |p| format!("{p:.2}")),
            covered.source.phrase()
        );
        Ok(super::charts::Drawn {
            png,
            summary,
            title: format!("Intensity distribution, {period_text}"),
            file_parts: vec![end.to_string(), format!("intensity-{weeks}w")],
            activity_id: None,
            period: Some(period_text),
            series_source: None,
            points: Some(u32::try_from(total.0).unwrap_or(u32::MAX)),
        })
    }
}

impl GarminMcp {
    /// `render_chart` kind `fitness`: the `weeks` weeks ending on `end` of `get_fitness_trend`
    /// (its best available load), drawn as fitness and fatigue lines over form bars.
    pub(crate) async fn fitness_chart(
        &self,
        end: NaiveDate,
        weeks: u32,
        options: garmin_charts::ChartOptions,
    ) -> Result<super::charts::Drawn, ToolError> {
        let start = end - Duration::days(i64::from(weeks) * 7 - 1);
        let args = super::history::FitnessTrendArgs {
            start_date: Some(start.to_string()),
            end_date: Some(end.to_string()),
            load: None,
        };
        let (_, trend) = self.get_fitness_trend(Parameters(args)).await?.into_parts();
        let load_label = match trend.load_scale.as_str() {
            "tss" => "TSS",
            "garmin" => "Garmin load",
            _ => "",
        };
        let chart = garmin_charts::FitnessChart {
            days: trend
                .days
                .iter()
                .map(|d| garmin_charts::FitnessDay {
                    date: d.date.clone(),
                    ctl: d.ctl,
                    atl: d.atl,
                    tsb: d.tsb,
                    settling: d.settling,
                })
                .collect(),
            load_label: load_label.to_owned(),
        };
        let png = super::charts::draw_off_thread("fitness, fatigue and form", move || {
            garmin_charts::fitness(&chart, &options)
        })
        .await?;
        let period_text = super::charts::span(start, end);
        let summary = format!(
            "Fitness, fatigue and form {period_text}: {} Load: {}. Model: {}. {}",
            trend.reading,
            trend.load_convention,
            trend.convention,
            trend.source.phrase()
        );
        Ok(super::charts::Drawn {
            png,
            summary,
            title: format!("Fitness, fatigue and form, {period_text}"),
            file_parts: vec![end.to_string(), format!("fitness-{weeks}w")],
            activity_id: None,
            period: Some(period_text),
            series_source: None,
            points: Some(u32::try_from(trend.days.len()).unwrap_or(u32::MAX)),
        })
    }
}
