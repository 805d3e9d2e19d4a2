//! The `activities` toolset: `list_activities` (compact rows over a date range, filtered by sport
//! and name) and `get_activity` (one activity in depth: overview, splits with a pace-steadiness
//! note, time in heart-rate zones, weather and, on request, a downsampled time series).
//!
//! This file holds the tool methods and their arguments; the answer types live in `answer`, the
//! shaping of one activity in `overview`, `splits` and `series`, and what `stats` shares in `shape`.

mod answer;
mod overview;
mod series;
pub mod shape;
mod splits;

use std::collections::BTreeMap;

use chrono::Duration;
use garmin::api::ActivitySearch;
use garmin::models::activities::ActivitySummary;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{schemars, tool, tool_router};
use serde::Deserialize;

pub use self::answer::*;
use self::overview::{describe, overview, weather_row, zone_rows};
use self::series::build_series;
use self::shape::{ActivityRow, Family, SportFilter, activity_title, count_noun, distance_m, whole};
use self::splits::build_splits;
use super::common::parse_opt_date;
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
        let start_arg = parse_opt_date("start_date", args.start_date.as_deref(), self.today())?;
        let end_arg = parse_opt_date("end_date", args.end_date.as_deref(), self.today())?;
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
        let type_key = filter.as_ref().map(|f| f.type_key.as_str());
        let cached = self.activities_cache_first(&client, start, end, type_key).await?;
        let source = cached.as_ref().map_or_else(crate::history::DataSource::live, |(_, s)| s.clone());
        match &keyword {
            _ if cached.is_some() => {
                let needle = keyword.as_deref().map(str::to_lowercase);
                found = cached
                    .map(|(rows, _)| rows)
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|a| {
                        needle.as_deref().is_none_or(|n| {
                            a.activity_name.as_deref().is_some_and(|name| name.to_lowercase().contains(n))
                        })
                    })
                    .take(limit_rows + 1)
                    .collect();
            }
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
        summary.push(' ');
        summary.push_str(&source.phrase());
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
                source,
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
                name: activity_title(
                    activity.activity_name.as_deref(),
                    activity.type_key(),
                    activity.location_name.as_deref(),
                ),
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
