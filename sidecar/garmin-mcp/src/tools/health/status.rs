//! Health Status in `get_daily_health` (#29): each overnight metric — HRV, resting heart rate,
//! respiration, skin temperature, SpO2 — against the athlete's own baseline range, with Garmin's
//! status for it. Garmin's path and field names are *unverified* (`garmin::models::metrics::
//! HealthStatus`): whatever does not read is absent, never a zero. A watch that does not record it,
//! or an account Garmin keeps it from (402: Garmin Connect+), gets one plain sentence instead. A
//! range has a compact row per night and one sentence for the range (`status_days` reads them).

use std::collections::BTreeMap;

use chrono::NaiveDate;
use garmin::models::metrics::{HealthStatus, HealthStatusMetric};

use super::answer::{HealthStatusMetricPart, HealthStatusPart, HealthStatusRow};
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
pub(crate) fn health_status_part(status: &HealthStatus) -> Option<HealthStatusPart> {
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

/// True when the metric is outside the athlete's baseline range.
fn out_of_baseline(m: &HealthStatusMetricPart) -> bool {
    m.status == "above baseline" || m.status == "below baseline"
}

/// A metric outside its baseline with its numbers: `resting heart rate above baseline (58 bpm,
/// baseline 48–54)`.
fn out_of_baseline_words(m: &HealthStatusMetricPart) -> String {
    match (m.baseline_low, m.baseline_high) {
        (Some(lo), Some(hi)) => {
            format!("{} {} ({} {}, baseline {lo}–{hi})", m.metric, m.status, m.value, m.unit)
        }
        _ => format!("{} {} ({} {})", m.metric, m.status, m.value, m.unit),
    }
}

/// One sentence: "Health Status: all within baseline." or the metrics out of their range with
/// their numbers.
pub(super) fn health_status_sentence(part: &HealthStatusPart) -> String {
    let out: Vec<String> =
        part.metrics.iter().filter(|m| out_of_baseline(m)).map(out_of_baseline_words).collect();
    if out.is_empty() {
        format!("Health Status: {} metrics within baseline.", part.metrics.len())
    } else {
        format!("Health Status: {}.", out.join("; "))
    }
}

/// A night's Health Status as a range row has it.
pub(crate) fn health_status_row(part: &HealthStatusPart) -> HealthStatusRow {
    HealthStatusRow {
        within_baseline: part.metrics.iter().filter(|m| !out_of_baseline(m)).count(),
        out_of_baseline: part
            .metrics
            .iter()
            .filter(|m| out_of_baseline(m))
            .map(out_of_baseline_words)
            .collect(),
    }
}

/// The range's Health Status in one sentence: how many nights had every metric within baseline,
/// and on which days each metric was above or below it ("Health Status on 7 nights: all within
/// baseline on 5; resting heart rate above baseline on 2026-11-03, 2026-11-05."). `None` without
/// a night.
pub(super) fn health_status_range_sentence(nights: &BTreeMap<NaiveDate, HealthStatusPart>) -> Option<String> {
    if nights.is_empty() {
        return None;
    }
    let calm = nights.values().filter(|p| !p.metrics.iter().any(out_of_baseline)).count();
    // Each "metric above/below baseline" with its days, in the order first seen.
    let mut off: Vec<(String, Vec<String>)> = Vec::new();
    for (date, part) in nights {
        for m in part.metrics.iter().filter(|m| out_of_baseline(m)) {
            let what = format!("{} {}", m.metric, m.status);
            match off.iter_mut().find(|(w, _)| *w == what) {
                Some((_, days)) => days.push(date.to_string()),
                None => off.push((what, vec![date.to_string()])),
            }
        }
    }
    let nights_word = if nights.len() == 1 { "night" } else { "nights" };
    let mut text = format!("Health Status on {} {nights_word}: all within baseline on {calm}", nights.len());
    for (what, days) in &off {
        text.push_str(&format!("; {what} on {}", days.join(", ")));
    }
    text.push('.');
    Some(text)
}
