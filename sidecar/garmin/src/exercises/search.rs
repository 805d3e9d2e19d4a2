//! Finding exercises by name, muscle and equipment, for the assistant (`get_workouts`'
//! `find_exercise`) and the desktop editor's exercise picker: the same catalogue and the same name
//! matching as [`super::resolve`], answered as plain rows.
//!
//! A muscle is named by Garmin's key (`QUADS`), its English or Chinese name, or a group (`legs`,
//! `back`, `core`, `arms`…); equipment by key or name, or `bodyweight`/`none` for exercises without
//! any. Rows come best first: by name similarity when a name is given, else exercises that mainly
//! work the muscle before those that also work it, then alphabetically.

use serde::{Deserialize, Serialize};

use super::lookup::{normalise, similarity};
use super::{Exercise, List, Named, equipment, exercises, muscles};

/// Most rows one search answers with.
pub const MAX_HITS: usize = 50;
/// Rows when no limit is given.
pub const DEFAULT_HITS: usize = 10;

/// What to look for; every given part must match.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ExerciseQuery {
    /// Part of a name, in English or Chinese, e.g. "bench press", "lunge", "深蹲".
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub name: Option<String>,
    /// A muscle or group it works: a Garmin key (QUADS, LATS…), its name, or legs, back, core,
    /// arms, shoulders, chest.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub muscle: Option<String>,
    /// Equipment it uses (barbell, dumbbell, kettlebell, band, cable machine…), or "bodyweight".
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub equipment: Option<String>,
    /// The workout sport whose list to search: strength (default; also cardio, hiit), yoga,
    /// pilates or mobility.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub sport: Option<String>,
    /// Most rows (1-50, default 10).
    #[serde(default)]
    #[cfg_attr(feature = "schema", schemars(range(min = 1, max = 50)))]
    #[cfg_attr(feature = "ts", ts(optional = nullable))]
    pub limit: Option<u32>,
}

/// One exercise found.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ExerciseHit {
    /// What to write in a workout spec's `exercise`: `BENCH_PRESS/BARBELL_BENCH_PRESS`.
    pub exercise: String,
    /// English name, e.g. `Barbell bench press`.
    pub name: String,
    /// Chinese name, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub zh: Option<String>,
    /// Garmin's category, e.g. `BENCH_PRESS`.
    pub category: String,
    /// Muscles it mainly works, in words.
    pub primary_muscles: Vec<String>,
    /// Muscles it also works, in words.
    pub secondary_muscles: Vec<String>,
    /// Equipment, in words (empty: none needed).
    pub equipment: Vec<String>,
}

/// Why a search could not run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SearchError(pub String);

const GROUPS: &[(&str, &[&str])] = &[
    ("legs", &["QUADS", "HAMSTRINGS", "GLUTES", "CALVES", "ADDUCTORS", "ABDUCTORS"]),
    ("leg", &["QUADS", "HAMSTRINGS", "GLUTES", "CALVES", "ADDUCTORS", "ABDUCTORS"]),
    ("back", &["LATS", "LOWER_BACK", "TRAPS"]),
    ("core", &["ABS", "OBLIQUES", "LOWER_BACK"]),
    ("arms", &["BICEPS", "TRICEPS", "FOREARM"]),
    ("arm", &["BICEPS", "TRICEPS", "FOREARM"]),
    ("quadriceps", &["QUADS"]),
    ("glute", &["GLUTES"]),
    ("hamstring", &["HAMSTRINGS"]),
    ("calf", &["CALVES"]),
    ("hip", &["HIPS", "ABDUCTORS", "ADDUCTORS", "GLUTES"]),
    ("delt", &["SHOULDERS"]),
    ("delts", &["SHOULDERS"]),
    ("pecs", &["CHEST"]),
    ("abdominals", &["ABS"]),
    ("腿", &["QUADS", "HAMSTRINGS", "GLUTES", "CALVES", "ADDUCTORS", "ABDUCTORS"]),
    ("背", &["LATS", "LOWER_BACK", "TRAPS"]),
    ("核心", &["ABS", "OBLIQUES", "LOWER_BACK"]),
    ("手臂", &["BICEPS", "TRICEPS", "FOREARM"]),
];

/// The list a sport word names (`None` when it names no sport with exercises).
pub fn list_of_sport(sport: &str) -> Option<List> {
    match normalise(sport).replace(' ', "").as_str() {
        "strength" | "strengthtraining" | "cardio" | "cardiotraining" | "hiit" => Some(List::Strength),
        "yoga" => Some(List::Yoga),
        "pilates" => Some(List::Pilates),
        "mobility" => Some(List::Mobility),
        _ => None,
    }
}

/// The bit set of `table` entries `text` names (key, English or Chinese name, or a group).
fn bits_named(text: &str, table: &[Named], groups: &[(&str, &[&str])]) -> u32 {
    let wanted = normalise(text);
    let mut bits = 0;
    for (i, n) in table.iter().enumerate() {
        if normalise(n.key) == wanted
            || normalise(n.name) == wanted
            || (!n.zh.is_empty() && n.zh == text.trim())
        {
            bits |= 1 << i;
        }
    }
    for (word, keys) in groups {
        if normalise(word) == wanted {
            for (i, n) in table.iter().enumerate() {
                if keys.contains(&n.key) {
                    bits |= 1 << i;
                }
            }
        }
    }
    bits
}

fn names(table: &[Named]) -> String {
    table.iter().map(|n| n.name.to_lowercase()).collect::<Vec<_>>().join(", ")
}

/// Finds exercises matching every part of `query`, best first.
pub fn search(query: &ExerciseQuery) -> Result<Vec<ExerciseHit>, SearchError> {
    let list = match query.sport.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
        None => List::Strength,
        Some(sport) => list_of_sport(sport).ok_or_else(|| {
            SearchError(format!(
                "sport \"{sport}\" has no exercise list: use strength (also for cardio and hiit), yoga, pilates or mobility"
            ))
        })?,
    };
    let limit = query.limit.map_or(DEFAULT_HITS, |l| (l as usize).clamp(1, MAX_HITS));
    let muscle = muscle_filter(query.muscle.as_deref())?;
    let kit = equipment_filter(query.equipment.as_deref())?;
    let name = query.name.as_deref().map(str::trim).filter(|s| !s.is_empty());
    let mut rows: Vec<(f64, u8, &'static Exercise)> = exercises()
        .iter()
        .filter(|e| e.in_list(list))
        .filter(|e| match kit {
            None => true,
            Some(0) => e.equipment_bits() == 0 || e.bodyweight,
            Some(bits) => e.equipment_bits() & bits != 0,
        })
        .filter_map(|e| {
            let rank = match muscle {
                None => 0,
                Some(bits) => match e.muscle_bits() {
                    (primary, _) if primary & bits != 0 => 0,
                    (_, secondary) if secondary & bits != 0 => 1,
                    _ => return None,
                },
            };
            let score = match name {
                None => 1.0,
                Some(n) => name_score(n, e),
            };
            (score >= 0.5).then_some((score, rank, e))
        })
        .collect();
    rows.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)).then_with(|| a.2.name.cmp(b.2.name)));
    Ok(rows.into_iter().take(limit).map(|(_, _, e)| hit(e)).collect())
}

/// The muscles a `muscle` filter names, as bits (`None`: no filter).
fn muscle_filter(text: Option<&str>) -> Result<Option<u32>, SearchError> {
    let Some(m) = text.map(str::trim).filter(|s| !s.is_empty()) else { return Ok(None) };
    match bits_named(m, muscles(), GROUPS) {
        0 => Err(SearchError(format!(
            "unknown muscle \"{m}\"; Garmin's muscles: {}, or legs, back, core, arms",
            names(muscles())
        ))),
        bits => Ok(Some(bits)),
    }
}

/// The equipment an `equipment` filter names, as bits; `Some(0)` for body weight only.
fn equipment_filter(text: Option<&str>) -> Result<Option<u32>, SearchError> {
    let Some(e) = text.map(str::trim).filter(|s| !s.is_empty()) else { return Ok(None) };
    if matches!(normalise(e).replace(' ', "").as_str(), "bodyweight" | "none" | "noequipment" | "自重") {
        return Ok(Some(0));
    }
    match bits_named(e, equipment(), &[]) {
        0 => Err(SearchError(format!(
            "unknown equipment \"{e}\"; Garmin's equipment: {}, or bodyweight",
            names(equipment())
        ))),
        bits => Ok(Some(bits)),
    }
}

/// How well `name` fits the exercise: a word-start inside its name counts fully (searching
/// "lunge" lists every lunge), otherwise the fuzzy similarity of the lookup.
fn name_score(name: &str, e: &Exercise) -> f64 {
    if !name.is_ascii() {
        return if !e.zh.is_empty() && (e.zh.contains(name.trim()) || e.category().zh == name.trim()) {
            1.0
        } else {
            0.0
        };
    }
    let query = normalise(name);
    let full = normalise(e.name);
    if query.is_empty() {
        return 0.0;
    }
    let contained =
        format!(" {full} ").contains(&format!(" {query} ")) || normalise(e.category().name) == query;
    if contained {
        // Shorter names first among the containing ones.
        return 1.0 + 1.0 / (1.0 + full.len() as f64);
    }
    similarity(&query, &full)
}

fn hit(e: &Exercise) -> ExerciseHit {
    let words = |it: &mut dyn Iterator<Item = &'static Named>| -> Vec<String> {
        it.map(|n| n.name.to_lowercase()).collect()
    };
    ExerciseHit {
        exercise: e.garmin_key(),
        name: e.display(false),
        zh: (!e.zh.is_empty()).then(|| e.zh.to_owned()),
        category: e.category().key.to_owned(),
        primary_muscles: words(&mut e.primary_muscles()),
        secondary_muscles: words(&mut e.secondary_muscles()),
        equipment: words(&mut e.equipment()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(name: Option<&str>, muscle: Option<&str>, equipment: Option<&str>) -> ExerciseQuery {
        ExerciseQuery {
            name: name.map(str::to_owned),
            muscle: muscle.map(str::to_owned),
            equipment: equipment.map(str::to_owned),
            ..ExerciseQuery::default()
        }
    }

    #[test]
    fn a_name_finds_the_exercise_first_and_its_kin_after() {
        let hits = search(&query(Some("barbell bench press"), None, None)).unwrap();
        assert_eq!(hits[0].exercise, "BENCH_PRESS/BARBELL_BENCH_PRESS");
        assert_eq!(hits[0].zh.as_deref(), Some("杠铃卧推"));
        assert_eq!(hits[0].primary_muscles, ["chest"]);
        let lunges = search(&ExerciseQuery { limit: Some(50), ..query(Some("lunge"), None, None) }).unwrap();
        assert!(lunges.len() >= 20, "{lunges:?}");
        for h in &lunges {
            assert!(h.name.to_lowercase().contains("lunge") || h.category == "LUNGE", "{h:?}");
        }
    }

    #[test]
    fn muscle_and_equipment_filter_and_rank() {
        let hits =
            search(&ExerciseQuery { limit: Some(50), ..query(None, Some("quads"), Some("kettlebell")) })
                .unwrap();
        assert!(!hits.is_empty());
        for h in &hits {
            assert!(h.equipment.contains(&"kettlebell".to_owned()), "{h:?}");
            assert!(h.primary_muscles.iter().chain(&h.secondary_muscles).any(|m| m == "quads"), "{h:?}");
        }
        // Primary before secondary.
        let first_secondary = hits.iter().position(|h| !h.primary_muscles.contains(&"quads".to_owned()));
        if let Some(i) = first_secondary {
            assert!(hits[i..].iter().all(|h| !h.primary_muscles.contains(&"quads".to_owned())));
        }
        let legs =
            search(&ExerciseQuery { limit: Some(50), ..query(None, Some("legs"), Some("bodyweight")) })
                .unwrap();
        assert!(!legs.is_empty());
        for h in &legs {
            let e = super::super::find(&h.category, h.exercise.split('/').nth(1).unwrap()).unwrap();
            assert!(e.equipment_bits() == 0 || e.bodyweight, "{h:?}");
        }
        assert!(!search(&query(Some("深蹲"), None, None)).unwrap().is_empty());
    }

    #[test]
    fn unknown_muscles_equipment_and_sports_say_what_exists() {
        let err = search(&query(None, Some("wings"), None)).unwrap_err();
        assert!(err.0.contains("quads") && err.0.contains("legs"), "{err}");
        let err = search(&query(None, None, Some("spaceship"))).unwrap_err();
        assert!(err.0.contains("barbell"), "{err}");
        let err =
            search(&ExerciseQuery { sport: Some("run".into()), ..ExerciseQuery::default() }).unwrap_err();
        assert!(err.0.contains("yoga"), "{err}");
        let yoga =
            search(&ExerciseQuery { sport: Some("yoga".into()), ..query(Some("warrior"), None, None) })
                .unwrap();
        assert!(
            !yoga.is_empty() && yoga.iter().all(|h| h.name.to_lowercase().contains("warrior")),
            "{yoga:?}"
        );
    }
}
