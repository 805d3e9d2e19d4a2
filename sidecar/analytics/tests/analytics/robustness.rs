//! Run: `cargo test -p analytics --test analytics robustness::`.
//!
//! Nothing in the crate panics on what a watch or a user sends: every public function is fed
//! empty input, NaN, infinities, negatives and extreme values, in many random mixes.

use analytics::DailyLoad;
use analytics::acwr::{acute_chronic, monotony_strain, week_monotony};
use analytics::compare::{ActivityFacts, PeriodTotals, compare_periods, plan_vs_actual};
use analytics::critical_power::critical_power;
use analytics::efficiency::{
    Effort, OutputKind, SpeedAndHr, decoupling, efficiency, speed_at_heart_rate, steadiness,
};
use analytics::intensity::{polarization_index, three_zones_from_five, zone_distribution};
use analytics::load::{
    HrBin, HrProfile, SessionLoads, Sex, daily_loads, hr_bins_from_zones, hr_histogram, hr_load,
    normalized_power, power_load, power_load_from_np,
};
use analytics::mean_max::{STANDARD_DURATIONS, best_times, mean_max, merge_curves};
use analytics::pmc::{PmcConstants, performance_management, performance_management_until};
use chrono::{Days, NaiveDate};

const ODD: [f64; 9] = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -1.0, 0.0, 1e-300, 1e300, f64::MAX, 150.0];

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
    fn value(&mut self) -> f64 {
        let i = self.next() as usize;
        if i.is_multiple_of(3) { ODD[i % ODD.len()] } else { (i % 400) as f64 }
    }
    fn series(&mut self, max_len: usize) -> Vec<f64> {
        let n = self.next() as usize % max_len;
        (0..n).map(|_| self.value()).collect()
    }
}

#[test]
fn every_function_survives_random_garbage() {
    let mut rng = Rng(2026);
    let first = NaiveDate::from_ymd_opt(2020, 1, 1).unwrap();
    for _ in 0..300 {
        let a = rng.series(2500);
        let b = rng.series(2500);
        let loads: Vec<DailyLoad> = a
            .iter()
            .take(200)
            .map(|&load| DailyLoad { date: first + Days::new(rng.next() % 400), load })
            .collect();
        let c = PmcConstants { ctl_days: rng.value(), atl_days: rng.value(), ..PmcConstants::default() };
        let _ = performance_management(&loads, &c);
        let _ = performance_management_until(
            &loads,
            &PmcConstants::default(),
            first + Days::new(rng.next() % 900),
        );
        let _ = acute_chronic(&loads, None);
        let _ = monotony_strain(&loads, Some(first));
        let _ = week_monotony(&b);
        let _ = normalized_power(&a);
        let _ = power_load(&a, rng.value());
        let _ = power_load_from_np(rng.value(), rng.value(), rng.value());
        let profile = HrProfile {
            resting_bpm: rng.value(),
            max_bpm: rng.value(),
            threshold_bpm: rng.value(),
            sex: Sex::Female,
        };
        let bins: Vec<HrBin> = a.iter().zip(&b).map(|(&bpm, &seconds)| HrBin { bpm, seconds }).collect();
        let _ = hr_load(&bins, &profile);
        let _ = hr_histogram(&a);
        let zones: Vec<(f64, f64)> = a.iter().zip(&b).map(|(&f, &s)| (f, s)).collect();
        let _ = hr_bins_from_zones(&zones, rng.value());
        let sessions: Vec<SessionLoads> = loads
            .iter()
            .map(|d| SessionLoads {
                date: d.date,
                power_tss: Some(rng.value()),
                hr_tss: None,
                garmin: Some(rng.value()),
            })
            .collect();
        let _ = daily_loads(&sessions, analytics::load::LoadChoice::Auto);
        let curve = mean_max(&a, &STANDARD_DURATIONS);
        let merged = merge_curves([&curve, &mean_max(&b, &[1, 2, 3, 0, u32::MAX])]);
        let _ = critical_power(&merged.pairs());
        let pairs: Vec<(f64, f64)> = a.iter().zip(&b).map(|(&t, &d)| (t, d)).collect();
        let _ = best_times(&pairs);
        let kind = if rng.next().is_multiple_of(2) { OutputKind::Power } else { OutputKind::Speed };
        let effort = Effort { kind, output: &a, heart_rate: &b, grade: Some(&b) };
        let _ = efficiency(&effort);
        let _ = steadiness(&effort);
        let _ = decoupling(&effort);
        let acts: Vec<SpeedAndHr> = loads
            .iter()
            .map(|d| SpeedAndHr { date: d.date, speed_mps: d.load, average_hr: rng.value() })
            .collect();
        let _ = speed_at_heart_rate(&acts, rng.value(), rng.value());
        let _ = zone_distribution(&a, rng.next() as usize);
        let _ = polarization_index([rng.value(), rng.value(), rng.value()]);
        let _ = three_zones_from_five([rng.value(), rng.value(), rng.value(), rng.value(), rng.value()]);
        let _ = plan_vs_actual(rng.value(), rng.value());
        let facts: Vec<ActivityFacts> = a
            .iter()
            .map(|&x| ActivityFacts {
                duration_s: x,
                distance_m: rng.value(),
                load: Some(x),
                low_zone_s: Some(rng.value()),
                zone_s: Some(x),
                ef: Some(rng.value()),
            })
            .collect();
        let t = PeriodTotals::from_activities(&facts);
        let _ = compare_periods(&t, &PeriodTotals::default(), Some((&merged, &merged)));
    }
}

#[test]
fn pmc_days_serialise_as_one_object_per_day_with_its_date() {
    let day = NaiveDate::from_ymd_opt(2026, 1, 1).unwrap();
    let pmc =
        performance_management(&[DailyLoad { date: day, load: 100.0 }], &PmcConstants::default()).unwrap();
    let json = serde_json::to_value(&pmc).unwrap();
    let first = &json["days"][0];
    assert_eq!(first["date"], "2026-01-01");
    for key in ["load", "ctl", "atl", "tsb", "settling"] {
        assert!(first.get(key).is_some(), "{key} missing in {first}");
    }
    assert_eq!(first["ramp"], serde_json::Value::Null);
    assert!(json["convention"].as_str().unwrap().contains("Coggan"));
    let pi = serde_json::to_value(polarization_index([80.0, 5.0, 15.0])).unwrap();
    assert_eq!(pi["polarized"], true);
}
