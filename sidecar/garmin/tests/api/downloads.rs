//! Downloads: the original FIT unzipped, exports, a workout's FIT and the wellness zip.

use garmin::api::ActivitySearch;
use garmin::models::downloads::ExportFormat;

use super::support::{start, today};

const RUN_FIT: &[u8] = include_bytes!("../../../../tests/fake-garmin/fixtures/fit/activity_run_fenix5.fit");

#[tokio::test]
async fn the_original_fit_of_a_run_is_unzipped() {
    let env = start().await;
    let run = env
        .client
        .activities()
        .search(&ActivitySearch::new().limit(1).activity_type("running"))
        .await
        .unwrap()
        .remove(0);
    let id = run.activity_id.unwrap();
    let file = env.client.downloads().activity_fit(id).await.unwrap();
    assert_eq!(file.file_name, format!("{id}_ACTIVITY.fit"));
    assert_eq!(file.bytes, RUN_FIT);

    let gpx = env.client.downloads().export(id, ExportFormat::Gpx).await.unwrap();
    assert_eq!(gpx.file_name, format!("{id}.gpx"));
    assert!(String::from_utf8_lossy(&gpx.bytes).contains("<gpx"));
    let csv = env.client.downloads().export(id, "csv".parse().unwrap()).await.unwrap();
    assert!(!csv.bytes.is_empty());
    assert!(matches!(env.client.downloads().activity_fit(1).await, Err(garmin::Error::NotFound { .. })));
}

#[tokio::test]
async fn workout_fit_and_wellness_zip() {
    let env = start().await;
    let workout = env.client.workouts().list(0, 1).await.unwrap().remove(0);
    let fit = env.client.downloads().workout_fit(workout.workout_id.unwrap()).await.unwrap();
    assert_eq!(&fit.bytes[8..12], b".FIT");
    let zip = env.client.downloads().wellness(today() - chrono::Days::new(1)).await.unwrap().unwrap();
    assert_eq!(&zip.bytes[..2], b"PK");
    assert!(zip.file_name.ends_with("_WELLNESS.zip"));
}
