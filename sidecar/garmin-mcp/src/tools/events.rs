//! The `events` toolset: `search_events`, Garmin's public race catalogue (reference §4.10, through
//! [`garmin::api::EventsApi::search_races`]) filtered by name, dates, place and distance, plus the
//! athlete's own next race from the events on their Garmin calendar.
//!
//! Garmin filters by name and dates (`searchPhrase`, `fromDate`/`toDate`, verified races only, at
//! most 200 per search); place and distance are filtered here. The city is a case-insensitive
//! substring of the race's city or state, in English or as written locally (`上海`), or its
//! country code (`administrativeArea`, the real row of docs/garmin-web-api.md §0; no radius
//! search: races name their city). A distance
//! matches within ±5 % of the race's whole distance (a triathlon's legs added up); `ultra` is a
//! run longer than a marathon.

use chrono::{Duration, NaiveDate};
use garmin::api::RaceSearch;
use garmin::models::events::{Event, RaceEvent};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{schemars, tool, tool_router};
use serde::{Deserialize, Serialize};

use crate::domain::dates::{DateRange, Day, arg, day_of};
use crate::output::{self, Answer};
use crate::server::GarminMcp;
use crate::tool_error::ToolError;

/// Races asked of Garmin per search (its largest page).
const MAX_RACES: usize = 200;
/// Calendar events read to find the next race.
const PAGE: u32 = 200;
/// Days searched when no end date is given.
const DEFAULT_DAYS: i64 = 180;
/// Longest range searched.
const MAX_DAYS: i64 = 3 * 366;
/// JSON bytes the answer's data may use, leaving room for the summary.
const DATA_BUDGET: usize = output::BUDGET_BYTES - 1536;
/// How far a race's distance may be from the one asked for.
const TOLERANCE: f64 = 0.05;
/// A marathon, metres.
const MARATHON_M: f64 = 42_195.0;

/// Arguments of `search_events`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct SearchEventsArgs {
    /// Words of the race name, e.g. `Berlin` or `half marathon` (sent to Garmin's search).
    #[serde(default)]
    pub query: Option<String>,
    /// First day, `YYYY-MM-DD` (default: today).
    #[serde(default, deserialize_with = "crate::domain::dates::blank_is_none")]
    pub start_date: Option<Day<arg::StartDate>>,
    /// Last day, `YYYY-MM-DD` (default: 180 days after the start).
    #[serde(default, deserialize_with = "crate::domain::dates::blank_is_none")]
    pub end_date: Option<Day<arg::EndDate>>,
    /// City, state or province (English or local name, e.g. `Shanghai` or `上海`), or a two-letter
    /// country code such as `CN`; case-insensitive.
    #[serde(default)]
    pub city: Option<String>,
    /// Distance: `5k`, `10k`, `half`, `marathon`, `ultra`, or a number of km such as `21.1` (±5 %).
    #[serde(default)]
    pub distance: Option<String>,
    /// Most races to return, soonest first (default 20).
    #[serde(default)]
    #[schemars(range(min = 1, max = 50))]
    pub limit: Option<u32>,
}

/// Races found.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct EventSearch {
    /// Where the races come from.
    pub source: String,
    /// First day searched (`YYYY-MM-DD`).
    pub start_date: String,
    /// Last day searched (`YYYY-MM-DD`).
    pub end_date: String,
    /// Races matching, soonest first (at most `limit`).
    pub events: Vec<RaceView>,
    /// Matches beyond `limit`, not listed.
    pub more_matches: usize,
    /// The athlete's next race on their own Garmin calendar (from today), whatever the filters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_race: Option<EventView>,
}

/// One race of Garmin's catalogue.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct RaceView {
    /// Name.
    pub name: String,
    /// The day (`YYYY-MM-DD`).
    pub date: String,
    /// Days from today (negative for past races).
    pub in_days: i64,
    /// Start time (`HH:MM`, local to the race).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_time: Option<String>,
    /// Place: city (and its local name), state, country code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// Whole distance (km; a triathlon's legs added up).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance_km: Option<f64>,
    /// Legs (km), for multisport races.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub legs_km: Vec<f64>,
    /// Distance name (`5K`, `10K`, `half marathon`, `marathon`), when standard.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance_name: Option<String>,
    /// `running`, `trail_running`, `cycling`, `triathlon`…
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sport: Option<String>,
    /// Virtual: the race has no place, it is run anywhere.
    pub is_virtual: bool,
    /// Web page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Garmin's event uuid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event_uuid: Option<String>,
}

/// One event of the athlete's calendar.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct EventView {
    /// Event id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event_id: Option<u64>,
    /// Name.
    pub name: String,
    /// The day (`YYYY-MM-DD`).
    pub date: String,
    /// Days from today.
    pub in_days: i64,
    /// Place.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// Distance (km).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance_km: Option<f64>,
    /// The season's main race.
    pub primary: bool,
    /// Goal time (`h:mm:ss`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub goal: Option<String>,
}

/// Standard race distances in metres, with the words people use for them.
const DISTANCES: &[(f64, &str, &[&str])] = &[
    (5_000.0, "5K", &["5k", "5 k", "5km", "5 km"]),
    (10_000.0, "10K", &["10k", "10 k", "10km", "10 km"]),
    (21_097.5, "half marathon", &["half", "half marathon", "half-marathon", "hm", "21k"]),
    (MARATHON_M, "marathon", &["marathon", "full", "full marathon", "42k"]),
];

/// A distance asked for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Wanted {
    /// This many metres, ±5 %.
    Meters(f64),
    /// A run longer than a marathon (+5 %).
    Ultra,
}

/// The races of `found` inside the dates, in the place and of the distance asked, by date then name.
fn matching<'a>(
    found: &'a [RaceEvent],
    (start, end): (NaiveDate, NaiveDate),
    city: Option<&str>,
    distance: Option<Wanted>,
) -> Vec<&'a RaceEvent> {
    let mut matches: Vec<&RaceEvent> = found
        .iter()
        .filter(|r| r.event_date.is_some_and(|d| start <= d && d <= end))
        .filter(|r| city.is_none_or(|c| r.is_in(c)))
        .filter(|r| distance.is_none_or(|w| distance_matches(r, w)))
        .collect();
    matches.sort_by(|a, b| (a.event_date, &a.event_name).cmp(&(b.event_date, &b.event_name)));
    matches
}

#[tool_router(router = events_tools, vis = "pub(crate)")]
impl GarminMcp {
    /// Races and events from Garmin's public event catalogue (the races Garmin Connect lists for
    /// sign-up), filtered by name (query), dates (default: the next 180 days), place (city: a
    /// city, state or province in English or its local name, or a country code) and distance (5k,
    /// 10k, half, marathon, ultra or km, ±5 %): name, date, start time, location, distance
    /// (triathlon legs), sport, virtual, web page and Garmin event uuid. Also tells the athlete's
    /// own next race from their Garmin calendar. Use get_calendar for the athlete's month view.
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
        let start = day_of(args.start_date).unwrap_or(today);
        let end = day_of(args.end_date).unwrap_or(start + Duration::days(DEFAULT_DAYS));
        if DateRange::new(start, end)?.days() - 1 > MAX_DAYS {
            return Err(ToolError::invalid("search at most three years at a time"));
        }
        let limit = args.limit.unwrap_or(20);
        if !(1..=50).contains(&limit) {
            return Err(ToolError::invalid(format!("limit must be 1–50, got {limit}")));
        }
        let distance = args.distance.as_deref().map(parse_distance).transpose()?;
        let city = args.city.as_deref().map(|t| t.trim().to_lowercase()).filter(|t| !t.is_empty());
        let phrase = args.query.as_deref().map(str::trim).filter(|q| !q.is_empty());
        let filtered = phrase.is_some() || city.is_some() || distance.is_some();

        let mut search = RaceSearch::new().between(start, end).limit(MAX_RACES as u32);
        if let Some(p) = phrase {
            search = search.phrase(p);
        }
        let client = self.web_session().await?;
        let api = client.events();
        let (found, calendar) = futures::try_join!(
            api.search_races(&search),
            api.list(today, today + Duration::days(365), PAGE, 1)
        )?;
        let next_race = calendar
            .iter()
            .filter(|e| e.date.is_some_and(|d| d >= today) && e.race.unwrap_or(true))
            .min_by_key(|e| e.date)
            .map(|e| event_view(e, today));

        let matches = matching(&found, (start, end), city.as_deref(), distance);
        let more_matches = matches.len().saturating_sub(limit as usize);
        let events: Vec<RaceView> =
            matches.iter().take(limit as usize).map(|r| race_view(r, today)).collect();
        let mut result = EventSearch {
            source: "Garmin's race and event catalogue".to_owned(),
            start_date: start.to_string(),
            end_date: end.to_string(),
            events,
            more_matches,
            next_race,
        };
        // A large `limit` must not blow the budget: drop the latest rows and count them instead.
        let json_len = |r: &EventSearch| serde_json::to_string(r).map_or(usize::MAX, |s| s.len());
        while json_len(&result) > DATA_BUDGET && result.events.pop().is_some() {
            result.more_matches += 1;
        }
        let summary = search_summary(&result, filtered, found.len() >= MAX_RACES);
        Ok(self.answer(summary, result))
    }
}

/// `5k`, `10 km`, `half`, `marathon`, `ultra`, `21.1`, `15km` → what to match.
pub fn parse_distance(text: &str) -> Result<Wanted, ToolError> {
    let t = text.trim().to_lowercase();
    if t == "ultra" || t == "ultramarathon" || t == "ultra marathon" {
        return Ok(Wanted::Ultra);
    }
    if let Some((m, _, _)) = DISTANCES.iter().find(|(_, _, names)| names.contains(&t.as_str())) {
        return Ok(Wanted::Meters(*m));
    }
    let number = t.trim_end_matches("km").trim_end_matches('k').trim();
    match number.parse::<f64>() {
        Ok(km) if km > 0.0 && km < 1000.0 => Ok(Wanted::Meters(km * 1000.0)),
        _ => Err(ToolError::invalid(format!(
            "distance must be 5k, 10k, half, marathon, ultra or a number of km, got `{text}`"
        ))),
    }
}

/// Within 5 % of the asked distance.
fn same_distance(meters: f64, wanted: f64) -> bool {
    (meters - wanted).abs() <= wanted * TOLERANCE
}

fn distance_matches(r: &RaceEvent, wanted: Wanted) -> bool {
    let Some(total) = r.total_meters() else { return false };
    match wanted {
        Wanted::Meters(m) => same_distance(total, m),
        Wanted::Ultra => {
            let sport = r.event_type.as_deref().unwrap_or("running");
            sport.contains("run") && total > MARATHON_M * (1.0 + TOLERANCE)
        }
    }
}

fn race_view(r: &RaceEvent, today: NaiveDate) -> RaceView {
    let date = r.event_date.unwrap_or(today);
    let legs = r.distances_meters();
    let total = r.total_meters();
    RaceView {
        name: r.event_name.clone().unwrap_or_else(|| "Race".to_owned()),
        date: date.to_string(),
        in_days: (date - today).num_days(),
        start_time: r.start_hh_mm().map(str::to_owned),
        location: r.place(),
        distance_km: total.map(display::km),
        legs_km: if legs.len() > 1 { legs.into_iter().map(display::km).collect() } else { Vec::new() },
        distance_name: total.and_then(distance_name),
        sport: r.event_type.clone(),
        is_virtual: r.is_virtual_only(),
        url: r.event_url.clone().filter(|u| !u.trim().is_empty()),
        event_uuid: r.garmin_event_uuid.clone(),
    }
}

fn distance_name(meters: f64) -> Option<String> {
    DISTANCES.iter().find(|(d, _, _)| same_distance(meters, *d)).map(|(_, name, _)| (*name).to_owned())
}

fn event_view(e: &Event, today: NaiveDate) -> EventView {
    let date = e.date.unwrap_or(today);
    EventView {
        event_id: e.id,
        name: e.event_name.clone().unwrap_or_else(|| "Event".to_owned()),
        date: date.to_string(),
        in_days: (date - today).num_days(),
        location: e.location.clone().filter(|l| !l.trim().is_empty()),
        distance_km: e.distance_meters().map(display::km),
        primary: e.event_customization.as_ref().and_then(|c| c.is_primary_event).unwrap_or(false),
        goal: e.goal_seconds().filter(|g| *g > 0.0).map(display::duration),
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

fn describe_race(r: &RaceView) -> String {
    let place = r.location.as_deref().map(|l| format!(", {l}")).unwrap_or_default();
    format!("{} on {} ({}{place})", r.name, r.date, when(r.in_days))
}

fn describe_event(e: &EventView) -> String {
    let mut extras = vec![when(e.in_days)];
    if let Some(g) = &e.goal {
        extras.push(format!("goal {g}"));
    }
    if e.primary {
        extras.push("your primary race".to_owned());
    }
    format!("{} on {} ({})", e.name, e.date, extras.join(", "))
}

fn search_summary(r: &EventSearch, filtered: bool, full_page: bool) -> String {
    let n = r.events.len() + r.more_matches;
    let range = format!("between {} and {}", r.start_date, r.end_date);
    let mut text = if n == 0 {
        let verb = if filtered { " match" } else { "" };
        format!("No races in Garmin's event catalogue{verb} {range}.")
    } else {
        let listed: Vec<String> = r.events.iter().take(5).map(describe_race).collect();
        let more = if n > listed.len() { format!(" and {} more", n - listed.len()) } else { String::new() };
        let verb = match (filtered, n) {
            (false, _) => "",
            (true, 1) => " matches",
            (true, _) => " match",
        };
        let noun = if n == 1 { "race" } else { "races" };
        format!("{n} {noun} in Garmin's event catalogue{verb} {range}: {}{more}.", listed.join("; "))
    };
    if let Some(next) = &r.next_race {
        text.push_str(&format!(" Your next race on your calendar: {}.", describe_event(next)));
    }
    if full_page {
        text.push_str(&format!(
            " Garmin returned its maximum of {MAX_RACES} races; narrow the dates or add a query"
        ));
        text.push_str(" to be sure nothing is missing.");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_read_as_runners_write_them() {
        assert_eq!(parse_distance("5k").unwrap(), Wanted::Meters(5_000.0));
        assert_eq!(parse_distance("10 km").unwrap(), Wanted::Meters(10_000.0));
        assert_eq!(parse_distance("Half").unwrap(), Wanted::Meters(21_097.5));
        assert_eq!(parse_distance("marathon").unwrap(), Wanted::Meters(42_195.0));
        assert_eq!(parse_distance("Ultra").unwrap(), Wanted::Ultra);
        assert_eq!(parse_distance("21.1").unwrap(), Wanted::Meters(21_100.0));
        assert_eq!(parse_distance("15km").unwrap(), Wanted::Meters(15_000.0));
        assert!(parse_distance("far").is_err());
        assert!(parse_distance("-3").is_err());
    }

    #[test]
    fn a_distance_matches_within_five_percent() {
        assert!(same_distance(21_097.0, 21_097.5));
        assert!(same_distance(21_100.0, 21_097.5));
        assert!(!same_distance(20_000.0, 21_097.5));
        assert!(same_distance(5_200.0, 5_000.0));
        assert!(!same_distance(5_300.0, 5_000.0));
        assert!(!same_distance(10_000.0, 21_097.5));
    }
}
