//! Garmin's replies to `get_training_status`'s requests, sent once and all at once
//! ([`Replies::read`]), and the report's parts made of them ([`Replies::into_parts`]): each reply
//! that failed becomes an absent part named in `failed`, so one failing request never sinks the
//! report. The training status itself may fail like any other part (a watch without it answers
//! 404): its failure is handed back to say why.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use garmin::models::metrics::{
    EnduranceScore, EnduranceScoreRange, FitnessAge, HillScore, HillScoreRange, LactateThreshold, MaxMetrics,
    RacePredictions, RunningTolerance, TrainingReadiness, TrainingStatus,
};
use garmin::models::wellness::HrvSummary;
use garmin::{Client, Garmin, Result, Served};

use super::TrainingParts;
use crate::domain::parts::part;

/// What the report's days are: the asked day, and the trend's days ending with it.
pub(super) struct Span {
    pub date: NaiveDate,
    pub first: NaiveDate,
    pub trend_dates: Vec<NaiveDate>,
    /// The days whose Training Readiness is read from Garmin (one request each): the asked day,
    /// and the trend's days the local history has not kept.
    pub readiness_dates: Vec<NaiveDate>,
    /// The days whose Running Tolerance is read from Garmin (one range request), `None` when the
    /// local history kept every day needed.
    pub tolerance_range: Option<(NaiveDate, NaiveDate)>,
    /// A trend was asked for (`trend_days` > 0).
    pub with_trend: bool,
    /// The scores' trend is read from Garmin (the local history does not cover it).
    pub live_scores: bool,
}

/// Each request's reply, as Garmin gave it.
pub(super) struct Replies {
    status: Result<Option<TrainingStatus>>,
    readiness: Result<Vec<Vec<TrainingReadiness>>>,
    vo2_range: Result<Vec<MaxMetrics>>,
    hrv: Result<Vec<HrvSummary>>,
    predictions: Result<Option<RacePredictions>>,
    lactate: Result<Option<LactateThreshold>>,
    endurance: Result<Option<EnduranceScore>>,
    hill: Result<Option<HillScore>>,
    fitness_age: Result<Option<FitnessAge>>,
    tolerance: Result<Vec<RunningTolerance>>,
    hill_range: Result<HillScoreRange>,
    endurance_range: Result<EnduranceScoreRange>,
}

impl Replies {
    /// Sends every request at once (`client` is the web session of `reads`).
    pub(super) async fn read(client: &Client, reads: &Garmin, span: &Span) -> Replies {
        let (m, w) = (client.metrics(), client.wellness());
        let (date, first, live) = (span.date, span.first, span.live_scores);
        let readiness =
            futures::future::try_join_all(span.readiness_dates.iter().map(|d| m.training_readiness(*d)));
        let vo2_range =
            async { if span.with_trend { m.max_metrics(first, date).await } else { Ok(Vec::new()) } };
        // The trend of the scores: two range requests, sent with the rest.
        let hill_range =
            async { if live { m.hill_score_range(first, date).await } else { Ok(Default::default()) } };
        let endurance_range =
            async { if live { m.endurance_score_range(first, date).await } else { Ok(Default::default()) } };
        // A week at least, so this week's tolerance is there whatever the trend's length (the
        // days the history did not keep).
        let tolerance = async {
            match span.tolerance_range {
                Some((from, to)) => reads.running_tolerance(from, to).await.map(Served::into_value),
                None => Ok(Vec::new()),
            }
        };
        let (
            status,
            readiness,
            vo2_range,
            hrv,
            predictions,
            lactate,
            endurance,
            hill,
            fitness_age,
            tolerance,
            hill_range,
            endurance_range,
        ) = tokio::join!(
            m.training_status(date),
            readiness,
            vo2_range,
            w.hrv_range(first, date),
            m.race_predictions(),
            m.lactate_threshold(),
            // With a live trend, the day's scores come with the ranges: no request of their own.
            async { if live { Ok(None) } else { m.endurance_score(date).await } },
            async { if live { Ok(None) } else { m.hill_score(date).await } },
            m.fitness_age(date),
            tolerance,
            hill_range,
            endurance_range,
        );
        Replies {
            status,
            readiness,
            vo2_range,
            hrv,
            predictions,
            lactate,
            endurance,
            hill,
            fitness_age,
            tolerance,
            hill_range,
            endurance_range,
        }
    }

    /// The report's parts, each failed reply named in `failed` (in the order the report lists
    /// them), and the training status's own failure.
    pub(super) fn into_parts(
        self,
        span: Span,
        failed: &mut Vec<String>,
    ) -> (TrainingParts, Option<garmin::Error>) {
        let (status, status_error) = match self.status {
            Ok(status) => (status, None),
            Err(e) => (None, Some(e)),
        };
        let (tolerance, tolerance_error) = match self.tolerance {
            Ok(rows) => (rows, None),
            Err(e) => (Vec::new(), Some(e)),
        };
        let readiness = part(failed, "readiness", self.readiness)
            .unwrap_or_else(|| vec![Vec::new(); span.readiness_dates.len()]);
        let parts = TrainingParts {
            date: span.date,
            status,
            readiness_by_day: span.readiness_dates.iter().copied().zip(readiness).collect::<BTreeMap<_, _>>(),
            trend_dates: span.trend_dates,
            vo2_range: part(failed, "vo2max", self.vo2_range).unwrap_or_default(),
            hrv: part(failed, "hrv", self.hrv).unwrap_or_default(),
            predictions: part(failed, "race_predictions", self.predictions).flatten(),
            lactate: part(failed, "lactate_threshold", self.lactate).flatten(),
            endurance: part(failed, "endurance_score", self.endurance).flatten(),
            hill: part(failed, "hill_score", self.hill).flatten(),
            hill_range: part(failed, "hill_score_trend", self.hill_range).unwrap_or_default(),
            endurance_range: part(failed, "endurance_score_trend", self.endurance_range).unwrap_or_default(),
            kept: None,
            fitness_age: part(failed, "fitness_age", self.fitness_age).flatten(),
            tolerance,
            tolerance_error,
        };
        (parts, status_error)
    }
}
