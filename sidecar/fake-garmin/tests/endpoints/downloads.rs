//! Run: `cargo test -p fake-garmin --test endpoints downloads::`.
//!
//! Downloads: the activity zip holds a FIT file written from the activity's own samples, laps and
//! totals (checked with `fitparser` and, when `.ci/.venv` has it, Garmin's FIT SDK, against the
//! web endpoints), and the oldest run's holds the real recorded fēnix 5 FIT byte for byte;
//! GPX/TCX/KML parse as XML and carry the activity's samples; CSV lists the laps; workout FIT and
//! wellness zips. And
//! what garmin-connect-export saw the real Garmin do (docs/garmin-web-api.md §0): uploads keep
//! their GPX/TCX as the original, manual entries have none, no GPS means no GPX (204), and a TCX
//! of a GPX upload is a 500.

use std::io::{Cursor, Read};
use std::path::PathBuf;
use std::process::Command;

use quick_xml::Reader;
use quick_xml::events::Event;
use reqwest::StatusCode;
use serde_json::Value;

use crate::support::{Api, today, type_key, yesterday};

const RUN_FIT: &[u8] = include_bytes!("../../fixtures/fit/activity_run_fenix5.fit");
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

/// The original file of activity `id` from the web download: a zip whose one member is
/// `{id}_ACTIVITY.fit`.
async fn original_fit(api: &Api, id: u64) -> Vec<u8> {
    let (status, kind, bytes) = api.download(&format!("/download-service/files/activity/{id}")).await;
    assert_eq!((status, kind.as_str()), (StatusCode::OK, "application/zip"), "{id}");
    let mut members = unzip(&bytes);
    assert_eq!(members.len(), 1, "{id}");
    let (name, fit) = members.remove(0);
    assert_eq!(name, format!("{id}_ACTIVITY.fit"));
    fit
}

/// The newest watch-recorded activity of each sport, and the three newest runs (easy, workout and
/// long runs have different laps).
async fn recorded_activities(api: &Api) -> Vec<u64> {
    let all = api.all_activities().await;
    let recorded = |a: &&Value| a["manualActivity"] != true;
    let mut ids: Vec<u64> = ["running", "cycling", "lap_swimming", "strength_training"]
        .iter()
        .filter_map(|key| all.iter().rev().filter(recorded).find(|a| type_key(a) == *key))
        .chain(all.iter().rev().filter(recorded).filter(|a| type_key(a) == "running").take(3))
        .filter_map(|a| a["activityId"].as_u64())
        .collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 6, "four sports and three runs (one shared): {ids:?}");
    ids
}

/// What the web serves for an activity: its summary, laps and every sample (columns by key).
struct Web {
    summary: Value,
    laps: Vec<Value>,
    columns: std::collections::HashMap<String, usize>,
    rows: Vec<Vec<Value>>,
}

impl Web {
    async fn of(api: &Api, id: u64) -> Web {
        let summary = api.get(&format!("/activity-service/activity/{id}")).await["summaryDTO"].clone();
        let laps = api.get(&format!("/activity-service/activity/{id}/splits")).await["lapDTOs"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let details = api.get(&format!("/activity-service/activity/{id}/details?maxChartSize=100000")).await;
        assert_eq!(details["metricsCount"], details["totalMetricsCount"], "every sample");
        let columns = details["metricDescriptors"]
            .as_array()
            .expect("descriptors")
            .iter()
            .map(|d| {
                (
                    d["key"].as_str().unwrap_or_default().to_owned(),
                    d["metricsIndex"].as_u64().unwrap_or(0) as usize,
                )
            })
            .collect();
        let rows = details["activityDetailMetrics"]
            .as_array()
            .expect("rows")
            .iter()
            .map(|r| r["metrics"].as_array().cloned().unwrap_or_default())
            .collect();
        Web { summary, laps, columns, rows }
    }

    /// Sample `i`'s value of column `key` (None when the sport has no such column).
    fn at(&self, i: usize, key: &str) -> Option<f64> {
        self.columns.get(key).and_then(|c| self.rows[i][*c].as_f64())
    }
}

/// A decoded message's field as a number (scaled by fitparser) or a timestamp in Unix seconds.
fn num(record: &fitparser::FitDataRecord, name: &str) -> Option<f64> {
    use fitparser::Value as V;
    let field = record.fields().iter().find(|f| f.name() == name)?;
    Some(match field.value() {
        V::Timestamp(t) => t.timestamp() as f64,
        V::Float64(v) => *v,
        V::Float32(v) => f64::from(*v),
        V::UInt8(v) | V::Enum(v) | V::Byte(v) => f64::from(*v),
        V::UInt16(v) => f64::from(*v),
        V::UInt32(v) | V::UInt32z(v) => f64::from(*v),
        V::SInt8(v) => f64::from(*v),
        V::SInt16(v) => f64::from(*v),
        V::SInt32(v) => f64::from(*v),
        other => panic!("{name}: {other:?}"),
    })
}

fn text(record: &fitparser::FitDataRecord, name: &str) -> String {
    record.fields().iter().find(|f| f.name() == name).map(|f| f.value().to_string()).unwrap_or_default()
}

fn close(what: &str, a: Option<f64>, b: Option<f64>, tolerance: f64) {
    match (a, b) {
        (Some(a), Some(b)) => assert!((a - b).abs() <= tolerance, "{what}: FIT {a} vs web {b}"),
        _ => panic!("{what}: FIT {a:?} vs web {b:?}"),
    }
}

#[tokio::test]
async fn each_sports_original_fit_holds_the_web_samples_laps_and_totals() {
    use fitparser::profile::MesgNum;
    let api = Api::start().await;
    for id in recorded_activities(&api).await {
        let fit = original_fit(&api, id).await;
        let web = Web::of(&api, id).await;
        let messages = fitparser::from_bytes(&fit).unwrap_or_else(|e| panic!("{id}: fitparser: {e}"));
        for m in &messages {
            assert!(!matches!(m.kind(), MesgNum::Value(_)), "{id}: unknown message {:?}", m.kind());
            let unknown: Vec<&str> =
                m.fields().iter().map(|f| f.name()).filter(|n| n.starts_with("unknown")).collect();
            assert!(unknown.is_empty(), "{id}: {:?} has fields fitparser cannot name: {unknown:?}", m.kind());
        }
        let of = |kind: MesgNum| messages.iter().filter(move |m| m.kind() == kind).collect::<Vec<_>>();
        let file_id = of(MesgNum::FileId);
        assert_eq!(file_id.len(), 1);
        assert_eq!(
            (text(file_id[0], "type"), text(file_id[0], "manufacturer"), text(file_id[0], "garmin_product")),
            ("activity".to_owned(), "garmin".to_owned(), "fr965".to_owned()),
            "{id}"
        );
        assert_eq!(of(MesgNum::DeviceInfo).len(), 1, "{id}");
        assert_eq!(of(MesgNum::Event).len(), 2, "{id}: timer start and stop");
        assert_eq!((of(MesgNum::Session).len(), of(MesgNum::Activity).len()), (1, 1), "{id}");

        // One record per web sample, with its time, heart rate, distance and speed.
        let records = of(MesgNum::Record);
        assert_eq!(records.len(), web.rows.len(), "{id}: records vs details samples");
        for (i, r) in records.iter().enumerate() {
            let what = |f: &str| format!("{id} record {i} {f}");
            close(
                &what("time"),
                num(r, "timestamp"),
                web.at(i, "directTimestamp").map(|t| (t / 1000.0).round()),
                0.0,
            );
            close(&what("heart rate"), num(r, "heart_rate"), web.at(i, "directHeartRate"), 0.0);
            if let Some(d) = web.at(i, "sumDistance") {
                close(&what("distance"), num(r, "distance"), Some(d), 0.006);
            }
            if let Some(speed) = web.at(i, "directSpeed").filter(|s| *s > 0.0) {
                close(&what("speed"), num(r, "enhanced_speed"), Some(speed), 0.0006);
            }
            if let Some(elevation) = web.at(i, "directElevation") {
                // FIT altitude steps by 0.2 m, the web rounds to 0.1 m.
                close(&what("altitude"), num(r, "enhanced_altitude"), Some(elevation), 0.15);
            }
            if let Some(steps) = web.at(i, "directRunCadence") {
                // A running file holds strides per minute (the real fēnix 5 run does).
                let strides = num(r, "cadence").unwrap_or(0.0) + num(r, "fractional_cadence").unwrap_or(0.0);
                close(&what("cadence"), Some(2.0 * strides), Some(steps), 0.51);
            }
            if let Some(watts) = web.at(i, "directPower").filter(|w| *w > 0.0) {
                close(&what("power"), num(r, "power"), Some(watts), 0.0);
            }
        }

        // One lap per web lap: start, distance, timer time, heart rate, intensity.
        let laps = of(MesgNum::Lap);
        assert_eq!(laps.len(), web.laps.len(), "{id}: laps vs splits");
        for (i, (fit_lap, web_lap)) in laps.iter().zip(&web.laps).enumerate() {
            let what = |f: &str| format!("{id} lap {i} {f}");
            if web_lap["distance"].as_f64().is_some_and(|d| d > 0.0) {
                close(&what("distance"), num(fit_lap, "total_distance"), web_lap["distance"].as_f64(), 0.006);
            }
            close(&what("timer"), num(fit_lap, "total_timer_time"), web_lap["duration"].as_f64(), 0.0006);
            close(&what("avg HR"), num(fit_lap, "avg_heart_rate"), web_lap["averageHR"].as_f64(), 0.0);
            close(&what("max HR"), num(fit_lap, "max_heart_rate"), web_lap["maxHR"].as_f64(), 0.0);
            close(&what("calories"), num(fit_lap, "total_calories"), web_lap["calories"].as_f64(), 0.0);
            assert_eq!(
                text(fit_lap, "intensity").to_uppercase(),
                web_lap["intensityType"],
                "{}",
                what("intensity")
            );
            if let Some(gain) = web_lap["elevationGain"].as_f64() {
                close(&what("ascent"), num(fit_lap, "total_ascent"), Some(gain), 0.0);
            }
        }

        // The session holds the summary's totals.
        let session = of(MesgNum::Session)[0];
        let s = &web.summary;
        let what = |f: &str| format!("{id} session {f}");
        if s["distance"].as_f64().is_some_and(|d| d > 0.0) {
            close(&what("distance"), num(session, "total_distance"), s["distance"].as_f64(), 0.006);
        }
        close(&what("timer"), num(session, "total_timer_time"), s["duration"].as_f64(), 0.0006);
        close(&what("elapsed"), num(session, "total_elapsed_time"), s["elapsedDuration"].as_f64(), 0.0006);
        close(&what("moving"), num(session, "total_moving_time"), s["movingDuration"].as_f64(), 0.0006);
        close(&what("avg HR"), num(session, "avg_heart_rate"), s["averageHR"].as_f64(), 0.0);
        close(&what("max HR"), num(session, "max_heart_rate"), s["maxHR"].as_f64(), 0.0);
        close(&what("calories"), num(session, "total_calories"), s["calories"].as_f64(), 0.0);
        close(&what("laps"), num(session, "num_laps"), Some(web.laps.len() as f64), 0.0);
        close(
            &what("start"),
            num(session, "start_time"),
            web.at(0, "directTimestamp").map(|t| t / 1000.0),
            0.0,
        );
        if web.columns.contains_key("directElevation") {
            close(&what("ascent"), num(session, "total_ascent"), s["elevationGain"].as_f64(), 0.0);
        }
    }
}

#[tokio::test]
async fn the_oldest_run_keeps_the_real_fenix_recording_and_a_changed_byte_fails_the_crc() {
    let api = Api::start().await;
    let oldest_run =
        api.all_activities().await.into_iter().find(|a| type_key(a) == "running").expect("a run");
    let id = oldest_run["activityId"].as_u64().expect("id");
    assert_eq!(original_fit(&api, id).await, RUN_FIT, "the real fēnix 5 recording, byte for byte");

    let newest = api.newest(|a| type_key(a) == "running").await["activityId"].as_u64().expect("id");
    let mut fit = original_fit(&api, newest).await;
    assert_ne!(fit, RUN_FIT);
    assert!(fitparser::from_bytes(&fit).is_ok());
    let middle = fit.len() / 2;
    fit[middle] ^= 0x01;
    assert!(fitparser::from_bytes(&fit).is_err(), "the file CRC covers every byte");
    assert_eq!(api.download("/download-service/files/activity/123").await.0, StatusCode::NOT_FOUND);
}

/// Garmin's FIT SDK for Python, when `.ci/.venv` has it (`.ci/setup` installs it); otherwise the
/// test says so and passes.
fn python_with_fit_sdk() -> Option<PathBuf> {
    let python = root().join(".ci/.venv/bin/python");
    let has_sdk = Command::new(&python)
        .args(["-c", "import garmin_fit_sdk"])
        .output()
        .is_ok_and(|o| o.status.success());
    if has_sdk {
        Some(python)
    } else {
        eprintln!("skipped: {} lacks garmin-fit-sdk (run .ci/setup)", python.display());
        None
    }
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[tokio::test]
async fn garmin_fit_sdk_reads_the_generated_activity_files_with_their_totals() {
    let Some(python) = python_with_fit_sdk() else { return };
    let api = Api::start().await;
    let dir = std::env::temp_dir().join(format!("fake-garmin-fit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for id in recorded_activities(&api).await {
        let path = dir.join(format!("{id}.fit"));
        std::fs::write(&path, original_fit(&api, id).await).expect("write");
        let output = Command::new(&python)
            .arg(root().join("tests/interop/decode_fit.py"))
            .arg(&path)
            .output()
            .expect("python runs");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "{id}: the FIT SDK refused the file:\n{stdout}\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let decoded: Value = serde_json::from_str(&stdout).expect("JSON");
        assert_eq!(decoded["integrity"], true, "{id}");
        assert_eq!(decoded["unknown"], serde_json::json!([]), "{id}: fields the FIT profile does not name");
        assert_eq!(decoded["file_id"]["type"], "activity", "{id}");
        let web = Web::of(&api, id).await;
        assert_eq!(decoded["counts"]["record_mesgs"], web.rows.len(), "{id}");
        assert_eq!(decoded["counts"]["lap_mesgs"], web.laps.len(), "{id}");
        let session = &decoded["session"];
        let s = &web.summary;
        close(
            &format!("{id} SDK timer"),
            session["total_timer_time"].as_f64(),
            s["duration"].as_f64(),
            0.0006,
        );
        close(&format!("{id} SDK avg HR"), session["avg_heart_rate"].as_f64(), s["averageHR"].as_f64(), 0.0);
        close(&format!("{id} SDK calories"), session["total_calories"].as_f64(), s["calories"].as_f64(), 0.0);
        if s["distance"].as_f64().is_some_and(|d| d > 0.0) {
            close(
                &format!("{id} SDK distance"),
                session["total_distance"].as_f64(),
                s["distance"].as_f64(),
                0.006,
            );
        }
        for (i, (lap, web_lap)) in decoded["laps"].as_array().expect("laps").iter().zip(&web.laps).enumerate()
        {
            close(
                &format!("{id} SDK lap {i}"),
                lap["total_timer_time"].as_f64(),
                web_lap["duration"].as_f64(),
                0.0006,
            );
            close(
                &format!("{id} SDK lap {i} HR"),
                lap["avg_heart_rate"].as_f64(),
                web_lap["averageHR"].as_f64(),
                0.0,
            );
        }
        let hr: Vec<Option<f64>> = decoded["records"]
            .as_array()
            .expect("records")
            .iter()
            .map(|r| r["heart_rate"].as_f64())
            .collect();
        let web_hr: Vec<Option<f64>> = (0..web.rows.len()).map(|i| web.at(i, "directHeartRate")).collect();
        assert_eq!(hr, web_hr, "{id}: heart rate, sample by sample");
    }
    let _ = std::fs::remove_dir_all(&dir);
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
