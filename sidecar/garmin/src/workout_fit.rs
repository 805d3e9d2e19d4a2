//! FIT workout files from Garmin workouts, for people who copy workouts to a watch by cable or load
//! them into other apps. The messages are written with `rustyfit` (a maintained FIT encoder); this
//! module only decides what goes in them, following the FIT profile's workout file:
//!
//! * `file_id` (type workout, manufacturer development, time created), one `workout` (sport,
//!   sub-sport, name, number of steps, pool length for swims) and one `workout_step` per step.
//! * Durations are scaled as the profile says: time in ms (`s × 1000`), distance in cm
//!   (`m × 100`), heart rate as `bpm + 100`, power as `W + 1000`; a lap-button step is `open`.
//! * Targets: a zone number goes in `target_value`; a range goes in `custom_target_value_low/high`
//!   with `target_value = 0` — speed and pace as `m/s × 1000` (slow to fast), heart rate as
//!   `bpm + 100`, power as `W + 1000`, cadence in rpm. A swim stroke is a `swim_stroke` target.
//! * FIT workouts are flat: a repeat group's steps come first, then a `repeat_until_steps_cmplt`
//!   step whose `duration_value` is the index of the group's first step and whose `target_value`
//!   is the number of iterations. A repeat inside a repeat is written the same way, inner group
//!   first, so the outer repeat step points back before the inner group. A HIIT repeat until a
//!   time is up is `repeat_until_time` with the time (ms) in `target_value`.
//! * Exercises (strength, cardio, HIIT, yoga, pilates, mobility): `exercise_category` and
//!   `exercise_name` as FIT's numbers, a reps end as `reps`, the weight in kg × 100 whatever unit
//!   Garmin kept it in (its `weightValue` is in the unit of `weightUnit`), shown in that unit
//!   (`weight_display_unit`).
//! * Multisport: sport `multisport` (sub-sport triathlon, duathlon or brick when the legs say so)
//!   with one `workout_session` per leg pointing at its first step in the flat list (sport,
//!   sub-sport, number of steps, pool length) — as far as the FIT profile goes. No public encoder
//!   or device report shows a watch accepting such a file loaded by cable, FIT has no field for the
//!   transition prompt, and Garmin Connect's import refuses workout files altogether, so the notes
//!   say so: a watch may not take it.
//!
//! What a FIT workout cannot hold (end conditions or targets it has no field for) is an error
//! naming the step; nothing here panics on Garmin's data. Small losses that keep the workout's
//! meaning (a name cut to FIT's 254 bytes, a "skip the last rest" flag, an exercise name FIT does
//! not know) are listed in [`FitWorkout::notes`].

use display::words;
use std::fmt::Display;
use std::io::Cursor;

use chrono::{DateTime, Utc};
use embedded_io_adapters::std::FromStd;
use rustyfit::Encoder;
use rustyfit::profile::mesgdef;
use rustyfit::profile::typedef::{
    self, DisplayMeasure, ExerciseCategory, FitBaseUnit, Intensity, Manufacturer, MessageIndex, Sport,
    SubSport, SwimStroke, WktStepDuration, WktStepTarget, WorkoutEquipment,
};
use rustyfit::proto::{FIT, Message};

use crate::models::workouts::{TargetType, Workout, WorkoutStep};

/// Longest text FIT stores in a string field, in bytes (255 with the terminating zero).
const MAX_TEXT_BYTES: usize = 254;
/// Highest `message_index` a step can have (the index uses the low 12 bits).
const MAX_STEP_INDEX: usize = 0x0FFF;
/// Metres in a yard (pool lengths).
const YARD_M: f64 = 0.9144;

/// A workout encoded as a FIT workout file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FitWorkout {
    /// The file's bytes (header, messages, CRC).
    pub bytes: Vec<u8>,
    /// `workout_step` messages written, repeat steps included (the workout's `num_valid_steps`).
    pub steps: u16,
    /// What the file holds differently from Garmin's workout, in words (empty when nothing).
    pub notes: Vec<String>,
}

/// Why a workout could not be written as a FIT workout file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WorkoutFitError {
    /// The workout uses something a FIT workout file cannot express (or is malformed).
    #[error("{at}: {problem}")]
    Unsupported {
        /// Where: `workout` or `step 4 (interval)` (steps counted depth first from 1, as Garmin's
        /// `stepOrder`).
        at: String,
        /// What is wrong and, where it helps, what would work.
        problem: String,
    },
    /// The FIT encoder refused the messages (a bug here, not in the workout).
    #[error("the FIT encoder refused the workout ({0}); please report this")]
    Encoder(String),
}

fn unsupported(at: &str, problem: impl Into<String>) -> WorkoutFitError {
    WorkoutFitError::Unsupported { at: at.to_owned(), problem: problem.into() }
}

/// Encodes `workout` (Garmin's workout-service JSON, read with [`Workout`]) as a FIT workout file
/// created at `time_created`.
pub fn encode(workout: &Workout, time_created: DateTime<Utc>) -> Result<FitWorkout, WorkoutFitError> {
    let segment = match workout.workout_segments.as_slice() {
        [] => return Err(unsupported("workout", "it has no steps")),
        [one] => one,
        _ => return encode_multisport(workout, time_created),
    };
    let sport_type = segment.sport_type.as_ref().or(workout.sport_type.as_ref());
    let (sport, sub_sport) = fit_sport(
        sport_type.and_then(|s| s.sport_type_key.as_deref()),
        sport_type.and_then(|s| s.sport_type_id),
    )?;

    let mut notes = Vec::new();
    let mut steps = Steps { out: Vec::new(), notes: &mut notes, counter: 0, swim: sport == Sport::SWIMMING };
    steps.push_all(&segment.workout_steps)?;
    let fit_steps = steps.out;
    if fit_steps.is_empty() {
        return Err(unsupported("workout", "it has no steps"));
    }
    let step_count = u16::try_from(fit_steps.len())
        .map_err(|_| unsupported("workout", format!("it has {} steps, too many for FIT", fit_steps.len())))?;

    let mut header = mesgdef::Workout::new();
    header.sport = sport;
    header.sub_sport = sub_sport;
    header.num_valid_steps = step_count;
    let name = workout.workout_name.as_deref().map(str::trim).filter(|n| !n.is_empty()).unwrap_or("Workout");
    header.wkt_name = fit_text(name, "the workout name", &mut notes).into();
    if let Some(description) = workout.description.as_deref().map(str::trim).filter(|d| !d.is_empty()) {
        header.wkt_description = fit_text(description, "the workout description", &mut notes).into();
    }
    // The workout's pool (reference §5); a segment's own pool only when the workout has none.
    if sport == Sport::SWIMMING
        && let Some((centimetres, measure)) =
            pool(workout, None)?.or(pool(&Workout::default(), Some(segment))?)
    {
        header.pool_length = centimetres;
        header.pool_length_unit = measure;
    }

    let messages =
        std::iter::once(Message::from(header)).chain(fit_steps.into_iter().map(Message::from)).collect();
    write_file(messages, time_created, step_count, notes)
}

/// The file: `file_id` (a workout by a development tool, created at `time_created`), then
/// `messages`.
fn write_file(
    messages: Vec<Message>,
    time_created: DateTime<Utc>,
    steps: u16,
    notes: Vec<String>,
) -> Result<FitWorkout, WorkoutFitError> {
    let mut file_id = mesgdef::FileId::new();
    file_id.r#type = typedef::File::WORKOUT;
    file_id.manufacturer = Manufacturer::DEVELOPMENT;
    file_id.product = 0;
    file_id.time_created = typedef::DateTime::from_unix_timestamp(time_created.timestamp());
    let mut all = Vec::with_capacity(messages.len() + 1);
    all.push(Message::from(file_id));
    all.extend(messages);
    let mut fit = FIT { messages: all, ..FIT::default() };
    let mut cursor = Cursor::new(Vec::new());
    Encoder::new()
        .encode(FromStd::new(&mut cursor), &mut fit)
        .map_err(|e| WorkoutFitError::Encoder(e.to_string()))?;
    Ok(FitWorkout { bytes: cursor.into_inner(), steps, notes })
}

/// A multisport workout: the legs' steps in one flat list, a `workout_session` per leg.
fn encode_multisport(workout: &Workout, time_created: DateTime<Utc>) -> Result<FitWorkout, WorkoutFitError> {
    let mut notes = vec![
        "a multisport workout file: whether a watch accepts one loaded by cable is not documented (Garmin \
         Connect sends multisport workouts to the watch itself), and the transition prompt between legs \
         has no FIT field"
            .to_owned(),
    ];
    let mut out = Vec::new();
    let mut sessions = Vec::new();
    let mut legs = Vec::new();
    let mut counter = 0;
    for (i, segment) in workout.workout_segments.iter().enumerate() {
        let sport_type = segment.sport_type.as_ref();
        let (sport, sub_sport) = fit_sport(
            sport_type.and_then(|s| s.sport_type_key.as_deref()),
            sport_type.and_then(|s| s.sport_type_id),
        )?;
        let first = u16::try_from(out.len()).map_err(|_| unsupported("workout", "too many steps"))?;
        let mut steps = Steps { out, notes: &mut notes, counter, swim: sport == Sport::SWIMMING };
        steps.push_all(&segment.workout_steps)?;
        (out, counter) = (steps.out, steps.counter);
        let count = u16::try_from(out.len()).map_err(|_| unsupported("workout", "too many steps"))? - first;
        let mut session = mesgdef::WorkoutSession::new();
        session.message_index = MessageIndex(u16::try_from(i).unwrap_or(u16::MAX));
        session.sport = sport;
        session.sub_sport = sub_sport;
        session.first_step_index = first;
        session.num_valid_steps = count;
        if sport == Sport::SWIMMING
            && let Some((centimetres, measure)) = pool(workout, Some(segment))?
        {
            session.pool_length = centimetres;
            session.pool_length_unit = measure;
        }
        legs.push(sport);
        sessions.push(session);
    }
    let step_count = u16::try_from(out.len()).map_err(|_| unsupported("workout", "too many steps"))?;
    let mut header = mesgdef::Workout::new();
    header.sport = Sport::MULTISPORT;
    header.sub_sport = multisport_kind(&legs);
    header.num_valid_steps = step_count;
    let name = workout.workout_name.as_deref().map(str::trim).filter(|n| !n.is_empty()).unwrap_or("Workout");
    header.wkt_name = fit_text(name, "the workout name", &mut notes).into();
    let messages = std::iter::once(Message::from(header))
        .chain(sessions.into_iter().map(Message::from))
        .chain(out.into_iter().map(Message::from))
        .collect();
    write_file(messages, time_created, step_count, notes)
}

/// Triathlon (swim, bike, run), duathlon (run, bike, run), brick (bike then run), or generic.
fn multisport_kind(legs: &[Sport]) -> SubSport {
    match legs {
        [Sport::SWIMMING, Sport::CYCLING, Sport::RUNNING] => SubSport::TRIATHLON,
        [Sport::RUNNING, Sport::CYCLING, Sport::RUNNING] => SubSport::DUATHLON,
        [Sport::CYCLING, Sport::RUNNING] => SubSport::BRICK,
        _ => SubSport::GENERIC,
    }
}

/// The pool (FIT's cm and display measure): the segment's own, else the workout's (reference §5).
fn pool(
    workout: &Workout,
    segment: Option<&crate::models::workouts::WorkoutSegment>,
) -> Result<Option<(u16, DisplayMeasure)>, WorkoutFitError> {
    let found = [
        segment.map(|s| (s.pool_length, s.pool_length_unit.as_ref())),
        Some((workout.pool_length, workout.pool_length_unit.as_ref())),
    ]
    .into_iter()
    .flatten()
    .find_map(|(length, unit)| length.filter(|l| *l > 0.0).map(|l| (l, unit)));
    let Some((length, unit)) = found else { return Ok(None) };
    let yards = unit.is_some_and(|u| {
        u.unit_key.as_deref() == Some("yard")
            || u.unit_id == Some(230)
            || u.factor.is_some_and(|f| (f - 91.44).abs() < 0.01)
    });
    let meters = if yards { length * YARD_M } else { length };
    let centimetres = scaled(meters, 100.0)
        .and_then(|v| u16::try_from(v).ok())
        .filter(|v| *v < u16::MAX)
        .ok_or_else(|| unsupported("workout", format!("pool length {length} is not a usable length")))?;
    Ok(Some((centimetres, if yards { DisplayMeasure::STATUTE } else { DisplayMeasure::METRIC })))
}

/// Garmin's sport (key, else id) as FIT sport and sub-sport.
fn fit_sport(key: Option<&str>, id: Option<i64>) -> Result<(Sport, SubSport), WorkoutFitError> {
    let key = key.or(match id {
        Some(1) => Some("running"),
        Some(2) => Some("cycling"),
        Some(3) => Some("other"),
        Some(4) => Some("swimming"),
        Some(5) => Some("strength_training"),
        Some(6) => Some("cardio_training"),
        Some(7) => Some("yoga"),
        Some(8) => Some("pilates"),
        Some(9) => Some("hiit"),
        Some(10) => Some("multi_sport"),
        Some(11) => Some("mobility"),
        _ => None,
    });
    Ok(match key {
        Some("running") => (Sport::RUNNING, SubSport::GENERIC),
        Some("cycling") => (Sport::CYCLING, SubSport::GENERIC),
        Some("swimming" | "lap_swimming") => (Sport::SWIMMING, SubSport::LAP_SWIMMING),
        Some("strength_training") => (Sport::TRAINING, SubSport::STRENGTH_TRAINING),
        Some("cardio_training") => (Sport::TRAINING, SubSport::CARDIO_TRAINING),
        Some("yoga") => (Sport::TRAINING, SubSport::YOGA),
        Some("pilates") => (Sport::TRAINING, SubSport::PILATES),
        Some("hiit") => (Sport::HIIT, SubSport::GENERIC),
        Some("mobility") => (Sport::MOBILITY, SubSport::GENERIC),
        Some("walking") => (Sport::WALKING, SubSport::GENERIC),
        Some("hiking") => (Sport::HIKING, SubSport::GENERIC),
        Some("other") | None => (Sport::GENERIC, SubSport::GENERIC),
        Some("multi_sport") => {
            return Err(unsupported(
                "workout",
                "it is a multisport workout with a single segment; each leg needs its own segment and sport",
            ));
        }
        Some(other) => {
            return Err(unsupported("workout", format!("its sport `{other}` has no FIT equivalent here")));
        }
    })
}

/// Text cut to what a FIT string holds (on a character boundary, zero bytes dropped).
fn fit_text(text: &str, what: &str, notes: &mut Vec<String>) -> String {
    let mut clean: String = text.chars().filter(|c| *c != '\0').collect();
    if clean.len() > MAX_TEXT_BYTES {
        let mut cut = MAX_TEXT_BYTES;
        while !clean.is_char_boundary(cut) {
            cut -= 1;
        }
        clean.truncate(cut);
        notes.push(format!("{what} was cut to {MAX_TEXT_BYTES} bytes, the most a FIT text holds"));
    }
    clean
}

/// `value × factor` rounded, when it is a finite, non-negative number that fits a FIT `uint32`
/// (whose largest value means "invalid").
fn scaled(value: f64, factor: f64) -> Option<u32> {
    let v = (value * factor).round();
    (v.is_finite() && v >= 0.0 && v < f64::from(u32::MAX)).then_some(v as u32)
}

/// The flattening walk: FIT steps out, Garmin steps in, depth first.
struct Steps<'n> {
    out: Vec<mesgdef::WorkoutStep>,
    notes: &'n mut Vec<String>,
    /// Garmin's depth-first step number of the step being read (1-based).
    counter: usize,
    swim: bool,
}

impl Steps<'_> {
    fn push_all(&mut self, steps: &[WorkoutStep]) -> Result<(), WorkoutFitError> {
        for step in steps {
            self.counter += 1;
            let at = match step.type_key() {
                Some(kind) => format!("step {} ({kind})", self.counter),
                None => format!("step {}", self.counter),
            };
            if step.is_repeat() {
                self.push_repeat(step, &at)?;
            } else {
                let fit = self.executable(step, &at)?;
                self.push(fit, &at)?;
            }
        }
        Ok(())
    }

    fn next_index(&self, at: &str) -> Result<u16, WorkoutFitError> {
        if self.out.len() > MAX_STEP_INDEX {
            return Err(unsupported(at, format!("a FIT workout holds at most {} steps", MAX_STEP_INDEX + 1)));
        }
        u16::try_from(self.out.len()).map_err(|_| unsupported(at, "too many steps"))
    }

    fn push(&mut self, mut step: mesgdef::WorkoutStep, at: &str) -> Result<(), WorkoutFitError> {
        step.message_index = MessageIndex(self.next_index(at)?);
        self.out.push(step);
        Ok(())
    }

    fn push_repeat(&mut self, group: &WorkoutStep, at: &str) -> Result<(), WorkoutFitError> {
        let timed = group.end_condition_key() == Some("time")
            || group.end_condition.as_ref().and_then(|e| e.condition_type_id) == Some(2);
        if timed {
            return self.push_timed_repeat(group, at);
        }
        if let Some(key) = group.end_condition_key().filter(|k| *k != "iterations") {
            return Err(unsupported(
                at,
                format!(
                    "a repeat that ends by `{key}` cannot be written; FIT repeats a number of times or for a time"
                ),
            ));
        }
        if group.smart_repeat == Some(true) {
            return Err(unsupported(at, "a smart repeat (until stopped) has no FIT equivalent"));
        }
        let iterations = group
            .number_of_iterations
            .or_else(|| {
                group.end_condition_value.filter(|v| v.is_finite() && v.fract() == 0.0).map(|v| v as i64)
            })
            .ok_or_else(|| unsupported(at, "the repeat has no number of iterations"))?;
        let iterations =
            u32::try_from(iterations).ok().filter(|n| (1..u32::MAX).contains(n)).ok_or_else(|| {
                unsupported(at, format!("{iterations} iterations is not a usable repeat count"))
            })?;
        if group.workout_steps.is_empty() {
            return Err(unsupported(at, "the repeat has no steps to repeat"));
        }
        let first = self.next_index(at)?;
        self.push_all(&group.workout_steps)?;
        if group.skip_last_rest_step == Some(true) {
            self.notes.push(format!(
                "{at}: FIT has no \"skip the last rest\" flag, so the watch will also do the last rest"
            ));
        }
        let mut repeat = mesgdef::WorkoutStep::new();
        repeat.duration_type = WktStepDuration::REPEAT_UNTIL_STEPS_CMPLT;
        repeat.duration_value = u32::from(first);
        repeat.target_type = WktStepTarget::OPEN;
        repeat.target_value = iterations;
        self.push(repeat, at)
    }

    /// HIIT's repeat until a time is up: `repeat_until_time`, the time in ms in `target_value`.
    fn push_timed_repeat(&mut self, group: &WorkoutStep, at: &str) -> Result<(), WorkoutFitError> {
        let ms = group
            .end_condition_value
            .filter(|v| *v > 0.0)
            .and_then(|v| scaled(v, 1000.0))
            .ok_or_else(|| unsupported(at, "a repeat until a time is up gives no time"))?;
        if group.workout_steps.is_empty() {
            return Err(unsupported(at, "the repeat has no steps to repeat"));
        }
        let first = self.next_index(at)?;
        self.push_all(&group.workout_steps)?;
        let mut repeat = mesgdef::WorkoutStep::new();
        repeat.duration_type = WktStepDuration::REPEAT_UNTIL_TIME;
        repeat.duration_value = u32::from(first);
        repeat.target_type = WktStepTarget::OPEN;
        repeat.target_value = ms;
        self.push(repeat, at)
    }

    fn executable(&mut self, step: &WorkoutStep, at: &str) -> Result<mesgdef::WorkoutStep, WorkoutFitError> {
        let mut fit = mesgdef::WorkoutStep::new();
        fit.intensity = intensity(step);
        let (duration_type, duration_value) = duration(step, at)?;
        fit.duration_type = duration_type;
        if let Some(value) = duration_value {
            fit.duration_value = value;
        }

        let mut primary = target(
            step.target_type.as_ref(),
            step.target_value_one,
            step.target_value_two,
            step.zone_number,
            at,
            "target",
        )?;
        let mut secondary = target(
            step.secondary_target_type.as_ref(),
            step.secondary_target_value_one,
            step.secondary_target_value_two,
            step.secondary_zone_number,
            at,
            "secondary target",
        )?;
        if let Some(stroke) = self.stroke(step, at)? {
            let stroke_target = Target::stroke(stroke);
            if primary.is_open() {
                primary = stroke_target;
            } else if secondary.is_open() {
                secondary = stroke_target;
            } else {
                return Err(unsupported(
                    at,
                    "a swim stroke together with two targets does not fit; FIT has room for two targets and \
                     counts the stroke as one",
                ));
            }
        }
        fit.target_type = primary.kind;
        if let Some(v) = primary.value {
            fit.target_value = v;
        }
        if let Some((low, high)) = primary.range {
            fit.custom_target_value_low = low;
            fit.custom_target_value_high = high;
        }
        if !secondary.is_open() {
            fit.secondary_target_type = secondary.kind;
            if let Some(v) = secondary.value {
                fit.secondary_target_value = v;
            }
            if let Some((low, high)) = secondary.range {
                fit.secondary_custom_target_value_low = low;
                fit.secondary_custom_target_value_high = high;
            }
        }

        if let Some(equipment) = self.equipment(step, at)? {
            fit.equipment = equipment;
        }
        self.strength(step, at, &mut fit);
        if let Some(text) = step.description.as_deref().map(str::trim).filter(|d| !d.is_empty()) {
            fit.notes = fit_text(text, &format!("{at}: the note"), self.notes).into();
        }
        Ok(fit)
    }

    /// Garmin stroke (key, else id) as a FIT stroke; `None` for none / any stroke or non-swims.
    fn stroke(&self, step: &WorkoutStep, at: &str) -> Result<Option<SwimStroke>, WorkoutFitError> {
        let Some(stroke) = step.stroke_type.as_ref().filter(|_| self.swim) else { return Ok(None) };
        let key = stroke.stroke_type_key.as_deref().or(match stroke.stroke_type_id {
            Some(0) => Some("none"),
            Some(1) => Some("any_stroke"),
            Some(2) => Some("backstroke"),
            Some(3) => Some("breaststroke"),
            Some(4) => Some("drill"),
            Some(5) => Some("fly"),
            Some(6) => Some("free"),
            Some(7) => Some("individual_medley"),
            _ => None,
        });
        Ok(match key {
            // `mixed` (kaiord's requests, Garmin's id 8) is a mix of strokes: no single stroke target.
            None | Some("none" | "any_stroke" | "mixed") => None,
            Some("backstroke") => Some(SwimStroke::BACKSTROKE),
            Some("breaststroke") => Some(SwimStroke::BREASTSTROKE),
            Some("drill") => Some(SwimStroke::DRILL),
            Some("fly") => Some(SwimStroke::BUTTERFLY),
            Some("free") => Some(SwimStroke::FREESTYLE),
            Some("individual_medley") => Some(SwimStroke::IM),
            Some(other) => {
                return Err(unsupported(at, format!("the swim stroke `{other}` has no FIT equivalent")));
            }
        })
    }

    /// Garmin swim equipment (key, else id) as FIT equipment; `None` for none.
    fn equipment(&self, step: &WorkoutStep, at: &str) -> Result<Option<WorkoutEquipment>, WorkoutFitError> {
        let Some(equipment) = step.equipment_type.as_ref() else { return Ok(None) };
        let key = equipment.equipment_type_key.as_deref().or(match equipment.equipment_type_id {
            Some(0) => Some("none"),
            Some(1) => Some("fins"),
            Some(2) => Some("kickboard"),
            Some(3) => Some("paddles"),
            Some(4) => Some("pull_buoy"),
            Some(5) => Some("snorkel"),
            _ => None,
        });
        Ok(match key {
            None | Some("none") => None,
            Some("fins") => Some(WorkoutEquipment::SWIM_FINS),
            Some("kickboard") => Some(WorkoutEquipment::SWIM_KICKBOARD),
            Some("paddles") => Some(WorkoutEquipment::SWIM_PADDLES),
            Some("pull_buoy") => Some(WorkoutEquipment::SWIM_PULL_BUOY),
            Some("snorkel") => Some(WorkoutEquipment::SWIM_SNORKEL),
            Some(other) => {
                return Err(unsupported(at, format!("the equipment `{other}` has no FIT equivalent")));
            }
        })
    }

    /// Strength: exercise category and name (FIT's own lists), and the weight.
    fn strength(&mut self, step: &WorkoutStep, at: &str, fit: &mut mesgdef::WorkoutStep) {
        if let Some(category) = step.category.as_deref().filter(|c| !c.is_empty()) {
            match find_by_name(category, 0..=u16::MAX - 1, |i| ExerciseCategory(i).to_string()) {
                Some(i) => {
                    fit.exercise_category = ExerciseCategory(i);
                    if let Some(name) = step.exercise_name.as_deref().filter(|n| !n.is_empty()) {
                        match exercise_name(ExerciseCategory(i), name) {
                            Some(n) => fit.exercise_name = n,
                            None => {
                                fit.wkt_step_name =
                                    fit_text(&words(name), "an exercise name", self.notes).into();
                                self.notes.push(format!(
                                    "{at}: FIT does not list the exercise {name}; it is written as the step's name"
                                ));
                            }
                        }
                    }
                }
                None => {
                    let label = step.exercise_name.as_deref().unwrap_or(category);
                    fit.wkt_step_name = fit_text(&words(label), "an exercise name", self.notes).into();
                    self.notes.push(format!(
                        "{at}: FIT does not list the exercise category {category}; it is written as the step's name"
                    ));
                }
            }
        }
        if let Some(value) = step.weight_value.filter(|w| w.is_finite() && *w > 0.0) {
            // Garmin's value is in the unit of `weightUnit` (reference §1.4); FIT wants kg × 100.
            let unit = step.weight_unit.as_ref();
            let pounds = unit.is_some_and(|u| u.unit_key.as_deref() == Some("pound") || u.unit_id == Some(9));
            let kg = if pounds { value * crate::workout_spec::GRAMS_PER_POUND / 1000.0 } else { value };
            match scaled(kg, 100.0).and_then(|v| u16::try_from(v).ok()).filter(|v| *v < u16::MAX) {
                Some(weight) => {
                    fit.exercise_weight = weight;
                    fit.weight_display_unit = if pounds { FitBaseUnit::POUND } else { FitBaseUnit::KILOGRAM };
                }
                None => self
                    .notes
                    .push(format!("{at}: the weight {value} is more than FIT holds (655 kg); left out")),
            }
        }
    }
}

/// The first number in `range` whose FIT name (its `Display`) is `name` in lower case.
fn find_by_name<R, F>(name: &str, range: R, fit_name: F) -> Option<u16>
where
    R: IntoIterator<Item = u16>,
    F: Fn(u16) -> String,
{
    let wanted = name.trim().to_ascii_lowercase();
    // FIT's lists are short; names past the first unnamed stretch do not exist.
    range.into_iter().take(2048).find(|i| fit_name(*i) == wanted)
}

/// The FIT number of exercise `name` within `category` (each category has its own list).
fn exercise_name(category: ExerciseCategory, name: &str) -> Option<u16> {
    fn look<T: Display>(name: &str, make: fn(u16) -> T) -> Option<u16> {
        find_by_name(name, 0..u16::MAX, |i| make(i).to_string())
    }
    macro_rules! lists {
        ($($category:ident => $list:ident),* $(,)?) => {
            match category {
                $(c if c == ExerciseCategory::$category => look(name, typedef::$list),)*
                _ => None,
            }
        };
    }
    lists! {
        BENCH_PRESS => BenchPressExerciseName, CALF_RAISE => CalfRaiseExerciseName,
        CARDIO => CardioExerciseName, CARRY => CarryExerciseName, CHOP => ChopExerciseName,
        CORE => CoreExerciseName, CRUNCH => CrunchExerciseName, CURL => CurlExerciseName,
        DEADLIFT => DeadliftExerciseName, FLYE => FlyeExerciseName, HIP_RAISE => HipRaiseExerciseName,
        HIP_STABILITY => HipStabilityExerciseName, HIP_SWING => HipSwingExerciseName,
        HYPEREXTENSION => HyperextensionExerciseName, LATERAL_RAISE => LateralRaiseExerciseName,
        LEG_CURL => LegCurlExerciseName, LEG_RAISE => LegRaiseExerciseName, LUNGE => LungeExerciseName,
        OLYMPIC_LIFT => OlympicLiftExerciseName, PLANK => PlankExerciseName, PLYO => PlyoExerciseName,
        PULL_UP => PullUpExerciseName, PUSH_UP => PushUpExerciseName, ROW => RowExerciseName,
        SHOULDER_PRESS => ShoulderPressExerciseName, SHOULDER_STABILITY => ShoulderStabilityExerciseName,
        SHRUG => ShrugExerciseName, SIT_UP => SitUpExerciseName, SQUAT => SquatExerciseName,
        TOTAL_BODY => TotalBodyExerciseName, TRICEPS_EXTENSION => TricepsExtensionExerciseName,
        WARM_UP => WarmUpExerciseName, RUN => RunExerciseName, BIKE => BikeExerciseName,
        MOVE => MoveExerciseName, POSE => PoseExerciseName, BANDED_EXERCISES => BandedExercisesExerciseName,
        BATTLE_ROPE => BattleRopeExerciseName, ELLIPTICAL => EllipticalExerciseName,
        FLOOR_CLIMB => FloorClimbExerciseName, INDOOR_BIKE => IndoorBikeExerciseName,
        INDOOR_ROW => IndoorRowExerciseName, LADDER => LadderExerciseName, SANDBAG => SandbagExerciseName,
        SLED => SledExerciseName, SLEDGE_HAMMER => SledgeHammerExerciseName,
        STAIR_STEPPER => StairStepperExerciseName, SUSPENSION => SuspensionExerciseName,
        TIRE => TireExerciseName, RUN_INDOOR => RunIndoorExerciseName, BIKE_OUTDOOR => BikeOutdoorExerciseName,
    }
}

/// Garmin step type (key, else id) as FIT intensity.
fn intensity(step: &WorkoutStep) -> Intensity {
    let id = step.step_type.as_ref().and_then(|t| t.step_type_id);
    match (step.type_key(), id) {
        (Some("warmup"), _) | (None, Some(1)) => Intensity::WARMUP,
        (Some("cooldown"), _) | (None, Some(2)) => Intensity::COOLDOWN,
        (Some("recovery"), _) | (None, Some(4)) => Intensity::RECOVERY,
        (Some("rest"), _) | (None, Some(5)) => Intensity::REST,
        // interval, other, main (swim): the work itself.
        _ => Intensity::ACTIVE,
    }
}

/// Garmin end condition (key, else id) as FIT duration type and scaled value.
fn duration(step: &WorkoutStep, at: &str) -> Result<(WktStepDuration, Option<u32>), WorkoutFitError> {
    let condition = step.end_condition.as_ref();
    let key = condition.and_then(|c| c.condition_type_key.as_deref()).or(
        match condition.and_then(|c| c.condition_type_id) {
            Some(1) => Some("lap.button"),
            Some(2) => Some("time"),
            Some(3) => Some("distance"),
            Some(4) => Some("calories"),
            Some(5) => Some("power"),
            Some(6) => Some("heart.rate"),
            Some(7) => Some("iterations"),
            Some(8) => Some("fixed.rest"),
            Some(10) => Some("reps"),
            _ => None,
        },
    );
    let value = step.end_condition_value;
    let needs = |what: &str, factor: f64, offset: f64| {
        value.filter(|v| *v > 0.0).and_then(|v| scaled(v + offset, factor)).ok_or_else(|| match value {
            Some(v) => unsupported(at, format!("{v} is not a usable {what}")),
            None => unsupported(at, format!("the step ends by {what} but gives none")),
        })
    };
    let compare =
        |less: WktStepDuration, greater: WktStepDuration| match step.end_condition_compare.as_deref() {
            Some("lt") => Ok(less),
            Some("gt") => Ok(greater),
            other => Err(unsupported(
                at,
                format!("the end condition needs `lt` or `gt` to say below or above, found {other:?}"),
            )),
        };
    Ok(match key {
        None | Some("lap.button") => (WktStepDuration::OPEN, None),
        Some("time" | "fixed.rest") => (WktStepDuration::TIME, Some(needs("time", 1000.0, 0.0)?)),
        Some("distance") => (WktStepDuration::DISTANCE, Some(needs("distance", 100.0, 0.0)?)),
        Some("calories") => (WktStepDuration::CALORIES, Some(needs("calorie count", 1.0, 0.0)?)),
        Some("heart.rate") => (
            compare(WktStepDuration::HR_LESS_THAN, WktStepDuration::HR_GREATER_THAN)?,
            Some(needs("heart rate", 1.0, 100.0)?),
        ),
        Some("power") => (
            compare(WktStepDuration::POWER_LESS_THAN, WktStepDuration::POWER_GREATER_THAN)?,
            Some(needs("power", 1.0, 1000.0)?),
        ),
        Some("reps") => (WktStepDuration::REPS, Some(needs("repetition count", 1.0, 0.0)?)),
        Some("iterations") => {
            return Err(unsupported(at, "only a repeat group can end after a number of iterations"));
        }
        Some(other) => {
            return Err(unsupported(at, format!("the end condition `{other}` has no FIT equivalent")));
        }
    })
}

/// A FIT target: type, `target_value`, and the custom range.
struct Target {
    kind: WktStepTarget,
    value: Option<u32>,
    range: Option<(u32, u32)>,
}

impl Target {
    fn open() -> Target {
        Target { kind: WktStepTarget::OPEN, value: None, range: None }
    }

    fn zone(kind: WktStepTarget, zone: u32) -> Target {
        Target { kind, value: Some(zone), range: None }
    }

    fn custom(kind: WktStepTarget, low: u32, high: u32) -> Target {
        Target { kind, value: Some(0), range: Some((low.min(high), low.max(high))) }
    }

    fn stroke(stroke: SwimStroke) -> Target {
        Target { kind: WktStepTarget::SWIM_STROKE, value: Some(u32::from(stroke.0)), range: None }
    }

    fn is_open(&self) -> bool {
        self.kind == WktStepTarget::OPEN
    }
}

/// Garmin target (key, else id) with its values as a FIT target.
fn target(
    kind: Option<&TargetType>,
    one: Option<f64>,
    two: Option<f64>,
    zone: Option<i64>,
    at: &str,
    which: &str,
) -> Result<Target, WorkoutFitError> {
    let key = kind.and_then(|t| t.workout_target_type_key.as_deref()).or(
        match kind.and_then(|t| t.workout_target_type_id) {
            Some(1) => Some("no.target"),
            Some(2) => Some("power.zone"),
            Some(3) => Some("cadence"),
            Some(4) => Some("heart.rate.zone"),
            Some(5) => Some("speed.zone"),
            Some(6) => Some("pace.zone"),
            _ => None,
        },
    );
    let values: Vec<f64> = [one, two].into_iter().flatten().filter(|v| v.is_finite() && *v > 0.0).collect();
    // Both bounds, scaled (a single value is a range of one).
    let range = |factor: f64, offset: f64, what: &str| -> Result<(u32, u32), WorkoutFitError> {
        let (Some(low), Some(high)) =
            (values.iter().copied().reduce(f64::min), values.iter().copied().reduce(f64::max))
        else {
            return Err(unsupported(at, format!("the {which} is a {what} target without values")));
        };
        match (scaled(low + offset, factor), scaled(high + offset, factor)) {
            (Some(l), Some(h)) => Ok((l, h)),
            _ => Err(unsupported(at, format!("the {which} {low}–{high} is not a usable {what} range"))),
        }
    };
    let zone_of = |max: i64, what: &str| -> Result<Option<u32>, WorkoutFitError> {
        match zone {
            None => Ok(None),
            Some(z) if (1..=max).contains(&z) => Ok(u32::try_from(z).ok()),
            Some(z) => {
                Err(unsupported(at, format!("the {which} is {what} zone {z}; zones go from 1 to {max}")))
            }
        }
    };
    Ok(match key {
        None | Some("no.target") => Target::open(),
        Some("pace.zone" | "speed.zone") => match zone_of(10, "speed")? {
            Some(z) if values.is_empty() => Target::zone(WktStepTarget::SPEED, z),
            _ => {
                let (low, high) = range(1000.0, 0.0, "pace")?;
                Target::custom(WktStepTarget::SPEED, low, high)
            }
        },
        Some("heart.rate.zone") => match zone_of(5, "heart-rate")? {
            Some(z) => Target::zone(WktStepTarget::HEART_RATE, z),
            None => {
                let (low, high) = range(1.0, 100.0, "heart-rate")?;
                Target::custom(WktStepTarget::HEART_RATE, low, high)
            }
        },
        Some("power.zone") => match zone_of(7, "power")? {
            Some(z) => Target::zone(WktStepTarget::POWER, z),
            None => {
                let (low, high) = range(1.0, 1000.0, "power")?;
                Target::custom(WktStepTarget::POWER, low, high)
            }
        },
        Some("cadence" | "cadence.zone") => {
            let (low, high) = range(1.0, 0.0, "cadence")?;
            Target::custom(WktStepTarget::CADENCE, low, high)
        }
        Some(other) => return Err(unsupported(at, format!("the {which} `{other}` has no FIT equivalent"))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaling_refuses_what_a_fit_uint32_cannot_hold() {
        assert_eq!(scaled(600.0, 1000.0), Some(600_000));
        assert_eq!(scaled(0.4, 1.0), Some(0));
        assert_eq!(scaled(-1.0, 1.0), None);
        assert_eq!(scaled(f64::NAN, 1.0), None);
        assert_eq!(scaled(f64::from(u32::MAX), 1.0), None);
    }

    #[test]
    fn long_names_are_cut_on_a_character_boundary_with_a_note() {
        let mut notes = Vec::new();
        let cut = fit_text(&"跑".repeat(200), "the workout name", &mut notes);
        assert!(cut.len() <= MAX_TEXT_BYTES && cut.chars().all(|c| c == '跑'), "{}", cut.len());
        assert_eq!(notes.len(), 1);
        assert_eq!(fit_text("a\0b", "x", &mut notes), "ab");
    }

    #[test]
    fn exercise_names_are_found_in_their_category_list() {
        assert_eq!(exercise_name(ExerciseCategory::SQUAT, "BARBELL_BACK_SQUAT"), Some(6));
        assert_eq!(exercise_name(ExerciseCategory::LUNGE, "DUMBBELL_LUNGE"), Some(21));
        assert_eq!(exercise_name(ExerciseCategory::SQUAT, "DUMBBELL_LUNGE"), None);
        assert_eq!(find_by_name("squat", 0..u16::MAX, |i| ExerciseCategory(i).to_string()), Some(28));
    }
}
