//! Fitness and training metrics: readiness, VO2max (maxmet), race predictions, lactate threshold,
//! endurance and hill scores, heart-rate zones and fitness age. Training status is in `status`
//! (re-exported).

mod health_status;
mod status;

pub use health_status::*;
pub use status::*;

use std::collections::BTreeMap;

use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use serde::{Deserialize, Serialize};

use super::de;

/// One entry of `metrics-service/metrics/trainingreadiness/{date}` (an array: one per
/// device/update; `inputContext` `AFTER_WAKEUP_RESET` is the morning value).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TrainingReadiness {
    /// The day.
    #[serde(deserialize_with = "de::date")]
    pub calendar_date: Option<NaiveDate>,
    /// When computed (GMT).
    #[serde(deserialize_with = "de::utc")]
    pub timestamp: Option<DateTime<Utc>>,
    /// When computed (local).
    #[serde(deserialize_with = "de::local")]
    pub timestamp_local: Option<NaiveDateTime>,
    /// Device id.
    #[serde(deserialize_with = "de::id")]
    pub device_id: Option<u64>,
    /// Score 0–100.
    pub score: Option<f64>,
    /// `LOW`, `MODERATE`, `HIGH`, `PRIME`…
    pub level: Option<String>,
    /// Short feedback key.
    pub feedback_short: Option<String>,
    /// Long feedback key.
    pub feedback_long: Option<String>,
    /// Sleep score used.
    pub sleep_score: Option<f64>,
    /// Sleep factor (%).
    pub sleep_score_factor_percent: Option<f64>,
    /// Recovery time left (minutes).
    pub recovery_time: Option<f64>,
    /// Recovery factor (%).
    pub recovery_time_factor_percent: Option<f64>,
    /// Acute load.
    pub acute_load: Option<f64>,
    /// Load factor (%).
    pub acwr_factor_percent: Option<f64>,
    /// HRV factor (%).
    pub hrv_factor_percent: Option<f64>,
    /// Weekly HRV average (ms).
    pub hrv_weekly_average: Option<f64>,
    /// Stress-history factor (%).
    pub stress_history_factor_percent: Option<f64>,
    /// Sleep-history factor (%).
    pub sleep_history_factor_percent: Option<f64>,
    /// What triggered this value.
    pub input_context: Option<String>,
    /// Primary activity tracker.
    pub primary_activity_tracker: Option<bool>,
}

impl TrainingReadiness {
    /// True when the entry carries a score.
    pub fn has_data(&self) -> bool {
        self.score.is_some()
    }

    /// The entry to report for a day: the newest scored one of the primary tracker (entries
    /// without a timestamp rank last).
    pub fn latest(entries: &[TrainingReadiness]) -> Option<&TrainingReadiness> {
        let scored = entries.iter().filter(|e| e.has_data());
        let primary: Vec<&TrainingReadiness> =
            scored.clone().filter(|e| e.primary_activity_tracker != Some(false)).collect();
        let pool: Vec<&TrainingReadiness> = if primary.is_empty() { scored.collect() } else { primary };
        pool.into_iter().max_by_key(|e| e.timestamp)
    }

    /// The day's morning report: the newest `AFTER_WAKEUP_RESET` entry (the score the athlete woke
    /// up to, not a later recomputation after a workout), else [`TrainingReadiness::latest`].
    pub fn morning(entries: &[TrainingReadiness]) -> Option<&TrainingReadiness> {
        entries
            .iter()
            .filter(|e| e.has_data() && e.input_context.as_deref() == Some("AFTER_WAKEUP_RESET"))
            .max_by_key(|e| e.timestamp)
            .or_else(|| TrainingReadiness::latest(entries))
    }
}

/// `metrics-service/metrics/maxmet/{daily/{start}/{end} | latest/{date}}` entries.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct MaxMetrics {
    /// Owner.
    #[serde(deserialize_with = "de::id")]
    pub user_id: Option<u64>,
    /// Running / generic VO2max.
    pub generic: Option<Vo2Max>,
    /// Cycling VO2max.
    pub cycling: Option<Vo2Max>,
    /// Acclimation.
    pub heat_altitude_acclimation: Option<HeatAltitudeAcclimation>,
}

/// A VO2max value (ml/kg/min).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Vo2Max {
    /// The day.
    #[serde(deserialize_with = "de::date")]
    pub calendar_date: Option<NaiveDate>,
    /// Rounded value.
    pub vo2_max_value: Option<f64>,
    /// Precise value.
    pub vo2_max_precise_value: Option<f64>,
    /// Fitness age (years).
    pub fitness_age: Option<f64>,
}

/// `metrics-service/metrics/racepredictions/latest/{displayName}` (times in seconds).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RacePredictions {
    /// The day.
    #[serde(deserialize_with = "de::date")]
    pub calendar_date: Option<NaiveDate>,
    /// 5 km (s).
    #[serde(rename = "time5K")]
    pub time_5k: Option<f64>,
    /// 10 km (s).
    #[serde(rename = "time10K")]
    pub time_10k: Option<f64>,
    /// Half marathon (s).
    pub time_half_marathon: Option<f64>,
    /// Marathon (s).
    pub time_marathon: Option<f64>,
}

/// `biometric-service/biometric/latestLactateThreshold`: the latest threshold.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct LactateThreshold {
    /// The day.
    #[serde(deserialize_with = "de::date")]
    pub calendar_date: Option<NaiveDate>,
    /// Threshold speed as Garmin stores it (looks like m/s ÷ 10; unverified).
    pub speed: Option<f64>,
    /// Threshold heart rate (bpm).
    pub heart_rate: Option<f64>,
    /// Cycling threshold heart rate (bpm).
    pub heart_rate_cycling: Option<f64>,
    /// Every other field as sent.
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}

/// `metrics-service/metrics/endurancescore?calendarDate=`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct EnduranceScore {
    /// The day.
    #[serde(deserialize_with = "de::date")]
    pub calendar_date: Option<NaiveDate>,
    /// Score.
    pub overall_score: Option<f64>,
    /// Classification (1 recreational … 7 elite as seen).
    #[serde(deserialize_with = "de::int")]
    pub classification: Option<i64>,
    /// Feedback phrase (a number here, text elsewhere).
    #[serde(deserialize_with = "de::text")]
    pub feedback_phrase: Option<String>,
    /// Lower bound of "intermediate".
    pub classification_lower_limit_intermediate: Option<f64>,
    /// Lower bound of "trained".
    pub classification_lower_limit_trained: Option<f64>,
    /// Lower bound of "well trained".
    pub classification_lower_limit_well_trained: Option<f64>,
    /// Lower bound of "expert".
    pub classification_lower_limit_expert: Option<f64>,
    /// Lower bound of "superior".
    pub classification_lower_limit_superior: Option<f64>,
    /// Lower bound of "elite".
    pub classification_lower_limit_elite: Option<f64>,
    /// Share per activity type.
    #[serde(deserialize_with = "de::vec")]
    pub contributors: Vec<EnduranceContributor>,
}

/// What contributed to an endurance score.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct EnduranceContributor {
    /// Activity type id.
    #[serde(deserialize_with = "de::int")]
    pub activity_type_id: Option<i64>,
    /// Group.
    #[serde(deserialize_with = "de::int")]
    pub group: Option<i64>,
    /// Share (%).
    pub contribution: Option<f64>,
}

/// `metrics-service/metrics/hillscore?calendarDate=`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct HillScore {
    /// The day.
    #[serde(deserialize_with = "de::date")]
    pub calendar_date: Option<NaiveDate>,
    /// Score.
    pub overall_score: Option<f64>,
    /// Strength part.
    pub strength_score: Option<f64>,
    /// Endurance part.
    pub endurance_score: Option<f64>,
    /// Classification id.
    #[serde(deserialize_with = "de::int")]
    pub hill_score_classification_id: Option<i64>,
    /// VO2max used.
    pub vo2_max: Option<f64>,
}

/// `metrics-service/metrics/hillscore/stats?startDate&endDate&aggregation=daily`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct HillScoreRange {
    /// First day.
    #[serde(deserialize_with = "de::date")]
    pub start_date: Option<NaiveDate>,
    /// Last day.
    #[serde(deserialize_with = "de::date")]
    pub end_date: Option<NaiveDate>,
    /// Average per period key (null when none).
    #[serde(deserialize_with = "de::map")]
    pub period_avg_score: BTreeMap<String, Option<f64>>,
    /// Best score.
    pub max_score: Option<f64>,
    /// Daily scores.
    #[serde(rename = "hillScoreDTOList", deserialize_with = "de::vec")]
    pub hill_scores: Vec<HillScore>,
}

impl HillScoreRange {
    /// True when any score exists.
    pub fn has_data(&self) -> bool {
        !self.hill_scores.is_empty() || self.max_score.is_some()
    }
}

/// One entry of `biometric-service/heartRateZones` (floors in bpm).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct HrZones {
    /// `DEFAULT`, `RUNNING`, `CYCLING`…
    pub sport: Option<String>,
    /// `HR_MAX`, `HR_RESERVE`, `LACTATE_THRESHOLD`.
    pub training_method: Option<String>,
    /// Zone 1 floor.
    #[serde(rename = "zone1Floor")]
    pub zone1_floor: Option<f64>,
    /// Zone 2 floor.
    #[serde(rename = "zone2Floor")]
    pub zone2_floor: Option<f64>,
    /// Zone 3 floor.
    #[serde(rename = "zone3Floor")]
    pub zone3_floor: Option<f64>,
    /// Zone 4 floor.
    #[serde(rename = "zone4Floor")]
    pub zone4_floor: Option<f64>,
    /// Zone 5 floor.
    #[serde(rename = "zone5Floor")]
    pub zone5_floor: Option<f64>,
    /// Max HR used.
    pub max_heart_rate_used: Option<f64>,
    /// Resting HR used.
    pub resting_heart_rate_used: Option<f64>,
    /// Threshold HR used.
    pub lactate_threshold_heart_rate_used: Option<f64>,
}

/// Garmin's activity type ids that have a heart-rate zone set of their own (`activity_types.json`:
/// the parent types running 1, cycling 2 and swimming 26; their children name them as
/// `parentTypeId`).
const ZONE_SET_TYPES: [(i64, &str); 3] = [(1, "RUNNING"), (2, "CYCLING"), (26, "SWIMMING")];

impl HrZones {
    /// The zone-set sport of an activity type (`RUNNING`, `CYCLING`, `SWIMMING`, else `DEFAULT`):
    /// the type's own id when it is one of those parents, else its parent type id. Garmin's ids,
    /// never a substring of the type key.
    pub fn sport_of_type(type_id: Option<i64>, parent_type_id: Option<i64>) -> &'static str {
        [type_id, parent_type_id]
            .into_iter()
            .flatten()
            .find_map(|id| ZONE_SET_TYPES.iter().find(|(t, _)| *t == id).map(|(_, sport)| *sport))
            .unwrap_or("DEFAULT")
    }

    /// The five floors (zone 1 first, bpm), when all are set.
    pub fn floors(&self) -> Option<[f64; 5]> {
        Some([self.zone1_floor?, self.zone2_floor?, self.zone3_floor?, self.zone4_floor?, self.zone5_floor?])
    }

    /// The set for `sport` (`RUNNING`, `CYCLING`, `SWIMMING`…, any case): its own, else `DEFAULT`,
    /// else the first. The one choice of a zone set, for counting zone times and for drawing bands.
    pub fn set_for<'a>(sets: &'a [HrZones], sport: &str) -> Option<&'a HrZones> {
        let by = |name: &str| {
            sets.iter().find(|z| z.sport.as_deref().is_some_and(|s| s.eq_ignore_ascii_case(name)))
        };
        by(sport).or_else(|| by("DEFAULT")).or_else(|| sets.first())
    }

    /// The zone floors (zone 1 first, bpm) of the set for `sport` ([`HrZones::set_for`]), when all
    /// five are set.
    pub fn floors_for(sets: &[HrZones], sport: &str) -> Option<[f64; 5]> {
        Self::set_for(sets, sport).and_then(HrZones::floors)
    }

    /// The zone floors for an activity of Garmin's type `type_id` (child of `parent_type_id`).
    pub fn floors_for_type(
        sets: &[HrZones],
        type_id: Option<i64>,
        parent_type_id: Option<i64>,
    ) -> Option<[f64; 5]> {
        Self::floors_for(sets, Self::sport_of_type(type_id, parent_type_id))
    }
}

/// `fitnessage-service/fitnessage/{date}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct FitnessAge {
    /// Age in years.
    pub chronological_age: Option<f64>,
    /// Fitness age (years).
    pub fitness_age: Option<f64>,
    /// Best reachable fitness age.
    pub achievable_fitness_age: Option<f64>,
    /// Previous fitness age.
    pub previous_fitness_age: Option<f64>,
    /// Every other field as sent (components such as BMI, vigorous days, resting HR).
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}

/// One row of `metrics-service/metrics/runningtolerance/stats` (Forerunner 570/970, fēnix 8 era):
/// how much running the legs can take this week against the impact load run. The path and the
/// `calendarDate`/`runningTolerance`/`acuteRunningLoad` fields are python-garminconnect's
/// `get_running_tolerance`; the weekly load and the daily verdict (`ABOVE_TOLERANCE`, `HIGH_LOAD`,
/// `LOW_LOAD_7DAYS`, Taxuspt PR #267) are *unverified* field names, read when present.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RunningTolerance {
    /// The day (the week's last day with `aggregation=weekly`).
    #[serde(deserialize_with = "de::date")]
    pub calendar_date: Option<NaiveDate>,
    /// This week's tolerance (impact load the legs can take).
    pub running_tolerance: Option<f64>,
    /// Acute impact load of running.
    pub acute_running_load: Option<f64>,
    /// Impact load of the week so far (*unverified* name).
    pub weekly_running_load: Option<f64>,
    /// The day's verdict: `ABOVE_TOLERANCE`, `HIGH_LOAD`, `LOW_LOAD_7DAYS`… (*unverified* name).
    pub tolerance_feedback: Option<String>,
    /// Device id.
    #[serde(deserialize_with = "de::id")]
    pub device_id: Option<u64>,
}

impl RunningTolerance {
    /// True when the row holds a tolerance or a load (Garmin sends rows of nulls on days without).
    pub fn has_data(&self) -> bool {
        self.running_tolerance.is_some() || self.acute_running_load.is_some()
    }
}

/// One row of `biometric-service/stats/{lactateThresholdHeartRate|lactateThresholdSpeed|
/// functionalThresholdPower}/range/{start}/{end}`: the value that held from `from` (tamcore and
/// python-garminconnect name the paths; the row shape `{from, until, series, value, updatedDate}`
/// is the fake's, *unverified* — upstream types the FTP answer "dict or list").
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct BiometricValue {
    /// First day the value held.
    #[serde(deserialize_with = "de::date")]
    pub from: Option<NaiveDate>,
    /// Last day it held.
    #[serde(deserialize_with = "de::date")]
    pub until: Option<NaiveDate>,
    /// The series' key.
    pub series: Option<String>,
    /// The value (bpm; m/s ÷ 10 for the speed, as `latestLactateThreshold`; W).
    pub value: Option<f64>,
    /// When Garmin last changed it.
    #[serde(deserialize_with = "de::date")]
    pub updated_date: Option<NaiveDate>,
}

/// `biometric-service/criticalSwimSpeed/latest/{date}` (the path is one unattributed catalogue's,
/// *unverified*; so is this shape, the fake's: a speed in m/s and its day).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CriticalSwimSpeed {
    /// The day it was set.
    #[serde(deserialize_with = "de::date")]
    pub calendar_date: Option<NaiveDate>,
    /// Critical Swim Speed, m/s.
    pub speed: Option<f64>,
    /// Garmin marks an old value as stale.
    pub is_stale: Option<bool>,
}

/// `biometric-service/biometric/latestFunctionalThresholdPower/CYCLING`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct FunctionalThresholdPower {
    /// The day it was set.
    #[serde(deserialize_with = "de::date")]
    pub calendar_date: Option<NaiveDate>,
    /// `CYCLING`, `RUNNING`.
    pub sport: Option<String>,
    /// FTP, W.
    pub functional_threshold_power: Option<f64>,
}

/// `metrics-service/metrics/endurancescore/stats?startDate&endDate&aggregation=…`
/// (`endurance_score.json`'s range twin, as tamcore reads it): the range's average and best, and
/// one group per period (a day with `daily`, a week with `weekly`) keyed by its first day.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct EnduranceScoreRange {
    /// First day.
    #[serde(deserialize_with = "de::date")]
    pub start_date: Option<NaiveDate>,
    /// Last day.
    #[serde(deserialize_with = "de::date")]
    pub end_date: Option<NaiveDate>,
    /// Average over the range.
    pub avg: Option<f64>,
    /// Best over the range.
    pub max: Option<f64>,
    /// Per period (key: the period's first day, `YYYY-MM-DD`).
    #[serde(deserialize_with = "de::map")]
    pub group_map: BTreeMap<String, EnduranceGroup>,
    /// The range's last day's full record (the fake's shape, as `endurance_score.json`).
    #[serde(rename = "enduranceScoreDTO")]
    pub endurance_score_dto: Option<EnduranceScore>,
}

/// One period of [`EnduranceScoreRange`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct EnduranceGroup {
    /// The period's average score.
    pub group_average: Option<f64>,
    /// The period's best score.
    pub group_max: Option<f64>,
}

impl EnduranceScoreRange {
    /// The averages by the period's first day (with `daily`: each day's score), oldest first.
    pub fn averages(&self) -> Vec<(NaiveDate, f64)> {
        self.group_map
            .iter()
            .filter_map(|(day, g)| Some((NaiveDate::parse_from_str(day, "%Y-%m-%d").ok()?, g.group_average?)))
            .collect()
    }
}
