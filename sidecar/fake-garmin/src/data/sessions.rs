//! How each kind of session is laid out in laps: per-kilometre auto-laps for easy, long and race
//! runs; warm-up/work/cool-down for tempo; 6×800 m or 5×1000 m repeats with jog recoveries;
//! 5 km laps on the bike; 100/200 m swim intervals with rests; strength sets with rests.
//! Paces follow the threshold pace of the day's fitness.

use super::activity::{ExerciseSet, Kind, Lap};
use super::rng::Rng;

/// Lays out the laps (and strength sets) of a session; `tp` is the threshold pace (s/km).
pub fn layout(kind: Kind, tp: f64, progress: f64, rng: &mut Rng) -> (Vec<Lap>, Vec<ExerciseSet>) {
    let mut b = Laps::default();
    let speed = |pace: f64| 1000.0 / pace;
    match kind {
        Kind::Easy => {
            let total = (rng.range(6.0, 10.0) * 100.0).round() * 10.0;
            b.per_km(total, rng, |_, r| (speed(tp * 1.28 * (1.0 + 0.02 * r.noise())), 135.0, "ACTIVE"));
        }
        Kind::Long => {
            let total = ((rng.range(14.0, 20.0) + 4.0 * progress) * 100.0).round() * 10.0;
            b.per_km(total, rng, |k, r| {
                (speed(tp * 1.24 * (1.0 + 0.02 * r.noise())), 137.0 + 0.5 * k as f64, "ACTIVE")
            });
        }
        Kind::Tempo => {
            let tempo_km = rng.int(5, 8) as f64;
            b.per_km(4000.0 + tempo_km * 1000.0, rng, |k, r| {
                let work = (2.0..2.0 + tempo_km).contains(&(k as f64));
                let label = if k < 2 {
                    "WARMUP"
                } else if work {
                    "ACTIVE"
                } else {
                    "COOLDOWN"
                };
                let pace = if work { tp * 1.02 } else { tp * 1.3 };
                (speed(pace * (1.0 + 0.015 * r.noise())), if work { 163.0 } else { 134.0 }, label)
            });
        }
        Kind::Intervals => {
            let (reps, rep_m) = if rng.chance(0.5) { (6, 800.0) } else { (5, 1000.0) };
            b.push(2000.0, speed(tp * 1.3), 134.0, "WARMUP", 0.03);
            for _ in 0..reps {
                b.push(rep_m, speed(tp * 0.9 * (1.0 + 0.01 * rng.noise())), 174.0, "ACTIVE", 0.02);
                b.push(400.0, speed(tp * 1.55), 142.0, "RECOVERY", 0.04);
            }
            b.push(1500.0, speed(tp * 1.32), 136.0, "COOLDOWN", 0.03);
        }
        Kind::Race => {
            b.per_km(21_097.5, rng, |k, r| {
                (speed(tp * 1.04 * (1.0 + 0.01 * r.noise())), 164.0 + 0.4 * k as f64, "ACTIVE")
            });
        }
        Kind::Ride => {
            let total = (rng.range(35.0, 70.0) * 100.0).round() * 10.0;
            let mut left = total;
            while left > 0.5 {
                let d = left.min(5000.0);
                b.push(d, rng.range(7.6, 8.8), rng.range(132.0, 142.0), "ACTIVE", 0.08);
                left -= d;
            }
        }
        Kind::Swim => {
            b.push(300.0, 0.75, 120.0, "WARMUP", 0.02);
            let target = rng.range(1500.0, 2400.0);
            while b.distance() < target - 200.0 {
                let d = if rng.chance(0.5) { 100.0 } else { 200.0 };
                b.push(d, rng.range(0.8, 0.9), 142.0, "ACTIVE", 0.03);
                b.rest(rng.range(15.0, 30.0).round(), 112.0);
            }
            b.push(200.0, 0.72, 122.0, "COOLDOWN", 0.02);
        }
        Kind::Strength => return strength(rng),
    }
    (b.laps, Vec::new())
}

/// The strength session: warm-up, then three sets of six exercises with rests.
fn strength(rng: &mut Rng) -> (Vec<Lap>, Vec<ExerciseSet>) {
    const EXERCISES: [(&str, &str, f64); 8] = [
        ("SQUAT", "BARBELL_BACK_SQUAT", 60_000.0),
        ("BENCH_PRESS", "BARBELL_BENCH_PRESS", 50_000.0),
        ("DEADLIFT", "BARBELL_DEADLIFT", 70_000.0),
        ("LUNGE", "DUMBBELL_LUNGE", 12_000.0),
        ("ROW", "DUMBBELL_ROW", 20_000.0),
        ("PLANK", "PLANK", 0.0),
        ("CALF_RAISE", "STANDING_CALF_RAISE", 30_000.0),
        ("PULL_UP", "PULL_UP", 0.0),
    ];
    let mut b = Laps::default();
    let mut sets = Vec::new();
    b.timed(300.0, 100.0, "WARMUP");
    let skip = rng.int(0, 7) as usize;
    for (i, &(category, name, weight)) in EXERCISES.iter().enumerate() {
        if i == skip || i == (skip + 3) % 8 {
            continue;
        }
        for _ in 0..3 {
            let active = rng.range(35.0, 50.0).round();
            let rest = rng.range(75.0, 100.0).round();
            let start = b.end();
            sets.push(ExerciseSet {
                category,
                name,
                reps: rng.int(8, 12) as u32,
                weight_g: weight,
                start_s: start,
                duration_s: active,
                set_type: "ACTIVE",
            });
            b.timed(active, 122.0, "ACTIVE");
            sets.push(ExerciseSet {
                category: "",
                name: "",
                reps: 0,
                weight_g: 0.0,
                start_s: start + active,
                duration_s: rest,
                set_type: "REST",
            });
            b.timed(rest, 100.0, "REST");
        }
    }
    (b.laps, sets)
}

/// Lap list builder keeping the running start offset.
#[derive(Default)]
struct Laps {
    laps: Vec<Lap>,
}

impl Laps {
    fn end(&self) -> f64 {
        self.laps.last().map_or(0.0, |l| l.start_s + l.duration_s)
    }

    fn distance(&self) -> f64 {
        self.laps.iter().map(|l| l.distance_m).sum()
    }

    fn push(&mut self, distance_m: f64, speed: f64, target_hr: f64, intensity: &'static str, wobble: f64) {
        let start_s = self.end();
        let duration_s = (distance_m / speed * 10.0).round() / 10.0;
        self.laps.push(Lap {
            start_s,
            duration_s,
            distance_m,
            target_hr,
            intensity,
            wobble,
            ..Lap::default()
        });
    }

    fn timed(&mut self, duration_s: f64, target_hr: f64, intensity: &'static str) {
        let start_s = self.end();
        self.laps.push(Lap { start_s, duration_s, target_hr, intensity, ..Lap::default() });
    }

    fn rest(&mut self, duration_s: f64, target_hr: f64) {
        self.timed(duration_s, target_hr, "REST");
    }

    /// Auto-lap every kilometre; `each(k, rng)` gives (speed, target HR, intensity) of lap `k`.
    fn per_km(
        &mut self,
        total: f64,
        rng: &mut Rng,
        each: impl Fn(usize, &mut Rng) -> (f64, f64, &'static str),
    ) {
        let mut k = 0;
        while self.distance() < total - 0.01 {
            let d = (total - self.distance()).min(1000.0);
            let (speed, hr, label) = each(k, rng);
            let wobble = rng.range(0.02, 0.06);
            self.push(d, speed, hr, label, wobble);
            k += 1;
        }
    }
}
