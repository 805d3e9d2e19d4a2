//! The `training` toolset: `get_training_status` (status, load and the acute:chronic workload
//! ratio, load balance, VO2max, readiness, HRV, race predictions, lactate threshold, endurance and
//! hill scores, and a short trend) and `get_personal_records` (PBs with the activity that set them).
//!
//! Every Garmin request is sent once and concurrently. Garmin keys training status by device id;
//! the primary training device's entry is used (else the first).
//!
//! This file holds the tool methods and their arguments; the answer types live in `answer`, the
//! status, load and summary in `status`, VO2max, readiness and the trend in `fitness`, and the
//! personal records in `records`.

mod answer;
mod fitness;
mod kept;
mod newest;
mod records;
mod replies;
mod status;

use std::collections::BTreeMap;

use chrono::{Duration, NaiveDate};
use garmin::ErrorKind;
use garmin::Served;
use garmin::models::devices::Device;
use garmin::models::metrics::{
    EnduranceScore, EnduranceScoreRange, FitnessAge, HillScore, HillScoreRange, LactateThreshold, MaxMetrics,
    RacePredictions, RunningTolerance, TrainingReadiness, TrainingStatus,
};
use garmin::models::wellness::HrvSummary;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{schemars, tool, tool_router};
use serde::Deserialize;

pub use self::answer::*;
pub use self::fitness::morning_readiness;
use self::fitness::{endurance_level, lactate_speed_mps, readiness_part, trend_rows, vo2max_part};
use self::newest::{
    absence, acclimation_part, add_acclimation_trend, add_score_trend, focus_and_scores_sentence, hill_level,
    running_tolerance_part, tolerance_on, watch_words,
};
pub use self::records::names_to_fetch;
use self::records::{record_row, records_summary, sport_rank};
pub use self::status::status_phrase;
use self::status::{load_balance_part, load_part, status_part, training_summary};
use crate::domain::dates::{Day, arg, day_of};
use crate::domain::parts::{part, with_missing};
use crate::domain::words::{whole, words};
use crate::output::Answer;
use crate::server::GarminMcp;
use crate::tool_error::ToolError;

/// Most trend days `get_training_status` reports.
pub const MAX_TREND_DAYS: u32 = 28;

/// Arguments of `get_training_status`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct TrainingStatusArgs {
    /// The day, `YYYY-MM-DD` (default today).
    #[serde(default)]
    pub date: Option<Day<arg::Date>>,
    /// Days of trend to add (readiness, acute load, VO2max, HRV, Running Tolerance, endurance and
    /// hill scores, load focus, heat and altitude acclimation per day), ending on `date`: 0–28,
    /// default 7.
    #[serde(default)]
    #[schemars(range(min = 0, max = 28))]
    pub trend_days: Option<u32>,
}

/// A sport of `get_personal_records`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum RecordSport {
    /// Running.
    Running,
    /// Cycling.
    Cycling,
    /// Swimming.
    Swimming,
    /// Strength training.
    Strength,
}

impl RecordSport {
    fn name(self) -> &'static str {
        match self {
            RecordSport::Running => "running",
            RecordSport::Cycling => "cycling",
            RecordSport::Swimming => "swimming",
            RecordSport::Strength => "strength",
        }
    }
}

/// Arguments of `get_personal_records`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct PersonalRecordsArgs {
    /// Only this sport: `running`, `cycling`, `swimming` or `strength` (default: all, including
    /// step records).
    #[serde(default)]
    pub sport: Option<RecordSport>,
}

/// The day asked (default today) and the trend's length (default 7, at most [`MAX_TREND_DAYS`]).
fn training_args(args: &TrainingStatusArgs, today: NaiveDate) -> Result<(NaiveDate, u32), ToolError> {
    let date = day_of(args.date).unwrap_or(today);
    let trend_days = args.trend_days.unwrap_or(7);
    if trend_days > MAX_TREND_DAYS {
        return Err(ToolError::invalid(format!("trend_days must be 0–{MAX_TREND_DAYS}, got {trend_days}")));
    }
    Ok((date, trend_days))
}

#[tool_router(router = training_tools, vis = "pub(crate)")]
impl GarminMcp {
    /// Training status on a day: Garmin's status (productive, maintaining, recovery,
    /// overreaching…), acute and chronic load with the acute:chronic workload ratio (ACWR) and what
    /// it means (for "am I overtraining?", `get_injury_risk` weighs it with recovery and the
    /// athlete's injuries), load focus (low and high aerobic and anaerobic load against their
    /// targets, with the shortage or excess), VO2max and fitness age,
    /// training readiness and what limits it, HRV, race predictions (5K to marathon), lactate
    /// threshold, endurance and hill scores with their levels, Running Tolerance (weekly tolerance,
    /// impact load and Garmin's verdict), heat and altitude acclimation, plus the last `trend_days`
    /// days of the morning readiness, acute load, VO2max, HRV, Running Tolerance, the endurance
    /// and hill scores and the heat and altitude acclimation (from the local history when synced). What the watch does not record is
    /// said in `not_recorded`, one sentence each.
    #[tool(
        name = "get_training_status",
        annotations(
            title = "Training status, load (ACWR), readiness, VO2max",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<TrainingStatusReport>()
    )]
    async fn get_training_status(
        &self,
        Parameters(args): Parameters<TrainingStatusArgs>,
    ) -> Result<Answer<TrainingStatusReport>, ToolError> {
        let (date, trend_days) = training_args(&args, self.today())?;
        let (fetched, failed, status_error) = self.training_parts(date, trend_days).await?;
        let mut report = date_bound_report(&fetched);
        if report_is_empty(&report) {
            // Nothing for the day at all: the training status's own failure says why, if it failed
            // other than with "nothing here".
            match status_error {
                Some(e) if !e.means_nothing_there() => return Err(e.into()),
                _ if failed.is_empty() => {
                    return Err(ToolError::NoData(format!("No training data recorded for {date}")));
                }
                _ => {}
            }
        }
        add_undated_parts(&mut report, &fetched);
        if trend_days > 0 {
            report.trend =
                trend_rows(&fetched.trend_dates, &fetched.readiness_by_day, &fetched.vo2_range, &fetched.hrv);
            for row in &mut report.trend {
                let day = row.date.parse().unwrap_or(date);
                (row.running_tolerance, row.impact_load) = tolerance_on(&fetched.tolerance, day);
            }
            add_score_trend(&mut report.trend, &fetched.hill_range, &fetched.endurance_range);
            let kept_acclimation =
                fetched.kept.as_ref().map(|(days, _)| kept::acclimation_days(days)).unwrap_or_default();
            add_acclimation_trend(&mut report.trend, &kept_acclimation, &fetched.vo2_range);
            if let Some(row) = report.trend.iter_mut().find(|r| r.date == date.to_string())
                && row.hill_score.is_none()
            {
                row.hill_score = report.hill_score.as_ref().and_then(|h| h.score);
            }
            if let Some((days, source)) = &fetched.kept {
                kept::add_kept_load_focus(&mut report.trend, days);
                report.trend_source = Some(source.clone());
            } else {
                report.trend_source = Some(crate::history::DataSource::live());
            }
            // The day's own load focus on its row (today is never in the history).
            if let Some(row) = report.trend.iter_mut().find(|r| r.date == date.to_string())
                && row.load_focus.is_none()
            {
                row.load_focus = report.load_balance.as_ref().and_then(|b| b.feedback.clone());
            }
        }
        report.not_recorded = self.not_recorded(&report, &fetched, status_error.as_ref()).await;
        report.missing = missing_parts(&report, &failed);
        report.goal_race = self.next_goal_race();
        let mut summary = training_summary(&report);
        if let Some(sentence) = focus_and_scores_sentence(&report) {
            summary.push_str(&sentence);
        }
        if let Some(race) = &report.goal_race {
            summary.push(' ');
            summary.push_str(&race.sentence());
        }
        for sentence in &report.not_recorded {
            summary.push(' ');
            summary.push_str(sentence);
        }
        Ok(self.answer(summary, report))
    }

    /// Personal records (PBs): fastest 1 km, mile, 5K, 10K, half and full marathon, longest run,
    /// longest ride, cycling and swim records and step records, each with its time or distance,
    /// the day it was set and the activity (id and name) that set it. Use it for "what's my 5K
    /// PB?" or "what's my longest run?"; follow up with `get_activity` on the activity id.
    #[tool(
        name = "get_personal_records",
        annotations(
            title = "Personal records (PBs)",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<PersonalRecords>()
    )]
    async fn get_personal_records(
        &self,
        Parameters(args): Parameters<PersonalRecordsArgs>,
    ) -> Result<Answer<PersonalRecords>, ToolError> {
        let client = self.web_session().await?;
        let records = client.records().personal_records().await?;
        let mut rows: Vec<RecordRow> = records.iter().filter_map(record_row).collect();
        if let Some(sport) = args.sport {
            rows.retain(|r| r.sport == sport.name());
        }
        if rows.is_empty() {
            let what = args.sport.map_or_else(String::new, |s| format!(" for {}", s.name()));
            return Err(ToolError::NoData(format!("No personal records{what} on Garmin Connect yet")));
        }
        // Names Garmin left out: each activity fetched once, all at once.
        let wanted = names_to_fetch(&rows);
        let activities = client.activities();
        // A name that cannot be read leaves the record without it (the id is still there); a
        // deleted or someone else's activity has none, any other failure is named in `missing`.
        let answers = futures::future::join_all(wanted.iter().map(|id| async move {
            match activities.get(*id).await {
                Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::Forbidden) => (*id, Ok(None)),
                other => (*id, other.map(|a| a.activity_name)),
            }
        }))
        .await;
        let mut missing = Vec::new();
        let fetched: Vec<(u64, Option<String>)> = answers
            .into_iter()
            .map(|(id, answer)| (id, part(&mut missing, &format!("name of activity {id}"), answer).flatten()))
            .collect();
        let names: BTreeMap<u64, String> = fetched
            .into_iter()
            .filter_map(|(id, name)| name.filter(|n| !n.trim().is_empty()).map(|n| (id, n)))
            .collect();
        for row in &mut rows {
            if row.activity_name.is_none()
                && let Some(id) = row.activity_id
            {
                row.activity_name = names.get(&id).cloned();
            }
        }
        rows.sort_by_key(|r| (sport_rank(&r.sport), r.type_id));
        let sport = args.sport.map_or("all", RecordSport::name).to_owned();
        let summary = with_missing(records_summary(&rows), &missing);
        Ok(self.answer(summary, PersonalRecords { sport, records: rows, missing }))
    }
}

// ---------------------------------------------------------------------------------------------
// get_training_status: shaping what Garmin gave

/// What the training report is made of, as Garmin gave it (a part that failed is `None` or empty,
/// and named in the report's `missing` or `not_recorded`).
struct TrainingParts {
    date: NaiveDate,
    trend_dates: Vec<NaiveDate>,
    status: Option<TrainingStatus>,
    readiness_by_day: BTreeMap<NaiveDate, Vec<TrainingReadiness>>,
    vo2_range: Vec<MaxMetrics>,
    hrv: Vec<HrvSummary>,
    predictions: Option<RacePredictions>,
    lactate: Option<LactateThreshold>,
    endurance: Option<EnduranceScore>,
    hill: Option<HillScore>,
    /// The trend's daily hill scores and weekly endurance scores (read only with a trend).
    hill_range: HillScoreRange,
    endurance_range: EnduranceScoreRange,
    /// The trend's kept days, when the local history answered them.
    kept: Option<(Vec<::history::daily_metrics::DailyMetrics>, crate::history::DataSource)>,
    fitness_age: Option<FitnessAge>,
    /// Running Tolerance rows, and the failure of their request (kept to say why they are absent).
    tolerance: Vec<RunningTolerance>,
    tolerance_error: Option<garmin::Error>,
}

impl GarminMcp {
    /// Every request of `get_training_status`, sent once and all at once
    /// ([`replies::Replies`]), with the scores' trend from the local history when it covers it.
    async fn training_parts(
        &self,
        date: NaiveDate,
        trend_days: u32,
    ) -> Result<(TrainingParts, Vec<String>, Option<garmin::Error>), ToolError> {
        let reads = self.reads().await?;
        let client = reads.web("this tool's data")?.clone();
        let first = date - Duration::days(i64::from(trend_days.max(1)) - 1);
        // A week at least of Running Tolerance, so this week's is there whatever the trend's length.
        let tolerance_first = first.min(date - Duration::days(6));
        // The trend from the local history when it covers it (no request to Garmin), from the
        // tolerance's first day.
        let kept = match trend_days {
            0 => None,
            _ => {
                let history = self.history_for_reads().await;
                crate::domain::reading::kept_daily_metrics(history, tolerance_first, date, self.today()).await
            }
        };
        // The history ends yesterday at the latest: the days after it are read live.
        let kept_tolerance = kept.as_ref().and_then(|(days, _)| {
            let last = days.iter().map(|d| d.date).max()?;
            kept::tolerance_rows(days, tolerance_first, last).map(|rows| (rows, last))
        });
        let tolerance_range = match &kept_tolerance {
            Some((_, last)) if *last >= date => None,
            Some((_, last)) => Some((*last + Duration::days(1), date)),
            None => Some((tolerance_first, date)),
        };
        let trend_dates: Vec<NaiveDate> =
            (0..i64::from(trend_days.max(1))).map(|i| first + Duration::days(i)).collect();
        // The asked day's readiness is always read (its report has every factor); the trend's
        // other days come from the history where it kept them.
        let kept_readiness = kept.as_ref().map(|(days, _)| kept::readiness_days(days)).unwrap_or_default();
        let span = replies::Span {
            date,
            first,
            readiness_dates: trend_dates
                .iter()
                .copied()
                .filter(|d| *d == date || !kept_readiness.contains_key(d))
                .collect(),
            trend_dates,
            tolerance_range,
            with_trend: trend_days > 0,
            live_scores: trend_days > 0 && kept.is_none(),
        };
        let live_scores = span.live_scores;
        let mut failed = Vec::new();
        let (mut parts, status_error) =
            replies::Replies::read(&client, &reads, &span).await.into_parts(span, &mut failed);
        if live_scores {
            parts.take_day_scores_from_the_ranges();
        }
        for (day, entries) in kept_readiness {
            parts.readiness_by_day.entry(day).or_insert(entries);
        }
        if let Some((mut rows, _)) = kept_tolerance {
            rows.append(&mut parts.tolerance);
            parts.tolerance = rows;
        }
        if let Some((days, source)) = kept {
            (parts.hill_range, parts.endurance_range) = kept::as_ranges(&days);
            parts.kept = Some((days, source));
        }
        if let Some(e) = status_error.as_ref().filter(|e| absence("", "", Some(e)).is_none()) {
            failed.push(format!("status: {e}"));
        }
        if let Some(e) = parts.tolerance_error.as_ref().filter(|e| absence("", "", Some(e)).is_none()) {
            failed.push(format!("running_tolerance: {e}"));
        }
        Ok((parts, failed, status_error))
    }
}

impl TrainingParts {
    /// With a live trend, the asked day's hill and endurance scores are its entries in the ranges
    /// (no request of their own).
    fn take_day_scores_from_the_ranges(&mut self) {
        let date = self.date;
        self.endurance = self
            .endurance_range
            .endurance_score_dto
            .clone()
            .filter(|e| e.calendar_date == Some(date) && e.overall_score.is_some());
        self.hill = self
            .hill_range
            .hill_scores
            .iter()
            .find(|h| h.calendar_date == Some(date) && h.overall_score.is_some())
            .cloned();
    }
}

impl GarminMcp {
    /// One sentence per newest metric the watch does not record (or Garmin keeps from the
    /// account). The watch is named from the training status; only when that is absent too is the
    /// device list read (one more request, on an answer that already lacks parts).
    async fn not_recorded(
        &self,
        report: &TrainingStatusReport,
        f: &TrainingParts,
        status_error: Option<&garmin::Error>,
    ) -> Vec<String> {
        let sentences = |watch: &str| {
            let mut out = Vec::new();
            if report.status.is_none() && status_error.is_some() {
                out.extend(absence(watch, "a training status", status_error));
            }
            if report.running_tolerance.is_none() {
                out.extend(absence(watch, "Running Tolerance", f.tolerance_error.as_ref()));
            }
            for (lacking, metric) in [
                (report.acclimation.is_none(), "heat and altitude acclimation"),
                (report.endurance_score.is_none() && f.endurance.is_none(), "an endurance score"),
                (report.hill_score.is_none() && f.hill.is_none(), "a hill score"),
            ] {
                if lacking {
                    out.extend(absence(watch, metric, None));
                }
            }
            out
        };
        let named = watch_words(f.status.as_ref(), &[]);
        let first = sentences(&named);
        if first.is_empty() || f.status.as_ref().is_some_and(|s| s.most_recent_training_status.is_some()) {
            return first;
        }
        let devices: Vec<Device> = match self.reads().await {
            Ok(reads) => reads.devices().await.map(Served::into_value).unwrap_or_default(),
            Err(_) => Vec::new(),
        };
        sentences(&watch_words(f.status.as_ref(), &devices))
    }
}

/// The parts of the report that belong to the day asked about.
fn date_bound_report(f: &TrainingParts) -> TrainingStatusReport {
    let date = f.date;
    let mut report = TrainingStatusReport { date: date.to_string(), ..TrainingStatusReport::default() };
    report.status = f.status.as_ref().and_then(status_part);
    report.load = f.status.as_ref().and_then(load_part);
    report.load_balance = f.status.as_ref().and_then(load_balance_part);
    report.vo2max =
        vo2max_part(f.status.as_ref(), &f.vo2_range, f.fitness_age.as_ref().and_then(|a| a.fitness_age));
    report.readiness =
        f.readiness_by_day.get(&date).and_then(|entries| morning_readiness(entries)).map(readiness_part);
    report.hrv =
        f.hrv.iter().find(|h| h.calendar_date == Some(date)).filter(|h| h.has_data()).map(|h| HrvPart {
            last_night_ms: h.last_night_avg,
            weekly_avg_ms: h.weekly_avg,
            status: h.status.as_deref().map(words),
        });
    report.endurance_score = f.endurance.as_ref().map(|e| EndurancePart {
        score: e.overall_score.and_then(whole),
        level: e.classification.and_then(endurance_level).map(str::to_owned),
    });
    report.running_tolerance = running_tolerance_part(&f.tolerance, date);
    report.acclimation = acclimation_part(f.status.as_ref(), &f.vo2_range);
    report.hill_score = f.hill.as_ref().map(|h| HillPart {
        score: h.overall_score.and_then(whole),
        strength: h.strength_score.and_then(whole),
        endurance: h.endurance_score.and_then(whole),
        level: h.hill_score_classification_id.and_then(hill_level).map(str::to_owned),
    });
    report
}

/// Whether the day itself has nothing at all.
fn report_is_empty(report: &TrainingStatusReport) -> bool {
    report.status.is_none()
        && report.load.is_none()
        && report.load_balance.is_none()
        && report.vo2max.is_none()
        && report.readiness.is_none()
        && report.hrv.is_none()
        && report.endurance_score.is_none()
        && report.hill_score.is_none()
        && report.running_tolerance.is_none()
        && report.acclimation.is_none()
}

/// Race predictions and the lactate threshold: the latest Garmin has, whatever the day.
fn add_undated_parts(report: &mut TrainingStatusReport, f: &TrainingParts) {
    report.race_predictions = f.predictions.as_ref().map(|p| RacePredictionsPart {
        as_of: p.calendar_date.map(|d| d.to_string()),
        five_k: p.time_5k.filter(|t| *t > 0.0).map(display::duration),
        ten_k: p.time_10k.filter(|t| *t > 0.0).map(display::duration),
        half_marathon: p.time_half_marathon.filter(|t| *t > 0.0).map(display::duration),
        marathon: p.time_marathon.filter(|t| *t > 0.0).map(display::duration),
    });
    report.lactate_threshold = f.lactate.as_ref().map(|l| LactatePart {
        heart_rate_bpm: l.heart_rate.map(f64::round),
        pace_per_km: l.speed.and_then(|s| display::pace_per_km(lactate_speed_mps(s))),
        as_of: l.calendar_date.map(|d| d.to_string()),
    });
}

/// The report's `missing`: bare names where Garmin has nothing, `name: why` where the request for
/// it failed, then failures of requests that are not a part of their own.
fn missing_parts(report: &TrainingStatusReport, failed: &[String]) -> Vec<String> {
    let parts = [
        ("status", report.status.is_some()),
        ("load", report.load.is_some()),
        ("load_balance", report.load_balance.is_some()),
        ("vo2max", report.vo2max.is_some()),
        ("readiness", report.readiness.is_some()),
        ("hrv", report.hrv.is_some()),
        ("race_predictions", report.race_predictions.is_some()),
        ("lactate_threshold", report.lactate_threshold.is_some()),
        ("endurance_score", report.endurance_score.is_some()),
        ("hill_score", report.hill_score.is_some()),
    ];
    let why = |name: &str| failed.iter().find(|f| f.split(": ").next() == Some(name)).cloned();
    let mut missing: Vec<String> = parts
        .iter()
        .filter(|(_, has)| !has)
        .map(|(name, _)| why(name).unwrap_or_else(|| (*name).to_owned()))
        .collect();
    let unnamed: Vec<String> = failed.iter().filter(|f| !missing.contains(f)).cloned().collect();
    missing.extend(unnamed);
    missing
}
