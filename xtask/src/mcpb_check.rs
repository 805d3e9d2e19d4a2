//! `cargo xtask mcpb-check`: the MCP Bundle as Claude Desktop meets it (#30). `cargo xtask test`
//! runs it after the real MCP clients.
//!
//! Builds the bundle from the debug `garmin-mcp` the workspace tests built, then with Anthropic's own
//! `mcpb` CLI (`@anthropic-ai/mcpb`, `.ci/.mcpb`, installed by `.ci/setup`): `unpack` it, `validate`
//! its manifest against the CLI's schema, and `pack` the unpacked folder again. Last it starts the
//! server exactly as the manifest's `mcp_config` says (`${__dirname}` and `${user_config.*}`
//! substituted as a host does) and speaks MCP to it over stdio: with the demo option the server
//! lists exactly the manifest's tools, and with read-only too it lists no write tool. The desktop app's
//! own bundle (its data folder as an option, no tool list) is validated and started the same way.
//! The MCP Registry's `server.json` written beside the bundle is validated against the registry's
//! published schema (vendored in `xtask/registry/`, pinned by its SHA-256) with the `jsonschema`
//! package of `.ci/.venv`, formats checked; a copy made invalid on purpose must be refused, so the
//! check can fail.

use std::collections::BTreeSet;
use std::io::{BufRead as _, BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

/// Tools that write to Garmin (hidden by the read-only option).
const SOME_WRITE_TOOLS: [&str; 3] = ["create_workout", "schedule_workout", "delete_workout"];

pub fn check(root: &Path) -> Result<(), String> {
    let node_bin = root.join(".ci/.node/node_modules/node/bin");
    let cli = root.join(".ci/.mcpb/node_modules/.bin/mcpb");
    if !node_bin.join("node").exists() || !cli.exists() {
        return Err(
            "the MCP Bundle check needs Node 22 in .ci/.node and the mcpb CLI in .ci/.mcpb: run .ci/setup"
                .into(),
        );
    }
    let binary = crate::built_garmin_mcp(root)?;
    let scratch = crate::Scratch::new("mcpb")?;
    let out = scratch.0.join("out");
    let args = ["--binary".to_owned(), path_text(&binary)?, "--out".to_owned(), path_text(&out)?];
    crate::mcpb::mcpb(root, &args)?;
    registry_entry(root, &out.join("server.json"))?;
    let platform = client_setup::bundle::Platform::from_triple(&crate::host_triple()?)?;
    let bundle = out.join(platform.bundle_name());
    let path = std::env::join_paths(
        std::iter::once(node_bin).chain(std::env::var_os("PATH").iter().flat_map(std::env::split_paths)),
    )
    .map_err(|e| format!("cannot build PATH: {e}"))?;
    let mcpb = |args: &[&Path]| {
        let mut command = Command::new(&cli);
        command.env("PATH", &path).args(args);
        crate::run(&mut command)
    };
    let unpacked = scratch.0.join("unpacked");
    mcpb(&[Path::new("unpack"), &bundle, &unpacked])?;
    mcpb(&[Path::new("validate"), &unpacked.join("manifest.json")])?;
    mcpb(&[Path::new("pack"), &unpacked, &scratch.0.join("repacked.mcpb")])?;
    println!("xtask: mcpb unpack, validate and pack accept {}", bundle.display());

    let manifest: Value = read_json(&unpacked.join("manifest.json"))?;
    let advertised: BTreeSet<String> = manifest["tools"]
        .as_array()
        .ok_or("the manifest lists no tools")?
        .iter()
        .filter_map(|t| t["name"].as_str().map(str::to_owned))
        .collect();
    let home = scratch.0.join("home");
    std::fs::create_dir_all(&home).map_err(|e| format!("could not create {}: {e}", home.display()))?;
    let listed = list_tools_as_the_manifest_starts_it(&manifest, &unpacked, &home, false)?;
    if listed != advertised {
        return Err(format!(
            "the server started from the bundle lists other tools than its manifest: only listed {:?}, only advertised {:?}",
            listed.difference(&advertised).collect::<Vec<_>>(),
            advertised.difference(&listed).collect::<Vec<_>>()
        ));
    }
    let read_only = list_tools_as_the_manifest_starts_it(&manifest, &unpacked, &home, true)?;
    if let Some(write) = SOME_WRITE_TOOLS.iter().find(|w| read_only.contains(**w)) {
        return Err(format!("with the read-only option the bundle's server still lists {write}"));
    }
    if !read_only.is_subset(&advertised) || read_only.is_empty() {
        return Err(format!("with the read-only option the bundle's server lists {read_only:?}"));
    }
    println!(
        "xtask: the bundle's server, started as its manifest says, lists its {} tools ({} read-only)",
        listed.len(),
        read_only.len()
    );
    app_bundle(root, &binary, &scratch.0, &mcpb, &listed)
}

/// The desktop app's "Add to Claude Desktop" bundle (`client_setup::bundle` with the app's data
/// folder, no tool list): the CLI accepts it, and started as its manifest says it serves the
/// demo's tools from that folder.
fn app_bundle(
    root: &Path,
    binary: &Path,
    scratch: &Path,
    mcpb: &dyn Fn(&[&Path]) -> Result<(), String>,
    tools: &BTreeSet<String>,
) -> Result<(), String> {
    use client_setup::bundle::{BundleOptions, Platform, manifest, write_bundle};
    let data_dir = scratch.join("app data");
    std::fs::create_dir_all(&data_dir)
        .map_err(|e| format!("could not create {}: {e}", data_dir.display()))?;
    let platform = Platform::from_triple(&crate::host_triple()?)?;
    let options = BundleOptions { data_dir: Some(path_text(&data_dir)?), ..BundleOptions::default() };
    let manifest = manifest(&platform, env!("CARGO_PKG_VERSION"), &options);
    let bundle = scratch.join("app.mcpb");
    let icon = std::fs::read(root.join("icons/icon.png")).map_err(|e| format!("the app icon: {e}"))?;
    write_bundle(&bundle, &manifest, binary, &icon).map_err(|e| e.to_string())?;
    let unpacked = scratch.join("app-unpacked");
    mcpb(&[Path::new("unpack"), &bundle, &unpacked])?;
    mcpb(&[Path::new("validate"), &unpacked.join("manifest.json")])?;
    let home = scratch.join("app-home");
    std::fs::create_dir_all(&home).map_err(|e| format!("could not create {}: {e}", home.display()))?;
    let listed = list_tools_as_the_manifest_starts_it(&manifest, &unpacked, &home, false)?;
    if &listed != tools {
        return Err(format!(
            "the app's bundle serves {} tools, the release bundle {}",
            listed.len(),
            tools.len()
        ));
    }
    println!(
        "xtask: the app's bundle (data folder {}) validates and serves the same {} tools",
        data_dir.display(),
        listed.len()
    );
    Ok(())
}

/// The SHA-256 of `xtask/registry/server.schema.json`: the registry's 2025-12-11 schema, byte for
/// byte (see `xtask/registry/README.md`).
const REGISTRY_SCHEMA_SHA256: &str = "3fba09590c99f61735d234822279f4223fab9e300c0a81e81c91ab62a4114de0";

/// Validates `server.json` against the vendored registry schema (draft 7, formats checked), and
/// proves the validator bites: the same entry with a 101-character description and a package
/// without its transport must be refused.
fn registry_entry(root: &Path, server_json: &Path) -> Result<(), String> {
    let schema = root.join("xtask/registry/server.schema.json");
    let sha256 = crate::mcpb::sha256_hex(&schema)?;
    if sha256 != REGISTRY_SCHEMA_SHA256 {
        return Err(format!(
            "{} is not the registry's 2025-12-11 schema (SHA-256 {sha256}, expected {REGISTRY_SCHEMA_SHA256}); restore it from git",
            schema.display()
        ));
    }
    let python = root.join(".ci/.venv/bin/python");
    if !python.exists() {
        return Err(format!("{} is missing: run .ci/setup", python.display()));
    }
    const VALIDATE: &str = r#"
import copy, json, sys
from jsonschema import Draft7Validator, FormatChecker
schema = json.load(open(sys.argv[1]))
entry = json.load(open(sys.argv[2]))
validator = Draft7Validator(schema, format_checker=FormatChecker())
problems = [f"{'/'.join(map(str, e.path)) or '/'}: {e.message}" for e in validator.iter_errors(entry)]
if problems:
    sys.exit("server.json does not match the registry's schema:\n  " + "\n  ".join(problems))
broken = copy.deepcopy(entry)
broken["description"] = "x" * 101
del broken["packages"][0]["transport"]
if len(list(validator.iter_errors(broken))) < 2:
    sys.exit("the schema check accepted a server.json made invalid on purpose")
print(f"{entry['name']} {entry['version']}: valid against {schema['$id']} ({len(entry['packages'])} packages)")
"#;
    let output = Command::new(&python)
        .args(["-c", VALIDATE])
        .arg(&schema)
        .arg(server_json)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
    let said = |bytes: &[u8]| String::from_utf8_lossy(bytes).trim().to_owned();
    if !output.status.success() {
        return Err(format!("{}: {}", server_json.display(), said(&output.stderr)));
    }
    println!("xtask: server.json {}", said(&output.stdout));
    Ok(())
}

fn path_text(path: &Path) -> Result<String, String> {
    path.to_str().map(str::to_owned).ok_or_else(|| format!("{} is not UTF-8", path.display()))
}

fn read_json(path: &Path) -> Result<Value, String> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("could not read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", path.display()))
}

/// `${__dirname}` and `${user_config.KEY}` replaced as a host does (booleans as `true`/`false`; the
/// data folder as its default, `data_dir`).
fn substitute(value: &str, dir: &Path, demo: bool, readonly: bool, data_dir: &str) -> String {
    value
        .replace("${__dirname}", &dir.display().to_string())
        .replace("${user_config.demo}", if demo { "true" } else { "false" })
        .replace("${user_config.readonly}", if readonly { "true" } else { "false" })
        .replace("${user_config.data_dir}", data_dir)
}

/// Starts the server as `manifest`'s `mcp_config` says, with the demo option on, and lists its tools
/// over stdio.
fn list_tools_as_the_manifest_starts_it(
    manifest: &Value,
    dir: &Path,
    home: &Path,
    readonly: bool,
) -> Result<BTreeSet<String>, String> {
    let config = &manifest["server"]["mcp_config"];
    let command = config["command"].as_str().ok_or("the manifest's mcp_config has no command")?;
    let data_dir = manifest["user_config"]["data_dir"]["default"].as_str().unwrap_or_default();
    let fill = |value: &Value| substitute(value.as_str().unwrap_or_default(), dir, true, readonly, data_dir);
    let mut server = Command::new(PathBuf::from(fill(&config["command"])));
    for arg in config["args"].as_array().into_iter().flatten() {
        server.arg(fill(arg));
    }
    for (key, value) in config["env"].as_object().into_iter().flatten() {
        server.env(key, fill(value));
    }
    // A host starts it with the person's home; this one is empty, so nothing of this machine is used.
    server
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("XDG_CONFIG_HOME", home.join("config"));
    let mut child = server
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("could not start the bundle's server ({command}): {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    // Lines read on a thread, so a silent server fails the check instead of hanging it.
    let (lines, answers) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let answer = |id: u64| -> Result<Value, String> {
        loop {
            let line = answers
                .recv_timeout(Duration::from_secs(60))
                .map_err(|_| format!("the bundle's server did not answer request {id} within 60 s"))?;
            let message: Value =
                serde_json::from_str(&line).map_err(|e| format!("not JSON-RPC ({e}): {line}"))?;
            if message["id"] == id {
                return Ok(message);
            }
        }
    };
    let messages = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18",
            "capabilities": {}, "clientInfo": {"name": "xtask-mcpb-check", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
    ];
    let mut send = |message: &Value| {
        writeln!(stdin, "{message}").map_err(|e| format!("could not write to the server: {e}"))
    };
    send(&messages[0])?;
    let initialized = answer(1);
    let listed = initialized.and_then(|_| {
        send(&messages[1])?;
        send(&messages[2])?;
        answer(2)
    });
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    let listed = listed?;
    let tools =
        listed["result"]["tools"].as_array().ok_or_else(|| format!("tools/list answered {listed}"))?;
    Ok(tools.iter().filter_map(|t| t["name"].as_str().map(str::to_owned)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hosts_substitution_fills_the_folder_and_the_chosen_options() {
        let dir = Path::new("/opt/bundle");
        assert_eq!(
            substitute("${__dirname}/server/garmin-mcp", dir, false, false, ""),
            "/opt/bundle/server/garmin-mcp"
        );
        assert_eq!(substitute("${user_config.demo}", dir, true, false, ""), "true");
        assert_eq!(substitute("${user_config.readonly}", dir, true, false, ""), "false");
        assert_eq!(
            substitute("${user_config.data_dir}", dir, true, false, "/home/ana/garmin"),
            "/home/ana/garmin"
        );
    }
}
