//! The one reader of an activity's original FIT file: for charts whose series Garmin's details
//! endpoint did not send (old activities, manual uploads, details still being processed), for
//! `get_activity` through Garmin's Personal API, which has no splits, series or time in zones as
//! JSON but serves the original file (docs/garmin-personal-api.md §5: "use the FIT download"), and
//! for the history sync with only a key (laps, zone times and mean-max curves). It lives in the
//! `garmin` crate so the MCP server and the history crate share it. The FIT `record` messages carry
//! a timestamp and, when recorded, distance, speed, heart rate, power, cadence and altitude; the
//! `lap` messages the laps; the `session` message the totals. It decodes with rustyfit, the same
//! FIT library `workout_fit` and the fake's activity files write with (one FIT library, issue #14).

use crate::models::activities::{ActivityDetails, Lap, MetricDescriptor, MetricUnit, TimeInZone};
use rustyfit::profile::mesgdef;
use rustyfit::profile::typedef::{Intensity, MesgNum, Sport};
use rustyfit::{Decoder, DecoderEvent, StreamingIterator};

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

/// A FIT integer the profile gives no scale, as a number; absent when it holds its type's invalid
/// value (all bits set), as FIT marks a field the device did not measure. (The scaled fields come
/// from rustyfit's `*_scaled()`, which answer `None` for the same value.)
fn present<T: Invalid>(raw: T) -> Option<f64> {
    (raw != T::INVALID).then(|| raw.into())
}

/// The value FIT writes for "not measured" in an unsigned field.
trait Invalid: Copy + PartialEq + Into<f64> {
    const INVALID: Self;
}

impl Invalid for u8 {
    const INVALID: Self = u8::MAX;
}

impl Invalid for u16 {
    const INVALID: Self = u16::MAX;
}

/// A lap message in the web API's lap model. FIT's `intensity` enum (`active`, `rest`, `warmup`,
/// `cooldown`…) becomes Garmin's upper-case `intensityType`; a value outside the profile is absent.
/// (Distances, times and speeds are unsigned in FIT: none arrives negative.)
fn lap(l: &mesgdef::Lap, index: i64) -> Lap {
    let intensity = match l.intensity {
        Intensity::ACTIVE => Some("ACTIVE"),
        Intensity::REST => Some("REST"),
        Intensity::WARMUP => Some("WARMUP"),
        Intensity::COOLDOWN => Some("COOLDOWN"),
        Intensity::RECOVERY => Some("RECOVERY"),
        Intensity::INTERVAL => Some("INTERVAL"),
        Intensity::OTHER => Some("OTHER"),
        _ => None,
    };
    Lap {
        lap_index: Some(index),
        start_time_gmt: l.start_time.unix_timestamp().and_then(|t| chrono::DateTime::from_timestamp(t, 0)),
        distance: l.total_distance_scaled(),
        duration: l.total_timer_time_scaled(),
        elapsed_duration: l.total_elapsed_time_scaled(),
        elevation_gain: present(l.total_ascent),
        elevation_loss: present(l.total_descent),
        average_speed: l.enhanced_avg_speed_scaled().or_else(|| l.avg_speed_scaled()),
        max_speed: l.enhanced_max_speed_scaled().or_else(|| l.max_speed_scaled()),
        average_hr: present(l.avg_heart_rate).filter(|h| *h > 0.0),
        max_hr: present(l.max_heart_rate).filter(|h| *h > 0.0),
        average_power: present(l.avg_power),
        calories: present(l.total_calories),
        intensity_type: intensity.map(str::to_owned),
        // The workout step the lap was run under: a message index (its low 12 bits), invalid
        // (0xFFFF) when the lap was not part of a workout.
        wkt_step_index: (l.wkt_step_index.0 != u16::MAX).then(|| i64::from(l.wkt_step_index.0 & 0x0FFF)),
        ..Lap::default()
    }
}

impl FitSeries {
    /// Adds one `record` message (skipped without a timestamp). `t0` is the first sample's time.
    /// Distance, speed and power are unsigned in FIT; 0 bpm or 0 cadence means "not measured".
    fn push_record(&mut self, r: &mesgdef::Record, t0: &mut Option<i64>) {
        let Some(t) = r.timestamp.unix_timestamp() else { return };
        let start = *t0.get_or_insert(t);
        self.samples.push(FitSample {
            elapsed_s: (t - start) as f64,
            distance_m: r.distance_scaled(),
            speed_mps: r.enhanced_speed_scaled().or_else(|| r.speed_scaled()),
            heart_rate: present(r.heart_rate).filter(|h| *h > 0.0),
            power_w: present(r.power),
        });
        let fraction = r.fractional_cadence_scaled().unwrap_or(0.0);
        self.cadence.push(present(r.cadence).filter(|c| *c > 0.0).map(|c| c + fraction));
        self.altitude.push(r.enhanced_altitude_scaled().or_else(|| r.altitude_scaled()));
    }
}

/// Reads the samples and totals from FIT `bytes`; an error names what is wrong with the file.
///
/// rustyfit's streaming decoder hands over one message at a time (no copy of the whole file's
/// messages); its typed messages (`mesgdef::Record`, `Lap`, `Session`) give each field scaled by the
/// FIT profile and `None` for FIT's invalid values. It checks the header and file CRCs and answers a
/// truncated or foreign file with an error, so a bad download is a sentence, never a panic.
pub fn read(bytes: &[u8]) -> Result<FitSeries, String> {
    if bytes.is_empty() {
        return Err("the FIT file could not be read (it is empty)".to_owned());
    }
    let mut series = FitSeries::default();
    let mut t0: Option<i64> = None;
    // A running file holds cadence in strides per minute (the real fēnix 5 run: 89.5 where Garmin
    // Connect shows 179 steps/min); the series shows steps per minute, as the web's `directRunCadence`.
    let mut strides = false;
    // Without component expansion: rustyfit rebuilds an expanded field through f64 and truncates
    // (a record's `speed` 4004 mm/s became an `enhanced_speed` of 4.003 m/s, overwriting the 4.004 the
    // file held), so each field is read as written and the plain field stands in for a missing
    // enhanced one.
    let mut decoder = Decoder::builder().expand_components(false).build();
    let mut stream = decoder.stream(bytes);
    while let Some(event) = stream.next() {
        let event = event.map_err(|e| format!("the FIT file could not be read ({e})"))?;
        let DecoderEvent::Message(message) = event else { continue };
        match message.num {
            MesgNum::RECORD => series.push_record(&mesgdef::Record::from(message), &mut t0),
            MesgNum::LAP => {
                let index = i64::try_from(series.laps.len()).unwrap_or(i64::MAX).saturating_add(1);
                series.laps.push(lap(&mesgdef::Lap::from(message), index));
            }
            MesgNum::SESSION => {
                let session = mesgdef::Session::from(message);
                series.distance_m = session.total_distance_scaled().filter(|d| *d > 0.0);
                series.timer_s = session.total_timer_time_scaled().filter(|d| *d > 0.0);
                series.avg_hr = present(session.avg_heart_rate).filter(|h| *h > 0.0);
                strides = session.sport == Sport::RUNNING;
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
        // fitparser, an independent decoder (a dev-dependency), counts the records.
        let records = fitparser::from_bytes(RUN)
            .unwrap()
            .iter()
            .filter(|r| r.kind() == fitparser::profile::MesgNum::Record)
            .count();
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
    fn truncated_corrupted_and_random_files_are_plain_errors_never_panics() {
        // Prefixes of the real run: a download cut short in the header, the first definitions, or
        // anywhere later (every 11th byte keeps the test fast on a debug build).
        for end in (0..200).chain((200..RUN.len()).step_by(11)) {
            let error = read(&RUN[..end]).expect_err("a truncated file is refused");
            assert!(error.starts_with("the FIT file "), "{end}: {error}");
        }
        // The real run with bytes overwritten (definitions, field sizes, base types, headers): the
        // decoder meets them before the file CRC, so each one is decoded, not just refused.
        let mut rng = fastrand::Rng::with_seed(14);
        for _ in 0..400 {
            let mut bytes = RUN.to_vec();
            for _ in 0..rng.usize(1..8) {
                let at = rng.usize(0..bytes.len());
                bytes[at] = rng.u8(..);
            }
            if let Err(error) = read(&bytes) {
                assert!(error.starts_with("the FIT file "), "{error}");
            }
        }
        // Random bodies behind a valid FIT header (14 bytes, ".FIT", header CRC 0: unchecked).
        for _ in 0..1000 {
            let body: Vec<u8> = (0..rng.usize(0..400)).map(|_| rng.u8(..)).collect();
            let size = u32::try_from(body.len()).unwrap();
            let mut bytes = vec![14, 0x20, 0x54, 0x08];
            bytes.extend(size.to_le_bytes());
            bytes.extend(b".FIT\0\0");
            bytes.extend(body);
            bytes.extend([0, 0]);
            let error = read(&bytes).expect_err("random bytes are no activity");
            assert!(error.starts_with("the FIT file "), "{error}");
        }
        assert_eq!(
            read(&RUN[..RUN.len() - 1]).unwrap_err(),
            "the FIT file could not be read (unexpected EOF)"
        );
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
