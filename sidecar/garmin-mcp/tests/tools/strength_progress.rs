//! Run: `cargo test -p garmin-mcp --test tools strength_progress::`.
//!
//! `get_strength_progress` and `render_chart` kind `strength` end to end on the demo athlete (the
//! fake's two strength sessions a week, loads progressing over the year; today pinned to
//! 2026-11-15): a strength activity read through `get_activity`, synced into the history and
//! analysed. The squat's e1RM trend, the weekly sets per muscle group and the days since the chest
//! was trained are computed here from the fake's own sets and Garmin's catalogue (not from the
//! history or the analytics); the answer comes from the history alone; without a history it says
//! to sync; an unknown exercise is refused with the closest ones.

use chrono::{Datelike, NaiveDate};
use fake_garmin::data::activity::Sport;
use serde_json::{Value, json};

use crate::support::{Harness, api_requests, synced_since, today};

/// The default range: the 8 calendar weeks ending with the week of yesterday.
fn default_range() -> (NaiveDate, NaiveDate) {
    let yesterday = today() - chrono::Duration::days(1);
    let monday = yesterday - chrono::Duration::days(i64::from(yesterday.weekday().num_days_from_monday()));
    (monday - chrono::Duration::days(49), yesterday)
}

/// Each active set of the fake's strength sessions in `range`: (activity id, day, category, name,
/// reps, kg) of the watch's most probable guess.
fn fake_sets(
    h: &Harness,
    (first, last): (NaiveDate, NaiveDate),
) -> Vec<(u64, NaiveDate, &'static str, &'static str, u32, f64)> {
    let d = h.fake.state().inner.data.read().unwrap();
    let mut out = Vec::new();
    for a in d.live().filter(|a| a.sport() == Sport::Strength) {
        let day = a.start_local.date();
        if !(first..=last).contains(&day) {
            continue;
        }
        for s in a.sets.iter().filter(|s| s.set_type == "ACTIVE") {
            out.push((a.id, day, s.category, s.name, s.reps, s.weight_g / 1000.0));
        }
    }
    out.sort_by_key(|s| (s.1, s.0));
    out
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

#[tokio::test]
async fn a_synced_strength_history_gives_the_squats_e1rm_the_muscle_weeks_and_days_since_as_the_fakes_sets_say()
 {
    let h = synced_since("2026-09-01").await;
    let range = default_range();
    let sets = fake_sets(&h, range);
    assert!(sets.len() > 100, "the demo athlete lifts twice a week: {} sets", sets.len());

    // A strength activity read live: its log lists the same sets the history keeps.
    let newest = sets.last().unwrap().0;
    let (_, activity) = h.call_ok("get_activity", json!({"activity_id": newest})).await;
    let logged = activity["strength"]["total_sets"].as_u64().unwrap();
    assert_eq!(logged as usize, sets.iter().filter(|s| s.0 == newest).count());

    h.fake.clear_requests();
    let (text, data) = h.call_ok("get_strength_progress", json!({"exercise": "barbell back squat"})).await;
    assert_eq!(api_requests(&h), Vec::<(String, String)>::new(), "the history answers alone");
    assert_eq!(data["start_date"], range.0.to_string(), "{data}");
    assert_eq!(data["end_date"], range.1.to_string());
    assert_eq!(data["exercise"], "Barbell back squat");
    assert!(
        text.contains("Epley") && text.contains("0.5") && text.contains("Source: the local history"),
        "{text}"
    );

    // The squat: best Epley estimate per session, from the fake's sets.
    let mut expected: Vec<(String, f64)> = Vec::new();
    for (id, day, category, name, reps, kg) in &sets {
        if (*category, *name) != ("SQUAT", "BARBELL_BACK_SQUAT") || *kg <= 0.0 || !(1..=12).contains(reps) {
            continue;
        }
        let e1rm = if *reps == 1 { *kg } else { kg * (1.0 + f64::from(*reps) / 30.0) };
        let key = format!("{day}#{id}");
        match expected.iter_mut().find(|(k, _)| *k == key) {
            Some((_, best)) => *best = best.max(e1rm),
            None => expected.push((key, e1rm)),
        }
    }
    let squat = &data["exercises"][0];
    assert_eq!(data["exercises"].as_array().unwrap().len(), 1, "only the squat: {data}");
    assert_eq!(squat["exercise_key"], "SQUAT/BARBELL_BACK_SQUAT");
    let got: Vec<f64> = squat["e1rm_kg"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
    let want: Vec<f64> = expected.iter().map(|(_, e)| round1(*e)).collect();
    assert!(want.len() >= 6, "about one squat session a week: {want:?}");
    assert_eq!(got, want);
    let change = squat["change_kg"].as_f64().unwrap();
    assert!((change - round1(expected.last().unwrap().1 - expected[0].1)).abs() < 0.11, "{change}");

    // Quads: 1 set for each set that mainly works them, 0.5 for each that also does (catalogue).
    let mut quads = 0.0;
    for (_, _, category, name, _, _) in &sets {
        let Some(e) = garmin::exercises::find(category, name) else { continue };
        if e.primary_muscles().any(|m| m.key == "QUADS") {
            quads += 1.0;
        } else if e.secondary_muscles().any(|m| m.key == "QUADS") {
            quads += 0.5;
        }
    }
    let row = data["muscles"].as_array().unwrap().iter().find(|m| m["muscle"] == "quads").unwrap();
    assert_eq!(row["total_sets"].as_f64().unwrap(), quads, "{row}");
    assert_eq!(row["sets"].as_array().unwrap().len(), 8, "one figure per week");

    // Chest: days since the last set that mainly worked it, counted to the pinned today.
    let last_chest = sets
        .iter()
        .filter(|s| {
            garmin::exercises::find(s.2, s.3).is_some_and(|e| e.primary_muscles().any(|m| m.key == "CHEST"))
        })
        .map(|s| s.1)
        .max()
        .unwrap();
    let chest =
        data["days_since_trained"].as_array().unwrap().iter().find(|m| m["muscle"] == "chest").unwrap();
    assert_eq!(chest["last_trained"], last_chest.to_string());
    assert_eq!(chest["days_since"], (today() - last_chest).num_days());
    let neglected: Vec<&str> =
        data["neglected"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert!(!neglected.contains(&"chest") && !neglected.contains(&"quads"), "{neglected:?}");
    assert!(neglected.contains(&"hip adductors"), "the demo never trains them: {neglected:?}");
}

#[tokio::test]
async fn without_a_history_it_says_to_sync_and_bad_arguments_are_refused_with_what_to_do() {
    let h = Harness::start().await;
    let (text, data) = h.call_ok("get_strength_progress", json!({})).await;
    assert!(text.contains("sync_history"), "{text}");
    assert_eq!(data["sessions"], 0);
    let err = h.call_err("get_strength_progress", json!({"exercise": "underwater squat"})).await;
    assert!(err.contains("closest") && err.contains("SQUAT/"), "{err}");
    let err = h.call_invalid("get_strength_progress", json!({"weeks": 60})).await;
    assert!(err.contains("weeks"), "{err}");
}

/// `render_chart` with `args` saved under the harness's folder: (summary, the chart's record).
async fn chart(h: &Harness, mut args: Value) -> (String, Value) {
    args["folder"] = json!(h.dir.path().join("charts").display().to_string());
    let result = h.call("render_chart", args).await;
    let summary = crate::support::text_of(&result);
    assert_ne!(result.is_error, Some(true), "{summary}");
    assert!(result.content.iter().any(|c| c.as_image().is_some()), "an image is shown");
    let record = result.content.iter().filter_map(|c| c.as_text()).nth(1).unwrap().text.clone();
    (summary, serde_json::from_str(&record).unwrap())
}

#[tokio::test]
async fn render_chart_strength_draws_the_e1rm_trend_or_the_weekly_muscle_volume() {
    let h = synced_since("2026-09-01").await;
    let (text, record) = chart(&h, json!({"kind": "strength", "exercise": "bench press barbell"})).await;
    assert_eq!(record["kind"], "strength", "{record}");
    assert!(text.contains("Barbell bench press") && text.contains("e1RM"), "{text}");
    let (_, progress) = h.call_ok("get_strength_progress", json!({"exercise": "barbell bench press"})).await;
    let sessions = progress["exercises"][0]["e1rm_kg"].as_array().unwrap().len();
    assert!(sessions >= 6, "{progress}");
    assert_eq!(record["points"], json!(sessions));
    let (text, record) = chart(&h, json!({"kind": "strength", "weeks": 4})).await;
    assert!(text.contains("muscle group") && text.contains("secondary 0.5"), "{text}");
    assert_eq!(record["points"], 4, "one bar per week");
    let message = h.call_invalid("render_chart", json!({"kind": "volume", "exercise": "squat"})).await;
    assert!(message.contains("`exercise` does not apply to kind=volume; it is for strength"), "{message}");
}
