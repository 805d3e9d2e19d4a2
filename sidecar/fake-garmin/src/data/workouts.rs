//! Workout-service JSON: the id tables (reference §5.1) and the server-side normalisation a
//! create/update goes through, reproducing what the recorded round trips show (reference §5):
//! every type object gets its canonical key and `displayOrder`; `stepOrder` is renumbered with
//! one depth-first counter across all segments; step ids are replaced by 10–11 digit ids;
//! repeat groups are numbered 1, 2, … in `childStepId` (the group and its direct children);
//! numbers come back as floats; names longer than 255 characters are cut to 253 + `...`;
//! unknown ids and malformed bodies are refused (400) instead of stored.

use serde_json::{Map, Value};

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
            let iterations = s
                .get("numberOfIterations")
                .and_then(Value::as_u64)
                .or_else(|| s.get("endConditionValue").and_then(Value::as_f64).map(|v| v as u64))
                .filter(|n| *n > 0)
                .ok_or("a repeat group needs numberOfIterations > 0")?;
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
            m.insert("numberOfIterations".into(), iterations.into());
            m.insert("workoutSteps".into(), Value::Array(children));
            m.insert("endConditionValue".into(), (iterations as f64).into());
            m.insert("preferredEndConditionUnit".into(), Value::Null);
            m.insert("endConditionCompare".into(), Value::Null);
            m.insert("endCondition".into(), end_condition(7));
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
            m.insert("category".into(), text(s.get("category")));
            m.insert("exerciseName".into(), text(s.get("exerciseName")));
            m.insert("workoutProvider".into(), Value::Null);
            m.insert("providerExerciseSourceId".into(), Value::Null);
            m.insert("weightValue".into(), float(s.get("weightValue")));
            m.insert("weightUnit".into(), unit(s.get("weightUnit")));
        }
        other => return Err(format!("unknown step type {other:?} (ExecutableStepDTO or RepeatGroupDTO)")),
    }
    Ok(Value::Object(m))
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
