//! Run: `cargo test -p garmin-mcp --test tools catalogue::`.
//!
//! The catalogue as a whole: server identity, annotations on every tool, schema snapshots,
//! toolset and read-only filtering.

use std::collections::BTreeMap;
use std::path::PathBuf;

use garmin_mcp::toolsets::TOOLSETS;
use rmcp::model::Tool;
use serde_json::Value;

use crate::support::Harness;

fn snapshot_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests").join("toolsnaps")
}

/// A tool as its snapshot records it: name, title, description, annotations, schemas; keys sorted.
fn snapshot_of(tool: &Tool) -> String {
    let value = serde_json::to_value(tool).unwrap();
    let sorted: BTreeMap<String, serde_json::Value> = serde_json::from_value(sort_keys(value)).unwrap();
    serde_json::to_string_pretty(&sorted).unwrap() + "\n"
}

fn sort_keys(value: serde_json::Value) -> serde_json::Value {
    match value {
        serde_json::Value::Object(map) => {
            let sorted: BTreeMap<String, serde_json::Value> =
                map.into_iter().map(|(k, v)| (k, sort_keys(v))).collect();
            serde_json::to_value(sorted).unwrap()
        }
        serde_json::Value::Array(items) => {
            serde_json::Value::Array(items.into_iter().map(sort_keys).collect())
        }
        other => other,
    }
}

#[tokio::test]
async fn server_names_itself_garmin_mcp_with_the_crate_version() {
    let h = Harness::start().await;
    let info = h.client.peer_info().expect("server info");
    let implementation = info.server_info.as_ref().expect("server implementation");
    assert_eq!(implementation.name, "garmin-mcp");
    assert_eq!(implementation.version, env!("CARGO_PKG_VERSION"));
}

/// The server answers `tools/list` from these snapshots, embedded when it is built
/// (`src/listing.rs`): both what it serves and what its tool router (the tool macros) produces must
/// equal them, and `UPDATE_TOOLSNAPS=1` writes them from the router.
#[tokio::test]
async fn every_tool_matches_its_checked_in_schema_snapshot() {
    let h = Harness::start().await;
    let served = h.client.list_all_tools().await.unwrap();
    let routed = garmin_mcp::GarminMcp::all_tools().list_all();
    let dir = snapshot_dir();
    let update = std::env::var_os("UPDATE_TOOLSNAPS").is_some();
    let mut problems = Vec::new();
    if !update {
        if served.len() != routed.len() {
            problems.push(format!("{} tools served, {} routed (rebuild)", served.len(), routed.len()));
        }
        for tool in &served {
            if !routed.contains(tool) {
                problems.push(format!("{} is served unlike the router describes it (rebuild)", tool.name));
            }
        }
    }
    let tools = routed;
    for tool in &tools {
        let path = dir.join(format!("{}.json", tool.name));
        let actual = snapshot_of(tool);
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &actual).unwrap();
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(expected) if expected == actual => {}
            Ok(_) => problems.push(format!("{} changed (review, then UPDATE_TOOLSNAPS=1)", tool.name)),
            Err(_) => problems.push(format!("{} has no snapshot (run with UPDATE_TOOLSNAPS=1)", tool.name)),
        }
    }
    if !update {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().trim_end_matches(".json").to_owned();
            if !tools.iter().any(|t| t.name == name) {
                problems.push(format!("snapshot {name}.json has no tool (delete it)"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[tokio::test]
async fn every_tool_declares_title_and_read_only_and_open_world_hints() {
    let h = Harness::start().await;
    for tool in h.client.list_all_tools().await.unwrap() {
        let a = tool.annotations.as_ref().unwrap_or_else(|| panic!("{} has no annotations", tool.name));
        assert!(a.title.as_deref().is_some_and(|t| !t.is_empty()), "{} has no title", tool.name);
        assert!(a.read_only_hint.is_some(), "{} leaves readOnlyHint implicit", tool.name);
        assert!(a.open_world_hint.is_some(), "{} leaves openWorldHint implicit", tool.name);
        if a.read_only_hint == Some(false) {
            assert!(a.destructive_hint.is_some(), "{} writes but leaves destructiveHint implicit", tool.name);
        }
        assert!(
            tool.description.as_deref().is_some_and(|d| d.len() > 60),
            "{} needs a real description",
            tool.name
        );
        if tool.name == "render_chart" {
            // Content only: clients that read the structured result would never see the image.
            assert!(tool.output_schema.is_none(), "render_chart must not declare structured output");
            continue;
        }
        let schema =
            tool.output_schema.as_ref().unwrap_or_else(|| panic!("{} has no output schema", tool.name));
        assert_eq!(schema["properties"]["summary"]["type"], "string", "{} has no summary", tool.name);
    }
}

/// Only formats JSON Schema defines: TypeScript-SDK clients print two warnings per field for any
/// other (`uint64`, `double`…). And no hard-wrapped descriptions: Qwen Code shows the first line.
#[tokio::test]
async fn schemas_use_only_standard_formats_and_descriptions_are_not_hard_wrapped() {
    const STANDARD: &[&str] =
        &["date-time", "date", "time", "duration", "email", "hostname", "ipv4", "ipv6", "uri", "uuid"];
    fn walk(tool: &str, node: &Value, problems: &mut Vec<String>) {
        match node {
            Value::Object(map) => {
                if let Some(format) = map.get("format").and_then(Value::as_str)
                    && !STANDARD.contains(&format)
                {
                    problems.push(format!("{tool}: format `{format}`"));
                }
                if let Some(d) = map.get("description").and_then(Value::as_str)
                    && d.contains('\n')
                    && !d.contains("\n\n")
                    && d.lines().next().is_some_and(|first| !first.ends_with(['.', ':', ')']))
                {
                    problems.push(format!("{tool}: hard-wrapped description `{d}`"));
                }
                map.values().for_each(|v| walk(tool, v, problems));
            }
            Value::Array(items) => items.iter().for_each(|v| walk(tool, v, problems)),
            _ => {}
        }
    }
    let h = Harness::start().await;
    let mut problems = Vec::new();
    for tool in h.client.list_all_tools().await.unwrap() {
        let value = serde_json::to_value(&tool).unwrap();
        walk(&tool.name, &value, &mut problems);
        let first_line = tool.description.as_deref().unwrap_or_default().lines().next().unwrap_or_default();
        if !first_line.ends_with(['.', ')', ':']) {
            problems.push(format!("{}: the first line is not a whole sentence: `{first_line}`", tool.name));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[tokio::test]
async fn every_listed_tool_belongs_to_exactly_one_toolset_and_every_catalogued_tool_exists() {
    let h = Harness::start().await;
    let tools = h.client.list_all_tools().await.unwrap();
    for tool in &tools {
        let owners = TOOLSETS.iter().filter(|t| t.tools.contains(&tool.name.as_ref())).count();
        assert_eq!(owners, 1, "{} is in {owners} toolsets", tool.name);
    }
    for set in TOOLSETS {
        for name in set.tools {
            assert!(tools.iter().any(|t| t.name == *name), "toolset {} names missing tool {name}", set.id);
        }
    }
}

#[tokio::test]
async fn toolsets_flag_limits_the_list_and_keeps_login() {
    let h = Harness::start_with(|mut o| {
        o.toolsets = Some(vec!["health".into()]);
        o
    })
    .await;
    let mut names: Vec<String> =
        h.client.list_all_tools().await.unwrap().into_iter().map(|t| t.name.into()).collect();
    names.sort();
    let mut expected: Vec<String> = TOOLSETS
        .iter()
        .filter(|t| t.id == "health" || t.id == "session")
        .flat_map(|t| t.tools.iter().map(|n| (*n).to_owned()))
        .collect();
    expected.sort();
    assert_eq!(names, expected);
}

#[tokio::test]
async fn read_only_mode_lists_no_tool_that_writes() {
    let h = Harness::start_with(|mut o| {
        o.read_only = true;
        o
    })
    .await;
    for tool in h.client.list_all_tools().await.unwrap() {
        let read_only = tool.annotations.as_ref().and_then(|a| a.read_only_hint);
        assert_eq!(read_only, Some(true), "{} is listed in read-only mode", tool.name);
    }
}

#[tokio::test]
async fn an_unknown_tool_is_a_protocol_error() {
    let h = Harness::start().await;
    let err =
        h.client.call_tool(rmcp::model::CallToolRequestParams::new("delete_everything")).await.unwrap_err();
    assert!(err.to_string().to_lowercase().contains("tool"), "{err}");
}

const README_START: &str = "<!-- START GENERATED TOOLS -->";
const README_END: &str = "<!-- END GENERATED TOOLS -->";

/// The README's tool table, generated from the served tools in catalogue order.
fn tool_table(tools: &[Tool]) -> String {
    let mut table = String::from("| tool | toolset | what it answers |\n|---|---|---|\n");
    for set in TOOLSETS {
        for name in set.tools {
            let Some(tool) = tools.iter().find(|t| t.name == *name) else { continue };
            let description = tool.description.as_deref().unwrap_or_default().replace('\n', " ");
            let first_sentence = description.split(". ").next().unwrap_or_default().trim_end_matches('.');
            let read_only = tool.annotations.as_ref().and_then(|a| a.read_only_hint) == Some(true);
            let confirmed = tool.input_schema.get("properties").and_then(|p| p.get("confirm")).is_some();
            let mark = match (read_only, confirmed) {
                (true, _) => "",
                (false, true) => " (writes to Garmin once confirmed)",
                (false, false) => " (saves a file)",
            };
            table.push_str(&format!("| `{name}` | {} | {first_sentence}{mark} |\n", set.id));
        }
    }
    table
}

#[tokio::test]
async fn readme_tool_list_matches_the_served_tools() {
    let h = Harness::start().await;
    // Regenerated from the tool macros (the served list is the snapshots as last built).
    let tools = if std::env::var_os("UPDATE_README").is_some() {
        garmin_mcp::GarminMcp::all_tools().list_all()
    } else {
        h.client.list_all_tools().await.unwrap()
    };
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../README.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    let (Some(start), Some(end)) = (readme.find(README_START), readme.find(README_END)) else {
        panic!("README.md lacks the {README_START} … {README_END} markers");
    };
    let current = &readme[start + README_START.len()..end];
    let expected = format!("\n{}", tool_table(&tools));
    if std::env::var_os("UPDATE_README").is_some() {
        let updated = format!("{}{expected}{}", &readme[..start + README_START.len()], &readme[end..]);
        std::fs::write(&path, updated).unwrap();
        return;
    }
    assert_eq!(current, expected, "README tool list is stale: run with UPDATE_README=1");
}

/// Arguments for a tool's default call: none, except required ones (filled from the data set).
/// Ids of things the fake's account holds, for tools that need one.
struct KnownIds {
    activity_id: serde_json::Value,
    workout_id: u64,
    schedule_id: u64,
    event_id: u64,
    strength_id: u64,
}

impl KnownIds {
    async fn find(h: &Harness, activity_id: serde_json::Value) -> KnownIds {
        let client = garmin::Client::builder().store(h.store.clone()).build().unwrap();
        let today = crate::support::today();
        let workout_id =
            client.workouts().list(0, 10).await.unwrap().iter().find_map(|w| w.workout_id).unwrap();
        let scheduled = client
            .workouts()
            .scheduled_between(today - chrono::Days::new(60), today + chrono::Days::new(60))
            .await
            .unwrap();
        let schedule_id = scheduled.iter().find_map(|s| s.scheduled_workout_id).expect("a scheduled workout");
        let (from, to) = (today - chrono::Days::new(365), today + chrono::Days::new(365));
        let events = client.events().list(from, to, 100, 1).await.unwrap();
        let event_id = events.iter().find_map(|e| e.id).expect("an event");
        let strength = garmin::api::ActivitySearch::new().limit(1).activity_type("strength_training");
        let strength_id = client.activities().search(&strength).await.unwrap()[0].activity_id.unwrap();
        KnownIds { activity_id, workout_id, schedule_id, event_id, strength_id }
    }
}

fn default_arguments(
    tool: &Tool,
    ids: &KnownIds,
    folder: &std::path::Path,
) -> serde_json::Map<String, serde_json::Value> {
    let mut args = serde_json::Map::new();
    let required = tool.input_schema.get("required").and_then(|r| r.as_array()).cloned().unwrap_or_default();
    for name in required.iter().filter_map(|v| v.as_str()) {
        let value: serde_json::Value = match name {
            "activity_id" if tool.name == "correct_strength_sets" => ids.strength_id.into(),
            "activity_id" => ids.activity_id.clone(),
            // The biggest period with a breakdown.
            "period" => "year".into(),
            "workout_id" => ids.workout_id.into(),
            "schedule_id" => ids.schedule_id.into(),
            "event_id" => ids.event_id.into(),
            "format" => "gpx".into(),
            "kind" if tool.name.contains("athlete") => "constraint".into(),
            "kind" => "activity".into(),
            "text" => "no running on Mondays".into(),
            "fact_id" => 1.into(),
            "date" => "2026-11-20".into(),
            "name" => "Budget check".into(),
            "sport" => "run".into(),
            "sets" => serde_json::json!([{"set": 1, "exercise": "barbell row", "reps": 12}]),
            "steps" => serde_json::json!([
                {"type": "warmup", "duration_min": 10},
                {"type": "repeat", "times": 8, "steps": [
                    {"type": "interval", "distance_m": 400, "pace": "4:30"},
                    {"type": "recovery", "duration_s": 90}]},
                {"type": "cooldown", "duration_min": 10}
            ]),
            other => panic!("{}: give required argument `{other}` a default here", tool.name),
        };
        args.insert(name.to_owned(), value);
    }
    let has_folder = tool.input_schema.get("properties").and_then(|p| p.get("folder")).is_some();
    if has_folder {
        // Never the person's real Downloads folder.
        args.insert("folder".into(), folder.display().to_string().into());
    }
    if tool.name == "login" {
        args.insert("open_app".into(), false.into());
    }
    args
}

#[tokio::test]
async fn every_default_answer_over_a_year_of_data_stays_within_the_budget() {
    let h = Harness::start().await;
    let tools = h.client.list_all_tools().await.unwrap();
    let year = serde_json::json!({ "activity_type": "running", "limit": 200, "start_date": "2025-11-16" });
    let (_, list) = h.call_ok("list_activities", year).await;
    // The year's longest run has the most splits: the biggest default get_activity.
    let longest = list["activities"]
        .as_array()
        .unwrap()
        .iter()
        .max_by(|a, b| a["distance_km"].as_f64().partial_cmp(&b["distance_km"].as_f64()).unwrap())
        .unwrap()["activity_id"]
        .clone();
    let ids = KnownIds::find(&h, longest).await;
    let folder = tempfile::tempdir().unwrap();
    let mut sizes = Vec::new();
    for tool in &tools {
        let args = serde_json::Value::Object(default_arguments(tool, &ids, folder.path()));
        let result = h.call(&tool.name, args).await;
        // With an empty journal, undo_change rightly has nothing to do; fact 1 may be forgotten
        // before update_athlete_fact runs, or not yet remembered.
        if tool.name != "undo_change"
            && !crate::support::text_of(&result).contains("not in the athlete memory")
        {
            assert_ne!(result.is_error, Some(true), "{}: {}", tool.name, crate::support::text_of(&result));
        }
        let size = crate::support::all_text(&result).len();
        assert!(size <= garmin_mcp::output::BUDGET_BYTES, "{} answered {size} bytes", tool.name);
        sizes.push(format!("{} {size}", tool.name));
    }
    eprintln!("default answer sizes: {}", sizes.join(", "));
}
