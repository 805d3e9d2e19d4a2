//! Run: `cargo test -p garmin --test models wellness::`.
//!
//! Wellness fixtures: daily summary, heart rate, sleep, stress, Body Battery, HRV, steps,
//! hydration, weight and blood pressure.

use chrono::{NaiveDate, TimeZone, Utc};
use garmin::models::common::DatedValue;
use garmin::models::wellness::*;

use super::{close, fixture};

fn day(y: i32, m: u32, d: u32) -> Option<NaiveDate> {
    NaiveDate::from_ymd_opt(y, m, d)
}

#[test]
fn daily_summary_reads_steps_heart_rate_and_body_battery() {
    let s: DailySummary = fixture("daily_summary.json");
    assert_eq!(s.calendar_date, day(2025, 6, 14));
    close(s.total_steps, 5459.0);
    close(s.resting_heart_rate, 51.0);
    close(s.body_battery_highest_value, 92.0);
    close(s.floors_ascended, 4.31299);
    assert_eq!(s.stress_qualifier.as_deref(), Some("BALANCED"));
    assert_eq!(s.wellness_start_time_gmt, Some(Utc.with_ymd_and_hms(2025, 6, 13, 22, 0, 0).unwrap()));
    assert!(s.has_data());

    let chart: Vec<StepsBucket> = fixture("daily_summary_chart.json");
    assert_eq!(chart.len(), 95);
    assert_eq!(chart[0].primary_activity_level.as_deref(), Some("none"));
}

#[test]
fn heart_rate_day_has_a_timed_series() {
    let hr: HeartRateDay = fixture("heart_rate_day.json");
    close(hr.resting_heart_rate, 52.0);
    let points = hr.points();
    assert!(points.len() > 600 && points.len() <= 710, "{}", points.len());
    assert_eq!(points[0].at.timestamp_millis(), 1_767_765_600_000);
    close(Some(points[0].value), 63.0);
}

#[test]
fn sleep_reads_stages_scores_and_times() {
    let sleep: Sleep = fixture("sleep.json");
    assert!(sleep.has_data());
    let night = sleep.daily_sleep.as_ref().unwrap();
    close(night.sleep_time_seconds, 25740.0);
    close(night.deep_sleep_seconds, 4440.0);
    assert_eq!(night.sleep_start_gmt.unwrap().timestamp_millis(), 1_626_758_400_000);
    close(sleep.spo2_summary.as_ref().unwrap().average_spo2, 92.0);
    assert_eq!(sleep.score(), None);

    let sleep: Sleep = fixture("sleep_sleep_service.json");
    close(sleep.score(), 83.0);
    let night = sleep.daily_sleep.as_ref().unwrap();
    close(night.sleep_need.as_ref().unwrap().actual, 470.0);
    close(night.rem_sleep_seconds, 5460.0);
    close(sleep.resting_heart_rate, 44.0);
    close(sleep.body_battery_change, 65.0);
    // `sleepLevels: null` reads as no levels.
    assert!(sleep.sleep_levels.is_empty());
}

#[test]
fn a_night_without_sleep_decodes_and_reports_no_data() {
    let sleep: Sleep = fixture("sleep_sleep_service_no_data.json");
    assert!(!sleep.has_data());
    assert_eq!(sleep.daily_sleep.as_ref().unwrap().calendar_date, day(2030, 1, 1));
    assert_eq!(sleep.score(), None);
}

#[test]
fn stress_drops_sentinels_and_reads_body_battery_levels() {
    let stress: DailyStress = fixture("stress.json");
    close(stress.avg_stress_level, 22.0);
    assert_eq!(stress.stress_values_array.len(), 397);
    let points = stress.stress_points();
    assert!(!points.is_empty() && points.len() < 397);
    assert!(points.iter().all(|p| p.value >= 0.0));
    let battery = stress.body_battery_points();
    assert!(!battery.is_empty());
    assert!(battery.iter().all(|p| (0.0..=100.0).contains(&p.value)));

    // The older form labels each row `"charging"`/`"draining"`.
    let small: DailyStress = fixture("stress_small.json");
    let levels: Vec<f64> = small.body_battery_points().iter().map(|p| p.value).collect();
    assert_eq!(levels.len(), 11);
    assert_eq!(levels[..3], [45.0, 48.0, 52.0]);
}

#[test]
fn stress_and_sleep_statistics() {
    let daily: Vec<StressDay> = fixture("stats_stress_daily.json");
    assert_eq!(daily.len(), 20);
    let values = daily[0].values.as_ref().unwrap();
    close(values.overall_stress_level, 35.0);
    close(values.high_stress_duration, 1680.0);

    let weekly: Vec<DatedValue> = fixture("stats_stress_weekly.json");
    assert_eq!((weekly.len(), weekly[0].calendar_date), (52, day(2022, 7, 22)));
    close(weekly[0].value, 25.0);

    let scores: Vec<DatedValue> = fixture("stats_sleep_score_daily.json");
    assert_eq!(scores.len(), 20);
    close(scores[0].value, 60.0);
}

#[test]
fn body_battery_reports_and_events() {
    let reports: Vec<BodyBatteryReport> = fixture("body_battery.json");
    assert_eq!(reports[0].date, day(2023, 7, 1));
    close(reports[0].charged, 23.0);
    // Every level of this sanitised sample is null.
    assert!(reports[0].points().is_empty());
    assert!(reports[0].has_data());

    let events: Vec<BodyBatteryEvent> = fixture("body_battery_events.json");
    let event = events[0].event.as_ref().unwrap();
    assert_eq!(event.event_type.as_deref(), Some("sleep"));
    close(event.body_battery_impact, 35.0);
    close(event.duration_in_milliseconds, 28_800_000.0);
    close(events[0].average_stress, 15.5);
}

#[test]
fn respiration_spo2_and_floors() {
    let r: Respiration = fixture("respiration.json");
    close(r.lowest_respiration_value, 10.0);
    close(r.avg_waking_respiration_value, 13.0);
    assert!(r.respiration_values_array.is_empty());

    let s: Spo2 = fixture("spo2.json");
    close(s.average_spo2, 95.0);
    close(s.lowest_spo2, 91.0);
    close(s.last_seven_days_avg_spo2, 93.857_142_857_142_86);
    assert!(s.spo2_single_values.is_empty());

    let f: Floors = fixture("floors.json");
    assert!(f.floor_values_array.is_empty() && f.floors_value_descriptors.is_empty());
}

#[test]
fn hrv_night_and_range() {
    let hrv: Hrv = fixture("hrv.json");
    assert!(hrv.has_readings());
    let summary = hrv.hrv_summary.as_ref().unwrap();
    close(summary.last_night_avg, 42.0);
    close(summary.baseline.as_ref().unwrap().balanced_low, 39.0);
    assert_eq!(summary.status.as_deref(), Some("BALANCED"));
    assert_eq!(hrv.hrv_readings.len(), 81);
    close(hrv.hrv_readings[0].hrv_value, 54.0);
    assert_eq!(
        hrv.hrv_readings[0].reading_time_gmt,
        Some(Utc.with_ymd_and_hms(2023, 7, 20, 5, 29, 48).unwrap())
    );

    let range: HrvRange = fixture("hrv_range.json");
    assert_eq!(range.hrv_summaries.len(), 20);
    assert_eq!(range.hrv_summaries[0].calendar_date, day(2023, 7, 1));
    close(range.hrv_summaries[0].baseline.as_ref().unwrap().marker_value, 0.428_558_35);
}

#[test]
fn hrv_without_readings_reports_no_readings() {
    let hrv: Hrv = fixture("hrv_no_readings.json");
    assert!(!hrv.has_readings());
    assert!(hrv.hrv_readings.is_empty());
    close(hrv.hrv_summary.as_ref().unwrap().last_night_avg, 40.0);
}

#[test]
fn steps_and_intensity_minutes_statistics() {
    let steps: Vec<StepsDay> = fixture("stats_steps_daily.json");
    assert_eq!(steps.len(), 20);
    close(steps[0].total_steps, 12413.0);
    close(steps[0].total_distance, 10368.0);
    close(steps[0].step_goal, 7950.0);

    let weeks: Vec<StepsWeek> = fixture("stats_steps_weekly.json");
    assert_eq!(weeks.len(), 52);
    let week = weeks[0].values.as_ref().unwrap();
    close(week.total_steps, 55744.0);
    close(week.average_steps, 7_963.428_571_428_572);

    let daily: Vec<IntensityMinutesStat> = fixture("intensity_minutes_daily_stats.json");
    assert_eq!(daily.len(), 20);
    close(daily[0].weekly_goal, 150.0);
    let weekly: Vec<IntensityMinutesStat> = fixture("intensity_minutes_weekly_stats.json");
    assert_eq!(weekly.len(), 12);
    close(weekly[0].moderate_value, 79.0);
    close(weekly[0].vigorous_value, 172.0);
}

#[test]
fn hydration_forms() {
    let h: Hydration = fixture("hydration.json");
    assert_eq!(h.value_in_ml, None);
    close(h.goal_in_ml, 2800.0);

    let logged: Hydration = fixture("hydration_log_response.json");
    close(logged.value_in_ml, 1000.0);
    close(logged.sweat_loss_in_ml, 582.0);
    assert_eq!(
        logged.last_entry_timestamp_local.map(|t| t.to_string()).as_deref(),
        Some("2026-01-09 15:30:00")
    );

    let stats: Vec<Hydration> = fixture("stats_hydration_daily.json");
    close(stats[0].value_in_ml, 1750.0);
}

#[test]
fn weight_day_range_and_empty_composition() {
    let day_view: WeightDay = fixture("weight_dayview.json");
    assert_eq!(day_view.date_weight_list.len(), 2);
    close(day_view.date_weight_list[0].weight, 59500.0);
    assert_eq!(day_view.date_weight_list[0].source_type.as_deref(), Some("MANUAL"));
    close(day_view.total_average.as_ref().unwrap().weight, 59315.0);

    let range: WeightRange = fixture("weight_range.json");
    assert_eq!(range.daily_weight_summaries.len(), 3);
    let first = &range.daily_weight_summaries[0];
    assert_eq!(first.summary_date, day(2025, 6, 15));
    close(first.latest_weight.as_ref().unwrap().weight, 59720.0);
    close(range.previous_date_weight.as_ref().unwrap().weight, 58700.0);
    // The all-null "next" weigh-in decodes as an empty entry.
    assert_eq!(range.next_date_weight.as_ref().unwrap().weight, None);

    let empty: WeightDay = fixture("body_composition.json");
    assert!(empty.date_weight_list.is_empty());
    assert_eq!(empty.total_average.as_ref().unwrap().weight, None);
}

#[test]
fn empty_blood_pressure_reports_no_data() {
    let bp: BloodPressureRange = fixture("blood_pressure_empty.json");
    assert!(!bp.has_data());
    assert_eq!(bp.from, day(2025, 6, 3));
}

#[test]
fn reload_request_receipt() {
    let receipt: EpochRequest = fixture("wellness_epoch_request_response.json");
    assert_eq!(receipt.calendar_date, day(2021, 1, 1));
    assert_eq!(receipt.status.as_deref(), Some("COMPLETE"));
}
