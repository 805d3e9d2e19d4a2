//! The health-trend chart: one value per day over N days — resting heart rate or HRV as a line
//! with dots (HRV with its baseline band), Body Battery as each day's high–low bar, stress as
//! daily-average bars coloured by level — with the average as a line. Days without a reading are
//! gaps, never zeros.

use plotters::element::{Circle, PathElement, Rectangle};
use plotters::style::{Color, RGBColor};

use crate::canvas::{Area, drawing, render};
use crate::frame::{Header, LegendItem, Mark, header, legend_above, note, note_width};
use crate::i18n::Phrase;
use crate::plot::{Axes, LEFT_AREA, decimal_ticks, padded, panel, segments};
use crate::text::{H, V};
use crate::theme::{BODY_BATTERY, GOOD_BAND, HEART, HRV, MUTED, STRESS, Theme, tint};
use crate::{ChartError, ChartOptions, Png};

/// Which daily health value is drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HealthMetric {
    /// Resting heart rate, bpm.
    #[default]
    RestingHr,
    /// Overnight HRV average, ms.
    Hrv,
    /// Body Battery, 0–100 (each day's high and low).
    BodyBattery,
    /// Average stress, 0–100.
    Stress,
}

impl HealthMetric {
    fn title(self) -> Phrase {
        match self {
            HealthMetric::RestingHr => Phrase::RestingHr,
            HealthMetric::Hrv => Phrase::Hrv,
            HealthMetric::BodyBattery => Phrase::BodyBattery,
            HealthMetric::Stress => Phrase::Stress,
        }
    }

    fn unit(self) -> &'static str {
        match self {
            HealthMetric::RestingHr => "bpm",
            HealthMetric::Hrv => "ms",
            HealthMetric::BodyBattery | HealthMetric::Stress => "",
        }
    }

    fn color(self) -> RGBColor {
        match self {
            HealthMetric::RestingHr => HEART,
            HealthMetric::Hrv => HRV,
            HealthMetric::BodyBattery => BODY_BATTERY,
            HealthMetric::Stress => STRESS,
        }
    }
}

/// One day's reading.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TrendDay {
    /// The day, `YYYY-MM-DD`.
    pub date: String,
    /// The day's value (resting HR, HRV, average stress; Body Battery's is optional).
    pub value: Option<f64>,
    /// The day's lowest value (Body Battery).
    pub low: Option<f64>,
    /// The day's highest value (Body Battery).
    pub high: Option<f64>,
}

/// What the health-trend chart draws.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HealthTrendChart {
    /// The metric.
    pub metric: HealthMetric,
    /// The days, oldest first (days without a reading included, as gaps).
    pub days: Vec<TrendDay>,
    /// A normal range to shade (HRV baseline), low and high.
    pub baseline: Option<(f64, f64)>,
}

fn finite(v: Option<f64>) -> Option<f64> {
    v.filter(|x| x.is_finite())
}

/// Draws the health-trend chart.
pub fn health_trend(data: &HealthTrendChart, options: &ChartOptions) -> Result<Png, ChartError> {
    let any = data
        .days
        .iter()
        .any(|d| finite(d.value).is_some() || (finite(d.low).is_some() && finite(d.high).is_some()));
    if !any {
        return Err(ChartError::NoData("no day in the range has a reading to draw".to_owned()));
    }
    render(options, |root, theme| draw(root, theme, options, data))
}

/// Short day label: `11-15` from `2026-11-15`.
fn short_date(date: &str) -> &str {
    date.get(5..).filter(|_| date.len() == 10).unwrap_or(date)
}

/// Stress bar colour by level (rest, low, medium, high), as Garmin bands it.
fn stress_color(value: f64) -> RGBColor {
    match value {
        v if v <= 25.0 => RGBColor(96, 165, 250),
        v if v <= 50.0 => RGBColor(251, 191, 36),
        v if v <= 75.0 => RGBColor(245, 130, 32),
        _ => RGBColor(220, 80, 20),
    }
}

fn draw(
    root: &Area<'_>,
    theme: &Theme,
    options: &ChartOptions,
    data: &HealthTrendChart,
) -> Result<(), ChartError> {
    let lang = theme.language;
    let metric = data.metric;
    let n = data.days.len();
    let ranged = metric == HealthMetric::BodyBattery;
    let values: Vec<f64> = data.days.iter().filter_map(|d| finite(d.value)).collect();
    let average = (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64);
    let unit = metric.unit();
    let with_unit = |v: f64| if unit.is_empty() { format!("{v:.0}") } else { format!("{v:.0} {unit}") };

    let first = data.days.first().map_or("", |d| d.date.as_str());
    let last = data.days.last().map_or("", |d| d.date.as_str());
    let mut facts = vec![format!("{first} – {last}"), format!("{n} {}", Phrase::Days.text(lang))];
    if ranged {
        let highs: Vec<f64> = data.days.iter().filter_map(|d| finite(d.high)).collect();
        let lows: Vec<f64> = data.days.iter().filter_map(|d| finite(d.low)).collect();
        if !highs.is_empty() && !lows.is_empty() {
            let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
            facts.push(format!("{} {:.0}–{:.0}", Phrase::Average.text(lang), mean(&lows), mean(&highs)));
        }
    } else if let Some(avg) = average {
        facts.push(format!("{} {}", Phrase::Average.text(lang), with_unit(avg)));
    }
    let body = header(
        root,
        theme,
        options,
        &Header { title: metric.title().text(lang).to_owned(), subtitle: facts.join(" · "), badge: None },
    )?;

    let y = match metric {
        HealthMetric::BodyBattery | HealthMetric::Stress => 0.0..100.0,
        _ => {
            let mut all: Vec<f64> = values.clone();
            if let Some((lo, hi)) = data.baseline {
                all.extend([lo, hi]);
            }
            let lo = all.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = all.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let (lo, hi) = padded(lo, hi, 0.15, 3.0);
            (lo.max(0.0).floor())..hi.ceil()
        }
    };
    let x_fmt = |_: f64| String::new();
    let y_fmt = |v: f64| format!("{v:.0}");
    let y_desc = match metric {
        HealthMetric::RestingHr => "bpm",
        HealthMetric::Hrv => "ms",
        HealthMetric::BodyBattery => Phrase::BodyBattery.text(lang),
        HealthMetric::Stress => Phrase::StressLevel.text(lang),
    };
    let axes = Axes {
        x: -0.5..(n as f64 - 0.5),
        y: y.clone(),
        x_desc: Some(Phrase::Date.text(lang)),
        y_desc,
        x_fmt: &x_fmt,
        y_fmt: &y_fmt,
        x_ticks: Vec::new(),
        y_ticks: decimal_ticks(y.start, y.end, 6),
        x_grid: false,
        left: LEFT_AREA,
        right: 0.0,
    };
    let mut chart = panel(root, &body, theme, &axes)?;
    let x_end = n as f64 - 0.5;
    let mut legend = Vec::new();

    if let Some((lo, hi)) = data.baseline.filter(|(lo, hi)| lo.is_finite() && hi.is_finite() && hi > lo) {
        chart
            .draw_series(std::iter::once(Rectangle::new(
                [(-0.5, lo), (x_end, hi)],
                tint(GOOD_BAND, 0.14).filled(),
            )))
            .map_err(drawing)?;
        legend.push(LegendItem::new(
            RGBColor(187, 230, 203),
            Mark::Box,
            format!("{} {lo:.0}–{hi:.0}", Phrase::Baseline.text(lang)),
        ));
    }

    let color = metric.color();
    match metric {
        HealthMetric::BodyBattery => {
            chart
                .draw_series(data.days.iter().enumerate().filter_map(|(i, d)| {
                    let (lo, hi) = (finite(d.low)?, finite(d.high)?);
                    let x = i as f64;
                    Some(Rectangle::new([(x - 0.3, lo.min(hi)), (x + 0.3, hi.max(lo))], color.filled()))
                }))
                .map_err(drawing)?;
            legend.push(LegendItem::new(color, Mark::Box, Phrase::DailyRange.text(lang)));
        }
        HealthMetric::Stress => {
            chart
                .draw_series(data.days.iter().enumerate().filter_map(|(i, d)| {
                    let v = finite(d.value)?;
                    let x = i as f64;
                    Some(Rectangle::new([(x - 0.32, 0.0), (x + 0.32, v)], stress_color(v).filled()))
                }))
                .map_err(drawing)?;
            for (level, phrase) in [
                (10.0, Phrase::StressRest),
                (40.0, Phrase::StressLow),
                (60.0, Phrase::StressMedium),
                (90.0, Phrase::StressHigh),
            ] {
                legend.push(LegendItem::new(stress_color(level), Mark::Box, phrase.text(lang)));
            }
        }
        HealthMetric::RestingHr | HealthMetric::Hrv => {
            // Runs of consecutive days with a value are joined; a missing day breaks the line.
            let mut runs: Vec<Vec<(f64, f64)>> = vec![Vec::new()];
            for (i, d) in data.days.iter().enumerate() {
                match (finite(d.value), runs.last_mut()) {
                    (Some(v), Some(run)) => run.push((i as f64, v)),
                    _ => runs.push(Vec::new()),
                }
            }
            let style = theme.line(color, 2.5);
            chart
                .draw_series(runs.iter().filter(|r| r.len() >= 2).flat_map(|r| segments(r, style)))
                .map_err(drawing)?;
            let radius = theme.px(if n > 60 { 2.5 } else { 4.5 });
            chart
                .draw_series(data.days.iter().enumerate().filter_map(|(i, d)| {
                    Some(Circle::new((i as f64, finite(d.value)?), radius, color.filled()))
                }))
                .map_err(drawing)?;
            legend.push(LegendItem::new(color, Mark::Line, metric.title().text(lang)));
        }
    }
    if let Some(avg) = average.filter(|_| !ranged) {
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(-0.5, avg), (x_end, avg)],
                theme.line(MUTED, 1.5),
            )))
            .map_err(drawing)?;
        legend.push(LegendItem::new(
            MUTED,
            Mark::Line,
            format!("{} {}", Phrase::Average.text(lang), with_unit(avg)),
        ));
    }

    // Day labels under the axis, thinned so they never overlap; the newest day is always labelled.
    let (x0, y_base) = chart.backend_coord(&(0.0, y.start));
    let (x1, _) = chart.backend_coord(&(1.0, y.start));
    let slot = (x1 - x0).max(1);
    let label_width = note_width(theme, "00-00")? + theme.px(12.0);
    let every = usize::try_from(label_width / slot + 1).unwrap_or(1).max(1);
    for (i, d) in data.days.iter().enumerate() {
        if !(n - 1 - i).is_multiple_of(every) {
            continue;
        }
        let (x, _) = chart.backend_coord(&(i as f64, y.start));
        note(root, theme, short_date(&d.date), (x, y_base + theme.px(12.0)), (H::Center, V::Top), &MUTED)?;
    }
    legend_above(root, &chart, theme, &legend)
}
