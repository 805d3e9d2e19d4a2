//! What [`super::parse_spec`] reports: one [`SpecProblem`] per thing wrong with a spec, each saying
//! where (a path like `steps[1].steps[0].pace`), what was expected and what was found, so an
//! assistant can fix every problem in one go.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One problem in a workout spec.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SpecProblem {
    /// Where: `name`, `steps[1].steps[0].pace`…; empty for the spec as a whole.
    pub path: String,
    /// What the spec language wants there (with an example or a "did you mean").
    pub expected: String,
    /// What was there instead (`"5:7x"`, `12`, `nothing`…).
    pub found: String,
}

/// Every problem found in a spec (at least one), in document order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SpecErrors(pub Vec<SpecProblem>);

impl SpecProblem {
    /// A problem at `path`.
    pub fn new(path: impl Into<String>, expected: impl Into<String>, found: impl Into<String>) -> Self {
        SpecProblem { path: path.into(), expected: expected.into(), found: found.into() }
    }
}

impl fmt::Display for SpecProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let place = if self.path.is_empty() { "spec" } else { &self.path };
        write!(f, "{place}: expected {}, found {}", self.expected, self.found)
    }
}

impl fmt::Display for SpecErrors {
    /// One line per problem.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, problem) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{problem}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SpecErrors {}

/// A short description of a JSON value for `found`: strings quoted (and cut), numbers as written,
/// arrays and objects by size.
pub(crate) fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => {
            const MAX: usize = 40;
            if s.chars().count() > MAX {
                let head: String = s.chars().take(MAX).collect();
                format!("{:?}… ({} characters)", head, s.chars().count())
            } else {
                format!("{s:?}")
            }
        }
        Value::Array(items) if items.is_empty() => "an empty array".into(),
        Value::Array(items) => format!("an array of {}", items.len()),
        Value::Object(map) if map.is_empty() => "an empty object".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// What `found` says for a field that is not there.
pub(crate) const MISSING: &str = "nothing (the field is missing)";

/// The closest of `known` to `word`, when close enough to be a likely typo or a shortened name.
pub(crate) fn did_you_mean<'a>(word: &str, known: &[&'a str]) -> Option<&'a str> {
    let word = word.to_ascii_lowercase();
    let mut best: Option<(usize, &'a str)> = None;
    for &candidate in known {
        let distance = edit_distance(&word, candidate);
        let budget = (candidate.len().max(word.len()) / 3).max(1);
        let prefix = word.len() >= 3 && (candidate.starts_with(&word) || word.starts_with(candidate));
        let score = if prefix { distance.min(1) } else { distance };
        if (distance <= budget || prefix) && best.is_none_or(|(s, _)| score < s) {
            best = Some((score, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// Levenshtein distance (insertions, deletions, substitutions), by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = Vec::with_capacity(b.len() + 1);
        current.push(i + 1);
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current.push(substitution.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_catch_typos_and_shortened_names() {
        let known = ["distance_m", "distance_km", "duration_min", "pace", "pace_range"];
        assert_eq!(did_you_mean("distance", &known), Some("distance_m"));
        assert_eq!(did_you_mean("duration", &known), Some("duration_min"));
        assert_eq!(did_you_mean("pase", &known), Some("pace"));
        assert_eq!(did_you_mean("colour", &known), None);
    }

    #[test]
    fn long_strings_are_cut_in_found() {
        let text = describe(&Value::String("x".repeat(100)));
        assert!(text.contains("(100 characters)"), "{text}");
    }
}
