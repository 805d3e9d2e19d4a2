//! Run: `cargo test -p garmin-mcp --test tools exports::`.
//!
//! `export_activity` and `export_workout_fit` against the fake Garmin, writing into temporary
//! folders: every format saved as Garmin serves it (FIT unpacked from its zip and parsed; the text
//! exports byte for byte), names made safe, no clobbering, nothing left behind by a failed download,
//! and workouts as FIT workout files that decode to the library workout's steps. The real Garmin's
//! odd answers (docs/garmin-web-api.md §0, garmin-connect-export): the original of a GPX/TCX upload
//! is that file, a GPX without GPS is 204, a TCX of a GPX upload is 500 (asked once), a manual
//! activity has no original (404).

use std::path::{Path, PathBuf};

use fake_garmin::data::activity::{Activity, Origin, Sport};
use fake_garmin::data::library::INTERVALS_ID;
use fake_garmin::faults::{Fault, FaultRule};
use garmin::models::downloads::ExportFormat;
use serde_json::{Value, json};

use crate::support::{Harness, USER_AGENT, api_requests};

/// The newest live activity of `sport` in the fake.
fn latest(h: &Harness, sport: Sport) -> Activity {
    let data = h.fake.state().inner.data.read().unwrap();
    data.live().rfind(|a| a.sport() == sport).cloned().expect("the fake has one")
}

/// The fake's activity that reached Garmin this way (docs/garmin-web-api.md §0: uploads and
/// manual entries behave differently on download).
fn with_origin(h: &Harness, origin: Origin) -> Activity {
    let data = h.fake.state().inner.data.read().unwrap();
    data.live().find(|a| a.origin == origin).cloned().expect("the fake marks one")
}

/// `(path, status)` of every request the fake saw to `path`.
fn asked(h: &Harness, path: &str) -> Vec<(String, u16)> {
    h.fake.requests().into_iter().filter(|r| r.path == path).map(|r| (r.path, r.status)).collect()
}

/// A Garmin client on the harness's session (to rename activities and read what the fake serves).
fn garmin_client(h: &Harness) -> garmin::Client {
    assert_eq!(h.store.load().unwrap().map(|s| s.user_agent), Some(USER_AGENT.to_owned()));
    garmin::Client::builder().store(h.store.clone()).build().unwrap()
}

/// `record` messages in a FIT file (fitparser checks the header and CRC on the way).
fn record_count(fit: &[u8]) -> usize {
    fitparser::from_bytes(fit)
        .expect("a FIT file fitparser reads")
        .iter()
        .filter(|r| r.kind() == fitparser::profile::MesgNum::Record)
        .count()
}

/// Files in `dir` (none when it does not exist).
fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn folder(dir: &tempfile::TempDir) -> String {
    dir.path().join("exports").display().to_string()
}

fn saved_path(data: &Value) -> PathBuf {
    PathBuf::from(data["path"].as_str().expect("path"))
}

#[tokio::test]
async fn fit_export_is_the_original_recording_with_every_record() {
    let h = Harness::start().await;
    let run = latest(&h, Sport::Running);
    let dir = tempfile::tempdir().unwrap();
    let (text, data) = h
        .call_ok("export_activity", json!({"activity_id": run.id, "format": "fit", "folder": folder(&dir)}))
        .await;

    let path = saved_path(&data);
    assert!(path.is_absolute(), "{}", path.display());
    let day = run.start_local.date().to_string();
    let expected_name = format!("{day}_{}_{}.fit", run.name, run.id);
    assert_eq!(path.file_name().unwrap().to_string_lossy(), expected_name);
    assert_eq!(path.parent().unwrap(), std::fs::canonicalize(dir.path().join("exports")).unwrap());
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(data["size_bytes"], bytes.len());
    // The fake's original holds one `record` per sample of the activity (`fake_garmin::data::fit`).
    assert_eq!(record_count(&bytes), fake_garmin::data::series::samples(&run).len(), "every sample recorded");
    assert_eq!(data["format"], "fit");
    assert_eq!(data["activity_id"], run.id);
    assert_eq!(data["date"], day);
    assert_eq!(data["already_saved"], false);
    assert!(text.starts_with(&format!("Saved '{}' ({day}, ", run.name)), "{text}");
    assert!(text.contains(" as FIT, ") && text.ends_with(&path.display().to_string()), "{text}");

    let paths: Vec<String> = api_requests(&h).into_iter().map(|(p, _)| p).collect();
    assert!(paths.contains(&format!("/gc-api/download-service/files/activity/{}", run.id)), "{paths:?}");
    assert!(paths.contains(&format!("/gc-api/activity-service/activity/{}", run.id)), "{paths:?}");
}

#[tokio::test]
async fn gpx_tcx_kml_and_csv_are_saved_exactly_as_garmin_serves_them() {
    let h = Harness::start().await;
    let run = latest(&h, Sport::Running);
    let client = garmin_client(&h);
    let dir = tempfile::tempdir().unwrap();
    for (format, export, starts) in [
        ("gpx", ExportFormat::Gpx, "<?xml"),
        ("tcx", ExportFormat::Tcx, "<?xml"),
        ("kml", ExportFormat::Kml, "<?xml"),
        ("csv", ExportFormat::Csv, "Laps,"),
    ] {
        let (text, data) = h
            .call_ok(
                "export_activity",
                json!({"activity_id": run.id, "format": format, "folder": folder(&dir)}),
            )
            .await;
        let path = saved_path(&data);
        assert!(path.to_string_lossy().ends_with(&format!("_{}.{format}", run.id)), "{}", path.display());
        let saved = std::fs::read(&path).unwrap();
        let served = client.downloads().export(run.id, export).await.unwrap().expect("a file").bytes;
        assert_eq!(saved, served, "{format}: the file is what Garmin serves");
        assert!(String::from_utf8_lossy(&saved).starts_with(starts), "{format}");
        assert_eq!(data["size_bytes"], saved.len());
        assert!(text.contains(&format!(" as {}, ", format.to_uppercase())), "{text}");
    }
    assert_eq!(files_in(&dir.path().join("exports")).len(), 4);
}

#[tokio::test]
async fn file_names_drop_path_separators_and_characters_windows_forbids() {
    let h = Harness::start().await;
    let run = latest(&h, Sport::Running);
    garmin_client(&h).activities().rename(run.id, "Run: 10/11 <PB>? \"fast\" | 晨跑\\done*").await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (_, data) = h
        .call_ok("export_activity", json!({"activity_id": run.id, "format": "gpx", "folder": folder(&dir)}))
        .await;
    let day = run.start_local.date();
    assert_eq!(data["activity_name"], "Run: 10/11 <PB>? \"fast\" | 晨跑\\done*");
    assert_eq!(
        saved_path(&data).file_name().unwrap().to_string_lossy(),
        format!("{day}_Run 1011 PB fast 晨跑done_{}.gpx", run.id)
    );

    garmin_client(&h).activities().rename(run.id, "../../escape").await.unwrap();
    let (_, data) = h
        .call_ok("export_activity", json!({"activity_id": run.id, "format": "csv", "folder": folder(&dir)}))
        .await;
    let path = saved_path(&data);
    assert_eq!(path.parent().unwrap(), std::fs::canonicalize(dir.path().join("exports")).unwrap());
    assert_eq!(path.file_name().unwrap().to_string_lossy(), format!("{day}_escape_{}.csv", run.id));
}

#[tokio::test]
async fn an_existing_different_file_is_kept_and_the_export_gets_a_numbered_name() {
    let h = Harness::start().await;
    let run = latest(&h, Sport::Running);
    let dir = tempfile::tempdir().unwrap();
    let exports = dir.path().join("exports");
    std::fs::create_dir_all(&exports).unwrap();
    let taken = exports.join(format!("{}_{}_{}.gpx", run.start_local.date(), run.name, run.id));
    std::fs::write(&taken, b"my own edited track").unwrap();

    let (text, data) = h
        .call_ok("export_activity", json!({"activity_id": run.id, "format": "gpx", "folder": folder(&dir)}))
        .await;
    assert_eq!(std::fs::read(&taken).unwrap(), b"my own edited track", "the older file is untouched");
    let path = saved_path(&data);
    assert_eq!(
        path.file_name().unwrap().to_string_lossy(),
        format!("{}_{}_{} (2).gpx", run.start_local.date(), run.name, run.id)
    );
    assert!(text.starts_with("Saved "), "{text}");

    // The same export again finds its identical file and writes nothing new.
    let (text, again) = h
        .call_ok("export_activity", json!({"activity_id": run.id, "format": "gpx", "folder": folder(&dir)}))
        .await;
    assert_eq!(saved_path(&again), path);
    assert_eq!(again["already_saved"], true);
    assert!(text.contains("was already saved as GPX"), "{text}");
    assert_eq!(files_in(&exports).len(), 2);
}

#[tokio::test]
async fn a_failed_download_leaves_no_file_in_the_folder() {
    let h = Harness::start().await;
    let run = latest(&h, Sport::Running);
    for fault in [Fault::ServerError(500), Fault::EmptyBody, Fault::NotFound] {
        for format in ["fit", "gpx"] {
            h.fake.clear_faults();
            h.fake.push_fault(FaultRule::always(fault.clone()).on_path("/download-service/"));
            let dir = tempfile::tempdir().unwrap();
            let message = h
                .call_err(
                    "export_activity",
                    json!({"activity_id": run.id, "format": format, "folder": folder(&dir)}),
                )
                .await;
            // A 404 of the original of an activity that exists reads as "no original file"
            // (manual entries have none), ending "Nothing was saved.".
            assert!(
                message.contains("not saved")
                    || message.contains("Nothing was saved")
                    || message.contains("No activity"),
                "{fault:?} {format}: {message}"
            );
            assert_eq!(files_in(&dir.path().join("exports")), Vec::<String>::new(), "{fault:?} {format}");
            assert_eq!(
                files_in(dir.path()),
                Vec::<String>::new(),
                "{fault:?} {format}: nothing beside it either"
            );
        }
    }
}

#[tokio::test]
async fn someone_elses_activity_is_refused_with_garmins_reason_and_nothing_saved() {
    let h = Harness::start().await;
    let run = latest(&h, Sport::Running);
    h.fake.push_fault(FaultRule::always(Fault::NotOwner).on_path("/download-service/"));
    let dir = tempfile::tempdir().unwrap();
    let message = h
        .call_err("export_activity", json!({"activity_id": run.id, "format": "fit", "folder": folder(&dir)}))
        .await;
    assert!(message.contains("Only owner of activity"), "{message}");
    assert!(message.contains("only the athlete who recorded it"), "{message}");
    assert_eq!(files_in(dir.path()), Vec::<String>::new());
}

#[tokio::test]
async fn bad_formats_and_relative_folders_are_protocol_errors() {
    let h = Harness::start().await;
    let run = latest(&h, Sport::Running);
    let message = h.call_invalid("export_activity", json!({"activity_id": run.id, "format": "pdf"})).await;
    assert!(message.contains("pdf") || message.contains("format"), "{message}");
    let message = h
        .call_invalid("export_activity", json!({"activity_id": run.id, "format": "gpx", "folder": "exports"}))
        .await;
    assert!(message.contains("absolute"), "{message}");
    assert!(api_requests(&h).is_empty(), "nothing was asked of Garmin");
}

#[tokio::test]
async fn an_unknown_activity_is_a_clear_error() {
    let h = Harness::start().await;
    let dir = tempfile::tempdir().unwrap();
    let message = h
        .call_err("export_activity", json!({"activity_id": 1, "format": "tcx", "folder": folder(&dir)}))
        .await;
    assert!(message.contains("No activity 1"), "{message}");
    assert!(files_in(dir.path()).is_empty());
}

#[tokio::test]
async fn export_tools_say_they_write_only_to_disk_and_change_nothing_in_garmin() {
    let h = Harness::start().await;
    let tools = h.client.list_all_tools().await.unwrap();
    for name in ["export_activity", "export_workout_fit"] {
        let tool = tools.iter().find(|t| t.name == name).unwrap_or_else(|| panic!("{name} is listed"));
        let hints = tool.annotations.as_ref().unwrap();
        assert_eq!(hints.read_only_hint, Some(false), "{name}");
        assert_eq!(hints.destructive_hint, Some(false), "{name}");
        assert_eq!(hints.idempotent_hint, Some(true), "{name}");
        assert_eq!(hints.open_world_hint, Some(true), "{name}");
        assert!(tool.description.as_deref().unwrap_or_default().contains("only to the local disk"), "{name}");
    }
}

// ---------- export_workout_fit ----------

/// `(name, value)` fields of each message of `kind`.
fn messages(fit: &[u8], kind: fitparser::profile::MesgNum) -> Vec<serde_json::Map<String, Value>> {
    fitparser::from_bytes(fit)
        .unwrap()
        .iter()
        .filter(|r| r.kind() == kind)
        .map(|r| {
            r.fields()
                .iter()
                .map(|f| (f.name().to_owned(), serde_json::to_value(f.value()).unwrap()))
                .collect()
        })
        .collect()
}

#[tokio::test]
async fn a_library_workout_is_saved_as_a_fit_workout_file_with_its_steps() {
    let h = Harness::start().await;
    let dir = tempfile::tempdir().unwrap();
    let (text, data) =
        h.call_ok("export_workout_fit", json!({"workout_id": INTERVALS_ID, "folder": folder(&dir)})).await;
    let path = saved_path(&data);
    assert_eq!(
        path.file_name().unwrap().to_string_lossy(),
        format!("Track Intervals 6x800m_{INTERVALS_ID}.fit")
    );
    let fit = std::fs::read(&path).unwrap();
    assert_eq!(data["size_bytes"], fit.len());
    assert_eq!(data["fit_steps"], 5);
    assert!(
        text.starts_with(
            "Saved workout 'Track Intervals 6x800m' (running, 5 FIT steps) as a FIT workout file"
        )
    );

    use fitparser::profile::MesgNum;
    assert_eq!(messages(&fit, MesgNum::FileId)[0]["type"], "workout");
    let workout = &messages(&fit, MesgNum::Workout)[0];
    assert_eq!(workout["wkt_name"], "Track Intervals 6x800m");
    assert_eq!(workout["sport"], "running");
    let steps = messages(&fit, MesgNum::WorkoutStep);
    let brief: Vec<String> = steps
        .iter()
        .map(|s| {
            let duration = ["duration_distance", "duration_step"].iter().find_map(|k| s.get(*k)).cloned();
            let target = match (s.get("custom_target_speed_low"), s.get("custom_target_speed_high")) {
                (Some(lo), Some(hi)) => {
                    format!("{:.3}-{:.3} m/s", lo.as_f64().unwrap(), hi.as_f64().unwrap())
                }
                _ => s.get("repeat_steps").map_or("open".to_owned(), |n| format!("×{n}")),
            };
            format!(
                "{} {} {} {target}",
                s.get("intensity").and_then(Value::as_str).unwrap_or("-"),
                s["duration_type"].as_str().unwrap(),
                duration.unwrap_or(Value::Null)
            )
        })
        .collect();
    // The fake's seed: warm-up 2 km, 6 × (800 m at 4:15–4:25 /km, 400 m), cool-down 1.5 km.
    let (fast, slow) = (1000.0 / 255.0, 1000.0 / 265.0);
    assert_eq!(
        brief,
        vec![
            "warmup distance 2000.0 open".to_owned(),
            format!("active distance 800.0 {slow:.3}-{fast:.3} m/s"),
            "recovery distance 400.0 open".to_owned(),
            "- repeat_until_steps_cmplt 1 ×6".to_owned(),
            "cooldown distance 1500.0 open".to_owned(),
        ]
    );

    // An unchanged workout gives the same file: exporting again reuses it.
    let (_, again) =
        h.call_ok("export_workout_fit", json!({"workout_id": INTERVALS_ID, "folder": folder(&dir)})).await;
    assert_eq!(again["already_saved"], true);
    assert_eq!(saved_path(&again), path);
}

#[tokio::test]
async fn a_workout_fit_cannot_express_is_refused_with_the_reason_and_nothing_saved() {
    let h = Harness::start().await;
    // A repeat until the lap button is pressed (smartRepeat): Garmin keeps it, FIT has no such
    // repeat.
    let running = json!({"sportTypeId": 1, "sportTypeKey": "running"});
    let body: garmin::models::workouts::Workout = serde_json::from_value(json!({
        "workoutName": "Strides until stopped",
        "sportType": running,
        "workoutSegments": [{"segmentOrder": 1, "sportType": running, "workoutSteps": [{
            "type": "RepeatGroupDTO", "stepOrder": 1,
            "stepType": {"stepTypeId": 6, "stepTypeKey": "repeat"},
            "numberOfIterations": 1, "smartRepeat": true,
            "endCondition": {"conditionTypeId": 7, "conditionTypeKey": "iterations"},
            "endConditionValue": 1.0,
            "workoutSteps": [{
                "type": "ExecutableStepDTO", "stepOrder": 2,
                "stepType": {"stepTypeId": 3, "stepTypeKey": "interval"},
                "endCondition": {"conditionTypeId": 2, "conditionTypeKey": "time"},
                "endConditionValue": 20.0}]}]}]
    }))
    .unwrap();
    let created = garmin_client(&h).workouts().create(&body).await.unwrap();
    let id = created.workout_id.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let message = h.call_err("export_workout_fit", json!({"workout_id": id, "folder": folder(&dir)})).await;
    assert!(message.contains("cannot be written as a FIT workout file"), "{message}");
    assert!(message.contains("until stopped"), "{message}");
    assert!(files_in(dir.path()).is_empty());

    let message = h.call_err("export_workout_fit", json!({"workout_id": 12, "folder": folder(&dir)})).await;
    assert!(message.contains("No workout 12"), "{message}");
}

#[tokio::test]
async fn the_original_of_a_gpx_or_tcx_upload_is_saved_as_that_file_and_says_what_it_is() {
    let h = Harness::start().await;
    let client = garmin_client(&h);
    for (origin, ext, export) in
        [(Origin::GpxUpload, "gpx", ExportFormat::Gpx), (Origin::TcxUpload, "tcx", ExportFormat::Tcx)]
    {
        let upload = with_origin(&h, origin);
        let dir = tempfile::tempdir().unwrap();
        let (text, data) = h
            .call_ok(
                "export_activity",
                json!({"activity_id": upload.id, "format": "fit", "folder": folder(&dir)}),
            )
            .await;
        let path = saved_path(&data);
        let day = upload.start_local.date();
        assert_eq!(
            path.file_name().unwrap().to_string_lossy(),
            format!("{day}_{}_{}.{ext}", upload.name, upload.id),
            "saved with the uploaded file's extension"
        );
        assert_eq!(data["format"], ext);
        let label = ext.to_uppercase();
        assert!(
            data["note"].as_str().unwrap().contains(&format!("uploaded to Garmin as a {label} file")),
            "{data}"
        );
        assert!(
            text.contains(&format!("as {label} (this activity was uploaded to Garmin as a {label} file")),
            "{text}"
        );
        // The zip's member, byte for byte: what the fake generated as the uploaded file.
        let saved = std::fs::read(&path).unwrap();
        let original = client.downloads().activity_original(upload.id).await.unwrap();
        assert_eq!(saved, original.file.bytes);
        assert_eq!(original.file.file_name, format!("{}_ACTIVITY.{ext}", upload.id));
        if origin == Origin::TcxUpload {
            assert_eq!(saved, client.downloads().export(upload.id, export).await.unwrap().unwrap().bytes);
        }
        assert_eq!(files_in(&dir.path().join("exports")).len(), 1);
    }
}

#[tokio::test]
async fn a_gpx_of_an_activity_without_gps_says_it_has_no_gps_track() {
    let h = Harness::start().await;
    let swim = latest(&h, Sport::Swimming);
    let dir = tempfile::tempdir().unwrap();
    let message = h
        .call_err("export_activity", json!({"activity_id": swim.id, "format": "gpx", "folder": folder(&dir)}))
        .await;
    assert!(
        message.contains(&format!("Activity {} ('{}') has no GPS track", swim.id, swim.name)),
        "{message}"
    );
    assert!(message.contains("204") && message.ends_with("Nothing was saved."), "{message}");
    let path = format!("/gc-api/download-service/export/gpx/activity/{}", swim.id);
    assert_eq!(asked(&h, &path), [(path.clone(), 204)]);
    assert_eq!(files_in(dir.path()), Vec::<String>::new());
    // Its other files are still there: the CSV of its laps.
    h.call_ok("export_activity", json!({"activity_id": swim.id, "format": "csv", "folder": folder(&dir)}))
        .await;
}

#[tokio::test]
async fn a_tcx_of_a_gpx_upload_is_asked_once_and_the_500_is_explained() {
    let h = Harness::start().await;
    let upload = with_origin(&h, Origin::GpxUpload);
    let dir = tempfile::tempdir().unwrap();
    let message = h
        .call_err(
            "export_activity",
            json!({"activity_id": upload.id, "format": "tcx", "folder": folder(&dir)}),
        )
        .await;
    assert!(message.contains("it was uploaded as a GPX file"), "{message}");
    assert!(message.contains("HTTP 500; asked once"), "{message}");
    assert!(message.contains("Ask for gpx, or fit"), "{message}");
    let path = format!("/gc-api/download-service/export/tcx/activity/{}", upload.id);
    assert_eq!(asked(&h, &path), [(path.clone(), 500)], "asked exactly once, not retried");
    assert_eq!(files_in(dir.path()), Vec::<String>::new());
}

#[tokio::test]
async fn the_original_of_a_manual_activity_is_a_clear_no_original_file_message() {
    let h = Harness::start().await;
    let manual = with_origin(&h, Origin::Manual);
    let dir = tempfile::tempdir().unwrap();
    let message = h
        .call_err(
            "export_activity",
            json!({"activity_id": manual.id, "format": "fit", "folder": folder(&dir)}),
        )
        .await;
    assert!(
        message.contains(&format!("Activity {} was entered by hand in Garmin Connect", manual.id)),
        "{message}"
    );
    assert!(message.contains("no original file") && message.ends_with("Nothing was saved."), "{message}");
    let path = format!("/gc-api/download-service/files/activity/{}", manual.id);
    assert_eq!(asked(&h, &path), [(path.clone(), 404)]);
    assert_eq!(files_in(dir.path()), Vec::<String>::new());
}
