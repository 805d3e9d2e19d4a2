//! Run: `cargo test -p garmin --test models activities::`.
//!
//! Activity fixtures: list rows (current and legacy), one activity (current, 2018, multisport),
//! chart details, zones, types, fitness stats, uploads and Garmin's error bodies.

use chrono::{NaiveDate, TimeZone, Utc};
use garmin::models::activities::*;
use garmin::models::common::ErrorBody;

use super::{close, fixture};

#[test]
fn activity_list_rows() {
    let list: Vec<ActivitySummary> = fixture("activity_list.json");
    assert_eq!(list.len(), 3);
    let a = &list[0];
    assert_eq!(a.activity_id, Some(90_000_000_019));
    assert_eq!(a.activity_name.as_deref(), Some("Sampletown - Base"));
    assert_eq!(a.type_key(), Some("trail_running"));
    assert_eq!(
        a.start_time_local,
        NaiveDate::from_ymd_opt(2026, 1, 8).and_then(|d| d.and_hms_opt(8, 10, 21))
    );
    assert_eq!(a.start_time_gmt, Some(Utc.with_ymd_and_hms(2026, 1, 8, 14, 10, 21).unwrap()));
    assert_eq!(a.begin_timestamp, a.start_time_gmt);
    close(a.distance, 4_261.189_941_406_25);
    close(a.average_hr, 142.0);
    close(a.vo2_max_value, 45.0);
    close(a.hr_time_in_zones()[0], 376.545);
    close(a.power_time_in_zone_5, 39.998);
    close(a.fastest_split_1000, 395.313_995_361_328_1);
    assert_eq!(display::pace(a.pace_seconds_per_km().unwrap(), display::PaceStyle::Colon), "8:42");

    let legacy: Vec<ActivitySummary> = fixture("activity_list_legacy.json");
    assert_eq!(legacy.len(), 3);
    assert_eq!(legacy[0].type_key(), Some("walking"));
    close(legacy[0].average_hr, 78.0);
    assert_eq!(legacy[0].parent_id, None);
}

#[test]
fn one_activity_current_form() {
    let a: Activity = fixture("activity_summary.json");
    assert_eq!(a.activity_id, Some(90_000_000_019));
    assert_eq!(a.type_key(), Some("trail_running"));
    let meta = a.metadata.as_ref().unwrap();
    assert_eq!(meta.lap_count, Some(2));
    assert_eq!(meta.associated_workout_id, Some(3_900_000_006));
    // `deviceId` comes as a string here.
    assert_eq!(meta.device_meta_data.as_ref().unwrap().device_id, Some(3_900_000_006));
    let s = a.summary.as_ref().unwrap();
    close(s.distance, 4261.19);
    close(s.direct_workout_compliance_score, 92.0);
    close(s.min_hr, 122.0);
    assert_eq!(a.split_summaries.len(), 3);
    assert_eq!(a.split_summaries[0].split_type.as_deref(), Some("RWD_WALK"));
    assert_eq!(a.time_zone_unit.as_ref().unwrap().time_zone.as_deref(), Some("America/Costa_Rica"));
}

#[test]
fn one_activity_2018_and_multisport_forms() {
    let a: Activity = fixture("activity_summary_legacy_2018.json");
    assert_eq!(a.type_key(), Some("cross_country_skiing"));
    assert_eq!(a.metadata.as_ref().unwrap().lap_count, Some(9));
    close(a.summary.as_ref().unwrap().distance, 8225.53);

    let parent: Activity = fixture("activity_summary_multisport_parent.json");
    assert_eq!(parent.is_multi_sport_parent, Some(true));
    let meta = parent.metadata.as_ref().unwrap();
    assert_eq!(meta.child_ids.len(), 5);
    assert_eq!(meta.child_ids[2], 90_000_000_004);
    assert_eq!(meta.child_activity_types[1], "transition");

    let child: Activity = fixture("activity_summary_multisport_child.json");
    assert_eq!(child.parent_id, Some(90_000_000_003));
}

#[test]
fn details_2018_wrapped_form_is_unwrapped() {
    let d: ActivityDetails = fixture("activity_details_legacy_2018.json");
    assert_eq!(d.activity_id, Some(90_000_000_001));
    assert_eq!(d.metric_descriptors.len(), 18);
    assert_eq!(d.activity_detail_metrics.len(), 244);
    assert_eq!(d.column("directHeartRate"), Some(6));
    assert_eq!(d.unit("directHeartRate"), Some("bpm"));
    let hr = d.values("directHeartRate");
    assert_eq!(hr.len(), 244);
    close(hr[0], 84.0);
    assert!(d.values("noSuchMetric").is_empty());
}

#[test]
fn zones_types_and_fitness_stats() {
    let zones: Vec<TimeInZone> = fixture("activity_hr_time_in_zones.json");
    assert_eq!(zones.len(), 5);
    assert_eq!(zones[0].zone_number, Some(3));
    close(zones[0].secs_in_zone, 567.662);
    close(zones[0].zone_low_boundary, 148.0);

    let types: Vec<ActivityType> = fixture("activity_types.json");
    assert_eq!(types.len(), 152);
    assert_eq!((types[0].type_id, types[0].type_key.as_deref()), (Some(1), Some("running")));
    assert_eq!(types[0].parent_type_id, Some(17));

    let stats: Vec<FitnessStatsActivity> = fixture("fitness_stats_activity.json");
    assert_eq!(stats.len(), 6);
    assert_eq!(stats[0].activity_id, Some(90_000_000_018));
    assert_eq!(stats[0].activity_type.as_deref(), Some("hiking"));
}

#[test]
fn upload_results_and_error_bodies() {
    let ok: UploadResult = fixture("upload_response_202.json");
    let result = ok.detailed_import_result.unwrap();
    assert_eq!(result.upload_id, Some(212_157_427_938));
    assert_eq!(result.file_name.as_deref(), Some("12129115726_ACTIVITY.fit"));

    let dup: UploadResult = fixture("upload_response_409_duplicate.json");
    let result = dup.detailed_import_result.unwrap();
    // `uploadId: ""` reads as absent.
    assert_eq!(result.upload_id, None);
    let message = &result.failures[0].messages[0];
    assert_eq!((message.code, message.content.as_deref()), (Some(202), Some("Duplicate Activity.")));
    assert_eq!(result.failures[0].internal_id, Some(90_000_000_016));

    let not_found: ErrorBody = fixture("error_404_not_found.json");
    assert_eq!(not_found.error.as_deref(), Some("NotFoundException"));
    let not_owner: ErrorBody = fixture("error_403_download_not_owner.json");
    assert!(not_owner.message.unwrap().starts_with("Only owner"));
}
