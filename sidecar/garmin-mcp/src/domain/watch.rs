//! What the watch records and what stands in for what it does not: the morning Training Readiness
//! (the wake-up entry, not the latest recomputation) and the one plain sentence for a metric the
//! watch lacks ("your Forerunner 255 does not record Running Tolerance"), never zeros. Shared by
//! `get_training_status` and `get_injury_risk`.

use garmin::models::devices::Device;
use garmin::models::metrics::{TrainingReadiness, TrainingStatus};
use garmin::{ErrorKind, ForbiddenKind};

/// What stands in for a metric Garmin did not give: a sentence for the person (the watch does not
/// record it, or Garmin keeps it from this account), or `None` when the request failed for
/// another reason (then it is named in `missing` with Garmin's reason).
pub(crate) fn absence(watch: &str, metric: &str, error: Option<&garmin::Error>) -> Option<String> {
    let Some(e) = error else { return Some(format!("{watch} does not record {metric}.")) };
    match (e.kind(), e.forbidden_kind()) {
        (ErrorKind::NeedsSubscription, _) => Some(format!("{} needs Garmin Connect+.", capitalised(metric))),
        (ErrorKind::NotFound | ErrorKind::NoContent, _) => Some(format!("{watch} does not record {metric}.")),
        (ErrorKind::Forbidden, Some(ForbiddenKind::Feature | ForbiddenKind::Account)) => Some(format!(
            "Garmin does not give {metric} to this account: it may need Garmin Connect+ or a newer watch."
        )),
        _ => None,
    }
}

/// The metric's name as the start of a sentence ("a hill score" → "A hill score").
fn capitalised(metric: &str) -> String {
    let mut chars = metric.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// "your Forerunner 255" (the watch that records training, else the first device), or "your
/// watch" when Garmin named none.
pub(crate) fn watch_words(status: Option<&TrainingStatus>, devices: &[Device]) -> String {
    let recorded = status
        .and_then(|s| s.most_recent_training_status.as_ref())
        .and_then(|s| s.recorded_devices.iter().find_map(|d| d.device_name.clone()));
    let listed = || devices.iter().find_map(|d| d.product_display_name.clone().or(d.display_name.clone()));
    match recorded.filter(|n| !n.trim().is_empty()).or_else(listed) {
        Some(name) => format!("your {name}"),
        None => "your watch".to_owned(),
    }
}

/// The morning readiness of a day (`AFTER_WAKEUP_RESET`), else the latest.
pub fn morning_readiness(entries: &[TrainingReadiness]) -> Option<&TrainingReadiness> {
    TrainingReadiness::morning(entries)
}
