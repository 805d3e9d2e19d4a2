//! The time series of `get_activity` (`include_series`): Garmin's chart columns picked per sport
//! and downsampled to `max_points`, keeping the first, last and peak points.

use garmin::models::activities::ActivityDetails;

use super::answer::Series;
use crate::domain::activity::Family;
use crate::domain::words::whole_u32;

/// A recorded column: one value (SI units) per recorded point.
type Column = Vec<Option<f64>>;

/// The columns the series shows, each the first of Garmin's candidates that has a value.
struct Columns {
    /// Seconds from the start (the duration sums, else the timestamps).
    time: Column,
    distance: Option<Column>,
    speed: Option<Column>,
    hr: Option<Column>,
    cadence: Option<Column>,
    elevation: Option<Column>,
}

impl Columns {
    fn of(d: &ActivityDetails) -> Columns {
        let present = |v: Column| if v.iter().any(Option::is_some) { Some(v) } else { None };
        let first_of = |keys: &[&str]| keys.iter().find_map(|k| present(d.values_si(k)));
        let time = match first_of(&["sumDuration", "sumElapsedDuration", "sumMovingDuration"]) {
            Some(t) => t,
            None => {
                let stamps = d.values("directTimestamp");
                let t0 = stamps.iter().flatten().next().copied();
                stamps.iter().map(|s| Some((s.as_ref()? - t0?) / 1000.0)).collect()
            }
        };
        Columns {
            time,
            distance: first_of(&["sumDistance"]),
            speed: first_of(&["directSpeed", "directEnhancedSpeed"]),
            hr: first_of(&["directHeartRate"]),
            cadence: first_of(&[
                "directDoubleCadence",
                "directRunCadence",
                "directBikeCadence",
                "directSwimCadence",
            ]),
            elevation: first_of(&["directElevation", "directEnhancedElevation"]),
        }
    }
}

/// The activity's series for the sport, thinned to `max_points` (none without recorded points).
pub(super) fn build_series(d: &ActivityDetails, family: Family, max_points: usize) -> Option<Series> {
    let n = d.activity_detail_metrics.len();
    if n == 0 {
        return None;
    }
    let Columns { time, distance, speed, hr, cadence, elevation } = Columns::of(d);
    let none = vec![None; n];
    let primary = hr.as_ref().or(speed.as_ref()).or(elevation.as_ref()).unwrap_or(&none);
    let extremes: Vec<&[Option<f64>]> =
        [speed.as_deref(), elevation.as_deref()].into_iter().flatten().collect();
    let keep = garmin_charts::downsample::indices(n, max_points, primary, &extremes);
    let pick = |col: &Option<Column>, f: &dyn Fn(f64) -> Option<f64>| -> Option<Column> {
        col.as_ref().map(|v| {
            keep.iter().map(|&i| v.get(i).copied().flatten().filter(|x| x.is_finite()).and_then(f)).collect()
        })
    };
    let to_u32 = |v: Option<Column>| v.map(|v| v.into_iter().map(whole_u32).collect::<Vec<_>>());
    let pace = |per: f64| move |mps: f64| (mps >= 0.3).then(|| per / mps);
    let (pace_km, speed_kmh, pace_100m) = match family {
        Family::Ride => (None, pick(&speed, &|mps| Some(display::kmh(mps))), None),
        Family::Swim => (None, None, to_u32(pick(&speed, &pace(100.0)))),
        Family::Run | Family::Walk => (to_u32(pick(&speed, &pace(1000.0))), None, None),
        Family::Other => (None, None, None),
    };
    let t_s: Vec<u32> =
        keep.iter().map(|&i| whole_u32(time.get(i).copied().flatten()).unwrap_or(0)).collect();
    let points = keep.len();
    Some(Series {
        points: u32::try_from(points).unwrap_or(u32::MAX),
        recorded_points: u32::try_from(n).unwrap_or(u32::MAX),
        t_s,
        distance_km: pick(&distance, &|m| Some(display::km(m))),
        pace_s_per_km: pace_km,
        speed_kmh,
        pace_s_per_100m: pace_100m,
        hr_bpm: to_u32(pick(&hr, &Some)),
        cadence: to_u32(pick(&cadence, &Some)),
        elevation_m: pick(&elevation, &|e| Some((e * 10.0).round() / 10.0)),
        note: series_note(n, points),
    })
}

/// How the `points` shown relate to the `n` recorded.
fn series_note(n: usize, points: usize) -> String {
    if points < n {
        format!(
            "downsampled from {n} to {points} points keeping the first, last and peak points and each stretch's highest and lowest heart rate"
        )
    } else {
        format!("all {n} recorded points")
    }
}
