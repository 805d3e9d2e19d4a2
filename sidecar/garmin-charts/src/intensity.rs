//! The weekly intensity-distribution chart: one 100 % bar per week split into the share of time in
//! each zone (Garmin's five heart-rate zones, or the three zones of the polarised model), with the
//! week's low-intensity share marked by a white cut and written under it — "how much of my training was really easy?".

use plotters::element::{PathElement, Rectangle};
use plotters::style::{Color, RGBColor};

use crate::canvas::{Area, drawing, render};
use crate::format::span;
use crate::frame::{Header, LegendItem, Mark, header, legend_above, note, note_width};
use crate::i18n::Phrase;
use crate::plot::{Axes, LEFT_AREA, panel};
use crate::text::{H, V};
use crate::theme::{MUTED, Theme, ZONES};
use crate::{ChartError, ChartOptions, Png};

/// One week's time in zones.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IntensityWeek {
    /// The week's label (its first day, `2026-03-02`, or `W10`).
    pub label: String,
    /// Seconds in each zone, easiest first (3 or 5 zones; bad values count as 0).
    pub zone_seconds: Vec<f64>,
}

/// What the intensity chart draws.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct IntensityChart {
    /// The weeks, oldest first.
    pub weeks: Vec<IntensityWeek>,
    /// How many of the easiest zones count as low intensity (e.g. 2 of 5 heart-rate zones, 1 of 3).
    pub low_zones: usize,
}

/// Colours of three zones (easy, moderate, hard) and of five (the watch's).
fn zone_colors(zones: usize) -> Vec<RGBColor> {
    if zones == 3 { vec![ZONES[1], ZONES[3], ZONES[4]] } else { ZONES.to_vec() }
}

const WHITE: RGBColor = RGBColor(255, 255, 255);

fn clean(v: f64) -> f64 {
    if v.is_finite() && v > 0.0 { v } else { 0.0 }
}

/// Draws the weekly intensity distribution.
pub fn intensity(data: &IntensityChart, options: &ChartOptions) -> Result<Png, ChartError> {
    let zones = data.weeks.iter().map(|w| w.zone_seconds.len()).max().unwrap_or(0);
    if !(1..=5).contains(&zones) {
        return Err(ChartError::NoData(format!(
            "time in zones must come as 1 to 5 zones per week, got {zones}"
        )));
    }
    let total: f64 = data.weeks.iter().flat_map(|w| &w.zone_seconds).map(|v| clean(*v)).sum();
    if total <= 0.0 {
        return Err(ChartError::NoData("no time in zones was recorded in these weeks".to_owned()));
    }
    render(options, |root, theme| draw(root, theme, options, data, zones))
}

fn draw(
    root: &Area<'_>,
    theme: &Theme,
    options: &ChartOptions,
    data: &IntensityChart,
    zones: usize,
) -> Result<(), ChartError> {
    let lang = theme.language;
    let n = data.weeks.len();
    let low = data.low_zones.min(zones);
    let totals: Vec<f64> =
        data.weeks.iter().map(|w| w.zone_seconds.iter().map(|v| clean(*v)).sum()).collect();
    let lows: Vec<f64> =
        data.weeks.iter().map(|w| w.zone_seconds.iter().take(low).map(|v| clean(*v)).sum()).collect();
    let all: f64 = totals.iter().sum();
    let all_low: f64 = lows.iter().sum();
    let first = data.weeks.first().map_or("", |w| w.label.as_str());
    let last = data.weeks.last().map_or("", |w| w.label.as_str());
    let mut facts = vec![format!("{first} – {last}"), span(all / 60.0, lang)];
    if low > 0 {
        facts.push(format!("{} {:.0} %", Phrase::LowShare.text(lang), 100.0 * all_low / all));
    }
    let body = header(
        root,
        theme,
        options,
        &Header {
            title: Phrase::IntensityTitle.text(lang).to_owned(),
            subtitle: facts.join(" · "),
            badge: None,
        },
    )?;
    let y_fmt = |v: f64| format!("{v:.0}");
    let x_fmt = |_: f64| String::new();
    let axes = Axes {
        x: -0.5..(n as f64 - 0.5),
        y: 0.0..100.0,
        x_desc: Some(""),
        y_desc: Phrase::ShareOfTime.text(lang),
        x_fmt: &x_fmt,
        y_fmt: &y_fmt,
        x_ticks: Vec::new(),
        y_ticks: vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0],
        x_grid: false,
        left: LEFT_AREA,
        right: 0.0,
    };
    let mut chart = panel(root, &body, theme, &axes)?;
    let colors = zone_colors(zones);
    let half = 0.36;
    let mut bars = Vec::new();
    for (i, week) in data.weeks.iter().enumerate() {
        if totals[i] <= 0.0 {
            continue;
        }
        let mut base = 0.0;
        for (z, v) in week.zone_seconds.iter().enumerate() {
            let share = 100.0 * clean(*v) / totals[i];
            if share > 0.0 {
                let color = colors.get(z).copied().unwrap_or(MUTED);
                bars.push(Rectangle::new(
                    [(i as f64 - half, base), (i as f64 + half, base + share)],
                    color.filled(),
                ));
            }
            base += share;
        }
    }
    chart.draw_series(bars).map_err(drawing)?;
    // The boundary between low and the rest, as a white cut across each bar, shows the share.
    if low > 0 {
        let cuts = (0..n).filter(|&i| totals[i] > 0.0).map(|i| {
            let y = 100.0 * lows[i] / totals[i];
            PathElement::new(vec![(i as f64 - half, y), (i as f64 + half, y)], theme.line(WHITE, 2.0))
        });
        chart.draw_series(cuts).map_err(drawing)?;
    }

    // Labels: the low share inside the top of each bar when it fits, the week under it (thinned).
    let (x0, y_base) = chart.backend_coord(&(0.0, 0.0));
    let (x1, _) = chart.backend_coord(&(1.0, 0.0));
    let slot = (x1 - x0).max(1);
    let mut widest = 0;
    for w in &data.weeks {
        widest = widest.max(note_width(theme, &w.label)?);
    }
    let every = usize::try_from((widest + theme.px(10.0)) / slot + 1).unwrap_or(1).max(1);
    for (i, week) in data.weeks.iter().enumerate() {
        let (x, _) = chart.backend_coord(&(i as f64, 0.0));
        if (n - 1 - i).is_multiple_of(every) {
            note(root, theme, &week.label, (x, y_base + theme.px(12.0)), (H::Center, V::Top), &MUTED)?;
        }
        // The low share, in white just under the cut, where the low part is tall enough for it.
        if low > 0 && totals[i] > 0.0 {
            let share = 100.0 * lows[i] / totals[i];
            let text = format!("{share:.0}%");
            let (_, y_cut) = chart.backend_coord(&(i as f64, share));
            if note_width(theme, &text)? + theme.px(4.0) <= slot && y_base - y_cut >= theme.px(34.0) {
                note(root, theme, &text, (x, y_cut + theme.px(8.0)), (H::Center, V::Top), &WHITE)?;
            }
        }
    }

    let legend: Vec<LegendItem> = (0..zones)
        .map(|z| {
            let name = if zones == 3 {
                [Phrase::ZoneEasy, Phrase::ZoneModerate, Phrase::ZoneHard][z].text(lang).to_owned()
            } else {
                format!("{} {}", Phrase::Zone.text(lang), z + 1)
            };
            LegendItem::new(colors.get(z).copied().unwrap_or(MUTED), Mark::Box, name)
        })
        .collect();
    legend_above(root, &chart, theme, &legend)
}
