//! Within-day series of one calendar day: heart rate (2 min), stress (3 min, `-1` off wrist,
//! `-2` during activity), Body Battery (3 min), steps (15 min buckets), respiration and SpO2.
//!
//! Every series is a pure function of a [`DayCtx`] (the night that ended this morning, tonight's
//! bedtime, the day's activities), so the daily summary computed at generation time and the
//! series an endpoint serves later always agree.

use chrono::{Datelike, Duration, NaiveDateTime, Weekday};

use super::clock::{Zone, ms};
use super::rng::Rng;
use super::sleep::Sleep;

/// An activity as the day's series see it.
#[derive(Clone, Debug)]
pub struct Busy {
    /// Start (GMT).
    pub start: NaiveDateTime,
    /// End (GMT).
    pub end: NaiveDateTime,
    /// Average heart rate.
    pub avg_hr: f64,
    /// Maximum heart rate.
    pub max_hr: f64,
    /// Steps per minute (0 when not on foot).
    pub cadence: f64,
    /// Training load (drains Body Battery).
    pub load: f64,
}

/// Everything a day's series depend on, with the day's boundaries precomputed as second
/// offsets from local midnight so each tick is a few integer comparisons.
#[derive(Clone, Debug)]
pub struct DayCtx<'a> {
    /// The day's random seed.
    pub seed: u64,
    /// Local midnight starting the day (GMT).
    pub start: NaiveDateTime,
    /// The night that ended this morning.
    pub night: &'a Sleep,
    /// Resting heart rate.
    pub resting_hr: f64,
    start_ms: i64,
    wake_s: i64,
    bed_s: i64,
    busy: Vec<(i64, i64, Busy)>,
    weekday: bool,
}

enum Phase<'a> {
    Asleep,
    Active(&'a Busy),
    OffWrist,
    Awake,
}

/// Local 19:05–19:20: the watch is off for a shower.
const OFF_WRIST: std::ops::Range<i64> = 19 * 3600 + 300..19 * 3600 + 1200;

impl<'a> DayCtx<'a> {
    /// Context of the local day starting at `start` (GMT) with this morning's `night`, tonight's
    /// `bedtime` (GMT) and the day's activities.
    pub fn new(
        seed: u64,
        zone: &Zone,
        start: NaiveDateTime,
        night: &'a Sleep,
        bedtime: NaiveDateTime,
        busy: Vec<Busy>,
        resting_hr: f64,
    ) -> Self {
        let off = |t: NaiveDateTime| (t - start).num_seconds();
        let local = zone.to_local(start);
        Self {
            seed,
            start,
            night,
            resting_hr,
            start_ms: ms(start),
            wake_s: off(night.end_gmt),
            bed_s: off(bedtime),
            busy: busy.into_iter().map(|b| (off(b.start), off(b.end), b)).collect(),
            weekday: !matches!(local.weekday(), Weekday::Sat | Weekday::Sun),
        }
    }

    fn phase(&self, s: i64) -> Phase<'_> {
        if s < self.wake_s || s >= self.bed_s {
            return Phase::Asleep;
        }
        if let Some((_, _, b)) = self.busy.iter().find(|(from, to, _)| s >= *from && s < *to) {
            return Phase::Active(b);
        }
        if OFF_WRIST.contains(&s) {
            return Phase::OffWrist;
        }
        Phase::Awake
    }

    /// Second offsets from local midnight, every `step_s` seconds, for 24 hours.
    fn ticks(&self, step_s: i64) -> impl Iterator<Item = i64> {
        (0..86_400 / step_s).map(move |i| i * step_s)
    }

    fn at_ms(&self, s: i64) -> i64 {
        self.start_ms + s * 1000
    }

    fn work_hours(&self, s: i64) -> bool {
        let hour = s / 3600;
        self.weekday && ((9..12).contains(&hour) || (14..17).contains(&hour))
    }
}

/// Heart rate every 2 minutes (`None` while off wrist).
pub fn heart_rate(ctx: &DayCtx<'_>) -> Vec<(i64, Option<f64>)> {
    let mut rng = Rng::new(ctx.seed ^ 0x4852);
    ctx.ticks(120)
        .map(|t| {
            let v = match ctx.phase(t) {
                Phase::Asleep => Some(ctx.night.avg_hr + 2.0 * rng.noise().abs()),
                Phase::Active(b) => Some(b.avg_hr + (b.max_hr - b.avg_hr) * 0.4 * rng.noise()),
                Phase::OffWrist => None,
                Phase::Awake => {
                    let bump = if ctx.work_hours(t) { 6.0 } else { 0.0 };
                    let spike = if rng.chance(0.04) { rng.range(15.0, 35.0) } else { 0.0 };
                    Some(ctx.resting_hr + 16.0 + bump + spike + 5.0 * rng.noise())
                }
            };
            (ctx.at_ms(t), v.map(|v| v.clamp(38.0, 200.0).round()))
        })
        .collect()
}

/// Stress level every 3 minutes: 0–100, `-1` off wrist, `-2` during activity.
pub fn stress(ctx: &DayCtx<'_>) -> Vec<(i64, i32)> {
    let mut rng = Rng::new(ctx.seed ^ 0x5745);
    let mut spike = 0.0f64;
    ctx.ticks(180)
        .map(|t| {
            let v = match ctx.phase(t) {
                Phase::Asleep => (ctx.night.avg_stress + 4.0 * rng.noise()).clamp(1.0, 30.0) as i32,
                Phase::Active(_) => -2,
                Phase::OffWrist => -1,
                Phase::Awake => {
                    if rng.chance(0.03) {
                        spike = rng.range(25.0, 55.0);
                    }
                    spike *= 0.8;
                    let base = if ctx.work_hours(t) { 38.0 } else { 24.0 };
                    (base + spike + 8.0 * rng.noise()).clamp(1.0, 99.0) as i32
                }
            };
            (ctx.at_ms(t), v)
        })
        .collect()
}

/// Body Battery every 3 minutes starting from `start_level`: charging asleep, draining awake,
/// faster during activities and stress. Returns `(epoch ms, level)`.
pub fn body_battery(ctx: &DayCtx<'_>, start_level: f64) -> Vec<(i64, i32)> {
    let stress = stress(ctx);
    let sleep_gain = 0.45 + 0.003 * f64::from(ctx.night.score);
    let mut level = start_level;
    ctx.ticks(180)
        .zip(stress)
        .map(|(t, (_, s))| {
            level += match ctx.phase(t) {
                Phase::Asleep => sleep_gain * (1.0 - level / 105.0) * 1.2,
                Phase::Active(b) => {
                    let minutes = (b.end - b.start).num_seconds().max(60) as f64 / 60.0;
                    -(b.load / 12.0 + 2.0) * 3.0 / minutes
                }
                Phase::OffWrist => -0.2,
                Phase::Awake => -(0.08 + f64::from(s.max(0)) / 400.0),
            };
            level = level.clamp(5.0, 100.0);
            (ctx.at_ms(t), level.round() as i32)
        })
        .collect()
}

/// Steps per 15-minute bucket: `(bucket start GMT, steps, activity level)`.
pub fn steps(ctx: &DayCtx<'_>) -> Vec<(NaiveDateTime, u32, &'static str)> {
    let mut rng = Rng::new(ctx.seed ^ 0x5354);
    ctx.ticks(900)
        .map(|t| {
            let at = ctx.start + Duration::seconds(t);
            match ctx.phase(t + 450) {
                Phase::Asleep => (at, 0, "sleeping"),
                Phase::Active(b) if b.cadence > 0.0 => {
                    (at, (b.cadence * 15.0 * rng.range(0.9, 1.0)) as u32, "highlyActive")
                }
                Phase::Active(_) => (at, rng.int(0, 40) as u32, "active"),
                Phase::OffWrist => (at, 0, "none"),
                Phase::Awake if rng.chance(0.15) => (at, rng.int(250, 1100) as u32, "active"),
                Phase::Awake => (at, rng.int(0, 160) as u32, "sedentary"),
            }
        })
        .collect()
}

/// Breaths per minute every 2 minutes (`None` off wrist and during activity).
pub fn respiration(ctx: &DayCtx<'_>) -> Vec<(i64, Option<f64>)> {
    let mut rng = Rng::new(ctx.seed ^ 0x5245);
    ctx.ticks(120)
        .map(|t| {
            let v = match ctx.phase(t) {
                Phase::Asleep => Some(ctx.night.avg_respiration + rng.noise()),
                Phase::Awake => Some(15.0 + 1.5 * rng.noise()),
                _ => None,
            };
            (ctx.at_ms(t), v.map(|v| v.clamp(6.0, 30.0).round()))
        })
        .collect()
}

/// SpO2 readings while asleep (every 10 minutes).
pub fn spo2(ctx: &DayCtx<'_>) -> Vec<(i64, f64)> {
    let mut rng = Rng::new(ctx.seed ^ 0x5350);
    let night = ctx.night;
    let mut out = Vec::new();
    let mut t = night.start_gmt;
    while t < night.end_gmt {
        let v = (night.avg_spo2 + 1.5 * rng.noise()).clamp(night.lowest_spo2, 100.0).round();
        out.push((ms(t), v));
        t += Duration::minutes(10);
    }
    out
}
