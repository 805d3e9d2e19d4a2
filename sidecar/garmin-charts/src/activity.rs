//! The activity chart: pace (or speed) over distance with split bars in the upper panel, heart
//! rate with the athlete's zone bands in the lower one. Pace reads like a runner expects: `m:ss`,
//! faster higher. Samples are smoothed over a few seconds for pace (GPS speed is jittery), then
//! thinned to about two points per pixel column with [`min_max`], which keeps every peak.
//!
//! When Garmin has the activity's laps, the split bars are the laps: samples can be too sparse to
//! split (a 2018 recording has ~20 samples in its first 500 m) and laps are what the watch
//! measured. Pool swims also take their pace line from the laps, since Garmin's speed channel is
//! about zero in the pool.

use plotters::element::Rectangle;
use plotters::style::{Color, RGBColor};

use crate::canvas::{Area, drawing, render};
use crate::downsample::min_max;
use crate::format::{h_mm, hms, km, mss};
use crate::frame::{Header, LegendItem, Mark, header, legend_above, note, note_width};
use crate::i18n::Phrase;
use crate::plot::{
    Axes, LEFT_AREA, decimal_ticks, minute_ticks, pace_ticks, padded, panel, quantile, segments,
};
use crate::text::{H, V};
use crate::theme::{HEART, PACE, SMALL_PX, SPLIT, Theme, ZONES, tint};
use crate::{ChartError, ChartOptions, Png};

/// How the activity's speed reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SpeedUnit {
    /// Minutes per km (runs, walks, hikes).
    #[default]
    PacePerKm,
    /// Minutes per 100 m (swims).
    PacePer100m,
    /// km/h (rides).
    Kmh,
}

/// One recorded sample.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ActivitySample {
    /// Seconds since the start.
    pub elapsed_s: f64,
    /// Metres since the start.
    pub distance_m: Option<f64>,
    /// Speed in m/s.
    pub speed_mps: Option<f64>,
    /// Heart rate in bpm.
    pub heart_rate: Option<f64>,
}

/// One lap as Garmin recorded it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ActivityLap {
    /// Metres (0 for a rest between pool intervals).
    pub distance_m: f64,
    /// Seconds (timer time).
    pub duration_s: f64,
}

/// The floor of one heart-rate zone.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HrZoneFloor {
    /// Zone number, 1–5.
    pub zone: u8,
    /// Lowest heart rate of the zone, bpm.
    pub from_bpm: f64,
}

/// What the activity chart draws.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ActivityChart {
    /// Activity name (the title).
    pub name: String,
    /// Local start, `YYYY-MM-DD` or `YYYY-MM-DD HH:MM`.
    pub date: String,
    /// How speed reads.
    pub speed_unit: SpeedUnit,
    /// The samples, in time order.
    pub samples: Vec<ActivitySample>,
    /// The athlete's zone floors (bands behind the heart rate; none drawn when empty).
    pub hr_zones: Vec<HrZoneFloor>,
    /// Distance as Garmin reports it (else the last sample's).
    pub distance_m: Option<f64>,
    /// Timer time as Garmin reports it (else the moving time of the samples).
    pub duration_s: Option<f64>,
    /// Average heart rate as Garmin reports it (else the time-weighted mean of the samples).
    pub avg_hr: Option<f64>,
    /// The laps, in order (empty: split bars come from the samples).
    pub laps: Vec<ActivityLap>,
}

impl ActivityChart {
    /// True when the pace line is drawn from the laps rather than the samples: a swim with laps
    /// whose speed channel is about zero (fewer than half the samples moving), as Garmin records
    /// pool swims.
    pub fn pace_from_laps(&self) -> bool {
        let has_laps = self.laps.iter().any(|l| l.distance_m >= 1.0 && l.duration_s > 0.0);
        let moving = self
            .samples
            .iter()
            .filter_map(|s| s.speed_mps)
            .filter(|v| v.is_finite() && display_value(self.speed_unit, *v).is_some())
            .count();
        has_laps && self.speed_unit == SpeedUnit::PacePer100m && moving * 2 < self.samples.len().max(1)
    }
}

/// Half-width of the pace smoothing window, seconds.
const SMOOTH_HALF_WINDOW_S: f64 = 5.0;
/// A gap longer than this between samples that covers almost no distance is a pause.
const PAUSE_GAP_S: f64 = 30.0;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum XAxis {
    /// km.
    Distance,
    /// Minutes.
    Time,
}

/// One split bar: x range (axis units) and its pace/speed (display units).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Split {
    from: f64,
    to: f64,
    value: f64,
}

/// The samples turned into what is drawn.
#[derive(Debug)]
struct Prepared {
    axis: XAxis,
    x_max: f64,
    /// Pace in seconds (per km or 100 m) or speed in km/h, by x.
    speed: Vec<(f64, f64)>,
    hr: Vec<(f64, f64)>,
    splits: Vec<Split>,
    split_m: f64,
    /// The split bars are the laps.
    lap_splits: bool,
    distance_m: Option<f64>,
    duration_s: f64,
    avg_hr: Option<f64>,
}

/// Draws the activity chart.
pub fn activity(data: &ActivityChart, options: &ChartOptions) -> Result<Png, ChartError> {
    let prepared = prepare(data)?;
    render(options, |root, theme| draw(root, theme, options, data, &prepared))
}

fn is_pace(unit: SpeedUnit) -> bool {
    unit != SpeedUnit::Kmh
}

/// Speed (m/s) as the unit's display value; `None` for a standstill.
fn display_value(unit: SpeedUnit, mps: f64) -> Option<f64> {
    match unit {
        // Slower than 30 min/km (or 10 min/100 m) is standing, not moving.
        SpeedUnit::PacePerKm => (mps >= 1000.0 / 1800.0).then(|| 1000.0 / mps),
        SpeedUnit::PacePer100m => (mps >= 100.0 / 600.0).then(|| 100.0 / mps),
        SpeedUnit::Kmh => (mps >= 0.0).then_some(mps * 3.6),
    }
}

fn prepare(data: &ActivityChart) -> Result<Prepared, ChartError> {
    let mut samples: Vec<ActivitySample> =
        data.samples.iter().copied().filter(|s| s.elapsed_s.is_finite() && s.elapsed_s >= 0.0).collect();
    samples.sort_by(|a, b| a.elapsed_s.total_cmp(&b.elapsed_s));
    let distance = |s: &ActivitySample| s.distance_m.filter(|d| d.is_finite() && *d >= 0.0);
    let with_distance = samples.iter().filter(|s| distance(s).is_some()).count();
    let max_distance = samples.iter().filter_map(distance).fold(0.0, f64::max);
    let axis = if with_distance >= 2 && max_distance >= 100.0 { XAxis::Distance } else { XAxis::Time };
    let t0 = samples.first().map_or(0.0, |s| s.elapsed_s);

    // x per sample (distance kept monotonic: cumulative distance never goes back).
    let mut running_max = 0.0f64;
    let xs: Vec<Option<f64>> = samples
        .iter()
        .map(|s| match axis {
            XAxis::Distance => distance(s).map(|d| {
                running_max = running_max.max(d);
                running_max / 1000.0
            }),
            XAxis::Time => Some((s.elapsed_s - t0) / 60.0),
        })
        .collect();
    let x_max = xs.iter().flatten().copied().fold(0.0, f64::max);

    let smoothed = smooth_speed(&samples);
    let speed: Vec<(f64, f64)> = xs
        .iter()
        .zip(&smoothed)
        .filter_map(|(x, v)| Some((((*x)?), display_value(data.speed_unit, (*v)?)?)))
        .collect();
    let hr: Vec<(f64, f64)> = xs
        .iter()
        .zip(&samples)
        .filter_map(|(x, s)| Some(((*x)?, s.heart_rate.filter(|h| (25.0..=250.0).contains(h))?)))
        .collect();

    let split_m = split_length(data.speed_unit, max_distance);
    let laps = lap_bars(&data.laps, axis, data.speed_unit);
    let lap_splits = !laps.is_empty();
    let lap_pace = lap_splits && data.pace_from_laps();
    let speed = if lap_pace {
        laps.iter().flat_map(|l| [(l.from, l.value), (l.to, l.value)]).collect()
    } else {
        speed
    };
    if speed.len() < 2 && hr.len() < 2 {
        return Err(ChartError::NoData(
            "the activity has no pace, speed or heart-rate samples to draw".to_owned(),
        ));
    }
    let splits = if lap_splits {
        laps
    } else if axis == XAxis::Distance && speed.len() >= 2 && dense_enough(&samples, split_m) {
        splits(&samples, split_m, data.speed_unit)
    } else {
        Vec::new()
    };
    let moving = moving_seconds(&samples);
    let avg_hr = data.avg_hr.filter(|h| h.is_finite() && *h > 0.0).or_else(|| mean_hr(&samples));
    Ok(Prepared {
        axis,
        x_max: if x_max > 0.0 { x_max } else { 1.0 },
        speed,
        hr,
        splits,
        split_m,
        lap_splits,
        distance_m: data
            .distance_m
            .filter(|d| d.is_finite() && *d > 0.0)
            .or((max_distance > 0.0).then_some(max_distance)),
        duration_s: data.duration_s.filter(|d| d.is_finite() && *d > 0.0).unwrap_or(moving),
        avg_hr,
    })
}

/// The laps as bars on `axis` (cumulative distance in km, or cumulative time in minutes), rests
/// leaving a gap; none when no lap has a distance and a time.
fn lap_bars(laps: &[ActivityLap], axis: XAxis, unit: SpeedUnit) -> Vec<Split> {
    let (mut meters, mut seconds) = (0.0, 0.0);
    let mut out = Vec::new();
    for lap in laps {
        let m = if lap.distance_m.is_finite() { lap.distance_m.max(0.0) } else { 0.0 };
        let s = if lap.duration_s.is_finite() { lap.duration_s.max(0.0) } else { 0.0 };
        let (from, to) = match axis {
            XAxis::Distance => (meters / 1000.0, (meters + m) / 1000.0),
            XAxis::Time => (seconds / 60.0, (seconds + s) / 60.0),
        };
        if m >= 1.0
            && s > 0.0
            && let Some(value) = display_value(unit, m / s)
        {
            out.push(Split { from, to, value });
        }
        meters += m;
        seconds += s;
    }
    out
}

/// True when the samples are dense enough to split every `split_m` metres: on average at least
/// five samples per split. Sparse recordings would otherwise get invented split bars.
fn dense_enough(samples: &[ActivitySample], split_m: f64) -> bool {
    let distances: Vec<f64> = samples.iter().filter_map(|s| s.distance_m).filter(|d| d.is_finite()).collect();
    let span = distances.iter().copied().fold(0.0, f64::max)
        - distances.iter().copied().fold(f64::INFINITY, f64::min);
    span > 0.0 && distances.len() as f64 >= 5.0 * (span / split_m).max(1.0)
}

/// Speed averaged over ±[`SMOOTH_HALF_WINDOW_S`] around each sample (two pointers, linear time).
fn smooth_speed(samples: &[ActivitySample]) -> Vec<Option<f64>> {
    let mut out = Vec::with_capacity(samples.len());
    let (mut lo, mut hi) = (0usize, 0usize);
    let (mut sum, mut count) = (0.0, 0usize);
    let valid = |s: &ActivitySample| s.speed_mps.filter(|v| v.is_finite() && *v >= 0.0 && *v < 100.0);
    for s in samples {
        let t = s.elapsed_s;
        while hi < samples.len() && samples[hi].elapsed_s <= t + SMOOTH_HALF_WINDOW_S {
            if let Some(v) = valid(&samples[hi]) {
                sum += v;
                count += 1;
            }
            hi += 1;
        }
        while lo < hi && samples[lo].elapsed_s < t - SMOOTH_HALF_WINDOW_S {
            if let Some(v) = valid(&samples[lo]) {
                sum -= v;
                count -= 1;
            }
            lo += 1;
        }
        out.push(if valid(s).is_some() && count > 0 { Some((sum / count as f64).max(0.0)) } else { None });
    }
    out
}

/// Split length: 1 km (100 m for swims), longer when that would give more than 60 bars.
fn split_length(unit: SpeedUnit, max_distance: f64) -> f64 {
    let candidates: &[f64] = match unit {
        SpeedUnit::PacePer100m => &[100.0, 200.0, 500.0, 1000.0],
        _ => &[1000.0, 2000.0, 5000.0, 10_000.0, 20_000.0],
    };
    candidates.iter().copied().find(|len| max_distance / len <= 60.0).unwrap_or(50_000.0)
}

/// Seconds of a step between two samples that count as moving (pauses are skipped).
fn moving_step(a: &ActivitySample, b: &ActivitySample) -> f64 {
    let dt = b.elapsed_s - a.elapsed_s;
    if dt.is_nan() || dt <= 0.0 {
        return 0.0;
    }
    let dd = match (a.distance_m, b.distance_m) {
        (Some(x), Some(y)) => y - x,
        _ => f64::NAN,
    };
    // Unknown distance (NaN) counts as not moving, like a slow one.
    let moving_fast = (dd / dt).is_finite() && dd / dt > 0.5;
    let paused = dt > PAUSE_GAP_S && !moving_fast;
    if paused { 0.0 } else { dt }
}

fn moving_seconds(samples: &[ActivitySample]) -> f64 {
    samples.windows(2).map(|w| moving_step(&w[0], &w[1])).sum()
}

fn mean_hr(samples: &[ActivitySample]) -> Option<f64> {
    let (mut weighted, mut seconds) = (0.0, 0.0);
    for w in samples.windows(2) {
        let dt = moving_step(&w[0], &w[1]);
        if let Some(hr) = w[0].heart_rate.filter(|h| (25.0..=250.0).contains(h)) {
            weighted += hr * dt;
            seconds += dt;
        }
    }
    (seconds > 0.0).then(|| weighted / seconds)
}

/// Splits every `split_m` metres from the samples' distance and moving time; a last partial split
/// of at least a tenth of the length is kept.
fn splits(samples: &[ActivitySample], split_m: f64, unit: SpeedUnit) -> Vec<Split> {
    let points: Vec<(f64, f64)> = {
        let mut moving = 0.0;
        let mut out = Vec::with_capacity(samples.len());
        let mut prev: Option<&ActivitySample> = None;
        let mut max_d = 0.0f64;
        for s in samples {
            let Some(d) = s.distance_m.filter(|d| d.is_finite() && *d >= 0.0) else { continue };
            if let Some(p) = prev {
                moving += moving_step(p, s);
            }
            max_d = max_d.max(d);
            out.push((max_d, moving));
            prev = Some(s);
        }
        out
    };
    let Some(&(total_d, _)) = points.last() else { return Vec::new() };
    let value = |meters: f64, seconds: f64| -> Option<f64> {
        if !(meters > 0.0 && seconds > 0.0) {
            return None;
        }
        display_value(unit, meters / seconds)
    };
    // Moving time at distance `d`, interpolated between samples.
    let time_at = |d: f64, from: usize| -> (f64, usize) {
        let mut i = from;
        while i + 1 < points.len() && points[i + 1].0 < d {
            i += 1;
        }
        let (d0, t0) = points[i];
        match points.get(i + 1) {
            Some(&(d1, t1)) if d1 > d0 => (t0 + (t1 - t0) * ((d - d0) / (d1 - d0)).clamp(0.0, 1.0), i),
            _ => (t0, i),
        }
    };
    let mut out = Vec::new();
    let mut start_d = points[0].0;
    let (mut start_t, mut cursor) = time_at(start_d, 0);
    loop {
        let end_d = (start_d / split_m).floor() * split_m + split_m;
        let (end_d, last) = if end_d >= total_d { (total_d, true) } else { (end_d, false) };
        let (end_t, next) = time_at(end_d, cursor);
        let meters = end_d - start_d;
        if (!last || meters >= split_m * 0.1)
            && let Some(v) = value(meters, end_t - start_t)
        {
            out.push(Split { from: start_d / 1000.0, to: end_d / 1000.0, value: v });
        }
        if last {
            break;
        }
        start_d = end_d;
        start_t = end_t;
        cursor = next;
    }
    out
}

fn draw(
    root: &Area<'_>,
    theme: &Theme,
    options: &ChartOptions,
    data: &ActivityChart,
    p: &Prepared,
) -> Result<(), ChartError> {
    let lang = theme.language;
    let unit = data.speed_unit;
    let mut facts = vec![data.date.clone()];
    if let Some(d) = p.distance_m {
        facts.push(km(d));
    }
    facts.push(hms(p.duration_s));
    if let Some(d) = p.distance_m
        && let Some(v) = display_value(unit, d / p.duration_s)
    {
        facts.push(match unit {
            SpeedUnit::PacePerKm => format!("{}/km", mss(v)),
            SpeedUnit::PacePer100m => format!("{}/100 m", mss(v)),
            SpeedUnit::Kmh => format!("{v:.1} km/h"),
        });
    }
    if let Some(hr) = p.avg_hr {
        facts.push(format!("{} {hr:.0} bpm", Phrase::AvgHr.text(lang)));
    }
    let title =
        if data.name.trim().is_empty() { Phrase::Activity.text(lang).to_owned() } else { data.name.clone() };
    let body = header(root, theme, options, &Header { title, subtitle: facts.join(" · "), badge: None })?;

    let has_speed = p.speed.len() >= 2;
    let has_hr = p.hr.len() >= 2;
    let (speed_area, hr_area) = match (has_speed, has_hr) {
        (true, true) => {
            let (_, h) = body.dim_in_pixel();
            let (a, b) = body.split_vertically(f64::from(h) * 0.55);
            (Some(a), Some(b))
        }
        (true, false) => (Some(body), None),
        _ => (None, Some(body)),
    };
    let x = XAxisSpec {
        range: 0.0..p.x_max,
        ticks: match p.axis {
            XAxis::Distance => decimal_ticks(0.0, p.x_max, 12),
            XAxis::Time => minute_ticks(0.0, p.x_max, 12),
        },
        desc: match p.axis {
            XAxis::Distance => Phrase::DistanceKm.text(lang),
            XAxis::Time => Phrase::ElapsedTime.text(lang),
        },
        axis: p.axis,
    };
    if let Some(area) = &speed_area {
        draw_speed(root, area, theme, p, unit, &x, hr_area.is_none())?;
    }
    if let Some(area) = &hr_area {
        draw_hr(root, area, theme, p, &data.hr_zones, &x)?;
    }
    Ok(())
}

/// The shared x axis of both panels.
struct XAxisSpec {
    range: std::ops::Range<f64>,
    ticks: Vec<f64>,
    desc: &'static str,
    axis: XAxis,
}

impl XAxisSpec {
    fn label(&self, v: f64) -> String {
        // As many decimals as the tick step needs (1, 0.5, 0.25, 0.02 km…).
        let decimals = |step: f64| {
            (0..3).find(|d| (step * 10f64.powi(*d) - (step * 10f64.powi(*d)).round()).abs() < 1e-6)
        };
        match self.axis {
            XAxis::Distance => {
                let step = self.ticks.windows(2).map(|w| w[1] - w[0]).next().unwrap_or(1.0);
                format!("{v:.*}", decimals(step).unwrap_or(3) as usize)
            }
            XAxis::Time => h_mm(v),
        }
    }
}

/// Points for a panel `plot_width` pixels wide (about two per pixel column), kept inside `y`.
fn thin(points: &[(f64, f64)], plot_width: i32, y: &std::ops::Range<f64>) -> Vec<(f64, f64)> {
    let (lo, hi) = if y.start <= y.end { (y.start, y.end) } else { (y.end, y.start) };
    let budget = usize::try_from(plot_width.max(32)).unwrap_or(32) * 2;
    min_max(points, budget).into_iter().map(|(x, v)| (x, v.clamp(lo, hi))).collect()
}

fn draw_speed(
    root: &Area<'_>,
    area: &Area<'_>,
    theme: &Theme,
    p: &Prepared,
    unit: SpeedUnit,
    x: &XAxisSpec,
    x_labels_here: bool,
) -> Result<(), ChartError> {
    let lang = theme.language;
    let pace = is_pace(unit);
    let mut values: Vec<f64> = p.speed.iter().map(|(_, v)| *v).collect();
    let (lo_q, hi_q) =
        (quantile(&mut values, 0.02).unwrap_or(0.0), quantile(&mut values, 0.98).unwrap_or(1.0));
    let split_lo = p.splits.iter().map(|s| s.value).fold(f64::INFINITY, f64::min);
    let split_hi = p.splits.iter().map(|s| s.value).fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = (lo_q.min(split_lo), hi_q.max(split_hi));
    // Pace is drawn as −seconds so that faster (fewer seconds) is higher.
    let (y_range, ticks, bar_base) = if pace {
        let (lo, hi) = padded(lo, hi, 0.1, 10.0);
        let step = if hi - lo > 600.0 {
            60.0
        } else if hi - lo > 240.0 {
            30.0
        } else {
            15.0
        };
        let (lo, hi) = (((lo / step).floor() * step).max(0.0), (hi / step).ceil() * step);
        let ticks: Vec<f64> = pace_ticks(lo, hi, 7).into_iter().map(|t| -t).collect();
        (-hi..-lo, ticks, -hi)
    } else {
        let top = (hi.max(1.0) * 1.1 / 5.0).ceil() * 5.0;
        (0.0..top, decimal_ticks(0.0, top, 7), 0.0)
    };
    let y_fmt = |v: f64| if pace { mss(-v) } else { format!("{v:.0}") };
    let x_fmt = |v: f64| x.label(v);
    let y_desc = match unit {
        SpeedUnit::PacePerKm => Phrase::PacePerKm,
        SpeedUnit::PacePer100m => Phrase::PacePer100m,
        SpeedUnit::Kmh => Phrase::SpeedKmh,
    }
    .text(lang);
    let axes = Axes {
        x: x.range.clone(),
        y: y_range.clone(),
        x_desc: x_labels_here.then_some(x.desc),
        y_desc,
        x_fmt: &x_fmt,
        y_fmt: &y_fmt,
        x_ticks: if x_labels_here { x.ticks.clone() } else { Vec::new() },
        y_ticks: ticks,
        x_grid: false,
        left: LEFT_AREA,
        right: 0.0,
    };
    let mut chart = panel(root, area, theme, &axes)?;
    let to_y = |v: f64| if pace { -v } else { v };
    let clamp_y = |v: f64| v.clamp(y_range.start, y_range.end);

    // Split bars, with their pace written inside when there is room.
    let gap = u32::try_from(theme.px(1.5).max(1)).unwrap_or(1);
    chart
        .draw_series(p.splits.iter().map(|s| {
            let mut bar =
                Rectangle::new([(s.from, bar_base), (s.to, clamp_y(to_y(s.value)))], SPLIT.filled());
            bar.set_margin(0, 0, gap, gap);
            bar
        }))
        .map_err(drawing)?;
    let split_ink = RGBColor(30, 64, 175);
    for s in &p.splits {
        let label = if pace { mss(s.value) } else { format!("{:.1}", s.value) };
        let (x0, y0) = chart.backend_coord(&(s.from, bar_base));
        let (x1, _) = chart.backend_coord(&(s.to, bar_base));
        if x1 - x0 >= note_width(theme, &label)? + theme.px(6.0) {
            note(
                root,
                theme,
                &label,
                ((x0 + x1) / 2, y0 - theme.px(8.0)),
                (H::Center, V::Baseline),
                &split_ink,
            )?;
        }
    }

    let (x_px, _) = chart.plotting_area().get_pixel_range();
    let line: Vec<(f64, f64)> = p.speed.iter().map(|(x, v)| (*x, to_y(*v))).collect();
    let thinned = thin(&line, x_px.end - x_px.start, &y_range);
    chart.draw_series(segments(&thinned, theme.line(PACE, 2.5))).map_err(drawing)?;

    let split_name = if p.lap_splits {
        Phrase::Laps.text(lang).to_owned()
    } else if (p.split_m - 1000.0).abs() < 1.0 {
        Phrase::SplitsPerKm.text(lang).to_owned()
    } else {
        let length = if p.split_m >= 1000.0 {
            format!("{} km", p.split_m / 1000.0)
        } else {
            format!("{} m", p.split_m)
        };
        format!("{} ({length})", Phrase::Splits.text(lang))
    };
    let mut legend = Vec::new();
    if !p.splits.is_empty() {
        legend.push(LegendItem::new(SPLIT, Mark::Box, split_name));
    }
    legend.push(LegendItem::new(
        PACE,
        Mark::Line,
        if pace { Phrase::Pace } else { Phrase::Speed }.text(lang),
    ));
    legend_above(root, &chart, theme, &legend)
}

fn draw_hr(
    root: &Area<'_>,
    area: &Area<'_>,
    theme: &Theme,
    p: &Prepared,
    zones: &[HrZoneFloor],
    x: &XAxisSpec,
) -> Result<(), ChartError> {
    let lang = theme.language;
    let lo = p.hr.iter().map(|(_, h)| *h).fold(f64::INFINITY, f64::min);
    let hi = p.hr.iter().map(|(_, h)| *h).fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = padded(lo, hi, 0.06, 4.0);
    let y_range = ((lo / 10.0).floor() * 10.0)..((hi / 10.0).ceil() * 10.0);
    let y_fmt = |v: f64| format!("{v:.0}");
    let x_fmt = |v: f64| x.label(v);
    let axes = Axes {
        x: x.range.clone(),
        y: y_range.clone(),
        x_desc: Some(x.desc),
        y_desc: Phrase::HeartRateBpm.text(lang),
        x_fmt: &x_fmt,
        y_fmt: &y_fmt,
        x_ticks: x.ticks.clone(),
        y_ticks: decimal_ticks(y_range.start, y_range.end, 5),
        x_grid: false,
        left: LEFT_AREA,
        right: 0.0,
    };
    let mut chart = panel(root, area, theme, &axes)?;

    // Zone bands: each zone from its floor to the next floor (the top zone to the axis top).
    let mut floors: Vec<HrZoneFloor> =
        zones.iter().copied().filter(|z| (1..=5).contains(&z.zone) && z.from_bpm.is_finite()).collect();
    floors.sort_by(|a, b| a.from_bpm.total_cmp(&b.from_bpm));
    let bands: Vec<(u8, f64, f64)> = floors
        .iter()
        .enumerate()
        .map(|(i, z)| (z.zone, z.from_bpm, floors.get(i + 1).map_or(f64::INFINITY, |n| n.from_bpm)))
        .filter_map(|(zone, from, to)| {
            let (from, to) = (from.max(y_range.start), to.min(y_range.end));
            (to > from).then_some((zone, from, to))
        })
        .collect();
    let (x0, x1) = (x.range.start, x.range.end);
    chart
        .draw_series(bands.iter().map(|(zone, from, to)| {
            Rectangle::new([(x0, *from), (x1, *to)], tint(zone_color(*zone), 0.16).filled())
        }))
        .map_err(drawing)?;
    let zone_ink = RGBColor(75, 85, 99);
    for (zone, from, to) in &bands {
        let (px, y0) = chart.backend_coord(&(x1, *from));
        let (_, y1) = chart.backend_coord(&(x1, *to));
        if (y0 - y1).abs() >= theme.px(SMALL_PX * 0.6) {
            note(
                root,
                theme,
                &format!("Z{zone}"),
                (px - theme.px(8.0), (y0 + y1) / 2),
                (H::Right, V::Middle),
                &zone_ink,
            )?;
        }
    }

    let (x_px, _) = chart.plotting_area().get_pixel_range();
    let thinned = thin(&p.hr, x_px.end - x_px.start, &y_range);
    chart.draw_series(segments(&thinned, theme.line(HEART, 2.0))).map_err(drawing)?;
    let mut legend = vec![LegendItem::new(HEART, Mark::Line, Phrase::HeartRate.text(lang))];
    if !bands.is_empty() {
        legend.insert(0, LegendItem::new(ZONES[2], Mark::Box, format!("{} 1–5", Phrase::Zone.text(lang))));
    }
    legend_above(root, &chart, theme, &legend)
}

fn zone_color(zone: u8) -> RGBColor {
    ZONES[usize::from(zone.clamp(1, 5)) - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(seconds_per_km: &[f64]) -> Vec<ActivitySample> {
        let mut out = Vec::new();
        let (mut t, mut d) = (0.0, 0.0);
        for (k, pace) in seconds_per_km.iter().enumerate() {
            let v = 1000.0 / pace;
            while d < (k as f64 + 1.0) * 1000.0 - 1e-9 {
                out.push(ActivitySample {
                    elapsed_s: t,
                    distance_m: Some(d),
                    speed_mps: Some(v),
                    heart_rate: Some(150.0),
                });
                t += 1.0;
                d += v;
            }
        }
        out.push(ActivitySample {
            elapsed_s: t,
            distance_m: Some(d),
            speed_mps: Some(0.0),
            heart_rate: Some(150.0),
        });
        out
    }

    #[test]
    fn splits_follow_each_km_of_the_samples() {
        let samples = run(&[300.0, 290.0, 310.0]);
        let s = splits(&samples, 1000.0, SpeedUnit::PacePerKm);
        assert_eq!(s.len(), 3, "{s:?}");
        for (split, want) in s.iter().zip([300.0, 290.0, 310.0]) {
            assert!((split.value - want).abs() < 1.5, "{split:?} vs {want}");
        }
        assert_eq!((s[0].from, s[0].to), (0.0, 1.0));
    }

    #[test]
    fn a_pause_does_not_slow_the_split_down() {
        let mut samples = run(&[300.0, 300.0]);
        // Stop for ten minutes at 1.5 km: every later sample moves 600 s later.
        let at = samples.iter().position(|s| s.distance_m.unwrap_or(0.0) >= 1500.0).unwrap();
        for s in &mut samples[at..] {
            s.elapsed_s += 600.0;
        }
        let s = splits(&samples, 1000.0, SpeedUnit::PacePerKm);
        assert!((s[1].value - 300.0).abs() < 2.0, "{:?}", s[1]);
        assert!((moving_seconds(&samples) - 600.0).abs() < 3.0);
    }

    /// A pool swim as Garmin records it: distance grows by the length, speed is zero throughout.
    fn pool_swim() -> ActivityChart {
        let samples: Vec<ActivitySample> = (0..=120)
            .map(|i| ActivitySample {
                elapsed_s: f64::from(i) * 5.0,
                distance_m: Some((f64::from(i) * 5.0 / 100.0 * 100.0 / 25.0).floor() * 25.0),
                speed_mps: Some(0.0),
                heart_rate: Some(130.0),
            })
            .collect();
        let laps = vec![
            ActivityLap { distance_m: 200.0, duration_s: 190.0 },
            ActivityLap { distance_m: 0.0, duration_s: 20.0 },
            ActivityLap { distance_m: 200.0, duration_s: 210.0 },
            ActivityLap { distance_m: 100.0, duration_s: 180.0 },
        ];
        ActivityChart { speed_unit: SpeedUnit::PacePer100m, samples, laps, ..ActivityChart::default() }
    }

    #[test]
    fn a_pool_swim_without_a_speed_channel_takes_its_pace_from_the_laps() {
        let data = pool_swim();
        assert!(data.pace_from_laps());
        let p = prepare(&data).unwrap();
        assert!(p.lap_splits);
        // 200 m in 190 s is 1:35/100 m, not the 4-6 min/100 m a zero speed channel would give.
        let paces: Vec<f64> = p.splits.iter().map(|s| s.value.round()).collect();
        assert_eq!(paces, [95.0, 105.0, 180.0]);
        assert!(p.speed.iter().all(|(_, v)| paces.contains(&v.round())), "{:?}", p.speed);
        assert_eq!((p.splits[1].from, p.splits[1].to), (0.2, 0.4), "the rest leaves no distance gap");
    }

    #[test]
    fn sparse_samples_take_their_split_bars_from_the_laps_or_draw_none() {
        // ~20 samples over 500 m, like the 2018 recording in activity_details_legacy_2018.json.
        let samples: Vec<ActivitySample> = (0..20)
            .map(|i| ActivitySample {
                elapsed_s: f64::from(i) * 12.0,
                distance_m: Some(f64::from(i) * 26.0),
                speed_mps: Some(2.2 + f64::from(i % 3)),
                heart_rate: Some(120.0),
            })
            .chain((1..=8).map(|i| ActivitySample {
                elapsed_s: 240.0 + f64::from(i) * 300.0,
                distance_m: Some(494.0 + f64::from(i) * 960.0),
                speed_mps: Some(3.2),
                heart_rate: Some(140.0),
            }))
            .collect();
        let bare = ActivityChart { samples: samples.clone(), ..ActivityChart::default() };
        assert!(prepare(&bare).unwrap().splits.is_empty(), "too sparse to split: no invented bars");
        let laps: Vec<ActivityLap> =
            (0..8).map(|i| ActivityLap { distance_m: 1000.0, duration_s: 300.0 + f64::from(i) }).collect();
        let p = prepare(&ActivityChart { samples, laps, ..ActivityChart::default() }).unwrap();
        assert!(p.lap_splits);
        assert_eq!(p.speed.len(), 28, "a run's pace line stays the samples'");
        assert_eq!(p.splits.len(), 8);
        assert!((p.splits[0].value - 300.0).abs() < 1e-6, "{:?}", p.splits[0]);
        assert_eq!((p.splits[7].from, p.splits[7].to), (7.0, 8.0));
    }

    #[test]
    fn distance_gives_the_axis_and_a_time_axis_is_the_fallback() {
        let data = ActivityChart { samples: run(&[300.0, 300.0]), ..ActivityChart::default() };
        let p = prepare(&data).unwrap();
        assert_eq!(p.axis, XAxis::Distance);
        assert!((p.x_max - 2.0).abs() < 0.01);
        let indoor: Vec<ActivitySample> = (0..600)
            .map(|i| ActivitySample {
                elapsed_s: f64::from(i),
                heart_rate: Some(120.0),
                ..ActivitySample::default()
            })
            .collect();
        let p = prepare(&ActivityChart { samples: indoor, ..ActivityChart::default() }).unwrap();
        assert_eq!(p.axis, XAxis::Time);
        assert!(p.speed.is_empty() && p.splits.is_empty());
        assert!(matches!(prepare(&ActivityChart::default()), Err(ChartError::NoData(_))));
    }
}
