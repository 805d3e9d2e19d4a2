//! Calendar events (reference §4.10 and §4.13): list, upcoming, and the athlete's own events;
//! and Garmin's public race catalogue ([`RaceSearch`], [`EventsApi::search_races`]).

use chrono::NaiveDate;
use reqwest::Method;
use serde::de::IgnoredAny;

use super::{Many, check_range, required, ymd};
use crate::models::events::{Event, RaceEvent, RaceProvider};
use crate::{Client, Error, Result};

/// Path of the race search, relative to `/gc-api` or to the Connect origin (see
/// [`EventsApi::search_races`]).
const RACE_SEARCH: &str = "/race-search/events";
/// Garmin's largest (and the web app's) race-search page.
const MAX_RACES: u32 = 200;

/// Parameters of Garmin's race search (reference §4.10). By default: every race, in person or
/// virtual, OFFICIAL or VERIFIED only (as the web app asks), at most 200.
#[derive(Clone, Debug, PartialEq)]
pub struct RaceSearch {
    /// `searchPhrase`: words of the name.
    pub phrase: Option<String>,
    /// `fromDate` (inclusive).
    pub from: Option<NaiveDate>,
    /// `toDate` (inclusive).
    pub to: Option<NaiveDate>,
    /// `poiLat`, `poiLon`, `withinMeters`: races starting within that many metres of a point.
    pub near: Option<(f64, f64, f64)>,
    /// `includeInPerson`.
    pub in_person: bool,
    /// `includeVirtual`.
    pub virtual_races: bool,
    /// `verifiedStatuses=OFFICIAL,VERIFIED` when true; every status otherwise.
    pub verified_only: bool,
    /// `limit`, 1–200.
    pub limit: u32,
}

impl Default for RaceSearch {
    fn default() -> Self {
        RaceSearch {
            phrase: None,
            from: None,
            to: None,
            near: None,
            in_person: true,
            virtual_races: true,
            verified_only: true,
            limit: MAX_RACES,
        }
    }
}

impl RaceSearch {
    /// Every verified race, up to 200.
    pub fn new() -> Self {
        Self::default()
    }

    /// Only races whose name contains `phrase` (Garmin decides how it matches).
    pub fn phrase(mut self, phrase: impl Into<String>) -> Self {
        self.phrase = Some(phrase.into()).filter(|p| !p.trim().is_empty());
        self
    }

    /// Only races from `from` to `to` (inclusive).
    pub fn between(mut self, from: NaiveDate, to: NaiveDate) -> Self {
        self.from = Some(from);
        self.to = Some(to);
        self
    }

    /// Only races starting within `meters` of (`lat`, `lon`).
    pub fn near(mut self, lat: f64, lon: f64, meters: f64) -> Self {
        self.near = Some((lat, lon, meters));
        self
    }

    /// Whether to include races that take place somewhere, and virtual ones.
    pub fn kinds(mut self, in_person: bool, virtual_races: bool) -> Self {
        self.in_person = in_person;
        self.virtual_races = virtual_races;
        self
    }

    /// Include races whose listing Garmin has not verified.
    pub fn include_unverified(mut self) -> Self {
        self.verified_only = false;
        self
    }

    /// Most races (clamped to 1–200).
    pub fn limit(mut self, limit: u32) -> Self {
        self.limit = limit.clamp(1, MAX_RACES);
        self
    }

    fn check(&self) -> Result<()> {
        if let (Some(from), Some(to)) = (self.from, self.to) {
            check_range(from, to)?;
        }
        if let Some((lat, lon, meters)) = self.near
            && !((-90.0..=90.0).contains(&lat) && (-180.0..=180.0).contains(&lon) && meters > 0.0)
        {
            return Err(Error::InvalidInput(format!(
                "no such place or radius: {lat}, {lon} within {meters} m"
            )));
        }
        Ok(())
    }

    /// The query, in the order the reference lists it.
    fn query(&self) -> Vec<(&'static str, String)> {
        let mut query = Vec::new();
        if let Some(p) = &self.phrase {
            query.push(("searchPhrase", p.trim().to_owned()));
        }
        if let Some((lat, lon, meters)) = self.near {
            query.extend([
                ("poiLat", lat.to_string()),
                ("poiLon", lon.to_string()),
                ("withinMeters", format!("{meters:.0}")),
            ]);
        }
        if let Some(d) = self.from {
            query.push(("fromDate", ymd(d)));
        }
        if let Some(d) = self.to {
            query.push(("toDate", ymd(d)));
        }
        query.push(("includeInPerson", self.in_person.to_string()));
        query.push(("includeVirtual", self.virtual_races.to_string()));
        if self.verified_only {
            query.push(("verifiedStatuses", "OFFICIAL,VERIFIED".to_owned()));
        }
        query.push(("limit", self.limit.clamp(1, MAX_RACES).to_string()));
        query
    }
}

/// Calendar events (reference §4.10, §4.13). Made by [`Client::events`].
#[derive(Clone, Copy, Debug)]
pub struct EventsApi<'a> {
    pub(crate) client: &'a Client,
}

impl EventsApi<'_> {
    /// `GET /gc-api/calendar-service/events?startDate&endDate&limit&pageIndex&sortOrder=eventDate_asc`
    /// — events between two days, oldest first (`page` is 1-based).
    pub async fn list(&self, start: NaiveDate, end: NaiveDate, limit: u32, page: u32) -> Result<Vec<Event>> {
        check_range(start, end)?;
        let query = [
            ("startDate", ymd(start)),
            ("endDate", ymd(end)),
            ("limit", limit.clamp(1, 1000).to_string()),
            ("pageIndex", page.max(1).to_string()),
            ("sortOrder", "eventDate_asc".to_owned()),
        ];
        let answer: Option<Many<Event>> = self.client.get_json("/calendar-service/events", &query).await?;
        Ok(named_events(answer))
    }

    /// `GET /gc-api/calendar-service/events/upcoming?numDaysForward&limit` — events in the next
    /// `days` days.
    pub async fn upcoming(&self, days: u32, limit: u32) -> Result<Vec<Event>> {
        let query =
            [("numDaysForward", days.max(1).to_string()), ("limit", limit.clamp(1, 1000).to_string())];
        let answer: Option<Many<Event>> =
            self.client.get_json("/calendar-service/events/upcoming", &query).await?;
        Ok(named_events(answer))
    }

    /// `GET /gc-api/calendar-service/event/{eventId}` — one of the athlete's events.
    pub async fn get(&self, event_id: u64) -> Result<Event> {
        let path = format!("/calendar-service/event/{event_id}");
        required(self.client.get_json(&path, &[]).await?, &format!("GET /gc-api{path}"))
    }

    /// `POST /gc-api/calendar-service/event` — adds an event (Garmin makes it private) and returns
    /// it with its id. Needs a name and a date.
    pub async fn create(&self, event: &Event) -> Result<Event> {
        if event.event_name.as_deref().is_none_or(|n| n.trim().is_empty()) || event.date.is_none() {
            return Err(Error::InvalidInput("an event needs a name and a date".into()));
        }
        let mut body = event.clone();
        body.id = None;
        let path = "/calendar-service/event";
        required(self.client.send_json(Method::POST, path, &body).await?, &format!("POST /gc-api{path}"))
    }

    /// `PUT /gc-api/calendar-service/event/{eventId}` — replaces the whole event (read, change,
    /// write back; concurrent writers lose changes).
    pub async fn update(&self, event_id: u64, event: &Event) -> Result<()> {
        let mut body = event.clone();
        body.id = Some(event_id);
        let path = format!("/calendar-service/event/{event_id}");
        self.client.send_json::<_, IgnoredAny>(Method::PUT, &path, &body).await.map(|_| ())
    }

    /// `DELETE /gc-api/calendar-service/event/{eventId}` — deletes it for good.
    pub async fn delete(&self, event_id: u64) -> Result<()> {
        self.client.delete(&format!("/calendar-service/event/{event_id}")).await
    }

    /// `GET /gc-api/race-search/events?searchPhrase&poiLat&poiLon&withinMeters&fromDate&toDate`
    /// `&includeInPerson&includeVirtual&verifiedStatuses=OFFICIAL,VERIFIED&limit`,
    /// or on a 404 the same at the bare `GET /race-search/events` — races of Garmin's public
    /// catalogue, in Garmin's order.
    pub async fn search_races(&self, search: &RaceSearch) -> Result<Vec<RaceEvent>> {
        search.check()?;
        let query = search.query();
        // The reference has a single source for this path and leaves open whether Garmin serves it
        // under `/gc-api` like every other call or at the bare path (open question 12): ask
        // `/gc-api` first, and only when that answers 404 try the bare path.
        let answer: Option<Many<RaceEvent>> = match self.client.get_json(RACE_SEARCH, &query).await {
            Err(Error::NotFound { .. }) => {
                tracing::debug!("no race search under /gc-api; trying the bare path");
                self.client.get_json_outside_api(RACE_SEARCH, &query).await?
            }
            other => other?,
        };
        Ok(answer
            .map(Many::into_vec)
            .unwrap_or_default()
            .into_iter()
            .filter(|r| r.event_name.is_some())
            .collect())
    }

    /// `GET /gc-api/calendar-service/race-events/providers` — who lists races in the catalogue.
    pub async fn race_providers(&self) -> Result<Vec<RaceProvider>> {
        let answer: Option<Many<RaceProvider>> =
            self.client.get_json("/calendar-service/race-events/providers", &[]).await?;
        Ok(answer
            .map(Many::into_vec)
            .unwrap_or_default()
            .into_iter()
            .filter(|p| p.events_provider_key.is_some() || p.events_provider_name.is_some())
            .collect())
    }
}

/// The events of a list answer (`None` is Garmin's "no events"), without the nameless placeholder
/// rows the feed sometimes carries.
fn named_events(answer: Option<Many<Event>>) -> Vec<Event> {
    answer.map(Many::into_vec).unwrap_or_default().into_iter().filter(|e| e.event_name.is_some()).collect()
}
