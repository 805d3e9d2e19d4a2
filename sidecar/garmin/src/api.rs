//! The typed Garmin Connect API, one handle per area (octocrab style):
//! `client.activities().search(&ActivitySearch::new().limit(20)).await?`.
//!
//! Every method's doc names the HTTP verb and `/gc-api` path it calls (the endpoint *is* the
//! documentation for an undocumented API; see `garmin-web-api.md` §4). Answers decode into
//! [`crate::models`] mirroring the same areas. Conventions:
//! * `Option<T>` where Garmin may answer "no data" (204, empty, null, or a null-filled object);
//!   lists come back empty instead;
//! * dates are `NaiveDate` (`YYYY-MM-DD` on the wire), ranges are inclusive, and ranges Garmin
//!   limits to about a month are split into chunks fetched concurrently ([`paging`]);
//! * the account's displayName and profile id come from the session, or are learned once via
//!   `GET /gc-api/userprofile-service/socialProfile` when the session does not know them.

mod activities;
mod calendar;
mod challenges;
mod devices;
pub(crate) mod downloads;
mod events;
mod gear;
mod metrics;
pub mod paging;
pub(crate) mod paths;
mod profile;
mod records;
mod social;
mod wellness;
mod workouts;

pub use activities::{ActivitiesApi, ActivitySearch, SERIES_ROWS, SortOrder};
pub use calendar::CalendarApi;
pub use challenges::{BadgeChallengeStatus, ChallengesApi, GoalStatus};
pub use devices::DevicesApi;
pub use downloads::{DownloadsApi, export_endpoint};
pub use events::{EventsApi, RaceSearch};
pub use gear::GearApi;
pub use metrics::{BiometricSeries, MetricsApi};
pub use profile::ProfileApi;
pub use records::RecordsApi;
pub use social::SocialApi;
pub use wellness::WellnessApi;
pub use workouts::{MAX_WORKOUT_NAME_CHARS, WorkoutsApi};

use chrono::NaiveDate;
use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::{Client, Error, Result};

impl Client {
    /// Activities: search and paging, one activity's summary, charts, laps, zones, weather,
    /// rename and delete.
    pub fn activities(&self) -> ActivitiesApi<'_> {
        ActivitiesApi { client: self }
    }

    /// The calendar feed (months, weeks, date ranges).
    pub fn calendar(&self) -> CalendarApi<'_> {
        CalendarApi { client: self }
    }

    /// Badges, challenges and goals.
    pub fn challenges(&self) -> ChallengesApi<'_> {
        ChallengesApi { client: self }
    }

    /// Registered devices and their settings.
    pub fn devices(&self) -> DevicesApi<'_> {
        DevicesApi { client: self }
    }

    /// File downloads: original FIT, GPX/TCX/KML/CSV exports, workout FIT, wellness zip.
    pub fn downloads(&self) -> DownloadsApi<'_> {
        DownloadsApi { client: self }
    }

    /// Calendar events (races and the like) and Garmin's public race catalogue.
    pub fn events(&self) -> EventsApi<'_> {
        EventsApi { client: self }
    }

    /// Gear and its usage.
    pub fn gear(&self) -> GearApi<'_> {
        GearApi { client: self }
    }

    /// Training status, readiness, VO2max, race predictions, scores, HR zones.
    pub fn metrics(&self) -> MetricsApi<'_> {
        MetricsApi { client: self }
    }

    /// The account's profile, settings and lifetime statistics.
    pub fn profile(&self) -> ProfileApi<'_> {
        ProfileApi { client: self }
    }

    /// Personal records.
    pub fn records(&self) -> RecordsApi<'_> {
        RecordsApi { client: self }
    }

    /// Connections and groups.
    pub fn social(&self) -> SocialApi<'_> {
        SocialApi { client: self }
    }

    /// Daily health: summary, heart rate, sleep, stress, Body Battery, HRV, steps, weight…
    pub fn wellness(&self) -> WellnessApi<'_> {
        WellnessApi { client: self }
    }

    /// Workouts: library, create/update/delete, schedule, send to a device.
    pub fn workouts(&self) -> WorkoutsApi<'_> {
        WorkoutsApi { client: self }
    }
}

/// `YYYY-MM-DD`.
pub(crate) fn ymd(date: NaiveDate) -> String {
    date.format("%Y-%m-%d").to_string()
}

/// Percent-encodes one path segment (displayNames may hold anything; Garmin wants them encoded).
/// Public for callers that read raw answers through [`Client::get_value`] (the local history).
pub fn segment(text: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

/// The account's displayName, encoded for a path; learned from the social profile (and saved in
/// the session) when the session does not know it.
pub(crate) async fn display_name(client: &Client) -> Result<String> {
    let known = client.display_name();
    if !known.is_empty() {
        return Ok(segment(&known));
    }
    Ok(segment(&client.verify().await?.display_name))
}

/// The account's numeric profile id, learned like [`display_name`] when unknown.
pub(crate) async fn profile_id(client: &Client) -> Result<u64> {
    if let Some(id) = client.profile_id() {
        return Ok(id);
    }
    client.verify().await?.profile_id.ok_or_else(|| Error::Decode {
        endpoint: "GET /gc-api/userprofile-service/socialProfile".into(),
        field: "profileId".into(),
        message: "missing".into(),
    })
}

/// An answer that must be there: "no data" becomes a decode error naming the endpoint.
pub(crate) fn required<T>(value: Option<T>, endpoint: &str) -> Result<T> {
    value.ok_or_else(|| Error::Decode {
        endpoint: endpoint.to_owned(),
        field: ".".into(),
        message: "empty answer where data was expected".into(),
    })
}

/// Rejects a reversed range before anything is sent.
pub(crate) fn check_range(start: NaiveDate, end: NaiveDate) -> Result<()> {
    if end < start {
        return Err(Error::InvalidInput(format!("the end date {end} is before the start date {start}")));
    }
    Ok(())
}

/// `POST /gc-api/graphql-gateway/graphql` `{"query": …}` and decode `data.<field>`; GraphQL's
/// `errors` (sent with HTTP 200) become [`Error::Rejected`].
pub(crate) async fn graphql<T: DeserializeOwned>(
    client: &Client,
    query: &str,
    field: &str,
) -> Result<Option<T>> {
    let path = "/graphql-gateway/graphql";
    let endpoint = format!("POST /gc-api{path} ({field})");
    let body = serde_json::json!({ "query": query });
    let Some(answer) = client.send_json::<_, serde_json::Value>(reqwest::Method::POST, path, &body).await?
    else {
        return Ok(None);
    };
    if let Some(errors) = answer.get("errors").and_then(|e| e.as_array()).filter(|e| !e.is_empty()) {
        let message = errors[0].get("message").and_then(|m| m.as_str()).unwrap_or("GraphQL error").to_owned();
        return Err(Error::Rejected { status: 200, endpoint, message });
    }
    let Some(part) = answer.pointer(&format!("/data/{field}")).filter(|v| !v.is_null()) else {
        return Ok(None);
    };
    serde_path_to_error::deserialize(part).map(Some).map_err(|e| Error::Decode {
        endpoint,
        field: e.path().to_string(),
        message: e.inner().to_string(),
    })
}

/// An answer that is a list on some accounts and a single object on others (an unexpected object
/// reads as one empty item, which callers filter out).
#[derive(Deserialize)]
#[serde(untagged)]
pub(crate) enum Many<T> {
    List(Vec<T>),
    One(T),
}

impl<T> Many<T> {
    pub(crate) fn into_vec(self) -> Vec<T> {
        match self {
            Many::List(items) => items,
            Many::One(item) => vec![item],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_segments_are_percent_encoded() {
        assert_eq!(segment("fake-athlete-1"), "fake-athlete-1");
        assert_eq!(segment("a b/ü"), "a%20b%2F%C3%BC");
    }
}
