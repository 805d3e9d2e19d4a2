//! JSON config files (every client except Codex): what each client's parser accepts, where the
//! servers live in the document, what our entry looks like there, and the add / update / remove
//! edits.
//!
//! Edits go through the concrete syntax tree of dprint's `jsonc-parser`, which keeps every byte we
//! do not change: other servers, unrelated keys and their order, indentation, newlines, and — in
//! files the client reads as JSON with comments — the comments and trailing commas. A plain-JSON
//! file is first checked with `serde_json` (the syntax tree accepts comments whatever it is told),
//! so a comment in, say, Claude Code's file is reported as the client would report it.

use std::path::Path;

use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstInputValue, CstNode, CstObject, CstRootNode};
use serde_json::Value;

use crate::judge::{Found, FoundServer, judge};
use crate::{Configured, Outcome, ServerEntry, SetupError};

/// What a client's parser accepts besides plain JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Syntax {
    /// `//` and `/* */` comments.
    pub comments: bool,
    /// A comma after the last member of an object or array.
    pub trailing_commas: bool,
}

impl Syntax {
    /// Plain JSON (`JSON.parse`, `serde_json`).
    pub(crate) const JSON: Syntax = Syntax { comments: false, trailing_commas: false };
    /// Gemini CLI and Qwen Code strip comments before `JSON.parse`: comments yes, trailing commas no.
    pub(crate) const COMMENTS: Syntax = Syntax { comments: true, trailing_commas: false };
    /// VS Code and opencode read JSONC: comments and trailing commas.
    pub(crate) const JSONC: Syntax = Syntax { comments: true, trailing_commas: true };

    pub(crate) fn name(self) -> &'static str {
        if self.comments { "JSON with comments" } else { "JSON" }
    }

    fn options(self) -> ParseOptions {
        ParseOptions {
            allow_comments: self.comments,
            allow_loose_object_property_names: false,
            allow_trailing_commas: self.trailing_commas,
            allow_missing_commas: false,
            allow_single_quoted_strings: false,
            allow_hexadecimal_numbers: false,
            allow_unary_plus_numbers: false,
            allow_bare_decimal_point_numbers: false,
            allow_non_finite_numbers: false,
            allow_extended_string_escapes: false,
        }
    }
}

/// How a client writes one stdio server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EntryStyle {
    /// `command`, `args`, `env`.
    Plain,
    /// `"type": "stdio"` first (Claude Code, VS Code).
    Stdio,
    /// Copilot CLI: `"type": "stdio"` and `"tools": ["*"]` (every tool of the server). The
    /// person's own `type` (`local` means the same) and tool list are kept on updates.
    Copilot,
    /// opencode: `"type": "local"`, `command` one list `[program, args…]`, `environment`, and
    /// `"enabled": true`.
    OpenCode,
}

impl EntryStyle {
    /// The `type` an entry must have (another one is a difference).
    pub(crate) fn want_type(self) -> Option<&'static str> {
        match self {
            EntryStyle::Stdio => Some("stdio"),
            EntryStyle::OpenCode => Some("local"),
            EntryStyle::Plain | EntryStyle::Copilot => None,
        }
    }

    fn read(self, object: &serde_json::Map<String, Value>) -> FoundServer {
        match self {
            EntryStyle::OpenCode => FoundServer::from_opencode(object),
            EntryStyle::Plain | EntryStyle::Stdio | EntryStyle::Copilot => FoundServer::from_json(object),
        }
    }
}

/// How one client's JSON file holds its servers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct JsonShape {
    /// Keys from the top of the document to the object that maps server names to entries.
    pub container: &'static [&'static str],
    /// Another container the client also reads (DeepSeek-TUI's `servers`); used instead of
    /// `container` when the file already has it and not `container`.
    pub alternative: Option<&'static [&'static str]>,
    /// The fields of one entry.
    pub style: EntryStyle,
    /// What the client's parser accepts.
    pub syntax: Syntax,
}

fn string(text: impl Into<String>) -> CstInputValue {
    CstInputValue::String(text.into())
}

fn object(fields: Vec<(String, CstInputValue)>) -> CstInputValue {
    CstInputValue::Object(fields)
}

/// The fields of our entry, in the order clients write them. `stored`: the entry already in the
/// file, whose extra arguments are kept.
fn fields(
    shape: JsonShape,
    entry: &ServerEntry,
    stored: Option<&FoundServer>,
) -> Vec<(String, CstInputValue)> {
    let args = entry.merged_args(stored.and_then(|s| s.args.as_deref()));
    let strings = |items: Vec<String>| CstInputValue::Array(items.into_iter().map(string).collect());
    let env = (!entry.env.is_empty())
        .then(|| object(entry.env.iter().map(|(k, v)| (k.clone(), string(v.as_str()))).collect()));
    let mut fields = Vec::new();
    let mut push = |key: &str, value| fields.push((key.to_owned(), value));
    match shape.style {
        EntryStyle::OpenCode => {
            push("type", string("local"));
            let line = std::iter::once(entry.command_text()).chain(args).collect();
            push("command", strings(line));
            if let Some(env) = env {
                push("environment", env);
            }
            push("enabled", CstInputValue::Bool(true));
        }
        EntryStyle::Plain | EntryStyle::Stdio | EntryStyle::Copilot => {
            if shape.style != EntryStyle::Plain {
                push("type", string("stdio"));
            }
            push("command", string(entry.command_text()));
            push("args", strings(args));
            if let Some(env) = env {
                push("env", env);
            }
            if shape.style == EntryStyle::Copilot {
                push("tools", strings(vec!["*".to_owned()]));
            }
        }
    }
    fields
}

/// The same value as `serde_json` sees it (for comparisons).
fn to_value(value: &CstInputValue) -> Value {
    match value {
        CstInputValue::Null => Value::Null,
        CstInputValue::Bool(b) => Value::Bool(*b),
        CstInputValue::Number(n) => serde_json::from_str(n).unwrap_or(Value::Null),
        CstInputValue::String(s) => Value::String(s.clone()),
        CstInputValue::Array(items) => Value::Array(items.iter().map(to_value).collect()),
        CstInputValue::Object(fields) => {
            Value::Object(fields.iter().map(|(k, v)| (k.clone(), to_value(v))).collect())
        }
    }
}

/// A whole document holding `value`, laid out the way `jsonc-parser` lays out what it inserts
/// (two-space indent, one member per line, lists of strings on one line), so a new file and an
/// entry added to an existing one look alike.
fn render(value: &CstInputValue, indent: &str, out: &mut String) {
    match value {
        CstInputValue::Object(fields) if !fields.is_empty() => {
            out.push_str("{\n");
            let inner = format!("{indent}  ");
            for (i, (key, value)) in fields.iter().enumerate() {
                out.push_str(&inner);
                out.push_str(&Value::String(key.clone()).to_string());
                out.push_str(": ");
                render(value, &inner, out);
                if i + 1 < fields.len() {
                    out.push(',');
                }
                out.push('\n');
            }
            out.push_str(indent);
            out.push('}');
        }
        CstInputValue::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                render(item, indent, out);
            }
            out.push(']');
        }
        other => out.push_str(&to_value(other).to_string()),
    }
}

/// A parsed config file being edited. The root must outlive every node taken from it
/// (`jsonc-parser` keeps weak links to ancestors), so nodes never leave the function that holds it.
#[derive(Debug)]
struct Doc {
    root: CstRootNode,
    /// The file starts with a byte-order mark (kept on write).
    bom: bool,
}

impl Doc {
    fn text(&self) -> String {
        let bom = if self.bom { "\u{feff}" } else { "" };
        format!("{bom}{}", self.root)
    }

    /// The top-level object; `None` for a document holding only comments.
    fn root_object(&self, file: &Path) -> Result<Option<CstObject>, SetupError> {
        match self.root.value() {
            None => Ok(None),
            Some(node) => node.as_object().map(Some).ok_or_else(|| unexpected(file, &[], &node)),
        }
    }

    /// The object at `keys`; `None` when a key on the way is missing. A key holding something
    /// other than an object is an error naming it.
    fn object_at(&self, keys: &[&str], file: &Path) -> Result<Option<CstObject>, SetupError> {
        let Some(mut object) = self.root_object(file)? else { return Ok(None) };
        for (depth, key) in keys.iter().enumerate() {
            let Some(node) = object.get(key).and_then(|prop| prop.value()) else { return Ok(None) };
            object = node.as_object().ok_or_else(|| unexpected(file, &keys[..=depth], &node))?;
        }
        Ok(Some(object))
    }

    /// The object at `keys`, created where missing. Call [`Doc::object_at`] first: a key holding
    /// something else is replaced here.
    fn object_at_or_create(&self, keys: &[&str]) -> CstObject {
        keys.iter().fold(self.root.object_value_or_set(), |object, key| object.object_value_or_set(key))
    }
}

fn unexpected(file: &Path, keys: &[&str], node: &CstNode) -> SetupError {
    let key = if keys.is_empty() { "(top level)".to_owned() } else { keys.join(".") };
    let found = node.to_serde_value().map_or("something unreadable", |v| describe(&v)).to_owned();
    SetupError::UnexpectedShape { path: file.to_path_buf(), key, found }
}

fn describe(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn parse(text: &str, shape: JsonShape, file: &Path) -> Result<Doc, SetupError> {
    let (bom, body) = match text.strip_prefix('\u{feff}') {
        Some(body) => (true, body),
        None => (false, text),
    };
    let malformed = |line, column, message| SetupError::Malformed {
        path: file.to_path_buf(),
        format: shape.syntax.name(),
        line,
        column,
        message,
    };
    if !shape.syntax.comments
        && let Err(e) = serde_json::from_str::<Value>(body)
    {
        let full = e.to_string();
        let message = full.split(" at line ").next().unwrap_or(&full).to_owned();
        return Err(malformed(e.line(), e.column().max(1), message));
    }
    let root = CstRootNode::parse(body, &shape.syntax.options())
        .map_err(|e| malformed(e.line_display(), e.column_display(), e.kind().to_string()))?;
    Ok(Doc { root, bom })
}

/// The container to use in this document.
fn container(doc: &Doc, shape: JsonShape, file: &Path) -> &'static [&'static str] {
    let Some(alternative) = shape.alternative else { return shape.container };
    let Some((last, parents)) = shape.container.split_last() else { return shape.container };
    let has_container =
        matches!(doc.object_at(parents, file), Ok(Some(parent)) if parent.get(last).is_some());
    if !has_container && matches!(doc.object_at(alternative, file), Ok(Some(_))) {
        alternative
    } else {
        shape.container
    }
}

fn found(
    doc: &Doc,
    container: &[&str],
    shape: JsonShape,
    name: &str,
    file: &Path,
) -> Result<Found, SetupError> {
    let Some(servers) = doc.object_at(container, file)? else { return Ok(Found::Missing) };
    let Some(prop) = servers.get(name) else { return Ok(Found::Missing) };
    Ok(match prop.to_serde_value() {
        Some(Value::Object(object)) => Found::Server(shape.style.read(&object)),
        Some(other) => Found::NotAServer(describe(&other).to_owned()),
        None => Found::NotAServer("empty".to_owned()),
    })
}

/// What `text` holds under the server `name`.
pub(crate) fn read(text: &str, shape: JsonShape, name: &str, file: &Path) -> Result<Found, SetupError> {
    if text.trim().is_empty() {
        return Ok(Found::Missing);
    }
    let doc = parse(text, shape, file)?;
    found(&doc, container(&doc, shape, file), shape, name, file)
}

/// A whole file holding only our server: what a new file contains and the manual snippet.
pub(crate) fn fresh(shape: JsonShape, entry: &ServerEntry) -> String {
    let document = shape
        .container
        .iter()
        .chain([&entry.name.as_str()])
        .rev()
        .fold(object(fields(shape, entry, None)), |inner, key| object(vec![((*key).to_owned(), inner)]));
    let mut text = String::new();
    render(&document, "", &mut text);
    text.push('\n');
    text
}

/// The new text with `entry` merged in, or `None` when it is already there.
pub(crate) fn configure(
    before: Option<&str>,
    shape: JsonShape,
    entry: &ServerEntry,
    file: &Path,
) -> Result<Option<(String, Outcome)>, SetupError> {
    let edited = match before.filter(|text| !text.trim().is_empty()) {
        // No file, or one holding only whitespace: the whole file is ours to write.
        None => (fresh(shape, entry), if before.is_some() { Outcome::Added } else { Outcome::Created }),
        Some(text) => match merge(text, shape, entry, file)? {
            Some(edited) => edited,
            None => return Ok(None),
        },
    };
    // Read back what we are about to write: it must parse and hold exactly our entry.
    match read(&edited.0, shape, &entry.name, file) {
        Ok(found) => match judge(&found, entry, shape.style.want_type()) {
            Configured::Yes => Ok(Some(edited)),
            other => Err(merge_failed(file, &format!("the edited file would read back as {other:?}"))),
        },
        Err(e) => Err(merge_failed(file, &format!("the edited file would not parse: {e}"))),
    }
}

/// `text` with `entry` merged in, or `None` when it is already there.
fn merge(
    text: &str,
    shape: JsonShape,
    entry: &ServerEntry,
    file: &Path,
) -> Result<Option<(String, Outcome)>, SetupError> {
    let doc = parse(text, shape, file)?;
    let container = container(&doc, shape, file);
    let found = found(&doc, container, shape, &entry.name, file)?;
    if judge(&found, entry, shape.style.want_type()) == Configured::Yes {
        return Ok(None);
    }
    let stored = match &found {
        Found::Server(server) => Some(server),
        Found::Missing | Found::NotAServer(_) => None,
    };
    let fields = fields(shape, entry, stored);
    // Refuses a key on the way that holds something other than an object, before any change.
    doc.object_at(container, file)?;
    let servers = doc.object_at_or_create(container);
    let outcome = match (&found, servers.get(&entry.name)) {
        (Found::Server(_), Some(prop)) => {
            let Some(server) = prop.object_value() else {
                return Err(merge_failed(file, "the server entry vanished"));
            };
            update_fields(&server, shape, &fields);
            Outcome::Updated
        }
        (Found::NotAServer(_), Some(prop)) => {
            prop.set_value(object(fields));
            Outcome::Updated
        }
        _ => {
            servers.append(&entry.name, object(fields));
            Outcome::Added
        }
    };
    Ok(Some((doc.text(), outcome)))
}

/// Brings an existing entry up to date field by field, keeping the user's other keys (timeouts,
/// `disabled`, extra environment variables) and the layout of fields that already match.
fn update_fields(server: &CstObject, shape: JsonShape, fields: &[(String, CstInputValue)]) {
    for (key, value) in fields {
        let current = server.get(key);
        match (key.as_str(), value, current.as_ref().and_then(|prop| prop.object_value())) {
            ("env" | "environment", CstInputValue::Object(vars), Some(existing)) => {
                for (name, value) in vars {
                    set(&existing, name, value);
                }
            }
            // Copilot: `local` is the same as `stdio`, and a tool list is the person's choice.
            ("type" | "tools", _, _) if shape.style == EntryStyle::Copilot && current.is_some() => {}
            _ => set(server, key, value),
        }
    }
}

/// Sets `key` in `object` to `value` unless it already holds it.
fn set(object: &CstObject, key: &str, value: &CstInputValue) {
    match object.get(key) {
        Some(prop) if prop.to_serde_value().as_ref() == Some(&to_value(value)) => {}
        Some(prop) => prop.set_value(value.clone()),
        None => {
            object.append(key, value.clone());
        }
    }
}

/// The text without the server `name`, or `None` when it was not there.
pub(crate) fn remove(
    before: &str,
    shape: JsonShape,
    name: &str,
    file: &Path,
) -> Result<Option<String>, SetupError> {
    if before.trim().is_empty() {
        return Ok(None);
    }
    let doc = parse(before, shape, file)?;
    let mut removed = false;
    for container in std::iter::once(shape.container).chain(shape.alternative) {
        match doc.object_at(container, file) {
            Ok(Some(servers)) => {
                if let Some(prop) = servers.get(name) {
                    prop.remove();
                    removed = true;
                }
            }
            Ok(None) => {}
            // A container that is not an object cannot hold our entry.
            Err(_) if container != shape.container => {}
            Err(e) => return Err(e),
        }
    }
    if !removed {
        return Ok(None);
    }
    let text = doc.text();
    match read(&text, shape, name, file) {
        Ok(Found::Missing) => Ok(Some(text)),
        Ok(_) => Err(merge_failed(file, "the entry would still be there")),
        Err(e) => Err(merge_failed(file, &e.to_string())),
    }
}

fn merge_failed(file: &Path, reason: &str) -> SetupError {
    SetupError::MergeFailed { path: file.to_path_buf(), reason: reason.to_owned() }
}
