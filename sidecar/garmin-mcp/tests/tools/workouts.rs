//! `get_workouts`: the library and training plans against the fake's stored workouts, one workout
//! in words (pace ranges read fast-slow from m/s, HR zones and bpm ranges, swim strokes, strength
//! exercises, nested repeats), unknown ids, session renewal and 429s, the budget.
//!
//! Run: `cargo test -p garmin-mcp --test tools workouts::`

use std::collections::HashSet;

use fake_garmin::faults::{Fault, FaultRule};
use garmin::models::workouts::Workout;
use garmin_mcp::output;
use serde_json::json;

use crate::support::{Harness, all_text};

const INTERVALS_ID: u64 = fake_garmin::data::library::INTERVALS_ID;
const NESTED_REQUEST: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../sidecar/fake-garmin/fixtures/garmin/workout_create_request_running_nested_repeats.json"
));

/// Every successful request of the call, as `path?query`; none may repeat.
fn assert_no_repeated_request(h: &Harness) {
    let mut seen = HashSet::new();
    for r in h.fake.requests().into_iter().filter(|r| r.path.starts_with("/gc-api") && r.status < 400) {
        let key = format!("{}?{}", r.path, r.query.unwrap_or_default());
        assert!(seen.insert(key.clone()), "requested twice: {key}");
    }
}

/// The fake's library, newest first: `(id, name, sport key)`.
fn library(h: &Harness) -> Vec<(u64, String, String)> {
    let d = h.fake.state().inner.data.read().unwrap();
    d.workouts
        .iter()
        .rev()
        .map(|(id, w)| {
            let name = w["workoutName"].as_str().unwrap().to_owned();
            (*id, name, w["sportType"]["sportTypeKey"].as_str().unwrap().replace('_', " "))
        })
        .collect()
}

fn pace_range(one: f64, two: f64) -> String {
    let (fast, slow) = (one.max(two), one.min(two));
    format!("{}-{}/km", display::pace_per_km(fast).unwrap(), display::pace_per_km(slow).unwrap())
}

#[tokio::test]
async fn the_library_lists_every_workout_of_the_fake_newest_first_with_training_plans() {
    let h = Harness::start().await;
    let (text, data) = h.call_ok("get_workouts", json!({})).await;
    let want = library(&h);
    let rows = data["library"].as_array().unwrap();
    let got: Vec<(u64, String, String)> = rows
        .iter()
        .map(|r| {
            let id = r["workout_id"].as_u64().unwrap();
            (id, r["name"].as_str().unwrap().to_owned(), r["sport"].as_str().unwrap().to_owned())
        })
        .collect();
    assert_eq!(got, want);
    assert!(rows.iter().all(|r| r["created"].as_str().is_some_and(|c| c.len() == 10)));
    assert!(data.get("more_in_library").is_none());
    assert_eq!(data["training_plans"].as_array().unwrap().len(), 1, "the demo athlete's Garmin Coach plan");
    assert!(text.starts_with(&format!("{} workouts in your library: {}", want.len(), want[0].1)), "{text}");
    assert!(text.contains("Training plans: Example Big City Marathon (Garmin Coach)"), "{text}");

    let requests = h.fake.requests();
    let list = requests.iter().find(|r| r.path == "/gc-api/workout-service/workouts").unwrap();
    assert_eq!(list.query.as_deref(), Some("start=0&limit=31&myWorkoutsOnly=true"));
    assert!(h.gc_api_paths().contains(&"/gc-api/trainingplan-service/trainingplan/plans".to_owned()));
    // The library, the plan list, the plan's detail and its race day's events.
    assert_eq!(h.gc_api_paths().len(), 4, "{:?}", h.gc_api_paths());
    assert_no_repeated_request(&h);
}

/// The demo's plan (`fake_garmin::data::coach`) as `get_workouts` lists it: its goal race with the
/// distance and goal time of that race's calendar event, today's phase, four workouts a week and
/// the plan's own workouts on their days from a week ago on.
#[tokio::test]
async fn the_demo_plan_is_listed_with_its_goal_race_phase_and_scheduled_workouts() {
    let h = Harness::start().await;
    let (text, data) = h.call_ok("get_workouts", json!({})).await;
    let plan = &data["training_plans"][0];
    assert_eq!(plan["kind"], "Garmin Coach (adaptive)");
    // The primary race of the fake's calendar: 95 days after 2026-11-15, 42.195 km, goal 3:30:00.
    assert_eq!(
        plan["goal_race"],
        json!({"name": "Example Big City Marathon", "date": "2027-02-18", "days_to_race": 95,
               "distance_km": 42.2, "goal_time": "3:30:00"})
    );
    assert_eq!(plan["workouts_per_week"], 4);
    assert_eq!(plan["phase"], "base (2026-10-19 to 2026-11-15)", "{plan}");
    // From 2026-11-08 on: Sun long run, then Tue/Wed/Fri/Sun of the two weeks after.
    let days: Vec<(&str, &str)> = plan["scheduled_workouts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| (w["date"].as_str().unwrap(), w["name"].as_str().unwrap()))
        .collect();
    assert_eq!(
        days,
        vec![
            ("2026-11-08", "Long Run"),
            ("2026-11-10", "Intervals"),
            ("2026-11-11", "Base"),
            ("2026-11-13", "Tempo"),
            ("2026-11-15", "Long Run"),
            ("2026-11-17", "Intervals"),
            ("2026-11-18", "Base"),
            ("2026-11-20", "Tempo"),
            ("2026-11-22", "Long Run"),
        ]
    );
    assert_eq!(plan["scheduled_workouts"][1]["estimated_duration"], "55:00");
    assert!(
        text.contains("goal Example Big City Marathon on 2027-02-18 (95 days, 42.2 km, goal 3:30:00)"),
        "{text}"
    );
}

#[tokio::test]
async fn a_plan_list_answering_404_or_204_is_one_plain_sentence_not_a_failure() {
    for fault in [Fault::NotFound, Fault::NoContent] {
        let h = Harness::start().await;
        h.fake.push_fault(FaultRule::always(fault.clone()).on_path("trainingplan/plans"));
        let (text, data) = h.call_ok("get_workouts", json!({})).await;
        assert!(!data["library"].as_array().unwrap().is_empty());
        assert_eq!(data["training_plans_note"], "Garmin has no training plan for this account.", "{fault:?}");
        assert!(text.ends_with("Garmin has no training plan for this account."), "{text}");
    }
}

#[tokio::test]
async fn a_plan_detail_answering_404_or_204_leaves_the_plan_listed_with_one_sentence() {
    for fault in [Fault::NotFound, Fault::NoContent] {
        let h = Harness::start().await;
        h.fake.push_fault(FaultRule::always(fault.clone()).on_path("trainingplan/fbt-adaptive"));
        let (text, data) = h.call_ok("get_workouts", json!({})).await;
        let plan = &data["training_plans"][0];
        assert_eq!(plan["name"], "Example Big City Marathon (Garmin Coach)", "{fault:?}");
        assert!(plan.get("scheduled_workouts").is_none(), "{plan}");
        let notes = plan["notes"].as_array().unwrap();
        assert_eq!(notes.len(), 1, "{plan}");
        assert_eq!(
            notes[0],
            "Garmin gave no detail for the plan \"Example Big City Marathon (Garmin Coach)\" (its scheduled workouts and phases)."
        );
        assert!(text.contains("Garmin gave no detail"), "{text}");
    }
}

#[tokio::test]
async fn a_small_limit_says_the_library_holds_more() {
    let h = Harness::start().await;
    let (text, data) = h.call_ok("get_workouts", json!({"limit": 2})).await;
    let want = library(&h);
    let ids: Vec<u64> =
        data["library"].as_array().unwrap().iter().map(|r| r["workout_id"].as_u64().unwrap()).collect();
    assert_eq!(ids, [want[0].0, want[1].0]);
    assert_eq!(data["more_in_library"], true);
    assert!(text.starts_with("The latest 2 workouts"), "{text}");
}

#[tokio::test]
async fn an_interval_workout_reads_as_steps_with_pace_ranges_from_the_stored_speeds() {
    let h = Harness::start().await;
    let (text, data) = h.call_ok("get_workouts", json!({"workout_id": INTERVALS_ID})).await;
    assert_eq!(h.gc_api_paths(), [format!("/gc-api/workout-service/workout/{INTERVALS_ID}")]);
    let raw = h.fake.state().inner.data.read().unwrap().workouts[&INTERVALS_ID].clone();
    let raw_steps = raw["workoutSegments"][0]["workoutSteps"].as_array().unwrap().clone();
    let w = &data["workout"];
    assert_eq!(w["workout_id"], INTERVALS_ID);
    assert_eq!(w["name"], raw["workoutName"]);
    let steps = w["steps"].as_array().unwrap();
    assert_eq!(steps.len(), raw_steps.len());
    let repeat = &steps[1];
    assert_eq!(repeat["type"], "repeat");
    assert_eq!(repeat["repeat"], raw_steps[1]["numberOfIterations"]);
    let raw_interval = &raw_steps[1]["workoutSteps"][0];
    let pace = pace_range(
        raw_interval["targetValueOne"].as_f64().unwrap(),
        raw_interval["targetValueTwo"].as_f64().unwrap(),
    );
    assert_eq!(pace, "4'15\"-4'25\"/km");
    assert_eq!(repeat["steps"][0]["target"], pace.as_str());
    assert_eq!(repeat["steps"][0]["end"], "800 m");
    assert_eq!(
        w["outline"],
        format!("Warm-up 2 km / Repeat 6×: Run 800 m @ {pace} · Recover 400 m / Cool-down 1.5 km")
    );
    // 2 km + 6 × (800 m + 400 m) + 1.5 km.
    assert_eq!(w["distance_steps_total_km"].as_f64(), Some(10.7));
    assert!(text.starts_with("Track Intervals 6x800m (running): Warm-up 2 km / Repeat 6×"), "{text}");
}

#[tokio::test]
async fn a_nested_repeat_workout_created_through_the_client_reads_back_in_words() {
    let h = Harness::start().await;
    let request: Workout = serde_json::from_str(NESTED_REQUEST).unwrap();
    let client = garmin::Client::from_store(h.store.clone()).unwrap();
    let created = client.workouts().create(&request).await.unwrap();
    let id = created.workout_id.unwrap();
    h.fake.clear_requests();

    let (text, data) = h.call_ok("get_workouts", json!({"workout_id": id})).await;
    let w = &data["workout"];
    let expected = "Warm-up until lap button / Run 10:00 @ HR zone 4 / Recover 400 m @ 120-140 bpm / \
        Run 50 kcal @ 4'10\"-4'46\"/km, 160-175 bpm / \
        Repeat 3×: (Repeat 4×: Run 400 m @ 3'20\"-3'42\"/km · Recover 200 m) · Rest 3:00 / \
        Cool-down until lap button";
    assert_eq!(w["outline"], expected);
    // The speeds the fixture sends slow-first (3.5/4.0 and 4.5/5.0 m/s) still read fast-slow.
    assert_eq!(pace_range(3.5, 4.0), "4'10\"-4'46\"/km");
    assert_eq!(pace_range(4.5, 5.0), "3'20\"-3'42\"/km");

    let steps = w["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 6);
    let outer = &steps[4];
    assert_eq!((outer["type"].as_str(), outer["repeat"].as_i64()), (Some("repeat"), Some(3)));
    let inner = &outer["steps"][0];
    assert_eq!((inner["type"].as_str(), inner["repeat"].as_i64()), (Some("repeat"), Some(4)));
    assert_eq!(inner["steps"][0]["text"], "Run 400 m @ 3'20\"-3'42\"/km");
    assert_eq!(inner["steps"][1]["end"], "200 m");
    assert_eq!(outer["steps"][1]["text"], "Rest 3:00");
    let secondary = &steps[3];
    assert_eq!(secondary["end"], "50 kcal");
    assert_eq!(secondary["target"], "4'10\"-4'46\"/km");
    assert_eq!(secondary["secondary_target"], "160-175 bpm");
    assert_eq!(steps[0]["end"], "until lap button");
    // 10:00 + 3 × 3:00 of timed steps; 400 m + 3 × 4 × (400 + 200) m of distance steps.
    assert_eq!(w["timed_steps_total"], "19:00");
    assert_eq!(w["distance_steps_total_km"].as_f64(), Some(7.6));
    assert!(text.starts_with("MEGA RUN - Complete API Test (running): Warm-up until lap button"), "{text}");
}

#[tokio::test]
async fn swim_and_strength_workouts_name_strokes_and_exercises() {
    let h = Harness::start().await;
    let (_, swim) = h.call_ok("get_workouts", json!({"workout_id": 800_000_004})).await;
    let w = &swim["workout"];
    assert_eq!(w["pool_length"], "25 m");
    assert_eq!(w["steps"][1]["steps"][0]["stroke"], "freestyle");
    assert_eq!(w["steps"][1]["steps"][0]["text"], "Swim 100 m freestyle");
    assert_eq!(w["steps"][0]["stroke"], "any stroke");
    let (_, strength) = h.call_ok("get_workouts", json!({"workout_id": 800_000_005})).await;
    let set = &strength["workout"]["steps"][1]["steps"][0];
    assert_eq!(set["exercise"], "Barbell back squat", "Garmin's display name from the catalogue");
    assert_eq!(set["end"], "10 reps");
}

#[tokio::test]
async fn the_editors_heart_rate_end_and_cadence_target_read_in_words() {
    let h = Harness::start().await;
    let (_, data) = h.call_ok("get_workouts", json!({"workout_id": 800_000_006})).await;
    let steps = data["workout"]["steps"].as_array().unwrap();
    assert_eq!(steps[1]["target"], "5'50\"-6'00\"/km");
    assert_eq!(steps[2]["target"], "HR zone 2");
    assert_eq!(steps[3]["end"], "until HR below 150 bpm");
    assert_eq!(steps[3]["target"], "175-185 spm");
}

#[tokio::test]
async fn an_unknown_workout_id_is_a_tool_error_naming_it() {
    let h = Harness::start().await;
    let message = h.call_err("get_workouts", json!({"workout_id": 123})).await;
    assert_eq!(message, "No workout 123 in your library.");
}

#[tokio::test]
async fn bad_limits_are_protocol_errors() {
    let h = Harness::start().await;
    let err = h.call_invalid("get_workouts", json!({"limit": 0})).await;
    assert!(err.contains("limit must be 1–100"), "{err}");
    let err = h.call_invalid("get_workouts", json!({"limit": 500})).await;
    assert!(err.contains("limit"), "{err}");
    assert!(h.gc_api_paths().is_empty());
}

#[tokio::test]
async fn an_expired_session_and_a_429_mid_call_still_answer() {
    let h = Harness::start().await;
    h.fake.expire_access_tokens();
    h.fake.push_fault(
        FaultRule::times(Fault::RateLimited { retry_after_secs: Some(1) }, 1).on_path("trainingplan"),
    );
    let (_, data) = h.call_ok("get_workouts", json!({})).await;
    assert_eq!(data["library"].as_array().unwrap().len(), library(&h).len());
    assert!(data.get("training_plans_note").is_none(), "the retried plans read succeeded");
    assert!(h.fake.requests().iter().any(|r| r.status == 429));

    h.fake.push_fault(FaultRule::times(Fault::ExpireSession, 1).on_path("workout-service/workout/"));
    let (_, data) = h.call_ok("get_workouts", json!({"workout_id": INTERVALS_ID})).await;
    assert_eq!(data["workout"]["workout_id"], INTERVALS_ID);
}

#[tokio::test]
async fn training_plans_failing_leaves_the_library_answer_with_a_note() {
    let h = Harness::start().await;
    h.fake.push_fault(FaultRule::always(Fault::ServerError(503)).on_path("trainingplan"));
    let (text, data) = h.call_ok("get_workouts", json!({})).await;
    assert!(!data["library"].as_array().unwrap().is_empty());
    assert!(data["training_plans_note"].as_str().unwrap().starts_with("Training plans could not be read"));
    assert!(text.contains("Training plans could not be read"), "{text}");
}

#[tokio::test]
async fn library_and_workout_answers_fit_the_budget() {
    let h = Harness::start().await;
    let mut sizes: Vec<(String, usize)> = Vec::new();
    let result = h.call("get_workouts", json!({})).await;
    sizes.push(("library".into(), all_text(&result).len()));
    for (id, _, _) in library(&h) {
        let result = h.call("get_workouts", json!({"workout_id": id})).await;
        sizes.push((id.to_string(), all_text(&result).len()));
    }
    for (what, size) in &sizes {
        assert!(*size <= output::BUDGET_BYTES, "{what}: {size} bytes");
    }
    eprintln!("get_workouts sizes: {sizes:?}");
}
