//! Daily health of every day in the data set: the numbers a daily summary shows (steps, heart
//! rate, stress, Body Battery, intensity minutes, floors, calories, hydration), plus the night's
//! sleep, HRV and the occasional weigh-in. Intraday series are not stored; [`Day::ctx`] rebuilds
//! the inputs [`super::intraday`] needs.

use chrono::{Duration, NaiveDate, NaiveDateTime, NaiveTime};

use super::activity::{Activity, Sport};
use super::clock::{Zone, day_no};
use super::fitness::Fitness;
use super::intraday::{self, Busy, DayCtx};
use super::rng::Rng;
use super::sleep::{self, Sleep};

/// Stress durations and levels of a day.
#[derive(Clone, Debug, Default)]
pub struct StressDay {
    /// Average over measured (non-negative) values.
    pub avg: f64,
    /// Highest value.
    pub max: f64,
    /// Seconds at rest (0–25).
    pub rest_s: i64,
    /// Seconds low (26–50).
    pub low_s: i64,
    /// Seconds medium (51–75).
    pub medium_s: i64,
    /// Seconds high (76–100).
    pub high_s: i64,
    /// Seconds during activities (`-2`).
    pub activity_s: i64,
    /// Seconds unmeasured (`-1`).
    pub uncategorized_s: i64,
}

/// Body Battery of a day.
#[derive(Clone, Debug, Default)]
pub struct BatteryDay {
    /// Level at local midnight.
    pub start: f64,
    /// Level at the end of the day (tomorrow's start).
    pub end: f64,
    /// Highest level.
    pub high: f64,
    /// Lowest level.
    pub low: f64,
    /// Level at wake-up.
    pub at_wake: f64,
    /// Total charged.
    pub charged: f64,
    /// Total drained.
    pub drained: f64,
}

/// A weigh-in.
#[derive(Clone, Debug)]
pub struct Weight {
    /// When (GMT).
    pub at_gmt: NaiveDateTime,
    /// Grams.
    pub grams: f64,
    /// Body-mass index.
    pub bmi: f64,
    /// Percent.
    pub body_fat: f64,
    /// Percent.
    pub body_water: f64,
    /// Grams.
    pub bone_g: f64,
    /// Grams.
    pub muscle_g: f64,
    /// Change from the previous weigh-in, grams.
    pub delta_g: Option<f64>,
}

/// Overnight heart-rate variability.
#[derive(Clone, Debug)]
pub struct Hrv {
    /// Average over the night, ms.
    pub last_night_avg: f64,
    /// Highest 5-minute average, ms.
    pub five_min_high: f64,
    /// Average of the last 7 nights with data, ms.
    pub weekly_avg: f64,
    /// `BALANCED`, `UNBALANCED` or `LOW`.
    pub status: &'static str,
}

/// One calendar day.
#[derive(Clone, Debug, Default)]
pub struct Day {
    /// The date.
    pub date: NaiveDate,
    /// The day's random seed.
    pub seed: u64,
    /// Steps.
    pub steps: u32,
    /// Step goal.
    pub step_goal: u32,
    /// Metres covered on foot and in activities.
    pub distance_m: f64,
    /// Floors climbed.
    pub floors_up: f64,
    /// Floors descended.
    pub floors_down: f64,
    /// Resting heart rate.
    pub resting_hr: f64,
    /// Lowest heart rate.
    pub min_hr: f64,
    /// Highest heart rate.
    pub max_hr: f64,
    /// kcal burnt at rest.
    pub bmr_kcal: f64,
    /// kcal burnt by moving.
    pub active_kcal: f64,
    /// Moderate intensity minutes.
    pub moderate_min: u32,
    /// Vigorous intensity minutes.
    pub vigorous_min: u32,
    /// Stress.
    pub stress: StressDay,
    /// Body Battery.
    pub battery: BatteryDay,
    /// Waking respiration average.
    pub respiration_avg: f64,
    /// Lowest respiration.
    pub respiration_min: f64,
    /// Highest respiration.
    pub respiration_max: f64,
    /// Water drunk (ml), `None` when nothing was logged.
    pub hydration_ml: Option<f64>,
    /// Daily hydration goal (ml).
    pub hydration_goal_ml: f64,
    /// Estimated sweat loss (ml).
    pub sweat_loss_ml: f64,
    /// The night that ended this morning.
    pub sleep: Sleep,
    /// Tonight's bedtime (GMT).
    pub bedtime: NaiveDateTime,
    /// Overnight HRV (`None`: no reading that night → 204).
    pub hrv: Option<Hrv>,
    /// Weigh-in of the day.
    pub weight: Option<Weight>,
    /// Training metrics as of this day.
    pub fitness: Fitness,
    /// Activities of the day (index range into the activity list).
    pub activities: std::ops::Range<usize>,
}

impl Day {
    /// Inputs of this day's intraday series.
    pub fn ctx<'a>(&'a self, zone: &'a Zone, acts: &[Activity]) -> DayCtx<'a> {
        let busy = acts[self.activities.clone()]
            .iter()
            .map(|a| Busy {
                start: a.start_gmt,
                end: a.start_gmt + Duration::seconds(a.stats.duration as i64),
                avg_hr: a.stats.avg_hr,
                max_hr: a.stats.max_hr,
                cadence: if a.sport() == Sport::Running { a.stats.avg_cadence } else { 0.0 },
                load: a.training_load,
            })
            .collect();
        DayCtx::new(
            self.seed,
            zone,
            zone.day_start_gmt(self.date),
            &self.sleep,
            self.bedtime,
            busy,
            self.resting_hr,
        )
    }
}

/// Generates every day from `first` to `today` (activities must be sorted by start).
pub fn year(seed: u64, zone: &Zone, first: NaiveDate, today: NaiveDate, acts: &[Activity]) -> Vec<Day> {
    let mut out: Vec<Day> = Vec::new();
    let mut level = 60.0;
    let mut next_act = 0usize;
    let mut hrv_history: Vec<f64> = Vec::new();
    let mut last_weight: Option<f64> = None;
    let span = (today - first).num_days().max(1) as f64;
    for (i, date) in super::clock::days(first, today).enumerate() {
        let mut rng = Rng::derive(seed, 0xD000_0000 + day_no(date));
        let from = next_act;
        while next_act < acts.len() && acts[next_act].start_local.date() <= date {
            next_act += 1;
        }
        let yesterday_load: f64 =
            out.last().map_or(0.0, |d| acts[d.activities.clone()].iter().map(|a| a.training_load).sum());
        let fatigue = (yesterday_load / 250.0).min(1.0);
        let night = sleep::night(seed, zone, date, fatigue);
        let bedtime = sleep::window(seed, zone, date + Duration::days(1)).0;
        let mut day = Day {
            date,
            seed: rng.next_u64(),
            sleep: night,
            bedtime,
            activities: from..next_act,
            resting_hr: (48.0 + 3.0 * fatigue + 1.2 * rng.noise()).round(),
            step_goal: 10_000,
            ..Day::default()
        };
        let snapshot = day.clone();
        let ctx = snapshot.ctx(zone, acts);
        summarise(&mut day, &ctx, &acts[from..next_act], level, &mut rng);
        level = day.battery.end;
        // Nights without an HRV reading (watch off, too short) answer 204.
        if !rng.chance(0.07) {
            let avg = (52.0 + 5.0 * rng.noise() - 8.0 * fatigue).round();
            hrv_history.push(avg);
            let week = &hrv_history[hrv_history.len().saturating_sub(7)..];
            let weekly = (week.iter().sum::<f64>() / week.len() as f64).round();
            let status = if weekly < 42.0 {
                "LOW"
            } else if (avg - weekly).abs() > 12.0 {
                "UNBALANCED"
            } else {
                "BALANCED"
            };
            day.hrv = Some(Hrv {
                last_night_avg: avg,
                five_min_high: avg + rng.range(12.0, 24.0).round(),
                weekly_avg: weekly,
                status,
            });
        }
        if i % 3 == 0 {
            let trend = 71_500.0 - 1_500.0 * (i as f64 / span);
            let grams = (trend + 350.0 * rng.noise()).round() / 10.0 * 10.0;
            let at = zone.to_gmt(
                date.and_time(NaiveTime::MIN) + Duration::seconds(6 * 3600 + 45 * 60 + rng.int(0, 1200)),
            );
            day.weight = Some(Weight {
                at_gmt: at,
                grams,
                bmi: (grams / 1000.0 / (1.78 * 1.78) * 10.0).round() / 10.0,
                body_fat: (16.0 + 0.5 * rng.noise()).round(),
                body_water: (59.0 + 0.4 * rng.noise()).round(),
                bone_g: 3_400.0 + (rng.int(-5, 5) * 10) as f64,
                muscle_g: 33_000.0 + (rng.int(-30, 30) * 10) as f64,
                delta_g: last_weight.map(|w| grams - w),
            });
            last_weight = Some(grams);
        }
        out.push(day);
    }
    out
}

/// Fills the daily summary numbers of `day` from its series and activities.
fn summarise(day: &mut Day, ctx: &DayCtx<'_>, acts: &[Activity], start_level: f64, rng: &mut Rng) {
    let hr: Vec<f64> = intraday::heart_rate(ctx).into_iter().filter_map(|(_, v)| v).collect();
    day.min_hr = hr.iter().copied().fold(f64::MAX, f64::min).min(day.resting_hr);
    day.max_hr = hr.iter().copied().fold(0.0, f64::max);
    for a in acts {
        day.max_hr = day.max_hr.max(a.stats.max_hr.round());
    }
    let mut st = StressDay::default();
    let (mut sum, mut n) = (0.0, 0.0);
    for (_, v) in intraday::stress(ctx) {
        match v {
            -2 => st.activity_s += 180,
            v if v < 0 => st.uncategorized_s += 180,
            v => {
                sum += f64::from(v);
                n += 1.0;
                st.max = st.max.max(f64::from(v));
                match v {
                    0..=25 => st.rest_s += 180,
                    26..=50 => st.low_s += 180,
                    51..=75 => st.medium_s += 180,
                    _ => st.high_s += 180,
                }
            }
        }
    }
    st.avg = if n > 0.0 { (sum / n).round() } else { 0.0 };
    day.stress = st;
    let bb = intraday::body_battery(ctx, start_level);
    let wake_ms = super::clock::ms(day.sleep.end_gmt);
    let mut b = BatteryDay { start: start_level, high: 0.0, low: 100.0, ..BatteryDay::default() };
    let mut prev = start_level;
    for (t, v) in &bb {
        let v = f64::from(*v);
        b.high = b.high.max(v);
        b.low = b.low.min(v);
        if v > prev {
            b.charged += v - prev
        } else {
            b.drained += prev - v
        }
        if *t <= wake_ms {
            b.at_wake = v;
        }
        prev = v;
    }
    b.end = prev;
    day.battery = b;
    let steps = intraday::steps(ctx);
    day.steps = steps.iter().map(|s| s.1).sum();
    let run_steps: u32 = acts.iter().map(|a| a.steps).sum();
    let activity_m: f64 = acts.iter().filter(|a| a.sport() == Sport::Running).map(|a| a.stats.distance).sum();
    day.distance_m = (f64::from(day.steps.saturating_sub(run_steps)) * 0.76 + activity_m).round();
    day.floors_up = rng.int(3, 16) as f64;
    day.floors_down = (day.floors_up + rng.int(-2, 2) as f64).max(0.0);
    day.bmr_kcal = 1_690.0;
    day.active_kcal = (f64::from(day.steps.saturating_sub(run_steps)) * 0.04
        + acts.iter().map(|a| a.calories).sum::<f64>())
    .round();
    day.moderate_min = acts.iter().map(|a| a.moderate_min).sum::<u32>() + rng.int(0, 15) as u32;
    day.vigorous_min = acts.iter().map(|a| a.vigorous_min).sum();
    day.respiration_avg = (15.0 + 0.6 * rng.noise()).round();
    day.respiration_min = (day.sleep.avg_respiration - rng.range(3.0, 5.0)).round();
    day.respiration_max = (21.0 + 2.0 * rng.noise().abs()).round();
    day.sweat_loss_ml = (acts.iter().map(|a| a.stats.duration).sum::<f64>() / 3600.0 * 650.0).round();
    day.hydration_goal_ml = 2_500.0 + day.sweat_loss_ml;
    day.hydration_ml = (!rng.chance(0.15)).then(|| (rng.range(1_500.0, 3_000.0) / 50.0).round() * 50.0);
}
