//! The fitness, fatigue and form chart (the performance management chart of Banister's model as
//! Coggan draws it): fitness (CTL) and fatigue (ATL) as lines in the upper panel, form (TSB) as bars
//! above or below zero in the lower one, with the first weeks — while the numbers still settle —
//! shaded, so "am I getting fitter, and am I fresh for Sunday?" reads at a glance.

use plotters::element::{PathElement, Rectangle};
use plotters::style::Color;

use crate::canvas::{Area, drawing, render};
use crate::format::amount;
use crate::frame::{Header, LegendItem, Mark, header, legend_above, note, note_width};
use crate::i18n::Phrase;
use crate::plot::{Axes, Chart, LEFT_AREA, decimal_ticks, nice_top, panel, segments};
use crate::text::{H, V};
use crate::theme::{ACUTE, AXIS, CHRONIC, FORM_FRESH, FORM_TIRED, GRID, MUTED, Theme, tint};
use crate::{ChartError, ChartOptions, Png};

/// One day of the chart.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FitnessDay {
    /// The day, `YYYY-MM-DD`.
    pub date: String,
    /// Fitness (chronic training load, CTL).
    pub ctl: f64,
    /// Fatigue (acute training load, ATL).
    pub atl: f64,
    /// Form (training stress balance, TSB).
    pub tsb: f64,
    /// The numbers are still settling (the first weeks of the data).
    pub settling: bool,
}

/// What the fitness chart draws.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FitnessChart {
    /// The days, oldest first, one per calendar day.
    pub days: Vec<FitnessDay>,
    /// What the load is (`TSS`, `hrTSS`, `Garmin load`…), shown in the subtitle; empty for none.
    pub load_label: String,
}

fn usable(d: &FitnessDay) -> bool {
    d.ctl.is_finite() && d.atl.is_finite() && d.tsb.is_finite()
}

/// Draws the fitness, fatigue and form chart.
pub fn fitness(data: &FitnessChart, options: &ChartOptions) -> Result<Png, ChartError> {
    if data.days.iter().filter(|d| usable(d)).count() < 2 {
        return Err(ChartError::NoData("fitness and fatigue need at least two days with numbers".to_owned()));
    }
    render(options, |root, theme| draw(root, theme, options, data))
}

fn draw(
    root: &Area<'_>,
    theme: &Theme,
    options: &ChartOptions,
    data: &FitnessChart,
) -> Result<(), ChartError> {
    let lang = theme.language;
    let n = data.days.len();
    let first = data.days.first().map_or("", |d| d.date.as_str());
    let last_date = data.days.last().map_or("", |d| d.date.as_str());
    let mut facts = vec![format!("{first} – {last_date}")];
    if let Some(d) = data.days.iter().rev().find(|d| usable(d)) {
        facts.push(format!("{} {:.0}", Phrase::FitnessWord.text(lang), d.ctl));
        facts.push(format!("{} {:.0}", Phrase::FatigueWord.text(lang), d.atl));
        facts.push(format!("{} {:+.0}", Phrase::FormWord.text(lang), d.tsb));
    }
    if !data.load_label.trim().is_empty() {
        facts.push(data.load_label.trim().to_owned());
    }
    let body = header(
        root,
        theme,
        options,
        &Header {
            title: Phrase::FitnessTitle.text(lang).to_owned(),
            subtitle: facts.join(" · "),
            badge: None,
        },
    )?;
    let (_, h) = body.dim_in_pixel();
    let (upper, lower) = body.split_vertically(f64::from(h) * 0.6);
    let x = -0.5..(n as f64 - 0.5);

    // Upper panel: fitness and fatigue.
    let top =
        nice_top(data.days.iter().filter(|d| usable(d)).flat_map(|d| [d.ctl, d.atl]).fold(0.0, f64::max));
    let y_fmt = |v: f64| amount(v);
    let x_fmt = |_: f64| String::new();
    let axes = Axes {
        x: x.clone(),
        y: 0.0..top,
        x_desc: None,
        y_desc: Phrase::LoadPerDay.text(lang),
        x_fmt: &x_fmt,
        y_fmt: &y_fmt,
        x_ticks: Vec::new(),
        y_ticks: decimal_ticks(0.0, top, 5),
        x_grid: false,
        left: LEFT_AREA,
        right: 0.0,
    };
    let mut chart = panel(root, &upper, theme, &axes)?;
    let settling = shade_settling(&mut chart, data, 0.0, top)?;
    for (pick, color) in [
        (&(|d: &FitnessDay| d.atl) as &dyn Fn(&FitnessDay) -> f64, ACUTE),
        (&|d: &FitnessDay| d.ctl, CHRONIC),
    ] {
        for run in runs(data, pick) {
            chart.draw_series(segments(&run, theme.line(color, 3.0))).map_err(drawing)?;
        }
    }
    let mut legend = Vec::new();
    if settling {
        legend.push(LegendItem::new(tint_rgb(AXIS), Mark::Box, Phrase::Settling.text(lang)));
    }
    legend.push(LegendItem::new(CHRONIC, Mark::Line, Phrase::Fitness.text(lang)));
    legend.push(LegendItem::new(ACUTE, Mark::Line, Phrase::Fatigue.text(lang)));
    legend_above(root, &chart, theme, &legend)?;

    // Lower panel: form around zero.
    let (lo, hi) = data
        .days
        .iter()
        .filter(|d| usable(d))
        .fold((0.0f64, 0.0f64), |(lo, hi), d| (lo.min(d.tsb), hi.max(d.tsb)));
    let reach = nice_top(lo.abs().max(hi.abs()).max(1.0));
    let (y_lo, y_hi) = (if lo < 0.0 { -reach } else { 0.0 }, if hi > 0.0 { reach } else { 0.0 });
    let (y_lo, y_hi) = if y_hi - y_lo <= 0.0 { (-1.0, 1.0) } else { (y_lo, y_hi) };
    let axes = Axes {
        x: x.clone(),
        y: y_lo..y_hi,
        x_desc: Some(Phrase::Date.text(lang)),
        y_desc: Phrase::FormAxis.text(lang),
        x_fmt: &x_fmt,
        y_fmt: &|v: f64| if v > 0.0 { format!("+{}", amount(v)) } else { amount(v) },
        x_ticks: Vec::new(),
        y_ticks: decimal_ticks(y_lo, y_hi, 4),
        x_grid: false,
        left: LEFT_AREA,
        right: 0.0,
    };
    let mut form = panel(root, &lower, theme, &axes)?;
    shade_settling(&mut form, data, y_lo, y_hi)?;
    let half = if n > 200 { 0.5 } else { 0.36 };
    form.draw_series(data.days.iter().enumerate().filter(|(_, d)| usable(d) && d.tsb != 0.0).map(
        |(i, d)| {
            let color = if d.tsb > 0.0 { FORM_FRESH } else { FORM_TIRED };
            let x = i as f64;
            Rectangle::new([(x - half, 0.0), (x + half, d.tsb.clamp(y_lo, y_hi))], color.filled())
        },
    ))
    .map_err(drawing)?;
    form.draw_series(std::iter::once(PathElement::new(
        vec![(x.start, 0.0), (x.end, 0.0)],
        theme.line(AXIS, 1.0),
    )))
    .map_err(drawing)?;
    day_labels(root, theme, &form, data)?;
    let legend = [
        LegendItem::new(FORM_FRESH, Mark::Box, Phrase::FormFresh.text(lang)),
        LegendItem::new(FORM_TIRED, Mark::Box, Phrase::FormTired.text(lang)),
    ];
    legend_above(root, &form, theme, &legend)
}

/// The settling colour as a legend box (the band is drawn translucent over white).
fn tint_rgb(c: plotters::style::RGBColor) -> plotters::style::RGBColor {
    let mix = |v: u8| (255.0 - (255.0 - f64::from(v)) * 0.18).round() as u8;
    plotters::style::RGBColor(mix(c.0), mix(c.1), mix(c.2))
}

/// Shades the settling days; true when there were any.
fn shade_settling(
    chart: &mut Chart<'_, '_>,
    data: &FitnessChart,
    lo: f64,
    hi: f64,
) -> Result<bool, ChartError> {
    let Some(last) = data.days.iter().rposition(|d| d.settling) else {
        return Ok(false);
    };
    let first = data.days.iter().position(|d| d.settling).unwrap_or(0);
    chart
        .draw_series(std::iter::once(Rectangle::new(
            [(first as f64 - 0.5, lo), (last as f64 + 0.5, hi)],
            tint(AXIS, 0.18).filled(),
        )))
        .map_err(drawing)?;
    Ok(true)
}

/// Runs of consecutive usable days as points.
fn runs(data: &FitnessChart, pick: &dyn Fn(&FitnessDay) -> f64) -> Vec<Vec<(f64, f64)>> {
    let mut runs: Vec<Vec<(f64, f64)>> = vec![Vec::new()];
    for (i, d) in data.days.iter().enumerate() {
        match (usable(d), runs.last_mut()) {
            (true, Some(run)) => run.push((i as f64, pick(d))),
            _ => runs.push(Vec::new()),
        }
    }
    runs.retain(|r| r.len() >= 2);
    runs
}

/// Day labels under the lower panel, thinned so they never overlap; the newest is always labelled.
/// Over more than about eight months the labels are months (`2026-03`), else days (`03-14`).
fn day_labels(
    root: &Area<'_>,
    theme: &Theme,
    chart: &Chart<'_, '_>,
    data: &FitnessChart,
) -> Result<(), ChartError> {
    let n = data.days.len();
    let long = n > 240;
    let label = |date: &str| -> String {
        if date.len() != 10 {
            return date.to_owned();
        }
        if long { date.get(..7) } else { date.get(5..) }.unwrap_or(date).to_owned()
    };
    let (_, y_px) = chart.plotting_area().get_pixel_range();
    let y_base = y_px.end;
    let (x0, _) = chart.backend_coord(&(0.0, 0.0));
    let (x1, _) = chart.backend_coord(&(1.0, 0.0));
    let slot = f64::from((x1 - x0).max(0)).max(0.01);
    let width = f64::from(note_width(theme, if long { "0000-00" } else { "00-00" })? + theme.px(14.0));
    let every = ((width / slot).ceil() as usize).max(1);
    let mut marks = Vec::new();
    for (i, d) in data.days.iter().enumerate() {
        if !(n - 1 - i).is_multiple_of(every) {
            continue;
        }
        let (x, _) = chart.backend_coord(&(i as f64, 0.0));
        marks.push(PathElement::new(vec![(x, y_base), (x, y_base + theme.px(5.0))], GRID.stroke_width(1)));
        note(root, theme, &label(&d.date), (x, y_base + theme.px(12.0)), (H::Center, V::Top), &MUTED)?;
    }
    for m in marks {
        root.draw(&m).map_err(drawing)?;
    }
    Ok(())
}
