//! Run: `cargo test -p garmin --test models no_data::`.
//!
//! "No data" must never fail to decode: `{}`, `[]`, `null` members and all-null objects read as
//! empty models that say they have no data.

use garmin::models::activities::{Activity, ActivityDetails, ActivitySplits, ActivitySummary};
use garmin::models::calendar::CalendarMonth;
use garmin::models::metrics::{HillScoreRange, TrainingReadiness, TrainingStatus};
use garmin::models::wellness::{
    BloodPressureRange, BodyBatteryReport, DailyStress, DailySummary, HeartRateDay, Hrv, Sleep, WeightRange,
};
use garmin::models::workouts::Workout;
use serde::de::DeserializeOwned;

fn decodes<T: DeserializeOwned + Default + PartialEq + std::fmt::Debug>(json: &str) -> T {
    serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"))
}

macro_rules! empty_objects_decode {
    ($($ty:ty),* $(,)?) => {$(
        assert_eq!(decodes::<$ty>("{}"), <$ty>::default(), "{}", stringify!($ty));
    )*};
}

#[test]
fn empty_objects_decode_as_defaults() {
    empty_objects_decode!(
        Activity,
        ActivityDetails,
        ActivitySplits,
        ActivitySummary,
        CalendarMonth,
        DailyStress,
        DailySummary,
        HeartRateDay,
        Hrv,
        HillScoreRange,
        Sleep,
        TrainingReadiness,
        TrainingStatus,
        WeightRange,
        Workout,
        garmin::models::profile::UserSettings,
        garmin::models::gear::Gear,
        garmin::models::events::Event,
        garmin::models::devices::Device,
    );
}

#[test]
fn empty_lists_decode() {
    assert!(decodes::<Vec<ActivitySummary>>("[]").is_empty());
    assert!(decodes::<Vec<TrainingReadiness>>("[]").is_empty());
    assert!(decodes::<Vec<BodyBatteryReport>>("[]").is_empty());
}

#[test]
fn null_members_and_all_null_objects_report_no_data() {
    let sleep: Sleep = decodes(
        r#"{"dailySleepDTO": {"sleepTimeSeconds": null}, "sleepLevels": null, "sleepMovement": null}"#,
    );
    assert!(!sleep.has_data());
    let hrv: Hrv = decodes(r#"{"hrvSummary": null, "hrvReadings": null}"#);
    assert!(!hrv.has_data());
    let status: TrainingStatus = decodes(
        r#"{"mostRecentTrainingStatus": {"latestTrainingStatusData": null}, "mostRecentVO2Max": null,
            "mostRecentTrainingLoadBalance": {"metricsTrainingLoadBalanceDTOMap": {}}}"#,
    );
    assert!(!status.has_data());
    let readiness: TrainingReadiness = decodes(r#"{"score": null, "calendarDate": "2026-01-01"}"#);
    assert!(!readiness.has_data());
    let battery: BodyBatteryReport = decodes(r#"{"charged": null, "bodyBatteryValuesArray": [[1, null]]}"#);
    assert!(!battery.has_data());
    let bp: BloodPressureRange = decodes(r#"{"measurementSummaries": null, "categoryStats": null}"#);
    assert!(!bp.has_data());
    let stress: DailyStress = decodes(r#"{"stressValuesArray": [[1700000000000, -1], [1700000180000, -2]]}"#);
    assert!(stress.stress_points().is_empty());
}

#[test]
fn odd_values_read_as_absent_instead_of_failing() {
    let a: ActivitySummary = decodes(
        r#"{"activityId": 1.0E10, "deviceId": "3900000006", "ownerId": "user_id: int",
            "startTimeGMT": "not a time", "distance": 1000, "activityType": null, "lapCount": 2.0}"#,
    );
    assert_eq!(a.activity_id, Some(10_000_000_000));
    assert_eq!(a.device_id, Some(3_900_000_006));
    assert_eq!(a.owner_id, None);
    assert_eq!(a.start_time_gmt, None);
    assert_eq!(a.distance, Some(1000.0));
    assert_eq!(a.lap_count, Some(2));
}
