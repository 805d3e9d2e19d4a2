//! The workout spec: a small JSON language an assistant (or the desktop app's workout editor)
//! writes for run, bike and swim workouts, and everything around it that both the MCP sidecar and
//! the desktop app need — so both use the same code:
//!
//! * [`parse_spec`] checks a spec and reports **every** problem, each with its path, what was
//!   expected and what was found ([`SpecErrors`]); it never panics, whatever the JSON.
//! * [`WorkoutSpec::to_garmin`] translates it into Garmin's workout-service JSON (reference §5):
//!   sport and step type ids, end conditions, pace targets in m/s with the faster bound first,
//!   repeat groups with one depth-first `stepOrder` counter and the count on both iteration fields.
//! * [`preview`] describes any Garmin workout in plain words with estimated totals.
//! * [`spec_from_garmin`] turns a Garmin workout back into a spec for the editor (best effort).
//! * [`editor_grammar`] is the language as a step editor needs it (types, ends, targets, aliases,
//!   defaults, templates), so the app's editor keeps no copy of it.
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
//! * Workout: `name` (1–255 characters), `sport` (`run`, `bike`, `swim`), optional `description`
//!   (alias `notes`), `pool_length_m` (swims only; 25 when left out), `steps` (at least one).
//! * Step `type`: `warmup`, `interval` (aliases `run`, `bike`, `ride`, `swim`), `recovery`, `rest`,
//!   `cooldown`, or `repeat` with `times` (1–99), `steps` and optional `skip_last_rest`. A repeat may
//!   hold one more repeat (Garmin has only been seen to keep one level of nesting).
//! * End (at most one): `distance_m` / `distance_km`, `duration_min` / `duration_s`,
//!   `calories`, `until_hr_below` / `until_hr_above` (bpm), or `lap_button: true`. **A step with
//!   no end ends at the lap button** (warm-ups "until you are ready"); unknown fields are errors, so
//!   a misspelt end never silently becomes a lap-button step.
//! * Targets (at most two, one per kind; with two, the first in the order pace/speed, power,
//!   heart rate, cadence is Garmin's primary target and the other the secondary one):
//!   `pace` (`"5:00"` per km, `"8:00/mi"`; one value widens to ±5 s, ±2 s per 100 m in swims),
//!   `pace_range` (`"4:50-5:10"`, either order), `speed_range` (km/h), `hr_zone` (1–5),
//!   `hr_range` (bpm), `power_zone` (1–7), `power_range` (W), `cadence_range` (rpm / spm).
//!   Swims: paces are per 100 m; `stroke` and `equipment` name the swim stroke and kit; power,
//!   cadence and speed targets are for runs and rides only.
//! * `description` (alias `notes`) on a step is shown on the watch.
//!
//! Parsing normalises: durations become seconds, distances metres, single paces ranges, a swim
//! gets its default pool and `any_stroke` on steps without a stroke (except rests). Serialising a
//! [`WorkoutSpec`] writes this canonical form back in the same language, so
//! `parse_spec(&to_value(spec)) == spec`.

mod errors;
mod from_garmin;
mod grammar;
mod ids;
mod json;
mod pace;
mod parse;
mod preview;
mod translate;

pub use errors::{SpecErrors, SpecProblem};
pub use from_garmin::spec_from_garmin;
pub use grammar::{EditorGrammar, FieldGroup, FieldKey, HR_ZONES, PerSport, Template, editor_grammar};
pub use parse::parse_spec;
pub use preview::{Preview, PreviewEnd, PreviewStep, PreviewTarget, preview};

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
    /// Sport: "run", "bike" or "swim".
    pub sport: SpecSport,
    /// Notes for the whole workout (optional; alias "notes").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Pool length in metres, swims only (default 25).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pool_length_m: Option<f64>,
    /// The steps in order: warmup, interval, recovery, rest, cooldown, or repeat (which holds steps).
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
}

/// Steps repeated a number of times.
#[derive(Clone, Debug, PartialEq)]
pub struct RepeatStep {
    /// How many times (1–99).
    pub times: u32,
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
    /// The spec's name for the sport (`run`, `bike`, `swim`).
    pub fn as_str(self) -> &'static str {
        match self {
            SpecSport::Run => "run",
            SpecSport::Bike => "bike",
            SpecSport::Swim => "swim",
        }
    }

    /// The distance a pace is counted over: 1000 m, or 100 m in swims.
    pub fn pace_distance_m(self) -> f64 {
        match self {
            SpecSport::Swim => 100.0,
            SpecSport::Run | SpecSport::Bike => 1000.0,
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
