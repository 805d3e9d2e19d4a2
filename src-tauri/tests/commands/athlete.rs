//! Commands of the athlete memory from the app (`athlete`).
//!
//! Run: `cargo test -p garmin-desktop --test commands athlete::`

use super::*;

/// The athlete memory card's commands over IPC: a fact an assistant remembered (straight into the
/// shared `athlete.json`) is listed with its client; the person edits it, adds one and deletes one;
/// a bad field is refused as `invalid_input` naming it; every change is in the file `garmin-mcp`
/// reads.
#[test]
fn the_athlete_memory_is_listed_edited_added_to_and_deleted_from_the_app() {
    let dir = tempfile::tempdir().unwrap();
    let memory = local_data::athlete::AthleteMemory::in_dir(dir.path());
    let said = local_data::athlete::FactInput {
        kind: Some(local_data::athlete::FactKind::GoalRace),
        text: Some("Berlin Marathon".into()),
        date: Some("2099-09-26".into()),
        target_time: Some("3:15".into()),
        ..Default::default()
    };
    memory.remember(said, "claude-code", chrono::Utc::now()).unwrap();
    let (_app, window) = app(dir.path());

    let facts = invoke(&window, "athlete_facts").unwrap();
    assert_eq!(facts[0]["source"], "claude-code");
    assert_eq!(facts[0]["targetTime"], "3:15:00");
    assert!(facts[0]["daysToRace"].as_i64().is_some_and(|d| d > 0), "{facts}");

    let form = json!({"kind": "goal_race", "text": "Berlin Marathon", "date": "2099-09-26", "distanceKm": 42.195,
        "targetTime": "3:09:00", "weeklyKmCap": 0});
    let edited = invoke_with(&window, "edit_athlete_fact", json!({"id": 1, "fact": form})).unwrap();
    assert_eq!(
        (edited["targetTime"].clone(), edited["updatedBy"].clone()),
        (json!("3:09:00"), json!("Garmin MCP app"))
    );
    let bad = json!({"kind": "goal_race", "text": "Berlin", "date": "26.09.2099", "distanceKm": 0, "targetTime": "", "weeklyKmCap": 0});
    let refused = invoke_with(&window, "edit_athlete_fact", json!({"id": 1, "fact": bad})).unwrap_err();
    assert_eq!(refused["code"], "invalid_input");
    assert!(refused["message"].as_str().unwrap().contains("`date`"), "{refused}");

    let added = json!({"kind": "constraint", "text": "no running on Mondays", "date": "", "distanceKm": 0, "targetTime": "", "weeklyKmCap": 0});
    let added = invoke_with(&window, "add_athlete_fact", json!({"fact": added})).unwrap();
    assert_eq!(added["source"], "Garmin MCP app");
    invoke_with(&window, "delete_athlete_fact", json!({"id": 1})).unwrap();
    let gone = invoke_with(&window, "delete_athlete_fact", json!({"id": 1})).unwrap_err();
    assert_eq!(gone["code"], "invalid_input");
    let texts: Vec<String> = memory.facts().unwrap().into_iter().map(|f| f.text).collect();
    assert_eq!(texts, ["no running on Mondays"], "what garmin-mcp reads");
}
