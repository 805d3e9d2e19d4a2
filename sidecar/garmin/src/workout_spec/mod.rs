//! The workout spec: a small JSON language an assistant (or the desktop app's workout editor)
//! writes for run, bike, swim, strength, cardio, HIIT, yoga, pilates, mobility and multisport
//! workouts, and everything around it that both the MCP sidecar and the desktop app need — so both
//! use the same code:
//!
//! * [`parse_spec`] checks a spec and reports **every** problem, each with its path, what was
//!   expected and what was found ([`SpecErrors`]); it never panics, whatever the JSON.
//! * [`WorkoutSpec::to_garmin`] translates it into Garmin's workout-service JSON (reference §5):
//!   sport and step type ids, end conditions, pace targets in m/s with the faster bound first,
//!   repeat groups with one depth-first `stepOrder` counter and the count on both iteration fields,
//!   exercises as Garmin's `category` + `exerciseName` with the weight in its unit, multisport
//!   segments with the transition flag.
//! * [`check_garmin_rules`] checks any Garmin workout body against the rules Garmin enforces,
//!   silently or not, before it is sent.
//! * [`preview`] describes any Garmin workout in plain words with estimated totals, in English or
//!   Chinese ([`preview_in`]).
//! * [`spec_from_garmin`] turns a Garmin workout back into a spec for the editor (best effort).
//! * [`editor_grammar`] is the language as a step editor needs it (types, ends, targets, aliases,
//!   defaults, templates, per sport), so the app's editor keeps no copy of it.
//!
//! # The spec
//!
//! ```json
//! {"name": "800m x4", "sport": "run", "steps": [
//!   {"type": "warmup", "duration_min": 10},
//!   {"type": "repeat", "times": 4, "steps": [
//!     {"type": "interval", "distance_m": 800, "pace": "5:00"},
//!     {"type": "recovery", "duration_min": 2}]},
//!   {"type": "cooldown", "duration_min": 10}]}
//! ```
//!
//! * Workout: `name` (1–255 characters), `sport` (`run`, `bike`, `swim`, `strength`, `cardio`,
//!   `hiit`, `yoga`, `pilates`, `mobility`, `multisport`), optional `description` (alias `notes`),
//!   `pool_length_m` (swims only; 25 when left out), `steps` (at least one).
//! * Step `type`: `warmup`, `interval` (aliases `run`, `bike`, `ride`, `swim`), `recovery`, `rest`,
//!   `cooldown`, or `repeat` with `times` (1–99), `steps` and optional `skip_last_rest`. A repeat may
//!   hold one more repeat (Garmin has only been seen to keep one level of nesting).
//! * End (at most one): `distance_m` / `distance_km`, `duration_min` / `duration_s`,
//!   `calories`, `until_hr_below` / `until_hr_above` (bpm), `reps` (exercise sports), or
//!   `lap_button: true`. **A step with no end ends at the lap button** (warm-ups "until you are
//!   ready"); unknown fields are errors, so a misspelt end never silently becomes a lap-button step.
//! * Targets (at most two, one per kind; with two, the first in the order pace/speed, power,
//!   heart rate, cadence is Garmin's primary target and the other the secondary one):
//!   `pace` (`"5:00"` per km, `"8:00/mi"`; one value widens to ±5 s, ±2 s per 100 m in swims),
//!   `pace_range` (`"4:50-5:10"`, either order), `speed_range` (km/h), `hr_zone` (1–5),
//!   `hr_range` (bpm), `power_zone` (1–7), `power_range` (W), `cadence_range` (rpm / spm).
//!   Swims: paces are per 100 m; `stroke` and `equipment` name the swim stroke and kit; power,
//!   cadence and speed targets are for runs and rides only.
//! * `description` (aliases `notes`, `note`) on a step is shown on the watch.
//!
//! # Exercise sports (strength, cardio, hiit, yoga, pilates, mobility)
//!
//! ```json
//! {"name": "Upper A", "sport": "strength", "steps": [
//!   {"type": "warmup", "duration_min": 5},
//!   {"type": "repeat", "times": 3, "steps": [
//!     {"type": "exercise", "exercise": "barbell bench press", "reps": 8, "weight_kg": 60},
//!     {"type": "rest", "duration_s": 90}]},
//!   {"type": "exercise", "exercise": "plank", "duration_s": 45}]}
//! ```
//!
//! * `{"type": "exercise", "exercise": …}` is a work step doing one exercise of Garmin's catalogue
//!   ([`crate::exercises`]), named by Garmin key (`BENCH_PRESS/BARBELL_BENCH_PRESS`), English name
//!   or Chinese name; or `"category": "SHOULDER_PRESS"` for Garmin's "any exercise of the category".
//!   Strength, cardio and HIIT use `Exercises.json`; yoga, pilates and mobility their own lists.
//!   A name that is not exact must match one exercise clearly, else the spec is refused with the
//!   three closest (Garmin silently blanks a name it does not know). Warm-ups and cool-downs may
//!   name an exercise too; a work step must.
//! * Ends: `reps` (1–999), a time, a distance, or the lap button; `weight_kg` or `weight_lb`
//!   (0–500 kg) is sent in that unit; no pace, power, cadence or heart-rate targets.
//! * Sets are repeats; several exercises in one repeat are a superset. HIIT also has named forms
//!   that expand into repeats: `{"type": "repeat", "until_min": 20, "steps": […]}` (repeat until
//!   a time is up), `{"type": "emom", "minutes": 10, "steps": […]}` (each step at the top of a
//!   minute, for `every_s` seconds, default 60), `{"type": "tabata", "steps": […]}` (`rounds`
//!   of `work_s` on, `rest_s` off: 8 × 20/10 by default, exercises taking turns) and
//!   `{"type": "amrap", "duration_min": 12, "steps": […]}` (as many rounds as possible).
//!
//! # Multisport
//!
//! ```json
//! {"name": "Brick", "sport": "multisport", "transitions": true, "segments": [
//!   {"sport": "bike", "steps": [{"type": "interval", "duration_min": 40, "power_range": "200-220"}]},
//!   {"sport": "run", "steps": [{"type": "interval", "distance_km": 5, "pace": "4:45"}]}]}
//! ```
//!
//! Two or more `segments` of run, bike or swim (a swim with its own `pool_length_m`), each laid out
//! as Garmin keeps it without rewriting (reference §3.1): the first may be `warmup` or
//! `warmup + repeat`, the last `interval + cooldown` or `cooldown`, any may be one work step or one
//! repeat. `transitions: true` makes the watch ask for a lap press between legs.
//!
//! Parsing normalises: durations become seconds, distances metres, single paces ranges, a swim
//! gets its default pool and `any_stroke` on steps without a stroke (except rests), exercises their
//! Garmin key, HIIT forms their repeats. Serialising a [`WorkoutSpec`] writes this canonical form
//! back in the same language, so `parse_spec(&to_value(spec)) == spec`.

mod errors;
mod from_garmin;
mod grammar;
mod ids;
mod json;
mod pace;
mod parse;
mod preview;
mod preview_zh;
mod rules;
mod translate;

pub use errors::{SpecErrors, SpecProblem};
pub use from_garmin::spec_from_garmin;
pub use grammar::{
    EditorGrammar, FieldGroup, FieldKey, HR_ZONES, PerSport, SportGrammar, Template, editor_grammar,
};
pub use parse::parse_spec;
pub use preview::{
    Language, Preview, PreviewEnd, PreviewStep, PreviewTarget, StrengthTotals, preview, preview_in,
};
pub use rules::{check_garmin_rules, number_steps};

use serde::{Deserialize, Serialize};

/// Longest workout name Garmin keeps whole.
pub const MAX_NAME_CHARS: usize = crate::api::MAX_WORKOUT_NAME_CHARS;
/// Most repetitions a repeat step may have.
pub const MAX_REPEAT_TIMES: u32 = 99;
/// Most steps in one workout, repeat blocks and the steps inside them included: Garmin Connect's
/// workout editor and the watches stop at 50.
pub const MAX_STEPS: usize = 50;
/// Deepest nesting of repeats (a repeat inside a repeat); deeper is unverified against Garmin.
pub const MAX_REPEAT_DEPTH: usize = 2;
/// Most segments of a multisport workout.
pub const MAX_SEGMENTS: usize = 10;
/// Most repetitions of one exercise step.
pub const MAX_REPS: u32 = 999;
/// Heaviest weight a step may name, kg (500 kg is about 1100 lb).
pub const MAX_WEIGHT_KG: f64 = 500.0;
/// Pounds in a kilogram's unit: Garmin's pound `factor` is grams per pound.
pub const GRAMS_PER_POUND: f64 = 453.592_37;
/// Pool length a swim gets when the spec names none (m).
pub const DEFAULT_POOL_LENGTH_M: f64 = 25.0;
/// How far a single run or ride pace is widened on each side (s per km).
pub const PACE_WIDENING_S: f64 = 5.0;
/// How far a single swim pace is widened on each side (s per 100 m).
pub const SWIM_PACE_WIDENING_S: f64 = 2.0;

/// A structured workout for Garmin Connect: a name, a sport and the steps to do in order.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct WorkoutSpec {
    /// Workout name, shown in Garmin Connect and on the watch (1–255 characters), e.g. "800m x4".
    pub name: String,
    /// Sport: "run", "bike", "swim", "strength", "cardio", "hiit", "yoga", "pilates", "mobility"
    /// or "multisport".
    pub sport: SpecSport,
    /// Notes for the whole workout (optional; alias "notes").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Pool length in metres, swims only (default 25).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pool_length_m: Option<f64>,
    /// The steps in order: warmup, interval, recovery, rest, cooldown, exercise, or repeat (which
    /// holds steps). Empty in a multisport workout, whose steps are in its segments.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<SpecStep>,
    /// Multisport only: the legs in order, each one sport with its own steps.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub segments: Vec<SpecSegment>,
    /// Multisport only: whether the watch asks for a lap press between legs (Garmin's
    /// `isSessionTransitionEnabled`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transitions: Option<bool>,
}

/// One leg of a multisport workout.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SpecSegment {
    /// "run", "bike" or "swim".
    pub sport: SpecSport,
    /// Pool length in metres, swim legs only (default 25).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pool_length_m: Option<f64>,
    /// The leg's steps (see the workout's layout rules).
    pub steps: Vec<SpecStep>,
}

/// The sport of a workout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum SpecSport {
    /// Running (Garmin sport 1, `running`).
    #[serde(alias = "running")]
    Run,
    /// Cycling (Garmin sport 2, `cycling`).
    #[serde(alias = "cycling", alias = "ride")]
    Bike,
    /// Pool swimming (Garmin sport 4, `swimming`).
    #[serde(alias = "swimming")]
    Swim,
    /// Strength training (Garmin sport 5, `strength_training`), exercises from `Exercises.json`.
    Strength,
    /// Cardio training (Garmin sport 6, `cardio_training`), exercises from `Exercises.json`.
    Cardio,
    /// HIIT (Garmin sport 9, `hiit`), exercises from `Exercises.json`; EMOM, Tabata, AMRAP and
    /// repeat-until-time forms.
    Hiit,
    /// Yoga (Garmin sport 7, `yoga`), poses from `Yoga.json`.
    Yoga,
    /// Pilates (Garmin sport 8, `pilates`), moves from `Pilates.json`.
    Pilates,
    /// Mobility (Garmin sport 11, `mobility`), from `Mobility.json`.
    Mobility,
    /// Multisport (Garmin sport 10, `multi_sport`): triathlon, duathlon, brick — `segments` of run,
    /// bike and swim.
    Multisport,
}

/// One step of a workout: something to do until an end condition, or a repeat of steps.
///
/// In JSON a step is one flat object (see the module doc); its serde form and JSON schema are that
/// object, not this enum's shape.
#[derive(Clone, Debug, PartialEq)]
pub enum SpecStep {
    /// A step to do (warm-up, interval, recovery, rest, cool-down).
    Work(WorkStep),
    /// A group of steps done `times` times.
    Repeat(RepeatStep),
}

/// A step to do until its end condition, optionally aiming at one or two targets.
#[derive(Clone, Debug, PartialEq)]
pub struct WorkStep {
    /// What kind of step it is.
    pub kind: StepKind,
    /// When it ends.
    pub end: StepEnd,
    /// Primary target (pace/speed, power, heart rate or cadence).
    pub target: Option<StepTarget>,
    /// Secondary target (a second, different kind of target).
    pub secondary_target: Option<StepTarget>,
    /// Swim stroke (swims only).
    pub stroke: Option<SwimStroke>,
    /// Swim equipment (swims only).
    pub equipment: Option<SwimEquipment>,
    /// Text shown on the watch during the step.
    pub description: Option<String>,
    /// The exercise (exercise sports): one of Garmin's catalogue, or a category's generic form.
    pub exercise: Option<crate::exercises::Resolved>,
    /// The weight to use (exercise sports), in the unit it was given in.
    pub weight: Option<Weight>,
}

/// A weight to lift, kept in the unit it was written in (Garmin stores the unit with it).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Weight {
    /// The amount, in `unit`.
    pub value: f64,
    /// Kilograms or pounds.
    pub unit: WeightUnit,
}

/// The unit of a [`Weight`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum WeightUnit {
    /// Kilograms (Garmin unit 8, `kilogram`).
    Kg,
    /// Pounds (Garmin unit 9, `pound`).
    Lb,
}

impl Weight {
    /// The weight in kilograms.
    pub fn kg(&self) -> f64 {
        match self.unit {
            WeightUnit::Kg => self.value,
            WeightUnit::Lb => self.value * GRAMS_PER_POUND / 1000.0,
        }
    }
}

/// How a repeat ends.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RepeatEnd {
    /// After a number of rounds (1–99): Garmin's `iterations`.
    Times(u32),
    /// When a time is up, rounds done as they come (HIIT only): Garmin's time-bounded repeat.
    Until {
        /// Seconds.
        seconds: f64,
    },
}

/// Steps repeated a number of times, or until a time is up.
#[derive(Clone, Debug, PartialEq)]
pub struct RepeatStep {
    /// How many times (1–99), or until when.
    pub end: RepeatEnd,
    /// The steps to repeat (at least one; may hold one more repeat).
    pub steps: Vec<SpecStep>,
    /// Skip the last rest/recovery step in the last round.
    pub skip_last_rest: bool,
}

/// The kind of a step that is not a repeat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum StepKind {
    /// Warm-up (Garmin step type 1).
    Warmup,
    /// Work interval (3); the spec also accepts "run", "bike", "ride" and "swim".
    #[serde(alias = "run", alias = "bike", alias = "ride", alias = "swim")]
    Interval,
    /// Active recovery (4).
    Recovery,
    /// Rest (5).
    Rest,
    /// Cool-down (2).
    Cooldown,
}

/// When a step ends.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum StepEnd {
    /// When the athlete presses the lap button.
    LapButton,
    /// After a time.
    Time {
        /// Seconds.
        seconds: f64,
    },
    /// After a distance.
    Distance {
        /// Metres.
        meters: f64,
    },
    /// After a number of repetitions of the exercise.
    Reps {
        /// Repetitions.
        count: u32,
    },
    /// After burning some calories.
    Calories {
        /// Kilocalories.
        kcal: u16,
    },
    /// When the heart rate falls below a value.
    HeartRateBelow {
        /// Beats per minute.
        bpm: u16,
    },
    /// When the heart rate rises above a value.
    HeartRateAbove {
        /// Beats per minute.
        bpm: u16,
    },
}

/// What to aim at during a step.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum StepTarget {
    /// A pace range, in seconds per km (per 100 m in swims).
    Pace {
        /// Faster bound (fewer seconds).
        fastest_s: f64,
        /// Slower bound (more seconds).
        slowest_s: f64,
    },
    /// A speed range in km/h.
    Speed {
        /// Lower bound.
        low_kmh: f64,
        /// Upper bound.
        high_kmh: f64,
    },
    /// A heart-rate zone, 1–5.
    HeartRateZone {
        /// Zone number.
        zone: u8,
    },
    /// A heart-rate range in bpm.
    HeartRate {
        /// Lower bound.
        low_bpm: u16,
        /// Upper bound.
        high_bpm: u16,
    },
    /// A power zone, 1–7.
    PowerZone {
        /// Zone number.
        zone: u8,
    },
    /// A power range in watts.
    Power {
        /// Lower bound.
        low_w: u16,
        /// Upper bound.
        high_w: u16,
    },
    /// A cadence range (rpm on a bike, steps per minute running).
    Cadence {
        /// Lower bound.
        low: u16,
        /// Upper bound.
        high: u16,
    },
}

/// A swim stroke (Garmin's keys).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum SwimStroke {
    /// Any stroke (also accepted: "any", "mixed").
    AnyStroke,
    /// Backstroke ("back").
    Backstroke,
    /// Breaststroke ("breast").
    Breaststroke,
    /// Drill.
    Drill,
    /// Butterfly ("butterfly").
    Fly,
    /// Freestyle ("freestyle").
    Free,
    /// Individual medley ("im", "medley").
    IndividualMedley,
}

/// Swim equipment (Garmin's keys).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum SwimEquipment {
    /// Fins.
    Fins,
    /// Kickboard.
    Kickboard,
    /// Hand paddles.
    Paddles,
    /// Pull buoy.
    PullBuoy,
    /// Snorkel.
    Snorkel,
}

impl SpecSport {
    /// Every sport, in the order an editor offers them.
    pub const ALL: [SpecSport; 10] = [
        SpecSport::Run,
        SpecSport::Bike,
        SpecSport::Swim,
        SpecSport::Strength,
        SpecSport::Cardio,
        SpecSport::Hiit,
        SpecSport::Yoga,
        SpecSport::Pilates,
        SpecSport::Mobility,
        SpecSport::Multisport,
    ];

    /// The spec's name for the sport (`run`, `bike`, `swim`, `strength`…).
    pub fn as_str(self) -> &'static str {
        match self {
            SpecSport::Run => "run",
            SpecSport::Bike => "bike",
            SpecSport::Swim => "swim",
            SpecSport::Strength => "strength",
            SpecSport::Cardio => "cardio",
            SpecSport::Hiit => "hiit",
            SpecSport::Yoga => "yoga",
            SpecSport::Pilates => "pilates",
            SpecSport::Mobility => "mobility",
            SpecSport::Multisport => "multisport",
        }
    }

    /// The distance a pace is counted over: 1000 m, or 100 m in swims.
    pub fn pace_distance_m(self) -> f64 {
        match self {
            SpecSport::Swim => 100.0,
            _ => 1000.0,
        }
    }

    /// Whether its steps are exercises of Garmin's catalogue (strength, cardio, HIIT, yoga,
    /// pilates, mobility).
    pub fn is_exercise_sport(self) -> bool {
        self.exercise_list().is_some()
    }

    /// Whether it can be a leg of a multisport workout (run, bike, swim).
    pub fn is_endurance(self) -> bool {
        matches!(self, SpecSport::Run | SpecSport::Bike | SpecSport::Swim)
    }

    /// The catalogue list its exercises come from.
    pub fn exercise_list(self) -> Option<crate::exercises::List> {
        use crate::exercises::List;
        match self {
            SpecSport::Strength | SpecSport::Cardio | SpecSport::Hiit => Some(List::Strength),
            SpecSport::Yoga => Some(List::Yoga),
            SpecSport::Pilates => Some(List::Pilates),
            SpecSport::Mobility => Some(List::Mobility),
            SpecSport::Run | SpecSport::Bike | SpecSport::Swim | SpecSport::Multisport => None,
        }
    }
}

impl WorkoutSpec {
    /// Every step, segments' steps included, top level only (repeats hold their own).
    pub fn top_steps(&self) -> impl Iterator<Item = &SpecStep> {
        self.steps.iter().chain(self.segments.iter().flat_map(|s| s.steps.iter()))
    }
}

impl WorkStep {
    /// A step of `kind` ending at `end`, with nothing else.
    pub fn new(kind: StepKind, end: StepEnd) -> WorkStep {
        WorkStep {
            kind,
            end,
            target: None,
            secondary_target: None,
            stroke: None,
            equipment: None,
            description: None,
            exercise: None,
            weight: None,
        }
    }
}

impl StepKind {
    /// The spec's name for the kind (`warmup`, `interval`…).
    pub fn as_str(self) -> &'static str {
        match self {
            StepKind::Warmup => "warmup",
            StepKind::Interval => "interval",
            StepKind::Recovery => "recovery",
            StepKind::Rest => "rest",
            StepKind::Cooldown => "cooldown",
        }
    }
}

impl SwimStroke {
    /// Garmin's key, also the spec's canonical name.
    pub fn as_str(self) -> &'static str {
        match self {
            SwimStroke::AnyStroke => "any_stroke",
            SwimStroke::Backstroke => "backstroke",
            SwimStroke::Breaststroke => "breaststroke",
            SwimStroke::Drill => "drill",
            SwimStroke::Fly => "fly",
            SwimStroke::Free => "free",
            SwimStroke::IndividualMedley => "individual_medley",
        }
    }
}

impl SwimEquipment {
    /// Garmin's key, also the spec's canonical name.
    pub fn as_str(self) -> &'static str {
        match self {
            SwimEquipment::Fins => "fins",
            SwimEquipment::Kickboard => "kickboard",
            SwimEquipment::Paddles => "paddles",
            SwimEquipment::PullBuoy => "pull_buoy",
            SwimEquipment::Snorkel => "snorkel",
        }
    }
}

impl<'de> Deserialize<'de> for WorkoutSpec {
    /// Reads a spec with [`parse_spec`]'s rules (aliases, normalisation); every problem found goes
    /// into the one error message, a line each.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = serde_json::Value::deserialize(deserializer)?;
        parse_spec(&value).map_err(serde::de::Error::custom)
    }
}
