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
}

impl FoundServer {
    /// Reads a JSON object (the caller checked it is one).
    pub(crate) fn from_json(object: &serde_json::Map<String, serde_json::Value>) -> FoundServer {
        let text = |key: &str| object.get(key).and_then(|v| v.as_str()).map(str::to_owned);
        FoundServer {
            command: text("command"),
            args: object.get("args").and_then(|v| v.as_array()).and_then(|items| {
                items.iter().map(|i| i.as_str().map(str::to_owned)).collect::<Option<Vec<_>>>()
            }),
            env: object
                .get("env")
                .and_then(|v| v.as_object())
                .map(|env| env.iter().map(|(k, v)| (k.clone(), v.as_str().map(str::to_owned))).collect())
                .unwrap_or_default(),
            kind: text("type"),
        }
    }
}

/// Compares what is stored with `entry`. Keys we do not write (timeouts, `disabled`, extra
/// environment variables) are the user's business and do not count as a difference.
/// `check_type`: the client wants `"type": "stdio"`, so another type is a difference.
pub(crate) fn judge(found: &Found, entry: &ServerEntry, check_type: bool) -> Configured {
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
    if server.args.as_ref() != Some(&entry.args) {
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
    if check_type && let Some(kind) = server.kind.as_deref().filter(|k| *k != "stdio") {
        differences.push(format!("its type is `{kind}`, not `stdio`"));
    }
    if differences.is_empty() { Configured::Yes } else { Configured::Different(differences.join("; ")) }
}
