//! What a config file holds under our server's name, read the same way for JSON and TOML, and
//! whether that matches the entry we would write.

use std::collections::BTreeMap;

use crate::{Configured, ServerEntry};

/// What is stored under the server name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Found {
    /// Nothing.
    Missing,
    /// Something that is not a table/object (`"garmin": "x"`); names what it is.
    NotAServer(String),
    /// A server entry.
    Server(FoundServer),
}

/// The parts of a stored server entry we compare.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct FoundServer {
    /// `command`, when it is a string.
    pub command: Option<String>,
    /// `args`, when it is a list of strings.
    pub args: Option<Vec<String>>,
    /// `env`: each variable and its value when that is a string.
    pub env: BTreeMap<String, Option<String>>,
    /// `type`, when it is a string.
    pub kind: Option<String>,
    /// The client's own switch says the entry is off (opencode's `"enabled": false`).
    pub turned_off: bool,
}

impl FoundServer {
    /// Reads an entry written as `command` + `args` (+ `env`, `type`) from a JSON object.
    pub(crate) fn from_json(object: &serde_json::Map<String, serde_json::Value>) -> FoundServer {
        let text = |key: &str| object.get(key).and_then(|v| v.as_str()).map(str::to_owned);
        FoundServer {
            command: text("command"),
            args: object.get("args").and_then(strings),
            env: object.get("env").map(variables).unwrap_or_default(),
            kind: text("type"),
            turned_off: false,
        }
    }

    /// Reads opencode's entry: `command` is one list holding the program and its arguments, the
    /// variables are under `environment`, and `"enabled": false` turns it off.
    pub(crate) fn from_opencode(object: &serde_json::Map<String, serde_json::Value>) -> FoundServer {
        let line = object.get("command").and_then(strings);
        let (command, args) = match line {
            Some(line) => match line.split_first() {
                Some((command, args)) => (Some(command.clone()), Some(args.to_vec())),
                None => (None, Some(Vec::new())),
            },
            None => (object.get("command").and_then(|v| v.as_str()).map(str::to_owned), None),
        };
        FoundServer {
            command,
            args,
            env: object.get("environment").map(variables).unwrap_or_default(),
            kind: object.get("type").and_then(|v| v.as_str()).map(str::to_owned),
            turned_off: object.get("enabled").and_then(serde_json::Value::as_bool) == Some(false),
        }
    }
}

/// A JSON list of strings; `None` for anything else.
fn strings(value: &serde_json::Value) -> Option<Vec<String>> {
    value.as_array()?.iter().map(|i| i.as_str().map(str::to_owned)).collect()
}

/// A JSON object of variables: each name and its value when that is a string.
fn variables(value: &serde_json::Value) -> BTreeMap<String, Option<String>> {
    value
        .as_object()
        .map(|env| env.iter().map(|(k, v)| (k.clone(), v.as_str().map(str::to_owned))).collect())
        .unwrap_or_default()
}

/// Compares what is stored with `entry`. Keys we do not write (timeouts, `disabled`, extra
/// environment variables) are the user's business and do not count as a difference.
/// Arguments the person added (`--demo`, `--toolsets …`) are kept by configure and are no difference
/// either, unless `entry` turns them off. `want_type`: the `type` the client needs (`stdio`,
/// opencode's `local`); another type is a difference.
pub(crate) fn judge(found: &Found, entry: &ServerEntry, want_type: Option<&str>) -> Configured {
    let server = match found {
        Found::Missing => return Configured::No,
        Found::NotAServer(what) => {
            return Configured::Different(format!("the `{}` entry is {what}, not a server", entry.name));
        }
        Found::Server(server) => server,
    };
    let mut differences = Vec::new();
    match &server.command {
        None => differences.push("it has no command".to_owned()),
        Some(command) if *command != entry.command_text() => differences.push(format!("it runs {command}")),
        Some(_) => {}
    }
    if !server.args.as_ref().is_some_and(|args| entry.args_match(args)) {
        differences.push(match &server.args {
            Some(args) => format!("its arguments are `{}`", args.join(" ")),
            None => "its arguments are missing or not a list of strings".to_owned(),
        });
    }
    for (name, value) in &entry.env {
        // Values are never shown: they may be secrets.
        if server.env.get(name).and_then(Option::as_ref) != Some(value) {
            differences.push(format!("environment variable {name} is missing or different"));
        }
    }
    if let Some(want) = want_type
        && let Some(kind) = server.kind.as_deref().filter(|k| k != &want)
    {
        differences.push(format!("its type is `{kind}`, not `{want}`"));
    }
    if server.turned_off {
        differences.push("it is turned off (`\"enabled\": false`)".to_owned());
    }
    if differences.is_empty() { Configured::Yes } else { Configured::Different(differences.join("; ")) }
}
