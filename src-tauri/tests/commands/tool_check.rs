//! Commands of the tool check running the real sidecar (`tool_check`).
//!
//! Run: `cargo test -p garmin-desktop --test commands tool_check::`

use super::*;

/// The `garmin-mcp` built beside this test (`target/<profile>/garmin-mcp`, from
/// `cargo build -p garmin-mcp --bin garmin-mcp` or any workspace build).
fn built_sidecar() -> std::path::PathBuf {
    let exe = std::env::current_exe().expect("the test knows its own path");
    let profile_dir = exe.parent().and_then(Path::parent).expect("tests run from target/<profile>/deps");
    let sidecar = profile_dir.join(format!("garmin-mcp{}", std::env::consts::EXE_SUFFIX));
    assert!(
        sidecar.is_file(),
        "{} is missing: run `cargo build -p garmin-mcp --bin garmin-mcp` first",
        sidecar.display()
    );
    sidecar
}

/// The names of the tools `sidecar` marks read-only, asked independently of the tool check.
fn read_only_tools(sidecar: &Path, data_dir: &Path) -> Vec<String> {
    use rmcp::ServiceExt as _;
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let mut cmd = tokio::process::Command::new(sidecar);
        cmd.arg("--data-dir").arg(data_dir);
        let (transport, _) = rmcp::transport::TokioChildProcess::builder(cmd)
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let client = ().serve(transport).await.unwrap();
        let tools = client.list_all_tools().await.unwrap();
        tools
            .iter()
            .filter(|t| t.annotations.as_ref().and_then(|a| a.read_only_hint) == Some(true))
            .map(|t| t.name.to_string())
            .collect()
    })
}

/// The tool check's row for `tool`.
fn check_row(report: &Value, tool: &str) -> Value {
    report["rows"]
        .as_array()
        .and_then(|rows| rows.iter().find(|row| row["tool"] == tool))
        .unwrap_or_else(|| panic!("no row for {tool}: {report}"))
        .clone()
}

#[test]
fn the_tool_check_runs_the_sidecar_on_every_read_tool_and_marks_no_data_and_failures() {
    let dir = tempfile::tempdir().unwrap();
    let garmin = fake_garmin();
    save_fake_session(dir.path(), &garmin, false);
    // Garmin answers the device list with nothing, and the gear list with broken JSON.
    use fake_garmin::faults::{Fault, FaultRule};
    garmin.fake.push_fault(FaultRule::always(Fault::NoContent).on_path("deviceregistration"));
    garmin.fake.push_fault(FaultRule::always(Fault::MalformedJson).on_path("gear-service"));
    let sidecar = built_sidecar();
    let (app, window) = app(dir.path());
    app.manage(garmin_desktop::ToolCheck::new(app_bridge::sidecar::SidecarSearch {
        found: Some(sidecar.clone()),
        looked_in: vec![sidecar.clone()],
    }));

    let report = invoke(&window, "run_tool_check").unwrap();
    assert_eq!(report["demo"], false);
    assert_eq!(report["sidecar"], sidecar.display().to_string());
    let checked: Vec<&str> =
        report["rows"].as_array().unwrap().iter().filter_map(|row| row["tool"].as_str()).collect();
    assert_eq!(checked, read_only_tools(&sidecar, dir.path()), "one row per read-only tool, in order");
    assert!(!checked.contains(&"create_workout"), "write tools are never called");

    let profile = check_row(&report, "get_profile");
    assert_eq!(profile["outcome"], "answered", "{profile}");
    assert!(!profile["summary"].as_str().unwrap().is_empty(), "{profile}");
    assert!(profile["title"].as_str().is_some_and(|t| !t.is_empty()), "the tool's title is shown: {profile}");
    let activity = check_row(&report, "get_activity");
    assert_eq!(activity["outcome"], "answered", "asked about list_activities' first row: {activity}");
    assert_eq!(check_row(&report, "get_period_stats")["outcome"], "answered", "period = week");
    let devices = check_row(&report, "get_devices");
    assert_eq!(devices["outcome"], "no_data", "{devices}");
    assert!(devices["summary"].as_str().unwrap().starts_with("No devices"), "{devices}");
    let gear = check_row(&report, "get_gear");
    assert_eq!(gear["outcome"], "failed", "{gear}");
    let requests = garmin.fake.requests();
    assert!(
        requests.iter().all(|r| r.method == "GET" || r.path.contains("sso") || r.path.contains("auth")),
        "only reads reach Garmin"
    );
}

#[test]
fn the_tool_check_without_a_session_is_not_signed_in() {
    let dir = tempfile::tempdir().unwrap();
    let (app, window) = app(dir.path());
    app.manage(garmin_desktop::ToolCheck::new(app_bridge::sidecar::SidecarSearch {
        found: Some(built_sidecar()),
        looked_in: Vec::new(),
    }));
    assert_eq!(invoke(&window, "run_tool_check").unwrap_err()["code"], "not_signed_in");
}
