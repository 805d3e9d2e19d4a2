//! Health Status in `get_daily_health` (#29): each overnight metric — HRV, resting heart rate,
//! respiration, skin temperature, SpO2 — against the athlete's own baseline range, with Garmin's
//! status for it. Garmin's path and field names are *unverified* (`garmin::models::metrics::
//! HealthStatus`): whatever does not read is absent, never a zero. A watch that does not record it,
//! or an account Garmin keeps it from (402: Garmin Connect+), gets one plain sentence instead.

use garmin::models::metrics::{HealthStatus, HealthStatusMetric};

use super::answer::{HealthStatusMetricPart, HealthStatusPart};
use crate::domain::words::words;

/// Garmin's metric keys, with the name and unit the answer uses, in the card's order.
const METRICS: [(&str, &str, &str); 5] = [
    ("HRV", "hrv", "ms"),
    ("RESTING_HEART_RATE", "resting heart rate", "bpm"),
    ("RESPIRATION", "respiration", "breaths/min"),
    ("SKIN_TEMPERATURE", "skin temperature", "°C change"),
    ("SPO2", "spo2", "%"),
];

/// The day's Health Status part, `None` when no metric has a value.
pub(super) fn health_status_part(status: &HealthStatus) -> Option<HealthStatusPart> {
    let metrics: Vec<HealthStatusMetricPart> = METRICS
        .iter()
        .filter_map(|(key, name, unit)| status.metric(key).and_then(|m| metric_part(m, name, unit)))
        .collect();
    if metrics.is_empty() {
        return None;
    }
    Some(HealthStatusPart { overall: status.overall_status.as_deref().map(words), metrics })
}

fn metric_part(m: &HealthStatusMetric, name: &str, unit: &str) -> Option<HealthStatusMetricPart> {
    let one = |x: f64| (x * 10.0).round() / 10.0;
    let value = m.value.filter(|v| v.is_finite()).map(one)?;
    let (low, high) = (m.baseline_lower_limit.map(one), m.baseline_upper_limit.map(one));
    Some(HealthStatusMetricPart {
        metric: name.to_owned(),
        value,
        unit: unit.to_owned(),
        baseline_low: low,
        baseline_high: high,
        status: m.status.as_deref().map_or_else(|| status_from_range(value, low, high), status_words),
    })
}

/// Garmin's status key in words: `IN_RANGE` → `within baseline`, `ABOVE_BASELINE` → `above
/// baseline`…
fn status_words(key: &str) -> String {
    match key {
        "IN_RANGE" | "WITHIN_BASELINE" | "NORMAL" => "within baseline".to_owned(),
        "NO_BASELINE" => "no baseline yet".to_owned(),
        other => words(other),
    }
}

/// The status when Garmin sent none: the value against the range.
fn status_from_range(value: f64, low: Option<f64>, high: Option<f64>) -> String {
    match (low, high) {
        (Some(lo), _) if value < lo => "below baseline".to_owned(),
        (_, Some(hi)) if value > hi => "above baseline".to_owned(),
        (Some(_), Some(_)) => "within baseline".to_owned(),
        _ => "no baseline yet".to_owned(),
    }
}

/// One sentence: "Health Status: all within baseline." or the metrics out of their range with
/// their numbers.
pub(super) fn health_status_sentence(part: &HealthStatusPart) -> String {
    let out: Vec<String> = part
        .metrics
        .iter()
        .filter(|m| m.status == "above baseline" || m.status == "below baseline")
        .map(|m| match (m.baseline_low, m.baseline_high) {
            (Some(lo), Some(hi)) => {
                format!("{} {} ({} {}, baseline {lo}–{hi})", m.metric, m.status, m.value, m.unit)
            }
            _ => format!("{} {} ({} {})", m.metric, m.status, m.value, m.unit),
        })
        .collect();
    if out.is_empty() {
        format!("Health Status: {} metrics within baseline.", part.metrics.len())
    } else {
        format!("Health Status: {}.", out.join("; "))
    }
}
