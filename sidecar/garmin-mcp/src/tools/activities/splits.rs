//! The splits of `get_activity`: laps become per-km (or per-lap) rows, rests fold into the split
//! before them, long lists are merged, and a steadiness note compares the comparable splits.

use garmin::models::activities::Lap;

use super::answer::{SplitRow, Splits, Steadiness};
use super::overview::positive;
use crate::domain::activity::{Family, Speed};
use crate::domain::words::whole_u32;

/// Most split rows shown; longer lists are merged (2 km, 3 km…) to stay compact.
const MAX_SPLIT_ROWS: usize = 50;

/// A lap reduced to what splits need; rests are folded into the split before them.
#[derive(Clone, Debug, Default)]
struct Piece {
    meters: f64,
    seconds: f64,
    /// Heart-rate × seconds (for time-weighted averages) and the seconds it covers.
    hr_weighted: f64,
    hr_seconds: f64,
    elev_change: Option<f64>,
    intensity: Option<String>,
    rest_s: f64,
}

impl Piece {
    fn of(lap: &Lap) -> Piece {
        let seconds = lap.duration.or(lap.elapsed_duration).or(lap.moving_duration).unwrap_or(0.0).max(0.0);
        let hr = positive(lap.average_hr);
        let elev_change = match (lap.elevation_gain, lap.elevation_loss) {
            (None, None) => None,
            (gain, loss) => Some(gain.unwrap_or(0.0) - loss.unwrap_or(0.0)),
        };
        Piece {
            meters: positive(lap.distance).unwrap_or(0.0),
            seconds,
            hr_weighted: hr.map_or(0.0, |h| h * seconds),
            hr_seconds: if hr.is_some() { seconds } else { 0.0 },
            elev_change,
            intensity: lap.intensity_type.clone().filter(|t| !t.is_empty()),
            rest_s: 0.0,
        }
    }

    fn merge(&mut self, other: &Piece) {
        self.meters += other.meters;
        self.seconds += other.seconds;
        self.hr_weighted += other.hr_weighted;
        self.hr_seconds += other.hr_seconds;
        self.elev_change = match (self.elev_change, other.elev_change) {
            (None, None) => None,
            (a, b) => Some(a.unwrap_or(0.0) + b.unwrap_or(0.0)),
        };
        if self.intensity != other.intensity {
            self.intensity = None;
        }
        self.rest_s += other.rest_s;
    }

    fn mps(&self) -> Option<f64> {
        (self.meters > 0.0 && self.seconds > 0.0).then(|| self.meters / self.seconds)
    }

    fn is_work(&self) -> bool {
        matches!(self.intensity.as_deref(), None | Some("ACTIVE" | "INTERVAL"))
    }
}

/// The name of a uniform split length.
fn unit_name(meters: f64) -> String {
    if (meters - 1000.0).abs() <= 20.0 {
        "km".to_owned()
    } else if (meters - 1609.344).abs() <= 25.0 {
        "mile".to_owned()
    } else if meters >= 1000.0 {
        format!("{} km", (meters / 100.0).round() / 10.0)
    } else {
        format!("{} m", meters.round())
    }
}

/// Splits from the laps of any sport: auto-laps of equal length become per-km (or per-5-km…)
/// splits, other laps stay laps; rests fold into the split before them; long lists are merged to stay compact.
pub(super) fn build_splits(laps: &[Lap], family: Family) -> Option<Splits> {
    let pieces = pieces_of(laps);
    if pieces.is_empty() {
        return None;
    }
    // Laps with a distance are splits whatever the sport (backcountry skiing, a flight…); sports
    // without a pace of their own read as speed, like rides.
    let family = if family.has_distance() { family } else { Family::Ride };
    let layout = Layout::of(&pieces);
    let pieces = layout.merged(pieces);
    let rows: Vec<SplitRow> =
        pieces.iter().enumerate().map(|(i, p)| split_row(i, p, family, layout.mixed)).collect();
    let steadiness = steadiness(&pieces, &rows, family, &layout);
    Some(Splits { unit: layout.unit, rows, steadiness })
}

/// The laps as pieces, each rest (a lap without distance) folded into the piece before it.
fn pieces_of(laps: &[Lap]) -> Vec<Piece> {
    let mut pieces: Vec<Piece> = Vec::new();
    for lap in laps {
        let piece = Piece::of(lap);
        if piece.meters < 1.0 {
            if let Some(last) = pieces.last_mut() {
                last.rest_s += piece.seconds;
            }
            continue;
        }
        pieces.push(piece);
    }
    pieces
}

/// How the pieces read as splits: of one length (`uniform`, all but a shorter last one) or laps,
/// of mixed intensities (a structured workout) or not, and how many are merged per row.
struct Layout {
    uniform: bool,
    mixed: bool,
    /// Pieces per row (1 unless there are more than [`MAX_SPLIT_ROWS`]).
    group: usize,
    /// The rows' name: `km`, `mile`, `2 km`, `lap`, `3 laps`…
    unit: String,
    /// The length of a full row when uniform, else 0.
    unit_meters: f64,
}

impl Layout {
    /// The layout of non-empty pieces.
    fn of(pieces: &[Piece]) -> Layout {
        let first = pieces.first().map_or(0.0, |p| p.meters);
        let uniform = pieces.len() >= 2
            && pieces[..pieces.len() - 1].iter().all(|p| (p.meters - first).abs() <= first * 0.02)
            && pieces.last().is_some_and(|p| p.meters <= first * 1.02);
        let mixed = pieces.first().is_some_and(|f| pieces.iter().any(|p| p.intensity != f.intensity));
        let group = pieces.len().div_ceil(MAX_SPLIT_ROWS);
        let unit = if uniform {
            unit_name(first * group as f64)
        } else if group > 1 {
            format!("{group} laps")
        } else {
            "lap".to_owned()
        };
        let unit_meters = if uniform { first * group as f64 } else { 0.0 };
        Layout { uniform, mixed, group, unit, unit_meters }
    }

    /// The pieces merged `group` at a time.
    fn merged(&self, pieces: Vec<Piece>) -> Vec<Piece> {
        if self.group <= 1 {
            return pieces;
        }
        pieces
            .chunks(self.group)
            .map(|chunk| {
                let mut p = chunk[0].clone();
                for other in &chunk[1..] {
                    p.merge(other);
                }
                p
            })
            .collect()
    }

    /// The name of row `i` (0-based): `km 3`, `lap 2`, `2 km 4`…
    fn label(&self, i: usize) -> String {
        if self.uniform && self.unit == "km" {
            format!("km {}", i + 1)
        } else {
            format!("{} {}", self.unit, i + 1)
        }
    }

    /// What the steadiness compares: full km, full splits, work laps or laps.
    fn compared(&self) -> String {
        if self.uniform && self.group == 1 {
            if self.unit == "km" { "full km".to_owned() } else { format!("full {} splits", self.unit) }
        } else if self.mixed {
            "work laps".to_owned()
        } else {
            "laps".to_owned()
        }
    }
}

/// Row `i` (0-based) of the split table; the intensity is shown only when laps mix them.
fn split_row(i: usize, p: &Piece, family: Family, mixed: bool) -> SplitRow {
    SplitRow {
        n: u32::try_from(i + 1).unwrap_or(u32::MAX),
        distance_km: display::km(p.meters),
        time: display::duration(p.seconds),
        speed: Speed::of(family, p.meters, p.seconds),
        avg_hr_bpm: whole_u32((p.hr_seconds > 0.0).then(|| p.hr_weighted / p.hr_seconds)),
        elev_change_m: p.elev_change.filter(|e| e.is_finite()).map(|e| e.round() as i32),
        intensity: if mixed { p.intensity.as_ref().map(|t| t.to_lowercase()) } else { None },
        rest_s: whole_u32(Some(p.rest_s)).filter(|r| *r > 0),
    }
}

/// How steady the splits were: full-length splits (and only the work laps of a structured
/// workout), at least two of them.
fn steadiness(pieces: &[Piece], rows: &[SplitRow], family: Family, layout: &Layout) -> Option<Steadiness> {
    let basis: Vec<(usize, &Piece)> = pieces
        .iter()
        .enumerate()
        .filter(|(_, p)| !layout.mixed || p.is_work())
        .filter(|(_, p)| !layout.uniform || p.meters >= layout.unit_meters * 0.98)
        .filter(|(_, p)| p.mps().is_some())
        .collect();
    if basis.len() < 2 {
        return None;
    }
    let cv = variation_pct(&basis, family);
    let by_speed = |a: &&(usize, &Piece), b: &&(usize, &Piece)| {
        a.1.mps().unwrap_or(0.0).total_cmp(&b.1.mps().unwrap_or(0.0))
    };
    let fastest = basis.iter().max_by(by_speed).map(|(i, _)| *i).unwrap_or(0);
    let slowest = basis.iter().min_by(by_speed).map(|(i, _)| *i).unwrap_or(0);
    let at = |i: usize| {
        let speed = rows.get(i).and_then(|r| r.speed.text()).unwrap_or_default();
        format!("{} at {speed}", layout.label(i))
    };
    let second_half = (layout.uniform && basis.len() >= 4 && matches!(family, Family::Run | Family::Walk))
        .then(|| second_half_change(&basis));
    let verdict = match cv {
        c if c < 2.5 => "very steady",
        c if c < 5.0 => "steady",
        c if c < 8.0 => "somewhat uneven",
        _ => "uneven",
    };
    Some(Steadiness {
        basis: format!("{} {}", basis.len(), layout.compared()),
        variation_pct: (cv * 10.0).round() / 10.0,
        verdict: verdict.to_owned(),
        fastest: at(fastest),
        slowest: at(slowest),
        second_half_vs_first_s_per_km: second_half,
    })
}

/// The coefficient of variation (%) of the pieces, in the sport's own terms: pace (s per m) for
/// runs, walks and swims, speed for rides.
fn variation_pct(basis: &[(usize, &Piece)], family: Family) -> f64 {
    let values: Vec<f64> = basis
        .iter()
        .map(|(_, p)| if family == Family::Ride { p.meters / p.seconds } else { p.seconds / p.meters })
        .collect();
    let mean = values.iter().sum::<f64>() / values.len() as f64;
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / values.len() as f64;
    if mean > 0.0 { var.sqrt() / mean * 100.0 } else { 0.0 }
}

/// The second half's pace minus the first half's, in whole s/km (positive: slower).
fn second_half_change(basis: &[(usize, &Piece)]) -> i32 {
    let half = basis.len() / 2;
    let pace = |part: &[(usize, &Piece)]| {
        let (m, s) = part.iter().fold((0.0, 0.0), |(m, s), (_, p)| (m + p.meters, s + p.seconds));
        s / m * 1000.0
    };
    (pace(&basis[basis.len() - half..]) - pace(&basis[..half])).round() as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lap(meters: f64, seconds: f64, hr: f64, intensity: &str) -> Lap {
        Lap {
            distance: Some(meters),
            duration: Some(seconds),
            average_hr: Some(hr),
            elevation_gain: Some(3.0),
            elevation_loss: Some(1.0),
            intensity_type: Some(intensity.to_owned()),
            ..Lap::default()
        }
    }

    #[test]
    fn auto_laps_become_km_splits_with_a_partial_last_one() {
        let mut laps: Vec<Lap> =
            (0..10).map(|i| lap(1000.0, 300.0 + f64::from(i), 140.0, "ACTIVE")).collect();
        laps.push(lap(420.0, 130.0, 150.0, "ACTIVE"));
        let s = build_splits(&laps, Family::Run).unwrap();
        assert_eq!(s.unit, "km");
        assert_eq!(s.rows.len(), 11);
        assert_eq!(s.rows[10].distance_km, 0.42);
        assert_eq!(s.rows[0].elev_change_m, Some(2));
        assert!(s.rows[0].intensity.is_none());
        let st = s.steadiness.unwrap();
        assert_eq!(st.basis, "10 full km");
        assert_eq!(st.fastest, "km 1 at 5'00\"/km");
        assert_eq!(st.slowest, "km 10 at 5'09\"/km");
        assert_eq!(st.verdict, "very steady");
        assert_eq!(st.second_half_vs_first_s_per_km, Some(5));
    }

    #[test]
    fn workout_laps_stay_laps_and_steadiness_compares_the_reps() {
        let mut laps = vec![lap(2000.0, 700.0, 130.0, "WARMUP")];
        for i in 0..5 {
            laps.push(lap(1000.0, 240.0 + f64::from(i) * 2.0, 170.0, "ACTIVE"));
            laps.push(lap(400.0, 160.0, 140.0, "RECOVERY"));
        }
        let s = build_splits(&laps, Family::Run).unwrap();
        assert_eq!(s.unit, "lap");
        assert_eq!(s.rows[0].intensity.as_deref(), Some("warmup"));
        let st = s.steadiness.unwrap();
        assert_eq!(st.basis, "5 work laps");
        assert!(st.second_half_vs_first_s_per_km.is_none());
    }

    #[test]
    fn pool_rests_fold_into_the_interval_before_them() {
        let laps = vec![
            lap(100.0, 110.0, 130.0, "ACTIVE"),
            Lap { duration: Some(20.0), intensity_type: Some("REST".into()), ..Lap::default() },
            lap(100.0, 112.0, 135.0, "ACTIVE"),
        ];
        let s = build_splits(&laps, Family::Swim).unwrap();
        assert_eq!(s.rows.len(), 2);
        assert_eq!(s.rows[0].rest_s, Some(20));
        assert_eq!(s.rows[0].speed.pace_per_100m.as_deref(), Some("1'50\""));
        assert!(build_splits(&[Lap { duration: Some(60.0), ..Lap::default() }], Family::Other).is_none());
    }

    #[test]
    fn very_long_split_lists_are_merged() {
        let laps: Vec<Lap> = (0..120).map(|_| lap(1000.0, 360.0, 140.0, "ACTIVE")).collect();
        let s = build_splits(&laps, Family::Run).unwrap();
        assert_eq!(s.unit, "3 km");
        assert_eq!(s.rows.len(), 40);
        assert_eq!(s.rows[0].distance_km, 3.0);
    }
}

#[cfg(test)]
mod other_sports {
    use super::*;

    #[test]
    fn laps_of_a_sport_without_a_pace_are_splits_read_as_speed() {
        // Backcountry skiing: five laps of different lengths (a real activity outside run/ride/swim).
        let laps: Vec<Lap> =
            [(2100.0, 1500.0), (900.0, 300.0), (2400.0, 1700.0), (1100.0, 260.0), (500.0, 200.0)]
                .into_iter()
                .map(|(m, s)| Lap { distance: Some(m), duration: Some(s), ..Lap::default() })
                .collect();
        let s = build_splits(&laps, Family::Other).expect("laps with a distance are splits");
        assert_eq!(s.unit, "lap");
        assert_eq!(s.rows.len(), 5);
        assert_eq!(s.rows[1].speed.speed_kmh, Some(10.8));
        assert!(s.rows[1].speed.pace_per_km.is_none());
    }
}
