//! Run: `cargo test -p garmin --test api downloads::`.
//!
//! Downloads: the original FIT unzipped, exports, a workout's FIT and the wellness zip; and the
//! real service's odd answers (docs/garmin-web-api.md §0, garmin-connect-export) as the fake
//! reproduces them: a GPX/TCX upload's original is that file, a GPX without GPS is 204 (`None`),
//! a TCX of a GPX upload is a 500 asked once, a manual activity has no original (404).

use fake_garmin::data::activity::{Activity, Origin, Sport};
use garmin::api::ActivitySearch;
use garmin::models::downloads::{ExportFormat, OriginalFormat};

use super::support::{start, today};

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
    let original = env.client.downloads().activity_original(id).await.unwrap();
    assert_eq!(original.format, OriginalFormat::Fit);
    let file = original.file;
    assert_eq!(file.file_name, format!("{id}_ACTIVITY.fit"));
    // The fake writes each activity's original from its own samples (`fake_garmin::data::fit`).
    let expected = {
        let data = env.fake.state().inner.data.read().unwrap();
        fake_garmin::data::fit::original(data.activity(id).unwrap()).unwrap()
    };
    assert_eq!(file.bytes, expected);

    let gpx = env.client.downloads().export(id, ExportFormat::Gpx).await.unwrap().unwrap();
    assert_eq!(gpx.file_name, format!("{id}.gpx"));
    assert!(String::from_utf8_lossy(&gpx.bytes).contains("<gpx"));
    let csv = env.client.downloads().export(id, "csv".parse().unwrap()).await.unwrap().unwrap();
    assert!(!csv.bytes.is_empty());
    assert!(matches!(env.client.downloads().activity_original(1).await, Err(garmin::Error::NotFound { .. })));
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

fn fake_activity(env: &super::support::Env, keep: impl Fn(&Activity) -> bool) -> Activity {
    let data = env.fake.state().inner.data.read().unwrap();
    data.live().rev().find(|a| keep(a)).cloned().expect("the fake has one")
}

#[tokio::test]
async fn the_original_of_a_gpx_or_tcx_upload_is_that_file_and_the_activity_says_so() {
    let env = start().await;
    for (origin, format, key) in
        [(Origin::GpxUpload, OriginalFormat::Gpx, "gpx"), (Origin::TcxUpload, OriginalFormat::Tcx, "tcx")]
    {
        let upload = fake_activity(&env, |a| a.origin == origin);
        let original = env.client.downloads().activity_original(upload.id).await.unwrap();
        assert_eq!(original.format, format);
        assert_eq!(original.file.file_name, format!("{}_ACTIVITY.{key}", upload.id));
        assert_eq!(original.file.content_type, format.content_type());
        assert!(String::from_utf8_lossy(&original.file.bytes).starts_with("<?xml"));
        let activity = env.client.activities().get(upload.id).await.unwrap();
        let metadata = activity.metadata.unwrap();
        assert_eq!(metadata.upload_format().as_deref(), Some(key));
        assert_eq!(metadata.manual_activity, Some(false));
    }
}

#[tokio::test]
async fn a_gpx_without_gps_is_none_and_a_tcx_of_a_gpx_upload_is_a_500_asked_once() {
    let env = start().await;
    let swim = fake_activity(&env, |a| a.sport() == Sport::Swimming);
    env.fake.clear_requests();
    assert_eq!(env.client.downloads().export(swim.id, ExportFormat::Gpx).await.unwrap(), None);
    assert_eq!(env.requests_to("/export/gpx/")[0].status, 204);
    assert!(env.client.downloads().export(swim.id, ExportFormat::Csv).await.unwrap().is_some());

    let upload = fake_activity(&env, |a| a.origin == Origin::GpxUpload);
    env.fake.clear_requests();
    let err = env.client.downloads().export(upload.id, ExportFormat::Tcx).await.unwrap_err();
    assert!(matches!(err, garmin::Error::Server { status: 500, .. }), "{err}");
    let asked: Vec<u16> = env.requests_to("/export/tcx/").iter().map(|r| r.status).collect();
    assert_eq!(asked, [500], "a converter's 500 is not retried");
    assert!(env.client.downloads().export(upload.id, ExportFormat::Gpx).await.unwrap().is_some());
}

#[tokio::test]
async fn a_manual_activity_has_no_original_file() {
    let env = start().await;
    let manual = fake_activity(&env, |a| a.origin == Origin::Manual);
    let err = env.client.downloads().activity_original(manual.id).await.unwrap_err();
    assert!(matches!(err, garmin::Error::NotFound { .. }), "{err}");
    let activity = env.client.activities().get(manual.id).await.unwrap();
    let metadata = activity.metadata.unwrap();
    assert_eq!(metadata.manual_activity, Some(true));
    assert_eq!(metadata.upload_format(), None);
}
