//! `cargo xtask mcp-app`: the MCP Apps chart view (#30), in two checks.
//!
//! 1. The committed `sidecar/garmin-mcp/assets/chart-view.html` (embedded by garmin-mcp with
//!    `include_str!`, so that building the server needs no Node.js) is what its sources in
//!    `ui/src/mcp-app/` (and the chart components it shares with the desktop app, `ui/src/charts/`)
//!    build today: `npm run build:mcp-app` into a scratch folder, compared byte
//!    for byte.
//! 2. `ui/tests/mcp-app/run.mjs` with the Node 22 of `.ci/.node`: headless Chromium (Debian's
//!    `chromium`) with a test host on the official `@modelcontextprotocol/ext-apps` AppBridge,
//!    against the debug `garmin-mcp --demo`; it prints the view's size, the extra bytes of an apps
//!    host's answer and the time from result to first paint. `.ci/setup` installs both.

use std::path::Path;
use std::process::Command;

use crate::{Scratch, built_garmin_mcp, run};

const VIEW: &str = "sidecar/garmin-mcp/assets/chart-view.html";

pub fn mcp_app(root: &Path) -> Result<(), String> {
    view_is_current(root)?;
    let node = root.join(".ci/.node/node_modules/node/bin/node");
    if !node.exists() {
        return Err(format!("Node 22 is not installed ({} is missing): run .ci/setup", node.display()));
    }
    let exe = built_garmin_mcp(root)?;
    run(Command::new(node).arg(root.join("ui/tests/mcp-app/run.mjs")).arg("--garmin-mcp").arg(exe))
}

/// Fails when the committed view differs from a fresh build of its sources.
fn view_is_current(root: &Path) -> Result<(), String> {
    let scratch = Scratch::new("mcp-app")?;
    let ui = root.join("ui");
    run(Command::new("npm")
        .current_dir(&ui)
        .args(["run", "build:mcp-app", "--", "--emptyOutDir", "--outDir"])
        .arg(&scratch.0))?;
    let read =
        |path: &Path| std::fs::read(path).map_err(|e| format!("could not read {}: {e}", path.display()));
    let built = read(&scratch.0.join("chart-view.html"))?;
    let committed = read(&root.join(VIEW))?;
    if built != committed {
        return Err(format!(
            "{VIEW} is not what ui/src/mcp-app builds ({} bytes built, {} committed): run \
             `npm --prefix ui run build:mcp-app` and commit the file",
            built.len(),
            committed.len()
        ));
    }
    println!("xtask: {VIEW} is current ({} bytes)", built.len());
    Ok(())
}
