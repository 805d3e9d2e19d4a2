//! Where a tool's reads come from: Garmin's official Personal API (a saved key,
//! docs/garmin-personal-api.md) or the Garmin Connect web session. One home for the choice, so the
//! tools only swap `client.wellness()` / `client.activities()` for [`Reads`]:
//!
//! * with a key, each read the Personal API serves goes there first; when it fails for a reason
//!   other than a refused key and a web session exists, the web session answers instead;
//! * only a key: those reads work, the others fail with [`garmin::Error::WebSignInNeeded`];
//! * only a web session: every read goes there, as before keys existed;
//! * a read whose Personal API answer is thinner than the web's (a night's sleep stages) goes to
//!   the web session first.
//!
//! Which source served each call is recorded per tool call ([`recording`]) and put in the
//! answer's `_meta` by the server ([`meta`]).

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use chrono::NaiveDate;
use garmin::api::ActivitySearch;
use garmin::models::activities::{
    Activity, ActivityDetails, ActivitySplits, ActivitySummary, ActivityWeather, TimeInZone,
};
use garmin::models::common::DatedValue;
use garmin::models::downloads::{DownloadedFile, ExportFormat, OriginalFile};
use garmin::models::metrics::{FitnessAge, HrZones};
use garmin::models::profile::ProfileSettings;
use garmin::models::wellness::{
    BloodPressureRange, BodyBatteryReport, DailyStress, DailySummary, Hrv, HrvSummary, Hydration,
    IntensityMinutesDay, Sleep, SleepStatsDay, Spo2, StepsDay, StressDay, WeightRange,
};
use garmin::{Client, Error, PersonalClient};
use serde::Serialize;

/// The tools whose reads the Personal API serves (status, the tool check and the README say so).
pub const PERSONAL_API_TOOLS: &[&str] = &[
    "list_activities",
    "get_activity",
    "export_activity",
    "render_chart",
    "get_daily_health",
    "get_period_stats",
];
/// The `_meta` key of an answer's source.
pub const META_KEY: &str = "garmin_mcp/source";

/// A source of Garmin data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// Garmin's official Personal API, through the saved key.
    PersonalApi,
    /// The Garmin Connect web session.
    WebSession,
}

impl Source {
    fn words(self) -> &'static str {
        match self {
            Source::PersonalApi => "Garmin's official Personal API",
            Source::WebSession => "the Garmin Connect web session",
        }
    }
}

tokio::task_local! {
    static SERVED: Arc<Mutex<BTreeSet<Source>>>;
}

/// Runs one tool call, returning its result and the sources its reads used.
pub async fn recording<F: Future>(call: F) -> (F::Output, BTreeSet<Source>) {
    let served = Arc::new(Mutex::new(BTreeSet::new()));
    let out = SERVED.scope(served.clone(), call).await;
    let set = served.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clone();
    (out, set)
}

/// Notes that the current tool call used the web session directly (a web-only tool).
pub fn note_web_session() {
    note(Source::WebSession);
}

/// Notes the sources a history sync used (its report names them), for the answer's `_meta`.
pub fn note_sync_sources(served: &BTreeSet<history::Served>) {
    for s in served {
        note(match s {
            history::Served::PersonalApi => Source::PersonalApi,
            history::Served::WebSession => Source::WebSession,
        });
    }
}

fn note(source: Source) {
    let _ = SERVED.try_with(|s| s.lock().unwrap_or_else(std::sync::PoisonError::into_inner).insert(source));
}

/// The `_meta` value naming the sources: `{"sources": [...], "phrase": "...", "note": ...}`;
/// `None` when no Garmin read was made.
pub fn meta(sources: &BTreeSet<Source>, note: Option<&str>) -> Option<serde_json::Value> {
    if sources.is_empty() {
        return None;
    }
    let words: Vec<&str> = sources.iter().map(|s| s.words()).collect();
    let phrase = format!("Served by {}.", words.join(" and "));
    let mut value = serde_json::json!({ "sources": sources, "phrase": phrase });
    if let (Some(note), Some(obj)) = (note, value.as_object_mut()) {
        obj.insert("note".to_owned(), serde_json::Value::String(note.to_owned()));
    }
    Some(value)
}

/// The reads of one tool, from whichever source can serve each.
#[derive(Clone, Debug)]
pub struct Reads {
    personal: Option<PersonalClient>,
    web: Option<Client>,
}

/// Tries the Personal API, then the web session (see the module doc).
macro_rules! personal_first {
    ($self:ident, $p:ident => $personal:expr, $w:ident => $web:expr) => {{
        if let Some($p) = &$self.personal {
            match $personal.await {
                Ok(value) => {
                    note(Source::PersonalApi);
                    return Ok(value);
                }
                Err(e) if $self.web.is_none() || matches!(e, Error::ApiKeyRejected { .. }) => return Err(e),
                Err(e) => tracing::info!("Personal API read failed ({e}); asking the web session"),
            }
        }
        let $w = $self.web("this tool's data")?;
        let value = $web.await?;
        note(Source::WebSession);
        Ok(value)
    }};
}

/// Only the web session serves it.
macro_rules! web_only {
    ($self:ident, $what:literal, $w:ident => $web:expr) => {{
        let $w = $self.web($what)?;
        let value = $web.await?;
        note(Source::WebSession);
        Ok(value)
    }};
}

impl Reads {
    /// Reads from a key client and/or a web client (at least one).
    pub fn new(personal: Option<PersonalClient>, web: Option<Client>) -> Reads {
        Reads { personal, web }
    }

    fn web(&self, what: &str) -> Result<&Client, Error> {
        self.web.as_ref().ok_or_else(|| Error::WebSignInNeeded { what: what.to_owned() })
    }

    /// True when a Personal API key is in use: reads it serves go there first.
    pub fn has_key(&self) -> bool {
        self.personal.is_some()
    }

    /// True when a web session is there to ask.
    pub fn has_web(&self) -> bool {
        self.web.is_some()
    }

    /// One activity's summary.
    pub async fn activity(&self, id: u64) -> Result<Activity, Error> {
        personal_first!(self, p => p.activity(id), w => w.activities().get(id))
    }

    /// The activity's original file (FIT, or the GPX/TCX it was uploaded as).
    pub async fn original_file(&self, id: u64) -> Result<OriginalFile, Error> {
        personal_first!(self, p => p.original_file(id), w => w.downloads().activity_original(id))
    }

    /// Garmin's conversion of an activity to GPX, TCX, KML or CSV (web session only: the Personal
    /// API serves only the original file).
    pub async fn export(&self, id: u64, format: ExportFormat) -> Result<Option<DownloadedFile>, Error> {
        web_only!(self, "Garmin's GPX/TCX/KML/CSV conversion of an activity (the original FIT file works with the key alone)", w => w.downloads().export(id, format))
    }

    /// Heart-rate zone floors per sport.
    pub async fn hr_zones(&self) -> Result<Vec<HrZones>, Error> {
        personal_first!(self, p => p.hr_zones(), w => w.metrics().hr_zones())
    }

    /// The day's blood oxygen.
    pub async fn spo2(&self, date: NaiveDate) -> Result<Option<Spo2>, Error> {
        personal_first!(self, p => p.spo2(date), w => w.wellness().spo2(date))
    }

    /// Fitness age on a day.
    pub async fn fitness_age(&self, date: NaiveDate) -> Result<Option<FitnessAge>, Error> {
        personal_first!(self, p => p.fitness_age(date), w => w.metrics().fitness_age(date))
    }

    /// Locale, units and time zone.
    pub async fn settings(&self) -> Result<ProfileSettings, Error> {
        personal_first!(self, p => p.settings(), w => w.profile().settings())
    }

    /// An activity's laps (web session only: the Personal API's come from the FIT file).
    pub async fn splits(&self, id: u64) -> Result<ActivitySplits, Error> {
        web_only!(self, "the activity's laps as Garmin computed them", w => w.activities().splits(id))
    }

    /// An activity's time in heart-rate zones (web session only).
    pub async fn hr_time_in_zones(&self, id: u64) -> Result<Vec<TimeInZone>, Error> {
        web_only!(self, "the activity's time in zones as Garmin computed it", w => w.activities().hr_time_in_zones(id))
    }

    /// The weather during an activity (web session only: not in the Personal API).
    pub async fn weather(&self, id: u64) -> Result<Option<ActivityWeather>, Error> {
        web_only!(self, "the weather of an activity", w => w.activities().weather(id))
    }

    /// An activity's chart rows (web session only).
    pub async fn details(&self, id: u64, rows: u32) -> Result<Option<ActivityDetails>, Error> {
        web_only!(self, "the activity's recorded series as Garmin charts it", w => w.activities().details(id, rows))
    }

    /// One page of the activity search.
    pub async fn search(&self, search: &ActivitySearch) -> Result<Vec<ActivitySummary>, Error> {
        personal_first!(self, p => p.search_activities(search), w => w.activities().search(search))
    }

    /// Every page of the activity search.
    pub async fn search_all(&self, search: &ActivitySearch) -> Result<Vec<ActivitySummary>, Error> {
        personal_first!(self, p => p.search_all_activities(search), w => w.activities().search_all(search))
    }

    /// The day in numbers.
    pub async fn daily_summary(&self, date: NaiveDate) -> Result<Option<DailySummary>, Error> {
        personal_first!(self, p => p.daily_summary(date), w => w.wellness().daily_summary(date))
    }

    /// The night ending on `date`; with `stages`, the stage timeline too (web session first: the
    /// Personal API has no stages).
    pub async fn sleep(&self, date: NaiveDate, stages: bool) -> Result<Option<Sleep>, Error> {
        if stages && let Some(w) = &self.web {
            let value = w.wellness().sleep(date).await?;
            note(Source::WebSession);
            return Ok(value);
        }
        personal_first!(self, p => p.sleep(date), w => w.wellness().sleep(date))
    }

    /// One night's HRV.
    pub async fn hrv(&self, date: NaiveDate) -> Result<Option<Hrv>, Error> {
        personal_first!(self, p => p.hrv(date), w => w.wellness().hrv(date))
    }

    /// Weigh-ins of a range.
    pub async fn weight_range(&self, start: NaiveDate, end: NaiveDate) -> Result<WeightRange, Error> {
        personal_first!(self, p => p.weight_range(start, end), w => w.wellness().weight_range(start, end))
    }

    /// One day's water.
    pub async fn hydration(&self, date: NaiveDate) -> Result<Option<Hydration>, Error> {
        personal_first!(self, p => p.hydration(date), w => w.wellness().hydration(date))
    }

    /// Stress per day.
    pub async fn stress_daily(&self, start: NaiveDate, end: NaiveDate) -> Result<Vec<StressDay>, Error> {
        personal_first!(self, p => p.stress_daily(start, end), w => w.wellness().stress_daily(start, end))
    }

    /// Steps per day.
    pub async fn steps_daily(&self, start: NaiveDate, end: NaiveDate) -> Result<Vec<StepsDay>, Error> {
        personal_first!(self, p => p.steps_daily(start, end), w => w.wellness().steps_daily(start, end))
    }

    /// Resting heart rate per day.
    pub async fn resting_heart_rate(
        &self,
        start: NaiveDate,
        end: NaiveDate,
    ) -> Result<Vec<DatedValue>, Error> {
        personal_first!(self, p => p.resting_heart_rate(start, end), w => w.wellness().resting_heart_rate(start, end))
    }

    /// Per-night sleep figures.
    pub async fn sleep_stats(&self, start: NaiveDate, end: NaiveDate) -> Result<Vec<SleepStatsDay>, Error> {
        personal_first!(self, p => p.sleep_stats(start, end), w => w.wellness().sleep_stats(start, end))
    }

    /// Body Battery per day.
    pub async fn body_battery(
        &self,
        start: NaiveDate,
        end: NaiveDate,
    ) -> Result<Vec<BodyBatteryReport>, Error> {
        personal_first!(self, p => p.body_battery(start, end), w => w.wellness().body_battery(start, end))
    }

    /// Nightly HRV summaries.
    pub async fn hrv_range(&self, start: NaiveDate, end: NaiveDate) -> Result<Vec<HrvSummary>, Error> {
        personal_first!(self, p => p.hrv_range(start, end), w => w.wellness().hrv_range(start, end))
    }

    /// Intensity minutes (web session only).
    pub async fn intensity_minutes(&self, date: NaiveDate) -> Result<Option<IntensityMinutesDay>, Error> {
        web_only!(self, "the intensity-minutes count", w => w.wellness().intensity_minutes(date))
    }

    /// Blood pressure (web session only).
    pub async fn blood_pressure(
        &self,
        start: NaiveDate,
        end: NaiveDate,
    ) -> Result<BloodPressureRange, Error> {
        web_only!(self, "the blood-pressure log", w => w.wellness().blood_pressure(start, end))
    }

    /// The day's stress and Body Battery series (web session only).
    pub async fn stress(&self, date: NaiveDate) -> Result<Option<DailyStress>, Error> {
        web_only!(self, "the day's stress and Body Battery timeline", w => w.wellness().stress(date))
    }
}
