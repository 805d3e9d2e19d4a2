//! How each kind of session is laid out in laps: per-kilometre auto-laps for easy, long and race
//! runs; warm-up/work/cool-down for tempo; 6×800 m or 5×1000 m repeats with jog recoveries;
//! 5 km laps on the bike; 100/200 m swim intervals with rests; strength sets with rests, two
//! sessions a week (A: squat, bench, row…; B: deadlift, press, pull-up…) whose loads rise about
//! 20 % over the year with a lighter week every sixth, each set with the watch's ranked guesses.
//! Paces follow the threshold pace of the day's fitness.

use super::activity::{ExerciseSet, Kind, Lap};
use super::rng::Rng;

/// Lays out the laps (and strength sets) of a session; `tp` is the threshold pace (s/km);
/// `session_b` picks the second strength session of the week.
pub fn layout(
    kind: Kind,
    tp: f64,
    progress: f64,
    session_b: bool,
    rng: &mut Rng,
) -> (Vec<Lap>, Vec<ExerciseSet>) {
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
        Kind::Strength => return strength(rng, progress, session_b),
    }
    (b.laps, Vec::new())
}

/// One exercise of a strength session: Garmin's category and name, the weight at the start of the
/// year (kg, 0 for body weight), the step it is loaded in (kg), the rep range (`(0, 0)` for a
/// timed hold), and the exercise the watch mistakes it for.
struct Lift {
    category: &'static str,
    name: &'static str,
    start_kg: f64,
    step_kg: f64,
    reps: (i64, i64),
    confused_with: (&'static str, &'static str),
}

const fn lift(
    category: &'static str,
    name: &'static str,
    start_kg: f64,
    step_kg: f64,
    reps: (i64, i64),
    confused_with: (&'static str, &'static str),
) -> Lift {
    Lift { category, name, start_kg, step_kg, reps, confused_with }
}

/// Monday: squat, bench, row, Romanian deadlift, calf raise, plank.
const SESSION_A: [Lift; 6] = [
    lift("SQUAT", "BARBELL_BACK_SQUAT", 60.0, 2.5, (5, 8), ("DEADLIFT", "BARBELL_DEADLIFT")),
    lift("BENCH_PRESS", "BARBELL_BENCH_PRESS", 50.0, 2.5, (5, 8), ("PUSH_UP", "PUSH_UP")),
    lift("ROW", "DUMBBELL_ROW", 20.0, 2.0, (8, 12), ("CURL", "DUMBBELL_BICEPS_CURL")),
    lift("DEADLIFT", "ROMANIAN_DEADLIFT", 50.0, 2.5, (8, 10), ("ROW", "BARBELL_ROW")),
    lift("CALF_RAISE", "STANDING_CALF_RAISE", 30.0, 2.0, (12, 15), ("SQUAT", "BARBELL_BACK_SQUAT")),
    lift("PLANK", "PLANK", 0.0, 0.0, (0, 0), ("PUSH_UP", "PUSH_UP")),
];

/// Thursday: deadlift, overhead press, pull-up, lunge, lateral raise, crunch.
const SESSION_B: [Lift; 6] = [
    lift("DEADLIFT", "BARBELL_DEADLIFT", 80.0, 2.5, (3, 5), ("ROW", "BARBELL_ROW")),
    lift(
        "SHOULDER_PRESS",
        "OVERHEAD_BARBELL_PRESS",
        35.0,
        2.5,
        (5, 8),
        ("BENCH_PRESS", "BARBELL_BENCH_PRESS"),
    ),
    lift("PULL_UP", "PULL_UP", 0.0, 0.0, (5, 9), ("ROW", "INVERTED_ROW")),
    lift("LUNGE", "DUMBBELL_LUNGE", 12.0, 2.0, (8, 12), ("SQUAT", "DUMBBELL_SQUAT")),
    lift(
        "LATERAL_RAISE",
        "DUMBBELL_LATERAL_RAISE",
        6.0,
        1.0,
        (10, 15),
        ("SHOULDER_PRESS", "DUMBBELL_SHOULDER_PRESS"),
    ),
    lift("CRUNCH", "CRUNCH", 0.0, 0.0, (15, 25), ("SIT_UP", "SIT_UP")),
];

/// The weight of `lift` at `progress` (0 at the start of the year, 1 today): about 20 % heavier by
/// the end of the year, lighter in every sixth (deload) week, in the lift's loading steps, in grams.
fn load_g(lift: &Lift, progress: f64) -> f64 {
    if lift.start_kg == 0.0 {
        return 0.0;
    }
    let deload = ((progress * 52.0) as u32 + 1).is_multiple_of(6);
    let kg = lift.start_kg * (1.0 + 0.2 * progress) * if deload { 0.9 } else { 1.0 };
    (kg / lift.step_kg).round() * lift.step_kg * 1000.0
}

/// The watch's guesses for a set of `lift`, best first (probabilities 0–100 in Garmin's 1/256
/// steps): mostly the right exercise, sometimes it and a runner-up, and about one set in ten the
/// exercise it is confused with on top — the sets people correct by hand.
fn guesses(lift: &Lift, rng: &mut Rng) -> Vec<(&'static str, &'static str, f64)> {
    let p = |x: f64| (x * 2.56).round() / 2.56;
    let roll = rng.range(0.0, 1.0);
    let (alt_c, alt_n) = lift.confused_with;
    if roll < 0.1 {
        let top = rng.range(50.0, 65.0);
        vec![(alt_c, alt_n, p(top)), (lift.category, lift.name, p(95.0 - top))]
    } else if roll < 0.3 {
        let top = rng.range(65.0, 85.0);
        vec![(lift.category, lift.name, p(top)), (alt_c, alt_n, p(98.0 - top))]
    } else {
        vec![(lift.category, lift.name, p(rng.range(90.0, 100.0)))]
    }
}

/// A strength session (`session_b` picks Thursday's B session): a warm-up, then three sets of five of
/// the session's six exercises with rests, loads progressing over the year.
fn strength(rng: &mut Rng, progress: f64, session_b: bool) -> (Vec<Lap>, Vec<ExerciseSet>) {
    let lifts = if session_b { &SESSION_B } else { &SESSION_A };
    let mut b = Laps::default();
    let mut sets = Vec::new();
    b.timed(300.0, 100.0, "WARMUP");
    let skip = rng.int(0, 5) as usize;
    for (i, lift) in lifts.iter().enumerate() {
        if i == skip {
            continue;
        }
        for _ in 0..3 {
            let timed = lift.reps == (0, 0);
            let reps = if timed { 0 } else { rng.int(lift.reps.0, lift.reps.1) as u32 };
            let active = if timed {
                rng.range(40.0, 60.0).round()
            } else {
                (f64::from(reps) * rng.range(3.0, 4.5)).round()
            };
            let rest = rng.range(75.0, 120.0).round();
            let start = b.end();
            let guessed = guesses(lift, rng);
            sets.push(ExerciseSet {
                category: guessed[0].0,
                name: guessed[0].1,
                guesses: guessed,
                reps,
                weight_g: load_g(lift, progress),
                start_s: start,
                duration_s: active,
                set_type: "ACTIVE",
            });
            b.timed(active, 122.0, "ACTIVE");
            sets.push(ExerciseSet {
                category: "",
                name: "",
                guesses: Vec::new(),
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
