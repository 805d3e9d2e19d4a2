//! The answer types of the `training` toolset: what `get_training_status` and
//! `get_personal_records` send back, with the doc comments that become their output schemas.

use rmcp::schemars;
use serde::Serialize;

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
    /// Running Tolerance: how much running impact load the legs can take this week.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub running_tolerance: Option<RunningTolerancePart>,
    /// Heat and altitude acclimation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub acclimation: Option<AcclimationPart>,
    /// One plain sentence per metric the watch does not record or Garmin does not give this
    /// account (never shown as zeros).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_recorded: Vec<String>,
    /// One row per day of the trend, oldest first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub trend: Vec<TrendRow>,
    /// Where the trend's hill and endurance scores, load focus, morning readiness, acclimation and
    /// Running Tolerance came from: the local history when it covers the trend's days (the asked
    /// day, when it is today, read live), else Garmin live.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trend_source: Option<crate::history::DataSource>,
    /// Parts Garmin has no data for.
    pub missing: Vec<String>,
    /// The next goal race from the athlete memory, with the days to it (when one is remembered).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub goal_race: Option<crate::domain::goal_race::GoalRaceNote>,
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
    /// Each band's shortage or excess against its target range, e.g. `anaerobic shortage (120
    /// below 180–540)`; empty when every band is on target.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub focus: Vec<String>,
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
    /// `below target` (a shortage), `on target` or `above target` (an excess).
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
    /// `recreational`, `challenger`, `trained`, `skilled`, `expert` or `elite`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub level: Option<String>,
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
    /// Running Tolerance of the day.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub running_tolerance: Option<f64>,
    /// Acute running impact load of the day.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub impact_load: Option<f64>,
    /// Hill score of the day.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hill_score: Option<u64>,
    /// Endurance score of the day.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub endurance_score: Option<u64>,
    /// Garmin's load-focus verdict of the day (e.g. `anaerobic shortage`): from the local history
    /// when it answers the trend, and on the asked day from its own training status.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub load_focus: Option<String>,
    /// Heat acclimation of the day, percent (from the local history every day; live, on the days
    /// Garmin updated VO2max, whose rows carry it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heat_acclimation_pct: Option<u64>,
    /// Garmin's heat trend of the day in words (`acclimatizing`, `acclimatized`…).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heat_trend: Option<String>,
    /// Altitude acclimated to on the day (m).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub altitude_acclimation_m: Option<u64>,
}

/// Running Tolerance and impact load (Forerunner 570/970, fēnix 8 era).
#[derive(Debug, Default, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct RunningTolerancePart {
    /// The day of Garmin's latest row.
    pub as_of: String,
    /// This week's tolerance (impact load the legs can take).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weekly_tolerance: Option<f64>,
    /// Acute running impact load.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub acute_impact_load: Option<f64>,
    /// Impact load of the week so far.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weekly_impact_load: Option<f64>,
    /// Garmin's verdict in words: `above tolerance`, `high load`, `low load 7days`…
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verdict: Option<String>,
}

/// Heat and altitude acclimation.
#[derive(Debug, Default, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct AcclimationPart {
    /// The day of Garmin's value.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub as_of: Option<String>,
    /// Heat acclimation, percent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heat_percent: Option<u64>,
    /// Heat trend in words (`acclimatizing`, `acclimatized`…).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heat_trend: Option<String>,
    /// Altitude acclimated to (m).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub altitude_acclimation_m: Option<u64>,
    /// Current altitude (m).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_altitude_m: Option<u64>,
}

/// `get_personal_records`' answer.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct PersonalRecords {
    /// The sport asked for (`all` by default).
    pub sport: String,
    /// The records, by sport then record type.
    pub records: Vec<RecordRow>,
    /// Parts Garmin could not give, with why (e.g. the name of a record's activity).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
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
