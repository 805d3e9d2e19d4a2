//! One activity's parts for `get_activity` — its summary, laps, time in heart-rate zones, weather
//! and, on request, its recorded series — from whichever source serves each (see
//! [`crate::sources`]).
//!
//! * Web session only: Garmin's own JSON for each part, as before keys existed.
//! * With a Personal API key: the summary from the Personal API (E2); laps, series and time in
//!   zones from the original FIT file (E4), read by [`garmin::fit_series`] — the Personal
//!   API has none of them as JSON (docs/garmin-personal-api.md §5) — with the zone floors of E13;
//!   the weather only through the web session. When the FIT path fails (a manual activity has no
//!   file, a GPX upload's file is no FIT) and a web session exists, its JSON answers instead.

use garmin::Error;
use garmin::models::activities::{Activity, ActivityDetails, ActivitySplits, ActivityWeather, TimeInZone};
use garmin::models::downloads::OriginalFormat;
use garmin::models::metrics::HrZones;

use crate::domain::activity::Family;
use crate::sources::Reads;
use garmin::fit_series::{self, FitSeries};

/// What `get_activity` shapes, each part with its own outcome.
#[derive(Debug)]
pub struct ActivityParts {
    /// The activity's summary (the primary read: its failure fails the answer).
    pub activity: Result<Activity, Error>,
    /// Its laps.
    pub splits: Result<ActivitySplits, Error>,
    /// Its time in heart-rate zones.
    pub zones: Result<Vec<TimeInZone>, Error>,
    /// Its weather.
    pub weather: Result<Option<ActivityWeather>, Error>,
    /// Its recorded series, when asked for.
    pub details: Option<Result<Option<ActivityDetails>, Error>>,
}

/// Reads activity `id`'s parts; `series_rows` asks for the series (rows asked of Garmin's chart).
pub async fn gather(reads: &Reads, id: u64, series_rows: Option<u32>) -> ActivityParts {
    if !reads.has_key() {
        let (activity, weather, (splits, zones, details)) =
            futures::join!(reads.activity(id), reads.weather(id), web_parts(reads, id, series_rows));
        return ActivityParts { activity, splits, zones, weather, details };
    }
    let (activity, fit, floors, weather) =
        futures::join!(reads.activity(id), original_fit(reads, id), reads.hr_zones(), reads.weather(id));
    match fit {
        Ok(fit) => {
            let family = activity.as_ref().map_or(Family::Other, |a| {
                Family::of(a.type_key(), a.activity_type.as_ref().and_then(|t| t.parent_type_id))
            });
            let zones = floors
                .map(|sets| zone_floors(&sets, family).map(|f| fit.time_in_zones(f)).unwrap_or_default());
            ActivityParts {
                activity,
                splits: Ok(ActivitySplits { activity_id: Some(id), laps: fit.laps.clone() }),
                zones,
                weather,
                details: series_rows.map(|_| Ok(Some(fit.details()))),
            }
        }
        Err(e) if !reads.has_web() => ActivityParts {
            activity,
            splits: Err(clone_error(&e)),
            zones: Err(clone_error(&e)),
            weather,
            details: series_rows.map(|_| Err(e)),
        },
        Err(e) => {
            tracing::info!(
                "activity {id}: the original FIT file could not be used ({e}); asking the web session"
            );
            let (splits, zones, details) = web_parts(reads, id, series_rows).await;
            ActivityParts { activity, splits, zones, weather, details }
        }
    }
}

/// An activity's time in heart-rate zones from whichever source serves it: with a key, counted from
/// the original FIT file's heart rate with E13's floors for the sport (as [`gather`] does; the web
/// session answers when the file is not a usable FIT and a session exists); without one, Garmin's
/// `hrTimeInZones` through the web session. The `hr_zones` chart of one activity reads it.
pub async fn time_in_zones(reads: &Reads, id: u64) -> Result<Vec<TimeInZone>, Error> {
    if !reads.has_key() {
        return reads.hr_time_in_zones(id).await;
    }
    let (activity, fit, floors) =
        futures::join!(reads.activity(id), original_fit(reads, id), reads.hr_zones());
    match fit {
        Ok(fit) => {
            let activity = activity?;
            let family = Family::of(
                activity.type_key(),
                activity.activity_type.as_ref().and_then(|t| t.parent_type_id),
            );
            Ok(zone_floors(&floors?, family).map(|f| fit.time_in_zones(f)).unwrap_or_default())
        }
        Err(e) if !reads.has_web() => Err(e),
        Err(e) => {
            tracing::info!(
                "activity {id}: the original FIT file could not be used ({e}); asking the web session"
            );
            reads.hr_time_in_zones(id).await
        }
    }
}

/// Garmin's JSON parts through the web session: laps, zones and the series when asked for.
type WebParts = (
    Result<ActivitySplits, Error>,
    Result<Vec<TimeInZone>, Error>,
    Option<Result<Option<ActivityDetails>, Error>>,
);

/// The laps, zones and series from Garmin's JSON through the web session.
async fn web_parts(reads: &Reads, id: u64, series_rows: Option<u32>) -> WebParts {
    let details = async {
        match series_rows {
            Some(rows) => Some(reads.details(id, rows).await),
            None => None,
        }
    };
    futures::join!(reads.splits(id), reads.hr_time_in_zones(id), details)
}

/// The activity's original file read as FIT (off the runtime's threads: decoding is CPU work).
async fn original_fit(reads: &Reads, id: u64) -> Result<FitSeries, Error> {
    let original = reads.original_file(id).await?;
    if original.format != OriginalFormat::Fit {
        return Err(Error::InvalidInput(format!(
            "its original file is the {} file it was uploaded as, not a FIT recording",
            original.format.label()
        )));
    }
    let bytes = original.file.bytes;
    match tokio::task::spawn_blocking(move || fit_series::read(&bytes)).await {
        Ok(read) => read.map_err(Error::InvalidInput),
        Err(e) => Err(Error::InvalidInput(format!("reading the FIT file stopped unexpectedly ({e})"))),
    }
}

/// The zone floors (zone 1 first) for a sport: its own set (`RUNNING`, `CYCLING`…), else `DEFAULT`,
/// else the first complete one.
pub fn zone_floors(sets: &[HrZones], family: Family) -> Option<[f64; 5]> {
    let wanted = match family {
        Family::Run => "RUNNING",
        Family::Ride => "CYCLING",
        Family::Swim => "SWIMMING",
        _ => "DEFAULT",
    };
    HrZones::floors_for(sets, wanted)
}

/// The same failure for another part (errors are not `Clone`): its words, kept.
fn clone_error(e: &Error) -> Error {
    match e {
        Error::WebSignInNeeded { what } => Error::WebSignInNeeded { what: what.clone() },
        Error::NotFound { endpoint } => Error::NotFound { endpoint: endpoint.clone() },
        other => Error::InvalidInput(other.to_string()),
    }
}
