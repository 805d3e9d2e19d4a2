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

/// A race of Garmin's public catalogue, as `race-search/events` answers (reference §4.10). Only
/// `eventName`, `eventDate`, `eventUrl`, `completionTargets`, `locationStartPoint` and
/// `garminEventUuid` are documented; the other fields are read when present.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RaceEvent {
    /// Catalogue uuid.
    pub garmin_event_uuid: Option<String>,
    /// Name.
    pub event_name: Option<String>,
    /// The day.
    #[serde(deserialize_with = "de::date")]
    pub event_date: Option<NaiveDate>,
    /// Start time.
    pub event_time_local: Option<EventTime>,
    /// Web page.
    pub event_url: Option<String>,
    /// `running`, `trail_running`, `cycling`, `triathlon`…
    #[serde(deserialize_with = "de::text")]
    pub event_type: Option<String>,
    /// Distances to cover: one, or one per leg of a multisport race.
    #[serde(deserialize_with = "de::vec")]
    pub completion_targets: Vec<CompletionTarget>,
    /// Where it starts (absent for virtual races).
    pub location_start_point: Option<GeoPoint>,
    /// Place text.
    #[serde(deserialize_with = "de::text")]
    pub location: Option<String>,
    /// City.
    #[serde(deserialize_with = "de::text")]
    pub city: Option<String>,
    /// ISO country code.
    #[serde(deserialize_with = "de::text")]
    pub country_code: Option<String>,
    /// Takes place somewhere.
    #[serde(deserialize_with = "de::flag")]
    pub in_person: Option<bool>,
    /// Can be done virtually (`virtual`).
    #[serde(rename = "virtual", deserialize_with = "de::flag")]
    pub is_virtual: Option<bool>,
    /// `OFFICIAL`, `VERIFIED`…
    #[serde(deserialize_with = "de::text")]
    pub verified_status: Option<String>,
    /// Who lists it (see [`RaceProvider`]).
    #[serde(deserialize_with = "de::id")]
    pub provider_id: Option<u64>,
    /// Every other field as sent.
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
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
}

/// Who lists races in the catalogue (`/calendar-service/race-events/providers`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct RaceProvider {
    /// Id races refer to.
    #[serde(deserialize_with = "de::id")]
    pub provider_id: Option<u64>,
    /// Name.
    #[serde(deserialize_with = "de::text")]
    pub provider_name: Option<String>,
    /// Web site.
    #[serde(deserialize_with = "de::text")]
    pub provider_url: Option<String>,
    /// Every other field as sent.
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}
