//! Downloads: the activity zip holds the real recorded FIT byte for byte; GPX/TCX/KML parse as
//! XML and carry the activity's samples; CSV lists the laps; workout FIT and wellness zips.

use std::io::{Cursor, Read};

use quick_xml::Reader;
use quick_xml::events::Event;
use reqwest::StatusCode;

use crate::support::{Api, type_key, yesterday};

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
