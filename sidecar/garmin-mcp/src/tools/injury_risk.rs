//! `get_injury_risk` (training toolset, issue #29 item 2): one answer to "am I doing too much?".
//! This file gathers the inputs — every Garmin read sent at once: the sessions' loads as
//! `get_fitness_trend` counts them (`domain::fitness::trend_loads`), the running activities of the
//! last four weeks (the history where it covers them), Running Tolerance, the daily summary
//! (resting heart rate and its 7-day average), the night (sleep and sleep need), HRV, the
//! morning readiness and the night's Health Status — plus the athlete memory's injuries and caps, and hands them to the pure
//! judge, `domain::injury_risk::assess`. A part that fails is one sentence in `missing` (or, for
//! what the watch does not record, in `not_recorded`); the verdict uses what is left.

use chrono::{Datelike, Duration, NaiveDate};
use garmin::Served;
use garmin::models::devices::Device;
use garmin::models::metrics::{HealthStatus, RunningTolerance, TrainingReadiness};
use garmin::models::wellness::{DailySummary, Hrv, Sleep};
use local_data::athlete::{Fact, FactKind};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{schemars, tool, tool_router};
use serde::Deserialize;

use crate::domain::activity::{Family, distance_m, local_date};
use crate::domain::dates::{DateRange, Day, arg, day_of};
use crate::domain::fitness::{TrendLoads, scale_word, trend_loads};
use crate::domain::injury_risk::{
    InjuryRisk, Recovery, RiskInputs, RunningKm, ToleranceNow, absent_inputs, assess,
};
use crate::domain::parts::part;
use crate::domain::reading::{Reading, activities_cache_first};
use crate::domain::session_load::load_choice;
use crate::domain::watch::{absence, morning_readiness, watch_words};
use crate::output::Answer;
use crate::server::GarminMcp;
use crate::tool_error::ToolError;

/// Arguments of `get_injury_risk`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct InjuryRiskArgs {
    /// The day judged, `YYYY-MM-DD` (default today).
    #[serde(default, deserialize_with = "crate::domain::dates::blank_is_none")]
    pub date: Option<Day<arg::Date>>,
    /// Which load per session for the ACWR, monotony and ramp, as in `get_fitness_trend`: `auto`
    /// (default, best available, never mixed), `garmin`, `hr` or `power`.
    #[serde(default)]
    #[schemars(extend("enum" = ["auto", "garmin", "hr", "power"]))]
    pub load: Option<String>,
}

/// What Garmin and the history gave, each part kept or named as missing.
struct Gathered {
    loads: Option<TrendLoads>,
    runs: Option<Vec<(NaiveDate, f64)>>,
    tolerance: Option<Vec<RunningTolerance>>,
    tolerance_error: Option<garmin::Error>,
    /// The Health Status request's failure, kept to say why it is absent.
    health_status_error: Option<garmin::Error>,
    recovery: Recovery,
    missing: Vec<String>,
}

#[tool_router(router = injury_tools, vis = "pub(crate)")]
impl GarminMcp {
    /// "Am I doing too much?" in one answer: a plain verdict (low, moderate, high) with the
    /// reasons ranked, each with its numbers — Running Tolerance and impact load from the watch,
    /// the acute:chronic workload ratio both ways (rolling and EWMA), monotony, strain and the
    /// ramp of fitness on the `load` scale of `get_fitness_trend`, HRV status, resting heart rate
    /// against its 7-day average, sleep against sleep need, the morning readiness, Health Status
    /// (the night's metrics against the athlete's own baseline), and the injuries and weekly caps
    /// of the athlete memory — the conventions and thresholds used, and
    /// what would change it ("keep this week under 38 km"). Use it for "am I overtraining?",
    /// "is it safe to run more this week?", "how much can I run with my sore Achilles?".
    #[tool(
        name = "get_injury_risk",
        annotations(
            title = "Injury risk: am I doing too much?",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<InjuryRisk>()
    )]
    async fn get_injury_risk(
        &self,
        Parameters(args): Parameters<InjuryRiskArgs>,
    ) -> Result<Answer<InjuryRisk>, ToolError> {
        let today = self.today();
        let date = day_of(args.date).unwrap_or(today);
        if date > today {
            return Err(ToolError::invalid(format!(
                "date {date} is after today ({today}): pick today or earlier"
            )));
        }
        let (load_word, _) = load_choice(args.load.as_deref())?;
        let reading = self.reading().await?;
        let g = gather(&reading, date, args.load.as_deref()).await?;
        let facts = if self.offers_tool("list_athlete_facts") { Some(self.athlete_facts()) } else { None };
        let (inputs, source) = risk_inputs(date, load_word, &g, facts.as_deref());
        let mut risk = assess(&inputs);
        risk.source = source;
        risk.missing = g.missing.clone();
        // What Garmin had nothing for, unless its read failed (already named with why).
        for absent in absent_inputs(&inputs) {
            let name = absent.split(':').next().unwrap_or_default();
            if !risk.missing.iter().any(|m| m.starts_with(name)) {
                risk.missing.push(absent);
            }
        }
        risk.notes = g.loads.as_ref().map(|l| l.notes.clone()).unwrap_or_default();
        if facts.is_none() {
            risk.missing.push(
                "athlete memory: the athlete toolset is off, so injuries and caps were not read".to_owned(),
            );
        }
        watch_absences(&reading, &g, inputs.tolerance.is_none(), &mut risk).await;
        let summary = risk_summary(&risk);
        Ok(self.answer(summary, risk))
    }
}

/// Running Tolerance (when absent) and Health Status (when its request failed): one sentence each
/// naming the watch (the device list read only now, once, on an answer that already lacks one), or
/// Garmin's reason in `missing`.
async fn watch_absences(reading: &Reading, g: &Gathered, no_tolerance: bool, risk: &mut InjuryRisk) {
    let mut lacking: Vec<(&str, Option<&garmin::Error>)> = Vec::new();
    if no_tolerance {
        lacking.push(("Running Tolerance", g.tolerance_error.as_ref()));
    }
    if let Some(e) = &g.health_status_error {
        lacking.push(("Health Status", Some(e)));
    }
    lacking.retain(|(metric, error)| {
        let named = error.is_none() || absence("", "", *error).is_some();
        if let (false, Some(e)) = (named, error) {
            let part = if *metric == "Health Status" { "health_status" } else { "running_tolerance" };
            risk.missing.push(format!("{part}: {e}"));
        }
        named
    });
    if lacking.is_empty() {
        return;
    }
    let devices: Vec<Device> = reading.reads.devices().await.map(Served::into_value).unwrap_or_default();
    let watch = watch_words(None, &devices);
    risk.not_recorded
        .extend(lacking.into_iter().filter_map(|(metric, error)| absence(&watch, metric, error)));
}

/// Every read at once; a failing one is named in `missing`.
async fn gather(reading: &Reading, date: NaiveDate, load: Option<&str>) -> Result<Gathered, ToolError> {
    let reads = &reading.reads;
    let week_start = date - Duration::days(i64::from(date.weekday().num_days_from_monday()));
    let runs_from = (week_start - Duration::days(21)).min(date - Duration::days(6));
    let range = DateRange::new(date - Duration::days(27), date)?;
    let readiness = async {
        match reads.web("the morning Training Readiness") {
            Ok(web) => web.metrics().training_readiness(date).await,
            Err(e) => Err(e),
        }
    };
    let (loads, runs, tolerance, summary, sleep, hrv, readiness, health_status) = tokio::join!(
        trend_loads(reading, range, load),
        run_days(reading, runs_from, date),
        reads.running_tolerance(week_start.min(date - Duration::days(6)), date),
        reads.daily_summary(date),
        reads.sleep(date, false),
        reads.hrv(date),
        readiness,
        reads.health_status(date),
    );
    let mut missing = Vec::new();
    let loads = match loads {
        Ok(l) => Some(l),
        Err(e) => {
            missing.push(format!("load: {}", e.message()));
            None
        }
    };
    let runs = match runs {
        Ok(r) => Some(r),
        Err(e) => {
            missing.push(format!("running distance: {}", e.message()));
            None
        }
    };
    let (tolerance, tolerance_error) = match tolerance {
        Ok(t) => (Some(t.into_value()), None),
        Err(e) => (None, Some(e)),
    };
    let summary = part(&mut missing, "resting heart rate", summary.map(Served::into_value)).flatten();
    let sleep = part(&mut missing, "sleep", sleep.map(Served::into_value)).flatten();
    let hrv = part(&mut missing, "hrv", hrv.map(Served::into_value)).flatten();
    let readiness = part(&mut missing, "readiness", readiness).unwrap_or_default();
    let (health_status, health_status_error) = match health_status {
        Ok(night) => (night.into_value(), None),
        Err(e) => (None, Some(e)),
    };
    let mut recovery = recovery_of(summary.as_ref(), sleep.as_ref(), hrv.as_ref(), &readiness);
    with_health_status(&mut recovery, health_status.as_ref());
    if health_status_error.is_none() && recovery.health_status_metrics.is_none() {
        missing.push(format!("health_status: no Health Status recorded for {date}"));
    }
    Ok(Gathered { loads, runs, tolerance, tolerance_error, health_status_error, recovery, missing })
}

/// The night's Health Status as the recovery signals count it: the metrics judged and those
/// outside the athlete's baseline, worded as `get_daily_health` words them.
fn with_health_status(recovery: &mut Recovery, night: Option<&HealthStatus>) {
    let Some(part) = night.and_then(crate::tools::health::health_status_part) else { return };
    let row = crate::tools::health::health_status_row(&part);
    recovery.health_status_metrics = Some(part.metrics.len());
    recovery.health_status_out = row.out_of_baseline;
}

/// The recovery signals of the day from what Garmin gave.
fn recovery_of(
    summary: Option<&DailySummary>,
    sleep: Option<&Sleep>,
    hrv: Option<&Hrv>,
    readiness: &[TrainingReadiness],
) -> Recovery {
    let night = sleep.and_then(|s| s.daily_sleep.as_ref());
    let hrv_summary = hrv.and_then(|h| h.hrv_summary.as_ref());
    Recovery {
        hrv_status: hrv_summary.and_then(|h| h.status.clone()),
        hrv_last_night_ms: hrv_summary.and_then(|h| h.last_night_avg),
        resting_hr: summary.and_then(|s| s.resting_heart_rate),
        resting_hr_7d: summary.and_then(|s| s.last_seven_days_avg_resting_heart_rate),
        sleep_hours: night.and_then(|n| n.sleep_time_seconds).filter(|s| *s > 0.0).map(|s| s / 3600.0),
        sleep_need_hours: night
            .and_then(|n| n.sleep_need.as_ref())
            .and_then(|n| n.actual)
            .filter(|m| *m > 0.0)
            .map(|m| m / 60.0),
        readiness: morning_readiness(readiness).and_then(|r| r.score).filter(|s| *s >= 0.0),
        ..Recovery::default()
    }
}

/// The running days (`(day, km)`) of `from..=to`: the history where it covers them, else Garmin.
async fn run_days(
    reading: &Reading,
    from: NaiveDate,
    to: NaiveDate,
) -> Result<Vec<(NaiveDate, f64)>, ToolError> {
    let activities = match activities_cache_first(reading, from, to, None).await? {
        Some((activities, _)) => activities,
        None => reading.reads.activities_between(from, to, None).await?.into_value(),
    };
    Ok(activities
        .iter()
        .filter(|a| Family::of_summary(a) == Family::Run)
        .filter_map(|a| Some((local_date(a)?, distance_m(a)? / 1000.0)))
        .collect())
}

/// The judge's inputs from what was gathered and the athlete memory.
fn risk_inputs(
    date: NaiveDate,
    load_word: String,
    g: &Gathered,
    facts: Option<&[Fact]>,
) -> (RiskInputs, Option<crate::history::DataSource>) {
    let facts = facts.unwrap_or_default();
    let tolerance = g.tolerance.as_deref().and_then(|rows| {
        let row = rows
            .iter()
            .filter(|r| r.has_data() && r.calendar_date.is_some_and(|d| d <= date))
            .max_by_key(|r| r.calendar_date)?;
        Some(ToleranceNow {
            as_of: row.calendar_date?,
            weekly_tolerance: row.running_tolerance,
            weekly_impact_load: row.weekly_running_load,
            acute_impact_load: row.acute_running_load,
            verdict: row.tolerance_feedback.clone(),
        })
    });
    let inputs = RiskInputs {
        date,
        loads: g.loads.as_ref().map(|l| l.loads.days.clone()).unwrap_or_default(),
        load_scale: scale_word(g.loads.as_ref().and_then(|l| l.loads.scale)).to_owned(),
        load_convention: g.loads.as_ref().map(|l| l.loads.convention.clone()).unwrap_or_default(),
        load_word,
        tolerance,
        running: g.runs.as_deref().map(|runs| RunningKm::around(date, runs)),
        recovery: g.recovery.clone(),
        injuries: facts.iter().filter(|f| f.kind == FactKind::Injury).map(Fact::describe).collect(),
        weekly_km_cap: facts
            .iter()
            .filter(|f| f.kind == FactKind::VolumeCap)
            .filter_map(|f| f.weekly_km_cap)
            .min_by(f64::total_cmp),
    };
    (inputs, g.loads.as_ref().map(|l| l.source.clone()))
}

/// The text answer: the verdict, the top reasons with their numbers, the first change, and what
/// is missing.
fn risk_summary(risk: &InjuryRisk) -> String {
    let mut text = format!("Injury risk on {}: {} ({} points).", risk.date, risk.verdict, risk.points);
    let scoring: Vec<String> = risk
        .reasons
        .iter()
        .filter(|r| r.points > 0)
        .map(|r| format!("{} ({}): {}", r.factor, r.level, r.says))
        .collect();
    if scoring.is_empty() {
        text.push_str(" No reason scores.");
    } else {
        text.push_str(&format!(" Reasons: {}.", scoring.join("; ")));
    }
    if let Some(first) = risk.what_would_change.first() {
        text.push(' ');
        text.push_str(first);
    }
    for sentence in &risk.not_recorded {
        text.push(' ');
        text.push_str(sentence);
    }
    crate::domain::parts::with_missing(text, &risk.missing)
}
