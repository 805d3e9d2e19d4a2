//! Every piece of chart text, laid out and rasterised with `ab_glyph` from the shipped font and
//! blended onto the canvas pixel by pixel.
//!
//! Text is drawn here rather than through plotters' own `ab_glyph` backend because that one (0.3.7)
//! places each glyph at the pen position without its left side bearing, which squeezes words
//! together ("Split per km" reads "Splitper km"). Here each glyph is positioned where the font
//! says, with kerning, and text can be anchored left/centre/right × top/middle/baseline or turned
//! to read upwards (y-axis descriptions).

use std::sync::OnceLock;

use ab_glyph::{Font, FontRef, PxScale, ScaleFont, point};
use plotters::style::{Color, RGBColor};

use crate::ChartError;
use crate::canvas::{Area, drawing};
use crate::font::FONT_BYTES;

/// Horizontal anchor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum H {
    Left,
    Center,
    Right,
}

/// Vertical anchor: the cap-height box of Latin text (CJK glyphs sit in about the same band).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum V {
    /// The top of capitals is at the anchor.
    Top,
    /// The middle of capitals is at the anchor.
    Middle,
    /// The baseline is at the anchor.
    Baseline,
}

struct Shipped {
    font: FontRef<'static>,
    /// Cap height as a share of the font's ascent-to-descent height.
    cap_share: f32,
}

fn shipped() -> Result<&'static Shipped, ChartError> {
    static FONT: OnceLock<Option<Shipped>> = OnceLock::new();
    FONT.get_or_init(|| {
        let font = FontRef::try_from_slice(FONT_BYTES).ok()?;
        let height = font.ascent_unscaled() - font.descent_unscaled();
        let cap = font.outline(font.glyph_id('H')).map(|o| (o.bounds.max.y - o.bounds.min.y).abs())?;
        Some(Shipped { font, cap_share: cap / height })
    })
    .as_ref()
    .ok_or_else(|| ChartError::Render("the shipped chart font could not be read".into()))
}

/// Text laid out along a baseline at y = 0 starting at x = 0: coverage per pixel.
struct Laid {
    pixels: Vec<(i32, i32, f32)>,
    width: f32,
    cap: f32,
}

/// `size` is the pixel height of the font's ascent-to-descent line (as plotters sizes fonts).
fn lay_out(text: &str, size: f64) -> Result<Laid, ChartError> {
    let shipped = shipped()?;
    let scale = PxScale::from(size as f32);
    let scaled = shipped.font.as_scaled(scale);
    let mut pixels = Vec::new();
    let mut pen = 0.0f32;
    let mut previous = None;
    for c in text.chars() {
        let id = scaled.glyph_id(c);
        if let Some(prev) = previous {
            pen += scaled.kern(prev, id);
        }
        let glyph = id.with_scale_and_position(scale, point(pen, 0.0));
        if let Some(outlined) = shipped.font.outline_glyph(glyph) {
            let bounds = outlined.px_bounds();
            let (left, top) = (bounds.min.x as i32, bounds.min.y as i32);
            outlined.draw(|x, y, coverage| {
                if coverage > 0.02 {
                    pixels.push((left + x as i32, top + y as i32, coverage.min(1.0)));
                }
            });
        }
        pen += scaled.h_advance(id);
        previous = Some(id);
    }
    Ok(Laid { pixels, width: pen, cap: shipped.cap_share * size as f32 })
}

/// Width and cap height of `text` at `size`, in pixels.
pub(crate) fn measure(text: &str, size: f64) -> Result<(i32, i32), ChartError> {
    let shipped = shipped()?;
    let scale = PxScale::from(size as f32);
    let scaled = shipped.font.as_scaled(scale);
    let mut width = 0.0f32;
    let mut previous = None;
    for c in text.chars() {
        let id = scaled.glyph_id(c);
        if let Some(prev) = previous {
            width += scaled.kern(prev, id);
        }
        width += scaled.h_advance(id);
        previous = Some(id);
    }
    Ok((width.ceil() as i32, (shipped.cap_share * size as f32).round() as i32))
}

fn blend(area: &Area<'_>, x: i32, y: i32, color: &RGBColor, coverage: f32) -> Result<(), ChartError> {
    let (w, h) = area.dim_in_pixel();
    if x < 0
        || y < 0
        || x >= i32::try_from(w).unwrap_or(i32::MAX)
        || y >= i32::try_from(h).unwrap_or(i32::MAX)
    {
        return Ok(());
    }
    area.draw_pixel((x, y), &color.mix(f64::from(coverage))).map_err(drawing)
}

/// Draws `text` anchored at `at`.
pub(crate) fn draw(
    area: &Area<'_>,
    text: &str,
    at: (i32, i32),
    size: f64,
    color: &RGBColor,
    h: H,
    v: V,
) -> Result<(), ChartError> {
    let laid = lay_out(text, size)?;
    let x0 = at.0 as f32
        - match h {
            H::Left => 0.0,
            H::Center => laid.width / 2.0,
            H::Right => laid.width,
        };
    let baseline = at.1 as f32
        + match v {
            V::Top => laid.cap,
            V::Middle => laid.cap / 2.0,
            V::Baseline => 0.0,
        };
    let (dx, dy) = (x0.round() as i32, baseline.round() as i32);
    for (x, y, c) in laid.pixels {
        blend(area, dx + x, dy + y, color, c)?;
    }
    Ok(())
}

/// Draws `text` turned to read upwards, centred on `center` (y-axis descriptions).
pub(crate) fn draw_upwards(
    area: &Area<'_>,
    text: &str,
    center: (i32, i32),
    size: f64,
    color: &RGBColor,
) -> Result<(), ChartError> {
    let laid = lay_out(text, size)?;
    let half_w = laid.width / 2.0;
    let half_cap = laid.cap / 2.0;
    for (x, y, c) in laid.pixels {
        // Local (x, y) around the text's middle; a quarter turn anticlockwise.
        let lx = x as f32 - half_w;
        let ly = y as f32 + half_cap;
        let sx = center.0 as f32 + ly;
        let sy = center.1 as f32 - lx;
        blend(area, sx.round() as i32, sy.round() as i32, color, c)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_keep_their_spaces_and_side_bearings() {
        // "p" has a wide left side bearing: the laid-out ink of "t p" must leave a clear gap.
        let laid = lay_out("t p", 40.0).unwrap();
        let t_right = laid.pixels.iter().filter(|p| p.0 < 12).map(|p| p.0).max().unwrap();
        let p_left = laid.pixels.iter().filter(|p| p.0 > 12).map(|p| p.0).min().unwrap();
        assert!(p_left - t_right >= 7, "gap of {} px between t and p", p_left - t_right);
        let (w_space, _) = measure("a b", 40.0).unwrap();
        let (w_tight, _) = measure("ab", 40.0).unwrap();
        assert!(w_space - w_tight >= 5, "a space must take room");
    }

    #[test]
    fn cjk_text_is_measured_wider_than_latin_of_the_same_length() {
        let (cjk, cap) = measure("上海半程马拉松", 30.0).unwrap();
        let (latin, _) = measure("iiiiiii", 30.0).unwrap();
        assert!(cjk > 3 * latin, "{cjk} vs {latin}");
        assert!((12..=17).contains(&cap), "cap height {cap}");
    }
}
