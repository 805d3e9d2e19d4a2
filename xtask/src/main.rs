//! `cargo xtask <task>`: developer tasks that need more than one cargo command, in plain Rust so they
//! work the same on every OS (alias in `.cargo/config.toml`).
//!
//! * `sidecar [--release]` — builds `garmin-mcp` and copies it to
//!   `src-tauri/binaries/garmin-mcp-<host triple>[.exe]`, the file tauri-build requires for
//!   `bundle.externalBin` (the app crate does not compile without it). It cannot be done from the
//!   app's `build.rs`: a nested cargo on the same target dir deadlocks on the build lock.
//! * `run` — builds the UI and the sidecar, then starts the desktop app.
//! * `test` — everything CI checks: UI build and the UI's unit tests (`npm test`), `cargo fmt --check`, clippy with warnings denied, and
//!   every test of the workspace. Clippy and tests run with the sidecar entry removed from the
//!   Tauri config (`TAURI_CONFIG`), so they neither need nor overwrite a copied sidecar binary.
//!   Then the MCP interop checks against `garmin-mcp --demo --http`: the protocol scenarios of the
//!   MCP conformance suite (Node 22 in `.ci/.node`) and the official Python SDK client
//!   (`tests/interop/python_client.py`, `.ci/.venv`); `.ci/setup` installs both.
//!   Then the desktop app's end-to-end run (`e2e`), and last (Linux) the packaging: a `.deb` of a
//!   debug build, checked as `bundle` checks it.
//! * `bundle [--debug] [--bundles deb,appimage]` — the installable app: builds the UI and the sidecar,
//!   then runs the Tauri CLI (`ui/node_modules/.bin/tauri`, from `npm --prefix ui ci`) in
//!   `src-tauri` with the full config (sidecar included). Default `deb`; the AppImage needs
//!   linuxdeploy, which the Tauri CLI downloads from GitHub. Output in `target/release/bundle/`.
//!   A `.deb` is then checked with `dpkg-deb`: app and sidecar in `/usr/bin`, WebKitGTK among the
//!   dependencies, and the unpacked sidecar answers `--version`.
//!   Slow (release build with LTO); `--debug` packages a debug build instead, which `test` does last
//!   to check the packaging.
//! * `mcpb [--binary PATH] [--target TRIPLE] [--out DIR] [--release-url URL]` — the MCP Bundle
//!   (`garmin-mcp-<os>-<arch>.mcpb`) and the MCP Registry's `server.json` in `target/mcpb/` (`mcpb.rs`).
//! * `mcpb-check` — the bundle of a debug build through Anthropic's `mcpb` CLI (unpack, validate,
//!   pack), then its server started exactly as the manifest says (`mcpb_check.rs`); `test` runs it
//!   after `clients`.
//! * `mcp-app` — the MCP Apps chart view (`mcp_app.rs`): the committed build of `ui/src/mcp-app`
//!   (with the shared `ui/src/charts`) is current, and in headless Chromium a test host on the
//!   official ext-apps AppBridge draws real demo answers in it; `test` runs it after `interop`.
//! * `interop` — only those MCP interop checks (quick, after changing the HTTP mode).
//! * `oauth` — remote access through OAuth end to end (`oauth.rs`): the Python SDK's OAuth client
//!   and the conformance suite's authorization-server scenarios through a Caddy TLS proxy; `test`
//!   runs it after `interop`.
//! * `clients` — real MCP clients headless, without an LLM key (`clients.rs`): the MCP Inspector CLI
//!   (stdio and HTTP, `--strict`), mcp-cli over HTTP, and `claude`/`codex`/`gemini mcp list` on the
//!   entries `garmin-mcp configure` writes; `test` runs it after `interop`.
//! * `clock` — the server's unit tests and black-box `cli` suite again with the wall clock moved by
//!   libfaketime to the days date code gets wrong, in far time zones (`clock.rs`); `test` runs it
//!   after `clients`.
//! * `flaky [FILTER] [--runs N] [--busy] [-p PACKAGE]… [--test BINARY]…` — reruns the chosen tests N
//!   times (default 10; `--busy` keeps one core busy meanwhile) and names each test that failed at
//!   least once with its failure rate (`flaky.rs`). Use it before calling work on concurrency,
//!   timing, processes or the history done.
//! * `bench [--baseline REF] [--rounds N] [--bin PATH] [--baseline-bin PATH]` — the stdio server's
//!   cold start, idle memory, ping latency, a demo chart's time and CPU, and size as a release build
//!   against `REF` (default `main`) built in the same run, as ratios (`bench.rs`). Not part of `test`.
//! * `startup-order` — rewrites `sidecar/garmin-mcp/startup-order.txt`, the functions a start of the
//!   stdio server runs, which the release link on x86_64 Linux places together
//!   (`startup_order.rs`). Linux with valgrind; after a toolchain or dependency update.
//! * `e2e` — the desktop app end to end under Xvfb, driven by tauri-driver + WebKitWebDriver: sign in
//!   to the demo account and to a fake "Garmin international" through the real sign-in window, check
//!   the saved sessions and the home window (`src-tauri/tests/e2e.rs`). Builds the UI first;
//!   screenshots of every step land in `target/e2e-screenshots/`. Linux only.
//! * `windows` — the Windows and macOS builds as far as Linux can take them (`windows.rs`):
//!   `garmin-mcp.exe` and its Windows tests cross-built and run under Wine, its cold start against
//!   the Linux build, clippy for `x86_64-pc-windows-gnu` and `aarch64-apple-darwin`, and
//!   `garmin-desktop.exe` built; `test` runs it after `clock`.

mod bench;
mod clients;
mod clock;
mod flaky;
mod mcp_app;
mod mcpb;
mod mcpb_check;
mod oauth;
mod startup_order;
mod windows;

use std::io::{BufRead as _, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, Stdio};
use std::time::Duration;

const USAGE: &str = "usage: cargo xtask <sidecar [--release] | run | bundle [--debug] [--bundles deb,appimage] | test | mcpb [--binary PATH] [--target TRIPLE] [--out DIR] [--release-url URL] | mcpb-check | interop | mcp-app | oauth | clients | clock | e2e | windows | flaky [FILTER] [--runs N] [--busy] [-p PACKAGE]… [--test BINARY]… | bench [--baseline REF] [--rounds N] [--bin PATH] [--baseline-bin PATH] | startup-order>";

/// Tauri config patch that drops `bundle.externalBin` for builds that do not bundle the app.
const NO_SIDECAR_CONFIG: &str = r#"{"bundle":{"externalBin":null}}"#;

fn main() -> ExitCode {
    forget_the_xtask_packages_variables();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["sidecar"] => sidecar(false),
        ["sidecar", "--release"] => sidecar(true),
        ["run"] => run_app(),
        ["bundle"] => bundle("deb", false),
        ["bundle", "--debug"] => bundle("deb", true),
        ["bundle", "--bundles", bundles] => bundle(bundles, false),
        ["bundle", "--debug", "--bundles", bundles] => bundle(bundles, true),
        ["test"] => test(),
        ["interop"] => conformance(&workspace_root()).and_then(|()| interop(&workspace_root())),
        ["mcp-app"] => mcp_app::mcp_app(&workspace_root()),
        ["oauth"] => oauth::oauth(&workspace_root()),
        ["clients"] => clients::clients(&workspace_root()),
        ["clock"] => clock::clock(&workspace_root()),
        ["e2e"] => build_ui(&workspace_root()).and_then(|()| e2e(&workspace_root())),
        ["mcpb-check"] => mcpb_check::check(&workspace_root()),
        ["mcpb", ..] => mcpb::mcpb(&workspace_root(), &args[1..]),
        ["flaky", ..] => flaky::flaky(&workspace_root(), &args[1..]),
        ["bench", ..] => bench::bench(&workspace_root(), &args[1..]),
        ["startup-order"] => startup_order::startup_order(&workspace_root()),
        ["windows"] => lint_while_building()
            .and_then(|()| build_ui(&workspace_root()))
            .and_then(|()| windows::windows(&workspace_root())),
        _ => Err(USAGE.to_owned()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Builds `garmin-mcp` and places it where tauri-build looks for the sidecar.
fn sidecar(release: bool) -> Result<(), String> {
    let root = workspace_root();
    let mut build = Command::new(cargo());
    build.current_dir(&root).args(["build", "-p", "garmin-mcp", "--bin", "garmin-mcp"]);
    if release {
        build.arg("--release");
    }
    run(&mut build)?;
    place_sidecar(&root, release)
}

/// Copies the built `garmin-mcp` to `src-tauri/binaries/garmin-mcp-<target triple>`, where
/// tauri-build and the bundler look for the sidecar.
fn place_sidecar(root: &Path, release: bool) -> Result<(), String> {
    let triple = host_triple()?;
    let exe = std::env::consts::EXE_SUFFIX;
    let profile = if release { "release" } else { "debug" };
    let built = target_dir(root).join(profile).join(format!("garmin-mcp{exe}"));
    let dest_dir = root.join("src-tauri").join("binaries");
    let dest = dest_dir.join(format!("garmin-mcp-{triple}{exe}"));
    std::fs::create_dir_all(&dest_dir)
        .map_err(|e| format!("could not create {}: {e}", dest_dir.display()))?;
    // Copy then rename, so a sidecar still running from the previous build is replaced, not
    // overwritten in place ("text file busy" on Linux).
    let partial = dest.with_extension("partial");
    std::fs::copy(&built, &partial)
        .map_err(|e| format!("could not copy {} to {}: {e}", built.display(), partial.display()))?;
    std::fs::rename(&partial, &dest).map_err(|e| format!("could not replace {}: {e}", dest.display()))?;
    println!("xtask: sidecar ready at {}", dest.display());
    Ok(())
}

/// Builds what the app needs and starts it.
fn run_app() -> Result<(), String> {
    let root = workspace_root();
    build_ui(&root)?;
    sidecar(false)?;
    run(Command::new(cargo()).current_dir(&root).args(["run", "-p", "garmin-desktop"]))
}

/// Builds the installable app (`bundles`: the Tauri CLI's `--bundles` list, e.g. `deb,appimage`);
/// `debug` packages a debug build (quick: what `test` checks).
///
/// One cargo run builds the app and its sidecar as they ship (`tauri/custom-protocol`, the UI
/// embedded, no dev-dependency features, so no fake control API), sharing every dependency they
/// have in common; the Tauri CLI then only packages (`tauri bundle`). `tauri build` would compile
/// the app in a cargo run of its own after the sidecar's, building their shared dependencies twice.
/// The app finds its sidecar beside its own executable, not through the configuration, so building
/// it without `externalBin` (which would make the build look for the sidecar before it exists)
/// changes nothing at run time.
fn bundle(bundles: &str, debug: bool) -> Result<(), String> {
    let root = workspace_root();
    let tauri = root.join("ui").join("node_modules").join(".bin").join(if cfg!(windows) {
        "tauri.cmd"
    } else {
        "tauri"
    });
    build_ui(&root)?;
    if !tauri.is_file() {
        return Err(format!(
            "{} is missing: run `npm --prefix ui ci` (it installs the Tauri CLI, a dev dependency of the UI)",
            tauri.display()
        ));
    }
    let mut build = Command::new(cargo());
    build.current_dir(&root).env("TAURI_CONFIG", NO_SIDECAR_CONFIG).args([
        "build",
        "--bins",
        "-p",
        "garmin-desktop",
        "-p",
        "garmin-mcp",
        "--features",
        "tauri/custom-protocol",
    ]);
    if !debug {
        build.arg("--release");
    }
    run(&mut build)?;
    place_sidecar(&root, !debug)?;
    // Without `TAURI_CONFIG` the configuration's `externalBin` puts the sidecar in the bundle.
    let mut package = Command::new(&tauri);
    package.current_dir(root.join("src-tauri")).env_remove("TAURI_CONFIG").args([
        "bundle",
        "--bundles",
        bundles,
    ]);
    if debug {
        package.arg("--debug");
    }
    run(&mut package)?;
    let profile = if debug { "debug" } else { "release" };
    let bundle_dir = target_dir(&root).join(profile).join("bundle");
    if cfg!(target_os = "linux") && bundles.split(',').any(|b| b.trim() == "deb") {
        check_deb(&bundle_dir.join("deb"))?;
    }
    println!("xtask: bundles in {}", bundle_dir.display());
    Ok(())
}

/// Checks the newest `.deb` in `deb_dir` as an installer would see it: it installs the app and the
/// sidecar side by side in `/usr/bin` (where the app looks for it), depends on WebKitGTK, and the
/// unpacked sidecar runs.
fn check_deb(deb_dir: &Path) -> Result<(), String> {
    let newest = std::fs::read_dir(deb_dir)
        .map_err(|e| format!("no .deb was made in {}: {e}", deb_dir.display()))?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "deb"))
        .max_by_key(|path| std::fs::metadata(path).and_then(|m| m.modified()).ok());
    let deb = newest.ok_or_else(|| format!("no .deb was made in {}", deb_dir.display()))?;
    let output = |args: &[&str]| -> Result<String, String> {
        let out = Command::new("dpkg-deb").args(args).arg(&deb).output().map_err(|e| {
            format!("could not run dpkg-deb (Debian's dpkg package) on {}: {e}", deb.display())
        })?;
        if !out.status.success() {
            return Err(format!(
                "dpkg-deb {args:?} failed on {}: {}",
                deb.display(),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let contents = output(&["--contents"])?;
    // dpkg-deb lists paths with or without a leading `./`, depending on the tool that made the archive.
    for file in ["usr/bin/garmin-desktop", "usr/bin/garmin-mcp", "usr/share/applications/Garmin MCP.desktop"]
    {
        if !contents.lines().any(|line| line.trim_end().ends_with(file)) {
            return Err(format!("{} does not install {file}:\n{contents}", deb.display()));
        }
    }
    let depends = output(&["--field"])
        .map(|fields| fields.lines().filter(|l| l.starts_with("Depends")).collect::<Vec<_>>().join(" "))?;
    if !depends.contains("libwebkit2gtk-4.1") {
        return Err(format!("{} does not depend on WebKitGTK 4.1: {depends}", deb.display()));
    }
    let unpacked = std::env::temp_dir().join(format!("garmin-mcp-deb-check-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&unpacked);
    run(Command::new("dpkg-deb").arg("-x").arg(&deb).arg(&unpacked))?;
    let version = Command::new(unpacked.join("usr/bin/garmin-mcp")).arg("--version").output();
    let no_control = demo_has_no_control_api(&unpacked.join("usr/bin/garmin-mcp"));
    let _ = std::fs::remove_dir_all(&unpacked);
    no_control?;
    let version = version.map_err(|e| format!("the packaged garmin-mcp does not start: {e}"))?;
    let said = String::from_utf8_lossy(&version.stdout).trim().to_owned();
    if !version.status.success() || !said.contains(env!("CARGO_PKG_VERSION")) {
        return Err(format!("the packaged garmin-mcp answered --version with {said:?} ({})", version.status));
    }
    println!(
        "xtask: {} checked: installs garmin-desktop and {said} in /usr/bin, depends on WebKitGTK",
        deb.display()
    );
    Ok(())
}

/// The fake's unauthenticated `/__fake/` control API must never reach a shipped binary: no member
/// of the workspace may turn on `fake-garmin`'s `control` feature through a normal or build
/// dependency (Cargo unifies features across the packages of one build, so one such edge would put
/// it into `cargo build --release` at the root). Dev-dependencies (the fake's own tests) may.
fn no_control_feature_in_shipped_builds(root: &Path) -> Result<(), String> {
    let output = Command::new(cargo())
        .current_dir(root)
        .env("TAURI_CONFIG", NO_SIDECAR_CONFIG)
        .args(["tree", "--workspace", "-e", "normal,build,features", "-i", "fake-garmin", "--prefix", "none"])
        .output()
        .map_err(|e| format!("cannot run cargo tree: {e}"))?;
    if !output.status.success() {
        return Err(format!("cargo tree failed: {}", String::from_utf8_lossy(&output.stderr)));
    }
    let tree = String::from_utf8_lossy(&output.stdout);
    if tree.lines().any(|line| line.contains("fake-garmin feature \"control\"")) {
        return Err(format!(
            "a shipped build would link the fake's control API (`control` feature on):\n{tree}"
        ));
    }
    println!("xtask: no normal or build dependency turns on fake-garmin's control API");
    Ok(())
}

/// Proves on a built `garmin-mcp` that its demo's fake Garmin serves no control API: starts
/// `garmin-mcp --demo` over stdio with a scratch `TMPDIR`, reads the demo fake's address from the
/// session file the demo saves there, and asks it for `/__fake/health` (the control API answers
/// `ok`; without it the fake's catch-all answers that it has no such route).
fn demo_has_no_control_api(garmin_mcp: &Path) -> Result<(), String> {
    use std::io::{Read as _, Write as _};
    let scratch = Scratch::new("control-probe")?;
    let mut demo = Command::new(garmin_mcp)
        .arg("--demo")
        .env("TMPDIR", &scratch.0)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("could not start {}: {e}", garmin_mcp.display()))?;
    let started = std::time::Instant::now();
    let connect = loop {
        let session = std::fs::read_dir(&scratch.0)
            .into_iter()
            .flatten()
            .flatten()
            .find_map(|entry| std::fs::read_to_string(entry.path().join("session.json")).ok());
        if let Some(origin) = session.as_deref().and_then(|text| {
            let start = text.find("http://127.0.0.1:")?;
            let end = start + text[start..].find('"')?;
            Some(text[start + "http://".len()..end].to_owned())
        }) {
            break Ok(origin);
        }
        if started.elapsed() > Duration::from_secs(60) {
            break Err(format!("{} --demo saved no demo session within 60 s", garmin_mcp.display()));
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let answer = connect.and_then(|host| {
        let mut stream = std::net::TcpStream::connect(&host)
            .map_err(|e| format!("cannot reach the demo fake at {host}: {e}"))?;
        stream.set_read_timeout(Some(Duration::from_secs(10))).map_err(|e| e.to_string())?;
        write!(stream, "GET /__fake/health HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n")
            .map_err(|e| e.to_string())?;
        let mut answer = String::new();
        let _ = stream.read_to_string(&mut answer);
        Ok(answer)
    });
    let _ = demo.kill();
    let _ = demo.wait();
    let answer = answer?;
    let status = answer.lines().next().unwrap_or_default();
    // The fake's loud catch-all names what it does not serve.
    if !answer.contains("(no route)") {
        return Err(format!("{} serves the fake's control API in its demo: {answer}", garmin_mcp.display()));
    }
    println!("xtask: {}'s demo serves no control API ({status})", garmin_mcp.display());
    Ok(())
}

/// Set by [`test`] once `cargo test --workspace` has built every target: the later stages then use
/// those builds (the `garmin-mcp` binary, the test binaries) instead of asking cargo for one package,
/// which resolves features for that package alone and so recompiled it and much of what it uses
/// (minutes per stage). Stages run on their own (`cargo xtask interop`…) still build what they run.
static WORKSPACE_BUILT: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// True once [`test`] has built the whole workspace (see [`WORKSPACE_BUILT`]).
fn workspace_built() -> bool {
    WORKSPACE_BUILT.load(std::sync::atomic::Ordering::Relaxed)
}

/// The debug `garmin-mcp`, built unless the workspace build already made it.
fn built_garmin_mcp(root: &Path) -> Result<PathBuf, String> {
    let exe = target_dir(root).join("debug").join(format!("garmin-mcp{}", std::env::consts::EXE_SUFFIX));
    if !(workspace_built() && exe.is_file()) {
        run(Command::new(cargo()).current_dir(root).args([
            "build",
            "-p",
            "garmin-mcp",
            "--bin",
            "garmin-mcp",
        ]))?;
    }
    Ok(exe)
}

/// Every check CI runs, in order of cost, each stage timed (the table closes the run).
fn test() -> Result<(), String> {
    // Clippy lints while the tests build (one compile of every crate instead of a check and a
    // build); every later cargo run of this process keeps the same wrapper, so nothing is rebuilt.
    lint_while_building()?;
    let root = workspace_root();
    let mut stages = Stages::default();
    stages.run("UI build and unit tests", || build_ui(&root).and_then(|()| test_ui(&root)))?;
    stages.run("cargo fmt --check", || {
        run(Command::new(cargo()).current_dir(&root).args(["fmt", "--all", "--", "--check"]))
    })?;
    let cargo_no_sidecar = |args: &[&str]| {
        let mut command = Command::new(cargo());
        command.current_dir(&root).env("TAURI_CONFIG", NO_SIDECAR_CONFIG).args(args);
        command
    };
    stages.run("clippy and workspace tests", || {
        // `cargo test` builds every target but the benchmarks: build (and so lint) those too.
        run(&mut cargo_no_sidecar(&["test", "--workspace", "--benches", "--no-run"]))?;
        WORKSPACE_BUILT.store(true, std::sync::atomic::Ordering::Relaxed);
        // Every failing test binary in one run, not only the first.
        run(&mut cargo_no_sidecar(&["test", "--workspace", "--no-fail-fast"]))
    })?;
    stages.run("no control API in shipped builds", || no_control_feature_in_shipped_builds(&root))?;
    stages.run("MCP conformance", || conformance(&root))?;
    stages.run("Python SDK interop", || interop(&root))?;
    stages.run("MCP Apps view (build current, Chromium host)", || mcp_app::mcp_app(&root))?;
    stages.run("OAuth interop", || oauth::oauth(&root))?;
    stages.run("real MCP clients", || clients::clients(&root))?;
    stages.run("MCP Bundle (mcpb CLI)", || mcpb_check::check(&root))?;
    stages.run("clock reruns", || clock::clock(&root))?;
    stages.run("Windows under Wine, Windows and macOS lints", || windows::windows(&root))?;
    stages.run("desktop E2E", || e2e(&root))?;
    if cfg!(target_os = "linux") {
        stages.run(".deb of a debug build", || bundle("deb", true))?;
    }
    println!("xtask: all checks passed");
    Ok(())
}

/// Makes every cargo run of this process compile the workspace's own crates through clippy with
/// warnings denied, as `cargo clippy --all-targets -- -D warnings` would (its driver is a rustc that
/// lints, then compiles as rustc does; dependencies compile without it). The same settings as
/// `cargo clippy` passes: `RUSTC_WORKSPACE_WRAPPER` and `CLIPPY_ARGS`.
#[allow(
    unsafe_code,
    reason = "set_var before any thread starts, so every cargo this process runs (the Tauri CLI's too) inherits it"
)]
fn lint_while_building() -> Result<(), String> {
    let cargo = cargo();
    let beside_cargo = Path::new(&cargo).parent().map(|bin| bin.join("clippy-driver"));
    let driver = match beside_cargo.filter(|driver| driver.is_file()) {
        Some(driver) => driver,
        None => {
            let output = Command::new("rustup")
                .args(["which", "clippy-driver"])
                .output()
                .map_err(|e| format!("cannot find clippy-driver ({e}): rustup component add clippy"))?;
            if !output.status.success() {
                return Err("clippy-driver is missing: rustup component add clippy".to_owned());
            }
            PathBuf::from(String::from_utf8_lossy(&output.stdout).trim())
        }
    };
    // SAFETY: called from `test` before it starts any thread; only child processes read these.
    unsafe {
        std::env::set_var("RUSTC_WORKSPACE_WRAPPER", driver);
        std::env::set_var("CLIPPY_ARGS", "-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__");
    }
    Ok(())
}

/// The stages of a run and how long each took, in wall time and in CPU time of the processes it
/// waited for (Linux; a load-independent measure of what a stage costs on two cores); printed as a
/// table when the run ends, passed or not.
#[derive(Default)]
struct Stages(Vec<(&'static str, Duration, Option<Duration>, bool)>);

impl Stages {
    fn run(&mut self, name: &'static str, stage: impl FnOnce() -> Result<(), String>) -> Result<(), String> {
        println!("xtask: == {name}");
        let started = std::time::Instant::now();
        let cpu_before = children_cpu();
        let result = stage();
        let cpu = children_cpu().zip(cpu_before).map(|(after, before)| after.saturating_sub(before));
        self.0.push((name, started.elapsed(), cpu, result.is_ok()));
        result
    }
}

impl Drop for Stages {
    fn drop(&mut self) {
        let minutes = |d: Duration| d.as_secs_f64() / 60.0;
        println!("xtask: stage times (wall, and CPU of the processes each stage ran)");
        for (name, took, cpu, passed) in &self.0 {
            let cpu = cpu.map_or_else(String::new, |cpu| format!("{:>6.1} CPU min", minutes(cpu)));
            println!(
                "  {:>6.1} min {cpu}  {name}{}",
                minutes(*took),
                if *passed { "" } else { "  (FAILED)" }
            );
        }
        let wall: Duration = self.0.iter().map(|s| s.1).sum();
        let cpu: Duration = self.0.iter().filter_map(|s| s.2).sum();
        println!("  {:>6.1} min {:>6.1} CPU min  in all", minutes(wall), minutes(cpu));
    }
}

/// User and system time of this process's waited-for children so far (`cutime` and `cstime` of
/// `/proc/self/stat`, in the kernel's 100 Hz ticks); `None` where there is no such file.
fn children_cpu() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // pid (comm) state …: fields after the last ')' start with the state (field 3); cutime and
    // cstime are fields 16 and 17.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(13)?.parse::<u64>().ok()? + fields.get(14)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// MCP conformance scenarios that apply to garmin-mcp (see README, "Conformance"): the protocol
/// ones. The others call fixture tools, prompts and resources of the suite's reference server.
const CONFORMANCE_SCENARIOS: &[&str] = &[
    "server-initialize",
    "ping",
    "tools-list",
    "server-sse-polling",
    "server-sse-multiple-streams",
    "dns-rebinding-protection",
    "logging-set-level",
    "completion-complete",
    "prompts-list",
    "resources-list",
];

/// Runs the conformance scenarios against `garmin-mcp --demo --http --no-token` on loopback
/// (`dns-rebinding-protection` expects a localhost request to pass without credentials; a token is
/// the server's default otherwise).
fn conformance(root: &Path) -> Result<(), String> {
    let node_bin = root.join(".ci/.node/node_modules/node/bin");
    let cli = root.join(".ci/.node/node_modules/.bin/conformance");
    if !node_bin.join("node").exists() || !cli.exists() {
        return Err(format!(
            "the MCP conformance suite is not installed in {}: run .ci/setup",
            root.join(".ci/.node").display()
        ));
    }
    let scratch = Scratch::new("conformance")?;
    let server = McpServer::start(root, &scratch.0, &["--no-token"])?;
    let path = std::env::join_paths(
        std::iter::once(node_bin).chain(std::env::var_os("PATH").iter().flat_map(std::env::split_paths)),
    )
    .map_err(|e| format!("cannot build PATH: {e}"))?;
    for scenario in CONFORMANCE_SCENARIOS {
        println!("xtask: conformance scenario {scenario}");
        run(Command::new(&cli)
            .env("PATH", &path)
            .args(["server", "--url", &server.url, "--scenario", scenario, "-o"])
            .arg(scratch.0.join("results")))?;
    }
    Ok(())
}

/// The desktop app's end-to-end test (ignored in plain `cargo test`: it needs Xvfb, WebKitWebDriver
/// and tauri-driver, which `.ci/setup` installs). Expects `ui/dist` to be built.
fn e2e(root: &Path) -> Result<(), String> {
    if !cfg!(target_os = "linux") {
        println!("xtask: skipping the desktop end-to-end test (WebKitWebDriver runs on Linux only)");
        return Ok(());
    }
    let missing: Vec<&str> =
        ["Xvfb", "WebKitWebDriver", "tauri-driver"].into_iter().filter(|tool| !on_path(tool)).collect();
    if !missing.is_empty() {
        return Err(format!("the desktop end-to-end test needs {}: run .ci/setup", missing.join(", ")));
    }
    let screenshots = target_dir(root).join("e2e-screenshots");
    // Old screenshots must not pass for this run's.
    let _ = std::fs::remove_dir_all(&screenshots);
    println!("xtask: desktop app end to end (screenshots in {})", screenshots.display());
    // The AI-clients step configures clients with the sidecar the app finds beside it or in
    // target/debug: build it so the test stands alone.
    built_garmin_mcp(root)?;
    // After the workspace build, the same feature resolution (`--workspace`) reuses its e2e binary.
    let package: &[&str] = if workspace_built() { &["--workspace"] } else { &["-p", "garmin-desktop"] };
    run(Command::new(cargo())
        .current_dir(root)
        .env("TAURI_CONFIG", NO_SIDECAR_CONFIG)
        .env("E2E_SCREENSHOTS", &screenshots)
        .arg("test")
        .args(package)
        .args(["--test", "e2e", "--", "--ignored", "--nocapture"]))
}

/// Whether `tool` is an executable on PATH.
fn on_path(tool: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(tool).is_file()))
}

/// Runs the official Python SDK client against `garmin-mcp --demo --http` with a bearer token.
fn interop(root: &Path) -> Result<(), String> {
    let python = if cfg!(windows) {
        root.join(".ci/.venv/Scripts/python.exe")
    } else {
        root.join(".ci/.venv/bin/python")
    };
    if !python.exists() {
        return Err(format!(
            "the Python MCP SDK is not installed ({} is missing): run .ci/setup",
            python.display()
        ));
    }
    let scratch = Scratch::new("interop")?;
    let token = random_token();
    let token_file = scratch.0.join("token");
    write_private(&token_file, &token)?;
    let token_arg = token_file.display().to_string();
    let server = McpServer::start(root, &scratch.0, &["--token-file", &token_arg])?;
    println!("xtask: Python MCP SDK client against {}", server.url);
    run(Command::new(&python)
        .arg(root.join("tests/interop/python_client.py"))
        .args(["--url", &server.url, "--expect-demo"])
        .env("GARMIN_MCP_TOKEN", &token))
}

/// A `garmin-mcp --demo --http --port 0` child, stopped when dropped.
struct McpServer {
    child: Child,
    url: String,
}

impl McpServer {
    fn start(root: &Path, data_dir: &Path, extra: &[&str]) -> Result<McpServer, String> {
        let exe = built_garmin_mcp(root)?;
        let mut child = Command::new(&exe)
            .arg("--data-dir")
            .arg(data_dir)
            .args(["--demo", "--http", "--port", "0"])
            .args(extra)
            // Files the clients' calls save stay in the stage's scratch folder, not ~/Downloads.
            .env("GARMIN_MCP_EXPORT_DIR", data_dir.join("exports"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("could not start {}: {e}", exe.display()))?;
        let stderr = child.stderr.take().ok_or("no stderr")?;
        let (tx, rx) = std::sync::mpsc::channel();
        // Pass the server's stderr through, and pick the URL out of its start-up line (its format is
        // `app_bridge::sidecar::serving_line`; xtask stays plain std, so it reads the prefix itself).
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                eprintln!("  [garmin-mcp] {line}");
                if let Some(rest) = line.strip_prefix("garmin-mcp: serving MCP at ") {
                    let _ = tx.send(rest.split_whitespace().next().unwrap_or_default().to_owned());
                }
            }
        });
        let mut server = McpServer { child, url: String::new() };
        server.url = rx
            .recv_timeout(Duration::from_secs(60))
            .map_err(|_| "garmin-mcp --http did not start within 60 s".to_owned())?;
        Ok(server)
    }
}

impl Drop for McpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A temporary folder under the system's, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Result<Scratch, String> {
        let dir = std::env::temp_dir().join(format!("garmin-mcp-xtask-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| format!("could not create {}: {e}", dir.display()))?;
        Ok(Scratch(dir))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A throwaway 128-bit token for one test run (std's randomly seeded hasher; no crate needed).
fn random_token() -> String {
    use std::hash::{BuildHasher as _, Hasher as _};
    let mut token = String::new();
    for _ in 0..2 {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u128(
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_nanos(),
        );
        token.push_str(&format!("{:016x}", hasher.finish()));
    }
    token
}

/// Writes a file only its owner may read (garmin-mcp refuses a token file others can read).
fn write_private(path: &Path, contents: &str) -> Result<(), String> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path).map_err(|e| format!("could not create {}: {e}", path.display()))?;
    std::io::Write::write_all(&mut file, contents.as_bytes())
        .map_err(|e| format!("could not write {}: {e}", path.display()))
}

/// Builds the UI into `ui/dist` (embedded into the app at compile time) once per run; `npm ci` first
/// if needed.
fn build_ui(root: &Path) -> Result<(), String> {
    // The sources do not change during a run: the stages after the first reuse its build.
    static BUILT: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if BUILT.load(std::sync::atomic::Ordering::Relaxed) {
        return Ok(());
    }
    let ui = root.join("ui");
    if !ui.join("node_modules").is_dir() {
        run(Command::new("npm").current_dir(&ui).args(["ci", "--no-audit", "--no-fund"]))?;
    }
    run(Command::new("npm").current_dir(&ui).args(["run", "build"]))?;
    BUILT.store(true, std::sync::atomic::Ordering::Relaxed);
    Ok(())
}

/// The UI's unit tests (Vitest): `npm test`, after `npm ci` when the installed packages predate it.
fn test_ui(root: &Path) -> Result<(), String> {
    let ui = root.join("ui");
    if !ui.join("node_modules").join("vitest").is_dir() {
        run(Command::new("npm").current_dir(&ui).args(["ci", "--no-audit", "--no-fund"]))?;
    }
    run(Command::new("npm").current_dir(&ui).args(["test"]))
}

/// Removes the variables `cargo run` set for this package (`CARGO_PKG_*`, `CARGO_MANIFEST_DIR`…)
/// from our environment, so the cargo builds we start do not inherit them. Build scripts that watch
/// such variables (*ring*'s does) would otherwise see them change between a plain `cargo build` and
/// one started from here, and rebuild *ring*, rustls, reqwest and every crate above them each time
/// the two alternate (a release build: tens of minutes).
#[allow(unsafe_code, reason = "remove_var first thing in main, before any thread starts")]
fn forget_the_xtask_packages_variables() {
    let set_for_us = |name: &str| {
        name.starts_with("CARGO_PKG_")
            || matches!(
                name,
                "CARGO_MANIFEST_DIR"
                    | "CARGO_MANIFEST_PATH"
                    | "CARGO_CRATE_NAME"
                    | "CARGO_BIN_NAME"
                    | "CARGO_PRIMARY_PACKAGE"
            )
    };
    let names: Vec<std::ffi::OsString> = std::env::vars_os()
        .map(|(name, _)| name)
        .filter(|name| name.to_str().is_some_and(set_for_us))
        .collect();
    for name in names {
        // SAFETY: no other thread exists yet (this runs first in `main`), so nothing reads the
        // environment concurrently.
        unsafe { std::env::remove_var(name) };
    }
}

/// The workspace folder (this crate lives in `<root>/xtask`).
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// The cargo that runs us (`cargo xtask` sets `CARGO`), so toolchain overrides carry over.
fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned())
}

/// Where cargo puts builds: `CARGO_TARGET_DIR` when set, else `<root>/target`.
fn target_dir(root: &Path) -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR").filter(|v| !v.is_empty()) {
        Some(dir) => root.join(dir),
        None => root.join("target"),
    }
}

/// The host target triple, e.g. `x86_64-unknown-linux-gnu` (`rustc --print host-tuple`, Rust ≥ 1.84).
fn host_triple() -> Result<String, String> {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let out = Command::new(&rustc)
        .args(["--print", "host-tuple"])
        .output()
        .map_err(|e| format!("could not run `{rustc} --print host-tuple`: {e}"))?;
    let triple = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    if !out.status.success() || triple.is_empty() {
        return Err(format!(
            "`{rustc} --print host-tuple` failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(triple)
}

/// Runs a command, inheriting stdio, and fails with the command line when it fails.
fn run(command: &mut Command) -> Result<(), String> {
    let status = command.status().map_err(|e| format!("could not start {}: {e}", described(command)))?;
    if status.success() { Ok(()) } else { Err(format!("{} failed ({status})", described(command))) }
}

/// A command as failures name it: its folder, the names of the variables it sets (not their
/// values, which may be tokens), the program and its arguments.
fn described(command: &Command) -> String {
    let mut words = Vec::new();
    if let Some(dir) = command.get_current_dir() {
        words.push(format!("cd {} &&", dir.display()));
    }
    for (name, value) in command.get_envs() {
        let shown = if value.is_some() { "…" } else { "(unset)" };
        words.push(format!("{}={shown}", name.to_string_lossy()));
    }
    words.push(command.get_program().to_string_lossy().into_owned());
    words.extend(command.get_args().map(|arg| arg.to_string_lossy().into_owned()));
    words.join(" ")
}
