//! `cargo xtask startup-order`: rewrites `sidecar/garmin-mcp/startup-order.txt`, the functions a
//! start of the stdio server runs up to its first `tools/list` answer, which the release link on
//! x86_64 Linux places together at the front of the code (`sidecar/garmin-mcp/build.rs` says why).
//!
//! It links the release binary once more with its symbols (`cargo rustc --release … -C
//! strip=none`: the crates of the last release build are reused, so the names are the shipped
//! build's; the next ordinary release build links again without them), runs one start under
//! valgrind's callgrind (`initialize`, `tools/list`, `ping` over pipes, as a client sends them),
//! and keeps, in the order callgrind first names them, the functions it ran that the binary
//! defines. Linux with valgrind and binutils' `nm`; run it after a toolchain or dependency update,
//! when symbol names change.

use std::io::{Read as _, Write as _};
use std::path::Path;
use std::process::{Command, Stdio};

/// What a client sends at the start of a conversation (answered before stdin closes).
const START: &str = concat!(
    r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"xtask-startup-order","version":"1"}}}"#,
    "\n",
    r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    "\n",
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
    "\n",
    r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#,
    "\n",
);

/// The file's opening lines (lld skips `#` comments).
const HEADER: &str = "\
# The functions a start of the stdio server runs, up to its first `tools/list` answer, by mangled
# symbol name: the release link on x86_64 Linux places them together at the front of the code
# (lld's --symbol-ordering-file, given by build.rs), so a start faults in a few contiguous pages of
# code instead of 64 kB around each of ~1,200 functions scattered over 13 MB (README \"Performance
# of the stdio server\"). Names the build no longer has are skipped: a stale list costs start-up
# speed and idle memory, never a failed link. Regenerate with `cargo xtask startup-order` after a
# toolchain or dependency update (symbol names carry a hash of each crate's build).
";

/// Writes the list (see the module doc).
pub fn startup_order(root: &Path) -> Result<(), String> {
    crate::run(Command::new(crate::cargo()).current_dir(root).args([
        "rustc",
        "--release",
        "-p",
        "garmin-mcp",
        "--bin",
        "garmin-mcp",
        "--",
        "-C",
        "strip=none",
    ]))?;
    let work = std::env::temp_dir().join(format!("garmin-mcp-startup-order-{}", std::process::id()));
    std::fs::create_dir_all(work.join("data"))
        .map_err(|e| format!("cannot create {}: {e}", work.display()))?;
    let result = profile(root, &work);
    let _ = std::fs::remove_dir_all(&work);
    let names = result?;
    let path = root.join("sidecar").join("garmin-mcp").join("startup-order.txt");
    let mut text = HEADER.to_owned();
    for name in &names {
        text.push_str(name);
        text.push('\n');
    }
    std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    println!(
        "xtask: {} functions written to {}; the next release build links with them",
        names.len(),
        path.display()
    );
    Ok(())
}

/// The binary's own functions that one start runs, in callgrind's order.
fn profile(root: &Path, work: &Path) -> Result<Vec<String>, String> {
    let built = crate::target_dir(root).join("release").join("garmin-mcp");
    let binary = work.join("garmin-mcp");
    std::fs::copy(&built, &binary).map_err(|e| format!("cannot copy {}: {e}", built.display()))?;
    let out = work.join("callgrind.out");
    let mut child = Command::new("valgrind")
        .arg("--tool=callgrind")
        .arg("--demangle=no")
        .arg(format!("--callgrind-out-file={}", out.display()))
        .arg(&binary)
        .arg("--data-dir")
        .arg(work.join("data"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start valgrind (is it installed?): {e}"))?;
    let written = child.stdin.take().ok_or("no stdin")?.write_all(START.as_bytes());
    let mut answers = String::new();
    let read = child.stdout.take().ok_or("no stdout")?.read_to_string(&mut answers);
    let status = child.wait().map_err(|e| format!("valgrind did not finish: {e}"))?;
    written.and(read).map_err(|e| format!("talking to the server failed: {e}"))?;
    if !status.success() || !answers.contains(r#""id":1"#) {
        return Err(format!("the server under valgrind did not answer tools/list ({status})"));
    }
    let profile = std::fs::read_to_string(&out).map_err(|e| format!("cannot read {}: {e}", out.display()))?;
    let nm = Command::new("nm")
        .arg("--defined-only")
        .arg(&binary)
        .output()
        .map_err(|e| format!("cannot run nm: {e}"))?;
    if !nm.status.success() {
        return Err(format!("nm failed: {}", String::from_utf8_lossy(&nm.stderr).trim()));
    }
    let defined: std::collections::HashSet<String> = String::from_utf8_lossy(&nm.stdout)
        .lines()
        .filter_map(|line| match line.split_whitespace().collect::<Vec<_>>().as_slice() {
            [_, kind, name] if matches!(*kind, "t" | "T" | "W" | "w") => Some((*name).to_owned()),
            _ => None,
        })
        .collect();
    Ok(ran(&profile).into_iter().filter(|name| defined.contains(name)).collect())
}

/// The function names of a callgrind profile, each once, in the order they first appear
/// (`fn=(id) name` and `cfn=(id) name` name a function the first time its id is used).
fn ran(profile: &str) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    profile
        .lines()
        .filter_map(|line| line.strip_prefix("fn=(").or_else(|| line.strip_prefix("cfn=(")))
        .filter_map(|rest| rest.split_once(") ").map(|(_, name)| name.to_owned()))
        .filter(|name| seen.insert(name.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_function_is_taken_once_in_the_order_callgrind_first_names_it() {
        let profile =
            "fn=(1) main\n0 5\ncfn=(2) _RNv3run\ncalls=1 0\n0 9\nfn=(2)\n0 3\ncfn=(1)\nfn=(3) exit\n";
        assert_eq!(ran(profile), ["main", "_RNv3run", "exit"]);
    }
}
