//! The HR-zones chart: one horizontal bar per heart-rate zone (zone 5 on top, as on the watch),
//! in the zone's colour, with its bpm range on the left and its time and share on the right.

use plotters::element::Rectangle;
use plotters::style::Color;

use crate::canvas::{Area, drawing, render};
use crate::format::{amount, hms};
use crate::frame::{Header, header, note, note_width};
use crate::i18n::Phrase;
use crate::plot::{Axes, decimal_ticks, nice_top, panel};
use crate::text::{self, H, V};
use crate::theme::{DESC_PX, INK, MUTED, Theme, ZONES};
use crate::{ChartError, ChartOptions, Png};

/// Time spent in one zone.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ZoneTime {
    /// Zone number, 1–5.
    pub zone: u8,
    /// Seconds in the zone.
    pub seconds: f64,
    /// Zone floor, bpm.
    pub from_bpm: Option<f64>,
    /// Zone ceiling, bpm (the next zone's floor).
    pub to_bpm: Option<f64>,
}

/// What the HR-zones chart draws.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HrZonesChart {
    /// The activity's name (empty for a period: the chart's own title is used).
    pub name: String,
    /// The date or span.
    pub period: String,
    /// The zones (any order; missing zones are drawn empty).
    pub zones: Vec<ZoneTime>,
}

/// Room at the left for the zone names and bpm ranges (design pixels).
const ZONE_LABELS: f64 = 240.0;

/// Draws the HR-zones chart.
pub fn hr_zones(data: &HrZonesChart, options: &ChartOptions) -> Result<Png, ChartError> {
    let total: f64 = data.zones.iter().map(seconds).sum();
    if total <= 0.0 {
        return Err(ChartError::NoData("no time in heart-rate zones was recorded".to_owned()));
    }
    render(options, |root, theme| draw(root, theme, options, data, total))
}

fn seconds(z: &ZoneTime) -> f64 {
    if (1..=5).contains(&z.zone) && z.seconds.is_finite() && z.seconds > 0.0 { z.seconds } else { 0.0 }
}

fn draw(
    root: &Area<'_>,
    theme: &Theme,
    options: &ChartOptions,
    data: &HrZonesChart,
    total: f64,
) -> Result<(), ChartError> {
    let lang = theme.language;
    let zone_word = Phrase::TimeInZones.text(lang);
    let (title, subtitle) = if data.name.trim().is_empty() {
        (zone_word.to_owned(), format!("{} · {} {}", data.period, Phrase::Total.text(lang), hms(total)))
    } else {
        (
            data.name.clone(),
            format!("{} · {zone_word} · {} {}", data.period, Phrase::Total.text(lang), hms(total)),
        )
    };
    let body = header(root, theme, options, &Header { title, subtitle, badge: None })?;

    let by_zone: Vec<(u8, f64, Option<f64>, Option<f64>)> = (1..=5u8)
        .map(|zone| {
            let rows: Vec<&ZoneTime> = data.zones.iter().filter(|z| z.zone == zone).collect();
            let secs: f64 = rows.iter().map(|z| seconds(z)).sum();
            let from = rows.iter().find_map(|z| z.from_bpm.filter(|b| b.is_finite() && *b > 0.0));
            let to = rows.iter().find_map(|z| z.to_bpm.filter(|b| b.is_finite() && *b > 0.0));
            (zone, secs / 60.0, from, to)
        })
        .collect();
    // Minutes on the axis, hours once the longest bar passes three hours.
    let longest_min = by_zone.iter().map(|z| z.1).fold(0.0, f64::max);
    let (per_unit, x_desc) =
        if longest_min > 180.0 { (60.0, Phrase::TimeHours) } else { (1.0, Phrase::TimeMinutes) };
    let top = nice_top(longest_min / per_unit * 1.18);
    let x_fmt = |v: f64| amount(v);
    let y_fmt = |_: f64| String::new();
    let axes = Axes {
        x: 0.0..top,
        y: -0.5..4.5,
        x_desc: Some(x_desc.text(lang)),
        y_desc: "",
        x_fmt: &x_fmt,
        y_fmt: &y_fmt,
        x_ticks: decimal_ticks(0.0, top, 8),
        y_ticks: Vec::new(),
        x_grid: true,
        left: ZONE_LABELS,
        right: 0.0,
    };
    let mut chart = panel(root, &body, theme, &axes)?;
    chart
        .draw_series(by_zone.iter().map(|(zone, minutes, _, _)| {
            let y = f64::from(*zone) - 1.0;
            Rectangle::new(
                [(0.0, y - 0.32), (minutes / per_unit, y + 0.32)],
                ZONES[usize::from(*zone) - 1].filled(),
            )
        }))
        .map_err(drawing)?;

    for (zone, minutes, from, to) in &by_zone {
        let y = f64::from(*zone) - 1.0;
        let (x0, yc) = chart.backend_coord(&(0.0, y));
        let (x1, _) = chart.backend_coord(&(minutes / per_unit, y));
        let range = match (from, to) {
            (Some(a), Some(b)) => format!("{a:.0}–{b:.0} bpm"),
            (Some(a), None) => format!("{a:.0}+ bpm"),
            (None, Some(b)) => format!("< {b:.0} bpm"),
            (None, None) => String::new(),
        };
        let gap = theme.px(12.0);
        note(root, theme, &range, (x0 - gap, yc), (H::Right, V::Middle), &MUTED)?;
        let range_w = if range.is_empty() { 0 } else { note_width(theme, &range)? + theme.px(12.0) };
        let zone_color = ZONES[usize::from(*zone) - 1];
        text::draw(
            root,
            &format!("Z{zone}"),
            (x0 - gap - range_w, yc),
            theme.size(DESC_PX + 2.0),
            &zone_color,
            H::Right,
            V::Middle,
        )?;
        let share = minutes * 60.0 / total * 100.0;
        let label = format!("{} · {share:.0} %", hms(minutes * 60.0));
        note(root, theme, &label, (x1 + theme.px(10.0), yc), (H::Left, V::Middle), &INK)?;
    }
    Ok(())
}
