//! The `activities` toolset: `list_activities` (compact rows over a date range, filtered by sport
//! and name) and `get_activity` (one activity in depth: overview, splits with a pace-steadiness
//! note, time in heart-rate zones, weather and, on request, a downsampled time series).

#[path = "activity_shape.rs"]
pub mod activity_shape;

use std::collections::{BTreeMap, BTreeSet};

use chrono::Duration;
use garmin::api::ActivitySearch;
use garmin::models::activities::{
    Activity, ActivityDetails, ActivityFigures, ActivitySummary, ActivityWeather, Lap, TimeInZone,
};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{schemars, tool, tool_router};
use serde::{Deserialize, Serialize};

use self::activity_shape::{
    ActivityRow, Family, Speed, SportFilter, count_noun, distance_m, parse_opt_date, whole,
};
use crate::output::{self, Answer};
use crate::server::GarminMcp;
use crate::tool_error::ToolError;

/// Default `limit` of `list_activities`.
const DEFAULT_LIMIT: u32 = 20;
/// Largest `limit` of `list_activities`.
const MAX_LIMIT: u32 = 200;
/// Default span of `list_activities` when no dates are given (days before the end date).
const DEFAULT_SPAN_DAYS: i64 = 30;
/// Page size when filtering by keyword (Garmin's search has no name filter).
const KEYWORD_PAGE: u32 = 100;
/// Safety stop for keyword paging.
const KEYWORD_MAX_PAGES: u32 = 50;
/// Rows Garmin is asked for in the activity chart (what its web app uses).
const CHART_ROWS: u32 = 2000;
/// Default and largest `max_points` of the series.
const DEFAULT_POINTS: u32 = 200;
const MAX_POINTS: u32 = 1000;
const MIN_POINTS: u32 = 10;
/// Most split rows shown; longer lists are merged (2 km, 3 km…) to stay compact.
const MAX_SPLIT_ROWS: usize = 50;

/// Arguments of `list_activities`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct ListActivitiesArgs {
    /// First day, `YYYY-MM-DD` (local). Default: 30 days before `end_date`.
    #[serde(default)]
    pub start_date: Option<String>,
    /// Last day, `YYYY-MM-DD` (local, inclusive). Default: today.
    #[serde(default)]
    pub end_date: Option<String>,
    /// Only this sport: a Garmin type key (running, trail_running, treadmill_running, cycling,
    /// swimming, lap_swimming, open_water_swimming, strength_training, walking, hiking…) or a word
    /// like run, ride, swim, strength. Parent types include their children (running includes trail
    /// and treadmill runs).
    #[serde(default)]
    pub activity_type: Option<String>,
    /// Only activities whose name contains this text (case-insensitive, any language).
    #[serde(default)]
    pub keyword: Option<String>,
    /// Most rows to return, newest first (1–200, default 20).
    #[serde(default)]
    #[schemars(range(min = 1, max = 200))]
    pub limit: Option<u32>,
}

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
}

/// Arguments of `get_activity`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct GetActivityArgs {
    /// The Garmin activity id (from `list_activities`, `get_calendar`…).
    pub activity_id: u64,
    /// Also return the recorded time series (time, distance, pace or speed, heart rate, cadence,
    /// elevation), downsampled to `max_points` keeping peaks. Default false.
    #[serde(default)]
    pub include_series: Option<bool>,
    /// Most points of the series (10–1000, default 200).
    #[serde(default)]
    #[schemars(range(min = 10, max = 1000))]
    pub max_points: Option<u32>,
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
    /// Parts Garmin does not have (or could not send) for this activity.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
}

#[tool_router(router = activities_tools, vis = "pub(crate)")]
impl GarminMcp {
    /// List the athlete's activities (runs, rides, swims, strength…) over a date range, newest
    /// first, one compact row each: id, date, name, type, distance, duration, pace or speed, average
    /// heart rate and training load, plus totals. Use it for "what did I do last week?", "my runs in
    /// October", "find my 晨跑 runs", and to find an activity id for `get_activity`. Defaults to the
    /// last 30 days and 20 rows; `more_available` says when older rows were cut. For totals over a
    /// week/month/year use `get_period_stats` instead.
    #[tool(
        name = "list_activities",
        annotations(
            title = "List activities",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<ActivityList>()
    )]
    async fn list_activities(
        &self,
        Parameters(args): Parameters<ListActivitiesArgs>,
    ) -> Result<Answer<ActivityList>, ToolError> {
        let today = self.today();
        let start_arg = parse_opt_date("start_date", args.start_date.as_deref())?;
        let end_arg = parse_opt_date("end_date", args.end_date.as_deref())?;
        let (start, end) = match (start_arg, end_arg) {
            (Some(s), Some(e)) => (s, e),
            (Some(s), None) => (s, today.max(s)),
            (None, Some(e)) => (e - Duration::days(DEFAULT_SPAN_DAYS), e),
            (None, None) => (today - Duration::days(DEFAULT_SPAN_DAYS), today),
        };
        if end < start {
            return Err(ToolError::invalid(format!("end_date {end} is before start_date {start}")));
        }
        let limit = args.limit.unwrap_or(DEFAULT_LIMIT);
        if !(1..=MAX_LIMIT).contains(&limit) {
            return Err(ToolError::invalid(format!("limit must be between 1 and {MAX_LIMIT}, got {limit}")));
        }
        let filter = match args.activity_type.as_deref() {
            Some(text) => SportFilter::parse("activity_type", text)?,
            None => None,
        };
        let keyword = args.keyword.map(|k| k.trim().to_owned()).filter(|k| !k.is_empty());

        let client = self.garmin().await?;
        let api = client.activities();
        let mut search = ActivitySearch::new().between(start, end);
        search.activity_type = filter.as_ref().map(|f| f.type_key.clone());
        let limit_rows = limit as usize;
        let mut found: Vec<ActivitySummary> = Vec::new();
        match &keyword {
            None => {
                found = api.search(&search.limit(limit + 1)).await?;
            }
            Some(word) => {
                let needle = word.to_lowercase();
                let mut page = search.limit(KEYWORD_PAGE);
                for _ in 0..KEYWORD_MAX_PAGES {
                    let items = api.search(&page).await?;
                    let got = u32::try_from(items.len()).unwrap_or(u32::MAX);
                    found.extend(items.into_iter().filter(|a| {
                        a.activity_name.as_deref().is_some_and(|n| n.to_lowercase().contains(&needle))
                    }));
                    if found.len() > limit_rows || got < KEYWORD_PAGE {
                        break;
                    }
                    page.start = page.start.saturating_add(got);
                }
            }
        }
        let more_available = found.len() > limit_rows;
        found.truncate(limit_rows);

        let matching = match &keyword {
            Some(k) => format!(" matching “{k}”"),
            None => String::new(),
        };
        if found.is_empty() {
            let what = filter.as_ref().map_or("activities".to_owned(), |f| f.many.clone());
            return Err(ToolError::NoData(format!(
                "No {what}{matching} between {start} and {end} in your Garmin account."
            )));
        }

        let rows: Vec<ActivityRow> = found.iter().filter_map(ActivityRow::of).collect();
        let meters: f64 = found.iter().filter_map(distance_m).sum();
        let seconds: f64 = found.iter().filter_map(|a| a.duration).filter(|d| d.is_finite()).sum();
        let load: f64 = found.iter().filter_map(|a| a.activity_training_load).filter(|l| l.is_finite()).sum();
        let mut by_type: BTreeMap<String, u32> = BTreeMap::new();
        for row in &rows {
            *by_type.entry(row.type_key.clone()).or_default() += 1;
        }
        if by_type.len() < 2 {
            by_type.clear();
        }
        let totals = ListTotals {
            count: u32::try_from(rows.len()).unwrap_or(u32::MAX),
            distance_km: output::km(meters),
            duration: output::duration(seconds),
            training_load: whole(Some(load)).unwrap_or(0),
            by_type,
        };

        let mut summary = format!(
            "{}{matching} from {start} to {end}{}",
            count_noun(rows.len(), filter.as_ref()),
            if more_available { " (the newest; more exist)" } else { "" }
        );
        if meters > 0.0 {
            summary.push_str(&format!(
                ", {:.1} km in {} in total",
                meters / 1000.0,
                output::hours_minutes(seconds)
            ));
        } else {
            summary.push_str(&format!(", {} in total", output::hours_minutes(seconds)));
        }
        if let Some(newest) = rows.first() {
            summary.push_str(&format!("; newest: {} “{}”", newest.date, newest.name));
            if let Some(km) = newest.distance_km {
                summary.push_str(&format!(", {km:.2} km"));
            }
            match newest.speed.text() {
                Some(speed) => summary.push_str(&format!(" at {speed}.")),
                None => summary.push_str(&format!(", {}.", newest.duration)),
            }
        }
        if more_available {
            summary.push_str(&format!(
                " Only the {limit} newest are listed: narrow the dates or raise limit (up to {MAX_LIMIT})."
            ));
        }
        Ok(self.answer(
            summary,
            ActivityList {
                start_date: start.to_string(),
                end_date: end.to_string(),
                activity_type: filter.map(|f| f.type_key),
                keyword,
                more_available,
                totals,
                activities: rows,
            },
        ))
    }

    /// Analyse one activity in depth: distance, time, pace or speed, heart rate, cadence, running
    /// dynamics, power, training effect and load, elevation, calories; splits (per km for runs, per
    /// lap for workouts, swims and rides) with a note on how steady the pace was; time in heart-rate
    /// zones; and the weather. Use it for "analyse yesterday's run", "was my pace steady?", "how
    /// hard was Saturday's ride?". Set `include_series` for the second-by-second curve (downsampled,
    /// peaks kept). Get the id from `list_activities`.
    #[tool(
        name = "get_activity",
        annotations(
            title = "Get one activity in depth",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<ActivityInDepth>()
    )]
    async fn get_activity(
        &self,
        Parameters(args): Parameters<GetActivityArgs>,
    ) -> Result<Answer<ActivityInDepth>, ToolError> {
        let id = args.activity_id;
        let include_series = args.include_series.unwrap_or(false);
        let max_points = args.max_points.unwrap_or(DEFAULT_POINTS);
        if !(MIN_POINTS..=MAX_POINTS).contains(&max_points) {
            return Err(ToolError::invalid(format!(
                "max_points must be between {MIN_POINTS} and {MAX_POINTS}, got {max_points}"
            )));
        }
        let client = self.garmin().await?;
        let api = client.activities();
        let details = async { if include_series { Some(api.details(id, CHART_ROWS).await) } else { None } };
        let (activity, splits, zones, weather, details) =
            futures::join!(api.get(id), api.splits(id), api.hr_time_in_zones(id), api.weather(id), details);
        let activity = match activity {
            Ok(a) => a,
            Err(garmin::Error::NotFound { .. }) => {
                return Err(ToolError::NoData(format!("No activity {id} in your Garmin account.")));
            }
            Err(e) => return Err(e.into()),
        };
        let mut missing = Vec::new();
        let family =
            Family::of(activity.type_key(), activity.activity_type.as_ref().and_then(|t| t.parent_type_id));
        let figures = activity.summary.clone().unwrap_or_default();
        let overview = overview(&figures, family);

        let splits = match splits {
            Ok(s) => {
                let built = build_splits(&s.laps, family);
                if built.is_none() {
                    missing.push("splits: no laps with a distance were recorded".to_owned());
                }
                built
            }
            Err(e) => {
                missing.push(format!("splits: {}", ToolError::from(e).message()));
                None
            }
        };
        let hr_zones = match zones {
            Ok(z) => {
                let rows = zone_rows(&z);
                if rows.is_empty() {
                    missing.push("heart-rate zones: none recorded".to_owned());
                }
                rows
            }
            Err(e) => {
                missing.push(format!("heart-rate zones: {}", ToolError::from(e).message()));
                Vec::new()
            }
        };
        let weather = match weather {
            Ok(w) => {
                let row = w.as_ref().and_then(weather_row);
                if row.is_none() {
                    missing.push("weather: none recorded (indoor or no weather station)".to_owned());
                }
                row
            }
            Err(e) => {
                missing.push(format!("weather: {}", ToolError::from(e).message()));
                None
            }
        };
        let series = match details {
            None => None,
            Some(Ok(Some(d))) => {
                let s = build_series(&d, family, max_points as usize);
                if s.is_none() {
                    missing.push("series: Garmin sent no samples".to_owned());
                }
                s
            }
            Some(Ok(None)) => {
                missing.push("series: Garmin sent no samples".to_owned());
                None
            }
            Some(Err(e)) => {
                missing.push(format!("series: {}", ToolError::from(e).message()));
                None
            }
        };

        let summary = describe(&activity, &overview, splits.as_ref(), &hr_zones, weather.as_ref());
        let start =
            figures.start_time_local.map(|t| t.format("%Y-%m-%d %H:%M").to_string()).unwrap_or_default();
        Ok(self.answer(
            summary,
            ActivityInDepth {
                activity_id: activity.activity_id.unwrap_or(id),
                name: activity.activity_name.clone().unwrap_or_default(),
                type_key: activity.type_key().unwrap_or("other").to_owned(),
                start,
                location: activity.location_name.clone(),
                overview,
                splits,
                hr_zones,
                weather,
                series,
                missing,
            },
        ))
    }
}

/// A finite value rounded to `decimals`.
fn round(value: Option<f64>, decimals: i32) -> Option<f64> {
    let factor = 10f64.powi(decimals);
    value.filter(|v| v.is_finite()).map(|v| (v * factor).round() / factor)
}

/// A positive finite value.
fn positive(value: Option<f64>) -> Option<f64> {
    value.filter(|v| v.is_finite() && *v > 0.0)
}

/// `IMPROVING_AEROBIC_BASE_8` → `Improving aerobic base`; `VO2MAX` → `VO2max`.
fn humanize(key: &str) -> Option<String> {
    let trimmed = key.trim().trim_end_matches(|c: char| c.is_ascii_digit()).trim_end_matches('_');
    if trimmed.is_empty() {
        return None;
    }
    let text = trimmed.to_lowercase().replace('_', " ").replace("vo2max", "VO2max");
    let mut chars = text.chars();
    let first = chars.next()?;
    Some(first.to_uppercase().chain(chars).collect())
}

fn overview(f: &ActivityFigures, family: Family) -> Overview {
    let meters = positive(f.distance);
    let seconds = f.duration.or(f.elapsed_duration).unwrap_or(0.0);
    let speed = match meters {
        Some(m) if family.has_distance() => Speed::of(family, m, seconds),
        _ => Speed::default(),
    };
    let running = family == Family::Run;
    Overview {
        distance_km: meters.map(output::km),
        duration: output::duration(seconds),
        elapsed: positive(f.elapsed_duration).map(output::duration),
        moving: positive(f.moving_duration).map(output::duration),
        speed,
        grade_adjusted_pace_per_km: if running {
            positive(f.avg_grade_adjusted_speed).and_then(output::pace_per_km)
        } else {
            None
        },
        max_speed_kmh: if family == Family::Ride { positive(f.max_speed).map(output::kmh) } else { None },
        avg_hr_bpm: whole(positive(f.average_hr)),
        max_hr_bpm: whole(positive(f.max_hr)),
        cadence_spm: if running { whole(positive(f.average_run_cadence)) } else { None },
        cadence_rpm: if family == Family::Ride { whole(positive(f.average_bike_cadence)) } else { None },
        stride_length_m: round(positive(f.stride_length).map(|cm| cm / 100.0), 2),
        ground_contact_time_ms: whole(positive(f.ground_contact_time)),
        vertical_oscillation_cm: round(positive(f.vertical_oscillation), 1),
        vertical_ratio_pct: round(positive(f.vertical_ratio), 1),
        avg_power_w: whole(positive(f.average_power)),
        max_power_w: whole(positive(f.max_power)),
        normalized_power_w: whole(positive(f.normalized_power)),
        aerobic_training_effect: round(f.training_effect, 1),
        anaerobic_training_effect: round(f.anaerobic_training_effect, 1),
        training_effect_label: f.training_effect_label.as_deref().and_then(humanize),
        aerobic_effect_message: f.aerobic_training_effect_message.as_deref().and_then(humanize),
        training_load: whole(f.activity_training_load),
        elevation_gain_m: whole(f.elevation_gain),
        elevation_loss_m: whole(f.elevation_loss),
        calories_kcal: whole(f.calories),
        watch_temperature_c: round(f.average_temperature, 1),
        body_battery_change: f
            .difference_body_battery
            .filter(|v| v.is_finite())
            .map(|v| v.round().clamp(-100.0, 100.0) as i32),
    }
}

/// A lap reduced to what splits need; rests are folded into the split before them.
#[derive(Clone, Debug, Default)]
struct Piece {
    meters: f64,
    seconds: f64,
    /// Heart-rate × seconds (for time-weighted averages) and the seconds it covers.
    hr_weighted: f64,
    hr_seconds: f64,
    elev_change: Option<f64>,
    intensity: Option<String>,
    rest_s: f64,
}

impl Piece {
    fn of(lap: &Lap) -> Piece {
        let seconds = lap.duration.or(lap.elapsed_duration).or(lap.moving_duration).unwrap_or(0.0).max(0.0);
        let hr = positive(lap.average_hr);
        let elev_change = match (lap.elevation_gain, lap.elevation_loss) {
            (None, None) => None,
            (gain, loss) => Some(gain.unwrap_or(0.0) - loss.unwrap_or(0.0)),
        };
        Piece {
            meters: positive(lap.distance).unwrap_or(0.0),
            seconds,
            hr_weighted: hr.map_or(0.0, |h| h * seconds),
            hr_seconds: if hr.is_some() { seconds } else { 0.0 },
            elev_change,
            intensity: lap.intensity_type.clone().filter(|t| !t.is_empty()),
            rest_s: 0.0,
        }
    }

    fn merge(&mut self, other: &Piece) {
        self.meters += other.meters;
        self.seconds += other.seconds;
        self.hr_weighted += other.hr_weighted;
        self.hr_seconds += other.hr_seconds;
        self.elev_change = match (self.elev_change, other.elev_change) {
            (None, None) => None,
            (a, b) => Some(a.unwrap_or(0.0) + b.unwrap_or(0.0)),
        };
        if self.intensity != other.intensity {
            self.intensity = None;
        }
        self.rest_s += other.rest_s;
    }

    fn mps(&self) -> Option<f64> {
        (self.meters > 0.0 && self.seconds > 0.0).then(|| self.meters / self.seconds)
    }

    fn is_work(&self) -> bool {
        matches!(self.intensity.as_deref(), None | Some("ACTIVE" | "INTERVAL"))
    }
}

/// The name of a uniform split length.
fn unit_name(meters: f64) -> String {
    if (meters - 1000.0).abs() <= 20.0 {
        "km".to_owned()
    } else if (meters - 1609.344).abs() <= 25.0 {
        "mile".to_owned()
    } else if meters >= 1000.0 {
        format!("{} km", (meters / 100.0).round() / 10.0)
    } else {
        format!("{} m", meters.round())
    }
}

/// Splits from the laps: auto-laps of equal length become per-km (or per-5-km…) splits, other
/// laps stay laps; rests fold into the split before them; long lists are merged to stay compact.
fn build_splits(laps: &[Lap], family: Family) -> Option<Splits> {
    let mut pieces: Vec<Piece> = Vec::new();
    for lap in laps {
        let piece = Piece::of(lap);
        if piece.meters < 1.0 {
            if let Some(last) = pieces.last_mut() {
                last.rest_s += piece.seconds;
            }
            continue;
        }
        pieces.push(piece);
    }
    if pieces.is_empty() || !family.has_distance() {
        return None;
    }
    let first = pieces[0].meters;
    let uniform = pieces.len() >= 2
        && pieces[..pieces.len() - 1].iter().all(|p| (p.meters - first).abs() <= first * 0.02)
        && pieces.last().is_some_and(|p| p.meters <= first * 1.02);
    let mixed = pieces.iter().any(|p| p.intensity != pieces[0].intensity);
    let group = pieces.len().div_ceil(MAX_SPLIT_ROWS);
    let mut unit = if uniform { unit_name(first) } else { "lap".to_owned() };
    if group > 1 {
        let merged: Vec<Piece> = pieces
            .chunks(group)
            .map(|chunk| {
                let mut p = chunk[0].clone();
                for other in &chunk[1..] {
                    p.merge(other);
                }
                p
            })
            .collect();
        pieces = merged;
        unit = if uniform { unit_name(first * group as f64) } else { format!("{group} laps") };
    }
    let unit_meters = if uniform { first * group as f64 } else { 0.0 };
    let rows: Vec<SplitRow> = pieces
        .iter()
        .enumerate()
        .map(|(i, p)| SplitRow {
            n: u32::try_from(i + 1).unwrap_or(u32::MAX),
            distance_km: output::km(p.meters),
            time: output::duration(p.seconds),
            speed: Speed::of(family, p.meters, p.seconds),
            avg_hr_bpm: whole((p.hr_seconds > 0.0).then(|| p.hr_weighted / p.hr_seconds)),
            elev_change_m: p.elev_change.filter(|e| e.is_finite()).map(|e| e.round() as i32),
            intensity: if mixed { p.intensity.as_ref().map(|t| t.to_lowercase()) } else { None },
            rest_s: whole(Some(p.rest_s)).filter(|r| *r > 0),
        })
        .collect();

    // Steadiness: full-length splits (and only the work laps of a structured workout).
    let label = |i: usize| {
        if uniform && unit == "km" { format!("km {}", i + 1) } else { format!("{unit} {}", i + 1) }
    };
    let basis: Vec<(usize, &Piece)> = pieces
        .iter()
        .enumerate()
        .filter(|(_, p)| !mixed || p.is_work())
        .filter(|(_, p)| !uniform || p.meters >= unit_meters * 0.98)
        .filter(|(_, p)| p.mps().is_some())
        .collect();
    let steadiness = (basis.len() >= 2).then(|| {
        // Compare in the sport's own terms: pace (s per m) for runs, walks and swims, speed for rides.
        let values: Vec<f64> = basis
            .iter()
            .map(|(_, p)| if family == Family::Ride { p.meters / p.seconds } else { p.seconds / p.meters })
            .collect();
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / values.len() as f64;
        let cv = if mean > 0.0 { var.sqrt() / mean * 100.0 } else { 0.0 };
        let by_speed = |a: &&(usize, &Piece), b: &&(usize, &Piece)| {
            a.1.mps().unwrap_or(0.0).total_cmp(&b.1.mps().unwrap_or(0.0))
        };
        let fastest = basis.iter().max_by(by_speed).map(|(i, _)| *i).unwrap_or(0);
        let slowest = basis.iter().min_by(by_speed).map(|(i, _)| *i).unwrap_or(0);
        let at = |i: usize| {
            let speed = rows.get(i).and_then(|r| r.speed.text()).unwrap_or_default();
            format!("{} at {speed}", label(i))
        };
        let half = basis.len() / 2;
        let second_half =
            (uniform && basis.len() >= 4 && matches!(family, Family::Run | Family::Walk)).then(|| {
                let pace = |part: &[(usize, &Piece)]| {
                    let (m, s) = part.iter().fold((0.0, 0.0), |(m, s), (_, p)| (m + p.meters, s + p.seconds));
                    s / m * 1000.0
                };
                (pace(&basis[basis.len() - half..]) - pace(&basis[..half])).round() as i32
            });
        let verdict = match cv {
            c if c < 2.5 => "very steady",
            c if c < 5.0 => "steady",
            c if c < 8.0 => "somewhat uneven",
            _ => "uneven",
        };
        let what = if uniform && group == 1 {
            if unit == "km" { "full km".to_owned() } else { format!("full {unit} splits") }
        } else if mixed {
            "work laps".to_owned()
        } else {
            "laps".to_owned()
        };
        Steadiness {
            basis: format!("{} {what}", basis.len()),
            variation_pct: (cv * 10.0).round() / 10.0,
            verdict: verdict.to_owned(),
            fastest: at(fastest),
            slowest: at(slowest),
            second_half_vs_first_s_per_km: second_half,
        }
    });
    Some(Splits { unit, rows, steadiness })
}

fn zone_rows(zones: &[TimeInZone]) -> Vec<ZoneRow> {
    let total: f64 = zones.iter().filter_map(|z| positive(z.secs_in_zone)).sum();
    if total <= 0.0 {
        return Vec::new();
    }
    zones
        .iter()
        .filter_map(|z| {
            let zone = u32::try_from(z.zone_number?).ok()?;
            let secs = positive(z.secs_in_zone).unwrap_or(0.0);
            Some(ZoneRow {
                zone,
                from_bpm: whole(positive(z.zone_low_boundary)),
                minutes: (secs / 6.0).round() / 10.0,
                percent: (secs / total * 1000.0).round() / 10.0,
            })
        })
        .collect()
}

/// Garmin's wind speed is in mph (as its web app shows it).
const KMH_PER_MPH: f64 = 1.609_344;

fn weather_row(w: &ActivityWeather) -> Option<WeatherRow> {
    let celsius = |f: Option<f64>| round(f.map(garmin::models::units::celsius_from_fahrenheit), 1);
    let row = WeatherRow {
        temp_c: celsius(w.temp),
        feels_like_c: celsius(w.apparent_temp),
        humidity_pct: whole(w.relative_humidity),
        wind_kmh: whole(w.wind_speed.map(|s| s * KMH_PER_MPH)),
        wind_gust_kmh: whole(positive(w.wind_gust).map(|s| s * KMH_PER_MPH)),
        wind_from: w
            .wind_direction_compass_point
            .as_ref()
            .map(|c| c.to_uppercase())
            .filter(|c| !c.is_empty()),
        condition: w.weather_type.as_ref().and_then(|t| t.desc.clone()).filter(|d| !d.is_empty()),
    };
    let empty = row.temp_c.is_none()
        && row.humidity_pct.is_none()
        && row.wind_kmh.is_none()
        && row.condition.is_none();
    (!empty).then_some(row)
}

/// Indices to keep when thinning `n` points to `max`: first, last, the global extremes of every
/// signal, then the lowest and highest `primary` value of each bucket (so peaks survive).
fn downsample(n: usize, max: usize, primary: &[Option<f64>], extremes: &[&[Option<f64>]]) -> Vec<usize> {
    if n <= max {
        return (0..n).collect();
    }
    let arg = |values: &[Option<f64>], range: std::ops::Range<usize>, highest: bool| -> Option<usize> {
        range
            .filter_map(|i| values.get(i).copied().flatten().filter(|v| v.is_finite()).map(|v| (i, v)))
            .reduce(|best, cur| {
                let better = if highest { cur.1 > best.1 } else { cur.1 < best.1 };
                if better { cur } else { best }
            })
            .map(|(i, _)| i)
    };
    let mut keep: BTreeSet<usize> = BTreeSet::new();
    keep.insert(0);
    keep.insert(n - 1);
    for values in std::iter::once(primary).chain(extremes.iter().copied()) {
        for highest in [true, false] {
            if keep.len() < max
                && let Some(i) = arg(values, 0..n, highest)
            {
                keep.insert(i);
            }
        }
    }
    let room = max.saturating_sub(keep.len());
    let buckets = room / 2;
    if buckets > 0 {
        let inner = n - 2;
        for b in 0..buckets {
            let from = 1 + b * inner / buckets;
            let to = 1 + (b + 1) * inner / buckets;
            if from >= to {
                continue;
            }
            let hi = arg(primary, from..to, true);
            let lo = arg(primary, from..to, false);
            match (hi, lo) {
                (None, None) => {
                    keep.insert(from + (to - from) / 2);
                }
                (a, b) => {
                    keep.extend(a);
                    keep.extend(b);
                }
            }
        }
    }
    keep.into_iter().take(max).collect()
}

fn build_series(d: &ActivityDetails, family: Family, max_points: usize) -> Option<Series> {
    let n = d.activity_detail_metrics.len();
    if n == 0 {
        return None;
    }
    let present = |v: Vec<Option<f64>>| if v.iter().any(Option::is_some) { Some(v) } else { None };
    let first_of = |keys: &[&str]| keys.iter().find_map(|k| present(d.values(k)));
    let time: Vec<Option<f64>> = match first_of(&["sumDuration", "sumElapsedDuration", "sumMovingDuration"]) {
        Some(t) => t,
        None => {
            let stamps = d.values("directTimestamp");
            let t0 = stamps.iter().flatten().next().copied();
            stamps.iter().map(|s| Some((s.as_ref()? - t0?) / 1000.0)).collect()
        }
    };
    let distance = first_of(&["sumDistance"]);
    let speed = first_of(&["directSpeed", "directEnhancedSpeed"]);
    let hr = first_of(&["directHeartRate"]);
    let cadence =
        first_of(&["directDoubleCadence", "directRunCadence", "directBikeCadence", "directSwimCadence"]);
    let elevation = first_of(&["directElevation", "directEnhancedElevation"]);

    let none = vec![None; n];
    let primary = hr.as_ref().or(speed.as_ref()).or(elevation.as_ref()).unwrap_or(&none);
    let extremes: Vec<&[Option<f64>]> =
        [speed.as_deref(), elevation.as_deref()].into_iter().flatten().collect();
    let keep = downsample(n, max_points, primary, &extremes);
    let pick = |col: &Option<Vec<Option<f64>>>, f: &dyn Fn(f64) -> Option<f64>| -> Option<Vec<Option<f64>>> {
        col.as_ref().map(|v| {
            keep.iter().map(|&i| v.get(i).copied().flatten().filter(|x| x.is_finite()).and_then(f)).collect()
        })
    };
    let to_u32 = |v: Option<Vec<Option<f64>>>| v.map(|v| v.into_iter().map(whole).collect::<Vec<_>>());
    let pace = |per: f64| move |mps: f64| (mps >= 0.3).then(|| per / mps);
    let (pace_km, speed_kmh, pace_100m) = match family {
        Family::Ride => (None, pick(&speed, &|mps| Some(output::kmh(mps))), None),
        Family::Swim => (None, None, to_u32(pick(&speed, &pace(100.0)))),
        Family::Run | Family::Walk => (to_u32(pick(&speed, &pace(1000.0))), None, None),
        Family::Other => (None, None, None),
    };
    let t_s: Vec<u32> = keep.iter().map(|&i| whole(time.get(i).copied().flatten()).unwrap_or(0)).collect();
    let points = keep.len();
    let note = if points < n {
        format!(
            "downsampled from {n} to {points} points keeping the first, last and peak points and each stretch's highest and lowest heart rate"
        )
    } else {
        format!("all {n} recorded points")
    };
    Some(Series {
        points: u32::try_from(points).unwrap_or(u32::MAX),
        recorded_points: u32::try_from(n).unwrap_or(u32::MAX),
        t_s,
        distance_km: pick(&distance, &|m| Some(output::km(m))),
        pace_s_per_km: pace_km,
        speed_kmh,
        pace_s_per_100m: pace_100m,
        hr_bpm: to_u32(pick(&hr, &Some)),
        cadence: to_u32(pick(&cadence, &Some)),
        elevation_m: pick(&elevation, &|e| Some((e * 10.0).round() / 10.0)),
        note,
    })
}

/// The 1–4 sentence summary of one activity.
fn describe(
    activity: &Activity,
    o: &Overview,
    splits: Option<&Splits>,
    zones: &[ZoneRow],
    weather: Option<&WeatherRow>,
) -> String {
    let name = activity.activity_name.as_deref().unwrap_or("Activity");
    let date = activity
        .summary
        .as_ref()
        .and_then(|s| s.start_time_local)
        .map(|t| t.format("%Y-%m-%d").to_string())
        .unwrap_or_default();
    let kind = activity.type_key().unwrap_or("activity").replace('_', " ");
    let mut text = format!("“{name}” on {date} ({kind}): ");
    match o.distance_km {
        Some(km) => text.push_str(&format!("{km:.2} km in {}", o.duration)),
        None => text.push_str(&o.duration),
    }
    if let Some(speed) = o.speed.text() {
        text.push_str(&format!(" at {speed}"));
    }
    if let Some(hr) = o.avg_hr_bpm {
        text.push_str(&format!(", avg HR {hr} bpm"));
        if let Some(max) = o.max_hr_bpm {
            text.push_str(&format!(" (max {max})"));
        }
    }
    if let Some(load) = o.training_load {
        text.push_str(&format!(", training load {load}"));
    }
    if let Some(te) = o.aerobic_training_effect {
        text.push_str(&format!(", aerobic TE {te:.1}"));
        if let Some(label) = &o.training_effect_label {
            text.push_str(&format!(" ({label})"));
        }
    }
    text.push('.');
    if let Some(s) = splits.and_then(|s| s.steadiness.as_ref()) {
        let what = if splits.is_some_and(|s| s.unit == "lap" || s.unit.ends_with("laps")) {
            "Lap pace"
        } else {
            "Pace"
        };
        text.push_str(&format!(
            " {what} was {}: {} % variation over {} (fastest {}, slowest {})",
            s.verdict, s.variation_pct, s.basis, s.fastest, s.slowest
        ));
        match s.second_half_vs_first_s_per_km {
            Some(d) if d < 0 => text.push_str(&format!("; negative split, second half {} s/km faster", -d)),
            Some(d) if d > 0 => text.push_str(&format!("; second half {d} s/km slower")),
            _ => {}
        }
        text.push('.');
    }
    if let Some(top) = zones.iter().max_by(|a, b| a.percent.total_cmp(&b.percent)) {
        text.push_str(&format!(" Most time in HR zone {} ({} %).", top.zone, top.percent.round()));
    }
    if let Some(w) = weather {
        let mut parts = Vec::new();
        if let Some(t) = w.temp_c {
            parts.push(format!("{t:.0} °C"));
        }
        if let Some(c) = &w.condition {
            parts.push(c.to_lowercase());
        }
        if let Some(h) = w.humidity_pct {
            parts.push(format!("{h} % humidity"));
        }
        if let Some(k) = w.wind_kmh.filter(|k| *k > 0) {
            parts.push(format!("wind {k} km/h"));
        }
        if !parts.is_empty() {
            text.push_str(&format!(" Weather: {}.", parts.join(", ")));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lap(meters: f64, seconds: f64, hr: f64, intensity: &str) -> Lap {
        Lap {
            distance: Some(meters),
            duration: Some(seconds),
            average_hr: Some(hr),
            elevation_gain: Some(3.0),
            elevation_loss: Some(1.0),
            intensity_type: Some(intensity.to_owned()),
            ..Lap::default()
        }
    }

    #[test]
    fn auto_laps_become_km_splits_with_a_partial_last_one() {
        let mut laps: Vec<Lap> =
            (0..10).map(|i| lap(1000.0, 300.0 + f64::from(i), 140.0, "ACTIVE")).collect();
        laps.push(lap(420.0, 130.0, 150.0, "ACTIVE"));
        let s = build_splits(&laps, Family::Run).unwrap();
        assert_eq!(s.unit, "km");
        assert_eq!(s.rows.len(), 11);
        assert_eq!(s.rows[10].distance_km, 0.42);
        assert_eq!(s.rows[0].elev_change_m, Some(2));
        assert!(s.rows[0].intensity.is_none());
        let st = s.steadiness.unwrap();
        assert_eq!(st.basis, "10 full km");
        assert_eq!(st.fastest, "km 1 at 5'00\"/km");
        assert_eq!(st.slowest, "km 10 at 5'09\"/km");
        assert_eq!(st.verdict, "very steady");
        assert_eq!(st.second_half_vs_first_s_per_km, Some(5));
    }

    #[test]
    fn workout_laps_stay_laps_and_steadiness_compares_the_reps() {
        let mut laps = vec![lap(2000.0, 700.0, 130.0, "WARMUP")];
        for i in 0..5 {
            laps.push(lap(1000.0, 240.0 + f64::from(i) * 2.0, 170.0, "ACTIVE"));
            laps.push(lap(400.0, 160.0, 140.0, "RECOVERY"));
        }
        let s = build_splits(&laps, Family::Run).unwrap();
        assert_eq!(s.unit, "lap");
        assert_eq!(s.rows[0].intensity.as_deref(), Some("warmup"));
        let st = s.steadiness.unwrap();
        assert_eq!(st.basis, "5 work laps");
        assert!(st.second_half_vs_first_s_per_km.is_none());
    }

    #[test]
    fn pool_rests_fold_into_the_interval_before_them() {
        let laps = vec![
            lap(100.0, 110.0, 130.0, "ACTIVE"),
            Lap { duration: Some(20.0), intensity_type: Some("REST".into()), ..Lap::default() },
            lap(100.0, 112.0, 135.0, "ACTIVE"),
        ];
        let s = build_splits(&laps, Family::Swim).unwrap();
        assert_eq!(s.rows.len(), 2);
        assert_eq!(s.rows[0].rest_s, Some(20));
        assert_eq!(s.rows[0].speed.pace_per_100m.as_deref(), Some("1'50\""));
        assert!(build_splits(&[Lap { duration: Some(60.0), ..Lap::default() }], Family::Other).is_none());
    }

    #[test]
    fn very_long_split_lists_are_merged() {
        let laps: Vec<Lap> = (0..120).map(|_| lap(1000.0, 360.0, 140.0, "ACTIVE")).collect();
        let s = build_splits(&laps, Family::Run).unwrap();
        assert_eq!(s.unit, "3 km");
        assert_eq!(s.rows.len(), 40);
        assert_eq!(s.rows[0].distance_km, 3.0);
    }

    #[test]
    fn downsampling_keeps_the_peaks_and_the_cap() {
        let hr: Vec<Option<f64>> = (0..5000).map(|i| Some(140.0 + f64::from(i % 97) / 10.0)).collect();
        let mut hr = hr;
        hr[3333] = Some(199.0);
        let keep = downsample(5000, 100, &hr, &[]);
        assert!(keep.len() <= 100 && keep.len() >= 90, "{}", keep.len());
        assert!(keep.contains(&3333) && keep.contains(&0) && keep.contains(&4999));
        assert!(keep.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn garmin_keys_read_as_words() {
        assert_eq!(humanize("IMPROVING_AEROBIC_BASE_8").as_deref(), Some("Improving aerobic base"));
        assert_eq!(humanize("VO2MAX").as_deref(), Some("VO2max"));
        assert_eq!(humanize("LACTATE_THRESHOLD").as_deref(), Some("Lactate threshold"));
    }
}
