//! The data of the health charts: one night's sleep stages with the score, and one daily value
//! (resting heart rate, HRV, Body Battery high/low, stress) over N days from Garmin's range
//! endpoints (one request per 28 days, never one per day).

use chrono::{Duration, NaiveDate, NaiveDateTime};
use garmin::models::wellness::{BodyBatteryReport, DailySleep, StressDay};
use garmin_charts::{
    ChartOptions, HealthMetric, HealthTrendChart, SleepChart, SleepSegment, SleepStage, TrendDay,
};

use super::{Drawn, draw_off_thread, span};
use crate::domain::sleep::sleep_stage_spans;
use crate::domain::words::words;
use crate::server::GarminMcp;
use crate::tool_error::ToolError;

/// Most stretches kept for the hypnogram (equal neighbours are always merged first).
const MAX_SEGMENTS: usize = 400;

fn stage(level: u8) -> SleepStage {
    match level {
        0 => SleepStage::Deep,
        1 => SleepStage::Light,
        2 => SleepStage::Rem,
        _ => SleepStage::Awake,
    }
}

/// Minutes from `origin` to `t`.
fn minutes(origin: NaiveDateTime, t: NaiveDateTime) -> f64 {
    (t - origin).num_seconds() as f64 / 60.0
}

/// A non-negative, finite value (Garmin marks "none" with -1 or -2).
fn reading(v: Option<f64>) -> Option<f64> {
    v.filter(|x| x.is_finite() && *x >= 0.0)
}

impl GarminMcp {
    /// The `sleep` chart of the night that ended on the morning of `date`.
    pub(super) async fn sleep_chart(
        &self,
        date: NaiveDate,
        options: ChartOptions,
    ) -> Result<Drawn, ToolError> {
        let client = self.web_session().await?;
        let Some(sleep) = client.wellness().sleep(date).await? else {
            return Err(ToolError::NoData(format!("No sleep recorded for the night to {date}.")));
        };
        let dto = sleep.daily_sleep.clone().unwrap_or_default();
        let offset = match (dto.sleep_start_local, dto.sleep_start_gmt) {
            (Some(local), Some(gmt)) => local - gmt.naive_utc(),
            _ => Duration::zero(),
        };
        let spans = sleep_stage_spans(&sleep, offset, MAX_SEGMENTS);
        let Some(segments) = hypnogram(&spans) else {
            return Err(ToolError::NoData(format!(
                "The night to {date} has a sleep record but no sleep stages (the watch was not worn or could not tell)."
            )));
        };
        let overall = dto.sleep_scores.as_ref().and_then(|s| s.overall.as_ref());
        let score = overall.and_then(|o| reading(o.value)).map(|v| v.round() as u32);
        let quality = overall.and_then(|o| o.qualifier_key.as_deref()).map(words);
        let summary = sleep_summary(date, &dto, &spans, score, quality.as_deref());
        let chart = SleepChart { date: date.to_string(), score, quality, segments };
        let png =
            draw_off_thread(&format!("the night to {date}"), move || garmin_charts::sleep(&chart, &options))
                .await?;
        Ok(Drawn {
            png,
            summary,
            title: format!("Sleep stages, night to {date}"),
            file_parts: vec![date.to_string(), "sleep".into()],
            activity_id: None,
            period: Some(date.to_string()),
            series_source: None,
            points: Some(u32::try_from(spans.len()).unwrap_or(u32::MAX)),
            view: None,
        })
    }

    /// The `health_trend` chart of the `days` days ending on `end`.
    pub(super) async fn health_trend_chart(
        &self,
        end: NaiveDate,
        days: u32,
        metric: HealthMetric,
        options: ChartOptions,
    ) -> Result<Drawn, ToolError> {
        let start = end - Duration::days(i64::from(days) - 1);
        let (trend, baseline) = self.trend_days(metric, start, end).await?;
        let told = TrendWords::of(metric);
        let present = trend.iter().filter(|d| day_value(metric, d).is_some()).count();
        if present == 0 {
            return Err(ToolError::NoData(format!(
                "No {} recorded from {start} to {end}.",
                told.name.to_lowercase()
            )));
        }
        let period_text = span(start, end);
        let summary = format!(
            "{} over the {days} days {period_text}: {}.",
            told.name,
            trend_sentence(metric, &trend, baseline, told.unit)
        );
        let chart = HealthTrendChart { metric, days: trend, baseline };
        let png = draw_off_thread(&format!("{} {period_text}", told.name.to_lowercase()), move || {
            garmin_charts::health_trend(&chart, &options)
        })
        .await?;
        Ok(Drawn {
            png,
            summary,
            title: format!("{}, {period_text}", told.name),
            file_parts: vec![end.to_string(), format!("{}-{days}d", told.slug)],
            activity_id: None,
            period: Some(period_text),
            series_source: None,
            points: Some(u32::try_from(present).unwrap_or(u32::MAX)),
            view: None,
        })
    }

    /// One point per day from `start` to `end` of `metric`, from Garmin's range endpoint for it,
    /// with the HRV baseline band (the newest Garmin sent) for `hrv`.
    async fn trend_days(
        &self,
        metric: HealthMetric,
        start: NaiveDate,
        end: NaiveDate,
    ) -> Result<(Vec<TrendDay>, Option<(f64, f64)>), ToolError> {
        let client = self.web_session().await?;
        let w = client.wellness();
        let days = (end - start).num_days() + 1;
        let dates: Vec<NaiveDate> = (0..days).map(|i| start + Duration::days(i)).collect();
        let positive = |v: Option<f64>| reading(v).filter(|v| *v > 0.0);
        Ok(match metric {
            HealthMetric::RestingHr => {
                let rows = w.resting_heart_rate(start, end).await?;
                (one_value_a_day(&dates, &rows, |r| r.calendar_date, |r| positive(r.value)), None)
            }
            HealthMetric::Hrv => {
                let rows = w.hrv_range(start, end).await?;
                let baseline = rows
                    .iter()
                    .rev()
                    .filter_map(|h| h.baseline.as_ref())
                    .find_map(|b| Some((reading(b.balanced_low)?, reading(b.balanced_upper)?)));
                (
                    one_value_a_day(&dates, &rows, |h| h.calendar_date, |h| positive(h.last_night_avg)),
                    baseline,
                )
            }
            HealthMetric::BodyBattery => (battery_days(&dates, &w.body_battery(start, end).await?), None),
            HealthMetric::Stress => {
                let rows = w.stress_daily(start, end).await?;
                let stress = |s: &StressDay| s.values.as_ref().and_then(|v| reading(v.overall_stress_level));
                (one_value_a_day(&dates, &rows, |s| s.calendar_date, stress), None)
            }
        })
    }
}

/// The hypnogram's stretches in minutes from the midnight before the first one; `None` when the
/// night has no stages.
fn hypnogram(spans: &[(NaiveDateTime, NaiveDateTime, u8)]) -> Option<Vec<SleepSegment>> {
    let first = spans.first()?.0;
    let origin = first.date().and_time(chrono::NaiveTime::MIN);
    Some(
        spans
            .iter()
            .map(|(s, e, level)| SleepSegment {
                start_min: minutes(origin, *s),
                end_min: minutes(origin, *e),
                stage: stage(*level),
            })
            .collect(),
    )
}

/// `Sleep on the night to 2026-11-15: 23:10–06:45, 7h 12m asleep, sleep score 82 (good); deep …`.
/// `spans` is not empty (the chart refuses a night without stages first).
fn sleep_summary(
    date: NaiveDate,
    dto: &DailySleep,
    spans: &[(NaiveDateTime, NaiveDateTime, u8)],
    score: Option<u32>,
    quality: Option<&str>,
) -> String {
    let first = spans.first().map(|s| s.0).unwrap_or_default();
    let from = dto.sleep_start_local.unwrap_or(first);
    let to = dto.sleep_end_local.or_else(|| spans.last().map(|s| s.1)).unwrap_or(first);
    let mut summary =
        format!("Sleep on the night to {date}: {}–{}", from.format("%H:%M"), to.format("%H:%M"));
    if let Some(asleep) = reading(dto.sleep_time_seconds) {
        summary.push_str(&format!(", {} asleep", display::hours_minutes(asleep)));
    }
    if let Some(s) = score {
        summary.push_str(&format!(", sleep score {s}"));
        if let Some(q) = quality {
            summary.push_str(&format!(" ({q})"));
        }
    }
    let stages: Vec<String> = [
        ("deep", dto.deep_sleep_seconds),
        ("light", dto.light_sleep_seconds),
        ("REM", dto.rem_sleep_seconds),
        ("awake", dto.awake_sleep_seconds),
    ]
    .into_iter()
    .filter_map(|(name, secs)| Some(format!("{name} {}", display::hours_minutes(reading(secs)?))))
    .collect();
    if !stages.is_empty() {
        summary.push_str(&format!("; {}", stages.join(", ")));
    }
    summary.push('.');
    summary
}

/// How a health trend is named, measured and filed: one row per metric.
struct TrendWords {
    /// `Resting heart rate`: the summary's subject and the title.
    name: &'static str,
    /// Written after the average (` bpm`, ` ms` or nothing).
    unit: &'static str,
    /// The file name's part.
    slug: &'static str,
}

impl TrendWords {
    fn of(metric: HealthMetric) -> TrendWords {
        let (name, unit, slug) = match metric {
            HealthMetric::RestingHr => ("Resting heart rate", " bpm", "resting-hr"),
            HealthMetric::Hrv => ("Overnight HRV", " ms", "hrv"),
            HealthMetric::BodyBattery => ("Body Battery", "", "body-battery"),
            HealthMetric::Stress => ("Average stress", "", "stress"),
        };
        TrendWords { name, unit, slug }
    }
}

/// The day's reading of `metric`: Body Battery's high, the others' one value.
fn day_value(metric: HealthMetric, d: &TrendDay) -> Option<f64> {
    if metric == HealthMetric::BodyBattery { d.high } else { d.value }
}

/// Each day's Body Battery high and low from the reports Garmin sent (none for a day without one).
fn battery_days(dates: &[NaiveDate], reports: &[BodyBatteryReport]) -> Vec<TrendDay> {
    dates
        .iter()
        .map(|d| {
            let levels: Vec<f64> = reports
                .iter()
                .find(|r| r.date == Some(*d))
                .map(|r| r.points().iter().map(|p| p.value).filter(|v| v.is_finite()).collect())
                .unwrap_or_default();
            TrendDay {
                date: d.to_string(),
                value: None,
                low: levels.iter().copied().reduce(f64::min),
                high: levels.iter().copied().reduce(f64::max),
            }
        })
        .collect()
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len().max(1) as f64
}

/// What the trend says, after its subject: the averages and extremes (with the HRV baseline), then
/// the days without a reading.
fn trend_sentence(
    metric: HealthMetric,
    trend: &[TrendDay],
    baseline: Option<(f64, f64)>,
    unit: &str,
) -> String {
    let mut text = if metric == HealthMetric::BodyBattery {
        battery_sentence(trend)
    } else {
        value_sentence(trend, baseline, unit)
    };
    let missing: Vec<String> =
        trend.iter().filter(|d| day_value(metric, d).is_none()).map(|d| d.date.clone()).collect();
    if !missing.is_empty() {
        let listed = if missing.len() <= 5 { missing.join(", ") } else { format!("{} days", missing.len()) };
        text.push_str(&format!("; no reading on {listed}"));
    }
    text
}

/// `daily high 78 and low 22 on average, lowest 9 on 2026-11-10`.
fn battery_sentence(trend: &[TrendDay]) -> String {
    let highs: Vec<f64> = trend.iter().filter_map(|d| d.high).collect();
    let lows: Vec<f64> = trend.iter().filter_map(|d| d.low).collect();
    let mut text = format!("daily high {:.0} and low {:.0} on average", mean(&highs), mean(&lows));
    if let Some(lowest) = trend
        .iter()
        .filter(|d| d.low.is_some())
        .min_by(|a, b| a.low.unwrap_or(0.0).total_cmp(&b.low.unwrap_or(0.0)))
    {
        text.push_str(&format!(", lowest {:.0} on {}", lowest.low.unwrap_or(0.0), lowest.date));
    }
    text
}

/// `average 48 bpm, lowest 45 on …, highest 52 on …; baseline 40–60 ms`.
fn value_sentence(trend: &[TrendDay], baseline: Option<(f64, f64)>, unit: &str) -> String {
    let present: Vec<(&str, f64)> = trend.iter().filter_map(|d| Some((d.date.as_str(), d.value?))).collect();
    let values: Vec<f64> = present.iter().map(|p| p.1).collect();
    let mut text = format!("average {:.0}{unit}", mean(&values));
    let lo = present.iter().min_by(|a, b| a.1.total_cmp(&b.1));
    let hi = present.iter().max_by(|a, b| a.1.total_cmp(&b.1));
    if let (Some(lo), Some(hi)) = (lo, hi) {
        text.push_str(&format!(", lowest {:.0} on {}, highest {:.0} on {}", lo.1, lo.0, hi.1, hi.0));
    }
    if let Some((bl, bh)) = baseline {
        text.push_str(&format!("; baseline {bl:.0}–{bh:.0} ms"));
    }
    text
}

/// One trend point per day of `dates`: the value of the row Garmin sent for that day (`None` for a
/// day without a row or without a usable value).
fn one_value_a_day<R>(
    dates: &[NaiveDate],
    rows: &[R],
    day_of: impl Fn(&R) -> Option<NaiveDate>,
    value_of: impl Fn(&R) -> Option<f64>,
) -> Vec<TrendDay> {
    dates
        .iter()
        .map(|d| TrendDay {
            date: d.to_string(),
            value: rows.iter().find(|r| day_of(r) == Some(*d)).and_then(&value_of),
            ..TrendDay::default()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(date: &str, value: Option<f64>) -> TrendDay {
        TrendDay { date: date.into(), value, ..TrendDay::default() }
    }

    #[test]
    fn a_trend_names_its_extremes_and_up_to_five_days_without_a_reading() {
        let trend = [day("2026-11-01", Some(50.0)), day("2026-11-02", None), day("2026-11-03", Some(44.0))];
        assert_eq!(
            trend_sentence(HealthMetric::RestingHr, &trend, None, " bpm"),
            "average 47 bpm, lowest 44 on 2026-11-03, highest 50 on 2026-11-01; no reading on 2026-11-02"
        );
        let gaps: Vec<TrendDay> = (1..=6).map(|i| day(&format!("2026-11-0{i}"), None)).collect();
        assert!(trend_sentence(HealthMetric::Stress, &gaps, None, "").ends_with("no reading on 6 days"));
    }

    #[test]
    fn body_battery_reads_its_daily_high_and_low() {
        let trend = [
            TrendDay { date: "2026-11-01".into(), value: None, low: Some(20.0), high: Some(80.0) },
            TrendDay { date: "2026-11-02".into(), value: None, low: Some(10.0), high: Some(60.0) },
        ];
        assert_eq!(
            trend_sentence(HealthMetric::BodyBattery, &trend, None, ""),
            "daily high 70 and low 15 on average, lowest 10 on 2026-11-02"
        );
    }
}
