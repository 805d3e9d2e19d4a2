//! `cargo xtask mcpb [--binary PATH] [--target TRIPLE] [--out DIR] [--release-url URL]`: the
//! one-click install packages of `garmin-mcp` (#30).
//!
//! * An MCP Bundle (`garmin-mcp-<os>-<arch>.mcpb`, manifest spec 0.3): a ZIP holding
//!   `manifest.json`, the server binary under `server/` and the app icon. Claude Desktop installs it
//!   with one click. The format can pick a binary by OS but not by CPU, so there is one bundle per OS
//!   and architecture. The manifest offers the demo account and read-only mode as options (passed as
//!   `GARMIN_MCP_DEMO` / `GARMIN_MCP_READONLY`, which the server reads like `--demo`/`--readonly`).
//! * `server.json` for the official MCP Registry (schema 2025-12-11): the bundle as an `mcpb`
//!   package (release URL + SHA-256, which clients verify) and the crate as a `cargo` package.
//!
//! The manifest's tool list comes from the tool schema snapshots (`sidecar/garmin-mcp/tests/toolsnaps`),
//! which the `tools` suite keeps equal to what the server lists, so the bundle never advertises a
//! tool the server lacks. Without `--binary` the release binary is built first.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};
use sha2::Digest as _;

/// The crate's (and the workspace's) version.
const VERSION: &str = env!("CARGO_PKG_VERSION");
const REPOSITORY: &str = "https://github.com/garmin-mcp/garmin-mcp";
/// The server's name in the MCP Registry (GitHub namespace of the repository's owner).
pub const REGISTRY_NAME: &str = "io.github.garmin-mcp/garmin-mcp";
const SERVER_SCHEMA: &str = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";
/// Garmin's privacy policy: the server sends the athlete's requests to Garmin Connect.
const GARMIN_PRIVACY: &str = "https://www.garmin.com/en-US/privacy/connect/policy/";

/// One tool as the manifest lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolEntry {
    pub name: String,
    pub description: String,
}

/// What a bundle is built for.
#[derive(Debug, Clone, PartialEq)]
pub struct Platform {
    /// The manifest's OS key: `darwin`, `win32` or `linux`.
    pub os: &'static str,
    /// The CPU, for the file name only (`x86_64`, `aarch64`).
    pub arch: String,
}

impl Platform {
    /// From a Rust target triple (`x86_64-unknown-linux-gnu`, `aarch64-apple-darwin`, …).
    pub fn from_triple(triple: &str) -> Result<Platform, String> {
        let arch = triple.split('-').next().unwrap_or_default().to_owned();
        let os = if triple.contains("-apple-darwin") {
            "darwin"
        } else if triple.contains("-windows") {
            "win32"
        } else if triple.contains("-linux") {
            "linux"
        } else {
            return Err(format!("no MCP Bundle platform for target `{triple}` (darwin, windows or linux)"));
        };
        Ok(Platform { os, arch })
    }

    /// The server binary's path inside the bundle.
    pub fn entry_point(&self) -> String {
        let exe = if self.os == "win32" { ".exe" } else { "" };
        format!("server/garmin-mcp{exe}")
    }

    /// The bundle's file name.
    pub fn bundle_name(&self) -> String {
        format!("garmin-mcp-{}-{}.mcpb", self.os, self.arch)
    }
}

/// The tools the server lists, from their schema snapshots, by name.
pub fn tools_from_snapshots(dir: &Path) -> Result<Vec<ToolEntry>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("could not read {}: {e}", dir.display()))?;
    let mut tools = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|ext| ext != "json") {
            continue;
        }
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("could not read {}: {e}", path.display()))?;
        let tool: Value =
            serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", path.display()))?;
        let field = |key: &str| tool.get(key).and_then(Value::as_str).map(str::to_owned);
        let (Some(name), Some(description)) = (field("name"), field("description")) else {
            return Err(format!("{} has no name or description", path.display()));
        };
        tools.push(ToolEntry { name, description });
    }
    tools.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(tools)
}

/// The bundle's `manifest.json` (MCPB manifest spec 0.3).
pub fn manifest(platform: &Platform, tools: &[ToolEntry]) -> Value {
    let entry_point = platform.entry_point();
    json!({
        "manifest_version": "0.3",
        "name": "garmin-mcp",
        "display_name": "Garmin Connect",
        "version": VERSION,
        "description": "Your Garmin Connect data (activities, health, training, charts) in any AI assistant.",
        "long_description": "Reads the signed-in athlete's Garmin Connect data (China or international): \
            activities with splits and time series, daily health, sleep, training status, fitness and \
            load from a local history, charts (PNG, and interactive charts in hosts with MCP Apps) and \
            exports. Writing workouts or calendar entries always asks the person first; read-only mode \
            hides every write tool. Sign in once with the Garmin MCP desktop app or `garmin-mcp login`, \
            or try the offline demo account.",
        "author": { "name": "garmin-mcp contributors", "url": REPOSITORY },
        "repository": { "type": "git", "url": REPOSITORY },
        "homepage": REPOSITORY,
        "support": format!("{REPOSITORY}/issues"),
        "license": "MIT",
        "keywords": ["garmin", "running", "cycling", "training", "health", "fitness", "charts"],
        "icon": "icon.png",
        "server": {
            "type": "binary",
            "entry_point": entry_point,
            "mcp_config": {
                "command": format!("${{__dirname}}/{entry_point}"),
                "args": [],
                "env": {
                    "GARMIN_MCP_DEMO": "${user_config.demo}",
                    "GARMIN_MCP_READONLY": "${user_config.readonly}",
                },
            },
        },
        "tools": tools.iter().map(|t| json!({ "name": t.name, "description": t.description })).collect::<Vec<_>>(),
        "tools_generated": false,
        "user_config": {
            "demo": {
                "type": "boolean",
                "title": "Demo account",
                "description": "Serve the offline demo athlete instead of your Garmin account (no sign-in needed).",
                "default": false,
                "required": false,
            },
            "readonly": {
                "type": "boolean",
                "title": "Read-only",
                "description": "Hide and refuse every tool that writes to Garmin (workouts, calendar).",
                "default": false,
                "required": false,
            },
        },
        "compatibility": { "platforms": [platform.os] },
        "privacy_policies": [GARMIN_PRIVACY],
    })
}

/// `server.json` for the MCP Registry, naming the bundle at `bundle_url` with its SHA-256.
pub fn server_json(bundle_url: &str, bundle_sha256: &str) -> Value {
    json!({
        "$schema": SERVER_SCHEMA,
        "name": REGISTRY_NAME,
        "title": "Garmin Connect",
        "description": "Garmin Connect activities, health, training and charts for AI assistants.",
        "version": VERSION,
        "repository": { "url": REPOSITORY, "source": "github" },
        "websiteUrl": REPOSITORY,
        "packages": [
            {
                "registryType": "mcpb",
                "identifier": bundle_url,
                "version": VERSION,
                "fileSha256": bundle_sha256,
                "transport": { "type": "stdio" },
            },
            {
                "registryType": "cargo",
                "registryBaseUrl": "https://crates.io",
                "identifier": "garmin-mcp",
                "version": VERSION,
                "transport": { "type": "stdio" },
            },
        ],
    })
}

/// Writes the bundle at `out`: manifest, `binary` at the entry point (executable), `icon`.
pub fn write_bundle(out: &Path, manifest: &Value, binary: &Path, icon: &Path) -> Result<(), String> {
    let entry_point = manifest["server"]["entry_point"].as_str().ok_or("the manifest has no entry point")?;
    let read =
        |path: &Path| std::fs::read(path).map_err(|e| format!("could not read {}: {e}", path.display()));
    let (binary_bytes, icon_bytes) = (read(binary)?, read(icon)?);
    let manifest_text = serde_json::to_string_pretty(manifest).map_err(|e| e.to_string())? + "\n";
    let partial = out.with_extension("partial");
    let file = std::fs::File::create(&partial)
        .map_err(|e| format!("could not create {}: {e}", partial.display()))?;
    let mut zip = zip::ZipWriter::new(file);
    let deflated =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    let fail = |e: &dyn std::fmt::Display| format!("could not write {}: {e}", partial.display());
    for (name, bytes, mode) in [
        ("manifest.json", manifest_text.as_bytes(), 0o644),
        (entry_point, binary_bytes.as_slice(), 0o755),
        ("icon.png", icon_bytes.as_slice(), 0o644),
    ] {
        zip.start_file(name, deflated.unix_permissions(mode)).map_err(|e| fail(&e))?;
        zip.write_all(bytes).map_err(|e| fail(&e))?;
    }
    zip.finish().map_err(|e| fail(&e))?;
    std::fs::rename(&partial, out).map_err(|e| format!("could not move the bundle to {}: {e}", out.display()))
}

/// The SHA-256 of a file, in lowercase hex.
pub fn sha256_hex(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("could not read {}: {e}", path.display()))?;
    Ok(sha2::Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect())
}

struct Options {
    binary: Option<PathBuf>,
    target: Option<String>,
    out: Option<PathBuf>,
    release_url: String,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        binary: None,
        target: None,
        out: None,
        release_url: format!("{REPOSITORY}/releases/download/v{VERSION}"),
    };
    let mut args = args.iter();
    while let Some(flag) = args.next() {
        let mut value = || args.next().cloned().ok_or_else(|| format!("`{flag}` needs a value"));
        match flag.as_str() {
            "--binary" => options.binary = Some(PathBuf::from(value()?)),
            "--target" => options.target = Some(value()?),
            "--out" => options.out = Some(PathBuf::from(value()?)),
            "--release-url" => options.release_url = value()?,
            other => {
                return Err(format!(
                    "unknown `mcpb` option `{other}` (--binary, --target, --out, --release-url)"
                ));
            }
        }
    }
    Ok(options)
}

/// `cargo xtask mcpb …` (see the module documentation).
pub fn mcpb(root: &Path, args: &[String]) -> Result<(), String> {
    let options = parse(args)?;
    let triple = match &options.target {
        Some(triple) => triple.clone(),
        None => crate::host_triple()?,
    };
    let platform = Platform::from_triple(&triple)?;
    let binary = match options.binary {
        Some(binary) => binary,
        None => {
            let mut build = Command::new(crate::cargo());
            build.current_dir(root).args(["build", "--release", "-p", "garmin-mcp", "--bin", "garmin-mcp"]);
            if let Some(target) = &options.target {
                build.args(["--target", target]);
            }
            crate::run(&mut build)?;
            let profile_dir = match &options.target {
                Some(target) => crate::target_dir(root).join(target).join("release"),
                None => crate::target_dir(root).join("release"),
            };
            let exe = if platform.os == "win32" { ".exe" } else { "" };
            profile_dir.join(format!("garmin-mcp{exe}"))
        }
    };
    let tools = tools_from_snapshots(&root.join("sidecar/garmin-mcp/tests/toolsnaps"))?;
    let out_dir = options.out.unwrap_or_else(|| crate::target_dir(root).join("mcpb"));
    std::fs::create_dir_all(&out_dir).map_err(|e| format!("could not create {}: {e}", out_dir.display()))?;
    let bundle = out_dir.join(platform.bundle_name());
    write_bundle(&bundle, &manifest(&platform, &tools), &binary, &root.join("icons/128x128.png"))?;
    let url = format!("{}/{}", options.release_url.trim_end_matches('/'), platform.bundle_name());
    let server = server_json(&url, &sha256_hex(&bundle)?);
    let server_path = out_dir.join("server.json");
    std::fs::write(&server_path, serde_json::to_string_pretty(&server).map_err(|e| e.to_string())? + "\n")
        .map_err(|e| format!("could not write {}: {e}", server_path.display()))?;
    println!("xtask: {} ({} tools) and {}", bundle.display(), tools.len(), server_path.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::io::Read as _;

    use super::*;

    fn root() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
    }

    fn snapshot_dir() -> PathBuf {
        root().join("sidecar/garmin-mcp/tests/toolsnaps")
    }

    #[test]
    fn the_manifest_lists_exactly_the_servers_tools_and_starts_the_binary_in_the_bundle() {
        let tools = tools_from_snapshots(&snapshot_dir()).unwrap();
        let snapshots = std::fs::read_dir(snapshot_dir()).unwrap().count();
        assert_eq!(tools.len(), snapshots, "one tool per snapshot");
        for expected in ["render_chart", "get_activity", "get_fitness_trend", "login"] {
            assert!(tools.iter().any(|t| t.name == expected), "{expected} is missing");
        }
        let platform = Platform::from_triple("aarch64-apple-darwin").unwrap();
        let manifest = manifest(&platform, &tools);
        for key in ["manifest_version", "name", "version", "description", "server"] {
            assert!(manifest.get(key).is_some(), "the spec requires `{key}`");
        }
        assert_eq!(manifest["author"]["name"], "garmin-mcp contributors");
        assert_eq!(manifest["version"], VERSION);
        assert_eq!(manifest["server"]["type"], "binary");
        assert_eq!(manifest["server"]["entry_point"], "server/garmin-mcp");
        assert_eq!(manifest["server"]["mcp_config"]["command"], "${__dirname}/server/garmin-mcp");
        assert_eq!(manifest["compatibility"]["platforms"], json!(["darwin"]));
        let listed: Vec<&str> =
            manifest["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(listed, names);
        // Every `${user_config.X}` the server is started with is an option the manifest offers.
        let env = manifest["server"]["mcp_config"]["env"].as_object().unwrap();
        for value in env.values() {
            let key = value.as_str().unwrap().trim_start_matches("${user_config.").trim_end_matches('}');
            assert_eq!(manifest["user_config"][key]["type"], "boolean", "{key}");
        }
        assert!(env.contains_key("GARMIN_MCP_DEMO") && env.contains_key("GARMIN_MCP_READONLY"));
    }

    #[test]
    fn each_os_and_cpu_gets_its_own_bundle_and_windows_its_exe() {
        let windows = Platform::from_triple("x86_64-pc-windows-msvc").unwrap();
        assert_eq!((windows.os, windows.entry_point()), ("win32", "server/garmin-mcp.exe".to_owned()));
        assert_eq!(windows.bundle_name(), "garmin-mcp-win32-x86_64.mcpb");
        let linux = Platform::from_triple("aarch64-unknown-linux-gnu").unwrap();
        assert_eq!(linux.bundle_name(), "garmin-mcp-linux-aarch64.mcpb");
        let error = Platform::from_triple("wasm32-unknown-unknown").unwrap_err();
        assert!(error.contains("wasm32-unknown-unknown"), "{error}");
    }

    #[test]
    fn the_bundle_unpacks_to_the_manifest_an_executable_entry_point_and_the_icon() {
        let dir = std::env::temp_dir().join(format!("xtask-mcpb-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let binary = dir.join("garmin-mcp");
        std::fs::write(&binary, b"#!/bin/sh\necho garmin-mcp\n").unwrap();
        let platform = Platform::from_triple("x86_64-unknown-linux-gnu").unwrap();
        let tools = vec![ToolEntry { name: "get_profile".into(), description: "Profile.".into() }];
        let bundle = dir.join(platform.bundle_name());
        write_bundle(&bundle, &manifest(&platform, &tools), &binary, &root().join("icons/128x128.png"))
            .unwrap();

        let mut archive = zip::ZipArchive::new(std::fs::File::open(&bundle).unwrap()).unwrap();
        let mut text = String::new();
        archive.by_name("manifest.json").unwrap().read_to_string(&mut text).unwrap();
        let unpacked: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(unpacked["tools"][0]["name"], "get_profile");
        let entry = archive.by_name(unpacked["server"]["entry_point"].as_str().unwrap()).unwrap();
        assert_eq!(entry.unix_mode().map(|m| m & 0o777), Some(0o755), "the server is executable");
        drop(entry);
        assert!(archive.by_name("icon.png").unwrap().size() > 100);

        let sha = sha256_hex(&bundle).unwrap();
        assert_eq!(sha.len(), 64);
        let server =
            server_json("https://github.com/garmin-mcp/garmin-mcp/releases/download/v1/x.mcpb", &sha);
        assert_eq!(server["name"], REGISTRY_NAME);
        assert!(server["description"].as_str().unwrap().len() <= 100, "the registry allows 100 characters");
        assert_eq!(server["packages"][0]["registryType"], "mcpb");
        assert_eq!(server["packages"][0]["fileSha256"], sha);
        assert!(
            server["packages"][0]["identifier"].as_str().unwrap().contains("mcp"),
            "the registry wants `mcp` in the URL"
        );
        assert_eq!(server["packages"][1]["registryType"], "cargo");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
