//! `render_chart` kind `load_vs_tolerance` (issue #29): weekly running impact load against the
//! watch's Running Tolerance with the productive ACWR band, the picture of `get_injury_risk`'s
//! mechanical load. The weeks are shaped by `crate::domain::injury_risk::tolerance_weeks`; drawing
//! is `garmin-charts`'.

use chrono::{Datelike, Duration, NaiveDate};
use garmin::Served;

use super::{Drawn, draw_off_thread, span};
use crate::domain::injury_risk::tolerance_weeks;
use crate::domain::watch::{absence, watch_words};
use crate::server::GarminMcp;
use crate::tool_error::ToolError;

impl GarminMcp {
    /// `render_chart` kind `load_vs_tolerance`: the `weeks` training weeks ending with the one
    /// holding `end` (one Running Tolerance request covering them and the three weeks before, for
    /// the band). A watch without Running Tolerance gets its plain sentence as "no data".
    pub(crate) async fn load_tolerance_chart(
        &self,
        end: NaiveDate,
        weeks: u32,
        options: garmin_charts::ChartOptions,
    ) -> Result<Drawn, ToolError> {
        let reads = self.reads().await?;
        let monday = end - Duration::days(i64::from(end.weekday().num_days_from_monday()));
        let from = monday - Duration::weeks(i64::from(weeks) + 2);
        let rows = match reads.running_tolerance(from, end).await {
            Ok(rows) => rows.into_value(),
            Err(e) => {
                let devices = reads.devices().await.map(Served::into_value).unwrap_or_default();
                return Err(match absence(&watch_words(None, &devices), "Running Tolerance", Some(&e)) {
                    Some(sentence) => ToolError::NoData(format!(
                        "{sentence} There is no running load against tolerance to draw; get_injury_risk still judges the cardiovascular load and recovery."
                    )),
                    None => e.into(),
                });
            }
        };
        let triples: Vec<_> = rows
            .iter()
            .filter(|r| r.has_data())
            .filter_map(|r| Some((r.calendar_date?, r.running_tolerance, r.weekly_running_load)))
            .collect();
        let shaped = tolerance_weeks(&triples, end, weeks);
        let chart = garmin_charts::LoadToleranceChart {
            weeks: shaped
                .iter()
                .map(|w| garmin_charts::ToleranceWeek {
                    label: w.monday.to_string(),
                    load: w.load,
                    tolerance: w.tolerance,
                    band: w.band,
                })
                .collect(),
        };
        let png = draw_off_thread("running load against tolerance", move || {
            garmin_charts::load_vs_tolerance(&chart, &options)
        })
        .await?;
        let start = shaped.first().map_or(monday, |w| w.monday);
        let period_text = span(start, end);
        Ok(Drawn {
            png,
            summary: tolerance_summary(&period_text, &shaped),
            title: format!("Weekly running load against Running Tolerance, {period_text}"),
            file_parts: vec![end.to_string(), format!("load-vs-tolerance-{weeks}w")],
            activity_id: None,
            period: Some(period_text),
            series_source: None,
            points: Some(u32::try_from(shaped.len()).unwrap_or(u32::MAX)),
            view: None,
        })
    }
}

/// The chart in words: the weeks over their tolerance and above the band, and the last week.
fn tolerance_summary(period: &str, weeks: &[crate::domain::injury_risk::ToleranceWeek]) -> String {
    let over: Vec<String> = weeks
        .iter()
        .filter(|w| w.tolerance.is_some_and(|t| w.load > t))
        .map(|w| w.monday.format("%m-%d").to_string())
        .collect();
    let spikes: Vec<String> = weeks
        .iter()
        .filter(|w| w.band.is_some_and(|(_, hi)| w.load > hi))
        .map(|w| w.monday.format("%m-%d").to_string())
        .collect();
    let mut text =
        format!("Weekly running impact load against Running Tolerance, {period} (weeks from Monday).");
    if let Some(last) = weeks.last() {
        let tolerance = last.tolerance.map(|t| format!(" against a tolerance of {t:.0}")).unwrap_or_default();
        text.push_str(&format!(" This week so far: {:.0}{tolerance}.", last.load));
    }
    let list = |v: &[String]| if v.is_empty() { "none".to_owned() } else { v.join(", ") };
    text.push_str(&format!(
        " Weeks over their tolerance: {}. Weeks above the ACWR band (1.3 × the mean of the week and the three before): {}.",
        list(&over),
        list(&spikes)
    ));
    text
}
