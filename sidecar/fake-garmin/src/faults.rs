//! Switchable misbehaviour, so clients can be tested against the ways Garmin fails: slowness,
//! 429s (as a status or hidden in a 200 body, reference §3.2), 5xx, broken or empty bodies, 204s and
//! a session that expires mid-run.
//!
//! Rules apply to `/gc-api` requests (and the bare race search) that passed auth, in the order
//! pushed; each application uses up one of the rule's `times`. A rule with a `path_contains` also
//! applies to the refresh endpoint when that path matches, before the credential is looked at
//! (handy for slow or failing refreshes).
//! Latency rules add up and let the request continue; the first other matching rule answers.
//!
//! JSON form (admin API): `{"path_contains": "sleep", "fault": {"ServerError": 503}, "times": 1}`,
//! `{"fault": {"Latency": 250}}` (milliseconds), `{"fault": {"RateLimited": {"retry_after_secs": 30}}}`,
//! `{"fault": "NoContent"}`, `{"path_contains": "/gc-api/race-search/", "fault": "NotFound"}`,
//! `{"path_contains": "/download-service/", "fault": "NotOwner"}`, `"EdgeForbidden"`,
//! `"EdgeForbiddenHtml"`, `{"path_contains": "/hrv-service/", "fault": "ForbiddenException"}`,
//! `{"path_contains": "/di-oauth/refresh", "fault": {"SlowAnswer": 3000}}` (handled now, answered
//! 3 s later), `{"path_contains": "dailySleepData", "fault": {"Overlay": {"dailySleepDTO": null}}}`.
//!
//! Every answer that came "through" Garmin's servers carries `cf-cache-status` (set in
//! `server.rs`); the two Cloudflare edge refusals do not, which is how a client tells them apart
//! (docs/garmin-web-api.md §0).
//!
//!
//! `Overlay` is the one rule that lets the request through: the handler answers as usual and the
//! patch is laid over its JSON body ([`overlay`]). It makes the sparser answers real Garmin gives
//! for some days and activities (a null sleep block, a night without a total sleep time, an
//! unnamed activity, a pool swim whose speed channel is zero) out of the fake's own data, so the
//! numbers around them stay those of the data set.

use std::time::Duration;

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};

/// One switchable fault and where and how often it applies.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FaultRule {
    /// Applies only when the request path (with `?query`) contains this; `None` = every `/gc-api` call.
    #[serde(default)]
    pub path_contains: Option<String>,
    /// What happens.
    pub fault: Fault,
    /// How many requests it affects; `None` = forever.
    #[serde(default)]
    pub times: Option<u32>,
}

impl FaultRule {
    /// `fault` on every `/gc-api` call, forever.
    pub fn always(fault: Fault) -> Self {
        Self { path_contains: None, fault, times: None }
    }

    /// `fault` on the next `n` matching calls.
    pub fn times(fault: Fault, n: u32) -> Self {
        Self { path_contains: None, fault, times: Some(n) }
    }

    /// Restricts the rule to paths containing `part`.
    #[must_use]
    pub fn on_path(mut self, part: &str) -> Self {
        self.path_contains = Some(part.to_owned());
        self
    }
}

/// The ways a response can go wrong.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Fault {
    /// Wait this long, then answer normally (JSON: milliseconds).
    Latency(#[serde(with = "millis")] Duration),
    /// Handle the request at once (a refresh spends its credential), then hold the answer this
    /// long (JSON: milliseconds): a client that gives up or dies meanwhile never sees it, the way a
    /// process killed during a renewal loses the new credential Garmin already issued.
    SlowAnswer(#[serde(with = "millis")] Duration),
    /// 429 with an optional `Retry-After` header.
    RateLimited {
        /// Seconds to put in `Retry-After`.
        #[serde(default)]
        retry_after_secs: Option<u64>,
    },
    /// 200 with `{"error":{"status-code":"429"}}`.
    RateLimitedInBody,
    /// This 5xx status (500, 502, 503…; anything else becomes 500).
    ServerError(u16),
    /// 200, `application/json`, cut-off JSON.
    MalformedJson,
    /// 200 with an empty body.
    EmptyBody,
    /// 204 No Content.
    NoContent,
    /// 401 with an empty body, as if the access cookie had expired.
    ExpireSession,
    /// 404 with Garmin's `NotFoundException` body, as if the path did not exist (e.g. the race
    /// search under `/gc-api`, reference open question 12).
    NotFound,
    /// 200 with this JSON body instead of the handler's: a real recorded answer from the fixtures
    /// (e.g. the 2018 activity details, whose shape and units today's handler does not make).
    Body(serde_json::Value),
    /// 200 with the handler's own JSON body, `patch` laid over it ([`overlay`]).
    Overlay(serde_json::Value),
    /// 403 with Garmin's "Only owner of activity allowed…" body (fixture
    /// `error_403_download_not_owner.json`), as for a download of someone else's activity.
    NotOwner,
    /// 403 from Cloudflare's edge with an empty body and no `cf-cache-status` (docs/garmin-web-api.md
    /// §0 `[S]`): the request never reached Garmin; nothing is wrong with the session.
    EdgeForbidden,
    /// 403 from Cloudflare's edge with its "Access denied" HTML page and no `cf-cache-status`
    /// (§0 and §3.2 "Other bot walls").
    EdgeForbiddenHtml,
    /// 403 with Garmin's own `{"message":"HTTP 403 Forbidden","error":"ForbiddenException"}`
    /// (§0 `[1]`): Garmin refuses this to the account. On a path of a feature that needs a device
    /// or a subscription (e.g. `/hrv-service/`) it stands for a feature the account lacks.
    ForbiddenException,
    /// 402 Payment Required with a Garmin-style JSON body, as for a feature Garmin keeps behind
    /// Garmin Connect+ from an account without it (reference `garmin-newest-metrics.md`, "Paywall
    /// and device notes": "a 402/403/empty answer"; the status is the reference's, the body is
    /// ours, *unverified*).
    PaymentRequired,
}

/// Marks a response as Cloudflare's own (no `cf-cache-status` is added to it).
#[derive(Clone, Copy, Debug)]
pub struct FromEdge;

impl Fault {
    /// The response this fault answers with (`Latency` and `Overlay` answer nothing of their own:
    /// 500, never used that way).
    pub fn response(&self) -> Response {
        const JSON: &str = "application/json;charset=UTF-8";
        match self {
            Self::Latency(_) | Self::Overlay(_) | Self::SlowAnswer(_) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
            Self::RateLimited { retry_after_secs } => {
                let mut res = StatusCode::TOO_MANY_REQUESTS.into_response();
                if let Some(secs) = retry_after_secs {
                    res.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(*secs));
                }
                res
            }
            Self::RateLimitedInBody => {
                (StatusCode::OK, [(header::CONTENT_TYPE, JSON)], r#"{"error":{"status-code":"429"}}"#)
                    .into_response()
            }
            Self::ServerError(code) => server_error(*code),
            Self::MalformedJson => (
                StatusCode::OK,
                [(header::CONTENT_TYPE, JSON)],
                r#"{"activityId": 1, "activityName": "Morning Run", "summaryDTO": {"distance": 10"#,
            )
                .into_response(),
            Self::EmptyBody => (StatusCode::OK, [(header::CONTENT_TYPE, JSON)], "").into_response(),
            Self::Body(body) => {
                (StatusCode::OK, [(header::CONTENT_TYPE, JSON)], body.to_string()).into_response()
            }
            Self::NoContent => StatusCode::NO_CONTENT.into_response(),
            Self::PaymentRequired => (
                StatusCode::PAYMENT_REQUIRED,
                [(header::CONTENT_TYPE, JSON)],
                r#"{"message":"HTTP 402 Payment Required","error":"PaymentRequiredException"}"#,
            )
                .into_response(),
            Self::ExpireSession => StatusCode::UNAUTHORIZED.into_response(),
            Self::NotFound => (
                StatusCode::NOT_FOUND,
                [(header::CONTENT_TYPE, JSON)],
                r#"{"message":"HTTP 404 Not Found","error":"NotFoundException"}"#,
            )
                .into_response(),
            Self::NotOwner => (
                StatusCode::FORBIDDEN,
                [(header::CONTENT_TYPE, JSON)],
                include_str!("../fixtures/garmin/error_403_download_not_owner.json"),
            )
                .into_response(),
            Self::EdgeForbidden => edge(StatusCode::FORBIDDEN.into_response()),
            Self::EdgeForbiddenHtml => edge(
                (
                    StatusCode::FORBIDDEN,
                    [(header::CONTENT_TYPE, "text/html; charset=UTF-8")],
                    "<!DOCTYPE html><html><head><title>Access denied | connect.garmin.com used Cloudflare to restrict access</title></head><body><h1>Sorry, you have been blocked</h1><p>(fake-garmin edge refusal)</p></body></html>",
                )
                    .into_response(),
            ),
            Self::ForbiddenException => (
                StatusCode::FORBIDDEN,
                [(header::CONTENT_TYPE, JSON)],
                r#"{"message":"HTTP 403 Forbidden","error":"ForbiddenException"}"#,
            )
                .into_response(),
        }
    }
}

fn edge(mut res: Response) -> Response {
    res.extensions_mut().insert(FromEdge);
    res
}

fn server_error(code: u16) -> Response {
    let status = StatusCode::from_u16(code)
        .ok()
        .filter(StatusCode::is_server_error)
        .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    if status == StatusCode::INTERNAL_SERVER_ERROR {
        let body = r#"{"message":"Internal Server Error","error":"WebApplicationException"}"#;
        return (status, [(header::CONTENT_TYPE, "application/json")], body).into_response();
    }
    // Gateway errors come from the edge as HTML, which a client must not try to decode as JSON.
    let reason = status.canonical_reason().unwrap_or("Error");
    let body = format!(
        "<html><head><title>{code} {reason}</title></head><body><h1>{code} {reason}</h1></body></html>",
        code = status.as_u16()
    );
    (status, [(header::CONTENT_TYPE, "text/html")], body).into_response()
}

/// Lays `patch` over `target`: objects merge key by key (a `null` value sets the field to
/// `null`, as Garmin sends it, rather than removing it); an array patch applies element by
/// element to an array (`{}` leaves an element as it is; a one-element patch with the key `"*"`,
/// `[{"*": {...}}]`, applies to every element); anything else replaces.
pub fn overlay(target: &mut serde_json::Value, patch: &serde_json::Value) {
    use serde_json::Value;
    match (target, patch) {
        (Value::Object(t), Value::Object(p)) => {
            for (key, value) in p {
                match t.get_mut(key) {
                    Some(slot) => overlay(slot, value),
                    None => {
                        t.insert(key.clone(), value.clone());
                    }
                }
            }
        }
        (Value::Array(t), Value::Array(p)) => {
            if let [Value::Object(all)] = p.as_slice()
                && let Some(each) = all.get("*")
            {
                for item in t.iter_mut() {
                    overlay(item, each);
                }
                return;
            }
            for (item, value) in t.iter_mut().zip(p) {
                overlay(item, value);
            }
        }
        // `{}` leaves anything as it is (how an array patch skips an element).
        (_, Value::Object(p)) if p.is_empty() => {}
        (slot, value) => *slot = value.clone(),
    }
}

/// The rules in force.
#[derive(Debug, Default)]
pub struct Faults {
    rules: Vec<FaultRule>,
}

/// What to do to one request.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Plan {
    /// Total latency to add.
    pub latency: Duration,
    /// How long to hold the answer after the handler ran.
    pub slow_answer: Duration,
    /// The fault that answers instead of the handler, if any.
    pub fault: Option<Fault>,
}

impl Faults {
    /// Adds a rule after the existing ones.
    pub fn push(&mut self, rule: FaultRule) {
        self.rules.push(rule);
    }

    /// Drops every rule.
    pub fn clear(&mut self) {
        self.rules.clear();
    }

    /// The rules still in force.
    pub fn rules(&self) -> &[FaultRule] {
        &self.rules
    }

    /// Picks (and uses up) the rules that apply to `target` (path plus `?query`). Rules without
    /// `path_contains` apply only when `gc_api` is true.
    pub fn plan(&mut self, target: &str, gc_api: bool) -> Plan {
        let mut plan = Plan::default();
        for rule in &mut self.rules {
            let matches = match &rule.path_contains {
                None => gc_api,
                Some(part) => target.contains(part.as_str()),
            };
            if !matches || rule.times == Some(0) {
                continue;
            }
            if let Some(n) = &mut rule.times {
                *n -= 1;
            }
            match &rule.fault {
                Fault::Latency(d) => plan.latency = plan.latency.saturating_add(*d),
                Fault::SlowAnswer(d) => plan.slow_answer = plan.slow_answer.saturating_add(*d),
                other => {
                    plan.fault = Some(other.clone());
                    break;
                }
            }
        }
        self.rules.retain(|r| r.times != Some(0));
        plan
    }
}

mod millis {
    //! `Duration` as whole milliseconds in JSON.
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        u64::deserialize(d).map(Duration::from_millis)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::overlay;

    #[test]
    fn an_overlay_merges_objects_sets_nulls_and_patches_arrays_by_element() {
        let mut body = json!({"a": {"b": 1, "c": 2}, "list": [{"x": 1}, {"x": 2}], "rows": [[1, 2], [3, 4]]});
        overlay(&mut body, &json!({"a": {"b": null}, "list": [{}, {"x": 9}], "rows": [{"*": [{}, 0]}]}));
        assert_eq!(
            body,
            json!({"a": {"b": null, "c": 2}, "list": [{"x": 1}, {"x": 9}], "rows": [[1, 0], [3, 0]]})
        );
    }
}
