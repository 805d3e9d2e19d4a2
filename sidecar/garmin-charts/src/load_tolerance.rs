//! The load-against-tolerance chart (`get_injury_risk`'s picture, issue #29): one bar per training
//! week of running impact load, the watch's weekly Running Tolerance as a line over them, and the
//! productive ACWR band (0.8–1.3 times the week's chronic load) shaded behind each bar, so "did I
//! run more than my legs can take, or more than I am used to?" reads at a glance. A bar over its
//! tolerance is drawn in the warning colour.

use plotters::element::{Circle, Rectangle};
use plotters::style::Color;

use crate::canvas::{Area, drawing, render};
use crate::format::amount;
use crate::frame::{Header, LegendItem, Mark, header, legend_above, note, note_width};
use crate::i18n::Phrase;
use crate::plot::{Axes, LEFT_AREA, decimal_ticks, nice_top, panel, segments};
use crate::text::{H, V};
use crate::theme::{ACUTE, DAILY_LOAD, FORM_TIRED, GOOD_BAND, MUTED, Theme, tint};
use crate::{ChartError, ChartOptions, Png};

/// One training week.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ToleranceWeek {
    /// The week's label (its Monday, `2026-11-09`).
    pub label: String,
    /// The week's running (impact) load.
    pub load: f64,
    /// The watch's Running Tolerance for the week, when it records one.
    pub tolerance: Option<f64>,
    /// The productive ACWR band for the week's load (low, high), when four weeks are known.
    pub band: Option<(f64, f64)>,
}

/// What the load-against-tolerance chart draws.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LoadToleranceChart {
    /// The weeks, oldest first.
    pub weeks: Vec<ToleranceWeek>,
}

fn usable(v: f64) -> Option<f64> {
    (v.is_finite() && v >= 0.0).then_some(v)
}

/// Draws weekly running load against tolerance with the ACWR band.
pub fn load_vs_tolerance(data: &LoadToleranceChart, options: &ChartOptions) -> Result<Png, ChartError> {
    let any = data.weeks.iter().any(|w| usable(w.load).is_some_and(|l| l > 0.0) || w.tolerance.is_some());
    if !any {
        return Err(ChartError::NoData(
            "no running load or tolerance was recorded in these weeks".to_owned(),
        ));
    }
    render(options, |root, theme| draw(root, theme, options, data))
}

fn draw(
    root: &Area<'_>,
    theme: &Theme,
    options: &ChartOptions,
    data: &LoadToleranceChart,
) -> Result<(), ChartError> {
    let lang = theme.language;
    let n = data.weeks.len();
    let mut facts = vec![format!(
        "{} – {}",
        data.weeks.first().map_or("", |w| w.label.as_str()),
        data.weeks.last().map_or("", |w| w.label.as_str())
    )];
    if let Some(last) = data.weeks.last() {
        facts.push(format!("{} {}", Phrase::WeeklyRunLoad.text(lang), amount(last.load)));
        if let Some(t) = last.tolerance.and_then(usable) {
            facts.push(format!("Running Tolerance {}", amount(t)));
        }
    }
    let body = header(
        root,
        theme,
        options,
        &Header {
            title: Phrase::LoadToleranceTitle.text(lang).to_owned(),
            subtitle: facts.join(" · "),
            badge: None,
        },
    )?;
    let top = nice_top(
        data.weeks
            .iter()
            .flat_map(|w| [usable(w.load), w.tolerance.and_then(usable), w.band.and_then(|b| usable(b.1))])
            .flatten()
            .fold(0.0, f64::max)
            * 1.05,
    );
    let x_fmt = |_: f64| String::new();
    let y_fmt = |v: f64| amount(v);
    let axes = Axes {
        x: -0.5..n as f64 - 0.5,
        y: 0.0..top,
        x_desc: Some(Phrase::Date.text(lang)),
        y_desc: Phrase::WeeklyRunLoad.text(lang),
        x_fmt: &x_fmt,
        y_fmt: &y_fmt,
        x_ticks: Vec::new(),
        y_ticks: decimal_ticks(0.0, top, 6),
        x_grid: false,
        left: LEFT_AREA,
        right: 0.0,
    };
    let mut chart = panel(root, &body, theme, &axes)?;
    // The productive band behind each week, then the bars, then the tolerance line.
    chart
        .draw_series(data.weeks.iter().enumerate().filter_map(|(i, w)| {
            let (lo, hi) = w.band?;
            let x = i as f64;
            Some(Rectangle::new([(x - 0.48, lo), (x + 0.48, hi)], tint(GOOD_BAND, 0.2).filled()))
        }))
        .map_err(drawing)?;
    chart
        .draw_series(data.weeks.iter().enumerate().filter_map(|(i, w)| {
            let load = usable(w.load).filter(|l| *l > 0.0)?;
            let over = w.tolerance.is_some_and(|t| load > t);
            let x = i as f64;
            let color = if over { FORM_TIRED } else { DAILY_LOAD };
            Some(Rectangle::new([(x - 0.3, 0.0), (x + 0.3, load)], color.filled()))
        }))
        .map_err(drawing)?;
    let mut runs: Vec<Vec<(f64, f64)>> = vec![Vec::new()];
    for (i, w) in data.weeks.iter().enumerate() {
        match (w.tolerance.and_then(usable), runs.last_mut()) {
            (Some(t), Some(run)) => run.push((i as f64, t)),
            _ => runs.push(Vec::new()),
        }
    }
    let style = theme.line(ACUTE, 3.0);
    chart
        .draw_series(runs.iter().filter(|r| r.len() >= 2).flat_map(|r| segments(r, style)))
        .map_err(drawing)?;
    let dot = theme.px(5.0).max(2);
    chart
        .draw_series(runs.iter().flatten().map(|p| Circle::new(*p, dot, ACUTE.filled())))
        .map_err(drawing)?;
    week_labels(root, theme, &chart, data)?;
    let legend = [
        LegendItem::new(DAILY_LOAD, Mark::Box, Phrase::WeeklyRunLoad.text(lang)),
        LegendItem::new(FORM_TIRED, Mark::Box, Phrase::AboveTolerance.text(lang)),
        LegendItem::new(ACUTE, Mark::Line, "Running Tolerance"),
        LegendItem::new(
            plotters::style::RGBColor(187, 230, 203),
            Mark::Box,
            Phrase::ProductiveBand.text(lang),
        ),
    ];
    legend_above(root, &chart, theme, &legend)
}

/// Each week's Monday (`MM-DD`) under its bar, thinned so labels never overlap.
fn week_labels(
    root: &Area<'_>,
    theme: &Theme,
    chart: &crate::plot::Chart<'_, '_>,
    data: &LoadToleranceChart,
) -> Result<(), ChartError> {
    let n = data.weeks.len();
    let (x0, y_base) = chart.backend_coord(&(0.0, 0.0));
    let (x1, _) = chart.backend_coord(&(1.0, 0.0));
    let slot = (x1 - x0).max(1);
    let every =
        usize::try_from((note_width(theme, "00-00")? + theme.px(12.0)) / slot + 1).unwrap_or(1).max(1);
    for (i, w) in data.weeks.iter().enumerate() {
        if !(n - 1 - i).is_multiple_of(every) {
            continue;
        }
        let (x, _) = chart.backend_coord(&(i as f64, 0.0));
        let label = w.label.get(5..).filter(|_| w.label.len() == 10).unwrap_or(&w.label);
        note(root, theme, label, (x, y_base + theme.px(12.0)), (H::Center, V::Top), &MUTED)?;
    }
    Ok(())
}
