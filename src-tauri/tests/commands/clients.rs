//! Commands of the AI clients panel: Configure / Remove, the setup text, install links (`clients`).
//!
//! Run: `cargo test -p garmin-desktop --test commands clients::`

use super::*;

/// The app with its data folder at `data`, AI clients looked for in the temporary home `home`
/// (Linux layout), and — when `with_sidecar` — a `garmin-mcp` beside a pretend app executable.
fn app_for_clients(
    data: &Path,
    home: &Path,
    with_sidecar: bool,
) -> (App<MockRuntime>, WebviewWindow<MockRuntime>, std::path::PathBuf) {
    let (clients, sidecar) = ai_clients(home, with_sidecar);
    let (app, window) = app(data);
    app.manage(clients);
    (app, window, sidecar)
}

/// The AI clients of the temporary home `home` and the sidecar path they start.
fn ai_clients(home: &Path, with_sidecar: bool) -> (garmin_desktop::AiClients, std::path::PathBuf) {
    let install = home.join("opt/garmin-mcp");
    let sidecar = install.join("garmin-mcp");
    if with_sidecar {
        std::fs::create_dir_all(&install).unwrap();
        std::fs::write(&sidecar, b"#!/bin/sh\n").unwrap();
    }
    let search = app_bridge::sidecar::locate_sidecar(&install.join("garmin-desktop"), None, "", "");
    let env = client_setup::Env::for_os(client_setup::Os::Linux, home);
    (garmin_desktop::AiClients::new(env, search), sidecar)
}

#[test]
fn add_to_vs_code_opens_its_install_link_with_the_bundled_sidecar_and_the_chosen_switches() {
    let (data, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (clients, sidecar) = ai_clients(home.path(), true);
    let opened = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let recorder = opened.clone();
    let clients = clients.with_link_opener(Box::new(move |url: &str| {
        recorder.lock().unwrap().push(url.to_owned());
        Ok(())
    }));
    let (app, window) = app(data.path());
    app.manage(clients);
    let list = invoke(&window, "list_clients").unwrap();
    let hosts: Vec<&str> =
        list["linkHosts"].as_array().unwrap().iter().map(|h| h["id"].as_str().unwrap()).collect();
    assert_eq!(hosts, ["claude-desktop", "vscode", "cursor", "goose", "lmstudio"]);

    let said =
        invoke_with(&window, "open_install_link", json!({"host": "vscode", "readonly": true})).unwrap();
    assert!(said.as_str().unwrap().contains("VS Code"), "{said}");
    let url = opened.lock().unwrap().pop().expect("a link was opened");
    let config = url.strip_prefix("vscode:mcp/install?").expect("VS Code's install link");
    let config: Value =
        serde_json::from_str(&percent_encoding::percent_decode_str(config).decode_utf8().unwrap()).unwrap();
    assert_eq!(config["command"], sidecar.display().to_string());
    let args: Vec<&str> = config["args"].as_array().unwrap().iter().map(|a| a.as_str().unwrap()).collect();
    assert_eq!(args[0], "--data-dir");
    assert!(args.contains(&"--readonly") && !args.contains(&"--demo"), "{args:?}");

    // Only the known hosts: the UI cannot make the app open an arbitrary URL.
    let refused =
        invoke_with(&window, "open_install_link", json!({"host": "https://example.com"})).unwrap_err();
    assert!(refused.to_string().contains("claude-desktop, vscode, cursor, goose or lmstudio"), "{refused}");
    assert!(opened.lock().unwrap().is_empty());
}

#[test]
fn add_to_claude_desktop_opens_a_bundle_of_the_bundled_sidecar_that_shares_the_apps_data_folder() {
    use std::io::Read as _;
    let (data, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (clients, sidecar) = ai_clients(home.path(), true);
    let opened = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let recorder = opened.clone();
    let clients = clients.with_link_opener(Box::new(move |path: &str| {
        recorder.lock().unwrap().push(path.to_owned());
        Ok(())
    }));
    let (app, window) = app(data.path());
    app.manage(clients);
    let said = invoke_with(&window, "open_install_link", json!({"host": "claude-desktop", "readonly": true}))
        .unwrap();
    assert!(said.as_str().unwrap().contains("Claude Desktop"), "{said}");
    let bundle = std::path::PathBuf::from(opened.lock().unwrap().pop().expect("a bundle was opened"));
    assert!(bundle.starts_with(data.path()), "{} is in the app's data folder", bundle.display());
    assert_eq!(bundle.extension().unwrap(), "mcpb");

    let mut archive = zip::ZipArchive::new(std::fs::File::open(&bundle).unwrap()).unwrap();
    let mut text = String::new();
    archive.by_name("manifest.json").unwrap().read_to_string(&mut text).unwrap();
    let manifest: Value = serde_json::from_str(&text).unwrap();
    let data_dir = std::path::absolute(data.path()).unwrap();
    assert_eq!(manifest["user_config"]["data_dir"]["default"], data_dir.display().to_string());
    assert_eq!(manifest["server"]["mcp_config"]["args"], json!(["--data-dir", "${user_config.data_dir}"]));
    assert_eq!(manifest["user_config"]["readonly"]["default"], true, "the row's switch is the default");
    assert_eq!(manifest["user_config"]["demo"]["default"], false);
    let mut server = Vec::new();
    archive
        .by_name(manifest["server"]["entry_point"].as_str().unwrap())
        .unwrap()
        .read_to_end(&mut server)
        .unwrap();
    assert_eq!(server, std::fs::read(&sidecar).unwrap(), "the bundled sidecar itself");
    assert!(archive.by_name("icon.png").unwrap().size() > 1000);

    // Again: the same file is brought up to date, no second copy and no partial file.
    invoke_with(&window, "open_install_link", json!({"host": "claude-desktop"})).unwrap();
    let files: Vec<_> =
        std::fs::read_dir(bundle.parent().unwrap()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(files.len(), 1, "{files:?}");
}

#[test]
fn add_to_claude_desktop_without_the_sidecar_says_where_it_looked_and_writes_nothing() {
    let (data, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (clients, _) = ai_clients(home.path(), false);
    let clients = clients.with_link_opener(Box::new(|path: &str| panic!("nothing to open, got {path}")));
    let (app, window) = app(data.path());
    app.manage(clients);
    let error = invoke_with(&window, "open_install_link", json!({"host": "claude-desktop"})).unwrap_err();
    assert!(error.to_string().contains("garmin-mcp program"), "{error}");
    assert!(!data.path().join("claude-desktop").exists());
}

#[test]
fn a_host_that_cannot_be_opened_is_named_with_what_to_do_instead() {
    let (data, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (clients, _) = ai_clients(home.path(), true);
    let clients =
        clients.with_link_opener(Box::new(|_: &str| Err(std::io::Error::other("no handler for goose://"))));
    let (app, window) = app(data.path());
    app.manage(clients);
    let error = invoke_with(&window, "open_install_link", json!({"host": "goose"})).unwrap_err();
    let text = error.to_string();
    assert!(text.contains("Goose") && text.contains("Configure"), "{text}");
}

/// The row of client `id` in `list_clients`' answer.
fn client_row(list: &Value, id: &str) -> Value {
    list["clients"]
        .as_array()
        .and_then(|rows| rows.iter().find(|row| row["id"] == id))
        .unwrap_or_else(|| panic!("no row for {id}: {list}"))
        .clone()
}

#[test]
fn configure_writes_claude_code_and_codex_entries_starting_the_sidecar_with_the_real_data_dir() {
    let (data, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (app, window, sidecar) = app_for_clients(data.path(), home.path(), true);
    app.state::<Accounts>().set_demo_active(true);
    let codex_file = home.path().join(".codex/config.toml");
    std::fs::create_dir_all(codex_file.parent().unwrap()).unwrap();
    let before = "model = \"o3\"\n\n[mcp_servers.other]\ncommand = \"/usr/bin/other\"\n";
    std::fs::write(&codex_file, before).unwrap();
    // Codex's own files (not just a config garmin-mcp could have written) show it is installed.
    std::fs::write(home.path().join(".codex/history.jsonl"), b"").unwrap();

    let list = invoke(&window, "list_clients").unwrap();
    assert_eq!(list["clients"].as_array().map(Vec::len), Some(client_setup::ClientId::ALL.len()));
    assert_eq!(list["sidecar"]["path"], sidecar.display().to_string());
    assert_eq!(list["dataDir"], data.path().display().to_string(), "the real folder, even in the demo");
    let codex = client_row(&list, "codex");
    assert_eq!((codex["installed"].clone(), codex["configured"].clone()), (json!(true), json!("no")));
    assert_eq!(client_row(&list, "claude-code")["configured"], "no");

    let claude = invoke_with(&window, "configure_client", json!({ "id": "claude-code" })).unwrap();
    assert_eq!(claude["outcome"], "created", "{claude}");
    assert_eq!(claude["backup"], Value::Null, "a new file needs no backup");
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(home.path().join(".claude.json")).unwrap()).unwrap();
    let entry = &written["mcpServers"]["garmin"];
    assert_eq!(entry["command"], sidecar.display().to_string());
    assert_eq!(entry["args"], json!(["--data-dir", data.path().display().to_string()]));

    let added = invoke_with(&window, "configure_client", json!({ "id": "codex" })).unwrap();
    assert_eq!(added["outcome"], "added", "{added}");
    let backup = added["backup"].as_str().expect("the existing file was backed up");
    assert_eq!(std::fs::read_to_string(backup).unwrap(), before);
    assert!(added["message"].as_str().unwrap().contains(backup), "the words name the backup: {added}");
    let toml = std::fs::read_to_string(&codex_file).unwrap();
    assert!(toml.starts_with(before), "the other server and settings are kept: {toml}");
    assert!(toml.contains(&format!("command = \"{}\"", sidecar.display())), "{toml}");
    assert!(toml.contains(&format!("args = [\"--data-dir\", \"{}\"]", data.path().display())), "{toml}");

    let list = invoke(&window, "list_clients").unwrap();
    assert_eq!(client_row(&list, "codex")["configured"], "yes");
    assert_eq!(client_row(&list, "claude-code")["configured"], "yes");
    let again = invoke_with(&window, "configure_client", json!({ "id": "codex" })).unwrap();
    assert_eq!(again["outcome"], "unchanged");

    let removed = invoke_with(&window, "remove_client", json!({ "id": "codex" })).unwrap();
    assert_eq!(removed["outcome"], "removed", "{removed}");
    assert_eq!(std::fs::read_to_string(&codex_file).unwrap().trim_end(), before.trim_end());
    assert_eq!(client_row(&invoke(&window, "list_clients").unwrap(), "codex")["configured"], "no");
}

#[test]
fn a_malformed_client_config_is_reported_with_its_path_and_left_untouched() {
    let (data, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (_app, window, _) = app_for_clients(data.path(), home.path(), true);
    let cursor_file = home.path().join(".cursor/mcp.json");
    std::fs::create_dir_all(cursor_file.parent().unwrap()).unwrap();
    let broken = "{ \"mcpServers\": { \"other\": { \"command\": \"x\" }\n";
    std::fs::write(&cursor_file, broken).unwrap();

    let row = client_row(&invoke(&window, "list_clients").unwrap(), "cursor");
    assert_eq!(row["configured"], "unknown", "{row}");
    assert!(row["configuredDetail"].as_str().unwrap().contains(&cursor_file.display().to_string()), "{row}");

    let error = invoke_with(&window, "configure_client", json!({ "id": "cursor" })).unwrap_err();
    let message = error["message"].as_str().unwrap();
    assert!(message.contains(&cursor_file.display().to_string()), "{error}");
    assert!(message.contains("left untouched") && message.contains("line"), "{error}");
    assert_eq!(std::fs::read_to_string(&cursor_file).unwrap(), broken);
    assert!(!client_setup::backup_path(&cursor_file).exists(), "no backup of a file never written");
}

#[test]
fn cherry_studio_gets_only_the_snippet_and_every_client_has_one() {
    let (data, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (_app, window, sidecar) = app_for_clients(data.path(), home.path(), true);
    let row = client_row(&invoke(&window, "list_clients").unwrap(), "cherry-studio");
    assert_eq!((row["manualOnly"].clone(), row["configPath"].clone()), (json!(true), Value::Null));

    let cherry = invoke_with(&window, "client_snippet", json!({ "id": "cherry-studio" })).unwrap();
    let snippet: Value = serde_json::from_str(cherry["snippet"].as_str().unwrap()).expect("JSON to paste");
    assert_eq!(snippet["mcpServers"]["garmin"]["command"], sidecar.display().to_string());
    assert!(cherry["whereToPut"].as_str().unwrap().contains("Import from JSON"), "{cherry}");
    assert!(invoke_with(&window, "configure_client", json!({ "id": "cherry-studio" })).is_err());

    let codex = invoke_with(&window, "client_snippet", json!({ "id": "codex" })).unwrap();
    assert!(codex["snippet"].as_str().unwrap().starts_with("[mcp_servers.garmin]"), "{codex}");
    let codex_file = home.path().join(".codex/config.toml").display().to_string();
    assert!(codex["whereToPut"].as_str().unwrap().contains(&codex_file), "{codex}");
}

/// The row's Demo account / Read-only boxes travel as `demo` / `readonly`: they go into the entry,
/// the row shows them afterwards, a Configure without them keeps them, `false` takes one out, and the
/// setup text carries them too.
#[test]
fn the_demo_and_readonly_boxes_go_into_the_entry_and_show_on_the_row() {
    let (data, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (_app, window, _) = app_for_clients(data.path(), home.path(), true);
    let data_dir = data.path().display().to_string();
    let file = home.path().join(".gemini/settings.json");
    let args = || -> Value {
        let text = std::fs::read_to_string(&file).unwrap();
        serde_json::from_str::<Value>(&text).unwrap()["mcpServers"]["garmin"]["args"].clone()
    };

    let done =
        invoke_with(&window, "configure_client", json!({"id": "gemini", "demo": true, "readonly": true}));
    assert_eq!(done.unwrap()["outcome"], "created");
    assert_eq!(args(), json!(["--data-dir", data_dir, "--demo", "--readonly"]));
    let row = client_row(&invoke(&window, "list_clients").unwrap(), "gemini");
    assert_eq!(
        (row["configured"].clone(), row["demo"].clone(), row["readonly"].clone()),
        (json!("yes"), json!(true), json!(true))
    );

    let again = invoke_with(&window, "configure_client", json!({"id": "gemini"})).unwrap();
    assert_eq!(again["outcome"], "unchanged", "absent boxes keep the entry's flags");
    let off =
        invoke_with(&window, "configure_client", json!({"id": "gemini", "demo": false, "readonly": true}));
    assert_eq!(off.unwrap()["outcome"], "updated");
    assert_eq!(args(), json!(["--data-dir", data_dir, "--readonly"]));

    let text =
        invoke_with(&window, "client_snippet", json!({"id": "generic", "demo": true, "readonly": false}));
    let snippet = text.unwrap()["snippet"].as_str().unwrap().to_owned();
    assert!(snippet.contains("\"--demo\"") && !snippet.contains("--readonly"), "{snippet}");
}

#[test]
fn without_the_sidecar_configure_is_refused_and_says_where_it_looked() {
    let (data, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (_app, window, sidecar) = app_for_clients(data.path(), home.path(), false);
    let list = invoke(&window, "list_clients").unwrap();
    assert_eq!(list["sidecar"]["path"], Value::Null);
    assert_eq!(list["sidecar"]["lookedIn"], json!([sidecar.display().to_string()]));

    let error = invoke_with(&window, "configure_client", json!({ "id": "claude-code" })).unwrap_err();
    assert!(error["message"].as_str().unwrap().contains(&sidecar.display().to_string()), "{error}");
    assert!(!home.path().join(".claude.json").exists(), "nothing written");

    let unknown = invoke_with(&window, "configure_client", json!({ "id": "notepad" })).unwrap_err();
    assert_eq!(unknown["code"], "invalid_input", "{unknown}");
    assert!(unknown["message"].as_str().unwrap().contains("claude-code"), "lists the known ids: {unknown}");
}

#[test]
fn an_entry_starting_another_program_shows_as_different_and_configure_brings_it_up_to_date() {
    let (data, home) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (_app, window, sidecar) = app_for_clients(data.path(), home.path(), true);
    let cursor_file = home.path().join(".cursor/mcp.json");
    std::fs::create_dir_all(cursor_file.parent().unwrap()).unwrap();
    let old = json!({ "mcpServers": {
        "garmin": { "command": "/old/garmin-mcp", "args": ["--data-dir", "/old/data"], "timeout": 30 },
        "other": { "command": "/usr/bin/other" } } });
    std::fs::write(&cursor_file, serde_json::to_string_pretty(&old).unwrap()).unwrap();

    let row = client_row(&invoke(&window, "list_clients").unwrap(), "cursor");
    assert_eq!(row["configured"], "different", "{row}");
    assert!(row["configuredDetail"].as_str().is_some_and(|why| !why.is_empty()), "{row}");

    let updated = invoke_with(&window, "configure_client", json!({ "id": "cursor" })).unwrap();
    assert_eq!(updated["outcome"], "updated", "{updated}");
    let now: Value = serde_json::from_str(&std::fs::read_to_string(&cursor_file).unwrap()).unwrap();
    let entry = &now["mcpServers"]["garmin"];
    assert_eq!(entry["command"], sidecar.display().to_string());
    assert_eq!(entry["args"], json!(["--data-dir", data.path().display().to_string()]));
    assert_eq!(entry["timeout"], 30, "keys the app does not own are kept");
    assert_eq!(now["mcpServers"]["other"], old["mcpServers"]["other"]);
    assert_eq!(client_row(&invoke(&window, "list_clients").unwrap(), "cursor")["configured"], "yes");
}
