//! The strength chart, in one of two views: an exercise's estimated one-rep max session by session
//! (a line with a dot per session, "how has my squat moved?"), or the sets per muscle group week by
//! week as stacked bars (the six groups with most sets coloured, the rest as "other"), so a group
//! left out stands out.

use plotters::element::{Circle, Rectangle};
use plotters::style::Color;

use crate::canvas::{Area, drawing, render};
use crate::format::amount;
use crate::frame::{Header, LegendItem, Mark, header, legend_above, note, note_width};
use crate::i18n::Phrase;
use crate::plot::{Axes, LEFT_AREA, decimal_ticks, nice_top, padded, panel, segments};
use crate::text::{H, V};
use crate::theme::{ACUTE, CYCLING, HEART, MUTED, OTHER_SPORT, RUNNING, STRENGTH, SWIMMING, Theme, WALKING};
use crate::{ChartError, ChartOptions, Png};

/// Colours of the muscle groups with most sets, most first.
const MUSCLE_COLOURS: [plotters::style::RGBColor; 6] = [STRENGTH, RUNNING, CYCLING, WALKING, SWIMMING, HEART];

/// One session's estimate.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct E1rmPoint {
    /// The day, `YYYY-MM-DD`.
    pub date: String,
    /// Estimated one-rep max, kg.
    pub kg: f64,
}

/// One muscle group's sets, week by week.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MuscleSets {
    /// The muscle group, as the legend writes it.
    pub muscle: String,
    /// Sets per week, in the order of the chart's weeks.
    pub sets: Vec<f64>,
}

/// What the strength chart draws.
#[derive(Clone, Debug, PartialEq)]
pub enum StrengthChart {
    /// An exercise's estimated one-rep max per session.
    E1rm {
        /// The exercise, for the title.
        exercise: String,
        /// The sessions, oldest first.
        points: Vec<E1rmPoint>,
    },
    /// Sets per muscle group and week.
    MuscleSets {
        /// The weeks' labels (their Mondays, `YYYY-MM-DD`), oldest first.
        weeks: Vec<String>,
        /// The muscle groups, most sets first.
        muscles: Vec<MuscleSets>,
    },
}

fn usable(v: f64) -> bool {
    v.is_finite() && v > 0.0
}

/// Draws the strength chart.
pub fn strength(data: &StrengthChart, options: &ChartOptions) -> Result<Png, ChartError> {
    match data {
        StrengthChart::E1rm { exercise, points } => {
            if !points.iter().any(|p| usable(p.kg)) {
                return Err(ChartError::NoData(format!("no weighted set of {exercise} to estimate from")));
            }
            render(options, |root, theme| draw_e1rm(root, theme, options, exercise, points))
        }
        StrengthChart::MuscleSets { weeks, muscles } => {
            if weeks.is_empty() || !muscles.iter().any(|m| m.sets.iter().any(|s| usable(*s))) {
                return Err(ChartError::NoData("no strength set in the weeks asked".to_owned()));
            }
            render(options, |root, theme| draw_muscles(root, theme, options, weeks, muscles))
        }
    }
}

/// `MM-DD` of a `YYYY-MM-DD` label.
fn short(date: &str) -> &str {
    date.get(5..).filter(|_| date.len() == 10).unwrap_or(date)
}

/// Labels under slots `0..n`, thinned so they never overlap; the last is always labelled.
fn slot_labels<'l>(
    root: &Area<'_>,
    theme: &Theme,
    at: &dyn Fn(f64) -> (i32, i32),
    labels: impl Iterator<Item = &'l str>,
    n: usize,
) -> Result<(), ChartError> {
    let ((x0, y_base), (x1, _)) = (at(0.0), at(1.0));
    let slot = (x1 - x0).max(1);
    let every =
        usize::try_from((note_width(theme, "00-00")? + theme.px(12.0)) / slot + 1).unwrap_or(1).max(1);
    for (i, label) in labels.enumerate() {
        if (n - 1 - i).is_multiple_of(every) {
            let (x, _) = at(i as f64);
            note(root, theme, short(label), (x, y_base + theme.px(12.0)), (H::Center, V::Top), &MUTED)?;
        }
    }
    Ok(())
}

fn draw_e1rm(
    root: &Area<'_>,
    theme: &Theme,
    options: &ChartOptions,
    exercise: &str,
    points: &[E1rmPoint],
) -> Result<(), ChartError> {
    let lang = theme.language;
    let kept: Vec<(f64, f64)> =
        points.iter().enumerate().filter(|(_, p)| usable(p.kg)).map(|(i, p)| (i as f64, p.kg)).collect();
    let (lo, hi) = kept.iter().fold((f64::MAX, f64::MIN), |(lo, hi), (_, kg)| (lo.min(*kg), hi.max(*kg)));
    let (first, last) = (kept[0].1, kept[kept.len() - 1].1);
    let span = format!("{} – {}", points[0].date, points[points.len() - 1].date);
    let body = header(
        root,
        theme,
        options,
        &Header {
            title: format!("{exercise} · {}", Phrase::E1rmTitle.text(lang)),
            subtitle: format!("{span} · {} → {} kg", amount(first), amount(last)),
            badge: None,
        },
    )?;
    let (y_lo, y_hi) = padded(lo, hi, 0.15, 2.5);
    let y_ticks = decimal_ticks(y_lo, y_hi, 6);
    let (x_fmt, y_fmt) = (|_: f64| String::new(), |v: f64| amount(v));
    let axes = Axes {
        x: -0.5..points.len() as f64 - 0.5,
        y: y_lo..y_hi,
        x_desc: Some(Phrase::Date.text(lang)),
        y_desc: Phrase::E1rmKg.text(lang),
        x_fmt: &x_fmt,
        y_fmt: &y_fmt,
        x_ticks: Vec::new(),
        y_ticks,
        x_grid: false,
        left: LEFT_AREA,
        right: 0.0,
    };
    let mut chart = panel(root, &body, theme, &axes)?;
    chart.draw_series(segments(&kept, theme.line(ACUTE, 3.0))).map_err(drawing)?;
    let dot = theme.px(6.0).max(2);
    chart.draw_series(kept.iter().map(|p| Circle::new(*p, dot, ACUTE.filled()))).map_err(drawing)?;
    let at = |x: f64| chart.backend_coord(&(x, y_lo));
    slot_labels(root, theme, &at, points.iter().map(|p| p.date.as_str()), points.len())?;
    legend_above(root, &chart, theme, &[LegendItem::new(ACUTE, Mark::Line, Phrase::E1rmKg.text(lang))])
}

fn draw_muscles(
    root: &Area<'_>,
    theme: &Theme,
    options: &ChartOptions,
    weeks: &[String],
    muscles: &[MuscleSets],
) -> Result<(), ChartError> {
    let lang = theme.language;
    let sets = |m: &MuscleSets, w: usize| m.sets.get(w).copied().filter(|s| usable(*s)).unwrap_or(0.0);
    let coloured = muscles.len().min(MUSCLE_COLOURS.len());
    let mut stacks: Vec<(String, plotters::style::RGBColor, Vec<f64>)> = muscles[..coloured]
        .iter()
        .zip(MUSCLE_COLOURS)
        .map(|(m, c)| (m.muscle.clone(), c, (0..weeks.len()).map(|w| sets(m, w)).collect()))
        .collect();
    if muscles.len() > coloured {
        let rest = (0..weeks.len()).map(|w| muscles[coloured..].iter().map(|m| sets(m, w)).sum()).collect();
        stacks.push((Phrase::OtherSport.text(lang).to_owned(), OTHER_SPORT, rest));
    }
    let totals: Vec<f64> = (0..weeks.len()).map(|w| stacks.iter().map(|s| s.2[w]).sum()).collect();
    let mean = totals.iter().sum::<f64>() / weeks.len() as f64;
    let body = header(
        root,
        theme,
        options,
        &Header {
            title: Phrase::MuscleSetsTitle.text(lang).to_owned(),
            subtitle: format!(
                "{} – {} · {} {}",
                weeks[0],
                weeks[weeks.len() - 1],
                amount(mean),
                Phrase::PerWeek.text(lang)
            ),
            badge: None,
        },
    )?;
    let top = nice_top(totals.iter().copied().fold(0.0, f64::max));
    let (x_fmt, y_fmt) = (|_: f64| String::new(), |v: f64| amount(v));
    let axes = Axes {
        x: -0.5..weeks.len() as f64 - 0.5,
        y: 0.0..top,
        x_desc: Some(Phrase::Date.text(lang)),
        y_desc: Phrase::SetsAxis.text(lang),
        x_fmt: &x_fmt,
        y_fmt: &y_fmt,
        x_ticks: Vec::new(),
        y_ticks: decimal_ticks(0.0, top, 6),
        x_grid: false,
        left: LEFT_AREA,
        right: 0.0,
    };
    let mut chart = panel(root, &body, theme, &axes)?;
    let mut base = vec![0.0; weeks.len()];
    for (_, colour, values) in &stacks {
        let bars: Vec<Rectangle<(f64, f64)>> = values
            .iter()
            .enumerate()
            .filter(|(_, v)| **v > 0.0)
            .map(|(w, v)| {
                let x = w as f64;
                Rectangle::new([(x - 0.34, base[w]), (x + 0.34, base[w] + v)], colour.filled())
            })
            .collect();
        chart.draw_series(bars).map_err(drawing)?;
        for (b, v) in base.iter_mut().zip(values) {
            *b += v;
        }
    }
    let at = |x: f64| chart.backend_coord(&(x, 0.0));
    slot_labels(root, theme, &at, weeks.iter().map(String::as_str), weeks.len())?;
    let legend: Vec<LegendItem> =
        stacks.iter().map(|(m, c, _)| LegendItem::new(*c, Mark::Box, m.clone())).collect();
    legend_above(root, &chart, theme, &legend)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png_header(bytes: &[u8]) -> bool {
        bytes.starts_with(&[0x89, b'P', b'N', b'G'])
    }

    #[test]
    fn both_views_draw_a_png_and_empty_data_is_refused_with_what_is_missing() {
        let options = ChartOptions::default();
        let points = (0..8)
            .map(|i| E1rmPoint { date: format!("2026-10-{:02}", i + 1), kg: 80.0 + f64::from(i) })
            .collect();
        let line = strength(&StrengthChart::E1rm { exercise: "Barbell back squat".into(), points }, &options)
            .unwrap();
        assert!(png_header(&line.bytes));
        let weeks: Vec<String> = (0..4).map(|i| format!("2026-10-{:02}", 5 + 7 * i)).collect();
        let muscles = (0..8)
            .map(|i| MuscleSets { muscle: format!("muscle {i}"), sets: vec![f64::from(8 - i); 4] })
            .collect();
        let bars = strength(&StrengthChart::MuscleSets { weeks: weeks.clone(), muscles }, &options).unwrap();
        assert!(png_header(&bars.bytes));
        let none = strength(&StrengthChart::E1rm { exercise: "Plank".into(), points: Vec::new() }, &options);
        assert!(matches!(none, Err(ChartError::NoData(m)) if m.contains("Plank")));
        let empty = strength(&StrengthChart::MuscleSets { weeks, muscles: Vec::new() }, &options);
        assert!(matches!(empty, Err(ChartError::NoData(_))));
    }
}
