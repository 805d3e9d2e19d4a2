//! The `calendar` toolset's writes: `add_calendar_event` (a race or event with distance, goal
//! time, location and primary flag) and `remove_calendar_event`, both through the safety model
//! ([`crate::writes`]).

use garmin::changes::Change;
use garmin::models::events::{CompletionTarget, Event, EventCustomization};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::service::RequestContext;
use rmcp::{RoleServer, schemars, tool, tool_router};
use serde::Deserialize;

use crate::domain::dates::parse_date;
use crate::output::Answer;
use crate::server::GarminMcp;
use crate::tool_error::ToolError;
use crate::writes::{Proposed, WriteOutcome};

/// Arguments of `add_calendar_event`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct AddEventArgs {
    /// Name, e.g. "Shanghai Half Marathon".
    pub name: String,
    /// The day, YYYY-MM-DD.
    pub date: String,
    /// Race distance in km (e.g. 21.0975).
    #[serde(default)]
    #[schemars(range(min = 0.1, max = 1000.0))]
    pub distance_km: Option<f64>,
    /// Goal time, h:mm:ss or mm:ss (e.g. "1:45:00").
    #[serde(default)]
    pub goal_time: Option<String>,
    /// Where it is (free text).
    #[serde(default)]
    pub location: Option<String>,
    /// Start time, HH:MM.
    #[serde(default)]
    pub start_time: Option<String>,
    /// The person's main race of the season (Garmin builds the training plan and race-day
    /// predictions around it).
    #[serde(default)]
    pub primary: bool,
    /// running (default), cycling, swimming, triathlon, trail_running, other…
    #[serde(default)]
    pub sport: Option<String>,
    /// Write now (see create_workout).
    #[serde(default)]
    pub confirm: bool,
}

/// Arguments of `remove_calendar_event`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct RemoveEventArgs {
    /// The event (an event id from get_calendar or add_calendar_event).
    pub event_id: u64,
    /// Write now (see create_workout).
    #[serde(default)]
    pub confirm: bool,
}

/// The event `args` describe and its preview in words ("Add 'Berlin Marathon' (running) on …");
/// bad input is refused naming the argument.
fn event_of(args: &AddEventArgs, today: chrono::NaiveDate) -> Result<(Event, String), ToolError> {
    let name = args.name.trim().to_owned();
    if name.is_empty() {
        return Err(ToolError::invalid("name must not be empty"));
    }
    let date = parse_date("date", &args.date, today)?;
    let goal_s = args.goal_time.as_deref().map(parse_clock).transpose()?;
    if let Some(start) = args.start_time.as_deref()
        && chrono::NaiveTime::parse_from_str(start.trim(), "%H:%M").is_err()
    {
        return Err(ToolError::invalid(format!("start_time must be HH:MM, got `{start}`")));
    }
    let sport = args.sport.as_deref().map_or("running", str::trim).to_owned();
    let event = Event {
        event_name: Some(name.clone()),
        date: Some(date),
        event_type: Some(sport.clone()),
        race: Some(true),
        location: args.location.clone().filter(|l| !l.trim().is_empty()),
        completion_target: args.distance_km.map(|km| CompletionTarget {
            value: Some(km),
            unit: Some("kilometer".into()),
            unit_type: Some("distance".into()),
        }),
        event_customization: Some(EventCustomization {
            custom_goal: goal_s.map(|s| CompletionTarget {
                value: Some(s),
                unit: Some("second".into()),
                unit_type: Some("time".into()),
            }),
            is_primary_event: Some(args.primary),
            ..EventCustomization::default()
        }),
        event_time_local: args.start_time.as_deref().map(|t| garmin::models::events::EventTime {
            start_time_hh_mm: Some(t.trim().to_owned()),
            time_zone_id: None,
        }),
        ..Event::default()
    };
    let mut parts = vec![format!("'{name}' ({sport}) on {}", date.format("%a %Y-%m-%d"))];
    if let Some(km) = args.distance_km {
        parts.push(format!("{km:.2} km"));
    }
    if let Some(goal) = goal_s {
        parts.push(format!("goal {}", display::duration(goal)));
    }
    if let Some(location) = &event.location {
        parts.push(format!("in {location}"));
    }
    if args.primary {
        parts.push("primary race".into());
    }
    Ok((event, format!("Add {} to the Garmin calendar", parts.join(", "))))
}

#[tool_router(router = calendar_writes_tools, vis = "pub(crate)")]
impl GarminMcp {
    /// Add a race or event to the person's Garmin calendar, with distance, goal time, location and
    /// whether it is their primary race. Confirmed like create_workout (nothing is written until
    /// the person agrees).
    #[tool(
        name = "add_calendar_event",
        annotations(
            title = "Add a race to the calendar",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = true
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<WriteOutcome>()
    )]
    async fn add_calendar_event(
        &self,
        Parameters(args): Parameters<AddEventArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<Answer<WriteOutcome>, ToolError> {
        let (event, preview) = event_of(&args, self.today())?;
        let proposed = Proposed {
            preview,
            change: Change::AddEvent { event: Box::new(event) },
            spec: None,
            undoes: None,
        };
        self.writes().propose(proposed, args.confirm, &ctx).await
    }

    /// Delete a race or event from the person's Garmin calendar (a copy is kept in the change
    /// journal so undo_change can add it back). Confirmed like create_workout.
    #[tool(
        name = "remove_calendar_event",
        annotations(
            title = "Remove a calendar event",
            read_only_hint = false,
            destructive_hint = true,
            idempotent_hint = true,
            open_world_hint = true
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<WriteOutcome>()
    )]
    async fn remove_calendar_event(
        &self,
        Parameters(args): Parameters<RemoveEventArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<Answer<WriteOutcome>, ToolError> {
        let client = self.web_session().await?;
        let event = client.events().get(args.event_id).await?;
        let proposed = Proposed {
            preview: format!(
                "Delete '{}'{} (event {}) from the Garmin calendar",
                event.event_name.as_deref().unwrap_or("event"),
                event.date.map_or_else(String::new, |d| format!(" on {d}")),
                args.event_id
            ),
            change: Change::RemoveEvent { event_id: args.event_id },
            spec: None,
            undoes: None,
        };
        self.writes().propose(proposed, args.confirm, &ctx).await
    }
}

/// `h:mm:ss` or `mm:ss` into seconds.
fn parse_clock(text: &str) -> Result<f64, ToolError> {
    let bad = || ToolError::invalid(format!("goal_time must be h:mm:ss or mm:ss, got `{text}`"));
    let parts: Vec<&str> = text.trim().split(':').collect();
    let numbers: Vec<u32> =
        parts.iter().map(|p| p.parse::<u32>().map_err(|_| bad())).collect::<Result<_, _>>()?;
    let seconds = match numbers.as_slice() {
        [m, s] if *s < 60 => m * 60 + s,
        [h, m, s] if *m < 60 && *s < 60 => h * 3600 + m * 60 + s,
        _ => return Err(bad()),
    };
    if seconds == 0 {
        return Err(bad());
    }
    Ok(f64::from(seconds))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn goal_times_read_as_h_mm_ss_or_mm_ss_and_nonsense_is_refused() {
        assert_eq!(parse_clock("1:45:00").ok(), Some(6300.0));
        assert_eq!(parse_clock("45:30").ok(), Some(2730.0));
        assert!(parse_clock("1:75:00").is_err());
        assert!(parse_clock("fast").is_err());
        assert!(parse_clock("0:00").is_err());
    }
}
