//! Who the account is (reference §4.1): social profile (`user_profile.json`), user settings
//! (`user_settings.json`, weight in grams, LT speed in m/s ÷ 10), locale/unit settings, personal
//! information, profile base, and activity totals (`user_statistics.json`, lifetime totals).
//! The recorded bodies are the templates; every account- or data-dependent field is replaced.

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::response::Response;
use axum::routing::get;
use serde_json::{Value, json};

use super::activity_body::PROFILE_IMAGE;
use super::{Obj, bad_request, body_json, no_content, ok, put, read, round};
use crate::FakeSite;
use crate::data::activity::Sport;
use crate::data::fitness::lactate_threshold;
use crate::data::{Dataset, clock};
use crate::state::AppState;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/userprofile-service/socialProfile", get(social_profile))
        .route("/userprofile-service/socialProfile/{dn}", get(social_profile))
        .route("/userprofile-service/userprofile/user-settings", get(user_settings).put(put_user_settings))
        .route("/userprofile-service/userprofile/settings", get(settings))
        .route("/userprofile-service/userprofile/personal-information", get(personal_information))
        .route("/userprofile-service/userprofile/personal-information/{dn}", get(personal_information))
        .route("/userprofile-service/userprofile/userProfileBase", get(profile_base))
        .route("/userstats-service/statistics/{dn}", get(statistics))
        .route("/usersummary-service/stats/connectLifetimeTotals/{dn}", get(lifetime))
}

/// The account's `garminGUID` (stable per seed).
pub(super) fn guid(d: &Dataset) -> String {
    crate::data::rng::Rng::derive(d.seed, 0x6017).uuid()
}

fn locale(state: &AppState) -> &'static str {
    match state.config().site {
        FakeSite::Global => "en_US",
        FakeSite::Cn => "zh_CN",
    }
}

/// `GET /userprofile-service/socialProfile` (`user_profile.json`).
async fn social_profile(State(state): State<AppState>) -> Response {
    let d = read(&state);
    let mut v = fixture!("user_profile.json");
    put(&mut v, "id", d.profile_id + 100);
    put(&mut v, "profileId", d.profile_id);
    put(&mut v, "garminGUID", guid(&d));
    put(&mut v, "displayName", d.display_name.clone());
    put(&mut v, "userName", d.display_name.clone());
    put(&mut v, "fullName", d.full_name.clone());
    put(&mut v, "userProfileFullName", d.full_name.clone());
    put(&mut v, "location", format!("{}, Exampleland", d.zone.place));
    put(&mut v, "primaryActivity", "running");
    put(&mut v, "favoriteActivityTypes", json!(["running", "cycling", "swimming"]));
    put(&mut v, "levelUpdateDate", clock::t1(d.first.and_hms_opt(15, 20, 38).unwrap_or_default()));
    for k in ["profileImageUrlLarge", "profileImageUrlMedium", "profileImageUrlSmall"] {
        put(&mut v, k, PROFILE_IMAGE);
    }
    ok(v)
}

/// `GET /userprofile-service/userprofile/user-settings` (`user_settings.json`).
async fn user_settings(State(state): State<AppState>) -> Response {
    let d = read(&state);
    let vo2 = d.day(d.today).map_or(43.0, |r| r.fitness.vo2max);
    let (lt_hr, lt_speed) = lactate_threshold(vo2);
    let weight = super::weight::latest_before(&d, d.today).map_or(70_000.0, |(_, w)| w.grams);
    let mut v = fixture!("user_settings.json");
    put(&mut v, "id", d.profile_id);
    if let Some(u) = v.get_mut("userData") {
        put(u, "weight", weight);
        put(u, "height", 178);
        put(u, "birthDate", "1990-05-17");
        put(u, "gender", "MALE");
        put(u, "vo2MaxRunning", vo2.round());
        put(u, "vo2MaxCycling", (vo2 - 3.2).round());
        put(u, "lactateThresholdSpeed", round(lt_speed / 10.0, 6));
        put(u, "lactateThresholdHeartRate", lt_hr);
        put(
            u,
            "firstDayOfWeek",
            json!({"dayId": 3, "dayName": "monday", "sortOrder": 3, "isPossibleFirstDay": true}),
        );
    }
    ok(v)
}

/// `PUT /userprofile-service/userprofile/user-settings` → 204 (accepted, not stored).
async fn put_user_settings(body: Bytes) -> Response {
    match body_json(&body) {
        Ok(Value::Object(_)) => no_content(),
        Ok(_) => bad_request("user settings must be a JSON object"),
        Err(e) => e.into(),
    }
}

/// `GET /userprofile-service/userprofile/settings` (locale and units).
pub(super) async fn settings(State(state): State<AppState>) -> Response {
    let d = read(&state);
    ok(Obj::new()
        .set("id", d.profile_id)
        .set("locale", locale(&state))
        .set("measurementSystem", "metric")
        .set("timeFormat", "time_twenty_four_hr")
        .set("dateFormat", json!({"formatId": 22, "formatKey": "yyyy-MM-dd", "minFraction": 0, "maxFraction": 0, "groupingUsed": false, "displayFormat": null}))
        .set("numberFormat", "decimal_period")
        .set("firstDayOfWeek", json!({"dayId": 3, "dayName": "monday", "sortOrder": 3, "isPossibleFirstDay": true}))
        .set("timeZone", d.zone.key)
        .set("golfDistanceUnit", "metric")
        .build())
}

/// `GET /userprofile-service/userprofile/personal-information[/{dn}]`
async fn personal_information(State(state): State<AppState>) -> Response {
    let d = read(&state);
    let vo2 = d.day(d.today).map_or(43.0, |r| r.fitness.vo2max);
    let (lt_hr, _) = lactate_threshold(vo2);
    let weight = super::weight::latest_before(&d, d.today).map_or(70_000.0, |(_, w)| w.grams);
    ok(json!({
        "userInfo": {
            "birthDate": "1990-05-17", "genderType": "MALE", "email": "fa*****@example.com", "locale": locale(&state),
            "timeZone": d.zone.key, "age": 36, "countryCode": if d.zone.offset_s < 0 { "CR" } else { "CN" }
        },
        "biometricProfile": {
            "userId": d.profile_id, "height": 178.0, "weight": weight, "vo2Max": vo2.round(), "vo2MaxCycling": (vo2 - 3.2).round(),
            "lactateThresholdHeartRate": lt_hr, "activityClass": null, "functionalThresholdPower": 240
        },
        "timeZone": d.zone.key,
        "locale": locale(&state)
    }))
}

/// `GET /userprofile-service/userprofile/userProfileBase`
async fn profile_base(State(state): State<AppState>) -> Response {
    let d = read(&state);
    ok(json!({"userProfileId": d.profile_id, "displayName": d.display_name, "fullName": d.full_name,
              "garminGUID": guid(&d), "profileImageUrlMedium": PROFILE_IMAGE, "userLocale": locale(&state)}))
}

fn type_obj(id: u32, key: &str, parent: u32) -> Value {
    json!({"typeId": id, "typeKey": key, "parentTypeId": parent, "sortOrder": 1})
}

/// `GET /userstats-service/statistics/{dn}` (`user_statistics.json`): totals over all and per sport.
async fn statistics(State(state): State<AppState>) -> Response {
    let d = read(&state);
    let metric = |filter: Option<Sport>| {
        let acts: Vec<_> = d.live().filter(|a| filter.is_none_or(|s| a.sport() == s)).collect();
        let typ = filter.map_or_else(
            || type_obj(17, "all", 0),
            |s| type_obj(s.type_id(), s.type_key(), s.parent_type_id()),
        );
        Obj::new()
            .set("activityType", typ.clone())
            .set("parentActivityType", if filter.is_none() { typ } else { type_obj(17, "all", 0) })
            .set("totalActivities", acts.len())
            .set("totalDistance", round(acts.iter().map(|a| a.stats.distance).sum(), 2))
            .set("totalDuration", round(acts.iter().map(|a| a.stats.duration).sum(), 3))
            .set("totalCalories", acts.iter().map(|a| a.calories).sum::<f64>())
            .set("totalElevationGain", round(acts.iter().map(|a| a.stats.elev_gain).sum(), 2))
            .build()
    };
    let metrics: Vec<Value> =
        [None, Some(Sport::Running), Some(Sport::Cycling), Some(Sport::Swimming), Some(Sport::Strength)]
            .into_iter()
            .map(metric)
            .collect();
    ok(Obj::new()
        .set("userProfileId", d.profile_id)
        .set("statisticsStartDate", clock::date(d.first))
        .set("statisticsEndDate", clock::date(d.today))
        .set("userMetrics", metrics)
        .build())
}

/// `GET /usersummary-service/stats/connectLifetimeTotals/{dn}`
async fn lifetime(State(state): State<AppState>) -> Response {
    let d = read(&state);
    let acts: Vec<_> = d.live().collect();
    ok(Obj::new()
        .set("userProfileId", d.profile_id)
        .set("totalActivities", acts.len())
        .set("totalDistance", round(acts.iter().map(|a| a.stats.distance).sum(), 2))
        .set("totalDuration", round(acts.iter().map(|a| a.stats.duration).sum(), 3))
        .set("totalCalories", acts.iter().map(|a| a.calories).sum::<f64>())
        .set("totalSteps", d.days.iter().map(|x| u64::from(x.steps)).sum::<u64>())
        .set("totalDistanceOnFoot", round(d.days.iter().map(|x| x.distance_m).sum(), 0))
        .set("totalGoalsMet", d.days.iter().filter(|x| x.steps >= x.step_goal).count())
        .set("totalDays", d.days.len())
        .set("averageRestingHeartRate", super::stats::average(&d, d.first, d.today, |x| x.resting_hr))
        .build())
}
