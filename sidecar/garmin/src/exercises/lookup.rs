//! From what someone wrote to one of Garmin's exercises: exact forms first (Garmin's
//! `CATEGORY/NAME` key, the bare `NAME` key, the English display name, the Chinese name, a
//! category's name), then a fuzzy match over the sport's list that is accepted only when one
//! exercise clearly wins; otherwise the answer is the three closest, so nothing is ever guessed
//! silently (Garmin would blank an unknown name without a word). A name Garmin uses in several
//! categories means the category's own exercise (`lunge` → `LUNGE/LUNGE`) or, failing that, the
//! one outside the single-equipment categories (`face pull` → `ROW/FACE_PULL`, not the TRX one).
//!
//! The fuzzy score of a written name against an exercise's name is the better of two measures, both
//! 0–1: the tokens in common (words equal, or a typo away by Jaro–Winkler ≥ 0.88, so word order and
//! small slips do not matter) and the normalised Levenshtein similarity of the whole text. Names are
//! compared in lower case, with `_ - / ( ) , .` as spaces and a plural `s` dropped from long words.
//! Chinese text is compared with the Chinese names by characters. The string metrics are `strsim`'s.

use std::sync::OnceLock;

use super::{Category, Exercise, List, categories, category, exercises, find};

/// A resolved exercise: one exercise, or a category's generic form (Garmin's `exerciseName: ""`,
/// "any exercise of this category", used for categories without an exercise of their own name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolved {
    /// One exercise of the catalogue.
    Exercise(&'static Exercise),
    /// A category, no particular exercise.
    Generic(&'static Category),
}

/// What [`resolve`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lookup {
    /// Exactly what was written (a key, a display name, a Chinese name, a category).
    Exact(Resolved),
    /// Not written exactly, but one exercise matches clearly better than any other.
    Fuzzy(Resolved),
    /// Several exercises match about as well: the three closest (best first).
    Unsure(Vec<Resolved>),
    /// Nothing matches well: the closest there are (best first, at most three; may be empty).
    Unknown(Vec<Resolved>),
    /// It exists, but in other lists than the sport's (a yoga pose in a strength workout).
    OtherList {
        /// The exercise found.
        found: Resolved,
        /// The lists that hold it.
        lists: Vec<List>,
    },
}

/// Scores below this are not offered as "closest" at all.
const SUGGESTION_FLOOR: f64 = 0.35;
/// A fuzzy match is taken only from this score up…
const CONFIDENT: f64 = 0.88;
/// …and when the runner-up (a different exercise) scores at least this much less.
const MARGIN: f64 = 0.06;
/// Below this best score the name is unknown rather than unsure.
const UNSURE_FLOOR: f64 = 0.75;

impl Resolved {
    /// Its category.
    pub fn category(&self) -> &'static Category {
        match self {
            Resolved::Exercise(e) => e.category(),
            Resolved::Generic(c) => c,
        }
    }

    /// Garmin's `exerciseName`: the exercise's key, or `""` for a category's generic form.
    pub fn exercise_name(&self) -> &'static str {
        match self {
            Resolved::Exercise(e) => e.key,
            Resolved::Generic(_) => "",
        }
    }

    /// The exercise, when it is one.
    pub fn exercise(&self) -> Option<&'static Exercise> {
        match self {
            Resolved::Exercise(e) => Some(e),
            Resolved::Generic(_) => None,
        }
    }

    /// `CATEGORY/NAME`, or the category key alone for a generic form.
    pub fn garmin_key(&self) -> String {
        match self {
            Resolved::Exercise(e) => e.garmin_key(),
            Resolved::Generic(c) => c.key.to_owned(),
        }
    }

    /// In words (`Barbell bench press`, `Shoulder press (any)`), in Chinese when `zh` and known.
    pub fn display(&self, zh: bool) -> String {
        match self {
            Resolved::Exercise(e) => e.display(zh),
            Resolved::Generic(c) if zh && !c.zh.is_empty() => format!("{}（任意）", c.zh),
            Resolved::Generic(c) => format!("{} (any)", super::sentence_case(c.name)),
        }
    }

    /// For suggestions: the name and the key (`Barbell bench press (BENCH_PRESS/BARBELL_BENCH_PRESS)`).
    pub fn suggestion(&self) -> String {
        format!("{} ({})", self.display(false), self.garmin_key())
    }

    fn in_list(&self, list: List) -> bool {
        match self {
            Resolved::Exercise(e) => e.in_list(list),
            Resolved::Generic(c) => c.in_list(list),
        }
    }
}

/// Resolves `text` to an exercise of `list` (see the module doc for the order of the attempts).
pub fn resolve(text: &str, list: List) -> Lookup {
    let text = text.trim();
    if text.is_empty() {
        return Lookup::Unknown(Vec::new());
    }
    let exact = exact_matches(text);
    if !exact.is_empty() {
        let in_list: Vec<Resolved> = exact.iter().copied().filter(|r| r.in_list(list)).collect();
        return match in_list.as_slice() {
            [one] => Lookup::Exact(*one),
            [] => {
                let found = exact[0];
                let lists = match found {
                    Resolved::Exercise(e) => e.lists().collect(),
                    Resolved::Generic(c) => List::ALL.into_iter().filter(|l| c.in_list(*l)).collect(),
                };
                Lookup::OtherList { found, lists }
            }
            several => match preferred(several) {
                Some(one) => Lookup::Exact(one),
                None => Lookup::Unsure(several.iter().take(3).copied().collect()),
            },
        };
    }
    fuzzy(text, list)
}

/// Categories of one piece of equipment, whose exercises repeat plain names (`SUSPENSION/FACE_PULL`
/// beside `ROW/FACE_PULL`): a name written without the equipment means the plain one.
const EQUIPMENT_CATEGORIES: &[&str] =
    &["BANDED_EXERCISES", "BATTLE_ROPE", "LADDER", "SANDBAG", "SLED", "SLEDGE_HAMMER", "SUSPENSION", "TIRE"];

/// Of several exercises with the same name, the one meant when nothing else is said: the
/// category's own (`LUNGE/LUNGE`), else the only one outside the equipment categories.
fn preferred(several: &[Resolved]) -> Option<Resolved> {
    if let Some(own) = several.iter().find(|r| r.category().key == r.exercise_name()) {
        return Some(*own);
    }
    let plain: Vec<&Resolved> =
        several.iter().filter(|r| !EQUIPMENT_CATEGORIES.contains(&r.category().key)).collect();
    match plain.as_slice() {
        [one] => Some(**one),
        _ => None,
    }
}

/// Every exercise or category `text` names exactly, in any list.
fn exact_matches(text: &str) -> Vec<Resolved> {
    if let Some((cat, name)) = text.split_once('/') {
        let cat = key_form(cat);
        let name = key_form(name);
        if name.is_empty() || name == "*" {
            return category(&cat).map(Resolved::Generic).into_iter().collect();
        }
        return find(&cat, &name).map(Resolved::Exercise).into_iter().collect();
    }
    let key = key_form(text);
    let by_key: Vec<Resolved> = exercises().iter().filter(|e| e.key == key).map(Resolved::Exercise).collect();
    if !by_key.is_empty() {
        return by_key;
    }
    let normal = normalise(text);
    let by_name: Vec<Resolved> = exercises()
        .iter()
        .filter(|e| normalise(e.name) == normal || (!e.zh.is_empty() && e.zh == text))
        .map(Resolved::Exercise)
        .collect();
    if !by_name.is_empty() {
        return by_name;
    }
    categories()
        .iter()
        .filter(|c| c.key == key || normalise(c.name) == normal || (!c.zh.is_empty() && c.zh == text))
        .map(|c| c.own_exercise().map_or(Resolved::Generic(c), Resolved::Exercise))
        .collect()
}

/// `barbell bench-press` → `BARBELL_BENCH_PRESS`; a leading digit gets Garmin's underscore
/// (`90 degree static hold` → `_90_DEGREE_STATIC_HOLD`).
fn key_form(text: &str) -> String {
    let words: Vec<String> = text
        .split(|c: char| c.is_whitespace() || matches!(c, '_' | '-'))
        .filter(|w| !w.is_empty())
        .map(str::to_uppercase)
        .collect();
    let key = words.join("_");
    if key.starts_with(|c: char| c.is_ascii_digit()) { format!("_{key}") } else { key }
}

/// Lower case, punctuation as spaces, one space between words, a plural `s` dropped from words of
/// more than four letters (`squats` → `squat`, but `press`, `abs` stay).
pub(crate) fn normalise(text: &str) -> String {
    let spaced: String = text
        .chars()
        .map(|c| if matches!(c, '_' | '-' | '/' | '(' | ')' | ',' | '.' | '\'') { ' ' } else { c })
        .flat_map(char::to_lowercase)
        .collect();
    spaced
        .split_whitespace()
        .map(|w| match w.strip_suffix('s') {
            Some(stem) if w.len() > 4 && !stem.ends_with('s') => stem,
            _ => w,
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The forms each exercise is compared under (normalised name and key), built once.
fn forms() -> &'static [Vec<String>] {
    static FORMS: OnceLock<Vec<Vec<String>>> = OnceLock::new();
    FORMS.get_or_init(|| {
        exercises()
            .iter()
            .map(|e| {
                let mut f = vec![normalise(e.name)];
                let key = normalise(e.key);
                if key != f[0] {
                    f.push(key);
                }
                f
            })
            .collect()
    })
}

fn fuzzy(text: &str, list: List) -> Lookup {
    let chinese = !text.is_ascii();
    let query = normalise(text);
    let mut scored: Vec<(f64, Resolved)> = exercises()
        .iter()
        .zip(forms())
        .filter(|(e, _)| e.in_list(list))
        .map(|(e, forms)| {
            let score = if chinese {
                chinese_score(text, e.zh)
            } else {
                forms.iter().map(|f| similarity(&query, f)).fold(0.0, f64::max)
            };
            (score, Resolved::Exercise(e))
        })
        .filter(|(s, _)| *s >= SUGGESTION_FLOOR)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.garmin_key().cmp(&b.1.garmin_key())));
    let closest: Vec<Resolved> = scored.iter().take(3).map(|(_, r)| *r).collect();
    match scored.as_slice() {
        [] => Lookup::Unknown(Vec::new()),
        [(best, found), rest @ ..]
            if *best >= CONFIDENT && rest.first().is_none_or(|(s, _)| *s <= best - MARGIN) =>
        {
            Lookup::Fuzzy(*found)
        }
        [(best, _), ..] if *best >= UNSURE_FLOOR => Lookup::Unsure(closest),
        _ => Lookup::Unknown(closest),
    }
}

/// How alike two normalised names are, 0–1 (see the module doc).
pub(crate) fn similarity(query: &str, form: &str) -> f64 {
    if query == form {
        return 1.0;
    }
    let q: Vec<&str> = query.split(' ').collect();
    let f: Vec<&str> = form.split(' ').collect();
    let tokens = token_score(&q, &f);
    // The Levenshtein similarity cannot exceed 1 - |length difference| / longer length: skip it
    // when that bound is no better than the token score (most of the catalogue, most of the time).
    let (a, b) = (query.chars().count(), form.chars().count());
    let bound = 1.0 - a.abs_diff(b) as f64 / a.max(b).max(1) as f64;
    if bound <= tokens {
        return tokens;
    }
    tokens.max(strsim::normalized_levenshtein(query, form))
}

/// Words in common (equal, or a typo away), as a Dice coefficient.
fn token_score(q: &[&str], f: &[&str]) -> f64 {
    let mut used = vec![false; f.len()];
    let mut matched = 0.0;
    for word in q {
        let best = f
            .iter()
            .enumerate()
            .filter(|(i, _)| !used[*i])
            .map(|(i, other)| (i, if word == other { 1.0 } else { strsim::jaro_winkler(word, other) }))
            .filter(|(_, s)| *s >= 0.88)
            .max_by(|a, b| a.1.total_cmp(&b.1));
        if let Some((i, s)) = best {
            used[i] = true;
            matched += s;
        }
    }
    2.0 * matched / (q.len() + f.len()) as f64
}

/// Chinese text against a Chinese name, by characters; a name inside the other counts high.
fn chinese_score(text: &str, zh: &str) -> f64 {
    if zh.is_empty() {
        return 0.0;
    }
    let contains: f64 = if zh.contains(text) || text.contains(zh) { 0.8 } else { 0.0 };
    let a: Vec<char> = text.chars().collect();
    let b: Vec<char> = zh.chars().collect();
    let chars = strsim::generic_levenshtein(&a, &b);
    let longest = a.len().max(b.len()).max(1);
    contains.max(1.0 - chars as f64 / longest as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key_of(lookup: &Lookup) -> String {
        match lookup {
            Lookup::Exact(r) | Lookup::Fuzzy(r) => r.garmin_key(),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn every_exact_form_names_the_same_exercise() {
        for written in [
            "BENCH_PRESS/BARBELL_BENCH_PRESS",
            "bench_press/barbell_bench_press",
            "BARBELL_BENCH_PRESS",
            "barbell bench press",
            "Barbell Bench Press",
            "杠铃卧推",
        ] {
            let found = resolve(written, List::Strength);
            assert!(matches!(found, Lookup::Exact(_)), "{written}: {found:?}");
            assert_eq!(key_of(&found), "BENCH_PRESS/BARBELL_BENCH_PRESS", "{written}");
        }
        assert_eq!(key_of(&resolve("90 degree static hold", List::Strength)), "PLANK/_90_DEGREE_STATIC_HOLD");
    }

    #[test]
    fn a_category_resolves_to_its_own_exercise_or_its_generic_form() {
        assert_eq!(
            resolve("深蹲", List::Strength),
            Lookup::Exact(Resolved::Exercise(find("SQUAT", "SQUAT").unwrap()))
        );
        // CARRY has an own CARRY exercise; WARM_UP has none, so Garmin's generic form.
        let warm_up = resolve("WARM_UP/", List::Strength);
        assert_eq!(warm_up, Lookup::Exact(Resolved::Generic(category("WARM_UP").unwrap())));
        let Lookup::Exact(generic) = warm_up else { unreachable!() };
        assert_eq!(generic.exercise_name(), "");
    }

    #[test]
    fn typos_and_word_order_resolve_when_one_exercise_clearly_wins() {
        for written in ["bench press barbell", "barbel bench pres", "Barbell bench-presses"] {
            let found = resolve(written, List::Strength);
            assert!(matches!(found, Lookup::Fuzzy(_) | Lookup::Exact(_)), "{written}: {found:?}");
            assert_eq!(key_of(&found), "BENCH_PRESS/BARBELL_BENCH_PRESS", "{written}");
        }
    }

    #[test]
    fn close_calls_offer_the_three_closest_and_nonsense_is_unknown() {
        let Lookup::Unsure(closest) = resolve("dumbbell press", List::Strength) else {
            panic!("{:?}", resolve("dumbbell press", List::Strength))
        };
        assert_eq!(closest.len(), 3);
        assert!(closest.iter().all(|r| r.display(false).to_lowercase().contains("dumbbell")), "{closest:?}");
        assert!(matches!(resolve("qwxz zzyq", List::Strength), Lookup::Unknown(_)));
    }

    #[test]
    fn an_exercise_of_another_list_says_which() {
        let found = resolve("downward facing dog", List::Strength);
        let Lookup::OtherList { lists, .. } = found else { panic!("{found:?}") };
        assert!(lists.contains(&List::Yoga));
        assert!(matches!(resolve("downward facing dog", List::Yoga), Lookup::Exact(_)));
    }

    #[test]
    fn normalising_drops_plurals_and_punctuation_only() {
        assert_eq!(normalise("Jumping-Jacks"), "jumping jack");
        assert_eq!(normalise("Press"), "press");
        assert_eq!(normalise("abs"), "abs");
        assert_eq!(normalise("Pull-up (wide)"), "pull up wide");
    }
}
