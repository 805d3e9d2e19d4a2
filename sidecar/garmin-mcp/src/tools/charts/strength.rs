//! `render_chart` kind `strength`: an exercise's estimated one-rep max session by session (with
//! `exercise`), or the sets per muscle group week by week (without), from the same strength
//! progress `get_strength_progress` answers with (`crate::domain::strength`).

use chrono::{Duration, NaiveDate};
use garmin_charts::{E1rmPoint, MuscleSets, StrengthChart};

use super::{Drawn, draw_off_thread, span};
use crate::domain::strength::{StrengthProgress, Wanted, progress, week_range};
use crate::server::GarminMcp;
use crate::tool_error::ToolError;

/// The e1RM view of `w`: the chart, its sentence and its points.
fn e1rm_view(found: &StrengthProgress, w: &Wanted, period_text: &str) -> (StrengthChart, String, usize) {
    let sessions = found.trends.first().map(|t| t.progress.sessions.clone()).unwrap_or_default();
    let points: Vec<E1rmPoint> =
        sessions.iter().map(|s| E1rmPoint { date: s.date.to_string(), kg: s.e1rm_kg }).collect();
    let change = match (sessions.first(), sessions.last()) {
        (Some(a), Some(b)) => format!(": {:.1} → {:.1} kg", a.e1rm_kg, b.e1rm_kg),
        _ => String::new(),
    };
    let n = points.len();
    let summary =
        format!("{} e1RM (Epley, best set per session) {period_text}, {n} sessions{change}.", w.words);
    (StrengthChart::E1rm { exercise: w.words.clone(), points }, summary, n)
}

/// The weekly muscle view: the chart, its sentence and its weeks.
fn muscle_view(
    found: &StrengthProgress,
    (start, end): (NaiveDate, NaiveDate),
    period_text: &str,
) -> (StrengthChart, String, usize) {
    let weeks: Vec<NaiveDate> = start.iter_weeks().take_while(|d| *d <= end).collect();
    let mut muscles: Vec<MuscleSets> = Vec::new();
    for w in &found.muscle_weeks {
        let Some(i) = weeks.iter().position(|d| *d == w.week_start) else { continue };
        let at = match muscles.iter().position(|m| m.muscle == w.muscle) {
            Some(at) => at,
            None => {
                muscles.push(MuscleSets { muscle: w.muscle.clone(), sets: vec![0.0; weeks.len()] });
                muscles.len() - 1
            }
        };
        muscles[at].sets[i] = w.sets;
    }
    let total = |m: &MuscleSets| m.sets.iter().sum::<f64>();
    muscles.sort_by(|a, b| total(b).total_cmp(&total(a)).then(a.muscle.cmp(&b.muscle)));
    let top: Vec<&str> = muscles.iter().take(4).map(|m| m.muscle.as_str()).collect();
    let summary = format!(
        "Weekly sets per muscle group (the volume view; primary muscles count 1 set, secondary 0.5) {period_text}, {} sessions; most: {}.",
        found.sessions,
        top.join(", ")
    );
    let n = weeks.len();
    (
        StrengthChart::MuscleSets { weeks: weeks.iter().map(ToString::to_string).collect(), muscles },
        summary,
        n,
    )
}

impl GarminMcp {
    /// `render_chart` kind `strength`: the `weeks` calendar weeks ending with yesterday's.
    pub(crate) async fn strength_chart(
        &self,
        weeks: u32,
        wanted: Option<Wanted>,
        options: garmin_charts::ChartOptions,
    ) -> Result<Drawn, ToolError> {
        let today = self.today();
        let (start, end) = week_range(today - Duration::days(1), weeks);
        let covered = self.covered(start, end).await.map_err(|note| ToolError::NoData(format!("{note}.")))?;
        let history = covered.history.clone();
        let chosen = wanted.clone();
        let found =
            tokio::task::spawn_blocking(move || progress(&history, (start, end), today, chosen.as_ref()))
                .await
                .map_err(|e| {
                    ToolError::Local(format!("reading the strength sets stopped ({e}); try again"))
                })??;
        let period_text = span(start, end);
        let (chart, summary, points, part) = match &wanted {
            Some(w) => {
                let (chart, summary, n) = e1rm_view(&found, w, &period_text);
                (chart, summary, n, "e1rm")
            }
            None => {
                let (chart, summary, n) = muscle_view(&found, (start, end), &period_text);
                (chart, summary, n, "muscles")
            }
        };
        let png =
            draw_off_thread("strength progress", move || garmin_charts::strength(&chart, &options)).await?;
        Ok(Drawn {
            png,
            summary: format!("{summary} {}", covered.source.phrase()),
            title: format!("Strength progress, {period_text}"),
            file_parts: vec![end.to_string(), format!("strength-{part}-{weeks}w")],
            activity_id: None,
            period: Some(period_text),
            series_source: None,
            points: Some(u32::try_from(points).unwrap_or(u32::MAX)),
            view: None,
        })
    }
}
