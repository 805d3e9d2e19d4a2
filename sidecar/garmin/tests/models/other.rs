//! Run: `cargo test -p garmin --test models other::`.
//!
//! Profile, device and personal-record fixtures.

use chrono::{TimeZone, Utc};
use garmin::models::devices::DeviceAppInfo;
use garmin::models::profile::*;
use garmin::models::records::PersonalRecord;

use super::{close, fixture};

#[test]
fn social_profile_and_settings() {
    let p: SocialProfile = fixture("user_profile.json");
    assert_eq!(p.profile_id, Some(1_000_001));
    assert_eq!(p.id, Some(1_000_101));
    assert_eq!(p.display_name.as_deref(), Some("fake-athlete-1"));
    assert_eq!(p.full_name.as_deref(), Some("Alex Example"));
    assert!(p.user_roles.iter().any(|r| r == "ROLE_CONNECTUSER"));
    assert_eq!(p.user_level, Some(3));
    close(p.user_point, 118.0);
    close(p.level_point_threshold, 140.0);

    let s: UserSettings = fixture("user_settings.json");
    let data = s.user_data.as_ref().unwrap();
    close(data.weight, 83000.0);
    close(data.height, 182.0);
    assert_eq!(data.measurement_system.as_deref(), Some("metric"));
    close(data.vo2_max_running, 45.0);
    assert_eq!(data.first_day_of_week.as_ref().unwrap().day_name.as_deref(), Some("sunday"));
    assert_eq!(s.user_sleep.as_ref().unwrap().sleep_time, Some(80400));
    assert_eq!(s.user_sleep_windows.len(), 8);
}

#[test]
fn lifetime_statistics_per_type() {
    let stats: UserStatistics = fixture("user_statistics.json");
    assert_eq!(stats.user_profile_id, Some(1_000_002));
    let all = &stats.user_metrics[0];
    assert_eq!(all.activity_type.as_ref().unwrap().type_key.as_deref(), Some("all"));
    assert_eq!(all.total_activities, Some(1028));
}

#[test]
fn device_product_info() {
    let d: DeviceAppInfo = fixture("device_app_info.json");
    assert_eq!(d.product_display_name.as_deref(), Some("fēnix 5"));
    assert_eq!(d.unit_id, Some(3_900_000_007));
    assert_eq!(d.version_string.as_deref(), Some("8.0.0.0"));
    assert_eq!(d.has_optical_heart_rate, Some(true));
}

#[test]
fn personal_records() {
    let prs: Vec<PersonalRecord> = fixture("personal_records.json");
    assert_eq!(prs.len(), 2);
    assert_eq!((prs[0].type_id, prs[0].activity_id), (Some(1), Some(90_000_000_015)));
    close(prs[0].value, 213.813_995_361_328_12);
    assert_eq!(prs[0].pr_start_time_gmt, Some(Utc.with_ymd_and_hms(2024, 7, 30, 23, 25, 26).unwrap()));
    assert_eq!(prs[0].date().map(|d| d.to_string()).as_deref(), Some("2024-07-30"));

    let older: Vec<PersonalRecord> = fixture("personal_records_2023.json");
    assert_eq!((older[0].type_id, older[0].activity_id), (Some(16), Some(0)));
    close(older[0].value, 2.0);
    assert!(older[0].pr_start_time_local.is_some());
}

#[test]
fn an_adhoc_challenge_reads_its_name_days_and_ranking_and_ignores_the_rest() {
    use garmin::models::challenges::AdHocChallenge;
    let c: AdHocChallenge = serde_json::from_value(serde_json::json!({
        "uuid": "AB12", "adHocChallengeName": "Weekday Step Duel", "adHocChallengeDesc": null,
        "startDate": "2026-10-06T00:00:00.0", "endDate": "2026-10-12T23:59:59.0",
        "userRanking": 1, "players": [{"score": 3, "ranking": 1}]
    }))
    .unwrap();
    assert_eq!(c.ad_hoc_challenge_name.as_deref(), Some("Weekday Step Duel"));
    assert_eq!(c.start_date.map(|d| d.to_string()).as_deref(), Some("2026-10-06"));
    assert_eq!(c.end_date.map(|d| d.to_string()).as_deref(), Some("2026-10-12"));
    assert_eq!(c.user_ranking, Some(1));
}

#[test]
fn training_plans_read_in_each_shape_garmin_sends() {
    use garmin::models::training_plans::TrainingPlans;
    let wrapped: TrainingPlans = serde_json::from_value(serde_json::json!({
        "trainingPlanList": [{
            "trainingPlanId": 42, "name": "Half marathon", "trainingStatus": {"statusKey": "ACTIVE"},
            "startDate": "2026-09-01", "endDate": "2026-11-30T00:00:00.0", "unknown": [1, 2]
        }],
        "totalCount": 1
    }))
    .unwrap();
    let plan = &wrapped.plans[0];
    assert_eq!((plan.training_plan_id, plan.title()), (Some(42), Some("Half marathon")));
    assert_eq!(plan.status_key(), Some("ACTIVE"));
    assert_eq!(plan.first_day().map(|d| d.to_string()).as_deref(), Some("2026-09-01"));
    assert_eq!(plan.last_day().map(|d| d.to_string()).as_deref(), Some("2026-11-30"));

    let bare: TrainingPlans = serde_json::from_value(serde_json::json!([
        {"planName": "5K", "trainingStatus": "COMPLETED", "targetEventDate": "2026-05-03"},
        {"trainingPlanName": " ", "status": "ACTIVE"}
    ]))
    .unwrap();
    assert_eq!(bare.plans[0].title(), Some("5K"));
    assert_eq!(bare.plans[0].status_key(), Some("COMPLETED"));
    assert_eq!(bare.plans[0].last_day().map(|d| d.to_string()).as_deref(), Some("2026-05-03"));
    assert_eq!(bare.plans[1].title(), None);
    assert_eq!(bare.plans[1].status_key(), Some("ACTIVE"));

    let old: TrainingPlans =
        serde_json::from_value(serde_json::json!({"plans": [{"name": "Base"}]})).unwrap();
    assert_eq!(old.plans[0].title(), Some("Base"));
    let empty: TrainingPlans =
        serde_json::from_value(serde_json::json!({"trainingPlanList": [], "totalCount": 0})).unwrap();
    assert!(empty.plans.is_empty());
}
