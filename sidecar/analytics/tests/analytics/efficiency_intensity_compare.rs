//! Run: `cargo test -p analytics --test analytics efficiency_intensity_compare::`.
//!
//! Golden tests of efficiency and decoupling (with the steadiness test), speed at a heart rate,
//! intensity distribution and the polarization index's edge cases, plan-vs-actual colours and the
//! period comparison.

use analytics::AnalyticsError;
use analytics::compare::{ActivityFacts, Compliance, PeriodTotals, compare_periods, plan_vs_actual};
use analytics::efficiency::{
    Effort, OutputKind, SpeedAndHr, decoupling, efficiency, grade_adjusted_speed, minetti_cost,
    speed_at_heart_rate,
};
use analytics::intensity::{polarization_index, three_zones_from_five, zone_distribution};
use analytics::mean_max::{mean_max, merge_curves};
use chrono::NaiveDate;

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

fn run<'a>(speed: &'a [f64], hr: &'a [f64]) -> Effort<'a> {
    Effort { kind: OutputKind::Speed, output: speed, heart_rate: hr, grade: None }
}

#[test]
fn ef_of_a_steady_run_and_ride_matches_the_hand_computed_value() {
    // 3 m/s = 180 m/min at 150 bpm: EF 1.2.
    let (speed, hr) = (vec![3.0; 1800], vec![150.0; 1800]);
    let ef = efficiency(&run(&speed, &hr)).unwrap();
    assert!(close(ef.ef, 1.2, 1e-12) && ef.unit == "(m/min)/bpm", "{ef:?}");
    // 200 W at 140 bpm: NP 200, EF 1.428 57 W/bpm.
    let (watts, hr) = (vec![200.0; 3600], vec![140.0; 3600]);
    let ef = efficiency(&Effort { kind: OutputKind::Power, output: &watts, heart_rate: &hr, grade: None })
        .unwrap();
    assert!(close(ef.ef, 200.0 / 140.0, 1e-9) && ef.unit == "W/bpm", "{ef:?}");
}

#[test]
fn minetti_grade_adjustment_matches_the_polynomial() {
    assert!(close(minetti_cost(0.0), 3.6, 1e-12));
    // C(0.1) = 0.001554 − 0.00304 − 0.0433 + 0.463 + 1.95 + 3.6 = 5.968214.
    assert!(close(minetti_cost(0.1), 5.968_214, 1e-9));
    assert!(close(grade_adjusted_speed(3.0, 0.1), 3.0 * 5.968_214 / 3.6, 1e-9));
    assert_eq!(minetti_cost(0.9), minetti_cost(0.45), "clamped to the measured range");
    assert_eq!(minetti_cost(f64::NAN), 3.6);
    let (speed, hr, grade) = (vec![3.0; 600], vec![150.0; 600], vec![0.1; 600]);
    let uphill = Effort { grade: Some(&grade), ..run(&speed, &hr) };
    assert!(close(efficiency(&uphill).unwrap().output, 3.0 * 5.968_214 / 3.6 * 60.0, 1e-6));
}

#[test]
fn decoupling_of_a_steady_run_with_heart_rate_drift() {
    // 150 then 157.5 bpm at 3 m/s: EF 1.2 then 1.142 857, decoupling 4.76 % (good).
    let speed = vec![3.0; 3600];
    let mut hr = vec![150.0; 1800];
    hr.extend([157.5; 1800]);
    let d = decoupling(&run(&speed, &hr)).unwrap();
    assert!(close(d.ef_first_half, 1.2, 1e-12) && close(d.ef_second_half, 180.0 / 157.5, 1e-12));
    assert!(close(d.decoupling_percent, 100.0 * (1.2 - 180.0 / 157.5) / 1.2, 1e-9) && d.good, "{d:?}");
    assert!(d.steadiness.steady && d.steadiness.cv == 0.0);
    // 165 bpm in the second half: 9.09 %, not good.
    hr[1800..].fill(165.0);
    let d = decoupling(&run(&speed, &hr)).unwrap();
    assert!(close(d.decoupling_percent, 100.0 / 11.0, 1e-9) && !d.good, "{d:?}");
}

#[test]
fn decoupling_refuses_short_or_unsteady_efforts_and_says_why() {
    let (speed, hr) = (vec![3.0; 600], vec![150.0; 600]);
    let Err(AnalyticsError::Unsupported(why)) = decoupling(&run(&speed, &hr)) else {
        panic!("short effort accepted")
    };
    assert!(why.contains("20 min"), "{why}");
    // Intervals: alternating minutes at 2 and 4 m/s (CV 1/3).
    let speed: Vec<f64> = (0..3600).map(|s| if (s / 60) % 2 == 0 { 2.0 } else { 4.0 }).collect();
    let hr = vec![150.0; 3600];
    let Err(AnalyticsError::Unsupported(why)) = decoupling(&run(&speed, &hr)) else {
        panic!("intervals accepted")
    };
    assert!(why.contains("not steady") && why.contains("33 %"), "{why}");
}

#[test]
fn efficiency_without_heart_rate_or_samples_is_refused_not_a_panic() {
    assert!(matches!(efficiency(&run(&[3.0; 100], &[0.0; 100])), Err(AnalyticsError::NotEnoughData(_))));
    assert!(efficiency(&run(&[], &[])).is_err());
    assert!(decoupling(&run(&[f64::NAN; 2000], &[f64::NAN; 2000])).is_err());
    let power =
        Effort { kind: OutputKind::Power, output: &[200.0; 10], heart_rate: &[140.0; 10], grade: None };
    assert!(efficiency(&power).is_err());
}

fn day(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
}

#[test]
fn speed_at_heart_rate_scales_each_close_activity_to_the_target_per_month() {
    let acts = [
        SpeedAndHr { date: day("2026-01-05"), speed_mps: 3.0, average_hr: 150.0 },
        SpeedAndHr { date: day("2026-01-20"), speed_mps: 3.3, average_hr: 155.0 },
        SpeedAndHr { date: day("2026-02-02"), speed_mps: 3.2, average_hr: 140.0 },
        SpeedAndHr { date: day("2026-02-10"), speed_mps: 3.4, average_hr: 148.0 },
        SpeedAndHr { date: day("2026-02-11"), speed_mps: f64::NAN, average_hr: 150.0 },
    ];
    let trend = speed_at_heart_rate(&acts, 150.0, 5.0).unwrap();
    assert!(trend.convention.contains("EF × target"));
    let months = trend.months;
    assert_eq!(
        months.iter().map(|m| (m.month.as_str(), m.activities)).collect::<Vec<_>>(),
        [("2026-01", 2), ("2026-02", 1)]
    );
    assert!(close(months[0].speed_mps, (3.0 + 3.3 * 150.0 / 155.0) / 2.0, 1e-12));
    assert!(close(months[1].speed_mps, 3.4 * 150.0 / 148.0, 1e-12));
    assert!(speed_at_heart_rate(&acts, 0.0, 5.0).is_err());
    assert!(speed_at_heart_rate(&acts, 150.0, f64::NAN).is_err());
}

#[test]
fn zone_fractions_and_low_share() {
    let d = zone_distribution(&[600.0, 1200.0, 600.0, 300.0, 300.0], 2);
    assert_eq!(d.total_seconds, 3000.0);
    assert_eq!(d.fractions, [0.2, 0.4, 0.2, 0.1, 0.1]);
    assert!(close(d.low_share, 0.6, 1e-12));
    let empty = zone_distribution(&[0.0, f64::NAN, -5.0], 1);
    assert_eq!((empty.total_seconds, empty.low_share), (0.0, 0.0));
    assert_eq!(zone_distribution(&[], 2).low_zones, 0);
    assert_eq!(three_zones_from_five([600.0, 1200.0, 600.0, 300.0, f64::NAN]), [1800.0, 600.0, 300.0]);
}

#[test]
fn polarization_index_of_polarised_and_pyramidal_weeks() {
    // 80/5/15: log10(0.8/0.05 × 0.15 × 100) = log10(240) = 2.380 → polarised.
    let pi = polarization_index([80.0, 5.0, 15.0]);
    assert!(close(pi.value.unwrap(), 240f64.log10(), 1e-12) && pi.polarized && !pi.z2_floored, "{pi:?}");
    // 75/20/5: log10(18.75) = 1.273 → not polarised (pyramidal).
    let pi = polarization_index([0.75, 0.2, 0.05]);
    assert!(close(pi.value.unwrap(), 18.75f64.log10(), 1e-12) && !pi.polarized);
}

#[test]
fn polarization_index_edge_cases_are_as_stated() {
    // Z2 = 0: taken as 0.01 → log10(0.9/0.01 × 0.1 × 100) = log10(900).
    let pi = polarization_index([90.0, 0.0, 10.0]);
    assert!(pi.z2_floored && close(pi.value.unwrap(), 900f64.log10(), 1e-12) && pi.polarized, "{pi:?}");
    assert!(pi.note.contains("0.01"));
    // Z3 = 0, Z1 = 0, nothing: undefined and not polarised.
    for zones in [[90.0, 10.0, 0.0], [0.0, 10.0, 90.0], [0.0, 0.0, 0.0], [f64::NAN, -1.0, f64::INFINITY]] {
        let pi = polarization_index(zones);
        assert!(pi.value.is_none() && !pi.polarized, "{zones:?}: {pi:?}");
        assert!(!pi.note.is_empty());
    }
}

#[test]
fn plan_vs_actual_colours_follow_the_whole_percent_bands() {
    let cases = [
        (3600.0, Compliance::Green),
        (2880.0, Compliance::Green),  // 80 %
        (2870.0, Compliance::Green),  // 79.7 % rounds to 80
        (2850.0, Compliance::Yellow), // 79 %
        (4320.0, Compliance::Green),  // 120 %
        (4356.0, Compliance::Yellow), // 121 %
        (5400.0, Compliance::Yellow), // 150 %
        (5436.0, Compliance::Red),    // 151 %
        (1800.0, Compliance::Yellow), // 50 %
        (1780.0, Compliance::Red),    // 49 %
        (0.0, Compliance::Red),
        (f64::NAN, Compliance::Red),
    ];
    for (actual, colour) in cases {
        assert_eq!(plan_vs_actual(3600.0, actual).unwrap().compliance, colour, "{actual}");
    }
    assert_eq!(plan_vs_actual(3600.0, 2870.0).unwrap().percent, 80);
    let err = plan_vs_actual(0.0, 100.0).unwrap_err();
    assert!(err.to_string().contains("planned"), "{err}");
    assert_eq!(plan_vs_actual(1e-300, 1e300).unwrap().compliance, Compliance::Red);
}

#[test]
fn two_periods_compare_volume_intensity_load_efficiency_and_best_efforts() {
    let a = PeriodTotals::from_activities(&[
        ActivityFacts {
            duration_s: 3600.0,
            distance_m: 10_000.0,
            load: Some(60.0),
            low_zone_s: Some(3000.0),
            zone_s: Some(3600.0),
            ef: Some(1.2),
        },
        ActivityFacts {
            duration_s: 1800.0,
            distance_m: 5000.0,
            load: None,
            low_zone_s: None,
            zone_s: None,
            ef: Some(1.5),
        },
    ]);
    assert_eq!((a.activities, a.duration_s, a.distance_m, a.load), (2, 5400.0, 15_000.0, 60.0));
    assert!(close(a.low_intensity_share.unwrap(), 3000.0 / 3600.0, 1e-12));
    // Duration-weighted: (1.2·3600 + 1.5·1800) / 5400 = 1.3.
    assert!(close(a.efficiency.unwrap(), 1.3, 1e-12));
    let b = PeriodTotals::from_activities(&[ActivityFacts {
        duration_s: 8100.0,
        distance_m: 24_000.0,
        load: Some(90.0),
        low_zone_s: Some(4050.0),
        zone_s: Some(8100.0),
        ef: Some(1.43),
    }]);
    let curve_a = merge_curves([&mean_max(&[300.0; 60], &[1, 60])]);
    let curve_b = merge_curves([&mean_max(&[330.0; 30], &[1, 30])]);
    let c = compare_periods(&a, &b, Some((&curve_a, &curve_b)));
    assert_eq!(c.activities.difference, -1.0);
    assert_eq!(c.duration_s.percent, Some(50.0));
    assert_eq!(c.distance_m.percent, Some(60.0));
    assert_eq!(c.load.percent, Some(50.0));
    assert!(close(c.low_intensity_share_points.unwrap(), 100.0 * (0.5 - 3000.0 / 3600.0), 1e-9));
    assert!(close(c.efficiency.unwrap().percent.unwrap(), 10.0, 1e-9));
    assert_eq!(c.best_efforts.len(), 1, "only the 1 s duration is in both curves");
    assert!(close(c.best_efforts[0].change.percent.unwrap(), 10.0, 1e-9));
    let empty = compare_periods(&PeriodTotals::default(), &b, None);
    assert_eq!((empty.load.percent, empty.efficiency, empty.best_efforts.len()), (None, None, 0));
}
