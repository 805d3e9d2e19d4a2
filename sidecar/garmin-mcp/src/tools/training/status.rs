//! Training status and load for `get_training_status`: Garmin's status in words, acute and chronic
//! load with the acute:chronic workload ratio and its band, the load balance, and the summary of
//! the whole report.

use garmin::models::metrics::TrainingStatus;

use super::answer::*;
use crate::domain::load::{acwr, acwr_band};
use crate::domain::words::words;

pub(super) fn status_part(status: &TrainingStatus) -> Option<StatusPart> {
    let s = status.primary_status()?;
    let phrase = s
        .training_status_feedback_phrase
        .as_deref()
        .map(status_phrase)
        .or_else(|| s.training_status.map(status_from_code))?;
    Some(StatusPart {
        phrase,
        since: s.since_date.map(|d| d.to_string()),
        fitness_trend: s.fitness_trend.and_then(|t| match t {
            1 => Some("declining".to_owned()),
            2 => Some("stable".to_owned()),
            3 => Some("improving".to_owned()),
            _ => None,
        }),
        paused: s.training_paused.filter(|p| *p),
    })
}

/// Garmin's status key (`PRODUCTIVE_3`) in words (`productive`).
pub fn status_phrase(key: &str) -> String {
    let stem = key.trim().trim_end_matches(|c: char| c.is_ascii_digit()).trim_end_matches('_');
    words(stem)
}

/// Garmin's status code in words, when the key is missing.
fn status_from_code(code: i64) -> String {
    match code {
        0 => "no status".to_owned(),
        1 => "detraining".to_owned(),
        2 => "unproductive".to_owned(),
        3 => "peaking".to_owned(),
        4 => "maintaining".to_owned(),
        5 => "recovery".to_owned(),
        6 => "overreaching".to_owned(),
        7 => "productive".to_owned(),
        8 => "strained".to_owned(),
        other => format!("status code {other}"),
    }
}

pub(super) fn load_part(status: &TrainingStatus) -> Option<LoadPart> {
    let load = status.primary_status()?.acute_training_load.as_ref()?;
    let acute = load.daily_training_load_acute;
    let chronic = load.daily_training_load_chronic;
    let acwr = match (acute, chronic) {
        (Some(a), Some(c)) if c > 0.0 => Some(acwr(a, c)),
        _ => load.daily_acute_chronic_workload_ratio,
    };
    if acute.is_none() && chronic.is_none() && acwr.is_none() {
        return None;
    }
    let band = acwr.map(acwr_band);
    Some(LoadPart {
        acute: acute.map(f64::round),
        chronic: chronic.map(f64::round),
        acwr,
        acwr_band: band.map(|b| b.0.to_owned()),
        meaning: band.map(|b| b.1.to_owned()),
    })
}

pub(super) fn load_balance_part(status: &TrainingStatus) -> Option<LoadBalancePart> {
    let b = status.primary_load_balance()?;
    let band = |name: &str, load: Option<f64>, lo: Option<f64>, hi: Option<f64>| LoadBand {
        band: name.to_owned(),
        load: load.map(f64::round),
        target_min: lo.map(f64::round),
        target_max: hi.map(f64::round),
        status: load.map(|l| {
            if lo.is_some_and(|lo| l < lo) {
                "below target".to_owned()
            } else if hi.is_some_and(|hi| l > hi) {
                "above target".to_owned()
            } else {
                "on target".to_owned()
            }
        }),
    };
    let bands = vec![
        band(
            "aerobic low",
            b.monthly_load_aerobic_low,
            b.monthly_load_aerobic_low_target_min,
            b.monthly_load_aerobic_low_target_max,
        ),
        band(
            "aerobic high",
            b.monthly_load_aerobic_high,
            b.monthly_load_aerobic_high_target_min,
            b.monthly_load_aerobic_high_target_max,
        ),
        band(
            "anaerobic",
            b.monthly_load_anaerobic,
            b.monthly_load_anaerobic_target_min,
            b.monthly_load_anaerobic_target_max,
        ),
    ];
    if bands.iter().all(|b| b.load.is_none()) {
        return None;
    }
    let focus = bands.iter().filter_map(band_focus).collect();
    Some(LoadBalancePart { bands, feedback: b.training_balance_feedback_phrase.as_deref().map(words), focus })
}

/// The summary of a training status report: status, load ratio, readiness, VO2max, race
/// predictions and the trend of the last days, each only when known.
pub(super) fn training_summary(r: &TrainingStatusReport) -> String {
    let mut text = format!("{}:", r.date);
    match &r.status {
        Some(s) => {
            text.push_str(&format!(" training status {}", s.phrase));
            if let Some(since) = &s.since {
                text.push_str(&format!(" (since {since})"));
            }
            text.push('.');
        }
        None => text.push_str(" no training status."),
    }
    if let Some(sentence) = load_sentence(r) {
        text.push_str(&sentence);
    }
    if let Some(sentence) = readiness_sentence(r) {
        text.push_str(&sentence);
    }
    if let Some(v) = r.vo2max.as_ref().and_then(|v| v.running) {
        text.push_str(&format!(" VO2max {v}."));
    }
    if let Some(sentence) = predictions_sentence(r) {
        text.push_str(&sentence);
    }
    if let Some(sentence) = trend_sentence(r) {
        text.push_str(&sentence);
    }
    text
}

/// Acute against chronic load with the ratio, its band and what it means.
fn load_sentence(r: &TrainingStatusReport) -> Option<String> {
    let l = r.load.as_ref()?;
    let (Some(ratio), Some(band)) = (l.acwr, &l.acwr_band) else { return None };
    let loads = match (l.acute, l.chronic) {
        (Some(a), Some(c)) => format!("Acute load {a:.0} vs chronic {c:.0}: "),
        _ => String::new(),
    };
    let meaning = l.meaning.as_deref().unwrap_or_default();
    Some(format!(" {loads}ACWR {ratio:.2}, {band} — {meaning}."))
}

/// Readiness score and level, with what limits it.
fn readiness_sentence(r: &TrainingStatusReport) -> Option<String> {
    let rd = r.readiness.as_ref()?;
    let score = rd.score?;
    let level = rd.level.as_deref().map(|l| format!(" ({l})")).unwrap_or_default();
    let mut text = format!(" Readiness {score}{level}");
    if rd.limiting_factors.is_empty() {
        text.push('.');
    } else {
        text.push_str(&format!(", limited by {}.", rd.limiting_factors.join(" and ")));
    }
    Some(text)
}

/// The race predictions (with their day when older than the report's).
fn predictions_sentence(r: &TrainingStatusReport) -> Option<String> {
    let p = r.race_predictions.as_ref()?;
    let as_of = p.as_of.as_deref().filter(|d| *d != r.date).map(|d| format!(" (as of {d})"));
    let preds: Vec<String> =
        [("5K", &p.five_k), ("10K", &p.ten_k), ("half", &p.half_marathon), ("marathon", &p.marathon)]
            .iter()
            .filter_map(|(name, t)| t.as_ref().map(|t| format!("{name} {t}")))
            .collect();
    (!preds.is_empty()).then(|| format!(" Predicted{}: {}.", as_of.unwrap_or_default(), preds.join(", ")))
}

/// How readiness and acute load moved over the trend days (first known value to last).
fn trend_sentence(r: &TrainingStatusReport) -> Option<String> {
    let days = r.trend.len();
    if days <= 1 {
        return None;
    }
    let firsts_lasts = |f: fn(&TrendRow) -> Option<f64>| {
        let values: Vec<f64> = r.trend.iter().filter_map(f).collect();
        Some((*values.first()?, *values.last()?))
    };
    let mut trend = Vec::new();
    if let Some((a, b)) = firsts_lasts(|t| t.readiness.map(|x| x as f64)) {
        trend.push(format!("readiness {a:.0} → {b:.0}"));
    }
    if let Some((a, b)) = firsts_lasts(|t| t.acute_load) {
        trend.push(format!("acute load {a:.0} → {b:.0}"));
    }
    (!trend.is_empty()).then(|| format!(" Last {days} days: {}.", trend.join(", ")))
}

/// A band's shortage or excess in words, with how far it is from its range; `None` on target.
fn band_focus(b: &LoadBand) -> Option<String> {
    let load = b.load?;
    let range = match (b.target_min, b.target_max) {
        (Some(lo), Some(hi)) => format!("{lo:.0}–{hi:.0}"),
        (Some(lo), None) => format!("at least {lo:.0}"),
        (None, Some(hi)) => format!("at most {hi:.0}"),
        (None, None) => return None,
    };
    match b.status.as_deref()? {
        "below target" => Some(format!(
            "{} shortage ({:.0} below {range})",
            b.band,
            b.target_min.map_or(0.0, |lo| lo - load)
        )),
        "above target" => {
            Some(format!("{} excess ({:.0} above {range})", b.band, b.target_max.map_or(0.0, |hi| load - hi)))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_keys_read_as_words() {
        assert_eq!(status_phrase("PRODUCTIVE_3"), "productive");
        assert_eq!(status_phrase("UNPRODUCTIVE_4"), "unproductive");
        assert_eq!(status_phrase("NO_STATUS"), "no status");
        assert_eq!(status_phrase("STRAINED_1"), "strained");
        assert_eq!(status_from_code(42), "status code 42");
    }
}
