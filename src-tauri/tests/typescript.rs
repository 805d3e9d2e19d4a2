//! The UI's generated files match the Rust types the commands take and return: this regenerates
//! `ui/src/generated/` into a temporary folder and fails when a committed file differs (run the
//! command it names to regenerate). With `UPDATE_TS_BINDINGS=1` it rewrites the committed files.
//!
//! Run: `cargo test -p garmin-desktop --test typescript`.

use std::path::Path;

use garmin_desktop::typescript::{REGENERATE, bindings, generated_files};

#[test]
fn the_committed_typescript_types_are_the_ones_the_rust_types_generate() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace folder");
    let files = generated_files().unwrap_or_else(|why| panic!("the UI's files cannot be generated: {why}"));
    let scratch = tempfile::tempdir().expect("a temporary folder");
    let update = std::env::var_os("UPDATE_TS_BINDINGS").is_some();
    let mut stale = Vec::new();
    for (path, content) in files {
        let fresh_path = scratch.path().join(Path::new(path).file_name().expect("a file name"));
        std::fs::write(&fresh_path, &content).expect("the fresh file is written");
        let committed_path = root.join(path);
        if update {
            std::fs::create_dir_all(committed_path.parent().expect("a folder")).expect("ui/src/generated");
            std::fs::copy(&fresh_path, &committed_path).expect("the committed file is rewritten");
            continue;
        }
        let committed = std::fs::read_to_string(&committed_path).unwrap_or_default();
        let fresh = std::fs::read_to_string(&fresh_path).expect("the fresh file reads back");
        if committed != fresh {
            let line = committed
                .lines()
                .zip(fresh.lines())
                .position(|(a, b)| a != b)
                .map_or_else(|| committed.lines().count().min(fresh.lines().count()) + 1, |i| i + 1);
            stale.push(format!("{path} (first difference at line {line})"));
        }
    }
    assert!(
        stale.is_empty(),
        "out of date with the Rust types: {}; run `{REGENERATE}` and commit the result",
        stale.join(", ")
    );
}

#[test]
fn the_types_hold_the_error_shape_and_the_constants_follow_rust() {
    let generated = bindings().expect("generated");
    assert!(generated.contains("export type CommandError = {\n"), "the error shape: {generated}");
    assert!(
        generated.contains(
            r#"export const ERROR_CODES: readonly ErrorCode[] = ["not_signed_in", "session_expired","#
        ),
        "{generated}"
    );
    assert!(generated.contains(r#"export const FACT_KINDS: readonly FactKind[] = ["goal_race", "injury","#));
    assert!(generated.contains("export type EditorGrammar = "), "the workout editor's grammar");
}
