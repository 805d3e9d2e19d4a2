//! Run: `cargo test -p fake-garmin --test endpoints workouts::`.
//!
//! Workout writes as Garmin does them (reference §5): nested `stepOrder` renumbered depth first,
//! new 10–11 digit step ids, `childStepId` per repeat group, floats, long names cut, invalid
//! bodies refused; full-replace updates; schedules by `workoutScheduleId` that show in the month
//! feed and vanish with their workout.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::support::{Api, fixture};

/// `(type, stepOrder, childStepId, children)` of every step, depth first.
fn skeleton(steps: &Value) -> Vec<Value> {
    steps
        .as_array()
        .map(|l| {
            l.iter()
                .map(|s| json!([s["type"], s["stepOrder"], s["childStepId"], skeleton(&s["workoutSteps"])]))
                .collect()
        })
        .unwrap_or_default()
}

fn step_ids(steps: &Value, out: &mut Vec<u64>) {
    for s in steps.as_array().into_iter().flatten() {
        out.extend(s["stepId"].as_u64());
        step_ids(&s["workoutSteps"], out);
    }
}

#[tokio::test]
async fn workout_create_renumbers_nested_repeats_like_garmin() {
    let api = Api::start().await;
    let (status, w) = api
        .post("/workout-service/workout", &fixture("workout_create_request_running_nested_repeats.json"))
        .await;
    assert_eq!(status, StatusCode::OK, "{w}");
    let expected = fixture("workout_create_response_running_nested_repeats.json");
    let steps = &w["workoutSegments"][0]["workoutSteps"];
    assert_eq!(skeleton(steps), skeleton(&expected["workoutSegments"][0]["workoutSteps"]));
    let mut ids = Vec::new();
    step_ids(steps, &mut ids);
    assert_eq!(ids.len(), 10);
    assert!(ids.iter().all(|i| (1_000_000_000..100_000_000_000).contains(i)), "{ids:?}");
    assert!(ids.windows(2).all(|p| p[0] != p[1]));
    assert!(
        steps[0]["endConditionValue"].is_f64() && steps[3]["targetValueOne"].is_f64(),
        "numbers come back as floats"
    );
    assert_eq!(steps[1]["zoneNumber"], 4);
    assert_eq!(steps[0]["stepType"], json!({"stepTypeId": 1, "stepTypeKey": "warmup", "displayOrder": 1}));
    assert_eq!(w["author"]["displayName"], api.display_name.as_str());
    assert_eq!(w["ownerId"], 1_000_001);
    assert!(w["workoutId"].is_u64() && w["createdDate"].as_str().is_some_and(|d| d.ends_with(".0")));
    let list = api.get("/workout-service/workouts?start=0&limit=1&myWorkoutsOnly=true").await;
    assert_eq!(list[0]["workoutId"], w["workoutId"], "the new workout lists first");
    assert!(list[0].get("workoutSegments").is_none());
}

#[tokio::test]
async fn workout_names_over_255_characters_are_cut_to_253_plus_dots() {
    let api = Api::start().await;
    let (status, w) =
        api.post("/workout-service/workout", &fixture("workout_create_request_edge_cases.json")).await;
    assert_eq!(status, StatusCode::OK);
    let name = w["workoutName"].as_str().expect("name");
    assert_eq!(
        name,
        fixture("workout_create_response_edge_cases.json")["workoutName"].as_str().expect("name")
    );
    assert_eq!(name.chars().count(), 256);
}

#[tokio::test]
async fn invalid_workout_bodies_are_refused_with_400() {
    let api = Api::start().await;
    let good = fixture("workout_create_request_running_nested_repeats.json");
    let mut cases: Vec<(&str, Value)> = Vec::new();
    let mut edit = |why: &'static str, f: &dyn Fn(&mut Value)| {
        let mut v = good.clone();
        f(&mut v);
        cases.push((why, v));
    };
    edit("empty name", &|v| v["workoutName"] = json!("  "));
    edit("unknown sport", &|v| v["sportType"] = json!({"sportTypeId": 99, "sportTypeKey": "quidditch"}));
    edit("no segments", &|v| v["workoutSegments"] = json!([]));
    edit("no steps", &|v| v["workoutSegments"][0]["workoutSteps"] = json!([]));
    edit("unknown step type", &|v| {
        v["workoutSegments"][0]["workoutSteps"][0]["stepType"] = json!({"stepTypeId": 42})
    });
    edit("unknown end condition", &|v| {
        v["workoutSegments"][0]["workoutSteps"][0]["endCondition"] = json!({"conditionTypeId": 77})
    });
    edit("unknown target", &|v| {
        v["workoutSegments"][0]["workoutSteps"][0]["targetType"] = json!({"workoutTargetTypeId": 99})
    });
    edit("unknown step kind", &|v| v["workoutSegments"][0]["workoutSteps"][0]["type"] = json!("MysteryDTO"));
    edit("sub sport", &|v| v["subSportType"] = json!({"subSportTypeId": 3}));
    cases.push(("not an object", json!([1, 2])));
    let before = api.get("/workout-service/workouts?start=0&limit=1000").await.as_array().map(Vec::len);
    for (why, body) in cases {
        let (status, err) = api.post("/workout-service/workout", &body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{why}: {err}");
        assert_eq!(err["error"], "BadRequestException", "{why}");
    }
    let res = api.call(reqwest::Method::POST, "/workout-service/workout", None).await;
    assert_eq!(res.status(), StatusCode::BAD_REQUEST, "empty body");
    assert_eq!(
        api.get("/workout-service/workouts?start=0&limit=1000").await.as_array().map(Vec::len),
        before,
        "nothing stored"
    );
}

#[tokio::test]
async fn workout_update_replaces_the_whole_workout() {
    let api = Api::start().await;
    let (_, w) =
        api.post("/workout-service/workout", &fixture("workout_create_request_strength_reps.json")).await;
    let id = w["workoutId"].as_u64().expect("id");
    let mut edited = w.clone();
    edited["workoutName"] = json!("Leg day");
    edited["workoutSegments"][0]["workoutSteps"] =
        json!([w["workoutSegments"][0]["workoutSteps"][0].clone()]);
    let (status, _) = api.put(&format!("/workout-service/workout/{id}"), &edited).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let back = api.get(&format!("/workout-service/workout/{id}")).await;
    assert_eq!(back["workoutName"], "Leg day");
    assert_eq!(back["workoutSegments"][0]["workoutSteps"].as_array().map(Vec::len), Some(1));
    assert_eq!(back["createdDate"], w["createdDate"]);
    let (status, _) = api.put("/workout-service/workout/123", &edited).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "workoutId in the body must match the path");
    edited["workoutId"] = json!(123);
    let (status, _) = api.put("/workout-service/workout/123", &edited).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn scheduling_a_workout_shows_it_in_the_month_feed() {
    let api = Api::start().await;
    let (_, w) = api
        .post("/workout-service/workout", &fixture("workout_create_request_cycling_power_cadence.json"))
        .await;
    let id = w["workoutId"].as_u64().expect("id");
    let (status, s) =
        api.post(&format!("/workout-service/schedule/{id}"), &json!({"date": "2026-04-02"})).await;
    assert_eq!(status, StatusCode::OK, "{s}");
    let sid = s["workoutScheduleId"].as_u64().expect("workoutScheduleId");
    assert_eq!(s["calendarDate"], "2026-04-02");
    assert_eq!(s["workout"]["workoutId"], id);
    assert_eq!(api.get(&format!("/workout-service/schedule/{sid}")).await["workoutScheduleId"], sid);
    let april = api.get("/calendar-service/year/2026/month/3").await;
    let item = april["calendarItems"]
        .as_array()
        .and_then(|l| l.iter().find(|i| i["id"] == sid))
        .cloned()
        .expect("scheduled item in April (month 3)");
    assert_eq!(
        (item["itemType"].clone(), item["workoutId"].clone(), item["date"].clone()),
        (json!("workout"), json!(id), json!("2026-04-02"))
    );
    let q = json!({"query": "query{workoutScheduleSummariesScalar(startDate:\"2026-04-01\", endDate:\"2026-04-03\")}"});
    let (_, gql) = api.post("/graphql-gateway/graphql", &q).await;
    assert!(
        gql["data"]["workoutScheduleSummariesScalar"]
            .as_array()
            .is_some_and(|l| l.iter().any(|x| x["scheduledWorkoutId"] == sid))
    );
    assert_eq!(api.delete(&format!("/workout-service/schedule/{sid}")).await, StatusCode::NO_CONTENT);
    assert_eq!(api.status(&format!("/workout-service/schedule/{sid}")).await, StatusCode::NOT_FOUND);
    let (status, _) =
        api.post(&format!("/workout-service/schedule/{id}"), &json!({"date": "next tuesday"})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = api.post("/workout-service/schedule/777", &json!({"date": "2026-04-02"})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn deleting_a_workout_drops_its_schedules() {
    let api = Api::start().await;
    let (_, w) =
        api.post("/workout-service/workout", &fixture("workout_create_request_hr_zone_repeat.json")).await;
    let id = w["workoutId"].as_u64().expect("id");
    let mut sids = Vec::new();
    for day in ["2026-03-20", "2026-03-27"] {
        let (_, s) = api.post(&format!("/workout-service/schedule/{id}"), &json!({"date": day})).await;
        sids.push(s["workoutScheduleId"].as_u64().expect("id"));
    }
    assert_eq!(api.delete(&format!("/workout-service/workout/{id}")).await, StatusCode::NO_CONTENT);
    assert_eq!(api.status(&format!("/workout-service/workout/{id}")).await, StatusCode::NOT_FOUND);
    for sid in sids {
        assert_eq!(api.status(&format!("/workout-service/schedule/{sid}")).await, StatusCode::NOT_FOUND);
    }
    let march = api.get("/calendar-service/year/2026/month/2").await;
    assert!(march["calendarItems"].as_array().expect("items").iter().all(|i| i["workoutId"] != id));
    assert_eq!(api.delete(&format!("/workout-service/workout/{id}")).await, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn the_library_is_seeded_and_interval_runs_follow_its_workout() {
    let api = Api::start().await;
    let list = api.get("/workout-service/workouts?start=0&limit=100").await;
    let names: Vec<&str> =
        list.as_array().expect("list").iter().filter_map(|w| w["workoutName"].as_str()).collect();
    assert!(names.contains(&"Track Intervals 6x800m") && names.contains(&"Run Workout"), "{names:?}");
    let intervals = api.get("/workout-service/workout/800000001").await;
    assert_eq!(intervals["workoutSegments"][0]["workoutSteps"][1]["type"], "RepeatGroupDTO");
    let run = api.newest(|a| a["workoutId"] == 800_000_001).await;
    assert_eq!(run["activityType"]["typeKey"], "running");
    let types = api.get("/workout-service/workout/types").await;
    assert!(
        types["workoutSportTypes"]
            .as_array()
            .is_some_and(|l| l.iter().any(|s| s["sportTypeId"] == 4 && s["sportTypeKey"] == "swimming"))
    );
}

/// The Garmin Coach plan (`data::coach`): listed with its category, detailed by `fbt-adaptive/{id}`
/// with the goal race of the calendar's primary event, four workouts a week and its phases; each
/// past plan workout is `COMPLETE` exactly when the activity list holds a run on its day.
#[tokio::test]
async fn the_garmin_coach_plan_leads_to_the_primary_race_and_is_complete_on_the_days_run() {
    let api = Api::start().await;
    let list = api.get("/trainingplan-service/trainingplan/plans").await;
    let plan = &list["trainingPlanList"][0];
    assert_eq!(
        (plan["trainingPlanCategory"].as_str(), list["totalCount"].as_u64()),
        (Some("FBT_ADAPTIVE"), Some(1))
    );
    assert!(plan.get("taskList").is_none(), "the list form has no workouts: {plan}");
    let id = plan["trainingPlanId"].as_u64().expect("id");
    assert_eq!(
        api.status(&format!("/trainingplan-service/trainingplan/phased/{id}")).await,
        StatusCode::NOT_FOUND
    );
    let detail = api.get(&format!("/trainingplan-service/trainingplan/fbt-adaptive/{id}")).await;
    let race = &detail["trainingPlanDetailsDTO"]["athleteRace"];
    let today = crate::support::today().to_string();
    let events = api
        .get(&format!("/calendar-service/events?startDate={today}&endDate=2099-12-31&limit=50&pageIndex=1"))
        .await;
    let primary = events
        .as_array()
        .expect("events")
        .iter()
        .find(|e| e["eventCustomization"]["isPrimaryEvent"] == true)
        .cloned()
        .expect("a primary race");
    assert_eq!((&race["raceName"], &race["raceDay"]), (&primary["eventName"], &primary["date"]));
    assert_eq!(detail["trainingPlanDetailsDTO"]["workoutsPerWeek"], 4);
    let current: Vec<&Value> = detail["adaptivePlanPhases"]
        .as_array()
        .expect("phases")
        .iter()
        .filter(|p| p["currentPhase"] == true)
        .collect();
    assert_eq!(current.len(), 1, "{detail}");
    let tasks = detail["taskList"].as_array().expect("tasks");
    let first = tasks[0]["calendarDate"].as_str().expect("date").to_owned();
    let acts = api
        .get(&format!(
            "/activitylist-service/activities/search/activities?startDate={first}&endDate={}&limit=200",
            crate::support::yesterday()
        ))
        .await;
    let ran = |day: &str| {
        acts.as_array().expect("acts").iter().any(|a| {
            a["activityType"]["typeKey"] == "running"
                && a["startTimeLocal"].as_str().is_some_and(|t| t.starts_with(day))
        })
    };
    let past: Vec<&Value> =
        tasks.iter().filter(|t| t["calendarDate"].as_str() < Some(today.as_str())).collect();
    assert!(past.len() >= 14, "about a month of plan workouts: {}", past.len());
    for t in past {
        let day = t["calendarDate"].as_str().expect("date");
        let complete = t["taskWorkout"]["adaptiveCoachingWorkoutStatus"] == "COMPLETE";
        assert_eq!(complete, ran(day), "{day}");
    }
}
