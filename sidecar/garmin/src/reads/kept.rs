//! What the local history keeps: Garmin's JSON exactly as the source sent it, beside the typed value
//! the history's columns are filled from ([`Raw`]), read for one block of days at a time (every
//! range here is within each endpoint's cap: the history's blocks are 28 days, the Personal API's
//! smallest cap 31, `docs/garmin-personal-api.md` §4.2).
//!
//! "Garmin has nothing here" stays a typed answer: a range Garmin answers 404 or 204 for (an account
//! whose devices record no sleep, HRV or weight) is [`Error::NotFound`] or [`Error::NoContent`], and
//! within a combined read (an activity's laps and zones) a part Garmin has nothing for is `None`.

use chrono::NaiveDate;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::{Garmin, Read, Served, Source};
use crate::api::{SERIES_ROWS, paths, ymd};
use crate::fit_series::FitSeries;
use crate::models::activities::{
    ActivityDetails, ActivitySplits, ActivitySummary, ActivityType, ExerciseSets, TimeInZone,
};
use crate::models::metrics::{
    EnduranceScoreRange, HealthStatus, HillScoreRange, HrZones, RunningTolerance, TrainingReadiness,
    TrainingStatus,
};
use crate::models::wellness::{DailySleep, DailySummary, DailyWeightSummary, HrvSummary, SleepStatsDay};
use crate::{Client, Error, PersonalClient, Result};

/// Garmin's largest page for the activity search (the walk's page size).
const PAGE: u32 = 1000;

/// A record as Garmin sent it (`json`, kept so nothing is lost when we learn to read more) and
/// typed (`value`). A record the model cannot read keeps its JSON and a default value.
#[derive(Clone, Debug, PartialEq)]
pub struct Raw<T> {
    /// The JSON as the source sent it.
    pub json: Value,
    /// The same, typed.
    pub value: T,
}

impl<T: DeserializeOwned + Default> Raw<T> {
    /// `json` with its typed reading.
    pub fn of(json: Value) -> Raw<T> {
        let value = T::deserialize(&json).unwrap_or_default();
        Raw { json, value }
    }
}

impl<T: serde::Serialize> Raw<T> {
    /// A record we derived (from a FIT file): its JSON is its typed value written out.
    pub fn derived(value: T) -> Raw<T> {
        Raw { json: serde_json::to_value(&value).unwrap_or(Value::Null), value }
    }
}

/// The rows at `pointer` of an answer (`""` for an answer that is the list itself).
fn rows<T: DeserializeOwned + Default>(answer: &Value, pointer: &str) -> Vec<Raw<T>> {
    answer.pointer(pointer).and_then(Value::as_array).into_iter().flatten().cloned().map(Raw::of).collect()
}

/// The web session's JSON at `path`; "no content" is [`Error::NoContent`].
async fn web_json(client: &Client, path: &str, query: &[(&str, String)]) -> Result<Value> {
    client
        .get_value(path, query)
        .await?
        .ok_or_else(|| Error::NoContent { endpoint: format!("GET /gc-api{path}") })
}

/// The Personal API's JSON at `path`; "no content" is [`Error::NoContent`].
async fn personal_json(client: &PersonalClient, path: &str, query: &[(&str, String)]) -> Result<Value> {
    client
        .get_value(path, query)
        .await?
        .ok_or_else(|| Error::NoContent { endpoint: format!("GET {path} (Personal API)") })
}

/// `Ok(None)` for Garmin's "nothing here" (404, no content, Garmin's own 403): a part of a combined
/// read that Garmin has nothing for.
fn or_nothing<T>(read: Result<T>) -> Result<Option<T>> {
    match read {
        Ok(value) => Ok(Some(value)),
        Err(e) if e.means_nothing_there() => Ok(None),
        Err(e) => Err(e),
    }
}

/// An activity's laps and heart-rate zone times, as the history keeps them.
#[derive(Debug)]
pub enum KeptLaps {
    /// Garmin's own (web session); `None` where Garmin has none.
    Garmin {
        /// `…/splits`.
        splits: Option<Raw<ActivitySplits>>,
        /// `…/hrTimeInZones`.
        zones: Option<Raw<Vec<TimeInZone>>>,
    },
    /// Derived from the activity's original FIT file (Personal API), with the recorded series it
    /// gave; `None` when the activity has no FIT recording (entered by hand, uploaded as GPX/TCX,
    /// unreadable).
    Fit(Option<FitParts>),
}

/// What one FIT file gives the history.
#[derive(Debug)]
pub struct FitParts {
    /// Its laps.
    pub splits: Raw<ActivitySplits>,
    /// Its time in the zones of the activity type's set (`None` without zone floors).
    pub zones: Option<Raw<Vec<TimeInZone>>>,
    /// Its samples as chart rows (for the best-effort curves).
    pub series: ActivityDetails,
}

impl FitParts {
    fn of(id: u64, fit: &FitSeries, sets: &[HrZones], types: (Option<i64>, Option<i64>)) -> FitParts {
        let floors = HrZones::floors_for_type(sets, types.0, types.1);
        let zones = floors.map(|f| fit.time_in_zones(f)).filter(|z| !z.is_empty());
        FitParts {
            splits: Raw::derived(ActivitySplits { activity_id: Some(id), laps: fit.laps.clone() }),
            zones: zones.map(Raw::derived),
            series: fit.details(),
        }
    }
}

impl Garmin {
    /// Every activity type (web session only), for "running includes trail runs".
    pub async fn kept_activity_types(&self) -> Result<Served<Vec<Raw<ActivityType>>>> {
        self.serve(
            Read::new("the activity types list").web(|w| {
                Box::pin(async move { Ok(rows(&web_json(w, paths::ACTIVITY_TYPES, &[]).await?, "")) })
            }),
        )
        .await
    }

    /// Every activity of `start..=end` as Garmin lists it, walking pages of Garmin's largest size
    /// one after the other until a short page; each page is one read (the Personal API first). The
    /// source is the last page's.
    pub async fn kept_activities(
        &self,
        start: NaiveDate,
        end: NaiveDate,
    ) -> Result<Served<Vec<Raw<ActivitySummary>>>> {
        let mut all = Vec::new();
        let mut source = Source::WebSession;
        let mut offset = 0u32;
        loop {
            let query = vec![
                ("start", offset.to_string()),
                ("limit", PAGE.to_string()),
                ("startDate", ymd(start)),
                ("endDate", ymd(end)),
            ];
            let (pq, wq) = (query.clone(), query);
            let page = self
                .serve(
                    Read::new("the activity list")
                        .personal(move |p| {
                            Box::pin(async move { personal_json(p, paths::ACTIVITY_SEARCH, &pq).await })
                        })
                        .web(move |w| {
                            Box::pin(async move { web_json(w, paths::ACTIVITY_SEARCH, &wq).await })
                        }),
                )
                .await;
            // An empty page may come as "no content": the list simply ends.
            let page = match page {
                Ok(page) => page,
                Err(Error::NoContent { .. }) => break,
                Err(e) => return Err(e),
            };
            source = page.source;
            let rows: Vec<Raw<ActivitySummary>> = rows(&page.value, "");
            let got = u32::try_from(rows.len()).unwrap_or(u32::MAX);
            all.extend(rows);
            if got < PAGE {
                break;
            }
            offset = offset.saturating_add(got);
        }
        Ok(Served { value: all, source })
    }

    /// An activity's laps and zone times as the history keeps them: Garmin's own JSON through the
    /// web session when there is one (two requests: the history keeps what Garmin sent, so this
    /// read asks the web first), else derived from its original FIT file (one request, which gives
    /// the series too) with the zone floors of its type (`type_id`, `parent_type_id`).
    pub async fn kept_laps(
        &self,
        id: u64,
        type_id: Option<i64>,
        parent_type_id: Option<i64>,
    ) -> Result<Served<KeptLaps>> {
        self.serve(
            Read::new("an activity's laps")
                .web(move |w| {
                    Box::pin(async move {
                        let (splits_path, zones_path) = (paths::splits(id), paths::hr_time_in_zones(id));
                        let (splits, zones) =
                            futures::join!(web_json(w, &splits_path, &[]), web_json(w, &zones_path, &[]));
                        Ok(KeptLaps::Garmin {
                            splits: or_nothing(splits)?.map(Raw::of),
                            zones: or_nothing(zones)?.map(Raw::of),
                        })
                    })
                })
                .personal(move |_| {
                    Box::pin(async move {
                        let fit = match or_nothing(self.personal_fit(id).await)? {
                            Some(Served { value: Ok(fit), .. }) => fit,
                            _ => return Ok(KeptLaps::Fit(None)),
                        };
                        let sets = match self.zone_sets().await {
                            Ok(sets) => sets,
                            Err(e)
                                if super::must_answer_at_once(&e)
                                    || matches!(e, Error::RateLimited { .. }) =>
                            {
                                return Err(e);
                            }
                            Err(_) => &[],
                        };
                        Ok(KeptLaps::Fit(Some(FitParts::of(id, &fit, sets, (type_id, parent_type_id)))))
                    })
                })
                .web_first()
                .cost(2)
                .derived_personal(),
        )
        .await
    }

    /// A strength activity's sets as Garmin keeps them, with the person's corrections (web session
    /// only: the Personal API serves the FIT file, whose sets keep the watch's raw guesses); `None`
    /// when Garmin keeps none for it (`exerciseSets: null`, 404, no content).
    pub async fn kept_exercise_sets(&self, id: u64) -> Result<Served<Option<Raw<ExerciseSets>>>> {
        self.serve(Read::new("the sets of a strength activity").web(move |w| {
            Box::pin(async move {
                let answer = or_nothing(web_json(w, &paths::exercise_sets(id), &[]).await)?;
                Ok(answer
                    .filter(|json| json.get("exerciseSets").is_some_and(|sets| !sets.is_null()))
                    .map(Raw::of))
            })
        }))
        .await
    }

    /// An activity's recorded series for its best-effort curves: its FIT file first (a Personal
    /// API read), else Garmin's chart rows without the track; `None` when there is none.
    pub async fn kept_series(&self, id: u64) -> Result<Served<Option<ActivityDetails>>> {
        self.serve(
            Read::new("an activity's recorded series")
                .personal(move |_| {
                    Box::pin(async move {
                        // No file, or one that is no usable FIT: the activity has no series to
                        // reduce (an answer, not a reason to ask the web for its chart rows).
                        match or_nothing(self.personal_fit(id).await)? {
                            Some(Served { value: Ok(fit), .. }) => Ok(Some(fit.details())),
                            _ => Ok(None),
                        }
                    })
                })
                .web(move |w| Box::pin(async move { w.activities().series(id, SERIES_ROWS, false).await }))
                .derived_personal(),
        )
        .await
    }

    /// The daily summaries of `first..=last` in one Personal API request (E6), each day with its
    /// row (`None` when the day has none). `Ok(None)`: the Personal API cannot answer (no key,
    /// paused, or failed with a web session to ask), so the web session answers day by day
    /// ([`Garmin::kept_day_summary`]).
    pub async fn kept_day_summaries(
        &self,
        first: NaiveDate,
        last: NaiveDate,
    ) -> Result<Option<Served<Vec<(NaiveDate, Option<Raw<DailySummary>>)>>>> {
        if !self.has_key() {
            return Ok(None);
        }
        let query = vec![("startDate", ymd(first)), ("endDate", ymd(last))];
        let read = self
            .serve(
                Read::new("the daily summaries")
                    .personal(move |p| {
                        Box::pin(async move {
                            let answer = personal_json(p, paths::DAILY_SUMMARIES, &query).await?;
                            Ok(Some(day_rows(&answer, first, last)))
                        })
                    })
                    .web(|_| Box::pin(async { Ok(None) }))
                    .cost(1)
                    .derived_web(),
            )
            .await?;
        Ok(read.value.map(|rows| Served { value: rows, source: Source::PersonalApi }))
    }

    /// One day's daily summary through the web session (`None`: Garmin has nothing that day).
    pub async fn kept_day_summary(&self, day: NaiveDate) -> Result<Served<Option<Raw<DailySummary>>>> {
        let name = match self.web.as_ref() {
            Some(w) => crate::api::display_name(w).await?,
            None => String::new(),
        };
        self.serve(Read::new("the daily summary").web(move |w| {
            Box::pin(async move {
                let answer = w.get_value(&paths::daily_summary(&name), &[("calendarDate", ymd(day))]).await?;
                Ok(answer.map(Raw::of))
            })
        }))
        .await
    }

    /// The nights of `start..=end` (at most a block), each night's JSON as the source sent it with
    /// the web's per-night figures: the Personal API's nights (E11) or the web's sleep stats.
    pub async fn kept_sleep(
        &self,
        start: NaiveDate,
        end: NaiveDate,
    ) -> Result<Served<Vec<Raw<SleepStatsDay>>>> {
        let query = vec![("startDate", ymd(start)), ("endDate", ymd(end))];
        self.serve(
            Read::new("the sleep nights")
                .personal(move |p| {
                    Box::pin(async move {
                        let answer = personal_json(p, paths::SLEEP_NIGHTS, &query).await?;
                        Ok(rows::<DailySleep>(&answer, "")
                            .into_iter()
                            .filter(|n| n.value.has_data())
                            .map(|n| Raw { value: n.value.stats_day(), json: n.json })
                            .collect())
                    })
                })
                .web(move |w| {
                    Box::pin(async move {
                        let answer = web_json(w, &paths::sleep_stats(start, end), &[]).await?;
                        Ok(rows(&answer, "/individualStats"))
                    })
                }),
        )
        .await
    }

    /// The nightly HRV summaries of `start..=end` (at most a block).
    pub async fn kept_hrv(&self, start: NaiveDate, end: NaiveDate) -> Result<Served<Vec<Raw<HrvSummary>>>> {
        self.serve(
            Read::new("the HRV nights")
                .personal(move |p| {
                    Box::pin(async move {
                        Ok(rows(
                            &personal_json(p, &paths::hrv_range(start, end), &[]).await?,
                            "/hrvSummaries",
                        ))
                    })
                })
                .web(move |w| {
                    Box::pin(async move {
                        Ok(rows(&web_json(w, &paths::hrv_range(start, end), &[]).await?, "/hrvSummaries"))
                    })
                }),
        )
        .await
    }

    /// The weigh-ins of `start..=end` per day (at most a block).
    pub async fn kept_weight(
        &self,
        start: NaiveDate,
        end: NaiveDate,
    ) -> Result<Served<Vec<Raw<DailyWeightSummary>>>> {
        let all = || vec![("includeAll", "true".to_owned())];
        self.serve(
            Read::new("the weigh-ins")
                .personal(move |p| {
                    Box::pin(async move {
                        let answer = personal_json(p, &paths::weight_range(start, end), &all()).await?;
                        Ok(rows(&answer, "/dailyWeightSummaries"))
                    })
                })
                .web(move |w| {
                    Box::pin(async move {
                        let answer = web_json(w, &paths::weight_range(start, end), &all()).await?;
                        Ok(rows(&answer, "/dailyWeightSummaries"))
                    })
                }),
        )
        .await
    }

    /// The daily series of Garmin's newest metrics over `start..=end` (at most a block; web session
    /// only, recent watches only: others answer 404/204): the daily hill scores, the weekly
    /// endurance-score groups, the Health Status of each night and the daily Running Tolerance
    /// rows, four range requests sent together. Typed, since the history keeps their numbers (and
    /// Health Status as read).
    pub async fn kept_newest_metrics(&self, start: NaiveDate, end: NaiveDate) -> NewestMetricRanges {
        let (hill, endurance, health, tolerance) =
            futures::join!(
                self.serve(Read::new("hill scores").web(move |w| {
                    Box::pin(async move { w.metrics().hill_score_range(start, end).await })
                })),
                self.serve(Read::new("endurance scores").web(move |w| {
                    Box::pin(async move { w.metrics().endurance_score_range(start, end).await })
                })),
                self.serve(Read::new("Health Status").web(move |w| {
                    Box::pin(async move { w.metrics().health_status_range(start, end).await })
                })),
                self.serve(Read::new("Running Tolerance").web(move |w| {
                    Box::pin(async move { w.metrics().running_tolerance(start, end).await })
                })),
            );
        NewestMetricRanges {
            hill: hill.map(Served::into_value),
            endurance: endurance.map(Served::into_value),
            health: health.map(Served::into_value),
            tolerance: tolerance.map(Served::into_value),
        }
    }

    /// The Training Readiness entries of `date` (web session only; recent watches only, an empty
    /// list from others).
    pub async fn kept_training_readiness(&self, date: NaiveDate) -> Result<Served<Vec<TrainingReadiness>>> {
        self.serve(
            Read::new("Training Readiness")
                .web(move |w| Box::pin(async move { w.metrics().training_readiness(date).await })),
        )
        .await
    }

    /// Garmin's training status snapshot on `date` (web session only).
    pub async fn kept_training_status(&self, date: NaiveDate) -> Result<Served<Raw<TrainingStatus>>> {
        self.serve(Read::new("training status snapshots").web(move |w| {
            Box::pin(async move { Ok(Raw::of(web_json(w, &paths::training_status(date), &[]).await?)) })
        }))
        .await
    }
}

/// Each day of `first..=last` with its row of an E6 answer (`data[]`, by `calendarDate`).
fn day_rows(
    answer: &Value,
    first: NaiveDate,
    last: NaiveDate,
) -> Vec<(NaiveDate, Option<Raw<DailySummary>>)> {
    let rows = answer.get("data").and_then(Value::as_array);
    let row_of = |key: &str| {
        rows.and_then(|r| r.iter().find(|r| r.get("calendarDate").and_then(Value::as_str) == Some(key)))
    };
    first
        .iter_days()
        .take_while(|d| *d <= last)
        .map(|day| (day, row_of(&ymd(day)).cloned().map(Raw::of)))
        .collect()
}

/// What [`Garmin::kept_newest_metrics`] read of a block, each range with its own outcome.
#[derive(Debug)]
pub struct NewestMetricRanges {
    /// The daily hill scores.
    pub hill: Result<HillScoreRange>,
    /// The weekly endurance-score groups.
    pub endurance: Result<EnduranceScoreRange>,
    /// Each night's Health Status.
    pub health: Result<Vec<HealthStatus>>,
    /// The daily Running Tolerance rows (rows without a value dropped).
    pub tolerance: Result<Vec<RunningTolerance>>,
}
