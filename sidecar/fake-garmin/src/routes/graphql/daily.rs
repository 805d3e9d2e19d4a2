//! `userDailySummaryV2Scalar`: GraphQL's restructured daily summary (movement, calories, heart
//! rate, intensity minutes, stress proportions, Body Battery with events, hydration,
//! respiration, pulse ox), one entry per day with data, from the same day record as the REST
//! daily summary.

use chrono::NaiveDate;
use serde_json::{Value, json};

use super::super::wellness::{battery_level, bounds};
use super::super::{Obj, int, round};
use crate::data::health::Day;
use crate::data::kit::WATCH_ID;
use crate::data::{Dataset, clock};

/// One day of `userDailySummaryV2Scalar.data`.
pub(super) fn day(d: &Dataset, date: NaiveDate, rec: &Day) -> Value {
    let (gs, ge, ls, le) = bounds(d, date);
    let st = &rec.stress;
    let total = st.rest_s + st.low_s + st.medium_s + st.high_s + st.activity_s + st.uncategorized_s;
    let share = |x: i64| round(x as f64 / total.max(1) as f64, 2);
    let level = battery_level(rec);
    let feedback = |at: chrono::NaiveDateTime, kind: &str| json!({"eventTimestampGmt": clock::t1(at), "bodyBatteryLevel": level, "feedbackShortType": kind, "feedbackLongType": kind});
    let mut events = vec![json!({
        "eventType": "SLEEP", "eventStartTimeGmt": clock::t1(rec.sleep.start_gmt),
        "eventStartTimeLocal": clock::t1(d.zone.to_local(rec.sleep.start_gmt)),
        "bodyBatteryImpact": int(rec.battery.at_wake - rec.battery.start + 8.0), "feedbackType": "NONE", "shortFeedback": "NONE",
        "deviceId": WATCH_ID, "durationInMillis": (rec.sleep.end_gmt - rec.sleep.start_gmt).num_milliseconds()
    })];
    for a in d.activities_on(date) {
        events.push(json!({
            "eventType": "ACTIVITY", "eventStartTimeGmt": clock::t1(a.start_gmt), "eventStartTimeLocal": clock::t1(a.start_local),
            "bodyBatteryImpact": a.body_battery_delta, "feedbackType": format!("EXERCISE_TRAINING_EFFECT_{}", a.aerobic_te.floor()),
            "shortFeedback": "IMPROVING_AEROBIC_BASE", "deviceId": WATCH_ID, "durationInMillis": (a.stats.duration * 1000.0) as i64
        }));
    }
    let qualifier = match rec.stress.avg as i64 {
        0..=25 => "calm",
        26..=35 => "balanced",
        36..=50 => "stressful",
        _ => "very_stressful",
    };
    let goal = rec.hydration_goal_ml;
    let drunk = rec.hydration_ml.unwrap_or(0.0);
    Obj::new()
        .set("uuid", crate::data::rng::Rng::new(rec.seed).uuid())
        .set("userProfilePk", d.profile_id)
        .set("calendarDate", clock::date(date))
        .set("source", "garmin")
        .set("includesWellnessData", true)
        .set("includesActivityData", d.activities_on(date).next().is_some())
        .set(
            "wellnessChronology",
            json!({"startTimestampGmt": clock::t1(gs), "startTimestampLocal": clock::t1(ls), "endTimestampGmt": clock::t1(ge),
                   "endTimestampLocal": clock::t1(le), "totalDurationInMillis": 86_400_000}),
        )
        .set(
            "movement",
            json!({
                "steps": {"goal": rec.step_goal, "value": rec.steps, "distanceInMeters": int(rec.distance_m)},
                "pushes": {},
                "floorsAscended": {"goal": 10, "value": rec.floors_up, "distanceInMeters": round(rec.floors_up * 3.048, 2)},
                "floorsDescended": {"value": rec.floors_down, "distanceInMeters": round(rec.floors_down * 3.048, 2)}
            }),
        )
        .set(
            "calories",
            json!({"burnedResting": rec.bmr_kcal, "burnedActive": rec.active_kcal, "burnedTotal": rec.bmr_kcal + rec.active_kcal,
                   "consumedGoal": null, "consumedValue": null, "consumedRemaining": null}),
        )
        .set("heartRate", json!({"minValue": int(rec.min_hr), "maxValue": int(rec.max_hr), "restingValue": int(rec.resting_hr)}))
        .set("intensityMinutes", json!({"goal": 150, "moderate": rec.moderate_min, "vigorous": rec.vigorous_min}))
        .set(
            "stress",
            json!({
                "avgLevel": int(st.avg), "maxLevel": int(st.max), "restProportion": share(st.rest_s), "activityProportion": share(st.activity_s),
                "uncategorizedProportion": share(st.uncategorized_s), "lowStressProportion": share(st.low_s),
                "mediumStressProportion": share(st.medium_s), "highStressProportion": share(st.high_s), "qualifier": qualifier,
                "totalDurationInMillis": total * 1000, "restDurationInMillis": st.rest_s * 1000, "activityDurationInMillis": st.activity_s * 1000,
                "uncategorizedDurationInMillis": st.uncategorized_s * 1000, "lowStressDurationInMillis": st.low_s * 1000,
                "mediumStressDurationInMillis": st.medium_s * 1000, "highStressDurationInMillis": st.high_s * 1000
            }),
        )
        .set(
            "bodyBattery",
            json!({
                "minValue": int(rec.battery.low), "maxValue": int(rec.battery.high), "chargedValue": int(rec.battery.charged),
                "drainedValue": int(rec.battery.drained), "latestValue": int(rec.battery.end), "featureVersion": "3.0",
                "dynamicFeedbackEvent": feedback(ge - chrono::Duration::hours(3), "SLEEP_PREPARATION_RECOVERING_AND_INACTIVE"),
                "endOfDayDynamicFeedbackEvent": feedback(ge, "SLEEP_TIME_PASSED_RECOVERING_AND_EXERCISE"),
                "activityEvents": events
            }),
        )
        .set("hydration", json!({"goalInMl": goal, "goalInFractionalMl": goal, "consumedInMl": drunk, "consumedInFractionalMl": drunk}))
        .set(
            "respiration",
            json!({"avgValue": rec.respiration_avg, "maxValue": rec.respiration_max, "minValue": rec.respiration_min,
                   "latestValue": rec.respiration_avg, "latestTimestampGmt": clock::t1(ge)}),
        )
        .set(
            "pulseOx",
            json!({"avgValue": rec.sleep.avg_spo2, "minValue": rec.sleep.lowest_spo2, "latestValue": rec.sleep.avg_spo2,
                   "latestTimestampGmt": clock::t1(ge), "latestTimestampLocal": clock::t1(le),
                   "avgAltitudeInMeters": if d.zone.offset_s < 0 { 1150 } else { 8 }}),
        )
        .set("jetLag", json!({}))
        .build()
}
