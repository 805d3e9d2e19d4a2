//! Nights: when the athlete slept, how the night split into deep/light/REM/awake stages, the sleep
//! score, and the overnight HRV readings. A night belongs to the calendar date of the morning it
//! ends on (Garmin's convention), and is a pure function of the seed and that date.

use chrono::{Duration, NaiveDate, NaiveDateTime, NaiveTime};

use super::clock::{Zone, day_no};
use super::rng::Rng;

/// One night's sleep.
#[derive(Clone, Debug, Default)]
pub struct Sleep {
    /// Random seed of this night's stage sequence.
    pub seed: u64,
    /// Fell asleep (GMT).
    pub start_gmt: NaiveDateTime,
    /// Woke up (GMT).
    pub end_gmt: NaiveDateTime,
    /// Stage segments `(start GMT, end GMT, level)`; level 0 deep, 1 light, 2 REM, 3 awake.
    pub stages: Vec<(NaiveDateTime, NaiveDateTime, u8)>,
    /// Seconds of deep sleep.
    pub deep_s: i64,
    /// Seconds of light sleep.
    pub light_s: i64,
    /// Seconds of REM sleep.
    pub rem_s: i64,
    /// Seconds awake inside the window.
    pub awake_s: i64,
    /// Number of awakenings.
    pub awake_count: u32,
    /// Overall sleep score 0–100.
    pub score: u32,
    /// Average stress while asleep.
    pub avg_stress: f64,
    /// Breaths per minute while asleep.
    pub avg_respiration: f64,
    /// Average SpO2 while asleep.
    pub avg_spo2: f64,
    /// Lowest SpO2 while asleep.
    pub lowest_spo2: f64,
    /// Average heart rate while asleep.
    pub avg_hr: f64,
}

impl Sleep {
    /// Seconds asleep (window minus awake time).
    pub fn asleep_s(&self) -> i64 {
        self.deep_s + self.light_s + self.rem_s
    }

    /// `(qualifier, percentage)` of a stage duration, as in `sleepScores`.
    pub fn percent(&self, stage_s: i64) -> f64 {
        let asleep = self.asleep_s().max(1) as f64;
        (stage_s as f64 * 100.0 / asleep).round()
    }
}

/// Local bedtime and wake time of the night ending on the morning of `date`.
pub fn window(seed: u64, zone: &Zone, date: NaiveDate) -> (NaiveDateTime, NaiveDateTime) {
    let mut rng = Rng::derive(seed, 0x51EE_0000 + day_no(date));
    let bed = (date - Duration::days(1)).and_time(NaiveTime::MIN)
        + Duration::seconds(22 * 3600 + 40 * 60 + rng.int(-35 * 60, 40 * 60));
    let wake =
        date.and_time(NaiveTime::MIN) + Duration::seconds(6 * 3600 + 10 * 60 + rng.int(-25 * 60, 45 * 60));
    (zone.to_gmt(bed), zone.to_gmt(wake))
}

/// The night ending on the morning of `date`; a hard day before (`fatigue` 0–1) deepens it.
pub fn night(seed: u64, zone: &Zone, date: NaiveDate, fatigue: f64) -> Sleep {
    let (start, end) = window(seed, zone, date);
    let mut rng = Rng::derive(seed, 0x51EE_8000 + day_no(date));
    let mut stages = Vec::new();
    let mut t = start;
    let mut cycle = 0;
    while t < end {
        let deep = (28.0 - 7.0 * cycle as f64 + 8.0 * fatigue + 4.0 * rng.noise()).max(3.0);
        let rem = (10.0 + 6.0 * cycle as f64 + 3.0 * rng.noise()).max(4.0);
        let plan = [
            (1u8, rng.range(18.0, 30.0)),
            (0, deep),
            (1, rng.range(12.0, 22.0)),
            (2, rem),
            (3, if rng.chance(0.35) { rng.range(1.0, 6.0) } else { 0.0 }),
        ];
        for (level, minutes) in plan {
            if minutes < 0.5 || t >= end {
                continue;
            }
            let next = (t + Duration::seconds((minutes * 60.0).round() as i64)).min(end);
            stages.push((t, next, level));
            t = next;
        }
        cycle += 1;
    }
    let mut s = Sleep { seed: rng.next_u64(), start_gmt: start, end_gmt: end, ..Sleep::default() };
    for (a, b, level) in &stages {
        let secs = (*b - *a).num_seconds();
        match level {
            0 => s.deep_s += secs,
            1 => s.light_s += secs,
            2 => s.rem_s += secs,
            _ => {
                s.awake_s += secs;
                s.awake_count += 1;
            }
        }
    }
    s.stages = stages;
    let hours = s.asleep_s() as f64 / 3600.0;
    let deep_pct = s.percent(s.deep_s);
    let score =
        96.0 - 9.0 * (7.8 - hours).abs() - 2.5 * f64::from(s.awake_count) - (20.0 - deep_pct).max(0.0) * 0.8
            + 2.0 * rng.noise();
    s.score = score.clamp(38.0, 98.0).round() as u32;
    s.avg_stress = (14.0 + 4.0 * rng.noise() + 6.0 * fatigue).clamp(5.0, 40.0).round();
    s.avg_respiration = (13.0 + 0.8 * rng.noise()).round();
    s.avg_spo2 = (94.0 + rng.noise()).clamp(90.0, 98.0).round();
    s.lowest_spo2 = (s.avg_spo2 - rng.range(4.0, 9.0)).round();
    s.avg_hr = (47.0 + 2.0 * rng.noise() + 4.0 * fatigue).round();
    s
}

/// Overnight HRV readings (every 5 minutes while asleep) around `avg` ms.
pub fn hrv_readings(s: &Sleep, avg: f64) -> Vec<(NaiveDateTime, f64)> {
    let mut rng = Rng::new(s.seed ^ 0x4852_5600);
    let mut out = Vec::new();
    let mut t = s.start_gmt + Duration::minutes(5);
    while t < s.end_gmt {
        out.push((t, (avg + 7.0 * rng.noise()).clamp(18.0, 120.0).round()));
        t += Duration::minutes(5);
    }
    out
}

/// True when `t` (GMT) falls inside this night.
pub fn asleep_at(s: &Sleep, t: NaiveDateTime) -> bool {
    t >= s.start_gmt && t < s.end_gmt
}
