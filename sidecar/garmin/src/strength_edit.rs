//! Correcting a finished strength session ("the watch thought my rows were curls"): the person's
//! corrections of some sets (another exercise, reps, weight, time) checked against Garmin's
//! exercise catalogue, applied to the sets Garmin holds, the whole list in the shape Garmin's
//! `PUT /activity-service/activity/{id}/exerciseSets` takes ([`SavedSet`]), and the change in words,
//! set by set, old → new (English or Chinese).
//!
//! Garmin's rules (research note `garmin-workouts-strength-multisport.md` §2.2): the `PUT` replaces
//! every set (so the body is the full list, each set as read, with only the corrected fields
//! changed); weights in **grams**, durations in **seconds**; a corrected exercise is one guess at
//! probability 100 (what Connect stores for a set the person confirmed); Garmin refuses the whole
//! body (`400 "Invalid Sub-Category Passed"`) for an exercise name it does not know, so every name is
//! resolved in the catalogue first and an unknown or ambiguous one is refused with the three
//! closest before anything is sent. Sets are numbered 1, 2, 3… in order, rests not counted: the
//! numbers `get_activity` lists them by. Pure functions: the request is
//! [`crate::api::ActivitiesApi::replace_exercise_sets`], the write a [`crate::changes::Change`].

use serde::{Deserialize, Serialize};

use crate::exercises::{self, List, Lookup, Resolved};
use crate::models::activities::{ExerciseSet, ExerciseSets};
use crate::workout_spec::{GRAMS_PER_POUND, Language, MAX_WEIGHT_KG};

/// Most reps a corrected set may have.
pub const MAX_REPS: u32 = 1000;
/// Longest a corrected set may last, seconds.
pub const MAX_DURATION_S: f64 = 3.0 * 3600.0;

/// One set as Garmin's `PUT …/exerciseSets` takes it (the shape its `GET` answers with).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SavedSet {
    /// The exercise guesses, most likely first; a corrected set has one, at 100.
    pub exercises: Vec<SavedExercise>,
    /// Seconds.
    pub duration: Option<f64>,
    /// Repetitions.
    pub repetition_count: Option<u32>,
    /// Grams.
    pub weight: Option<f64>,
    /// `ACTIVE` or `REST`.
    pub set_type: String,
    /// Start, GMT, as Garmin writes it (`2026-05-27T05:20:24.0`).
    pub start_time: Option<String>,
    /// The workout step it was done under.
    pub wkt_step_index: Option<i64>,
    /// Its index in the activity's FIT file.
    pub message_index: Option<i64>,
}

/// One exercise guess of a [`SavedSet`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedExercise {
    /// Garmin's category, e.g. `ROW`.
    pub category: String,
    /// Garmin's exercise name under it, e.g. `BARBELL_ROW` (`None`: the category only).
    pub name: Option<String>,
    /// 0–100.
    pub probability: Option<f64>,
}

/// The body of `PUT …/exerciseSets`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExerciseSetsBody<'a> {
    /// The activity.
    pub activity_id: u64,
    /// Every set, in order.
    pub exercise_sets: &'a [SavedSet],
}

impl SavedSet {
    /// `set` as Garmin answered it, ready to be sent back.
    pub fn from_read(set: &ExerciseSet) -> SavedSet {
        let start_time = set
            .start_time
            .map(|t| format!("{}.{}", t.format("%Y-%m-%dT%H:%M:%S"), t.timestamp_subsec_millis() / 100));
        SavedSet {
            exercises: set
                .exercises
                .iter()
                .filter_map(|e| {
                    Some(SavedExercise {
                        category: e.category.clone().filter(|c| !c.is_empty())?,
                        name: e.name.clone().filter(|n| !n.is_empty()),
                        probability: e.probability,
                    })
                })
                .collect(),
            duration: set.duration,
            repetition_count: set
                .repetition_count
                .filter(|r| r.is_finite() && *r >= 0.0)
                .map(|r| r.round().min(f64::from(u32::MAX)) as u32),
            weight: set.weight,
            set_type: set.set_type.clone().unwrap_or_else(|| "ACTIVE".to_owned()),
            start_time,
            wkt_step_index: set.wkt_step_index,
            message_index: set.message_index,
        }
    }

    fn is_rest(&self) -> bool {
        self.set_type == "REST"
    }

    /// The most probable guess.
    fn best(&self) -> Option<&SavedExercise> {
        self.exercises
            .iter()
            .max_by(|a, b| a.probability.unwrap_or(0.0).total_cmp(&b.probability.unwrap_or(0.0)))
    }
}

/// Every set of `sets` in the shape Garmin takes back.
pub fn saved_sets(sets: &ExerciseSets) -> Vec<SavedSet> {
    sets.exercise_sets.iter().map(SavedSet::from_read).collect()
}

/// What to change in one set: any of the exercise, reps, weight and time (what is not given stays).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SetCorrection {
    /// The set's number, as get_activity lists the sets (1, 2, 3…; rests not counted).
    #[cfg_attr(feature = "schema", schemars(range(min = 1)))]
    pub set: u32,
    /// The exercise really done: Garmin key ("ROW/BARBELL_ROW"), English name ("barbell row") or
    /// Chinese name ("杠铃划船"), from Garmin's catalogue (get_workouts find_exercise searches it).
    #[serde(default)]
    pub exercise: Option<String>,
    /// Repetitions.
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(range(min = 1, max = 1000)))]
    pub reps: Option<u32>,
    /// Weight in kg (0 = body weight).
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(range(min = 0, max = 500)))]
    pub weight_kg: Option<f64>,
    /// Weight in pounds, instead of weight_kg.
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(range(min = 0, max = 1102)))]
    pub weight_lb: Option<f64>,
    /// Seconds of work (timed sets such as a plank).
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(range(min = 1, max = 10800)))]
    pub duration_s: Option<f64>,
}

/// A correction checked without the session: its exercise resolved, its weight in grams.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckedCorrection {
    /// The set's number (1-based, rests not counted).
    pub set: u32,
    /// The exercise, resolved in the catalogue.
    pub exercise: Option<Resolved>,
    /// Repetitions.
    pub reps: Option<u32>,
    /// Grams (0 = body weight).
    pub weight_g: Option<f64>,
    /// Seconds.
    pub duration_s: Option<f64>,
}

/// Checks every correction on its own (names, numbers, units), before Garmin is asked anything;
/// `Err` lists every problem, one a line.
pub fn check(corrections: &[SetCorrection]) -> Result<Vec<CheckedCorrection>, String> {
    let mut problems = Vec::new();
    let mut checked = Vec::new();
    if corrections.is_empty() {
        problems.push(
            "sets: give at least one correction, e.g. {\"set\": 3, \"exercise\": \"barbell row\"}".to_owned(),
        );
    }
    for (i, c) in corrections.iter().enumerate() {
        let at = format!("sets[{i}] (set {})", c.set);
        if corrections[..i].iter().any(|earlier| earlier.set == c.set) {
            problems
                .push(format!("{at}: set {} is corrected twice; put all its changes in one entry", c.set));
        }
        match check_one(c) {
            Ok(one) => checked.push(one),
            Err(why) => problems.extend(why.into_iter().map(|w| format!("{at}: {w}"))),
        }
    }
    if problems.is_empty() { Ok(checked) } else { Err(problems.join("\n")) }
}

fn check_one(c: &SetCorrection) -> Result<CheckedCorrection, Vec<String>> {
    let mut why = Vec::new();
    if c.set == 0 {
        why.push("sets are numbered from 1, as get_activity lists them".to_owned());
    }
    if c.exercise.is_none()
        && c.reps.is_none()
        && c.weight_kg.is_none()
        && c.weight_lb.is_none()
        && c.duration_s.is_none()
    {
        why.push("say what to change: exercise, reps, weight_kg (or weight_lb) or duration_s".to_owned());
    }
    let exercise = c.exercise.as_deref().and_then(|text| match resolve(text) {
        Ok(found) => Some(found),
        Err(problem) => {
            why.push(problem);
            None
        }
    });
    if c.reps.is_some_and(|r| r == 0 || r > MAX_REPS) {
        why.push(format!("reps must be 1-{MAX_REPS}"));
    }
    if c.duration_s.is_some_and(|d| !(d.is_finite() && d > 0.0 && d <= MAX_DURATION_S)) {
        why.push(format!("duration_s must be 1-{MAX_DURATION_S} seconds"));
    }
    let weight_g = match (c.weight_kg, c.weight_lb) {
        (Some(_), Some(_)) => {
            why.push("give weight_kg or weight_lb, not both".to_owned());
            None
        }
        (Some(kg), None) => grams(kg, 1000.0, MAX_WEIGHT_KG, "weight_kg", &mut why),
        (None, Some(lb)) => grams(
            lb,
            GRAMS_PER_POUND,
            (MAX_WEIGHT_KG * 1000.0 / GRAMS_PER_POUND).floor(),
            "weight_lb",
            &mut why,
        ),
        (None, None) => None,
    };
    if !why.is_empty() {
        return Err(why);
    }
    Ok(CheckedCorrection { set: c.set, exercise, reps: c.reps, weight_g, duration_s: c.duration_s })
}

/// `amount` of a unit worth `grams_per_unit` in whole grams, when within 0–`max`.
fn grams(amount: f64, grams_per_unit: f64, max: f64, key: &str, why: &mut Vec<String>) -> Option<f64> {
    if amount.is_finite() && (0.0..=max).contains(&amount) {
        Some((amount * grams_per_unit).round())
    } else {
        why.push(format!("{key} must be 0-{max} (0 = body weight)"));
        None
    }
}

/// `text` as one exercise of Garmin's strength list, or why not with the closest ones.
fn resolve(text: &str) -> Result<Resolved, String> {
    let closest = |near: &[Resolved]| near.iter().map(Resolved::suggestion).collect::<Vec<_>>().join(", ");
    match exercises::resolve(text, List::Strength) {
        Lookup::Exact(r) | Lookup::Fuzzy(r) => Ok(r),
        Lookup::Unsure(near) => Err(format!(
            "\"{text}\" matches several exercises about as well: did you mean {}?",
            closest(&near)
        )),
        Lookup::Unknown(near) if near.is_empty() => Err(format!(
            "\"{text}\" is not in Garmin's exercise catalogue (Garmin refuses names it does not know); search it with get_workouts find_exercise"
        )),
        Lookup::Unknown(near) => Err(format!(
            "\"{text}\" is not in Garmin's exercise catalogue (Garmin refuses names it does not know); closest: {}",
            closest(&near)
        )),
        Lookup::OtherList { found, .. } => Err(format!(
            "\"{text}\" ({}) is a yoga, pilates or mobility exercise, not one a strength session can log",
            found.garmin_key()
        )),
    }
}

/// One set that changed: its number and its words before and after.
#[derive(Clone, Debug, PartialEq)]
pub struct ChangedSet {
    /// The set's number (1-based, rests not counted).
    pub set: u32,
    /// The set as Garmin holds it now.
    pub before: SavedSet,
    /// The set as corrected.
    pub after: SavedSet,
}

/// The session's sets with the corrections applied.
#[derive(Clone, Debug, PartialEq)]
pub struct Corrected {
    /// Every set, in order, rests included: the body of the `PUT`.
    pub sets: Vec<SavedSet>,
    /// The sets that changed, in order.
    pub changed: Vec<ChangedSet>,
    /// How many sets (rests not counted) the session has.
    pub active_sets: usize,
    /// Σ reps × kg before and after.
    pub volume_kg: (f64, f64),
}

/// Applies `corrections` to `current` (the sets Garmin holds); `Err` names a set number the session
/// does not have or corrections that change nothing.
pub fn apply(current: &[SavedSet], corrections: &[CheckedCorrection]) -> Result<Corrected, String> {
    let positions: Vec<usize> = (0..current.len()).filter(|i| !current[*i].is_rest()).collect();
    let mut sets = current.to_vec();
    let mut problems = Vec::new();
    let mut changed = Vec::new();
    for c in corrections {
        let Some(&at) = usize::try_from(c.set).ok().and_then(|n| positions.get(n.wrapping_sub(1))) else {
            problems.push(format!(
                "set {}: this session has {} sets (numbered 1-{} as get_activity lists them)",
                c.set,
                positions.len(),
                positions.len()
            ));
            continue;
        };
        let after = corrected(&current[at], c);
        if after == current[at] {
            problems.push(format!("set {}: it already is {}", c.set, set_words(&after, Language::En)));
            continue;
        }
        changed.push(ChangedSet { set: c.set, before: current[at].clone(), after: after.clone() });
        sets[at] = after;
    }
    if !problems.is_empty() {
        return Err(problems.join("\n"));
    }
    changed.sort_by_key(|c| c.set);
    Ok(Corrected {
        volume_kg: (volume_kg(current), volume_kg(&sets)),
        sets,
        changed,
        active_sets: positions.len(),
    })
}

fn corrected(set: &SavedSet, c: &CheckedCorrection) -> SavedSet {
    let mut after = set.clone();
    if let Some(found) = c.exercise {
        // A confirmed exercise is one guess at 100, as Connect stores a set the person confirmed.
        let name = Some(found.exercise_name()).filter(|n| !n.is_empty()).map(str::to_owned);
        after.exercises =
            vec![SavedExercise { category: found.category().key.to_owned(), name, probability: Some(100.0) }];
    }
    if let Some(reps) = c.reps {
        after.repetition_count = Some(reps);
    }
    if let Some(grams) = c.weight_g {
        after.weight = Some(grams);
    }
    if let Some(seconds) = c.duration_s {
        after.duration = Some(seconds);
    }
    after
}

fn volume_kg(sets: &[SavedSet]) -> f64 {
    sets.iter()
        .filter(|s| !s.is_rest())
        .map(|s| {
            f64::from(s.repetition_count.unwrap_or(0)) * s.weight.filter(|g| *g > 0.0).unwrap_or(0.0) / 1000.0
        })
        .sum()
}

/// A set in words: `Barbell row 10 reps @ 60 kg`, `Plank 0:45`, `杠铃划船 10次 @ 60 kg`.
pub fn set_words(set: &SavedSet, lang: Language) -> String {
    let zh = lang == Language::Zh;
    let exercise = match set.best() {
        Some(SavedExercise { category, name: Some(name), .. }) => exercises::find(category, name)
            .map_or_else(|| display::capitalise(&display::words(name)), |e| e.display(zh)),
        Some(SavedExercise { category, name: None, .. }) => exercises::category(category).map_or_else(
            || display::capitalise(&display::words(category)),
            |c| Resolved::Generic(c).display(zh),
        ),
        None if zh => "未识别的动作".to_owned(),
        None => "Unrecognised exercise".to_owned(),
    };
    let mut words = exercise;
    match set.repetition_count.filter(|r| *r > 0) {
        Some(reps) if zh => words.push_str(&format!(" {reps}次")),
        Some(reps) => words.push_str(&format!(" {reps} rep{}", if reps == 1 { "" } else { "s" })),
        None => {
            if let Some(seconds) = set.duration.filter(|d| d.is_finite() && *d > 0.0) {
                words.push_str(&format!(" {}", display::duration(seconds)));
            }
        }
    }
    if let Some(grams) = set.weight.filter(|g| g.is_finite() && *g > 0.0) {
        words.push_str(&format!(" @ {} kg", display::number(grams / 1000.0)));
    }
    words
}

/// The change in words, one line: `Correct 2 of 15 sets of 'Strength A' (activity 7, Tue
/// 2026-12-01): set 3 Dumbbell biceps curl 10 reps @ 20 kg → Barbell row 10 reps @ 20 kg; … —
/// volume 3,400 kg → 3,420 kg`. `session` names the activity (`'Strength A' (activity 7, …)`).
pub fn preview(corrected: &Corrected, session: &str, lang: Language) -> String {
    let per_set: Vec<String> = corrected
        .changed
        .iter()
        .map(|c| {
            let (before, after) = (set_words(&c.before, lang), set_words(&c.after, lang));
            match lang {
                Language::En => format!("set {} {before} → {after}", c.set),
                Language::Zh => format!("第{}组 {before} → {after}", c.set),
            }
        })
        .collect();
    let volume = |kg: f64| format!("{} kg", display::thousands(kg.round() as i128));
    let (old, new) = corrected.volume_kg;
    match lang {
        Language::En => format!(
            "Correct {} of {} sets of {session}: {} — volume {} → {}",
            corrected.changed.len(),
            corrected.active_sets,
            per_set.join("; "),
            volume(old),
            volume(new)
        ),
        Language::Zh => format!(
            "更正{session}的{}组（共{}组）：{} —— 总量 {} → {}",
            corrected.changed.len(),
            corrected.active_sets,
            per_set.join("；"),
            volume(old),
            volume(new)
        ),
    }
}

/// How many sets differ between `before` and `after` (position by position; a different count of
/// sets counts every extra or missing one).
pub fn sets_changed(before: &[SavedSet], after: &[SavedSet]) -> usize {
    let common = before.iter().zip(after).filter(|(a, b)| a != b).count();
    common + before.len().abs_diff(after.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn session() -> Vec<SavedSet> {
        let read: ExerciseSets = serde_json::from_value(json!({"activityId": 7, "exerciseSets": [
            {"exercises": [{"category": "CURL", "name": "DUMBBELL_BICEPS_CURL", "probability": 58.59375},
                           {"category": "ROW", "name": "BARBELL_ROW", "probability": 37.5}],
             "duration": 31.0, "repetitionCount": 10, "weight": 20000.0, "setType": "ACTIVE",
             "startTime": "2026-11-30T07:05:00.0", "wktStepIndex": null, "messageIndex": 0},
            {"exercises": [], "duration": 90.0, "repetitionCount": null, "weight": null, "setType": "REST",
             "startTime": "2026-11-30T07:05:31.0", "wktStepIndex": null, "messageIndex": 1},
            {"exercises": [{"category": "PLANK", "name": "PLANK", "probability": 99.609375}],
             "duration": 45.0, "repetitionCount": null, "weight": 0.0, "setType": "ACTIVE",
             "startTime": "2026-11-30T07:07:01.0", "wktStepIndex": 2, "messageIndex": 2}]}))
        .unwrap();
        saved_sets(&read)
    }

    fn fix(value: serde_json::Value) -> Vec<CheckedCorrection> {
        check(&[serde_json::from_value(value).unwrap()]).unwrap()
    }

    #[test]
    fn a_read_set_goes_back_as_garmin_sent_it_with_its_time_in_garmins_form() {
        let sets = session();
        let body = serde_json::to_value(ExerciseSetsBody { activity_id: 7, exercise_sets: &sets }).unwrap();
        assert_eq!(body["activityId"], 7);
        let first = &body["exerciseSets"][0];
        assert_eq!(first["startTime"], "2026-11-30T07:05:00.0");
        assert_eq!((first["weight"].as_f64(), first["repetitionCount"].as_u64()), (Some(20000.0), Some(10)));
        assert_eq!(
            first["exercises"][1],
            json!({"category": "ROW", "name": "BARBELL_ROW", "probability": 37.5})
        );
        assert_eq!(body["exerciseSets"][1]["exercises"], json!([]));
        assert_eq!(body["exerciseSets"][1]["repetitionCount"], serde_json::Value::Null);
        assert_eq!(
            (
                body["exerciseSets"][2]["wktStepIndex"].as_i64(),
                body["exerciseSets"][2]["messageIndex"].as_i64()
            ),
            (Some(2), Some(2))
        );
    }

    #[test]
    fn a_corrected_exercise_is_one_guess_at_100_and_pounds_are_sent_in_grams() {
        let current = session();
        let done =
            apply(&current, &fix(json!({"set": 1, "exercise": "barbell row", "weight_lb": 135}))).unwrap();
        let first = &done.sets[0];
        assert_eq!(
            first.exercises,
            [SavedExercise {
                category: "ROW".into(),
                name: Some("BARBELL_ROW".into()),
                probability: Some(100.0)
            }]
        );
        assert_eq!(first.weight, Some(61235.0), "135 lb = 61,234.97 g");
        assert_eq!(
            (first.repetition_count, first.start_time.as_deref()),
            (Some(10), Some("2026-11-30T07:05:00.0"))
        );
        assert_eq!(done.sets[1..], current[1..], "the other sets and rests go back as they were");
        assert_eq!(done.changed.len(), 1);
        assert!((done.volume_kg.0 - 200.0).abs() < 1e-9 && (done.volume_kg.1 - 612.35).abs() < 1e-9);
    }

    #[test]
    fn the_second_active_set_is_the_plank_after_the_rest_and_kg_become_grams() {
        let done = apply(&session(), &fix(json!({"set": 2, "duration_s": 60, "weight_kg": 10}))).unwrap();
        assert_eq!((done.sets[2].duration, done.sets[2].weight), (Some(60.0), Some(10000.0)));
        assert_eq!(done.sets[2].exercises[0].name.as_deref(), Some("PLANK"), "the exercise is kept");
        let en = preview(&done, "'Lift' (activity 7)", Language::En);
        assert_eq!(
            en,
            "Correct 1 of 2 sets of 'Lift' (activity 7): set 2 Plank 0:45 → Plank 1:00 @ 10 kg — volume 200 kg → 200 kg"
        );
    }

    #[test]
    fn the_preview_says_old_to_new_per_set_in_english_and_chinese() {
        let done =
            apply(&session(), &fix(json!({"set": 1, "exercise": "ROW/BARBELL_ROW", "reps": 8}))).unwrap();
        let en = preview(&done, "'Lift' (activity 7)", Language::En);
        assert!(
            en.contains("set 1 Dumbbell biceps curl 10 reps @ 20 kg → Barbell row 8 reps @ 20 kg"),
            "{en}"
        );
        assert!(en.ends_with("volume 200 kg → 160 kg"), "{en}");
        let zh = preview(&done, "「Lift」（活动 7）", Language::Zh);
        assert!(zh.starts_with("更正「Lift」（活动 7）的1组（共2组）：第1组 "), "{zh}");
        assert!(zh.contains("10次 @ 20 kg → ") && zh.contains("8次 @ 20 kg"), "{zh}");
        assert!(zh.ends_with("总量 200 kg → 160 kg"), "{zh}");
    }

    #[test]
    fn unknown_ambiguous_and_impossible_corrections_are_refused_with_every_problem() {
        let bad: Vec<SetCorrection> = serde_json::from_value(json!([
            {"set": 1, "exercise": "underwater squat"},
            {"set": 2, "exercise": "dumbbell press"},
            {"set": 3, "weight_kg": 60, "weight_lb": 130},
            {"set": 3, "reps": 0},
            {"set": 4}]))
        .unwrap();
        let why = check(&bad).unwrap_err();
        assert!(
            why.contains("sets[0] (set 1): \"underwater squat\" is not in Garmin's exercise catalogue")
                && why.contains("closest: "),
            "{why}"
        );
        assert!(why.contains("SQUAT/"), "{why}");
        assert!(
            why.contains("sets[1] (set 2): \"dumbbell press\" matches several")
                && why.contains("did you mean"),
            "{why}"
        );
        assert!(
            why.contains("not both")
                && why.contains("corrected twice")
                && why.contains("reps must be 1-1000"),
            "{why}"
        );
        assert!(why.contains("sets[4] (set 4): say what to change"), "{why}");
        let yoga = check(&[SetCorrection {
            set: 1,
            exercise: Some("downward facing dog".into()),
            ..Default::default()
        }]);
        assert!(yoga.unwrap_err().contains("yoga"));
        let far = apply(&session(), &fix(json!({"set": 3, "reps": 5}))).unwrap_err();
        assert!(far.contains("this session has 2 sets (numbered 1-2"), "{far}");
        let same = apply(&session(), &fix(json!({"set": 1, "reps": 10}))).unwrap_err();
        assert!(same.contains("it already is Dumbbell biceps curl 10 reps @ 20 kg"), "{same}");
    }

    #[test]
    fn sets_changed_counts_the_differences() {
        let before = session();
        let mut after = before.clone();
        after[0].repetition_count = Some(9);
        assert_eq!(sets_changed(&before, &after), 1);
        assert_eq!(sets_changed(&before, &after[..2]), 2);
    }
}
