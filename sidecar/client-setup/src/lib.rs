//! Connects AI clients to the `garmin-mcp` sidecar: tells which clients are installed and whether
//! they already start our server ([`status`]), adds or updates our entry in their config file
//! ([`configure`]), takes it out again ([`remove`]), and gives the exact text for manual setup
//! ([`snippet`], [`where_to_put`]), or the one-click install link of hosts that have one
//! ([`install_link`]), or the MCP Bundle Claude Desktop installs ([`bundle`]). `garmin-mcp configure <client>` and the desktop app's
//! "Configure" buttons both run this code.
//!
//! Promises every write keeps:
//! * **Only our entry changes.** Other servers, unrelated keys, their order, indentation, newlines,
//!   comments and trailing commas stay byte for byte (JSON: `jsonc-parser`'s syntax tree, with
//!   comments where the client accepts them; Codex TOML: `toml_edit`). An existing entry of ours is
//!   updated field by field, keeping keys we do not own (timeouts, `disabled`, extra variables)
//!   and the arguments the person added (`--demo`, `--readonly`, `--toolsets …`) unless the entry
//!   turns them off ([`ServerEntry::set_flag`]).
//! * **A file we cannot read is left alone.** Malformed JSON/TOML gives
//!   [`SetupError::Malformed`] with line, column and what to do; the file is not written and no
//!   backup is made. Symbolic links are refused rather than replaced.
//! * **One backup.** Before garmin-mcp first changes an existing file it copies it to
//!   `<file>.garmin-mcp.bak` (same permissions). Later changes never overwrite that copy, so it
//!   always holds the file as it was before garmin-mcp touched it. New files get no backup.
//! * **Atomic, and aware of the client.** The new content goes to a temporary file in the same
//!   folder (fsync, then rename, keeping the old file's permissions; new files are 0600). If the
//!   client rewrote the file meanwhile we start over from its new content (a few tries).
//! * **Idempotent.** Configuring twice writes nothing the second time ([`Outcome::Unchanged`]).
//! * **Read back before writing.** The edited text must parse and hold exactly our entry.
//! * **The file's own line endings.** A `\r\n` file stays `\r\n`; a new file gets the endings
//!   its client writes (`line_endings`).
//!
//! Paths and formats come from the project's `mcp-tauri-notes.md` §5; the `layout` module's docs
//! list the choices the notes leave open.
#![deny(missing_docs)]

pub mod bundle;
mod client;
mod entry;
mod env;
mod error;
mod file;
mod json_config;
mod judge;
mod layout;
mod line_endings;
mod links;
mod report;
mod toml_config;

use std::path::{Path, PathBuf};

pub use client::{ClientId, UnknownClient};
pub use entry::{DEFAULT_SERVER_NAME, ENTRY_FLAGS, ServerEntry};
pub use env::{Env, LOCATION_VARS, Os};
pub use error::SetupError;
pub use file::{BACKUP_SUFFIX, backup_path};
pub use links::{LinkHost, install_link};
pub use report::{ClientStatus, ConfigEdit, Configured, Outcome};

use judge::{Found, judge};
use layout::Shape;

/// How many times to start over when the client rewrites its file while we edit it.
const ATTEMPTS: usize = 3;

/// The config file `configure` writes for `client` in `env`; `None` when there is no one file:
/// the client keeps its servers inside the app (Cherry Studio), or the file is per project
/// (`generic`, a project's `.mcp.json`).
pub fn config_path(client: ClientId, env: &Env) -> Option<PathBuf> {
    layout::config_path(client, env)
}

/// Whether `client` looks installed and whether its config starts `entry`. Never fails: a file
/// that cannot be read shows as [`Configured::Unknown`] with the reason.
pub fn status(client: ClientId, env: &Env, entry: &ServerEntry) -> ClientStatus {
    let detected_by = layout::detect(client, env);
    let stored = match target(client, env) {
        Err(_) => Err(layout::manual_status(client)),
        Ok((path, format)) => match file::read(&path, format.name()) {
            Ok(None) => Ok(Found::Missing),
            Ok(Some(text)) => match format {
                FileFormat::Json(json) => json_config::read(&text, json, &entry.name, &path),
                FileFormat::CodexToml => toml_config::read(&text, &entry.name, &path),
            }
            .map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        },
    };
    let (configured, entry_flags) = match stored {
        Ok(found) => {
            let want_type = match layout::shape(client) {
                Shape::Json(json) => json.style.want_type(),
                Shape::CodexToml | Shape::Manual(_) => None,
            };
            let flags = match &found {
                Found::Server(server) => ServerEntry::flags_in(server.args.as_deref().unwrap_or_default()),
                Found::Missing | Found::NotAServer(_) => Vec::new(),
            };
            (judge(&found, entry, want_type), flags)
        }
        Err(why) => (Configured::Unknown(why), Vec::new()),
    };
    let config_path = layout::config_path(client, env);
    ClientStatus {
        client,
        installed: detected_by.is_some(),
        detected_by,
        config_path,
        configured,
        entry_flags,
    }
}

/// The format of a config file we edit.
#[derive(Debug, Clone, Copy)]
enum FileFormat {
    Json(json_config::JsonShape),
    CodexToml,
}

impl FileFormat {
    fn name(self) -> &'static str {
        match self {
            FileFormat::Json(json) => json.syntax.name(),
            FileFormat::CodexToml => "TOML",
        }
    }
}

/// The file to edit and its format, or why there is no file to edit.
fn target(client: ClientId, env: &Env) -> Result<(PathBuf, FileFormat), SetupError> {
    let format = match layout::shape(client) {
        Shape::Json(json) => FileFormat::Json(json),
        Shape::CodexToml => FileFormat::CodexToml,
        Shape::Manual(_) => {
            return Err(SetupError::ManualOnly { client, hint: layout::where_to_put(client, env) });
        }
    };
    let path = layout::config_path(client, env)
        .ok_or_else(|| SetupError::ManualOnly { client, hint: layout::where_to_put(client, env) })?;
    Ok((path, format))
}

/// Adds `entry` to `client`'s config (creating the file and its folders when absent), or brings
/// an existing entry of the same name up to date, keeping the arguments the person added to it.
/// Everything else in the file is kept; see the crate docs for the backup, atomic-write and
/// malformed-file rules.
pub fn configure(client: ClientId, env: &Env, entry: &ServerEntry) -> Result<ConfigEdit, SetupError> {
    entry.validate()?;
    let (path, format) = target(client, env)?;
    let change = |outcome, backup| ConfigEdit {
        client,
        server: entry.name.clone(),
        path: path.clone(),
        outcome,
        backup,
    };
    for _ in 0..ATTEMPTS {
        file::refuse_symlink(&path)?;
        let before = file::read(&path, format.name())?;
        let edited = match format {
            FileFormat::Json(json) => json_config::configure(before.as_deref(), json, entry, &path)?,
            FileFormat::CodexToml => toml_config::configure(before.as_deref(), entry, &path)?,
        };
        let Some((text, outcome)) = edited else {
            let backup = Some(backup_path(&path)).filter(|b| b.exists());
            return Ok(change(Outcome::Unchanged, backup));
        };
        let text = line_endings::apply(&text, line_endings::for_file(env.os, client, before.as_deref()));
        if let Some(backup) = write(&path, &text, before.as_deref())? {
            return Ok(change(outcome, backup));
        }
    }
    Err(SetupError::Busy { client, path })
}

/// Removes the server `name` from `client`'s config, leaving every other server and key as it
/// was. A missing file or entry is not an error ([`Outcome::NotPresent`]).
pub fn remove(client: ClientId, env: &Env, name: &str) -> Result<ConfigEdit, SetupError> {
    let (path, format) = target(client, env)?;
    let change =
        |outcome, backup| ConfigEdit { client, server: name.to_owned(), path: path.clone(), outcome, backup };
    for _ in 0..ATTEMPTS {
        file::refuse_symlink(&path)?;
        let Some(before) = file::read(&path, format.name())? else {
            return Ok(change(Outcome::NotPresent, None));
        };
        let edited = match format {
            FileFormat::Json(json) => json_config::remove(&before, json, name, &path)?,
            FileFormat::CodexToml => toml_config::remove(&before, name, &path)?,
        };
        let Some(text) = edited else {
            return Ok(change(Outcome::NotPresent, Some(backup_path(&path)).filter(|b| b.exists())));
        };
        let text = line_endings::apply(&text, line_endings::for_file(env.os, client, Some(&before)));
        if let Some(backup) = write(&path, &text, Some(&before))? {
            return Ok(change(Outcome::Removed, backup));
        }
    }
    Err(SetupError::Busy { client, path })
}

/// Backs up (once) and replaces the file. `Ok(None)`: the file changed meanwhile, start over.
/// `Ok(Some(backup))`: written; `backup` is where the original is kept, if there was one.
fn write(path: &Path, text: &str, before: Option<&str>) -> Result<Option<Option<PathBuf>>, SetupError> {
    let backup = match before {
        Some(_) => Some(file::ensure_backup(path)?),
        None => None,
    };
    Ok(match file::replace(path, text, before)? {
        file::Written::Yes => Some(backup),
        file::Written::FileChangedMeanwhile => None,
    })
}

/// The exact text for setting up `client` by hand: a whole config file holding only our server
/// (JSON in the client's shape, or TOML for Codex), ready to paste or merge. Pair it with
/// [`where_to_put`].
pub fn snippet(client: ClientId, entry: &ServerEntry) -> String {
    match layout::shape(client) {
        Shape::Json(json) | Shape::Manual(json) => json_config::fresh(json, entry),
        Shape::CodexToml => toml_config::fresh(entry),
    }
}

/// One line saying where the [`snippet`] goes for `client` in `env` (file path, key, restart).
pub fn where_to_put(client: ClientId, env: &Env) -> String {
    layout::where_to_put(client, env)
}
