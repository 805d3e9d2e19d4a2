//! Workout-service JSON: the id tables (reference §5.1) and the server-side normalisation a
//! create/update goes through, reproducing what the recorded round trips show (reference §5):
//! every type object gets its canonical key and `displayOrder`; `stepOrder` is renumbered with
//! one depth-first counter across all segments; step ids are replaced by 10–11 digit ids;
//! repeat groups are numbered 1, 2, … in `childStepId` (the group and its direct children);
//! numbers come back as floats; names longer than 255 characters are cut to 253 + `...`;
//! unknown ids and malformed bodies are refused (400) instead of stored.
//!
//! Exercise-based and multisport bodies (research note `garmin-workouts-strength-multisport.md`),
//! each behaviour with its source and confidence:
//!
//! * a step `category` Garmin does not accept refuses the whole workout with `400 Invalid
//!   category` (§1.9: Taxuspt PR #213, garminconnect-js; high);
//! * an `exerciseName` Garmin does not know under its category is stored as `""`, silently
//!   (§1.9: garminconnect-js `exercises.ts`, AbhimanyuV04/garmin-mcp; high);
//! * a repeat group ending by `iterations` (id 7) keeps its count; by `time` (id 2) it is the HIIT
//!   editor's "Repeat Until Time Is", stored without a count (§1.5: garminconnect-js, confirmed live
//!   2026-09-23; high); with any other end or none it is silently stored with a `heart.rate` end and
//!   no `numberOfIterations` (§1.5: Taxuspt issue #112; medium — the report shows the symptom, the
//!   exact trigger is inferred);
//! * in a multisport workout, repeated `stepOrder`s answer `400 "The workout steps need to have
//!   unique step orders, …"` (§3.1: garminconnect-js validation doc §7, kaiord §4; high); in a
//!   one-sport workout Garmin renumbers them depth first (kaiord's recorded strength round trip;
//!   medium, garminconnect-js reports the 400 without saying which kind of workout);
//! * a multisport leg laid out other than Garmin keeps it is split (§3.1: kaiord
//!   MULTISPORT-TRANSITIONS §2, spikes 1562019589/1562037033; high that it splits, low on exactly
//!   how: here every extra work step or repeat becomes a leg of its own of the same sport, a
//!   warm-up stays with what follows it and a cool-down with what precedes it);
//! * weights are stored as sent, in the unit sent (§1.4: a live round trip kept 62.5 kg; high).

use serde_json::{Map, Value};

pub mod exercises;
mod tables;

pub use tables::{END_CONDITIONS, EQUIPMENT, SPORTS, STEP_TYPES, STROKES, TARGETS, UNITS};

/// Who owns a workout and when it was written.
#[derive(Clone, Debug)]
pub struct Stamp {
    /// `workoutId`.
    pub workout_id: u64,
    /// Owner's profile id.
    pub owner: u64,
    /// Owner's display name.
    pub display_name: String,
    /// Owner's full name.
    pub full_name: String,
    /// `createdDate` (`2026-02-08T00:57:16.0`).
    pub created: String,
    /// `updatedDate`.
    pub updated: String,
}

/// Renumbering state threaded through the steps.
struct Counters {
    order: u64,
    group: u64,
    next_step_id: u64,
}

/// Normalises a create/update body into the stored (and returned) workout; `Err` is the 400 text.
pub fn normalize(body: &Value, stamp: &Stamp, first_step_id: u64) -> Result<Value, String> {
    let body = body.as_object().ok_or("workout body must be a JSON object")?;
    let name = body.get("workoutName").and_then(Value::as_str).map(str::trim).unwrap_or_default();
    if name.is_empty() {
        return Err("workoutName must not be empty".into());
    }
    let name = if name.chars().count() > 255 {
        format!("{}...", name.chars().take(253).collect::<String>())
    } else {
        name.to_owned()
    };
    if body.get("subSportType").is_some_and(|v| !v.is_null()) {
        return Err("subSportType is not supported".into());
    }
    let sport = sport_type(body.get("sportType"))?;
    let multisport = sport["sportTypeId"] == 10;
    let segments = body
        .get("workoutSegments")
        .and_then(Value::as_array)
        .filter(|s| !s.is_empty())
        .ok_or("workoutSegments must be a non-empty array")?;
    if multisport && has_duplicate_orders(segments) {
        return Err(DUPLICATE_STEP_ORDER.into());
    }
    let rewritten;
    let segments = if multisport {
        rewritten = rewrite_segments(segments);
        &rewritten
    } else {
        segments
    };
    let mut c = Counters { order: 0, group: 0, next_step_id: first_step_id };
    let mut out_segments = Vec::new();
    for (i, seg) in segments.iter().enumerate() {
        let seg = seg.as_object().ok_or("each workout segment must be an object")?;
        let seg_sport = match seg.get("sportType") {
            Some(v) if !v.is_null() => sport_type(Some(v))?,
            _ => sport.clone(),
        };
        let steps = seg
            .get("workoutSteps")
            .and_then(Value::as_array)
            .filter(|s| !s.is_empty())
            .ok_or("each segment needs a non-empty workoutSteps array")?;
        let steps = steps.iter().map(|s| step(s, None, &mut c)).collect::<Result<Vec<_>, _>>()?;
        let keep =
            |k: &str| if multisport { seg.get(k).cloned().unwrap_or(Value::Null) } else { Value::Null };
        let mut m = Map::new();
        m.insert("segmentOrder".into(), (i as u64 + 1).into());
        m.insert("sportType".into(), seg_sport);
        m.insert("poolLength".into(), if multisport { float(seg.get("poolLength")) } else { Value::Null });
        m.insert(
            "poolLengthUnit".into(),
            if multisport { unit(seg.get("poolLengthUnit")) } else { Value::Null },
        );
        m.insert("avgTrainingSpeed".into(), keep("avgTrainingSpeed"));
        m.insert("estimatedDurationInSecs".into(), keep("estimatedDurationInSecs"));
        m.insert("estimatedDistanceInMeters".into(), keep("estimatedDistanceInMeters"));
        m.insert(
            "estimatedDistanceUnit".into(),
            if multisport { unit(seg.get("estimatedDistanceUnit")) } else { Value::Null },
        );
        m.insert("estimateType".into(), keep("estimateType"));
        m.insert("description".into(), text(seg.get("description")));
        m.insert("workoutSteps".into(), Value::Array(steps));
        out_segments.push(Value::Object(m));
    }
    let mut w = Map::new();
    w.insert("workoutId".into(), stamp.workout_id.into());
    w.insert("ownerId".into(), stamp.owner.into());
    w.insert("workoutName".into(), name.into());
    w.insert("description".into(), text(body.get("description")));
    w.insert("updatedDate".into(), stamp.updated.clone().into());
    w.insert("createdDate".into(), stamp.created.clone().into());
    w.insert("sportType".into(), sport);
    w.insert("subSportType".into(), Value::Null);
    w.insert("trainingPlanId".into(), Value::Null);
    w.insert("author".into(), author(stamp));
    w.insert("sharedWithUsers".into(), Value::Null);
    w.insert("estimatedDurationInSecs".into(), whole_number(body.get("estimatedDurationInSecs")).into());
    w.insert("estimatedDistanceInMeters".into(), whole_number(body.get("estimatedDistanceInMeters")).into());
    w.insert("workoutSegments".into(), Value::Array(out_segments));
    w.insert("poolLength".into(), float(body.get("poolLength")));
    w.insert("poolLengthUnit".into(), unit(body.get("poolLengthUnit")));
    for k in [
        "locale",
        "workoutProvider",
        "workoutSourceId",
        "uploadTimestamp",
        "atpPlanId",
        "consumer",
        "consumerName",
        "consumerImageURL",
        "consumerWebsiteURL",
        "workoutNameI18nKey",
        "descriptionI18nKey",
        "workoutThumbnailUrl",
    ] {
        w.insert(k.into(), Value::Null);
    }
    let speed = body.get("avgTrainingSpeed").filter(|v| v.is_number()).cloned().unwrap_or_else(|| 0.into());
    w.insert("avgTrainingSpeed".into(), speed);
    w.insert(
        "estimateType".into(),
        body.get("estimateType").filter(|v| v.is_string()).cloned().unwrap_or(Value::Null),
    );
    let est_unit = unit(body.get("estimatedDistanceUnit"));
    w.insert(
        "estimatedDistanceUnit".into(),
        if est_unit.is_null() {
            serde_json::json!({"unitId": null, "unitKey": null, "factor": null})
        } else {
            est_unit
        },
    );
    w.insert(
        "isSessionTransitionEnabled".into(),
        body.get("isSessionTransitionEnabled").filter(|v| v.is_boolean()).cloned().unwrap_or(Value::Null),
    );
    w.insert("shared".into(), false.into());
    Ok(Value::Object(w))
}

/// The `author` object of a workout.
pub fn author(stamp: &Stamp) -> Value {
    let mut m = Map::new();
    m.insert("userProfilePk".into(), stamp.owner.into());
    m.insert("displayName".into(), stamp.display_name.clone().into());
    m.insert("fullName".into(), stamp.full_name.clone().into());
    for k in ["profileImgNameLarge", "profileImgNameMedium", "profileImgNameSmall"] {
        m.insert(k.into(), Value::Null);
    }
    m.insert("userPro".into(), false.into());
    m.insert("vivokidUser".into(), false.into());
    Value::Object(m)
}

fn step(v: &Value, group: Option<u64>, c: &mut Counters) -> Result<Value, String> {
    let s = v.as_object().ok_or("each workout step must be an object")?;
    c.order += 1;
    let step_id = c.next_step_id;
    c.next_step_id += 1;
    let kind = s.get("type").and_then(Value::as_str).unwrap_or_default();
    // A repeat group is always step type 6; captured editor-less bodies leave it out.
    let step_type = if kind == "RepeatGroupDTO" {
        table_obj(6, "stepTypeId", "stepTypeKey", STEP_TYPES)
    } else {
        let t = typed(s.get("stepType"), "stepTypeId", "stepTypeKey", STEP_TYPES, "stepType")?;
        if t["stepTypeId"] == 6 {
            return Err("an ExecutableStepDTO cannot have step type repeat".into());
        }
        t
    };
    let mut m = Map::new();
    m.insert("stepId".into(), step_id.into());
    m.insert("stepOrder".into(), c.order.into());
    match kind {
        "RepeatGroupDTO" => {
            let count = s
                .get("numberOfIterations")
                .and_then(Value::as_u64)
                .or_else(|| s.get("endConditionValue").and_then(Value::as_f64).map(|v| v as u64))
                .filter(|n| *n > 0);
            let end_id = s.get("endCondition").and_then(|e| e.get("conditionTypeId")).and_then(Value::as_u64);
            let sent_value = s.get("endConditionValue").and_then(Value::as_f64);
            // (numberOfIterations, end condition, endConditionValue) as Garmin stores them.
            let (iterations, end, value) = match end_id {
                Some(7) => {
                    let n = count.ok_or("a repeat group needs numberOfIterations > 0")?;
                    (Value::from(n), 7, Value::from(n as f64))
                }
                Some(2) => {
                    let seconds =
                        sent_value.filter(|v| *v > 0.0).ok_or("a repeat until a time needs its seconds")?;
                    (Value::Null, 2, Value::from(seconds))
                }
                // Taxuspt #112: no iterations end → a heart-rate end and no count, silently.
                _ => {
                    (Value::Null, 6, sent_value.or(count.map(|n| n as f64)).map_or(Value::Null, Value::from))
                }
            };
            c.group += 1;
            let me = c.group;
            let children = s
                .get("workoutSteps")
                .and_then(Value::as_array)
                .filter(|s| !s.is_empty())
                .ok_or("a repeat group needs workoutSteps")?;
            let children = children.iter().map(|ch| step(ch, Some(me), c)).collect::<Result<Vec<_>, _>>()?;
            m.insert("type".into(), "RepeatGroupDTO".into());
            m.insert("stepType".into(), step_type);
            m.insert("childStepId".into(), me.into());
            m.insert("numberOfIterations".into(), iterations);
            m.insert("workoutSteps".into(), Value::Array(children));
            m.insert("endConditionValue".into(), value);
            m.insert("preferredEndConditionUnit".into(), Value::Null);
            m.insert("endConditionCompare".into(), Value::Null);
            m.insert("endCondition".into(), end_condition(end));
            m.insert(
                "skipLastRestStep".into(),
                s.get("skipLastRestStep").filter(|v| v.is_boolean()).cloned().unwrap_or(Value::Null),
            );
            m.insert(
                "smartRepeat".into(),
                s.get("smartRepeat").and_then(Value::as_bool).unwrap_or(false).into(),
            );
        }
        "ExecutableStepDTO" => {
            let end = s
                .get("endCondition")
                .and_then(|e| e.get("conditionTypeId"))
                .and_then(Value::as_u64)
                .ok_or("a step needs endCondition.conditionTypeId")?;
            if !END_CONDITIONS.iter().any(|(id, _)| *id == end) || end == 7 {
                return Err(format!("unknown end condition {end}"));
            }
            let target = match s.get("targetType") {
                None | Some(Value::Null) => {
                    table_obj(1, "workoutTargetTypeId", "workoutTargetTypeKey", TARGETS)
                }
                some => typed(some, "workoutTargetTypeId", "workoutTargetTypeKey", TARGETS, "targetType")?,
            };
            let secondary = match s.get("secondaryTargetType") {
                None | Some(Value::Null) => Value::Null,
                some => typed(
                    some,
                    "workoutTargetTypeId",
                    "workoutTargetTypeKey",
                    TARGETS,
                    "secondaryTargetType",
                )?,
            };
            m.insert("type".into(), "ExecutableStepDTO".into());
            m.insert("stepType".into(), step_type);
            m.insert("childStepId".into(), group.map_or(Value::Null, Value::from));
            m.insert("description".into(), text(s.get("description")));
            m.insert("endCondition".into(), end_condition(end));
            m.insert("endConditionValue".into(), float(s.get("endConditionValue")));
            m.insert("preferredEndConditionUnit".into(), unit(s.get("preferredEndConditionUnit")));
            m.insert("endConditionCompare".into(), text(s.get("endConditionCompare")));
            m.insert("targetType".into(), target);
            m.insert("targetValueOne".into(), float(s.get("targetValueOne")));
            m.insert("targetValueTwo".into(), float(s.get("targetValueTwo")));
            m.insert("targetValueUnit".into(), Value::Null);
            m.insert("zoneNumber".into(), zone(s.get("zoneNumber")));
            m.insert("secondaryTargetType".into(), secondary);
            m.insert("secondaryTargetValueOne".into(), float(s.get("secondaryTargetValueOne")));
            m.insert("secondaryTargetValueTwo".into(), float(s.get("secondaryTargetValueTwo")));
            m.insert("secondaryTargetValueUnit".into(), Value::Null);
            m.insert("secondaryZoneNumber".into(), zone(s.get("secondaryZoneNumber")));
            m.insert("endConditionZone".into(), Value::Null);
            m.insert(
                "strokeType".into(),
                lenient(s.get("strokeType"), "strokeTypeId", "strokeTypeKey", STROKES),
            );
            m.insert(
                "equipmentType".into(),
                lenient(s.get("equipmentType"), "equipmentTypeId", "equipmentTypeKey", EQUIPMENT),
            );
            let (category, name) = exercise(s)?;
            m.insert("category".into(), category);
            m.insert("exerciseName".into(), name);
            m.insert("workoutProvider".into(), Value::Null);
            m.insert("providerExerciseSourceId".into(), Value::Null);
            m.insert("weightValue".into(), float(s.get("weightValue")));
            m.insert("weightUnit".into(), unit(s.get("weightUnit")));
        }
        other => return Err(format!("unknown step type {other:?} (ExecutableStepDTO or RepeatGroupDTO)")),
    }
    Ok(Value::Object(m))
}

/// Garmin's answer to repeated step orders in a multisport workout.
pub const DUPLICATE_STEP_ORDER: &str = "The workout steps need to have unique step orders, or all be unset and rely on submission structure order.";

/// A step's `category` and `exerciseName` as Garmin stores them: an unknown category refuses the
/// workout, an unknown name under a known category becomes `""` (see the module doc).
fn exercise(s: &Map<String, Value>) -> Result<(Value, Value), String> {
    let Some(category) = s.get("category").and_then(Value::as_str) else {
        return Ok((Value::Null, text(s.get("exerciseName"))));
    };
    if !exercises::is_category(category) {
        return Err("Invalid category".into());
    }
    let name = match s.get("exerciseName").and_then(Value::as_str) {
        None => Value::Null,
        Some(name) if name.is_empty() || exercises::knows(category, name) => Value::from(name),
        Some(_) => Value::from(""),
    };
    Ok((Value::from(category), name))
}

/// Whether two steps anywhere in the workout (repeat children and every segment included) share a
/// `stepOrder`.
fn has_duplicate_orders(segments: &[Value]) -> bool {
    fn walk(steps: &Value, seen: &mut std::collections::HashSet<i64>) -> bool {
        steps.as_array().into_iter().flatten().any(|s| {
            let repeated = s.get("stepOrder").and_then(Value::as_i64).is_some_and(|o| !seen.insert(o));
            repeated || walk(&s["workoutSteps"], seen)
        })
    }
    let mut seen = std::collections::HashSet::new();
    segments.iter().any(|seg| walk(&seg["workoutSteps"], &mut seen))
}

/// Whether a top-level step is a warm-up, a cool-down, or work (anything else, repeats included).
fn shape(step: &Value) -> &'static str {
    let key = step["stepType"]["stepTypeKey"].as_str();
    let id = step["stepType"]["stepTypeId"].as_u64();
    if step["type"] == "RepeatGroupDTO" {
        return "work";
    }
    match (key, id) {
        (Some("warmup"), _) | (None, Some(1)) => "warmup",
        (Some("cooldown"), _) | (None, Some(2)) => "cooldown",
        _ => "work",
    }
}

/// Garmin's segment rewrite (see the module doc): each leg keeps one work step or one repeat, a
/// warm-up before a repeat on the first leg and a cool-down after a work step on the last; the rest
/// of a leg's steps become legs of their own, in order, of the same sport.
fn rewrite_segments(segments: &[Value]) -> Vec<Value> {
    let mut out = Vec::new();
    let count = segments.len();
    for (i, seg) in segments.iter().enumerate() {
        let steps = seg["workoutSteps"].as_array().cloned().unwrap_or_default();
        let mut pieces: Vec<Vec<Value>> = Vec::new();
        for step in steps {
            let repeat = step["type"] == "RepeatGroupDTO";
            let joins = match (pieces.last().map(Vec::as_slice), shape(&step)) {
                // warmup + repeat on the first leg.
                (Some([w]), "work") => repeat && i == 0 && shape(w) == "warmup",
                // one work step + cooldown on the last leg.
                (Some([w]), "cooldown") => {
                    i + 1 == count && shape(w) == "work" && w["type"] != "RepeatGroupDTO"
                }
                _ => false,
            };
            match pieces.last_mut() {
                Some(last) if joins => last.push(step),
                _ => pieces.push(vec![step]),
            }
        }
        for piece in pieces {
            let mut leg = seg.clone();
            leg["workoutSteps"] = Value::Array(piece);
            out.push(leg);
        }
    }
    out
}

/// Validates a sport type object against [`SPORTS`] (by id, or by key when the id is missing).
fn sport_type(v: Option<&Value>) -> Result<Value, String> {
    let v = v.and_then(Value::as_object).ok_or("sportType is required")?;
    let by_id = v.get("sportTypeId").and_then(Value::as_u64);
    let by_key = v.get("sportTypeKey").and_then(Value::as_str);
    let (id, key, order) = SPORTS
        .iter()
        .find(|(id, key, _)| by_id.map_or(Some(*key) == by_key, |b| b == *id))
        .ok_or_else(|| format!("unknown sportType {}", Value::Object(v.clone())))?;
    let mut m = Map::new();
    m.insert("sportTypeId".into(), (*id).into());
    m.insert("sportTypeKey".into(), (*key).into());
    m.insert("displayOrder".into(), (*order).into());
    Ok(Value::Object(m))
}

/// Validates a `{<id>, <key>}` type object against `table`; the canonical key and `displayOrder` = id.
fn typed(
    v: Option<&Value>,
    id_key: &str,
    key_key: &str,
    table: &[(u64, &str)],
    what: &str,
) -> Result<Value, String> {
    let obj = v.and_then(Value::as_object).ok_or_else(|| format!("{what} must be an object"))?;
    let by_id = obj.get(id_key).and_then(Value::as_u64);
    let by_key =
        obj.get(key_key).and_then(Value::as_str).map(|k| if k == "cadence.zone" { "cadence" } else { k });
    let found = table.iter().find(|(id, key)| by_id.map_or(Some(*key) == by_key, |b| b == *id));
    let (id, _) = found.ok_or_else(|| format!("unknown {what} {}", Value::Object(obj.clone())))?;
    Ok(table_obj(*id, id_key, key_key, table))
}

/// Like [`typed`], but unknown or missing ids become id 0 with a null key (strokes, equipment).
fn lenient(v: Option<&Value>, id_key: &str, key_key: &str, table: &[(u64, &str)]) -> Value {
    let id = v
        .and_then(|o| o.get(id_key))
        .and_then(Value::as_u64)
        .filter(|id| table.iter().any(|(t, _)| t == id))
        .unwrap_or(0);
    table_obj(id, id_key, key_key, table)
}

fn table_obj(id: u64, id_key: &str, key_key: &str, table: &[(u64, &str)]) -> Value {
    let key = table.iter().find(|(t, _)| *t == id).map_or(Value::Null, |(_, k)| Value::from(*k));
    let mut m = Map::new();
    m.insert(id_key.into(), id.into());
    m.insert(key_key.into(), key);
    m.insert("displayOrder".into(), id.into());
    Value::Object(m)
}

fn end_condition(id: u64) -> Value {
    let mut m = Map::new();
    m.insert("conditionTypeId".into(), id.into());
    m.insert(
        "conditionTypeKey".into(),
        END_CONDITIONS.iter().find(|(t, _)| *t == id).map_or("", |(_, k)| k).into(),
    );
    m.insert("displayOrder".into(), id.into());
    m.insert("displayable".into(), (id != 7).into());
    Value::Object(m)
}

/// A unit object `{unitId, unitKey, factor}` from a request's `{unitKey}` or `{unitId}`; null when unknown.
fn unit(v: Option<&Value>) -> Value {
    let Some(obj) = v.and_then(Value::as_object) else { return Value::Null };
    let id = obj.get("unitId").and_then(Value::as_u64);
    let key = obj.get("unitKey").and_then(Value::as_str);
    match UNITS.iter().find(|(i, k, _)| Some(*i) == id || Some(*k) == key) {
        Some((i, k, f)) => serde_json::json!({"unitId": i, "unitKey": k, "factor": f}),
        None => Value::Null,
    }
}

/// A number as a float; anything else becomes null.
fn float(v: Option<&Value>) -> Value {
    v.and_then(Value::as_f64).map_or(Value::Null, Value::from)
}

/// A zone number (`"2"` in, `2` out).
fn zone(v: Option<&Value>) -> Value {
    match v {
        Some(Value::Number(n)) => n.as_f64().map_or(Value::Null, |f| Value::from(f as u64)),
        Some(Value::String(s)) => s.trim().parse::<u64>().map_or(Value::Null, Value::from),
        _ => Value::Null,
    }
}

fn text(v: Option<&Value>) -> Value {
    v.filter(|v| v.is_string()).cloned().unwrap_or(Value::Null)
}

/// Copies of every step id in a stored workout (depth first), for tests and the FIT route.
pub fn step_ids(workout: &Value) -> Vec<u64> {
    fn walk(steps: &Value, out: &mut Vec<u64>) {
        for s in steps.as_array().into_iter().flatten() {
            out.extend(s.get("stepId").and_then(Value::as_u64));
            walk(&s["workoutSteps"], out);
        }
    }
    let mut out = Vec::new();
    for seg in workout["workoutSegments"].as_array().into_iter().flatten() {
        walk(&seg["workoutSteps"], &mut out);
    }
    out
}

/// A non-negative number rounded to a whole one, as Garmin stores its estimates (0 when absent).
fn whole_number(value: Option<&Value>) -> u64 {
    value.and_then(Value::as_f64).filter(|v| v.is_finite() && *v >= 0.0).map_or(0, |v| v.round() as u64)
}

/// The workout step each lap of a run that followed `workout` was run under, as the watch records
/// it in `wktStepIndex`: the index of the step in the FIT workout the watch was sent, which is
/// flat — each segment's steps in order, a repeat group's children first and then the repeat step
/// itself (FIT profile `repeat_until_steps_cmplt`; the JSON's `stepOrder` numbers the group first
/// instead). Confidence: *unverified* — the API reference names the field without a captured pair
/// of a workout and its run's splits (the `garmin` crate's `Workout::steps_by_step_index` maps it
/// back the same way).
///
/// A lap is put under a step by its intensity (`WARMUP` a warm-up, `ACTIVE`/`INTERVAL` an
/// interval, `RECOVERY` a recovery, `REST` a rest, `COOLDOWN` a cool-down): the first such step
/// from the one the previous lap was under onwards, or, past the last, from the start again (the
/// next repetition of a repeat group). Several laps may share a step (auto-laps inside a long
/// step); a lap with no such step has none.
pub fn lap_step_indexes(workout: &Value, intensities: &[&str]) -> Vec<Option<usize>> {
    fn flatten<'a>(steps: &'a [Value], out: &mut Vec<Option<&'a str>>) {
        for step in steps {
            let kind = step.pointer("/stepType/stepTypeKey").and_then(Value::as_str);
            if step.get("type").and_then(Value::as_str) == Some("RepeatGroupDTO") {
                flatten(step.get("workoutSteps").and_then(Value::as_array).map_or(&[], Vec::as_slice), out);
                out.push(None);
            } else {
                out.push(kind);
            }
        }
    }
    let mut flat = Vec::new();
    for segment in workout.get("workoutSegments").and_then(Value::as_array).into_iter().flatten() {
        flatten(segment.get("workoutSteps").and_then(Value::as_array).map_or(&[], Vec::as_slice), &mut flat);
    }
    let mut at = 0;
    intensities
        .iter()
        .map(|intensity| {
            let kind = match *intensity {
                "WARMUP" => "warmup",
                "COOLDOWN" => "cooldown",
                "RECOVERY" => "recovery",
                "REST" => "rest",
                "ACTIVE" | "INTERVAL" => "interval",
                _ => return None,
            };
            let found = (at..flat.len()).chain(0..at).find(|&i| flat[i] == Some(kind))?;
            at = found;
            Some(found)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_runs_laps_carry_the_flat_fit_index_of_the_step_they_were_run_under() {
        // warm-up 0; repeat of (interval 1, recovery 2) is step 3; cool-down 4.
        let step =
            |kind: &str| serde_json::json!({"type": "ExecutableStepDTO", "stepType": {"stepTypeKey": kind}});
        let workout = serde_json::json!({"workoutSegments": [{"workoutSteps": [
            step("warmup"),
            {"type": "RepeatGroupDTO", "stepType": {"stepTypeKey": "repeat"}, "workoutSteps": [step("interval"), step("recovery")]},
            step("cooldown"),
        ]}]});
        let laps = ["WARMUP", "ACTIVE", "RECOVERY", "ACTIVE", "RECOVERY", "COOLDOWN", "COOLDOWN", "REST"];
        assert_eq!(
            lap_step_indexes(&workout, &laps),
            vec![Some(0), Some(1), Some(2), Some(1), Some(2), Some(4), Some(4), None]
        );
    }
}
