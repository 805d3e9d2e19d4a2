//! The interactive view's data (`_meta["dev.garminmcp/view"]`), one shape per view, tagged by
//! `view`: `activity` (the recorded series, laps and zones), `period` (volume per week or month by
//! sport, each bar with its dates so the view can list its activities), `fitness` (CTL, ATL, TSB per
//! day with the convention) and `mean_max` (best-effort curves). Columns, not rows of objects, and
//! rounded to what a chart can show, so a 4-hour activity costs tens of kilobytes, not hundreds.
//! The view's TypeScript mirror is `ui/src/mcp-app/types.ts`.

use garmin_charts::{ActivityChart, BestEffortsChart, CurveMetric, SpeedUnit, VolumeChart, VolumeMetric};
use serde::Serialize;
use serde_json::Value;

/// Most samples of an activity sent to the view (thinned keeping every peak, like the PNG).
pub const MAX_ACTIVITY_POINTS: usize = 1200;

/// What the view shows of an activity beyond its chart: power and elevation per sample, aligned
/// with the chart's samples, and the time in each heart-rate zone (the PNG draws only the floors).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExtraChannels {
    pub power_w: Vec<Option<f64>>,
    pub elevation_m: Vec<Option<f64>>,
    pub zones: Vec<garmin_charts::ZoneTime>,
}

/// An activity's recorded series, column by column (`None` where a sample lacks the value; a
/// column nobody recorded is left out).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SeriesColumns {
    /// Seconds since the start.
    pub t: Vec<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance_m: Option<Vec<Option<f64>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub speed_mps: Option<Vec<Option<f64>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hr_bpm: Option<Vec<Option<f64>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub power_w: Option<Vec<Option<f64>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elevation_m: Option<Vec<Option<f64>>>,
}

/// One lap (split bar).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LapView {
    pub distance_m: f64,
    pub duration_s: f64,
}

/// One heart-rate zone.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ZoneView {
    pub zone: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from_bpm: Option<f64>,
    pub seconds: f64,
}

/// The `activity` view.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ActivityView {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activity_id: Option<u64>,
    pub name: String,
    /// `YYYY-MM-DD HH:MM`, local.
    pub date: String,
    /// `pace_per_km`, `pace_per_100m` or `kmh`.
    pub speed_unit: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub distance_m: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_s: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub avg_hr: Option<f64>,
    /// Samples recorded, before thinning.
    pub recorded_points: usize,
    /// `None` when the answer carried no series (the view can ask `get_activity` for one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub series: Option<SeriesColumns>,
    pub laps: Vec<LapView>,
    pub zones: Vec<ZoneView>,
}

fn round(value: Option<f64>, decimals: i32) -> Option<f64> {
    let scale = 10f64.powi(decimals);
    value.filter(|v| v.is_finite()).map(|v| (v * scale).round() / scale)
}

/// The column of `values` at `keep`, rounded; `None` when no kept sample has a value.
fn column(keep: &[usize], values: impl Fn(usize) -> Option<f64>, decimals: i32) -> Option<Vec<Option<f64>>> {
    let picked: Vec<Option<f64>> = keep.iter().map(|&i| round(values(i), decimals)).collect();
    picked.iter().any(Option::is_some).then_some(picked)
}

/// The `activity` view of a drawn activity chart: its samples thinned to [`MAX_ACTIVITY_POINTS`]
/// (peaks of heart rate, speed, power and elevation kept), with power and elevation from `extra`.
pub fn activity(chart: &ActivityChart, extra: &ExtraChannels, activity_id: Option<u64>) -> ActivityView {
    let samples = &chart.samples;
    let hr: Vec<Option<f64>> = samples.iter().map(|s| s.heart_rate).collect();
    let speed: Vec<Option<f64>> = samples.iter().map(|s| s.speed_mps).collect();
    let primary = if hr.iter().any(Option::is_some) { &hr } else { &speed };
    let keep = garmin_charts::downsample::indices(
        samples.len(),
        MAX_ACTIVITY_POINTS,
        primary,
        &[&speed, &extra.power_w, &extra.elevation_m],
    );
    let extra_at = |values: &[Option<f64>], i: usize| values.get(i).copied().flatten();
    let series = SeriesColumns {
        t: keep.iter().map(|&i| round(Some(samples[i].elapsed_s), 1).unwrap_or(0.0)).collect(),
        distance_m: column(&keep, |i| samples[i].distance_m, 1),
        speed_mps: column(&keep, |i| samples[i].speed_mps, 3),
        hr_bpm: column(&keep, |i| samples[i].heart_rate, 0),
        power_w: column(&keep, |i| extra_at(&extra.power_w, i), 0),
        elevation_m: column(&keep, |i| extra_at(&extra.elevation_m, i), 1),
    };
    ActivityView {
        activity_id,
        name: chart.name.clone(),
        date: chart.date.clone(),
        speed_unit: speed_unit_key(chart.speed_unit),
        distance_m: round(chart.distance_m, 1),
        duration_s: round(chart.duration_s, 1),
        avg_hr: round(chart.avg_hr, 0),
        recorded_points: samples.len(),
        series: (!keep.is_empty()).then_some(series),
        laps: chart
            .laps
            .iter()
            .map(|l| LapView { distance_m: l.distance_m, duration_s: l.duration_s })
            .collect(),
        zones: extra
            .zones
            .iter()
            .map(|z| ZoneView { zone: z.zone, from_bpm: round(z.from_bpm, 0), seconds: z.seconds.round() })
            .collect(),
    }
}

fn speed_unit_key(unit: SpeedUnit) -> &'static str {
    match unit {
        SpeedUnit::PacePerKm => "pace_per_km",
        SpeedUnit::PacePer100m => "pace_per_100m",
        SpeedUnit::Kmh => "kmh",
    }
}

/// `m:ss` or `h:mm:ss` as seconds.
fn clock_seconds(text: &str) -> Option<f64> {
    text.split(':').try_fold(0.0, |total, part| part.trim().parse::<f64>().ok().map(|v| total * 60.0 + v))
}

/// The `activity` view from `get_activity`'s structured answer (its splits, zones and, when asked
/// for, its series; without one the view asks `get_activity` with `include_series`).
pub fn activity_from_answer(answer: &Value) -> Option<Value> {
    let overview = answer.get("overview");
    let has = |key: &str| overview.and_then(|o| o.get(key)).is_some();
    let speed_unit = if has("speed_kmh") {
        "kmh"
    } else if has("pace_per_100m") {
        "pace_per_100m"
    } else {
        "pace_per_km"
    };
    let laps = answer.pointer("/splits/rows").and_then(Value::as_array).map(|rows| {
        rows.iter()
            .filter_map(|r| {
                Some(LapView {
                    distance_m: r.get("distance_km")?.as_f64()? * 1000.0,
                    duration_s: clock_seconds(r.get("time")?.as_str()?)?,
                })
            })
            .collect()
    });
    let zones = answer.get("hr_zones").and_then(Value::as_array).map(|rows| {
        rows.iter()
            .filter_map(|z| {
                Some(ZoneView {
                    zone: u8::try_from(z.get("zone")?.as_u64()?).ok()?,
                    from_bpm: z.get("from_bpm").and_then(Value::as_f64),
                    seconds: z.get("minutes")?.as_f64()? * 60.0,
                })
            })
            .collect()
    });
    let series = answer.get("series").filter(|s| s.is_object());
    let view = ActivityView {
        activity_id: answer.get("activity_id").and_then(Value::as_u64),
        name: answer.get("name").and_then(Value::as_str).unwrap_or_default().to_owned(),
        date: answer.get("start").and_then(Value::as_str).unwrap_or_default().to_owned(),
        speed_unit,
        distance_m: answer.pointer("/overview/distance_km").and_then(Value::as_f64).map(|km| km * 1000.0),
        duration_s: answer.pointer("/overview/duration").and_then(Value::as_str).and_then(clock_seconds),
        avg_hr: answer.pointer("/overview/avg_hr_bpm").and_then(Value::as_f64),
        recorded_points: series
            .and_then(|s| s.get("recorded_points"))
            .and_then(Value::as_u64)
            .map_or(0, |n| usize::try_from(n).unwrap_or(usize::MAX)),
        series: series.and_then(series_from_answer),
        laps: laps.unwrap_or_default(),
        zones: zones.unwrap_or_default(),
    };
    serde_json::to_value(tagged("activity", &view)).ok()
}

/// `get_activity`'s series (paces in s, distance in km) as the view's columns (speed in m/s).
fn series_from_answer(series: &Value) -> Option<SeriesColumns> {
    let numbers = |key: &str| -> Option<Vec<Option<f64>>> {
        series.get(key)?.as_array().map(|values| values.iter().map(Value::as_f64).collect())
    };
    let scaled = |key: &str, f: fn(f64) -> f64| -> Option<Vec<Option<f64>>> {
        numbers(key).map(|v| v.into_iter().map(|x| x.map(f)).collect())
    };
    let t = numbers("t_s")?.into_iter().map(|x| x.unwrap_or(0.0)).collect();
    let speed = scaled("pace_s_per_km", |p| 1000.0 / p)
        .or_else(|| scaled("speed_kmh", |k| k / 3.6))
        .or_else(|| scaled("pace_s_per_100m", |p| 100.0 / p))
        .map(|v| v.into_iter().map(|x| round(x, 3)).collect());
    Some(SeriesColumns {
        t,
        distance_m: scaled("distance_km", |km| (km * 10_000.0).round() / 10.0),
        speed_mps: speed,
        hr_bpm: numbers("hr_bpm"),
        power_w: None,
        elevation_m: numbers("elevation_m"),
    })
}

/// One bar of the period view, with the days it covers.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BucketView {
    pub label: String,
    pub start: String,
    pub end: String,
    /// Per sport, in the order of [`PeriodView::sports`].
    pub values: Vec<f64>,
}

/// The `period` view.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PeriodView {
    pub weekly: bool,
    /// `km` or `h`.
    pub unit: &'static str,
    /// `running`, `cycling`, `swimming`, `walking`, `strength` or `other`.
    pub sports: Vec<&'static str>,
    pub buckets: Vec<BucketView>,
    /// The `activity_type` the chart was limited to, if any (passed on when listing a bar).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activity_type: Option<String>,
}

/// The `period` view of a drawn volume chart; `starts` are the buckets' first days, `end` the
/// last day of the last bucket.
pub fn period(
    chart: &VolumeChart,
    starts: &[chrono::NaiveDate],
    end: chrono::NaiveDate,
    activity_type: Option<String>,
) -> PeriodView {
    let buckets = chart
        .buckets
        .iter()
        .zip(starts)
        .enumerate()
        .map(|(i, (bucket, start))| {
            let last = starts.get(i + 1).map_or(end, |next| *next - chrono::Duration::days(1));
            BucketView {
                label: bucket.label.clone(),
                start: start.to_string(),
                end: last.min(end).to_string(),
                values: bucket.values.iter().map(|v| round(Some(*v), 2).unwrap_or(0.0)).collect(),
            }
        })
        .collect();
    PeriodView {
        weekly: chart.weekly,
        unit: if chart.metric == VolumeMetric::Distance { "km" } else { "h" },
        sports: chart.sports.iter().map(|s| sport_key(*s)).collect(),
        buckets,
        activity_type,
    }
}

fn sport_key(sport: garmin_charts::Sport) -> &'static str {
    use garmin_charts::Sport::*;
    match sport {
        Running => "running",
        Cycling => "cycling",
        Swimming => "swimming",
        Walking => "walking",
        Strength => "strength",
        Other => "other",
    }
}

/// The `fitness` view from `get_fitness_trend`'s answer (also what `render_chart` kind `fitness`
/// draws): one column per measure, with the conventions the view names.
pub fn fitness_from_answer(trend: &Value) -> Option<Value> {
    let days = trend.get("days")?.as_array()?;
    let text = |key: &str| trend.get(key).and_then(Value::as_str).unwrap_or_default();
    let numbers = |key: &str| -> Vec<Value> {
        days.iter().map(|d| d.get(key).and_then(Value::as_f64).map_or(Value::Null, Value::from)).collect()
    };
    Some(serde_json::json!({
        "view": "fitness",
        "dates": days.iter().map(|d| d.get("date").cloned().unwrap_or(Value::Null)).collect::<Vec<_>>(),
        "load": numbers("load"),
        "ctl": numbers("ctl"),
        "atl": numbers("atl"),
        "tsb": numbers("tsb"),
        "settling": days.iter().map(|d| d.get("settling").and_then(Value::as_bool).unwrap_or(false)).collect::<Vec<_>>(),
        "loadScale": text("load_scale"),
        "convention": text("convention"),
        "loadConvention": text("load_convention"),
        "reading": text("reading"),
    }))
}

/// The `mean_max` view of a drawn best-efforts chart.
pub fn mean_max(chart: &BestEffortsChart, convention: &str) -> Value {
    let metric = match chart.metric {
        CurveMetric::Power => "power",
        CurveMetric::Pace => "pace",
        CurveMetric::HeartRate => "hr",
    };
    let series: Vec<Value> = chart
        .series
        .iter()
        .map(|s| {
            let mut points: Vec<(u32, f64)> =
                s.points.iter().copied().filter(|(_, v)| v.is_finite()).collect();
            points.sort_by_key(|(seconds, _)| *seconds);
            serde_json::json!({
                "label": s.label,
                "seconds": points.iter().map(|(t, _)| *t).collect::<Vec<_>>(),
                "values": points.iter().map(|(_, v)| round(Some(*v), 3)).collect::<Vec<_>>(),
            })
        })
        .collect();
    serde_json::json!({ "view": "mean_max", "metric": metric, "series": series, "convention": convention })
}

/// `data` with its view's name as `view`.
pub fn tagged(view: &str, data: &impl Serialize) -> Value {
    let mut value = serde_json::to_value(data).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut value {
        map.insert("view".to_owned(), Value::String(view.to_owned()));
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;
    use garmin_charts::ActivitySample;
    use serde_json::json;

    fn long_run(n: usize) -> ActivityChart {
        let samples = (0..n)
            .map(|i| ActivitySample {
                elapsed_s: i as f64,
                distance_m: Some(i as f64 * 3.0),
                speed_mps: Some(3.0 + (i % 11) as f64 / 100.0),
                heart_rate: Some(if i == n / 2 { 199.0 } else { 140.0 + (i % 13) as f64 }),
            })
            .collect();
        ActivityChart { name: "Long run".into(), samples, ..ActivityChart::default() }
    }

    #[test]
    fn a_long_activity_is_thinned_keeping_its_peaks_and_every_column_stays_aligned() {
        let chart = long_run(15_000);
        let extra = ExtraChannels {
            power_w: (0..15_000).map(|i| Some(if i == 777 { 900.0 } else { 250.0 })).collect(),
            elevation_m: vec![None; 15_000],
            zones: Vec::new(),
        };
        let view = activity(&chart, &extra, Some(7));
        let series = view.series.as_ref().unwrap();
        assert!(series.t.len() <= MAX_ACTIVITY_POINTS && series.t.len() > MAX_ACTIVITY_POINTS / 2);
        assert_eq!(view.recorded_points, 15_000);
        for column in [&series.distance_m, &series.speed_mps, &series.hr_bpm, &series.power_w] {
            assert_eq!(column.as_ref().unwrap().len(), series.t.len());
        }
        assert!(series.hr_bpm.as_ref().unwrap().contains(&Some(199.0)), "the HR peak survives");
        assert!(series.power_w.as_ref().unwrap().contains(&Some(900.0)), "the power peak survives");
        assert!(series.elevation_m.is_none(), "a column nobody recorded is left out");
        let json = serde_json::to_value(tagged("activity", &view)).unwrap();
        assert_eq!(json["view"], "activity");
        assert!(json["series"]["hrBpm"].is_array() && json["speedUnit"] == "pace_per_km");
    }

    #[test]
    fn get_activity_answers_become_the_same_view_with_speed_in_metres_per_second() {
        let answer = json!({
            "activity_id": 42, "name": "Tempo", "start": "2026-11-02 07:00",
            "overview": { "distance_km": 10.0, "duration": "50:00", "avg_hr_bpm": 150, "pace_per_km": "5'00\"" },
            "splits": { "rows": [ { "distance_km": 1.0, "time": "5:00" } ] },
            "hr_zones": [ { "zone": 3, "from_bpm": 140, "minutes": 20.0 } ],
            "series": { "recorded_points": 3000, "t_s": [0, 10], "pace_s_per_km": [300, null], "hr_bpm": [120, 130] }
        });
        let view = activity_from_answer(&answer).unwrap();
        assert_eq!(view["view"], "activity");
        assert_eq!(view["durationS"], 3000.0);
        assert_eq!(view["laps"][0], json!({ "distanceM": 1000.0, "durationS": 300.0 }));
        assert_eq!(view["zones"][0]["seconds"], 1200.0);
        assert_eq!(view["series"]["speedMps"], json!([3.333, null]));
        let without = activity_from_answer(&json!({ "activity_id": 1, "name": "x" })).unwrap();
        assert!(without.get("series").is_none(), "no series: the view asks for one");
    }

    #[test]
    fn fitness_answers_become_columns_with_their_conventions() {
        let trend = json!({
            "load_scale": "tss", "convention": "CTL 42 d", "load_convention": "hrTSS", "reading": "fresh",
            "days": [ { "date": "2026-11-01", "load": 50.0, "ctl": 40.0, "atl": 45.0, "tsb": -5.0, "settling": true },
                      { "date": "2026-11-02", "load": 0.0, "ctl": 39.1, "atl": 39.4, "tsb": -0.3 } ]
        });
        let view = fitness_from_answer(&trend).unwrap();
        assert_eq!(view["ctl"], json!([40.0, 39.1]));
        assert_eq!(view["settling"], json!([true, false]));
        assert_eq!(view["convention"], "CTL 42 d");
        assert!(fitness_from_answer(&json!({})).is_none());
    }

    #[test]
    fn period_buckets_carry_the_days_they_cover() {
        let day = |d: &str| d.parse::<chrono::NaiveDate>().unwrap();
        let chart = VolumeChart {
            weekly: true,
            sports: vec![garmin_charts::Sport::Running],
            buckets: vec![
                garmin_charts::VolumeBucket { label: "11-02".into(), values: vec![30.123] },
                garmin_charts::VolumeBucket { label: "11-09".into(), values: vec![12.0] },
            ],
            ..VolumeChart::default()
        };
        let view = period(&chart, &[day("2026-11-02"), day("2026-11-09")], day("2026-11-12"), None);
        assert_eq!(
            (view.buckets[0].start.as_str(), view.buckets[0].end.as_str()),
            ("2026-11-02", "2026-11-08")
        );
        assert_eq!(view.buckets[1].end, "2026-11-12", "the last bar ends on the chart's last day");
        assert_eq!(view.buckets[0].values, vec![30.12]);
        assert_eq!((view.unit, view.sports[0]), ("km", "running"));
    }
}
