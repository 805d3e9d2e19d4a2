//! The volume chart: distance or time per week or month, one colour per sport, stacked (the
//! total reads as the bar's height) or grouped (sports side by side), with each period's total
//! written above it and the average as a line.

use plotters::element::{PathElement, Rectangle};
use plotters::style::Color;

use crate::canvas::{Area, drawing, render};
use crate::format::amount;
use crate::frame::{Header, LegendItem, Mark, header, legend_above, note, note_width};
use crate::i18n::Phrase;
use crate::plot::{Axes, LEFT_AREA, decimal_ticks, nice_top, panel};
use crate::text::{H, V};
use crate::theme::{CYCLING, INK, MUTED, OTHER_SPORT, RUNNING, STRENGTH, SWIMMING, Theme, WALKING};
use crate::{ChartError, ChartOptions, Png};

/// A sport group of the volume chart (each has its colour).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Sport {
    /// Runs of every kind.
    Running,
    /// Rides.
    Cycling,
    /// Swims.
    Swimming,
    /// Walks and hikes.
    Walking,
    /// Strength training.
    Strength,
    /// Everything else.
    Other,
}

impl Sport {
    fn color(self) -> plotters::style::RGBColor {
        match self {
            Sport::Running => RUNNING,
            Sport::Cycling => CYCLING,
            Sport::Swimming => SWIMMING,
            Sport::Walking => WALKING,
            Sport::Strength => STRENGTH,
            Sport::Other => OTHER_SPORT,
        }
    }

    fn phrase(self) -> Phrase {
        match self {
            Sport::Running => Phrase::Running,
            Sport::Cycling => Phrase::Cycling,
            Sport::Swimming => Phrase::Swimming,
            Sport::Walking => Phrase::Walking,
            Sport::Strength => Phrase::Strength,
            Sport::Other => Phrase::OtherSport,
        }
    }
}

/// What the bars measure.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum VolumeMetric {
    /// Kilometres.
    #[default]
    Distance,
    /// Hours.
    Time,
}

/// One week or month.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VolumeBucket {
    /// The label under the bar (`11-09`, `2026-11`).
    pub label: String,
    /// Amount per sport, in the order of [`VolumeChart::sports`] (km or hours).
    pub values: Vec<f64>,
}

/// What the volume chart draws.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VolumeChart {
    /// Weeks (`true`) or months.
    pub weekly: bool,
    /// Distance or time.
    pub metric: VolumeMetric,
    /// The sports, bottom of the stack first.
    pub sports: Vec<Sport>,
    /// The periods, oldest first.
    pub buckets: Vec<VolumeBucket>,
    /// Stack the sports (else bars side by side).
    pub stacked: bool,
    /// The span in words for the subtitle (`2026-08-24 – 2026-11-15`).
    pub span: String,
}

/// Draws the volume chart.
pub fn volume(data: &VolumeChart, options: &ChartOptions) -> Result<Png, ChartError> {
    if data.buckets.is_empty() || data.sports.is_empty() {
        return Err(ChartError::NoData("no weeks or months to draw".to_owned()));
    }
    render(options, |root, theme| draw(root, theme, options, data))
}

fn value(bucket: &VolumeBucket, i: usize) -> f64 {
    bucket.values.get(i).copied().filter(|v| v.is_finite() && *v > 0.0).unwrap_or(0.0)
}

fn draw(
    root: &Area<'_>,
    theme: &Theme,
    options: &ChartOptions,
    data: &VolumeChart,
) -> Result<(), ChartError> {
    let lang = theme.language;
    let totals: Vec<f64> =
        data.buckets.iter().map(|b| (0..data.sports.len()).map(|i| value(b, i)).sum()).collect();
    let total: f64 = totals.iter().sum();
    let average = total / totals.len() as f64;
    let unit = match data.metric {
        VolumeMetric::Distance => "km",
        VolumeMetric::Time => "h",
    };
    let title = match (data.metric, data.weekly) {
        (VolumeMetric::Distance, true) => Phrase::WeeklyDistance,
        (VolumeMetric::Distance, false) => Phrase::MonthlyDistance,
        (VolumeMetric::Time, true) => Phrase::WeeklyTime,
        (VolumeMetric::Time, false) => Phrase::MonthlyTime,
    }
    .text(lang);
    let per = if data.weekly { Phrase::PerWeek } else { Phrase::PerMonth }.text(lang);
    let subtitle = format!(
        "{} · {} {} {unit} · {} {} {unit} {per}",
        data.span,
        Phrase::Total.text(lang),
        amount(total),
        Phrase::AvgPace.text(lang),
        amount(average)
    );
    let body = header(root, theme, options, &Header { title: title.to_owned(), subtitle, badge: None })?;

    let n = data.buckets.len();
    let tallest = if data.stacked {
        totals.iter().copied().fold(0.0, f64::max)
    } else {
        data.buckets.iter().flat_map(|b| (0..data.sports.len()).map(move |i| value(b, i))).fold(0.0, f64::max)
    };
    let top = nice_top(tallest);
    let y_fmt = |v: f64| amount(v);
    let x_fmt = |_: f64| String::new();
    let y_desc = match data.metric {
        VolumeMetric::Distance => Phrase::DistanceKm,
        VolumeMetric::Time => Phrase::TimeHours,
    }
    .text(lang);
    let axes = Axes {
        x: -0.5..(n as f64 - 0.5),
        y: 0.0..top,
        x_desc: Some(""),
        y_desc,
        x_fmt: &x_fmt,
        y_fmt: &y_fmt,
        x_ticks: Vec::new(),
        y_ticks: decimal_ticks(0.0, top, 6),
        x_grid: false,
        left: LEFT_AREA,
        right: 0.0,
    };
    let mut chart = panel(root, &body, theme, &axes)?;
    let sports = data.sports.len();
    let bar_half = 0.36;
    let mut bars = Vec::new();
    for (i, bucket) in data.buckets.iter().enumerate() {
        let center = i as f64;
        let mut base = 0.0;
        for s in 0..sports {
            let v = value(bucket, s);
            if v <= 0.0 {
                continue;
            }
            let color = data.sports[s].color();
            if data.stacked {
                bars.push(Rectangle::new(
                    [(center - bar_half, base), (center + bar_half, base + v)],
                    color.filled(),
                ));
                base += v;
            } else {
                let width = 2.0 * bar_half / sports as f64;
                let x0 = center - bar_half + width * s as f64;
                let mut bar = Rectangle::new([(x0, 0.0), (x0 + width, v)], color.filled());
                bar.set_margin(0, 0, 1, 1);
                bars.push(bar);
            }
        }
    }
    chart.draw_series(bars).map_err(drawing)?;

    // The average total as a line across the plot (stacked bars show totals; grouped ones don't).
    if average > 0.0 && data.stacked {
        let style = theme.line(MUTED, 1.5);
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(-0.5, average), (n as f64 - 0.5, average)],
                style,
            )))
            .map_err(drawing)?;
    }

    // Totals above the bars and the period labels below, thinned to fit; the newest is labelled.
    let (x_first, y_base) = chart.backend_coord(&(0.0, 0.0));
    let (x_second, _) = chart.backend_coord(&(1.0, 0.0));
    let slot = (x_second - x_first).max(1);
    let mut widest = 0;
    for b in &data.buckets {
        widest = widest.max(note_width(theme, &b.label)?);
    }
    let every = usize::try_from((widest + theme.px(10.0)) / slot + 1).unwrap_or(1).max(1);
    for (i, bucket) in data.buckets.iter().enumerate() {
        let (x, _) = chart.backend_coord(&(i as f64, 0.0));
        if (n - 1 - i).is_multiple_of(every) {
            note(root, theme, &bucket.label, (x, y_base + theme.px(12.0)), (H::Center, V::Top), &MUTED)?;
        }
        if data.stacked {
            let text = amount(totals[i]);
            if totals[i] > 0.0 && note_width(theme, &text)? <= slot {
                let (_, y) = chart.backend_coord(&(i as f64, totals[i]));
                note(root, theme, &text, (x, y - theme.px(7.0)), (H::Center, V::Baseline), &INK)?;
            }
            continue;
        }
        // Grouped: each bar's own amount when it fits above it.
        let width = 2.0 * bar_half / sports as f64;
        for s in 0..sports {
            let v = value(bucket, s);
            let text = amount(v);
            let center = i as f64 - bar_half + width * (s as f64 + 0.5);
            let (bx0, _) = chart.backend_coord(&(center - width / 2.0, v));
            let (bx1, by) = chart.backend_coord(&(center + width / 2.0, v));
            if v > 0.0 && note_width(theme, &text)? <= bx1 - bx0 + theme.px(4.0) {
                note(
                    root,
                    theme,
                    &text,
                    ((bx0 + bx1) / 2, by - theme.px(7.0)),
                    (H::Center, V::Baseline),
                    &INK,
                )?;
            }
        }
    }

    let mut legend: Vec<LegendItem> =
        data.sports.iter().map(|s| LegendItem::new(s.color(), Mark::Box, s.phrase().text(lang))).collect();
    if data.stacked {
        let label = format!("{} {} {unit}", Phrase::Average.text(lang), amount(average));
        legend.push(LegendItem::new(MUTED, Mark::Line, label));
    }
    legend_above(root, &chart, theme, &legend)
}
