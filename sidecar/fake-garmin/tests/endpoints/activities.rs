//! Run: `cargo test -p fake-garmin --test endpoints activities::`.
//!
//! Activity endpoints: list filters and 0-based paging, count, details thinned to
//! `maxChartSize`, laps that add up, per-sport extras, weather in °F, records that follow the
//! activities, and rename/delete showing up in later reads.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::support::{Api, type_key, yesterday};

const LIST: &str = "/activitylist-service/activities/search/activities";

fn ids(v: &Value) -> Vec<u64> {
    v.as_array().map(|l| l.iter().filter_map(|a| a["activityId"].as_u64()).collect()).unwrap_or_default()
}

#[tokio::test]
async fn activity_list_pages_with_a_zero_based_start_newest_first() {
    let api = Api::start().await;
    let ten = ids(&api.get(&format!("{LIST}?start=0&limit=10")).await);
    let first = ids(&api.get(&format!("{LIST}?start=0&limit=5")).await);
    let second = ids(&api.get(&format!("{LIST}?start=5&limit=5")).await);
    assert_eq!([first, second].concat(), ten);
    assert!(ten.windows(2).all(|w| w[0] > w[1]), "newest first");
    let total =
        api.get("/activitylist-service/activities/count").await["totalCount"].as_u64().expect("count");
    assert_eq!(api.all_activities().await.len() as u64, total);
}

#[tokio::test]
async fn activity_list_filters_by_type_and_date() {
    let api = Api::start().await;
    let runs = api.get(&format!("{LIST}?start=0&limit=1000&activityType=running")).await;
    assert!(runs.as_array().is_some_and(|l| l.len() > 150 && l.iter().all(|a| type_key(a) == "running")));
    let swims = api.get(&format!("{LIST}?start=0&limit=1000&activityType=swimming")).await;
    assert!(
        swims.as_array().is_some_and(|l| !l.is_empty() && l.iter().all(|a| type_key(a) == "lap_swimming"))
    );
    let y = yesterday();
    let month = api
        .get(&format!("{LIST}?start=0&limit=100&startDate={}&endDate={y}", y - chrono::Duration::days(29)))
        .await;
    let list = month.as_array().expect("list");
    assert!((15..=40).contains(&list.len()), "{}", list.len());
    assert!(list.iter().all(|a| a["startTimeLocal"].as_str().is_some_and(|s| s[..10]
        >= *(y - chrono::Duration::days(29)).to_string()
        && s[..10] <= *y.to_string())));
    let count = api
        .get(&format!(
            "/activitylist-service/activities/count?activityType=running&startDate={y}&endDate={y}"
        ))
        .await;
    assert_eq!(count["totalCount"], 1);
    let (status, _) = api.json(reqwest::Method::GET, &format!("{LIST}?startDate=03/01/2026"), None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn details_respect_max_chart_size_and_follow_the_laps() {
    let api = Api::start().await;
    let run = api.newest(|a| type_key(a) == "running").await;
    let id = run["activityId"].as_u64().expect("id");
    let full = api.get(&format!("/activity-service/activity/{id}/details?maxChartSize=100000")).await;
    let total = full["totalMetricsCount"].as_u64().expect("count");
    assert_eq!(full["activityDetailMetrics"].as_array().map(Vec::len), Some(total as usize));
    let thin = api
        .get(&format!("/activity-service/activity/{id}/details?maxChartSize=100&maxPolylineSize=50"))
        .await;
    assert_eq!(thin["activityDetailMetrics"].as_array().map(Vec::len), Some(100));
    assert_eq!(thin["geoPolylineDTO"]["polyline"].as_array().map(Vec::len), Some(50));
    let keys: Vec<&str> = thin["metricDescriptors"]
        .as_array()
        .expect("descriptors")
        .iter()
        .filter_map(|d| d["key"].as_str())
        .collect();
    for k in [
        "directTimestamp",
        "sumDistance",
        "sumDuration",
        "directSpeed",
        "directHeartRate",
        "directRunCadence",
        "directElevation",
        "directLatitude",
        "directLongitude",
    ] {
        assert!(keys.contains(&k), "{k} in {keys:?}");
    }
    let dist_col = keys.iter().position(|k| *k == "sumDistance").expect("column");
    let last = &full["activityDetailMetrics"][total as usize - 1]["metrics"][dist_col];
    let distance = run["distance"].as_f64().expect("distance");
    assert!((last.as_f64().expect("number") - distance).abs() < 0.05, "series ends at the activity distance");
    let splits = api.get(&format!("/activity-service/activity/{id}/splits")).await;
    let laps = splits["lapDTOs"].as_array().expect("laps");
    let sum: f64 = laps.iter().filter_map(|l| l["distance"].as_f64()).sum();
    assert!((sum - distance).abs() < 0.5, "laps add up: {sum} vs {distance}");
    assert_eq!(laps.len() as u64, run["lapCount"].as_u64().expect("lapCount"));
    let zones: f64 = api
        .get(&format!("/activity-service/activity/{id}/hrTimeInZones"))
        .await
        .as_array()
        .expect("zones")
        .iter()
        .filter_map(|z| z["secsInZone"].as_f64())
        .sum();
    assert!((zones - run["duration"].as_f64().expect("duration")).abs() < 10.0);
}

#[tokio::test]
async fn swims_have_pool_lengths_strength_has_sets_and_weather_is_fahrenheit() {
    let api = Api::start().await;
    let swim = api.newest(|a| type_key(a) == "lap_swimming").await;
    let splits = api.get(&format!("/activity-service/activity/{}/splits", swim["activityId"])).await;
    assert!(
        splits["lapDTOs"]
            .as_array()
            .expect("laps")
            .iter()
            .any(|l| l["lengthDTOs"].as_array().is_some_and(|x| !x.is_empty()))
    );
    let strength = api.newest(|a| type_key(a) == "strength_training").await;
    let sets = api.get(&format!("/activity-service/activity/{}/exerciseSets", strength["activityId"])).await;
    let sets = sets["exerciseSets"].as_array().expect("sets");
    assert!(sets.iter().any(|s| s["setType"] == "ACTIVE"
        && s["exercises"][0]["category"].is_string()
        && s["weight"].is_number()));
    let run = api.newest(|a| type_key(a) == "running").await;
    let weather = api.get(&format!("/activity-service/activity/{}/weather", run["activityId"])).await;
    let temp = weather["temp"].as_f64().expect("temp");
    let celsius = run["maxTemperature"].as_f64().expect("watch temperature");
    assert!(
        (temp - (celsius * 9.0 / 5.0 + 32.0)).abs() < 12.0 && temp > 40.0,
        "weather {temp} °F vs watch {celsius} °C"
    );
    assert_eq!(
        api.status(&format!("/activity-service/activity/{}/weather", swim["activityId"])).await,
        StatusCode::NO_CONTENT
    );
}

#[tokio::test]
async fn personal_records_point_at_the_fastest_runs() {
    let api = Api::start().await;
    let prs = api.get(&format!("/personalrecord-service/personalrecord/prs/{}", api.display_name)).await;
    let prs = prs.as_array().expect("records");
    let types: Vec<u64> = prs.iter().filter_map(|p| p["typeId"].as_u64()).collect();
    for t in [1, 2, 3, 4, 5, 7, 8, 12] {
        assert!(types.contains(&t), "record type {t} in {types:?}");
    }
    let five_k = prs.iter().find(|p| p["typeId"] == 3).expect("5K");
    let all = api.all_activities().await;
    let fastest = all.iter().filter_map(|a| a["fastestSplit_5000"].as_f64()).fold(f64::MAX, f64::min);
    assert!((five_k["value"].as_f64().expect("value") - fastest).abs() < 0.01);
    let holder = five_k["activityId"].as_u64().expect("id");
    assert_eq!(api.delete(&format!("/activity-service/activity/{holder}")).await, StatusCode::NO_CONTENT);
    let after = api.get(&format!("/personalrecord-service/personalrecord/prs/{}", api.display_name)).await;
    let new_holder = after
        .as_array()
        .and_then(|l| l.iter().find(|p| p["typeId"] == 3))
        .and_then(|p| p["activityId"].as_u64());
    assert_ne!(new_holder, Some(holder), "deleting the record run moves the record");
}

#[tokio::test]
async fn renamed_and_deleted_activities_show_in_later_reads() {
    let api = Api::start().await;
    let run = api.newest(|a| type_key(a) == "running").await;
    let id = run["activityId"].as_u64().expect("id");
    let path = format!("/activity-service/activity/{id}");
    let (status, _) = api
        .put(&path, &json!({"activityId": id, "activityName": "Renamed 雨中跑", "description": "wet"}))
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let summary = api.get(&path).await;
    assert_eq!(summary["activityName"], "Renamed 雨中跑");
    assert_eq!(summary["description"], "wet");
    assert_eq!(api.get(&format!("{LIST}?start=0&limit=1")).await[0]["activityName"], "Renamed 雨中跑");
    let (status, _) = api.put(&path, &json!({"activityId": id + 1, "activityName": "x"})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let before =
        api.get("/activitylist-service/activities/count").await["totalCount"].as_u64().expect("count");
    assert_eq!(api.delete(&path).await, StatusCode::NO_CONTENT);
    assert_eq!(api.status(&path).await, StatusCode::NOT_FOUND);
    assert_eq!(api.delete(&path).await, StatusCode::NOT_FOUND);
    assert_eq!(
        api.get("/activitylist-service/activities/count").await["totalCount"].as_u64(),
        Some(before - 1)
    );
    assert!(!ids(&api.get(&format!("{LIST}?start=0&limit=5")).await).contains(&id));
    let (status, _) = api.put(&path, &json!({"activityName": "ghost"})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn gear_stats_sum_the_activities_that_used_the_gear() {
    let api = Api::start().await;
    let gear = api.get("/gear-service/gear/filterGear?userProfilePk=1000001").await;
    let gear = gear.as_array().expect("gear");
    assert_eq!(gear.iter().filter(|g| g["gearTypeName"] == "Shoes").count(), 3);
    assert_eq!(gear.iter().filter(|g| g["gearTypeName"] == "Bike").count(), 1);
    let run = api.newest(|a| type_key(a) == "running").await;
    let used = api.get(&format!("/gear-service/gear/filterGear?activityId={}", run["activityId"])).await;
    let uuid = used[0]["uuid"].as_str().expect("the run's shoe").to_owned();
    let stats = api.get(&format!("/gear-service/gear/stats/{uuid}")).await;
    assert!(stats["totalActivities"].as_u64().is_some_and(|n| n > 10));
    assert!(stats["totalDistance"].as_f64().is_some_and(|m| m > 100_000.0));
    assert_eq!(api.get("/gear-service/gear/v2/list").await.as_array().map(Vec::len), Some(4));
}
