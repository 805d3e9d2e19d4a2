//! The answer types of the `activities` toolset: what `list_activities` and `get_activity` send
//! back, with the doc comments that become their output schemas.

use std::collections::BTreeMap;

use rmcp::schemars;
use serde::Serialize;

use crate::domain::activity::{ActivityRow, Speed};

/// Totals of the listed rows.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct ListTotals {
    /// Number of listed activities.
    pub count: u32,
    /// Distance in km.
    pub distance_km: f64,
    /// Timer time, `h:mm:ss`.
    pub duration: String,
    /// Sum of Garmin's training load.
    pub training_load: u32,
    /// Listed activities per Garmin type key (only when several types are listed).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub by_type: BTreeMap<String, u32>,
}

/// The answer of `list_activities`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct ActivityList {
    /// First day searched.
    pub start_date: String,
    /// Last day searched.
    pub end_date: String,
    /// Garmin type key filtered on, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activity_type: Option<String>,
    /// Name filter, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keyword: Option<String>,
    /// True when `limit` cut the list: older matching activities exist in the range.
    pub more_available: bool,
    /// Totals of the listed rows.
    pub totals: ListTotals,
    /// The activities, newest first.
    pub activities: Vec<ActivityRow>,
    /// Where these numbers came from (the local history or Garmin live) and how fresh they are.
    pub source: crate::history::DataSource,
}

/// The whole-activity figures.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct Overview {
    /// Distance in km.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance_km: Option<f64>,
    /// Timer time, `h:mm:ss`.
    pub duration: String,
    /// Start to stop including pauses, `h:mm:ss`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elapsed: Option<String>,
    /// Time moving, `h:mm:ss`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moving: Option<String>,
    /// Average pace or speed (timer time).
    #[serde(flatten)]
    pub speed: Speed,
    /// Grade-adjusted pace per km (runs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grade_adjusted_pace_per_km: Option<String>,
    /// Top speed in km/h (rides).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_speed_kmh: Option<f64>,
    /// Average heart rate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub avg_hr_bpm: Option<u32>,
    /// Highest heart rate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_hr_bpm: Option<u32>,
    /// Average running cadence, steps per minute.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cadence_spm: Option<u32>,
    /// Average cycling cadence, revolutions per minute.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cadence_rpm: Option<u32>,
    /// Average stride length in metres.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stride_length_m: Option<f64>,
    /// Average ground contact time in ms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ground_contact_time_ms: Option<u32>,
    /// Average vertical oscillation in cm.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vertical_oscillation_cm: Option<f64>,
    /// Vertical ratio in %.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vertical_ratio_pct: Option<f64>,
    /// Average power in W.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub avg_power_w: Option<u32>,
    /// Highest power in W.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_power_w: Option<u32>,
    /// Normalized power in W.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub normalized_power_w: Option<u32>,
    /// Aerobic training effect (0–5).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aerobic_training_effect: Option<f64>,
    /// Anaerobic training effect (0–5).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub anaerobic_training_effect: Option<f64>,
    /// Garmin's primary benefit label, e.g. `Lactate threshold`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub training_effect_label: Option<String>,
    /// Garmin's aerobic message, e.g. `Improving aerobic base`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aerobic_effect_message: Option<String>,
    /// Garmin's training load (EPOC).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub training_load: Option<u32>,
    /// Ascent in m.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elevation_gain_m: Option<u32>,
    /// Descent in m.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elevation_loss_m: Option<u32>,
    /// Calories in kcal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub calories_kcal: Option<u32>,
    /// Average temperature the watch recorded, °C.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub watch_temperature_c: Option<f64>,
    /// Body Battery change during the activity.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body_battery_change: Option<i32>,
}

/// One split (a km, 5 km, a lap…).
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct SplitRow {
    /// 1-based number (km number for per-km splits).
    pub n: u32,
    /// Distance in km.
    pub distance_km: f64,
    /// Timer time, `m:ss`.
    pub time: String,
    /// Pace or speed of the split.
    #[serde(flatten)]
    pub speed: Speed,
    /// Average heart rate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub avg_hr_bpm: Option<u32>,
    /// Ascent minus descent, m.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elev_change_m: Option<i32>,
    /// Lap intensity when the laps are a workout (warmup, active, recovery, cooldown).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub intensity: Option<String>,
    /// Rest after this split, s (pool swims).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rest_s: Option<u32>,
}

/// How even the pace was across splits.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Steadiness {
    /// Which splits were compared, e.g. `15 full km` or `6 active laps`.
    pub basis: String,
    /// Coefficient of variation of the split paces (speeds for rides), %.
    pub variation_pct: f64,
    /// `very steady`, `steady`, `somewhat uneven` or `uneven`.
    pub verdict: String,
    /// The fastest split, e.g. `km 7 at 4'58"/km`.
    pub fastest: String,
    /// The slowest split.
    pub slowest: String,
    /// Second half minus first half, s per km (negative = negative split), runs and walks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub second_half_vs_first_s_per_km: Option<i32>,
}

/// The splits of an activity.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Splits {
    /// What one row is: `km`, `5 km`, `mile`, `lap`…
    pub unit: String,
    /// The rows in order.
    pub rows: Vec<SplitRow>,
    /// Pace steadiness, when there are at least two comparable splits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steadiness: Option<Steadiness>,
}

/// Time in one heart-rate zone.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct ZoneRow {
    /// Zone 1–5.
    pub zone: u32,
    /// Lower bound of the zone, bpm.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from_bpm: Option<u32>,
    /// Minutes in the zone.
    pub minutes: f64,
    /// Share of the time in zones, %.
    pub percent: f64,
}

/// Weather during the activity (converted from Garmin's °F and mph).
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct WeatherRow {
    /// Temperature, °C.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub temp_c: Option<f64>,
    /// Feels-like temperature, °C.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub feels_like_c: Option<f64>,
    /// Relative humidity, %.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub humidity_pct: Option<u32>,
    /// Wind speed, km/h.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wind_kmh: Option<u32>,
    /// Gusts, km/h.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wind_gust_kmh: Option<u32>,
    /// Where the wind came from, e.g. `NW`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wind_from: Option<String>,
    /// Conditions, e.g. `Partly Cloudy`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub condition: Option<String>,
}

/// The recorded time series, column by column (same index = same moment).
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Series {
    /// Points returned.
    pub points: u32,
    /// Points Garmin sent before downsampling.
    pub recorded_points: u32,
    /// Seconds since the start.
    pub t_s: Vec<u32>,
    /// Distance so far, km.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance_km: Option<Vec<Option<f64>>>,
    /// Pace, s per km (runs, walks); null when standing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pace_s_per_km: Option<Vec<Option<u32>>>,
    /// Speed, km/h (rides).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speed_kmh: Option<Vec<Option<f64>>>,
    /// Pace, s per 100 m (swims).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pace_s_per_100m: Option<Vec<Option<u32>>>,
    /// Heart rate, bpm.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hr_bpm: Option<Vec<Option<u32>>>,
    /// Cadence (steps/min for runs, rpm for rides, strokes/min for swims).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cadence: Option<Vec<Option<u32>>>,
    /// Elevation, m.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elevation_m: Option<Vec<Option<f64>>>,
    /// How the series was thinned.
    pub note: String,
}

/// The answer of `get_activity`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct ActivityInDepth {
    /// Garmin activity id.
    pub activity_id: u64,
    /// Name.
    pub name: String,
    /// Garmin type key.
    #[serde(rename = "type")]
    pub type_key: String,
    /// Local start, `YYYY-MM-DD HH:MM`.
    pub start: String,
    /// Place name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// Whole-activity figures.
    pub overview: Overview,
    /// Splits (per km for runs with auto-lap, per lap for workouts, swims and rides).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub splits: Option<Splits>,
    /// Time in heart-rate zones.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hr_zones: Vec<ZoneRow>,
    /// Weather (outdoor activities).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weather: Option<WeatherRow>,
    /// The time series (with `include_series`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub series: Option<Series>,
    /// A strength session's sets: per exercise and in order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strength: Option<super::StrengthLog>,
    /// Parts Garmin does not have (or could not send) for this activity.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
}
