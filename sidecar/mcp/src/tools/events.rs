//! The `events` toolset: `search_events`, races and other events on the athlete's Garmin
//! calendar, filtered by name, dates, place and distance.
//!
//! Garmin's public race search lives outside `/gc-api` (`/race-search/events`, reference §4.10)
//! and the client has no method for it, so this searches the calendar-service events the account
//! holds — races the athlete added or subscribed to — with one range read, filtering here.

use chrono::{Duration, NaiveDate};
use garmin::models::events::Event;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{schemars, tool, tool_router};
use serde::{Deserialize, Serialize};

use crate::output::{self, Answer};
use crate::server::GarminMcp;
use crate::tool_error::ToolError;

/// Events read per search (Garmin's page; more are reported as possibly missing).
const PAGE: u32 = 200;
/// Longest range searched.
const MAX_DAYS: i64 = 3 * 366;
/// JSON bytes the answer's data may use, leaving room for the summary.
const DATA_BUDGET: usize = output::BUDGET_BYTES - 1536;

fn json_len<T: Serialize>(value: &T) -> usize {
    serde_json::to_string(value).map_or(usize::MAX, |s| s.len())
}

/// Arguments of `search_events`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct SearchEventsArgs {
    /// Words of the event name, e.g. `Berlin` or `half marathon` (case-insensitive; all must match).
    #[serde(default)]
    pub query: Option<String>,
    /// First day, `YYYY-MM-DD` (default: today).
    #[serde(default)]
    pub start_date: Option<String>,
    /// Last day, `YYYY-MM-DD` (default: one year after the start).
    #[serde(default)]
    pub end_date: Option<String>,
    /// Place, matched against the event's location text (case-insensitive).
    #[serde(default)]
    pub city: Option<String>,
    /// Distance: `5k`, `10k`, `half`, `marathon`, or a number of km such as `21.1`.
    #[serde(default)]
    pub distance: Option<String>,
    /// Most events to return, soonest first (default 20).
    #[serde(default)]
    #[schemars(range(min = 1, max = 50))]
    pub limit: Option<u32>,
}

/// Events found.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct EventSearch {
    /// Where the events come from.
    pub source: String,
    /// First day searched (`YYYY-MM-DD`).
    pub start_date: String,
    /// Last day searched (`YYYY-MM-DD`).
    pub end_date: String,
    /// Events matching, soonest first (at most `limit`).
    pub events: Vec<EventView>,
    /// Matches beyond `limit`, not listed.
    pub more_matches: usize,
    /// The athlete's next race on the calendar (from today), whatever the filters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_race: Option<EventView>,
}

/// One event.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct EventView {
    /// Event id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event_id: Option<u64>,
    /// Name.
    pub name: String,
    /// The day (`YYYY-MM-DD`).
    pub date: String,
    /// Days from today (negative for past events).
    pub in_days: i64,
    /// Start time (`HH:MM`, local to the event).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_time: Option<String>,
    /// Place.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// Distance (km).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance_km: Option<f64>,
    /// Distance name (`5K`, `10K`, `half marathon`, `marathon`), when standard.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance_name: Option<String>,
    /// `running`, `cycling`…
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sport: Option<String>,
    /// A race (not a training event).
    pub race: bool,
    /// The season's main race.
    pub primary: bool,
    /// Goal time (`h:mm:ss`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub goal: Option<String>,
    /// Web page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Garmin's shareable event uuid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event_uuid: Option<String>,
}

/// Standard race distances in metres, with the words people use for them.
const DISTANCES: &[(f64, &str, &[&str])] = &[
    (5_000.0, "5K", &["5k", "5 k", "5km", "5 km"]),
    (10_000.0, "10K", &["10k", "10 k", "10km", "10 km"]),
    (21_097.5, "half marathon", &["half", "half marathon", "half-marathon", "hm", "21k"]),
    (42_195.0, "marathon", &["marathon", "full", "full marathon", "42k"]),
];

#[tool_router(router = events_tools, vis = "pub(crate)")]
impl GarminMcp {
    /// Races and events on the athlete's Garmin calendar, filtered by name (query), dates, place
    /// (city, matched against the location) and distance (5k, 10k, half, marathon or km): name,
    /// date, start time, location, distance, goal time, primary race, url and event uuid. Without
    /// filters it lists the athlete's upcoming races for the next year. Note: Garmin's public
    /// race catalogue is not reachable through this connection; this searches the calendar
    /// events of the account (races added or subscribed to). Use get_calendar for a month view.
    #[tool(
        name = "search_events",
        annotations(
            title = "Search races and events",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<EventSearch>()
    )]
    async fn search_events(
        &self,
        Parameters(args): Parameters<SearchEventsArgs>,
    ) -> Result<Answer<EventSearch>, ToolError> {
        let today = self.today();
        let start = optional_date("start_date", args.start_date.as_deref())?.unwrap_or(today);
        let end = optional_date("end_date", args.end_date.as_deref())?.unwrap_or(start + Duration::days(365));
        if end < start {
            return Err(ToolError::invalid(format!("end_date {end} is before start_date {start}")));
        }
        if (end - start).num_days() > MAX_DAYS {
            return Err(ToolError::invalid("search at most three years at a time"));
        }
        let limit = args.limit.unwrap_or(20);
        if !(1..=50).contains(&limit) {
            return Err(ToolError::invalid(format!("limit must be 1–50, got {limit}")));
        }
        let distance = args.distance.as_deref().map(parse_distance).transpose()?;
        let query = clean(args.query.as_deref());
        let city = clean(args.city.as_deref());
        let filtered = query.is_some() || city.is_some() || distance.is_some();

        // The next race is looked up from today; one read covers both when the search starts today.
        let race_window_end = today + Duration::days(365);
        let covers_next_race = start <= today && end >= race_window_end;
        let client = self.garmin().await?;
        let (found, upcoming) =
            futures::try_join!(async { client.events().list(start, end, PAGE, 1).await }, async {
                if covers_next_race {
                    Ok(Vec::new())
                } else {
                    client.events().list(today, race_window_end, PAGE, 1).await
                }
            },)?;
        let pool = if covers_next_race { &found } else { &upcoming };
        let next_race = pool
            .iter()
            .filter(|e| e.date.is_some_and(|d| d >= today) && e.race.unwrap_or(true))
            .min_by_key(|e| e.date)
            .map(|e| event_view(e, today));

        let mut matches: Vec<&Event> = found
            .iter()
            .filter(|e| e.date.is_some_and(|d| start <= d && d <= end))
            .filter(|e| query.as_ref().is_none_or(|q| name_matches(e, q)))
            .filter(|e| city.as_ref().is_none_or(|c| place_matches(e, c)))
            .filter(|e| distance.is_none_or(|m| e.distance_meters().is_some_and(|d| same_distance(d, m))))
            .collect();
        matches.sort_by_key(|e| (e.date, e.id));
        let more_matches = matches.len().saturating_sub(limit as usize);
        let events: Vec<EventView> =
            matches.iter().take(limit as usize).map(|e| event_view(e, today)).collect();
        let truncated_read = found.len() >= PAGE as usize;
        let mut result = EventSearch {
            source: "your Garmin calendar events (Garmin's public race catalogue is not searched)".to_owned(),
            start_date: start.to_string(),
            end_date: end.to_string(),
            events,
            more_matches,
            next_race,
        };
        // A large `limit` must not blow the budget: drop the latest rows and count them instead.
        while json_len(&result) > DATA_BUDGET && result.events.pop().is_some() {
            result.more_matches += 1;
        }
        let summary = search_summary(&result, filtered, truncated_read);
        Ok(self.answer(summary, result))
    }
}

fn optional_date(name: &str, text: Option<&str>) -> Result<Option<NaiveDate>, ToolError> {
    let Some(text) = text.map(str::trim).filter(|t| !t.is_empty()) else { return Ok(None) };
    NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .map(Some)
        .map_err(|_| ToolError::invalid(format!("{name} must be YYYY-MM-DD, got `{text}`")))
}

fn clean(text: Option<&str>) -> Option<String> {
    text.map(|t| t.trim().to_lowercase()).filter(|t| !t.is_empty())
}

/// `5k`, `10 km`, `half`, `marathon`, `21.1`, `15km` → metres.
pub fn parse_distance(text: &str) -> Result<f64, ToolError> {
    let t = text.trim().to_lowercase();
    if let Some((m, _, _)) = DISTANCES.iter().find(|(_, _, names)| names.contains(&t.as_str())) {
        return Ok(*m);
    }
    let number = t.trim_end_matches("km").trim_end_matches('k').trim();
    match number.parse::<f64>() {
        Ok(km) if km > 0.0 && km < 1000.0 => Ok(km * 1000.0),
        _ => Err(ToolError::invalid(format!(
            "distance must be 5k, 10k, half, marathon or a number of km, got `{text}`"
        ))),
    }
}

/// Within 2 % (at least 100 m) of the asked distance.
fn same_distance(meters: f64, wanted: f64) -> bool {
    (meters - wanted).abs() <= (wanted * 0.02).max(100.0)
}

fn name_matches(e: &Event, query: &str) -> bool {
    let name = e.event_name.as_deref().unwrap_or_default().to_lowercase();
    query.split_whitespace().all(|word| name.contains(word))
}

fn place_matches(e: &Event, city: &str) -> bool {
    e.location.as_deref().is_some_and(|l| l.to_lowercase().contains(city))
}

fn event_view(e: &Event, today: NaiveDate) -> EventView {
    let meters = e.distance_meters();
    let date = e.date.unwrap_or(today);
    EventView {
        event_id: e.id,
        name: e.event_name.clone().unwrap_or_else(|| "Event".to_owned()),
        date: date.to_string(),
        in_days: (date - today).num_days(),
        start_time: e.event_time_local.as_ref().and_then(|t| t.start_time_hh_mm.clone()),
        location: e.location.clone().filter(|l| !l.trim().is_empty()),
        distance_km: meters.map(output::km),
        distance_name: meters.and_then(|m| {
            DISTANCES.iter().find(|(d, _, _)| same_distance(m, *d)).map(|(_, name, _)| (*name).to_owned())
        }),
        sport: e.event_type.clone(),
        race: e.race.unwrap_or(false),
        primary: e.event_customization.as_ref().and_then(|c| c.is_primary_event).unwrap_or(false),
        goal: e.goal_seconds().filter(|g| *g > 0.0).map(output::duration),
        url: e.url.clone().filter(|u| !u.trim().is_empty()),
        event_uuid: e.shareable_event_uuid.clone(),
    }
}

fn when(days: i64) -> String {
    match days {
        0 => "today".to_owned(),
        1 => "tomorrow".to_owned(),
        -1 => "yesterday".to_owned(),
        n if n < 0 => format!("{} days ago", -n),
        n => format!("in {n} days"),
    }
}

fn describe(e: &EventView) -> String {
    let mut extras = Vec::new();
    if let Some(g) = &e.goal {
        extras.push(format!("goal {g}"));
    }
    if e.primary {
        extras.push("your primary race".to_owned());
    }
    let extras = if extras.is_empty() { String::new() } else { format!(", {}", extras.join(", ")) };
    format!("{} on {} ({}{extras})", e.name, e.date, when(e.in_days))
}

fn search_summary(r: &EventSearch, filtered: bool, truncated_read: bool) -> String {
    let n = r.events.len() + r.more_matches;
    let mut text = if n == 0 {
        if filtered {
            format!("No events on your Garmin calendar match between {} and {}.", r.start_date, r.end_date)
        } else {
            format!("No events on your Garmin calendar between {} and {}.", r.start_date, r.end_date)
        }
    } else {
        let listed: Vec<String> = r.events.iter().take(5).map(describe).collect();
        let more = if n > listed.len() { format!(" and {} more", n - listed.len()) } else { String::new() };
        let verb = match (filtered, n) {
            (false, _) => "",
            (true, 1) => " matches",
            (true, _) => " match",
        };
        format!(
            "{n} {} on your Garmin calendar{verb} between {} and {}: {}{more}.",
            if n == 1 { "event" } else { "events" },
            r.start_date,
            r.end_date,
            listed.join("; ")
        )
    };
    if let Some(next) = &r.next_race
        && (filtered || !r.events.iter().any(|e| e.event_id == next.event_id))
    {
        text.push_str(&format!(" Your next race: {}.", describe(next)));
    }
    if truncated_read {
        text.push_str(" Garmin returned a full page; narrow the dates to be sure nothing is missing.");
    }
    text.push_str(" (Searched your calendar events, not Garmin's public race catalogue.)");
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_read_as_runners_write_them() {
        assert_eq!(parse_distance("5k").unwrap(), 5_000.0);
        assert_eq!(parse_distance("10 km").unwrap(), 10_000.0);
        assert_eq!(parse_distance("Half").unwrap(), 21_097.5);
        assert_eq!(parse_distance("marathon").unwrap(), 42_195.0);
        assert_eq!(parse_distance("21.1").unwrap(), 21_100.0);
        assert_eq!(parse_distance("15km").unwrap(), 15_000.0);
        assert!(parse_distance("far").is_err());
        assert!(parse_distance("-3").is_err());
    }

    #[test]
    fn a_distance_matches_within_two_percent() {
        assert!(same_distance(21_097.0, 21_097.5));
        assert!(same_distance(21_100.0, 21_097.5));
        assert!(!same_distance(10_000.0, 21_097.5));
        assert!(same_distance(5_050.0, 5_000.0));
        assert!(!same_distance(5_200.0, 5_000.0));
    }
}
