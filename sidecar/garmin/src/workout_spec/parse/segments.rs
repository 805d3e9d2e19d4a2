//! A multisport workout's `segments` and `transitions`, and the layout rule: Garmin's server
//! silently splits or reorders a leg whose steps it does not keep as they are (reference §3.1,
//! from kaiord's live spikes), so only the layouts it keeps are accepted — the first leg may be
//! `warmup` or `warmup + repeat`, the last `work + cooldown` or `cooldown`, any leg one work step
//! or one repeat.

use serde_json::{Map, Value};

use super::{Parser, field, join};
use crate::workout_spec::errors::{MISSING, describe};
use crate::workout_spec::rules::{Shape, layout_kept};
use crate::workout_spec::{MAX_SEGMENTS, SpecSegment, SpecSport, SpecStep, StepKind};

const SEGMENT_FIELDS: &[&str] = &["sport", "pool_length_m", "steps"];
const LAYOUTS: &str = "one work step (interval, recovery, rest) or one repeat; the first leg may also be \
     warmup or warmup + repeat, the last work step + cooldown or cooldown";

fn shape(step: &SpecStep) -> Shape {
    match step {
        SpecStep::Repeat(_) => Shape::Repeat,
        SpecStep::Work(w) if w.kind == StepKind::Warmup => Shape::Warmup,
        SpecStep::Work(w) if w.kind == StepKind::Cooldown => Shape::Cooldown,
        SpecStep::Work(_) => Shape::Work,
    }
}

impl Parser {
    /// The segments (`None` when invalid) and the transition flag.
    pub(in crate::workout_spec) fn multisport(
        &mut self,
        obj: &Map<String, Value>,
    ) -> (Option<Vec<SpecSegment>>, bool) {
        if let Some(value) = field(obj, "steps") {
            self.push(
                "steps",
                "no top-level steps in a multisport workout: each leg has its own in \"segments\"",
                describe(value),
            );
        }
        let transitions = match field(obj, "transitions") {
            None => false,
            Some(Value::Bool(b)) => *b,
            Some(other) => {
                self.push(
                    "transitions",
                    "true (the watch asks for a lap press between legs) or false",
                    describe(other),
                );
                false
            }
        };
        let expected = format!(
            "2-{MAX_SEGMENTS} legs, e.g. [{{\"sport\": \"bike\", \"steps\": [...]}}, {{\"sport\": \"run\", \"steps\": [...]}}]"
        );
        let items = match field(obj, "segments") {
            Some(Value::Array(items)) if (2..=MAX_SEGMENTS).contains(&items.len()) => items,
            Some(other) => {
                self.push("segments", expected, describe(other));
                return (None, transitions);
            }
            None => {
                self.push("segments", expected, MISSING);
                return (None, transitions);
            }
        };
        let count = items.len();
        let segments: Vec<Option<SpecSegment>> =
            items.iter().enumerate().map(|(i, item)| self.segment(item, i, count)).collect();
        let segments: Option<Vec<SpecSegment>> = segments.into_iter().collect();
        if let Some(segments) = &segments {
            self.one_pool(segments);
        }
        (segments, transitions)
    }

    fn segment(&mut self, value: &Value, index: usize, count: usize) -> Option<SpecSegment> {
        let path = format!("segments[{index}]");
        let Some(obj) = value.as_object() else {
            self.push(&path, "a leg: {\"sport\": \"run\", \"steps\": [...]}", describe(value));
            return None;
        };
        for key in obj.keys().filter(|k| !SEGMENT_FIELDS.contains(&k.as_str())) {
            self.unknown(&join(&path, key), key, SEGMENT_FIELDS, "segment");
        }
        let sport = self.segment_sport(obj.get("sport"), &join(&path, "sport"));
        let pool = self.pool_length(obj, sport, &path);
        let steps = self.steps(obj.get("steps"), &join(&path, "steps"), sport, 0)?;
        let shapes: Vec<Shape> = steps.iter().map(shape).collect();
        if !layout_kept(&shapes, index == 0, index + 1 == count) {
            let written: Vec<&str> = steps
                .iter()
                .map(|s| match shape(s) {
                    Shape::Warmup => "warmup",
                    Shape::Cooldown => "cooldown",
                    Shape::Work => "work step",
                    Shape::Repeat => "repeat",
                })
                .collect();
            self.push(
                join(&path, "steps"),
                format!(
                    "a layout Garmin keeps as it is ({LAYOUTS}); Garmin would silently split or reorder this one: \
                     put each work step in its own leg, or wrap several in one repeat"
                ),
                written.join(" + "),
            );
            return None;
        }
        Some(SpecSegment { sport: sport?, pool_length_m: pool, steps })
    }

    fn segment_sport(&mut self, value: Option<&Value>, path: &str) -> Option<SpecSport> {
        let before = self.problems_len();
        let sport = self.sport(value);
        if self.problems_len() > before {
            self.relocate_last(path);
            return None;
        }
        match sport {
            Some(s) if s.is_endurance() => Some(s),
            Some(other) => {
                self.push(
                    path,
                    "run, bike or swim (the legs of a multisport workout)",
                    format!("\"{}\"", other.as_str()),
                );
                None
            }
            None => None,
        }
    }

    /// Garmin keeps one pool length on the workout: swim legs must agree.
    fn one_pool(&mut self, segments: &[SpecSegment]) {
        let pools: Vec<(usize, f64)> =
            segments.iter().enumerate().filter_map(|(i, s)| s.pool_length_m.map(|p| (i, p))).collect();
        if let Some((i, p)) = pools.iter().find(|(_, p)| *p != pools[0].1) {
            self.push(
                format!("segments[{i}].pool_length_m"),
                format!(
                    "the same pool as the first swim leg ({} m): Garmin keeps one pool length per workout",
                    pools[0].1
                ),
                p.to_string(),
            );
        }
    }
}
