//! The two JSON views of one activity: the activity-list row (`activity_list.json`: flat,
//! `"2026-01-08 08:10:21"` times, null fields left out) and the activity summary
//! (`activity_summary.json`: DTOs, `summaryDTO`, `metadataDTO`, `splitSummaries`). Both read the
//! same [`Activity`] so list and detail never disagree; GraphQL's `activitiesScalar` and the
//! calendar reuse them.

use serde_json::{Value, json};

use super::activity_facts::{
    aerobic_message, anaerobic_message, grade_adjusted, min_lap, moving_speed, split_summaries, te_label,
    vertical_ratio,
};
use super::{Obj, int, pair, round};
use crate::data::Dataset;
use crate::data::activity::{Activity, Kind, Origin, Sport};
use crate::data::clock;

/// Image URL used for every profile picture.
pub(super) const PROFILE_IMAGE: &str = "https://example.invalid/profile_images/fake-athlete.png";
const ROLES: [&str; 8] = [
    "SCOPE_ATP_READ",
    "SCOPE_CONNECT_READ",
    "SCOPE_CONNECT_WRITE",
    "ROLE_CONNECTUSER",
    "ROLE_FITNESS_USER",
    "ROLE_WELLNESS_USER",
    "ROLE_OUTDOOR_USER",
    "ROLE_CONNECT_2_USER",
];

/// `activityType` object of the list / `activityTypeDTO` of the summary.
pub(super) fn activity_type(a: &Activity) -> Value {
    let s = a.sport();
    Obj::new()
        .set("typeId", s.type_id())
        .set("typeKey", s.type_key())
        .set("parentTypeId", s.parent_type_id())
        .set("isHidden", false)
        .set("restricted", false)
        .set("trimmable", !matches!(s, Sport::Swimming | Sport::Strength))
        .build()
}

fn event_type(a: &Activity) -> Value {
    let (id, key, order) = if a.kind == Kind::Race { (1, "race", 1) } else { (9, "uncategorized", 10) };
    Obj::new().set("typeId", id).set("typeKey", key).set("sortOrder", order).build()
}

/// One row of `GET /activitylist-service/activities/search/activities` (`is_pr`: holds a record).
pub(super) fn list_item(d: &Dataset, a: &Activity, is_pr: bool) -> Value {
    let s = &a.stats;
    let sport = a.sport();
    let end_gmt = a.end_gmt();
    let mut o = Obj::new()
        .set("activityId", a.id)
        .set("activityName", a.name.clone())
        .set("description", a.description.clone())
        .set("startTimeLocal", clock::space(a.start_local))
        .set("startTimeGMT", clock::space(a.start_gmt))
        .set("activityType", activity_type(a))
        .set("eventType", event_type(a))
        .set("distance", round(s.distance, 2))
        .set("duration", round(s.duration, 3))
        .set("elapsedDuration", round(a.elapsed_s, 3))
        .set("movingDuration", int(a.moving_s))
        .set("elevationGain", int(s.elev_gain))
        .set("elevationLoss", int(s.elev_loss))
        .set("averageSpeed", round(s.avg_speed, 4))
        .set("maxSpeed", round(s.max_speed, 4))
        .set("hasPolyline", sport.has_gps())
        .set("hasImages", false)
        .set("ownerId", d.profile_id)
        .set("ownerDisplayName", d.display_name.clone())
        .set("ownerFullName", d.full_name.clone())
        .set("ownerProfileImageUrlSmall", PROFILE_IMAGE)
        .set("ownerProfileImageUrlMedium", PROFILE_IMAGE)
        .set("ownerProfileImageUrlLarge", PROFILE_IMAGE)
        .set("calories", a.calories)
        .set("bmrCalories", a.bmr_calories)
        .set("averageHR", int(s.avg_hr))
        .set("maxHR", int(s.max_hr))
        .set("userRoles", ROLES.to_vec())
        .set("privacy", pair("typeId", 2, "typeKey", "private"))
        .set("userPro", false)
        .set("hasVideo", false)
        .set("timeZoneId", d.zone.unit_id)
        .set("beginTimestamp", clock::ms(a.start_gmt))
        .set("sportTypeId", sport.fit_sport())
        .set("aerobicTrainingEffect", a.aerobic_te)
        .set("anaerobicTrainingEffect", a.anaerobic_te)
        .set("deviceId", a.device_id)
        .set("minTemperature", round(a.temp_c - 1.0, 1))
        .set("maxTemperature", round(a.temp_c + 2.0, 1))
        .set("summarizedDiveInfo", json!({"summarizedDiveGases": []}))
        .set("manufacturer", "GARMIN")
        .set("locationName", d.zone.place)
        .set("lapCount", a.laps.len())
        .set("waterEstimated", int(a.stats.duration / 3600.0 * 650.0))
        .set("trainingEffectLabel", te_label(a))
        .set("activityTrainingLoad", round(a.training_load, 3))
        .set("minActivityLapDuration", round(min_lap(a), 3))
        .set("aerobicTrainingEffectMessage", aerobic_message(a.aerobic_te))
        .set("anaerobicTrainingEffectMessage", anaerobic_message(a.anaerobic_te))
        .set("splitSummaries", split_summaries(a))
        .set("hasSplits", true)
        .set("moderateIntensityMinutes", a.moderate_min)
        .set("vigorousIntensityMinutes", a.vigorous_min)
        .set("differenceBodyBattery", a.body_battery_delta)
        .set("hasHeatMap", false)
        .set("endTimeGMT", clock::space(end_gmt))
        .set("pr", is_pr)
        .set("parent", false);
    for (i, z) in s.hr_zones.iter().enumerate() {
        o = o.set(&format!("hrTimeInZone_{}", i + 1), round(*z, 3));
    }
    for flag in [
        "qualifyingDive",
        "autoCalcCalories",
        "favorite",
        "decoDive",
        "elevationCorrected",
        "atpActivity",
        "purposeful",
    ] {
        o = o.set(flag, false);
    }
    o = o.set("manualActivity", a.origin == Origin::Manual);
    if let Some(w) = a.workout_id {
        o = o.set("workoutId", w);
    }
    if sport.has_gps() {
        o = o
            .set("startLatitude", round(s.start.0, 10))
            .set("startLongitude", round(s.start.1, 10))
            .set("endLatitude", round(s.end.0, 10))
            .set("endLongitude", round(s.end.1, 10))
            .set("minElevation", round(s.min_elev, 1))
            .set("maxElevation", round(s.max_elev, 1))
            .set("maxVerticalSpeed", round(s.max_speed * 0.1, 3))
            .set("avgPower", int(s.avg_power))
            .set("maxPower", int(s.max_power))
            .set("normPower", int(s.avg_power * 1.06));
        for (i, z) in s.power_zones.iter().enumerate() {
            o = o.set(&format!("powerTimeInZone_{}", i + 1), round(*z, 3));
        }
    }
    match sport {
        Sport::Running => {
            o = o
                .set("averageRunningCadenceInStepsPerMinute", round(s.avg_cadence, 4))
                .set("maxRunningCadenceInStepsPerMinute", int(s.max_cadence))
                .set("maxDoubleCadence", int(s.max_cadence))
                .set("steps", a.steps)
                .set("avgVerticalOscillation", round(a.vo_cm, 2))
                .set("avgGroundContactTime", round(a.gct_ms, 1))
                .set("avgStrideLength", round(a.stride_cm, 2))
                .set("avgVerticalRatio", round(vertical_ratio(a), 2))
                .set("avgGroundContactBalance", 50.2)
                .set("avgRespirationRate", 38.0)
                .set("minRespirationRate", 21.0)
                .set("maxRespirationRate", 52.0)
                .set("vO2MaxValue", a.vo2max)
                .set("avgGradeAdjustedSpeed", round(grade_adjusted(a), 4));
            for (metres, secs, _) in &a.best_efforts {
                o = o.set(&format!("fastestSplit_{}", *metres as u64), round(*secs, 3));
            }
        }
        Sport::Cycling => {
            o = o
                .set("averageBikingCadenceInRevPerMinute", round(s.avg_cadence, 1))
                .set("maxBikingCadenceInRevPerMinute", int(s.max_cadence))
                .set("max20MinPower", int(s.avg_power * 1.08));
        }
        Sport::Swimming => {
            let pool = a.pool_m.unwrap_or(25.0);
            let lengths = (s.distance / pool).round();
            let strokes = (s.avg_cadence * s.duration / 60.0).round();
            o = o
                .set("poolLength", pool * 100.0)
                .set("unitOfPoolLength", json!({"unitId": 1, "unitKey": "meter", "factor": 100.0}))
                .set("activeLengths", lengths)
                .set("strokes", strokes)
                .set("avgStrokes", round(strokes / lengths.max(1.0), 1))
                .set("averageSwolf", round(strokes / lengths.max(1.0) + s.duration / lengths.max(1.0), 1))
                .set("averageSwimCadenceInStrokesPerMinute", round(s.avg_cadence, 1))
                .set("maxSwimCadenceInStrokesPerMinute", int(s.max_cadence))
                .set("avgStrokeDistance", round(s.distance / strokes.max(1.0), 2));
        }
        Sport::Strength => {
            let active: Vec<_> = a.sets.iter().filter(|x| x.set_type == "ACTIVE").collect();
            let mut summary: Vec<Value> = Vec::new();
            for set in &active {
                if summary.iter().any(|v| v["category"] == set.category) {
                    continue;
                }
                let same: Vec<_> = active.iter().filter(|x| x.category == set.category).collect();
                summary.push(
                    Obj::new()
                        .set("category", set.category)
                        .set("subCategory", Value::Null)
                        .set("reps", same.iter().map(|x| x.reps).sum::<u32>())
                        .set("volume", same.iter().map(|x| f64::from(x.reps) * x.weight_g).sum::<f64>())
                        .set("duration", same.iter().map(|x| x.duration_s * 1000.0).sum::<f64>())
                        .set("sets", same.len())
                        .build(),
                );
            }
            o = o
                .set("summarizedExerciseSets", summary)
                .set("totalSets", active.len())
                .set("activeSets", active.len())
                .set("totalReps", active.iter().map(|x| x.reps).sum::<u32>());
        }
    }
    let mut v = o.build();
    if let Some(obj) = v.as_object_mut() {
        obj.retain(|_, v| !v.is_null());
    }
    v
}

/// `GET /activity-service/activity/{id}`.
pub(super) fn summary(d: &Dataset, a: &Activity, is_pr: bool) -> Value {
    let s = &a.stats;
    let sport = a.sport();
    let running = sport == Sport::Running;
    let opt = |cond: bool, v: Value| if cond { v } else { Value::Null };
    let mut dto = Obj::new()
        .set("startTimeLocal", clock::t1(a.start_local))
        .set("startTimeGMT", clock::t1(a.start_gmt))
        .set("distance", round(s.distance, 2))
        .set("duration", round(s.duration, 3))
        .set("movingDuration", int(a.moving_s))
        .set("elapsedDuration", round(a.elapsed_s, 3))
        .set("elevationGain", int(s.elev_gain))
        .set("elevationLoss", int(s.elev_loss))
        .set("averageSpeed", round(s.avg_speed, 4))
        .set("averageMovingSpeed", round(moving_speed(a), 4))
        .set("maxSpeed", round(s.max_speed, 4))
        .set("calories", a.calories)
        .set("bmrCalories", a.bmr_calories)
        .set("averageHR", int(s.avg_hr))
        .set("maxHR", int(s.max_hr))
        .set("minHR", int(s.min_hr))
        .set("averageTemperature", round(a.temp_c, 2))
        .set("maxTemperature", round(a.temp_c + 2.0, 1))
        .set("minTemperature", round(a.temp_c - 1.0, 1))
        .set("trainingEffect", a.aerobic_te)
        .set("anaerobicTrainingEffect", a.anaerobic_te)
        .set("aerobicTrainingEffectMessage", aerobic_message(a.aerobic_te))
        .set("anaerobicTrainingEffectMessage", anaerobic_message(a.anaerobic_te))
        .set("waterEstimated", int(s.duration / 3600.0 * 650.0))
        .set("trainingEffectLabel", te_label(a))
        .set("activityTrainingLoad", round(a.training_load, 3))
        .set("minActivityLapDuration", round(min_lap(a), 3))
        .set("directWorkoutFeel", opt(a.workout_id.is_some(), 50.into()))
        .set("directWorkoutRpe", opt(a.workout_id.is_some(), 60.into()))
        .set("directWorkoutComplianceScore", opt(a.workout_id.is_some(), 90.into()))
        .set("moderateIntensityMinutes", a.moderate_min)
        .set("vigorousIntensityMinutes", a.vigorous_min)
        .set("beginPotentialStamina", 100)
        .set("endPotentialStamina", int(100.0 - a.training_load / 4.0))
        .set("minAvailableStamina", int(100.0 - a.training_load / 3.0))
        .set("differenceBodyBattery", a.body_battery_delta);
    if sport.has_gps() {
        dto = dto
            .set("startLatitude", round(s.start.0, 10))
            .set("startLongitude", round(s.start.1, 10))
            .set("endLatitude", round(s.end.0, 10))
            .set("endLongitude", round(s.end.1, 10))
            .set("maxElevation", round(s.max_elev, 1))
            .set("minElevation", round(s.min_elev, 1))
            .set("maxVerticalSpeed", round(s.max_speed * 0.1, 3))
            .set("averagePower", int(s.avg_power))
            .set("maxPower", int(s.max_power))
            .set("minPower", 0)
            .set("normalizedPower", int(s.avg_power * 1.06))
            .set("totalWork", round(s.avg_power * s.duration / 1000.0, 2));
    }
    if running {
        dto = dto
            .set("averageRunCadence", round(s.avg_cadence, 4))
            .set("maxRunCadence", int(s.max_cadence))
            .set("groundContactTime", round(a.gct_ms, 1))
            .set("strideLength", round(a.stride_cm, 2))
            .set("verticalOscillation", round(a.vo_cm, 2))
            .set("verticalRatio", round(vertical_ratio(a), 2))
            .set("steps", a.steps)
            .set("avgGradeAdjustedSpeed", round(grade_adjusted(a), 4))
            .set("impactLoad", int(a.training_load * 40.0));
    }
    let mut dto = dto.build();
    if let Some(obj) = dto.as_object_mut() {
        obj.retain(|_, v| !v.is_null());
    }
    Obj::new()
        .set("activityId", a.id)
        .set("activityUUID", json!({"uuid": uuid_of(a)}))
        .set("activityName", a.name.clone())
        .set("description", a.description.clone())
        .set("userProfileId", d.profile_id)
        .set("isMultiSportParent", false)
        .set("activityTypeDTO", activity_type(a))
        .set("eventTypeDTO", event_type(a))
        .set("accessControlRuleDTO", pair("typeId", 2, "typeKey", "private"))
        .set(
            "timeZoneUnitDTO",
            Obj::new()
                .set("unitId", d.zone.unit_id)
                .set("unitKey", d.zone.key)
                .set("factor", 0)
                .set("timeZone", d.zone.key)
                .build(),
        )
        .set("metadataDTO", metadata(d, a, is_pr))
        .set("summaryDTO", dto)
        .set("locationName", d.zone.place)
        .set("splitSummaries", split_summaries(a))
        .build()
}

/// A stable UUID of an activity (derived from its seed).
fn uuid_of(a: &Activity) -> String {
    crate::data::rng::Rng::new(a.seed ^ 0x0055_1D00).uuid()
}

fn metadata(d: &Dataset, a: &Activity, is_pr: bool) -> Value {
    let uploaded = a.end_gmt() + chrono::Duration::minutes(7);
    let device = d.devices.iter().find(|x| x.id == a.device_id);
    Obj::new()
        .set("isOriginal", true)
        .set("deviceApplicationInstallationId", 1_003_399)
        .nulls(&[
            "agentApplicationInstallationId",
            "agentString",
            "associatedCourseId",
            "videoUrl",
            "diveNumber",
            "isAtpActivity",
        ])
        .set("fileFormat", a.origin.file_format().map(|(id, key)| pair("formatId", id, "formatKey", key)))
        .set("lastUpdateDate", clock::t1(uploaded))
        .set("uploadedDate", clock::t1(uploaded))
        .set("hasPolyline", a.sport().has_gps())
        .set("hasChartData", true)
        .set("hasHrTimeInZones", true)
        .set("hasPowerTimeInZones", a.sport().has_gps())
        .set(
            "userInfoDto",
            Obj::new()
                .set("userProfilePk", d.profile_id)
                .set("displayname", d.display_name.clone())
                .set("fullname", d.full_name.clone())
                .set("profileImageUrlLarge", PROFILE_IMAGE)
                .set("profileImageUrlMedium", PROFILE_IMAGE)
                .set("profileImageUrlSmall", PROFILE_IMAGE)
                .set("userPro", false)
                .build(),
        )
        .set("childIds", Vec::<u64>::new())
        .set("childActivityTypes", Vec::<String>::new())
        .set("sensors", Value::Null)
        .set("activityImages", Vec::<Value>::new())
        .set("manufacturer", "GARMIN")
        .set("lapCount", a.laps.len())
        .set("associatedWorkoutId", a.workout_id)
        .set(
            "deviceMetaDataDTO",
            Obj::new()
                .set("deviceId", a.device_id.to_string())
                .set("deviceTypePk", device.map_or(0, |x| x.type_pk))
                .set("deviceVersionPk", 1_003_399)
                .build(),
        )
        .set("hasIntensityIntervals", a.kind == Kind::Intervals)
        .set("hasSplits", true)
        .nulls(&[
            "eBikeMaxAssistModes",
            "eBikeBatteryUsage",
            "eBikeBatteryRemaining",
            "eBikeAssistModeInfoDTOList",
            "calendarEventInfo",
            "groupRideUUID",
        ])
        .set("hasRunPowerWindData", a.sport() == Sport::Running)
        .set("hasHeatMap", false)
        .set("personalRecord", is_pr)
        .set("elevationCorrected", false)
        .set("autoCalcCalories", false)
        .set("favorite", false)
        .set("runPowerWindDataEnabled", a.sport() == Sport::Running)
        .set("trimmed", false)
        .set("manualActivity", a.origin == Origin::Manual)
        .set("gcj02", false)
        .build()
}
