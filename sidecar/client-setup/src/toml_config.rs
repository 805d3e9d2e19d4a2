//! Codex CLI's `config.toml`: our server is the table `[mcp_servers.<name>]` with `command`, `args`
//! and, when needed, `env = { … }`; arguments the person added to an existing entry are kept.
//! Edited with `toml_edit`, so comments, blank lines, key order and the formatting of everything
//! else survive; a value we replace keeps its trailing comment.

use std::path::Path;

use toml_edit::{Array, DocumentMut, InlineTable, Item, Table, TableLike, Value};

use crate::judge::{Found, FoundServer, judge};
use crate::{Configured, Outcome, ServerEntry, SetupError};

const SERVERS: &str = "mcp_servers";
const FORMAT: &str = "TOML";

fn parse(text: &str, file: &Path) -> Result<DocumentMut, SetupError> {
    text.parse::<DocumentMut>().map_err(|e| {
        let offset = e.span().map_or(0, |span| span.start);
        let before = text.get(..offset).unwrap_or(text);
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().unwrap_or_default().chars().count() + 1;
        SetupError::Malformed {
            path: file.to_path_buf(),
            format: FORMAT,
            line,
            column,
            message: e.message().trim().to_owned(),
        }
    })
}

fn with_article(type_name: &str) -> String {
    let article = if type_name.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    format!("{article} {type_name}")
}

fn unexpected(file: &Path, item: &Item) -> SetupError {
    SetupError::UnexpectedShape {
        path: file.to_path_buf(),
        key: SERVERS.to_owned(),
        found: with_article(item.type_name()),
    }
}

fn servers<'a>(doc: &'a DocumentMut, file: &Path) -> Result<Option<&'a dyn TableLike>, SetupError> {
    match doc.get(SERVERS) {
        None => Ok(None),
        Some(item) => item.as_table_like().map(Some).ok_or_else(|| unexpected(file, item)),
    }
}

fn found(doc: &DocumentMut, name: &str, file: &Path) -> Result<Found, SetupError> {
    let Some(item) = servers(doc, file)?.and_then(|s| s.get(name)) else { return Ok(Found::Missing) };
    let Some(table) = item.as_table_like() else {
        return Ok(Found::NotAServer(with_article(item.type_name())));
    };
    let text = |key: &str| table.get(key).and_then(Item::as_str).map(str::to_owned);
    Ok(Found::Server(FoundServer {
        command: text("command"),
        args: table
            .get("args")
            .and_then(Item::as_array)
            .and_then(|args| args.iter().map(|a| a.as_str().map(str::to_owned)).collect::<Option<Vec<_>>>()),
        env: table
            .get("env")
            .and_then(Item::as_table_like)
            .map(|env| env.iter().map(|(k, v)| (k.to_owned(), v.as_str().map(str::to_owned))).collect())
            .unwrap_or_default(),
        kind: None,
        turned_off: false,
    }))
}

fn args_value(args: &[String]) -> Value {
    Value::Array(args.iter().map(String::as_str).collect::<Array>())
}

fn env_value(entry: &ServerEntry) -> Value {
    Value::InlineTable(entry.env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect::<InlineTable>())
}

fn entry_table(entry: &ServerEntry) -> Table {
    let mut table = Table::new();
    table.insert("command", Item::Value(entry.command_text().into()));
    table.insert("args", Item::Value(args_value(&entry.merged_args(None))));
    if !entry.env.is_empty() {
        table.insert("env", Item::Value(env_value(entry)));
    }
    table
}

/// Sets `key` to `new`, keeping the old value's surrounding whitespace and trailing comment.
fn set_value(table: &mut dyn TableLike, key: &str, mut new: Value) {
    if let Some(Item::Value(old)) = table.get_mut(key) {
        *new.decor_mut() = old.decor().clone();
        *old = new;
        return;
    }
    table.insert(key, Item::Value(new));
}

/// A whole file holding only our server: what a new file contains and the manual snippet.
pub(crate) fn fresh(entry: &ServerEntry) -> String {
    let mut doc = DocumentMut::new();
    let mut servers = Table::new();
    servers.set_implicit(true);
    servers.insert(&entry.name, Item::Table(entry_table(entry)));
    doc.insert(SERVERS, Item::Table(servers));
    doc.to_string()
}

/// What `text` holds under the server `name`.
pub(crate) fn read(text: &str, name: &str, file: &Path) -> Result<Found, SetupError> {
    found(&parse(text, file)?, name, file)
}

/// The new text with `entry` merged in, or `None` when it is already there.
pub(crate) fn configure(
    before: Option<&str>,
    entry: &ServerEntry,
    file: &Path,
) -> Result<Option<(String, Outcome)>, SetupError> {
    let mut doc = parse(before.unwrap_or_default(), file)?;
    let found = found(&doc, &entry.name, file)?;
    if judge(&found, entry, None) == Configured::Yes {
        return Ok(None);
    }
    if !doc.contains_key(SERVERS) {
        let mut servers = Table::new();
        servers.set_implicit(true);
        doc.insert(SERVERS, Item::Table(servers));
    }
    let servers = doc.get_mut(SERVERS).ok_or_else(|| merge_failed(file, "the servers table vanished"))?;
    let outcome = match found {
        Found::Server(_) => {
            let table = servers
                .as_table_like_mut()
                .and_then(|s| s.get_mut(&entry.name))
                .and_then(Item::as_table_like_mut)
                .ok_or_else(|| merge_failed(file, "the server table vanished"))?;
            update(table, entry);
            Outcome::Updated
        }
        Found::Missing | Found::NotAServer(_) => {
            match servers {
                Item::Table(servers) => {
                    servers.insert(&entry.name, Item::Table(entry_table(entry)));
                }
                Item::Value(Value::InlineTable(servers)) => {
                    servers.insert(&entry.name, Value::InlineTable(entry_table(entry).into_inline_table()));
                }
                other => return Err(unexpected(file, other)),
            }
            match (&found, before) {
                (Found::NotAServer(_), _) => Outcome::Updated,
                (_, Some(_)) => Outcome::Added,
                (_, None) => Outcome::Created,
            }
        }
    };
    let text = doc.to_string();
    match read(&text, &entry.name, file).map(|found| judge(&found, entry, None)) {
        Ok(Configured::Yes) => Ok(Some((text, outcome))),
        Ok(other) => Err(merge_failed(file, &format!("the edited file would read back as {other:?}"))),
        Err(e) => Err(merge_failed(file, &format!("the edited file would not parse: {e}"))),
    }
}

/// Brings an existing `[mcp_servers.<name>]` up to date, keeping keys we do not own
/// (`startup_timeout_sec`, `enabled`, extra variables…) and the formatting of matching values.
fn update(table: &mut dyn TableLike, entry: &ServerEntry) {
    let command = entry.command_text();
    if table.get("command").and_then(Item::as_str) != Some(command.as_str()) {
        set_value(table, "command", command.into());
    }
    let stored: Option<Vec<String>> = table
        .get("args")
        .and_then(Item::as_array)
        .and_then(|args| args.iter().map(|a| a.as_str().map(str::to_owned)).collect());
    if !stored.as_deref().is_some_and(|args| entry.args_match(args)) {
        set_value(table, "args", args_value(&entry.merged_args(stored.as_deref())));
    }
    if entry.env.is_empty() {
        return;
    }
    match table.get_mut("env").and_then(Item::as_table_like_mut) {
        Some(env) => {
            for (name, value) in &entry.env {
                if env.get(name).and_then(Item::as_str) != Some(value.as_str()) {
                    set_value(env, name, value.as_str().into());
                }
            }
        }
        None => set_value(table, "env", env_value(entry)),
    }
}

/// The text without the server `name`, or `None` when it was not there.
pub(crate) fn remove(before: &str, name: &str, file: &Path) -> Result<Option<String>, SetupError> {
    let mut doc = parse(before, file)?;
    let Some(item) = doc.get_mut(SERVERS) else { return Ok(None) };
    if !item.is_table_like() {
        return Err(unexpected(file, item));
    }
    if item.as_table_like_mut().and_then(|servers| servers.remove(name)).is_none() {
        return Ok(None);
    }
    let text = doc.to_string();
    let check = parse(&text, file).and_then(|doc| found(&doc, name, file));
    match check {
        Ok(Found::Missing) => Ok(Some(text)),
        Ok(_) => Err(merge_failed(file, "the entry would still be there")),
        Err(e) => Err(merge_failed(file, &e.to_string())),
    }
}

fn merge_failed(file: &Path, reason: &str) -> SetupError {
    SetupError::MergeFailed { path: file.to_path_buf(), reason: reason.to_owned() }
}
