//! Calendar events (races and other dated goals): the seeded ones — a half marathon already run,
//! a 10K and a marathon ahead — and the validation a `POST`/`PUT /calendar-service/event` body
//! goes through (reference §4.13). User events are always private.

use chrono::NaiveDate;
use serde_json::Value;

use super::clock::parse_date;

/// One calendar event.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// Numeric id.
    pub id: u64,
    /// `shareableEventUuid`.
    pub uuid: String,
    /// `eventName`.
    pub name: String,
    /// Event day.
    pub date: NaiveDate,
    /// `eventTimeLocal.startTimeHhMm`.
    pub start_hhmm: Option<String>,
    /// `eventTimeLocal.timeZoneId`.
    pub time_zone: Option<String>,
    /// `eventType`, e.g. `running`.
    pub event_type: String,
    /// A race (shows as `isRace` in the calendar).
    pub race: bool,
    /// `completionTarget` `(value, unit)`; unit ∈ meter, kilometer, yard, mile.
    pub target: Option<(f64, String)>,
    /// `eventCustomization.customGoal.value`, seconds.
    pub goal_s: Option<f64>,
    /// `eventCustomization.isPrimaryEvent`.
    pub primary: bool,
    /// Free-text location.
    pub location: Option<String>,
    /// Event web page.
    pub url: Option<String>,
    /// Personal note.
    pub note: Option<String>,
    /// Start point.
    pub start_point: Option<(f64, f64)>,
    /// Activity that completed the event.
    pub activity_id: Option<u64>,
}

impl Event {
    /// Completion target in metres, if it is a distance.
    pub fn target_m(&self) -> Option<f64> {
        let (v, unit) = self.target.as_ref()?;
        Some(match unit.as_str() {
            "kilometer" => v * 1000.0,
            "mile" => v * 1609.344,
            "yard" => v * 0.9144,
            _ => *v,
        })
    }
}

/// Applies a create/update body on top of `base` (an empty event for POST, the stored one for
/// PUT, which is read-modify-write of the whole record). `Err` is the 400 text.
pub fn apply(body: &Value, base: &Event) -> Result<Event, String> {
    let b = body.as_object().ok_or("event body must be a JSON object")?;
    let mut e = base.clone();
    let text = |k: &str| b.get(k).and_then(Value::as_str).map(str::to_owned);
    if let Some(v) = b.get("eventName") {
        e.name = v
            .as_str()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .ok_or("eventName must be a non-empty string")?
            .to_owned();
    }
    if e.name.is_empty() {
        return Err("eventName is required".into());
    }
    match b.get("date") {
        Some(v) => e.date = v.as_str().and_then(parse_date).ok_or("date must be YYYY-MM-DD")?,
        None if base.name.is_empty() => return Err("date is required".into()),
        None => {}
    }
    if let Some(t) = b.get("eventTimeLocal") {
        if t.is_null() {
            e.start_hhmm = None;
            e.time_zone = None;
        } else {
            let hhmm = t
                .get("startTimeHhMm")
                .and_then(Value::as_str)
                .ok_or("eventTimeLocal.startTimeHhMm is required")?;
            chrono::NaiveTime::parse_from_str(hhmm, "%H:%M").map_err(|_| "startTimeHhMm must be HH:MM")?;
            e.start_hhmm = Some(hhmm.to_owned());
            e.time_zone = t.get("timeZoneId").and_then(Value::as_str).map(str::to_owned);
        }
    }
    if let Some(v) = text("eventType") {
        e.event_type = v;
    }
    if let Some(v) = b.get("race") {
        e.race = v.as_bool().ok_or("race must be a boolean")?;
    }
    if let Some(t) = b.get("completionTarget") {
        e.target = if t.is_null() {
            None
        } else {
            let value = t
                .get("value")
                .and_then(Value::as_f64)
                .filter(|v| *v > 0.0)
                .ok_or("completionTarget.value must be a positive number")?;
            let unit = t.get("unit").and_then(Value::as_str).unwrap_or("meter");
            if !["meter", "kilometer", "yard", "mile"].contains(&unit) {
                return Err(format!("unknown completionTarget.unit {unit:?}"));
            }
            Some((value, unit.to_owned()))
        };
    }
    if let Some(c) = b.get("eventCustomization") {
        e.goal_s = c.get("customGoal").and_then(|g| g.get("value")).and_then(Value::as_f64);
        e.primary = c.get("isPrimaryEvent").and_then(Value::as_bool).unwrap_or(false);
    }
    for (key, slot) in [("location", &mut e.location), ("url", &mut e.url), ("note", &mut e.note)] {
        if let Some(v) = b.get(key) {
            *slot = v.as_str().map(str::to_owned);
        }
    }
    Ok(e)
}

/// The three seeded events: the past half marathon, a 10K and a marathon ahead.
pub fn seeded(
    today: NaiveDate,
    race_day: NaiveDate,
    race_activity: Option<u64>,
    uuids: [String; 3],
    home: (f64, f64),
) -> Vec<Event> {
    let [a, b, c] = uuids;
    let event = |id, uuid, name: &str, date, metres: f64, goal: Option<f64>, primary| Event {
        id,
        uuid,
        name: name.to_owned(),
        date,
        start_hhmm: Some("07:30".to_owned()),
        time_zone: None,
        event_type: "running".to_owned(),
        race: true,
        target: Some((metres, "meter".to_owned())),
        goal_s: goal,
        primary,
        location: Some("Bayside".to_owned()),
        url: None,
        note: None,
        start_point: Some(home),
        activity_id: None,
    };
    vec![
        Event {
            activity_id: race_activity,
            ..event(20_000_001, a, "Bayside Half Marathon", race_day, 21_097.0, Some(6_300.0), false)
        },
        event(
            20_000_002,
            b,
            "Sampletown 10K",
            today + chrono::Duration::days(24),
            10_000.0,
            Some(2_700.0),
            false,
        ),
        event(
            20_000_003,
            c,
            "Example Big City Marathon",
            today + chrono::Duration::days(95),
            42_195.0,
            Some(12_600.0),
            true,
        ),
    ]
}
