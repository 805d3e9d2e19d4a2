//! Derived facts of one activity that several views share: training-effect label and messages,
//! moving and grade-adjusted speed, vertical ratio, shortest lap, and the `splitSummaries`
//! (laps grouped by intensity, plus `RWD_RUN` for runs) that list rows, summaries and the
//! `split_summaries` endpoint all carry.

use serde_json::Value;

use super::{Obj, int, round};
use crate::data::activity::{Activity, Kind, Lap, Sport, Stats};

/// `trainingEffectLabel`.
pub(super) fn te_label(a: &Activity) -> &'static str {
    match a.kind {
        Kind::Intervals => "VO2MAX",
        Kind::Tempo | Kind::Race => "LACTATE_THRESHOLD",
        Kind::Long => "TEMPO",
        Kind::Strength => "RECOVERY",
        _ => "AEROBIC_BASE",
    }
}

pub(super) fn aerobic_message(te: f64) -> &'static str {
    match te {
        t if t < 1.0 => "NO_AEROBIC_BENEFIT_1",
        t if t < 2.0 => "MINOR_AEROBIC_BENEFIT_0",
        t if t < 3.0 => "MAINTAINING_AEROBIC_BASE_7",
        t if t < 4.0 => "IMPROVING_AEROBIC_BASE_8",
        t if t < 5.0 => "HIGHLY_IMPROVING_LACTATE_THRESHOLD_12",
        _ => "OVERREACHING_20",
    }
}

pub(super) fn anaerobic_message(te: f64) -> &'static str {
    match te {
        t if t < 1.0 => "NO_ANAEROBIC_BENEFIT_0",
        t if t < 2.0 => "MINOR_ANAEROBIC_BENEFIT_15",
        t if t < 3.0 => "MAINTAINING_ANAEROBIC_CAPACITY_AND_POWER_10",
        _ => "IMPROVING_ANAEROBIC_CAPACITY_AND_POWER_11",
    }
}

/// Moving-time average speed.
pub(super) fn moving_speed(a: &Activity) -> f64 {
    if a.moving_s > 0.0 { a.stats.distance / a.moving_s } else { 0.0 }
}

/// Grade-adjusted speed (flattens the hills back out).
pub(super) fn grade_adjusted(a: &Activity) -> f64 {
    let climb = if a.stats.distance > 0.0 { a.stats.elev_gain / a.stats.distance } else { 0.0 };
    a.stats.avg_speed * (1.0 + 3.0 * climb)
}

pub(super) fn min_lap(a: &Activity) -> f64 {
    a.laps.iter().map(|l| l.duration_s).fold(f64::MAX, f64::min)
}

pub(super) fn vertical_ratio(a: &Activity) -> f64 {
    if a.stride_cm > 0.0 { a.vo_cm / a.stride_cm * 100.0 } else { 0.0 }
}

/// `splitSummaries`: one entry per lap intensity plus `RWD_RUN` for runs.
pub(super) fn split_summaries(a: &Activity) -> Vec<Value> {
    let mut groups: Vec<(&str, Vec<&Lap>)> = Vec::new();
    for (split, intensity) in [
        ("INTERVAL_ACTIVE", "ACTIVE"),
        ("INTERVAL_WARMUP", "WARMUP"),
        ("INTERVAL_COOLDOWN", "COOLDOWN"),
        ("INTERVAL_RECOVERY", "RECOVERY"),
        ("INTERVAL_REST", "REST"),
    ] {
        let laps: Vec<_> = a.laps.iter().filter(|l| l.intensity == intensity).collect();
        if !laps.is_empty() {
            groups.push((split, laps));
        }
    }
    if a.sport() == Sport::Running {
        groups.push(("RWD_RUN", a.laps.iter().collect()));
    }
    groups
        .into_iter()
        .map(|(split, laps)| {
            let distance: f64 = laps.iter().map(|l| l.stats.distance).sum();
            let duration: f64 = laps.iter().map(|l| l.stats.duration).sum();
            let gain: f64 = laps.iter().map(|l| l.stats.elev_gain).sum();
            let loss: f64 = laps.iter().map(|l| l.stats.elev_loss).sum();
            let max_gain = laps.iter().map(|l| l.stats.elev_gain).fold(0.0, f64::max);
            let max_distance = laps.iter().map(|l| l.stats.distance).fold(0.0, f64::max);
            let weighted = |f: fn(&Stats) -> f64| {
                if duration > 0.0 {
                    laps.iter().map(|l| f(&l.stats) * l.stats.duration).sum::<f64>() / duration
                } else {
                    0.0
                }
            };
            let speed = if duration > 0.0 { distance / duration } else { 0.0 };
            let cadence = weighted(|s| s.avg_cadence);
            Obj::new()
                .set("noOfSplits", laps.len())
                .set("totalAscent", int(gain))
                .set("duration", round(duration, 3))
                .set("movingDuration", int(duration))
                .set("splitType", split)
                .set("numClimbSends", 0)
                .set("maxElevationGain", int(max_gain))
                .set("averageElevationGain", int(gain / laps.len() as f64))
                .set("maxDistance", int(max_distance))
                .set("maxDistanceWithPrecision", round(max_distance, 2))
                .set("distance", round(distance, 2))
                .set("averageSpeed", round(speed, 4))
                .set("averageMovingSpeed", round(speed, 4))
                .set("maxSpeed", round(laps.iter().map(|l| l.stats.max_speed).fold(0.0, f64::max), 4))
                .set("numFalls", 0)
                .set("elevationGain", int(gain))
                .set("elevationLoss", int(loss))
                .set(
                    "calories",
                    int(a.calories * if a.stats.duration > 0.0 { duration / a.stats.duration } else { 0.0 }),
                )
                .set("averageHR", int(weighted(|s| s.avg_hr)))
                .set("maxHR", int(laps.iter().map(|l| l.stats.max_hr).fold(0.0, f64::max)))
                .set("averageRunCadence", round(cadence, 2))
                .set("avgStepFrequency", round(cadence, 2))
                .set(
                    "avgStepLength",
                    round(if cadence > 0.0 { speed * 60.0 / cadence * 1000.0 } else { 0.0 }, 1),
                )
                .set(
                    "bmrCalories",
                    int(a.bmr_calories
                        * if a.stats.duration > 0.0 { duration / a.stats.duration } else { 0.0 }),
                )
                .set("maxRunCadence", int(laps.iter().map(|l| l.stats.max_cadence).fold(0.0, f64::max)))
                .set("averagePower", int(weighted(|s| s.avg_power)))
                .set("maxPower", int(laps.iter().map(|l| l.stats.max_power).fold(0.0, f64::max)))
                .set("normalizedPower", int(weighted(|s| s.avg_power) * 1.06))
                .set("averageTemperature", round(a.temp_c + 1.0, 1))
                .set("maxTemperature", round(a.temp_c + 2.0, 1))
                .set("minTemperature", round(a.temp_c - 1.0, 1))
                .set("groundContactTime", round(a.gct_ms, 1))
                .set(
                    "strideLength",
                    round(if cadence > 0.0 { speed * 60.0 / cadence * 100.0 } else { 0.0 }, 2),
                )
                .set("verticalOscillation", round(a.vo_cm, 2))
                .set("verticalRatio", round(vertical_ratio(a), 2))
                .set("totalExerciseReps", 0)
                .set("avgVerticalSpeed", round(if duration > 0.0 { gain / duration } else { 0.0 }, 3))
                .set("avgGradeAdjustedSpeed", round(speed * (1.0 + 3.0 * gain / distance.max(1.0)), 4))
                .set("avgForce", 0)
                .set("maxForce", 0)
                .set("normalizedForce", 0)
                .build()
        })
        .collect()
}
