//! Deterministic, realistic-looking data for every chart kind, shared by the golden-image tests
//! and the benchmark (`#[path]`-included there). A tiny linear congruential generator stands in
//! for randomness so every run draws exactly the same pixels.
//!
//! Run: `cargo test -p garmin-charts --test golden`.

#![allow(dead_code, reason = "shared by the golden tests and the benchmark; each uses part of it")]

use garmin_charts::{
    ActivityChart, ActivitySample, BestEffortsChart, CurveMetric, CurveSeries, FitnessChart, FitnessDay,
    HealthMetric, HealthTrendChart, HrZoneFloor, HrZonesChart, IntensityChart, IntensityWeek, LoadDay,
    LoadToleranceChart, SleepChart, SleepSegment, SleepStage, SpeedUnit, Sport, ToleranceWeek,
    TrainingLoadChart, TrendDay, VolumeBucket, VolumeChart, VolumeMetric, ZoneTime,
};

/// A seeded pseudo-random source (Knuth's MMIX constants).
pub struct Lcg(u64);

impl Lcg {
    pub fn new(seed: u64) -> Lcg {
        Lcg(seed)
    }

    /// Uniform in [0, 1).
    pub fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in [-1, 1).
    pub fn signed(&mut self) -> f64 {
        self.next() * 2.0 - 1.0
    }
}

/// The athlete's zone floors used throughout.
pub fn zone_floors() -> Vec<HrZoneFloor> {
    [(1, 104.0), (2, 123.0), (3, 142.0), (4, 157.0), (5, 171.0)]
        .into_iter()
        .map(|(zone, from_bpm)| HrZoneFloor { zone, from_bpm })
        .collect()
}

/// A run of `seconds` 1-Hz samples: a slower first km, rolling hills, a one-minute stop at 40 %
/// of the way, a fast finish; heart rate warming up, drifting and spiking at the end.
pub fn run(name: &str, date: &str, seconds: usize, base_pace_s_per_km: f64, seed: u64) -> ActivityChart {
    let mut rng = Lcg::new(seed);
    let mut samples = Vec::with_capacity(seconds);
    let (mut distance, mut hr, mut elapsed) = (0.0f64, 95.0f64, 0.0f64);
    let stop_at = seconds * 2 / 5;
    for i in 0..seconds {
        if i == stop_at {
            elapsed += 60.0; // the watch paused: no samples for a minute
        }
        let progress = i as f64 / seconds as f64;
        let mut pace = base_pace_s_per_km;
        if distance < 1000.0 {
            pace += 25.0;
        }
        pace += 12.0 * (distance / 2300.0).sin() + 6.0 * (distance / 700.0).cos();
        if progress > 0.93 {
            pace -= 25.0;
        }
        let speed = 1000.0 / pace + rng.signed() * 0.12;
        let target_hr = 118.0
            + 32.0 * (1.0 - (-(i as f64) / 300.0).exp())
            + 14.0 * progress
            + (base_pace_s_per_km - pace) * 0.35
            + if progress > 0.93 { 12.0 } else { 0.0 };
        hr += (target_hr - hr) * 0.05 + rng.signed() * 0.8;
        samples.push(ActivitySample {
            elapsed_s: elapsed,
            distance_m: Some(distance),
            speed_mps: Some(speed.max(0.0)),
            heart_rate: Some(hr.round()),
        });
        distance += speed.max(0.0);
        elapsed += 1.0;
    }
    ActivityChart {
        name: name.to_owned(),
        date: date.to_owned(),
        speed_unit: SpeedUnit::PacePerKm,
        samples,
        hr_zones: zone_floors(),
        distance_m: None,
        duration_s: None,
        avg_hr: None,
        laps: Vec::new(),
    }
}

/// A half marathon (about 21.1 km at 5:00/km).
pub fn half_marathon(name: &str) -> ActivityChart {
    run(name, "2026-11-08 07:30", 6_330, 300.0, 7)
}

/// A 4-hour-plus activity of 15,000 samples (the benchmark's workload).
pub fn four_hour_run() -> ActivityChart {
    run("Long slow distance", "2026-11-01 06:00", 15_000, 345.0, 11)
}

/// `2026-MM-DD` for the `n`-th day after 2026-08-01 (August to December).
pub fn date_after_aug1(n: usize) -> String {
    let mut day = n + 1;
    for (month, len) in [(8, 31), (9, 30), (10, 31), (11, 30), (12, 31)] {
        if day <= len {
            return format!("2026-{month:02}-{day:02}");
        }
        day -= len;
    }
    "2026-12-31".to_owned()
}

/// Twelve weeks of running with some rides and swims.
pub fn weekly_volume() -> VolumeChart {
    let mut rng = Lcg::new(3);
    let buckets = (0..12)
        .map(|w| {
            // Mondays from 2026-08-24.
            let monday = date_after_aug1(23 + w * 7);
            let running = 32.0 + 14.0 * (w as f64 / 2.0).sin().abs() + rng.next() * 8.0
                - if w == 8 { 20.0 } else { 0.0 };
            let cycling = if w % 3 == 0 { 40.0 + rng.next() * 30.0 } else { 0.0 };
            let swimming = if w % 2 == 1 { 2.0 + rng.next() * 1.5 } else { 0.0 };
            VolumeBucket { label: monday[5..].to_owned(), values: vec![running, cycling, swimming] }
        })
        .collect();
    VolumeChart {
        weekly: true,
        metric: VolumeMetric::Distance,
        sports: vec![Sport::Running, Sport::Cycling, Sport::Swimming],
        buckets,
        stacked: true,
        span: "2026-08-24 – 2026-11-15".to_owned(),
    }
}

/// Time in zones of a hard long run.
pub fn zones() -> HrZonesChart {
    let floors = [104.0, 123.0, 142.0, 157.0, 171.0, 186.0];
    let seconds = [420.0, 1_510.0, 2_630.0, 1_340.0, 430.0];
    HrZonesChart {
        name: "Sunday long run".to_owned(),
        period: "2026-11-08".to_owned(),
        zones: (0..5)
            .map(|i| ZoneTime {
                zone: i as u8 + 1,
                seconds: seconds[i],
                from_bpm: Some(floors[i]),
                to_bpm: (i < 4).then(|| floors[i + 1]),
            })
            .collect(),
    }
}

/// A night from 23:10 to 06:45 with four sleep cycles.
pub fn night() -> SleepChart {
    let mut segments = Vec::new();
    let mut t = 23.0 * 60.0 + 10.0;
    let cycle = [
        (SleepStage::Light, 18.0),
        (SleepStage::Deep, 34.0),
        (SleepStage::Light, 22.0),
        (SleepStage::Rem, 14.0),
        (SleepStage::Light, 8.0),
        (SleepStage::Awake, 3.0),
    ];
    for c in 0..4 {
        for (stage, minutes) in cycle {
            // Deep sleep shrinks and REM grows through the night.
            let m = match stage {
                SleepStage::Deep => minutes - 8.0 * c as f64,
                SleepStage::Rem => minutes + 9.0 * c as f64,
                _ => minutes,
            };
            segments.push(SleepSegment { start_min: t, end_min: t + m, stage });
            t += m;
        }
    }
    segments.push(SleepSegment { start_min: t, end_min: 30.0 * 60.0 + 45.0, stage: SleepStage::Light });
    SleepChart { date: "2026-11-15".to_owned(), score: Some(82), quality: Some("good".to_owned()), segments }
}

/// Day `i` of 28 ending on 2026-11-15.
fn day(i: usize) -> String {
    date_after_aug1(79 + i)
}

/// 28 days of resting heart rate.
pub fn resting_hr() -> HealthTrendChart {
    let mut rng = Lcg::new(5);
    let days = (0..28)
        .map(|i| TrendDay {
            date: day(i),
            value: (i != 9).then(|| (48.0 + 2.5 * (i as f64 / 4.0).sin() + rng.signed() * 1.5).round()),
            ..TrendDay::default()
        })
        .collect();
    HealthTrendChart { metric: HealthMetric::RestingHr, days, baseline: None }
}

/// 28 days of overnight HRV with its baseline band.
pub fn hrv() -> HealthTrendChart {
    let mut rng = Lcg::new(9);
    let days = (0..28)
        .map(|i| TrendDay {
            date: day(i),
            value: (i != 14).then(|| (62.0 + 8.0 * (i as f64 / 5.0).cos() + rng.signed() * 5.0).round()),
            ..TrendDay::default()
        })
        .collect();
    HealthTrendChart { metric: HealthMetric::Hrv, days, baseline: Some((55.0, 74.0)) }
}

/// 28 days of Body Battery highs and lows.
pub fn body_battery() -> HealthTrendChart {
    let mut rng = Lcg::new(13);
    let days = (0..28)
        .map(|i| {
            let high = (78.0 + rng.next() * 20.0).round().min(100.0);
            let low = (12.0 + rng.next() * 25.0).round();
            TrendDay { date: day(i), value: None, low: Some(low), high: Some(high) }
        })
        .collect();
    HealthTrendChart { metric: HealthMetric::BodyBattery, days, baseline: None }
}

/// 28 days of average stress.
pub fn stress() -> HealthTrendChart {
    let mut rng = Lcg::new(17);
    let days = (0..28)
        .map(|i| TrendDay {
            date: day(i),
            value: Some((30.0 + 18.0 * (i as f64 / 3.0).sin().abs() + rng.next() * 20.0).round()),
            ..TrendDay::default()
        })
        .collect();
    HealthTrendChart { metric: HealthMetric::Stress, days, baseline: None }
}

/// Eight weeks of daily load with 7-day acute and 28-day chronic load (the first four weeks
/// before the chart warm the chronic load up).
pub fn load() -> TrainingLoadChart {
    let mut rng = Lcg::new(21);
    let pattern = [0.0, 60.0, 95.0, 0.0, 70.0, 45.0, 160.0];
    let total_days = 28 + 56;
    let loads: Vec<f64> = (0..total_days)
        .map(|i| {
            let ramp = 1.0 + i as f64 / total_days as f64 * 0.5;
            let base = pattern[i % 7] * ramp;
            if base > 0.0 { (base + rng.signed() * 15.0).round().max(10.0) } else { 0.0 }
        })
        .collect();
    let days = (28..total_days)
        .map(|i| {
            let acute: f64 = loads[i - 6..=i].iter().sum();
            let chronic: f64 = loads[i - 27..=i].iter().sum::<f64>() / 4.0;
            // Eight weeks ending on 2026-11-15.
            let date = date_after_aug1(51 + (i - 28));
            LoadDay { date, load: loads[i], acute: Some(acute), chronic: Some(chronic) }
        })
        .collect();
    TrainingLoadChart { days }
}

/// The date `n` days after 1 January of `year` (`n` = 0 is 1 January).
pub fn date_after_new_year(year: i32, n: usize) -> String {
    let mut day = n + 1;
    let mut year = year;
    loop {
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
        for (month, len) in
            [31, if leap { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31].iter().enumerate()
        {
            if day <= *len {
                return format!("{year}-{:02}-{day:02}", month + 1);
            }
            day -= len;
        }
        year += 1;
    }
}

/// `days` of fitness, fatigue and form from 1 January 2026: a base, a build with a hard week
/// every fourth, a taper; CTL/ATL as the 42/7-day exponential model, TSB on the following day,
/// the first 42 days settling.
pub fn fitness(days: usize) -> FitnessChart {
    let mut rng = Lcg::new(42);
    let pattern = [0.0, 55.0, 85.0, 0.0, 65.0, 40.0, 140.0];
    let (k_ctl, k_atl) = ((-1.0f64 / 42.0).exp(), (-1.0f64 / 7.0).exp());
    let (mut ctl, mut atl) = (0.0f64, 0.0f64);
    let days = (0..days)
        .map(|i| {
            let week = i / 7;
            let ramp = 0.8 + (i as f64 / days as f64) * 0.7;
            let hard = if week % 4 == 3 { 0.6 } else { 1.0 };
            let taper = if i + 14 >= days { 0.5 } else { 1.0 };
            let base = pattern[i % 7] * ramp * hard * taper;
            let load = if base > 0.0 { (base + rng.signed() * 12.0).max(10.0) } else { 0.0 };
            let tsb = ctl - atl;
            ctl = ctl * k_ctl + load * (1.0 - k_ctl);
            atl = atl * k_atl + load * (1.0 - k_atl);
            FitnessDay { date: date_after_new_year(2026, i), ctl, atl, tsb, settling: i < 42 }
        })
        .collect();
    FitnessChart { days, load_label: "TSS".to_owned() }
}

/// Standard durations of a best-efforts curve, s.
const CURVE_DURATIONS: [u32; 20] =
    [1, 5, 10, 15, 30, 60, 120, 180, 300, 480, 600, 900, 1200, 1800, 2700, 3600, 5400, 7200, 10_800, 14_400];

/// Power bests of this season and last: W′/t + CP with a sprint cap and a slow fade past an hour.
pub fn power_curves() -> BestEffortsChart {
    let curve = |label: &str, cp: f64, w_prime: f64, peak: f64, longest: u32| CurveSeries {
        label: label.to_owned(),
        points: CURVE_DURATIONS
            .iter()
            .filter(|&&s| s <= longest)
            .map(|&s| {
                let t = f64::from(s);
                let fade = if t > 3600.0 { 1.0 - 0.06 * (t / 3600.0).log2() } else { 1.0 };
                (s, (w_prime / t + cp).min(peak) * fade)
            })
            .collect(),
    };
    BestEffortsChart {
        metric: CurveMetric::Power,
        series: vec![
            curve("This season", 262.0, 19_000.0, 980.0, 14_400),
            curve("Last season", 248.0, 17_500.0, 1010.0, 10_800),
        ],
    }
}

/// Running bests (speed, m/s) of this season and last, drawn as pace.
pub fn pace_curves() -> BestEffortsChart {
    let curve = |label: &str, cs: f64, d_prime: f64| CurveSeries {
        label: label.to_owned(),
        points: CURVE_DURATIONS
            .iter()
            .filter(|&&s| (10..=10_800).contains(&s))
            .map(|&s| (s, (d_prime / f64::from(s) + cs).min(7.5)))
            .collect(),
    };
    BestEffortsChart {
        metric: CurveMetric::Pace,
        series: vec![curve("2026", 4.05, 210.0), curve("2025", 3.9, 190.0)],
    }
}

/// Twelve weeks of time in five heart-rate zones: mostly easy, with threshold blocks.
pub fn intensity_weeks() -> IntensityChart {
    let mut rng = Lcg::new(12);
    let weeks = (0..12)
        .map(|w| {
            let block = if w % 4 == 2 { 1.8 } else { 1.0 };
            let z = [
                3600.0 * (1.5 + rng.next()),
                3600.0 * (2.5 + rng.next() * 1.5),
                1800.0 * block * (0.6 + rng.next()),
                1200.0 * block * (0.3 + rng.next()),
                600.0 * (0.2 + rng.next()),
            ];
            IntensityWeek {
                label: date_after_new_year(2026, 7 * w + 4)[5..].to_owned(),
                zone_seconds: z.to_vec(),
            }
        })
        .collect();
    IntensityChart { weeks, low_zones: 2 }
}

/// Ten training weeks of running load against a tolerance that builds slowly, with a spike in week
/// 8 above both the tolerance and the ACWR band, and the band from the week and the three before
/// it (coupled: chronic = the four weeks' mean; no band for the first three).
pub fn load_tolerance() -> LoadToleranceChart {
    let loads = [180.0, 210.0, 195.0, 230.0, 240.0, 120.0, 250.0, 410.0, 260.0, 150.0];
    let weeks = (0..loads.len())
        .map(|i| {
            let chronic = (i >= 3).then(|| loads[i - 3..=i].iter().sum::<f64>() / 4.0);
            ToleranceWeek {
                label: date_after_aug1(10 + 7 * i),
                load: loads[i],
                tolerance: Some(260.0 + 8.0 * i as f64),
                band: chronic.map(|c| (0.8 * c, 1.3 * c)),
            }
        })
        .collect();
    LoadToleranceChart { weeks }
}
