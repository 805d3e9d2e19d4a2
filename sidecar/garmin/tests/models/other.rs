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
