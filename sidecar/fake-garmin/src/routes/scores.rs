//! Endurance and hill scores (reference §4.5): one day's record (`endurance_score.json`,
//! `hill_score.json`; 204 on days without data) and the range statistics (weekly endurance
//! groups, daily hill scores with the `hill_score_range_empty.json` empty form).

use axum::Router;
use axum::extract::State;
use axum::response::Response;
use axum::routing::get;
use chrono::{Duration, NaiveDate};
use serde_json::{Map, Value, json};

use super::{Obj, Query, bad_request, int, no_content, ok, query_date, read, round};
use crate::data::activity::Sport;
use crate::data::kit::WATCH_ID;
use crate::data::{Dataset, clock};
use crate::state::AppState;

pub(super) fn router() -> Router<AppState> {
    Router::new()
        .route("/metrics-service/metrics/endurancescore", get(endurance))
        .route("/metrics-service/metrics/endurancescore/stats", get(endurance_stats))
        .route("/metrics-service/metrics/hillscore", get(hill))
        .route("/metrics-service/metrics/hillscore/stats", get(hill_stats))
}

/// Endurance contributors: share of the 4-week load by sport.
fn contributors(d: &Dataset, day: NaiveDate) -> Vec<Value> {
    let acts: Vec<_> =
        d.live().filter(|a| (day - Duration::days(27)..=day).contains(&a.start_local.date())).collect();
    let total: f64 = acts.iter().map(|a| a.training_load).sum::<f64>().max(1.0);
    [Sport::Running, Sport::Cycling, Sport::Swimming, Sport::Strength]
        .into_iter()
        .filter_map(|s| {
            let share: f64 = acts.iter().filter(|a| a.sport() == s).map(|a| a.training_load).sum();
            (share > 0.0).then(|| json!({"activityTypeId": s.type_id(), "group": null, "contribution": round(share * 100.0 / total, 2)}))
        })
        .collect()
}

/// The endurance-score record of a day (`endurance_score.json`).
pub(super) fn endurance_dto(d: &Dataset, day: NaiveDate) -> Option<Value> {
    // A watch without the score: 204, as for a day without one.
    let score = d.day(day).filter(|_| d.records_newest_metrics())?.fitness.endurance;
    let class = [5100.0, 5800.0, 6600.0, 7300.0, 8100.0, 8800.0].iter().filter(|l| score >= **l).count() + 1;
    Some(
        Obj::new()
            .set("userProfilePK", d.profile_id)
            .set("deviceId", WATCH_ID)
            .set("calendarDate", clock::date(day))
            .set("overallScore", int(score))
            .set("classification", class)
            .set("feedbackPhrase", 30 + class)
            .set("primaryTrainingDevice", true)
            .set("gaugeLowerLimit", 3570)
            .set("classificationLowerLimitIntermediate", 5100)
            .set("classificationLowerLimitTrained", 5800)
            .set("classificationLowerLimitWellTrained", 6600)
            .set("classificationLowerLimitExpert", 7300)
            .set("classificationLowerLimitSuperior", 8100)
            .set("classificationLowerLimitElite", 8800)
            .set("gaugeUpperLimit", 10560)
            .set("contributors", contributors(d, day))
            .build(),
    )
}

/// `GET /metrics-service/metrics/endurancescore?calendarDate=` (204 without data).
async fn endurance(State(state): State<AppState>, q: Query) -> Response {
    match query_date(&q, "calendarDate") {
        Ok(day) => endurance_dto(&read(&state), day).map_or_else(no_content, ok),
        Err(e) => e.into(),
    }
}

/// Endurance stats over a range (also `enduranceScoreScalar`): groups of `days` days from `start`
/// (7 for `aggregation=weekly`, as tamcore asks; 1 for `aggregation=daily`, which the hill-score
/// twin of this path takes — for the endurance score *unverified*).
pub(super) fn endurance_range(d: &Dataset, start: NaiveDate, end: NaiveDate, days: usize) -> Value {
    let scores: Vec<(NaiveDate, f64)> = clock::days(start, end)
        .filter(|_| d.records_newest_metrics())
        .filter_map(|x| d.day(x).map(|r| (x, r.fitness.endurance)))
        .collect();
    let mut groups = Map::new();
    for chunk in scores.chunks(days.max(1)) {
        let Some(first) = chunk.first() else { continue };
        let avg = chunk.iter().map(|x| x.1).sum::<f64>() / chunk.len() as f64;
        let max = chunk.iter().map(|x| x.1).fold(0.0, f64::max);
        let last = chunk.last().map_or(first.0, |x| x.0);
        groups.insert(clock::date(first.0), json!({"groupAverage": int(avg), "groupMax": int(max), "enduranceContributorDTOList": contributors(d, last)}));
    }
    let avg = if scores.is_empty() {
        Value::Null
    } else {
        int(scores.iter().map(|x| x.1).sum::<f64>() / scores.len() as f64)
    };
    let max = scores.iter().map(|x| x.1).reduce(f64::max).map(int);
    Obj::new()
        .set("userProfilePK", d.profile_id)
        .set("startDate", clock::date(start))
        .set("endDate", clock::date(end))
        .set("avg", avg)
        .set("max", max)
        .set("groupMap", Value::Object(groups))
        .set("enduranceScoreDTO", endurance_dto(d, end.min(d.today)))
        .build()
}

/// `GET /metrics-service/metrics/endurancescore/stats?startDate&endDate&aggregation=weekly|daily`
async fn endurance_stats(State(state): State<AppState>, q: Query) -> Response {
    let days = if q.get("aggregation").map(String::as_str) == Some("daily") { 1 } else { 7 };
    match (query_date(&q, "startDate"), query_date(&q, "endDate")) {
        (Ok(s), Ok(e)) if s <= e => ok(endurance_range(&read(&state), s, e, days)),
        (Ok(_), Ok(_)) => bad_request("endDate is before startDate"),
        (Err(r), _) | (_, Err(r)) => r.into(),
    }
}

fn hill_dto(d: &Dataset, day: NaiveDate) -> Option<Value> {
    let rec = d.day(day).filter(|_| d.records_newest_metrics())?;
    let (overall, strength, endurance) = rec.fitness.hill;
    Some(
        Obj::new()
            .set("userProfilePK", d.profile_id)
            .set("deviceId", WATCH_ID)
            .set("calendarDate", clock::date(day))
            .set("strengthScore", int(strength))
            .set("enduranceScore", int(endurance))
            .set(
                "hillScoreClassificationId",
                if overall >= 70.0 {
                    4
                } else if overall >= 50.0 {
                    3
                } else {
                    2
                },
            )
            .set("overallScore", int(overall))
            .set("hillScoreFeedbackPhraseId", 4)
            .set("vo2Max", rec.fitness.vo2max.round())
            .set("vo2MaxPreciseValue", rec.fitness.vo2max)
            .set("primaryTrainingDevice", true)
            .build(),
    )
}

/// `GET /metrics-service/metrics/hillscore?calendarDate=` (204 without data).
async fn hill(State(state): State<AppState>, q: Query) -> Response {
    match query_date(&q, "calendarDate") {
        Ok(day) => hill_dto(&read(&state), day).map_or_else(no_content, ok),
        Err(e) => e.into(),
    }
}

/// `GET /metrics-service/metrics/hillscore/stats?startDate&endDate&aggregation=daily`
async fn hill_stats(State(state): State<AppState>, q: Query) -> Response {
    let (start, end) = match (query_date(&q, "startDate"), query_date(&q, "endDate")) {
        (Ok(s), Ok(e)) if s <= e => (s, e),
        (Ok(_), Ok(_)) => return bad_request("endDate is before startDate"),
        (Err(r), _) | (_, Err(r)) => return r.into(),
    };
    let d = read(&state);
    let mut avg = Map::new();
    let mut list = Vec::new();
    for day in clock::days(start, end) {
        let dto = hill_dto(&d, day);
        avg.insert(clock::date(day), dto.as_ref().map_or(Value::Null, |v| v["overallScore"].clone()));
        list.extend(dto);
    }
    let max = list.iter().filter_map(|v| v["overallScore"].as_i64()).max();
    ok(Obj::new()
        .set("userProfilePK", d.profile_id)
        .set("startDate", clock::date(start))
        .set("endDate", clock::date(end))
        .set("periodAvgScore", Value::Object(avg))
        .set("maxScore", max)
        .set("hillScoreDTOList", list)
        .build())
}
