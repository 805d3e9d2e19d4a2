//! The data of the one-activity charts: the activity's figures, laps, time in heart-rate zones and
//! recorded samples as the reader serves them (`garmin::reads`: the FIT file with a key, Garmin's
//! details otherwise) — and, when Garmin's details lack the series the chart needs, the activity's
//! original FIT file (an original that is a GPX/TCX upload is said to be one, not read as FIT).

use garmin::api::ActivitySearch;
use garmin::fit_series::{self, FitSeries};
use garmin::models::activities::{Activity, ActivityDetails, ActivitySplits, Lap, TimeInZone};
use garmin::models::downloads::OriginalFormat;
use garmin::reads::{Recording, ServedValue, Wanted};
use garmin::{Garmin, Served};
use garmin_charts::{
    ActivityChart, ActivityLap, ActivitySample, ChartOptions, HrZoneFloor, HrZonesChart, SpeedUnit, ZoneTime,
};

use super::{Drawn, draw_off_thread};
use crate::apps::view::ExtraChannels;
use crate::domain::activity::{Family, activity_title};
use crate::server::GarminMcp;
use crate::tool_error::ToolError;

/// Rows asked of Garmin's details endpoint: enough for a smooth 1200-px line, small to transfer.
const DETAIL_ROWS: u32 = 4000;

/// Where an activity's samples came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    Details,
    Fit,
}

impl Source {
    fn key(self) -> &'static str {
        match self {
            Source::Details => "garmin_details",
            Source::Fit => "fit_file",
        }
    }
}

/// Samples from Garmin's chart rows: time (timer, else elapsed, else timestamps), distance, speed,
/// heart rate.
fn samples_from_details(d: &ActivityDetails) -> Vec<ActivitySample> {
    let present = |v: Vec<Option<f64>>| if v.iter().any(Option::is_some) { Some(v) } else { None };
    let first_of = |keys: &[&str]| keys.iter().find_map(|k| present(d.values_si(k)));
    let n = d.activity_detail_metrics.len();
    let time = d.elapsed_seconds();
    let column = |keys: &[&str]| first_of(keys).unwrap_or_else(|| vec![None; n]);
    let distance = column(&["sumDistance"]);
    let speed = column(&["directSpeed", "directEnhancedSpeed"]);
    let hr = column(&["directHeartRate"]);
    (0..n)
        .filter_map(|i| {
            let elapsed_s = time.get(i).copied().flatten().filter(|t| t.is_finite())?;
            Some(ActivitySample {
                elapsed_s,
                distance_m: distance.get(i).copied().flatten(),
                speed_mps: speed.get(i).copied().flatten(),
                heart_rate: hr.get(i).copied().flatten(),
            })
        })
        .collect()
}

/// Power and elevation of Garmin's chart rows, for the interactive view, row for row with
/// [`samples_from_details`] (the same rows are skipped).
fn channels_from_details(d: &ActivityDetails) -> (Vec<Option<f64>>, Vec<Option<f64>>) {
    let present = |v: Vec<Option<f64>>| if v.iter().any(Option::is_some) { Some(v) } else { None };
    let n = d.activity_detail_metrics.len();
    let column =
        |keys: &[&str]| keys.iter().find_map(|k| present(d.values_si(k))).unwrap_or_else(|| vec![None; n]);
    let power = column(&["directPower"]);
    let elevation = column(&["directElevation", "directEnhancedElevation"]);
    let time = d.elapsed_seconds();
    (0..n)
        .filter(|&i| time.get(i).copied().flatten().is_some_and(f64::is_finite))
        .map(|i| (power.get(i).copied().flatten(), elevation.get(i).copied().flatten()))
        .unzip()
}

/// True when `samples` carry what the chart of a `family` activity needs: some heart rate or
/// speed, and speed for sports that move.
fn enough(samples: &[ActivitySample], family: Family) -> bool {
    let speed = samples.iter().filter(|s| s.speed_mps.is_some()).count() >= 2;
    let hr = samples.iter().filter(|s| s.heart_rate.is_some()).count() >= 2;
    if family.has_distance() { speed } else { speed || hr }
}

fn speed_unit(family: Family) -> SpeedUnit {
    match family {
        Family::Ride => SpeedUnit::Kmh,
        Family::Swim => SpeedUnit::PacePer100m,
        _ => SpeedUnit::PacePerKm,
    }
}

/// Zone floors and times from Garmin's time-in-zones rows (zones 1–5 only).
fn zone_rows(zones: &[TimeInZone]) -> Vec<ZoneTime> {
    let mut rows: Vec<ZoneTime> = zones
        .iter()
        .filter_map(|z| {
            let zone = u8::try_from(z.zone_number?).ok().filter(|n| (1..=5).contains(n))?;
            Some(ZoneTime {
                zone,
                seconds: z.secs_in_zone.filter(|s| s.is_finite() && *s >= 0.0).unwrap_or(0.0),
                from_bpm: z.zone_low_boundary.filter(|b| b.is_finite() && *b > 0.0),
                to_bpm: None,
            })
        })
        .collect();
    rows.sort_by_key(|z| z.zone);
    for i in 0..rows.len().saturating_sub(1) {
        rows[i].to_bpm = rows[i + 1].from_bpm;
    }
    rows
}

/// What the summaries say about an activity.
struct Facts {
    id: u64,
    name: String,
    date: String,
    start: String,
    kind: String,
    family: Family,
    distance_m: Option<f64>,
    duration_s: Option<f64>,
    avg_hr: Option<f64>,
}

impl Facts {
    fn of(activity: &Activity, id: u64) -> Facts {
        let f = activity.summary.clone().unwrap_or_default();
        let family =
            Family::of(activity.type_key(), activity.activity_type.as_ref().and_then(|t| t.parent_type_id));
        Facts {
            id: activity.activity_id.unwrap_or(id),
            name: activity_title(
                activity.activity_name.as_deref(),
                activity.type_key(),
                activity.location_name.as_deref(),
            ),
            date: f.start_time_local.map(|t| t.format("%Y-%m-%d").to_string()).unwrap_or_default(),
            start: f.start_time_local.map(|t| t.format("%Y-%m-%d %H:%M").to_string()).unwrap_or_default(),
            kind: activity.type_key().unwrap_or("activity").replace('_', " "),
            family,
            distance_m: f.distance.filter(|d| d.is_finite() && *d > 0.0),
            duration_s: f.duration.or(f.elapsed_duration).filter(|d| d.is_finite() && *d > 0.0),
            avg_hr: f.average_hr.filter(|h| h.is_finite() && *h > 0.0),
        }
    }

    /// `“Morning Run” on 2026-11-08 (running): 10.02 km in 52:10, avg HR 148 bpm`
    fn headline(&self) -> String {
        let mut text = format!("“{}” on {} ({})", self.name, self.date, self.kind);
        let mut parts = Vec::new();
        if let Some(d) = self.distance_m {
            parts.push(format!("{:.2} km", d / 1000.0));
        }
        if let Some(t) = self.duration_s {
            parts.push(format!("in {}", display::duration(t)));
        }
        if let (Some(d), Some(t)) = (self.distance_m, self.duration_s)
            && let Some(speed) = crate::domain::activity::Speed::of(self.family, d, t).text()
        {
            parts.push(format!("at {speed}"));
        }
        if !parts.is_empty() {
            text.push_str(&format!(": {}", parts.join(" ")));
        }
        if let Some(hr) = self.avg_hr {
            text.push_str(&format!(", avg HR {hr:.0} bpm"));
        }
        text
    }
}

impl GarminMcp {
    /// Which activity a chart is of (`id`, or the newest one) and the reads to fetch it with.
    async fn chart_activity(&self, id: Option<u64>) -> Result<(u64, Garmin), ToolError> {
        let reads = self.reads().await?;
        if let Some(id) = id {
            return Ok((id, reads));
        }
        let newest = reads.search(&ActivitySearch::new().limit(1)).await?.value;
        let id = newest
            .first()
            .and_then(|a| a.activity_id)
            .ok_or_else(|| ToolError::NoData("No activities in your Garmin account yet.".to_owned()))?;
        Ok((id, reads))
    }

    /// The `activity` chart: gather the activity's figures and series, draw them, say what the
    /// chart shows.
    pub(super) async fn activity_chart(
        &self,
        id: Option<u64>,
        options: ChartOptions,
    ) -> Result<Drawn, ToolError> {
        let (id, reads) = self.chart_activity(id).await?;
        let parts = reads
            .activity_parts(
                id,
                Wanted { weather: false, series_rows: Some(DETAIL_ROWS), strength_sets: false },
            )
            .await;
        let facts = facts_of(id, parts.activity)?;
        let none = Served { value: Recording::Details(None), source: garmin::Source::WebSession };
        let recording = parts.recording.unwrap_or(Ok(none));
        let series = chart_series(&reads, id, facts.family, (parts.splits, parts.zones, recording)).await?;
        let (chart, told, extra) = series.into_chart(&facts);
        let view = crate::apps::view::tagged(
            "activity",
            &crate::apps::view::activity(&chart, &extra, Some(facts.id)),
        );
        let png =
            draw_off_thread(&format!("activity {id}"), move || garmin_charts::activity(&chart, &options))
                .await?;
        Ok(Drawn {
            png,
            summary: told.summary(&facts),
            title: format!("{} — pace and heart rate", facts.name),
            file_parts: vec![facts.date.clone(), facts.name.clone(), facts.id.to_string(), "chart".into()],
            activity_id: Some(facts.id),
            period: None,
            series_source: Some(told.source.key().to_owned()),
            points: Some(told.points),
            view: Some(view),
        })
    }

    /// The `hr_zones` chart of one activity.
    pub(super) async fn activity_zones_chart(
        &self,
        id: Option<u64>,
        options: ChartOptions,
    ) -> Result<Drawn, ToolError> {
        let (id, reads) = self.chart_activity(id).await?;
        // Garmin's own zone times, or (key only) counted from the original FIT file.
        let (activity, zones) = futures::join!(reads.activity(id), reads.time_in_zones(id));
        let facts = facts_of(id, activity.value())?;
        let rows = zone_rows(&zones?.value);
        let total: f64 = rows.iter().map(|z| z.seconds).sum();
        if total <= 0.0 {
            return Err(ToolError::NoData(format!(
                "“{}” ({}) has no time in heart-rate zones: it was recorded without heart rate.",
                facts.name, facts.date
            )));
        }
        let chart =
            HrZonesChart { name: facts.name.clone(), period: facts.date.clone(), zones: rows.clone() };
        let png =
            draw_off_thread(&format!("activity {id}"), move || garmin_charts::hr_zones(&chart, &options))
                .await?;
        let summary =
            format!("Time in heart-rate zones of {}: {}.", facts.headline(), zone_sentence(&rows, total));
        Ok(Drawn {
            png,
            summary,
            title: format!("{} — time in heart-rate zones", facts.name),
            file_parts: vec![facts.date.clone(), facts.name.clone(), facts.id.to_string(), "hr-zones".into()],
            activity_id: Some(facts.id),
            period: None,
            series_source: None,
            points: None,
            view: None,
        })
    }
}

/// The activity's figures from its summary, or "no such activity".
fn facts_of(id: u64, activity: Result<Activity, garmin::Error>) -> Result<Facts, ToolError> {
    match activity {
        Ok(a) => Ok(Facts::of(&a, id)),
        Err(garmin::Error::NotFound { .. }) => {
            Err(ToolError::NoData(format!("No activity {id} in your Garmin account.")))
        }
        Err(e) => Err(e.into()),
    }
}

/// Laps as the chart's split bars (and a pool swim's pace); without them the samples are split.
fn lap_bars(laps: &[Lap]) -> Vec<ActivityLap> {
    laps.iter()
        .map(|l| ActivityLap {
            distance_m: l.distance.filter(|d| d.is_finite()).unwrap_or(0.0),
            duration_s: l
                .duration
                .or(l.elapsed_duration)
                .or(l.moving_duration)
                .filter(|d| d.is_finite())
                .unwrap_or(0.0),
        })
        .collect()
}

/// What the activity chart draws, and where its samples came from.
struct ChartSeries {
    samples: Vec<ActivitySample>,
    source: Source,
    laps: Vec<ActivityLap>,
    zones: Vec<ZoneTime>,
    /// The FIT file's distance, timer time and average HR (when the samples are the file's).
    fit_totals: (Option<f64>, Option<f64>, Option<f64>),
    /// Power and elevation per sample, for the interactive view.
    extra: ExtraChannels,
    /// A sentence per part Garmin failed to give (laps, zone times): the chart is drawn without it
    /// and says so, rather than silently drawing less.
    missing: Vec<String>,
}

impl ChartSeries {
    /// The FIT file's samples and totals instead of the details'.
    fn with_fit(mut self, fit: &FitSeries) -> ChartSeries {
        self.fit_totals = (fit.distance_m, fit.timer_s, fit.avg_hr);
        self.extra.power_w = fit.samples.iter().map(|s| s.power_w).collect();
        self.extra.elevation_m = fit.altitude.clone();
        self.samples = fit
            .samples
            .iter()
            .map(|s| ActivitySample {
                elapsed_s: s.elapsed_s,
                distance_m: s.distance_m,
                speed_mps: s.speed_mps,
                heart_rate: s.heart_rate,
            })
            .collect();
        self.source = Source::Fit;
        self
    }
}

/// An activity's laps, zone times and recorded samples as the reader served them.
type ChartParts = (
    Result<ActivitySplits, garmin::Error>,
    Result<Vec<TimeInZone>, garmin::Error>,
    Result<Served<Recording>, garmin::Error>,
);

/// Decides the chart's samples: the recording the reader served (the FIT file with a key), or
/// Garmin's details when they carry what the `family` needs, else the original FIT file's, else
/// whatever details there were; with neither, the first cause of failure.
async fn chart_series(
    reads: &Garmin,
    id: u64,
    family: Family,
    parts: ChartParts,
) -> Result<ChartSeries, ToolError> {
    let (splits, zones, recording) = parts;
    let mut missing = Vec::new();
    let laps = match splits {
        Ok(s) => lap_bars(&s.laps),
        Err(e) => {
            if !e.means_nothing_there() {
                missing.push(format!("Garmin's laps could not be read ({e}), so the bars are per split."));
            }
            Vec::new()
        }
    };
    let zones = match zones {
        Ok(z) => zone_rows(&z),
        Err(e) => {
            if !e.means_nothing_there() {
                missing.push(format!(
                    "Garmin's heart-rate zones could not be read ({e}), so no zone bands are drawn."
                ));
            }
            Vec::new()
        }
    };
    let mut series = ChartSeries {
        samples: Vec::new(),
        source: Source::Details,
        laps,
        zones,
        fit_totals: (None, None, None),
        extra: ExtraChannels::default(),
        missing,
    };
    let details = match recording.map(|r| r.value) {
        Ok(Recording::Fit(fit)) if !fit.samples.is_empty() => return Ok(series.with_fit(&fit)),
        Ok(Recording::Fit(_)) => {
            return Err(ToolError::NoData(format!("Activity {id} recorded no samples to draw.")));
        }
        Ok(Recording::Details(details)) => Ok(details),
        Err(e) => Err(e),
    };
    if let Ok(Some(d)) = &details {
        series.samples = samples_from_details(d);
        (series.extra.power_w, series.extra.elevation_m) = channels_from_details(d);
    }
    if enough(&series.samples, family) {
        return Ok(series);
    }
    match original_fit_series(reads, id).await {
        Ok(fit) if !fit.samples.is_empty() => Ok(series.with_fit(&fit)),
        Ok(_) | Err(_) if !series.samples.is_empty() => Ok(series),
        Ok(_) => Err(ToolError::NoData(format!("Activity {id} recorded no samples to draw."))),
        // Report the details failure when there was one: it is the first cause.
        Err(e) => Err(match details {
            Err(d) => d.into(),
            Ok(_) => e,
        }),
    }
}

/// The original FIT file's series, for when Garmin's details lack it. An activity uploaded as GPX
/// or TCX has that file as its original, not a FIT (docs/garmin-web-api.md §0): say so rather than
/// read it as one.
async fn original_fit_series(reads: &Garmin, id: u64) -> Result<FitSeries, ToolError> {
    let original = reads.original_file(id).await?.value;
    if original.format != OriginalFormat::Fit {
        return Err(ToolError::NoData(format!(
            "Activity {id} has no samples to draw in Garmin's activity details, and its \
             original file is the {} file it was uploaded as, not a FIT recording, so the \
             chart cannot fall back to it. export_activity with format `fit` saves that file.",
            original.format.label()
        )));
    }
    // Decoding a FIT file is CPU work: off the runtime's threads, so it stalls no one.
    let bytes = original.file.bytes;
    match tokio::task::spawn_blocking(move || fit_series::read(&bytes)).await {
        Ok(read) => read.map_err(|e| ToolError::NoData(format!("Activity {id}: {e}."))),
        Err(e) => Err(ToolError::Local(format!(
            "reading activity {id}'s FIT file stopped unexpectedly ({e}); try again"
        ))),
    }
}

/// What the activity chart's summary says about how it was drawn.
struct Told {
    source: Source,
    points: u32,
    /// Pace drawn per lap (a pool swim's empty speed channel).
    lap_pace: bool,
    /// A bar per lap rather than per split.
    lap_bars: bool,
    /// Garmin's zone bands behind the heart rate.
    zone_bands: bool,
    /// What Garmin failed to give, a sentence each.
    missing: Vec<String>,
}

impl ChartSeries {
    /// The chart spec (Garmin's totals first, the FIT file's when Garmin has none) and what its
    /// summary will say.
    fn into_chart(self, facts: &Facts) -> (ActivityChart, Told, ExtraChannels) {
        let floors: Vec<HrZoneFloor> = self
            .zones
            .iter()
            .filter_map(|z| Some(HrZoneFloor { zone: z.zone, from_bpm: z.from_bpm? }))
            .collect();
        let (fit_distance, fit_timer, fit_hr) = self.fit_totals;
        let chart = ActivityChart {
            name: facts.name.clone(),
            date: facts.start.clone(),
            speed_unit: speed_unit(facts.family),
            samples: self.samples,
            hr_zones: floors,
            distance_m: facts.distance_m.or(fit_distance),
            duration_s: facts.duration_s.or(fit_timer),
            avg_hr: facts.avg_hr.or(fit_hr),
            laps: self.laps,
        };
        let told = Told {
            source: self.source,
            points: u32::try_from(chart.samples.len()).unwrap_or(u32::MAX),
            lap_pace: chart.pace_from_laps(),
            lap_bars: chart.laps.iter().any(|l| l.distance_m >= 1.0 && l.duration_s > 0.0),
            zone_bands: !self.zones.is_empty(),
            missing: self.missing,
        };
        let extra = ExtraChannels { zones: self.zones, ..self.extra };
        (chart, told, extra)
    }
}

impl Told {
    /// `Chart of “Morning Run” …. It shows pace (faster higher) with a bar per split and heart rate
    /// over Garmin's zone bands, from 3100 samples of Garmin's activity details.`
    fn summary(&self, facts: &Facts) -> String {
        let unit = match facts.family {
            Family::Ride => "speed",
            _ => "pace",
        };
        let mut summary = format!(
            "Chart of {}. It shows {unit} (faster higher){} with a bar per {} and heart rate over {} zone bands",
            facts.headline(),
            if self.lap_pace { " per lap, as Garmin's pool speed channel is empty" } else { "" },
            if self.lap_bars { "lap" } else { "split" },
            if self.zone_bands { "Garmin's" } else { "no" }
        );
        let points = self.points;
        match self.source {
            Source::Details => summary.push_str(&format!(", from {points} samples of Garmin's activity details.")),
            Source::Fit => summary.push_str(&format!(
                ", from {points} samples of the original FIT file (Garmin's activity details had no usable series)."
            )),
        }
        for sentence in &self.missing {
            summary.push(' ');
            summary.push_str(sentence);
        }
        summary
    }
}

/// `Z1 7:00 (7 %), Z2 25:10 (24 %)…; most time in Z3`.
pub(super) fn zone_sentence(rows: &[ZoneTime], total: f64) -> String {
    let parts: Vec<String> = rows
        .iter()
        .map(|z| format!("Z{} {} ({:.0} %)", z.zone, display::duration(z.seconds), z.seconds / total * 100.0))
        .collect();
    let top = rows.iter().max_by(|a, b| a.seconds.total_cmp(&b.seconds)).map(|z| z.zone).unwrap_or(1);
    format!("{}; most time in Z{top}, {} in total", parts.join(", "), display::duration(total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zone_rows_get_their_ceilings_from_the_next_floor() {
        let zones: Vec<TimeInZone> =
            [(3, 600.0, 140.0), (1, 60.0, 100.0), (2, 120.0, 120.0), (6, 1.0, 200.0)]
                .into_iter()
                .map(|(n, s, b)| TimeInZone {
                    zone_number: Some(n),
                    secs_in_zone: Some(s),
                    zone_low_boundary: Some(b),
                })
                .collect();
        let rows = zone_rows(&zones);
        assert_eq!(
            rows.iter().map(|z| z.zone).collect::<Vec<_>>(),
            [1, 2, 3],
            "zone 6 is not a heart-rate zone"
        );
        assert_eq!(rows[0].to_bpm, Some(120.0));
        assert_eq!(rows[2].to_bpm, None);
        assert!(zone_sentence(&rows, 780.0).contains("most time in Z3"));
    }

    #[test]
    fn runs_need_speed_but_strength_is_drawn_from_heart_rate_alone() {
        let hr_only: Vec<ActivitySample> = (0..10)
            .map(|i| ActivitySample {
                elapsed_s: f64::from(i),
                heart_rate: Some(120.0),
                ..ActivitySample::default()
            })
            .collect();
        assert!(!enough(&hr_only, Family::Run));
        assert!(enough(&hr_only, Family::Other));
        assert!(!enough(&[], Family::Other));
    }
}
