//! MCP Bundles (`.mcpb`, manifest spec 0.3): the one-click install of Claude Desktop. A bundle is a
//! ZIP holding `manifest.json`, the `garmin-mcp` binary under `server/` and the icon; Claude Desktop
//! opens it on its own "install extension" dialog, where the person confirms
//! (`remote-oauth-apps-bundles.md` §3.1).
//!
//! Two kinds are built from the one manifest written here:
//! * **The release bundle** (`cargo xtask mcpb`): one per OS and CPU (the format can pick a binary
//!   by OS but not by CPU), listing the server's tools, with the demo account and read-only mode as
//!   options; the server keeps its default data folder.
//! * **The app's bundle** (the desktop app's "Add to Claude Desktop"): the same, plus the data
//!   folder as an option whose default is the app's own, so the extension shares the app's
//!   session; the tool list is left to the server (`tools_generated`).
//!
//! The options reach the server as `--data-dir ${user_config.data_dir}` and the variables
//! `GARMIN_MCP_DEMO` / `GARMIN_MCP_READONLY`, which it reads like `--demo` / `--readonly`.

use std::io::Write as _;
use std::path::Path;

use serde_json::{Map, Value, json};

use crate::SetupError;

/// The project's home page and issue tracker.
pub const REPOSITORY: &str = "https://github.com/garmin-mcp/garmin-mcp";
/// Garmin's privacy policy: the server sends the athlete's requests to Garmin Connect.
const GARMIN_PRIVACY: &str = "https://www.garmin.com/en-US/privacy/connect/policy/";

/// What a bundle is built for.
#[derive(Debug, Clone, PartialEq, Eq)]
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

/// One tool as the manifest lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolEntry {
    /// The tool's name.
    pub name: String,
    /// What it does.
    pub description: String,
}

/// What a bundle's manifest says beyond its platform.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BundleOptions {
    /// The tools to list; empty leaves the list to the server (`tools_generated`).
    pub tools: Vec<ToolEntry>,
    /// The data folder option's default (absolute); `None`: no such option, the server's default
    /// folder.
    pub data_dir: Option<String>,
    /// The demo option's default.
    pub demo: bool,
    /// The read-only option's default.
    pub readonly: bool,
}

/// A boolean option of the install dialog.
fn switch(title: &str, description: &str, default: bool) -> Value {
    json!({ "type": "boolean", "title": title, "description": description, "default": default, "required": false })
}

/// The bundle's `manifest.json` (MCPB manifest spec 0.3), at version `version`.
pub fn manifest(platform: &Platform, version: &str, options: &BundleOptions) -> Value {
    let entry_point = platform.entry_point();
    let mut user_config = Map::new();
    let mut args = Vec::new();
    if let Some(data_dir) = &options.data_dir {
        user_config.insert(
            "data_dir".to_owned(),
            json!({
                "type": "directory",
                "title": "Data folder",
                "description": "Where the Garmin MCP app keeps your Garmin session and history (shared with the app).",
                "default": data_dir,
                "required": true,
            }),
        );
        args = vec!["--data-dir".to_owned(), "${user_config.data_dir}".to_owned()];
    }
    user_config.insert(
        "demo".to_owned(),
        switch(
            "Demo account",
            "Serve the offline demo athlete instead of your Garmin account (no sign-in needed).",
            options.demo,
        ),
    );
    user_config.insert(
        "readonly".to_owned(),
        switch(
            "Read-only",
            "Hide and refuse every tool that writes to Garmin (workouts, calendar).",
            options.readonly,
        ),
    );
    let tools: Vec<Value> =
        options.tools.iter().map(|t| json!({ "name": t.name, "description": t.description })).collect();
    json!({
        "manifest_version": "0.3",
        "name": "garmin-mcp",
        "display_name": "Garmin Connect",
        "version": version,
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
                "args": args,
                "env": {
                    "GARMIN_MCP_DEMO": "${user_config.demo}",
                    "GARMIN_MCP_READONLY": "${user_config.readonly}",
                },
            },
        },
        "tools": tools,
        "tools_generated": options.tools.is_empty(),
        "user_config": user_config,
        "compatibility": { "platforms": [platform.os] },
        "privacy_policies": [GARMIN_PRIVACY],
    })
}

/// Writes the bundle at `out`: `manifest`, `binary` at its entry point (executable) and `icon` (PNG
/// bytes). Written beside `out` first and moved into place, so a half-written bundle never exists
/// under its name.
pub fn write_bundle(out: &Path, manifest: &Value, binary: &Path, icon: &[u8]) -> Result<(), SetupError> {
    let io = |action: &'static str, path: &Path| {
        let path = path.to_path_buf();
        move |source: std::io::Error| SetupError::Io { action, path, source }
    };
    let entry_point = manifest["server"]["entry_point"]
        .as_str()
        .ok_or_else(|| SetupError::BadEntry("the bundle's manifest names no server program".to_owned()))?;
    let binary_bytes = std::fs::read(binary).map_err(io("read the server program", binary))?;
    let manifest_text = serde_json::to_string_pretty(manifest)
        .map_err(|e| SetupError::BadEntry(format!("the bundle's manifest: {e}")))?
        + "\n";
    let partial = out.with_extension("mcpb.partial");
    let file = std::fs::File::create(&partial).map_err(io("create the bundle", &partial))?;
    let mut zip = zip::ZipWriter::new(file);
    let deflated =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    let written = (|| -> zip::result::ZipResult<()> {
        for (name, bytes, mode) in [
            ("manifest.json", manifest_text.as_bytes(), 0o644),
            (entry_point, binary_bytes.as_slice(), 0o755),
            ("icon.png", icon, 0o644),
        ] {
            zip.start_file(name, deflated.unix_permissions(mode))?;
            zip.write_all(bytes)?;
        }
        zip.finish()?.sync_all()?;
        Ok(())
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&partial);
        return Err(io("write the bundle", &partial)(std::io::Error::other(e)));
    }
    std::fs::rename(&partial, out).map_err(io("move the bundle into place at", out))
}

#[cfg(test)]
mod tests {
    use std::io::Read as _;

    use super::*;

    fn tools() -> Vec<ToolEntry> {
        vec![ToolEntry { name: "get_profile".into(), description: "Profile.".into() }]
    }

    #[test]
    fn the_release_manifest_lists_its_tools_and_starts_the_binary_in_the_bundle_with_the_two_options() {
        let platform = Platform::from_triple("aarch64-apple-darwin").unwrap();
        let manifest = manifest(&platform, "1.2.3", &BundleOptions { tools: tools(), ..Default::default() });
        for key in ["manifest_version", "name", "version", "description", "server"] {
            assert!(manifest.get(key).is_some(), "the spec requires `{key}`");
        }
        assert_eq!(manifest["version"], "1.2.3");
        assert_eq!(manifest["server"]["type"], "binary");
        assert_eq!(manifest["server"]["entry_point"], "server/garmin-mcp");
        assert_eq!(manifest["server"]["mcp_config"]["command"], "${__dirname}/server/garmin-mcp");
        assert_eq!(manifest["server"]["mcp_config"]["args"], json!([]), "the server's own data folder");
        assert_eq!(manifest["compatibility"]["platforms"], json!(["darwin"]));
        assert_eq!(manifest["tools"][0]["name"], "get_profile");
        assert_eq!(manifest["tools_generated"], false);
        assert!(manifest["user_config"].get("data_dir").is_none());
        // Every `${user_config.X}` the server is started with is an option the manifest offers.
        let env = manifest["server"]["mcp_config"]["env"].as_object().unwrap();
        for value in env.values() {
            let key = value.as_str().unwrap().trim_start_matches("${user_config.").trim_end_matches('}');
            assert_eq!(manifest["user_config"][key]["type"], "boolean", "{key}");
            assert_eq!(manifest["user_config"][key]["default"], false, "{key}");
        }
    }

    #[test]
    fn the_apps_manifest_shares_the_apps_data_folder_and_keeps_the_rows_switches_as_defaults() {
        let platform = Platform::from_triple("x86_64-pc-windows-gnu").unwrap();
        let options = BundleOptions {
            tools: Vec::new(),
            data_dir: Some("C:\\Users\\ana\\AppData\\Roaming\\garmin-mcp".into()),
            demo: false,
            readonly: true,
        };
        let manifest = manifest(&platform, "1.2.3", &options);
        assert_eq!(
            manifest["server"]["mcp_config"]["args"],
            json!(["--data-dir", "${user_config.data_dir}"])
        );
        assert_eq!(manifest["user_config"]["data_dir"]["type"], "directory");
        assert_eq!(
            manifest["user_config"]["data_dir"]["default"],
            "C:\\Users\\ana\\AppData\\Roaming\\garmin-mcp"
        );
        assert_eq!(manifest["user_config"]["readonly"]["default"], true);
        assert_eq!(manifest["user_config"]["demo"]["default"], false);
        assert_eq!(manifest["tools"], json!([]));
        assert_eq!(manifest["tools_generated"], true, "the server lists its own tools");
        assert_eq!(manifest["server"]["entry_point"], "server/garmin-mcp.exe");
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
    fn the_bundle_unpacks_to_the_manifest_an_executable_entry_point_and_the_icon_and_leaves_no_partial_file()
    {
        let dir = tempfile::tempdir().unwrap();
        let binary = dir.path().join("garmin-mcp");
        std::fs::write(&binary, b"#!/bin/sh\necho garmin-mcp\n").unwrap();
        let platform = Platform::from_triple("x86_64-unknown-linux-gnu").unwrap();
        let bundle = dir.path().join(platform.bundle_name());
        let manifest = manifest(&platform, "1.2.3", &BundleOptions { tools: tools(), ..Default::default() });
        write_bundle(&bundle, &manifest, &binary, b"\x89PNG icon").unwrap();

        let mut archive = zip::ZipArchive::new(std::fs::File::open(&bundle).unwrap()).unwrap();
        let mut text = String::new();
        archive.by_name("manifest.json").unwrap().read_to_string(&mut text).unwrap();
        let unpacked: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(unpacked, manifest);
        let mut entry = archive.by_name("server/garmin-mcp").unwrap();
        assert_eq!(entry.unix_mode().map(|m| m & 0o777), Some(0o755), "the server is executable");
        let mut server = Vec::new();
        entry.read_to_end(&mut server).unwrap();
        assert_eq!(server, std::fs::read(&binary).unwrap());
        drop(entry);
        assert_eq!(archive.by_name("icon.png").unwrap().size(), 9);
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names.len(), 2, "the binary and the bundle, no partial file: {names:?}");
    }

    #[test]
    fn a_missing_server_binary_says_which_file_and_writes_no_bundle() {
        let dir = tempfile::tempdir().unwrap();
        let platform = Platform::from_triple("x86_64-unknown-linux-gnu").unwrap();
        let bundle = dir.path().join(platform.bundle_name());
        let manifest = manifest(&platform, "1.2.3", &BundleOptions::default());
        let error = write_bundle(&bundle, &manifest, &dir.path().join("nowhere"), b"png").unwrap_err();
        assert!(error.to_string().contains("nowhere"), "{error}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "nothing written");
    }
}
