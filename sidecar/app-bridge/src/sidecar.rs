//! The contract between the desktop app and the `garmin-mcp` program it bundles, in one typed home:
//! the two programs' names, the command lines the app starts it with, the start-up line an HTTP server
//! announces itself with (written by the server, read by the app, the benchmarks and the tests),
//! and the tool check's report (`garmin-mcp check --json` writes it, the app reads it).
//!
//! Both sides depend on this module, so a change to one side that the other does not follow fails
//! to compile instead of failing at run time.

use std::ffi::OsString;
use std::net::IpAddr;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The sidecar program's name (without `.exe`), as bundled beside the app and put on `PATH`.
pub const PROGRAM: &str = "garmin-mcp";

/// The desktop app's program name (without `.exe`), which `garmin-mcp` looks for beside itself to
/// start the app when a write needs the person's confirmation there.
pub const APP_PROGRAM: &str = "garmin-desktop";

/// How the start-up line of `garmin-mcp --http` begins; the served URL follows, then ` — ` and the
/// rest in plain words. The line never holds the token.
const SERVING_PREFIX: &str = "garmin-mcp: serving MCP at ";

/// The start-up line of an HTTP server serving at `url`, followed by `details` (each said after a
/// dash: token, writes, demo…).
pub fn serving_line(url: &str, details: &[String]) -> String {
    let mut line = format!("{SERVING_PREFIX}{url}");
    for detail in details {
        line.push_str(" — ");
        line.push_str(detail);
    }
    line
}

/// The URL in a start-up line written by [`serving_line`]; `None` for any other line.
pub fn served_url(line: &str) -> Option<&str> {
    line.strip_prefix(SERVING_PREFIX)?.split_whitespace().next()
}

/// The arguments of `garmin-mcp check --json` on the account in `data_dir`.
pub fn check_args(data_dir: &Path) -> Vec<OsString> {
    vec!["--data-dir".into(), data_dir.into(), "check".into(), "--json".into()]
}

/// The command line of `garmin-mcp --http` as the app starts it for remote access.
#[derive(Debug, Clone, Copy)]
pub struct HttpServerArgs<'a> {
    /// `--host`: `127.0.0.1` (this computer) or `0.0.0.0` (the network).
    pub host: &'a str,
    /// `--port`.
    pub port: u16,
    /// `--token-file`: the token is passed by file, never on the command line where other users
    /// could read it.
    pub token_file: &'a Path,
    /// `--data-dir`: the account's data folder.
    pub data_dir: &'a Path,
    /// `--readonly` when true; else `--with-app` (remote writes are confirmed in the app's window).
    pub read_only: bool,
    /// `--allow-host`: the address network clients use for this computer, when serving the network.
    pub allow_host: Option<IpAddr>,
    /// `--public-url`: the tunnel's public origin, which turns on OAuth for hosted assistants.
    pub public_url: Option<&'a str>,
}

impl HttpServerArgs<'_> {
    /// The arguments, in a stable order.
    pub fn to_args(&self) -> Vec<OsString> {
        let mut args: Vec<OsString> = vec![
            "--http".into(),
            "--host".into(),
            self.host.into(),
            "--port".into(),
            self.port.to_string().into(),
            "--token-file".into(),
            self.token_file.into(),
            "--data-dir".into(),
            self.data_dir.into(),
        ];
        args.push(if self.read_only { "--readonly" } else { "--with-app" }.into());
        if let Some(ip) = self.allow_host {
            args.push("--allow-host".into());
            args.push(ip.to_string().into());
        }
        if let Some(url) = self.public_url {
            args.push("--public-url".into());
            args.push(url.into());
        }
        args
    }
}

/// How one tool did in the tool check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ToolOutcome {
    /// It answered (✅).
    Answered,
    /// It said Garmin has nothing recorded for what was asked (⚠️).
    NoData,
    /// It failed: an error answer, a protocol error, or no answer in time (❌).
    Failed,
    /// Not called: its arguments could not be filled, or an earlier failure stopped the check; the
    /// summary says why.
    Skipped,
}

/// One row of the tool check's table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ToolCheckRow {
    /// The tool's name (`get_profile`).
    pub tool: String,
    /// Its human title, when the server gives one.
    pub title: Option<String>,
    /// How it did.
    pub outcome: ToolOutcome,
    /// Time from call to answer, in milliseconds (0 when skipped).
    pub millis: u64,
    /// The first sentence of its answer, or why it failed or was skipped.
    pub summary: String,
    /// Which credentials served its answer (`personal_api`, `web_session`), as the answer's
    /// `_meta["dev.garminmcp/source"]` says; empty when it made no Garmin read or failed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sources: Vec<String>,
}

/// What `garmin-mcp check --json` prints: one row per read-only tool, in the server's order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CheckReport {
    /// One row per read-only tool.
    pub rows: Vec<ToolCheckRow>,
    /// The whole check, start-up included, in milliseconds.
    pub total_millis: u64,
}

/// Where the bundled `garmin-mcp` was looked for, and the first place it exists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SidecarSearch {
    /// The program AI clients should start, when found.
    pub found: Option<PathBuf>,
    /// Every place looked at, in order.
    pub looked_in: Vec<PathBuf>,
}

/// Finds the `garmin-mcp` the app ships, in this order:
///
/// 1. beside the app's executable `app_exe` (bundles, and `cargo xtask run`, where tauri-build
///    copies it to `target/<profile>/garmin-mcp`);
/// 2. with `dev_tree` (the `src-tauri` folder of a development build): `binaries/garmin-mcp-<triple>`,
///    the file `cargo xtask sidecar` makes;
/// 3. then `<workspace>/target/debug/garmin-mcp`, the plain `cargo build` output.
///
/// `exe_suffix` is `.exe` on Windows, else empty.
pub fn locate_sidecar(
    app_exe: &Path,
    dev_tree: Option<&Path>,
    triple: &str,
    exe_suffix: &str,
) -> SidecarSearch {
    let mut looked_in = Vec::new();
    if let Some(dir) = app_exe.parent() {
        looked_in.push(dir.join(format!("{PROGRAM}{exe_suffix}")));
    }
    if let Some(tree) = dev_tree {
        looked_in.push(tree.join("binaries").join(format!("{PROGRAM}-{triple}{exe_suffix}")));
        let workspace = tree.parent().unwrap_or(tree);
        looked_in.push(workspace.join("target").join("debug").join(format!("{PROGRAM}{exe_suffix}")));
    }
    looked_in.dedup();
    let found = looked_in.iter().find(|path| path.is_file()).cloned();
    SidecarSearch { found, looked_in }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_served_url_is_read_back_from_the_line_the_server_writes() {
        let line = serving_line("http://127.0.0.1:8765/mcp", &["no token needed".into(), "read-only".into()]);
        assert_eq!(
            line,
            "garmin-mcp: serving MCP at http://127.0.0.1:8765/mcp — no token needed — read-only"
        );
        assert_eq!(served_url(&line), Some("http://127.0.0.1:8765/mcp"));
        assert_eq!(served_url("garmin-mcp: warning: something else"), None);
    }

    #[test]
    fn a_check_report_survives_the_trip_through_json_in_the_apps_field_names() {
        let report = CheckReport {
            rows: vec![ToolCheckRow {
                tool: "get_devices".into(),
                title: Some("Devices".into()),
                outcome: ToolOutcome::NoData,
                millis: 12,
                summary: "No devices are registered on your Garmin account.".into(),
                sources: vec!["web_session".into()],
            }],
            total_millis: 40,
        };
        let json = serde_json::to_string(&report).unwrap();
        assert!(json.contains("\"totalMillis\":40") && json.contains("\"outcome\":\"no_data\""), "{json}");
        assert_eq!(serde_json::from_str::<CheckReport>(&json).unwrap(), report);
    }

    fn touch(path: &Path) {
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        std::fs::write(path, b"").expect("write");
    }

    #[test]
    fn the_sidecar_beside_the_app_wins_over_the_development_copies() {
        let root = tempfile::tempdir().expect("temp dir");
        let tree = root.path().join("src-tauri");
        let exe = root.path().join("bundle/garmin-desktop");
        touch(&exe.with_file_name("garmin-mcp"));
        touch(&tree.join("binaries/garmin-mcp-x86_64-unknown-linux-gnu"));
        let search = locate_sidecar(&exe, Some(&tree), "x86_64-unknown-linux-gnu", "");
        assert_eq!(search.found, Some(exe.with_file_name("garmin-mcp")));
    }

    #[test]
    fn windows_finds_garmin_mcp_exe_beside_garmin_desktop_exe() {
        let root = tempfile::tempdir().expect("temp dir");
        // An NSIS/MSI install: both programs in the install folder (a path with spaces).
        let install = root.path().join("Program Files").join("Garmin MCP");
        let exe = install.join("garmin-desktop.exe");
        touch(&install.join("garmin-mcp.exe"));
        touch(&install.join("garmin-mcp"));
        let search = locate_sidecar(&exe, None, "x86_64-pc-windows-msvc", ".exe");
        assert_eq!(search.found, Some(install.join("garmin-mcp.exe")));
        assert_eq!(search.looked_in, vec![install.join("garmin-mcp.exe")]);
    }

    #[test]
    fn macos_finds_the_sidecar_inside_the_app_bundle() {
        let root = tempfile::tempdir().expect("temp dir");
        // Tauri puts externalBin programs beside the app's own in Contents/MacOS.
        let macos = root.path().join("Applications").join("Garmin MCP.app").join("Contents").join("MacOS");
        touch(&macos.join("garmin-mcp"));
        let search = locate_sidecar(&macos.join("garmin-desktop"), None, "aarch64-apple-darwin", "");
        assert_eq!(search.found, Some(macos.join("garmin-mcp")));
    }

    #[test]
    fn development_builds_fall_back_to_binaries_then_target_debug() {
        let root = tempfile::tempdir().expect("temp dir");
        let tree = root.path().join("src-tauri");
        let exe = root.path().join("elsewhere/garmin-desktop");
        let copied = tree.join("binaries/garmin-mcp-aarch64-apple-darwin");
        let built = root.path().join("target/debug/garmin-mcp");
        touch(&built);
        let search = locate_sidecar(&exe, Some(&tree), "aarch64-apple-darwin", "");
        assert_eq!(search.found, Some(built.clone()), "only target/debug has one");
        touch(&copied);
        let search = locate_sidecar(&exe, Some(&tree), "aarch64-apple-darwin", "");
        assert_eq!(search.found, Some(copied.clone()), "binaries/ comes before target/debug");
        assert_eq!(search.looked_in, vec![exe.with_file_name("garmin-mcp"), copied, built]);
    }
}
