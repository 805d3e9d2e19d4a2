//! `cargo xtask clients`: real MCP clients, run headless and without an LLM key, against
//! `garmin-mcp --demo` — what a person's AI client does before the model ever sees a tool. Our own
//! tests speak rmcp, like the server; these are the programs people actually use, installed pinned
//! by `.ci/setup` (npm packages in `.ci/.clients` with the Node 22 of `.ci/.node`, mcp-cli in
//! `.ci/.venv`). What each check proves is in `tests/interop/README.md`.

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::{McpServer, Scratch};

/// A client that takes longer than this is reported as hanging.
const CLIENT_TIMEOUT: Duration = Duration::from_secs(180);

/// Runs every client check; fails with one line per problem.
pub fn clients(root: &Path) -> Result<(), String> {
    let node_bin = root.join(".ci/.node/node_modules/node/bin");
    let bin = root.join(".ci/.clients/node_modules/.bin");
    let mcp_cli = root.join(".ci/.venv/bin/mcp-cli");
    for tool in
        [bin.join("inspector"), bin.join("claude"), bin.join("codex"), bin.join("gemini"), mcp_cli.clone()]
    {
        if !tool.exists() {
            return Err(format!("{} is not installed: run .ci/setup", tool.display()));
        }
    }
    if !node_bin.join("node").exists() {
        return Err(format!("Node 22 is not installed in {}: run .ci/setup", node_bin.display()));
    }
    let tools = expected_tools(root)?;
    let exe = crate::built_garmin_mcp(root)?;
    let scratch = Scratch::new("clients")?;
    let home = scratch.0.join("home");
    std::fs::create_dir_all(&home).map_err(|e| format!("could not create {}: {e}", home.display()))?;
    let env = ClientEnv::new(&home, &node_bin)?;
    let exe_arg = exe.display().to_string();
    let stdio_data = scratch.0.join("stdio-data").display().to_string();
    let stdio = [exe_arg.as_str(), "--demo", "--data-dir", stdio_data.as_str()];
    let mut problems = Vec::new();
    let inspector = bin.join("inspector");

    // The MCP Inspector over stdio: schemas linted with --strict, then two tool calls whose
    // structured results it validates against the output schemas.
    println!("xtask: MCP Inspector (stdio): tools/list --strict");
    problems.extend(inspector_list(&env, &inspector, &["--cli"], &stdio, tools, "stdio"));
    for tool in ["list_activities", "get_profile"] {
        println!("xtask: MCP Inspector (stdio): tools/call {tool}");
        problems.extend(inspector_call(&env, &inspector, &stdio, tool, "stdio"));
    }

    // Over streamable HTTP, in both lifecycles.
    let server = McpServer::start(root, &scratch.0.join("http-data"), &["--no-token"])?;
    for era in ["legacy", "modern"] {
        println!("xtask: MCP Inspector (HTTP, {era}): tools/list --strict, tools/call get_profile");
        let target = [server.url.as_str(), "--protocol-era", era];
        let what = format!("HTTP {era}");
        problems.extend(inspector_list(&env, &inspector, &["--cli"], &target, tools, &what));
        problems.extend(inspector_call(&env, &inspector, &target, "get_profile", &what));
    }

    // mcp-cli (chuk-mcp) over HTTP: it ignores SSE events without an `event:` line.
    println!("xtask: mcp-cli (HTTP): tools, cmd --tool get_profile");
    problems.extend(mcp_cli_checks(&env, &mcp_cli, &scratch.0, &server.url, tools));
    drop(server);

    // The entries `garmin-mcp configure` writes, as Claude Code, Codex and Gemini CLI read them.
    problems.extend(configured_clients(&env, &exe, &bin, &inspector, tools));

    // What the model reads through Claude Code and Codex, against stand-in model endpoints.
    println!("xtask: what the model reads through Claude Code and Codex (tests/interop/model_view.py)");
    problems.extend(model_view(root, &env, &exe, &bin, &scratch.0));

    if problems.is_empty() {
        println!("xtask: real MCP clients: all checks passed");
        Ok(())
    } else {
        Err(format!("real MCP clients found {} problem(s):\n  {}", problems.len(), problems.join("\n  ")))
    }
}

/// The number of tools the README's generated table lists (kept in sync with the server by
/// `sidecar/garmin-mcp/tests/tools/catalogue.rs`), so adding a tool does not need an edit here.
fn expected_tools(root: &Path) -> Result<usize, String> {
    let readme =
        std::fs::read_to_string(root.join("README.md")).map_err(|e| format!("cannot read README.md: {e}"))?;
    let table = readme
        .split("<!-- START GENERATED TOOLS -->")
        .nth(1)
        .and_then(|rest| rest.split("<!-- END GENERATED TOOLS -->").next())
        .ok_or("README.md has no generated tools table")?;
    Ok(table.lines().filter(|l| l.starts_with("| `")).count())
}

/// HOME, XDG folders and PATH (Node 22 first) of a throwaway user, for every client.
struct ClientEnv {
    home: PathBuf,
    path: std::ffi::OsString,
}

impl ClientEnv {
    fn new(home: &Path, node_bin: &Path) -> Result<ClientEnv, String> {
        let path = std::env::join_paths(
            std::iter::once(node_bin.to_path_buf())
                .chain(std::env::var_os("PATH").iter().flat_map(std::env::split_paths)),
        )
        .map_err(|e| format!("cannot build PATH: {e}"))?;
        Ok(ClientEnv { home: home.to_path_buf(), path })
    }

    fn command(&self, program: &Path) -> Command {
        let mut command = Command::new(program);
        command
            .current_dir(&self.home)
            .env("HOME", &self.home)
            .env("USERPROFILE", &self.home)
            .env("XDG_CONFIG_HOME", self.home.join(".config"))
            .env("XDG_DATA_HOME", self.home.join(".local/share"))
            .env("XDG_CACHE_HOME", self.home.join(".cache"))
            .env("PATH", &self.path)
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
            .env("DISABLE_AUTOUPDATER", "1")
            .env("NO_COLOR", "1")
            .env_remove("CODEX_HOME")
            .env_remove("GARMIN_MCP_HOME")
            .env_remove("GARMIN_CONNECT_URL");
        command
    }
}

/// What a finished client printed.
struct Output {
    ok: bool,
    stdout: String,
    stderr: String,
}

/// Runs a client with no input, collecting its output, killed after [`CLIENT_TIMEOUT`].
fn capture(command: &mut Command) -> Result<Output, String> {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("could not start {}: {e}", crate::described(command)))?;
    let mut out = child.stdout.take().ok_or("no stdout")?;
    let mut err = child.stderr.take().ok_or("no stderr")?;
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = out.read_to_string(&mut text);
        text
    });
    let err_reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = err.read_to_string(&mut text);
        text
    });
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() > CLIENT_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "{} did not finish within {} s",
                    crate::described(command),
                    CLIENT_TIMEOUT.as_secs()
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(100)),
            Err(e) => return Err(format!("could not wait for {}: {e}", crate::described(command))),
        }
    };
    Ok(Output {
        ok: status.success(),
        stdout: reader.join().unwrap_or_default(),
        stderr: err_reader.join().unwrap_or_default(),
    })
}

/// Lines that warn about a JSON Schema `format` (the TypeScript SDK prints `unknown format "uint64"
/// ignored in schema at path …` for every format JSON Schema does not define).
fn format_warnings(text: &str) -> Vec<String> {
    text.lines()
        .filter(|line| {
            line.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| w.eq_ignore_ascii_case("format"))
        })
        .map(|line| line.trim().to_owned())
        .collect()
}

fn first_lines(text: &str) -> String {
    text.lines().filter(|l| !l.trim().is_empty()).take(6).collect::<Vec<_>>().join(" | ")
}

/// `inspector --cli TARGET --method tools/list --strict`: no schema errors, no `format` warning,
/// and every tool listed.
fn inspector_list(
    env: &ClientEnv,
    inspector: &Path,
    mode: &[&str],
    target: &[&str],
    tools: usize,
    what: &str,
) -> Vec<String> {
    let output = match capture(env.command(inspector).args(mode).args(target).args([
        "--method",
        "tools/list",
        "--strict",
    ])) {
        Ok(output) => output,
        Err(e) => return vec![format!("Inspector {what}: {e}")],
    };
    let mut problems = Vec::new();
    if !output.ok {
        problems.push(format!("Inspector {what} tools/list failed: {}", first_lines(&output.stderr)));
    }
    let listed = output.stdout.matches("\"inputSchema\"").count();
    if listed != tools {
        problems.push(format!("Inspector {what} listed {listed} tools, expected {tools}"));
    }
    let summary = output.stderr.lines().rev().find(|l| l.contains(" errors, ")).unwrap_or_default();
    if !summary.starts_with("0 errors") {
        problems.push(format!("Inspector {what} --strict: {summary}"));
    }
    for line in format_warnings(&output.stderr).into_iter().take(5) {
        problems.push(format!("Inspector {what} --strict `format` warning: {line}"));
    }
    println!("  {what}: {listed} tools; {}", summary.trim());
    problems
}

/// `inspector --cli TARGET --method tools/call --tool-name TOOL`: a demo answer, not an error,
/// validated against the tool's output schema without a `format` warning.
fn inspector_call(env: &ClientEnv, inspector: &Path, target: &[&str], tool: &str, what: &str) -> Vec<String> {
    let output = match capture(env.command(inspector).arg("--cli").args(target).args([
        "--method",
        "tools/call",
        "--tool-name",
        tool,
    ])) {
        Ok(output) => output,
        Err(e) => return vec![format!("Inspector {what} {tool}: {e}")],
    };
    let mut problems = Vec::new();
    if !output.ok || output.stdout.contains("\"isError\": true") || !output.stdout.contains("[Demo data") {
        problems.push(format!(
            "Inspector {what} tools/call {tool} did not answer with demo data: {} {}",
            first_lines(&output.stdout),
            first_lines(&output.stderr)
        ));
    }
    if !output.stdout.contains("\"structuredContent\"") {
        problems.push(format!("Inspector {what} tools/call {tool}: no structuredContent in the result"));
    }
    for line in format_warnings(&output.stderr).into_iter().take(5) {
        problems.push(format!("Inspector {what} tools/call {tool} `format` warning: {line}"));
    }
    problems
}

/// mcp-cli over streamable HTTP lists every tool and calls one.
fn mcp_cli_checks(env: &ClientEnv, mcp_cli: &Path, scratch: &Path, url: &str, tools: usize) -> Vec<String> {
    let config = scratch.join("mcp-cli.json");
    let text = format!(r#"{{"mcpServers": {{"garmin": {{"url": "{url}", "transport": "http"}}}}}}"#);
    if let Err(e) = std::fs::write(&config, text) {
        return vec![format!("could not write {}: {e}", config.display())];
    }
    let config = config.display().to_string();
    let mut problems = Vec::new();
    match capture(env.command(mcp_cli).args(["tools", "--server", "garmin", "--config-file", &config])) {
        Ok(output) => {
            let all = format!("{}\n{}", output.stdout, output.stderr);
            let missing: Vec<&str> = ["list_activities", "get_profile", "login"]
                .into_iter()
                .filter(|t| !all.contains(t))
                .collect();
            if !output.ok || !missing.is_empty() || all.contains("No tools available") {
                problems.push(format!("mcp-cli over HTTP did not list the tools: {}", first_lines(&all)));
            } else if listed_count(&all) != Some(tools) {
                problems.push(format!(
                    "mcp-cli over HTTP did not say it listed {tools} tools (its \"Total tools available\" line: {:?})",
                    listed_count(&all)
                ));
            }
        }
        Err(e) => problems.push(format!("mcp-cli tools: {e}")),
    }
    match capture(env.command(mcp_cli).args([
        "cmd",
        "--server",
        "garmin",
        "--config-file",
        &config,
        "--tool",
        "get_profile",
        "--tool-args",
        "{}",
        "--raw",
    ])) {
        Ok(output) => {
            let all = format!("{}\n{}", output.stdout, output.stderr);
            if !output.ok || !all.contains("Demo data") {
                problems.push(format!("mcp-cli over HTTP could not call get_profile: {}", first_lines(&all)));
            }
        }
        Err(e) => problems.push(format!("mcp-cli cmd: {e}")),
    }
    problems
}

/// mcp-cli's `tools` ends with a line like "Total tools available: 28".
fn listed_count(text: &str) -> Option<usize> {
    let line = text.lines().find(|l| l.to_ascii_lowercase().contains("total tools"))?;
    line.split(|c: char| !c.is_ascii_digit()).rfind(|w| !w.is_empty())?.parse().ok()
}

/// Runs `tests/interop/model_view.py`: Claude Code and Codex, each against a stand-in model
/// endpoint on loopback, must hand the model the summary of a structured answer and both the
/// summary and the image of a chart.
fn model_view(root: &Path, env: &ClientEnv, exe: &Path, bin: &Path, scratch: &Path) -> Vec<String> {
    let python = root.join(".ci/.venv/bin/python");
    let dir = scratch.join("model-view");
    if let Err(e) = std::fs::create_dir_all(&dir) {
        return vec![format!("model view: cannot create {}: {e}", dir.display())];
    }
    let status = Command::new(python)
        .arg(root.join("tests/interop/model_view.py"))
        .arg("--garmin-mcp")
        .arg(exe)
        .arg("--claude")
        .arg(bin.join("claude"))
        .arg("--codex")
        .arg(bin.join("codex"))
        .arg("--scratch")
        .arg(&dir)
        .env("PATH", &env.path)
        .stdin(Stdio::null())
        .status();
    match status {
        Ok(status) if status.success() => Vec::new(),
        Ok(status) => vec![format!("model view failed ({status}); see its lines above")],
        Err(e) => vec![format!("model view could not start: {e}")],
    }
}

/// `garmin-mcp configure claude-code|codex|gemini` in the throwaway HOME, `--demo` added to each
/// entry (configure writes the entry for a real account), then each client's own `mcp list`.
fn configured_clients(
    env: &ClientEnv,
    exe: &Path,
    bin: &Path,
    inspector: &Path,
    tools: usize,
) -> Vec<String> {
    let mut problems = Vec::new();
    let home = &env.home;
    let files = [
        ("claude-code", home.join(".claude.json")),
        ("codex", home.join(".codex/config.toml")),
        ("gemini", home.join(".gemini/settings.json")),
    ];
    for (id, file) in &files {
        println!("xtask: garmin-mcp configure {id}");
        match capture(env.command(exe).args(["configure", id])) {
            Ok(output) if output.ok => {}
            Ok(output) => {
                problems.push(format!("configure {id} failed: {}", first_lines(&output.stderr)));
                continue;
            }
            Err(e) => {
                problems.push(format!("configure {id}: {e}"));
                continue;
            }
        }
        let added = std::fs::read_to_string(file)
            .map(|text| text.replacen("\"--data-dir\"", "\"--demo\", \"--data-dir\"", 1));
        match added {
            Ok(text) if text.contains("\"--demo\"") => {
                if let Err(e) = std::fs::write(file, text) {
                    problems.push(format!("could not write {}: {e}", file.display()));
                }
            }
            Ok(_) => {
                problems.push(format!("configure {id} wrote no `--data-dir` argument in {}", file.display()))
            }
            Err(e) => problems.push(format!("configure {id} wrote no {}: {e}", file.display())),
        }
    }
    // Gemini CLI disables servers of folders it does not trust.
    let trusted = home.join(".gemini/trustedFolders.json");
    let json_path = home.display().to_string().replace('\\', "\\\\").replace('"', "\\\"");
    if let Err(e) = std::fs::write(&trusted, format!(r#"{{"{json_path}": "TRUST_FOLDER"}}"#)) {
        problems.push(format!("could not write {}: {e}", trusted.display()));
    }

    let list = |client: &str, args: &[&str]| -> Result<String, String> {
        println!("xtask: {client} {}", args.join(" "));
        let output = capture(env.command(&bin.join(client)).args(args))?;
        let all = format!("{}\n{}", output.stdout, output.stderr);
        if output.ok {
            Ok(all)
        } else {
            Err(format!("{client} {} failed: {}", args.join(" "), first_lines(&all)))
        }
    };
    // The entry's row: `garmin: …` (Claude Code), `✓ garmin: …` (Gemini), `garmin  <command> …` (Codex).
    let garmin_line = |text: &str| {
        text.lines()
            .find(|l| l.trim_start_matches(|c: char| !c.is_ascii_alphanumeric()).starts_with("garmin"))
            .map(|l| l.trim_end().to_owned())
            .unwrap_or_default()
    };
    match list("claude", &["mcp", "list"]) {
        Ok(text) if garmin_line(&text).contains("--demo") && garmin_line(&text).contains("✔ Connected") => {
        }
        Ok(text) => problems
            .push(format!("claude mcp list does not show garmin --demo connected: {}", first_lines(&text))),
        Err(e) => problems.push(e),
    }
    // Codex connects only when a session runs; `mcp list` shows the entry and whether it is enabled.
    match list("codex", &["mcp", "list"]) {
        Ok(text) if garmin_line(&text).contains("--demo") && garmin_line(&text).contains("enabled") => {}
        Ok(text) => problems
            .push(format!("codex mcp list does not show garmin --demo enabled: {}", first_lines(&text))),
        Err(e) => problems.push(e),
    }
    match list("gemini", &["mcp", "list"]) {
        Ok(text) if garmin_line(&text).contains("--demo") && garmin_line(&text).ends_with("- Connected") => {}
        Ok(text) => problems
            .push(format!("gemini mcp list does not show garmin --demo connected: {}", first_lines(&text))),
        Err(e) => problems.push(e),
    }
    // The same entries, started by the Inspector from the files themselves: every tool is there.
    for (id, file) in files.iter().filter(|(id, _)| *id != "codex") {
        let file = file.display().to_string();
        let what = format!("from the {id} entry");
        println!("xtask: MCP Inspector {what}: tools/list --strict");
        problems.extend(inspector_list(
            env,
            inspector,
            &["--cli", "--config", &file, "--server", "garmin"],
            &[],
            tools,
            &what,
        ));
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_warnings_are_lines_naming_the_format_keyword_only() {
        let text = "unknown format \"uint64\" ignored in schema at path \"#/properties/id\"\n\
                    Issue: `type` is an array\ninformation about formatting\n  `format` is not standard";
        assert_eq!(format_warnings(text).len(), 2);
    }

    #[test]
    fn the_mcp_cli_total_line_gives_the_count() {
        assert_eq!(listed_count("x\nTotal tools available: 28\n"), Some(28));
        assert_eq!(listed_count("no total"), None);
    }
}
