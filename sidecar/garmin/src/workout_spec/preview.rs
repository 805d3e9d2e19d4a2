//! A plain-words preview of any Garmin workout (ours before sending, or one read back from
//! Garmin) with estimated totals, e.g.
//! `Warm-up 10:00 / Repeat 4×: Run 800 m @ 4'55"-5'05" · Recover 2:00 / Cool-down 10:00 — total ≈
//! 7.2 km · ≈ 0:44:00`.
//!
//! Estimates: a step's time comes from its distance and its pace or speed target (the middle of
//! the range), its distance from its time the same way. A step with neither a pace target nor a
//! fixed amount of both is estimated with assumptions, and the preview says so (`estimated`):
//! open steps (lap button, heart-rate end) count as a typical length for their kind (warm-up 10
//! min, interval 5 min, recovery 2 min, rest 1 min); steps without a pace move at the workout's
//! `avgTrainingSpeed`, or at an easy pace for the sport (run 7:00/km, ride 25 km/h, swim 2:00/100 m);
//! rests (by time) cover no distance.

use serde::{Deserialize, Serialize};

use super::ids;
use super::pace::format_number;
use crate::models::units::format_duration;
use crate::models::workouts::{Workout, WorkoutStep};

/// A workout in plain words with its estimated totals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Preview {
    /// The whole workout on one line: the steps joined by " / ", then " — total ≈ 7.2 km · ≈ 0:44:00".
    pub text: String,
    /// One line per top-level step (a repeat with everything inside it on one line).
    pub lines: Vec<String>,
    /// Estimated total distance in metres; `None` for sports without distance (strength…) or no steps.
    pub distance_m: Option<f64>,
    /// Estimated total time in seconds; `None` when there are no steps.
    pub duration_s: Option<f64>,
    /// Whether the totals lean on assumptions (an easy pace, a typical length for an open step)
    /// rather than only on the steps' own distances, times and pace targets.
    pub estimated: bool,
}

/// The easy speed (m/s) assumed for steps without a pace or speed target, by Garmin sport key.
pub(crate) fn default_speed(sport_key: &str) -> f64 {
    match sport_key {
        "cycling" => 25.0 / 3.6,
        "swimming" => 100.0 / 120.0,
        _ => 1000.0 / 420.0,
    }
}

/// Describes `workout` in plain words and estimates its distance and time.
pub fn preview(workout: &Workout) -> Preview {
    let workout_sport = workout.sport_key().unwrap_or("other");
    let multisport = workout.workout_segments.len() > 1;
    let mut lines = Vec::new();
    let mut total = Totals::default();
    let mut any_distance_sport = false;
    let mut any_step = false;
    for segment in &workout.workout_segments {
        let sport =
            segment.sport_type.as_ref().and_then(|s| s.sport_type_key.as_deref()).unwrap_or(workout_sport);
        let training_speed = segment
            .extra
            .get("avgTrainingSpeed")
            .and_then(serde_json::Value::as_f64)
            .or(workout.avg_training_speed)
            .filter(|s| s.is_finite() && (0.1..=30.0).contains(s));
        let context = Context {
            sport,
            easy_speed: training_speed.unwrap_or_else(|| default_speed(sport)),
            distance_sport: is_distance_sport(sport),
        };
        any_distance_sport |= context.distance_sport;
        for step in &segment.workout_steps {
            any_step = true;
            let (line, totals) = step_preview(step, &context, 0);
            total.add(&totals);
            lines.push(if multisport { format!("{}: {line}", sport_name(sport)) } else { line });
        }
    }
    if !any_step {
        return Preview {
            text: "No steps".to_owned(),
            lines,
            distance_m: None,
            duration_s: None,
            estimated: false,
        };
    }
    let distance_m = (any_distance_sport && total.distance.is_finite()).then_some(total.distance);
    let duration_s = total.time.is_finite().then_some(total.time);
    let swim_only = workout_sport == "swimming";
    let mut totals = Vec::new();
    if let Some(meters) = distance_m {
        totals.push(format!("{}{}", approx(total.distance_exact), total_distance(meters, swim_only)));
    }
    if let Some(seconds) = duration_s {
        totals.push(format!("{}{}", approx(total.time_exact), clock(seconds)));
    }
    let text = format!("{} — total {}", lines.join(" / "), totals.join(" · "));
    Preview { text, lines, distance_m, duration_s, estimated: total.assumed }
}

/// What a segment's steps are estimated with.
struct Context<'a> {
    sport: &'a str,
    easy_speed: f64,
    distance_sport: bool,
}

/// Distance and time of a step (or a sum of steps), and how sure they are.
#[derive(Clone, Copy, Debug)]
struct Totals {
    distance: f64,
    time: f64,
    distance_exact: bool,
    time_exact: bool,
    assumed: bool,
}

impl Default for Totals {
    fn default() -> Self {
        Totals { distance: 0.0, time: 0.0, distance_exact: true, time_exact: true, assumed: false }
    }
}

impl Totals {
    fn add(&mut self, other: &Totals) {
        self.distance += other.distance;
        self.time += other.time;
        self.distance_exact &= other.distance_exact;
        self.time_exact &= other.time_exact;
        self.assumed |= other.assumed;
    }

    fn subtract(&mut self, other: &Totals) {
        self.distance = (self.distance - other.distance).max(0.0);
        self.time = (self.time - other.time).max(0.0);
    }

    fn times(mut self, n: f64) -> Totals {
        self.distance *= n;
        self.time *= n;
        self
    }
}

fn is_distance_sport(sport: &str) -> bool {
    !matches!(
        sport,
        "strength_training" | "cardio_training" | "yoga" | "pilates" | "hiit" | "mobility" | "other"
    )
}

fn sport_name(sport: &str) -> String {
    let words = sport.replace('_', " ");
    let mut chars = words.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => "Other".to_owned(),
    }
}

fn approx(exact: bool) -> &'static str {
    if exact { "" } else { "≈ " }
}

/// `h:mm:ss`, the form totals use.
fn clock(seconds: f64) -> String {
    let total = seconds.round().max(0.0) as u64;
    format!("{}:{:02}:{:02}", total / 3600, total % 3600 / 60, total % 60)
}

fn total_distance(meters: f64, swim: bool) -> String {
    if swim || meters < 1000.0 {
        format!("{} m", meters.round())
    } else {
        format!("{:.1} km", meters / 1000.0)
    }
}

fn step_distance(meters: f64, swim: bool) -> String {
    if swim || meters < 1000.0 {
        format!("{} m", format_number(meters))
    } else {
        format!("{} km", format_number(meters / 1000.0))
    }
}

/// A valid (finite, non-negative) number.
fn amount(value: Option<f64>) -> Option<f64> {
    value.filter(|v| v.is_finite() && *v >= 0.0)
}

fn step_preview(step: &WorkoutStep, context: &Context<'_>, depth: usize) -> (String, Totals) {
    if step.is_repeat() { repeat_preview(step, context, depth) } else { executable_preview(step, context) }
}

fn repeat_preview(step: &WorkoutStep, context: &Context<'_>, depth: usize) -> (String, Totals) {
    let count = step
        .number_of_iterations
        .map(|n| n as f64)
        .or(step.end_condition_value)
        .filter(|n| n.is_finite() && *n >= 0.0)
        .map(|n| n.round().min(10_000.0));
    let mut round = Totals::default();
    let mut parts = Vec::new();
    let mut last: Option<(Totals, bool)> = None;
    for child in &step.workout_steps {
        let (text, totals) = step_preview(child, context, depth + 1);
        round.add(&totals);
        parts.push(text);
        let rest = !child.is_repeat() && matches!(child.type_key(), Some("rest" | "recovery"));
        last = Some((totals, rest));
    }
    let n = count.unwrap_or(1.0);
    let mut totals = round.times(n);
    if count.is_none() {
        totals.assumed = true;
    }
    if step.skip_last_rest_step == Some(true)
        && n >= 1.0
        && let Some((rest_totals, true)) = last
    {
        totals.subtract(&rest_totals);
    }
    let shown = count.map_or_else(|| "?".to_owned(), format_number);
    let text = format!("Repeat {shown}×: {}", parts.join(" · "));
    (if depth > 0 { format!("({text})") } else { text }, totals)
}

fn executable_preview(step: &WorkoutStep, context: &Context<'_>) -> (String, Totals) {
    let type_id = step.step_type.as_ref().and_then(|t| t.step_type_id);
    let type_key = step
        .type_key()
        .map(str::to_owned)
        .or_else(|| ids::step_kind(None, type_id).map(|kind| ids::step_type(kind).1.to_owned()));
    let end_key = step.end_condition_key().map(str::to_owned).or_else(|| {
        step.end_condition
            .as_ref()
            .and_then(|e| e.condition_type_id)
            .and_then(ids::end_key_of_id)
            .map(str::to_owned)
    });
    let swim = context.sport == "swimming";
    let rest = type_key.as_deref() == Some("rest");
    let value = amount(step.end_condition_value);

    let target_speed = speed_of(step, false).or_else(|| speed_of(step, true));
    let (speed, speed_assumed) = match target_speed {
        Some(speed) => (speed, false),
        None => (context.easy_speed, true),
    };
    let mut totals = Totals::default();
    let end_text;
    match (end_key.as_deref(), value) {
        (Some("time"), Some(seconds)) => {
            end_text = format_duration(seconds);
            totals.time = seconds;
            if !rest {
                totals.distance = seconds * speed;
                totals.distance_exact = false;
                totals.assumed = speed_assumed;
            }
        }
        (Some("distance"), Some(meters)) if speed > 0.0 => {
            end_text = step_distance(meters, swim);
            totals.distance = meters;
            totals.time = meters / speed;
            totals.time_exact = false;
            totals.assumed = speed_assumed;
        }
        (Some("calories"), Some(kcal)) => {
            end_text = format!("{} kcal", format_number(kcal));
            let per_minute = match context.sport {
                "running" => 11.0,
                "cycling" | "swimming" => 9.0,
                _ => 7.0,
            };
            totals.time = kcal / per_minute * 60.0;
            totals.distance = if rest { 0.0 } else { totals.time * speed };
            (totals.time_exact, totals.distance_exact, totals.assumed) = (false, false, true);
        }
        (Some("reps"), Some(reps)) => {
            end_text = format!("{} reps", format_number(reps));
            totals.time = reps * 3.0;
            (totals.time_exact, totals.assumed) = (false, true);
        }
        (key, value) => {
            end_text = match (key, value) {
                (Some("lap.button"), _) => "until lap press".to_owned(),
                (Some("heart.rate"), Some(bpm)) => {
                    let sign = match step.end_condition_compare.as_deref() {
                        Some("lt") => "<",
                        Some("gt") => ">",
                        _ => "at",
                    };
                    format!("until HR {sign} {}", format_number(bpm))
                }
                _ => String::new(),
            };
            totals.time = match type_key.as_deref() {
                Some("warmup" | "cooldown") => 600.0,
                Some("recovery") => 120.0,
                Some("rest") => 60.0,
                _ => 300.0,
            };
            totals.distance = if rest { 0.0 } else { totals.time * speed };
            (totals.time_exact, totals.distance_exact, totals.assumed) = (false, false, true);
        }
    }
    if !context.distance_sport {
        // No distance to speak of: neither counted nor a reason to call the total an estimate.
        totals.distance = 0.0;
        totals.distance_exact = true;
        if end_key.as_deref() == Some("time") {
            totals.assumed = false;
        }
    }

    let mut text = label(type_key.as_deref(), context.sport).to_owned();
    for piece in [end_text, swim_kit(step)] {
        if !piece.is_empty() {
            text.push(' ');
            text.push_str(&piece);
        }
    }
    let primary = target_text(step, false, context);
    let secondary = target_text(step, true, context);
    match (primary, secondary) {
        (Some(p), Some(s)) => text.push_str(&format!(" @ {p} + {s}")),
        (Some(one), None) | (None, Some(one)) => text.push_str(&format!(" @ {one}")),
        (None, None) => {}
    }
    (text, totals)
}

fn label(type_key: Option<&str>, sport: &str) -> &'static str {
    match type_key {
        Some("warmup") => "Warm-up",
        Some("cooldown") => "Cool-down",
        Some("recovery") => "Recover",
        Some("rest") => "Rest",
        Some("other") => "Other",
        Some("main") => "Main",
        Some("interval") => match sport {
            "running" => "Run",
            "cycling" => "Bike",
            "swimming" => "Swim",
            _ => "Interval",
        },
        _ => "Step",
    }
}

/// Stroke (unless "any") and equipment of a swim step, e.g. `fly with kickboard`.
fn swim_kit(step: &WorkoutStep) -> String {
    let stroke = step.stroke_type.as_ref().and_then(|s| {
        s.stroke_type_key
            .clone()
            .or_else(|| s.stroke_type_id.and_then(ids::stroke_of_id).map(|k| k.as_str().to_owned()))
    });
    let equipment = step.equipment_type.as_ref().and_then(|e| {
        e.equipment_type_key
            .clone()
            .or_else(|| e.equipment_type_id.and_then(ids::equipment_of_id).map(|k| k.as_str().to_owned()))
    });
    let mut pieces = Vec::new();
    if let Some(stroke) = stroke.filter(|s| s != "any_stroke" && s != "mixed") {
        pieces.push(stroke.replace('_', " "));
    }
    if let Some(equipment) = equipment {
        pieces.push(format!("with {}", equipment.replace('_', " ")));
    }
    pieces.join(" ")
}

/// The target key, value one and two, and zone of the primary or secondary target.
fn target_parts(
    step: &WorkoutStep,
    secondary: bool,
) -> (Option<String>, Option<f64>, Option<f64>, Option<i64>) {
    let (kind, one, two, zone) = if secondary {
        (
            &step.secondary_target_type,
            step.secondary_target_value_one,
            step.secondary_target_value_two,
            step.secondary_zone_number,
        )
    } else {
        (&step.target_type, step.target_value_one, step.target_value_two, step.zone_number)
    };
    let key = kind.as_ref().and_then(|k| {
        k.workout_target_type_key
            .clone()
            .or_else(|| k.workout_target_type_id.and_then(ids::target_key_of_id).map(str::to_owned))
    });
    let key = key.map(|k| if k == "cadence.zone" { "cadence".to_owned() } else { k });
    (key, amount(one), amount(two), zone)
}

/// The middle speed (m/s) of a pace or speed target.
fn speed_of(step: &WorkoutStep, secondary: bool) -> Option<f64> {
    let (key, one, two, _) = target_parts(step, secondary);
    match key.as_deref() {
        Some("pace.zone") => {
            // The middle pace, not the middle speed: time over a distance is linear in pace.
            let paces: Vec<f64> =
                [one, two].into_iter().flatten().filter(|s| *s > 0.0).map(|s| 1.0 / s).collect();
            (!paces.is_empty()).then(|| paces.len() as f64 / paces.iter().sum::<f64>())
        }
        Some("speed.zone") => {
            let speeds: Vec<f64> = [one, two].into_iter().flatten().filter(|s| *s > 0.0).collect();
            (!speeds.is_empty()).then(|| speeds.iter().sum::<f64>() / speeds.len() as f64)
        }
        _ => None,
    }
}

fn target_text(step: &WorkoutStep, secondary: bool, context: &Context<'_>) -> Option<String> {
    let (key, one, two, zone) = target_parts(step, secondary);
    let range = |unit: &str| -> Option<String> {
        let (low, high) = low_high(one, two)?;
        let numbers = if low == high {
            format_number(low)
        } else {
            format!("{}-{}", format_number(low), format_number(high))
        };
        Some(if unit.is_empty() { numbers } else { format!("{numbers} {unit}") })
    };
    match key.as_deref()? {
        "pace.zone" => {
            let (slow_speed, fast_speed) = low_high(one, two)?;
            let per = if context.sport == "swimming" { 100.0 } else { 1000.0 };
            if slow_speed <= 0.0 {
                return None;
            }
            let (fast, slow) = (pace_text(per / fast_speed), pace_text(per / slow_speed));
            let paces = if fast == slow { fast } else { format!("{fast}-{slow}") };
            Some(if per == 100.0 { format!("{paces}/100 m") } else { paces })
        }
        "speed.zone" => {
            let (low, high) = low_high(one, two)?;
            let kmh = |v: f64| format!("{:.1}", v * 3.6);
            Some(if low == high {
                format!("{} km/h", kmh(low))
            } else {
                format!("{}-{} km/h", kmh(low), kmh(high))
            })
        }
        "heart.rate.zone" => match zone {
            Some(z) => Some(format!("HR zone {z}")),
            None => range("bpm").map(|r| format!("HR {r}")),
        },
        "power.zone" => match zone {
            Some(z) => Some(format!("power zone {z}")),
            None => range("W"),
        },
        "cadence" => range(if context.sport == "running" { "spm" } else { "rpm" }),
        _ => None,
    }
}

/// The two bounds in order (a single bound stands for both).
fn low_high(one: Option<f64>, two: Option<f64>) -> Option<(f64, f64)> {
    match (one, two) {
        (Some(a), Some(b)) => Some((a.min(b), a.max(b))),
        (Some(a), None) | (None, Some(a)) => Some((a, a)),
        (None, None) => None,
    }
}

/// `4'55"` for seconds per unit, rounded to the second.
fn pace_text(seconds: f64) -> String {
    if !seconds.is_finite() {
        return "-".to_owned();
    }
    let total = seconds.round().max(0.0) as u64;
    format!("{}'{:02}\"", total / 60, total % 60)
}
