//! Run: `cargo test -p analytics --test analytics acwr::`.
//!
//! Golden tests of the acute:chronic workload ratio (rolling and EWMA), its bands, and Foster's
//! monotony and strain, on hand-computed weeks.

use analytics::DailyLoad;
use analytics::acwr::{AcwrBand, MONOTONY_CAP, MonotonyLevel, acute_chronic, monotony_strain, week_monotony};
use chrono::{Days, NaiveDate};

fn start() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 1, 1).unwrap()
}

fn days(loads: &[f64]) -> Vec<DailyLoad> {
    loads
        .iter()
        .enumerate()
        .map(|(i, &load)| DailyLoad { date: start() + Days::new(i as u64), load })
        .collect()
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn empty_input_gives_empty_series() {
    assert!(acute_chronic(&[], None).unwrap().days.is_empty());
    assert!(monotony_strain(&[], None).unwrap().days.is_empty());
}

#[test]
fn rolling_ratio_needs_28_days_and_is_one_for_a_constant_load() {
    let s = acute_chronic(&days(&[10.0; 28]), None).unwrap();
    assert!(s.days[..27].iter().all(|d| d.rolling.is_none()));
    let r = s.days[27].rolling.unwrap();
    assert_eq!((r.acute, r.chronic), (70.0, 70.0));
    assert_eq!(r.ratio, Some(1.0));
    assert_eq!(r.band, Some(AcwrBand::Productive));
}

#[test]
fn a_hard_week_after_three_rest_weeks_is_a_high_risk_spike() {
    // 21 rest days then 7 days of 40: acute 280, chronic 280/4 = 70, ratio 4.
    let mut loads = vec![0.0; 21];
    loads.extend([40.0; 7]);
    let s = acute_chronic(&days(&loads), None).unwrap();
    let r = s.days[27].rolling.unwrap();
    assert_eq!(r.ratio, Some(4.0));
    assert_eq!(r.band, Some(AcwrBand::HighRisk));
}

#[test]
fn rest_days_through_the_window_give_no_ratio_rather_than_a_division_by_zero() {
    let mut loads = vec![50.0];
    loads.extend([0.0; 40]);
    let s = acute_chronic(&days(&loads), None).unwrap();
    let last = s.days.last().unwrap();
    assert_eq!(last.rolling.unwrap().ratio, None, "28 rest days: chronic 0, no ratio");
    assert!(last.ewma.ratio.unwrap().is_finite());
}

#[test]
fn ewma_first_day_and_constant_load_match_the_hand_computed_values() {
    // Day 1 with 100: acute = 100·2/8 = 25, chronic = 100·2/29 = 6.89655, ratio 3.625.
    let s = acute_chronic(&days(&[100.0]), None).unwrap();
    let e = s.days[0].ewma;
    assert!(close(e.acute, 25.0, 1e-12) && close(e.chronic, 200.0 / 29.0, 1e-12), "{e:?}");
    assert!(close(e.ratio.unwrap(), 3.625, 1e-12));
    assert!(s.days[0].settling);
    // Constant L: EWMA_n = L·(1 − (1 − λ)^n).
    let s = acute_chronic(&days(&[60.0; 100]), None).unwrap();
    for (i, d) in s.days.iter().enumerate() {
        let n = (i + 1) as i32;
        assert!(close(d.ewma.acute, 60.0 * (1.0 - 0.75f64.powi(n)), 1e-9));
        assert!(close(d.ewma.chronic, 60.0 * (1.0 - (27.0f64 / 29.0).powi(n)), 1e-9));
    }
    assert!(!s.days[28].settling && s.days[27].settling);
    assert!(s.convention.contains("Williams") && s.convention.contains("Gabbett"));
}

#[test]
fn bands_follow_the_stated_boundaries() {
    let cases = [
        (0.0, AcwrBand::Under),
        (0.79, AcwrBand::Under),
        (0.8, AcwrBand::Productive),
        (1.3, AcwrBand::Productive),
        (1.31, AcwrBand::Caution),
        (1.5, AcwrBand::Caution),
        (1.51, AcwrBand::HighRisk),
    ];
    for (ratio, band) in cases {
        assert_eq!(AcwrBand::of(ratio), Some(band), "{ratio}");
    }
    assert_eq!(AcwrBand::of(f64::NAN), None);
    assert_eq!(AcwrBand::of(-1.0), None);
}

#[test]
fn monotony_of_alternating_days_matches_the_hand_computed_value() {
    // 100, 0, 100, 0, 100, 0, 100: mean 57.143, population SD 49.487, monotony 1.1547, strain 461.88.
    let (total, m) = week_monotony(&[100.0, 0.0, 100.0, 0.0, 100.0, 0.0, 100.0]);
    assert_eq!(total, 400.0);
    assert!(close(m.unwrap(), 1.154_70, 1e-5));
    let s = monotony_strain(&days(&[60.0, 30.0, 90.0, 0.0, 45.0, 120.0, 0.0]), None).unwrap();
    assert_eq!(s.days.len(), 1, "one full week");
    let d = s.days[0];
    assert_eq!(d.weekly_load, 345.0);
    assert!(close(d.monotony.unwrap(), 1.189_30, 1e-5) && close(d.strain.unwrap(), 410.309, 1e-3), "{d:?}");
    assert_eq!(d.level, Some(MonotonyLevel::Varied));
}

#[test]
fn identical_days_are_capped_at_ten_and_a_rest_week_has_no_monotony() {
    let s = monotony_strain(&days(&[50.0; 7]), None).unwrap();
    assert_eq!(s.days[0].monotony, Some(MONOTONY_CAP));
    assert_eq!(s.days[0].strain, Some(3500.0));
    assert_eq!(s.days[0].level, Some(MonotonyLevel::High));
    let s = monotony_strain(&days(&[0.0; 7]), None).unwrap();
    assert_eq!((s.days[0].monotony, s.days[0].strain, s.days[0].level), (None, None, None));
    assert_eq!(MonotonyLevel::of(1.5), MonotonyLevel::Warn);
    assert_eq!(MonotonyLevel::of(2.0), MonotonyLevel::High);
    assert_eq!(week_monotony(&[f64::NAN, -3.0]), (0.0, None));
}

#[test]
fn last_day_extends_the_series_through_rest_days() {
    let loads = days(&[70.0]);
    let s = acute_chronic(&loads, Some(start() + Days::new(34))).unwrap();
    assert_eq!(s.days.len(), 35);
    // Day 28: a rest week against a chronic load of 70/4.
    let r = s.days[27].rolling.unwrap();
    assert_eq!((r.acute, r.chronic, r.ratio, r.band), (0.0, 17.5, Some(0.0), Some(AcwrBand::Under)));
    let m = monotony_strain(&loads, Some(start() + Days::new(9))).unwrap();
    assert_eq!(m.days.len(), 4);
}

#[test]
fn bad_loads_never_panic_and_are_counted() {
    let s = acute_chronic(&days(&[f64::NAN, f64::NEG_INFINITY, -1.0, 10.0]), None).unwrap();
    assert_eq!(s.ignored_loads, 3);
    assert!(s.days.iter().all(|d| d.ewma.acute.is_finite()));
}
