//! Run: `cargo test -p garmin-mcp --test tools recordings::`.
//!
//! What real recordings look like and the tools used to drop or misread: sparse days and nights
//! (no daily summary, no total sleep time, a null sleep block), unnamed activities, laps of sports
//! outside run/ride/swim/walk, and 2018 details in their own units. Each is made on the fake from
//! its own data with an `Overlay` (or a real fixture as the `Body`), as real Garmin answers them
//! (docs/garmin-web-api.md "Sparse answers and real recordings").

use chrono::{Datelike, Duration};
use fake_garmin::data::Dataset;
use fake_garmin::data::activity::Kind;
use fake_garmin::faults::{Fault, FaultRule};
use serde_json::json;

use crate::support::{Harness, api_requests, today};

fn data(h: &Harness) -> std::sync::RwLockReadGuard<'_, Dataset> {
    h.fake.state().inner.data.read().unwrap()
}

/// A day with a night, HRV and a full summary in the fake.
fn some_day() -> chrono::NaiveDate {
    today() - Duration::days(3)
}

#[tokio::test]
async fn a_day_without_a_daily_summary_still_reports_its_stress_and_body_battery_series() {
    let h = Harness::start().await;
    let date = some_day();
    // Garmin answers the summary of such a day with no content (reference §3.3).
    h.fake.push_fault(FaultRule::always(Fault::NoContent).on_path("/usersummary-service/usersummary/daily/"));
    let (text, out) = h.call_ok("get_daily_health", json!({"date": date.to_string()})).await;
    let stress = &out["day"]["stress"];
    let battery = &out["day"]["body_battery"];
    assert!(stress["max"].as_u64().is_some_and(|m| m <= 100), "{out}");
    let (hi, lo) = (battery["highest"].as_u64().unwrap_or(0), battery["lowest"].as_u64().unwrap_or(999));
    assert!(lo <= hi && hi <= 100, "Body Battery from the day's series: {out}");
    assert!(text.contains(&format!("Body Battery {lo}–{hi}")), "{text}");
    let series = format!("/wellness-service/wellness/dailyStress/{date}");
    assert!(api_requests(&h).iter().any(|(p, _)| p.ends_with(&series)), "the series were read");
    let missing = out["missing"].to_string();
    assert!(!missing.contains("stress") && !missing.contains("body_battery"), "{missing}");
}

#[tokio::test]
async fn a_night_without_a_total_sleep_time_still_shows_its_stages_spo2_and_respiration() {
    let h = Harness::start().await;
    let date = some_day();
    h.fake.push_fault(
        FaultRule::always(Fault::Overlay(json!({"dailySleepDTO": {"sleepTimeSeconds": null}})))
            .on_path("/wellness-service/wellness/dailySleepData"),
    );
    // Without the summary, SpO2 and respiration can only come from the night.
    h.fake.push_fault(FaultRule::always(Fault::NoContent).on_path("/usersummary-service/usersummary/daily/"));
    let (text, out) = h.call_ok("get_daily_health", json!({"date": date.to_string()})).await;
    let sleep = &out["day"]["sleep"];
    assert!(sleep.get("total").is_none(), "{sleep}");
    let (deep, spo2, breaths) = {
        let d = data(&h);
        let s = &d.day(date).unwrap().sleep;
        (s.deep_s, s.avg_spo2, s.avg_respiration)
    };
    let minutes = (deep as f64 / 60.0).round() as i64;
    assert_eq!(sleep["deep"], format!("{}:{:02}", minutes / 60, minutes % 60), "{sleep}");
    assert_eq!(out["day"]["spo2"]["avg_pct"].as_f64(), Some(spo2), "{out}");
    assert_eq!(out["day"]["respiration"]["avg_sleeping_brpm"].as_f64(), Some(breaths), "{out}");
    assert!(text.contains("sleep stages recorded but no total sleep time"), "{text}");
}

#[tokio::test]
async fn a_null_sleep_block_keeps_the_resting_heart_rate() {
    let h = Harness::start().await;
    let date = some_day();
    h.fake.push_fault(
        FaultRule::always(Fault::Overlay(json!({"dailySleepDTO": null})))
            .on_path("/wellness-service/wellness/dailySleepData"),
    );
    h.fake.push_fault(FaultRule::always(Fault::NoContent).on_path("/usersummary-service/usersummary/daily/"));
    let (text, out) = h.call_ok("get_daily_health", json!({"date": date.to_string()})).await;
    let resting = data(&h).day(date).unwrap().resting_hr;
    assert_eq!(out["day"]["heart_rate"]["resting_bpm"], resting.round() as u64, "{out}");
    assert!(out["day"].get("sleep").is_none(), "{out}");
    assert!(text.contains(&format!("resting HR {} bpm", resting.round())), "{text}");
}

#[tokio::test]
async fn unnamed_activities_are_called_by_their_type_and_place() {
    let h = Harness::start().await;
    let (run, place) = {
        let d = data(&h);
        let run = d.live().rev().find(|a| a.kind == Kind::Tempo).cloned().expect("a run");
        (run, d.zone.place.to_owned())
    };
    // Garmin sends `activityName: null` for some uploads and manual entries.
    h.fake.push_fault(
        FaultRule::always(Fault::Overlay(json!({"activityName": null})))
            .on_path(&format!("/activity-service/activity/{}", run.id)),
    );
    h.fake.push_fault(
        FaultRule::always(Fault::Overlay(json!([{"*": {"activityName": null}}])))
            .on_path("/activitylist-service/activities/search/activities"),
    );
    let (text, out) = h.call_ok("get_activity", json!({"activity_id": run.id})).await;
    let want = format!("Running in {place}");
    assert_eq!(out["name"], want, "{out}");
    assert!(text.contains(&format!("“{want}”")), "{text}");
    let day = run.start_local.date().to_string();
    let (_, list) = h.call_ok("list_activities", json!({"start_date": day, "end_date": day})).await;
    assert!(
        list["activities"].as_array().unwrap().iter().all(|r| r["name"] != "" && r["name"] != "Activity"),
        "{list}"
    );
    let date = run.start_local.date();
    let (_, month) = h.call_ok("get_calendar", json!({"year": date.year(), "month": date.month()})).await;
    let names = month["days"].to_string();
    assert!(names.contains(&want) && !names.contains("\"Activity\""), "{names}");
}

#[tokio::test]
async fn get_activity_splits_laps_of_sports_outside_run_ride_swim_and_walk() {
    let h = Harness::start().await;
    let ride = data(&h).live().rev().find(|a| a.kind == Kind::Ride).cloned().expect("a ride");
    // A backcountry ski tour: Garmin's type outside the four families, with its laps.
    h.fake.push_fault(
        FaultRule::always(Fault::Overlay(json!({"activityTypeDTO":
            {"typeId": 204, "typeKey": "backcountry_skiing", "parentTypeId": 4}})))
        .on_path(&format!("/activity-service/activity/{}", ride.id)),
    );
    let (text, out) = h.call_ok("get_activity", json!({"activity_id": ride.id})).await;
    assert_eq!(out["type"], "backcountry_skiing");
    let rows = out["splits"]["rows"].as_array().unwrap_or_else(|| panic!("splits: {out}"));
    assert!(!rows.is_empty(), "{out}");
    assert!(rows.iter().all(|r| r["speed_kmh"].is_number()), "{rows:?}");
    assert!(!out["missing"].to_string().contains("no laps"), "{out} {text}");
}

#[tokio::test]
async fn legacy_details_are_read_in_their_own_units() {
    let h = Harness::start().await;
    let run = data(&h).live().rev().find(|a| a.kind == Kind::Tempo).cloned().expect("a run");
    let legacy: serde_json::Value = serde_json::from_str(include_str!(
        "../../../../sidecar/fake-garmin/fixtures/garmin/activity_details_legacy_2018.json"
    ))
    .unwrap();
    h.fake
        .push_fault(FaultRule::always(Fault::Body(legacy)).on_path(&format!("/activity/{}/details", run.id)));
    let (_, out) = h
        .call_ok("get_activity", json!({"activity_id": run.id, "include_series": true, "max_points": 1000}))
        .await;
    let series = &out["series"];
    assert_eq!(series["recorded_points"], 244);
    // sumDistance is in km there (8.2255 at the end) and directSpeed in kph.
    let last_km = series["distance_km"].as_array().unwrap().iter().rev().find_map(|v| v.as_f64()).unwrap();
    assert!((last_km - 8.23).abs() < 0.01, "{last_km}");
    let paces: Vec<u64> =
        series["pace_s_per_km"].as_array().unwrap().iter().filter_map(|v| v.as_u64()).collect();
    let median = {
        let mut p = paces.clone();
        p.sort_unstable();
        p[p.len() / 2]
    };
    // 2627 s over 8.23 km: about 320 s/km, not 3.6 times faster.
    assert!((250..450).contains(&median), "median pace {median} s/km");
}
