//! The training-load chart: each day's load as a bar (left axis), and the 7-day acute and 28-day
//! chronic load as lines (right axis) with the optimal acute range — 0.8 to 1.3 times the chronic
//! load — shaded between them, so "am I ramping up too fast?" reads at a glance.

use plotters::element::{Circle, PathElement, Polygon, Rectangle};
use plotters::style::Color;

use crate::canvas::{Area, drawing, render};
use crate::format::amount;
use crate::frame::{Header, LegendItem, Mark, header, legend_above, note, note_width};
use crate::i18n::Phrase;
use crate::plot::{Axes, LEFT_AREA, decimal_ticks, nice_step, nice_top, panel, segments};
use crate::text::{self, H, V};
use crate::theme::{ACUTE, AXIS, CHRONIC, DAILY_LOAD, DESC_PX, GOOD_BAND, INK, LABEL_PX, MUTED, Theme, tint};
use crate::{ChartError, ChartOptions, Png};

/// Acute load inside this many times the chronic load is the optimal range.
pub(crate) const OPTIMAL_RATIO: (f64, f64) = (0.8, 1.3);

/// One day's load.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LoadDay {
    /// The day, `YYYY-MM-DD`.
    pub date: String,
    /// The day's training load (sum of its activities).
    pub load: f64,
    /// Acute (7-day) load on that day.
    pub acute: Option<f64>,
    /// Chronic (28-day, scaled to a week) load on that day.
    pub chronic: Option<f64>,
}

/// What the training-load chart draws.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TrainingLoadChart {
    /// The days, oldest first.
    pub days: Vec<LoadDay>,
}

fn finite(v: Option<f64>) -> Option<f64> {
    v.filter(|x| x.is_finite() && *x >= 0.0)
}

/// Draws the training-load chart.
pub fn training_load(data: &TrainingLoadChart, options: &ChartOptions) -> Result<Png, ChartError> {
    let any = data.days.iter().any(|d| d.load > 0.0 || finite(d.acute).is_some());
    if !any {
        return Err(ChartError::NoData("no training load was recorded in the range".to_owned()));
    }
    render(options, |root, theme| draw(root, theme, options, data))
}

fn draw(
    root: &Area<'_>,
    theme: &Theme,
    options: &ChartOptions,
    data: &TrainingLoadChart,
) -> Result<(), ChartError> {
    let lang = theme.language;
    let n = data.days.len();
    let first = data.days.first().map_or("", |d| d.date.as_str());
    let last_day = data.days.last();
    let mut facts = vec![format!("{first} – {}", last_day.map_or("", |d| d.date.as_str()))];
    if let Some(d) = last_day {
        if let Some(a) = finite(d.acute) {
            facts.push(format!("{} {a:.0}", Phrase::Acute.text(lang)));
        }
        if let Some(c) = finite(d.chronic) {
            facts.push(format!("{} {c:.0}", Phrase::Chronic.text(lang)));
        }
        if let (Some(a), Some(c)) = (finite(d.acute), finite(d.chronic).filter(|c| *c > 0.0)) {
            facts.push(format!("{} {:.2}", Phrase::Ratio.text(lang), a / c));
        }
    }
    let body = header(
        root,
        theme,
        options,
        &Header {
            title: Phrase::TrainingLoad.text(lang).to_owned(),
            subtitle: facts.join(" · "),
            badge: None,
        },
    )?;

    let daily_top = nice_top(data.days.iter().map(|d| d.load).filter(|l| l.is_finite()).fold(0.0, f64::max));
    let seven_day_max = data
        .days
        .iter()
        .flat_map(|d| [finite(d.acute), finite(d.chronic).map(|c| c * OPTIMAL_RATIO.1)])
        .flatten()
        .fold(0.0, f64::max);
    // The right axis shares the left one's grid lines: as many intervals, on round steps.
    let left_ticks = decimal_ticks(0.0, daily_top, 6);
    let intervals = left_ticks.len().saturating_sub(1).max(1) as f64;
    let seven_step = nice_step(seven_day_max * 1.08 / intervals);
    let seven_top = seven_step * intervals;
    let x_fmt = |_: f64| String::new();
    let y_fmt = |v: f64| amount(v);
    let x_end = n as f64 - 0.5;
    let axes = Axes {
        x: -0.5..x_end,
        y: 0.0..daily_top,
        x_desc: Some(Phrase::Date.text(lang)),
        y_desc: Phrase::DailyLoad.text(lang),
        x_fmt: &x_fmt,
        y_fmt: &y_fmt,
        x_ticks: Vec::new(),
        y_ticks: left_ticks.clone(),
        x_grid: false,
        left: LEFT_AREA,
        right: LEFT_AREA,
    };
    let chart = panel(root, &body, theme, &axes)?;
    let mut chart = chart.set_secondary_coord(-0.5..x_end, 0.0..seven_top);

    // The right axis: 7-day load numbers and its description.
    let (x_px, y_px) = chart.plotting_area().get_pixel_range();
    let right = x_px.end - 1;
    root.draw(&PathElement::new(vec![(right, y_px.start), (right, y_px.end - 1)], AXIS.stroke_width(1)))
        .map_err(drawing)?;
    for t in left_ticks.iter().map(|t| t / daily_top * seven_top) {
        let (_, py) = chart.borrow_secondary().backend_coord(&(x_end, t));
        text::draw(
            root,
            &amount(t),
            (right + theme.px(10.0), py),
            theme.size(LABEL_PX),
            &MUTED,
            H::Left,
            V::Middle,
        )?;
    }
    let desc_x = right + theme.px(LEFT_AREA) - theme.px(DESC_PX * 0.6);
    text::draw_upwards(
        root,
        Phrase::SevenDayLoad.text(lang),
        (desc_x, (y_px.start + y_px.end) / 2),
        theme.size(DESC_PX),
        &INK,
    )?;

    // The optimal acute range around the chronic line, where the chronic load is known.
    let band: Vec<(f64, f64, f64)> = data
        .days
        .iter()
        .enumerate()
        .filter_map(|(i, d)| finite(d.chronic).map(|c| (i as f64, c * OPTIMAL_RATIO.0, c * OPTIMAL_RATIO.1)))
        .collect();
    if band.len() >= 2 {
        let mut outline: Vec<(f64, f64)> = band.iter().map(|(x, _, hi)| (*x, *hi)).collect();
        outline.extend(band.iter().rev().map(|(x, lo, _)| (*x, *lo)));
        chart
            .draw_secondary_series(std::iter::once(Polygon::new(outline, tint(GOOD_BAND, 0.15).filled())))
            .map_err(drawing)?;
    }
    chart
        .draw_series(data.days.iter().enumerate().filter(|(_, d)| d.load.is_finite() && d.load > 0.0).map(
            |(i, d)| {
                let x = i as f64;
                Rectangle::new([(x - 0.34, 0.0), (x + 0.34, d.load)], DAILY_LOAD.filled())
            },
        ))
        .map_err(drawing)?;
    for (pick, color, width) in [
        (&(|d: &LoadDay| finite(d.chronic)) as &dyn Fn(&LoadDay) -> Option<f64>, CHRONIC, 3.0),
        (&|d: &LoadDay| finite(d.acute), ACUTE, 3.0),
    ] {
        let mut runs: Vec<Vec<(f64, f64)>> = vec![Vec::new()];
        for (i, d) in data.days.iter().enumerate() {
            match (pick(d), runs.last_mut()) {
                (Some(v), Some(run)) => run.push((i as f64, v)),
                _ => runs.push(Vec::new()),
            }
        }
        let style = theme.line(color, width);
        chart
            .draw_secondary_series(runs.iter().filter(|r| r.len() >= 2).flat_map(|r| segments(r, style)))
            .map_err(drawing)?;
        // Round joints so the thick line has no notches where it bends.
        let joint = (theme.px(width) / 2).max(1);
        chart
            .draw_secondary_series(runs.iter().flatten().map(|p| Circle::new(*p, joint, color.filled())))
            .map_err(drawing)?;
    }

    // Day labels, thinned so they never overlap; the newest day is always labelled.
    let (x0, y_base) = chart.backend_coord(&(0.0, 0.0));
    let (x1, _) = chart.backend_coord(&(1.0, 0.0));
    let slot = (x1 - x0).max(1);
    let every =
        usize::try_from((note_width(theme, "00-00")? + theme.px(12.0)) / slot + 1).unwrap_or(1).max(1);
    for (i, d) in data.days.iter().enumerate() {
        if !(n - 1 - i).is_multiple_of(every) {
            continue;
        }
        let (x, _) = chart.backend_coord(&(i as f64, 0.0));
        let label = d.date.get(5..).filter(|_| d.date.len() == 10).unwrap_or(&d.date);
        note(root, theme, label, (x, y_base + theme.px(12.0)), (H::Center, V::Top), &MUTED)?;
    }

    let legend = [
        LegendItem::new(DAILY_LOAD, Mark::Box, Phrase::DailyLoad.text(lang)),
        LegendItem::new(ACUTE, Mark::Line, Phrase::AcuteLoad.text(lang)),
        LegendItem::new(CHRONIC, Mark::Line, Phrase::ChronicLoad.text(lang)),
        LegendItem::new(plotters::style::RGBColor(187, 230, 203), Mark::Box, Phrase::OptimalRange.text(lang)),
    ];
    legend_above(root, &chart, theme, &legend)
}
