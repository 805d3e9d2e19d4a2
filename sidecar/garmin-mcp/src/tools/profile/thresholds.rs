//! The history of the athlete's thresholds in `get_profile` (#29): lactate threshold (heart rate
//! and pace) and cycling FTP over the last year, each value with the day it was set, and the
//! latest Critical Swim Speed. Garmin's paths are the reference's (`garmin-newest-metrics.md`:
//! tamcore and python-garminconnect for the ranges; the CSS path is one catalogue's, *unverified*).
//! Four requests, sent with the profile's others.

use chrono::{Duration, NaiveDate};
use garmin::api::BiometricSeries;
use garmin::models::metrics::{BiometricValue, CriticalSwimSpeed};
use rmcp::schemars;
use serde::Serialize;

use crate::domain::parts::part;

/// Days of threshold history `get_profile` reads.
pub const THRESHOLD_HISTORY_DAYS: i64 = 365;

/// How the athlete's thresholds moved.
#[derive(Debug, Default, Serialize, schemars::JsonSchema)]
pub struct ThresholdHistory {
    /// Lactate threshold each time Garmin changed it over the last year, oldest first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lactate_threshold: Vec<LactateThresholdPoint>,
    /// Cycling FTP each time Garmin changed it over the last year, oldest first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ftp: Vec<FtpPoint>,
    /// The latest Critical Swim Speed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub critical_swim_speed: Option<SwimSpeedPart>,
}

/// One lactate-threshold value.
#[derive(Debug, Default, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct LactateThresholdPoint {
    /// The day it was set.
    pub date: String,
    /// Threshold heart rate (bpm).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heart_rate_bpm: Option<f64>,
    /// Threshold pace per km (`4'25"`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pace_per_km: Option<String>,
}

/// One FTP value.
#[derive(Debug, Default, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct FtpPoint {
    /// The day it was set.
    pub date: String,
    /// FTP (W).
    pub watts: f64,
}

/// Critical Swim Speed.
#[derive(Debug, Default, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct SwimSpeedPart {
    /// The day it was set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// Pace per 100 m (`1:24`).
    pub pace_per_100m: String,
    /// Speed (m/s).
    pub speed_m_s: f64,
}

/// Reads the threshold history and CSS at once, naming what failed in `missing`; a watch or
/// account without them (404, 204, 402, 403 from Garmin) simply has none.
pub(super) async fn threshold_history(
    client: &garmin::Client,
    today: NaiveDate,
    missing: &mut Vec<String>,
) -> ThresholdHistory {
    let m = client.metrics();
    let first = today - Duration::days(THRESHOLD_HISTORY_DAYS - 1);
    let (lt_hr, lt_speed, ftp, css) = futures::join!(
        m.biometric_history(BiometricSeries::LactateThresholdHeartRate, first, today),
        m.biometric_history(BiometricSeries::LactateThresholdSpeed, first, today),
        m.biometric_history(BiometricSeries::FunctionalThresholdPower, first, today),
        m.critical_swim_speed(today),
    );
    let mut keep = |name: &str, r: garmin::Result<Vec<BiometricValue>>| match r {
        Err(e) if e.means_nothing_there() => Vec::new(),
        other => part(missing, name, other).unwrap_or_default(),
    };
    let (lt_hr, lt_speed, ftp) = (
        keep("lactate threshold history", lt_hr),
        keep("lactate threshold history", lt_speed),
        keep("FTP history", ftp),
    );
    let css: Option<CriticalSwimSpeed> = match css {
        Err(e) if e.means_nothing_there() => None,
        other => part(missing, "critical swim speed", other).flatten(),
    };
    ThresholdHistory {
        lactate_threshold: lactate_points(&lt_hr, &lt_speed),
        ftp: changes(&ftp)
            .into_iter()
            .map(|(date, watts)| FtpPoint { date: date.to_string(), watts })
            .collect(),
        critical_swim_speed: css.and_then(|c| swim_speed(&c)),
    }
}

/// The values that differ from the one before, with their day (Garmin may repeat a value).
fn changes(rows: &[BiometricValue]) -> Vec<(NaiveDate, f64)> {
    let mut dated: Vec<(NaiveDate, f64)> =
        rows.iter().filter_map(|r| Some((r.from.or(r.updated_date)?, r.value?))).collect();
    dated.sort_by_key(|d| d.0);
    dated.dedup_by(|later, earlier| (later.1 - earlier.1).abs() < 1e-9);
    dated
}

/// Heart rate and pace on each day either changed, each the value in force that day.
fn lactate_points(hr: &[BiometricValue], speed: &[BiometricValue]) -> Vec<LactateThresholdPoint> {
    let (hr, speed) = (changes(hr), changes(speed));
    let in_force =
        |series: &[(NaiveDate, f64)], day: NaiveDate| series.iter().rev().find(|d| d.0 <= day).map(|d| d.1);
    let mut days: Vec<NaiveDate> = hr.iter().chain(speed.iter()).map(|d| d.0).collect();
    days.sort();
    days.dedup();
    days.into_iter()
        .map(|day| LactateThresholdPoint {
            date: day.to_string(),
            heart_rate_bpm: in_force(&hr, day).map(f64::round),
            // Garmin stores the threshold speed as m/s ÷ 10 (reference §3.4).
            pace_per_km: in_force(&speed, day).and_then(|v| display::pace_per_km(v * 10.0)),
        })
        .collect()
}

fn swim_speed(css: &CriticalSwimSpeed) -> Option<SwimSpeedPart> {
    let speed = css.speed.filter(|s| s.is_finite() && *s > 0.0)?;
    Some(SwimSpeedPart {
        date: css.calendar_date.map(|d| d.to_string()),
        pace_per_100m: display::duration(100.0 / speed),
        speed_m_s: (speed * 1000.0).round() / 1000.0,
    })
}

/// " Lactate threshold set 5 times in the last year, last 2026-11-08; FTP 232 → 240 W; CSS
/// 1:24/100 m." — what there is.
pub(super) fn thresholds_sentence(h: &ThresholdHistory) -> Option<String> {
    let mut parts = Vec::new();
    if let (Some(first), Some(last)) = (h.lactate_threshold.first(), h.lactate_threshold.last()) {
        let hr = |p: &LactateThresholdPoint| {
            p.heart_rate_bpm.map_or_else(|| "?".to_owned(), |v| format!("{v:.0}"))
        };
        parts.push(format!(
            "lactate threshold {} → {} bpm over the last year ({} changes, latest {})",
            hr(first),
            hr(last),
            h.lactate_threshold.len(),
            last.date
        ));
    }
    if let (Some(first), Some(last)) = (h.ftp.first(), h.ftp.last()) {
        parts.push(format!("FTP {:.0} → {:.0} W (latest {})", first.watts, last.watts, last.date));
    }
    if let Some(css) = &h.critical_swim_speed {
        parts.push(format!("Critical Swim Speed {}/100 m", css.pace_per_100m));
    }
    (!parts.is_empty()).then(|| format!(" {}.", display::capitalise(&parts.join("; "))))
}
