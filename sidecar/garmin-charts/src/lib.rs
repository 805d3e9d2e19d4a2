//! Charts of a runner's training data, drawn natively as PNG: no browser, no Python, no system
//! fonts. Each chart kind is a function taking a plain data struct and [`ChartOptions`] and
//! returning [`Png`] bytes; nothing here knows about Garmin, MCP or async.
//!
//! | kind | function | shows |
//! |---|---|---|
//! | activity | [`activity()`] | pace (or speed) and heart rate over distance, per-km split bars, HR-zone bands |
//! | volume | [`volume()`] | distance or time per week or month, by sport, stacked or grouped |
//! | HR zones | [`hr_zones()`] | time in each heart-rate zone |
//! | sleep | [`sleep()`] | one night's stages as a hypnogram, with the score |
//! | health trend | [`health_trend()`] | resting HR, HRV, Body Battery or stress per day |
//! | training load | [`training_load()`] | daily load bars with acute and chronic load lines |
//! | load vs tolerance | [`load_vs_tolerance()`] | weekly running load bars against Running Tolerance, with the ACWR 0.8–1.3 band |
//! | fitness | [`fitness()`] | fitness (CTL) and fatigue (ATL) lines, form (TSB) bars, settling weeks shaded |
//! | best efforts | [`best_efforts()`] | mean-max curve of power, pace or HR on a log time axis, periods overlaid |
//! | intensity | [`intensity()`] | weekly 100 % bars of time per zone with the low-intensity share |
//! | strength | [`strength()`] | an exercise's estimated one-rep max per session, or weekly sets per muscle group |
//!
//! Text is drawn with a subset of Noto Sans CJK SC compiled into the crate (see `assets/README.md`),
//! so Chinese labels render as well as Latin ones on any machine. Large series are thinned with
//! [`downsample::min_max`], which keeps every peak and trough. Colours, units and text sizes come
//! from one theme so every chart reads the same, also at half size.

mod canvas;
pub mod downsample;
pub mod font;
mod format;
mod frame;
mod i18n;
mod plot;
mod text;
mod theme;

mod activity;
mod best_efforts;
mod fitness;
mod health_trend;
mod hr_zones;
mod intensity;
mod load_tolerance;
mod sleep;
mod strength;
mod training_load;
mod volume;

pub use activity::{ActivityChart, ActivityLap, ActivitySample, HrZoneFloor, SpeedUnit, activity};
pub use best_efforts::{BestEffortsChart, CurveMetric, CurveSeries, best_efforts};
pub use canvas::blank_png;
pub use fitness::{FitnessChart, FitnessDay, fitness};
pub use health_trend::{HealthMetric, HealthTrendChart, TrendDay, health_trend};
pub use hr_zones::{HrZonesChart, ZoneTime, hr_zones};
pub use i18n::Language;
pub use intensity::{IntensityChart, IntensityWeek, intensity};
pub use load_tolerance::{LoadToleranceChart, ToleranceWeek, load_vs_tolerance};
pub use sleep::{SleepChart, SleepSegment, SleepStage, sleep};
pub use strength::{E1rmPoint, MuscleSets, StrengthChart, strength};
pub use training_load::{LoadDay, TrainingLoadChart, training_load};
pub use volume::{Sport, VolumeBucket, VolumeChart, VolumeMetric, volume};

/// Default chart width in pixels.
pub const DEFAULT_WIDTH: u32 = 1200;
/// Default chart height in pixels.
pub const DEFAULT_HEIGHT: u32 = 700;
/// Smallest width and height a chart can be drawn at and stay legible.
pub const MIN_SIZE: (u32, u32) = (400, 300);
/// Largest width and height (keeps memory and encoding time bounded).
pub const MAX_SIZE: (u32, u32) = (3000, 2000);

/// How a chart is drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChartOptions {
    /// Width in pixels ([`MIN_SIZE`]..=[`MAX_SIZE`]).
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Replaces the chart's own title (the subtitle with dates and totals stays).
    pub title: Option<String>,
    /// Language of the labels, units words and titles.
    pub language: Language,
}

impl Default for ChartOptions {
    fn default() -> Self {
        ChartOptions { width: DEFAULT_WIDTH, height: DEFAULT_HEIGHT, title: None, language: Language::En }
    }
}

impl ChartOptions {
    /// Default options in `language`.
    pub fn in_language(language: Language) -> Self {
        ChartOptions { language, ..ChartOptions::default() }
    }

    fn check(&self) -> Result<(), ChartError> {
        let (min_w, min_h) = MIN_SIZE;
        let (max_w, max_h) = MAX_SIZE;
        if !(min_w..=max_w).contains(&self.width) || !(min_h..=max_h).contains(&self.height) {
            return Err(ChartError::InvalidSize(format!(
                "a chart must be {min_w}–{max_w} px wide and {min_h}–{max_h} px high, got {}×{}",
                self.width, self.height
            )));
        }
        Ok(())
    }
}

/// A drawn chart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Png {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The PNG file (8-bit RGB).
    pub bytes: Vec<u8>,
}

/// Why a chart could not be drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChartError {
    /// The requested size is outside [`MIN_SIZE`]..=[`MAX_SIZE`].
    InvalidSize(String),
    /// The data holds nothing to draw (the sentence says what was missing).
    NoData(String),
    /// Drawing or encoding failed (a bug or an exhausted machine, not bad data).
    Render(String),
}

impl std::fmt::Display for ChartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ChartError::InvalidSize(m) | ChartError::NoData(m) => f.write_str(m),
            ChartError::Render(m) => write!(f, "the chart could not be drawn: {m}"),
        }
    }
}

impl std::error::Error for ChartError {}
