//! A range of `get_daily_health` (up to 14 days): one range request per endpoint, concurrently,
//! folded into one compact row per day, averages, gaps and a summary sentence; each night's Health
//! Status beside them (`status_days`: from the history when it covers the range), and each
//! night's sleep need from the history where it covers the range (else from the sleep row).

use chrono::NaiveDate;
use garmin::models::common::DatedValue;
use garmin::models::wellness::{
    BodyBatteryReport, HrvSummary, SleepStatsDay, StepsDay, StressDay, WeightRange,
};
use garmin::reads::ServedFuture;

use super::answer::{DailyHealth, HealthAverages, HealthRow};
use super::day::weight_on;
use super::format::{kg, parse_hm, round1};
use super::status::{health_status_range_sentence, health_status_row};
use super::status_days::StatusDays;
use crate::domain::words::{thousands, whole};
use crate::server::GarminMcp;
use crate::tool_error::ToolError;
use display::duration_hm as hm;

/// A sleep need in minutes as `h:mm` (none when Garmin gave none or 0).
fn need_hm(minutes: f64) -> Option<String> {
    (minutes.is_finite() && minutes > 0.0).then(|| hm(minutes * 60.0))
}

/// The parts of a range row, in the order of [`Columns::present`], as named in `missing`.
const ROW_PARTS: [&str; 7] =
    ["steps", "resting_hr", "sleep", "stress", "body_battery", "hrv", "health_status"];

/// The range requests' rows, one column per endpoint (empty when its request failed).
struct Columns {
    steps: Vec<StepsDay>,
    rhr: Vec<DatedValue>,
    sleep: Vec<SleepStatsDay>,
    stress: Vec<StressDay>,
    battery: Vec<BodyBatteryReport>,
    hrv: Vec<HrvSummary>,
    weight: WeightRange,
}

impl GarminMcp {
    /// A range: one range request per endpoint, concurrently.
    pub(super) async fn health_range(
        &self,
        start: NaiveDate,
        end: NaiveDate,
    ) -> Result<(String, DailyHealth), ToolError> {
        let kept_needs = async {
            let history = self.history_for_reads().await;
            crate::domain::reading::kept_sleep_needs(history, start, end, self.today()).await
        };
        let (columns, status, kept_needs) =
            tokio::join!(self.range_columns(start, end), self.health_status_days(start, end), kept_needs);
        let (columns, mut failed) = columns?;
        let rows: Vec<HealthRow> = start
            .iter_days()
            .take_while(|d| *d <= end)
            .map(|d| {
                let mut row = columns.row(d);
                row.health_status = status.nights.get(&d).map(health_status_row);
                if let Some((needs, source)) = &kept_needs
                    && source
                        .history_to
                        .as_deref()
                        .and_then(|t| t.parse::<NaiveDate>().ok())
                        .is_some_and(|last| d <= last)
                {
                    row.sleep_need = needs.iter().find(|(day, _)| *day == d).and_then(|(_, m)| need_hm(*m));
                }
                row
            })
            .collect();
        let empty = |r: &HealthRow| HealthRow { date: r.date.clone(), ..HealthRow::default() } == *r;
        if rows.iter().all(empty) && failed.is_empty() {
            return Err(ToolError::NoData(format!("No health data recorded from {start} to {end}")));
        }
        let StatusDays { nights, source, not_recorded, failed: status_failed } = status;
        failed.extend(status_failed.map(|e| ("health_status", e)));
        let averages = range_averages(&rows);
        let mut missing = range_missing(&rows, &failed);
        if !not_recorded.is_empty() {
            missing.retain(|m| !m.starts_with("health_status:"));
        }
        let mut text = range_summary(start, end, &rows, &averages, &missing);
        if let Some(sentence) = health_status_range_sentence(&nights) {
            text.push(' ');
            text.push_str(&sentence);
            if let Some(source) = source.as_ref().filter(|s| s.from != "garmin") {
                text.push(' ');
                text.push_str(&source.phrase().replacen("Source:", "Health Status source:", 1));
            }
        }
        for sentence in &not_recorded {
            text.push(' ');
            text.push_str(sentence);
        }
        Ok((
            text,
            DailyHealth {
                start_date: Some(start.to_string()),
                end_date: Some(end.to_string()),
                days: rows,
                averages: Some(averages),
                missing,
                not_recorded,
                health_status_source: source.filter(|_| !nights.is_empty()),
                ..DailyHealth::default()
            },
        ))
    }

    /// Every range request at once. Each is one column: one that fails is named with why (in
    /// the second value) and the rest still answers; only when all fail does the range fail
    /// (with the first failure).
    async fn range_columns(
        &self,
        start: NaiveDate,
        end: NaiveDate,
    ) -> Result<(Columns, Vec<(&'static str, ToolError)>), ToolError> {
        let w = self.reads().await?;
        let (steps, rhr, sleep, stress, battery, hrv, weight) = tokio::join!(
            w.steps_daily(start, end).value(),
            w.resting_heart_rate(start, end).value(),
            w.sleep_stats(start, end).value(),
            w.stress_daily(start, end).value(),
            w.body_battery(start, end).value(),
            w.hrv_range(start, end).value(),
            w.weight_range(start, end).value(),
        );
        let mut failed: Vec<(&'static str, ToolError)> = Vec::new();
        let columns = Columns {
            steps: column(&mut failed, "steps", steps),
            rhr: column(&mut failed, "resting_hr", rhr),
            sleep: column(&mut failed, "sleep", sleep),
            stress: column(&mut failed, "stress", stress),
            battery: column(&mut failed, "body_battery", battery),
            hrv: column(&mut failed, "hrv", hrv),
            weight: column(&mut failed, "weight", weight),
        };
        if failed.len() == 7 {
            return Err(failed.into_iter().next().map(|(_, e)| e).unwrap_or_else(|| {
                ToolError::NoData(format!("No health data recorded from {start} to {end}"))
            }));
        }
        Ok((columns, failed))
    }
}

impl Columns {
    /// The compact row of one day: what each column has for it.
    fn row(&self, day: NaiveDate) -> HealthRow {
        let mut row = HealthRow { date: day.to_string(), ..HealthRow::default() };
        row.steps = self
            .steps
            .iter()
            .find(|s| s.calendar_date == Some(day))
            .and_then(|s| s.total_steps)
            .and_then(whole);
        row.resting_hr_bpm =
            self.rhr.iter().find(|r| r.calendar_date == Some(day)).and_then(|r| r.value).and_then(whole);
        if let Some(values) =
            self.sleep.iter().find(|s| s.calendar_date == Some(day)).and_then(|s| s.values.as_ref())
        {
            row.sleep = values.total_sleep_time_in_seconds.filter(|s| *s > 0.0).map(hm);
            row.sleep_score = values.sleep_score.and_then(whole);
            row.sleep_need = values.sleep_need.and_then(need_hm);
        }
        row.stress_avg = self
            .stress
            .iter()
            .find(|s| s.calendar_date == Some(day))
            .and_then(|s| s.values.as_ref())
            .and_then(|v| v.overall_stress_level)
            .and_then(whole);
        if let Some(report) = self.battery.iter().find(|b| b.date == Some(day)) {
            let levels: Vec<f64> = report.points().iter().map(|p| p.value).collect();
            row.body_battery_high = levels.iter().copied().reduce(f64::max).and_then(whole);
            row.body_battery_low = levels.iter().copied().reduce(f64::min).and_then(whole);
        }
        row.hrv_ms = self.hrv.iter().find(|h| h.calendar_date == Some(day)).and_then(|h| h.last_night_avg);
        row.weight_kg = weight_on(&self.weight, day).and_then(|e| e.weight).map(kg);
        row
    }

    /// Which of [`ROW_PARTS`] a row has.
    fn present(row: &HealthRow) -> [bool; 7] {
        [
            row.steps.is_some(),
            row.resting_hr_bpm.is_some(),
            row.sleep.is_some(),
            row.stress_avg.is_some(),
            row.body_battery_high.is_some(),
            row.hrv_ms.is_some(),
            row.health_status.is_some(),
        ]
    }
}

/// The range's gaps: per part, the days without a value (parts whose request failed are named
/// once, with why, instead of listing every day).
fn range_missing(rows: &[HealthRow], failed: &[(&'static str, ToolError)]) -> Vec<String> {
    let mut missing: Vec<String> = ROW_PARTS
        .iter()
        .enumerate()
        .filter(|(_, part)| !failed.iter().any(|(f, _)| f == *part))
        .filter_map(|(i, part)| {
            let days: Vec<&str> =
                rows.iter().filter(|r| !Columns::present(r)[i]).map(|r| r.date.as_str()).collect();
            (!days.is_empty()).then(|| format!("{part}: {}", days.join(", ")))
        })
        .collect();
    missing.extend(failed.iter().map(|(part, e)| format!("{part}: {}", e.message())));
    missing
}

/// One range request's rows, or none with its failure kept in `failed`.
fn column<T: Default>(
    failed: &mut Vec<(&'static str, ToolError)>,
    name: &'static str,
    result: Result<T, garmin::Error>,
) -> T {
    result.map_err(|e| failed.push((name, ToolError::from(e)))).unwrap_or_default()
}

/// The summary sentence(s) of a range.
fn range_summary(
    start: NaiveDate,
    end: NaiveDate,
    rows: &[HealthRow],
    avg: &HealthAverages,
    missing: &[String],
) -> String {
    let mut parts = Vec::new();
    if let Some(steps) = avg.steps {
        parts.push(format!("{} steps/day", thousands(steps)));
    }
    if let Some(rhr) = avg.resting_hr_bpm {
        parts.push(format!("resting HR {rhr} bpm"));
    }
    if let Some(sleep) = avg.sleep.as_deref().and_then(parse_hm).map(display::hours_minutes) {
        let score = avg.sleep_score.map(|s| format!(" (score {s})")).unwrap_or_default();
        parts.push(format!("sleep {sleep}{score}"));
    }
    if let Some(stress) = avg.stress_avg {
        parts.push(format!("stress {stress}"));
    }
    if let Some(hrv) = avg.hrv_ms {
        parts.push(format!("HRV {hrv:.0} ms"));
    }
    let mut text = format!("{start} to {end} ({} days), daily averages: {}.", rows.len(), parts.join(", "));
    if let Some(worst) = rows.iter().filter(|r| r.sleep_score.is_some()).min_by_key(|r| r.sleep_score)
        && let Some(score) = worst.sleep_score
    {
        text.push_str(&format!(" Lowest sleep score {score} on {}.", worst.date));
    }
    if !missing.is_empty() {
        text.push_str(&format!(" Gaps: {}.", missing.join("; ")));
    }
    text
}

/// Averages over the rows that have each value.
fn range_averages(rows: &[HealthRow]) -> HealthAverages {
    fn mean(values: impl Iterator<Item = f64>) -> Option<f64> {
        let v: Vec<f64> = values.collect();
        (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
    }
    let u =
        |f: fn(&HealthRow) -> Option<u64>| mean(rows.iter().filter_map(f).map(|x| x as f64)).and_then(whole);
    let sleep_s = mean(rows.iter().filter_map(|r| r.sleep.as_deref()).filter_map(parse_hm));
    HealthAverages {
        steps: u(|r| r.steps),
        resting_hr_bpm: u(|r| r.resting_hr_bpm),
        sleep: sleep_s.map(hm),
        sleep_score: u(|r| r.sleep_score),
        stress_avg: u(|r| r.stress_avg),
        body_battery_high: u(|r| r.body_battery_high),
        body_battery_low: u(|r| r.body_battery_low),
        hrv_ms: mean(rows.iter().filter_map(|r| r.hrv_ms)).map(round1),
    }
}
