//! The `calendar` toolset: `get_calendar`, one month of the athlete's Garmin calendar by day —
//! activities done, workouts scheduled and races or other events — with counts and the next thing
//! coming up.
//!
//! Three range reads run concurrently: the month feed (`calendar().month`, which asks Garmin's
//! 0-based month and drops the repeats of neighbouring weeks), the month's activities from the
//! activity list (its distance and duration units are documented, unlike the feed's), and the
//! month's calendar events (the feed carries neither goal times nor the primary-race flag).

use display::words;
use std::collections::{BTreeMap, HashMap, HashSet};

use chrono::{Datelike, NaiveDate};
use garmin::models::activities::ActivitySummary;
use garmin::models::calendar::CalendarItem;
use garmin::models::events::Event;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{schemars, tool, tool_router};
use serde::{Deserialize, Serialize};

use crate::domain::activity::activity_title;
use crate::domain::parts::{part, with_missing};
use crate::output::{self, Answer};
use crate::server::GarminMcp;
use crate::tool_error::ToolError;

/// Most calendar events read for one month.
const EVENTS_PER_MONTH: u32 = 100;
/// JSON bytes the day list may use, leaving room for the summary and the other fields.
const DAYS_BUDGET: usize = output::BUDGET_BYTES - 2048;

/// Arguments of `get_calendar`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct GetCalendarArgs {
    /// Year, e.g. 2026 (default: the current year).
    #[serde(default)]
    #[schemars(range(min = 1990, max = 2100))]
    pub year: Option<i32>,
    /// Month 1–12, January = 1 (default: the current month).
    #[serde(default)]
    #[schemars(range(min = 1, max = 12))]
    pub month: Option<u32>,
}

/// One month of the calendar.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct CalendarMonthView {
    /// Year.
    pub year: i32,
    /// Month 1–12.
    pub month: u32,
    /// First day of the month (`YYYY-MM-DD`).
    pub first_day: String,
    /// Last day of the month (`YYYY-MM-DD`).
    pub last_day: String,
    /// How many of each kind of item the month holds.
    pub counts: CalendarCounts,
    /// Days that have something, in date order (days without items are left out).
    pub days: Vec<CalendarDay>,
    /// The first scheduled workout or event on or after today within the month, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_upcoming: Option<UpcomingItem>,
    /// Activities left out of `days` to keep the answer short (use `list_activities` for them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activities_left_out: Option<usize>,
    /// Parts Garmin could not give, with why (e.g. `events: Garmin Connect had a server error…`);
    /// the rest of the month is still shown.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
}

/// Item counts of the month.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct CalendarCounts {
    /// Activities done.
    pub activities: usize,
    /// Their total distance (km).
    pub activity_distance_km: f64,
    /// Their total duration (`h:mm:ss`).
    pub activity_duration: String,
    /// Workouts scheduled.
    pub scheduled_workouts: usize,
    /// Races and other events.
    pub events: usize,
    /// Days with at least one item.
    pub days_with_items: usize,
    /// Total activity seconds (for the summary).
    #[serde(skip)]
    #[schemars(skip)]
    activity_seconds: f64,
}

/// One day of the calendar.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct CalendarDay {
    /// The day (`YYYY-MM-DD`).
    pub date: String,
    /// Weekday, e.g. `Tue`.
    pub weekday: String,
    /// Activities done that day.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub activities: Vec<CalendarActivity>,
    /// Workouts scheduled that day.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub workouts: Vec<CalendarWorkout>,
    /// Races and other events that day.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<CalendarEvent>,
}

/// An activity on the calendar.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct CalendarActivity {
    /// Activity id (for `get_activity`).
    pub activity_id: u64,
    /// Name.
    pub name: String,
    /// Activity type, e.g. `running`.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Distance (km).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance_km: Option<f64>,
    /// Duration (`h:mm:ss`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration: Option<String>,
}

/// A workout scheduled on the calendar.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct CalendarWorkout {
    /// Library workout id (for `get_workouts`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workout_id: Option<u64>,
    /// The calendar entry's id (`workoutScheduleId`; what unscheduling needs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schedule_id: Option<u64>,
    /// Name.
    pub name: String,
    /// Sport, e.g. `running`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sport: Option<String>,
    /// True for a training-plan workout.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub from_plan: bool,
}

/// A race or other event on the calendar.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct CalendarEvent {
    /// Event id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event_id: Option<u64>,
    /// Name.
    pub name: String,
    /// Distance to cover (km).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance_km: Option<f64>,
    /// Goal time (`h:mm:ss`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub goal: Option<String>,
    /// True for the season's main race.
    pub primary: bool,
    /// True for a race.
    pub race: bool,
}

/// The next thing planned.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct UpcomingItem {
    /// The day (`YYYY-MM-DD`).
    pub date: String,
    /// `workout` or `event`.
    pub kind: String,
    /// Name.
    pub name: String,
    /// Days from today (0 = today).
    pub in_days: i64,
}

#[tool_router(router = calendar_tools, vis = "pub(crate)")]
impl GarminMcp {
    /// One month of the athlete's Garmin calendar, day by day: activities done (id, name, type,
    /// km, duration), workouts scheduled (workout and schedule ids, sport) and races or events
    /// (distance, goal time, primary race), with counts and the next planned item. Use it for
    /// "what's on my plan next week?", "what did I do in March?" or "when is my next race?";
    /// follow the ids to get_activity or get_workouts. Defaults to the current month.
    #[tool(
        name = "get_calendar",
        annotations(
            title = "Calendar month",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<CalendarMonthView>()
    )]
    async fn get_calendar(
        &self,
        Parameters(args): Parameters<GetCalendarArgs>,
    ) -> Result<Answer<CalendarMonthView>, ToolError> {
        let today = self.today();
        let (first, last) =
            month_bounds(args.year.unwrap_or(today.year()), args.month.unwrap_or(today.month()))?;
        let client = self.web_session().await?;
        // Any one of the three may fail (a 404 for the month feed included): it is named in
        // `missing` and the month is shown from the others; only all three failing fails the tool.
        let (feed, activities, events) = futures::join!(
            async { client.calendar().month(first.year(), first.month()).await },
            async { client.activities().between(first, last, None).await },
            async { client.events().list(first, last, EVENTS_PER_MONTH, 1).await },
        );
        if let (Err(_), Err(_), Err(_)) = (&feed, &activities, &events) {
            return Err(feed
                .err()
                .map_or_else(|| ToolError::NoData("no calendar".to_owned()), ToolError::from));
        }
        let mut missing = Vec::new();
        let feed = part(&mut missing, "scheduled workouts and notes", feed).unwrap_or_default();
        let activities = part(&mut missing, "activities", activities).unwrap_or_default();
        let events = part(&mut missing, "events", events).unwrap_or_default();
        let mut view = build_month(first, last, today, &feed.calendar_items, &activities, &events);
        view.missing = missing;
        let summary = with_missing(month_summary(&view, first), &view.missing);
        Ok(self.answer(summary, view))
    }
}

/// First and last day of a month, or an argument error for an impossible one.
fn month_bounds(year: i32, month: u32) -> Result<(NaiveDate, NaiveDate), ToolError> {
    if !(1..=12).contains(&month) {
        return Err(ToolError::invalid(format!("month must be 1–12 (January = 1), got {month}")));
    }
    if !(1990..=2100).contains(&year) {
        return Err(ToolError::invalid(format!("year must be between 1990 and 2100, got {year}")));
    }
    let first = NaiveDate::from_ymd_opt(year, month, 1)
        .ok_or_else(|| ToolError::invalid(format!("no such month: {year}-{month:02}")))?;
    let next = first.checked_add_months(chrono::Months::new(1)).unwrap_or(first);
    Ok((first, next.pred_opt().unwrap_or(first)))
}

/// Everything dated inside `first..=last`, merged per day: activities from the activity list
/// (with the feed's activities it does not know), scheduled workouts from the feed, events from
/// the event list (with the feed's events it does not know).
fn build_month(
    first: NaiveDate,
    last: NaiveDate,
    today: NaiveDate,
    feed: &[CalendarItem],
    activities: &[ActivitySummary],
    events: &[Event],
) -> CalendarMonthView {
    let mut month = MonthDays::new(first, last, today);
    for a in activities {
        month.add_listed_activity(a);
    }
    let events_by_id: HashMap<u64, &Event> = events.iter().filter_map(|e| Some((e.id?, e))).collect();
    for item in feed {
        month.add_feed_item(item, &events_by_id);
    }
    for e in events {
        month.add_listed_event(e);
    }
    month.finish()
}

/// A month's days being filled, with what is already in them (so no activity or event is shown
/// twice) and the items still to come.
struct MonthDays {
    first: NaiveDate,
    last: NaiveDate,
    today: NaiveDate,
    days: BTreeMap<NaiveDate, CalendarDay>,
    seen_activities: HashSet<u64>,
    seen_events: HashSet<u64>,
    /// Planned items on or after today: day, kind, name.
    upcoming: Vec<(NaiveDate, &'static str, String)>,
    /// Metres and seconds of the listed activities.
    total_m: f64,
    total_s: f64,
}

impl MonthDays {
    fn new(first: NaiveDate, last: NaiveDate, today: NaiveDate) -> MonthDays {
        MonthDays {
            first,
            last,
            today,
            days: BTreeMap::new(),
            seen_activities: HashSet::new(),
            seen_events: HashSet::new(),
            upcoming: Vec::new(),
            total_m: 0.0,
            total_s: 0.0,
        }
    }

    /// The day of `date` when it lies inside the month.
    fn inside(&self, date: Option<NaiveDate>) -> Option<NaiveDate> {
        date.filter(|d| self.first <= *d && *d <= self.last)
    }

    /// An activity of the activity list (once per id), counted in the month's totals.
    fn add_listed_activity(&mut self, a: &ActivitySummary) {
        let Some(date) = self.inside(a.start_time_local.map(|t| t.date())) else { return };
        let Some(id) = a.activity_id.filter(|id| self.seen_activities.insert(*id)) else { return };
        self.total_m += a.distance.unwrap_or(0.0);
        self.total_s += a.duration.unwrap_or(0.0);
        day_entry(&mut self.days, date).activities.push(CalendarActivity {
            activity_id: id,
            name: activity_title(a.activity_name.as_deref(), a.type_key(), a.location_name.as_deref()),
            kind: a.activity_type.as_ref().and_then(|t| t.type_key.as_deref()).map(words),
            distance_km: a.distance.filter(|d| *d > 0.0).map(display::km),
            duration: a.duration.filter(|d| *d > 0.0).map(display::duration),
        });
    }

    /// One item of the calendar feed: an activity the list did not return, a scheduled
    /// workout, or an event (completed from the event list when it has it).
    fn add_feed_item(&mut self, item: &CalendarItem, events_by_id: &HashMap<u64, &Event>) {
        let Some(date) = self.inside(item.date) else { return };
        let title = item.title.clone().unwrap_or_default();
        match item.item_type.as_deref() {
            Some("activity") => {
                // Activities the list did not return (the feed's units are not trusted: no numbers).
                let Some(id) = item.id.filter(|id| self.seen_activities.insert(*id)) else { return };
                day_entry(&mut self.days, date).activities.push(CalendarActivity {
                    activity_id: id,
                    name: activity_title(Some(&title), item.sport_type_key.as_deref(), None),
                    kind: item.sport_type_key.as_deref().map(words),
                    distance_km: None,
                    duration: None,
                });
            }
            Some(kind @ ("workout" | "fbtAdaptiveWorkout")) => {
                let from_plan = kind != "workout";
                self.note_upcoming(date, "workout", &title);
                day_entry(&mut self.days, date).workouts.push(CalendarWorkout {
                    workout_id: item.workout_id,
                    schedule_id: if from_plan { None } else { item.id },
                    name: if title.is_empty() { "Workout".to_owned() } else { title },
                    sport: item.sport_type_key.as_deref().map(words),
                    from_plan,
                });
            }
            Some("event") => {
                if let Some(id) = item.id {
                    self.seen_events.insert(id);
                }
                let event = match item.id.and_then(|id| events_by_id.get(&id).copied()) {
                    Some(e) => event_row(e),
                    None => feed_event_row(item, title),
                };
                self.note_upcoming(date, "event", &event.name);
                day_entry(&mut self.days, date).events.push(event);
            }
            _ => {}
        }
    }

    /// An event of the event list the feed did not have.
    fn add_listed_event(&mut self, e: &Event) {
        let Some(date) = self.inside(e.date) else { return };
        if e.id.is_some_and(|id| !self.seen_events.insert(id)) {
            return;
        }
        let row = event_row(e);
        self.note_upcoming(date, "event", &row.name);
        day_entry(&mut self.days, date).events.push(row);
    }

    /// Keeps a planned item when it is on or after today.
    fn note_upcoming(&mut self, date: NaiveDate, kind: &'static str, name: &str) {
        if date >= self.today {
            self.upcoming.push((date, kind, name.to_owned()));
        }
    }

    /// The month's view: counts, the days (within their budget) and the next planned item.
    fn finish(self) -> CalendarMonthView {
        let mut counts = CalendarCounts::default();
        for day in self.days.values() {
            counts.activities += day.activities.len();
            counts.scheduled_workouts += day.workouts.len();
            counts.events += day.events.len();
        }
        counts.days_with_items = self.days.len();
        counts.activity_distance_km = display::km(self.total_m);
        counts.activity_duration = display::duration(self.total_s);
        counts.activity_seconds = self.total_s;
        let mut upcoming = self.upcoming;
        upcoming.sort_by_key(|u| u.0);
        let today = self.today;
        let next_upcoming = upcoming.into_iter().next().map(|(date, kind, name)| UpcomingItem {
            date: date.to_string(),
            kind: kind.to_owned(),
            name,
            in_days: (date - today).num_days(),
        });
        let mut days: Vec<CalendarDay> = self.days.into_values().collect();
        let activities_left_out = fit_days(&mut days);
        CalendarMonthView {
            year: self.first.year(),
            month: self.first.month(),
            first_day: self.first.to_string(),
            last_day: self.last.to_string(),
            counts,
            days,
            next_upcoming,
            activities_left_out,
            missing: Vec::new(),
        }
    }
}

/// An event known only from the feed: its title, distance and race flag (the feed has no goal
/// time or primary flag).
fn feed_event_row(item: &CalendarItem, title: String) -> CalendarEvent {
    CalendarEvent {
        event_id: item.id,
        name: title,
        distance_km: item.completion_target.as_ref().and_then(|t| t.meters()).map(display::km),
        goal: None,
        primary: false,
        race: item.is_race.unwrap_or(false),
    }
}

fn day_entry(days: &mut BTreeMap<NaiveDate, CalendarDay>, date: NaiveDate) -> &mut CalendarDay {
    days.entry(date).or_insert_with(|| CalendarDay {
        date: date.to_string(),
        weekday: date.format("%a").to_string(),
        activities: Vec::new(),
        workouts: Vec::new(),
        events: Vec::new(),
    })
}

fn event_row(e: &Event) -> CalendarEvent {
    CalendarEvent {
        event_id: e.id,
        name: e.event_name.clone().unwrap_or_else(|| "Event".to_owned()),
        distance_km: e.distance_meters().map(display::km),
        goal: e.goal_seconds().filter(|g| *g > 0.0).map(display::duration),
        primary: e.event_customization.as_ref().and_then(|c| c.is_primary_event).unwrap_or(false),
        race: e.race.unwrap_or(false),
    }
}

/// Keeps the day list within its share of the budget by dropping activity rows, earliest days
/// first (workouts and events are few and always kept); returns how many were dropped.
fn fit_days(days: &mut [CalendarDay]) -> Option<usize> {
    let size = |days: &[CalendarDay]| serde_json::to_string(days).map_or(0, |s| s.len());
    let mut dropped = 0;
    let mut i = 0;
    while size(days) > DAYS_BUDGET && i < days.len() {
        dropped += days[i].activities.len();
        days[i].activities.clear();
        i += 1;
    }
    (dropped > 0).then_some(dropped)
}

fn month_summary(view: &CalendarMonthView, first: NaiveDate) -> String {
    let month = first.format("%B %Y");
    let c = &view.counts;
    if c.days_with_items == 0 {
        return format!("Nothing on your calendar for {month}: no activities, scheduled workouts or events.");
    }
    let mut parts = Vec::new();
    if c.activities > 0 {
        parts.push(format!(
            "{} {} ({:.1} km, {})",
            c.activities,
            plural(c.activities, "activity", "activities"),
            c.activity_distance_km,
            display::hours_minutes(c.activity_seconds)
        ));
    }
    if c.scheduled_workouts > 0 {
        parts.push(format!(
            "{} scheduled {}",
            c.scheduled_workouts,
            plural(c.scheduled_workouts, "workout", "workouts")
        ));
    }
    if c.events > 0 {
        parts.push(format!("{} {}", c.events, plural(c.events, "race or event", "races or events")));
    }
    let listed = match parts.len() {
        1 => parts.remove(0),
        _ => {
            let last = parts.pop().unwrap_or_default();
            format!("{} and {last}", parts.join(", "))
        }
    };
    let mut text =
        format!("{month}: {listed} on {} {}.", c.days_with_items, plural(c.days_with_items, "day", "days"));
    if let Some(next) = &view.next_upcoming {
        let when = match next.in_days {
            0 => "today".to_owned(),
            1 => "tomorrow".to_owned(),
            n => format!("in {n} days"),
        };
        text.push_str(&format!(" Next: {} on {} ({when}).", next.name, next.date));
    }
    if let Some(n) = view.activities_left_out {
        text.push_str(&format!(
            " {n} earlier activities are left out to keep this short; list_activities has them."
        ));
    }
    text
}

fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn month_bounds_cover_whole_months_and_refuse_nonsense() {
        let (a, b) = month_bounds(2024, 2).unwrap();
        assert_eq!((a.to_string(), b.to_string()), ("2024-02-01".into(), "2024-02-29".into()));
        let (_, dec) = month_bounds(2026, 12).unwrap();
        assert_eq!(dec.to_string(), "2026-12-31");
        assert!(month_bounds(2026, 0).is_err());
        assert!(month_bounds(2026, 13).is_err());
        assert!(month_bounds(1800, 1).is_err());
    }
}
