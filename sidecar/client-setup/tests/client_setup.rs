//! The client config writers against real files in a temporary home: a fresh configure matches the
//! golden file of each client, existing configs keep every byte that is not our entry, malformed
//! files are reported and left untouched (no backup either), remove gives back the other servers,
//! configuring twice changes nothing, the one backup holds the original, and the macOS and Windows
//! layouts resolve from a fake environment. Gemini's and Qwen's settings and opencode's file keep
//! their comments (and trailing commas where the client allows them); `--demo`/`--readonly` go into
//! the entry and a flag added by hand survives a re-run. Each OS's environment (Windows'
//! `%USERPROFILE%`/`%APPDATA%`, macOS' `Library`, Linux's XDG) gives every client's file, and a
//! `\r\n` file keeps its line endings.
//!
//! Run: `cargo test -p client-setup --test client_setup`
//! Accept new golden files: `UPDATE_GOLDEN=1 cargo test -p client-setup --test client_setup`

use std::fs;
use std::path::{Path, PathBuf};

use client_setup::{
    ClientId, Configured, Env, Os, Outcome, ServerEntry, SetupError, backup_path, config_path, configure,
    remove, snippet, status, where_to_put,
};

/// The clients that only get a snippet: no file garmin-mcp edits.
const SNIPPET_ONLY: [ClientId; 2] = [ClientId::CherryStudio, ClientId::Generic];

const COMMAND: &str = "/opt/garmin-mcp/bin/garmin-mcp";
const DATA_DIR: &str = "/home/ann/.local/share/dev.garminmcp.desktop";

fn entry() -> ServerEntry {
    ServerEntry::new(COMMAND, Path::new(DATA_DIR)).unwrap()
}

fn temp_home(os: Os) -> (tempfile::TempDir, Env) {
    let dir = tempfile::tempdir().unwrap();
    let env = Env::for_os(os, dir.path());
    (dir, env)
}

/// Every client that has a config file.
fn file_clients() -> impl Iterator<Item = ClientId> {
    ClientId::ALL.into_iter().filter(|c| !SNIPPET_ONLY.contains(c))
}

fn golden_name(client: ClientId) -> String {
    let ext = if client == ClientId::Codex { "toml" } else { "json" };
    format!("{}.{ext}", client.id())
}

fn assert_golden(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden").join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        fs::write(&path, actual).unwrap();
        return;
    }
    let expected = fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!("{}: {e}; create it with UPDATE_GOLDEN=1 cargo test -p client-setup", path.display())
    });
    assert_eq!(actual, expected, "{name} differs from its golden file (UPDATE_GOLDEN=1 accepts the change)");
}

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

/// `after` must be `before` plus one contiguous insertion; returns what was inserted.
fn only_insertion(before: &str, after: &str) -> String {
    let (b, a) = (before.as_bytes(), after.as_bytes());
    let prefix = b.iter().zip(a).take_while(|(x, y)| x == y).count();
    let max_suffix = b.len().min(a.len()) - prefix;
    let suffix = b.iter().rev().zip(a.iter().rev()).take(max_suffix).take_while(|(x, y)| x == y).count();
    assert_eq!(
        prefix + suffix,
        b.len(),
        "bytes of the original were changed, not just added to:\n--- before\n{before}\n--- after\n{after}"
    );
    String::from_utf8(a[prefix..a.len() - suffix].to_vec()).unwrap()
}

/// A config as the client (or a person) left it: another server with env, keys around it, and a
/// number spelled in a way a re-serialiser would change.
const MCP_SERVERS_FIXTURE: &str = r#"{
  "numStartups": 12,
  "theme": "dark",
  "mcpServers": {
    "other": {
      "command": "npx",
      "args": ["-y", "@acme/other-server"],
      "env": {"TOKEN": "keep-me"}
    }
  },
  "projects": {
    "/home/ann/code": {"allowedTools": [], "mcpServers": {}}
  },
  "tipsHistory": {"x": 1.50e3}
}
"#;

const VSCODE_FIXTURE: &str = r#"{
	// My servers
	"servers": {
		"other": {
			"type": "stdio",
			"command": "npx",
			"args": ["-y", "@acme/other-server"], // pinned
		},
	},
	"inputs": [
		{"type": "promptString", "id": "token", "password": true}
	]
}
"#;

const ZCODE_FIXTURE: &str = r#"{
    "theme": "light",
    "mcp": {
        "servers": {
            "other": {"command": "npx", "args": ["-y", "@acme/other-server"], "enable": false}
        }
    },
    "model": "glm-5"
}
"#;

const CODEX_FIXTURE: &str = r#"# Codex settings
model = "o3"
approval_policy = "on-request"

[mcp_servers.other]
command = "npx"   # the other one
args = ["-y", "@acme/other-server"]
env = { TOKEN = "keep-me" }

[profiles.fast]
model = "o4-mini"
"#;

/// Gemini CLI's settings as people keep them: comments (Gemini strips them before parsing), no
/// trailing commas (Gemini refuses those). Qwen Code reads the same format.
const GEMINI_FIXTURE: &str = r#"// Gemini CLI settings: comments are fine here
{
  "theme": "GitHub", // dark themes hurt
  /* the servers I use */
  "mcpServers": {
    "other": {
      "command": "npx",
      "args": ["-y", "@acme/other-server"] // pinned
    }
  },
  "selectedAuthType": "oauth-personal"
}
"#;

/// opencode's own shape under `mcp`, JSONC with comments and trailing commas.
const OPENCODE_FIXTURE: &str = r#"{
  "$schema": "https://opencode.ai/config.json",
  // the model for every session
  "model": "anthropic/claude-sonnet-4-5",
  "mcp": {
    "other": {
      "type": "local",
      "command": ["npx", "-y", "@acme/other-server"],
      "enabled": true,
    },
  },
}
"#;

fn fixture(client: ClientId) -> &'static str {
    match client {
        ClientId::Codex => CODEX_FIXTURE,
        ClientId::VsCode => VSCODE_FIXTURE,
        ClientId::ZCode => ZCODE_FIXTURE,
        ClientId::Gemini | ClientId::Qwen => GEMINI_FIXTURE,
        ClientId::OpenCode => OPENCODE_FIXTURE,
        _ => MCP_SERVERS_FIXTURE,
    }
}

/// Broken in JSON and in JSON with comments (`dark` is not a value); broken TOML for Codex.
fn malformed(client: ClientId) -> (&'static str, usize) {
    if client == ClientId::Codex {
        ("model = \"o3\"\n\n[mcp_servers.other\ncommand = \"npx\"\n", 3)
    } else {
        ("{\n  \"mcpServers\": {\n    \"other\": {\"command\": \"npx\"}\n  },\n  \"theme\": dark\n}\n", 5)
    }
}

#[test]
fn a_fresh_configure_writes_each_clients_golden_file_and_matches_the_snippet() {
    for client in file_clients() {
        let (_home, env) = temp_home(Os::Linux);
        let change = configure(client, &env, &entry()).unwrap();
        assert_eq!(change.outcome, Outcome::Created, "{client}");
        assert_eq!(change.backup, None, "{client}: a new file needs no backup");
        assert_eq!(Some(&change.path), config_path(client, &env).as_ref());
        let written = fs::read_to_string(&change.path).unwrap();
        assert_golden(&golden_name(client), &written);
        assert_eq!(written, snippet(client, &entry()), "{client}: the manual snippet is the same text");
        assert_eq!(status(client, &env, &entry()).configured, Configured::Yes, "{client}");
    }
    for client in SNIPPET_ONLY {
        assert_golden(&golden_name(client), &snippet(client, &entry()));
    }
}

#[test]
fn client_specific_shapes_follow_the_notes() {
    let json = |client| serde_json::from_str::<serde_json::Value>(&snippet(client, &entry())).unwrap();
    let expected_args = serde_json::json!(["--data-dir", DATA_DIR]);
    let claude = json(ClientId::ClaudeCode);
    assert_eq!(claude["mcpServers"]["garmin"]["type"], "stdio");
    assert_eq!(claude["mcpServers"]["garmin"]["command"], COMMAND);
    assert_eq!(claude["mcpServers"]["garmin"]["args"], expected_args);
    let vscode = json(ClientId::VsCode);
    assert!(vscode.get("mcpServers").is_none(), "VS Code uses `servers`");
    assert_eq!(vscode["servers"]["garmin"]["type"], "stdio");
    assert_eq!(json(ClientId::ZCode)["mcp"]["servers"]["garmin"]["args"], expected_args);
    for client in [
        ClientId::WorkBuddy,
        ClientId::ClaudeDesktop,
        ClientId::CherryStudio,
        ClientId::Generic,
        ClientId::Qwen,
    ] {
        let server = &json(client)["mcpServers"]["garmin"];
        assert_eq!(server["command"], COMMAND, "{client}");
        assert!(server.get("type").is_none(), "{client} entries carry no type");
    }
    let copilot = &json(ClientId::Copilot)["mcpServers"]["garmin"];
    assert_eq!(copilot["type"], "stdio");
    assert_eq!(copilot["args"], expected_args);
    assert_eq!(copilot["tools"], serde_json::json!(["*"]), "Copilot CLI offers the tools listed");
    let opencode = json(ClientId::OpenCode);
    assert!(opencode.get("mcpServers").is_none(), "opencode ignores mcpServers");
    assert_eq!(
        opencode["mcp"]["garmin"],
        serde_json::json!({"type": "local", "command": [COMMAND, "--data-dir", DATA_DIR], "enabled": true})
    );
    let codex: toml_edit::DocumentMut = snippet(ClientId::Codex, &entry()).parse().unwrap();
    assert_eq!(codex["mcp_servers"]["garmin"]["command"].as_str(), Some(COMMAND));
    let args: Vec<_> =
        codex["mcp_servers"]["garmin"]["args"].as_array().unwrap().iter().map(|v| v.as_str()).collect();
    assert_eq!(args, [Some("--data-dir"), Some(DATA_DIR)]);
}

#[test]
fn windows_paths_and_extra_env_survive_escaping_in_json_and_toml() {
    let mut entry = ServerEntry::new(
        r"C:\Program Files\Garmin MCP\garmin-mcp.exe",
        Path::new(r"C:\Users\Ann\AppData\Roaming\dev.garminmcp.desktop"),
    )
    .unwrap();
    entry.env.insert("RUST_LOG".into(), "garmin=debug \"quoted\"".into());
    let json: serde_json::Value = serde_json::from_str(&snippet(ClientId::Cursor, &entry)).unwrap();
    assert_eq!(json["mcpServers"]["garmin"]["command"], r"C:\Program Files\Garmin MCP\garmin-mcp.exe");
    assert_eq!(
        json["mcpServers"]["garmin"]["args"][1],
        r"C:\Users\Ann\AppData\Roaming\dev.garminmcp.desktop"
    );
    assert_eq!(json["mcpServers"]["garmin"]["env"]["RUST_LOG"], "garmin=debug \"quoted\"");
    let toml: toml_edit::DocumentMut = snippet(ClientId::Codex, &entry).parse().unwrap();
    let server = &toml["mcp_servers"]["garmin"];
    assert_eq!(server["command"].as_str(), Some(r"C:\Program Files\Garmin MCP\garmin-mcp.exe"));
    assert_eq!(server["env"]["RUST_LOG"].as_str(), Some("garmin=debug \"quoted\""));
}

#[test]
fn an_existing_config_keeps_every_byte_except_the_added_entry_and_remove_gives_it_back() {
    for client in file_clients() {
        let (_home, env) = temp_home(Os::Linux);
        let path = config_path(client, &env).unwrap();
        let original = fixture(client);
        write(&path, original);

        let change = configure(client, &env, &entry()).unwrap();
        assert_eq!(change.outcome, Outcome::Added, "{client}");
        let after = fs::read_to_string(&path).unwrap();
        let added = only_insertion(original, &after);
        assert!(added.contains(COMMAND) && added.contains(DATA_DIR), "{client}: inserted {added:?}");
        assert!(!added.contains("other"), "{client}: the other server was not rewritten: {added:?}");
        assert_eq!(status(client, &env, &entry()).configured, Configured::Yes, "{client}");

        let change = remove(client, &env, "garmin").unwrap();
        assert_eq!(change.outcome, Outcome::Removed, "{client}");
        assert_eq!(fs::read_to_string(&path).unwrap(), original, "{client}: remove restores the file");
        assert_eq!(status(client, &env, &entry()).configured, Configured::No, "{client}");
    }
}

#[test]
fn codex_keeps_comments_other_tables_and_appends_one_table() {
    let (_home, env) = temp_home(Os::Linux);
    let path = config_path(ClientId::Codex, &env).unwrap();
    write(&path, CODEX_FIXTURE);
    configure(ClientId::Codex, &env, &entry()).unwrap();
    // The new table joins the other servers, before the tables that follow them.
    let expected = CODEX_FIXTURE.replace(
        "\n[profiles.fast]",
        &format!("\n[mcp_servers.garmin]\ncommand = \"{COMMAND}\"\nargs = [\"--data-dir\", \"{DATA_DIR}\"]\n\n[profiles.fast]"),
    );
    assert_eq!(fs::read_to_string(&path).unwrap(), expected);
}

#[test]
fn a_malformed_config_is_reported_with_its_position_and_left_untouched_without_backup() {
    for client in file_clients() {
        let (_home, env) = temp_home(Os::Linux);
        let path = config_path(client, &env).unwrap();
        let (text, line) = malformed(client);
        write(&path, text);

        let err = configure(client, &env, &entry()).unwrap_err();
        match &err {
            SetupError::Malformed { path: reported, line: at, column, .. } => {
                assert_eq!(reported, &path, "{client}");
                assert_eq!(*at, line, "{client}: {err}");
                assert!(*column >= 1, "{client}");
            }
            other => panic!("{client}: expected Malformed, got {other:?}"),
        }
        let message = err.to_string();
        assert!(
            message.contains(&path.display().to_string()) && message.contains("left untouched"),
            "{message}"
        );
        assert!(matches!(remove(client, &env, "garmin"), Err(SetupError::Malformed { .. })), "{client}");
        assert_eq!(fs::read(&path).unwrap(), text.as_bytes(), "{client}: the file was touched");
        assert!(!backup_path(&path).exists(), "{client}: no backup for a file we did not change");
        let shown = status(client, &env, &entry()).configured;
        assert!(
            matches!(&shown, Configured::Unknown(why) if why.contains(&format!("line {line}"))),
            "{shown:?}"
        );
    }
}

#[test]
fn a_servers_key_of_the_wrong_type_is_named_and_left_untouched() {
    let (_home, env) = temp_home(Os::Linux);
    let path = config_path(ClientId::Cursor, &env).unwrap();
    let text = "{\"mcpServers\": [\"not\", \"a\", \"map\"]}\n";
    write(&path, text);
    let err = configure(ClientId::Cursor, &env, &entry()).unwrap_err();
    assert!(
        matches!(&err, SetupError::UnexpectedShape { key, found, .. } if key == "mcpServers" && found == "an array"),
        "{err:?}"
    );
    assert_eq!(fs::read_to_string(&path).unwrap(), text);
    assert!(!backup_path(&path).exists());

    let codex = config_path(ClientId::Codex, &env).unwrap();
    write(&codex, "mcp_servers = \"none\"\n");
    let err = configure(ClientId::Codex, &env, &entry()).unwrap_err();
    assert!(matches!(&err, SetupError::UnexpectedShape { found, .. } if found == "a string"), "{err:?}");
    assert_eq!(fs::read_to_string(&codex).unwrap(), "mcp_servers = \"none\"\n");
}

#[test]
fn configuring_twice_changes_nothing_the_second_time() {
    for client in file_clients() {
        let (_home, env) = temp_home(Os::Linux);
        let path = config_path(client, &env).unwrap();
        write(&path, fixture(client));
        assert_eq!(configure(client, &env, &entry()).unwrap().outcome, Outcome::Added, "{client}");
        let once = fs::read(&path).unwrap();
        let again = configure(client, &env, &entry()).unwrap();
        assert_eq!(again.outcome, Outcome::Unchanged, "{client}");
        assert!(!again.wrote_file());
        assert_eq!(fs::read(&path).unwrap(), once, "{client}");
    }
}

#[test]
fn the_backup_is_made_once_and_keeps_the_original_through_later_changes() {
    for client in file_clients() {
        let (_home, env) = temp_home(Os::Linux);
        let path = config_path(client, &env).unwrap();
        write(&path, fixture(client));

        let first = configure(client, &env, &entry()).unwrap();
        let backup = backup_path(&path);
        assert_eq!(first.backup.as_ref(), Some(&backup), "{client}");
        assert_eq!(fs::read_to_string(&backup).unwrap(), fixture(client), "{client}");

        let moved = ServerEntry::new(COMMAND, Path::new("/srv/garmin-data")).unwrap();
        assert!(
            matches!(&status(client, &env, &moved).configured, Configured::Different(why) if why.contains("arguments"))
        );
        assert_eq!(configure(client, &env, &moved).unwrap().outcome, Outcome::Updated, "{client}");
        assert_eq!(remove(client, &env, "garmin").unwrap().outcome, Outcome::Removed, "{client}");
        assert_eq!(fs::read_to_string(&backup).unwrap(), fixture(client), "{client}: backup overwritten");
        let siblings = fs::read_dir(path.parent().unwrap()).unwrap().count();
        assert_eq!(siblings, 2, "{client}: only the config and one backup (no temp files left)");
    }
}

#[test]
fn updating_an_old_entry_keeps_the_users_extra_keys() {
    let (_home, env) = temp_home(Os::Linux);
    let path = config_path(ClientId::Gemini, &env).unwrap();
    let old = r#"{
  "mcpServers": {
    "garmin": {
      "command": "/old/garmin-mcp",
      "args": ["--data-dir", "/old/data"],
      "timeout": 30000,
      "env": {"HTTPS_PROXY": "http://proxy:3128"}
    }
  }
}
"#;
    write(&path, old);
    assert!(
        matches!(status(ClientId::Gemini, &env, &entry()).configured, Configured::Different(why) if why.contains("/old/garmin-mcp"))
    );
    let mut wanted = entry();
    wanted.env.insert("RUST_LOG".into(), "info".into());
    assert_eq!(configure(ClientId::Gemini, &env, &wanted).unwrap().outcome, Outcome::Updated);
    let after: serde_json::Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    let server = &after["mcpServers"]["garmin"];
    assert_eq!(server["command"], COMMAND);
    assert_eq!(server["args"], serde_json::json!(["--data-dir", DATA_DIR]));
    assert_eq!(server["timeout"], 30000);
    assert_eq!(server["env"], serde_json::json!({"HTTPS_PROXY": "http://proxy:3128", "RUST_LOG": "info"}));
    assert_eq!(status(ClientId::Gemini, &env, &wanted).configured, Configured::Yes);

    let codex = config_path(ClientId::Codex, &env).unwrap();
    let old = "[mcp_servers.garmin]\ncommand = \"/old/garmin-mcp\" # old build\nargs = [\"--data-dir\", \"/old/data\"]\nstartup_timeout_sec = 20\n";
    write(&codex, old);
    assert_eq!(configure(ClientId::Codex, &env, &entry()).unwrap().outcome, Outcome::Updated);
    assert_eq!(
        fs::read_to_string(&codex).unwrap(),
        format!(
            "[mcp_servers.garmin]\ncommand = \"{COMMAND}\" # old build\nargs = [\"--data-dir\", \"{DATA_DIR}\"]\nstartup_timeout_sec = 20\n"
        )
    );
}

#[test]
fn macos_and_windows_layouts_resolve_from_a_fake_environment() {
    let home = PathBuf::from("/fake/home");
    let at = |parts: &[&str]| parts.iter().fold(home.clone(), |p, part| p.join(part));
    let mac = Env::for_os(Os::Mac, &home);
    let windows = Env::for_os(Os::Windows, &home);
    let linux = Env::for_os(Os::Linux, &home);
    let support = ["Library", "Application Support"];
    let roaming = ["AppData", "Roaming"];

    let claude_desktop = |base: &[&str]| at(&[base, &["Claude", "claude_desktop_config.json"]].concat());
    assert_eq!(config_path(ClientId::ClaudeDesktop, &mac), Some(claude_desktop(&support)));
    assert_eq!(config_path(ClientId::ClaudeDesktop, &windows), Some(claude_desktop(&roaming)));
    assert_eq!(config_path(ClientId::ClaudeDesktop, &linux), Some(claude_desktop(&[".config"])));
    let vscode = |base: &[&str]| at(&[base, &["Code", "User", "mcp.json"]].concat());
    assert_eq!(config_path(ClientId::VsCode, &mac), Some(vscode(&support)));
    assert_eq!(config_path(ClientId::VsCode, &windows), Some(vscode(&roaming)));
    assert_eq!(config_path(ClientId::VsCode, &linux), Some(vscode(&[".config"])));

    // Home-relative files are the same on every OS (`%USERPROFILE%` on Windows).
    for env in [&mac, &windows, &linux] {
        let path = |client| config_path(client, env);
        assert_eq!(path(ClientId::ClaudeCode), Some(at(&[".claude.json"])));
        assert_eq!(path(ClientId::Codex), Some(at(&[".codex", "config.toml"])));
        assert_eq!(path(ClientId::Cursor), Some(at(&[".cursor", "mcp.json"])));
        assert_eq!(path(ClientId::Windsurf), Some(at(&[".codeium", "windsurf", "mcp_config.json"])));
        assert_eq!(path(ClientId::Gemini), Some(at(&[".gemini", "settings.json"])));
        assert_eq!(path(ClientId::WorkBuddy), Some(at(&[".workbuddy", "mcp.json"])));
        assert_eq!(path(ClientId::ZCode), Some(at(&[".zcode", "cli", "config.json"])));
        assert_eq!(path(ClientId::DeepSeek), Some(at(&[".dsh", "mcpServers.json"])));
        assert_eq!(path(ClientId::Qwen), Some(at(&[".qwen", "settings.json"])));
        assert_eq!(path(ClientId::Copilot), Some(at(&[".copilot", "mcp-config.json"])));
        assert_eq!(path(ClientId::OpenCode), Some(at(&[".config", "opencode", "opencode.json"])));
        assert_eq!(path(ClientId::Generic), None, "a project's .mcp.json: snippet only");
        assert_eq!(path(ClientId::CherryStudio), None);
    }
    let moved = windows.clone().with_var("CODEX_HOME", r"D:\codex").with_var("DSH_HOME", "/opt/dsh");
    assert_eq!(config_path(ClientId::Codex, &moved), Some(PathBuf::from(r"D:\codex").join("config.toml")));
    assert_eq!(config_path(ClientId::DeepSeek, &moved), Some(PathBuf::from("/opt/dsh/mcpServers.json")));
}

#[test]
fn configure_writes_into_the_macos_and_windows_folders_of_a_fake_home() {
    for (os, base) in [(Os::Mac, "Library/Application Support"), (Os::Windows, "AppData/Roaming")] {
        let (home, env) = temp_home(os);
        let change = configure(ClientId::ClaudeDesktop, &env, &entry()).unwrap();
        let expected = home.path().join(base).join("Claude").join("claude_desktop_config.json");
        assert_eq!(change.path, expected);
        assert_golden("claude-desktop.json", &fs::read_to_string(&expected).unwrap());
    }
}

#[test]
fn installed_clients_are_detected_by_folder_or_by_command_on_path() {
    let (home, env) = temp_home(Os::Linux);
    for client in ClientId::ALL {
        let shown = status(client, &env, &entry());
        assert!(!shown.installed && shown.detected_by.is_none(), "{client} found in an empty home");
        let expected = if SNIPPET_ONLY.contains(&client) { "Unknown" } else { "No" };
        assert!(format!("{:?}", shown.configured).starts_with(expected), "{client}: {:?}", shown.configured);
    }
    // Folders and files garmin-mcp wrote itself do not count as the client being installed.
    for client in file_clients() {
        configure(client, &env, &entry()).unwrap();
        remove(client, &env, "garmin").unwrap();
        assert!(!status(client, &env, &entry()).installed, "{client} looks installed after our own write");
    }
    write(&home.path().join(".codex").join("history.jsonl"), "");
    let codex = status(ClientId::Codex, &env, &entry());
    assert!(codex.installed);
    assert!(codex.detected_by.unwrap().contains(".codex"));

    let bin = home.path().join("bin");
    fs::create_dir_all(&bin).unwrap();
    fs::write(bin.join("claude"), "").unwrap();
    fs::write(bin.join("gemini.cmd"), "").unwrap();
    let linux = env.clone().with_path(vec![bin.clone()]);
    let claude = status(ClientId::ClaudeCode, &linux, &entry());
    assert!(
        claude.detected_by.as_deref().is_some_and(|how| how.contains("`claude` is on PATH")),
        "{claude:?}"
    );
    assert!(!status(ClientId::Gemini, &linux, &entry()).installed, "gemini.cmd is not a Linux command");
    let windows = Env::for_os(Os::Windows, home.path()).with_path(vec![bin]);
    assert!(
        status(ClientId::Gemini, &windows, &entry()).installed,
        "npm's gemini.cmd shim counts on Windows"
    );
}

#[test]
fn cherry_studio_gets_a_snippet_and_an_explanation_instead_of_a_file() {
    let (home, env) = temp_home(Os::Linux);
    let err = configure(ClientId::CherryStudio, &env, &entry()).unwrap_err();
    assert!(
        matches!(&err, SetupError::ManualOnly { hint, .. } if hint.contains("Import from JSON")),
        "{err}"
    );
    assert!(matches!(remove(ClientId::CherryStudio, &env, "garmin"), Err(SetupError::ManualOnly { .. })));
    assert_eq!(fs::read_dir(home.path()).unwrap().count(), 0, "nothing was written");
    let shown = status(ClientId::CherryStudio, &env, &entry());
    assert_eq!(shown.config_path, None);
    assert!(matches!(shown.configured, Configured::Unknown(_)));
}

#[test]
fn every_client_has_a_where_to_put_hint_naming_its_file() {
    let (_home, env) = temp_home(Os::Linux);
    for client in file_clients() {
        let hint = where_to_put(client, &env);
        let file = config_path(client, &env).unwrap();
        assert!(hint.contains(&file.display().to_string()), "{client}: {hint}");
    }
}

#[test]
fn deepseek_tui_alone_gets_its_file_and_its_servers_key() {
    let (home, env) = temp_home(Os::Linux);
    let tui = home.path().join(".deepseek").join("mcp.json");
    let text = "{\n  \"timeouts\": {\"connect_timeout\": 10},\n  \"servers\": {\n    \"x\": {\"command\": \"node\"}\n  }\n}\n";
    write(&tui, text);
    assert_eq!(config_path(ClientId::DeepSeek, &env), Some(tui.clone()));
    configure(ClientId::DeepSeek, &env, &entry()).unwrap();
    let after: serde_json::Value = serde_json::from_str(&fs::read_to_string(&tui).unwrap()).unwrap();
    assert_eq!(after["servers"]["garmin"]["command"], COMMAND);
    assert!(after.get("mcpServers").is_none());
    remove(ClientId::DeepSeek, &env, "garmin").unwrap();
    assert_eq!(fs::read_to_string(&tui).unwrap(), text);

    // Once DeepSeek Harness is there too, its registry wins.
    write(&home.path().join(".dsh").join("profiles").join("web").join("config.yml"), "");
    assert_eq!(config_path(ClientId::DeepSeek, &env), Some(home.path().join(".dsh").join("mcpServers.json")));
}

#[test]
fn codebuddy_alone_gets_codebuddy_json() {
    let (home, env) = temp_home(Os::Linux);
    write(&home.path().join(".codebuddy.json"), "{}");
    assert_eq!(config_path(ClientId::WorkBuddy, &env), Some(home.path().join(".codebuddy.json")));
    assert_eq!(configure(ClientId::WorkBuddy, &env, &entry()).unwrap().outcome, Outcome::Added);
    write(&home.path().join(".workbuddy").join("settings.json"), "{}");
    assert_eq!(config_path(ClientId::WorkBuddy, &env), Some(home.path().join(".workbuddy").join("mcp.json")));
}

#[test]
fn removing_what_is_not_there_writes_nothing() {
    let (_home, env) = temp_home(Os::Linux);
    let change = remove(ClientId::Cursor, &env, "garmin").unwrap();
    assert_eq!(change.outcome, Outcome::NotPresent);
    assert!(!change.path.exists(), "remove does not create the file");
    let path = config_path(ClientId::Cursor, &env).unwrap();
    write(&path, MCP_SERVERS_FIXTURE);
    assert_eq!(remove(ClientId::Cursor, &env, "garmin").unwrap().outcome, Outcome::NotPresent);
    assert_eq!(fs::read_to_string(&path).unwrap(), MCP_SERVERS_FIXTURE);
    assert!(!backup_path(&path).exists());
}

#[test]
fn relative_paths_are_refused_before_any_file_is_touched() {
    assert!(matches!(ServerEntry::new("garmin-mcp", Path::new(DATA_DIR)), Err(SetupError::BadEntry(_))));
    assert!(matches!(ServerEntry::new(COMMAND, Path::new("data")), Err(SetupError::BadEntry(_))));
    let (home, env) = temp_home(Os::Linux);
    let mut bad = entry();
    bad.command = PathBuf::from("bin/garmin-mcp");
    assert!(matches!(configure(ClientId::Cursor, &env, &bad), Err(SetupError::BadEntry(_))));
    assert_eq!(fs::read_dir(home.path()).unwrap().count(), 0);
}

#[cfg(unix)]
#[test]
fn permissions_are_kept_and_symbolic_links_are_refused() {
    use std::os::unix::fs::PermissionsExt;
    let (home, env) = temp_home(Os::Linux);
    let path = config_path(ClientId::ClaudeCode, &env).unwrap();
    write(&path, MCP_SERVERS_FIXTURE);
    fs::set_permissions(&path, fs::Permissions::from_mode(0o640)).unwrap();
    configure(ClientId::ClaudeCode, &env, &entry()).unwrap();
    assert_eq!(fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o640);
    assert_eq!(fs::metadata(backup_path(&path)).unwrap().permissions().mode() & 0o777, 0o640);

    let fresh = configure(ClientId::Cursor, &env, &entry()).unwrap();
    assert_eq!(fs::metadata(&fresh.path).unwrap().permissions().mode() & 0o777, 0o600);

    let real = home.path().join("dotfiles").join("mcp_config.json");
    write(&real, MCP_SERVERS_FIXTURE);
    let link = config_path(ClientId::Windsurf, &env).unwrap();
    fs::create_dir_all(link.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let err = configure(ClientId::Windsurf, &env, &entry()).unwrap_err();
    assert!(matches!(err, SetupError::Symlink { .. }), "{err:?}");
    assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(fs::read_to_string(&real).unwrap(), MCP_SERVERS_FIXTURE);
    assert_eq!(status(ClientId::Windsurf, &env, &entry()).configured, Configured::No, "status reads through");
}

#[test]
fn client_ids_round_trip_and_unknown_ones_list_the_choices() {
    for client in ClientId::ALL {
        assert_eq!(client.id().parse::<ClientId>(), Ok(client));
        assert!(!client.display_name().is_empty());
    }
    assert_eq!(" Claude-Code ".parse::<ClientId>(), Ok(ClientId::ClaudeCode));
    let err = "claude".parse::<ClientId>().unwrap_err().to_string();
    assert!(err.contains("claude-code") && err.contains("generic"), "{err}");
}

#[test]
fn a_gemini_settings_file_with_comments_is_edited_in_place_and_keeps_them() {
    for client in [ClientId::Gemini, ClientId::Qwen] {
        let (_home, env) = temp_home(Os::Linux);
        let path = config_path(client, &env).unwrap();
        write(&path, GEMINI_FIXTURE);
        assert_eq!(configure(client, &env, &entry()).unwrap().outcome, Outcome::Added, "{client}");
        let after = fs::read_to_string(&path).unwrap();
        assert_golden("gemini-with-comments.json", &after);
        for comment in
            ["// Gemini CLI settings", "// dark themes hurt", "/* the servers I use */", "// pinned"]
        {
            assert!(after.contains(comment), "{client}: lost {comment:?}");
        }
        assert_eq!(status(client, &env, &entry()).configured, Configured::Yes, "{client}");
        assert_eq!(remove(client, &env, "garmin").unwrap().outcome, Outcome::Removed);
        assert_eq!(fs::read_to_string(&path).unwrap(), GEMINI_FIXTURE, "{client}");
    }
}

#[test]
fn each_client_gets_the_syntax_its_own_parser_accepts() {
    let (_home, env) = temp_home(Os::Linux);
    // Gemini strips comments but `JSON.parse` still refuses a trailing comma.
    let gemini = config_path(ClientId::Gemini, &env).unwrap();
    let trailing = "{\n  // mine\n  \"theme\": \"GitHub\",\n}\n";
    write(&gemini, trailing);
    let err = configure(ClientId::Gemini, &env, &entry()).unwrap_err();
    assert!(
        matches!(&err, SetupError::Malformed { line: 3, format: "JSON with comments", message, .. } if message.contains("Trailing comma")),
        "{err:?}"
    );
    assert_eq!(fs::read_to_string(&gemini).unwrap(), trailing);
    // Claude Code reads plain JSON: a comment there is what Claude Code would choke on too.
    let claude = config_path(ClientId::ClaudeCode, &env).unwrap();
    let commented = "{\n  // mine\n  \"numStartups\": 1\n}\n";
    write(&claude, commented);
    let err = configure(ClientId::ClaudeCode, &env, &entry()).unwrap_err();
    assert!(matches!(&err, SetupError::Malformed { line: 2, format: "JSON", .. }), "{err:?}");
    // VS Code and opencode take both.
    let vscode = config_path(ClientId::VsCode, &env).unwrap();
    write(&vscode, "{\n  // mine\n  \"servers\": {},\n}\n");
    assert_eq!(configure(ClientId::VsCode, &env, &entry()).unwrap().outcome, Outcome::Added);
    // A byte-order mark stays where it was.
    let cursor = config_path(ClientId::Cursor, &env).unwrap();
    write(&cursor, "\u{feff}{\n  \"mcpServers\": {}\n}\n");
    configure(ClientId::Cursor, &env, &entry()).unwrap();
    assert!(fs::read_to_string(&cursor).unwrap().starts_with("\u{feff}{\n  \"mcpServers\": {"));
}

#[test]
fn opencode_gets_its_own_shape_and_keeps_comments_and_trailing_commas() {
    let (home, env) = temp_home(Os::Linux);
    let path = config_path(ClientId::OpenCode, &env).unwrap();
    write(&path, OPENCODE_FIXTURE);
    configure(ClientId::OpenCode, &env, &entry()).unwrap();
    let after = fs::read_to_string(&path).unwrap();
    assert_golden("opencode-with-comments.json", &after);
    assert!(after.contains("// the model for every session") && after.contains("\"enabled\": true,\n    },"));

    // A person turned it off: configuring turns it back on, keeping what else they set.
    let off = after.replace(
        &format!("\"command\": [\"{COMMAND}\", \"--data-dir\", \"{DATA_DIR}\"],\n      \"enabled\": true,"),
        &format!("\"command\": [\"{COMMAND}\", \"--data-dir\", \"{DATA_DIR}\"],\n      \"enabled\": false,\n      \"timeout\": 9000,"),
    );
    assert_ne!(off, after);
    write(&path, &off);
    assert!(matches!(
        status(ClientId::OpenCode, &env, &entry()).configured,
        Configured::Different(why) if why.contains("turned off")
    ));
    assert_eq!(configure(ClientId::OpenCode, &env, &entry()).unwrap().outcome, Outcome::Updated);
    let on = fs::read_to_string(&path).unwrap();
    assert!(on.contains("\"enabled\": true") && on.contains("\"timeout\": 9000"), "{on}");

    // Only an opencode.jsonc: that is the file.
    let (home2, env2) = temp_home(Os::Linux);
    let jsonc = home2.path().join(".config").join("opencode").join("opencode.jsonc");
    write(&jsonc, "{\n  // mine\n}\n");
    assert_eq!(config_path(ClientId::OpenCode, &env2), Some(jsonc.clone()));
    configure(ClientId::OpenCode, &env2, &entry()).unwrap();
    let written = fs::read_to_string(&jsonc).unwrap();
    assert!(written.contains("// mine") && written.contains("\"mcp\""), "{written}");
    drop(home);
}

#[test]
fn demo_and_readonly_go_into_the_entry_and_stay_when_configure_is_run_again_without_them() {
    for client in [ClientId::ClaudeCode, ClientId::Codex, ClientId::OpenCode, ClientId::Gemini] {
        let (_home, env) = temp_home(Os::Linux);
        let with_flags = entry().with_flags(Some(true), Some(true));
        assert_eq!(configure(client, &env, &with_flags).unwrap().outcome, Outcome::Created, "{client}");
        let text = fs::read_to_string(config_path(client, &env).unwrap()).unwrap();
        assert!(text.contains("\"--demo\"") && text.contains("\"--readonly\""), "{client}: {text}");
        let shown = status(client, &env, &entry());
        assert_eq!(shown.configured, Configured::Yes, "{client}: the flags are no difference");
        assert_eq!(shown.entry_flags, ["--demo", "--readonly"], "{client}");

        // Run again saying nothing about the flags: nothing changes.
        assert_eq!(configure(client, &env, &entry()).unwrap().outcome, Outcome::Unchanged, "{client}");
        // A new data folder: the entry is updated and keeps both flags.
        let moved = ServerEntry::new(COMMAND, Path::new("/srv/garmin-data")).unwrap();
        assert_eq!(configure(client, &env, &moved).unwrap().outcome, Outcome::Updated, "{client}");
        assert_eq!(status(client, &env, &moved).entry_flags, ["--demo", "--readonly"], "{client}");
        // Turned off explicitly (the app's unticked box): gone, the other stays.
        let no_demo = moved.clone().with_flags(Some(false), None);
        assert!(matches!(status(client, &env, &no_demo).configured, Configured::Different(_)), "{client}");
        assert_eq!(configure(client, &env, &no_demo).unwrap().outcome, Outcome::Updated, "{client}");
        assert_eq!(status(client, &env, &moved).entry_flags, ["--readonly"], "{client}");
    }
}

#[test]
fn arguments_a_person_added_by_hand_survive_a_rerun() {
    let (_home, env) = temp_home(Os::Linux);
    let path = config_path(ClientId::ClaudeCode, &env).unwrap();
    let hand = format!(
        "{{\n  \"mcpServers\": {{\n    \"garmin\": {{\n      \"type\": \"stdio\",\n      \"command\": \"{COMMAND}\",\n      \
         \"args\": [\"--demo\", \"--data-dir\", \"/old/data\", \"--toolsets\", \"activities\"]\n    }}\n  }}\n}}\n"
    );
    write(&path, &hand);
    assert_eq!(configure(ClientId::ClaudeCode, &env, &entry()).unwrap().outcome, Outcome::Updated);
    let after: serde_json::Value = serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(
        after["mcpServers"]["garmin"]["args"],
        serde_json::json!(["--data-dir", DATA_DIR, "--demo", "--toolsets", "activities"])
    );
    assert_eq!(configure(ClientId::ClaudeCode, &env, &entry()).unwrap().outcome, Outcome::Unchanged);

    // `--read-only`, the sidecar's other spelling, is the same flag: shown, and taken out when asked.
    let spelled = format!(
        "{{\"mcpServers\": {{\"garmin\": {{\"command\": \"{COMMAND}\", \"args\": [\"--data-dir\", \"{DATA_DIR}\", \"--read-only\"]}}}}}}\n"
    );
    write(&path, &spelled);
    assert_eq!(status(ClientId::ClaudeCode, &env, &entry()).entry_flags, ["--readonly"]);
    let off = entry().with_flags(None, Some(false));
    assert_eq!(configure(ClientId::ClaudeCode, &env, &off).unwrap().outcome, Outcome::Updated);
    assert_eq!(status(ClientId::ClaudeCode, &env, &entry()).entry_flags, Vec::<String>::new());
}

#[test]
fn generic_is_a_project_mcp_json_snippet_and_writes_no_file() {
    let (home, env) = temp_home(Os::Linux);
    let err = configure(ClientId::Generic, &env, &entry()).unwrap_err();
    assert!(
        matches!(&err, SetupError::ManualOnly { hint, .. } if hint.contains(".mcp.json") && hint.contains("Copilot")),
        "{err}"
    );
    assert_eq!(fs::read_dir(home.path()).unwrap().count(), 0, "no ~/.agents/mcp.json");
    let json: serde_json::Value = serde_json::from_str(&snippet(ClientId::Generic, &entry())).unwrap();
    assert_eq!(json["mcpServers"]["garmin"]["command"], COMMAND);
    assert!(ClientId::Generic.display_name().contains(".mcp.json"));
}

/// Environment variables as a lookup, for [`Env::from_vars`].
fn vars(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<std::ffi::OsString> + use<> {
    let pairs: Vec<(String, String)> =
        pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect();
    move |name| pairs.iter().find(|(k, _)| k == name).map(|(_, v)| v.into())
}

fn p(text: &str) -> PathBuf {
    text.split('/').filter(|s| !s.is_empty()).fold(PathBuf::from("/"), |acc, part| acc.join(part))
}

#[test]
fn each_clients_file_follows_the_windows_environment_userprofile_and_appdata() {
    // HOME is Git Bash's or MSYS's on Windows; the clients use %USERPROFILE% and %APPDATA%.
    let env = Env::from_vars(
        Os::Windows,
        vars(&[("USERPROFILE", "/w/ann"), ("HOME", "/msys/home/ann"), ("APPDATA", "/w/roam")]),
        None,
        None,
    )
    .unwrap();
    let path = |client| config_path(client, &env).unwrap();
    assert_eq!(path(ClientId::ClaudeDesktop), p("/w/roam/Claude/claude_desktop_config.json"));
    assert_eq!(path(ClientId::VsCode), p("/w/roam/Code/User/mcp.json"));
    assert_eq!(path(ClientId::ClaudeCode), p("/w/ann/.claude.json"));
    assert_eq!(path(ClientId::Codex), p("/w/ann/.codex/config.toml"));
    assert_eq!(path(ClientId::Cursor), p("/w/ann/.cursor/mcp.json"));
    assert_eq!(path(ClientId::Windsurf), p("/w/ann/.codeium/windsurf/mcp_config.json"));
    assert_eq!(path(ClientId::Gemini), p("/w/ann/.gemini/settings.json"));
    assert_eq!(path(ClientId::Qwen), p("/w/ann/.qwen/settings.json"));
    assert_eq!(path(ClientId::WorkBuddy), p("/w/ann/.workbuddy/mcp.json"));
    assert_eq!(path(ClientId::ZCode), p("/w/ann/.zcode/cli/config.json"));
    assert_eq!(path(ClientId::DeepSeek), p("/w/ann/.dsh/mcpServers.json"));
    assert_eq!(path(ClientId::Copilot), p("/w/ann/.copilot/mcp-config.json"));
    assert_eq!(path(ClientId::OpenCode), p("/w/ann/.config/opencode/opencode.json"));
    // Without the variables: what Windows itself reports.
    let known = Env::from_vars(Os::Windows, vars(&[]), Some(p("/k/ann")), Some(p("/k/roam"))).unwrap();
    assert_eq!(
        config_path(ClientId::ClaudeDesktop, &known),
        Some(p("/k/roam/Claude/claude_desktop_config.json"))
    );
    assert_eq!(config_path(ClientId::Cursor, &known), Some(p("/k/ann/.cursor/mcp.json")));
    assert!(matches!(
        Env::from_vars(Os::Windows, vars(&[("HOME", "/x")]), None, None),
        Err(SetupError::NoHome)
    ));
}

#[test]
fn each_clients_file_follows_the_macos_environment_under_application_support() {
    let env = Env::from_vars(
        Os::Mac,
        vars(&[("HOME", "/Users/ann"), ("XDG_CONFIG_HOME", "/xdg"), ("APPDATA", "/nope")]),
        None,
        Some(p("/ignored")),
    )
    .unwrap();
    let path = |client| config_path(client, &env).unwrap();
    let support = "/Users/ann/Library/Application Support";
    assert_eq!(path(ClientId::ClaudeDesktop), p(&format!("{support}/Claude/claude_desktop_config.json")));
    assert_eq!(path(ClientId::VsCode), p(&format!("{support}/Code/User/mcp.json")));
    assert_eq!(path(ClientId::Cursor), p("/Users/ann/.cursor/mcp.json"));
    assert_eq!(path(ClientId::Codex), p("/Users/ann/.codex/config.toml"));
    assert_eq!(path(ClientId::Gemini), p("/Users/ann/.gemini/settings.json"));
    // opencode's xdg-basedir honours XDG_CONFIG_HOME on every OS.
    assert_eq!(path(ClientId::OpenCode), p("/xdg/opencode/opencode.json"));
}

#[test]
fn each_clients_file_follows_the_linux_environment_and_xdg_config_home() {
    let env = Env::from_vars(
        Os::Linux,
        vars(&[
            ("HOME", "/home/ann"),
            ("XDG_CONFIG_HOME", "/cfg"),
            ("USERPROFILE", "/nope"),
            ("PATH", "/bin"),
        ]),
        None,
        None,
    )
    .unwrap();
    let path = |client| config_path(client, &env).unwrap();
    assert_eq!(path(ClientId::ClaudeDesktop), p("/cfg/Claude/claude_desktop_config.json"));
    assert_eq!(path(ClientId::VsCode), p("/cfg/Code/User/mcp.json"));
    assert_eq!(path(ClientId::OpenCode), p("/cfg/opencode/opencode.json"));
    assert_eq!(path(ClientId::ClaudeCode), p("/home/ann/.claude.json"));
    assert_eq!(env.path, vec![p("/bin")]);
    // A relative XDG_CONFIG_HOME is ignored, as the XDG spec says.
    let relative =
        Env::from_vars(Os::Linux, vars(&[("HOME", "/home/ann"), ("XDG_CONFIG_HOME", "cfg")]), None, None);
    assert_eq!(
        config_path(ClientId::VsCode, &relative.unwrap()),
        Some(p("/home/ann/.config/Code/User/mcp.json"))
    );
}

#[test]
fn a_crlf_config_stays_crlf_and_remove_gives_back_its_bytes() {
    for client in file_clients() {
        let (_home, env) = temp_home(Os::Windows);
        let path = config_path(client, &env).unwrap();
        let original = fixture(client).replace('\n', "\r\n");
        write(&path, &original);
        configure(client, &env, &entry()).unwrap();
        let after = fs::read_to_string(&path).unwrap();
        assert_eq!(after.matches('\n').count(), after.matches("\r\n").count(), "{client}: {after:?}");
        assert!(after.contains(COMMAND), "{client}");
        assert_eq!(status(client, &env, &entry()).configured, Configured::Yes, "{client}");
        remove(client, &env, "garmin").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), original, "{client}: remove restores the file");
    }
}

#[test]
fn a_new_vs_code_file_on_windows_gets_crlf_and_the_others_lf() {
    let (_home, env) = temp_home(Os::Windows);
    configure(ClientId::VsCode, &env, &entry()).unwrap();
    let vscode = fs::read_to_string(config_path(ClientId::VsCode, &env).unwrap()).unwrap();
    assert!(vscode.contains("\r\n") && !vscode.replace("\r\n", "").contains('\n'), "{vscode:?}");
    configure(ClientId::ClaudeDesktop, &env, &entry()).unwrap();
    let claude = fs::read_to_string(config_path(ClientId::ClaudeDesktop, &env).unwrap()).unwrap();
    assert!(!claude.contains('\r'), "{claude:?}");
}
