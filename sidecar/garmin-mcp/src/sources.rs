//! What an answer says about where its data came from, in its `_meta`. The reads themselves, and
//! the choice between Garmin's official Personal API and the Garmin Connect web session, live in
//! the `garmin` crate's one reader (`garmin::reads`); each tool call gets its own reader, whose log
//! of sources the server puts in the answer's `_meta` ([`meta`]) under [`META_KEY`].
//!
//! Every `_meta` key this server writes starts with [`META_PREFIX`] (MCP reserves unprefixed keys;
//! a reverse-DNS prefix names the owner): [`META_KEY`] for the sources, [`ERROR_KIND_META`] for the
//! kind of a failure.

use std::collections::BTreeSet;

use garmin::Source;

/// The prefix of every `_meta` key of this server.
pub const META_PREFIX: &str = "dev.garminmcp/";
/// The `_meta` key of an answer's sources.
pub const META_KEY: &str = "dev.garminmcp/source";
/// The `_meta` key naming the kind of a failed result (see `crate::tool_error`).
pub const ERROR_KIND_META: &str = "dev.garminmcp/error";

/// The tools whose reads the Personal API serves (status, the tool check and the README say so).
pub const PERSONAL_API_TOOLS: &[&str] = &[
    "list_activities",
    "get_activity",
    "export_activity",
    "render_chart",
    "get_daily_health",
    "get_period_stats",
];

/// The `_meta` value naming the sources: `{"sources": [...], "phrase": "...", "note": ...}`;
/// `None` when no Garmin read was made.
pub fn meta(sources: &BTreeSet<Source>, note: Option<&str>) -> Option<serde_json::Value> {
    let phrase = Source::phrase(sources)?;
    let mut value = serde_json::json!({ "sources": sources, "phrase": phrase });
    if let (Some(note), Some(obj)) = (note, value.as_object_mut()) {
        obj.insert("note".to_owned(), serde_json::Value::String(note.to_owned()));
    }
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_meta_key_has_the_one_prefix() {
        for key in [META_KEY, ERROR_KIND_META] {
            assert!(key.starts_with(META_PREFIX) && key.len() > META_PREFIX.len(), "{key}");
        }
    }

    #[test]
    fn the_meta_names_each_source_and_says_nothing_without_one() {
        assert_eq!(meta(&BTreeSet::new(), None), None);
        let both = BTreeSet::from([Source::WebSession, Source::PersonalApi]);
        let value = meta(&both, Some("expires soon")).unwrap();
        assert_eq!(value["sources"], serde_json::json!(["personal_api", "web_session"]));
        assert_eq!(
            value["phrase"],
            "Served by Garmin's official Personal API and the Garmin Connect web session."
        );
        assert_eq!(value["note"], "expires soon");
    }
}
