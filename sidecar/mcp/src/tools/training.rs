//! The `training` toolset: `get_training_status` (status, load and the acute:chronic workload
//! ratio, load balance, VO2max, readiness, HRV, race predictions, lactate threshold, endurance and
//! hill scores, and a short trend) and `get_personal_records` (PBs with the activity that set them).
//!
//! Every Garmin request is sent once and concurrently. Garmin keys training status by device id;
//! the primary training device's entry is used (else the first).

use std::collections::{BTreeMap, BTreeSet};

use chrono::{Duration, NaiveDate};
use garmin::ErrorKind;
use garmin::models::metrics::{MaxMetrics, TrainingReadiness, TrainingStatus};
use garmin::models::records::PersonalRecord;
use garmin::models::wellness::HrvSummary;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{schemars, tool, tool_router};
use serde::{Deserialize, Serialize};

use super::health::{parse_date, thousands, words};
use crate::output::{self, Answer};
use crate::server::GarminMcp;
use crate::tool_error::ToolError;

/// Most trend days `get_training_status` reports.
pub const MAX_TREND_DAYS: u32 = 28;

/// Arguments of `get_training_status`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct TrainingStatusArgs {
    /// The day, `YYYY-MM-DD` (default today).
    #[serde(default)]
    pub date: Option<String>,
    /// Days of trend to add (readiness, acute load, VO2max, HRV per day), ending on `date`:
    /// 0–28, default 7.
    #[serde(default)]
    #[schemars(range(min = 0, max = 28))]
    pub trend_days: Option<u32>,
}

/// `get_training_status`'s answer.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct TrainingStatusReport {
    /// The day reported.
    pub date: String,
    /// Garmin's training status.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<StatusPart>,
    /// Acute and chronic training load and their ratio (ACWR): the overtraining check.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub load: Option<LoadPart>,
    /// Four-week load per intensity band against Garmin's targets.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub load_balance: Option<LoadBalancePart>,
    /// VO2max (ml/kg/min) and fitness age.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vo2max: Option<Vo2MaxPart>,
    /// Training readiness.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub readiness: Option<ReadinessPart>,
    /// Overnight HRV.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hrv: Option<HrvPart>,
    /// Garmin's latest race-time predictions (`h:mm:ss`, `m:ss` under an hour).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub race_predictions: Option<RacePredictionsPart>,
    /// Latest lactate threshold.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lactate_threshold: Option<LactatePart>,
    /// Endurance score.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub endurance_score: Option<EndurancePart>,
    /// Hill score.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hill_score: Option<HillPart>,
    /// One row per day of the trend, oldest first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub trend: Vec<TrendRow>,
    /// Parts Garmin has no data for.
    pub missing: Vec<String>,
}

/// Training status.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct StatusPart {
    /// `productive`, `maintaining`, `recovery`, `unproductive`, `detraining`, `overreaching`,
    /// `peaking`, `strained`, `no status`…
    pub phrase: String,
    /// Since when it holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub since: Option<String>,
    /// `improving`, `stable` or `declining` fitness.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fitness_trend: Option<String>,
    /// Status paused (illness, break).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paused: Option<bool>,
}

/// Acute (7-day) and chronic (28-day) load.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct LoadPart {
    /// Acute load.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub acute: Option<f64>,
    /// Chronic load.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chronic: Option<f64>,
    /// Acute ÷ chronic, two decimals.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub acwr: Option<f64>,
    /// `low` (< 0.8), `optimal` (0.8–1.3), `high` (1.3–1.5) or `very high` (> 1.5).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub acwr_band: Option<String>,
    /// What the band means, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meaning: Option<String>,
}

/// Load balance over four weeks.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct LoadBalancePart {
    /// Aerobic low, aerobic high, anaerobic.
    pub bands: Vec<LoadBand>,
    /// Garmin's verdict, e.g. `anaerobic shortage`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub feedback: Option<String>,
}

/// One intensity band.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct LoadBand {
    /// `aerobic low`, `aerobic high` or `anaerobic`.
    pub band: String,
    /// Load in the band.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub load: Option<f64>,
    /// Target range, lower end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_min: Option<f64>,
    /// Target range, upper end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_max: Option<f64>,
    /// `below target`, `on target` or `above target`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
}

/// VO2max and fitness age.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct Vo2MaxPart {
    /// Running VO2max.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub running: Option<f64>,
    /// Day of the running value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub running_date: Option<String>,
    /// Cycling VO2max.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cycling: Option<f64>,
    /// Fitness age (years).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fitness_age: Option<f64>,
}

/// Training readiness.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct ReadinessPart {
    /// Score 0–100.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<u64>,
    /// `poor`, `low`, `moderate`, `high`, `prime`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
    /// Garmin's short feedback, e.g. `recovery in progress`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub feedback: Option<String>,
    /// Recovery time left, e.g. `14 h 20 min`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recovery_time: Option<String>,
    /// Each factor's contribution (%, 100 = best).
    pub factors: ReadinessFactors,
    /// Factors below 70 %, weakest first (sleep, recovery time, hrv, acute load, stress history,
    /// sleep history).
    pub limiting_factors: Vec<String>,
}

/// Readiness factors (%).
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct ReadinessFactors {
    /// Last night's sleep.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sleep: Option<u64>,
    /// Recovery time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recovery_time: Option<u64>,
    /// HRV status.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hrv: Option<u64>,
    /// Acute load.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub acute_load: Option<u64>,
    /// Stress history.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stress_history: Option<u64>,
    /// Sleep history.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sleep_history: Option<u64>,
}

/// HRV of the night.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct HrvPart {
    /// Last night's average (ms).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_night_ms: Option<f64>,
    /// Seven-day average (ms).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weekly_avg_ms: Option<f64>,
    /// `balanced`, `unbalanced`, `low`, `poor`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
}

/// Race predictions.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct RacePredictionsPart {
    /// Day Garmin computed them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub as_of: Option<String>,
    /// 5 km.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub five_k: Option<String>,
    /// 10 km.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ten_k: Option<String>,
    /// Half marathon.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub half_marathon: Option<String>,
    /// Marathon.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub marathon: Option<String>,
}

/// Lactate threshold.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct LactatePart {
    /// Threshold heart rate (bpm).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heart_rate_bpm: Option<f64>,
    /// Threshold pace per km (`4'35"`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pace_per_km: Option<String>,
    /// Day detected.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub as_of: Option<String>,
}

/// Endurance score.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct EndurancePart {
    /// Score.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<u64>,
    /// `recreational`, `intermediate`, `trained`, `well trained`, `expert`, `superior`, `elite`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
}

/// Hill score.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct HillPart {
    /// Overall.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<u64>,
    /// Strength part.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strength: Option<u64>,
    /// Endurance part.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub endurance: Option<u64>,
}

/// One day of the trend.
#[derive(Debug, Default, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct TrendRow {
    /// The day.
    pub date: String,
    /// Morning training readiness.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub readiness: Option<u64>,
    /// Acute load.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub acute_load: Option<f64>,
    /// VO2max (running), on days Garmin updated it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vo2max: Option<f64>,
    /// Overnight HRV (ms).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hrv_ms: Option<f64>,
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

/// `get_personal_records`' answer.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct PersonalRecords {
    /// The sport asked for (`all` by default).
    pub sport: String,
    /// The records, by sport then record type.
    pub records: Vec<RecordRow>,
}

/// One personal record.
#[derive(Debug, Default, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct RecordRow {
    /// What it is: `5 km`, `longest run`, `most steps in a day`, or `record type N` when Garmin's
    /// type id is not known.
    pub record: String,
    /// Garmin's record type id.
    pub type_id: i64,
    /// `running`, `cycling`, `swimming`, `strength`, `steps` or `other`.
    pub sport: String,
    /// The record as people write it: a time (`h:mm:ss`/`m:ss`), a distance (`21.10 km`), steps…
    pub value: String,
    /// Time in seconds (time records).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_s: Option<f64>,
    /// Distance (distance records, km).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance_km: Option<f64>,
    /// Pace per km (running time records) or per 100 m (swims).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pace: Option<String>,
    /// Day it was set (local).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// The activity that set it (for `get_activity`); absent for day-based records.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activity_id: Option<u64>,
    /// That activity's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activity_name: Option<String>,
}

#[tool_router(router = training_tools, vis = "pub(crate)")]
impl GarminMcp {
    /// Training status on a day: Garmin's status (productive, maintaining, recovery,
    /// overreaching…), acute and chronic load with the acute:chronic workload ratio (ACWR) and what
    /// it means — use this to answer "am I overtraining?" —, load balance, VO2max and fitness age,
    /// training readiness and what limits it, HRV, race predictions (5K to marathon), lactate
    /// threshold, endurance and hill scores, plus the last `trend_days` days of readiness, acute
    /// load, VO2max and HRV.
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
        let date = match &args.date {
            Some(text) => parse_date("date", text)?,
            None => self.today(),
        };
        let trend_days = args.trend_days.unwrap_or(7);
        if trend_days > MAX_TREND_DAYS {
            return Err(ToolError::invalid(format!(
                "trend_days must be 0–{MAX_TREND_DAYS}, got {trend_days}"
            )));
        }
        let client = self.garmin().await?;
        let m = client.metrics();
        let w = client.wellness();
        let first = date - Duration::days(i64::from(trend_days.max(1)) - 1);
        let trend_dates: Vec<NaiveDate> =
            (0..i64::from(trend_days.max(1))).map(|i| first + Duration::days(i)).collect();
        let readiness = futures::future::try_join_all(trend_dates.iter().map(|d| m.training_readiness(*d)));
        let vo2_range =
            async { if trend_days > 0 { m.max_metrics(first, date).await } else { Ok(Vec::new()) } };
        let (status, readiness, vo2_range, hrv, predictions, lactate, endurance, hill, fitness_age) = tokio::try_join!(
            m.training_status(date),
            readiness,
            vo2_range,
            w.hrv_range(first, date),
            m.race_predictions(),
            m.lactate_threshold(),
            m.endurance_score(date),
            m.hill_score(date),
            m.fitness_age(date),
        )?;
        let readiness_by_day: BTreeMap<NaiveDate, Vec<TrainingReadiness>> =
            trend_dates.iter().copied().zip(readiness).collect();

        let mut report = TrainingStatusReport { date: date.to_string(), ..TrainingStatusReport::default() };
        report.status = status.as_ref().and_then(status_part);
        report.load = status.as_ref().and_then(load_part);
        report.load_balance = status.as_ref().and_then(load_balance_part);
        report.vo2max =
            vo2max_part(status.as_ref(), &vo2_range, fitness_age.as_ref().and_then(|f| f.fitness_age));
        report.readiness = readiness_by_day
            .get(&date)
            .and_then(|entries| TrainingReadiness::latest(entries))
            .map(readiness_part);
        report.hrv =
            hrv.iter().find(|h| h.calendar_date == Some(date)).filter(|h| h.has_data()).map(|h| HrvPart {
                last_night_ms: h.last_night_avg,
                weekly_avg_ms: h.weekly_avg,
                status: h.status.as_deref().map(words),
            });
        report.endurance_score = endurance.map(|e| EndurancePart {
            score: e.overall_score.and_then(whole),
            level: e.classification.and_then(endurance_level).map(str::to_owned),
        });
        report.hill_score = hill.map(|h| HillPart {
            score: h.overall_score.and_then(whole),
            strength: h.strength_score.and_then(whole),
            endurance: h.endurance_score.and_then(whole),
        });
        let date_bound_empty = report.status.is_none()
            && report.load.is_none()
            && report.load_balance.is_none()
            && report.vo2max.is_none()
            && report.readiness.is_none()
            && report.hrv.is_none()
            && report.endurance_score.is_none()
            && report.hill_score.is_none();
        if date_bound_empty {
            return Err(ToolError::NoData(format!("No training data recorded for {date}")));
        }
        report.race_predictions = predictions.map(|p| RacePredictionsPart {
            as_of: p.calendar_date.map(|d| d.to_string()),
            five_k: p.time_5k.filter(|t| *t > 0.0).map(output::duration),
            ten_k: p.time_10k.filter(|t| *t > 0.0).map(output::duration),
            half_marathon: p.time_half_marathon.filter(|t| *t > 0.0).map(output::duration),
            marathon: p.time_marathon.filter(|t| *t > 0.0).map(output::duration),
        });
        report.lactate_threshold = lactate.map(|l| LactatePart {
            heart_rate_bpm: l.heart_rate.map(f64::round),
            pace_per_km: l.speed.and_then(|s| output::pace_per_km(lactate_speed_mps(s))),
            as_of: l.calendar_date.map(|d| d.to_string()),
        });
        if trend_days > 0 {
            report.trend = trend_rows(&trend_dates, &readiness_by_day, &vo2_range, &hrv);
        }
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
        report.missing = parts.iter().filter(|(_, has)| !has).map(|(name, _)| (*name).to_owned()).collect();
        let summary = training_summary(&report);
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
        let client = self.garmin().await?;
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
        let fetched = futures::future::try_join_all(wanted.iter().map(|id| async move {
            match activities.get(*id).await {
                Ok(a) => Ok((*id, a.activity_name)),
                Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::Forbidden) => Ok((*id, None)),
                Err(e) => Err(e),
            }
        }))
        .await?;
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
        let summary = records_summary(&rows);
        Ok(self.answer(summary, PersonalRecords { sport, records: rows }))
    }
}

fn status_part(status: &TrainingStatus) -> Option<StatusPart> {
    let s = status.primary_status()?;
    let phrase = s
        .training_status_feedback_phrase
        .as_deref()
        .map(status_phrase)
        .or_else(|| s.training_status.map(status_from_code))?;
    Some(StatusPart {
        phrase,
        since: s.since_date.map(|d| d.to_string()),
        fitness_trend: s.fitness_trend.and_then(|t| match t {
            1 => Some("declining".to_owned()),
            2 => Some("stable".to_owned()),
            3 => Some("improving".to_owned()),
            _ => None,
        }),
        paused: s.training_paused.filter(|p| *p),
    })
}

/// Garmin's status key (`PRODUCTIVE_3`) in words (`productive`).
pub fn status_phrase(key: &str) -> String {
    let stem = key.trim().trim_end_matches(|c: char| c.is_ascii_digit()).trim_end_matches('_');
    words(stem)
}

/// Garmin's status code in words, when the key is missing.
fn status_from_code(code: i64) -> String {
    match code {
        0 => "no status".to_owned(),
        1 => "detraining".to_owned(),
        2 => "unproductive".to_owned(),
        3 => "peaking".to_owned(),
        4 => "maintaining".to_owned(),
        5 => "recovery".to_owned(),
        6 => "overreaching".to_owned(),
        7 => "productive".to_owned(),
        8 => "strained".to_owned(),
        other => format!("status code {other}"),
    }
}

fn load_part(status: &TrainingStatus) -> Option<LoadPart> {
    let load = status.primary_status()?.acute_training_load.as_ref()?;
    let acute = load.daily_training_load_acute;
    let chronic = load.daily_training_load_chronic;
    let acwr = match (acute, chronic) {
        (Some(a), Some(c)) if c > 0.0 => Some(acwr(a, c)),
        _ => load.daily_acute_chronic_workload_ratio,
    };
    if acute.is_none() && chronic.is_none() && acwr.is_none() {
        return None;
    }
    let band = acwr.map(acwr_band);
    Some(LoadPart {
        acute: acute.map(f64::round),
        chronic: chronic.map(f64::round),
        acwr,
        acwr_band: band.map(|b| b.0.to_owned()),
        meaning: band.map(|b| b.1.to_owned()),
    })
}

/// Acute ÷ chronic load, two decimals.
pub fn acwr(acute: f64, chronic: f64) -> f64 {
    (acute / chronic * 100.0).round() / 100.0
}

/// The ACWR band and what it means.
pub fn acwr_band(ratio: f64) -> (&'static str, &'static str) {
    if ratio < 0.8 {
        ("low", "load below your usual: fine for recovery or tapering, fitness fades if it lasts")
    } else if ratio <= 1.3 {
        ("optimal", "load in the optimal range for your fitness: not overtraining")
    } else if ratio <= 1.5 {
        ("high", "load rising faster than your fitness: watch recovery, don't add more")
    } else {
        (
            "very high",
            "load far above what you are used to: overreaching, high injury and overtraining risk; ease off",
        )
    }
}

fn load_balance_part(status: &TrainingStatus) -> Option<LoadBalancePart> {
    let b = status.primary_load_balance()?;
    let band = |name: &str, load: Option<f64>, lo: Option<f64>, hi: Option<f64>| LoadBand {
        band: name.to_owned(),
        load: load.map(f64::round),
        target_min: lo.map(f64::round),
        target_max: hi.map(f64::round),
        status: load.map(|l| {
            if lo.is_some_and(|lo| l < lo) {
                "below target".to_owned()
            } else if hi.is_some_and(|hi| l > hi) {
                "above target".to_owned()
            } else {
                "on target".to_owned()
            }
        }),
    };
    let bands = vec![
        band(
            "aerobic low",
            b.monthly_load_aerobic_low,
            b.monthly_load_aerobic_low_target_min,
            b.monthly_load_aerobic_low_target_max,
        ),
        band(
            "aerobic high",
            b.monthly_load_aerobic_high,
            b.monthly_load_aerobic_high_target_min,
            b.monthly_load_aerobic_high_target_max,
        ),
        band(
            "anaerobic",
            b.monthly_load_anaerobic,
            b.monthly_load_anaerobic_target_min,
            b.monthly_load_anaerobic_target_max,
        ),
    ];
    if bands.iter().all(|b| b.load.is_none()) {
        return None;
    }
    Some(LoadBalancePart { bands, feedback: b.training_balance_feedback_phrase.as_deref().map(words) })
}

fn vo2max_part(
    status: Option<&TrainingStatus>,
    range: &[MaxMetrics],
    fitness_age: Option<f64>,
) -> Option<Vo2MaxPart> {
    let vo2 = |v: &garmin::models::metrics::Vo2Max| v.vo2_max_precise_value.or(v.vo2_max_value);
    let latest = status.and_then(|s| s.most_recent_vo2_max.as_ref());
    let running = latest
        .and_then(|m| m.generic.as_ref())
        .filter(|g| vo2(g).is_some())
        .or_else(|| range.iter().rev().filter_map(|m| m.generic.as_ref()).find(|g| vo2(g).is_some()));
    let cycling = latest
        .and_then(|m| m.cycling.as_ref())
        .filter(|c| vo2(c).is_some())
        .or_else(|| range.iter().rev().filter_map(|m| m.cycling.as_ref()).find(|c| vo2(c).is_some()));
    let fitness_age =
        fitness_age.or_else(|| running.and_then(|r| r.fitness_age)).map(|a| (a * 10.0).round() / 10.0);
    if running.is_none() && cycling.is_none() && fitness_age.is_none() {
        return None;
    }
    Some(Vo2MaxPart {
        running: running.and_then(vo2),
        running_date: running.and_then(|r| r.calendar_date).map(|d| d.to_string()),
        cycling: cycling.and_then(vo2),
        fitness_age,
    })
}

fn readiness_part(r: &TrainingReadiness) -> ReadinessPart {
    let pct = |x: Option<f64>| x.filter(|v| v.is_finite() && *v >= 0.0).map(|v| v.round() as u64);
    let factors = ReadinessFactors {
        sleep: pct(r.sleep_score_factor_percent),
        recovery_time: pct(r.recovery_time_factor_percent),
        hrv: pct(r.hrv_factor_percent),
        acute_load: pct(r.acwr_factor_percent),
        stress_history: pct(r.stress_history_factor_percent),
        sleep_history: pct(r.sleep_history_factor_percent),
    };
    let mut weak: Vec<(u64, &str)> = [
        (factors.sleep, "sleep"),
        (factors.recovery_time, "recovery time"),
        (factors.hrv, "hrv"),
        (factors.acute_load, "acute load"),
        (factors.stress_history, "stress history"),
        (factors.sleep_history, "sleep history"),
    ]
    .into_iter()
    .filter_map(|(p, name)| p.filter(|p| *p < 70).map(|p| (p, name)))
    .collect();
    weak.sort_by_key(|w| w.0);
    ReadinessPart {
        score: pct(r.score),
        level: r.level.as_deref().map(words),
        feedback: r.feedback_short.as_deref().map(words),
        recovery_time: r.recovery_time.filter(|m| *m >= 0.0).map(|m| output::hours_minutes(m * 60.0)),
        factors,
        limiting_factors: weak.into_iter().map(|w| w.1.to_owned()).collect(),
    }
}

/// The morning readiness of a day (`AFTER_WAKEUP_RESET`), else the latest.
pub fn morning_readiness(entries: &[TrainingReadiness]) -> Option<&TrainingReadiness> {
    entries
        .iter()
        .filter(|e| e.has_data() && e.input_context.as_deref() == Some("AFTER_WAKEUP_RESET"))
        .max_by_key(|e| e.timestamp)
        .or_else(|| TrainingReadiness::latest(entries))
}

fn trend_rows(
    dates: &[NaiveDate],
    readiness: &BTreeMap<NaiveDate, Vec<TrainingReadiness>>,
    vo2: &[MaxMetrics],
    hrv: &[HrvSummary],
) -> Vec<TrendRow> {
    dates
        .iter()
        .map(|d| {
            let morning = readiness.get(d).and_then(|e| morning_readiness(e));
            TrendRow {
                date: d.to_string(),
                readiness: morning.and_then(|r| r.score).filter(|s| *s >= 0.0).map(|s| s.round() as u64),
                acute_load: morning.and_then(|r| r.acute_load).map(f64::round),
                vo2max: vo2
                    .iter()
                    .filter_map(|m| m.generic.as_ref())
                    .filter(|g| g.calendar_date == Some(*d))
                    .find_map(|g| g.vo2_max_precise_value.or(g.vo2_max_value)),
                hrv_ms: hrv.iter().find(|h| h.calendar_date == Some(*d)).and_then(|h| h.last_night_avg),
            }
        })
        .collect()
}

/// A non-negative number as a whole number.
fn whole(x: f64) -> Option<u64> {
    (x.is_finite() && x >= 0.0).then(|| x.round() as u64)
}

/// Garmin's lactate-threshold speed in m/s (it stores m/s ÷ 10; plain m/s is passed through).
fn lactate_speed_mps(speed: f64) -> f64 {
    if speed < 1.0 { speed * 10.0 } else { speed }
}

fn endurance_level(class: i64) -> Option<&'static str> {
    Some(match class {
        1 => "recreational",
        2 => "intermediate",
        3 => "trained",
        4 => "well trained",
        5 => "expert",
        6 => "superior",
        7 => "elite",
        _ => return None,
    })
}

fn training_summary(r: &TrainingStatusReport) -> String {
    let mut text = format!("{}:", r.date);
    match &r.status {
        Some(s) => {
            text.push_str(&format!(" training status {}", s.phrase));
            if let Some(since) = &s.since {
                text.push_str(&format!(" (since {since})"));
            }
            text.push('.');
        }
        None => text.push_str(" no training status."),
    }
    if let Some(l) = &r.load
        && let (Some(ratio), Some(band)) = (l.acwr, &l.acwr_band)
    {
        let loads = match (l.acute, l.chronic) {
            (Some(a), Some(c)) => format!("Acute load {a:.0} vs chronic {c:.0}: "),
            _ => String::new(),
        };
        let meaning = l.meaning.as_deref().unwrap_or_default();
        text.push_str(&format!(" {loads}ACWR {ratio:.2}, {band} — {meaning}."));
    }
    if let Some(rd) = &r.readiness
        && let Some(score) = rd.score
    {
        let level = rd.level.as_deref().map(|l| format!(" ({l})")).unwrap_or_default();
        text.push_str(&format!(" Readiness {score}{level}"));
        if rd.limiting_factors.is_empty() {
            text.push('.');
        } else {
            text.push_str(&format!(", limited by {}.", rd.limiting_factors.join(" and ")));
        }
    }
    if let Some(v) = r.vo2max.as_ref().and_then(|v| v.running) {
        text.push_str(&format!(" VO2max {v}."));
    }
    if let Some(p) = &r.race_predictions {
        let as_of = p.as_of.as_deref().filter(|d| *d != r.date).map(|d| format!(" (as of {d})"));
        let preds: Vec<String> =
            [("5K", &p.five_k), ("10K", &p.ten_k), ("half", &p.half_marathon), ("marathon", &p.marathon)]
                .iter()
                .filter_map(|(name, t)| t.as_ref().map(|t| format!("{name} {t}")))
                .collect();
        if !preds.is_empty() {
            text.push_str(&format!(" Predicted{}: {}.", as_of.unwrap_or_default(), preds.join(", ")));
        }
    }
    let days = r.trend.len();
    if days > 1 {
        let firsts_lasts = |f: fn(&TrendRow) -> Option<f64>| {
            let values: Vec<f64> = r.trend.iter().filter_map(f).collect();
            Some((*values.first()?, *values.last()?))
        };
        let mut trend = Vec::new();
        if let Some((a, b)) = firsts_lasts(|t| t.readiness.map(|x| x as f64)) {
            trend.push(format!("readiness {a:.0} → {b:.0}"));
        }
        if let Some((a, b)) = firsts_lasts(|t| t.acute_load) {
            trend.push(format!("acute load {a:.0} → {b:.0}"));
        }
        if !trend.is_empty() {
            text.push_str(&format!(" Last {days} days: {}.", trend.join(", ")));
        }
    }
    text
}

/// `(name, sport, kind, distance m)` of Garmin's record type ids. 1–4 are documented by the
/// reference; 5–8 and 12 match the fake and other clients; the rest follow Garmin's `prtypes`
/// numbering as other clients report it.
fn record_type(type_id: i64) -> Option<(&'static str, &'static str, Kind, Option<f64>)> {
    use Kind::{Count, Days, Distance, Elevation, Power, Time};
    Some(match type_id {
        1 => ("1 km", "running", Time, Some(1000.0)),
        2 => ("1 mile", "running", Time, Some(1609.344)),
        3 => ("5 km", "running", Time, Some(5000.0)),
        4 => ("10 km", "running", Time, Some(10_000.0)),
        5 => ("half marathon", "running", Time, Some(21_097.5)),
        6 => ("marathon", "running", Time, Some(42_195.0)),
        7 => ("longest run", "running", Distance, None),
        8 => ("longest ride", "cycling", Distance, None),
        9 => ("biggest climb", "cycling", Elevation, None),
        10 => ("best 20 min power", "cycling", Power, None),
        11 => ("40 km ride", "cycling", Time, Some(40_000.0)),
        12 => ("most steps in a day", "steps", Count, None),
        13 => ("most steps in a week", "steps", Count, None),
        14 => ("most steps in a month", "steps", Count, None),
        15 => ("longest goal streak", "steps", Days, None),
        16 => ("current goal streak", "steps", Days, None),
        17 => ("longest swim", "swimming", Distance, None),
        18 => ("100 m swim", "swimming", Time, Some(100.0)),
        19 => ("100 yd swim", "swimming", Time, Some(91.44)),
        20 => ("400 m swim", "swimming", Time, Some(400.0)),
        21 => ("500 yd swim", "swimming", Time, Some(457.2)),
        22 => ("750 m swim", "swimming", Time, Some(750.0)),
        23 => ("1000 m swim", "swimming", Time, Some(1000.0)),
        24 => ("1500 m swim", "swimming", Time, Some(1500.0)),
        25 => ("1 mile swim (1650 yd)", "swimming", Time, Some(1508.76)),
        _ => return None,
    })
}

/// What a record's value measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Time,
    Distance,
    Elevation,
    Power,
    Count,
    Days,
}

/// The sport of an activity type key (`trail_running` → `running`).
fn sport_of_activity_type(key: &str) -> &'static str {
    let key = key.to_lowercase();
    if key.contains("run") {
        "running"
    } else if key.contains("cycl") || key.contains("bik") || key.contains("ride") {
        "cycling"
    } else if key.contains("swim") {
        "swimming"
    } else if key.contains("strength") {
        "strength"
    } else {
        "other"
    }
}

fn record_row(pr: &PersonalRecord) -> Option<RecordRow> {
    let type_id = pr.type_id?;
    let value = pr.value.filter(|v| v.is_finite())?;
    let known = record_type(type_id);
    let sport = match known {
        Some((_, sport, _, _)) => sport.to_owned(),
        None => pr.activity_type.as_deref().map_or("other", sport_of_activity_type).to_owned(),
    };
    let mut row = RecordRow {
        record: known.map_or_else(|| format!("record type {type_id}"), |k| k.0.to_owned()),
        type_id,
        sport,
        date: pr.pr_start_time_local.map(|t| t.date()).or_else(|| pr.date()).map(|d| d.to_string()),
        activity_id: pr.activity_id.filter(|id| *id > 0),
        activity_name: pr.activity_name.clone().filter(|n| !n.trim().is_empty()),
        ..RecordRow::default()
    };
    match known.map(|k| (k.2, k.3)) {
        Some((Kind::Time, metres)) => {
            row.value = output::duration(value);
            row.time_s = Some((value * 10.0).round() / 10.0);
            row.pace = metres.filter(|_| value > 0.0).and_then(|m| {
                if row.sport == "swimming" {
                    output::pace_per_100m(m / value).map(|p| format!("{p}/100m"))
                } else {
                    output::pace_per_km(m / value).map(|p| format!("{p}/km"))
                }
            });
        }
        Some((Kind::Distance, _)) => {
            let km = output::km(value);
            row.value = format!("{km:.2} km");
            row.distance_km = Some(km);
        }
        Some((Kind::Elevation, _)) => row.value = format!("{value:.0} m"),
        Some((Kind::Power, _)) => row.value = format!("{value:.0} W"),
        Some((Kind::Count, _)) => row.value = format!("{} steps", thousands(value.max(0.0).round() as u64)),
        Some((Kind::Days, _)) => row.value = format!("{value:.0} days"),
        None => row.value = format!("{}", (value * 1000.0).round() / 1000.0),
    }
    Some(row)
}

/// Activity ids whose names Garmin left out, each once.
pub fn names_to_fetch(rows: &[RecordRow]) -> BTreeSet<u64> {
    rows.iter().filter(|r| r.activity_name.is_none()).filter_map(|r| r.activity_id).collect()
}

fn sport_rank(sport: &str) -> u8 {
    match sport {
        "running" => 0,
        "cycling" => 1,
        "swimming" => 2,
        "strength" => 3,
        "steps" => 4,
        _ => 5,
    }
}

fn records_summary(rows: &[RecordRow]) -> String {
    let mut by_sport: Vec<(String, Vec<String>)> = Vec::new();
    for r in rows {
        let item = match &r.date {
            Some(d) => format!("{} {} ({d})", r.record, r.value),
            None => format!("{} {}", r.record, r.value),
        };
        match by_sport.last_mut() {
            Some((sport, items)) if *sport == r.sport => items.push(item),
            _ => by_sport.push((r.sport.clone(), vec![item])),
        }
    }
    let parts: Vec<String> = by_sport
        .into_iter()
        .map(|(sport, items)| {
            let mut name = sport;
            if let Some(first) = name.get_mut(0..1) {
                first.make_ascii_uppercase();
            }
            format!("{name}: {}", items.join(", "))
        })
        .collect();
    format!("{} personal records. {}.", rows.len(), parts.join(". "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acwr_bands_follow_the_usual_thresholds() {
        assert_eq!(acwr_band(0.79).0, "low");
        assert_eq!(acwr_band(0.8).0, "optimal");
        assert_eq!(acwr_band(1.3).0, "optimal");
        assert_eq!(acwr_band(1.31).0, "high");
        assert_eq!(acwr_band(1.5).0, "high");
        assert_eq!(acwr_band(1.51).0, "very high");
        assert_eq!(acwr(612.0, 540.0), 1.13);
    }

    #[test]
    fn status_keys_read_as_words() {
        assert_eq!(status_phrase("PRODUCTIVE_3"), "productive");
        assert_eq!(status_phrase("UNPRODUCTIVE_4"), "unproductive");
        assert_eq!(status_phrase("NO_STATUS"), "no status");
        assert_eq!(status_phrase("STRAINED_1"), "strained");
        assert_eq!(status_from_code(42), "status code 42");
    }

    #[test]
    fn unknown_record_types_are_kept_and_names_are_fetched_once_per_activity() {
        let pr = |type_id: i64, activity: u64, name: Option<&str>| PersonalRecord {
            type_id: Some(type_id),
            activity_id: Some(activity),
            activity_name: name.map(str::to_owned),
            value: Some(1234.5),
            ..PersonalRecord::default()
        };
        let rows: Vec<RecordRow> = [pr(3, 7, None), pr(4, 7, None), pr(99, 8, Some("Ride")), pr(12, 0, None)]
            .iter()
            .filter_map(record_row)
            .collect();
        assert_eq!(rows[2].record, "record type 99");
        assert_eq!(rows[0].value, "20:35");
        assert_eq!(rows[3].activity_id, None, "day-based records have no activity");
        assert_eq!(names_to_fetch(&rows).into_iter().collect::<Vec<_>>(), vec![7]);
    }
}
