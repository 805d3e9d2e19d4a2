//! Run: `cargo test -p garmin --test models metrics::`.
//!
//! Metrics fixtures: training status (aggregated and mobile gateway), readiness, VO2max,
//! endurance and hill scores, HR zones.

use garmin::models::metrics::*;

use super::{close, fixture};

#[test]
fn training_status_picks_the_primary_device() {
    let t: TrainingStatus = fixture("training_status.json");
    assert!(t.has_data());
    let status = t.primary_status().unwrap();
    assert_eq!(status.device_id, Some(3_900_000_002));
    assert_eq!(status.training_status, Some(2));
    assert_eq!(status.training_status_feedback_phrase.as_deref(), Some("UNPRODUCTIVE_4"));
    let load = status.acute_training_load.as_ref().unwrap();
    close(load.daily_training_load_acute, 268.0);
    close(load.daily_acute_chronic_workload_ratio, 1.1);
    let balance = t.primary_load_balance().unwrap();
    assert_eq!(balance.training_balance_feedback_phrase.as_deref(), Some("ANAEROBIC_SHORTAGE"));
    close(t.most_recent_vo2_max.as_ref().unwrap().generic.as_ref().unwrap().vo2_max_precise_value, 53.0);
}

#[test]
fn mobile_gateway_parts_unwrap() {
    let latest: TrainingStatusGateway = fixture("training_status_mobile_gateway_latest.json");
    let vo2 = latest.most_recent_vo2_max.unwrap();
    assert_eq!(vo2.status_code, Some(200));
    close(vo2.payload.unwrap().generic.unwrap().vo2_max_precise_value, 44.5);
    let status = latest.most_recent_training_status.unwrap().payload.unwrap();
    assert!(!status.latest_training_status_data.is_empty());

    for name in ["training_status_mobile_gateway_weekly.json", "training_status_mobile_gateway_monthly.json"]
    {
        let period: TrainingStatusGateway = fixture(name);
        let stats = period.vo2_max_statistics.unwrap().payload.unwrap();
        assert!(!stats.metric("ACTIVITY_VO2_MAX").is_empty(), "{name}");
        let report = period.training_status_report.unwrap().payload.unwrap();
        let rows = report.report_data.values().next().unwrap();
        assert!(rows.iter().any(|r| r.training_status.is_some()), "{name}");
    }
}

#[test]
fn readiness_entries_and_the_latest() {
    let entries: Vec<TrainingReadiness> = fixture("training_readiness.json");
    assert_eq!(entries.len(), 5);
    close(entries[0].score, 50.0);
    assert_eq!(entries[0].level.as_deref(), Some("MODERATE"));
    close(entries[0].recovery_time, 2004.0);
    let morning = entries.iter().find(|e| e.input_context.as_deref() == Some("AFTER_WAKEUP_RESET")).unwrap();
    close(morning.score, 80.0);
    close(TrainingReadiness::latest(&entries).unwrap().score, 50.0);

    let none: Vec<TrainingReadiness> = fixture("training_readiness_empty.json");
    assert!(none.is_empty());
    assert!(TrainingReadiness::latest(&none).is_none());
}

#[test]
fn vo2max_endurance_hill_and_zones() {
    let max: Vec<MaxMetrics> = fixture("max_metrics.json");
    close(max[0].generic.as_ref().unwrap().vo2_max_precise_value, 41.4);
    assert!(max[0].cycling.is_none());

    let e: EnduranceScore = fixture("endurance_score.json");
    close(e.overall_score, 4820.0);
    assert_eq!(e.feedback_phrase.as_deref(), Some("30"));
    assert_eq!(e.contributors.len(), 4);
    close(e.contributors[0].contribution, 43.02);

    let h: HillScore = fixture("hill_score.json");
    close(h.overall_score, 20.0);
    close(h.vo2_max, 48.0);

    let empty: HillScoreRange = fixture("hill_score_range_empty.json");
    assert!(!empty.has_data());
    assert_eq!(empty.period_avg_score.get("2025-06-04"), Some(&None));

    let zones: Vec<HrZones> = fixture("hr_zones.json");
    assert_eq!(zones[0].training_method.as_deref(), Some("HR_RESERVE"));
    close(zones[0].zone1_floor, 130.0);
    close(zones[0].max_heart_rate_used, 185.0);
}

#[test]
fn an_activity_types_zone_set_follows_garmins_type_and_parent_type_ids() {
    // The parents themselves, their children (parentTypeId), and a type of no zone sport.
    assert_eq!(HrZones::sport_of_type(Some(1), Some(17)), "RUNNING");
    assert_eq!(HrZones::sport_of_type(Some(6), Some(1)), "RUNNING", "trail running");
    assert_eq!(HrZones::sport_of_type(Some(25), Some(2)), "CYCLING", "indoor cycling");
    assert_eq!(HrZones::sport_of_type(Some(27), Some(26)), "SWIMMING", "lap swimming");
    assert_eq!(HrZones::sport_of_type(Some(9), Some(17)), "DEFAULT", "walking");
    assert_eq!(HrZones::sport_of_type(None, None), "DEFAULT");
    let set = |sport: &str, floor: f64| HrZones {
        sport: Some(sport.to_owned()),
        zone1_floor: Some(floor),
        zone2_floor: Some(floor + 10.0),
        zone3_floor: Some(floor + 20.0),
        zone4_floor: Some(floor + 30.0),
        zone5_floor: Some(floor + 40.0),
        ..HrZones::default()
    };
    let incomplete = HrZones { sport: Some("CYCLING".into()), zone1_floor: Some(90.0), ..HrZones::default() };
    let sets = [set("DEFAULT", 100.0), set("running", 110.0), incomplete];
    assert_eq!(HrZones::floors_for_type(&sets, Some(6), Some(1)).map(|f| f[0]), Some(110.0), "any case");
    assert_eq!(
        HrZones::set_for(&sets, HrZones::sport_of_type(Some(2), Some(17))).and_then(|z| z.zone1_floor),
        Some(90.0),
        "the sport's own set"
    );
    assert_eq!(HrZones::floors_for_type(&sets, Some(2), Some(17)), None, "its floors are not all set: none");
    assert_eq!(HrZones::floors_for_type(&sets, Some(9), Some(17)).map(|f| f[0]), Some(100.0), "DEFAULT");
    assert_eq!(HrZones::floors_for(&[], "RUNNING"), None);
}
