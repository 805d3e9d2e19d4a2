//! `render_chart` kind `fitness`: fitness and fatigue lines over form bars, from the same trend
//! `get_fitness_trend` answers with (`crate::domain::fitness`).

use chrono::{Duration, NaiveDate};

use super::{Drawn, draw_off_thread, span};
use crate::domain::fitness::trend_range;
use crate::server::GarminMcp;
use crate::tool_error::ToolError;

impl GarminMcp {
    /// `render_chart` kind `fitness`: the `weeks` weeks ending on `end` of `get_fitness_trend`
    /// (the best available load), from the domain layer's
    /// [`crate::domain::fitness::fitness_trend`], drawn as fitness and fatigue lines over form bars.
    pub(crate) async fn fitness_chart(
        &self,
        end: NaiveDate,
        weeks: u32,
        options: garmin_charts::ChartOptions,
    ) -> Result<Drawn, ToolError> {
        let start = end - Duration::days(i64::from(weeks) * 7 - 1);
        let range = trend_range(self.today(), Some(start), Some(end))?;
        let trend = crate::domain::fitness::fitness_trend(&self.reading().await?, range, None).await?;
        let load_label = match trend.load_scale.as_str() {
            "tss" => "TSS",
            "garmin" => "Garmin load",
            _ => "",
        };
        let chart = garmin_charts::FitnessChart {
            days: trend
                .days
                .iter()
                .map(|d| garmin_charts::FitnessDay {
                    date: d.date.clone(),
                    ctl: d.ctl,
                    atl: d.atl,
                    tsb: d.tsb,
                    settling: d.settling,
                })
                .collect(),
            load_label: load_label.to_owned(),
        };
        let view = serde_json::to_value(&trend).ok().and_then(|t| crate::apps::view::fitness_from_answer(&t));
        let png =
            draw_off_thread("fitness, fatigue and form", move || garmin_charts::fitness(&chart, &options))
                .await?;
        let period_text = span(start, end);
        let summary = format!(
            "Fitness, fatigue and form {period_text}: {} Load: {}. Model: {}. {}",
            trend.reading,
            trend.load_convention,
            trend.convention,
            trend.source.phrase()
        );
        Ok(Drawn {
            png,
            summary,
            title: format!("Fitness, fatigue and form, {period_text}"),
            file_parts: vec![end.to_string(), format!("fitness-{weeks}w")],
            activity_id: None,
            period: Some(period_text),
            series_source: None,
            points: Some(u32::try_from(trend.days.len()).unwrap_or(u32::MAX)),
            view,
        })
    }
}
