//! Run: `cargo test -p analytics --test analytics mean_max::`.
//!
//! Golden tests of mean-max curves, their merge, best times over standard distances, and the
//! critical-power fit with its refusals.

use analytics::AnalyticsError;
use analytics::critical_power::critical_power;
use analytics::mean_max::{
    MeanMaxCurve, MeanMaxPoint, RIDE_DISTANCES, STANDARD_DURATIONS, SWIM_DISTANCES, all_standard_distances,
    best_times, best_times_over, mean_max, merge_curves, resample_1hz,
};

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn mean_max_of_a_short_series_matches_the_hand_computed_bests() {
    let c = mean_max(&[100.0, 300.0, 200.0, 0.0, 400.0], &[10, 3, 1, 2, 5, 2, 0]);
    let got: Vec<(u32, f64, u32)> = c.points.iter().map(|p| (p.seconds, p.value, p.start_second)).collect();
    // 1 s: 400 at 4; 2 s: (300+200)/2 at 1; 3 s: 200 at 0 (ties keep the first); 5 s: 1000/5; no 10 s.
    assert_eq!(got, [(1, 400.0, 4), (2, 250.0, 1), (3, 200.0, 0), (5, 200.0, 0)]);
    assert_eq!(c.at(2), Some(250.0));
    assert_eq!(c.at(10), None);
}

#[test]
fn missing_samples_count_as_zero_and_empty_series_give_an_empty_curve() {
    let c = mean_max(&[f64::NAN, 200.0, -50.0, f64::INFINITY], &[1, 2, 4]);
    assert_eq!(c.points.iter().map(|p| p.value).collect::<Vec<_>>(), [200.0, 100.0, 50.0]);
    assert!(mean_max(&[], &STANDARD_DURATIONS).points.is_empty());
    assert!(mean_max(&[100.0; 10], &[]).points.is_empty());
}

#[test]
fn a_steady_hour_has_a_flat_curve_up_to_one_hour() {
    let c = mean_max(&vec![3.2; 3600], &STANDARD_DURATIONS);
    assert_eq!(c.points.last().unwrap().seconds, 3600);
    assert!(c.points.iter().all(|p| close(p.value, 3.2, 1e-9)));
}

#[test]
fn merged_curve_takes_the_highest_value_per_duration_and_names_its_source() {
    let a = mean_max(&[500.0, 100.0, 100.0, 100.0], &[1, 2, 4]); // 500, 300, 200
    let b = mean_max(&[300.0, 300.0, 300.0], &[1, 2, 3]); // 300, 300, 300
    let merged = merge_curves([&a, &b]);
    let got: Vec<(u32, f64, usize)> = merged.points.iter().map(|p| (p.seconds, p.value, p.source)).collect();
    assert_eq!(got, [(1, 500.0, 0), (2, 300.0, 0), (3, 300.0, 1), (4, 200.0, 0)]);
    let bad = MeanMaxCurve {
        points: vec![MeanMaxPoint { seconds: 1, value: f64::NAN, start_second: 0 }],
        ..MeanMaxCurve::default()
    };
    assert_eq!(merge_curves([&bad]).points, []);
    assert!(merge_curves(std::iter::empty()).points.is_empty());
}

#[test]
fn best_times_interpolate_the_start_between_samples() {
    // 400 m: from 350 m to 800 m takes 100 s, so 400 m ending at 200 s starts at 100 + 100·50/450.
    // 1 km: ending at 300 s (1200 m), starting at 200 m, i.e. at 100·200/350 s.
    let best = best_times(&[(0.0, 0.0), (100.0, 350.0), (200.0, 800.0), (300.0, 1200.0)]).times;
    assert_eq!(best.iter().map(|b| b.label).collect::<Vec<_>>(), ["400 m", "1 km"]);
    assert!(close(best[0].seconds, 200.0 - (100.0 + 100.0 * 50.0 / 450.0), 1e-9), "{best:?}");
    assert!(close(best[0].start_second, 100.0 + 100.0 * 50.0 / 450.0, 1e-9));
    assert!(close(best[1].seconds, 300.0 - 100.0 * 200.0 / 350.0, 1e-9), "{best:?}");
}

#[test]
fn best_times_of_an_even_run_are_distance_over_speed() {
    // 12 km at 4 m/s sampled every second.
    let series: Vec<(f64, f64)> = (0..=3000).map(|s| (f64::from(s), 4.0 * f64::from(s))).collect();
    let best = best_times(&series).times;
    let got: Vec<(&str, f64)> = best.iter().map(|b| (b.label, b.seconds)).collect();
    assert_eq!(got.len(), 5, "no half marathon in 12 km");
    for (label, seconds) in got {
        let meters = best.iter().find(|b| b.label == label).unwrap().meters;
        assert!(close(seconds, meters / 4.0, 1e-6), "{label}: {seconds}");
    }
}

#[test]
fn best_times_skip_bad_samples_and_never_panic() {
    assert!(best_times(&[]).times.is_empty());
    assert!(best_times(&[(0.0, 0.0)]).times.is_empty());
    // A GPS step back and a sample out of time order are ignored.
    let best = best_times(&[
        (0.0, 0.0),
        (50.0, 200.0),
        (60.0, 150.0),
        (40.0, 900.0),
        (f64::NAN, 1.0),
        (100.0, 400.0),
    ])
    .times;
    assert_eq!(best.len(), 1);
    assert!(close(best[0].seconds, 100.0, 1e-9), "{best:?}");
}

#[test]
fn critical_power_recovers_cp_and_w_prime_from_a_model_curve() {
    // P = 20 000/t + 250 exactly; points outside 2–20 min are ignored however odd.
    let mut curve: Vec<(u32, f64)> = [120u32, 180, 300, 480, 600, 900, 1200]
        .iter()
        .map(|&s| (s, 20_000.0 / f64::from(s) + 250.0))
        .collect();
    curve.extend([(60, 2000.0), (3600, 10.0), (300, 100.0)]);
    let fit = critical_power(&curve).unwrap();
    assert!(close(fit.cp_watts, 250.0, 1e-6) && close(fit.w_prime_joules, 20_000.0, 1e-3), "{fit:?}");
    assert!(close(fit.r_squared_work, 1.0, 1e-12) && close(fit.r_squared_power, 1.0, 1e-9));
    assert_eq!(fit.durations, [120, 180, 300, 480, 600, 900, 1200]);
    assert!(close(fit.power_at(240.0), 20_000.0 / 240.0 + 250.0, 1e-6));
    assert!(fit.convention.contains("Monod"));
}

#[test]
fn critical_power_of_a_realistic_curve_is_plausible() {
    let curve = [
        (120, 400.0),
        (180, 360.0),
        (300, 320.0),
        (480, 300.0),
        (600, 290.0),
        (720, 290.0),
        (900, 280.0),
        (1200, 270.0),
    ];
    let fit = critical_power(&curve).unwrap();
    // Least squares by hand (Σt = 4500, …): CP 257.1 W, W′ 19 348 J.
    assert!(close(fit.cp_watts, 257.1, 0.1) && close(fit.w_prime_joules, 19_348.0, 1.0), "{fit:?}");
}

fn refusal(curve: &[(u32, f64)]) -> String {
    match critical_power(curve) {
        Err(AnalyticsError::Unsupported(why)) => why,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn critical_power_says_when_the_data_cannot_support_a_fit() {
    assert!(refusal(&[]).contains("3 or more durations"));
    assert!(refusal(&[(120, 400.0), (600, 300.0), (30, 600.0)]).contains("the curve has 2"));
    assert!(refusal(&[(120, 400.0), (150, 380.0), (200, 370.0)]).contains("factor 2"));
    // Flat until 15 min then a drop: shorter efforts were not all-out.
    let flat = [
        (120, 300.0),
        (180, 300.0),
        (300, 298.0),
        (480, 297.0),
        (600, 296.0),
        (720, 296.0),
        (900, 295.0),
        (1200, 250.0),
    ];
    assert!(refusal(&flat).contains("poorly"), "{}", refusal(&flat));
    // Rising power with duration: W′ would be negative.
    let rising = [(120, 250.0), (300, 270.0), (600, 290.0), (1200, 300.0)];
    assert!(refusal(&rising).contains("not positive"), "{}", refusal(&rising));
    assert!(refusal(&[(120, f64::NAN), (300, -1.0), (600, f64::INFINITY)]).contains("the curve has 0"));
}

#[test]
fn resampling_interpolates_5_s_rows_to_whole_seconds_and_counts_missing_values_as_zero() {
    // Rows at 0, 5, 10 s: 100 → 200 → (missing = 0). Hand-computed: 100,120,140,160,180,200,160,120,80,40,0.
    let got = resample_1hz(&[(0.0, Some(100.0)), (5.0, Some(200.0)), (5.0, Some(999.0)), (10.0, None)], 100);
    assert_eq!(got, [100.0, 120.0, 140.0, 160.0, 180.0, 200.0, 160.0, 120.0, 80.0, 40.0, 0.0]);
    assert_eq!(resample_1hz(&[(0.0, Some(1.0)), (10.0, Some(1.0))], 4).len(), 4, "capped");
    assert!(resample_1hz(&[], 10).is_empty());
    assert!(resample_1hz(&[(f64::NAN, Some(1.0))], 10).is_empty());
    // A row offset (timer starting at 3 s) keeps its own clock.
    assert_eq!(resample_1hz(&[(3.0, Some(10.0)), (4.0, Some(20.0))], 10), [10.0, 20.0]);
}

#[test]
fn best_times_over_ride_and_swim_distances_use_the_given_list() {
    // 10 m/s for 2000 s: 20 km in 2000 s, 5 km in 500 s; nothing for 40 km.
    let ride: Vec<(f64, f64)> = (0..=2000).map(|t| (f64::from(t), 10.0 * f64::from(t))).collect();
    let got = best_times_over(&ride, &RIDE_DISTANCES);
    let labels: Vec<(&str, f64)> = got.times.iter().map(|t| (t.label, t.seconds)).collect();
    assert_eq!(labels, [("5 km", 500.0), ("10 km", 1000.0), ("20 km", 2000.0)]);
    // 1 m/s swim of 450 m: 100, 200, 400 m.
    let swim: Vec<(f64, f64)> = (0..=450).map(|t| (f64::from(t), f64::from(t))).collect();
    assert_eq!(best_times_over(&swim, &SWIM_DISTANCES).times.len(), 3);
    let all = all_standard_distances();
    assert!(all.windows(2).all(|w| w[0].0 < w[1].0), "sorted, each once: {all:?}");
    assert_eq!(all.iter().filter(|d| d.0 == 400.0).count(), 1);
}
