//! The look every chart shares: one palette (a colour means the same thing in every chart), text
//! sizes and spacing scaled from the 1200×700 design size so a chart stays readable at half size.

use plotters::style::{Color, RGBAColor, RGBColor, ShapeStyle};

use crate::i18n::Language;

/// Page background.
pub(crate) const BACKGROUND: RGBColor = RGBColor(255, 255, 255);
/// Titles, labels.
pub(crate) const INK: RGBColor = RGBColor(31, 41, 55);
/// Subtitles, axis numbers, notes.
pub(crate) const MUTED: RGBColor = RGBColor(100, 108, 122);
/// Grid lines.
pub(crate) const GRID: RGBColor = RGBColor(229, 231, 235);
/// Axis lines.
pub(crate) const AXIS: RGBColor = RGBColor(156, 163, 175);

/// Pace or speed line.
pub(crate) const PACE: RGBColor = RGBColor(37, 99, 235);
/// Split bars under the pace line.
pub(crate) const SPLIT: RGBColor = RGBColor(147, 197, 253);
/// Heart-rate line; also resting heart rate.
pub(crate) const HEART: RGBColor = RGBColor(220, 38, 38);

/// Heart-rate zones 1–5 (grey, blue, green, orange, red, as on the watch).
pub(crate) const ZONES: [RGBColor; 5] = [
    RGBColor(148, 156, 168),
    RGBColor(59, 130, 246),
    RGBColor(34, 170, 94),
    RGBColor(245, 130, 32),
    RGBColor(225, 45, 45),
];

/// Sports.
pub(crate) const RUNNING: RGBColor = RGBColor(37, 99, 235);
pub(crate) const CYCLING: RGBColor = RGBColor(22, 163, 74);
pub(crate) const SWIMMING: RGBColor = RGBColor(8, 145, 178);
pub(crate) const WALKING: RGBColor = RGBColor(217, 119, 6);
pub(crate) const STRENGTH: RGBColor = RGBColor(124, 58, 237);
pub(crate) const OTHER_SPORT: RGBColor = RGBColor(120, 128, 140);

/// Sleep stages.
pub(crate) const DEEP: RGBColor = RGBColor(30, 58, 138);
pub(crate) const LIGHT: RGBColor = RGBColor(96, 165, 250);
pub(crate) const REM: RGBColor = RGBColor(168, 85, 247);
pub(crate) const AWAKE: RGBColor = RGBColor(244, 114, 182);

/// Health metrics.
pub(crate) const HRV: RGBColor = RGBColor(124, 58, 237);
pub(crate) const BODY_BATTERY: RGBColor = RGBColor(14, 165, 233);
pub(crate) const STRESS: RGBColor = RGBColor(234, 138, 12);
/// Reference bands (baseline, optimal range).
pub(crate) const GOOD_BAND: RGBColor = RGBColor(34, 170, 94);

/// Training load.
pub(crate) const DAILY_LOAD: RGBColor = RGBColor(148, 163, 184);
pub(crate) const ACUTE: RGBColor = RGBColor(234, 88, 12);
pub(crate) const CHRONIC: RGBColor = RGBColor(13, 148, 136);

/// Form (TSB) above zero (fresh) and below (tired).
pub(crate) const FORM_FRESH: RGBColor = GOOD_BAND;
pub(crate) const FORM_TIRED: RGBColor = RGBColor(225, 29, 72);
/// Power curves.
pub(crate) const POWER: RGBColor = RGBColor(124, 58, 237);

/// Horizontal page margin at the design size (the header and the plot line up on it).
pub(crate) const PAGE_MARGIN: f64 = 28.0;
/// Text sizes at the design size (1200×700), as the pixel height of the font's full line
/// (ascent to descent; capitals are about half of it). Chosen so numbers stay legible when the
/// chart is shown at half size.
pub(crate) const TITLE_PX: f64 = 46.0;
pub(crate) const SUBTITLE_PX: f64 = 29.0;
pub(crate) const LABEL_PX: f64 = 26.0;
pub(crate) const DESC_PX: f64 = 27.0;
pub(crate) const SMALL_PX: f64 = 24.0;

/// Sizes for one chart: everything scales with the chart so proportions stay.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Theme {
    scale: f64,
    pub(crate) language: Language,
}

impl Theme {
    pub(crate) fn new(width: u32, height: u32, language: Language) -> Theme {
        let scale = (f64::from(width) / 1200.0).min(f64::from(height) / 700.0).clamp(0.5, 3.0);
        Theme { scale, language }
    }

    /// `design` pixels at this chart's size.
    pub(crate) fn px(&self, design: f64) -> i32 {
        (design * self.scale).round() as i32
    }

    /// `design` pixels as an unsigned size (plotters' label areas).
    pub(crate) fn upx(&self, design: f64) -> u32 {
        u32::try_from(self.px(design)).unwrap_or(0)
    }

    /// A text size of `design` pixels at this chart's size (fractional sizes render fine).
    pub(crate) fn size(&self, design: f64) -> f64 {
        design * self.scale
    }

    /// A line of `design` pixels width.
    pub(crate) fn line(&self, color: RGBColor, design: f64) -> ShapeStyle {
        color.stroke_width(u32::try_from(self.px(design).max(1)).unwrap_or(1))
    }
}

/// `color` at `alpha` opacity.
pub(crate) fn tint(color: RGBColor, alpha: f64) -> RGBAColor {
    color.mix(alpha)
}
