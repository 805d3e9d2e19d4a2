//! What an activity recorded over time and per lap: chart metrics (`details`), laps (`splits`),
//! time in HR/power zones, the weather and strength sets.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::models::de;

/// `activity-service/activity/{id}/details`: chart rows named by descriptors. Reads both the
/// current unwrapped form and the 2018 form wrapped in
/// `com.garmin.activity.details.json.ActivityDetails` (with `measurements`/`metrics`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", from = "RawDetails")]
pub struct ActivityDetails {
    /// Activity id.
    pub activity_id: Option<u64>,
    /// Number of columns.
    pub measurement_count: Option<i64>,
    /// Number of rows.
    pub metrics_count: Option<i64>,
    /// Column names and units (`directTimestamp`, `sumDistance`, `directHeartRate`…).
    pub metric_descriptors: Vec<MetricDescriptor>,
    /// The rows.
    pub activity_detail_metrics: Vec<Vec<Option<f64>>>,
    /// The GPS track, when asked for.
    pub geo_polyline: Option<GeoPolyline>,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct RawDetails {
    #[serde(rename = "com.garmin.activity.details.json.ActivityDetails")]
    wrapped: Option<Box<RawDetails>>,
    #[serde(deserialize_with = "de::id")]
    activity_id: Option<u64>,
    #[serde(deserialize_with = "de::int")]
    measurement_count: Option<i64>,
    #[serde(deserialize_with = "de::int")]
    metrics_count: Option<i64>,
    #[serde(alias = "measurements", deserialize_with = "de::vec")]
    metric_descriptors: Vec<MetricDescriptor>,
    #[serde(alias = "metrics", deserialize_with = "de::vec")]
    activity_detail_metrics: Vec<MetricRow>,
    #[serde(rename = "geoPolylineDTO", alias = "geoPolyline")]
    geo_polyline: Option<GeoPolyline>,
}

#[derive(Default, Deserialize)]
#[serde(default)]
struct MetricRow {
    #[serde(deserialize_with = "de::row")]
    metrics: Vec<Option<f64>>,
}

impl From<RawDetails> for ActivityDetails {
    fn from(raw: RawDetails) -> Self {
        if let Some(inner) = raw.wrapped {
            return ActivityDetails::from(*inner);
        }
        ActivityDetails {
            activity_id: raw.activity_id,
            measurement_count: raw.measurement_count,
            metrics_count: raw.metrics_count,
            metric_descriptors: raw.metric_descriptors,
            activity_detail_metrics: raw.activity_detail_metrics.into_iter().map(|r| r.metrics).collect(),
            geo_polyline: raw.geo_polyline,
        }
    }
}

impl ActivityDetails {
    /// The column of metric `key` (e.g. `directHeartRate`).
    pub fn column(&self, key: &str) -> Option<usize> {
        self.metric_descriptors
            .iter()
            .find(|d| d.key.as_deref() == Some(key))
            .and_then(|d| d.metrics_index)
            .and_then(|i| usize::try_from(i).ok())
    }

    /// Every row's value of metric `key` (empty when the activity has no such metric).
    pub fn values(&self, key: &str) -> Vec<Option<f64>> {
        match self.column(key) {
            Some(col) => {
                self.activity_detail_metrics.iter().map(|row| row.get(col).copied().flatten()).collect()
            }
            None => Vec::new(),
        }
    }

    /// The values of metric `key` in metres, seconds and m/s, whatever unit the column is in: the
    /// 2018 recordings send `sumDistance` in `kilometer` and `directSpeed` in `kph`
    /// (`activity_details_legacy_2018.json`), today's in `meter` and `mps`. Other units pass as
    /// they are.
    pub fn values_si(&self, key: &str) -> Vec<Option<f64>> {
        let factor = match self.unit(key).map(str::to_ascii_lowercase).as_deref() {
            Some("kilometer" | "km") => 1000.0,
            Some("centimeter" | "cm") => 0.01,
            Some("mile") => 1609.344,
            Some("kph" | "kmh") => 1.0 / 3.6,
            Some("mph") => 0.447_04,
            Some("millisecond" | "ms") => 0.001,
            _ => 1.0,
        };
        let mut values = self.values(key);
        if factor != 1.0 {
            for v in values.iter_mut().flatten() {
                *v *= factor;
            }
        }
        values
    }

    /// Each row's time in seconds from the start: the timer clock (`sumDuration`), else elapsed,
    /// else moving time, else the row's timestamp less the first (the one place that decides which
    /// clock a series is read on; charts and the history's mean-max curves use it).
    pub fn elapsed_seconds(&self) -> Vec<Option<f64>> {
        let present = |v: Vec<Option<f64>>| if v.iter().any(Option::is_some) { Some(v) } else { None };
        let clock = ["sumDuration", "sumElapsedDuration", "sumMovingDuration"];
        if let Some(t) = clock.iter().find_map(|k| present(self.values_si(k))) {
            return t;
        }
        let stamps = self.values("directTimestamp");
        let t0 = stamps.iter().flatten().next().copied();
        stamps.iter().map(|s| Some((s.as_ref()? - t0?) / 1000.0)).collect()
    }

    /// The unit of metric `key` as Garmin names it (`mps`, `bpm`, `meter`, `centimeter`…).
    pub fn unit(&self, key: &str) -> Option<&str> {
        self.metric_descriptors.iter().find(|d| d.key.as_deref() == Some(key))?.unit.as_ref()?.key.as_deref()
    }
}

/// One column of the activity chart.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct MetricDescriptor {
    /// Column index.
    #[serde(deserialize_with = "de::int")]
    pub metrics_index: Option<i64>,
    /// Metric key.
    pub key: Option<String>,
    /// Unit (an object today, a bare key in 2018).
    pub unit: Option<MetricUnit>,
}

/// A chart unit: `{id, key, factor}` or just a key.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(from = "RawUnit")]
pub struct MetricUnit {
    /// Unit key, e.g. `mps`, `bpm`, `meter`.
    pub key: Option<String>,
    /// Scale factor Garmin applies.
    pub factor: Option<f64>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RawUnit {
    Key(String),
    Full {
        #[serde(default, deserialize_with = "de::text")]
        key: Option<String>,
        #[serde(default, deserialize_with = "de::num")]
        factor: Option<f64>,
    },
    Other(serde::de::IgnoredAny),
}

impl From<RawUnit> for MetricUnit {
    fn from(raw: RawUnit) -> Self {
        match raw {
            RawUnit::Key(key) => MetricUnit { key: Some(key), factor: None },
            RawUnit::Full { key, factor } => MetricUnit { key, factor },
            RawUnit::Other(_) => MetricUnit::default(),
        }
    }
}

/// The GPS track of an activity.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GeoPolyline {
    /// Points.
    #[serde(deserialize_with = "de::vec")]
    pub polyline: Vec<GeoPoint>,
}

/// One GPS point.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GeoPoint {
    /// Latitude (°).
    pub lat: Option<f64>,
    /// Longitude (°).
    pub lon: Option<f64>,
    /// Altitude (m).
    pub altitude: Option<f64>,
    /// When (epoch ms).
    #[serde(deserialize_with = "de::utc")]
    pub time: Option<DateTime<Utc>>,
}

/// `activity-service/activity/{id}/splits`: the laps.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ActivitySplits {
    /// Activity id.
    #[serde(deserialize_with = "de::id")]
    pub activity_id: Option<u64>,
    /// Laps in order.
    #[serde(rename = "lapDTOs", deserialize_with = "de::vec")]
    pub laps: Vec<Lap>,
}

/// One lap (m, s, m/s, bpm, W).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Lap {
    /// 1-based lap number.
    #[serde(deserialize_with = "de::int")]
    pub lap_index: Option<i64>,
    /// Start (GMT).
    #[serde(rename = "startTimeGMT", deserialize_with = "de::utc")]
    pub start_time_gmt: Option<DateTime<Utc>>,
    /// Distance (m).
    pub distance: Option<f64>,
    /// Duration (s).
    pub duration: Option<f64>,
    /// Moving time (s).
    pub moving_duration: Option<f64>,
    /// Ascent (m).
    pub elevation_gain: Option<f64>,
    /// Descent (m).
    pub elevation_loss: Option<f64>,
    /// Average speed (m/s).
    pub average_speed: Option<f64>,
    /// Top speed (m/s).
    pub max_speed: Option<f64>,
    /// Average heart rate (bpm).
    #[serde(rename = "averageHR")]
    pub average_hr: Option<f64>,
    /// Highest heart rate (bpm).
    #[serde(rename = "maxHR")]
    pub max_hr: Option<f64>,
    /// Average running cadence (steps/min).
    pub average_run_cadence: Option<f64>,
    /// Average power (W).
    pub average_power: Option<f64>,
    /// Calories (kcal).
    pub calories: Option<f64>,
    /// `ACTIVE`, `REST`, `WARMUP`, `COOLDOWN`, `INTERVAL`…
    pub intensity_type: Option<String>,
    /// Average moving speed (m/s).
    pub average_moving_speed: Option<f64>,
    /// Elapsed time (s).
    pub elapsed_duration: Option<f64>,
    /// Ground contact time (ms).
    pub ground_contact_time: Option<f64>,
    /// Stride length (cm).
    pub stride_length: Option<f64>,
    /// Workout step the lap belongs to.
    #[serde(deserialize_with = "de::int")]
    pub wkt_step_index: Option<i64>,
}

/// One zone of `…/hrTimeInZones` or `…/powerTimeInZones`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TimeInZone {
    /// Zone 1–5.
    #[serde(deserialize_with = "de::int")]
    pub zone_number: Option<i64>,
    /// Time in the zone (s).
    pub secs_in_zone: Option<f64>,
    /// Lower bound (bpm or W).
    pub zone_low_boundary: Option<f64>,
}

/// `activity-service/activity/{id}/weather` (temperatures in °F, wind in mph as Garmin sends).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ActivityWeather {
    /// Observation time.
    #[serde(deserialize_with = "de::utc")]
    pub issue_date: Option<DateTime<Utc>>,
    /// Temperature (°F).
    pub temp: Option<f64>,
    /// Feels-like temperature (°F).
    pub apparent_temp: Option<f64>,
    /// Dew point (°F).
    pub dew_point: Option<f64>,
    /// Relative humidity (%).
    pub relative_humidity: Option<f64>,
    /// Wind direction (°).
    pub wind_direction: Option<f64>,
    /// Compass point, e.g. `NW`.
    pub wind_direction_compass_point: Option<String>,
    /// Wind speed (unverified unit; Garmin's UI shows mph).
    pub wind_speed: Option<f64>,
    /// Gusts (same unit).
    pub wind_gust: Option<f64>,
    /// Conditions.
    #[serde(rename = "weatherTypeDTO")]
    pub weather_type: Option<WeatherType>,
    /// Where the observation comes from.
    #[serde(rename = "weatherStationDTO")]
    pub weather_station: Option<WeatherStation>,
}

/// The weather station of an observation.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct WeatherStation {
    /// Station id, e.g. an ICAO code.
    #[serde(deserialize_with = "de::text")]
    pub id: Option<String>,
    /// Name.
    pub name: Option<String>,
}

impl ActivityWeather {
    /// Temperature in °C.
    pub fn temp_celsius(&self) -> Option<f64> {
        self.temp.map(crate::models::units::celsius_from_fahrenheit)
    }
}

/// Weather conditions.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct WeatherType {
    /// Id.
    #[serde(deserialize_with = "de::int")]
    pub weather_type_pk: Option<i64>,
    /// Description, e.g. `Partly Cloudy`.
    pub desc: Option<String>,
}

/// `activity-service/activity/{id}/exerciseSets`: strength sets.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ExerciseSets {
    /// Activity id.
    #[serde(deserialize_with = "de::id")]
    pub activity_id: Option<u64>,
    /// Sets in order.
    #[serde(deserialize_with = "de::vec")]
    pub exercise_sets: Vec<ExerciseSet>,
}

/// One strength set.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ExerciseSet {
    /// `ACTIVE` or `REST`.
    pub set_type: Option<String>,
    /// Repetitions.
    pub repetition_count: Option<f64>,
    /// Weight (g).
    pub weight: Option<f64>,
    /// Duration (s).
    pub duration: Option<f64>,
    /// Start (GMT).
    #[serde(deserialize_with = "de::utc")]
    pub start_time: Option<DateTime<Utc>>,
    /// Recognised exercises, most likely first.
    #[serde(deserialize_with = "de::vec")]
    pub exercises: Vec<Exercise>,
    /// Index of the workout step it was done under (`None` when free-form).
    #[serde(deserialize_with = "de::int")]
    pub wkt_step_index: Option<i64>,
    /// Its index in the activity's FIT file (`set` message index).
    #[serde(deserialize_with = "de::int")]
    pub message_index: Option<i64>,
}

/// An exercise of a set.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Exercise {
    /// Category, e.g. `BENCH_PRESS`.
    pub category: Option<String>,
    /// Name, e.g. `BARBELL_BENCH_PRESS`.
    pub name: Option<String>,
    /// Recognition probability (0–100).
    pub probability: Option<f64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_row_clock_is_the_timer_else_the_timestamps_from_the_first_row() {
        let timer: ActivityDetails = serde_json::from_value(serde_json::json!({
            "metricDescriptors": [{"metricsIndex": 0, "key": "sumDuration", "unit": {"key": "second"}},
                                  {"metricsIndex": 1, "key": "directTimestamp", "unit": {"key": "gmt"}}],
            "activityDetailMetrics": [{"metrics": [0.0, 1000.0]}, {"metrics": [5.0, 9000.0]}]
        }))
        .unwrap();
        assert_eq!(timer.elapsed_seconds(), [Some(0.0), Some(5.0)]);
        let stamps: ActivityDetails = serde_json::from_value(serde_json::json!({
            "metricDescriptors": [{"metricsIndex": 0, "key": "directTimestamp", "unit": {"key": "gmt"}}],
            "activityDetailMetrics": [{"metrics": [1000.0]}, {"metrics": [null]}, {"metrics": [4000.0]}]
        }))
        .unwrap();
        assert_eq!(stamps.elapsed_seconds(), [Some(0.0), None, Some(3.0)]);
    }
}
