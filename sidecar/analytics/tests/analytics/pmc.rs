//! Run: `cargo test -p analytics --test analytics pmc::`.
//!
//! Golden tests of the performance management chart: hand-computed first days, rest days, a gap of
//! weeks, the closed form of a constant load, and a series recomputed independently here with the
//! stated constants. Bad input never panics.

use analytics::pmc::{PmcConstants, TsbConvention, performance_management, performance_management_until};
use analytics::{AnalyticsError, DailyLoad};
use chrono::NaiveDate;

fn day(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
}

fn load(date: &str, load: f64) -> DailyLoad {
    DailyLoad { date: day(date), load }
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn empty_input_gives_an_empty_series_with_its_convention() {
    let pmc = performance_management(&[], &PmcConstants::default()).unwrap();
    assert!(pmc.days.is_empty());
    assert!(pmc.convention.contains("42") && pmc.convention.contains("7 days"), "{}", pmc.convention);
}

#[test]
fn first_day_of_100_gives_hand_computed_ctl_atl_and_tsb() {
    // CTL = 100·(1 − e^(−1/42)) = 2.35283, ATL = 100·(1 − e^(−1/7)) = 13.31221 (hand computed).
    let same = PmcConstants { tsb: TsbConvention::SameDay, ..PmcConstants::default() };
    let pmc = performance_management(&[load("2026-01-01", 100.0)], &same).unwrap();
    assert_eq!(pmc.days.len(), 1);
    let d = pmc.days[0];
    assert_eq!(d.date, day("2026-01-01"));
    assert!(close(d.ctl, 2.352_83, 1e-5), "{}", d.ctl);
    assert!(close(d.atl, 13.312_21, 1e-5), "{}", d.atl);
    assert!(close(d.tsb, -10.959_38, 1e-5), "same-day TSB {}", d.tsb);
    assert_eq!(d.ramp, None);
    assert!(d.settling);

    // Following day (default): the first day's form is the starting form, 0.
    let pmc = performance_management(&[load("2026-01-01", 100.0)], &PmcConstants::default()).unwrap();
    assert_eq!(pmc.days[0].tsb, 0.0);
    assert!(pmc.convention.contains("yesterday"), "{}", pmc.convention);
}

#[test]
fn following_day_tsb_is_yesterdays_ctl_minus_atl() {
    let loads: Vec<_> = (1..=20).map(|i| load(&format!("2026-03-{i:02}"), f64::from(i * 7 % 90))).collect();
    let pmc = performance_management(&loads, &PmcConstants::default()).unwrap();
    for w in pmc.days.windows(2) {
        assert!(close(w[1].tsb, w[0].ctl - w[0].atl, 1e-12));
    }
}

#[test]
fn rest_days_and_a_gap_of_weeks_are_filled_with_zero_load_and_decay() {
    // 100 on 1 January, nothing for three weeks, 50 on 23 January.
    let pmc = performance_management(
        &[load("2026-01-23", 50.0), load("2026-01-01", 100.0)],
        &PmcConstants::default(),
    )
    .unwrap();
    assert_eq!(pmc.days.len(), 23, "every calendar day from the first to the last");
    for (i, d) in pmc.days.iter().enumerate() {
        assert_eq!(d.date, day("2026-01-01") + chrono::Days::new(i as u64));
    }
    assert!(pmc.days[1..22].iter().all(|d| d.load == 0.0));
    // After 21 rest days: CTL = 2.35283·e^(−21/42) = 1.42706, ATL = 13.31221·e^(−21/7) = 0.66278.
    let d21 = pmc.days[21];
    assert!(close(d21.ctl, 1.427_06, 1e-5), "{}", d21.ctl);
    assert!(close(d21.atl, 0.662_78, 1e-5), "{}", d21.atl);
    let k = (-1.0f64 / 42.0).exp();
    assert!(close(pmc.days[22].ctl, d21.ctl * k + 50.0 * (1.0 - k), 1e-12));
}

#[test]
fn constant_load_follows_the_closed_form_and_not_the_2_over_n_plus_1_smoothing() {
    // Constant L from 0: CTL_n = L·(1 − e^(−n/42)), ATL_n = L·(1 − e^(−n/7)).
    let start = day("2021-01-01");
    let loads: Vec<_> =
        (0..365).map(|i| DailyLoad { date: start + chrono::Days::new(i), load: 80.0 }).collect();
    let pmc = performance_management(&loads, &PmcConstants::default()).unwrap();
    for (i, d) in pmc.days.iter().enumerate() {
        let n = (i + 1) as f64;
        assert!(close(d.ctl, 80.0 * (1.0 - (-n / 42.0).exp()), 1e-9), "day {i}");
        assert!(close(d.atl, 80.0 * (1.0 - (-n / 7.0).exp()), 1e-9), "day {i}");
    }
    // After 42 days fitness is 63 % of the load; the α = 2/43 smoothing would give 86 %.
    assert!(close(pmc.days[41].ctl / 80.0, 1.0 - (-1.0f64).exp(), 1e-9));
    let ema = 1.0 - (41.0f64 / 43.0).powi(42);
    assert!(ema > 0.85 && (pmc.days[41].ctl / 80.0) < 0.64);
}

#[test]
fn pmc_matches_an_independent_recurrence_with_custom_constants_and_seed() {
    // A deterministic pseudo-random year with rest days, computed again here term by term.
    let mut seed: u64 = 42;
    let mut next = || {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as f64 / f64::from(u32::MAX >> 1)
    };
    let start = day("2024-02-20");
    let loads: Vec<_> = (0..400)
        .filter_map(|i| {
            let r = next();
            (r > 0.3).then(|| DailyLoad { date: start + chrono::Days::new(i), load: (r * 180.0).round() })
        })
        .collect();
    let c = PmcConstants {
        ctl_days: 45.0,
        atl_days: 10.0,
        tsb: TsbConvention::SameDay,
        start_ctl: 30.0,
        start_atl: 20.0,
        ..PmcConstants::default()
    };
    let pmc = performance_management(&loads, &c).unwrap();
    let (mut ctl, mut atl) = (30.0f64, 20.0f64);
    let mut ctls = Vec::new();
    for (i, d) in pmc.days.iter().enumerate() {
        let date = start + chrono::Days::new(i as u64);
        let l = loads.iter().find(|x| x.date == date).map_or(0.0, |x| x.load);
        ctl += (l - ctl) * (1.0 - (-1.0f64 / 45.0).exp());
        atl += (l - atl) * (1.0 - (-1.0f64 / 10.0).exp());
        ctls.push(ctl);
        assert_eq!(d.date, date);
        assert_eq!(d.load, l);
        assert!(
            close(d.ctl, ctl, 1e-9) && close(d.atl, atl, 1e-9) && close(d.tsb, ctl - atl, 1e-9),
            "day {i}"
        );
        let ramp = (i >= 7).then(|| ctl - ctls[i - 7]);
        match (d.ramp, ramp) {
            (Some(a), Some(b)) => assert!(close(a, b, 1e-9)),
            (a, b) => assert_eq!(a, b, "day {i}"),
        }
    }
}

#[test]
fn ramp_starts_on_the_eighth_day_and_settling_covers_the_first_42_days() {
    let loads: Vec<_> =
        (0..60).map(|i| DailyLoad { date: day("2026-01-01") + chrono::Days::new(i), load: 50.0 }).collect();
    let pmc = performance_management(&loads, &PmcConstants::default()).unwrap();
    assert!(pmc.days[..7].iter().all(|d| d.ramp.is_none()));
    assert!(close(pmc.days[7].ramp.unwrap(), pmc.days[7].ctl - pmc.days[0].ctl, 1e-12));
    assert!(pmc.days[..42].iter().all(|d| d.settling));
    assert!(pmc.days[42..].iter().all(|d| !d.settling));
}

#[test]
fn several_loads_on_a_day_add_up_in_any_order() {
    let a = performance_management(
        &[load("2026-05-02", 30.0), load("2026-05-01", 40.0), load("2026-05-02", 20.0)],
        &PmcConstants::default(),
    )
    .unwrap();
    assert_eq!(a.days.len(), 2);
    assert_eq!(a.days[1].load, 50.0);
}

#[test]
fn nan_infinite_and_negative_loads_count_as_zero_and_are_reported() {
    let pmc = performance_management(
        &[
            load("2026-05-01", f64::NAN),
            load("2026-05-02", -5.0),
            load("2026-05-03", f64::INFINITY),
            load("2026-05-04", 10.0),
        ],
        &PmcConstants::default(),
    )
    .unwrap();
    assert_eq!(pmc.ignored_loads, 3);
    assert!(pmc.days.iter().all(|d| d.ctl.is_finite() && d.atl.is_finite() && d.tsb.is_finite()));
    assert_eq!(pmc.days[2].ctl, 0.0);
    assert!(pmc.days[3].ctl > 0.0);
}

#[test]
fn until_runs_on_through_rest_days_and_leaves_out_later_loads() {
    let loads = [load("2026-01-01", 100.0), load("2026-02-01", 100.0)];
    let pmc = performance_management_until(&loads, &PmcConstants::default(), day("2026-01-10")).unwrap();
    assert_eq!(pmc.days.len(), 10);
    assert_eq!(pmc.days.last().unwrap().date, day("2026-01-10"));
    assert!(pmc.days[9].ctl < pmc.days[0].ctl, "fitness decays on rest days");
    let longer = performance_management_until(&loads, &PmcConstants::default(), day("2026-03-01")).unwrap();
    assert_eq!(longer.days.len(), 60);
    assert!(
        performance_management_until(&loads, &PmcConstants::default(), day("2025-12-31"))
            .unwrap()
            .days
            .is_empty()
    );
}

#[test]
fn between_and_on_slice_the_series_by_date() {
    let pmc = performance_management(
        &[load("2026-01-01", 10.0), load("2026-01-31", 10.0)],
        &PmcConstants::default(),
    )
    .unwrap();
    let part = pmc.between(day("2026-01-10"), day("2026-01-12"));
    assert_eq!(
        part.iter().map(|d| d.date).collect::<Vec<_>>(),
        [day("2026-01-10"), day("2026-01-11"), day("2026-01-12")]
    );
    assert_eq!(pmc.between(day("2025-12-01"), day("2026-01-02")).len(), 2);
    assert_eq!(pmc.between(day("2026-01-30"), day("2026-06-01")).len(), 2);
    assert!(pmc.between(day("2026-02-01"), day("2026-03-01")).is_empty());
    assert!(pmc.between(day("2026-01-12"), day("2026-01-10")).is_empty());
    assert_eq!(pmc.on(day("2026-01-31")).unwrap().load, 10.0);
    assert!(pmc.on(day("2026-02-01")).is_none());
}

#[test]
fn bad_constants_and_absurd_spans_are_refused_with_a_clear_error() {
    let bad = PmcConstants { ctl_days: f64::NAN, ..PmcConstants::default() };
    let err = performance_management(&[load("2026-01-01", 1.0)], &bad).unwrap_err();
    assert!(err.to_string().contains("ctl_days"), "{err}");
    let bad = PmcConstants { atl_days: 0.0, ..PmcConstants::default() };
    assert!(matches!(
        performance_management(&[], &bad),
        Err(AnalyticsError::InvalidParameter { name: "atl_days", .. })
    ));
    let bad = PmcConstants { start_ctl: -1.0, ..PmcConstants::default() };
    assert!(performance_management(&[], &bad).is_err());
    let err =
        performance_management(&[load("0001-01-01", 1.0), load("2026-01-01", 1.0)], &PmcConstants::default())
            .unwrap_err();
    assert!(matches!(err, AnalyticsError::SpanTooLong { .. }), "{err}");
    assert!(err.to_string().contains("wrong date"), "{err}");
}
