//! `cargo bench -p garmin-charts --bench render`: how long the activity chart of a 4-hour activity
//! (15,000 one-second samples) takes to draw and encode at 1200×700, as the median of many runs,
//! next to a baseline measured in the same run — encoding a blank 1200×700 PNG — so the number can
//! be read on any machine. The target is under 100 ms in release; the table says whether the median
//! meets it (benchmarks report, they do not fail).

#[path = "../tests/synthetic/mod.rs"]
mod synthetic;

use std::time::{Duration, Instant};

use garmin_charts::ChartOptions;

/// Target for the 4-hour activity chart.
const TARGET: Duration = Duration::from_millis(100);
const WARM_UP: usize = 3;
const RUNS: usize = 25;

/// Median wall time of `runs` calls of `f` (after a warm-up).
fn median(runs: usize, mut f: impl FnMut() -> usize) -> (Duration, usize) {
    let mut bytes = 0;
    for _ in 0..WARM_UP {
        bytes = f();
    }
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            bytes = std::hint::black_box(f());
            start.elapsed()
        })
        .collect();
    times.sort();
    (times[times.len() / 2], bytes)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() {
    let data = synthetic::four_hour_run();
    let points = data.samples.len();
    let span = data.samples.last().map_or(0.0, |s| s.elapsed_s) / 3600.0;
    let options = ChartOptions::default();

    let (chart, chart_bytes) = median(RUNS, || match garmin_charts::activity(&data, &options) {
        Ok(png) => png.bytes.len(),
        Err(e) => panic!("the activity chart failed: {e}"),
    });
    let (blank, blank_bytes) = median(RUNS, || match garmin_charts::blank_png(1200, 700) {
        Ok(png) => png.len(),
        Err(e) => panic!("the blank PNG failed: {e}"),
    });

    println!("activity chart, {points} samples ({span:.1} h), 1200×700:");
    println!("  median {:.1} ms over {RUNS} runs, PNG {} KiB", ms(chart), chart_bytes / 1024);
    println!("baseline, blank 1200×700 PNG encode:");
    println!("  median {:.2} ms, PNG {} KiB", ms(blank), blank_bytes / 1024);
    println!("ratio chart / baseline: {:.1}×", ms(chart) / ms(blank).max(1e-6));
    if chart <= TARGET {
        println!("OK: under the {} ms target", TARGET.as_millis());
    } else {
        println!("OVER the {} ms target", TARGET.as_millis());
    }
}
