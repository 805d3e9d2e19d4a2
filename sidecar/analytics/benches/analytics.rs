//! `cargo bench -p analytics`: how long the analytics take on realistic sizes — the PMC over five
//! years of daily loads (target ≤ 10 ms), merging a season's per-activity mean-max curves (target
//! ≤ 20 ms), and the mean-max curve of one 3-hour 1 Hz activity — each as the median of many runs,
//! next to a baseline measured in the same run (a plain summation over the same data), so the
//! numbers read on any machine. Benchmarks report; they do not fail.

use std::hint::black_box;
use std::time::{Duration, Instant};

use analytics::DailyLoad;
use analytics::mean_max::{MeanMaxCurve, STANDARD_DURATIONS, mean_max, merge_curves};
use analytics::pmc::{PmcConstants, performance_management};
use chrono::{Days, NaiveDate};

const WARM_UP: usize = 3;
const RUNS: usize = 51;

/// Median wall time of `RUNS` calls of `f` after a warm-up.
fn median(mut f: impl FnMut() -> f64) -> Duration {
    for _ in 0..WARM_UP {
        black_box(f());
    }
    let mut times: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            black_box(f());
            start.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

/// A deterministic pseudo-random number in 0..1.
fn noise(seed: &mut u64) -> f64 {
    *seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
    (*seed >> 11) as f64 / (1u64 << 53) as f64
}

/// A 1 Hz power series of `seconds` with surges.
fn ride(seconds: usize, seed: &mut u64) -> Vec<f64> {
    (0..seconds)
        .map(|s| {
            let surge = if (s / 300) % 4 == 0 { 120.0 } else { 0.0 };
            180.0 + surge + 60.0 * noise(seed)
        })
        .collect()
}

fn row(name: &str, took: Duration, baseline: Duration, target: Option<Duration>) {
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let ratio = took.as_secs_f64() / baseline.as_secs_f64().max(1e-9);
    let verdict = match target {
        Some(t) if took <= t => format!("meets ≤ {:.0} ms", ms(t)),
        Some(t) => format!("MISSES ≤ {:.0} ms", ms(t)),
        None => "no target".to_owned(),
    };
    println!("{name:<44} {:>9.3} ms  {:>9.4} ms  {ratio:>8.1}×  {verdict}", ms(took), ms(baseline));
}

fn main() {
    let mut seed = 7u64;
    println!("{:<44} {:>12}  {:>12}  {:>9}  verdict", "case (median of 51)", "time", "baseline", "ratio");

    // Five years of daily loads with rest days, as the PMC input.
    let first = NaiveDate::from_ymd_opt(2021, 1, 1).unwrap_or_default();
    let loads: Vec<DailyLoad> = (0..5 * 365 + 1)
        .filter_map(|i| {
            let r = noise(&mut seed);
            (r > 0.25).then(|| DailyLoad { date: first + Days::new(i), load: (r * 150.0).round() })
        })
        .collect();
    let constants = PmcConstants::default();
    let pmc = median(|| {
        performance_management(&loads, &constants).map_or(0.0, |s| s.days.last().map_or(0.0, |d| d.ctl))
    });
    let sum_loads = median(|| loads.iter().map(|d| d.load).sum());
    row("PMC, 5 years of daily loads", pmc, sum_loads, Some(Duration::from_millis(10)));

    // A season: 250 activities of 45 min to 3 h, one mean-max curve each (computed at sync).
    let curves: Vec<MeanMaxCurve> =
        (0..250).map(|i| mean_max(&ride(2700 + (i % 6) * 1500, &mut seed), &STANDARD_DURATIONS)).collect();
    let merge = median(|| merge_curves(&curves).points.last().map_or(0.0, |p| p.value));
    let sum_curves = median(|| curves.iter().flat_map(|c| &c.points).map(|p| p.value).sum());
    row("mean-max merge, a season (250 curves)", merge, sum_curves, Some(Duration::from_millis(20)));

    // One 3-hour activity at 1 Hz.
    let three_hours = ride(3 * 3600, &mut seed);
    let curve = median(|| mean_max(&three_hours, &STANDARD_DURATIONS).points.last().map_or(0.0, |p| p.value));
    let sum_samples = median(|| three_hours.iter().sum());
    row("mean-max curve, one 3 h activity at 1 Hz", curve, sum_samples, None);
}
