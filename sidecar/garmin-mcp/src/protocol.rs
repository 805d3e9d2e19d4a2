//! JSON-RPC messages from clients that rmcp would read wrongly, handled once for both transports
//! (`crate::stdio` and `crate::http`):
//!
//! * **Duplicate keys.** JSON lets an object name a key twice, and parsers disagree on which one
//!   counts (serde keeps the last): an answer to a confirmation question of the form
//!   `{"confirm": false, …, "confirm": true}` could read as a yes to this server and as a no to the
//!   person's own client. A message naming any key twice is never handed to rmcp ([`screen`]): a
//!   request gets an error answer, a notification is dropped, and an answer to one of our questions
//!   becomes an error answer for the same question, so the question ends at once with nothing
//!   written.
//! * **Known methods with parameters that do not parse.** rmcp hands those over as unknown methods;
//!   [`unparsed_request`] answers them as invalid parameters (-32602) with what was expected.

use std::collections::HashSet;
use std::fmt;

use rmcp::ErrorData;
use rmcp::model::ErrorCode;
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Value, json};

use crate::output::echo;

/// What to do with an incoming message ([`screen`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Screened {
    /// Hand it to rmcp as it is.
    Pass,
    /// Hand rmcp this message instead (an error answer for the same question).
    Replace(Vec<u8>),
    /// Answer the client with this, and hand nothing to rmcp.
    Refuse(Value),
    /// Hand nothing to rmcp and answer nothing (a notification).
    Drop,
}

/// Checks one incoming JSON-RPC message (see the module docs). A message that is not JSON at all,
/// or nested too deep, passes: the transport's own parser refuses it with its own words.
pub fn screen(message: &[u8]) -> Screened {
    let Some(key) = duplicate_key(message) else { return Screened::Pass };
    let Ok(value) = serde_json::from_slice::<Value>(message) else { return Screened::Pass };
    let key = echo(&key);
    let id = value.get("id").cloned();
    match (value.get("method"), id) {
        (Some(_), Some(id)) => Screened::Refuse(json!({"jsonrpc": "2.0", "id": id, "error": {
            "code": ErrorCode::INVALID_REQUEST.0,
            "message": format!("The request names the key `{key}` more than once; a JSON-RPC message names each key once. Nothing was done."),
        }})),
        (Some(_), None) => Screened::Drop,
        (None, Some(id)) => {
            let error = json!({"jsonrpc": "2.0", "id": id, "error": {
                "code": ErrorCode::INVALID_REQUEST.0,
                "message": format!("the client's answer names the key `{key}` more than once, so it cannot be read"),
            }});
            Screened::Replace(error.to_string().into_bytes())
        }
        (None, None) => Screened::Refuse(json!({"jsonrpc": "2.0", "id": null, "error": {
            "code": ErrorCode::INVALID_REQUEST.0,
            "message": format!("The message names the key `{key}` more than once; a JSON-RPC message names each key once."),
        }})),
    }
}

/// The first key some object of `json` names twice, if any (`None` also when it is not JSON).
pub fn duplicate_key(json: &[u8]) -> Option<String> {
    let mut deserializer = serde_json::Deserializer::from_slice(json);
    match Unique.deserialize(&mut deserializer) {
        Ok(()) => None,
        Err(e) => {
            let message = e.to_string();
            let rest = message.strip_prefix(DUPLICATE)?;
            // serde_json appends " at line L column C".
            Some(rest.rsplit_once(" at line ").map_or(rest, |(key, _)| key).to_owned())
        }
    }
}

/// How [`Unique`] reports a duplicate key in its error.
const DUPLICATE: &str = "duplicate key: ";

/// Walks a JSON value, failing at the first object that names a key twice.
struct Unique;

impl<'de> DeserializeSeed<'de> for Unique {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Unique {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(Unique)?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(de::Error::custom(format!("{DUPLICATE}{key}")));
            }
            map.next_value_seed(Unique)?;
        }
        Ok(())
    }
}

/// The MCP levels of `logging/setLevel`, lowest first.
const LEVELS: &str = "debug, info, notice, warning, error, critical, alert, emergency";

/// Client requests of MCP (2025-11-25) that rmcp parses itself: one arriving as an unknown method
/// had parameters that did not fit.
const KNOWN_METHODS: &[&str] = &[
    "initialize",
    "ping",
    "completion/complete",
    "logging/setLevel",
    "prompts/get",
    "prompts/list",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "resources/unsubscribe",
    "tools/call",
    "tools/list",
];

/// The error for a request rmcp could not read as any method it knows: invalid parameters, naming
/// what was expected, for a method MCP has; "method not found" for any other.
pub fn unparsed_request(method: &str, params: Option<&Value>) -> ErrorData {
    if method == "logging/setLevel" {
        let level = params.and_then(|p| p.get("level"));
        let found = match level {
            None => "no `level`".to_owned(),
            Some(Value::String(text)) => format!("`{}`", echo(text)),
            Some(other) => format!("`{}`", echo(&other.to_string())),
        };
        return ErrorData::invalid_params(
            format!("`level` must be one of {LEVELS}; found {found}."),
            Some(json!({"levels": LEVELS.split(", ").collect::<Vec<_>>()})),
        );
    }
    if KNOWN_METHODS.contains(&method) {
        return ErrorData::invalid_params(
            format!(
                "The parameters of `{method}` do not fit the MCP schema of that method; check their names and types."
            ),
            None,
        );
    }
    ErrorData::new(ErrorCode::METHOD_NOT_FOUND, format!("There is no method `{}` here.", echo(method)), None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_named_twice_is_found_at_any_depth_and_unique_keys_pass() {
        let twice = br#"{"jsonrpc":"2.0","id":3,"result":{"action":"accept","content":{"confirm":false,"confirm":true}}}"#;
        assert_eq!(duplicate_key(twice).as_deref(), Some("confirm"));
        assert_eq!(duplicate_key(br#"[{"a":1},{"a":2,"b":[{"c":1,"c":2}]}]"#).as_deref(), Some("c"));
        assert_eq!(duplicate_key(br#"{"a":{"b":1},"b":{"a":1}}"#), None);
        assert_eq!(duplicate_key(b"not json"), None);
    }

    #[test]
    fn a_duplicated_answer_becomes_an_error_for_the_same_question_and_a_request_is_refused() {
        let answer = br#"{"jsonrpc":"2.0","id":7,"result":{"action":"accept","content":{"confirm":false,"confirm":true}}}"#;
        let Screened::Replace(bytes) = screen(answer) else { panic!("not replaced") };
        let replaced: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(replaced["id"], 7);
        assert!(
            replaced.get("result").is_none()
                && replaced["error"]["message"].as_str().unwrap().contains("`confirm`")
        );
        let request = br#"{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"a","name":"b"}}"#;
        let Screened::Refuse(error) = screen(request) else { panic!("not refused") };
        assert_eq!((error["id"].as_str(), error["error"]["code"].as_i64()), (Some("x"), Some(-32600)));
        assert_eq!(screen(br#"{"jsonrpc":"2.0","method":"n","params":{"a":1,"a":1}}"#), Screened::Drop);
        assert_eq!(screen(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#), Screened::Pass);
    }

    #[test]
    fn known_methods_with_bad_parameters_are_invalid_params_and_others_not_found() {
        let e = unparsed_request("logging/setLevel", Some(&json!({"level": "verbose"})));
        assert_eq!(e.code, ErrorCode::INVALID_PARAMS);
        assert!(e.message.contains("found `verbose`") && e.message.contains("emergency"), "{}", e.message);
        assert_eq!(unparsed_request("tools/call", Some(&json!({"name": 3}))).code, ErrorCode::INVALID_PARAMS);
        let e = unparsed_request(&"x".repeat(1_000_000), None);
        assert_eq!(e.code, ErrorCode::METHOD_NOT_FOUND);
        assert!(e.message.len() < 200, "{}", e.message.len());
    }
}
