//! Downloads: the activity zip holds the real recorded FIT byte for byte; GPX/TCX/KML parse as
//! XML and carry the activity's samples; CSV lists the laps; workout FIT and wellness zips. And
//! what garmin-connect-export saw the real Garmin do (docs/garmin-web-api.md §0): uploads keep
//! their GPX/TCX as the original, manual entries have none, no GPS means no GPX (204), and a TCX
//! of a GPX upload is a 500.

use std::io::{Cursor, Read};

use quick_xml::Reader;
use quick_xml::events::Event;
use reqwest::StatusCode;

use crate::support::{Api, today, type_key, yesterday};

const RUN_FIT: &[u8] = include_bytes!("../../fixtures/fit/activity_run_fenix5.fit");
const OTHER_FIT: &[u8] = include_bytes!("../../fixtures/fit/activity_yoga_garth.fit");
const WORKOUT_FIT: &[u8] = include_bytes!("../../fixtures/fit/workout_repeat_steps.fit");

/// `(name, bytes)` of every file in a zip.
fn unzip(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).expect("a zip");
    (0..zip.len())
        .map(|i| {
            let mut f = zip.by_index(i).expect("entry");
            let mut out = Vec::new();
            f.read_to_end(&mut out).expect("read");
            (f.name().expect("entry name").into_owned(), out)
        })
        .collect()
}

/// Counts start/empty elements named `tag` in a well-formed XML document (panics otherwise).
fn count_elements(xml: &[u8], tag: &str) -> usize {
    let mut reader = Reader::from_reader(xml);
    let mut buf = Vec::new();
    let mut n = 0;
    loop {
        match reader.read_event_into(&mut buf) {
            Ok(Event::Start(e) | Event::Empty(e)) if e.name().as_ref() == tag => n += 1,
            Ok(Event::Eof) => return n,
            Ok(_) => {}
            Err(e) => panic!("not XML at {}: {e}", reader.buffer_position()),
        }
        buf.clear();
    }
}

#[tokio::test]
async fn the_activity_zip_holds_the_recorded_fit_file() {
    let api = Api::start().await;
    let run = api.newest(|a| type_key(a) == "running").await;
    let id = run["activityId"].as_u64().expect("id");
    let (status, kind, bytes) = api.download(&format!("/download-service/files/activity/{id}")).await;
    assert_eq!((status, kind.as_str()), (StatusCode::OK, "application/zip"));
    assert_eq!(unzip(&bytes), vec![(format!("{id}_ACTIVITY.fit"), RUN_FIT.to_vec())]);
    let swim = api.newest(|a| type_key(a) == "lap_swimming").await["activityId"].as_u64().expect("id");
    let (_, _, bytes) = api.download(&format!("/download-service/files/activity/{swim}")).await;
    assert_eq!(unzip(&bytes)[0].1, OTHER_FIT);
    assert_eq!(api.download("/download-service/files/activity/123").await.0, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn gpx_parses_as_xml_with_one_trackpoint_per_sample() {
    let api = Api::start().await;
    let run = api.newest(|a| type_key(a) == "running").await;
    let id = run["activityId"].as_u64().expect("id");
    let samples = api.get(&format!("/activity-service/activity/{id}/details?maxChartSize=100000")).await["totalMetricsCount"].as_u64().expect("count");
    let (status, kind, gpx) = api.download(&format!("/download-service/export/gpx/activity/{id}")).await;
    assert_eq!((status, kind.as_str()), (StatusCode::OK, "application/gpx+xml"));
    assert_eq!(count_elements(&gpx, "trkpt") as u64, samples);
    assert_eq!(count_elements(&gpx, "ns3:hr") as u64, samples);
    let (_, _, tcx) = api.download(&format!("/download-service/export/tcx/activity/{id}")).await;
    assert_eq!(count_elements(&tcx, "Lap") as u64, run["lapCount"].as_u64().expect("laps"));
    assert!(count_elements(&tcx, "Trackpoint") as u64 >= samples);
    let (_, _, kml) = api.download(&format!("/download-service/export/kml/activity/{id}")).await;
    assert_eq!(count_elements(&kml, "LineString"), 1);
    let (_, kind, csv) = api.download(&format!("/download-service/export/csv/activity/{id}")).await;
    let text = String::from_utf8(csv).expect("utf-8");
    assert_eq!(kind, "text/csv");
    assert_eq!(
        text.lines().count() as u64,
        run["lapCount"].as_u64().expect("laps") + 2,
        "header, laps, summary"
    );
    assert!(text.lines().last().is_some_and(|l| l.starts_with("Summary,")));
    assert_eq!(
        api.download(&format!("/download-service/export/fit/activity/{id}")).await.0,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn workout_fit_and_wellness_zip_are_served() {
    let api = Api::start().await;
    let (status, _, fit) = api.download("/workout-service/workout/FIT/800000001").await;
    assert_eq!((status, fit.as_slice()), (StatusCode::OK, WORKOUT_FIT));
    assert_eq!(api.download("/workout-service/workout/FIT/1").await.0, StatusCode::NOT_FOUND);
    let (status, kind, zip) =
        api.download(&format!("/download-service/files/wellness/{}", yesterday())).await;
    assert_eq!((status, kind.as_str()), (StatusCode::OK, "application/zip"));
    assert!(unzip(&zip)[0].0.ends_with("_SLEEP_DATA.fit"));
    assert_eq!(api.download("/download-service/files/wellness/2019-01-01").await.0, StatusCode::NOT_FOUND);
}

/// The first activity from 120 days ago on whose `metadataDTO.fileFormat.formatKey` is `key`.
async fn uploaded_as(api: &Api, key: &str) -> u64 {
    let from = (today() - chrono::Duration::days(120)).to_string();
    for a in api.all_activities().await {
        let day = a["startTimeLocal"].as_str().unwrap_or_default();
        if day < from.as_str() || !matches!(type_key(&a), "running" | "cycling") {
            continue;
        }
        let id = a["activityId"].as_u64().expect("id");
        let full = api.get(&format!("/activity-service/activity/{id}")).await;
        if full["metadataDTO"]["fileFormat"]["formatKey"] == key {
            return id;
        }
    }
    panic!("no activity uploaded as {key}")
}

#[tokio::test]
async fn uploads_manual_entries_and_activities_without_gps_download_like_the_real_garmin() {
    let api = Api::start().await;
    // A GPX upload: its original is the GPX file, its TCX export is a 500, its GPX is served.
    let gpx = uploaded_as(&api, "gpx").await;
    let (status, kind, bytes) = api.download(&format!("/download-service/files/activity/{gpx}")).await;
    assert_eq!((status, kind.as_str()), (StatusCode::OK, "application/zip"));
    let members = unzip(&bytes);
    assert_eq!(members.len(), 1);
    assert_eq!(members[0].0, format!("{gpx}_ACTIVITY.gpx"));
    assert!(count_elements(&members[0].1, "trkpt") > 0);
    let tcx_of_gpx = api.download(&format!("/download-service/export/tcx/activity/{gpx}")).await;
    assert_eq!(tcx_of_gpx.0, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(api.download(&format!("/download-service/export/gpx/activity/{gpx}")).await.0, StatusCode::OK);

    // A TCX upload: its original is the TCX file.
    let tcx = uploaded_as(&api, "tcx").await;
    let (_, _, bytes) = api.download(&format!("/download-service/files/activity/{tcx}")).await;
    let members = unzip(&bytes);
    assert_eq!(members[0].0, format!("{tcx}_ACTIVITY.tcx"));
    assert!(count_elements(&members[0].1, "Lap") > 0);

    // A manual entry: no original, no file format, flagged in the list and the activity.
    let manual = api.newest(|a| a["manualActivity"] == true).await;
    let id = manual["activityId"].as_u64().expect("id");
    assert_eq!(type_key(&manual), "strength_training");
    let full = api.get(&format!("/activity-service/activity/{id}")).await;
    assert_eq!(
        (full["metadataDTO"]["manualActivity"].clone(), full["metadataDTO"]["fileFormat"].clone()),
        (serde_json::json!(true), serde_json::Value::Null)
    );
    assert_eq!(
        api.download(&format!("/download-service/files/activity/{id}")).await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(api.all_activities().await.iter().filter(|a| a["manualActivity"] == true).count(), 1);

    // No GPS: the GPX export is 204 with no body; the other exports still answer.
    let swim = api.newest(|a| type_key(a) == "lap_swimming").await["activityId"].as_u64().expect("id");
    let (status, _, body) = api.download(&format!("/download-service/export/gpx/activity/{swim}")).await;
    assert_eq!((status, body.len()), (StatusCode::NO_CONTENT, 0));
    assert_eq!(
        api.download(&format!("/download-service/export/csv/activity/{swim}")).await.0,
        StatusCode::OK
    );
}
