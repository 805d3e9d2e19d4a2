//! The data of the one-activity charts: the activity's figures, its samples from Garmin's details
//! endpoint — or from the original FIT file when the details lack the series the chart needs (an
//! original that is a GPX/TCX upload is said to be one, not read as FIT) — and
//! its time in heart-rate zones (whose floors are the zone bands of the activity chart).

use garmin::api::ActivitySearch;
use garmin::models::activities::{Activity, ActivityDetails, ActivitySplits, TimeInZone};
use garmin::models::downloads::OriginalFormat;
use garmin_charts::{
    ActivityChart, ActivityLap, ActivitySample, ChartOptions, HrZoneFloor, HrZonesChart, SpeedUnit, ZoneTime,
};

use super::{Drawn, draw_off_thread};
use crate::domain::activity::{Family, activity_title};
use crate::domain::activity_parts::{time_in_zones, zone_floors};
use crate::server::GarminMcp;
use crate::tool_error::ToolError;
use garmin::fit_series;

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
    /// The activity `id`, or the newest one.
    async fn activity_id_or_newest(&self, id: Option<u64>) -> Result<u64, ToolError> {
        if let Some(id) = id {
            return Ok(id);
        }
        let newest = self.reads().await?.search(&ActivitySearch::new().limit(1)).await?;
        newest
            .first()
            .and_then(|a| a.activity_id)
            .ok_or_else(|| ToolError::NoData("No activities in your Garmin account yet.".to_owned()))
    }

    /// The activity itself, or "no such activity".
    async fn activity_facts(&self, id: u64) -> Result<Facts, ToolError> {
        match self.reads().await?.activity(id).await {
            Ok(a) => Ok(Facts::of(&a, id)),
            Err(garmin::Error::NotFound { .. }) => {
                Err(ToolError::NoData(format!("No activity {id} in your Garmin account.")))
            }
            Err(e) => Err(e.into()),
        }
    }

    /// The `activity` chart.
    pub(super) async fn activity_chart(
        &self,
        id: Option<u64>,
        options: ChartOptions,
    ) -> Result<Drawn, ToolError> {
        let id = self.activity_id_or_newest(id).await?;
        let reads = self.reads().await?;
        // With a Personal API key the samples, laps and zones come from the original FIT file (the
        // API has no chart rows, laps or zone times as JSON; docs/garmin-personal-api.md §5).
        let fit_first = reads.has_key();
        let web = async {
            if fit_first {
                (Ok(None), Ok(Vec::new()), Ok(Default::default()), reads.hr_zones().await.ok())
            } else {
                let (d, z, l) = futures::join!(
                    reads.details(id, DETAIL_ROWS),
                    reads.hr_time_in_zones(id),
                    reads.splits(id)
                );
                (d, z, l, None)
            }
        };
        let (facts, (details, zones, laps, floors)) = futures::join!(self.activity_facts(id), web);
        let facts = facts?;
        // Laps make the split bars (and a pool swim's pace); without them the samples are split.
        let to_bars = |laps: &[garmin::models::activities::Lap]| -> Vec<ActivityLap> {
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
        };
        let mut laps: Vec<ActivityLap> = laps.map(|s: ActivitySplits| to_bars(&s.laps)).unwrap_or_default();
        let mut zones = zones;
        let from_details = match &details {
            Ok(Some(d)) => samples_from_details(d),
            _ => Vec::new(),
        };
        let (samples, source, fit_totals) = if enough(&from_details, facts.family) {
            (from_details, Source::Details, None)
        } else {
            // Garmin's details lack the series: read the original FIT file instead. An activity
            // uploaded as GPX or TCX has that file as its original, not a FIT (docs/garmin-web-api.md
            // §0): say so rather than read it as one.
            let original = reads.original_file(id).await.map_err(ToolError::from);
            let fit = match original {
                Err(e) => Err(e),
                Ok(original) if original.format != OriginalFormat::Fit => Err(ToolError::NoData(format!(
                    "Activity {id} has no samples to draw in Garmin's activity details, and its \
                     original file is the {} file it was uploaded as, not a FIT recording, so the \
                     chart cannot fall back to it. export_activity with format `fit` saves that file.",
                    original.format.label()
                ))),
                // Decoding a FIT file is CPU work: off the runtime's threads, so it stalls no one.
                Ok(original) => {
                    let bytes = original.file.bytes;
                    match tokio::task::spawn_blocking(move || fit_series::read(&bytes)).await {
                        Ok(read) => read.map_err(|e| ToolError::NoData(format!("Activity {id}: {e}."))),
                        Err(e) => Err(ToolError::Local(format!(
                            "reading activity {id}'s FIT file stopped unexpectedly ({e}); try again"
                        ))),
                    }
                }
            };
            match fit {
                Ok(fit) if !fit.samples.is_empty() => {
                    let totals = (fit.distance_m, fit.timer_s, fit.avg_hr);
                    if fit_first {
                        laps = to_bars(&fit.laps);
                        let floors = floors.as_deref().and_then(|f| zone_floors(f, facts.family));
                        zones = Ok(floors.map(|f| fit.time_in_zones(f)).unwrap_or_default());
                    }
                    let samples = fit
                        .samples
                        .iter()
                        .map(|s| ActivitySample {
                            elapsed_s: s.elapsed_s,
                            distance_m: s.distance_m,
                            speed_mps: s.speed_mps,
                            heart_rate: s.heart_rate,
                        })
                        .collect();
                    (samples, Source::Fit, Some(totals))
                }
                Ok(_) | Err(_) if !from_details.is_empty() => (from_details, Source::Details, None),
                Ok(_) => {
                    return Err(ToolError::NoData(format!("Activity {id} recorded no samples to draw.")));
                }
                Err(e) => {
                    // Report the details failure when there was one: it is the first cause.
                    return Err(match details {
                        Err(d) => d.into(),
                        Ok(_) => e,
                    });
                }
            }
        };
        let zone_rows = zones.as_deref().map(zone_rows).unwrap_or_default();
        let floors: Vec<HrZoneFloor> = zone_rows
            .iter()
            .filter_map(|z| Some(HrZoneFloor { zone: z.zone, from_bpm: z.from_bpm? }))
            .collect();
        let points = u32::try_from(samples.len()).unwrap_or(u32::MAX);
        let (fit_distance, fit_timer, fit_hr) = fit_totals.unwrap_or((None, None, None));
        let chart = ActivityChart {
            name: facts.name.clone(),
            date: facts.start.clone(),
            speed_unit: speed_unit(facts.family),
            samples,
            hr_zones: floors,
            distance_m: facts.distance_m.or(fit_distance),
            duration_s: facts.duration_s.or(fit_timer),
            avg_hr: facts.avg_hr.or(fit_hr),
            laps,
        };
        let lap_bars = chart.laps.iter().any(|l| l.distance_m >= 1.0 && l.duration_s > 0.0);
        let lap_pace = chart.pace_from_laps();
        let what = format!("activity {id}");
        let png = draw_off_thread(&what, move || garmin_charts::activity(&chart, &options)).await?;

        let mut summary = format!("Chart of {}.", facts.headline());
        let unit = match facts.family {
            Family::Ride => "speed",
            _ => "pace",
        };
        summary.push_str(&format!(
            " It shows {unit} (faster higher){} with a bar per {} and heart rate over {} zone bands",
            if lap_pace { " per lap, as Garmin's pool speed channel is empty" } else { "" },
            if lap_bars { "lap" } else { "split" },
            if zone_rows.is_empty() { "no" } else { "Garmin's" }
        ));
        match source {
            Source::Details => summary.push_str(&format!(", from {points} samples of Garmin's activity details.")),
            Source::Fit => summary.push_str(&format!(
                ", from {points} samples of the original FIT file (Garmin's activity details had no usable series)."
            )),
        }
        Ok(Drawn {
            png,
            summary,
            title: format!("{} — pace and heart rate", facts.name),
            file_parts: vec![facts.date.clone(), facts.name.clone(), facts.id.to_string(), "chart".into()],
            activity_id: Some(facts.id),
            period: None,
            series_source: Some(source.key().to_owned()),
            points: Some(points),
        })
    }

    /// The `hr_zones` chart of one activity.
    pub(super) async fn activity_zones_chart(
        &self,
        id: Option<u64>,
        options: ChartOptions,
    ) -> Result<Drawn, ToolError> {
        let id = self.activity_id_or_newest(id).await?;
        let reads = self.reads().await?;
        // With a key, counted from the original FIT file (domain `activity_parts::time_in_zones`).
        let (facts, zones) = futures::join!(self.activity_facts(id), time_in_zones(&reads, id));
        let facts = facts?;
        let rows = zone_rows(&zones?);
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
        })
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
