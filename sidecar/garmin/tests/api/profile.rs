//! Run: `cargo test -p garmin --test api profile::`.
//!
//! The account and its devices.

use super::support::start;

#[tokio::test]
async fn profile_settings_and_totals() {
    let env = start().await;
    let api = env.client.profile();
    let social = api.social_profile().await.unwrap();
    assert_eq!(social.display_name.as_deref(), Some("fake-athlete-1"));
    assert_eq!(social.profile_id, Some(1_000_001));

    let settings = api.user_settings().await.unwrap();
    let data = settings.user_data.unwrap();
    assert!((40_000.0..150_000.0).contains(&data.weight.unwrap()), "weight in grams");
    assert!(data.measurement_system.is_some());
    assert!(api.settings().await.unwrap().time_zone.is_some());
    let personal = api.personal_information().await.unwrap();
    assert!(personal.user_info.unwrap().birth_date.is_some());
    assert!(!api.statistics().await.unwrap().user_metrics.is_empty());
    let totals = api.lifetime_totals().await.unwrap();
    assert!(totals.total_activities.unwrap() > 100 && totals.total_distance.unwrap() > 1_000_000.0);
}

#[tokio::test]
async fn devices_and_their_settings() {
    let env = start().await;
    let api = env.client.devices();
    let devices = api.list().await.unwrap();
    assert!(devices.len() >= 2);
    let watch = devices.iter().find(|d| d.primary_activity_tracker_indicator == Some(true)).unwrap();
    assert!(watch.name().is_some());
    let id = watch.device_id.unwrap();

    let last = api.last_used().await.unwrap().unwrap();
    assert_eq!(last.user_device_id, Some(id));
    assert!(api.app_info(id).await.unwrap().unwrap().product_display_name.is_some());
    assert_eq!(api.settings(id).await.unwrap().unwrap().device_id, Some(id));
}
