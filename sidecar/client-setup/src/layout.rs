//! Per client: which file holds its MCP servers on each OS, the shape of that file, how to tell the
//! client is installed, and where a person pastes the snippet by hand.
//!
//! Source: the project's `mcp-tauri-notes.md` §5 (the authority for paths and shapes). Where the
//! notes are silent, the choice is marked **not in the notes** below:
//! * VS Code's user `mcp.json` path (the notes only name the "MCP: Open User Configuration"
//!   command): VS Code's user folder, `<config dir>/Code/User/mcp.json`.
//! * Detection (the notes give no rule): the client's folder holds something besides the config
//!   file and backup garmin-mcp may have written itself (so configuring a client does not make it
//!   look installed), or its command is on `PATH`; Cherry Studio by its app-data folder
//!   `<config dir>/CherryStudio`.
//! * WorkBuddy and CodeBuddy share one id: WorkBuddy's `~/.workbuddy/mcp.json` unless only
//!   CodeBuddy is found (`~/.codebuddy.json` / `~/.codebuddy` / `codebuddy` on `PATH`), then
//!   `~/.codebuddy.json` (user scope, Claude-Code-like; the notes mark it single-source). No `type`
//!   key for either (WorkBuddy's changelog: a wrong `type` broke connections).
//! * DeepSeek: DeepSeek Harness's user registry `$DSH_HOME/mcpServers.json` (top-level
//!   `mcpServers`); `DSH_HOME` defaults to `~/.dsh` (**not in the notes**; from Harness's docs).
//!   When only the community DeepSeek-TUI is found (`~/.deepseek`, `deepseek` on `PATH` or
//!   `DEEPSEEK_MCP_CONFIG` set), its `~/.deepseek/mcp.json` instead, writing into `servers` when
//!   that file already uses `servers` rather than `mcpServers`.
//! * ZCode: the user file `~/.zcode/cli/config.json`, nested `mcp.servers` (the notes say
//!   "verify": no other source documents the file).
//! * Claude Code: user scope (root `mcpServers` of `~/.claude.json`) with `"type": "stdio"`, as
//!   `claude mcp add -s user` writes it. Claude Desktop on Linux: the community builds'
//!   `~/.config/Claude/` (there is no official Linux build).
//! * Comments (`/work/shared/reference/real-clients.md`, the clients driven in a throwaway home):
//!   Gemini CLI and Qwen Code strip `//` and `/* */` comments from `settings.json` before
//!   `JSON.parse`, so comments are accepted there but a trailing comma is still an error; VS Code's
//!   `mcp.json` and opencode's `opencode.json` are JSONC (comments and trailing commas). For the
//!   other clients a comment is reported as a parse error, as the client would.
//! * Qwen Code: `~/.qwen/settings.json`, the same loader and shape as Gemini CLI.
//! * GitHub Copilot CLI: `~/.copilot/mcp-config.json`, `mcpServers` with `"type": "stdio"` (its
//!   docs: `local` and `stdio` work the same) and `"tools": ["*"]` (all tools; its form asks for it).
//! * opencode: `opencode.json` in its XDG config folder (`$XDG_CONFIG_HOME/opencode`, else
//!   `~/.config/opencode` on every OS), or `opencode.jsonc` there when only that exists; its own
//!   shape under `mcp` (`type: local`, `command` as one list, `environment`, `enabled`). A pasted
//!   `mcpServers` block is ignored by opencode without a word.
//! * Generic: a project's `.mcp.json` (Claude Code, Copilot CLI and Qwen Code read it), so a
//!   snippet only. No client reads `~/.agents/mcp.json`, which earlier versions wrote.
//!
//! Checked on 2026-12-01 in a throwaway home: after `garmin-mcp configure`, `gemini mcp list`
//! (0.61.0, a `settings.json` with `//` and `/* */` comments, trusted folder) and `qwen mcp list`
//! (0.15.10) show `garmin … Connected`, `opencode mcp list` (1.18.33, a JSONC file) shows it
//! connected, and `copilot mcp get garmin` (1.0.102) lists it enabled with all tools.

use std::fs;
use std::path::{Path, PathBuf};

use crate::env::{CODEX_HOME, DEEPSEEK_MCP_CONFIG, DSH_HOME, XDG_CONFIG_HOME};
use crate::json_config::{EntryStyle, JsonShape, Syntax};
use crate::{ClientId, Env, Os, backup_path};

/// The format of a client's config.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    /// A JSON file.
    Json(JsonShape),
    /// Codex's TOML file.
    CodexToml,
    /// No file: the snippet is pasted into the app (`mcpServers` JSON).
    Manual(JsonShape),
}

const MCP_SERVERS: &[&str] = &["mcpServers"];

const PLAIN: JsonShape =
    JsonShape { container: MCP_SERVERS, alternative: None, style: EntryStyle::Plain, syntax: Syntax::JSON };

/// The format of `client`'s config (the same on every OS).
pub(crate) fn shape(client: ClientId) -> Shape {
    match client {
        ClientId::ClaudeCode => Shape::Json(JsonShape { style: EntryStyle::Stdio, ..PLAIN }),
        ClientId::VsCode => Shape::Json(JsonShape {
            container: &["servers"],
            style: EntryStyle::Stdio,
            syntax: Syntax::JSONC,
            ..PLAIN
        }),
        ClientId::ZCode => Shape::Json(JsonShape { container: &["mcp", "servers"], ..PLAIN }),
        ClientId::DeepSeek => Shape::Json(JsonShape { alternative: Some(&["servers"]), ..PLAIN }),
        ClientId::Gemini | ClientId::Qwen => Shape::Json(JsonShape { syntax: Syntax::COMMENTS, ..PLAIN }),
        ClientId::Copilot => Shape::Json(JsonShape { style: EntryStyle::Copilot, ..PLAIN }),
        ClientId::OpenCode => Shape::Json(JsonShape {
            container: &["mcp"],
            style: EntryStyle::OpenCode,
            syntax: Syntax::JSONC,
            ..PLAIN
        }),
        ClientId::Codex => Shape::CodexToml,
        ClientId::CherryStudio | ClientId::Generic => Shape::Manual(PLAIN),
        ClientId::ClaudeDesktop | ClientId::Cursor | ClientId::Windsurf | ClientId::WorkBuddy => {
            Shape::Json(PLAIN)
        }
    }
}

/// The file `configure` writes for `client`; `None` for Cherry Studio and a project's `.mcp.json`.
pub(crate) fn config_path(client: ClientId, env: &Env) -> Option<PathBuf> {
    Some(match client {
        ClientId::ClaudeCode => env.home_join(".claude.json"),
        ClientId::ClaudeDesktop => env.config_join("Claude/claude_desktop_config.json"),
        ClientId::Codex => codex_home(env).join("config.toml"),
        ClientId::Cursor => env.home_join(".cursor/mcp.json"),
        ClientId::VsCode => env.config_join("Code/User/mcp.json"),
        ClientId::Windsurf => env.home_join(".codeium/windsurf/mcp_config.json"),
        ClientId::Gemini => env.home_join(".gemini/settings.json"),
        ClientId::CherryStudio => return None,
        ClientId::WorkBuddy if only_codebuddy(env) => env.home_join(".codebuddy.json"),
        ClientId::WorkBuddy => workbuddy_config(env),
        ClientId::ZCode => env.home_join(".zcode/cli/config.json"),
        ClientId::DeepSeek if only_deepseek_tui(env) => deepseek_tui_config(env),
        ClientId::DeepSeek => dsh_config(env),
        ClientId::Qwen => env.home_join(".qwen/settings.json"),
        ClientId::Copilot => env.home_join(".copilot/mcp-config.json"),
        ClientId::OpenCode => opencode_config(env),
        ClientId::Generic => return None,
    })
}

/// opencode's folder: XDG's config folder, which it uses on every OS (`$XDG_CONFIG_HOME`, else
/// `~/.config`; its `xdg-basedir` ignores `%APPDATA%` and `Library`).
fn opencode_dir(env: &Env) -> PathBuf {
    match (env.var(XDG_CONFIG_HOME), env.os) {
        (Some(xdg), _) if xdg.is_absolute() => xdg.join("opencode"),
        (_, Os::Linux) => env.config_join("opencode"),
        (_, Os::Mac | Os::Windows) => env.home_join(".config/opencode"),
    }
}

/// `opencode.json`, or `opencode.jsonc` when only that one exists.
fn opencode_config(env: &Env) -> PathBuf {
    let dir = opencode_dir(env);
    let jsonc = dir.join("opencode.jsonc");
    let json = dir.join("opencode.json");
    if jsonc.is_file() && !json.exists() { jsonc } else { json }
}

fn codex_home(env: &Env) -> PathBuf {
    env.var(CODEX_HOME).map_or_else(|| env.home_join(".codex"), PathBuf::from)
}

fn dsh_home(env: &Env) -> PathBuf {
    env.var(DSH_HOME).map_or_else(|| env.home_join(".dsh"), PathBuf::from)
}

fn deepseek_tui_config(env: &Env) -> PathBuf {
    env.var(DEEPSEEK_MCP_CONFIG).map_or_else(|| env.home_join(".deepseek/mcp.json"), PathBuf::from)
}

fn workbuddy_config(env: &Env) -> PathBuf {
    env.home_join(".workbuddy/mcp.json")
}

fn dsh_config(env: &Env) -> PathBuf {
    dsh_home(env).join("mcpServers.json")
}

fn only_codebuddy(env: &Env) -> bool {
    let workbuddy = has_foreign_content(&env.home_join(".workbuddy"), Some(&workbuddy_config(env)))
        || env.find_command("workbuddy").is_some();
    let codebuddy = env.home_join(".codebuddy.json").exists()
        || env.home_join(".codebuddy").exists()
        || env.find_command("codebuddy").is_some();
    codebuddy && !workbuddy
}

fn only_deepseek_tui(env: &Env) -> bool {
    let harness = env.var(DSH_HOME).is_some()
        || has_foreign_content(&dsh_home(env), Some(&dsh_config(env)))
        || env.find_command("dsh").is_some();
    let tui = env.var(DEEPSEEK_MCP_CONFIG).is_some()
        || env.home_join(".deepseek").exists()
        || env.find_command("deepseek").is_some();
    tui && !harness
}

/// True when `dir` holds something besides `config`, its backup and our temporary files — that
/// is, something the client itself (not garmin-mcp) put there. Only the folders on the way to
/// `config` are entered, so big client folders are not walked.
fn has_foreign_content(dir: &Path, config: Option<&Path>) -> bool {
    let ours: Vec<PathBuf> = config.map(|c| vec![c.to_path_buf(), backup_path(c)]).unwrap_or_default();
    let Ok(entries) = fs::read_dir(dir) else { return false };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if ours.contains(&path) || (name.starts_with(".garmin-mcp-") && name.ends_with(".tmp")) {
            continue;
        }
        let on_the_way = ours.iter().any(|o| o.starts_with(&path)) && path.is_dir();
        if !on_the_way || has_foreign_content(&path, config) {
            return true;
        }
    }
    false
}

enum Probe {
    /// A folder of the client's that holds more than what garmin-mcp writes.
    Folder(PathBuf),
    /// A file only the client writes.
    File(PathBuf),
    /// The client's command on `PATH`.
    Command(&'static str),
}

fn probes(client: ClientId, env: &Env) -> Vec<Probe> {
    use Probe::{Command, File, Folder};
    match client {
        ClientId::ClaudeCode => vec![Folder(env.home_join(".claude")), Command("claude")],
        ClientId::ClaudeDesktop => vec![Folder(env.config_join("Claude"))],
        ClientId::Codex => vec![Folder(codex_home(env)), Command("codex")],
        ClientId::Cursor => vec![Folder(env.home_join(".cursor")), Command("cursor")],
        ClientId::VsCode => vec![Folder(env.config_join("Code/User")), Command("code")],
        ClientId::Windsurf => vec![Folder(env.home_join(".codeium/windsurf")), Command("windsurf")],
        ClientId::Gemini => vec![Folder(env.home_join(".gemini")), Command("gemini")],
        ClientId::CherryStudio => vec![Folder(env.config_join("CherryStudio"))],
        ClientId::WorkBuddy => vec![
            Folder(env.home_join(".workbuddy")),
            Command("workbuddy"),
            // CodeBuddy's own settings file; garmin-mcp only writes into it once CodeBuddy is found.
            File(env.home_join(".codebuddy.json")),
            Folder(env.home_join(".codebuddy")),
            Command("codebuddy"),
        ],
        ClientId::ZCode => vec![Folder(env.home_join(".zcode")), Command("zcode")],
        ClientId::DeepSeek => vec![
            Folder(dsh_home(env)),
            Command("dsh"),
            Folder(env.home_join(".deepseek")),
            Command("deepseek"),
        ],
        ClientId::Qwen => vec![Folder(env.home_join(".qwen")), Command("qwen")],
        ClientId::Copilot => vec![Folder(env.home_join(".copilot")), Command("copilot")],
        ClientId::OpenCode => vec![Folder(opencode_dir(env)), Command("opencode")],
        ClientId::Generic => Vec::new(),
    }
}

/// How `client` was found on this computer, `None` when nothing of it was.
pub(crate) fn detect(client: ClientId, env: &Env) -> Option<String> {
    let config = config_path(client, env);
    probes(client, env).into_iter().find_map(|probe| match probe {
        Probe::Folder(dir) => {
            has_foreign_content(&dir, config.as_deref()).then(|| format!("found {}", dir.display()))
        }
        Probe::File(file) => file.is_file().then(|| format!("found {}", file.display())),
        Probe::Command(name) => {
            env.find_command(name).map(|found| format!("`{name}` is on PATH ({})", found.display()))
        }
    })
}

/// Why [`status`](crate::status) cannot tell whether a snippet-only client has our server.
pub(crate) fn manual_status(client: ClientId) -> String {
    match client {
        ClientId::Generic => {
            "a project's .mcp.json lives in each project; garmin-mcp does not look for them".to_owned()
        }
        _ => format!("{client} keeps its servers inside the app; check Settings → MCP Servers there"),
    }
}

/// One line telling a person where the snippet goes.
pub(crate) fn where_to_put(client: ClientId, env: &Env) -> String {
    let name = client.display_name();
    let file = config_path(client, env).map(|p| p.display().to_string()).unwrap_or_default();
    match client {
        ClientId::ClaudeCode => format!(
            "Merge this into {file} (the top-level \"mcpServers\" is Claude Code's user scope), or use \
             `claude mcp add -s user`; then restart {name}."
        ),
        ClientId::ClaudeDesktop => {
            let linux = if env.os == Os::Linux { " (community Linux builds)" } else { "" };
            format!("Merge this into {file}{linux}, then quit and reopen {name}.")
        }
        ClientId::Codex => format!("Add this to {file} (or use `codex mcp add`), then restart {name}."),
        ClientId::VsCode => format!(
            "Merge this into your user mcp.json ({file}; or run \"MCP: Open User Configuration\"), under \
             \"servers\"; a workspace can use .vscode/mcp.json instead."
        ),
        ClientId::CherryStudio => {
            format!("In {name}: Settings → MCP Servers → Add → Import from JSON, paste this and save.")
        }
        ClientId::ZCode => {
            format!("Merge this into {file} (under \"mcp\" → \"servers\"), then restart {name}.")
        }
        ClientId::Generic => {
            "Save this as .mcp.json at the root of a project (or merge it into the one there): \
             Claude Code asks you to approve it, Copilot CLI reads it in folders you trust, and Qwen Code \
             reads it too. (No client reads ~/.agents/mcp.json.)"
                .to_owned()
        }
        ClientId::Gemini | ClientId::Qwen => format!(
            "Merge this into {file} (under \"mcpServers\"; comments there are fine), then restart {name}. \
             {name} turns servers off in folders you have not trusted: trust the folder when it asks."
        ),
        ClientId::Copilot => format!(
            "Merge this into {file} (under \"mcpServers\"), then restart {name}; `copilot mcp list` shows it."
        ),
        ClientId::OpenCode => format!(
            "Merge this into {file} (under \"mcp\"; opencode ignores an \"mcpServers\" block), then \
             restart {name}."
        ),
        ClientId::Cursor | ClientId::Windsurf | ClientId::WorkBuddy | ClientId::DeepSeek => {
            format!("Merge this into {file} (under \"mcpServers\"), then restart {name}.")
        }
    }
}
