//! The parts every chart shares around its plot: the header (title, subtitle with dates and
//! totals, an optional big number on the right such as the sleep score), legends and small notes.

use plotters::element::{PathElement, Rectangle};
use plotters::style::{Color, RGBColor};

use crate::canvas::{Area, drawing};
use crate::format::ellipsize;
use crate::plot::Chart;
use crate::text::{self, H, V};
use crate::theme::{INK, MUTED, PAGE_MARGIN, SMALL_PX, SUBTITLE_PX, TITLE_PX, Theme};
use crate::{ChartError, ChartOptions};

/// What the header shows.
pub(crate) struct Header {
    /// The chart's own title (replaced by `ChartOptions::title` when given).
    pub(crate) title: String,
    /// Dates and totals.
    pub(crate) subtitle: String,
    /// A big number on the right (`82`) and its caption (`Sleep score · good`).
    pub(crate) badge: Option<(String, String)>,
}

/// Draws the header and returns the area below it.
pub(crate) fn header<'a>(
    root: &Area<'a>,
    theme: &Theme,
    options: &ChartOptions,
    header: &Header,
) -> Result<Area<'a>, ChartError> {
    let (width, _) = root.dim_in_pixel();
    let left = theme.px(PAGE_MARGIN);
    let right = i32::try_from(width).unwrap_or(i32::MAX) - theme.px(PAGE_MARGIN);
    let top = theme.px(24.0);
    let title_size = theme.size(TITLE_PX);
    let sub_size = theme.size(SUBTITLE_PX);

    // The badge first: the title gets what is left.
    let mut title_right = right;
    if let Some((number, caption)) = &header.badge {
        let big = theme.size(TITLE_PX * 1.6);
        let small = theme.size(SMALL_PX);
        text::draw(root, number, (right, top - theme.px(4.0)), big, &INK, H::Right, V::Top)?;
        text::draw(
            root,
            caption,
            (right, top + theme.px(TITLE_PX * 0.9 + 14.0)),
            small,
            &MUTED,
            H::Right,
            V::Top,
        )?;
        let (w_number, _) = text::measure(number, big)?;
        let (w_caption, _) = text::measure(caption, small)?;
        title_right -= w_number.max(w_caption) + theme.px(24.0);
    }

    let title_text =
        options.title.clone().filter(|t| !t.trim().is_empty()).unwrap_or_else(|| header.title.clone());
    let title = fit(&title_text, title_size, title_right - left)?;
    text::draw(root, &title, (left, top), title_size, &INK, H::Left, V::Top)?;
    let subtitle = fit(&header.subtitle, sub_size, title_right - left)?;
    let sub_top = top + theme.px(TITLE_PX * 0.52 + 16.0);
    text::draw(root, &subtitle, (left, sub_top), sub_size, &MUTED, H::Left, V::Top)?;

    let mut height = sub_top + theme.px(SUBTITLE_PX * 0.52 + 10.0);
    if header.badge.is_some() {
        height = height.max(top + theme.px(TITLE_PX * 0.9 + 14.0 + SMALL_PX * 0.52 + 14.0));
    }
    let (_, below) = root.split_vertically(height);
    Ok(below)
}

/// `text` shortened with `…` until it fits `max_width` pixels at `size`.
pub(crate) fn fit(text: &str, size: f64, max_width: i32) -> Result<String, ChartError> {
    let mut chars = text.chars().count();
    let mut candidate = text.to_owned();
    while chars > 1 {
        let (w, _) = text::measure(&candidate, size)?;
        if w <= max_width {
            return Ok(candidate);
        }
        chars -= 1;
        candidate = ellipsize(text, chars);
    }
    Ok(candidate)
}

/// How a legend entry is marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mark {
    /// A filled square (bars, bands, stages).
    Box,
    /// A short thick line (lines).
    Line,
}

/// One legend entry.
pub(crate) struct LegendItem {
    pub(crate) color: RGBColor,
    pub(crate) mark: Mark,
    pub(crate) label: String,
}

impl LegendItem {
    pub(crate) fn new(color: RGBColor, mark: Mark, label: impl Into<String>) -> Self {
        LegendItem { color, mark, label: label.into() }
    }
}

/// Text size of legend labels (design pixels).
const LEGEND_PX: f64 = SMALL_PX + 1.0;

/// Width in pixels of a legend row.
fn legend_width(theme: &Theme, items: &[LegendItem]) -> Result<i32, ChartError> {
    let mut width = 0;
    for (i, item) in items.iter().enumerate() {
        let (w, _) = text::measure(&item.label, theme.size(LEGEND_PX))?;
        width += theme.px(28.0) + w;
        if i + 1 < items.len() {
            width += theme.px(20.0);
        }
    }
    Ok(width)
}

/// Draws a legend row starting at `x` (pixels of `root`), centred on `y`.
pub(crate) fn legend(
    root: &Area<'_>,
    theme: &Theme,
    items: &[LegendItem],
    x: i32,
    y: i32,
) -> Result<(), ChartError> {
    let mut x = x;
    for item in items {
        match item.mark {
            Mark::Box => {
                let half = theme.px(7.0);
                let x0 = x + theme.px(4.0);
                root.draw(&Rectangle::new([(x0, y - half), (x0 + 2 * half, y + half)], item.color.filled()))
                    .map_err(drawing)?;
            }
            Mark::Line => {
                root.draw(&PathElement::new(
                    vec![(x, y), (x + theme.px(22.0), y)],
                    theme.line(item.color, 3.5),
                ))
                .map_err(drawing)?;
            }
        }
        x += theme.px(28.0);
        text::draw(root, &item.label, (x, y), theme.size(LEGEND_PX), &INK, H::Left, V::Middle)?;
        let (w, _) = text::measure(&item.label, theme.size(LEGEND_PX))?;
        x += w + theme.px(20.0);
    }
    Ok(())
}

/// A legend right-aligned above a panel's plot.
pub(crate) fn legend_above(
    root: &Area<'_>,
    chart: &Chart<'_, '_>,
    theme: &Theme,
    items: &[LegendItem],
) -> Result<(), ChartError> {
    let (x_px, y_px) = chart.plotting_area().get_pixel_range();
    let width = legend_width(theme, items)?;
    legend(root, theme, items, x_px.end - width, y_px.start - theme.px(17.0))
}

/// Draws `text` in the small style (bar values, category labels, zone names).
pub(crate) fn note(
    root: &Area<'_>,
    theme: &Theme,
    text: &str,
    at: (i32, i32),
    anchor: (H, V),
    color: &RGBColor,
) -> Result<(), ChartError> {
    text::draw(root, text, at, theme.size(SMALL_PX), color, anchor.0, anchor.1)
}

/// Width of `text` in the small style.
pub(crate) fn note_width(theme: &Theme, text: &str) -> Result<i32, ChartError> {
    Ok(text::measure(text, theme.size(SMALL_PX))?.0)
}
