//! Health Status over a range of `get_daily_health` (#29): each night from the local history's
//! `daily_metrics` when it covers the range (today, never kept, read live), else one range request
//! to Garmin; the answer says which (`health_status_source`), as the other tools' sources do. A
//! history that kept no Health Status for the range (a watch without it, or a sync without the web
//! session) is asked live, so the watch's absence is one sentence, never a row of blanks.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use garmin::models::metrics::HealthStatus;
use garmin::reads::ServedFuture;

use super::answer::HealthStatusPart;
use super::status::health_status_part;
use crate::domain::reading::kept_daily_metrics;
use crate::history::DataSource;
use crate::server::GarminMcp;
use crate::tool_error::ToolError;

/// A range's Health Status: the nights that have one, where they came from, and why there are
/// none (a sentence for a watch or account without it, or the request's failure).
#[derive(Default)]
pub(super) struct StatusDays {
    pub nights: BTreeMap<NaiveDate, HealthStatusPart>,
    pub source: Option<DataSource>,
    pub not_recorded: Vec<String>,
    pub failed: Option<ToolError>,
}

impl GarminMcp {
    /// The Health Status of each night of `start..=end`: the history's when it covers the range
    /// and kept any, else Garmin's range answer.
    pub(super) async fn health_status_days(&self, start: NaiveDate, end: NaiveDate) -> StatusDays {
        let w = match self.reads().await {
            Ok(w) => w,
            Err(e) => return StatusDays { failed: Some(e), ..StatusDays::default() },
        };
        let kept = kept_daily_metrics(self.history_for_reads().await, start, end, self.today()).await;
        let kept = kept.filter(|(days, _)| days.iter().any(|d| d.health_status.is_some()));
        if let Some((days, source)) = kept {
            let mut nights: Vec<HealthStatus> = days.into_iter().filter_map(|d| d.health_status).collect();
            // The history ends yesterday: today's night, when the range has it, is read live.
            let mut failed = None;
            if source.from == "history+garmin" {
                match w.health_status(end).value().await {
                    Ok(night) => nights.extend(night),
                    Err(e) => failed = Some(ToolError::from(e)),
                }
            }
            return StatusDays {
                nights: parts(nights),
                source: Some(source),
                failed,
                ..StatusDays::default()
            };
        }
        let (nights, source) = (w.health_status_range(start, end).value().await, DataSource::live());
        match nights {
            Ok(nights) => StatusDays { nights: parts(nights), source: Some(source), ..StatusDays::default() },
            Err(e) => {
                let not_recorded = self.health_status_absence(&w, Some(&e)).await;
                let failed = not_recorded.is_empty().then(|| e.into());
                StatusDays { not_recorded, failed, ..StatusDays::default() }
            }
        }
    }
}

/// Each night with a value, by its day.
fn parts(nights: Vec<HealthStatus>) -> BTreeMap<NaiveDate, HealthStatusPart> {
    nights.iter().filter_map(|night| Some((night.calendar_date?, health_status_part(night)?))).collect()
}
