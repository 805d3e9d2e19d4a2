//! The catalogue as a whole: server identity, annotations on every tool, schema snapshots,
//! toolset and read-only filtering.

use std::collections::BTreeMap;
use std::path::PathBuf;

use garmin_mcp::toolsets::TOOLSETS;
use rmcp::model::Tool;

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
            let sorted: BTreeMap<String, serde_json::Value> = map.into_iter().map(|(k, v)| (k, sort_keys(v))).collect();
            serde_json::to_value(sorted).unwrap()
        }
        serde_json::Value::Array(items) => serde_json::Value::Array(items.into_iter().map(sort_keys).collect()),
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

#[tokio::test]
async fn every_tool_matches_its_checked_in_schema_snapshot() {
    let h = Harness::start().await;
    let tools = h.client.list_all_tools().await.unwrap();
    let dir = snapshot_dir();
    let update = std::env::var_os("UPDATE_TOOLSNAPS").is_some();
    let mut problems = Vec::new();
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
        assert!(tool.description.as_deref().is_some_and(|d| d.len() > 60), "{} needs a real description", tool.name);
        assert!(tool.output_schema.is_some(), "{} has no output schema", tool.name);
    }
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
    let mut names: Vec<String> = h.client.list_all_tools().await.unwrap().into_iter().map(|t| t.name.into()).collect();
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
    let err = h
        .client
        .call_tool(rmcp::model::CallToolRequestParams::new("delete_everything"))
        .await
        .unwrap_err();
    assert!(err.to_string().to_lowercase().contains("tool"), "{err}");
}
