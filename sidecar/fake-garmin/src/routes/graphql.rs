//! `POST /graphql-gateway/graphql` (reference §4.14): routes on the query's root field and
//! answers every query recorded in `fixtures/garmin/graphql/` from the data set, in the recorded
//! shapes, mostly by reusing the REST body builders. Unknown fields get GraphQL's validation
//! error (HTTP 200 with `errors`), as graphql-java does.

mod daily;
mod query;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use chrono::{Duration, NaiveDate, NaiveDateTime};
use serde_json::{Map, Value, json};

use super::{Obj, ok, read};
use crate::data::{Dataset, clock};
use crate::state::AppState;

pub(super) fn router() -> Router<AppState> {
    Router::new().route("/graphql-gateway/graphql", post(graphql))
}

fn error(message: String, column: usize, classification: &str) -> Value {
    json!({"errors": [{"message": message, "locations": [{"line": 1, "column": column}], "extensions": {"classification": classification}}], "data": null})
}

/// `POST /graphql-gateway/graphql` `{"query": "query{…}", "variables"?: {…}}`
async fn graphql(State(state): State<AppState>, body: Bytes) -> Response {
    let Ok(body) = serde_json::from_slice::<Value>(&body) else {
        return (
            StatusCode::BAD_REQUEST,
            axum::Json(error("Invalid JSON payload in POST body".into(), 1, "InvalidSyntax")),
        )
            .into_response();
    };
    let Some(text) = body.get("query").and_then(Value::as_str) else {
        return (
            StatusCode::BAD_REQUEST,
            axum::Json(error("Missing 'query' in POST body".into(), 1, "InvalidSyntax")),
        )
            .into_response();
    };
    let root = match query::root(text, body.get("variables").unwrap_or(&Value::Null)) {
        Ok(r) => r,
        Err(why) => return ok(error(format!("Invalid Syntax : {why}"), 1, "InvalidSyntax")),
    };
    let d = read(&state);
    match resolve(&d, &root.name, &root.args) {
        Ok(Some(v)) => {
            let mut data = Map::new();
            data.insert(root.name, v);
            ok(json!({"data": data}))
        }
        Ok(None) => ok(error(
            format!(
                "Validation error (FieldUndefined@[{0}]) : Field '{0}' in type 'Query' is undefined",
                root.name
            ),
            root.column,
            "ValidationError",
        )),
        Err(why) => ok(error(
            format!("Exception while fetching data (/{}) : {why}", root.name),
            root.column,
            "DataFetchingException",
        )),
    }
}

fn arg_date(args: &Map<String, Value>, key: &str) -> Result<NaiveDate, String> {
    let raw = args.get(key).and_then(Value::as_str).ok_or_else(|| format!("missing argument {key}"))?;
    clock::parse_date(raw.get(..10).unwrap_or(raw)).ok_or_else(|| format!("invalid date {raw}"))
}

fn arg_time(args: &Map<String, Value>, key: &str) -> Result<NaiveDateTime, String> {
    let raw = args.get(key).and_then(Value::as_str).ok_or_else(|| format!("missing argument {key}"))?;
    NaiveDateTime::parse_from_str(raw, "%Y-%m-%dT%H:%M:%S%.f")
        .or_else(|_| NaiveDateTime::parse_from_str(raw, "%Y-%m-%dT%H:%M:%S"))
        .or_else(|_| arg_date(args, key).map(|d| d.and_time(chrono::NaiveTime::MIN)).map_err(|_| ()))
        .map_err(|()| format!("invalid timestamp {raw}"))
}

fn span(args: &Map<String, Value>) -> Result<(NaiveDate, NaiveDate), String> {
    let (s, e) = (arg_date(args, "startDate")?, arg_date(args, "endDate")?);
    if e < s { Err("endDate is before startDate".into()) } else { Ok((s, e)) }
}

/// Days with data in `start..=end`.
fn days(
    d: &Dataset,
    start: NaiveDate,
    end: NaiveDate,
) -> impl Iterator<Item = (NaiveDate, &crate::data::health::Day)> {
    clock::days(start, end).filter_map(|x| d.day(x).map(|r| (x, r)))
}

/// Resolves a root field; `Ok(None)` when the field is unknown.
fn resolve(d: &Dataset, name: &str, args: &Map<String, Value>) -> Result<Option<Value>, String> {
    Ok(Some(match name {
        "activitiesScalar" => {
            let (from, to) = (arg_time(args, "startTimestampLocal")?, arg_time(args, "endTimestampLocal")?);
            let limit = args.get("limit").and_then(Value::as_f64).unwrap_or(20.0) as usize;
            let prs = super::activities::record_holders(d);
            let list: Vec<Value> = d
                .live()
                .rev()
                .filter(|a| a.start_local >= from && a.start_local <= to)
                .take(limit)
                .map(|a| super::activity_body::list_item(d, a, prs.contains(&a.id)))
                .collect();
            let filter =
                json!({"userProfileId": d.profile_id, "includedPrivacyList": [], "excludeUntitled": false});
            json!({"activityList": list, "filter": filter, "requestorRelationship": "SELF"})
        }
        "activityStatsScalar" => {
            let (s, e) = span(args)?;
            let metrics: Vec<String> = args.get("metrics").and_then(Value::as_array).map_or_else(
                || vec!["duration".into(), "distance".into()],
                |m| m.iter().filter_map(|x| x.as_str().map(str::to_owned)).collect(),
            );
            let agg = args.get("aggregation").and_then(Value::as_str).unwrap_or("daily");
            let by_parent = args.get("groupByParentActivityType").and_then(Value::as_bool).unwrap_or(false);
            let standardized = args.get("standardizedUnits").and_then(Value::as_bool).unwrap_or(false);
            super::activities::aggregate(d, s, e, agg, &metrics, by_parent, standardized)
        }
        "badgeChallengesScalar" => Value::Array(super::challenges::badge_challenge_list(d, "available")),
        "expeditionsChallengesScalar" => Value::Array(super::challenges::expeditions(d)),
        "userGoalsScalar" => {
            Value::Array(super::challenges::goal_list(d).into_iter().map(|(_, v)| v).collect())
        }
        "enduranceScoreScalar" => {
            let (s, e) = span(args)?;
            super::scores::endurance_range(d, s, e, 7)
        }
        "epochChartScalar" => epoch_chart(d, arg_date(args, "date")?, args.get("include")),
        "heatAltitudeAcclimationScalar" => {
            let day = arg_date(args, "date")?;
            d.day(day).map_or(Value::Null, |_| super::training::acclimation(d, day))
        }
        "heartRateVariabilityScalar" => {
            let (s, e) = span(args)?;
            super::sleep::hrv_summaries(d, s, e)
        }
        "latestWeightScalar" => latest_weight(d, arg_date(args, "asOfDate")?),
        "myDayCardEventsScalar" => {
            let day = arg_date(args, "date")?;
            let mut events: Vec<_> = d.events.values().filter(|e| e.date >= day).collect();
            events.sort_by_key(|e| (e.date, e.id));
            let more = events.len() > 3;
            json!({"eventMyDay": events.into_iter().take(3).map(super::events::event_json).collect::<Vec<_>>(), "hasMoreTrainingEvents": more})
        }
        "sleepSummariesScalar" => {
            let (s, e) = span(args)?;
            Value::Array(days(d, s, e).map(|(x, r)| super::sleep::sleep_dto(d, x, &r.sleep)).collect())
        }
        "trainingLoadBalanceScalar" => {
            let day = arg_date(args, "calendarDate")?;
            d.day(day).map_or(Value::Null, |r| super::training::load_balance(d, day, r))
        }
        "trainingStatusDailyScalar" => {
            let day = arg_date(args, "calendarDate")?;
            d.day(day).map_or(Value::Null, |r| super::training::status(d, day, r))
        }
        "trainingStatusWeeklyScalar" => {
            let (s, e) = span(args)?;
            super::mobile::report(d, s, e, 1)
        }
        "trainingReadinessRangeScalar" => {
            let (s, e) = span(args)?;
            Value::Array(
                clock::days(s, e).rev().flat_map(|x| super::training::readiness_items(d, x)).collect(),
            )
        }
        "trainingPlanScalar" => json!({"trainingPlanWorkoutScheduleDTOS": []}),
        "userDailySummaryV2Scalar" => {
            let (s, e) = span(args)?;
            json!({"data": days(d, s, e).map(|(x, r)| daily::day(d, x, r)).collect::<Vec<_>>()})
        }
        "vo2MaxScalar" => {
            let (s, e) = span(args)?;
            let rows = days(d, s, e).map(|(x, r)| {
                json!({"userId": d.profile_id, "generic": super::training::vo2_generic(x, r), "cycling": null,
                       "heatAltitudeAcclimation": super::training::acclimation(d, x)})
            });
            Value::Array(rows.collect())
        }
        "weightScalar" => {
            let (s, e) = span(args)?;
            super::weight::range_body(d, s, e)
        }
        "workoutScheduleSummariesScalar" => {
            let (s, e) = span(args)?;
            let rows = d.schedules.values().filter(|x| (s..=e).contains(&x.date)).map(|x| {
                let w = d.workouts.get(&x.workout_id);
                json!({"scheduledWorkoutId": x.id, "workoutId": x.workout_id, "scheduleDate": clock::date(x.date),
                       "workoutName": w.map(|w| w["workoutName"].clone()), "sportTypeKey": w.map(|w| w["sportType"]["sportTypeKey"].clone()),
                       "trainingPlanId": null})
            });
            Value::Array(rows.collect())
        }
        _ => return Ok(None),
    }))
}

/// `epochChartScalar(date, include:[…])`: `{<metric>: {labels, data}}` for stress and heart rate.
fn epoch_chart(d: &Dataset, day: NaiveDate, include: Option<&Value>) -> Value {
    let wanted: Vec<&str> = include
        .and_then(Value::as_array)
        .map_or_else(|| vec!["stress"], |l| l.iter().filter_map(Value::as_str).collect());
    let mut out = Map::new();
    for metric in wanted {
        let rows: Vec<Value> = match (metric, d.day(day)) {
            ("stress", Some(r)) => crate::data::intraday::stress(&r.ctx(&d.zone, &d.activities))
                .into_iter()
                .filter(|(_, v)| *v >= 0)
                .map(|(t, v)| json!([clock::t1(clock::from_ms(t)), v]))
                .collect(),
            ("heartRate", Some(r)) => crate::data::intraday::heart_rate(&r.ctx(&d.zone, &d.activities))
                .into_iter()
                .filter_map(|(t, v)| v.map(|v| json!([clock::t1(clock::from_ms(t)), v])))
                .collect(),
            _ => Vec::new(),
        };
        out.insert(metric.to_owned(), json!({"labels": ["timestampGmt", "value"], "data": rows}));
    }
    Value::Object(out)
}

/// `latestWeightScalar(asOfDate)`: the last weigh-in on or before the date (null before any).
fn latest_weight(d: &Dataset, day: NaiveDate) -> Value {
    let Some((x, w)) = super::weight::latest_before(d, day) else { return Value::Null };
    let entry = super::weight::entry(d, x, w);
    Obj::new()
        .set("date", clock::local_ms(x.and_time(chrono::NaiveTime::MIN)))
        .set("version", clock::ms(w.at_gmt + Duration::seconds(53)))
        .set("weight", w.grams)
        .set("bmi", w.bmi)
        .set("bodyFat", w.body_fat)
        .set("bodyWater", w.body_water)
        .set("boneMass", w.bone_g)
        .set("muscleMass", w.muscle_g)
        .nulls(&["physiqueRating", "visceralFat", "metabolicAge", "caloricIntake"])
        .set("sourceType", entry["sourceType"].clone())
        .set("timestampGMT", clock::ms(w.at_gmt))
        .set("weightDelta", w.delta_g)
        .build()
}
