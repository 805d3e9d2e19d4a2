//! Per-activity detail endpoints (reference §4.3): the sample series (`/details`, current
//! unwrapped `metricDescriptors` + `activityDetailMetrics` form, thinned to `maxChartSize`), laps
//! (`/splits`, `/typedsplits`, `/split_summaries`), time in HR and power zones, weather (°F), and
//! strength sets, which a `PUT` replaces (research note `garmin-workouts-strength-multisport.md`
//! §2): weights in grams and durations in seconds (garmin-grafana's reader, Taxuspt's writer;
//! high), the watch's ranked guesses per set (`exercises` best first, probabilities 0–100;
//! python-garminconnect PR #368 and synthetic fixtures; medium), replace-all semantics with
//! `400 "Invalid Sub-Category Passed"` for an exercise name Garmin does not know under its
//! category (python-garminconnect PR #368, verified live May 2026; high) — names are checked
//! against Connect's exercise lists here, Garmin uses its FIT enum (medium) — and `setType`
//! `ACTIVE` or `REST` (Taxuspt's validation; high). An unknown category answers `400 "Invalid
//! Category Passed"` (by analogy; low). The fake answers a successful `PUT` with `204`
//! (python-garminconnect does not read the body; low).

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::get;
use chrono::Duration;
use serde_json::{Value, json};

use super::activity_facts::split_summaries;
use super::{Obj, Query, bad_request, body_json, id, int, no_content, not_found, ok, read, round, write};
use crate::data::activity::{Activity, Lap, Sport};
use crate::data::series::{self, HR_ZONES, RIDE_POWER_ZONES, RUN_POWER_ZONES, Sample};
use crate::data::workouts::exercises;
use crate::data::{Dataset, clock};
use crate::state::AppState;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/activity-service/activity/{id}/details", get(details))
        .route("/activity-service/activity/{id}/splits", get(splits))
        .route("/activity-service/activity/{id}/typedsplits", get(typed_splits))
        .route("/activity-service/activity/{id}/split_summaries", get(summaries))
        .route("/activity-service/activity/{id}/hrTimeInZones", get(hr_zones))
        .route("/activity-service/activity/{id}/powerTimeInZones", get(power_zones))
        .route("/activity-service/activity/{id}/weather", get(weather))
        .route("/activity-service/activity/{id}/exerciseSets", get(exercise_sets).put(replace_exercise_sets))
}

/// Runs `f` on the live activity named by the path, or answers 404.
fn with_activity(state: &AppState, raw: &str, f: impl FnOnce(&Dataset, &Activity) -> Response) -> Response {
    let d = read(state);
    match id(raw).map(|i| d.activity(i)) {
        Ok(Some(a)) => f(&d, a),
        Ok(None) => not_found(),
        Err(e) => e.into(),
    }
}

/// `(key, unit id, unit key, factor)` of each series column, by sport.
fn columns(sport: Sport) -> Vec<(&'static str, u32, &'static str, f64)> {
    let mut c = vec![
        ("directTimestamp", 120, "gmt", 0.0),
        ("sumDuration", 40, "second", 1000.0),
        ("sumElapsedDuration", 40, "second", 1000.0),
        ("sumMovingDuration", 40, "second", 1000.0),
        ("directHeartRate", 100, "bpm", 1.0),
    ];
    if sport != Sport::Strength {
        c.extend([("sumDistance", 1, "meter", 100.0), ("directSpeed", 20, "mps", 0.1)]);
    }
    match sport {
        Sport::Running => c.push(("directRunCadence", 91, "stepsPerMinute", 1.0)),
        Sport::Cycling => c.push(("directBikeCadence", 90, "rpm", 1.0)),
        Sport::Swimming => c.push(("directSwimCadence", 92, "strokesPerMinute", 1.0)),
        Sport::Strength => {}
    }
    if sport.has_gps() {
        c.extend([
            ("directElevation", 1, "meter", 100.0),
            ("directLatitude", 60, "dd", 1.0),
            ("directLongitude", 60, "dd", 1.0),
            ("directPower", 30, "watt", 1.0),
            ("directAirTemperature", 80, "celcius", 1.0),
        ]);
    }
    c
}

fn column_value(key: &str, a: &Activity, p: &Sample) -> Value {
    match key {
        "directTimestamp" => (clock::ms(a.start_gmt) + (p.t * 1000.0) as i64).into(),
        "sumDuration" | "sumElapsedDuration" | "sumMovingDuration" => p.t.into(),
        "directHeartRate" => int(p.hr),
        "sumDistance" => round(p.dist, 2).into(),
        // Garmin's speed channel is about zero all through a pool swim (real recordings, see
        // docs/garmin-web-api.md "Sparse answers and real recordings"): the pace is in the laps
        // and lengths, not in the samples.
        "directSpeed" if a.sport() == Sport::Swimming => 0.0.into(),
        "directSpeed" => round(p.speed, 3).into(),
        "directRunCadence" | "directBikeCadence" | "directSwimCadence" => int(p.cadence),
        "directElevation" => round(p.elev, 1).into(),
        "directLatitude" => round(p.lat, 7).into(),
        "directLongitude" => round(p.lon, 7).into(),
        "directPower" => int(p.power),
        "directAirTemperature" => round(a.temp_c + 1.0, 1).into(),
        _ => Value::Null,
    }
}

/// `GET /activity-service/activity/{id}/details?maxChartSize&maxPolylineSize`
async fn details(State(state): State<AppState>, Path(raw): Path<String>, q: Query) -> Response {
    let max_chart = q.get("maxChartSize").and_then(|v| v.parse().ok()).unwrap_or(2000usize);
    let max_poly = q.get("maxPolylineSize").and_then(|v| v.parse().ok()).unwrap_or(4000usize);
    with_activity(&state, &raw, |_, a| {
        let all = series::samples(a);
        let chart = series::downsample(&all, max_chart);
        let cols = columns(a.sport());
        let descriptors: Vec<Value> = cols
            .iter()
            .enumerate()
            .map(|(i, (key, uid, ukey, factor))| json!({"metricsIndex": i, "key": key, "unit": {"id": uid, "key": ukey, "factor": factor}}))
            .collect();
        let metrics: Vec<Value> = chart
            .iter()
            .map(|p| json!({"metrics": cols.iter().map(|c| column_value(c.0, a, p)).collect::<Vec<_>>()}))
            .collect();
        ok(Obj::new()
            .set("activityId", a.id)
            .set("measurementCount", cols.len())
            .set("metricsCount", chart.len())
            .set("totalMetricsCount", all.len())
            .set("metricDescriptors", descriptors)
            .set("activityDetailMetrics", metrics)
            .set("geoPolylineDTO", polyline(a, &series::downsample(&all, max_poly)))
            .set("heartRateDTOs", Value::Null)
            .set("pendingData", Value::Null)
            .set("detailsAvailable", true)
            .build())
    })
}

fn polyline(a: &Activity, pts: &[Sample]) -> Value {
    if !a.sport().has_gps() || pts.is_empty() {
        return Value::Null;
    }
    let point = |p: &Sample, prev: Option<&Sample>| {
        Obj::new()
            .set("lat", round(p.lat, 7))
            .set("lon", round(p.lon, 7))
            .set("altitude", round(p.elev, 1))
            .set("time", clock::ms(a.start_gmt) + (p.t * 1000.0) as i64)
            .set("timerStart", prev.is_none())
            .set("timerStop", false)
            .set("distanceFromPreviousPoint", prev.map_or(0.0, |q| round(p.dist - q.dist, 2)))
            .set("distanceInMeters", round(p.dist, 2))
            .set("speed", round(p.speed, 3))
            .set("cumulativeAscent", Value::Null)
            .set("cumulativeDescent", Value::Null)
            .set("extendedCoordinate", true)
            .set("valid", true)
            .build()
    };
    let line: Vec<Value> =
        pts.iter().enumerate().map(|(i, p)| point(p, i.checked_sub(1).map(|j| &pts[j]))).collect();
    let lats = pts.iter().map(|p| p.lat);
    let lons = pts.iter().map(|p| p.lon);
    Obj::new()
        .set("startPoint", line.first().cloned().unwrap_or_default())
        .set("endPoint", line.last().cloned().unwrap_or_default())
        .set("minLat", lats.clone().fold(f64::MAX, f64::min))
        .set("maxLat", lats.fold(f64::MIN, f64::max))
        .set("minLon", lons.clone().fold(f64::MAX, f64::min))
        .set("maxLon", lons.fold(f64::MIN, f64::max))
        .set("polyline", line)
        .build()
}

/// One lap in `lapDTOs` / typed-split form.
fn lap_json(a: &Activity, i: usize, lap: &Lap) -> Value {
    let s = &lap.stats;
    let start = a.start_gmt + Duration::milliseconds((lap.start_s * 1000.0) as i64);
    let mut o = Obj::new()
        .set("startTimeGMT", clock::t1(start))
        .set("distance", round(s.distance, 2))
        .set("duration", round(s.duration, 3))
        .set("movingDuration", round(s.duration, 3))
        .set("elapsedDuration", round(s.duration, 3))
        .set("averageSpeed", round(s.avg_speed, 4))
        .set("averageMovingSpeed", round(s.avg_speed, 4))
        .set("maxSpeed", round(s.max_speed, 4))
        .set("calories", int(a.calories * s.duration / a.stats.duration.max(1.0)))
        .set("bmrCalories", int(a.bmr_calories * s.duration / a.stats.duration.max(1.0)))
        .set("averageHR", int(s.avg_hr))
        .set("maxHR", int(s.max_hr))
        .set("averageTemperature", round(a.temp_c + 1.0, 1))
        .set("maxTemperature", round(a.temp_c + 2.0, 1))
        .set("minTemperature", round(a.temp_c, 1))
        .set("lapIndex", i + 1)
        .set("messageIndex", i)
        .set("intensityType", lap.intensity)
        .set("wktStepIndex", lap.step_index)
        .set("lengthDTOs", Vec::<Value>::new())
        .set("connectIQMeasurement", Vec::<Value>::new());
    if a.sport().has_gps() {
        o = o
            .set("startLatitude", round(s.start.0, 7))
            .set("startLongitude", round(s.start.1, 7))
            .set("endLatitude", round(s.end.0, 7))
            .set("endLongitude", round(s.end.1, 7))
            .set("elevationGain", int(s.elev_gain))
            .set("elevationLoss", int(s.elev_loss))
            .set("maxElevation", round(s.max_elev, 1))
            .set("minElevation", round(s.min_elev, 1))
            .set("maxVerticalSpeed", round(s.max_speed * 0.1, 3))
            .set("averagePower", int(s.avg_power))
            .set("maxPower", int(s.max_power));
    }
    match a.sport() {
        Sport::Running => {
            let stride = if s.avg_cadence > 0.0 { s.avg_speed * 60.0 / s.avg_cadence * 100.0 } else { 0.0 };
            o = o
                .set("averageRunCadence", round(s.avg_cadence, 2))
                .set("maxRunCadence", int(s.max_cadence))
                .set("groundContactTime", round(a.gct_ms + (3.0 - s.avg_speed) * 10.0, 1))
                .set("strideLength", round(stride, 2))
                .set("verticalOscillation", round(a.vo_cm, 2))
                .set("verticalRatio", round(if stride > 0.0 { a.vo_cm / stride * 100.0 } else { 0.0 }, 2));
        }
        Sport::Cycling => {
            o = o.set("averageBikeCadence", round(s.avg_cadence, 1)).set("maxBikeCadence", int(s.max_cadence))
        }
        Sport::Swimming => {
            o = o.set("lengthDTOs", lengths(a, lap, start)).set("averageSwimCadence", round(s.avg_cadence, 1))
        }
        Sport::Strength => {}
    }
    o.build()
}

/// Pool lengths of a swim lap.
fn lengths(a: &Activity, lap: &Lap, start: chrono::NaiveDateTime) -> Vec<Value> {
    let pool = a.pool_m.unwrap_or(25.0);
    let n = (lap.distance_m / pool).round() as usize;
    let each = if n > 0 { lap.duration_s / n as f64 } else { 0.0 };
    (0..n)
        .map(|k| {
            let strokes = (lap.stats.avg_cadence * each / 60.0).round();
            Obj::new()
                .set(
                    "startTimeGMT",
                    clock::t1(start + Duration::milliseconds((k as f64 * each * 1000.0) as i64)),
                )
                .set("distance", pool)
                .set("duration", round(each, 3))
                .set("averageSpeed", round(pool / each.max(0.1), 3))
                .set("calories", 3)
                .set("averageHR", int(lap.stats.avg_hr))
                .set("totalNumberOfStrokes", strokes)
                .set("averageSWOLF", int(strokes + each))
                .set("lengthIndex", k + 1)
                .set("swimStroke", "FREESTYLE")
                .build()
        })
        .collect()
}

/// `GET /activity-service/activity/{id}/splits` → `{activityId, lapDTOs, eventDTOs}`.
async fn splits(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    with_activity(&state, &raw, |_, a| {
        let laps: Vec<Value> = a.laps.iter().enumerate().map(|(i, l)| lap_json(a, i, l)).collect();
        let events = json!([{
            "startTimeGMT": clock::t1(a.start_gmt),
            "startTimeGMTDoubleValue": clock::ms(a.start_gmt) as f64,
            "sectionTypeDTO": {"id": 0, "key": "startTime", "sectionTypeKey": "startTime"}
        }]);
        ok(Obj::new().set("activityId", a.id).set("lapDTOs", laps).set("eventDTOs", events).build())
    })
}

/// `GET /activity-service/activity/{id}/typedsplits` → `{activityId, splits[]}` with a split type per lap.
async fn typed_splits(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    with_activity(&state, &raw, |_, a| {
        let rows: Vec<Value> = a
            .laps
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let mut v = lap_json(a, i, l);
                super::put(&mut v, "type", format!("INTERVAL_{}", l.intensity));
                v
            })
            .collect();
        ok(Obj::new().set("activityId", a.id).set("splits", rows).build())
    })
}

/// `GET /activity-service/activity/{id}/split_summaries`
async fn summaries(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    with_activity(&state, &raw, |_, a| {
        ok(Obj::new().set("activityId", a.id).set("splitSummaries", split_summaries(a)).build())
    })
}

fn zones(secs: &[f64; 5], floors: &[f64; 5]) -> Value {
    let rows: Vec<Value> = (0..5)
        .map(|i| {
            Obj::new()
                .set("zoneNumber", i + 1)
                .set("secsInZone", round(secs[i], 3))
                .set("zoneLowBoundary", int(floors[i]))
                .build()
        })
        .collect();
    Value::Array(rows)
}

/// `GET /activity-service/activity/{id}/hrTimeInZones` (`activity_hr_time_in_zones.json`).
async fn hr_zones(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    with_activity(&state, &raw, |_, a| ok(zones(&a.stats.hr_zones, &HR_ZONES)))
}

/// `GET /activity-service/activity/{id}/powerTimeInZones` (`[]` without a power meter).
async fn power_zones(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    with_activity(&state, &raw, |_, a| match a.sport() {
        Sport::Running => ok(zones(&a.stats.power_zones, &RUN_POWER_ZONES)),
        Sport::Cycling => ok(zones(&a.stats.power_zones, &RIDE_POWER_ZONES)),
        _ => ok(json!([])),
    })
}

/// `GET /activity-service/activity/{id}/weather` (temperatures in °F; 204 for indoor activities).
async fn weather(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    with_activity(&state, &raw, |d, a| {
        if !a.sport().has_gps() {
            return no_content();
        }
        let w = &a.weather;
        let compass = [
            "N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW",
            "NNW",
        ];
        let point = compass[((w.wind_dir / 22.5).round() as usize) % 16];
        ok(Obj::new()
            .set("issueDate", clock::t0(a.start_gmt - Duration::minutes(13)) + "+0000")
            .set("temp", w.temp_f)
            .set("apparentTemp", w.apparent_f)
            .set("dewPoint", w.dew_point_f)
            .set("relativeHumidity", w.humidity)
            .set("windDirection", w.wind_dir)
            .set("windDirectionCompassPoint", point.to_lowercase())
            .set("windSpeed", w.wind_speed)
            .set("windGust", w.wind_gust)
            .set("latitude", round(d.zone.lat, 4))
            .set("longitude", round(d.zone.lon, 4))
            .set(
                "weatherStationDTO",
                json!({"id": "MRSJ", "name": format!("{} Airport", d.zone.place), "timezone": null}),
            )
            .set("weatherTypeDTO", json!({"weatherTypePk": w.kind.0, "desc": w.kind.1, "image": w.kind.2}))
            .build())
    })
}

/// `GET /activity-service/activity/{id}/exerciseSets` (`exerciseSets: null` for non-strength; the
/// sets last `PUT` when there was one).
async fn exercise_sets(State(state): State<AppState>, Path(raw): Path<String>) -> Response {
    with_activity(&state, &raw, |d, a| {
        if a.sport() != Sport::Strength {
            return ok(Obj::new().set("activityId", a.id).set("exerciseSets", Value::Null).build());
        }
        if let Some(replaced) = d.exercise_sets.get(&a.id) {
            return ok(Obj::new().set("activityId", a.id).set("exerciseSets", replaced.clone()).build());
        }
        let sets: Vec<Value> = a
            .sets
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let exercises: Vec<Value> = s
                    .guesses
                    .iter()
                    .map(|(category, name, p)| json!({"probability": p, "category": category, "name": name}))
                    .collect();
                let active = s.set_type == "ACTIVE";
                Obj::new()
                    .set("exercises", exercises)
                    .set("duration", s.duration_s)
                    .set(
                        "repetitionCount",
                        if active && s.reps > 0 { Value::from(s.reps) } else { Value::Null },
                    )
                    .set("weight", if active { Value::from(s.weight_g) } else { Value::Null })
                    .set("setType", s.set_type)
                    .set("startTime", clock::t1(a.start_gmt + Duration::seconds(s.start_s as i64)))
                    .set("wktStepIndex", Value::Null)
                    .set("messageIndex", i)
                    .build()
            })
            .collect();
        ok(Obj::new().set("activityId", a.id).set("exerciseSets", sets).build())
    })
}

/// Why Garmin refuses a set of a `PUT`, if it does (see the module doc).
fn refused_set(set: &Value) -> Option<&'static str> {
    match set.get("setType").and_then(Value::as_str) {
        Some("ACTIVE" | "REST") => {}
        _ => return Some("Invalid Set Type Passed"),
    }
    for exercise in set.get("exercises").and_then(Value::as_array).into_iter().flatten() {
        let Some(category) = exercise.get("category").and_then(Value::as_str) else {
            return Some("Invalid Category Passed");
        };
        if !exercises::is_category(category) {
            return Some("Invalid Category Passed");
        }
        if let Some(name) = exercise.get("name").and_then(Value::as_str)
            && !exercises::knows(category, name)
        {
            return Some("Invalid Sub-Category Passed");
        }
    }
    None
}

/// `PUT /activity-service/activity/{id}/exerciseSets` `{"activityId", "exerciseSets": [...]}`:
/// replaces every set of a strength activity (204), or refuses the whole body (400).
async fn replace_exercise_sets(
    State(state): State<AppState>,
    Path(raw): Path<String>,
    body: Bytes,
) -> Response {
    let body = match body_json(&body) {
        Ok(b) => b,
        Err(e) => return e.into(),
    };
    let mut d = write(&state);
    let activity = match id(&raw).map(|i| d.activity(i).map(|a| (a.id, a.sport()))) {
        Ok(Some(found)) => found,
        Ok(None) => return not_found(),
        Err(e) => return e.into(),
    };
    if activity.1 != Sport::Strength {
        return bad_request("Exercise sets can only be saved for strength activities");
    }
    if body.get("activityId").and_then(Value::as_u64).is_some_and(|b| b != activity.0) {
        return bad_request("activityId in the body does not match the path");
    }
    let Some(sets) = body.get("exerciseSets").and_then(Value::as_array) else {
        return bad_request("exerciseSets must be an array");
    };
    if let Some(why) = sets.iter().find_map(refused_set) {
        return bad_request(why);
    }
    d.exercise_sets.insert(activity.0, Value::Array(sets.clone()));
    no_content()
}
