//! A Garmin workout in words, once: a plain-words preview of any Garmin workout (ours before
//! sending, or one read back from Garmin) with its steps as data and estimated totals, e.g.
//! `Warm-up 10:00 / Repeat 4×: Run 800 m @ 4'55"-5'05"/km · Recover 2:00 / Cool-down 10:00 — total
//! ≈ 7.2 km · ≈ 0:44:00`. The write tools, the app and `get_workouts` all show workouts through it;
//! numbers are written by the `display` crate.
//!
//! Words: interval steps are named by sport (Run, Ride, Swim, Walk, or the exercise of a strength
//! step), ends in words (`10:00`, `800 m`, `until lap button`, `until HR below 150 bpm`), targets
//! with their units (`4'55"-5'05"/km`, `1'43"-1'47"/100 m`, `25.2-30.6 km/h`, `HR zone 2`,
//! `120-140 bpm`, `200-250 W`, `85-95 rpm`, `175-185 spm`), pace targets fast to slow whatever
//! order Garmin stored them in; a second target and a weight follow the first after a comma.
//!
//! Estimates: a step's time comes from its distance and its pace or speed target (the middle of
//! the range), its distance from its time the same way. A step with neither a pace target nor a
//! fixed amount of both is estimated with assumptions, and the preview says so (`estimated`):
//! open steps (lap button, heart-rate end) count as a typical length for their kind (warm-up 10
//! min, interval 5 min, recovery 2 min, rest 1 min); steps without a pace move at the workout's
//! `avgTrainingSpeed`, or at an easy pace for the sport (run 7:00/km, ride 25 km/h, swim 2:00/100 m);
//! rests (by time) cover no distance.
//!
//! Exercise sports (strength, cardio, HIIT, yoga, pilates, mobility) read as sets: a step is its
//! exercise by Garmin's display name with its reps or time and weight in the unit Garmin stored
//! (`Barbell bench press 8 reps @ 60 kg`), a repeat `3×` before its steps, and the totals are the
//! sets, reps and volume (reps × weight, in kg unless every weight is in pounds):
//! `3× Barbell bench press 8 reps @ 60 kg · rest 1:30 — 3 sets, 24 reps, 1,440 kg`. A HIIT repeat
//! until a time is up reads `Repeat until 20:00`. [`preview_in`] words the same in Chinese.

use display::{capitalise, words};
use serde::{Deserialize, Serialize};

use super::{ids, preview_zh};
use crate::exercises;
use crate::models::workouts::{Workout, WorkoutStep};

/// The language a preview is worded in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// English.
    #[default]
    En,
    /// Simplified Chinese.
    Zh,
}

/// Sets, reps and volume of an exercise workout.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StrengthTotals {
    /// Exercise steps done, repeats counted.
    pub sets: u64,
    /// Repetitions, repeats counted.
    pub reps: u64,
    /// Reps × weight, kg (0 without weights).
    pub volume_kg: f64,
    /// Whether every weight was given in pounds (the words then say lb).
    pub pounds: bool,
}

/// A workout in plain words with its steps and estimated totals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Preview {
    /// The whole workout on one line: the steps joined by " / ", then " — total ≈ 7.2 km · ≈ 0:44:00".
    pub text: String,
    /// One line per top-level step (a repeat with everything inside it on one line); in a
    /// multisport workout each starts with its segment's sport (`Cycling: Ride 10:00`).
    pub lines: Vec<String>,
    /// The steps in order, a repeat holding its own; empty when there are none.
    pub steps: Vec<PreviewStep>,
    /// The totals in words, as `text` ends with them: `≈ 7.2 km · ≈ 0:44:00` (metres in swims and
    /// under 1 km; `≈` only where a total leans on an estimate); empty when there are no steps.
    pub total: String,
    /// Estimated total distance in metres; `None` for sports without distance (strength…) or no steps.
    pub distance_m: Option<f64>,
    /// Estimated total time in seconds; `None` when there are no steps.
    pub duration_s: Option<f64>,
    /// Whether the totals lean on assumptions (an easy pace, a typical length for an open step)
    /// rather than only on the steps' own distances, times and pace targets.
    pub estimated: bool,
    /// Exercise workouts: sets, reps and volume (what `total` says for them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strength: Option<StrengthTotals>,
}

impl Preview {
    /// The steps on one line without the totals (`lines` joined by " / "), or `No steps`.
    pub fn outline(&self) -> String {
        if self.lines.is_empty() { "No steps".to_owned() } else { self.lines.join(" / ") }
    }
}

/// One step of a workout, as data and in words.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PreviewStep {
    /// Garmin's step type in words: `warmup`, `interval`, `recovery`, `rest`, `cooldown`,
    /// `repeat`, `other`…; `step` when Garmin gave none.
    pub kind: String,
    /// The sport of its segment (Garmin's key, e.g. `running`).
    pub sport: String,
    /// The step in words (`Run 800 m @ 4'55"-5'05"/km`); a repeat's own words (`Repeat 4×`).
    pub text: String,
    /// How it ends.
    pub end: Option<PreviewEnd>,
    /// The first target.
    pub target: Option<PreviewTarget>,
    /// The second target, same forms.
    pub secondary_target: Option<PreviewTarget>,
    /// Swim stroke in words (`freestyle`, `any stroke`).
    pub stroke: Option<String>,
    /// Swim equipment in words (`pull buoy`).
    pub equipment: Option<String>,
    /// Exercise in words (`Barbell back squat`, `杠铃后蹲`).
    pub exercise: Option<String>,
    /// Weight to lift, kg.
    pub weight_kg: Option<f64>,
    /// Weight in the unit Garmin stored it in (`60 kg`, `135 lb`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight: Option<String>,
    /// The note shown on the watch.
    pub note: Option<String>,
    /// Times to repeat (repeat groups; `None` when Garmin gave no count).
    pub repeat: Option<u64>,
    /// The repeated steps (repeat groups).
    pub steps: Vec<PreviewStep>,
}

/// How a step ends, as data and in words.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PreviewEnd {
    /// Garmin's end condition: `time` (s), `distance` (m), `lap.button`, `heart.rate` (bpm),
    /// `calories`, `reps`, `power` (W), `iterations`, `fixed.rest` (s)…
    pub kind: String,
    /// Its value in Garmin's unit for the kind, when it has one.
    pub value: Option<f64>,
    /// In words: `10:00`, `800 m`, `until lap button`, `until HR below 150 bpm`, `50 kcal`.
    pub text: String,
}

/// A target, as data and in words.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PreviewTarget {
    /// Garmin's target type: `pace.zone` and `speed.zone` (m/s), `heart.rate.zone` (bpm),
    /// `power.zone` (W), `cadence`…
    pub kind: String,
    /// The lower bound in Garmin's unit (for paces: the slower speed).
    pub low: Option<f64>,
    /// The upper bound in Garmin's unit.
    pub high: Option<f64>,
    /// The zone number, when the target is a zone.
    pub zone: Option<i64>,
    /// In words: `4'55"-5'05"/km`, `HR zone 2`, `120-140 bpm`, `200-250 W`, `85-95 rpm`.
    pub text: String,
}

/// The easy speed (m/s) assumed for steps without a pace or speed target, by Garmin sport key.
pub(crate) fn default_speed(sport_key: &str) -> f64 {
    match sport_key {
        "cycling" => 25.0 / 3.6,
        "swimming" => 100.0 / 120.0,
        _ => 1000.0 / 420.0,
    }
}

/// Describes `workout` in plain English words and estimates its distance and time.
pub fn preview(workout: &Workout) -> Preview {
    preview_in(workout, Language::En)
}

/// Describes `workout` in plain words in `lang` and estimates its distance and time.
pub fn preview_in(workout: &Workout, lang: Language) -> Preview {
    let workout_sport = workout.sport_key().unwrap_or("other");
    let multisport = workout.workout_segments.len() > 1;
    let mut lines = Vec::new();
    let mut steps = Vec::new();
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
            lang,
        };
        any_distance_sport |= context.distance_sport;
        for step in &segment.workout_steps {
            any_step = true;
            let (shown, totals) = step_preview(step, &context);
            total.add(&totals);
            let line = outline_of(&shown, 0);
            lines.push(if multisport { format!("{}: {line}", sport_name(sport, lang)) } else { line });
            steps.push(shown);
        }
    }
    if !any_step {
        return Preview {
            text: preview_zh::phrase(lang, "No steps"),
            total: String::new(),
            lines,
            steps,
            distance_m: None,
            duration_s: None,
            estimated: false,
            strength: None,
        };
    }
    let distance_m = (any_distance_sport && total.distance.is_finite()).then_some(total.distance);
    let duration_s = total.time.is_finite().then_some(total.time);
    let strength = (!any_distance_sport).then(|| strength_totals(&steps)).filter(|t| t.sets > 0);
    let (text, total_words) = match strength.as_ref().filter(|t| t.reps > 0) {
        Some(sets) => {
            let words = preview_zh::sets_words(lang, sets);
            (format!("{} — {words}", lines.join(" / ")), words)
        }
        None => {
            let words = totals_words(&total, distance_m, duration_s, workout_sport == "swimming");
            (format!("{} — {} {words}", lines.join(" / "), preview_zh::phrase(lang, "total")), words)
        }
    };
    Preview {
        text,
        total: total_words,
        lines,
        steps,
        distance_m,
        duration_s,
        estimated: total.assumed,
        strength,
    }
}

/// The totals in words: `≈ 7.2 km · ≈ 0:44:00` (metres in swims and under 1 km; `≈` only where a
/// total leans on an estimate).
fn totals_words(total: &Totals, distance_m: Option<f64>, duration_s: Option<f64>, swim_only: bool) -> String {
    let mut totals = Vec::new();
    if let Some(meters) = distance_m {
        let shown = display::distance_rounded(meters, swim_only);
        totals.push(format!("{}{shown}", approx(total.distance_exact)));
    }
    if let Some(seconds) = duration_s {
        totals.push(format!("{}{}", approx(total.time_exact), display::duration_hms(seconds)));
    }
    totals.join(" · ")
}

/// Sets, reps and volume of exercise steps, repeats counted (time-bounded repeats count once).
fn strength_totals(steps: &[PreviewStep]) -> StrengthTotals {
    fn walk(steps: &[PreviewStep], times: f64, out: &mut StrengthTotals, units: &mut (bool, bool)) {
        for s in steps {
            if s.kind == "repeat" {
                walk(&s.steps, times * s.repeat.map_or(1.0, |n| n as f64), out, units);
                continue;
            }
            if s.exercise.is_none() {
                continue;
            }
            out.sets += times as u64;
            let reps = s.end.as_ref().filter(|e| e.kind == "reps").and_then(|e| e.value).unwrap_or(0.0);
            out.reps += (reps * times) as u64;
            if let Some(kg) = s.weight_kg {
                out.volume_kg += kg * reps * times;
                let pounds = s.weight.as_deref().is_some_and(|w| w.ends_with("lb"));
                units.0 |= pounds;
                units.1 |= !pounds;
            }
        }
    }
    let mut out = StrengthTotals::default();
    let mut units = (false, false);
    walk(steps, 1.0, &mut out, &mut units);
    out.pounds = units.0 && !units.1;
    out
}

/// What a segment's steps are estimated and worded with.
struct Context<'a> {
    sport: &'a str,
    easy_speed: f64,
    distance_sport: bool,
    lang: Language,
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

fn sport_name(sport: &str, lang: Language) -> String {
    if lang == Language::Zh {
        return preview_zh::sport(sport);
    }
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

/// A valid (finite, non-negative) number.
fn amount(value: Option<f64>) -> Option<f64> {
    value.filter(|v| v.is_finite() && *v >= 0.0)
}

fn step_preview(step: &WorkoutStep, context: &Context<'_>) -> (PreviewStep, Totals) {
    if step.is_repeat() { repeat_preview(step, context) } else { executable_preview(step, context) }
}

/// One step on a line: a repeat reads `Repeat 4×: a · b` with its steps (`3× a · b` in exercise
/// sports, where a rest inside reads `rest 1:30`), bracketed when nested.
fn outline_of(step: &PreviewStep, depth: usize) -> String {
    let sets = !is_distance_sport(&step.sport);
    if step.kind != "repeat" {
        if sets && depth > 0 && matches!(step.kind.as_str(), "rest" | "recovery") {
            let mut chars = step.text.chars();
            return chars.next().map_or_else(String::new, |c| c.to_lowercase().chain(chars).collect());
        }
        return step.text.clone();
    }
    let inner = step.steps.iter().map(|c| outline_of(c, depth + 1)).collect::<Vec<_>>().join(" · ");
    let group = if sets && step.repeat.is_some() {
        format!("{} {inner}", step.text)
    } else {
        format!("{}: {inner}", step.text)
    };
    if depth == 0 { group } else { format!("({group})") }
}

fn note_of(step: &WorkoutStep) -> Option<String> {
    step.description.clone().filter(|d| !d.trim().is_empty())
}

fn repeat_preview(step: &WorkoutStep, context: &Context<'_>) -> (PreviewStep, Totals) {
    let timed = step.end_condition_key() == Some("time")
        || step.end_condition.as_ref().and_then(|e| e.condition_type_id) == Some(ids::END_TIME.0);
    let until = amount(step.end_condition_value).filter(|_| timed && step.number_of_iterations.is_none());
    let count = step
        .number_of_iterations
        .map(|n| n as f64)
        .or(step.end_condition_value)
        .filter(|n| n.is_finite() && *n >= 0.0 && until.is_none())
        .map(|n| n.round().min(10_000.0));
    let mut round = Totals::default();
    let mut children = Vec::new();
    let mut last: Option<(Totals, bool)> = None;
    for child in &step.workout_steps {
        let (shown, totals) = step_preview(child, context);
        round.add(&totals);
        children.push(shown);
        let rest = !child.is_repeat() && matches!(child.type_key(), Some("rest" | "recovery"));
        last = Some((totals, rest));
    }
    let n = count.unwrap_or(1.0);
    let mut totals = round.times(n);
    if let Some(seconds) = until {
        // Rounds go on until the time is up: the time is known, the distance scales with it.
        if round.time > 0.0 {
            totals = round.times(seconds / round.time);
        }
        totals.time = seconds;
        totals.time_exact = true;
    } else if count.is_none() {
        totals.assumed = true;
    }
    if step.skip_last_rest_step == Some(true)
        && n >= 1.0
        && let Some((rest_totals, true)) = last
    {
        totals.subtract(&rest_totals);
    }
    let shown = count.map_or_else(|| "?".to_owned(), display::number);
    let text = match until {
        Some(seconds) => preview_zh::repeat_until(context.lang, &display::duration(seconds)),
        None if !context.distance_sport && count.is_some() => format!("{shown}×"),
        None => preview_zh::repeat_times(context.lang, &shown),
    };
    let preview = PreviewStep {
        kind: "repeat".to_owned(),
        sport: context.sport.to_owned(),
        text,
        end: None,
        target: None,
        secondary_target: None,
        stroke: None,
        equipment: None,
        exercise: None,
        weight_kg: None,
        weight: None,
        note: note_of(step),
        repeat: count.map(|n| n as u64),
        steps: children,
    };
    (preview, totals)
}

fn executable_preview(step: &WorkoutStep, context: &Context<'_>) -> (PreviewStep, Totals) {
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
    let totals = estimate(step, type_key.as_deref(), end_key.as_deref(), context);
    let lang = context.lang;
    let end = end_key.as_deref().and_then(|key| {
        let text = end_words(key, step, context.sport)?;
        let text = if lang == Language::Zh { preview_zh::end(&text) } else { text };
        Some(PreviewEnd { kind: key.to_owned(), value: amount(step.end_condition_value), text })
    });
    let in_lang =
        |t: Option<PreviewTarget>| {
            t.map(|t| {
                if lang == Language::Zh {
                    PreviewTarget { text: preview_zh::target(&t.text), ..t }
                } else {
                    t
                }
            })
        };
    let target = in_lang(target_of(step, false, context.sport));
    let secondary_target = in_lang(target_of(step, true, context.sport));
    let (stroke_key, stroke, equipment) = swim_kit(step);
    let (stroke, equipment) = if lang == Language::Zh {
        (stroke.map(|s| preview_zh::swim(&s)), equipment.map(|e| preview_zh::swim(&e)))
    } else {
        (stroke, equipment)
    };
    let exercise = exercise_words(step, lang);
    let (weight_kg, weight) = weight_of(step);
    let kind = type_key.as_deref().map_or_else(|| "step".to_owned(), words);

    // "Run 800 m @ 4'55"-5'05"/km", "Warm-up until lap button", "Barbell back squat 10 reps @ 60 kg".
    let named = if lang == Language::Zh {
        preview_zh::label(&kind, context.sport)
    } else {
        label(&kind, context.sport)
    };
    let mut text = match (kind.as_str(), &exercise) {
        ("interval", Some(exercise)) => capitalise(exercise),
        (_, Some(exercise)) => format!("{named}: {exercise}"),
        _ => named,
    };
    let shown_stroke =
        stroke.as_deref().filter(|_| !matches!(stroke_key.as_deref(), Some("any_stroke" | "mixed")));
    for piece in [end.as_ref().map(|e| e.text.as_str()), shown_stroke].into_iter().flatten() {
        text.push(' ');
        text.push_str(piece);
    }
    if let Some(equipment) = &equipment {
        text.push_str(&preview_zh::with_equipment(lang, equipment));
    }
    let targets: Vec<&str> = [
        target.as_ref().map(|t| t.text.as_str()),
        secondary_target.as_ref().map(|t| t.text.as_str()),
        weight.as_deref(),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !targets.is_empty() {
        text.push_str(&format!(" @ {}", targets.join(", ")));
    }
    let preview = PreviewStep {
        kind,
        sport: context.sport.to_owned(),
        text,
        end,
        target,
        secondary_target,
        stroke,
        equipment,
        exercise,
        weight_kg,
        weight,
        note: note_of(step),
        repeat: None,
        steps: Vec::new(),
    };
    (preview, totals)
}

/// The step's exercise in words: Garmin's display name from the catalogue (`Barbell bench press`,
/// `Shoulder press (any)` for a category's generic form), or the key in words when unknown.
fn exercise_words(step: &WorkoutStep, lang: Language) -> Option<String> {
    let zh = lang == Language::Zh;
    let category = step.category.as_deref().filter(|c| !c.is_empty());
    let name = step.exercise_name.as_deref().filter(|n| !n.is_empty());
    match (category, name) {
        (Some(c), Some(n)) => {
            Some(exercises::find(c, n).map_or_else(|| capitalise(&words(n)), |e| e.display(zh)))
        }
        (Some(c), None) => Some(
            exercises::category(c)
                .map_or_else(|| capitalise(&words(c)), |cat| exercises::Resolved::Generic(cat).display(zh)),
        ),
        (None, Some(n)) => Some(capitalise(&words(n))),
        (None, None) => None,
    }
}

/// The weight in kg and in words in its own unit (`60 kg`, `135 lb`): Garmin's `weightValue` is in
/// the unit of `weightUnit` (pounds by id 9 or key `pound`; kilograms otherwise).
fn weight_of(step: &WorkoutStep) -> (Option<f64>, Option<String>) {
    let Some(value) = step.weight_value.filter(|w| w.is_finite() && *w > 0.0) else { return (None, None) };
    let unit = step.weight_unit.as_ref();
    let pounds =
        unit.is_some_and(|u| u.unit_key.as_deref() == Some("pound") || u.unit_id == Some(ids::UNIT_POUND.0));
    if pounds {
        (Some(value * ids::UNIT_POUND.2 / 1000.0), Some(format!("{} lb", display::number(value))))
    } else {
        (Some(value), Some(format!("{} kg", display::number(value))))
    }
}

/// The distance and time one executable step adds, and how sure they are.
fn estimate(
    step: &WorkoutStep,
    type_key: Option<&str>,
    end_key: Option<&str>,
    context: &Context<'_>,
) -> Totals {
    let rest = type_key == Some("rest");
    let value = amount(step.end_condition_value);
    let target_speed = speed_of(step, false).or_else(|| speed_of(step, true));
    let (speed, speed_assumed) = match target_speed {
        Some(speed) => (speed, false),
        None => (context.easy_speed, true),
    };
    let mut totals = Totals::default();
    match (end_key, value) {
        (Some("time"), Some(seconds)) => {
            totals.time = seconds;
            if !rest {
                totals.distance = seconds * speed;
                totals.distance_exact = false;
                totals.assumed = speed_assumed;
            }
        }
        (Some("distance"), Some(meters)) if speed > 0.0 => {
            totals.distance = meters;
            totals.time = meters / speed;
            totals.time_exact = false;
            totals.assumed = speed_assumed;
        }
        (Some("calories"), Some(kcal)) => {
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
            totals.time = reps * 3.0;
            (totals.time_exact, totals.assumed) = (false, true);
        }
        _ => {
            totals.time = match type_key {
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
        if end_key == Some("time") {
            totals.assumed = false;
        }
    }
    totals
}

/// The end condition in words (`10:00`, `800 m`, `until lap button`, `until HR below 150 bpm`);
/// `None` when a kind that needs a value has none.
fn end_words(key: &str, step: &WorkoutStep, sport: &str) -> Option<String> {
    let value = amount(step.end_condition_value);
    let number = || value.map(display::number);
    Some(match key {
        "time" => display::duration(value?),
        "distance" => display::distance(value?, is_swim(sport)),
        "calories" => format!("{} kcal", number()?),
        "lap.button" => "until lap button".to_owned(),
        "heart.rate" => {
            let direction = match step.end_condition_compare.as_deref() {
                Some("gt") => "above",
                Some("lt") => "below",
                _ => "at",
            };
            format!("until HR {direction} {} bpm", number()?)
        }
        "power" => format!("until power {} W", number()?),
        "reps" => format!("{} reps", number()?),
        "iterations" => format!("{}×", number()?),
        "fixed.rest" => match value {
            Some(v) => format!("fixed rest {}", display::duration(v)),
            None => "fixed rest".to_owned(),
        },
        other => match number() {
            Some(n) => format!("{} {n}", words(other)),
            None => words(other),
        },
    })
}

fn is_swim(sport: &str) -> bool {
    sport.contains("swim")
}

/// The words for a step of `kind` (already in words) in `sport`: intervals by sport (Run, Ride,
/// Swim, Walk), the rest by kind.
fn label(kind: &str, sport: &str) -> String {
    match kind {
        "warmup" => "Warm-up".to_owned(),
        "cooldown" => "Cool-down".to_owned(),
        "recovery" => "Recover".to_owned(),
        "interval" => match sport {
            "running" | "trail_running" | "treadmill_running" => "Run".to_owned(),
            "cycling" | "road_biking" | "indoor_cycling" | "mountain_biking" => "Ride".to_owned(),
            "swimming" | "lap_swimming" | "open_water_swimming" => "Swim".to_owned(),
            "walking" | "hiking" => "Walk".to_owned(),
            _ => "Interval".to_owned(),
        },
        other => capitalise(other),
    }
}

/// A swim step's stroke key, stroke in words and equipment in words (`fly` → `butterfly`,
/// `pull_buoy` → `pull buoy`), by key or by Garmin's id.
fn swim_kit(step: &WorkoutStep) -> (Option<String>, Option<String>, Option<String>) {
    let stroke_key = step
        .stroke_type
        .as_ref()
        .and_then(|s| {
            s.stroke_type_key
                .clone()
                .or_else(|| s.stroke_type_id.and_then(ids::stroke_of_id).map(|k| k.as_str().to_owned()))
        })
        .filter(|k| !k.is_empty() && k != "none");
    let equipment = step
        .equipment_type
        .as_ref()
        .and_then(|e| {
            e.equipment_type_key
                .clone()
                .or_else(|| e.equipment_type_id.and_then(ids::equipment_of_id).map(|k| k.as_str().to_owned()))
        })
        .filter(|k| !k.is_empty() && k != "none")
        .map(|k| words(&k));
    let stroke = stroke_key.as_deref().map(|key| match key {
        "any_stroke" => "any stroke".to_owned(),
        "free" => "freestyle".to_owned(),
        "fly" => "butterfly".to_owned(),
        "individual_medley" => "IM".to_owned(),
        other => words(other),
    });
    (stroke_key, stroke, equipment)
}

/// The target key, value one and two (positive ones only), and zone of the primary or secondary
/// target.
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
    let positive = |v: Option<f64>| v.filter(|v| v.is_finite() && *v > 0.0);
    (key, positive(one), positive(two), zone.filter(|z| *z > 0))
}

/// The middle speed (m/s) of a pace or speed target.
///
/// Each bound is first read in the unit people set it in (seconds per km, km/h) to a millionth:
/// Garmin stores the bounds as m/s, and the same bound can come back a bit or two off what was sent
/// (1.0638297872340425 m/s returns as …423). Unrounded, that noise could move an estimate that
/// lands on a half (a 6,276 s swim at 1:36/100 m is 6,537.5 m) to the other side, and a workout's
/// preview would change between proposing it and reading it back.
fn speed_of(step: &WorkoutStep, secondary: bool) -> Option<f64> {
    let (key, one, two, _) = target_parts(step, secondary);
    let settled = |value: f64| (value * 1e6).round() / 1e6;
    match key.as_deref() {
        Some("pace.zone") => {
            // The middle pace, not the middle speed: time over a distance is linear in pace.
            let paces: Vec<f64> = [one, two].into_iter().flatten().map(|s| settled(1000.0 / s)).collect();
            (!paces.is_empty()).then(|| 1000.0 * paces.len() as f64 / paces.iter().sum::<f64>())
        }
        Some("speed.zone") => {
            let speeds: Vec<f64> = [one, two].into_iter().flatten().map(|s| settled(s * 3.6)).collect();
            (!speeds.is_empty()).then(|| speeds.iter().sum::<f64>() / speeds.len() as f64 / 3.6)
        }
        _ => None,
    }
}

/// A target as data and words: pace ranges fast-slow per km (per 100 m in swims), speed, HR zone
/// or bpm, power zone or watts, cadence; `None` for no target.
fn target_of(step: &WorkoutStep, secondary: bool, sport: &str) -> Option<PreviewTarget> {
    let (key, one, two, zone) = target_parts(step, secondary);
    let key = key?;
    let (low, high) = low_high(one, two).unzip();
    let text = target_words(&key, low, high, zone, sport)?;
    Some(PreviewTarget { kind: key, low, high, zone, text })
}

fn target_words(
    key: &str,
    low: Option<f64>,
    high: Option<f64>,
    zone: Option<i64>,
    sport: &str,
) -> Option<String> {
    let range = |f: &dyn Fn(f64) -> String, unit: &str| -> Option<String> {
        match (low, high) {
            (Some(l), Some(h)) if f(l) != f(h) => Some(format!("{}-{}{unit}", f(l), f(h))),
            (Some(l), _) => Some(format!("{}{unit}", f(l))),
            _ => None,
        }
    };
    let number = |v: f64| display::number(v);
    Some(match key {
        "no.target" => return None,
        "pace.zone" => {
            // m/s: the higher speed is the faster pace; written fast-slow.
            let swim = is_swim(sport);
            let pace = |v: f64| if swim { display::pace_per_100m(v) } else { display::pace_per_km(v) };
            let unit = if swim { "/100 m" } else { "/km" };
            match (high.and_then(pace), low.and_then(pace)) {
                (Some(fast), Some(slow)) if fast != slow => format!("{fast}-{slow}{unit}"),
                (Some(fast), _) => format!("{fast}{unit}"),
                _ => return None,
            }
        }
        "speed.zone" => range(&display::kmh_text, " km/h")?,
        "heart.rate.zone" => match zone {
            Some(z) => format!("HR zone {z}"),
            None => range(&number, " bpm")?,
        },
        "power.zone" => match zone {
            Some(z) => format!("power zone {z}"),
            None => range(&number, " W")?,
        },
        "cadence" => {
            let unit = if sport.contains("cycl") || sport.contains("bik") { " rpm" } else { " spm" };
            range(&number, unit)?
        }
        other => match zone {
            Some(z) => format!("{} {z}", words(other)),
            None => match range(&number, "") {
                Some(r) => format!("{} {r}", words(other)),
                None => words(other),
            },
        },
    })
}

/// The two bounds in order (a single bound stands for both).
fn low_high(one: Option<f64>, two: Option<f64>) -> Option<(f64, f64)> {
    match (one, two) {
        (Some(a), Some(b)) => Some((a.min(b), a.max(b))),
        (Some(a), None) | (None, Some(a)) => Some((a, a)),
        (None, None) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::workouts::TargetType;
    use serde_json::{Value, json};

    fn step(value: Value) -> WorkoutStep {
        serde_json::from_value(value).unwrap()
    }

    fn target(
        kind: &TargetType,
        one: Option<f64>,
        two: Option<f64>,
        zone: Option<i64>,
        sport: &str,
    ) -> Option<String> {
        let s = WorkoutStep {
            target_type: Some(kind.clone()),
            target_value_one: one,
            target_value_two: two,
            zone_number: zone,
            ..WorkoutStep::default()
        };
        target_of(&s, false, sport).map(|t| t.text)
    }

    #[test]
    fn the_totals_in_words_are_what_the_text_ends_with_in_metres_for_swims_and_short_workouts() {
        let of = |spec: Value| preview(&crate::workout_spec::parse_spec(&spec).unwrap().to_garmin());
        let swim = of(json!({"name": "s", "sport": "swim", "steps": [
            {"type": "interval", "distance_m": 1500, "pace": "2:00"}]}));
        assert_eq!(swim.total, "1500 m · ≈ 0:30:00");
        let short = of(json!({"name": "r", "sport": "run", "steps": [
            {"type": "interval", "distance_m": 800, "pace": "5:00"}]}));
        assert_eq!(short.total, "800 m · ≈ 0:04:00");
        let long = of(json!({"name": "r", "sport": "run", "steps": [
            {"type": "interval", "duration_min": 30}]}));
        assert_eq!(long.total, "≈ 4.3 km · 0:30:00");
        for shown in [&swim, &short, &long] {
            assert!(shown.text.ends_with(&format!(" — total {}", shown.total)), "{}", shown.text);
        }
        let empty = preview(&Workout::default());
        assert_eq!((empty.text.as_str(), empty.total.as_str()), ("No steps", ""));
    }

    #[test]
    fn pace_targets_read_fast_to_slow_whatever_order_garmin_stored() {
        let pace = TargetType {
            workout_target_type_id: Some(6),
            workout_target_type_key: Some("pace.zone".into()),
            display_order: None,
        };
        let fast_first = target(&pace, Some(1000.0 / 295.0), Some(1000.0 / 305.0), None, "running");
        let slow_first = target(&pace, Some(1000.0 / 305.0), Some(1000.0 / 295.0), None, "running");
        assert_eq!(fast_first.as_deref(), Some("4'55\"-5'05\"/km"));
        assert_eq!(slow_first, fast_first);
        let swim = target(&pace, Some(1.0), Some(1.0), None, "swimming");
        assert_eq!(swim.as_deref(), Some("1'40\"/100 m"));
    }

    #[test]
    fn heart_rate_targets_are_a_zone_or_a_bpm_range() {
        let hr =
            TargetType { workout_target_type_key: Some("heart.rate.zone".into()), ..TargetType::default() };
        assert_eq!(target(&hr, None, None, Some(2), "running").as_deref(), Some("HR zone 2"));
        assert_eq!(target(&hr, Some(140.0), Some(120.0), None, "running").as_deref(), Some("120-140 bpm"));
        let cadence = TargetType { workout_target_type_key: Some("cadence".into()), ..TargetType::default() };
        assert_eq!(target(&cadence, Some(85.0), Some(95.0), None, "cycling").as_deref(), Some("85-95 rpm"));
        let none = TargetType { workout_target_type_key: Some("no.target".into()), ..TargetType::default() };
        assert_eq!(target(&none, None, None, None, "running"), None);
    }

    #[test]
    fn end_conditions_read_in_words() {
        let hr_end = step(json!({"type": "ExecutableStepDTO", "stepType": {"stepTypeKey": "interval"},
            "endCondition": {"conditionTypeKey": "heart.rate"}, "endConditionValue": 150, "endConditionCompare": "lt"}));
        assert_eq!(end_words("heart.rate", &hr_end, "running").as_deref(), Some("until HR below 150 bpm"));
        let lap =
            step(json!({"endCondition": {"conditionTypeKey": "lap.button"}, "endConditionValue": 1000}));
        assert_eq!(end_words("lap.button", &lap, "running").as_deref(), Some("until lap button"));
        let distance = |m: f64, sport| {
            end_words(
                "distance",
                &WorkoutStep { end_condition_value: Some(m), ..WorkoutStep::default() },
                sport,
            )
        };
        assert_eq!(distance(1500.0, "running").as_deref(), Some("1.5 km"));
        assert_eq!(distance(2000.0, "running").as_deref(), Some("2 km"));
        assert_eq!(distance(1500.0, "swimming").as_deref(), Some("1500 m"));
    }
}
