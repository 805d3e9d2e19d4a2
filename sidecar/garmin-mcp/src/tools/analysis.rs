//! The `analysis` toolset: training analyses computed from the local history (issue #16 §4) —
//! load balance (ACWR both ways, monotony and strain), weekly intensity distribution, two periods
//! side by side, and efficiency with decoupling. Each tool reads the `history` crate and hands the
//! numbers to the `analytics` crate (no formula lives here), then answers compactly with the
//! numbers, the conventions the analytics results carry and a one-line reading. A range the
//! history does not cover is said plainly, with how to fill it (`sync_history`).
//!
//! This file is the toolset's router (each tool's description and schema) and what several tools
//! share (the history's coverage, daily loads, sport and lap helpers); each tool's arguments,
//! answer and shaping live in its own module: `load_balance`, `intensity` (with its chart),
//! `compare`, `efficiency`, `plan`.

use ::history::History;
use ::history::read::ActivityLoad;
use ::history::read_laps::ActivityLaps;
use chrono::{Datelike, Duration, NaiveDate};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{schemars, tool, tool_router};
use serde::{Deserialize, Serialize};

use crate::domain::dates::{Day, arg, date_range, day_of};
use crate::domain::fitness::scale_word;
use crate::domain::session_load::{load_choice, round1};
use crate::history::DataSource;
use crate::output::Answer;
use crate::server::GarminMcp;
use crate::tool_error::ToolError;
use ::history::load::{LoadProfile, session_loads};

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

/// The range of a weekly analysis (`get_load_balance`, `get_intensity_distribution`) from its
/// optional `start_date`/`end_date`: the end defaults to yesterday, the start to
/// [`WEEKLY_DEFAULT_DAYS`] before it; at most [`WEEKLY_MAX_DAYS`] days.
fn weekly_range(
    today: NaiveDate,
    start: Option<Day<arg::StartDate>>,
    end: Option<Day<arg::EndDate>>,
) -> Result<(NaiveDate, NaiveDate), ToolError> {
    date_range(
        today,
        ("start_date", day_of(start)),
        ("end_date", day_of(end)),
        WEEKLY_DEFAULT_DAYS,
        WEEKLY_MAX_DAYS,
    )
}

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
    pub(crate) async fn covered(&self, start: NaiveDate, end: NaiveDate) -> Result<Covered, String> {
        let hint = format!(
            "the local history does not cover {start} to {end}: run sync_history (since {start}) first, then ask again"
        );
        let yesterday = self.today() - Duration::days(1);
        let Some(history) = self.history_for_reads().await else { return Err(hint) };
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
        crate::domain::session_load::athlete(&server.reading().await?, need_hr, need_power).await
    } else {
        LoadProfile::default()
    };
    let sessions = session_loads(activities, &athlete);
    Ok((analytics::load::daily_loads(&sessions, choice), athlete.notes))
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

mod compare;
mod efficiency;
mod intensity;
mod load_balance;
mod plan;

use compare::{ComparePeriodsArgs, PeriodComparisonAnswer};
use efficiency::{EfficiencyArgs, EfficiencyTrend};
use intensity::{IntensityArgs, IntensityDistribution};
use load_balance::{LoadBalance, LoadBalanceArgs};
use plan::{PlanVsActual, PlanVsActualArgs};

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
        self.get_load_balance_answer(args).await
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
        self.get_intensity_distribution_answer(args).await
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
        self.compare_periods_answer(args).await
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
        self.get_efficiency_trend_answer(args).await
    }
    /// Plan against actual: the workouts scheduled on the athlete's Garmin calendar against the
    /// activities done on the same days — per workout the planned time and distance (from the
    /// workout's steps), the activity that did it, the percentage of the planned time and a
    /// colour (80–120 % green, 50–79 % or 121–150 % yellow, otherwise red), and for the 10 most
    /// recent done ones each step with the laps Garmin recorded under it and a verdict against its
    /// target (on target, faster than target by 0:07 /km, not done); the workouts missed and the
    /// activities done without a plan; and each training plan's (Garmin Coach) own workouts counted
    /// done, moved (done on another day of the week) and missed. Use it for "did I stick to my plan
    /// this week?" or "did I hit my intervals?".
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
        self.get_plan_vs_actual_answer(args).await
    }
}
