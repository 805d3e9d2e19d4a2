//! HIIT's named forms, which Garmin has no encoding of its own for (reference §4): each expands
//! here into the repeat Garmin does store, so the rest of the module only sees repeats.
//!
//! * `{"type": "emom", "minutes": 10, "steps": [A, B]}` — every minute on the minute, the steps
//!   taking turns: a repeat of 5 × (A for 60 s, B for 60 s); `every_s` changes the 60 s. Reps
//!   written on a step become its note ("10 reps"): the minute, not the reps, ends the step.
//! * `{"type": "tabata", "steps": [A]}` — `rounds` (8) of `work_s` (20 s) on and `rest_s` (10 s)
//!   off, exercises taking turns: a repeat of 8 × (A 20 s, rest 10 s).
//! * `{"type": "amrap", "duration_min": 12, "steps": [...]}` — as many rounds as possible: Garmin's
//!   time-bounded repeat (HIIT only), the steps as written.
//!
//! `{"type": "repeat", "until_min": 20, …}` ("repeat until 20 minutes") is the same time-bounded
//! repeat written directly (see `Parser::repeat_until`).

use serde_json::{Map, Value};

use super::{Parser, field, join};
use crate::workout_spec::errors::{MISSING, describe};
use crate::workout_spec::{
    MAX_REPEAT_TIMES, MAX_STEPS, RepeatEnd, RepeatStep, SpecSport, SpecStep, StepEnd, StepKind, WorkStep,
};

/// A named HIIT form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::workout_spec) enum HiitForm {
    /// Every minute on the minute.
    Emom,
    /// 20 s on, 10 s off.
    Tabata,
    /// As many rounds as possible in a time.
    Amrap,
}

impl HiitForm {
    fn name(self) -> &'static str {
        match self {
            HiitForm::Emom => "emom",
            HiitForm::Tabata => "tabata",
            HiitForm::Amrap => "amrap",
        }
    }

    fn fields(self) -> &'static [&'static str] {
        match self {
            HiitForm::Emom => &["type", "minutes", "every_s", "steps"],
            HiitForm::Tabata => &["type", "rounds", "work_s", "rest_s", "steps"],
            HiitForm::Amrap => &["type", "duration_min", "duration_s", "steps"],
        }
    }
}

impl Parser {
    /// Expands a HIIT form at `path` into its repeat.
    pub(in crate::workout_spec) fn hiit(
        &mut self,
        form: HiitForm,
        obj: &Map<String, Value>,
        path: &str,
        sport: Option<SpecSport>,
        depth: usize,
    ) -> Option<RepeatStep> {
        for key in obj.keys().filter(|k| !form.fields().contains(&k.as_str())) {
            self.unknown(&join(path, key), key, form.fields(), form.name());
        }
        let allowed = match form {
            HiitForm::Amrap => sport.is_none_or(|s| s == SpecSport::Hiit),
            HiitForm::Emom | HiitForm::Tabata => sport.is_none_or(SpecSport::is_exercise_sport),
        };
        if !allowed {
            let sports = if form == HiitForm::Amrap {
                "hiit"
            } else {
                "strength, cardio, hiit, yoga, pilates or mobility"
            };
            let found =
                sport.map_or_else(String::new, |s| format!("a {} in a {} workout", form.name(), s.as_str()));
            self.push(join(path, "type"), format!("a {} in a {sports} workout", form.name()), found);
            return None;
        }
        if depth >= crate::workout_spec::MAX_REPEAT_DEPTH {
            self.push(
                path,
                "at most one repeat inside another (an emom, tabata or amrap is a repeat)",
                format!("a {} inside {depth} repeats", form.name()),
            );
            return None;
        }
        let steps = self.steps(obj.get("steps"), &join(path, "steps"), sport, depth + 1)?;
        let work = self.only_work_steps(&steps, &join(path, "steps"), form)?;
        match form {
            HiitForm::Emom => self.emom(obj, path, work),
            HiitForm::Tabata => self.tabata(obj, path, work),
            HiitForm::Amrap => self.amrap(obj, path, steps),
        }
    }

    /// The steps as work steps (a HIIT form holds exercises, not repeats).
    fn only_work_steps(&mut self, steps: &[SpecStep], path: &str, form: HiitForm) -> Option<Vec<WorkStep>> {
        let mut out = Vec::new();
        for (i, step) in steps.iter().enumerate() {
            match step {
                SpecStep::Work(work) => out.push(work.clone()),
                SpecStep::Repeat(_) => {
                    self.push(
                        format!("{path}[{i}]"),
                        format!("an exercise step (a {} holds no repeats)", form.name()),
                        "a repeat",
                    );
                }
            }
        }
        (out.len() == steps.len()).then_some(out)
    }

    /// A whole-number field with a default.
    fn count_field(
        &mut self,
        obj: &Map<String, Value>,
        path: &str,
        key: &str,
        expected: &str,
        range: (u64, u64),
        default: Option<u64>,
    ) -> Option<u64> {
        match field(obj, key) {
            None => {
                if default.is_none() {
                    self.push(join(path, key), expected, MISSING);
                }
                default
            }
            Some(value) => self.whole(value, &join(path, key), expected, range.0, range.1),
        }
    }

    fn emom(&mut self, obj: &Map<String, Value>, path: &str, work: Vec<WorkStep>) -> Option<RepeatStep> {
        let minutes = self.count_field(
            obj,
            path,
            "minutes",
            "how many minutes, a whole number 1-90, e.g. 10",
            (1, 90),
            None,
        );
        let every = self.count_field(
            obj,
            path,
            "every_s",
            "seconds per slot, 10-600 (default 60)",
            (10, 600),
            Some(60),
        )?;
        let minutes = minutes?;
        let slots = minutes * 60 / every;
        let n = work.len() as u64;
        if (minutes * 60) % every != 0 || slots % n != 0 || slots / n > u64::from(MAX_REPEAT_TIMES) {
            self.push(
                join(path, "minutes"),
                format!("minutes that split into whole rounds of the {n} step(s) at one every {every} s (at most {MAX_REPEAT_TIMES} rounds)"),
                minutes.to_string(),
            );
            return None;
        }
        let steps = self.timed(work, &join(path, "steps"), every as f64, "emom")?;
        Some(RepeatStep { end: RepeatEnd::Times((slots / n) as u32), steps, skip_last_rest: false })
    }

    fn tabata(&mut self, obj: &Map<String, Value>, path: &str, work: Vec<WorkStep>) -> Option<RepeatStep> {
        let rounds =
            self.count_field(obj, path, "rounds", "rounds of work, 1-99 (default 8)", (1, 99), Some(8));
        let work_s =
            self.count_field(obj, path, "work_s", "seconds of work, 5-300 (default 20)", (5, 300), Some(20));
        let rest_s =
            self.count_field(obj, path, "rest_s", "seconds of rest, 5-300 (default 10)", (5, 300), Some(10));
        let (rounds, work_s, rest_s) = (rounds?, work_s?, rest_s?);
        let n = work.len() as u64;
        if rounds % n != 0 {
            self.push(
                join(path, "rounds"),
                format!("a number of rounds the {n} exercises share evenly (they take turns)"),
                rounds.to_string(),
            );
            return None;
        }
        let timed = self.timed(work, &join(path, "steps"), work_s as f64, "tabata")?;
        self.steps_seen += timed.len();
        if self.steps_seen > MAX_STEPS {
            self.push(
                path,
                format!("at most {MAX_STEPS} steps in the whole workout, rests included"),
                format!("{} steps", self.steps_seen),
            );
            return None;
        }
        let rest = SpecStep::Work(WorkStep::new(StepKind::Rest, StepEnd::Time { seconds: rest_s as f64 }));
        let steps = timed.into_iter().flat_map(|s| [s, rest.clone()]).collect();
        Some(RepeatStep { end: RepeatEnd::Times((rounds / n) as u32), steps, skip_last_rest: false })
    }

    fn amrap(&mut self, obj: &Map<String, Value>, path: &str, steps: Vec<SpecStep>) -> Option<RepeatStep> {
        let given: Vec<(&str, &Value)> = ["duration_min", "duration_s"]
            .into_iter()
            .filter_map(|k| field(obj, k).map(|v| (k, v)))
            .collect();
        let end = match given.as_slice() {
            [] => {
                self.push(join(path, "duration_min"), "how long, e.g. \"duration_min\": 12", MISSING);
                None
            }
            [(key, value)] => {
                let key = if *key == "duration_min" { "until_min" } else { "until_s" };
                self.repeat_until(key, value, path, Some(SpecSport::Hiit))
            }
            [_, (key, value), ..] => {
                self.push(join(path, key), "one of duration_min or duration_s", describe(value));
                None
            }
        };
        Some(RepeatStep { end: end?, steps, skip_last_rest: false })
    }

    /// Work steps ending after `seconds`; reps written on one become its note.
    fn timed(&mut self, work: Vec<WorkStep>, path: &str, seconds: f64, form: &str) -> Option<Vec<SpecStep>> {
        let mut out = Vec::new();
        for (i, mut step) in work.into_iter().enumerate() {
            match step.end {
                StepEnd::LapButton => {}
                StepEnd::Reps { count } => {
                    let reps = format!("{count} reps");
                    step.description = Some(match step.description.take() {
                        Some(note) => format!("{reps} · {note}"),
                        None => reps,
                    });
                }
                _ => {
                    self.push(
                        format!("{path}[{i}]"),
                        format!("reps or no end (each {form} step lasts {seconds} s)"),
                        "another end",
                    );
                    return None;
                }
            }
            step.end = StepEnd::Time { seconds };
            out.push(SpecStep::Work(step));
        }
        Some(out)
    }
}
