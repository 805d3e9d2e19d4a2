//! A done workout's laps against its steps (`get_plan_vs_actual`, issue #29 §3): each lap goes to
//! the step Garmin recorded it under (`lapDTOs[].wktStepIndex`, mapped onto the workout's steps by
//! `garmin::models::workouts::Workout::steps_by_step_index` — FIT's flat order, *unverified*), a
//! step repeated N times collects the laps of every repetition, and each step gets its totals and
//! a plain verdict against its target. Laps with no step index, or one that names no step of
//! the workout, are `extra laps`.
//!
//! Verdicts: a pace or speed target compares the steps' whole time over their whole distance with
//! the target's range (`on target`, `faster than target by 0:07 /km`, `slower than target by
//! 1.2 km/h`; within half a second per unit counts as on target); a heart-rate or power target
//! compares the time-weighted average (`below the HR zone`, `above the power target`); a zone
//! given only by its number, or a cadence target, is not compared and says so; a step without a
//! target is `done`; a step without a lap is `not done`.

use garmin::models::workouts::Workout;
use garmin::workout_spec::{PreviewStep, PreviewTarget};
use rmcp::schemars;
use serde::Serialize;

/// One lap with the step it was run under (from Garmin's splits or the history).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepLap {
    /// Garmin's 1-based lap number.
    pub lap: i64,
    /// `wktStepIndex` (`None`: no step).
    pub step_index: Option<i64>,
    /// Timer time, s.
    pub duration_s: Option<f64>,
    /// Distance, m.
    pub distance_m: Option<f64>,
    /// Average heart rate, bpm.
    pub avg_hr: Option<f64>,
    /// Average power, W.
    pub avg_power: Option<f64>,
}

impl StepLap {
    /// The laps of Garmin's splits.
    pub fn of_splits(splits: &garmin::models::activities::ActivitySplits) -> Vec<StepLap> {
        splits
            .laps
            .iter()
            .enumerate()
            .map(|(n, l)| StepLap {
                lap: l.lap_index.unwrap_or(n as i64 + 1),
                step_index: l.wkt_step_index,
                duration_s: l.duration,
                distance_m: l.distance,
                avg_hr: l.average_hr,
                avg_power: l.average_power,
            })
            .collect()
    }

    /// The laps the history keeps.
    pub fn of_history(laps: &[::history::read_laps::StepLap]) -> Vec<StepLap> {
        laps.iter()
            .map(|l| StepLap {
                lap: l.lap_index,
                step_index: l.step_index,
                duration_s: l.lap.duration_s,
                distance_m: l.lap.distance_m,
                avg_hr: l.lap.avg_hr,
                avg_power: l.lap.avg_power,
            })
            .collect()
    }
}

/// One step of a done workout and the laps run under it.
#[derive(Clone, Debug, PartialEq, Serialize, schemars::JsonSchema)]
pub struct StepRow {
    /// The step: its number among the workout's steps, kind, end, target and repeats, e.g.
    /// `2: interval 800 m @ 4'15"-4'25"/km ×6`; `extra laps` for laps under no step.
    pub step: String,
    /// How it was planned to end (`800 m`, `10:00`, `until lap button`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub planned: Option<String>,
    /// Its target in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// Garmin's numbers of the laps run under it (every repetition's).
    pub laps: Vec<i64>,
    /// Their time, `h:mm:ss`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time: Option<String>,
    /// Their distance, km.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance_km: Option<f64>,
    /// Their average pace (`4'20"/km`, `1'50"/100 m`) or, on a bike, speed (`31.2 km/h`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pace: Option<String>,
    /// Their time-weighted average heart rate, bpm.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub avg_hr: Option<i64>,
    /// Their time-weighted average power, W.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub avg_power: Option<i64>,
    /// Against the target: `on target`, `faster than target by 0:07 /km`, `below the HR zone`,
    /// `done` (no target), `not done` (no lap), `extra laps`…
    pub verdict: String,
}

/// Most done workouts whose laps are matched to their steps in one answer: the most recent.
pub const STEPS_MATCHED: usize = 10;

/// One done workout's steps, or why they are not there.
#[derive(Clone, Debug, PartialEq)]
pub enum StepsRead {
    /// The rows, and where the laps came from (`history` or `garmin`).
    Matched(Vec<StepRow>, &'static str),
    /// One sentence on why the steps are missing.
    Missing(String),
}

/// The steps of each `(activity, workout)` done: the laps from the local history where it
/// keeps them with their step index, else Garmin's splits (web session), all read at once (the
/// `Garmin` client bounds how many requests run together), one answer per pair in order.
pub(crate) async fn read_steps(
    reading: &crate::domain::reading::Reading,
    done: &[(u64, &Workout)],
) -> Vec<StepsRead> {
    let client = reading.reads.web("the laps of a done workout").ok().cloned();
    futures::future::join_all(done.iter().map(|&(activity_id, workout)| {
        let client = client.clone();
        let history = reading.history.clone();
        async move {
            let kept = match history {
                Some(h) => tokio::task::spawn_blocking(move || h.laps_with_steps(activity_id))
                    .await
                    .ok()
                    .and_then(Result::ok)
                    .flatten(),
                None => None,
            };
            let (laps, from) = match kept {
                Some(laps) => (StepLap::of_history(&laps), "history"),
                None => {
                    let Some(client) = client else {
                        return StepsRead::Missing(
                            "steps: the laps need the web session (sign in on the Garmin Connect website)".to_owned(),
                        );
                    };
                    match client.activities().splits(activity_id).await {
                        Ok(splits) => (StepLap::of_splits(&splits), "garmin"),
                        Err(e) => return StepsRead::Missing(format!("steps: the laps could not be read ({e})")),
                    }
                }
            };
            if !laps.iter().any(|l| l.step_index.is_some()) {
                return StepsRead::Missing(
                    "steps: Garmin recorded no workout step on this activity's laps (it was not run as this workout \
                     on the watch)"
                        .to_owned(),
                );
            }
            StepsRead::Matched(match_steps(workout, &laps), from)
        }
    }))
    .await
}

/// The laps of a done `workout` matched to its steps: one row per executable step in order,
/// then one `extra laps` row when some laps name no step.
pub fn match_steps(workout: &Workout, laps: &[StepLap]) -> Vec<StepRow> {
    let preview = garmin::workout_spec::preview(workout);
    let indexed = workout.steps_by_step_index();
    let mut claimed = vec![false; laps.len()];
    let mut rows = Vec::new();
    let mut number = 0;
    for step in indexed.iter().filter(|s| !s.step.is_repeat()) {
        number += 1;
        let Some(shown) = preview_at(&preview.steps, &step.path) else { continue };
        let mine: Vec<&StepLap> = laps
            .iter()
            .enumerate()
            .filter(|(_, l)| l.step_index.and_then(|i| usize::try_from(i).ok()) == Some(step.index))
            .map(|(n, l)| {
                claimed[n] = true;
                l
            })
            .collect();
        rows.push(step_row(number, shown, step.times, &mine));
    }
    let extra: Vec<&StepLap> = laps.iter().zip(&claimed).filter(|(_, c)| !**c).map(|(l, _)| l).collect();
    if !extra.is_empty() {
        let sport = preview.steps.first().map_or("running", |s| s.sport.as_str());
        let totals = Totals::of(&extra);
        rows.push(StepRow {
            step: "extra laps".to_owned(),
            planned: None,
            target: None,
            laps: extra.iter().map(|l| l.lap).collect(),
            time: totals.time(),
            distance_km: totals.distance_km(),
            pace: totals.pace(sport),
            avg_hr: totals.hr.map(|h| h.round() as i64),
            avg_power: totals.power.map(|p| p.round() as i64),
            verdict: "extra laps: Garmin recorded them under no step of this workout".to_owned(),
        });
    }
    rows
}

/// The preview step at `path` (top-level position, then positions inside repeat groups).
fn preview_at<'a>(steps: &'a [PreviewStep], path: &[usize]) -> Option<&'a PreviewStep> {
    let (first, rest) = path.split_first()?;
    let step = steps.get(*first)?;
    if rest.is_empty() { Some(step) } else { preview_at(&step.steps, rest) }
}

fn step_row(number: usize, shown: &PreviewStep, times: u64, laps: &[&StepLap]) -> StepRow {
    let end = shown.end.as_ref().map(|e| e.text.clone());
    let target = shown.target.as_ref().map(|t| t.text.clone());
    let mut label = format!("{number}: {}", shown.kind);
    if let Some(end) = &end {
        label.push_str(&format!(" {end}"));
    }
    if let Some(target) = &target {
        label.push_str(&format!(" @ {target}"));
    }
    if times > 1 {
        label.push_str(&format!(" ×{times}"));
    }
    let totals = Totals::of(laps);
    let verdict = if laps.is_empty() {
        "not done".to_owned()
    } else {
        shown.target.as_ref().map_or_else(|| "done".to_owned(), |t| verdict(t, &shown.sport, &totals))
    };
    StepRow {
        step: label,
        planned: end,
        target,
        laps: laps.iter().map(|l| l.lap).collect(),
        time: totals.time(),
        distance_km: totals.distance_km(),
        pace: totals.pace(&shown.sport),
        avg_hr: totals.hr.map(|h| h.round() as i64),
        avg_power: totals.power.map(|p| p.round() as i64),
        verdict,
    }
}

/// What a step's laps add up to.
#[derive(Clone, Copy, Debug, Default)]
struct Totals {
    /// s (0 without laps).
    seconds: f64,
    /// m (0 when no lap has a distance).
    meters: f64,
    /// Time-weighted average heart rate.
    hr: Option<f64>,
    /// Time-weighted average power.
    power: Option<f64>,
}

impl Totals {
    fn of(laps: &[&StepLap]) -> Totals {
        let finite = |v: Option<f64>| v.filter(|x| x.is_finite() && *x >= 0.0);
        let seconds: f64 = laps.iter().filter_map(|l| finite(l.duration_s)).sum();
        let meters: f64 = laps.iter().filter_map(|l| finite(l.distance_m)).sum();
        let weighted = |value: fn(&StepLap) -> Option<f64>| {
            let (sum, weight) = laps
                .iter()
                .filter_map(|l| Some((finite(value(l)).filter(|v| *v > 0.0)?, finite(l.duration_s)?)))
                .fold((0.0, 0.0), |(s, w), (v, t)| (s + v * t, w + t));
            (weight > 0.0).then(|| sum / weight)
        };
        Totals { seconds, meters, hr: weighted(|l| l.avg_hr), power: weighted(|l| l.avg_power) }
    }

    /// m/s over the whole, when there is both time and distance.
    fn speed(&self) -> Option<f64> {
        (self.seconds > 0.0 && self.meters > 0.0).then(|| self.meters / self.seconds)
    }

    fn time(&self) -> Option<String> {
        (self.seconds > 0.0).then(|| display::duration_hms(self.seconds))
    }

    fn distance_km(&self) -> Option<f64> {
        (self.meters > 0.0).then(|| (self.meters / 10.0).round() / 100.0)
    }

    fn pace(&self, sport: &str) -> Option<String> {
        let speed = self.speed()?;
        match sport {
            "cycling" => Some(display::kmh_text(speed)),
            "swimming" => display::pace_per_100m(speed).map(|p| format!("{p}/100 m")),
            _ => display::pace_per_km(speed).map(|p| format!("{p}/km")),
        }
    }
}

/// The verdict of a step's laps against its `target`.
fn verdict(target: &PreviewTarget, sport: &str, totals: &Totals) -> String {
    let bounds = match (target.low, target.high) {
        (Some(a), Some(b)) if a.is_finite() && b.is_finite() && a > 0.0 && b > 0.0 => {
            Some((a.min(b), a.max(b)))
        }
        _ => None,
    };
    match target.kind.as_str() {
        "pace.zone" | "speed.zone" => {
            let (Some((slow, fast)), Some(speed)) = (bounds, totals.speed()) else {
                return "not compared: no pace range or no distance".to_owned();
            };
            if target.kind == "speed.zone" || sport == "cycling" {
                let off = |a: f64, b: f64| display::kmh_text(a - b);
                return if speed > fast + 0.05 / 3.6 {
                    format!("faster than target by {}", off(speed, fast))
                } else if speed < slow - 0.05 / 3.6 {
                    format!("slower than target by {}", off(slow, speed))
                } else {
                    "on target".to_owned()
                };
            }
            let (unit, per) = if sport == "swimming" { ("/100 m", 100.0) } else { ("/km", 1000.0) };
            let (pace, fastest, slowest) = (per / speed, per / fast, per / slow);
            let words = |s: f64| display::pace(s, display::PaceStyle::Colon);
            if pace < fastest - 0.5 {
                format!("faster than target by {} {unit}", words(fastest - pace))
            } else if pace > slowest + 0.5 {
                format!("slower than target by {} {unit}", words(pace - slowest))
            } else {
                "on target".to_owned()
            }
        }
        "heart.rate.zone" | "power.zone" => {
            let (what, value) = if target.kind == "power.zone" {
                ("power target", totals.power)
            } else {
                ("HR zone", totals.hr)
            };
            let Some((low, high)) = bounds else {
                return format!("not compared: the {what} is given by its number, not its bounds");
            };
            let Some(value) = value else { return format!("not compared: no {} recorded", what) };
            if value < low - 0.5 {
                format!("below the {what}")
            } else if value > high + 0.5 {
                format!("above the {what}")
            } else {
                "on target".to_owned()
            }
        }
        other => format!("not compared: {} targets are not compared with laps", display::words(other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use garmin::models::workouts::{
        EXECUTABLE_STEP, EndCondition, REPEAT_GROUP, SportType, StepType, TargetType, WorkoutSegment,
        WorkoutStep,
    };

    fn step(kind: &str, meters: f64, pace: Option<(f64, f64)>) -> WorkoutStep {
        WorkoutStep {
            step_class: Some(EXECUTABLE_STEP.to_owned()),
            step_type: Some(StepType { step_type_key: Some(kind.to_owned()), ..StepType::default() }),
            end_condition: Some(EndCondition {
                condition_type_key: Some("distance".to_owned()),
                ..EndCondition::default()
            }),
            end_condition_value: Some(meters),
            target_type: pace.map(|_| TargetType {
                workout_target_type_key: Some("pace.zone".to_owned()),
                ..TargetType::default()
            }),
            // Garmin keeps paces as m/s, faster first: (s/km fast, s/km slow).
            target_value_one: pace.map(|(fast, _)| 1000.0 / fast),
            target_value_two: pace.map(|(_, slow)| 1000.0 / slow),
            ..WorkoutStep::default()
        }
    }

    fn workout() -> Workout {
        let group = WorkoutStep {
            step_class: Some(REPEAT_GROUP.to_owned()),
            step_type: Some(StepType { step_type_key: Some("repeat".to_owned()), ..StepType::default() }),
            number_of_iterations: Some(3),
            workout_steps: vec![
                step("interval", 1000.0, Some((245.0, 255.0))),
                step("recovery", 400.0, None),
            ],
            ..WorkoutStep::default()
        };
        Workout {
            sport_type: Some(SportType::new(1, "running")),
            workout_segments: vec![WorkoutSegment {
                workout_steps: vec![
                    step("warmup", 2000.0, Some((330.0, 360.0))),
                    group,
                    step("cooldown", 1000.0, None),
                ],
                ..WorkoutSegment::default()
            }],
            ..Workout::default()
        }
    }

    fn lap(n: i64, step: Option<i64>, meters: f64, seconds: f64, hr: f64) -> StepLap {
        StepLap {
            lap: n,
            step_index: step,
            duration_s: Some(seconds),
            distance_m: Some(meters),
            avg_hr: Some(hr),
            avg_power: None,
        }
    }

    #[test]
    fn every_repetition_lands_on_its_step_and_each_step_gets_its_verdict() {
        // Indexes: 0 warm-up, 1 interval, 2 recovery, 3 the repeat, 4 cool-down (not run).
        // Warm-up 2 km in 10:00 = 5:00/km against 5:30–6:00: 30 s/km fast. Intervals 3 × 1 km in
        // 250, 248, 252 s = 750 s for 3 km = 4:10/km, inside 4:05–4:15; HR (170·250 + 172·248
        // + 174·252) / 750 = 172.0. Lap 9 has no index: extra.
        let laps = vec![
            lap(1, Some(0), 2000.0, 600.0, 140.0),
            lap(2, Some(1), 1000.0, 250.0, 170.0),
            lap(3, Some(2), 400.0, 150.0, 150.0),
            lap(4, Some(1), 1000.0, 248.0, 172.0),
            lap(5, Some(2), 400.0, 150.0, 150.0),
            lap(6, Some(1), 1000.0, 252.0, 174.0),
            lap(7, Some(2), 400.0, 150.0, 150.0),
            lap(9, None, 300.0, 120.0, 130.0),
        ];
        let rows = match_steps(&workout(), &laps);
        let got: Vec<(&str, Vec<i64>, &str)> =
            rows.iter().map(|r| (r.step.as_str(), r.laps.clone(), r.verdict.as_str())).collect();
        assert_eq!(got[0].1, vec![1]);
        assert_eq!(got[0].2, "faster than target by 0:30 /km");
        assert!(got[1].0.starts_with("2: interval 1 km @ ") && got[1].0.ends_with(" ×3"), "{}", got[1].0);
        assert_eq!((got[1].1.clone(), got[1].2), (vec![2, 4, 6], "on target"));
        assert_eq!((rows[1].time.as_deref(), rows[1].distance_km), (Some("0:12:30"), Some(3.0)));
        assert_eq!((rows[1].pace.as_deref(), rows[1].avg_hr), (Some("4'10\"/km"), Some(172)));
        assert_eq!((got[2].1.clone(), got[2].2), (vec![3, 5, 7], "done"));
        assert_eq!((got[3].0, got[3].2), ("4: cooldown 1 km", "not done"));
        assert_eq!(got[4].0, "extra laps");
        assert_eq!(got[4].1, vec![9]);
        assert_eq!(rows.len(), 5);
    }

    #[test]
    fn a_lap_naming_the_repeat_step_or_no_step_of_the_workout_is_extra_and_slow_is_said() {
        // Index 3 is the repeat itself and 9 is past the last step; the interval's only lap is
        // 1 km in 265 s: 10 s/km slower than 4:15.
        let laps = vec![
            lap(1, Some(1), 1000.0, 265.0, 160.0),
            lap(2, Some(3), 100.0, 30.0, 150.0),
            lap(3, Some(9), 100.0, 30.0, 150.0),
        ];
        let rows = match_steps(&workout(), &laps);
        assert_eq!(rows[1].verdict, "slower than target by 0:10 /km");
        assert_eq!(rows[0].verdict, "not done");
        let extra = rows.last().unwrap();
        assert_eq!((extra.step.as_str(), extra.laps.clone()), ("extra laps", vec![2, 3]));
    }
}
