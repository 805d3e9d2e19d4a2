//! Run: `cargo test -p garmin-mcp --test tools charts::`.
//!
//! `render_chart` against the fake: every kind answers with a summary, an inline `image/png` that
//! decodes to the requested size and is far from blank, and the same PNG saved in the given folder;
//! the summaries' numbers match the fake's data set (read straight from the fake, not through the
//! tools); bad arguments are `isError` results naming the argument; an activity whose details have no samples is drawn
//! from its original FIT file, and one whose original is a GPX upload says so.

use std::path::{Path, PathBuf};

use base64::Engine as _;
use chrono::{Duration, NaiveDate};
use fake_garmin::data::Dataset;
use fake_garmin::data::activity::{Activity, Origin, Sport};
use fake_garmin::faults::{Fault, FaultRule};
use rmcp::model::CallToolResult;
use serde_json::{Value, json};

use crate::support::{Harness, api_requests, text_of, today};

fn data(h: &Harness) -> std::sync::RwLockReadGuard<'_, Dataset> {
    h.fake.state().inner.data.read().unwrap()
}

/// The folder the tests save charts in.
fn folder(h: &Harness) -> PathBuf {
    h.dir.path().join("charts")
}

/// The newest live activity of `sport`.
fn newest(h: &Harness, sport: Sport) -> Activity {
    data(h).live().rev().find(|a| a.sport() == sport).cloned().expect("the fake has one")
}

/// A decoded PNG: width, height, 8-bit RGB(A) pixels and channels per pixel.
struct Decoded {
    width: u32,
    height: u32,
    pixels: Vec<u8>,
    channels: usize,
}

fn decode(bytes: &[u8]) -> Decoded {
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes)).read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("a sane size")];
    let info = reader.next_frame(&mut buf).expect("PNG pixels");
    buf.truncate(info.buffer_size());
    Decoded { width: info.width, height: info.height, pixels: buf, channels: info.color_type.samples() }
}

/// Far from blank: many distinct colours and a fair share of non-white pixels.
fn assert_drawn(what: &str, image: &Decoded) {
    let mut colours = std::collections::HashSet::new();
    let mut inked = 0usize;
    for px in image.pixels.chunks_exact(image.channels) {
        colours.insert(px.to_vec());
        if px.iter().take(3).any(|c| *c != 255) {
            inked += 1;
        }
    }
    let share = inked as f64 / f64::from(image.width * image.height);
    assert!(colours.len() >= 40, "{what}: {} colours only", colours.len());
    assert!(share >= 0.02, "{what}: {:.1} % of pixels drawn", share * 100.0);
}

/// The image content (`image/png`) of a result, as bytes.
fn png_of(result: &CallToolResult) -> Vec<u8> {
    let images: Vec<_> = result.content.iter().filter_map(|c| c.as_image()).collect();
    assert_eq!(images.len(), 1, "one image per chart");
    assert_eq!(images[0].mime_type, "image/png");
    base64::engine::general_purpose::STANDARD.decode(&images[0].data).expect("base64 image data")
}

/// Calls `render_chart` with `args` (plus the test folder); checks the image, the saved file and
/// the record (JSON text after the image); returns (summary, record, decoded image).
async fn chart(h: &Harness, mut args: Value, width: u32, height: u32) -> (String, Value, Decoded) {
    args["folder"] = json!(folder(h).display().to_string());
    let result = h.call("render_chart", args.clone()).await;
    let summary = text_of(&result);
    assert_ne!(result.is_error, Some(true), "render_chart {args} failed: {summary}");
    let bytes = png_of(&result);
    let image = decode(&bytes);
    assert_eq!((image.width, image.height), (width, height), "{args}");
    assert_drawn(&args.to_string(), &image);
    // No structured content: Claude Code and Codex would pass the model that instead of the image.
    assert!(result.structured_content.is_none(), "render_chart answers with content only");
    let json = result.content.iter().filter_map(|c| c.as_text()).nth(1).expect("the record as JSON text");
    let data: Value = serde_json::from_str(&json.text).expect("the record is JSON");
    let path = PathBuf::from(data["path"].as_str().expect("a path"));
    assert!(path.is_absolute() && path.starts_with(folder(h)), "{path:?} is not in the folder");
    assert_eq!(path.extension().and_then(|e| e.to_str()), Some("png"));
    assert_eq!(std::fs::read(&path).expect("the saved PNG"), bytes, "the saved file is the image shown");
    assert_eq!(data["size_bytes"], bytes.len() as u64);
    assert_eq!((data["width"].as_u64(), data["height"].as_u64()), (Some(width.into()), Some(height.into())));
    assert!(summary.contains(&path.display().to_string()), "the summary names the saved path: {summary}");
    (summary, data, image)
}

fn km2(meters: f64) -> String {
    format!("{:.2} km", meters / 1000.0)
}

/// `h:mm:ss` or `m:ss`, written out independently of the tool.
fn clock(seconds: f64) -> String {
    let s = seconds.round() as u64;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s % 3600 / 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

fn saved_pngs(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .map_or(0, |d| d.flatten().filter(|e| e.path().extension().is_some_and(|x| x == "png")).count())
}

#[tokio::test]
async fn an_activity_chart_shows_the_runs_own_numbers_from_garmins_details() {
    let h = Harness::start().await;
    let run = newest(&h, Sport::Running);
    let (summary, data, _) = chart(&h, json!({"kind": "activity", "activity_id": run.id}), 1200, 700).await;
    assert!(summary.contains(&format!("“{}”", run.name)), "{summary}");
    assert!(summary.contains(&run.start_local.date().to_string()), "{summary}");
    assert!(summary.contains(&km2(run.stats.distance)), "{summary}");
    assert!(summary.contains(&format!("avg HR {:.0} bpm", run.stats.avg_hr)), "{summary}");
    assert!(summary.contains("Garmin's activity details"), "{summary}");
    assert_eq!(data["kind"], "activity");
    assert_eq!(data["activity_id"], run.id);
    assert_eq!(data["series_source"], "garmin_details");
    assert!(data["points"].as_u64().unwrap() > 100, "{data}");
    let paths: Vec<String> = api_requests(&h).into_iter().map(|(p, _)| p).collect();
    assert!(paths.iter().any(|p| p.ends_with(&format!("/activity/{}/details", run.id))), "{paths:?}");
    assert!(!paths.iter().any(|p| p.contains("/download-service/")), "no FIT download when details suffice");
    let name =
        PathBuf::from(data["path"].as_str().unwrap()).file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        name.starts_with(&run.start_local.date().to_string()) && name.contains(&run.id.to_string()),
        "{name}"
    );
}

#[tokio::test]
async fn an_activity_chart_whose_laps_and_zones_fail_is_drawn_without_them_and_says_which() {
    let h = Harness::start().await;
    let run = newest(&h, Sport::Running);
    let args = json!({"kind": "activity", "activity_id": run.id});
    let (whole, _, _) = chart(&h, args.clone(), 1200, 700).await;
    assert!(whole.contains("a bar per lap") && whole.contains("over Garmin's zone bands"), "{whole}");
    assert!(!whole.contains("could not be read"), "{whole}");

    h.fake.push_fault(FaultRule::always(Fault::ServerError(500)).on_path("/splits"));
    h.fake.push_fault(FaultRule::always(Fault::ServerError(500)).on_path("/hrTimeInZones"));
    let (partial, data, _) = chart(&h, args, 1200, 700).await;
    assert!(partial.contains("Garmin's laps could not be read ("), "{partial}");
    assert!(partial.contains("so the bars are per split"), "{partial}");
    assert!(partial.contains("Garmin's heart-rate zones could not be read ("), "{partial}");
    assert!(partial.contains("over no zone bands"), "{partial}");
    assert_eq!(data["series_source"], "garmin_details", "the samples still come from the details");

    // An activity Garmin has no laps or zones for (404) is drawn without them, with no failure noted.
    h.fake.clear_faults();
    h.fake.push_fault(FaultRule::always(Fault::NotFound).on_path("/splits"));
    h.fake.push_fault(FaultRule::always(Fault::NotFound).on_path("/hrTimeInZones"));
    let (sparse, _, _) =
        chart(&h, json!({"kind": "activity", "activity_id": run.id, "width": 1000}), 1000, 700).await;
    assert!(!sparse.contains("could not be read"), "{sparse}");
}

#[tokio::test]
async fn without_an_id_the_newest_activity_is_drawn() {
    let h = Harness::start().await;
    let newest_id = data(&h).live().next_back().map(|a| a.id).unwrap();
    let (_, data, _) = chart(&h, json!({}), 1200, 700).await;
    assert_eq!(data["kind"], "activity");
    assert_eq!(data["activity_id"], newest_id);
}

#[tokio::test]
async fn an_activity_whose_details_have_no_samples_is_drawn_from_its_fit_file() {
    let h = Harness::start().await;
    let run = newest(&h, Sport::Running);
    h.fake.push_fault(FaultRule::always(Fault::NoContent).on_path("/details"));
    let (summary, data, _) = chart(&h, json!({"activity_id": run.id}), 1200, 700).await;
    assert_eq!(data["series_source"], "fit_file", "{summary}");
    assert!(summary.contains("original FIT file"), "{summary}");
    // The fake's original holds one `record` per sample of the run (`fake_garmin::data::fit`).
    assert_eq!(data["points"], fake_garmin::data::series::samples(&run).len());
    let paths: Vec<String> = api_requests(&h).into_iter().map(|(p, _)| p).collect();
    assert!(paths.contains(&format!("/gc-api/download-service/files/activity/{}", run.id)), "{paths:?}");
    // The figures still come from Garmin's summary of the activity.
    assert!(summary.contains(&km2(run.stats.distance)), "{summary}");
}

#[tokio::test]
async fn a_chart_of_a_gpx_upload_without_details_says_its_original_is_not_a_fit_file() {
    let h = Harness::start().await;
    let upload = data(&h).live().find(|a| a.origin == Origin::GpxUpload).cloned().expect("a GPX upload");
    h.fake.push_fault(FaultRule::always(Fault::NoContent).on_path("/details"));
    let message = h
        .call_err(
            "render_chart",
            json!({"activity_id": upload.id, "folder": folder(&h).display().to_string()}),
        )
        .await;
    assert!(message.contains("GPX file it was uploaded as, not a FIT recording"), "{message}");
    assert!(message.contains(&format!("Activity {}", upload.id)), "{message}");
    assert!(!folder(&h).exists() || std::fs::read_dir(folder(&h)).unwrap().next().is_none(), "nothing saved");
}

#[tokio::test]
async fn every_kind_answers_with_a_png_of_the_requested_size_saved_in_the_folder() {
    let h = Harness::start().await;
    let ride = newest(&h, Sport::Cycling);
    let night = today() - Duration::days(1);
    let cases = [
        json!({"kind": "activity", "activity_id": ride.id}),
        json!({"kind": "volume"}),
        json!({"kind": "volume", "period": "month", "months": 6, "metric": "time", "stacked": false}),
        json!({"kind": "hr_zones"}),
        json!({"kind": "hr_zones", "weeks": 4, "sport": "run"}),
        json!({"kind": "sleep", "date": night.to_string()}),
        json!({"kind": "health_trend"}),
        json!({"kind": "health_trend", "metric": "hrv", "days": 60}),
        json!({"kind": "health_trend", "metric": "body_battery", "days": 14}),
        json!({"kind": "health_trend", "metric": "stress", "days": 30}),
        json!({"kind": "training_load", "weeks": 12}),
        json!({"kind": "volume", "language": "zh", "title": "每周跑量"}),
    ];
    for (i, mut args) in cases.into_iter().enumerate() {
        args["width"] = json!(900);
        args["height"] = json!(520);
        let (summary, data, _) = chart(&h, args.clone(), 900, 520).await;
        assert!(summary.len() > 60, "{args}: {summary}");
        let kind = args["kind"].as_str().unwrap();
        assert_eq!(data["kind"], kind);
        assert_eq!(saved_pngs(&folder(&h)), i + 1, "one new file per chart ({args})");
    }
}

#[tokio::test]
async fn drawing_the_same_chart_twice_reuses_the_saved_file() {
    let h = Harness::start().await;
    let args = json!({"kind": "health_trend", "days": 14});
    let (_, first, _) = chart(&h, args.clone(), 1200, 700).await;
    let (summary, second, _) = chart(&h, args, 1200, 700).await;
    assert_eq!(first["already_saved"], false);
    assert_eq!(second["already_saved"], true);
    assert_eq!(first["path"], second["path"]);
    assert!(summary.contains("Already saved as"), "{summary}");
    assert_eq!(saved_pngs(&folder(&h)), 1);
}

#[tokio::test]
async fn weekly_volume_totals_match_the_fakes_runs() {
    let h = Harness::start().await;
    // Four weeks ending today (a Sunday in the fake): Monday four weeks back to today.
    let start = today() - Duration::days(27);
    let runs: Vec<Activity> = data(&h)
        .live()
        .filter(|a| a.sport() == Sport::Running && (start..=today()).contains(&a.start_local.date()))
        .cloned()
        .collect();
    let total_km: f64 = runs.iter().map(|a| a.stats.distance).sum::<f64>() / 1000.0;
    let (summary, data, _) =
        chart(&h, json!({"kind": "volume", "weeks": 4, "sport": "run"}), 1200, 700).await;
    assert!(
        summary.contains(&format!("{total_km:.1} km in total over {} runs", runs.len())),
        "expected {total_km:.1} km over {} runs: {summary}",
        runs.len()
    );
    assert!(summary.contains(&format!("{:.1} km per week on average", total_km / 4.0)), "{summary}");
    assert_eq!(data["period"], format!("{start} to {}", today()));
}

#[tokio::test]
async fn activity_hr_zones_match_the_fakes_time_in_zones() {
    let h = Harness::start().await;
    let run = newest(&h, Sport::Running);
    let (summary, _, _) = chart(&h, json!({"kind": "hr_zones", "activity_id": run.id}), 1200, 700).await;
    let total: f64 = run.stats.hr_zones.iter().sum();
    for (i, secs) in run.stats.hr_zones.iter().enumerate() {
        let part = format!("Z{} {} ({:.0} %)", i + 1, clock(*secs), secs / total * 100.0);
        assert!(summary.contains(&part), "missing `{part}` in {summary}");
    }
}

#[tokio::test]
async fn the_sleep_chart_states_the_nights_score_and_stages() {
    let h = Harness::start().await;
    let date = today() - Duration::days(2);
    let (summary, out, _) = chart(&h, json!({"kind": "sleep", "date": date.to_string()}), 1200, 700).await;
    let d = data(&h);
    let night = &d.day(date).unwrap().sleep;
    assert!(summary.contains(&format!("sleep score {}", night.score)), "{summary}");
    let deep_min = (night.deep_s as f64 / 60.0).round() as i64;
    let deep = match (deep_min / 60, deep_min % 60) {
        (0, m) => format!("deep {m} min"),
        (h, 0) => format!("deep {h} h"),
        (h, m) => format!("deep {h} h {m} min"),
    };
    assert!(summary.contains(&deep), "expected `{deep}`: {summary}");
    assert_eq!(out["period"], date.to_string());
    assert!(out["points"].as_u64().unwrap() >= 4, "a night has several stretches: {out}");
}

#[tokio::test]
async fn the_resting_heart_rate_trend_averages_the_fakes_days() {
    let h = Harness::start().await;
    let start = today() - Duration::days(27);
    let values: Vec<f64> = {
        let d = data(&h);
        d.days
            .iter()
            .filter(|day| (start..=today()).contains(&day.date))
            .map(|day| day.resting_hr.round())
            .collect()
    };
    assert_eq!(values.len(), 28);
    let average = values.iter().sum::<f64>() / values.len() as f64;
    let (summary, data, _) =
        chart(&h, json!({"kind": "health_trend", "metric": "resting_hr"}), 1200, 700).await;
    assert!(summary.contains(&format!("average {average:.0} bpm")), "expected {average:.0}: {summary}");
    let lowest = values.iter().copied().fold(f64::MAX, f64::min);
    assert!(summary.contains(&format!("lowest {lowest:.0} on")), "{summary}");
    assert_eq!(data["points"], 28);
}

#[tokio::test]
async fn the_training_load_chart_sums_the_fakes_activity_loads() {
    let h = Harness::start().await;
    let weeks = 6;
    let start = today() - Duration::days(weeks * 7 - 1);
    let (total, count) = {
        let d = data(&h);
        let inside: Vec<&Activity> =
            d.live().filter(|a| (start..=today()).contains(&a.start_local.date())).collect();
        (inside.iter().map(|a| a.training_load.max(0.0)).sum::<f64>(), inside.len())
    };
    let acute: f64 = data(&h)
        .live()
        .filter(|a| (today() - Duration::days(6)..=today()).contains(&a.start_local.date()))
        .map(|a| a.training_load.max(0.0))
        .sum();
    let (summary, _, _) = chart(&h, json!({"kind": "training_load", "weeks": weeks}), 1200, 700).await;
    let total_text = {
        let digits = (total.round() as u64).to_string();
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    };
    assert!(
        summary.contains(&format!("{total_text} in total from {count} activities")),
        "expected {total_text} / {count}: {summary}"
    );
    assert!(
        summary.contains(&format!("acute load (last 7 days) is {acute:.0}")),
        "expected acute {acute:.0}: {summary}"
    );
}

#[tokio::test]
async fn bad_arguments_are_error_results_with_a_reason() {
    let h = Harness::start().await;
    let cases = [
        (json!({"kind": "sleep", "activity_id": 1}), "does not apply"),
        (json!({"kind": "volume", "metric": "hrv"}), "health_trend"),
        (json!({"kind": "health_trend", "metric": "distance"}), "volume"),
        (json!({"kind": "health_trend", "days": 5}), "between 7 and 90"),
        (json!({"kind": "volume", "width": 100}), "width"),
        (json!({"kind": "volume", "height": 5000}), "height"),
        (json!({"kind": "volume", "folder": "relative/charts"}), "absolute"),
        (json!({"kind": "sleep", "date": "yesterday"}), "YYYY-MM-DD"),
        (json!({"kind": "sleep", "date": "2027-06-01"}), "future"),
        (json!({"kind": "sleep", "date": "2099-01-01"}), "between 1990-01-01 and 2027-12-31"),
        (json!({"kind": "sleep", "date": "+262142-12-31"}), "between 1990-01-01 and 2027-12-31"),
        (json!({"kind": "hr_zones", "activity_id": 1, "weeks": 2}), "not both"),
        (json!({"kind": "volume", "period": "week", "months": 3}), "months"),
        (json!({"kind": "volume", "sport": "run; drop table"}), "not an activity type"),
        (json!({"kind": "volume", "title": "x".repeat(81)}), "80"),
    ];
    for (args, needle) in cases {
        let message = h.call_invalid("render_chart", args.clone()).await;
        assert!(message.contains(needle), "{args}: `{message}` lacks `{needle}`");
    }
    // An unknown kind fails rmcp's argument decoding; the answer names the argument and the kinds.
    let message = h.call_invalid("render_chart", json!({"kind": "pie"})).await;
    assert!(message.starts_with("`kind` of `render_chart` must be one of `activity`"), "{message}");
    assert!(
        message.contains("`intensity`, `fitness`, `mean_max`, `strength`, `load_vs_tolerance`; found `pie`"),
        "{message}"
    );
    assert_eq!(saved_pngs(&folder(&h)), 0, "nothing is saved for refused arguments");
}

#[tokio::test]
async fn an_unknown_activity_or_a_night_without_sleep_is_a_tool_error_not_a_crash() {
    let h = Harness::start().await;
    let message = h
        .call_err(
            "render_chart",
            json!({"activity_id": 999_999_999u64, "folder": folder(&h).display().to_string()}),
        )
        .await;
    assert!(message.contains("No activity 999999999"), "{message}");
    let before = data(&h).first - Duration::days(30);
    let message = h
        .call_err(
            "render_chart",
            json!({"kind": "sleep", "date": before.to_string(), "folder": folder(&h).display().to_string()}),
        )
        .await;
    assert!(message.contains("sleep"), "{message}");
}

#[tokio::test]
async fn demo_answers_are_labelled_as_demo_data() {
    let h = Harness::start_with(|mut o| {
        o.demo = true;
        o
    })
    .await;
    let (summary, _, _) = chart(&h, json!({"kind": "training_load"}), 1200, 700).await;
    assert!(summary.starts_with(garmin_mcp::demo::DEMO_LABEL), "{summary}");
}

#[tokio::test]
async fn the_chart_kinds_have_the_date_they_were_asked_for() {
    let h = Harness::start().await;
    let end = NaiveDate::from_ymd_opt(2026, 10, 31).unwrap();
    let (_, data, _) =
        chart(&h, json!({"kind": "health_trend", "date": end.to_string(), "days": 7}), 1200, 700).await;
    assert_eq!(data["period"], format!("{} to {end}", end - Duration::days(6)));
}

/// The real 2018 activity details (fixtures/garmin/activity_details_legacy_2018.json): wrapped,
/// `sumDistance` in km, `directSpeed` in kph, ~20 samples over the first 500 m.
fn legacy_details() -> Value {
    serde_json::from_str(include_str!(
        "../../../../sidecar/fake-garmin/fixtures/garmin/activity_details_legacy_2018.json"
    ))
    .expect("the legacy fixture is JSON")
}

#[tokio::test]
async fn a_pool_swim_chart_takes_its_pace_from_the_laps_not_the_empty_speed_channel() {
    let h = Harness::start().await;
    let swim = newest(&h, Sport::Swimming);
    let (summary, data, _) = chart(&h, json!({"kind": "activity", "activity_id": swim.id}), 1200, 700).await;
    assert_eq!(data["series_source"], "garmin_details", "{summary}");
    assert!(summary.contains("per lap, as Garmin's pool speed channel is empty"), "{summary}");
    assert!(summary.contains("a bar per lap"), "{summary}");
    let paths: Vec<String> = api_requests(&h).into_iter().map(|(p, _)| p).collect();
    assert!(paths.iter().any(|p| p.ends_with(&format!("/activity/{}/splits", swim.id))), "{paths:?}");
}

#[tokio::test]
async fn a_sparse_legacy_recording_takes_its_split_bars_from_the_laps() {
    let h = Harness::start().await;
    let run = newest(&h, Sport::Running);
    h.fake.push_fault(
        FaultRule::always(Fault::Body(legacy_details())).on_path(&format!("/activity/{}/details", run.id)),
    );
    let (summary, data, _) = chart(&h, json!({"kind": "activity", "activity_id": run.id}), 1200, 700).await;
    assert_eq!(data["series_source"], "garmin_details", "{summary}");
    assert_eq!(data["points"], 244, "{summary}");
    assert!(summary.contains("a bar per lap"), "{summary}");
}

/// `--readonly` writes no files, charts included: the chart is shown but not saved, and a `folder`
/// is refused before anything (a folder included) is created.
#[tokio::test]
async fn read_only_charts_are_shown_but_never_saved_and_no_folder_is_created() {
    let h = Harness::start_with(|mut o| {
        o.read_only = true;
        o
    })
    .await;
    let result = h.call("render_chart", json!({"kind": "volume"})).await;
    let summary = text_of(&result);
    assert_ne!(result.is_error, Some(true), "{summary}");
    assert!(summary.contains("Not saved: this server is read-only"), "{summary}");
    assert!(!png_of(&result).is_empty(), "the image is still shown");
    let record = result.content.iter().filter_map(|c| c.as_text()).nth(1).expect("the record");
    let record: Value = serde_json::from_str(&record.text).unwrap();
    assert!(record.get("path").is_none(), "{record}");
    let wanted = h.dir.path().join("new").join("charts");
    let message = h
        .call_invalid("render_chart", json!({"kind": "volume", "folder": wanted.display().to_string()}))
        .await;
    assert!(message.contains("read-only"), "{message}");
    assert!(!wanted.parent().unwrap().exists(), "no folder is created under --readonly");
}
