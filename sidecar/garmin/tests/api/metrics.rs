//! Run: `cargo test -p garmin --test api metrics::`.
//!
//! Training status, readiness, VO2max, predictions, scores, zones, fitness age, records.

use chrono::Days;
use garmin::models::metrics::TrainingReadiness;

use super::support::{day, start, today};

#[tokio::test]
async fn training_metrics_of_today() {
    let env = start().await;
    let api = env.client.metrics();
    let date = today() - Days::new(1);

    let status = api.training_status(date).await.unwrap().unwrap();
    let primary = status.primary_status().unwrap();
    assert!(primary.training_status_feedback_phrase.is_some());
    assert!(primary.acute_training_load.as_ref().unwrap().daily_training_load_acute.is_some());
    assert!(status.primary_load_balance().is_some());

    let readiness = api.training_readiness(date).await.unwrap();
    assert!(!readiness.is_empty());
    let latest = TrainingReadiness::latest(&readiness).unwrap();
    assert!((0.0..=100.0).contains(&latest.score.unwrap()));

    let vo2 = api.max_metrics(date - Days::new(13), date).await.unwrap();
    assert!(vo2.iter().any(|m| m.generic.as_ref().and_then(|g| g.vo2_max_precise_value).is_some()));
    assert!(api.max_metrics_latest(date).await.unwrap().is_some());

    let race = api.race_predictions().await.unwrap().unwrap();
    assert!(race.time_5k.unwrap() < race.time_10k.unwrap());
    assert!(race.time_half_marathon.unwrap() < race.time_marathon.unwrap());
    let lt = api.lactate_threshold().await.unwrap().unwrap();
    assert!(lt.heart_rate.is_some() && lt.speed.is_some());
    assert!(api.endurance_score(date).await.unwrap().unwrap().overall_score.is_some());
    let _ = api.hill_score(date).await.unwrap();
    let _ = api.hill_score_range(date - Days::new(6), date).await.unwrap();
    let zones = api.hr_zones().await.unwrap();
    assert!(zones[0].zone1_floor.unwrap() < zones[0].zone5_floor.unwrap());
    assert!(api.fitness_age(date).await.unwrap().unwrap().fitness_age.is_some());
}

#[tokio::test]
async fn metrics_without_data_are_empty() {
    let env = start().await;
    let api = env.client.metrics();
    let long_ago = day(2020, 1, 1);
    assert!(api.training_readiness(long_ago).await.unwrap().is_empty());
    assert!(api.training_status(long_ago).await.unwrap().is_none());
    assert!(api.endurance_score(long_ago).await.unwrap().is_none());
}

#[tokio::test]
async fn personal_records_and_their_types() {
    let env = start().await;
    let records = env.client.records().personal_records().await.unwrap();
    assert!(!records.is_empty());
    let five_k = records.iter().find(|r| r.type_id == Some(3)).expect("a 5 km record");
    assert!(five_k.value.unwrap() > 600.0 && five_k.activity_id.is_some());
    let types = env.client.records().types().await.unwrap();
    assert!(types.iter().any(|t| t.id == Some(3)));
}
