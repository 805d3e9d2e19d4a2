//! Garmin's race search (reference §4.10): `GET race-search/events` over the catalogue of
//! [`crate::data::races`], and `GET /calendar-service/race-events/providers`.
//!
//! The reference has one source for the search path and leaves open whether it lives under
//! `/gc-api` or at the bare path (open question 12), so the core mounts [`search_router`] at both,
//! behind the same auth gate. Filters: `searchPhrase` (case-insensitive substring of the name),
//! `fromDate`/`toDate` (inclusive), `poiLat`+`poiLon`+`withinMeters` (haversine from the start
//! point; all three or none), `includeInPerson`/`includeVirtual` (default true),
//! `verifiedStatuses` (comma list; absent = every status) and `limit` (1–200, default 200).
//! Answers are sorted by date, then name. Rows and providers have the real shapes of
//! docs/garmin-web-api.md §0 (a 2024 capture of a Go calendar client); a row says nothing of
//! in-person or virtual beyond having a place (`administrativeArea`, `locationStartPoint`) or not.

use std::collections::HashMap;

use axum::Router;
use axum::extract::State;
use axum::response::Response;
use axum::routing::get;
use chrono::NaiveDate;
use serde_json::{Value, json};

use super::{Obj, Query, Reject, bad_request, date, ok, read};
use crate::data::clock;
use crate::data::races::{PROVIDERS, Race, catalogue, haversine_m};
use crate::state::AppState;

/// Path of the search, relative to wherever it is mounted.
const SEARCH_PATH: &str = "/race-search/events";
/// Largest (and default) `limit`.
const MAX_LIMIT: usize = 200;

/// Both endpoints, for the `/gc-api` router.
pub(super) fn router() -> Router<AppState> {
    search_router().route("/calendar-service/race-events/providers", get(providers))
}

/// The search alone, for mounting at the bare path too.
pub(super) fn search_router() -> Router<AppState> {
    Router::new().route(SEARCH_PATH, get(search))
}

/// One race in the search's JSON shape: the row of docs/garmin-web-api.md §0 (a 2024 capture of
/// a Go calendar client: `provider` is a string, the place is `administrativeArea`, targets are
/// `{value, unit}`). The capture types `eventStartTime` loosely (probably `null` in it); the fake
/// sends the calendar's `{startTimeHhMm, timeZoneId}` form, or `null` when the listing has no time
/// `[I]`. `distanceToEvent` (metres from the searched point) only comes with a point search `[I]`.
fn race_json(r: &Race, poi: Option<(f64, f64)>) -> Value {
    let targets: Vec<Value> =
        r.targets.iter().map(|(value, unit)| json!({"value": value, "unit": unit})).collect();
    let area = r.city.map(|c| {
        json!({
            "countryCode": c.country_code,
            "cityEn": c.name,
            "stateEn": c.state,
            "cityNative": c.native(),
            "stateNative": c.state_native.unwrap_or(c.state),
            "nativeLocale": c.locale,
        })
    });
    let distance = poi.and_then(|p| r.start_point().map(|s| haversine_m(p, s).round() as u64));
    Obj::new()
        .set("provider", r.provider)
        .set("eventRef", r.event_ref.clone())
        .set("eventName", r.name.clone())
        .set("eventDate", clock::date(r.date))
        .set(
            "eventStartTime",
            r.start_hhmm.as_ref().map(|t| json!({"startTimeHhMm": t, "timeZoneId": r.zone})),
        )
        .set("eventUrl", r.url.clone())
        .set("registrationUrl", Value::Null)
        .set("completionTargets", targets)
        .set("locationStartPoint", r.start_point().map(|(lat, lon)| json!({"lat": lat, "lon": lon})))
        .set("eventType", r.event_type)
        .set("distanceToEvent", distance)
        .set("administrativeArea", area)
        .set("hasCourse", r.has_course)
        .set("verifiedStatus", r.status)
        .set("garminEventUuid", r.uuid.clone())
        .set("isOfficial", r.is_official())
        .build()
}

/// A parsed search.
#[derive(Debug)]
struct Filter {
    phrase: Option<String>,
    from: Option<NaiveDate>,
    to: Option<NaiveDate>,
    near: Option<((f64, f64), f64)>,
    in_person: bool,
    is_virtual: bool,
    statuses: Option<Vec<String>>,
    limit: usize,
}

impl Filter {
    fn parse(q: &HashMap<String, String>) -> Result<Self, Reject> {
        let from = q.get("fromDate").map(|s| date(s)).transpose()?;
        let to = q.get("toDate").map(|s| date(s)).transpose()?;
        if let (Some(f), Some(t)) = (from, to)
            && t < f
        {
            return Err(bad_request(format!("toDate {t} is before fromDate {f}")).into());
        }
        let near = match (number(q, "poiLat")?, number(q, "poiLon")?, number(q, "withinMeters")?) {
            (None, None, None) => None,
            (Some(lat), Some(lon), Some(m))
                if (-90.0..=90.0).contains(&lat) && (-180.0..=180.0).contains(&lon) && m > 0.0 =>
            {
                Some(((lat, lon), m))
            }
            (Some(_), Some(_), Some(_)) => {
                return Err(bad_request("poiLat, poiLon or withinMeters out of range").into());
            }
            _ => return Err(bad_request("poiLat, poiLon and withinMeters go together").into()),
        };
        let limit = match q.get("limit") {
            None => MAX_LIMIT,
            Some(v) => v
                .parse::<usize>()
                .map_err(|_| Reject::from(bad_request(format!("Invalid limit: {v}"))))?
                .clamp(1, MAX_LIMIT),
        };
        Ok(Self {
            phrase: q.get("searchPhrase").map(|s| s.trim().to_lowercase()).filter(|s| !s.is_empty()),
            from,
            to,
            near,
            in_person: flag(q, "includeInPerson")?,
            is_virtual: flag(q, "includeVirtual")?,
            statuses: q.get("verifiedStatuses").map(|s| {
                s.split(',').map(|x| x.trim().to_ascii_uppercase()).filter(|x| !x.is_empty()).collect()
            }),
            limit,
        })
    }

    fn keeps(&self, r: &Race) -> bool {
        self.phrase.as_ref().is_none_or(|p| r.name.to_lowercase().contains(p.as_str()))
            && self.from.is_none_or(|f| r.date >= f)
            && self.to.is_none_or(|t| r.date <= t)
            && self.near.is_none_or(|(poi, m)| r.start_point().is_some_and(|p| haversine_m(poi, p) <= m))
            && ((self.in_person && r.in_person) || (self.is_virtual && r.is_virtual))
            && self.statuses.as_ref().is_none_or(|s| s.iter().any(|x| x == r.status))
    }
}

/// An optional number parameter; 400 when present but not a number.
fn number(q: &HashMap<String, String>, key: &str) -> Result<Option<f64>, Reject> {
    match q.get(key) {
        None => Ok(None),
        Some(v) => match v.trim().parse::<f64>() {
            Ok(x) if x.is_finite() => Ok(Some(x)),
            _ => Err(bad_request(format!("Invalid {key}: {v}")).into()),
        },
    }
}

/// An optional `true`/`false` parameter, default true.
fn flag(q: &HashMap<String, String>, key: &str) -> Result<bool, Reject> {
    match q.get(key).map(|v| v.trim().to_ascii_lowercase()) {
        None => Ok(true),
        Some(v) if v == "true" => Ok(true),
        Some(v) if v == "false" => Ok(false),
        Some(v) => Err(bad_request(format!("Invalid {key}: {v}")).into()),
    }
}

/// `GET race-search/events?searchPhrase&poiLat&poiLon&withinMeters&fromDate&toDate`
/// `&includeInPerson&includeVirtual&verifiedStatuses&limit` (see the module doc).
async fn search(State(state): State<AppState>, q: Query) -> Response {
    let filter = match Filter::parse(&q) {
        Ok(f) => f,
        Err(e) => return e.into(),
    };
    let (seed, today) = {
        let d = read(&state);
        (d.seed, d.today)
    };
    let races = catalogue(seed, today);
    let poi = filter.near.map(|(p, _)| p);
    ok(Value::Array(
        races.iter().filter(|r| filter.keeps(r)).take(filter.limit).map(|r| race_json(r, poi)).collect(),
    ))
}

/// `GET /calendar-service/race-events/providers`
async fn providers() -> Response {
    ok(Value::Array(
        PROVIDERS
            .iter()
            .map(|p| {
                json!({
                    "eventsProviderKey": p.key,
                    "eventsProviderName": p.name,
                    "verifiedStatus": p.status,
                    "logoURL": p.logo_url,
                    "canMakeOfficial": p.can_make_official,
                })
            })
            .collect(),
    ))
}
