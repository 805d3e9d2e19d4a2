//! An activity's samples read from its original FIT file, for charts whose series Garmin's details
//! endpoint did not send (old activities, manual uploads, details still being processed). The FIT
//! `record` messages carry a timestamp and, when recorded, distance, speed and heart rate; the
//! `session` message the totals.

use fitparser::profile::MesgNum;
use fitparser::{FitDataRecord, Value};
use garmin_charts::ActivitySample;

/// What the FIT file recorded.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct FitSeries {
    /// One sample per `record` message with a timestamp, in time order.
    pub samples: Vec<ActivitySample>,
    /// Total distance of the session, metres.
    pub distance_m: Option<f64>,
    /// Timer time of the session, seconds.
    pub timer_s: Option<f64>,
    /// Average heart rate of the session, bpm.
    pub avg_hr: Option<f64>,
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
    record.fields().iter().find(|f| f.name() == "timestamp").and_then(|f| match f.value() {
        Value::Timestamp(t) => Some(t.timestamp()),
        _ => None,
    })
}

/// Reads the samples and totals from FIT `bytes`; an error names what is wrong with the file.
pub(crate) fn read(bytes: &[u8]) -> Result<FitSeries, String> {
    let records =
        fitparser::from_bytes(bytes).map_err(|e| format!("the FIT file could not be read ({e})"))?;
    let mut series = FitSeries::default();
    let mut t0: Option<i64> = None;
    for record in &records {
        match record.kind() {
            MesgNum::Record => {
                let Some(t) = timestamp(record) else { continue };
                let start = *t0.get_or_insert(t);
                series.samples.push(ActivitySample {
                    elapsed_s: (t - start) as f64,
                    distance_m: field(record, &["distance"]).filter(|d| *d >= 0.0),
                    speed_mps: field(record, &["enhanced_speed", "speed"]).filter(|s| *s >= 0.0),
                    heart_rate: field(record, &["heart_rate"]).filter(|h| *h > 0.0),
                });
            }
            MesgNum::Session => {
                series.distance_m = field(record, &["total_distance"]).filter(|d| *d > 0.0);
                series.timer_s = field(record, &["total_timer_time"]).filter(|d| *d > 0.0);
                series.avg_hr = field(record, &["avg_heart_rate"]).filter(|h| *h > 0.0);
            }
            _ => {}
        }
    }
    series.samples.sort_by(|a, b| a.elapsed_s.total_cmp(&b.elapsed_s));
    if series.samples.is_empty() {
        return Err("the FIT file holds no recorded samples".to_owned());
    }
    Ok(series)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The real fēnix 5 run of the fake's fixtures (21 `record` messages).
    const RUN: &[u8] =
        include_bytes!("../../../../../sidecar/fake-garmin/fixtures/fit/activity_run_fenix5.fit");

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
    }

    #[test]
    fn garbage_and_files_without_records_are_errors_not_panics() {
        assert!(read(b"not a fit file").is_err());
        assert!(read(&[]).is_err());
        let workout =
            include_bytes!("../../../../../sidecar/fake-garmin/fixtures/fit/workout_repeat_steps.fit");
        assert_eq!(read(workout).unwrap_err(), "the FIT file holds no recorded samples");
    }
}
