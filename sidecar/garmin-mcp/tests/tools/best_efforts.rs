//! Run: `cargo test -p garmin-mcp --test tools best_efforts::`.
//!
//! `get_best_efforts` against a history synced from the fake (2026-08-01 to 2026-11-14, today
//! pinned to 2026-11-15): the curve equals the element-wise maximum of per-activity curves computed
//! here from the fake's own series (not from the history), every point names the ride that set it,
//! the answer comes from the history alone (no Garmin request), a sport without power gets a plain
//! answer, and bad arguments are refused naming the argument.

use analytics::mean_max::{STANDARD_DURATIONS, mean_max, merge_curves, resample_1hz};
use fake_garmin::data::activity::Sport;
use fake_garmin::data::series;
use serde_json::json;

use crate::support::{Harness, api_requests, synced_since};

async fn synced() -> Harness {
    synced_since("2026-08-01").await
}

#[tokio::test]
async fn the_curve_is_the_element_wise_max_of_the_rides_curves_computed_from_the_fakes_series() {
    let h = synced().await;
    h.fake.clear_requests();
    let args =
        json!({"start_date": "2026-08-01", "end_date": "2026-11-14", "sport": "cycling", "compare": false});
    let (text, data) = h.call_ok("get_best_efforts", args).await;
    assert_eq!(api_requests(&h), Vec::<(String, String)>::new(), "the history answers alone");
    assert_eq!(data["metric"], "power", "{data}");
    assert!(
        data["summary"].as_str().unwrap().contains("Best efforts"),
        "structured content carries the summary"
    );
    assert!(text.contains("Conventions:") && text.contains("Source: the local history"), "{text}");

    // Independently: every ride of the range, its 5 s power rows as Garmin's details send them
    // (whole watts), resampled and reduced here.
    let (ids, curves): (Vec<u64>, Vec<_>) = {
        let d = h.fake.state().inner.data.read().unwrap();
        let first: chrono::NaiveDate = "2026-08-01".parse().unwrap();
        let last: chrono::NaiveDate = "2026-11-14".parse().unwrap();
        d.live()
            .filter(|a| a.sport() == Sport::Cycling && (first..=last).contains(&a.start_local.date()))
            .map(|a| {
                let rows: Vec<(f64, Option<f64>)> =
                    series::samples(a).iter().map(|s| (s.t, Some(s.power.round()))).collect();
                (a.id, mean_max(&resample_1hz(&rows, 86_400), &STANDARD_DURATIONS))
            })
            .unzip()
    };
    assert!(ids.len() >= 5, "the fake has rides in the range: {}", ids.len());
    let want = merge_curves(&curves);
    let got = data["curve"].as_array().unwrap();
    assert_eq!(got.len(), want.points.len(), "{data}");
    for (g, w) in got.iter().zip(&want.points) {
        assert_eq!(g["seconds"].as_u64().unwrap() as u32, w.seconds);
        let value = g["value"].as_f64().unwrap();
        assert!((value - w.value).abs() < 1e-3, "{}s: {value} vs {}", w.seconds, w.value);
        let setter = g["activity_id"].as_u64().unwrap();
        assert!(
            curves[ids.iter().position(|i| *i == setter).unwrap()].at(w.seconds).unwrap() >= w.value - 1e-3
        );
    }
    // The fit is stated either way: a CP or the reason there is none.
    assert!(data["critical_power"].is_object() || data["critical_power_note"].is_string(), "{data}");
}

#[tokio::test]
async fn swims_without_power_get_a_plain_answer_and_runs_get_best_times() {
    let h = synced().await;
    let (text, data) = h
        .call_ok("get_best_efforts", json!({"start_date": "2026-08-01", "end_date": "2026-11-14", "sport": "swimming", "metric": "power"}))
        .await;
    assert_eq!(data["curve"], json!([]), "{data}");
    assert!(data["reading"].as_str().unwrap().contains("recorded power"), "{data}");
    assert!(text.contains("no curve"), "{text}");

    let (_, runs) =
        h.call_ok("get_best_efforts", json!({"start_date": "2026-08-01", "end_date": "2026-11-14"})).await;
    assert_eq!(runs["metric"], "speed");
    let times = runs["best_times"].as_array().unwrap();
    assert!(times.iter().any(|t| t["distance"] == "5 km"), "{runs}");
    assert!(runs["curve"][0]["shown"].as_str().unwrap().ends_with("/km"), "{runs}");
    // The comparison year is not in the history: said, not an error.
    assert!(
        runs["notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n.as_str().unwrap().starts_with("comparison period")),
        "{runs}"
    );
}

#[tokio::test]
async fn bad_best_effort_arguments_are_refused_naming_the_argument() {
    let h = Harness::start().await;
    let err = h.call_err("get_best_efforts", json!({"sport": "rowing"})).await;
    assert!(err.contains("sport must be running, cycling or swimming"), "{err}");
    let err = h.call_err("get_best_efforts", json!({"metric": "watts"})).await;
    assert!(err.contains("metric must be power, pace or hr"), "{err}");
    let (_, data) = h.call_ok("get_best_efforts", json!({})).await;
    assert!(data["reading"].as_str().unwrap().contains("does not cover"), "{data}");
}

#[tokio::test]
async fn render_chart_mean_max_draws_get_best_efforts_curve_and_quotes_its_reading() {
    // The chart's season is the 365 days ending `date`.
    let h = synced_since("2025-11-15").await;
    let folder = h.dir.path().join("charts");
    let args = json!({"kind": "mean_max", "sport": "cycling", "metric": "power", "date": "2026-11-14",
        "folder": folder.display().to_string()});
    let result = h.call("render_chart", args).await;
    let summary = crate::support::text_of(&result);
    assert_ne!(result.is_error, Some(true), "{summary}");
    assert!(result.content.iter().any(|c| c.as_image().is_some()), "an image is shown");
    let record: serde_json::Value =
        serde_json::from_str(&result.content.iter().filter_map(|c| c.as_text()).nth(1).unwrap().text)
            .unwrap();
    assert_eq!(record["kind"], "mean_max");
    let (_, bests) = h
        .call_ok("get_best_efforts", json!({"end_date": "2026-11-14", "sport": "cycling", "metric": "power"}))
        .await;
    assert_eq!(record["points"], bests["curve"].as_array().unwrap().len());
    assert!(summary.contains(bests["reading"].as_str().unwrap()), "{summary}");
    // Arguments of other kinds are refused, naming the kinds they are for.
    let message = h.call_invalid("render_chart", json!({"kind": "mean_max", "stacked": true})).await;
    assert!(message.contains("`stacked` does not apply to kind=mean_max"), "{message}");
    let message = h.call_invalid("render_chart", json!({"kind": "mean_max", "metric": "hrv"})).await;
    assert!(message.contains("mean_max takes power, pace or hr"), "{message}");
}
