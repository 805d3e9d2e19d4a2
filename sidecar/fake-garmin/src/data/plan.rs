//! The training year: which session happens on which day and how each one is laid out.
//!
//! A fixed weekly pattern (strength Monday, intervals Tuesday, easy Wednesday, swim Thursday morning
//! and a second strength session Thursday evening, tempo/easy Friday, ride Saturday, long run
//! Sunday) with about one session in ten skipped,
//! fitness (VO2max) rising slowly over the year, a half-marathon race on the past event's date,
//! always a run yesterday and nothing yet today. Samples are generated once here to measure the
//! statistics, then dropped.

use chrono::{Datelike, Duration, NaiveDate, NaiveTime, Weekday};

use super::activity::{Activity, Kind, Origin, Route, Sport, Weather};
use super::clock::{Zone, days};
use super::rng::Rng;
use super::series::{self, Sample};
use super::sessions::layout;

/// The first activity id; later activities count up from here in start order.
pub const FIRST_ACTIVITY_ID: u64 = 90_000_000_001;

/// What the plan needs from the rest of the data set.
#[derive(Debug)]
pub struct Inputs<'a> {
    /// Data-set seed.
    pub seed: u64,
    /// Home zone.
    pub zone: &'a Zone,
    /// First day with data.
    pub first: NaiveDate,
    /// "Today" (no activity yet).
    pub today: NaiveDate,
    /// Day of the past half-marathon race.
    pub race_day: NaiveDate,
    /// Recording watch.
    pub watch_id: u64,
    /// Shoe used for easy/long runs before `shoe_switch`.
    pub old_shoe: &'a str,
    /// Shoe used for easy/long runs from `shoe_switch` on.
    pub daily_shoe: &'a str,
    /// Shoe used for workouts and the race.
    pub race_shoe: &'a str,
    /// Bike.
    pub bike: &'a str,
    /// Day the daily shoe replaced the old one.
    pub shoe_switch: NaiveDate,
    /// Library workout followed by interval sessions.
    pub interval_workout: u64,
    /// Library workout followed by tempo sessions.
    pub tempo_workout: u64,
}

/// Generates every activity from `first` to the day before `today`, oldest first.
pub fn year(input: &Inputs<'_>) -> Vec<Activity> {
    let span = (input.today - input.first).num_days().max(1) as f64;
    let mut out = Vec::new();
    for (i, day) in days(input.first, input.today - Duration::days(1)).enumerate() {
        let mut rng = Rng::derive(input.seed, 0xA_0000 + i as u64);
        let yesterday = day + Duration::days(1) == input.today;
        let mut kind = if day == input.race_day { Some(Kind::Race) } else { weekly(day) };
        if kind != Some(Kind::Race) && !yesterday && rng.chance(0.1) {
            kind = None;
        }
        if yesterday && kind.map(Kind::sport) != Some(Sport::Running) {
            kind = Some(Kind::Easy);
        }
        if let Some(kind) = kind {
            let id = FIRST_ACTIVITY_ID + out.len() as u64;
            out.push(build(input, kind, day, id, i as f64 / span, false, &mut rng));
        }
        // The week's second strength session, with its own random numbers so every other session
        // stays as it was; never yesterday, whose last activity is a run.
        if day.weekday() == Weekday::Thu && !yesterday {
            let mut rng = Rng::derive(input.seed, 0xB_0000 + i as u64);
            if !rng.chance(0.1) {
                let id = FIRST_ACTIVITY_ID + out.len() as u64;
                out.push(build(input, Kind::Strength, day, id, i as f64 / span, true, &mut rng));
            }
        }
    }
    mark_uploads(&mut out, input.today);
    out
}

/// Days before "today" from which the first easy run, ride and strength session are marked as
/// uploaded or entered by hand (old enough that no test reading recent activities meets them).
pub const UPLOADS_DAYS_BACK: i64 = 120;

/// Marks three existing activities as not recorded by the watch, without drawing any random
/// number (so every other figure of the data set stays as it was): the first easy run from
/// [`UPLOADS_DAYS_BACK`] days ago on was uploaded as GPX, the first ride as TCX, and the first
/// strength session was entered by hand (docs/garmin-web-api.md §0, garmin-connect-export: these
/// are the activities whose downloads behave differently).
fn mark_uploads(activities: &mut [Activity], today: NaiveDate) {
    let from = today - Duration::days(UPLOADS_DAYS_BACK);
    for (kind, origin) in
        [(Kind::Easy, Origin::GpxUpload), (Kind::Ride, Origin::TcxUpload), (Kind::Strength, Origin::Manual)]
    {
        if let Some(a) = activities.iter_mut().find(|a| a.kind == kind && a.start_local.date() >= from) {
            a.origin = origin;
        }
    }
}

/// The session of the weekly pattern on `day`.
fn weekly(day: NaiveDate) -> Option<Kind> {
    Some(match day.weekday() {
        Weekday::Mon => Kind::Strength,
        Weekday::Tue => Kind::Intervals,
        Weekday::Wed => Kind::Easy,
        Weekday::Thu => Kind::Swim,
        Weekday::Fri if day.iso_week().week().is_multiple_of(2) => Kind::Tempo,
        Weekday::Fri => Kind::Easy,
        Weekday::Sat => Kind::Ride,
        Weekday::Sun => Kind::Long,
    })
}

/// VO2max on a day, `progress` being 0 at the start of the year and 1 today.
pub fn vo2max_at(progress: f64) -> f64 {
    41.0 + 4.0 * progress + 0.6 * (progress * 9.0).sin()
}

/// Threshold pace (s/km) for a VO2max (4:50 /km at 41, 4:32 at 45).
pub fn threshold_pace(vo2: f64) -> f64 {
    290.0 - (vo2 - 41.0) * 4.5
}

fn build(
    input: &Inputs<'_>,
    kind: Kind,
    day: NaiveDate,
    id: u64,
    progress: f64,
    session_b: bool,
    rng: &mut Rng,
) -> Activity {
    let seed = rng.next_u64();
    let sport = kind.sport();
    let vo2 = vo2max_at(progress);
    let (hour, minute) = match kind {
        Kind::Strength => (18, 30),
        Kind::Ride => (8, 0),
        Kind::Long | Kind::Swim => (7, 0),
        Kind::Race => (7, 30),
        _ => (6, 30),
    };
    let jitter = if kind == Kind::Race { 0 } else { rng.int(-25 * 60, 25 * 60) };
    let start_local = day.and_time(NaiveTime::MIN)
        + Duration::seconds(
            hour * 3600 + minute * 60 + jitter + rng.int(0, 59) * i64::from(kind != Kind::Race),
        );
    let (mut laps, sets) = layout(kind, threshold_pace(vo2), progress, session_b, rng);
    let total_m: f64 = laps.iter().map(|l| l.distance_m).sum();
    let route = Route {
        lat: input.zone.lat + rng.range(-0.012, 0.012),
        lon: input.zone.lon + rng.range(-0.012, 0.012),
        loop_m: match kind {
            Kind::Easy | Kind::Tempo | Kind::Intervals => total_m / f64::from(rng.int(1, 2) as i32),
            _ => total_m.max(1.0),
        },
        heading: rng.range(0.0, std::f64::consts::TAU),
        elev_base: if input.zone.offset_s < 0 { 1150.0 } else { 8.0 } + rng.range(-20.0, 20.0),
        elev_amp: if sport == Sport::Cycling { rng.range(15.0, 45.0) } else { rng.range(3.0, 14.0) },
        elev_wave: rng.range(1500.0, 4500.0),
    };
    let samples = series::build(seed, sport, &laps, &route);
    for lap in &mut laps {
        // Samples fall every 5 s, laps end anywhere: take distance and time from the lap itself.
        lap.stats = series::stats(series::lap_slice(&samples, lap), sport);
        lap.stats.distance = lap.distance_m;
        lap.stats.duration = lap.duration_s;
        lap.stats.avg_speed = if lap.duration_s > 0.0 { lap.distance_m / lap.duration_s } else { 0.0 };
    }
    let stats = series::stats(&samples, sport);
    let minutes = stats.duration / 60.0;
    let (ae, an, load) = match kind {
        Kind::Easy => (rng.range(2.4, 3.1), rng.range(0.0, 0.6), rng.range(55.0, 95.0)),
        Kind::Long => (rng.range(3.4, 4.3), rng.range(0.2, 0.9), rng.range(140.0, 230.0)),
        Kind::Tempo => (rng.range(3.3, 4.0), rng.range(0.8, 1.6), rng.range(110.0, 160.0)),
        Kind::Intervals => (rng.range(3.0, 3.6), rng.range(2.4, 3.4), rng.range(120.0, 170.0)),
        Kind::Race => (rng.range(4.6, 5.0), rng.range(1.5, 2.5), rng.range(260.0, 320.0)),
        Kind::Ride => (rng.range(2.6, 3.4), rng.range(0.0, 0.8), minutes * rng.range(0.9, 1.3)),
        Kind::Swim => (rng.range(2.0, 2.8), rng.range(0.2, 1.0), rng.range(35.0, 70.0)),
        Kind::Strength => (rng.range(1.0, 1.8), rng.range(0.5, 1.5), rng.range(20.0, 45.0)),
    };
    let calories = match sport {
        Sport::Running => 70.0 * stats.distance / 1000.0 * rng.range(0.95, 1.05),
        Sport::Cycling => stats.avg_power * stats.duration / 1000.0 * 1.05,
        Sport::Swimming => 9.0 * minutes,
        Sport::Strength => 6.0 * minutes,
    };
    let temp_c = temperature(input.zone, day, hour, rng);
    let gear_uuid = match kind {
        Kind::Ride => Some(input.bike),
        Kind::Intervals | Kind::Tempo | Kind::Race => Some(input.race_shoe),
        Kind::Easy | Kind::Long if day < input.shoe_switch => Some(input.old_shoe),
        Kind::Easy | Kind::Long => Some(input.daily_shoe),
        Kind::Swim | Kind::Strength => None,
    };
    let running = sport == Sport::Running;
    let stride_cm = if running && stats.avg_cadence > 0.0 {
        stats.avg_speed * 60.0 / stats.avg_cadence * 100.0
    } else {
        0.0
    };
    Activity {
        id,
        seed,
        kind,
        name: name(kind, rng),
        description: None,
        start_local,
        start_gmt: input.zone.to_gmt(start_local),
        moving_s: (stats.duration - if sport.has_gps() { rng.range(0.0, 12.0) } else { 0.0 }).round(),
        elapsed_s: stats.duration + if kind == Kind::Race { 0.0 } else { rng.range(0.0, 90.0) },
        calories: calories.round(),
        bmr_calories: (1.15 * minutes).round(),
        aerobic_te: (ae * 10.0).round() / 10.0,
        anaerobic_te: (an * 10.0).round() / 10.0,
        training_load: load,
        vo2max: running.then(|| (vo2 + 0.4 * rng.noise()).round()),
        steps: if running { (stats.avg_cadence * minutes) as u32 } else { 0 },
        moderate_min: (stats.hr_zones[2] / 60.0).round() as u32,
        vigorous_min: ((stats.hr_zones[3] + stats.hr_zones[4]) / 60.0).round() as u32,
        stride_cm,
        gct_ms: if running { 300.0 - 18.0 * stats.avg_speed + 4.0 * rng.noise() } else { 0.0 },
        vo_cm: if running { 8.6 + 0.3 * rng.noise() } else { 0.0 },
        temp_c,
        weather: weather(temp_c, rng),
        gear_uuid: gear_uuid.map(str::to_owned),
        device_id: input.watch_id,
        origin: Origin::Device,
        workout_id: match kind {
            Kind::Intervals => Some(input.interval_workout),
            Kind::Tempo => Some(input.tempo_workout),
            _ => None,
        },
        pool_m: (sport == Sport::Swimming).then_some(25.0),
        sets,
        body_battery_delta: -((load / 12.0).round() as i32) - 2,
        best_efforts: if running { best_efforts(&samples) } else { Vec::new() },
        laps,
        route,
        stats,
    }
}

fn name(kind: Kind, rng: &mut Rng) -> String {
    let names: &[&str] = match kind {
        Kind::Easy => &["Easy Run", "Sampletown Running", "晨跑", "Recovery Run"],
        Kind::Long => &["Long Run", "Sunday Long Run", "长距离慢跑"],
        Kind::Intervals => &["Track Intervals", "间歇跑"],
        Kind::Tempo => &["Tempo Run", "节奏跑"],
        Kind::Race => &["Bayside Half Marathon"],
        Kind::Ride => &["Sampletown Cycling", "Morning Ride", "骑行"],
        Kind::Swim => &["Pool Swim", "游泳"],
        Kind::Strength => &["Strength", "力量训练"],
    };
    (*rng.pick(names)).to_owned()
}

fn temperature(zone: &Zone, day: NaiveDate, hour: i64, rng: &mut Rng) -> f64 {
    let season = (std::f64::consts::TAU * (f64::from(day.ordinal()) - 110.0) / 365.0).sin();
    let base = if zone.offset_s < 0 { 19.0 + 1.5 * season } else { 17.0 + 11.0 * season };
    ((base + 0.6 * (hour as f64 - 6.0) + 1.2 * rng.noise()) * 10.0).round() / 10.0
}

fn weather(temp_c: f64, rng: &mut Rng) -> Weather {
    const KINDS: [(u32, &str, &str); 5] = [
        (1, "Sunny", "01"),
        (2, "Partly Cloudy", "02"),
        (3, "Mostly Cloudy", "03"),
        (4, "Cloudy", "04"),
        (5, "Light Rain", "09"),
    ];
    let f = |c: f64| (c * 9.0 / 5.0 + 32.0).round();
    let humidity = rng.range(55.0, 95.0).round();
    let wind = rng.int(0, 14) as f64;
    Weather {
        temp_f: f(temp_c),
        apparent_f: f(temp_c + rng.range(-1.5, 1.5)),
        dew_point_f: f(temp_c - (100.0 - humidity) / 5.0),
        humidity,
        wind_dir: rng.int(0, 35) as f64 * 10.0,
        wind_speed: wind,
        wind_gust: (wind > 8.0).then(|| wind + rng.int(3, 9) as f64),
        kind: *rng.pick(&KINDS),
    }
}

/// Fastest time over each standard distance the run covers: `(metres, seconds, start offset)`.
fn best_efforts(samples: &[Sample]) -> Vec<(f64, f64, f64)> {
    const DISTANCES: [f64; 6] = [1000.0, 1609.344, 5000.0, 10_000.0, 21_097.5, 42_195.0];
    let total = samples.last().map_or(0.0, |s| s.dist);
    let mut out = Vec::new();
    for d in DISTANCES.into_iter().filter(|d| *d <= total + 0.01) {
        let mut best = (f64::MAX, 0.0);
        let mut j = 0;
        for s in samples {
            while j + 1 < samples.len() && samples[j].dist - s.dist < d - 0.01 {
                j += 1;
            }
            let e = &samples[j];
            if e.dist - s.dist < d - 0.01 {
                break;
            }
            // Interpolate the moment the distance was reached inside the last step.
            let p = &samples[j.saturating_sub(1)];
            let over = e.dist - s.dist - d;
            let step = (e.dist - p.dist).max(1e-9);
            let t = e.t - (e.t - p.t) * (over / step).clamp(0.0, 1.0) - s.t;
            if t < best.0 {
                best = (t, s.t);
            }
        }
        if best.0 < f64::MAX {
            out.push((d, (best.0 * 1000.0).round() / 1000.0, best.1));
        }
    }
    out
}
