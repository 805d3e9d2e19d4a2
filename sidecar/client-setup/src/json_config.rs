//! JSON config files (every client except Codex): where the servers live in the document, what our
//! entry looks like there, and the add / update / remove edits made through [`JsonDoc`].

use std::path::Path;

use crate::json_doc::{EditError, JsonDoc, Node, ParseError, render_pretty};
use crate::judge::{Found, FoundServer, judge};
use crate::{Configured, Outcome, ServerEntry, SetupError};

/// How one client's JSON file holds its servers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct JsonShape {
    /// Keys from the top of the document to the object that maps server names to entries.
    pub container: &'static [&'static str],
    /// Another container the client also reads (DeepSeek-TUI's `servers`); used instead of
    /// `container` when the file already has it and not `container`.
    pub alternative: Option<&'static [&'static str]>,
    /// The entry carries `"type": "stdio"`.
    pub stdio_type: bool,
    /// The file may hold comments and trailing commas (VS Code).
    pub jsonc: bool,
}

impl JsonShape {
    fn format_name(self) -> &'static str {
        if self.jsonc { "JSON with comments" } else { "JSON" }
    }
}

/// The fields of our entry, in the order clients write them.
fn fields(shape: JsonShape, entry: &ServerEntry) -> Vec<(String, Node)> {
    let mut fields = Vec::new();
    if shape.stdio_type {
        fields.push(("type".to_owned(), Node::Str("stdio".to_owned())));
    }
    fields.push(("command".to_owned(), Node::Str(entry.command_text())));
    fields.push(("args".to_owned(), Node::List(entry.args.iter().cloned().map(Node::Str).collect())));
    if !entry.env.is_empty() {
        let env = entry.env.iter().map(|(k, v)| (k.clone(), Node::Str(v.clone()))).collect();
        fields.push(("env".to_owned(), Node::Map(env)));
    }
    fields
}

/// A whole file holding only our server: what a new file contains and the manual snippet.
pub(crate) fn fresh(shape: JsonShape, entry: &ServerEntry) -> String {
    let entry_node = Node::Map(fields(shape, entry));
    let mut path: Vec<&str> = shape.container.to_vec();
    path.push(&entry.name);
    let document =
        path.iter().rev().fold(entry_node, |inner, key| Node::Map(vec![((*key).to_owned(), inner)]));
    format!("{}\n", render_pretty(&document, "", "  ", "\n"))
}

fn parse(text: &str, shape: JsonShape, path: &Path) -> Result<JsonDoc, SetupError> {
    JsonDoc::parse(text, shape.jsonc).map_err(|ParseError { line, column, message }| SetupError::Malformed {
        path: path.to_path_buf(),
        format: shape.format_name(),
        line,
        column,
        message,
    })
}

fn edit_error(path: &Path) -> impl Fn(EditError) -> SetupError + '_ {
    move |e| match e {
        EditError::NotAnObject { key, found } => {
            SetupError::UnexpectedShape { path: path.to_path_buf(), key, found: found.to_owned() }
        }
        EditError::Internal(what) => {
            SetupError::MergeFailed { path: path.to_path_buf(), reason: format!("internal: {what}") }
        }
    }
}

/// The container to use in this document.
fn container(doc: &JsonDoc, shape: JsonShape) -> &'static [&'static str] {
    match shape.alternative {
        Some(alternative)
            if !matches!(doc.get(shape.container), Ok(Some(_)))
                && matches!(doc.get(alternative), Ok(Some(serde_json::Value::Object(_)))) =>
        {
            alternative
        }
        _ => shape.container,
    }
}

fn entry_path<'a>(container: &[&'a str], name: &'a str) -> Vec<&'a str> {
    let mut path = container.to_vec();
    path.push(name);
    path
}

fn found(doc: &JsonDoc, path: &[&str], file: &Path) -> Result<Found, SetupError> {
    Ok(match doc.get(path).map_err(edit_error(file))? {
        None => Found::Missing,
        Some(serde_json::Value::Object(object)) => Found::Server(FoundServer::from_json(&object)),
        Some(other) => Found::NotAServer(describe(&other).to_owned()),
    })
}

fn describe(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

/// Whether `text` holds `entry`.
pub(crate) fn status(
    text: &str,
    shape: JsonShape,
    entry: &ServerEntry,
    file: &Path,
) -> Result<Configured, SetupError> {
    let doc = parse(text, shape, file)?;
    let path = entry_path(container(&doc, shape), &entry.name);
    Ok(judge(&found(&doc, &path, file)?, entry, shape.stdio_type))
}

/// The new text with `entry` merged in, or `None` when it is already there.
pub(crate) fn configure(
    before: Option<&str>,
    shape: JsonShape,
    entry: &ServerEntry,
    file: &Path,
) -> Result<Option<(String, Outcome)>, SetupError> {
    let mut doc = match before {
        Some(text) => parse(text, shape, file)?,
        None => JsonDoc::new_object(shape.jsonc),
    };
    let path = entry_path(container(&doc, shape), &entry.name);
    let found = found(&doc, &path, file)?;
    let fields = fields(shape, entry);
    let outcome = match (judge(&found, entry, shape.stdio_type), &found) {
        (Configured::Yes, _) => return Ok(None),
        (_, Found::Server(_)) => {
            update_fields(&mut doc, &path, &fields, file)?;
            Outcome::Updated
        }
        (_, Found::NotAServer(_)) => {
            doc.set(&path, &Node::Map(fields)).map_err(edit_error(file))?;
            Outcome::Updated
        }
        (_, Found::Missing) => {
            doc.set(&path, &Node::Map(fields)).map_err(edit_error(file))?;
            if before.is_some() { Outcome::Added } else { Outcome::Created }
        }
    };
    let mut text = doc.text().to_owned();
    if before.is_none() {
        text.push('\n');
    }
    // Read back what we are about to write: it must parse and hold exactly our entry.
    match status(&text, shape, entry, file) {
        Ok(Configured::Yes) => Ok(Some((text, outcome))),
        Ok(other) => Err(SetupError::MergeFailed {
            path: file.to_path_buf(),
            reason: format!("the edited file would read back as {other:?}"),
        }),
        Err(e) => Err(SetupError::MergeFailed {
            path: file.to_path_buf(),
            reason: format!("the edited file would not parse: {e}"),
        }),
    }
}

/// Brings an existing entry up to date field by field, keeping the user's other keys (timeouts,
/// `disabled`, extra environment variables) and the layout of fields that already match.
fn update_fields(
    doc: &mut JsonDoc,
    path: &[&str],
    fields: &[(String, Node)],
    file: &Path,
) -> Result<(), SetupError> {
    for (key, node) in fields {
        let mut field_path = path.to_vec();
        field_path.push(key);
        let current = doc.get(&field_path).map_err(edit_error(file))?;
        match (node, current) {
            (Node::Map(vars), Some(serde_json::Value::Object(existing))) if key == "env" => {
                for (name, value) in vars {
                    if existing.get(name) != Some(&value.to_value()) {
                        let mut var_path = field_path.clone();
                        var_path.push(name);
                        doc.set(&var_path, value).map_err(edit_error(file))?;
                    }
                }
            }
            (node, current) => {
                if current.as_ref() != Some(&node.to_value()) {
                    doc.set(&field_path, node).map_err(edit_error(file))?;
                }
            }
        }
    }
    Ok(())
}

/// The text without the server `name`, or `None` when it was not there.
pub(crate) fn remove(
    before: &str,
    shape: JsonShape,
    name: &str,
    file: &Path,
) -> Result<Option<String>, SetupError> {
    let mut doc = parse(before, shape, file)?;
    let mut removed = false;
    for container in std::iter::once(shape.container).chain(shape.alternative) {
        let path = entry_path(container, name);
        match doc.remove(&path) {
            Ok(gone) => removed |= gone,
            // A container that is not an object cannot hold our entry.
            Err(EditError::NotAnObject { .. }) if container != shape.container => {}
            Err(e) => return Err(edit_error(file)(e)),
        }
    }
    if !removed {
        return Ok(None);
    }
    let text = doc.text().to_owned();
    let check = parse(&text, shape, file)
        .and_then(|doc| found(&doc, &entry_path(shape.container, name), file))
        .map_err(|e| SetupError::MergeFailed { path: file.to_path_buf(), reason: e.to_string() })?;
    if check != Found::Missing {
        return Err(SetupError::MergeFailed {
            path: file.to_path_buf(),
            reason: "the entry would still be there".to_owned(),
        });
    }
    Ok(Some(text))
}
