//! The trend of Garmin's newest metrics in `get_training_status` from the local history (#29):
//! when the history covers the trend's days up to yesterday, its daily series (hill score,
//! endurance score, load focus) answers them, and the two range requests to Garmin are not
//! sent; the trend says so (`trend_source`). Today is never in the history: its hill and endurance
//! scores come from the day's own requests.

use ::history::History;
use ::history::daily_metrics::DailyMetrics;
use chrono::{Duration, NaiveDate};
use garmin::models::metrics::{EnduranceGroup, EnduranceScoreRange, HillScore, HillScoreRange};

use super::answer::TrendRow;
use crate::domain::words::words;
use crate::history::DataSource;

/// The kept days of `first..=date` when the history covers them up to yesterday (or `date`, if
/// earlier), with where they came from; `None` otherwise (the trend is read from Garmin).
pub(super) async fn kept_trend(
    history: Option<History>,
    first: NaiveDate,
    date: NaiveDate,
    today: NaiveDate,
) -> Option<(Vec<DailyMetrics>, DataSource)> {
    let history = history?;
    let last = date.min(today - Duration::days(1));
    if last < first {
        return None;
    }
    let read = tokio::task::spawn_blocking(move || {
        let coverage = history.coverage(first, last)?;
        if coverage.covered_to != Some(last) {
            return Ok(None);
        }
        Ok::<_, ::history::HistoryError>(Some((history.daily_metrics(first, last)?, coverage.synced_at)))
    })
    .await;
    match read {
        Ok(Ok(Some((days, synced_at)))) => Some((days, DataSource::history(last, synced_at, last < date))),
        Ok(Err(e)) => {
            tracing::warn!("reading the newest metrics from the local history failed, answering live: {e}");
            None
        }
        _ => None,
    }
}

/// The kept days in the shapes of Garmin's range answers (so one function fills the trend).
pub(super) fn as_ranges(days: &[DailyMetrics]) -> (HillScoreRange, EnduranceScoreRange) {
    let hill = HillScoreRange {
        hill_scores: days
            .iter()
            .filter(|d| d.hill_score.is_some())
            .map(|d| HillScore {
                calendar_date: Some(d.date),
                overall_score: d.hill_score,
                hill_score_classification_id: d.hill_class,
                ..HillScore::default()
            })
            .collect(),
        ..HillScoreRange::default()
    };
    let endurance = EnduranceScoreRange {
        group_map: days
            .iter()
            .filter_map(|d| {
                let avg = d.endurance_score?;
                Some((d.date.to_string(), EnduranceGroup { group_average: Some(avg), group_max: None }))
            })
            .collect(),
        ..EnduranceScoreRange::default()
    };
    (hill, endurance)
}

/// The load focus Garmin gave on the kept days (the history keeps it once per synced block).
pub(super) fn add_kept_load_focus(rows: &mut [TrendRow], days: &[DailyMetrics]) {
    for row in rows {
        let Some(day) = days.iter().find(|d| d.date.to_string() == row.date) else { continue };
        row.load_focus = day.load_focus_feedback.as_deref().map(words);
    }
}
