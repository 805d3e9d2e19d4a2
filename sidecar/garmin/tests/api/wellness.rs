//! Run: `cargo test -p garmin --test api wellness::`.
//!
//! Daily health: summary, heart rate, sleep, stress, Body Battery, HRV, steps, weight; the
//! chunked ranges and the "no data" forms.

use chrono::Days;

use super::support::{day, start, today};

#[tokio::test]
async fn a_day_of_wellness_data() {
    let env = start().await;
    let api = env.client.wellness();
    let yesterday = today() - Days::new(1);

    let summary = api.daily_summary(yesterday).await.unwrap().unwrap();
    assert_eq!(summary.calendar_date, Some(yesterday));
    assert!(summary.total_steps.unwrap() > 0.0 && summary.resting_heart_rate.is_some());
    assert!(!api.steps_chart(yesterday).await.unwrap().is_empty());
    assert!(api.heart_rate(yesterday).await.unwrap().unwrap().points().len() > 100);

    let stress = api.stress(yesterday).await.unwrap().unwrap();
    assert!(!stress.stress_points().is_empty());
    assert!(!stress.body_battery_points().is_empty());
    let events = api.body_battery_events(yesterday).await.unwrap();
    assert!(events.iter().any(|e| e.event.as_ref().and_then(|x| x.event_type.as_deref()) == Some("sleep")));
    assert!(!api.body_battery(yesterday - Days::new(6), yesterday).await.unwrap().is_empty());

    assert!(api.respiration(yesterday).await.unwrap().unwrap().avg_waking_respiration_value.is_some());
    assert!(api.spo2(yesterday).await.unwrap().unwrap().average_spo2.is_some());
    assert!(api.floors(yesterday).await.unwrap().is_some());
    assert!(api.intensity_minutes(yesterday).await.unwrap().unwrap().weekly_goal.is_some());
    let hydration = api.hydration(yesterday).await.unwrap().unwrap();
    assert!(hydration.goal_in_ml.is_some());
    assert_eq!(api.request_reload(yesterday).await.unwrap().unwrap().calendar_date, Some(yesterday));
}

#[tokio::test]
async fn sleep_and_hrv_of_a_night_and_their_absence() {
    let env = start().await;
    let api = env.client.wellness();
    let night = today() - Days::new(1);

    let sleep = api.sleep(night).await.unwrap().unwrap();
    assert!(sleep.has_data());
    assert!(sleep.score().is_some());
    let dto = sleep.daily_sleep.unwrap();
    assert!(dto.sleep_start_gmt.unwrap() < dto.sleep_end_gmt.unwrap());

    let hrv = api.hrv(night).await.unwrap().unwrap();
    assert!(hrv.hrv_summary.unwrap().last_night_avg.is_some());

    // Before the data set: Garmin's null-filled sleep and 204 HRV both read as None.
    let long_ago = day(2020, 1, 1);
    assert!(api.sleep(long_ago).await.unwrap().is_none());
    assert!(api.hrv(long_ago).await.unwrap().is_none());
    assert!(api.daily_summary(long_ago).await.unwrap().is_none());
}

#[tokio::test]
async fn long_ranges_are_chunked_and_merged_in_date_order() {
    let env = start().await;
    let api = env.client.wellness();
    let end = today() - Days::new(1);
    let start_day = end - Days::new(69); // 70 days → chunks of 28, 28, 14
    env.fake.clear_requests();

    let steps = api.steps_daily(start_day, end).await.unwrap();
    let calls = env.requests_to("/stats/steps/daily/");
    assert_eq!(calls.len(), 3);
    assert!(calls.iter().all(|c| c.status == 200));
    assert_eq!(steps.len(), 70);
    let dates: Vec<_> = steps.iter().map(|s| s.calendar_date.unwrap()).collect();
    let expected: Vec<_> = start_day.iter_days().take(70).collect();
    assert_eq!(dates, expected);

    let hrv = api.hrv_range(start_day, end).await.unwrap();
    assert_eq!(env.requests_to("/hrv-service/hrv/daily/").len(), 3);
    assert!(hrv.windows(2).all(|w| w[0].calendar_date < w[1].calendar_date));

    // Days without stress data are left out by Garmin.
    let stress = api.stress_daily(start_day, end).await.unwrap();
    assert!(stress.len() > 40 && stress.len() <= 70);
    assert!(stress.windows(2).all(|w| w[0].calendar_date < w[1].calendar_date));
    let sleep = api.sleep_stats(start_day, end).await.unwrap();
    assert!(sleep.len() > 60 && sleep.windows(2).all(|w| w[0].calendar_date < w[1].calendar_date));
    assert!(sleep[0].values.as_ref().unwrap().sleep_score.is_some());
    let scores = api.sleep_scores(start_day, end).await.unwrap();
    assert!(scores.len() > 60);
    assert_eq!(api.intensity_minutes_daily(start_day, end).await.unwrap().len(), 70);
    let water = api.hydration_daily(start_day, end).await.unwrap();
    assert!(!water.is_empty() && water.len() <= 70, "only days with a log");
    assert!(water.windows(2).all(|w| w[0].calendar_date < w[1].calendar_date));

    assert!(api.steps_daily(end, start_day).await.is_err(), "a reversed range is refused");
}

#[tokio::test]
async fn weekly_stats_resting_heart_rate_weight_and_blood_pressure() {
    let env = start().await;
    let api = env.client.wellness();
    let end = today() - Days::new(1);
    assert_eq!(api.steps_weekly(end, 4).await.unwrap().len(), 4);
    assert_eq!(api.stress_weekly(end, 4).await.unwrap().len(), 4);
    assert!(!api.intensity_minutes_weekly(end - Days::new(27), end).await.unwrap().is_empty());
    let rhr = api.resting_heart_rate(end - Days::new(6), end).await.unwrap();
    assert_eq!(rhr.len(), 7);
    assert!(rhr.iter().all(|r| r.value.unwrap() > 30.0));

    let weights = api.weight_range(end - Days::new(60), end).await.unwrap();
    assert!(!weights.daily_weight_summaries.is_empty());
    let grams = weights.daily_weight_summaries[0].latest_weight.as_ref().unwrap().weight.unwrap();
    assert!((40_000.0..150_000.0).contains(&grams), "weights are grams: {grams}");
    let composition = api.body_composition(end - Days::new(60), end).await.unwrap();
    assert!(!composition.date_weight_list.is_empty());
    let _ = api.weight_day(end).await.unwrap();

    let bp = api.blood_pressure(day(2020, 1, 1), day(2020, 1, 31)).await.unwrap();
    assert!(!bp.has_data());
}
