//! A step's JSON form: the one flat object of the spec language (`{"type": "interval",
//! "distance_m": 800, "pace_range": "4:55-5:05"}`). [`StepJson`] is that object: serialising a
//! [`SpecStep`] writes it in canonical form, and with the `schema` feature its JSON schema is what
//! MCP clients see as the shape of one step. Reading goes through the spec parser.

use serde::{Deserialize, Serialize};

use super::{RepeatEnd, SpecStep, StepEnd, StepTarget, SwimEquipment, SwimStroke, WeightUnit};
use crate::exercises::Resolved;
use display::PaceStyle;

/// The `type` of a step.
#[derive(Clone, Copy, Debug, Default, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
#[allow(dead_code, reason = "`Run` only appears in the schema: serialising writes \"interval\"")]
pub(crate) enum StepTypeName {
    /// Warm-up.
    Warmup,
    /// Work interval.
    #[default]
    Interval,
    /// Same as "interval".
    Run,
    /// One exercise of Garmin's catalogue (exercise sports): give `exercise` or `category`.
    Exercise,
    /// Active recovery (easy jog/spin/swim between intervals).
    Recovery,
    /// Rest (standing still).
    Rest,
    /// Cool-down.
    Cooldown,
    /// Repeat the `steps` inside `times` times (or, in HIIT, until `until_s` is up).
    Repeat,
    /// HIIT: every minute on the minute for `minutes` (slots of `every_s`, default 60 s), the steps
    /// taking turns.
    Emom,
    /// HIIT: `rounds` (8) of `work_s` (20) on and `rest_s` (10) off, the exercises taking turns.
    Tabata,
    /// HIIT: as many rounds of the steps as possible in `duration_min`.
    Amrap,
}

/// One step of a workout. Give `type`; then, for a step to do, at most one end (`distance_m`,
/// `distance_km`, `duration_min`, `duration_s`, `calories`, `until_hr_below`, `until_hr_above`,
/// `reps`, `lap_button`; none = ends at the lap button) and at most two targets of different kinds;
/// for a repeat, `times` and `steps`. Exercise sports: `exercise`, `reps` or a duration, `weight_kg`.
/// Examples: {"type": "interval", "distance_m": 800, "pace": "5:00"}, {"type": "exercise",
/// "exercise": "barbell bench press", "reps": 8, "weight_kg": 60}.
#[derive(Debug, Default, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "schema", schemars(title = "SpecStep"))]
pub(crate) struct StepJson {
    /// warmup, interval (or run), recovery, rest, cooldown, repeat; exercise in strength, cardio,
    /// hiit, yoga, pilates, mobility; emom, tabata, amrap in HIIT.
    #[serde(rename = "type")]
    pub kind: StepTypeName,
    /// The exercise: Garmin key ("BENCH_PRESS/BARBELL_BENCH_PRESS"), English or Chinese name
    /// ("barbell bench press", "杠铃卧推"); unknown or ambiguous names are refused with the closest.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exercise: Option<String>,
    /// Instead of `exercise`: a Garmin category ("SHOULDER_PRESS") for "any exercise of it".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    /// Text shown on the watch during the step (aliases "notes", "note").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Same as "description".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
    /// End after this many metres, e.g. 800.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance_m: Option<f64>,
    /// End after this many kilometres, e.g. 1.5.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance_km: Option<f64>,
    /// End after this many minutes, e.g. 10 or 1.5.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_min: Option<f64>,
    /// End after this many seconds, e.g. 90.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_s: Option<f64>,
    /// true: end when the lap button is pressed (also what a step without an end does).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lap_button: Option<bool>,
    /// End after this many repetitions (exercise sports), e.g. 8.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(range(min = 1, max = 999)))]
    pub reps: Option<u32>,
    /// Weight to use in kilograms (exercise steps), e.g. 60.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weight_kg: Option<f64>,
    /// Weight to use in pounds (exercise steps), e.g. 135.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weight_lb: Option<f64>,
    /// End after burning this many kilocalories.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(range(min = 1, max = 10000)))]
    pub calories: Option<u16>,
    /// End when the heart rate drops below this many bpm (e.g. a recovery until HR < 130).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(range(min = 30, max = 250)))]
    pub until_hr_below: Option<u16>,
    /// End when the heart rate rises above this many bpm.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(range(min = 30, max = 250)))]
    pub until_hr_above: Option<u16>,
    /// Target pace "m:ss" per km (per 100 m in swims; "8:00/mi" also works); widened to ±5 s
    /// (±2 s in swims), e.g. "5:00" → 4:55-5:05.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pace: Option<String>,
    /// Target pace range "m:ss-m:ss" per km (per 100 m in swims), either order, e.g. "4:50-5:10".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pace_range: Option<String>,
    /// Target speed range in km/h "low-high", e.g. "28-32" (runs and rides).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speed_range: Option<String>,
    /// Target heart-rate zone 1-5.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(range(min = 1, max = 5)))]
    pub hr_zone: Option<u8>,
    /// Target heart-rate range in bpm "low-high", e.g. "150-165".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hr_range: Option<String>,
    /// Target power zone 1-7 (runs and rides).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(range(min = 1, max = 7)))]
    pub power_zone: Option<u8>,
    /// Target power range in watts "low-high", e.g. "200-250" (runs and rides).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub power_range: Option<String>,
    /// Target cadence range "low-high" in rpm (rides) or steps per minute (runs), e.g. "85-95".
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cadence_range: Option<String>,
    /// Swim stroke (swims only; default any_stroke except on rests).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stroke: Option<SwimStroke>,
    /// Swim equipment (swims only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub equipment: Option<SwimEquipment>,
    /// Repeat only: how many times to do `steps` (1-99).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schemars(range(min = 1, max = 99)))]
    pub times: Option<u32>,
    /// HIIT repeat only, instead of `times`: repeat until this many seconds are up (or
    /// `until_min`); `amrap` is the same with `duration_min`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub until_s: Option<f64>,
    /// Repeat only: skip the last rest/recovery step in the last round.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skip_last_rest: Option<bool>,
    /// Repeat only: the steps to repeat (one more repeat may be inside).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps: Option<Vec<SpecStep>>,
}

impl StepJson {
    /// The canonical JSON object of a step.
    fn of(step: &SpecStep) -> StepJson {
        match step {
            SpecStep::Repeat(repeat) => StepJson {
                kind: StepTypeName::Repeat,
                times: match repeat.end {
                    RepeatEnd::Times(n) => Some(n),
                    RepeatEnd::Until { .. } => None,
                },
                until_s: match repeat.end {
                    RepeatEnd::Times(_) => None,
                    RepeatEnd::Until { seconds } => Some(seconds),
                },
                skip_last_rest: repeat.skip_last_rest.then_some(true),
                steps: Some(repeat.steps.clone()),
                ..StepJson::default()
            },
            SpecStep::Work(work) => {
                let kind = match work.kind {
                    super::StepKind::Warmup => StepTypeName::Warmup,
                    super::StepKind::Interval if work.exercise.is_some() => StepTypeName::Exercise,
                    super::StepKind::Interval => StepTypeName::Interval,
                    super::StepKind::Recovery => StepTypeName::Recovery,
                    super::StepKind::Rest => StepTypeName::Rest,
                    super::StepKind::Cooldown => StepTypeName::Cooldown,
                };
                let mut json = StepJson {
                    kind,
                    description: work.description.clone(),
                    stroke: work.stroke,
                    equipment: work.equipment,
                    ..StepJson::default()
                };
                match work.exercise {
                    Some(Resolved::Exercise(e)) => json.exercise = Some(e.garmin_key()),
                    Some(Resolved::Generic(c)) => json.category = Some(c.key.to_owned()),
                    None => {}
                }
                match work.weight {
                    Some(w) if w.unit == WeightUnit::Kg => json.weight_kg = Some(w.value),
                    Some(w) => json.weight_lb = Some(w.value),
                    None => {}
                }
                match work.end {
                    StepEnd::Reps { count } => json.reps = Some(count),
                    StepEnd::LapButton => json.lap_button = Some(true),
                    StepEnd::Time { seconds } => json.duration_s = Some(seconds),
                    StepEnd::Distance { meters } => json.distance_m = Some(meters),
                    StepEnd::Calories { kcal } => json.calories = Some(kcal),
                    StepEnd::HeartRateBelow { bpm } => json.until_hr_below = Some(bpm),
                    StepEnd::HeartRateAbove { bpm } => json.until_hr_above = Some(bpm),
                }
                for target in [work.target, work.secondary_target].into_iter().flatten() {
                    json.set_target(target);
                }
                json
            }
        }
    }

    fn set_target(&mut self, target: StepTarget) {
        let range = |low: f64, high: f64| format!("{}-{}", display::number(low), display::number(high));
        match target {
            StepTarget::Pace { fastest_s, slowest_s } => {
                self.pace_range = Some(format!(
                    "{}-{}",
                    display::pace(fastest_s, PaceStyle::Precise),
                    display::pace(slowest_s, PaceStyle::Precise)
                ));
            }
            StepTarget::Speed { low_kmh, high_kmh } => self.speed_range = Some(range(low_kmh, high_kmh)),
            StepTarget::HeartRateZone { zone } => self.hr_zone = Some(zone),
            StepTarget::HeartRate { low_bpm, high_bpm } => {
                self.hr_range = Some(range(f64::from(low_bpm), f64::from(high_bpm)));
            }
            StepTarget::PowerZone { zone } => self.power_zone = Some(zone),
            StepTarget::Power { low_w, high_w } => {
                self.power_range = Some(range(f64::from(low_w), f64::from(high_w)));
            }
            StepTarget::Cadence { low, high } => {
                self.cadence_range = Some(range(f64::from(low), f64::from(high)));
            }
        }
    }
}

impl Serialize for SpecStep {
    /// Writes the step as the spec's flat object, in canonical form (seconds, metres, pace ranges).
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        StepJson::of(self).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for SpecStep {
    /// Reads one step with the spec parser's rules. Alone, a step does not know its workout's
    /// sport: sport-specific checks are skipped and paces are read as a run's (per km, ±5 s). Read
    /// whole workouts with [`super::parse_spec`] to get the sport's rules and every problem.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = serde_json::Value::deserialize(deserializer)?;
        super::parse::parse_step_alone(&value).map_err(serde::de::Error::custom)
    }
}

#[cfg(feature = "schema")]
impl schemars::JsonSchema for SpecStep {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "SpecStep".into()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        "garmin::workout_spec::SpecStep".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        StepJson::json_schema(generator)
    }
}
