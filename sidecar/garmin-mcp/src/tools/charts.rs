//! The `charts` toolset: `render_chart` draws the athlete's data as a PNG — one activity's pace and
//! heart rate, weekly or monthly volume, time in HR zones, a night's sleep, a health trend or the
//! training load — returns it as MCP image content (clients show it inline) with a summary of what
//! it shows, and saves it in the export folder.
//!
//! This file holds the tool method, its arguments and their checks; the data is gathered per kind
//! in `activity` (one activity, with the FIT fallback of `garmin::fit_series`), `period` (volume, HR zones
//! over a period, training load) and `health` (sleep, health trends); `answer` shapes the result.
//! Drawing is `garmin-charts`' job.

mod activity;
mod answer;
mod fitness;
mod health;
mod period;
mod strength;
mod tolerance;

use std::path::PathBuf;

use chrono::NaiveDate;
use garmin_charts::{ChartOptions, Language};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{schemars, tool, tool_router};
use serde::Deserialize;

pub use self::answer::{ChartAnswer, RenderedChart};
use crate::domain::dates::{Day, arg, day_of};
pub(crate) use crate::drawing::{Drawn, draw_off_thread, span};
use crate::files::{export_dir, safe_file_name, save_new};
use crate::server::GarminMcp;
use crate::tool_error::ToolError;

/// Width bounds of `render_chart` (pixels).
pub const WIDTH_RANGE: (u32, u32) = (400, 2400);
/// Height bounds of `render_chart` (pixels).
pub const HEIGHT_RANGE: (u32, u32) = (300, 1600);

/// Which chart to draw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChartKind {
    /// One activity: pace (or speed) and heart rate over distance, per-km split bars, HR-zone bands.
    #[default]
    Activity,
    /// Distance or time per week or month, by sport.
    Volume,
    /// Time in each heart-rate zone, for one activity or a period.
    HrZones,
    /// One night's sleep stages (hypnogram) with the score.
    Sleep,
    /// Resting HR, HRV, Body Battery or stress per day.
    HealthTrend,
    /// Daily training load with acute (7-day) and chronic (28-day) load lines.
    TrainingLoad,
    /// Weekly intensity distribution from the local history: time in heart-rate zones as 100 %
    /// bars with the low-intensity share.
    Intensity,
    /// Fitness (CTL), fatigue (ATL) and form (TSB) per day, as `get_fitness_trend` computes them.
    Fitness,
    /// Best-efforts (mean-max) curve from the local history: the season of 365 days ending `date`
    /// against the same span a year earlier, on a log time axis, as `get_best_efforts` computes it.
    MeanMax,
    /// Strength progress from the local history, as `get_strength_progress` computes it: with
    /// `exercise`, its estimated one-rep max session by session; without, sets per muscle group
    /// week by week.
    Strength,
    /// Weekly running impact load against the watch's Running Tolerance, with the productive ACWR
    /// band (0.8–1.3 × the mean of the week and the three before), as `get_injury_risk` judges it.
    LoadVsTolerance,
}

impl ChartKind {
    fn name(self) -> &'static str {
        match self {
            ChartKind::Activity => "activity",
            ChartKind::Volume => "volume",
            ChartKind::HrZones => "hr_zones",
            ChartKind::Sleep => "sleep",
            ChartKind::HealthTrend => "health_trend",
            ChartKind::TrainingLoad => "training_load",
            ChartKind::Intensity => "intensity",
            ChartKind::Fitness => "fitness",
            ChartKind::MeanMax => "mean_max",
            ChartKind::Strength => "strength",
            ChartKind::LoadVsTolerance => "load_vs_tolerance",
        }
    }
}

/// What a volume or health-trend chart measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChartMetric {
    /// Volume: kilometres (default).
    Distance,
    /// Volume: hours.
    Time,
    /// Health trend: resting heart rate (default).
    RestingHr,
    /// Health trend: overnight HRV average, with the baseline band.
    Hrv,
    /// Health trend: each day's Body Battery high and low.
    BodyBattery,
    /// Health trend: average stress per day.
    Stress,
    /// Mean-max: power (default for cycling).
    Power,
    /// Mean-max: pace (kept as speed; default otherwise).
    Pace,
    /// Mean-max: heart rate.
    Hr,
}

/// The bars of a volume chart.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum VolumePeriod {
    /// One bar per week, Monday to Sunday (default).
    #[default]
    Week,
    /// One bar per calendar month.
    Month,
}

/// The language of the chart's labels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChartLanguage {
    /// English (default).
    #[default]
    En,
    /// Simplified Chinese (中文).
    Zh,
}

/// Arguments of `render_chart`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct RenderChartArgs {
    /// Which chart (default `activity`).
    #[serde(default)]
    pub kind: Option<ChartKind>,
    /// `activity` and `hr_zones`: the activity (from `list_activities`). Default: the newest
    /// activity (for `hr_zones`, unless `weeks` or `days` ask for a period).
    #[serde(default)]
    pub activity_id: Option<u64>,
    /// `volume`: one bar per `week` (default) or `month`.
    #[serde(default)]
    pub period: Option<VolumePeriod>,
    /// Weeks back from `date`: `volume` by week (1–104, default 12), `training_load` (2–26,
    /// default 8), `hr_zones` over a period (1–52), `intensity` (1–26, default 12), `fitness` (1–20, default 12), `strength` (1–52, default 8), `load_vs_tolerance` (2–26, default 8).
    #[serde(default)]
    #[schemars(range(min = 1, max = 104))]
    pub weeks: Option<u32>,
    /// `strength`: the exercise whose estimated one-rep max to draw (Garmin key, English or Chinese
    /// name); without it, sets per muscle group.
    #[serde(default)]
    pub exercise: Option<String>,
    /// `volume` by month: months back from `date` (1–36, default 12).
    #[serde(default)]
    #[schemars(range(min = 1, max = 36))]
    pub months: Option<u32>,
    /// Days back from `date`: `health_trend` (7–90, default 28), `hr_zones` over a period (1–365).
    #[serde(default)]
    #[schemars(range(min = 1, max = 365))]
    pub days: Option<u32>,
    /// `sleep`: the morning the night ended; period charts: their last day. `YYYY-MM-DD`,
    /// default today.
    #[serde(default)]
    pub date: Option<Day<arg::Date>>,
    /// `volume` and `hr_zones` over a period: only this sport (run, ride, swim, strength or a Garmin
    /// type key; running includes trail and treadmill runs). Default: every sport. `mean_max`:
    /// running (default), cycling or swimming.
    #[serde(default)]
    pub sport: Option<String>,
    /// `volume`: `distance` (default) or `time`. `health_trend`: `resting_hr` (default), `hrv`,
    /// `body_battery` or `stress`. `mean_max`: `power`, `pace` or `hr`.
    #[serde(default)]
    pub metric: Option<ChartMetric>,
    /// `volume`: stack the sports in one bar (default true) or draw them side by side.
    #[serde(default)]
    pub stacked: Option<bool>,
    /// Label language: `en` (default) or `zh` (Chinese labels; names in any language always work).
    #[serde(default)]
    pub language: Option<ChartLanguage>,
    /// Replaces the chart's title (up to 80 characters).
    #[serde(default)]
    pub title: Option<String>,
    /// Absolute folder to save the PNG in. Default: `GARMIN_MCP_EXPORT_DIR`, else the Downloads
    /// folder's `Garmin` subfolder.
    #[serde(default)]
    pub folder: Option<String>,
    /// Width in pixels (400–2400, default 1200).
    #[serde(default)]
    #[schemars(range(min = 400, max = 2400))]
    pub width: Option<u32>,
    /// Height in pixels (300–1600, default 700).
    #[serde(default)]
    #[schemars(range(min = 300, max = 1600))]
    pub height: Option<u32>,
}

/// A number argument within bounds, or its default.
fn bounded(name: &str, value: Option<u32>, default: u32, (lo, hi): (u32, u32)) -> Result<u32, ToolError> {
    let v = value.unwrap_or(default);
    if (lo..=hi).contains(&v) {
        Ok(v)
    } else {
        Err(ToolError::invalid(format!("{name} must be between {lo} and {hi}, got {v}")))
    }
}

/// Refuses arguments that mean nothing for `kind`, naming the kinds they are for.
fn only_for(kind: ChartKind, name: &str, given: bool, kinds: &[ChartKind]) -> Result<(), ToolError> {
    if given && !kinds.contains(&kind) {
        let names: Vec<&str> = kinds.iter().map(|k| k.name()).collect();
        return Err(ToolError::invalid(format!(
            "`{name}` does not apply to kind={}; it is for {}",
            kind.name(),
            names.join(", ")
        )));
    }
    Ok(())
}

/// Which kinds each optional argument applies to (everything else is refused, naming them).
const ARGUMENT_KINDS: [(&str, &[ChartKind]); 10] = {
    use ChartKind::*;
    [
        ("activity_id", &[Activity, HrZones]),
        ("period", &[Volume]),
        ("weeks", &[Volume, TrainingLoad, HrZones, Intensity, Fitness, Strength, LoadVsTolerance]),
        ("exercise", &[Strength]),
        ("months", &[Volume]),
        ("days", &[HealthTrend, HrZones]),
        (
            "date",
            &[
                Volume,
                HrZones,
                Sleep,
                HealthTrend,
                TrainingLoad,
                Intensity,
                Fitness,
                MeanMax,
                LoadVsTolerance,
            ],
        ),
        ("sport", &[Volume, HrZones, MeanMax]),
        ("metric", &[Volume, HealthTrend, MeanMax]),
        ("stacked", &[Volume]),
    ]
};

/// Refuses every given argument that means nothing for `kind` ([`ARGUMENT_KINDS`]).
fn check_kind_arguments(kind: ChartKind, args: &RenderChartArgs) -> Result<(), ToolError> {
    let given = |name: &str| match name {
        "activity_id" => args.activity_id.is_some(),
        "period" => args.period.is_some(),
        "weeks" => args.weeks.is_some(),
        "exercise" => args.exercise.is_some(),
        "months" => args.months.is_some(),
        "days" => args.days.is_some(),
        "date" => args.date.is_some(),
        "sport" => args.sport.is_some(),
        "metric" => args.metric.is_some(),
        "stacked" => args.stacked.is_some(),
        _ => false,
    };
    ARGUMENT_KINDS.iter().try_for_each(|(name, kinds)| only_for(kind, name, given(name), kinds))
}

/// `hr_zones`: the days of a period (`weeks` or `days`), or `None` for one activity.
fn zones_period_days(args: &RenderChartArgs) -> Result<Option<u32>, ToolError> {
    let period = args.weeks.is_some() || args.days.is_some();
    if period && args.activity_id.is_some() {
        return Err(ToolError::invalid(
            "hr_zones takes either activity_id (one activity) or weeks/days (a period), not both",
        ));
    }
    if args.weeks.is_some() && args.days.is_some() {
        return Err(ToolError::invalid("give weeks or days, not both"));
    }
    if !period {
        if args.sport.is_some() || args.date.is_some() {
            return Err(ToolError::invalid(
                "sport and date apply to hr_zones over a period: add weeks or days",
            ));
        }
        return Ok(None);
    }
    Ok(Some(match (args.weeks, args.days) {
        (Some(w), _) => bounded("weeks", Some(w), 4, (1, 52))? * 7,
        (_, d) => bounded("days", d, 28, (1, 365))?,
    }))
}

/// `volume`: bars per week or month, how many, distance or time, stacked or not.
fn volume_choice(
    args: &RenderChartArgs,
) -> Result<(VolumePeriod, u32, garmin_charts::VolumeMetric, bool), ToolError> {
    let by = args.period.unwrap_or_default();
    let count = match by {
        VolumePeriod::Week => {
            if args.months.is_some() {
                return Err(ToolError::invalid("months is for period=month; use weeks"));
            }
            bounded("weeks", args.weeks, 12, (1, 104))?
        }
        VolumePeriod::Month => {
            if args.weeks.is_some() {
                return Err(ToolError::invalid("weeks is for period=week; use months"));
            }
            bounded("months", args.months, 12, (1, 36))?
        }
    };
    let metric = match args.metric {
        None | Some(ChartMetric::Distance) => garmin_charts::VolumeMetric::Distance,
        Some(ChartMetric::Time) => garmin_charts::VolumeMetric::Time,
        Some(other) => {
            return Err(ToolError::invalid(format!(
                "metric {other:?} is for health_trend or mean_max; volume takes distance or time"
            )));
        }
    };
    Ok((by, count, metric, args.stacked.unwrap_or(true)))
}

/// `health_trend`: which metric.
fn health_metric(metric: Option<ChartMetric>) -> Result<garmin_charts::HealthMetric, ToolError> {
    Ok(match metric {
        None | Some(ChartMetric::RestingHr) => garmin_charts::HealthMetric::RestingHr,
        Some(ChartMetric::Hrv) => garmin_charts::HealthMetric::Hrv,
        Some(ChartMetric::BodyBattery) => garmin_charts::HealthMetric::BodyBattery,
        Some(ChartMetric::Stress) => garmin_charts::HealthMetric::Stress,
        Some(other) => {
            return Err(ToolError::invalid(format!(
                "metric {other:?} is for volume or mean_max; health_trend takes resting_hr, hrv, body_battery or stress"
            )));
        }
    })
}

#[tool_router(router = charts_tools, vis = "pub(crate)")]
impl GarminMcp {
    /// Draw the athlete's data as a chart (PNG, shown inline) with a short summary of what it
    /// shows. Kinds: `activity` — pace (or speed) and heart rate over distance with per-km split
    /// bars and HR-zone bands (default: the newest activity); `volume` — distance or time per week
    /// or month by sport ("my weekly mileage for the last 12 weeks"); `hr_zones` — time in each
    /// heart-rate zone for an activity or the last `weeks`/`days`; `sleep` — a night's stages with
    /// the score; `health_trend` — resting HR, HRV, Body Battery or stress per day; `training_load`
    /// — daily load with acute/chronic lines; `load_vs_tolerance` — weekly running load against
    /// Running Tolerance with the ACWR band (the picture of `get_injury_risk`); `strength` — an exercise's estimated one-rep max per
    /// session, or weekly sets per muscle group, from the local history. Use `language=zh` for Chinese labels. It only reads
    /// Garmin; the PNG is also kept in the export folder (`folder`, else GARMIN_MCP_EXPORT_DIR, else
    /// Downloads/Garmin), like a cache, and the answer gives its path.
    #[tool(
        name = "render_chart",
        annotations(
            title = "Draw a chart",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = true
        )
    )]
    async fn render_chart(
        &self,
        Parameters(args): Parameters<RenderChartArgs>,
    ) -> Result<ChartAnswer, ToolError> {
        let kind = args.kind.unwrap_or_default();
        check_kind_arguments(kind, &args)?;
        let width = bounded("width", args.width, garmin_charts::DEFAULT_WIDTH, WIDTH_RANGE)?;
        let height = bounded("height", args.height, garmin_charts::DEFAULT_HEIGHT, HEIGHT_RANGE)?;
        let title = args.title.as_deref().map(str::trim).filter(|t| !t.is_empty()).map(str::to_owned);
        if title.as_ref().is_some_and(|t| t.chars().count() > 80) {
            return Err(ToolError::invalid("title must be at most 80 characters"));
        }
        let today = self.today();
        let date = day_of(args.date).unwrap_or(today);
        if date > today {
            return Err(ToolError::invalid(format!("date {date} is in the future (today is {today})")));
        }
        // Read-only writes no files: the chart is shown, not saved (and no folder is created).
        let folder = if self.is_read_only() {
            if args.folder.is_some() {
                return Err(ToolError::invalid(
                    "this server is read-only (--readonly): charts are shown but never saved, so leave out `folder`",
                ));
            }
            None
        } else {
            Some(resolve_folder(args.folder.as_deref())?)
        };
        let language = match args.language.unwrap_or_default() {
            ChartLanguage::En => Language::En,
            ChartLanguage::Zh => Language::Zh,
        };
        let options = ChartOptions { width, height, title, language };

        let drawn = self.draw_kind(kind, &args, date, options).await?;
        self.save_chart(kind, folder, drawn).await
    }
}

impl GarminMcp {
    /// Gathers the data of `kind` and draws it (arguments already checked against the kind).
    async fn draw_kind(
        &self,
        kind: ChartKind,
        args: &RenderChartArgs,
        date: NaiveDate,
        options: ChartOptions,
    ) -> Result<Drawn, ToolError> {
        use ChartKind::*;
        Ok(match kind {
            Activity => self.activity_chart(args.activity_id, options).await?,
            HrZones => match zones_period_days(args)? {
                Some(days) => self.zones_over_period(date, days, args.sport.as_deref(), options).await?,
                None => self.activity_zones_chart(args.activity_id, options).await?,
            },
            Volume => {
                let (by, count, metric, stacked) = volume_choice(args)?;
                self.volume_chart(date, by, count, metric, stacked, args.sport.as_deref(), options).await?
            }
            Sleep => self.sleep_chart(date, options).await?,
            HealthTrend => {
                let metric = health_metric(args.metric)?;
                let days = bounded("days", args.days, 28, (7, 90))?;
                self.health_trend_chart(date, days, metric, options).await?
            }
            TrainingLoad => {
                let weeks = bounded("weeks", args.weeks, 8, (2, 26))?;
                self.training_load_chart(date, weeks, options).await?
            }
            Intensity => {
                let weeks = bounded("weeks", args.weeks, 12, (1, 26))?;
                self.intensity_chart(date, weeks, options).await?
            }
            Fitness => {
                let weeks = bounded("weeks", args.weeks, 12, (1, 20))?;
                self.fitness_chart(date, weeks, options).await?
            }
            LoadVsTolerance => {
                let weeks = bounded("weeks", args.weeks, 8, (2, 26))?;
                self.load_tolerance_chart(date, weeks, options).await?
            }
            MeanMax => {
                let metric = match args.metric {
                    None => None,
                    Some(ChartMetric::Power) => Some("power"),
                    Some(ChartMetric::Pace) => Some("pace"),
                    Some(ChartMetric::Hr) => Some("hr"),
                    Some(other) => {
                        return Err(ToolError::invalid(format!(
                            "metric {other:?} is for volume or health_trend; mean_max takes power, pace or hr"
                        )));
                    }
                };
                self.mean_max_chart(date, args.sport.as_deref(), metric, options).await?
            }
            Strength => {
                let weeks = bounded("weeks", args.weeks, 8, (1, 52))?;
                let wanted = match args.exercise.as_deref().map(str::trim).filter(|e| !e.is_empty()) {
                    Some(text) => Some(crate::domain::strength::resolve_exercise(text)?),
                    None => None,
                };
                self.strength_chart(weeks, wanted, options).await?
            }
        })
    }
}

/// The export folder, checked before any data is fetched. A bad `folder` argument is the caller's
/// to fix; a missing default folder is the machine's.
fn resolve_folder(requested: Option<&str>) -> Result<PathBuf, ToolError> {
    export_dir(requested)
        .map_err(|e| if requested.is_some() { ToolError::InvalidArgument(e) } else { ToolError::Local(e) })
}

impl GarminMcp {
    /// Saves the PNG in `folder` (never over a different file; `None`: read-only, not saved) and
    /// builds the answer.
    async fn save_chart(
        &self,
        kind: ChartKind,
        folder: Option<PathBuf>,
        drawn: Drawn,
    ) -> Result<ChartAnswer, ToolError> {
        let label = if self.is_demo() { format!("{} ", crate::demo::DEMO_LABEL) } else { String::new() };
        let (path, size, already_saved, kept) = match folder {
            Some(folder) => {
                let parts: Vec<&str> = drawn.file_parts.iter().map(String::as_str).collect();
                let name = safe_file_name(&parts, "png");
                let bytes = drawn.png.bytes.clone();
                let saved = tokio::task::spawn_blocking(move || save_new(&folder, &name, &bytes))
                    .await
                    .map_err(|e| {
                        ToolError::Local(format!("saving the chart stopped unexpectedly ({e}); try again"))
                    })?
                    .map_err(ToolError::Local)?;
                let path = saved.path.display().to_string();
                let kept = if saved.already_there { "Already saved as" } else { "Saved as" };
                let kept = format!(" {kept} {path}.");
                (Some(path), saved.size, saved.already_there, kept)
            }
            None => {
                let size = u64::try_from(drawn.png.bytes.len()).unwrap_or(u64::MAX);
                (None, size, false, " Not saved: this server is read-only.".to_owned())
            }
        };
        let summary = format!("{label}{}{kept}", drawn.summary);
        let data = RenderedChart {
            kind: kind.name().to_owned(),
            title: drawn.title,
            path,
            size_bytes: size,
            width: drawn.png.width,
            height: drawn.png.height,
            already_saved,
            activity_id: drawn.activity_id,
            period: drawn.period,
            series_source: drawn.series_source,
            points: drawn.points,
        };
        Ok(ChartAnswer { summary, data, png: drawn.png.bytes, view: drawn.view })
    }
}
