//! The one reader of an activity's original FIT file: for charts whose series Garmin's details
//! endpoint did not send (old activities, manual uploads, details still being processed), for
//! `get_activity` through Garmin's Personal API, which has no splits, series or time in zones as
//! JSON but serves the original file (docs/garmin-personal-api.md §5: "use the FIT download"), and
//! for the history sync with only a key (laps, zone times and mean-max curves). It lives in the
//! `garmin` crate so the MCP server and the history crate share it. The FIT `record` messages carry
//! a timestamp and, when recorded, distance, speed, heart rate, power, cadence and altitude; the
//! `lap` messages the laps; the `session` message the totals.

use crate::models::activities::{ActivityDetails, Lap, MetricDescriptor, MetricUnit, TimeInZone};
use fitparser::profile::MesgNum;
use fitparser::{FitDataRecord, Value};

/// One recorded sample (the chart crate's sample plus power).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FitSample {
    /// Seconds since the first sample.
    pub elapsed_s: f64,
    /// Metres since the start.
    pub distance_m: Option<f64>,
    /// Speed, m/s.
    pub speed_mps: Option<f64>,
    /// Heart rate, bpm.
    pub heart_rate: Option<f64>,
    /// Power, W.
    pub power_w: Option<f64>,
}

/// What the FIT file recorded.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FitSeries {
    /// One sample per `record` message with a timestamp, in time order.
    pub samples: Vec<FitSample>,
    /// Total distance of the session, metres.
    pub distance_m: Option<f64>,
    /// Timer time of the session, seconds.
    pub timer_s: Option<f64>,
    /// Average heart rate of the session, bpm.
    pub avg_hr: Option<f64>,
    /// The laps, in the web API's lap model (m, s, m/s, bpm), in order.
    pub laps: Vec<Lap>,
    /// Cadence (per minute) and altitude (m) of each sample, index for index.
    pub cadence: Vec<Option<f64>>,
    /// Altitude of each sample (m).
    pub altitude: Vec<Option<f64>>,
}

/// A FIT value as a finite number.
fn number(value: &Value) -> Option<f64> {
    let n = match value {
        Value::Byte(v) | Value::UInt8(v) | Value::UInt8z(v) | Value::Enum(v) => f64::from(*v),
        Value::SInt8(v) => f64::from(*v),
        Value::SInt16(v) => f64::from(*v),
        Value::UInt16(v) | Value::UInt16z(v) => f64::from(*v),
        Value::SInt32(v) => f64::from(*v),
        Value::UInt32(v) | Value::UInt32z(v) => f64::from(*v),
        Value::Float32(v) => f64::from(*v),
        Value::Float64(v) => *v,
        Value::SInt64(v) => *v as f64,
        Value::UInt64(v) | Value::UInt64z(v) => *v as f64,
        _ => return None,
    };
    n.is_finite().then_some(n)
}

/// The first of `names` that the message carries as a number.
fn field(record: &FitDataRecord, names: &[&str]) -> Option<f64> {
    names
        .iter()
        .find_map(|name| record.fields().iter().find(|f| f.name() == *name).and_then(|f| number(f.value())))
}

fn timestamp(record: &FitDataRecord) -> Option<i64> {
    stamp(record, "timestamp").map(|t| t.timestamp())
}

fn stamp(record: &FitDataRecord, name: &str) -> Option<chrono::DateTime<chrono::Utc>> {
    record.fields().iter().find(|f| f.name() == name).and_then(|f| match f.value() {
        Value::Timestamp(t) => Some(t.with_timezone(&chrono::Utc)),
        _ => None,
    })
}

/// A lap message in the web API's lap model. FIT's `intensity` enum (`active`, `rest`, `warmup`,
/// `cooldown`…) becomes Garmin's upper-case `intensityType`.
fn lap(record: &FitDataRecord, index: i64) -> Lap {
    let intensity = record.fields().iter().find(|f| f.name() == "intensity").and_then(|f| match f.value() {
        Value::String(s) => Some(s.to_ascii_uppercase()),
        _ => None,
    });
    Lap {
        lap_index: Some(index),
        start_time_gmt: stamp(record, "start_time"),
        distance: field(record, &["total_distance"]).filter(|d| *d >= 0.0),
        duration: field(record, &["total_timer_time"]).filter(|d| *d >= 0.0),
        elapsed_duration: field(record, &["total_elapsed_time"]).filter(|d| *d >= 0.0),
        elevation_gain: field(record, &["total_ascent"]),
        elevation_loss: field(record, &["total_descent"]),
        average_speed: field(record, &["enhanced_avg_speed", "avg_speed"]).filter(|s| *s >= 0.0),
        max_speed: field(record, &["enhanced_max_speed", "max_speed"]).filter(|s| *s >= 0.0),
        average_hr: field(record, &["avg_heart_rate"]).filter(|h| *h > 0.0),
        max_hr: field(record, &["max_heart_rate"]).filter(|h| *h > 0.0),
        average_power: field(record, &["avg_power"]),
        calories: field(record, &["total_calories"]),
        intensity_type: intensity,
        ..Lap::default()
    }
}

/// Reads the samples and totals from FIT `bytes`; an error names what is wrong with the file.
pub fn read(bytes: &[u8]) -> Result<FitSeries, String> {
    let records =
        fitparser::from_bytes(bytes).map_err(|e| format!("the FIT file could not be read ({e})"))?;
    let mut series = FitSeries::default();
    let mut t0: Option<i64> = None;
    // A running file holds cadence in strides per minute (the real fēnix 5 run: 89.5 where Garmin
    // Connect shows 179 steps/min); the series shows steps per minute, as the web's `directRunCadence`.
    let mut strides = false;
    for record in &records {
        match record.kind() {
            MesgNum::Record => {
                let Some(t) = timestamp(record) else { continue };
                let start = *t0.get_or_insert(t);
                series.samples.push(FitSample {
                    elapsed_s: (t - start) as f64,
                    distance_m: field(record, &["distance"]).filter(|d| *d >= 0.0),
                    speed_mps: field(record, &["enhanced_speed", "speed"]).filter(|s| *s >= 0.0),
                    heart_rate: field(record, &["heart_rate"]).filter(|h| *h > 0.0),
                    power_w: field(record, &["power"]).filter(|p| *p >= 0.0),
                });
                let fraction = field(record, &["fractional_cadence"]).unwrap_or(0.0);
                series.cadence.push(field(record, &["cadence"]).filter(|c| *c > 0.0).map(|c| c + fraction));
                series.altitude.push(field(record, &["enhanced_altitude", "altitude"]));
            }
            MesgNum::Lap => {
                let index = i64::try_from(series.laps.len()).unwrap_or(i64::MAX).saturating_add(1);
                series.laps.push(lap(record, index));
            }
            MesgNum::Session => {
                series.distance_m = field(record, &["total_distance"]).filter(|d| *d > 0.0);
                series.timer_s = field(record, &["total_timer_time"]).filter(|d| *d > 0.0);
                series.avg_hr = field(record, &["avg_heart_rate"]).filter(|h| *h > 0.0);
                strides =
                    record.fields().iter().any(|f| f.name() == "sport" && f.value().to_string() == "running");
            }
            _ => {}
        }
    }
    if strides {
        series.cadence.iter_mut().flatten().for_each(|c| *c *= 2.0);
    }
    if series.samples.windows(2).any(|w| w[0].elapsed_s > w[1].elapsed_s) {
        let mut rows: Vec<_> =
            series.samples.drain(..).zip(series.cadence.drain(..).zip(series.altitude.drain(..))).collect();
        rows.sort_by(|a, b| a.0.elapsed_s.total_cmp(&b.0.elapsed_s));
        for (s, (c, a)) in rows {
            series.samples.push(s);
            series.cadence.push(c);
            series.altitude.push(a);
        }
    }
    if series.samples.is_empty() {
        return Err("the FIT file holds no recorded samples".to_owned());
    }
    Ok(series)
}

impl FitSeries {
    /// Time in each heart-rate zone (1–5) whose floors are `floors` (bpm, zone 1 first): each
    /// sample's heart rate counts for the time to the next sample (gaps over 30 s, a pause, are
    /// not counted). Empty when no heart rate was recorded.
    pub fn time_in_zones(&self, floors: [f64; 5]) -> Vec<TimeInZone> {
        const MAX_GAP_S: f64 = 30.0;
        let mut secs = [0.0_f64; 5];
        let mut any = false;
        for pair in self.samples.windows(2) {
            let (Some(hr), dt) = (pair[0].heart_rate, pair[1].elapsed_s - pair[0].elapsed_s) else {
                continue;
            };
            if !(dt > 0.0 && dt <= MAX_GAP_S) {
                continue;
            }
            if let Some(zone) = floors.iter().rposition(|f| hr >= *f) {
                secs[zone] += dt;
                any = true;
            }
        }
        if !any {
            return Vec::new();
        }
        (0..5)
            .map(|i| TimeInZone {
                zone_number: Some(i64::try_from(i + 1).unwrap_or(0)),
                secs_in_zone: Some(secs[i].round()),
                zone_low_boundary: Some(floors[i]),
            })
            .collect()
    }

    /// The samples as Garmin's chart rows (`sumDuration`, `sumDistance`, `directSpeed`,
    /// `directHeartRate`, `directRunCadence`, `directElevation`, `directPower`), so the series is
    /// shaped (and reduced to curves) by the same code whichever source sent it.
    pub fn details(&self) -> ActivityDetails {
        let columns = [
            ("sumDuration", "second"),
            ("sumDistance", "meter"),
            ("directSpeed", "mps"),
            ("directHeartRate", "bpm"),
            ("directRunCadence", "stepsPerMinute"),
            ("directElevation", "meter"),
            ("directPower", "watt"),
        ];
        let metric_descriptors = columns
            .iter()
            .enumerate()
            .map(|(i, (key, unit))| MetricDescriptor {
                metrics_index: i64::try_from(i).ok(),
                key: Some((*key).to_owned()),
                unit: Some(MetricUnit { key: Some((*unit).to_owned()), factor: None }),
            })
            .collect();
        let rows = self
            .samples
            .iter()
            .enumerate()
            .map(|(i, s)| {
                vec![
                    Some(s.elapsed_s),
                    s.distance_m,
                    s.speed_mps,
                    s.heart_rate,
                    self.cadence.get(i).copied().flatten(),
                    self.altitude.get(i).copied().flatten(),
                    s.power_w,
                ]
            })
            .collect::<Vec<_>>();
        ActivityDetails {
            metrics_count: i64::try_from(rows.len()).ok(),
            measurement_count: Some(7),
            metric_descriptors,
            activity_detail_metrics: rows,
            ..ActivityDetails::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The real fēnix 5 run of the fake's fixtures (21 `record` messages).
    const RUN: &[u8] = include_bytes!("../../fake-garmin/fixtures/fit/activity_run_fenix5.fit");

    #[test]
    fn the_real_run_gives_one_sample_per_record_with_distance_speed_and_heart_rate() {
        let series = read(RUN).unwrap();
        let records =
            fitparser::from_bytes(RUN).unwrap().iter().filter(|r| r.kind() == MesgNum::Record).count();
        assert_eq!(series.samples.len(), records);
        assert_eq!(records, 21, "the fixture's record count");
        let first = series.samples.first().unwrap();
        let last = series.samples.last().unwrap();
        assert_eq!(first.elapsed_s, 0.0);
        assert!(last.elapsed_s > 0.0);
        assert!(series.samples.windows(2).all(|w| w[0].elapsed_s <= w[1].elapsed_s));
        let distances: Vec<f64> = series.samples.iter().filter_map(|s| s.distance_m).collect();
        assert!(distances.windows(2).all(|w| w[0] <= w[1]), "cumulative distance never goes back");
        assert!(series.samples.iter().any(|s| s.speed_mps.is_some_and(|v| v > 0.5)), "running speed");
        assert!(series.samples.iter().all(|s| s.heart_rate.is_none_or(|h| (40.0..220.0).contains(&h))));
        assert!(series.samples.iter().any(|s| s.heart_rate.is_some()));
        // The session's total matches the last record's distance.
        let total = series.distance_m.unwrap();
        assert!((total - distances.last().unwrap()).abs() < 50.0, "{total} vs {distances:?}");
        // Its laps add up to the session, and the chart rows hold every sample.
        assert!(!series.laps.is_empty());
        let lap_m: f64 = series.laps.iter().filter_map(|l| l.distance).sum();
        assert!((lap_m - total).abs() < 1.0, "{lap_m} vs {total}");
        let rows = series.details();
        assert_eq!(rows.activity_detail_metrics.len(), records);
        assert_eq!(rows.values("directHeartRate")[3], series.samples[3].heart_rate);
        // Its record 5 holds cadence 89 + fractional 0.5 strides/min: 179 steps/min.
        assert_eq!(series.cadence[5], Some(179.0));
    }

    #[test]
    fn time_in_zones_counts_each_sample_until_the_next_and_skips_pauses() {
        let at = |t: f64, hr: f64| FitSample { elapsed_s: t, heart_rate: Some(hr), ..FitSample::default() };
        let series = FitSeries {
            samples: vec![
                at(0.0, 100.0),
                at(10.0, 130.0),
                at(20.0, 175.0),
                at(100.0, 150.0),
                at(101.0, 150.0),
            ],
            ..FitSeries::default()
        };
        let zones = series.time_in_zones([95.0, 114.0, 133.0, 152.0, 171.0]);
        let secs: Vec<f64> = zones.iter().map(|z| z.secs_in_zone.unwrap()).collect();
        // 100 bpm for 10 s (Z1), 130 for 10 s (Z2), 175 then a 80 s pause (not counted), 150 for 1 s (Z3).
        assert_eq!(secs, vec![10.0, 10.0, 1.0, 0.0, 0.0]);
        assert!(FitSeries::default().time_in_zones([1.0; 5]).is_empty());
    }

    #[test]
    fn garbage_and_files_without_records_are_errors_not_panics() {
        assert!(read(b"not a fit file").is_err());
        assert!(read(&[]).is_err());
        let workout = include_bytes!("../../fake-garmin/fixtures/fit/workout_repeat_steps.fit");
        assert_eq!(read(workout).unwrap_err(), "the FIT file holds no recorded samples");
    }
}
