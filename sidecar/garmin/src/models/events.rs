//! Calendar events: races and other dated events the athlete added (`calendar-service/event…`),
//! with their distance targets and goal times. Absent fields are left out when an event is sent
//! back (create, whole-record update), and unmodelled ones are kept in `extra`. Plus the races of
//! Garmin's public catalogue ([`RaceEvent`], from the race search) and who lists them.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

use super::de;

/// A calendar event (race, group run…).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Event {
    /// Event id (user events).
    #[serde(deserialize_with = "de::id", skip_serializing_if = "Option::is_none")]
    pub id: Option<u64>,
    /// Name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event_name: Option<String>,
    /// The day.
    #[serde(deserialize_with = "de::date", skip_serializing_if = "Option::is_none")]
    pub date: Option<NaiveDate>,
    /// `running`, `cycling`…
    #[serde(deserialize_with = "de::text", skip_serializing_if = "Option::is_none")]
    pub event_type: Option<String>,
    /// Whether it is a race.
    #[serde(deserialize_with = "de::flag", skip_serializing_if = "Option::is_none")]
    pub race: Option<bool>,
    /// Start time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event_time_local: Option<EventTime>,
    /// Distance to cover.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub completion_target: Option<CompletionTarget>,
    /// Goal and priority.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event_customization: Option<EventCustomization>,
    /// Place text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// Where it starts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location_start_point: Option<GeoPoint>,
    /// Web page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Note.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Uuid of a catalogue event.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shareable_event_uuid: Option<String>,
    /// Every other field as sent (privacy, image…), written back unchanged on update.
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}

impl Event {
    /// The distance to cover in metres, when the target is a distance in a known unit.
    pub fn distance_meters(&self) -> Option<f64> {
        self.completion_target.as_ref()?.meters()
    }

    /// The goal time in seconds, when set.
    pub fn goal_seconds(&self) -> Option<f64> {
        self.event_customization.as_ref()?.custom_goal.as_ref()?.value
    }
}

/// An event's start time.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct EventTime {
    /// `HH:MM`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_time_hh_mm: Option<String>,
    /// IANA zone, e.g. `Europe/Paris`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_zone_id: Option<String>,
}

/// A value with a unit: `{value, unit, unitType}` (distance targets, goal times).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CompletionTarget {
    /// The amount.
    #[serde(deserialize_with = "de::num", skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    /// `meter`, `kilometer`, `yard`, `mile`, `second`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// `distance` or `time`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit_type: Option<String>,
}

impl CompletionTarget {
    /// The amount in metres when it is a distance in a known unit.
    pub fn meters(&self) -> Option<f64> {
        let factor = match self.unit.as_deref()? {
            "meter" => 1.0,
            "kilometer" => 1000.0,
            "mile" => super::units::METERS_PER_MILE,
            "yard" => 0.9144,
            _ => return None,
        };
        Some(self.value? * factor)
    }
}

/// An event's goal and priority.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct EventCustomization {
    /// Goal time (`{value (s), unit: "second", unitType: "time"}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub custom_goal: Option<CompletionTarget>,
    /// Whether it is the main event of the season.
    #[serde(deserialize_with = "de::flag", skip_serializing_if = "Option::is_none")]
    pub is_primary_event: Option<bool>,
    /// Whether the goal was met (after the event).
    #[serde(deserialize_with = "de::flag", skip_serializing_if = "Option::is_none")]
    pub is_goal_met: Option<bool>,
    /// The activity recorded at the event.
    #[serde(deserialize_with = "de::id", skip_serializing_if = "Option::is_none")]
    pub associated_with_activity_id: Option<u64>,
}

/// A latitude/longitude pair.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GeoPoint {
    /// Latitude (°).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lat: Option<f64>,
    /// Longitude (°).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lon: Option<f64>,
}

/// A race of Garmin's public catalogue, as `race-search/events` answers: the row of
/// docs/garmin-web-api.md §0 (a 2024 capture of a Go calendar client). The place is
/// `administrativeArea`; a row says nothing of being virtual beyond having no place.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RaceEvent {
    /// Catalogue uuid.
    #[serde(deserialize_with = "de::text")]
    pub garmin_event_uuid: Option<String>,
    /// Who lists it: a [`RaceProvider::events_provider_key`].
    #[serde(deserialize_with = "de::text")]
    pub provider: Option<String>,
    /// The provider's own reference.
    #[serde(deserialize_with = "de::text")]
    pub event_ref: Option<String>,
    /// Name.
    #[serde(deserialize_with = "de::text")]
    pub event_name: Option<String>,
    /// The day.
    #[serde(deserialize_with = "de::date")]
    pub event_date: Option<NaiveDate>,
    /// Start time, local to the race (see [`RaceStart`]).
    #[serde(deserialize_with = "race_start")]
    pub event_start_time: Option<RaceStart>,
    /// Web page.
    #[serde(deserialize_with = "de::text")]
    pub event_url: Option<String>,
    /// Sign-up page.
    #[serde(deserialize_with = "de::text")]
    pub registration_url: Option<String>,
    /// `running`, `trail_running`, `cycling`, `triathlon`…
    #[serde(deserialize_with = "de::text")]
    pub event_type: Option<String>,
    /// Distances to cover (`{value, unit}`): one, or one per leg of a multisport race.
    #[serde(deserialize_with = "de::vec")]
    pub completion_targets: Vec<CompletionTarget>,
    /// Where it starts (absent for virtual races).
    pub location_start_point: Option<GeoPoint>,
    /// Distance from the searched point, metres (point searches only).
    #[serde(deserialize_with = "de::num")]
    pub distance_to_event: Option<f64>,
    /// City, state and country (absent for virtual races).
    pub administrative_area: Option<AdministrativeArea>,
    /// A course is attached.
    #[serde(deserialize_with = "de::flag")]
    pub has_course: Option<bool>,
    /// `OFFICIAL`, `VERIFIED`…
    #[serde(deserialize_with = "de::text")]
    pub verified_status: Option<String>,
    /// Garmin's official listing.
    #[serde(deserialize_with = "de::flag")]
    pub is_official: Option<bool>,
    /// Every other field as sent.
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}

/// Where a race of the catalogue takes place (`administrativeArea`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AdministrativeArea {
    /// ISO country code, e.g. `CN`.
    #[serde(deserialize_with = "de::text")]
    pub country_code: Option<String>,
    /// City, in English.
    #[serde(deserialize_with = "de::text")]
    pub city_en: Option<String>,
    /// State, province or region, in English.
    #[serde(deserialize_with = "de::text")]
    pub state_en: Option<String>,
    /// City as written locally, e.g. `上海`.
    #[serde(deserialize_with = "de::text")]
    pub city_native: Option<String>,
    /// State as written locally.
    #[serde(deserialize_with = "de::text")]
    pub state_native: Option<String>,
    /// Locale of the native names, e.g. `zh_CN`.
    #[serde(deserialize_with = "de::text")]
    pub native_locale: Option<String>,
}

impl AdministrativeArea {
    /// `Shanghai 上海, CN`, `Suzhou 苏州, Jiangsu 江苏, CN`, `Boston, Massachusetts, US`: the city
    /// and the state, each with its native name when it differs (the state left out when it is
    /// the city), and the country code.
    pub fn label(&self) -> Option<String> {
        let both = |en: Option<&str>, native: Option<&str>| match (en, native) {
            (Some(en), Some(native)) if !en.eq_ignore_ascii_case(native) => Some(format!("{en} {native}")),
            (Some(en), _) => Some(en.to_owned()),
            (None, native) => native.map(str::to_owned),
        };
        let city = both(non_empty(&self.city_en), non_empty(&self.city_native));
        let state = both(non_empty(&self.state_en), non_empty(&self.state_native))
            .filter(|s| city.as_deref().is_none_or(|c| !c.eq_ignore_ascii_case(s)));
        let country = non_empty(&self.country_code).map(str::to_owned);
        let parts: Vec<String> = [city, state, country].into_iter().flatten().collect();
        (!parts.is_empty()).then(|| parts.join(", "))
    }

    /// Whether `needle` (lower case) is part of the city or state name (English or native), or is
    /// the country code.
    pub fn matches(&self, needle: &str) -> bool {
        let names = [&self.city_en, &self.city_native, &self.state_en, &self.state_native];
        names.iter().any(|n| non_empty(n).is_some_and(|t| t.to_lowercase().contains(needle)))
            || non_empty(&self.country_code).is_some_and(|c| c.eq_ignore_ascii_case(needle))
    }
}

fn non_empty(text: &Option<String>) -> Option<&str> {
    text.as_deref().map(str::trim).filter(|t| !t.is_empty())
}

/// A race's start time. The capture types `eventStartTime` loosely (it was probably `null`
/// there), so every plausible form is read: the calendar's `{startTimeHhMm, timeZoneId}`, or text
/// `HH:MM`, `HH:MM:SS` or a local date-time.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RaceStart {
    /// `HH:MM`, local to the race.
    #[serde(rename = "startTimeHhMm")]
    pub hh_mm: String,
    /// IANA zone, when Garmin says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_zone_id: Option<String>,
}

impl RaceStart {
    /// `HH:MM` from `07:30`, `7:30:00`, `2026-05-03T07:30:00`; `None` otherwise.
    fn parse_text(text: &str) -> Option<String> {
        let t = text.trim();
        let time = t.rsplit(['T', ' ']).next().unwrap_or(t);
        let mut parts = time.split(':');
        let h: u32 = parts.next()?.trim().parse().ok()?;
        let m: u32 = parts.next()?.get(..2)?.parse().ok()?;
        (h < 24 && m < 60).then(|| format!("{h:02}:{m:02}"))
    }
}

/// Reads `eventStartTime` in any of the forms [`RaceStart`] names; anything else is absent.
fn race_start<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<RaceStart>, D::Error> {
    let value = Option::<serde_json::Value>::deserialize(d)?;
    Ok(match value {
        Some(serde_json::Value::String(text)) => {
            RaceStart::parse_text(&text).map(|hh_mm| RaceStart { hh_mm, time_zone_id: None })
        }
        Some(serde_json::Value::Object(map)) => {
            let text = |key: &str| map.get(key).and_then(|v| v.as_str()).map(str::to_owned);
            text("startTimeHhMm")
                .or_else(|| text("startTime"))
                .or_else(|| text("time"))
                .and_then(|t| RaceStart::parse_text(&t))
                .map(|hh_mm| RaceStart { hh_mm, time_zone_id: text("timeZoneId").filter(|z| !z.is_empty()) })
        }
        _ => None,
    })
}

impl RaceEvent {
    /// Every distance target in metres (units Garmin names; others are left out).
    pub fn distances_meters(&self) -> Vec<f64> {
        self.completion_targets.iter().filter_map(CompletionTarget::meters).collect()
    }

    /// The whole distance in metres (legs added up), when known.
    pub fn total_meters(&self) -> Option<f64> {
        let legs = self.distances_meters();
        (!legs.is_empty()).then(|| legs.iter().sum())
    }

    /// The start time, `HH:MM` local to the race, when listed.
    pub fn start_hh_mm(&self) -> Option<&str> {
        self.event_start_time.as_ref().map(|s| s.hh_mm.as_str())
    }

    /// The place in words (see [`AdministrativeArea::label`]).
    pub fn place(&self) -> Option<String> {
        self.administrative_area.as_ref()?.label()
    }

    /// Whether `needle` names the race's city, state (English or native) or country code.
    pub fn is_in(&self, needle: &str) -> bool {
        let needle = needle.trim().to_lowercase();
        !needle.is_empty() && self.administrative_area.as_ref().is_some_and(|a| a.matches(&needle))
    }

    /// A race with no place and no start point: run anywhere (virtual).
    pub fn is_virtual_only(&self) -> bool {
        let point = self.location_start_point.as_ref().is_some_and(|p| p.lat.is_some() && p.lon.is_some());
        !point && self.administrative_area.as_ref().and_then(AdministrativeArea::label).is_none()
    }
}

/// Who lists races in the catalogue (`/calendar-service/race-events/providers`), as
/// docs/garmin-web-api.md §0 gives it: `{eventsProviderKey, eventsProviderName, verifiedStatus,
/// logoURL, canMakeOfficial}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RaceProvider {
    /// Key races name in their `provider` field.
    #[serde(deserialize_with = "de::text")]
    pub events_provider_key: Option<String>,
    /// Name.
    #[serde(deserialize_with = "de::text")]
    pub events_provider_name: Option<String>,
    /// `OFFICIAL`, `VERIFIED`…
    #[serde(deserialize_with = "de::text")]
    pub verified_status: Option<String>,
    /// Logo.
    #[serde(rename = "logoURL", deserialize_with = "de::text")]
    pub logo_url: Option<String>,
    /// Whether its races can be made official.
    #[serde(deserialize_with = "de::flag")]
    pub can_make_official: Option<bool>,
    /// Every other field as sent.
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}
