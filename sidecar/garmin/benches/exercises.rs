//! `cargo bench -p garmin --bench exercises`: what the exercise catalogue costs — its size in the
//! binary (the tables and the strings they point to) and how long one name takes to resolve against
//! the whole catalogue: exactly (a Garmin key), fuzzily (a typo, so every exercise is scored), a
//! search by name, and a search by muscle and equipment — each the median of many runs, next to a
//! baseline measured in the same run: one plain pass over every exercise comparing its lower-cased
//! name with the query (the cheapest lookup that looks at every entry). Benchmarks report; they do
//! not fail.

use std::hint::black_box;
use std::time::{Duration, Instant};

use garmin::exercises::{self, ExerciseQuery, List};

const WARM_UP: usize = 5;
const RUNS: usize = 201;

/// Median wall time of `RUNS` calls of `f` after a warm-up.
fn median<T>(mut f: impl FnMut() -> T) -> Duration {
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

fn row(name: &str, took: Duration, baseline: Duration) {
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let ratio = took.as_secs_f64() / baseline.as_secs_f64().max(1e-12);
    println!("{name:<52} {:>10.1} µs  {:>8.1} µs  {ratio:>8.1}×", us(took), us(baseline));
}

fn main() {
    let all = exercises::exercises();
    println!(
        "catalogue: {} exercises, {} categories; tables and strings {} bytes ({:.1} KiB)",
        all.len(),
        exercises::categories().len(),
        exercises::static_size_bytes(),
        exercises::static_size_bytes() as f64 / 1024.0
    );
    // First use builds the normalised names once; time it apart from the steady state.
    let first = Instant::now();
    black_box(exercises::resolve("barbel bench pres", List::Strength));
    println!(
        "first fuzzy lookup (builds the normalised names once): {:.2} ms",
        first.elapsed().as_secs_f64() * 1e3
    );

    let wanted = "barbell bench press";
    let baseline = median(|| all.iter().filter(|e| e.name.to_lowercase() == wanted).count());
    println!("{:<52} {:>13} {:>11} {:>9}", "lookup", "median", "baseline", "ratio");
    row(
        "exact key BENCH_PRESS/BARBELL_BENCH_PRESS",
        median(|| exercises::resolve("BENCH_PRESS/BARBELL_BENCH_PRESS", List::Strength)),
        baseline,
    );
    row(
        "exact display name \"barbell bench press\"",
        median(|| exercises::resolve(wanted, List::Strength)),
        baseline,
    );
    row(
        "fuzzy \"barbel bench pres\" (typos)",
        median(|| exercises::resolve("barbel bench pres", List::Strength)),
        baseline,
    );
    row(
        "fuzzy \"underwater squat\" (unknown, 3 closest)",
        median(|| exercises::resolve("underwater squat", List::Strength)),
        baseline,
    );
    row("fuzzy Chinese \"杠铃卧\"", median(|| exercises::resolve("杠铃卧", List::Strength)), baseline);
    let by_name = ExerciseQuery { name: Some("lunge".into()), limit: Some(50), ..ExerciseQuery::default() };
    row("search name \"lunge\" (50 rows)", median(|| exercises::search(&by_name)), baseline);
    let by_muscle = ExerciseQuery {
        muscle: Some("legs".into()),
        equipment: Some("kettlebell".into()),
        limit: Some(50),
        ..ExerciseQuery::default()
    };
    row("search muscle legs + kettlebell (50 rows)", median(|| exercises::search(&by_muscle)), baseline);
}
