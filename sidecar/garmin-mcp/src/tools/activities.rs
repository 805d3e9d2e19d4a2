//! The `activities` toolset: `list_activities` (compact rows over a date range, filtered by sport
//! and name) and `get_activity` (one activity in depth: overview, splits with a pace-steadiness
//! note, time in heart-rate zones, weather and, on request, a downsampled time series).
//!
//! This file holds the tool methods and their arguments; the answer types live in `answer`, the
//! shaping of one activity in `overview`, `splits` and `series`; what other tools share about
//! activities is in [`crate::domain::activity`].

mod answer;
mod overview;
mod series;
mod splits;
mod strength;

use std::collections::BTreeMap;

use chrono::{Duration, NaiveDate};
use garmin::api::ActivitySearch;
use garmin::models::activities::ActivitySummary;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{schemars, tool, tool_router};
use serde::Deserialize;

pub use self::answer::*;
use self::overview::{describe, overview, weather_row, zone_rows};
use self::series::build_series;
use self::splits::build_splits;
pub use self::strength::{BestSet, StrengthExercise, StrengthLog, StrengthSet};
use self::strength::{strength_part, strength_sentence};
use crate::domain::activity::{ActivityRow, Family, SportFilter, activity_title, count_noun, distance_m};
use crate::domain::dates::{DateRange, Day, arg, day_of};
use crate::domain::parts::shaped_part;
use crate::domain::words::whole_u32;
use crate::output::Answer;
use crate::server::GarminMcp;
use crate::tool_error::ToolError;
use garmin::reads::{ActivityParts, Wanted};

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
    #[serde(default, deserialize_with = "crate::domain::dates::blank_is_none")]
    pub start_date: Option<Day<arg::StartDate>>,
    /// Last day, `YYYY-MM-DD` (local, inclusive). Default: today.
    #[serde(default, deserialize_with = "crate::domain::dates::blank_is_none")]
    pub end_date: Option<Day<arg::EndDate>>,
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
        let query = ListQuery::parse(args, self.today())?;
        let reading = self.reading().await?;
        let (found, more_available, source) = list_matching(&reading, &query).await?;
        let DateRange { start, end } = query.range;
        if found.is_empty() {
            let what = query.filter.as_ref().map_or("activities".to_owned(), |f| f.many.clone());
            return Err(ToolError::NoData(format!(
                "No {what}{} between {start} and {end} in your Garmin account.",
                query.matching()
            )));
        }
        let rows: Vec<ActivityRow> = found.iter().filter_map(ActivityRow::of).collect();
        let totals = list_totals(&found, &rows);
        let summary = format!("{} {}", list_summary(&query, &rows, &found, more_available), source.phrase());
        Ok(self.answer(
            summary,
            ActivityList {
                start_date: start.to_string(),
                end_date: end.to_string(),
                activity_type: query.filter.map(|f| f.type_key),
                keyword: query.keyword,
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
    /// zones; the weather; and for strength sessions the sets per exercise (reps, weight, volume,
    /// best set, estimated 1RM). Use it for "analyse yesterday's run", "was my pace steady?", "how
    /// hard was Saturday's ride?", "what did I lift on Monday?". Set `include_series` for the
    /// second-by-second curve (downsampled, peaks kept). Get the id from `list_activities`.
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
        let reads = self.reads().await?;
        let parts = reads
            .activity_parts(
                id,
                Wanted {
                    weather: true,
                    series_rows: include_series.then_some(CHART_ROWS),
                    strength_sets: true,
                },
            )
            .await;
        let (summary, in_depth) = in_depth(id, parts, max_points)?;
        Ok(self.answer(summary, in_depth))
    }
}

// ---------------------------------------------------------------------------------------------
// get_activity: shape

/// `get_activity`'s answer from the gathered parts: the summary is required (a missing activity is
/// said plainly), every other part is shaped on its own and named in `missing` when it failed.
fn in_depth(id: u64, parts: ActivityParts, max_points: u32) -> Result<(String, ActivityInDepth), ToolError> {
    let ActivityParts { activity, splits, zones, weather, recording, strength_sets } = parts;
    let weather = weather.unwrap_or(Ok(None));
    let details = recording.map(|r| r.map(|served| served.value.into_details()));
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

    let splits = shaped_part(&mut missing, "splits", splits, "no laps with a distance were recorded", |s| {
        build_splits(&s.laps, family)
    });
    let hr_zones = shaped_part(&mut missing, "heart-rate zones", zones, "none recorded", |z| {
        Some(zone_rows(&z)).filter(|rows| !rows.is_empty())
    })
    .unwrap_or_default();
    let weather =
        shaped_part(&mut missing, "weather", weather, "none recorded (indoor or no weather station)", |w| {
            w.as_ref().and_then(weather_row)
        });
    let series = details.and_then(|details| {
        shaped_part(&mut missing, "series", details, "Garmin sent no samples", |d| {
            d.and_then(|d| build_series(&d, family, max_points as usize))
        })
    });
    let strength = strength_part(&mut missing, strength_sets);
    let mut summary = describe(&activity, &overview, splits.as_ref(), &hr_zones, weather.as_ref());
    summary.extend(strength.as_ref().map(strength_sentence));
    let start = figures.start_time_local.map(|t| t.format("%Y-%m-%d %H:%M").to_string()).unwrap_or_default();
    Ok((
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
            strength,
            missing,
        },
    ))
}

// ---------------------------------------------------------------------------------------------
// list_activities: parse, call, shape

/// What `list_activities` was asked, checked.
struct ListQuery {
    range: DateRange,
    limit: u32,
    filter: Option<SportFilter>,
    keyword: Option<String>,
}

impl ListQuery {
    fn parse(args: ListActivitiesArgs, today: NaiveDate) -> Result<ListQuery, ToolError> {
        let (start, end) = match (day_of(args.start_date), day_of(args.end_date)) {
            (Some(s), Some(e)) => (s, e),
            (Some(s), None) => (s, today.max(s)),
            (None, Some(e)) => (e - Duration::days(DEFAULT_SPAN_DAYS), e),
            (None, None) => (today - Duration::days(DEFAULT_SPAN_DAYS), today),
        };
        let range = DateRange::new(start, end)?;
        let limit = args.limit.unwrap_or(DEFAULT_LIMIT);
        if !(1..=MAX_LIMIT).contains(&limit) {
            return Err(ToolError::invalid(format!("limit must be between 1 and {MAX_LIMIT}, got {limit}")));
        }
        let filter = match args.activity_type.as_deref() {
            Some(text) => SportFilter::parse("activity_type", text)?,
            None => None,
        };
        let keyword = args.keyword.map(|k| k.trim().to_owned()).filter(|k| !k.is_empty());
        Ok(ListQuery { range, limit, filter, keyword })
    }

    /// ` matching “tempo”` when a keyword was given.
    fn matching(&self) -> String {
        self.keyword.as_ref().map(|k| format!(" matching “{k}”")).unwrap_or_default()
    }
}

/// The newest `limit` activities of the query, and whether there are more. With a keyword, pages
/// through the range (at most [`KEYWORD_MAX_PAGES`]) keeping the names that contain it.
async fn list_matching(
    reading: &crate::domain::reading::Reading,
    query: &ListQuery,
) -> Result<(Vec<ActivitySummary>, bool, crate::history::DataSource), ToolError> {
    let limit_rows = query.limit as usize;
    // Past days come from the local history when it covers them (today is always live).
    let type_key = query.filter.as_ref().map(|f| f.type_key.as_str());
    if let Some((rows, source)) =
        crate::domain::reading::activities_cache_first(reading, query.range.start, query.range.end, type_key)
            .await?
    {
        let needle = query.keyword.as_deref().map(str::to_lowercase);
        let mut found: Vec<ActivitySummary> = rows
            .into_iter()
            .filter(|a| {
                needle.as_deref().is_none_or(|n| {
                    a.activity_name.as_deref().is_some_and(|name| name.to_lowercase().contains(n))
                })
            })
            .take(limit_rows + 1)
            .collect();
        let more_available = found.len() > limit_rows;
        found.truncate(limit_rows);
        return Ok((found, more_available, source));
    }
    let mut search = ActivitySearch::new().between(query.range.start, query.range.end);
    search.activity_type = query.filter.as_ref().map(|f| f.type_key.clone());
    let mut found: Vec<ActivitySummary> = Vec::new();
    match &query.keyword {
        None => {
            found = reading.reads.search(&search.limit(query.limit + 1)).await?.value;
        }
        Some(word) => {
            let needle = word.to_lowercase();
            let mut page = search.limit(KEYWORD_PAGE);
            for _ in 0..KEYWORD_MAX_PAGES {
                let items = reading.reads.search(&page).await?.value;
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
    Ok((found, more_available, crate::history::DataSource::live()))
}

/// Count, distance, time and load of the listed activities, and a count per type when there are
/// several types.
fn list_totals(found: &[ActivitySummary], rows: &[ActivityRow]) -> ListTotals {
    let meters: f64 = found.iter().filter_map(distance_m).sum();
    let seconds = list_seconds(found);
    let load: f64 = found.iter().filter_map(|a| a.activity_training_load).filter(|l| l.is_finite()).sum();
    let mut by_type: BTreeMap<String, u32> = BTreeMap::new();
    for row in rows {
        *by_type.entry(row.type_key.clone()).or_default() += 1;
    }
    if by_type.len() < 2 {
        by_type.clear();
    }
    ListTotals {
        count: u32::try_from(rows.len()).unwrap_or(u32::MAX),
        distance_km: display::km(meters),
        duration: display::duration(seconds),
        training_load: whole_u32(Some(load)).unwrap_or(0),
        by_type,
    }
}

fn list_seconds(found: &[ActivitySummary]) -> f64 {
    found.iter().filter_map(|a| a.duration).filter(|d| d.is_finite()).sum()
}

/// `12 runs from … to …, 84.2 km in 7 h 10 min in total; newest: … at 5'12"/km.` and, when cut,
/// how to see the rest.
fn list_summary(
    query: &ListQuery,
    rows: &[ActivityRow],
    found: &[ActivitySummary],
    more_available: bool,
) -> String {
    let DateRange { start, end } = query.range;
    let meters: f64 = found.iter().filter_map(distance_m).sum();
    let seconds = list_seconds(found);
    let mut summary = format!(
        "{}{} from {start} to {end}{}",
        count_noun(rows.len(), query.filter.as_ref()),
        query.matching(),
        if more_available { " (the newest; more exist)" } else { "" }
    );
    if meters > 0.0 {
        summary.push_str(&format!(
            ", {:.1} km in {} in total",
            meters / 1000.0,
            display::hours_minutes(seconds)
        ));
    } else {
        summary.push_str(&format!(", {} in total", display::hours_minutes(seconds)));
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
            " Only the {} newest are listed: narrow the dates or raise limit (up to {MAX_LIMIT}).",
            query.limit
        ));
    }
    summary
}
