//! One plot panel with the house style: a light horizontal grid, an axis line on the left and at
//! the bottom, muted tick numbers, the y description turned upwards at the left and the x
//! description under the numbers, and room above for a legend. plotters maps the coordinates and
//! clips the series; the axes and all text are drawn here (see `text.rs` for why).

use std::ops::Range;

use plotters::backend::BitMapBackend;
use plotters::chart::{ChartBuilder, ChartContext};
use plotters::coord::cartesian::Cartesian2d;
use plotters::coord::types::RangedCoordf64;
use plotters::element::PathElement;
use plotters::style::{Color, ShapeStyle};

use crate::ChartError;
use crate::canvas::{Area, drawing};
use crate::text::{self, H, V};
use crate::theme::PAGE_MARGIN;
use crate::theme::{AXIS, DESC_PX, GRID, INK, LABEL_PX, MUTED, Theme};

/// A panel's chart context (f64 on both axes).
pub(crate) type Chart<'a, 'b> =
    ChartContext<'a, BitMapBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// A label formatter.
pub(crate) type Fmt<'f> = &'f dyn Fn(f64) -> String;

/// What one panel shows on its axes.
pub(crate) struct Axes<'f> {
    pub(crate) x: Range<f64>,
    pub(crate) y: Range<f64>,
    /// Description under the x numbers (`None`: none, and no room is kept when there are no
    /// x ticks either, e.g. an upper panel).
    pub(crate) x_desc: Option<&'f str>,
    pub(crate) y_desc: &'f str,
    pub(crate) x_fmt: Fmt<'f>,
    pub(crate) y_fmt: Fmt<'f>,
    /// Where x numbers go (empty: the caller labels its own categories).
    pub(crate) x_ticks: Vec<f64>,
    /// Where y numbers and grid lines go.
    pub(crate) y_ticks: Vec<f64>,
    /// Vertical grid lines at the x ticks.
    pub(crate) x_grid: bool,
    /// Room at the left for the y numbers and description (design pixels, usually [`LEFT_AREA`]).
    pub(crate) left: f64,
    /// Room at the right for a secondary axis (design pixels, 0 for none).
    pub(crate) right: f64,
}

impl Axes<'_> {
    /// True when the panel keeps room under it for x numbers or a description.
    fn has_bottom(&self) -> bool {
        self.x_desc.is_some() || !self.x_ticks.is_empty()
    }
}

/// Space at the left of every panel for the y numbers and description (design pixels).
pub(crate) const LEFT_AREA: f64 = 96.0;
/// Space under a panel that shows x numbers and a description (design pixels).
pub(crate) const BOTTOM_AREA: f64 = 62.0;
/// Space above a panel for its legend (design pixels).
pub(crate) const LEGEND_ROOM: f64 = 34.0;

/// Builds a panel on `area`, draws its grid, axes and numbers, and returns the chart to draw
/// series on. Text goes onto `root` (the whole canvas).
pub(crate) fn panel<'a, 'b>(
    root: &Area<'_>,
    area: &'a Area<'b>,
    theme: &Theme,
    axes: &Axes<'_>,
) -> Result<Chart<'a, 'b>, ChartError> {
    let bottom = if axes.has_bottom() { theme.upx(BOTTOM_AREA) } else { theme.upx(6.0) };
    let chart = ChartBuilder::on(area)
        .margin_top(theme.upx(LEGEND_ROOM))
        .margin_bottom(theme.upx(8.0))
        .margin_left(theme.upx(PAGE_MARGIN - 14.0))
        .margin_right(theme.upx(PAGE_MARGIN))
        .x_label_area_size(bottom)
        .y_label_area_size(theme.upx(axes.left))
        .right_y_label_area_size(theme.upx(axes.right))
        .build_cartesian_2d(axes.x.clone(), axes.y.clone())
        .map_err(drawing)?;
    let (x_px, y_px) = chart.plotting_area().get_pixel_range();
    let (left, right, top, bottom_px) = (x_px.start, x_px.end - 1, y_px.start, y_px.end - 1);

    let grid = GRID.stroke_width(1);
    for &y in axes.y_ticks.iter().filter(|y| in_range(**y, &axes.y)) {
        let (_, py) = chart.backend_coord(&(axes.x.start, y));
        root.draw(&PathElement::new(vec![(left, py), (right, py)], grid)).map_err(drawing)?;
        text::draw(
            root,
            &(axes.y_fmt)(y),
            (left - theme.px(10.0), py),
            theme.size(LABEL_PX),
            &MUTED,
            H::Right,
            V::Middle,
        )?;
    }
    for &x in axes.x_ticks.iter().filter(|x| in_range(**x, &axes.x)) {
        let (px, _) = chart.backend_coord(&(x, axes.y.start));
        if axes.x_grid {
            root.draw(&PathElement::new(vec![(px, top), (px, bottom_px)], grid)).map_err(drawing)?;
        }
        root.draw(&PathElement::new(
            vec![(px, bottom_px), (px, bottom_px + theme.px(5.0))],
            AXIS.stroke_width(1),
        ))
        .map_err(drawing)?;
        text::draw(
            root,
            &(axes.x_fmt)(x),
            (px, bottom_px + theme.px(11.0)),
            theme.size(LABEL_PX),
            &MUTED,
            H::Center,
            V::Top,
        )?;
    }
    let axis = AXIS.stroke_width(1);
    root.draw(&PathElement::new(vec![(left, top), (left, bottom_px)], axis)).map_err(drawing)?;
    root.draw(&PathElement::new(vec![(left, bottom_px), (right, bottom_px)], axis)).map_err(drawing)?;

    if !axes.y_desc.is_empty() {
        let x = left - theme.px(axes.left) + theme.px(DESC_PX * 0.6);
        text::draw_upwards(root, axes.y_desc, (x, (top + bottom_px) / 2), theme.size(DESC_PX), &INK)?;
    }
    if let Some(desc) = axes.x_desc.filter(|d| !d.is_empty()) {
        let y = bottom_px + theme.px(BOTTOM_AREA - 14.0);
        text::draw(root, desc, ((left + right) / 2, y), theme.size(DESC_PX), &INK, H::Center, V::Baseline)?;
    }
    Ok(chart)
}

fn in_range(v: f64, range: &Range<f64>) -> bool {
    let (lo, hi) = if range.start <= range.end { (range.start, range.end) } else { (range.end, range.start) };
    let slack = (hi - lo).abs() * 1e-9;
    v >= lo - slack && v <= hi + slack
}

/// Tick positions between `lo` and `hi` on multiples of the smallest step from `steps` (each
/// also tried ×10, ×100…) that gives at most `max` ticks.
pub(crate) fn ticks_with(lo: f64, hi: f64, max: usize, steps: &[f64]) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite()) || hi <= lo || max == 0 || steps.is_empty() {
        return Vec::new();
    }
    let mut magnitude = 1.0;
    for _ in 0..12 {
        for &s in steps {
            let step = s * magnitude;
            let first = (lo / step).ceil();
            let last = (hi / step).floor();
            if last - first + 1.0 <= max as f64 {
                return (0..=((last - first) as i64).max(-1)).map(|i| (first + i as f64) * step).collect();
            }
        }
        magnitude *= 10.0;
    }
    Vec::new()
}

/// Ticks on round decimal numbers (1, 2, 2.5, 5 × 10^k).
pub(crate) fn decimal_ticks(lo: f64, hi: f64, max: usize) -> Vec<f64> {
    let span = hi - lo;
    if !(span.is_finite() && span > 0.0) {
        return Vec::new();
    }
    // Start low enough for small ranges (0.01 km…).
    let base = 10f64.powf((span / max.max(1) as f64).log10().floor() - 1.0);
    let steps: Vec<f64> = [1.0, 2.0, 2.5, 5.0].iter().map(|m| m * base).collect();
    ticks_with(lo, hi, max, &steps)
}

/// Ticks on round paces (seconds): 5, 10, 15, 20, 30 s, 1, 2, 5, 10 min.
pub(crate) fn pace_ticks(lo: f64, hi: f64, max: usize) -> Vec<f64> {
    ticks_with(lo, hi, max, &[5.0, 10.0, 15.0, 20.0, 30.0, 60.0, 120.0, 300.0, 600.0])
}

/// Ticks on round durations (minutes): 1, 2, 5, 10, 15, 20, 30 min, 1, 2, 3, 4, 6 h.
pub(crate) fn minute_ticks(lo: f64, hi: f64, max: usize) -> Vec<f64> {
    ticks_with(lo, hi, max, &[1.0, 2.0, 5.0, 10.0, 15.0, 20.0, 30.0, 60.0, 120.0, 180.0, 240.0, 360.0])
}

/// A polyline as separate two-point segments. plotters joins the segments of one thick path with
/// mitres, which shoot far out of the plot where a noisy line turns back on itself; separate
/// segments have no joins.
pub(crate) fn segments(points: &[(f64, f64)], style: ShapeStyle) -> Vec<PathElement<(f64, f64)>> {
    points.windows(2).map(|w| PathElement::new(vec![w[0], w[1]], style)).collect()
}

/// A range padded by `fraction` of its span on both sides (at least `min_pad`).
pub(crate) fn padded(lo: f64, hi: f64, fraction: f64, min_pad: f64) -> (f64, f64) {
    let pad = ((hi - lo) * fraction).max(min_pad);
    (lo - pad, hi + pad)
}

/// The `q` quantile (0–1) of `values` (sorted in place), `None` when empty.
pub(crate) fn quantile(values: &mut [f64], q: f64) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let i = ((values.len() - 1) as f64 * q.clamp(0.0, 1.0)).round() as usize;
    values.get(i).copied()
}

/// The smallest round step (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 × 10^k) that is at least `at_least`
/// (1 for nonsense).
pub(crate) fn nice_step(at_least: f64) -> f64 {
    if !(at_least.is_finite() && at_least > 0.0) {
        return 1.0;
    }
    let magnitude = 10f64.powf(at_least.log10().floor());
    [1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= at_least * (1.0 - 1e-9))
        .unwrap_or(10.0 * magnitude)
}

/// A "nice" upper bound for a bar axis: `max` with headroom for value labels, rounded up to
/// 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 × 10^k.
pub(crate) fn nice_top(max: f64) -> f64 {
    if !(max.is_finite() && max > 0.0) {
        return 1.0;
    }
    let target = max * 1.12;
    let magnitude = 10f64.powf(target.log10().floor());
    for step in [1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0] {
        if step * magnitude >= target {
            return step * magnitude;
        }
    }
    10.0 * magnitude
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bar_axes_end_on_round_numbers_above_the_tallest_bar() {
        assert_eq!(nice_top(42.0), 50.0);
        assert_eq!(nice_top(9.0), 12.0);
        assert_eq!(nice_top(312.0), 400.0);
        assert_eq!(nice_top(0.0), 1.0);
        assert_eq!((nice_step(180.0), nice_step(26.0), nice_step(283.0)), (200.0, 30.0, 300.0));
        let mut v = vec![5.0, 1.0, 3.0, 2.0, 4.0];
        assert_eq!(quantile(&mut v, 0.5), Some(3.0));
        assert_eq!(quantile(&mut [], 0.5), None);
    }

    #[test]
    fn ticks_land_on_round_values_and_respect_the_count() {
        assert_eq!(
            decimal_ticks(0.0, 21.1, 12),
            vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 12.0, 14.0, 16.0, 18.0, 20.0]
        );
        assert_eq!(decimal_ticks(0.0, 100.0, 6), vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]);
        assert_eq!(pace_ticks(255.0, 345.0, 7), vec![255.0, 270.0, 285.0, 300.0, 315.0, 330.0, 345.0]);
        assert_eq!(pace_ticks(240.0, 420.0, 7), vec![240.0, 270.0, 300.0, 330.0, 360.0, 390.0, 420.0]);
        assert_eq!(
            minute_ticks(0.0, 250.0, 10),
            vec![0.0, 30.0, 60.0, 90.0, 120.0, 150.0, 180.0, 210.0, 240.0]
        );
        let small = decimal_ticks(0.0, 0.8, 8);
        assert!(small.len() <= 8 && small.len() >= 4, "{small:?}");
        assert!(decimal_ticks(5.0, 5.0, 4).is_empty());
    }
}
