//! What clients see of each tool, tidied in one place after the tool macros built it, because real
//! clients read it in ways the generator does not expect:
//!
//! * only JSON Schema's own `format`s survive: the generator's `uint64`, `double`, `int32`… make
//!   every TypeScript-SDK client (Claude Code, Gemini CLI, Qwen Code, opencode, the Inspector) print a
//!   warning twice per field; `minimum`/`maximum` already say what those formats meant;
//! * descriptions are one line per paragraph: doc comments are hard-wrapped at ~95 columns, and Qwen
//!   Code's tool index shows only the first line;
//! * every string argument has a `maxLength` ([`MAX_STRING_CHARS`], paths [`MAX_PATH_CHARS`]), and
//!   [`check_string_lengths`] refuses longer ones before a tool runs, so no argument can inflate an
//!   answer or a request to Garmin;
//! * every output schema has the `summary` the structured result carries (see `crate::output`):
//!   Claude Code and Codex pass the model only the structured result.

use rmcp::model::Tool;
use serde_json::{Map, Value, json};

/// Longest string argument, in characters, where the tool sets no tighter limit.
pub const MAX_STRING_CHARS: usize = 1000;
/// Longest folder path argument, in characters (Linux's `PATH_MAX`).
pub const MAX_PATH_CHARS: usize = 4096;

/// The `format` values JSON Schema (2020-12) defines; any other is dropped.
const STANDARD_FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// What every structured result's `summary` is.
const SUMMARY_DESCRIPTION: &str = "The answer in one paragraph, with every note and hint (what is missing and why, \
     how to get more, where a file was saved): read this first and pass it on.";

/// Tidies one tool as described in the module doc.
pub fn tidy(tool: &mut Tool) {
    if let Some(description) = tool.description.take() {
        tool.description = Some(unwrap(&description).into());
    }
    let mut input = Value::Object((*tool.input_schema).clone());
    tidy_node(&mut input, None, true);
    if let Value::Object(map) = input {
        tool.input_schema = map.into();
    }
    if let Some(output) = tool.output_schema.take() {
        let mut output = Value::Object((*output).clone());
        tidy_node(&mut output, None, false);
        if let Value::Object(mut map) = output {
            add_summary(&mut map);
            tool.output_schema = Some(map.into());
        }
    }
}

/// Joins hard-wrapped lines; a blank line (a new paragraph) stays a line break.
pub fn unwrap(text: &str) -> String {
    text.split("\n\n")
        .map(|paragraph| paragraph.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|paragraph| !paragraph.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Walks a schema node: drops non-standard formats, unwraps descriptions and (for inputs) bounds
/// strings. `name` is the property the node describes, when it is one.
fn tidy_node(node: &mut Value, name: Option<&str>, input: bool) {
    match node {
        Value::Object(map) => {
            if map.get("format").and_then(Value::as_str).is_some_and(|f| !STANDARD_FORMATS.contains(&f)) {
                map.remove("format");
            }
            if let Some(Value::String(description)) = map.get("description") {
                let unwrapped = unwrap(description);
                map.insert("description".into(), Value::String(unwrapped));
            }
            if input && is_string(map) && !map.contains_key("maxLength") && !map.contains_key("enum") {
                map.insert("maxLength".into(), json!(limit_for(name)));
            }
            for (key, child) in map.iter_mut() {
                match key.as_str() {
                    "properties" | "$defs" | "definitions" => {
                        if let Value::Object(children) = child {
                            for (child_name, schema) in children.iter_mut() {
                                tidy_node(schema, Some(child_name), input);
                            }
                        }
                    }
                    "description" | "format" | "default" | "examples" | "const" | "enum" => {}
                    _ => tidy_node(child, None, input),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| tidy_node(item, name, input)),
        _ => {}
    }
}

fn is_string(map: &Map<String, Value>) -> bool {
    match map.get("type") {
        Some(Value::String(t)) => t == "string",
        Some(Value::Array(types)) => types.iter().any(|t| t == "string"),
        _ => false,
    }
}

/// The longest value a string argument called `name` may have.
fn limit_for(name: Option<&str>) -> usize {
    if name.is_some_and(|n| n == "folder" || n.ends_with("_path")) {
        MAX_PATH_CHARS
    } else {
        MAX_STRING_CHARS
    }
}

fn add_summary(schema: &mut Map<String, Value>) {
    let properties = schema.entry("properties").or_insert_with(|| json!({}));
    if let Value::Object(properties) = properties {
        properties.insert("summary".into(), json!({"type": "string", "description": SUMMARY_DESCRIPTION}));
    }
    let required = schema.entry("required").or_insert_with(|| json!([]));
    if let Value::Array(required) = required
        && !required.iter().any(|r| r == "summary")
    {
        required.push(json!("summary"));
    }
}

/// Refuses a string argument (at any depth) longer than its schema's `maxLength`, or than
/// [`MAX_STRING_CHARS`] for strings nested inside arrays and objects, with a sentence naming it.
pub fn check_string_lengths(tool: &Tool, arguments: &Map<String, Value>) -> Result<(), String> {
    let properties = tool.input_schema.get("properties").and_then(Value::as_object);
    for (name, value) in arguments {
        let declared = properties
            .and_then(|p| p.get(name))
            .and_then(|schema| schema.get("maxLength"))
            .and_then(Value::as_u64)
            .and_then(|n| usize::try_from(n).ok());
        check_value(name, value, declared.unwrap_or_else(|| limit_for(Some(name))))?;
    }
    Ok(())
}

fn check_value(path: &str, value: &Value, limit: usize) -> Result<(), String> {
    match value {
        Value::String(text) => {
            let chars = text.chars().count();
            if chars > limit {
                return Err(format!(
                    "`{path}` is {chars} characters long; at most {limit} are accepted: shorten it"
                ));
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                check_value(&format!("{path}[{i}]"), item, limit)?;
            }
        }
        Value::Object(map) => {
            for (key, item) in map {
                check_value(&format!("{path}.{key}"), item, limit_for(Some(key)))?;
            }
        }
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(input: Value, output: Option<Value>) -> Tool {
        let Value::Object(input) = input else { panic!("object") };
        let mut tool = Tool::new("t", "Reads a thing\nover two lines.\n\nSecond paragraph\nhere.", input);
        if let Some(Value::Object(output)) = output {
            tool.output_schema = Some(output.into());
        }
        tool
    }

    #[test]
    fn non_standard_formats_go_and_bounds_stay() {
        let mut t = tool(
            json!({"type": "object", "properties": {
                "n": {"type": "integer", "format": "uint32", "minimum": 0, "maximum": 28},
                "d": {"type": "string", "format": "date"}}}),
            Some(json!({"type": "object", "$defs": {"X": {"type": "number", "format": "double"}}})),
        );
        tidy(&mut t);
        let text = serde_json::to_string(&t).unwrap();
        assert!(!text.contains("uint32") && !text.contains("double"), "{text}");
        assert_eq!(t.input_schema["properties"]["n"]["maximum"], 28);
        assert_eq!(t.input_schema["properties"]["d"]["format"], "date");
    }

    #[test]
    fn descriptions_are_one_line_per_paragraph() {
        let mut t = tool(json!({"type": "object"}), None);
        tidy(&mut t);
        assert_eq!(t.description.as_deref(), Some("Reads a thing over two lines.\nSecond paragraph here."));
    }

    #[test]
    fn strings_get_a_max_length_and_longer_arguments_are_refused_by_name() {
        let mut t = tool(
            json!({"type": "object", "properties": {
                "location": {"type": ["string", "null"]},
                "folder": {"type": "string"},
                "period": {"type": "string", "enum": ["week", "month"]}}}),
            None,
        );
        tidy(&mut t);
        assert_eq!(t.input_schema["properties"]["location"]["maxLength"], MAX_STRING_CHARS);
        assert_eq!(t.input_schema["properties"]["folder"]["maxLength"], MAX_PATH_CHARS);
        assert!(t.input_schema["properties"]["period"].get("maxLength").is_none());
        let args = |v: Value| v.as_object().cloned().unwrap();
        assert!(check_string_lengths(&t, &args(json!({"location": "Berlin"}))).is_ok());
        let e = check_string_lengths(&t, &args(json!({"location": "x".repeat(100_000)}))).unwrap_err();
        assert!(e.contains("`location` is 100000 characters long; at most 1000"), "{e}");
        let e = check_string_lengths(&t, &args(json!({"steps": [{"notes": "y".repeat(5000)}]}))).unwrap_err();
        assert!(e.contains("`steps[0].notes`"), "{e}");
    }

    #[test]
    fn output_schemas_require_the_summary() {
        let mut t = tool(json!({"type": "object"}), Some(json!({"type": "object", "properties": {"a": {}}})));
        tidy(&mut t);
        let output = t.output_schema.unwrap();
        assert_eq!(output["properties"]["summary"]["type"], "string");
        assert_eq!(output["required"], json!(["summary"]));
    }
}
