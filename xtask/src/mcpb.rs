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
//! The manifest and the bundle are written by `client_setup::bundle`, which the desktop app's
//! "Add to Claude Desktop" uses too. The manifest's tool list comes from the tool schema snapshots (`sidecar/garmin-mcp/tests/toolsnaps`),
//! which the `tools` suite keeps equal to what the server lists, so the bundle never advertises a
//! tool the server lacks. Without `--binary` the release binary is built first.

use std::path::{Path, PathBuf};
use std::process::Command;

use client_setup::bundle::{BundleOptions, Platform, REPOSITORY, ToolEntry, manifest, write_bundle};
use serde_json::{Value, json};
use sha2::Digest as _;

/// The crate's (and the workspace's) version.
const VERSION: &str = env!("CARGO_PKG_VERSION");
/// The server's name in the MCP Registry (GitHub namespace of the repository's owner).
pub const REGISTRY_NAME: &str = "io.github.garmin-mcp/garmin-mcp";
const SERVER_SCHEMA: &str = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";

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
    let icon = root.join("icons/icon.png");
    let icon = std::fs::read(&icon).map_err(|e| format!("could not read {}: {e}", icon.display()))?;
    let contents = BundleOptions { tools: tools.clone(), ..BundleOptions::default() };
    write_bundle(&bundle, &manifest(&platform, VERSION, &contents), &binary, &icon)
        .map_err(|e| e.to_string())?;
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
    use super::*;

    fn root() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
    }

    fn snapshot_dir() -> PathBuf {
        root().join("sidecar/garmin-mcp/tests/toolsnaps")
    }

    #[test]
    fn the_release_manifest_lists_exactly_the_servers_tools() {
        let tools = tools_from_snapshots(&snapshot_dir()).unwrap();
        let snapshots = std::fs::read_dir(snapshot_dir()).unwrap().count();
        assert_eq!(tools.len(), snapshots, "one tool per snapshot");
        for expected in ["render_chart", "get_activity", "get_fitness_trend", "login"] {
            assert!(tools.iter().any(|t| t.name == expected), "{expected} is missing");
        }
        let platform = Platform::from_triple("aarch64-apple-darwin").unwrap();
        let options = BundleOptions { tools: tools.clone(), ..BundleOptions::default() };
        let manifest = manifest(&platform, VERSION, &options);
        assert_eq!(manifest["version"], VERSION);
        let listed: Vec<&str> =
            manifest["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap()).collect();
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(listed, names);
    }

    #[test]
    fn server_json_names_the_bundle_with_its_checksum_and_the_crate() {
        let dir = std::env::temp_dir().join(format!("xtask-mcpb-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("x.mcpb");
        std::fs::write(&file, b"bundle").unwrap();
        let sha = sha256_hex(&file).unwrap();
        assert_eq!(
            sha, "1e6ed65d77d6364eeaed5a745ba5c4985ae2b700dd85d7cf7f027bdf294a33fc",
            "sha256 of `bundle`"
        );
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
