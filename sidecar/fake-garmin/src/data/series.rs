//! The 5-second sample series of an activity, regenerated on demand from its plan (laps, route,
//! seed), and the statistics the watch would compute from it.
//!
//! Distance inside a lap follows `τ + w·sin(2πτ)/2π`, so speed wobbles around the lap's mean while
//! every lap still ends on exactly its planned distance; heart rate chases each lap's target with
//! a first-order lag; elevation and position are smooth functions of distance along a loop.

use std::f64::consts::TAU;

use super::activity::{Activity, Lap, Route, Sport, Stats};
use super::rng::Rng;

/// Seconds between samples.
pub const STEP_S: f64 = 5.0;

/// Heart-rate zone floors (bpm) for a max HR of 188: 50/60/70/80/90 %.
pub const HR_ZONES: [f64; 5] = [94.0, 113.0, 132.0, 150.0, 169.0];
/// Maximum heart rate the zones are based on.
pub const MAX_HR: f64 = 188.0;
/// Running power zone floors (W).
pub const RUN_POWER_ZONES: [f64; 5] = [0.0, 190.0, 230.0, 260.0, 290.0];
/// Cycling power zone floors (W), from an FTP of 240 W.
pub const RIDE_POWER_ZONES: [f64; 5] = [0.0, 132.0, 180.0, 216.0, 252.0];

/// One sample of an activity.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sample {
    /// Seconds since the start.
    pub t: f64,
    /// Cumulative metres.
    pub dist: f64,
    /// m/s.
    pub speed: f64,
    /// bpm.
    pub hr: f64,
    /// Steps/min (run), rpm (ride), strokes/min (swim), 0 (strength).
    pub cadence: f64,
    /// Watts (runs and rides).
    pub power: f64,
    /// Metres above sea level.
    pub elev: f64,
    /// Degrees (0 without GPS).
    pub lat: f64,
    /// Degrees (0 without GPS).
    pub lon: f64,
}

/// Regenerates the sample series of `a` (same activity, same samples).
pub fn samples(a: &Activity) -> Vec<Sample> {
    build(a.seed, a.sport(), &a.laps, &a.route)
}

/// Generates samples for laps and a route (used before the [`Activity`] exists).
pub fn build(seed: u64, sport: Sport, laps: &[Lap], route: &Route) -> Vec<Sample> {
    let Some(last) = laps.last() else {
        return Vec::new();
    };
    let total = last.start_s + last.duration_s;
    let mut rng = Rng::derive(seed, 0x5e71e5);
    let mut out = Vec::with_capacity((total / STEP_S) as usize + 2);
    let mut hr = match sport {
        Sport::Strength | Sport::Swimming => 88.0,
        _ => 96.0,
    };
    let (mut idx, mut before) = (0usize, 0.0f64);
    let mut t = 0.0f64;
    let lag = 1.0 - (-STEP_S / 40.0f64).exp();
    let mut prev_elev = elevation(route, 0.0);
    loop {
        while idx + 1 < laps.len() && t >= laps[idx].start_s + laps[idx].duration_s {
            before += laps[idx].distance_m;
            idx += 1;
        }
        let lap = &laps[idx];
        let tau = ((t - lap.start_s) / lap.duration_s.max(1.0)).clamp(0.0, 1.0);
        let dist = before + lap.distance_m * (tau + lap.wobble * (TAU * tau).sin() / TAU);
        let lap_speed = lap.distance_m / lap.duration_s.max(1.0);
        let speed =
            (lap_speed * (1.0 + lap.wobble * (TAU * tau).cos()) * (1.0 + 0.01 * rng.noise())).max(0.0);
        hr += (lap.target_hr - hr) * lag + 0.7 * rng.noise();
        let elev = elevation(route, dist);
        let step_m = (speed * STEP_S).max(1.0);
        let grade = ((elev - prev_elev) / step_m).clamp(-0.15, 0.15);
        prev_elev = elev;
        let (cadence, power) = match sport {
            Sport::Running => {
                let c = if speed < 2.2 { 150.0 + 4.0 * speed } else { 158.0 + 6.5 * speed };
                (c + 1.5 * rng.noise(), (70.0 * speed * (1.04 + 3.5 * grade) + 4.0 * rng.noise()).max(0.0))
            }
            Sport::Cycling => {
                let p = 0.9 * speed.powi(3) / 2.6 + 75.0 * 9.81 * grade * speed + 20.0;
                (86.0 + 3.0 * rng.noise(), (p + 8.0 * rng.noise()).max(0.0))
            }
            Sport::Swimming if lap.distance_m > 0.0 => (28.0 + rng.noise(), 0.0),
            _ => (0.0, 0.0),
        };
        let (lat, lon) = if sport.has_gps() { position(route, dist) } else { (0.0, 0.0) };
        out.push(Sample { t, dist, speed, hr, cadence, power, elev, lat, lon });
        if t >= total {
            break;
        }
        t = (t + STEP_S).min(total);
    }
    out
}

/// Elevation (m) at `dist` metres along the route.
pub fn elevation(route: &Route, dist: f64) -> f64 {
    let wave = route.elev_wave.max(100.0);
    route.elev_base
        + route.elev_amp * (TAU * dist / wave + route.heading).sin()
        + 2.5 * (TAU * dist / 370.0 + 2.0 * route.heading).sin()
}

/// Position at `dist` metres along the loop (starts and ends at the route's start point).
pub fn position(route: &Route, dist: f64) -> (f64, f64) {
    let r = route.loop_m.max(200.0) / TAU;
    let theta = TAU * dist / route.loop_m.max(200.0) + route.heading;
    let east = r * (theta.cos() - route.heading.cos());
    let north = r * (theta.sin() - route.heading.sin());
    let lat = route.lat + north / 111_320.0;
    let lon = route.lon + east / (111_320.0 * route.lat.to_radians().cos());
    (lat, lon)
}

/// Statistics over `samples` (a lap's or the whole activity's).
pub fn stats(samples: &[Sample], sport: Sport) -> Stats {
    let (Some(first), Some(last)) = (samples.first(), samples.last()) else {
        return Stats::default();
    };
    let duration = last.t - first.t;
    let distance = last.dist - first.dist;
    let power_floors = if sport == Sport::Cycling { RIDE_POWER_ZONES } else { RUN_POWER_ZONES };
    let mut s = Stats {
        distance,
        duration,
        avg_speed: if duration > 0.0 { distance / duration } else { 0.0 },
        min_hr: f64::MAX,
        min_elev: f64::MAX,
        max_elev: f64::MIN,
        start: (first.lat, first.lon),
        end: (last.lat, last.lon),
        ..Stats::default()
    };
    let (mut hr_sum, mut cad_sum, mut pow_sum, mut weight) = (0.0, 0.0, 0.0, 0.0);
    for (i, p) in samples.iter().enumerate() {
        let dt = samples.get(i + 1).map_or(0.0, |n| n.t - p.t);
        weight += dt;
        hr_sum += p.hr * dt;
        cad_sum += p.cadence * dt;
        pow_sum += p.power * dt;
        s.max_speed = s.max_speed.max(p.speed);
        s.max_hr = s.max_hr.max(p.hr);
        s.min_hr = s.min_hr.min(p.hr);
        s.max_cadence = s.max_cadence.max(p.cadence);
        s.max_power = s.max_power.max(p.power);
        s.min_elev = s.min_elev.min(p.elev);
        s.max_elev = s.max_elev.max(p.elev);
        if i > 0 {
            let d = p.elev - samples[i - 1].elev;
            if d > 0.0 {
                s.elev_gain += d;
            } else {
                s.elev_loss -= d;
            }
        }
        // A watch records heart rate in whole bpm (FIT `record.heart_rate` is a `uint8`), and the
        // time in zones is counted from what it recorded: the original FIT file (`super::fit`)
        // gives the same zone times as `hrTimeInZones`.
        s.hr_zones[zone(&HR_ZONES, p.hr.round())] += dt;
        if p.power > 0.0 {
            s.power_zones[zone(&power_floors, p.power)] += dt;
        }
    }
    if weight > 0.0 {
        s.avg_hr = hr_sum / weight;
        s.avg_cadence = cad_sum / weight;
        s.avg_power = pow_sum / weight;
    } else {
        s.avg_hr = first.hr;
    }
    s
}

/// Index (0..5) of the zone whose floor `v` reaches (below zone 1 counts as zone 1).
fn zone(floors: &[f64; 5], v: f64) -> usize {
    floors.iter().rposition(|f| v >= *f).unwrap_or(0)
}

/// Samples that belong to `lap` (both boundary samples included).
pub fn lap_slice<'a>(samples: &'a [Sample], lap: &Lap) -> &'a [Sample] {
    let end = lap.start_s + lap.duration_s;
    let from = samples.partition_point(|s| s.t < lap.start_s);
    let to = samples.partition_point(|s| s.t <= end);
    &samples[from.min(to)..to]
}

/// Evenly thins `samples` to at most `max` points, always keeping the first and last.
pub fn downsample(samples: &[Sample], max: usize) -> Vec<Sample> {
    if max == 0 || samples.len() <= max {
        return samples.to_vec();
    }
    if max == 1 {
        return samples.first().copied().into_iter().collect();
    }
    let n = samples.len() - 1;
    (0..max).map(|i| samples[i * n / (max - 1)]).collect()
}
