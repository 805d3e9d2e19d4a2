//! The sleep chart: one night as a hypnogram — a lane per stage (awake on top, deep at the bottom),
//! each stretch a block in the stage's colour joined by thin steps — with clock times along the
//! bottom, the time in each stage in the legend and the sleep score as the header's big number.

use plotters::element::{PathElement, Rectangle};
use plotters::style::Color;

use crate::canvas::{Area, drawing, render};
use crate::format::{clock, span};
use crate::frame::{Header, LegendItem, Mark, header, legend_above, note};
use crate::i18n::Phrase;
use crate::plot::{Axes, LEFT_AREA, panel};
use crate::text::{self, H, V};
use crate::theme::{AWAKE, AXIS, DEEP, DESC_PX, GRID, INK, LIGHT, MUTED, REM, Theme};
use crate::{ChartError, ChartOptions, Png};

/// A sleep stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SleepStage {
    /// Deep sleep.
    Deep,
    /// Light sleep.
    Light,
    /// REM sleep.
    Rem,
    /// Awake.
    Awake,
}

impl SleepStage {
    const ALL: [SleepStage; 4] = [SleepStage::Deep, SleepStage::Light, SleepStage::Rem, SleepStage::Awake];

    /// The lane, 0 (deep, bottom) to 3 (awake, top).
    fn lane(self) -> f64 {
        match self {
            SleepStage::Deep => 0.0,
            SleepStage::Light => 1.0,
            SleepStage::Rem => 2.0,
            SleepStage::Awake => 3.0,
        }
    }

    fn color(self) -> plotters::style::RGBColor {
        match self {
            SleepStage::Deep => DEEP,
            SleepStage::Light => LIGHT,
            SleepStage::Rem => REM,
            SleepStage::Awake => AWAKE,
        }
    }

    fn phrase(self) -> Phrase {
        match self {
            SleepStage::Deep => Phrase::Deep,
            SleepStage::Light => Phrase::Light,
            SleepStage::Rem => Phrase::Rem,
            SleepStage::Awake => Phrase::Awake,
        }
    }
}

/// One stretch of a stage. Times are minutes after midnight of the evening the night began
/// (`1390` = 23:10, `1845` = 06:45 the next morning); a night that began after midnight simply
/// starts below 1440.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SleepSegment {
    /// Start, minutes.
    pub start_min: f64,
    /// End, minutes.
    pub end_min: f64,
    /// The stage.
    pub stage: SleepStage,
}

/// What the sleep chart draws.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SleepChart {
    /// The day the night ended, `YYYY-MM-DD`.
    pub date: String,
    /// Garmin's sleep score.
    pub score: Option<u32>,
    /// The score's qualifier in words (`good`, `fair`…).
    pub quality: Option<String>,
    /// The stretches, in time order.
    pub segments: Vec<SleepSegment>,
}

/// Draws the sleep chart.
pub fn sleep(data: &SleepChart, options: &ChartOptions) -> Result<Png, ChartError> {
    let mut segments: Vec<SleepSegment> = data
        .segments
        .iter()
        .copied()
        .filter(|s| s.start_min.is_finite() && s.end_min.is_finite() && s.end_min > s.start_min)
        .collect();
    segments.sort_by(|a, b| a.start_min.total_cmp(&b.start_min));
    if segments.is_empty() {
        return Err(ChartError::NoData("the night has no sleep stages to draw".to_owned()));
    }
    render(options, |root, theme| draw(root, theme, options, data, &segments))
}

fn draw(
    root: &Area<'_>,
    theme: &Theme,
    options: &ChartOptions,
    data: &SleepChart,
    segments: &[SleepSegment],
) -> Result<(), ChartError> {
    let lang = theme.language;
    let start = segments.first().map_or(0.0, |s| s.start_min);
    let end = segments.iter().map(|s| s.end_min).fold(start, f64::max);
    let minutes_in = |stage: SleepStage| -> f64 {
        segments.iter().filter(|s| s.stage == stage).map(|s| s.end_min - s.start_min).sum()
    };
    let asleep: f64 =
        [SleepStage::Deep, SleepStage::Light, SleepStage::Rem].into_iter().map(minutes_in).sum();
    let in_bed = end - start;
    let title = format!("{} · {}", Phrase::Sleep.text(lang), data.date);
    let subtitle = format!("{}–{} · {}", clock(start), clock(end), span(asleep, lang));
    let badge = data.score.map(|score| {
        let caption = match &data.quality {
            Some(q) if !q.trim().is_empty() => format!("{} · {q}", Phrase::SleepScore.text(lang)),
            _ => Phrase::SleepScore.text(lang).to_owned(),
        };
        (score.to_string(), caption)
    });
    let body = header(root, theme, options, &Header { title, subtitle, badge })?;

    let x_fmt = |_: f64| String::new();
    let y_fmt = |_: f64| String::new();
    let axes = Axes {
        x: start..end,
        y: -0.5..3.5,
        x_desc: Some(Phrase::ClockTime.text(lang)),
        y_desc: "",
        x_fmt: &x_fmt,
        y_fmt: &y_fmt,
        x_ticks: Vec::new(),
        y_ticks: Vec::new(),
        x_grid: false,
        left: LEFT_AREA + 40.0,
        right: 0.0,
    };
    let mut chart = panel(root, &body, theme, &axes)?;

    // Hourly grid lines and clock labels.
    let first_hour = (start / 60.0).ceil() * 60.0;
    let every = if in_bed > 14.0 * 60.0 { 120.0 } else { 60.0 };
    let (_, y_bottom) = chart.backend_coord(&(start, -0.5));
    let mut t = first_hour;
    while t <= end {
        chart
            .draw_series(std::iter::once(PathElement::new(vec![(t, -0.5), (t, 3.5)], GRID.stroke_width(1))))
            .map_err(drawing)?;
        let (x, _) = chart.backend_coord(&(t, -0.5));
        note(root, theme, &clock(t), (x, y_bottom + theme.px(12.0)), (H::Center, V::Top), &MUTED)?;
        t += every;
    }

    // Thin steps between consecutive stretches, then the blocks over them.
    let steps: Vec<PathElement<(f64, f64)>> = segments
        .windows(2)
        .filter(|w| w[0].stage != w[1].stage)
        .map(|w| {
            let at = w[1].start_min;
            PathElement::new(vec![(at, w[0].stage.lane()), (at, w[1].stage.lane())], AXIS.stroke_width(1))
        })
        .collect();
    chart.draw_series(steps).map_err(drawing)?;
    chart
        .draw_series(segments.iter().map(|s| {
            let lane = s.stage.lane();
            Rectangle::new([(s.start_min, lane - 0.36), (s.end_min, lane + 0.36)], s.stage.color().filled())
        }))
        .map_err(drawing)?;

    // Stage names at the left of their lanes.
    for stage in SleepStage::ALL {
        let (x, y) = chart.backend_coord(&(start, stage.lane()));
        text::draw(
            root,
            stage.phrase().text(lang),
            (x - theme.px(14.0), y),
            theme.size(DESC_PX),
            &INK,
            H::Right,
            V::Middle,
        )?;
    }

    let legend: Vec<LegendItem> = SleepStage::ALL
        .iter()
        .rev()
        .map(|stage| {
            let minutes = minutes_in(*stage);
            let share = if in_bed > 0.0 { minutes / in_bed * 100.0 } else { 0.0 };
            let label = format!("{} {} · {share:.0} %", stage.phrase().text(lang), span(minutes, lang));
            LegendItem::new(stage.color(), Mark::Box, label)
        })
        .collect();
    legend_above(root, &chart, theme, &legend)
}
