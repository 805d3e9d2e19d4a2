//! Run: `cargo test -p garmin --test api activities::`.
//!
//! Activities: search, paging through a date range, one activity and its charts, rename, delete.

use garmin::Error;
use garmin::api::{ActivitySearch, SortOrder};

use super::support::{day, start, today};

#[tokio::test]
async fn search_returns_newest_first_and_reads_one_activity() {
    let env = start().await;
    let api = env.client.activities();
    let page = api.search(&ActivitySearch::new().limit(5)).await.unwrap();
    assert_eq!(page.len(), 5);
    let starts: Vec<_> = page.iter().map(|a| a.start_time_gmt.unwrap()).collect();
    assert!(starts.windows(2).all(|w| w[0] >= w[1]), "newest first");
    assert!(api.count().await.unwrap() >= 100);

    let run = api.search(&ActivitySearch::new().limit(1).activity_type("running")).await.unwrap().remove(0);
    let id = run.activity_id.unwrap();
    let full = api.get(id).await.unwrap();
    assert_eq!(full.activity_id, Some(id));
    assert_eq!(full.type_key(), Some("running"));
    let figures = full.summary.unwrap();
    assert!(figures.distance.unwrap() > 1000.0);
    assert!(figures.average_hr.unwrap() > 60.0);

    let details = api.details(id, 50).await.unwrap().unwrap();
    assert!(!details.activity_detail_metrics.is_empty() && details.activity_detail_metrics.len() <= 50);
    let hr = details.values("directHeartRate");
    assert!(hr.iter().flatten().any(|bpm| *bpm > 60.0));
    assert!(details.column("sumDistance").is_some());

    let laps = api.splits(id).await.unwrap().laps;
    assert!(!laps.is_empty());
    let total: f64 = laps.iter().filter_map(|l| l.distance).sum();
    assert!((total - run.distance.unwrap()).abs() < 50.0, "laps add up to the distance");

    let zones = api.hr_time_in_zones(id).await.unwrap();
    assert_eq!(zones.len(), 5);
    assert!(zones.iter().filter_map(|z| z.secs_in_zone).sum::<f64>() > 0.0);
    assert!(!api.power_time_in_zones(id).await.unwrap().is_empty());
    let weather = api.weather(id).await.unwrap().unwrap();
    assert!(weather.temp.is_some() && weather.issue_date.is_some());
    assert!(api.activity_types().await.unwrap().len() > 100);
}

#[tokio::test]
async fn strength_sets_are_read() {
    let env = start().await;
    let api = env.client.activities();
    let lift = api
        .search(&ActivitySearch::new().limit(1).activity_type("strength_training"))
        .await
        .unwrap()
        .remove(0);
    let sets = api.exercise_sets(lift.activity_id.unwrap()).await.unwrap().unwrap();
    let active: Vec<_> =
        sets.exercise_sets.iter().filter(|s| s.set_type.as_deref() == Some("ACTIVE")).collect();
    assert!(!active.is_empty());
    assert!(active[0].repetition_count.is_some() && active[0].weight.unwrap() > 0.0);
}

#[tokio::test]
async fn paging_walks_every_page_of_a_date_range() {
    let env = start().await;
    let api = env.client.activities();
    let (from, to) = (day(2026, 9, 1), day(2026, 10, 31));
    let search = ActivitySearch::new().limit(7).between(from, to).sort(SortOrder::Ascending);
    env.fake.clear_requests();
    let all = api.search_all(&search).await.unwrap();

    let pages = env.requests_to("/activities/search/activities");
    assert!(pages.len() >= 3, "several pages: {}", pages.len());
    let offsets: Vec<String> = pages.iter().map(|r| r.query.clone().unwrap_or_default()).collect();
    assert!(
        offsets[0].contains("start=0") && offsets[1].contains("start=7") && offsets[2].contains("start=14")
    );
    assert!(all.len() > 14 && all.len() < 7 * pages.len());
    let days: Vec<_> = all.iter().map(|a| a.start_time_local.unwrap().date()).collect();
    assert!(days.iter().all(|d| (from..=to).contains(d)));
    let mut ids: Vec<_> = all.iter().map(|a| a.activity_id.unwrap()).collect();
    ids.dedup();
    assert_eq!(ids.len(), all.len(), "no activity twice");

    let same = api.between(from, to, None).await.unwrap();
    assert_eq!(same.len(), all.len());
    let runs = api.between(from, to, Some("running")).await.unwrap();
    assert!(!runs.is_empty() && runs.len() < all.len());
    assert!(api.between(to, from, None).await.is_err());
}

#[tokio::test]
async fn rename_then_delete_and_unknown_ids_are_not_found() {
    let env = start().await;
    let api = env.client.activities();
    let latest = api.search(&ActivitySearch::new().limit(1)).await.unwrap().remove(0);
    let id = latest.activity_id.unwrap();

    api.rename(id, "Evening shakeout").await.unwrap();
    assert_eq!(api.get(id).await.unwrap().activity_name.as_deref(), Some("Evening shakeout"));
    assert!(matches!(api.rename(id, "  ").await, Err(Error::InvalidInput(_))));

    api.delete(id).await.unwrap();
    assert!(matches!(api.get(id).await, Err(Error::NotFound { .. })));
    assert!(matches!(api.get(1).await, Err(Error::NotFound { .. })));
    let newest =
        api.search(&ActivitySearch::new().limit(1).between(today() - chrono::Days::new(30), today())).await;
    assert_ne!(newest.unwrap()[0].activity_id, Some(id));
}

/// The first strength activity of the fake's account and its sets as read.
async fn a_strength_session(env: &super::support::Env) -> (u64, garmin::models::activities::ExerciseSets) {
    let lift = env
        .client
        .activities()
        .search(&ActivitySearch::new().limit(1).activity_type("strength_training"))
        .await
        .unwrap()
        .remove(0);
    let id = lift.activity_id.unwrap();
    (id, raw_sets(env, id).await)
}

/// The sets as read through the client.
async fn raw_sets(env: &super::support::Env, id: u64) -> garmin::models::activities::ExerciseSets {
    env.client.activities().exercise_sets(id).await.unwrap().unwrap()
}

/// The body the fake keeps from the last `PUT` of `id`'s sets.
fn stored_put(env: &super::support::Env, id: u64) -> serde_json::Value {
    env.fake.state().inner.data.read().unwrap().exercise_sets[&id].clone()
}

#[tokio::test]
async fn corrected_sets_are_put_in_grams_and_seconds_with_every_other_set_as_read() {
    use garmin::strength_edit::{SetCorrection, apply, check, saved_sets};
    let env = start().await;
    let (id, before) = a_strength_session(&env).await;
    let api = env.client.activities();
    let current = saved_sets(&before);
    let fix = SetCorrection {
        set: 1,
        exercise: Some("barbell row".into()),
        reps: Some(8),
        weight_lb: Some(135.0),
        duration_s: Some(31.5),
        ..SetCorrection::default()
    };
    let corrected = apply(&current, &check(&[fix]).unwrap()).unwrap();
    api.replace_exercise_sets(id, &corrected.sets).await.unwrap();

    let put = env.requests_to("/exerciseSets").into_iter().find(|r| r.method == "PUT").unwrap();
    assert_eq!(
        (put.path.as_str(), put.status),
        (&*format!("/gc-api/activity-service/activity/{id}/exerciseSets"), 204)
    );
    let new = stored_put(&env, id);
    let new = new.as_array().unwrap();
    let old = &before.exercise_sets;
    assert_eq!(old.len(), new.len(), "replace-all: the whole list goes back");
    let first = old.iter().position(|s| s.set_type.as_deref() == Some("ACTIVE")).unwrap();
    let set = &new[first];
    assert_eq!(
        set["exercises"],
        serde_json::json!([{"category": "ROW", "name": "BARBELL_ROW", "probability": 100.0}])
    );
    assert_eq!(set["weight"], 61235.0, "135 lb in grams");
    assert_eq!((set["repetitionCount"].as_u64(), set["duration"].as_f64()), (Some(8), Some(31.5)));
    assert_eq!(set["messageIndex"].as_i64(), old[first].message_index);
    let start = old[first].start_time.unwrap().format("%Y-%m-%dT%H:%M:%S.0").to_string();
    assert_eq!(set["startTime"], start.as_str(), "Garmin's own time form");
    let rest = new.iter().position(|s| s["setType"] == "REST").unwrap();
    assert_eq!(
        (&new[rest]["exercises"], &new[rest]["weight"], &new[rest]["repetitionCount"]),
        (&serde_json::json!([]), &serde_json::Value::Null, &serde_json::Value::Null)
    );
    let back = raw_sets(&env, id).await.exercise_sets;
    for (i, (a, b)) in old.iter().zip(&back).enumerate().filter(|(i, _)| *i != first) {
        assert_eq!(a, b, "set {i} goes back exactly as Garmin sent it");
    }
}

#[tokio::test]
async fn garmin_refuses_an_unknown_name_with_400_and_the_change_undoes_to_the_sets_read_before() {
    use garmin::changes::Change;
    use garmin::strength_edit::saved_sets;
    let env = start().await;
    let (id, before) = a_strength_session(&env).await;
    let mut sets = saved_sets(&before);
    let active = sets.iter().position(|s| s.set_type == "ACTIVE").unwrap();
    sets[active].exercises[0].name = Some("BARBEL_ROW".into());
    sets[active].exercises[0].category = "ROW".into();
    let refused =
        Change::CorrectStrengthSets { activity_id: id, sets: sets.clone() }.apply(&env.client).await;
    let Err(Error::Rejected { status: 400, message, .. }) = refused else {
        panic!("400 expected: {refused:?}")
    };
    assert!(
        message.contains("Invalid Sub-Category Passed") && message.contains("nothing was changed"),
        "{message}"
    );
    assert_eq!(raw_sets(&env, id).await, before, "a refused PUT changes nothing");

    let stale =
        Change::CorrectStrengthSets { activity_id: id, sets: sets[1..].to_vec() }.apply(&env.client).await;
    let Err(Error::InvalidInput(why)) = stale else { panic!("a stale correction is refused: {stale:?}") };
    assert!(why.contains("changed in Garmin Connect since"), "{why}");
    assert_eq!(raw_sets(&env, id).await, before);

    sets[active].exercises[0].name = Some("BARBELL_ROW".into());
    let applied = Change::CorrectStrengthSets { activity_id: id, sets }.apply(&env.client).await.unwrap();
    assert!(applied.summary.contains(&format!("strength activity {id}: 1 of")), "{}", applied.summary);
    assert_ne!(raw_sets(&env, id).await, before);
    applied.inverse.unwrap().apply(&env.client).await.unwrap();
    assert_eq!(raw_sets(&env, id).await, before, "the inverse restores the sets exactly");
}
