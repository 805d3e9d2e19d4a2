//! One activity's parts — its summary, laps, time in heart-rate zones, weather and recorded series —
//! each from the source the policy of [`crate::reads`] gives it:
//!
//! * laps, zone times and the recorded series: with a key, derived from the activity's original
//!   FIT file (a Personal API read), the zone floors being the athlete's set for the activity's
//!   type ([`HrZones::floors_for_type`]); Garmin's JSON (`splits`, `hrTimeInZones`, `details`)
//!   through the web session without a key, or when the file cannot answer (none, an upload that
//!   is no FIT);
//! * the summary as any typed read; the weather only through the web session;
//! * a strength activity's sets (`exerciseSets`, with the person's corrections) through the web
//!   session, asked only once the summary says the activity is strength training.
//!
//! One activity's FIT file is downloaded at most once per gathering.

use crate::models::activities::{
    Activity, ActivityDetails, ActivitySplits, ActivityWeather, ExerciseSets, TimeInZone,
};
use crate::models::downloads::OriginalFormat;
use crate::models::metrics::HrZones;

use super::{Garmin, Read, Served, ServedValue};
use crate::fit_series::{self, FitSeries};
use crate::{Error, Result};

/// Why an activity's original file gave no FIT series.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FitMiss {
    /// The original is the GPX or TCX file the activity was uploaded as.
    Uploaded(OriginalFormat),
    /// The FIT file could not be read (what is wrong with it).
    Unreadable(String),
}

impl FitMiss {
    /// The reason in words, as a failure of the parts that needed the file.
    pub fn error(&self) -> Error {
        Error::InvalidInput(match self {
            FitMiss::Uploaded(format) => {
                format!(
                    "its original file is the {} file it was uploaded as, not a FIT recording",
                    format.label()
                )
            }
            FitMiss::Unreadable(why) => why.clone(),
        })
    }
}

/// Which parts of an activity to read besides its summary, laps and zones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wanted {
    /// Its weather (web session only).
    pub weather: bool,
    /// Its recorded series, with this many rows asked of Garmin's chart.
    pub series_rows: Option<u32>,
    /// Its strength sets, when it is a strength activity (see [`records_sets`]).
    pub strength_sets: bool,
}

/// An activity's recorded samples as the reader found them.
#[derive(Clone, Debug)]
pub enum Recording {
    /// The original FIT file's (Personal API).
    Fit(FitSeries),
    /// Garmin's chart rows (web session); `None` when Garmin sent none.
    Details(Option<ActivityDetails>),
}

impl Recording {
    /// The samples as chart rows (the FIT file's shaped like Garmin's), when any.
    pub fn into_details(self) -> Option<ActivityDetails> {
        match self {
            Recording::Fit(fit) => Some(fit.details()),
            Recording::Details(details) => details,
        }
    }
}

/// One activity's parts, each with its own outcome (one failing part never sinks the others; only
/// the summary is essential to an answer).
#[derive(Debug)]
pub struct ActivityParts {
    /// The activity's summary.
    pub activity: Result<Activity>,
    /// Its laps.
    pub splits: Result<ActivitySplits>,
    /// Its time in heart-rate zones.
    pub zones: Result<Vec<TimeInZone>>,
    /// Its weather, when wanted.
    pub weather: Option<Result<Option<ActivityWeather>>>,
    /// Its recorded samples, when wanted.
    pub recording: Option<Result<Served<Recording>>>,
    /// Its strength sets, when wanted and the activity is strength training (`Ok(None)`: Garmin
    /// keeps none for it).
    pub strength_sets: Option<Result<Option<ExerciseSets>>>,
}

/// Whether Garmin keeps sets for `activity` (`exerciseSets`): strength training, by its type key.
pub fn records_sets(activity: &Activity) -> bool {
    activity.type_key() == Some("strength_training")
}

/// The activity type ids of a summary (for its zone set): its type id and parent type id.
pub fn parts_family(activity: &Activity) -> (Option<i64>, Option<i64>) {
    let t = activity.activity_type.as_ref();
    (t.and_then(|t| t.type_id), t.and_then(|t| t.parent_type_id))
}

/// One activity as its parts are gathered: its summary and its FIT file, each read on first need
/// and shared by every part (one request each at most).
struct OneActivity<'a> {
    reader: &'a Garmin,
    id: u64,
    summary: tokio::sync::OnceCell<Result<Activity>>,
    fit: tokio::sync::OnceCell<Result<FitSeries>>,
}

impl<'a> OneActivity<'a> {
    fn new(reader: &'a Garmin, id: u64) -> Self {
        OneActivity { reader, id, summary: tokio::sync::OnceCell::new(), fit: tokio::sync::OnceCell::new() }
    }

    /// The summary (any source).
    async fn summary(&self) -> Result<&Activity> {
        let read = self.summary.get_or_init(|| async { self.reader.activity(self.id).await.value() }).await;
        read.as_ref().map_err(again)
    }

    /// The FIT series through the Personal API, or why there is none (a Garmin failure, or a file
    /// that is no usable FIT).
    async fn fit(&self) -> Result<&FitSeries> {
        let read = self
            .fit
            .get_or_init(|| async {
                match self.reader.personal_fit(self.id).await {
                    Ok(Served { value: Ok(fit), .. }) => Ok(fit),
                    Ok(Served { value: Err(miss), .. }) => Err(miss.error()),
                    Err(e) => Err(e),
                }
            })
            .await;
        read.as_ref().map_err(again)
    }
}

/// The same failure again for another part (errors are not `Clone`): its kind kept where the
/// callers branch on it, its words otherwise.
fn again(e: &Error) -> Error {
    match e {
        Error::WebSignInNeeded { what } => Error::WebSignInNeeded { what: what.clone() },
        Error::NotFound { endpoint } => Error::NotFound { endpoint: endpoint.clone() },
        Error::NoContent { endpoint } => Error::NoContent { endpoint: endpoint.clone() },
        Error::RateLimited { retry_after } => Error::RateLimited { retry_after: *retry_after },
        Error::ApiKeyRejected { reason } => Error::ApiKeyRejected { reason: reason.clone() },
        Error::Forbidden { kind, endpoint, message } => {
            Error::Forbidden { kind: *kind, endpoint: endpoint.clone(), message: message.clone() }
        }
        Error::HeldBack { reason } => Error::HeldBack { reason: reason.clone() },
        other => Error::InvalidInput(other.to_string()),
    }
}

impl Garmin {
    /// The activity's original file through the Personal API, read as FIT (decoding off the
    /// runtime's threads: it is CPU work). The inner `Err` is a file that is no usable FIT; the
    /// outer one Garmin's failure (without a key: none to ask).
    pub async fn personal_fit(&self, id: u64) -> Result<Served<std::result::Result<FitSeries, FitMiss>>> {
        let original = self
            .serve(
                Read::new("an activity's original FIT file through the Personal API")
                    .personal(move |p| Box::pin(p.original_file(id))),
            )
            .await?;
        let source = original.source;
        if original.value.format != OriginalFormat::Fit {
            return Ok(Served { value: Err(FitMiss::Uploaded(original.value.format)), source });
        }
        let bytes = original.value.file.bytes;
        let read = match tokio::task::spawn_blocking(move || fit_series::read(&bytes)).await {
            Ok(read) => read.map_err(FitMiss::Unreadable),
            Err(e) => Err(FitMiss::Unreadable(format!("reading the FIT file stopped unexpectedly ({e})"))),
        };
        Ok(Served { value: read, source })
    }

    /// Activity `id`'s summary, laps and zones, and what `wanted` asks besides (`get_activity`
    /// and the activity charts), read concurrently; its FIT file at most once.
    pub async fn activity_parts(&self, id: u64, wanted: Wanted) -> ActivityParts {
        let one = OneActivity::new(self, id);
        let weather = async {
            match wanted.weather {
                true => Some(self.weather(id).await.value()),
                false => None,
            }
        };
        let recording = async {
            match wanted.series_rows {
                Some(rows) => Some(self.recording_of(&one, rows, true).await),
                None => None,
            }
        };
        let strength_sets = async {
            match one.summary().await {
                Ok(activity) if wanted.strength_sets && records_sets(activity) => {
                    Some(self.exercise_sets(id).await.value())
                }
                _ => None,
            }
        };
        let (activity, weather, splits, zones, recording, strength_sets) = futures::join!(
            async { one.summary().await.cloned() },
            weather,
            self.laps_of(&one),
            self.zones_of(&one),
            recording,
            strength_sets
        );
        let (splits, zones) = (splits.value(), zones.value());
        ActivityParts { activity, splits, zones, weather, recording, strength_sets }
    }

    /// An activity's time in heart-rate zones (the `hr_zones` chart of one activity).
    pub async fn time_in_zones(&self, id: u64) -> Result<Served<Vec<TimeInZone>>> {
        self.zones_of(&OneActivity::new(self, id)).await
    }

    /// Laps: from the FIT file with a key, else Garmin's through the web session.
    async fn laps_of(&self, one: &OneActivity<'_>) -> Result<Served<ActivitySplits>> {
        let id = one.id;
        self.serve(
            Read::new("the activity's laps as Garmin computed them")
                .personal(move |_| {
                    Box::pin(async move {
                        Ok(ActivitySplits { activity_id: Some(id), laps: one.fit().await?.laps.clone() })
                    })
                })
                .web(move |w| Box::pin(async move { w.activities().splits(id).await }))
                .derived_personal(),
        )
        .await
    }

    /// Time in zones: with a key counted from the FIT file's heart rate with the floors of the
    /// activity type's zone set, else Garmin's through the web session.
    async fn zones_of(&self, one: &OneActivity<'_>) -> Result<Served<Vec<TimeInZone>>> {
        let id = one.id;
        self.serve(
            Read::new("the activity's time in zones as Garmin computed it")
                .web(move |w| Box::pin(async move { w.activities().hr_time_in_zones(id).await }))
                .personal(move |_| {
                    Box::pin(async move {
                        let (fit, sets, summary) = futures::join!(one.fit(), self.zone_sets(), one.summary());
                        let (fit, sets) = (fit?, sets?);
                        let (type_id, parent) = summary.map(parts_family).unwrap_or_default();
                        let floors = HrZones::floors_for_type(sets, type_id, parent);
                        Ok(floors.map(|f| fit.time_in_zones(f)).unwrap_or_default())
                    })
                })
                .derived_personal(),
        )
        .await
    }

    /// The recorded samples: the FIT file first (a Personal API read), else Garmin's chart rows.
    async fn recording_of(&self, one: &OneActivity<'_>, rows: u32, track: bool) -> Result<Served<Recording>> {
        let id = one.id;
        self.serve(
            Read::new("the activity's recorded series as Garmin charts it")
                .personal(move |_| Box::pin(async move { Ok(Recording::Fit(one.fit().await?.clone())) }))
                .web(move |w| {
                    Box::pin(
                        async move { Ok(Recording::Details(w.activities().series(id, rows, track).await?)) },
                    )
                })
                .derived_personal(),
        )
        .await
    }
}
