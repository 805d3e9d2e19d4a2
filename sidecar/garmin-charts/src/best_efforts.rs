//! The best-efforts (mean-max) curve: for each duration from seconds to hours, the best average
//! power, pace or heart rate held that long, on a logarithmic time axis so the sprint and the
//! long haul both read. One period (this season) is drawn bold, others (last season) behind it.

use plotters::element::{Circle, PathElement};
use plotters::style::{Color, RGBColor};

use crate::canvas::{Area, drawing, render};
use crate::format::{amount, mss};
use crate::frame::{Header, LegendItem, Mark, header, legend_above, note, note_width};
use crate::i18n::Phrase;
use crate::plot::{Axes, Chart, LEFT_AREA, decimal_ticks, nice_top, pace_ticks, padded, panel, segments};
use crate::text::{H, V};
use crate::theme::{AXIS, GRID, HEART, MUTED, PACE, POWER, Theme};
use crate::{ChartError, ChartOptions, Png};

/// What the curve measures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CurveMetric {
    /// Power, W.
    #[default]
    Power,
    /// Speed in m/s, drawn as pace (min/km, faster higher).
    Pace,
    /// Heart rate, bpm.
    HeartRate,
}

/// One period's curve.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CurveSeries {
    /// The period's name (`This season`, `2025`…).
    pub label: String,
    /// `(seconds, value)` points: W, m/s or bpm (any order; bad values skipped).
    pub points: Vec<(u32, f64)>,
}

/// What the best-efforts chart draws.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BestEffortsChart {
    /// The metric of every series.
    pub metric: CurveMetric,
    /// The first is drawn bold (the period asked about), the others behind it.
    pub series: Vec<CurveSeries>,
}

/// Durations labelled on the time axis, s: the major ones first, then the minor ones where they
/// fit between (labels never overlap at any chart size).
const TIME_TICKS: [(u32, &str); 14] = [
    (1, "1 s"),
    (15, "15 s"),
    (60, "1 min"),
    (300, "5 min"),
    (1200, "20 min"),
    (3600, "1 h"),
    (10_800, "3 h"),
    (5, "5 s"),
    (30, "30 s"),
    (120, "2 min"),
    (600, "10 min"),
    (1800, "30 min"),
    (7200, "2 h"),
    (18_000, "5 h"),
];

/// Colours of the series after the first.
const OTHERS: [RGBColor; 3] = [AXIS, RGBColor(120, 128, 140), RGBColor(203, 213, 225)];

/// The points worth drawing: positive durations, finite positive values, shortest first, the
/// value drawn on the y axis (pace as −seconds per km so faster is higher).
fn prepared(metric: CurveMetric, series: &CurveSeries) -> Vec<(f64, f64)> {
    let mut points: Vec<(f64, f64)> = series
        .points
        .iter()
        .filter(|(s, v)| *s > 0 && v.is_finite() && *v > 0.0)
        .map(|&(s, v)| {
            let y = match metric {
                CurveMetric::Pace => -(1000.0 / v),
                CurveMetric::Power | CurveMetric::HeartRate => v,
            };
            (f64::from(s).log10(), y)
        })
        .collect();
    points.sort_by(|a, b| a.0.total_cmp(&b.0));
    points.dedup_by(|a, b| a.0 == b.0);
    points
}

/// Draws the best-efforts curve.
pub fn best_efforts(data: &BestEffortsChart, options: &ChartOptions) -> Result<Png, ChartError> {
    let series: Vec<(&CurveSeries, Vec<(f64, f64)>)> =
        data.series.iter().map(|s| (s, prepared(data.metric, s))).filter(|(_, p)| !p.is_empty()).collect();
    if series.is_empty() {
        return Err(ChartError::NoData("no best efforts to draw".to_owned()));
    }
    render(options, |root, theme| draw(root, theme, options, data.metric, &series))
}

fn draw(
    root: &Area<'_>,
    theme: &Theme,
    options: &ChartOptions,
    metric: CurveMetric,
    series: &[(&CurveSeries, Vec<(f64, f64)>)],
) -> Result<(), ChartError> {
    let lang = theme.language;
    let show = |y: f64| match metric {
        CurveMetric::Pace => format!("{}/km", mss(-y)),
        CurveMetric::Power => format!("{y:.0} W"),
        CurveMetric::HeartRate => format!("{y:.0} bpm"),
    };
    // The subtitle: the first two periods' bests at 5 and 20 minutes, when they have them.
    let mut facts = Vec::new();
    for (s, points) in series.iter().take(2) {
        let at = |secs: f64| points.iter().find(|p| (p.0 - secs.log10()).abs() < 1e-9).map(|p| p.1);
        let mut parts = Vec::new();
        for (secs, name) in [(300.0, "5 min"), (1200.0, "20 min")] {
            if let Some(y) = at(secs) {
                parts.push(format!("{name} {}", show(y)));
            }
        }
        if !parts.is_empty() {
            let label =
                if s.label.trim().is_empty() { String::new() } else { format!("{}: ", s.label.trim()) };
            facts.push(format!("{label}{}", parts.join(", ")));
        }
    }
    let title = match metric {
        CurveMetric::Power => Phrase::PowerCurve,
        CurveMetric::Pace => Phrase::PaceCurve,
        CurveMetric::HeartRate => Phrase::HeartRateCurve,
    }
    .text(lang);
    let body = header(
        root,
        theme,
        options,
        &Header { title: title.to_owned(), subtitle: facts.join(" · "), badge: None },
    )?;

    let all = || series.iter().flat_map(|(_, p)| p.iter());
    let x_lo = all().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let x_hi = all().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
    let (x_lo, x_hi) =
        if x_hi - x_lo < 0.3 { (x_lo - 0.15, x_hi + 0.15) } else { (x_lo - 0.04, x_hi + 0.04) };
    let y_lo = all().map(|p| p.1).fold(f64::INFINITY, f64::min);
    let y_hi = all().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
    let (y_range, y_ticks) = match metric {
        CurveMetric::Pace => {
            let (lo, hi) = padded(-y_hi, -y_lo, 0.08, 5.0);
            let step = if hi - lo > 600.0 { 60.0 } else { 15.0 };
            let (lo, hi) = (((lo / step).floor() * step).max(0.0), (hi / step).ceil() * step);
            (-hi..-lo, pace_ticks(lo, hi, 7).into_iter().map(|t| -t).collect())
        }
        CurveMetric::HeartRate => {
            let (lo, hi) = padded(y_lo, y_hi, 0.08, 4.0);
            let (lo, hi) = ((lo / 10.0).floor() * 10.0, (hi / 10.0).ceil() * 10.0);
            (lo..hi, decimal_ticks(lo, hi, 6))
        }
        CurveMetric::Power => {
            let top = nice_top(y_hi);
            (0.0..top, decimal_ticks(0.0, top, 6))
        }
    };
    let no_label = |_: f64| String::new();
    let y_fmt = |v: f64| match metric {
        CurveMetric::Pace => mss(-v),
        _ => amount(v),
    };
    let y_desc = match metric {
        CurveMetric::Power => Phrase::PowerW,
        CurveMetric::Pace => Phrase::PacePerKm,
        CurveMetric::HeartRate => Phrase::HeartRateBpm,
    }
    .text(lang);
    let axes = Axes {
        x: x_lo..x_hi,
        y: y_range.clone(),
        x_desc: Some(Phrase::DurationLog.text(lang)),
        y_desc,
        x_fmt: &no_label,
        y_fmt: &y_fmt,
        x_ticks: Vec::new(),
        y_ticks,
        x_grid: false,
        left: LEFT_AREA,
        right: 0.0,
    };
    let mut chart = panel(root, &body, theme, &axes)?;
    time_ticks(root, theme, &chart, x_lo, x_hi)?;
    let main = match metric {
        CurveMetric::Power => POWER,
        CurveMetric::Pace => PACE,
        CurveMetric::HeartRate => HEART,
    };
    let clamp = |p: &(f64, f64)| (p.0, p.1.clamp(y_range.start, y_range.end));
    let mut legend = Vec::new();
    // Others behind, the first on top.
    for (i, (s, points)) in series.iter().enumerate().rev() {
        let (color, width) = if i == 0 { (main, 3.5) } else { (OTHERS[(i - 1) % OTHERS.len()], 2.5) };
        let points: Vec<(f64, f64)> = points.iter().map(clamp).collect();
        chart.draw_series(segments(&points, theme.line(color, width))).map_err(drawing)?;
        let dot = theme.px(if i == 0 { 4.0 } else { 3.0 }).max(1);
        chart.draw_series(points.iter().map(|p| Circle::new(*p, dot, color.filled()))).map_err(drawing)?;
        let label = if s.label.trim().is_empty() { title.to_owned() } else { s.label.trim().to_owned() };
        legend.push(LegendItem::new(color, Mark::Line, label));
    }
    legend.reverse();
    legend_above(root, &chart, theme, &legend)
}

/// The time axis: grid lines, tick marks and labels at the [`TIME_TICKS`] inside the range, the
/// major ones first and each minor one only where its label clears the others.
fn time_ticks(
    root: &Area<'_>,
    theme: &Theme,
    chart: &Chart<'_, '_>,
    lo: f64,
    hi: f64,
) -> Result<(), ChartError> {
    let (_, y_px) = chart.plotting_area().get_pixel_range();
    let (top, bottom) = (y_px.start, y_px.end - 1);
    let gap = theme.px(14.0);
    let mut kept: Vec<(i32, i32)> = Vec::new();
    for (seconds, label) in TIME_TICKS {
        let x = f64::from(seconds).log10();
        if x < lo || x > hi {
            continue;
        }
        let (px, _) = chart.backend_coord(&(x, 0.0));
        let half = note_width(theme, label)? / 2;
        let (from, to) = (px - half, px + half);
        if kept.iter().any(|&(a, b)| from < b + gap && to + gap > a) {
            continue;
        }
        kept.push((from, to));
        root.draw(&PathElement::new(vec![(px, top), (px, bottom)], GRID.stroke_width(1))).map_err(drawing)?;
        root.draw(&PathElement::new(vec![(px, bottom), (px, bottom + theme.px(5.0))], AXIS.stroke_width(1)))
            .map_err(drawing)?;
        note(root, theme, label, (px, bottom + theme.px(11.0)), (H::Center, V::Top), &MUTED)?;
    }
    Ok(())
}
