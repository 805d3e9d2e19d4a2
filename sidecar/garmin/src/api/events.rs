//! Calendar events (reference §4.10 and §4.13): list, upcoming, and the athlete's own events.

use chrono::NaiveDate;
use reqwest::Method;
use serde::de::IgnoredAny;

use super::{Many, check_range, required, ymd};
use crate::models::events::Event;
use crate::{Client, Error, Result};

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
        Ok(answer
            .map(Many::into_vec)
            .unwrap_or_default()
            .into_iter()
            .filter(|e| e.event_name.is_some())
            .collect())
    }

    /// `GET /gc-api/calendar-service/events/upcoming?numDaysForward&limit` — events in the next
    /// `days` days.
    pub async fn upcoming(&self, days: u32, limit: u32) -> Result<Vec<Event>> {
        let query =
            [("numDaysForward", days.max(1).to_string()), ("limit", limit.clamp(1, 1000).to_string())];
        let answer: Option<Many<Event>> =
            self.client.get_json("/calendar-service/events/upcoming", &query).await?;
        Ok(answer
            .map(Many::into_vec)
            .unwrap_or_default()
            .into_iter()
            .filter(|e| e.event_name.is_some())
            .collect())
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
}
