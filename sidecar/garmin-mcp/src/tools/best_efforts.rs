//! `get_best_efforts` (toolset `analysis`): the best power, pace or heart rate held for each
//! duration over a date range — the element-wise maximum of the per-activity mean-max curves the
//! history computed at sync — with the activity that set each point, the best times over the
//! sport's standard distances, and for power critical power and W′ (or the fit's stated refusal),
//! against the same span a year earlier. Parse → `domain::best_efforts` → shape; no formula here.

use chrono::{Months, NaiveDate};
use history::Metric;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{schemars, tool, tool_router};
use serde::{Deserialize, Serialize};

use crate::domain::best_efforts::{RangeBests, Sport, parse_metric, range_bests, shown, unit};
use crate::domain::dates::{Day, arg, date_range, day_of};
use crate::history::DataSource;
use crate::output::Answer;
use crate::server::GarminMcp;
use crate::tool_error::ToolError;

/// Default range: the 365 days ending yesterday ("this season").
pub(crate) const DEFAULT_DAYS: i64 = 365;
/// Longest range (five years).
const MAX_DAYS: i64 = 1830;
/// Durations written in the summary text (the structured curve has all of them).
const TEXT_DURATIONS: [u32; 6] = [5, 60, 300, 1200, 3600, 7200];

/// Arguments of `get_best_efforts`.
#[derive(Debug, Default, Deserialize, schemars::JsonSchema)]
pub struct BestEffortsArgs {
    /// First day, `YYYY-MM-DD` (default: 364 days before `end_date`, a season of 365 days; at most
    /// five years).
    #[serde(default, deserialize_with = "crate::domain::dates::blank_is_none")]
    pub start_date: Option<Day<arg::StartDate>>,
    /// Last day, `YYYY-MM-DD` (default: yesterday).
    #[serde(default, deserialize_with = "crate::domain::dates::blank_is_none")]
    pub end_date: Option<Day<arg::EndDate>>,
    /// `running` (default), `cycling` or `swimming` (Garmin's types and their children: trail runs
    /// are runs).
    #[serde(default)]
    #[schemars(extend("enum" = ["running", "cycling", "swimming"]))]
    pub sport: Option<String>,
    /// `power`, `pace` (kept as speed; km/h for cycling) or `hr` (default: power for cycling, pace
    /// otherwise).
    #[serde(default)]
    #[schemars(extend("enum" = ["power", "pace", "hr"]))]
    pub metric: Option<String>,
    /// Compare with the same span one year earlier (default true).
    #[serde(default)]
    pub compare: Option<bool>,
}

/// One duration of the curve.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct CurvePoint {
    /// The duration, s.
    pub seconds: u32,
    /// The best value held that long: W, m/s (pace) or bpm.
    pub value: f64,
    /// The value in the sport's units (`312 W`, `4'05"/km`).
    pub shown: String,
    /// The activity that set it.
    pub activity_id: u64,
    /// Its day.
    pub date: String,
    /// The comparison period's value at this duration.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub previous: Option<f64>,
}

/// The best time over one standard distance.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct BestTimeRow {
    /// `5 km`, `half marathon`…
    pub distance: String,
    /// Metres.
    pub meters: f64,
    /// Seconds.
    pub seconds: f64,
    /// `m:ss` or `h:mm:ss`.
    pub time: String,
    /// The activity.
    pub activity_id: u64,
    /// Its day.
    pub date: String,
    /// The comparison period's best time, s.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub previous_seconds: Option<f64>,
}

/// A critical-power fit.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct CriticalPowerFit {
    /// Critical power, W.
    pub cp_watts: f64,
    /// W′, J.
    pub w_prime_joules: f64,
    /// R² of the work–time fit.
    pub r_squared_work: f64,
    /// The durations used, s.
    pub durations: Vec<u32>,
}

/// The answer of `get_best_efforts`.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct BestEfforts {
    /// First day.
    pub start_date: String,
    /// Last day.
    pub end_date: String,
    /// `running`, `cycling` or `swimming`.
    pub sport: String,
    /// `power`, `speed` or `hr` (pace is kept as speed).
    pub metric: String,
    /// Unit of the shown values.
    pub unit: String,
    /// The comparison period, when compared.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compare_start_date: Option<String>,
    /// Its last day.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compare_end_date: Option<String>,
    /// The conventions of the curve, the best times and the fit.
    pub convention: String,
    /// One line on the numbers.
    pub reading: String,
    /// Activities of the sport in the range whose series the history reduced.
    pub activities: usize,
    /// Those that recorded the metric.
    pub activities_with_metric: usize,
    /// The curve, shortest duration first.
    pub curve: Vec<CurvePoint>,
    /// Best times over the sport's standard distances, shortest first.
    pub best_times: Vec<BestTimeRow>,
    /// Critical power and W′ (power only, when the data support a fit).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub critical_power: Option<CriticalPowerFit>,
    /// Why there is no fit (power only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub critical_power_note: Option<String>,
    /// What is missing or left out.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Where the numbers came from (absent when the history does not cover the range).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<DataSource>,
}

/// `20 min`, `1 h`, `5 s`: a duration of the curve in words.
pub(crate) fn duration_words(seconds: u32) -> String {
    match seconds {
        s if s < 60 => format!("{s} s"),
        s if s % 3600 == 0 => format!("{} h", s / 3600),
        s if s < 3600 && s % 60 == 0 => format!("{} min", s / 60),
        s => display::duration(f64::from(s)),
    }
}

/// The same span one year earlier.
fn year_before(start: NaiveDate, end: NaiveDate) -> Option<(NaiveDate, NaiveDate)> {
    Some((start.checked_sub_months(Months::new(12))?, end.checked_sub_months(Months::new(12))?))
}

impl GarminMcp {
    /// One range's best efforts from the history, with notes on what it lacks; `None` when the
    /// history does not cover the range (the note says so).
    async fn bests_of(
        &self,
        (start, end): (NaiveDate, NaiveDate),
        sport: Sport,
        metric: Metric,
        notes: &mut Vec<String>,
    ) -> Result<Option<(RangeBests, DataSource)>, ToolError> {
        let covered = match self.covered(start, end).await {
            Ok(c) => c,
            Err(note) => {
                notes.push(note);
                return Ok(None);
            }
        };
        let local = |e: history::HistoryError| ToolError::Local(e.to_string());
        let curves =
            covered.history.activity_curves(start, end, Some(sport.type_key()), metric).map_err(local)?;
        let pending = covered.history.curves_pending(start, end).map_err(local)?;
        if pending > 0 {
            notes.push(format!(
                "{pending} activities of {start} to {end} have no curves yet (their series were not read): run sync_history"
            ));
        }
        notes.extend(covered.notes);
        Ok(Some((range_bests(&curves, sport), covered.source)))
    }
}

#[tool_router(router = best_effort_tools, vis = "pub(crate)")]
impl GarminMcp {
    /// Best efforts from the local history: the best power, pace or heart rate held for each
    /// duration from 1 s to 5 h (mean-max curve, with the activity that set each point), best
    /// times over the sport's standard distances (400 m to marathon for runs), and for power
    /// critical power and W′ (or why the data cannot support a fit), against the same span a year
    /// earlier. Default: running pace (cycling: power) over the last 365 days. Needs the history
    /// (`sync_history`). Garmin's own records are get_personal_records.
    #[tool(
        name = "get_best_efforts",
        annotations(
            title = "Best efforts, mean-max curve and critical power",
            read_only_hint = true,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        ),
        output_schema = rmcp::handler::server::tool::schema_for_output::<BestEfforts>()
    )]
    async fn get_best_efforts(
        &self,
        Parameters(args): Parameters<BestEffortsArgs>,
    ) -> Result<Answer<BestEfforts>, ToolError> {
        let (start, end) = date_range(
            self.today(),
            ("start_date", day_of(args.start_date)),
            ("end_date", day_of(args.end_date)),
            DEFAULT_DAYS,
            MAX_DAYS,
        )?;
        let sport = Sport::parse(args.sport.as_deref())?;
        let metric = parse_metric(args.metric.as_deref(), sport)?;
        let mut notes = Vec::new();
        let bests = self.bests_of((start, end), sport, metric, &mut notes).await?;
        let previous_range = if args.compare.unwrap_or(true) { year_before(start, end) } else { None };
        let mut previous_notes = Vec::new();
        let previous = match previous_range {
            Some(range) if bests.is_some() => {
                self.bests_of(range, sport, metric, &mut previous_notes).await?
            }
            _ => None,
        };
        notes.extend(previous_notes.into_iter().map(|n| format!("comparison period: {n}")));
        let answer = shape(start, end, sport, metric, bests, previous.map(|p| p.0), previous_range, notes);
        let summary = summary_text(&answer);
        Ok(self.answer(summary, answer))
    }
}

/// The conventions in one paragraph.
fn conventions(metric: Metric) -> String {
    use analytics::critical_power::CP_CONVENTION;
    use analytics::mean_max::{BEST_TIME_CONVENTION, MEAN_MAX_CONVENTION, RESAMPLE_CONVENTION};
    let mut text = format!(
        "{MEAN_MAX_CONVENTION}; each activity's series {RESAMPLE_CONVENTION}, computed once at sync. {BEST_TIME_CONVENTION}."
    );
    if metric == Metric::Power {
        text.push_str(&format!(" Critical power: {CP_CONVENTION}."));
    }
    text
}

#[allow(clippy::too_many_arguments, reason = "the answer's parts, each from a different read")]
fn shape(
    start: NaiveDate,
    end: NaiveDate,
    sport: Sport,
    metric: Metric,
    bests: Option<(RangeBests, DataSource)>,
    previous: Option<RangeBests>,
    previous_range: Option<(NaiveDate, NaiveDate)>,
    notes: Vec<String>,
) -> BestEfforts {
    let (bests, source) = match bests {
        Some((b, s)) => (b, Some(s)),
        None => (RangeBests::default(), None),
    };
    let compared = previous.is_some();
    let previous = previous.unwrap_or_default();
    let (critical_power, critical_power_note) = critical_power_fit(&bests, metric);
    let mut answer = BestEfforts {
        start_date: start.to_string(),
        end_date: end.to_string(),
        sport: sport.type_key().to_owned(),
        metric: metric.key().to_owned(),
        unit: unit(metric, sport).to_owned(),
        compare_start_date: previous_range.filter(|_| compared).map(|r| r.0.to_string()),
        compare_end_date: previous_range.filter(|_| compared).map(|r| r.1.to_string()),
        convention: conventions(metric),
        reading: String::new(),
        activities: bests.activities,
        activities_with_metric: bests.with_metric,
        curve: curve_points(&bests, &previous, metric, sport),
        best_times: best_time_rows(&bests, &previous),
        critical_power,
        critical_power_note,
        notes,
        source,
    };
    answer.reading = reading(&answer, metric, sport);
    answer
}

/// The curve's points (three decimals) in the sport's units, each with the comparison period's
/// value at that duration.
fn curve_points(bests: &RangeBests, previous: &RangeBests, metric: Metric, sport: Sport) -> Vec<CurvePoint> {
    bests
        .curve
        .iter()
        .map(|p| CurvePoint {
            seconds: p.seconds,
            value: (p.value * 1000.0).round() / 1000.0,
            shown: shown(p.value, metric, sport),
            activity_id: p.activity_id,
            date: p.date.to_string(),
            previous: previous.at(p.seconds).map(|v| (v * 1000.0).round() / 1000.0),
        })
        .collect()
}

/// The best times (tenths of a second), each with the comparison period's over the same distance.
fn best_time_rows(bests: &RangeBests, previous: &RangeBests) -> Vec<BestTimeRow> {
    bests
        .best_times
        .iter()
        .map(|t| BestTimeRow {
            distance: t.label.to_owned(),
            meters: t.meters,
            seconds: (t.seconds * 10.0).round() / 10.0,
            time: display::duration(t.seconds),
            activity_id: t.activity_id,
            date: t.date.to_string(),
            previous_seconds: previous
                .best_times
                .iter()
                .find(|p| p.meters == t.meters)
                .map(|p| (p.seconds * 10.0).round() / 10.0),
        })
        .collect()
}

/// Power only, with a curve: critical power and W′ fitted to it, or the fit's stated refusal.
fn critical_power_fit(bests: &RangeBests, metric: Metric) -> (Option<CriticalPowerFit>, Option<String>) {
    if metric != Metric::Power || bests.curve.is_empty() {
        return (None, None);
    }
    match analytics::critical_power::critical_power(&bests.pairs()) {
        Ok(fit) => (
            Some(CriticalPowerFit {
                cp_watts: fit.cp_watts.round(),
                w_prime_joules: fit.w_prime_joules.round(),
                r_squared_work: (fit.r_squared_work * 1000.0).round() / 1000.0,
                durations: fit.durations,
            }),
            None,
        ),
        Err(e) => (None, Some(e.to_string())),
    }
}

/// One line: the 20-minute (or longest) best against the year before, or why there is none.
fn reading(a: &BestEfforts, metric: Metric, sport: Sport) -> String {
    if a.source.is_none() {
        return "No best efforts: the local history does not cover the range (see notes).".to_owned();
    }
    if a.curve.is_empty() {
        let what = match metric {
            Metric::Power => "power (no power meter or power-capable watch)",
            Metric::Speed => "speed",
            Metric::HeartRate => "heart rate",
        };
        return format!("No {} activity of the range recorded {what}, so there is no curve.", a.sport);
    }
    let key = a.curve.iter().find(|p| p.seconds == 1200).or(a.curve.last());
    let Some(p) = key else { return String::new() };
    let mut text = format!("Best {}: {} on {}", duration_words(p.seconds), p.shown, p.date);
    if let Some(prev) = p.previous.filter(|v| *v > 0.0) {
        let change = (p.value - prev) / prev * 100.0;
        text.push_str(&format!(", {:+.1} % against a year earlier ({})", change, shown(prev, metric, sport)));
    }
    if let Some(cp) = &a.critical_power {
        text.push_str(&format!("; CP {:.0} W, W′ {:.1} kJ", cp.cp_watts, cp.w_prime_joules / 1000.0));
    }
    text.push('.');
    text
}

/// The compact text: key durations, best times, the fit, the reading, conventions and source.
fn summary_text(a: &BestEfforts) -> String {
    let mut text = format!(
        "Best efforts ({} {}), {} to {}, {} activities ({} with {}): {}",
        a.sport,
        a.metric,
        a.start_date,
        a.end_date,
        a.activities,
        a.activities_with_metric,
        a.metric,
        a.reading
    );
    let points: Vec<String> = a
        .curve
        .iter()
        .filter(|p| TEXT_DURATIONS.contains(&p.seconds))
        .map(|p| format!("{} {}", duration_words(p.seconds), p.shown))
        .collect();
    if !points.is_empty() {
        text.push_str(&format!(" Curve: {}.", points.join(", ")));
    }
    if !a.best_times.is_empty() {
        let times: Vec<String> =
            a.best_times.iter().map(|t| format!("{} {} ({})", t.distance, t.time, t.date)).collect();
        text.push_str(&format!(" Best times: {}.", times.join(", ")));
    }
    if let Some(note) = &a.critical_power_note {
        text.push_str(&format!(" {}.", display::capitalise(note)));
    }
    for note in &a.notes {
        text.push_str(&format!(" Note: {note}."));
    }
    text.push_str(&format!(" Conventions: {}", a.convention));
    if let Some(source) = &a.source {
        text.push_str(&format!(" {}", source.phrase()));
    }
    text
}

impl GarminMcp {
    /// The `mean_max` chart of `render_chart`: the season of [`DEFAULT_DAYS`] ending `date` (at
    /// most yesterday) against the same span a year earlier, from the same numbers as
    /// `get_best_efforts`.
    pub(crate) async fn mean_max_chart(
        &self,
        date: NaiveDate,
        sport: Option<&str>,
        metric: Option<&str>,
        options: garmin_charts::ChartOptions,
    ) -> Result<crate::drawing::Drawn, ToolError> {
        use garmin_charts::BestEffortsChart;
        let sport = Sport::parse(sport)?;
        let metric = parse_metric(metric, sport)?;
        let end = date.min(self.today() - chrono::Duration::days(1));
        let start = end - chrono::Duration::days(DEFAULT_DAYS - 1);
        let mut notes = Vec::new();
        let Some(bests) = self.bests_of((start, end), sport, metric, &mut notes).await? else {
            return Err(ToolError::NoData(format!("No best-efforts curve: {}.", notes.join("; "))));
        };
        let previous_range = year_before(start, end);
        let previous = match previous_range {
            Some(range) => self.bests_of(range, sport, metric, &mut Vec::new()).await?.map(|p| p.0),
            None => None,
        };
        let series = curve_series((start, end), &bests.0, previous.as_ref().zip(previous_range));
        let answer = shape(start, end, sport, metric, Some(bests), previous, previous_range, notes);
        if answer.curve.is_empty() {
            return Err(ToolError::NoData(answer.reading));
        }
        let chart = BestEffortsChart { metric: curve_metric(metric), series };
        let drawn_series = chart.series.len();
        let view = crate::apps::view::mean_max(&chart, &answer.convention);
        let png = crate::drawing::draw_off_thread("the best-efforts curve", move || {
            garmin_charts::best_efforts(&chart, &options)
        })
        .await?;
        let period_text = crate::drawing::span(start, end);
        let summary = format!(
            "Best-efforts curve ({} {}) {period_text}{}: {} Conventions: {}",
            answer.sport,
            answer.metric,
            if drawn_series > 1 { ", against the same span a year earlier" } else { "" },
            answer.reading,
            answer.convention
        );
        Ok(crate::drawing::Drawn {
            png,
            summary,
            title: format!("Best efforts ({} {}), {period_text}", answer.sport, answer.metric),
            file_parts: vec![end.to_string(), format!("mean-max-{}-{}", answer.sport, answer.metric)],
            activity_id: None,
            period: Some(period_text),
            series_source: None,
            points: Some(u32::try_from(answer.curve.len()).unwrap_or(u32::MAX)),
            view: Some(view),
        })
    }
}

/// The chart's curves: the range's, and the year before's when it has one.
fn curve_series(
    range: (NaiveDate, NaiveDate),
    bests: &RangeBests,
    previous: Option<(&RangeBests, (NaiveDate, NaiveDate))>,
) -> Vec<garmin_charts::CurveSeries> {
    use garmin_charts::CurveSeries;
    let mut series =
        vec![CurveSeries { label: crate::drawing::span(range.0, range.1), points: bests.pairs() }];
    if let Some((p, (s, e))) = previous
        && !p.curve.is_empty()
    {
        series.push(CurveSeries { label: crate::drawing::span(s, e), points: p.pairs() });
    }
    series
}

/// The chart's axis for the curve's metric (speed is drawn as pace).
fn curve_metric(metric: Metric) -> garmin_charts::CurveMetric {
    use garmin_charts::CurveMetric;
    match metric {
        Metric::Power => CurveMetric::Power,
        Metric::Speed => CurveMetric::Pace,
        Metric::HeartRate => CurveMetric::HeartRate,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_people_say_them() {
        assert_eq!(duration_words(5), "5 s");
        assert_eq!(duration_words(1200), "20 min");
        assert_eq!(duration_words(7200), "2 h");
        assert_eq!(duration_words(2700), "45 min");
        assert_eq!(duration_words(4500), "1:15:00");
    }

    #[test]
    fn the_comparison_is_the_same_span_a_year_earlier() {
        let d = |t: &str| NaiveDate::parse_from_str(t, "%Y-%m-%d").unwrap();
        assert_eq!(year_before(d("2025-11-16"), d("2026-11-15")), Some((d("2024-11-16"), d("2025-11-15"))));
        assert_eq!(year_before(d("2024-02-29"), d("2024-03-31")), Some((d("2023-02-28"), d("2023-03-31"))));
    }
}
