//! Run: `cargo test -p analytics --test analytics load::`.
//!
//! Golden tests of the per-session loads (power TSS, hrTSS from TRIMP, Garmin's load) and of the
//! daily series that never mixes Garmin's scale with TSS.

use analytics::AnalyticsError;
use analytics::load::{
    HrBin, HrProfile, LoadChoice, LoadKind, LoadScale, SessionLoads, Sex, daily_loads, garmin_load,
    hr_bins_from_zones, hr_histogram, hr_load, normalized_power, power_load, power_load_from_np,
};
use chrono::NaiveDate;

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

fn day(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
}

#[test]
fn steady_power_has_np_equal_to_its_mean_and_an_hour_at_ftp_is_100_tss() {
    let hour = vec![250.0; 3600];
    let at_ftp = power_load(&hour, 250.0).unwrap();
    assert!(close(at_ftp.normalized_watts, 250.0, 1e-9));
    assert!(close(at_ftp.intensity_factor, 1.0, 1e-12));
    assert!(close(at_ftp.tss, 100.0, 1e-9));
    // 200 W for an hour at FTP 250: IF 0.8, TSS = 3600·200·0.8/(250·3600)·100 = 64.
    let easy = power_load(&vec![200.0; 3600], 250.0).unwrap();
    assert!(close(easy.intensity_factor, 0.8, 1e-12) && close(easy.tss, 64.0, 1e-9), "{easy:?}");
    assert!(easy.convention.contains("Coggan"));
}

#[test]
fn normalized_power_of_a_step_matches_the_hand_computed_rolling_fourth_power_mean() {
    // 30 s at 0 W then 30 s at 300 W: the 31 rolling means are 10·j W, j = 0..30, so
    // NP = 10·(Σ j⁴ / 31)^(1/4) = 10·(61·2789)^(1/4) = 203.0928 W; the mean is 150 W.
    let mut watts = vec![0.0; 30];
    watts.extend(std::iter::repeat_n(300.0, 30));
    assert!(close(normalized_power(&watts).unwrap(), 203.092_83, 1e-4));
    let load = power_load(&watts, 200.0).unwrap();
    assert_eq!(load.average_watts, Some(150.0));
    assert_eq!(load.seconds, 60.0);
}

#[test]
fn power_with_fewer_than_30_samples_or_a_bad_ftp_is_refused_clearly() {
    assert_eq!(normalized_power(&[200.0; 29]), None);
    assert_eq!(normalized_power(&[]), None);
    let err = power_load(&[200.0; 10], 250.0).unwrap_err();
    assert!(matches!(err, AnalyticsError::NotEnoughData(_)) && err.to_string().contains("30"), "{err}");
    for ftp in [0.0, -250.0, f64::NAN, f64::INFINITY] {
        let err = power_load(&[200.0; 60], ftp).unwrap_err();
        assert!(err.to_string().contains("ftp_watts"), "{err}");
    }
    assert!(power_load_from_np(-1.0, 200.0, 250.0).is_err());
    assert!(power_load_from_np(3600.0, f64::NAN, 250.0).is_err());
}

#[test]
fn nan_and_negative_power_samples_count_as_zero_watts() {
    let mut watts = vec![f64::NAN; 30];
    watts.extend([-100.0; 30]);
    assert_eq!(normalized_power(&watts), Some(0.0));
    let load = power_load(&watts, 250.0).unwrap();
    assert_eq!(load.tss, 0.0);
}

#[test]
fn np_from_garmin_gives_the_same_tss_as_the_series() {
    let a = power_load_from_np(5400.0, 220.0, 275.0).unwrap();
    // 5400·220·0.8/(275·3600)·100 = 96.
    assert!(close(a.tss, 96.0, 1e-9), "{a:?}");
    assert_eq!(a.average_watts, None);
}

fn male() -> HrProfile {
    HrProfile { resting_bpm: 50.0, max_bpm: 190.0, threshold_bpm: 170.0, sex: Sex::Male }
}

#[test]
fn trimp_of_an_hour_at_half_reserve_matches_the_hand_computed_value() {
    // HRr = (120 − 50)/(190 − 50) = 0.5; TRIMP = 60·0.5·0.64·e^(1.92·0.5) = 50.14457.
    // Threshold hour: HRr = 120/140; 60·(6/7)·0.64·e^(1.92·6/7) = 170.65109; hrTSS = 29.38427.
    let load = hr_load(&[HrBin { bpm: 120.0, seconds: 3600.0 }], &male()).unwrap();
    assert!(close(load.trimp, 50.144_57, 1e-4), "{load:?}");
    assert!(close(load.threshold_hour_trimp, 170.651_09, 1e-4), "{load:?}");
    assert!(close(load.hr_tss, 29.384_27, 1e-4), "{load:?}");
    assert!(close(load.minutes, 60.0, 1e-12));
    assert!(load.convention.contains("Morton"));
}

#[test]
fn an_hour_at_threshold_heart_rate_is_100_hr_tss_for_every_sex() {
    for sex in [Sex::Male, Sex::Female, Sex::Unknown] {
        let profile = HrProfile { sex, ..male() };
        let bins = [HrBin { bpm: 170.0, seconds: 1800.0 }, HrBin { bpm: 170.0, seconds: 1800.0 }];
        assert!(close(hr_load(&bins, &profile).unwrap().hr_tss, 100.0, 1e-9), "{sex:?}");
    }
    assert_eq!(Sex::Female.coefficients(), (0.821_776, 1.67));
    assert_eq!(Sex::Unknown.coefficients(), (0.725_215, 1.795));
}

#[test]
fn heart_rates_outside_rest_to_max_are_clamped_and_bad_bins_skipped() {
    let p = male();
    assert_eq!(p.reserve_fraction(40.0), 0.0);
    assert_eq!(p.reserve_fraction(230.0), 1.0);
    let above = hr_load(&[HrBin { bpm: 230.0, seconds: 60.0 }], &p).unwrap();
    let at_max = hr_load(&[HrBin { bpm: 190.0, seconds: 60.0 }], &p).unwrap();
    assert!(close(above.trimp, at_max.trimp, 1e-12));
    let skipped = hr_load(
        &[
            HrBin { bpm: f64::NAN, seconds: 60.0 },
            HrBin { bpm: 150.0, seconds: -60.0 },
            HrBin { bpm: 150.0, seconds: f64::INFINITY },
        ],
        &p,
    )
    .unwrap();
    assert_eq!((skipped.trimp, skipped.minutes, skipped.hr_tss), (0.0, 0.0, 0.0));
    assert_eq!(hr_load(&[], &p).unwrap().hr_tss, 0.0);
}

#[test]
fn an_impossible_heart_rate_profile_is_refused_with_the_field_named() {
    let cases = [
        (HrProfile { max_bpm: 45.0, ..male() }, "max_bpm"),
        (HrProfile { threshold_bpm: 195.0, ..male() }, "threshold_bpm"),
        (HrProfile { threshold_bpm: 40.0, ..male() }, "threshold_bpm"),
        (HrProfile { resting_bpm: f64::NAN, ..male() }, "resting_bpm"),
    ];
    for (profile, field) in cases {
        let err = hr_load(&[HrBin { bpm: 120.0, seconds: 60.0 }], &profile).unwrap_err();
        assert!(err.to_string().contains(field), "{err}");
    }
}

#[test]
fn histogram_and_zone_bins_feed_trimp() {
    let bins = hr_histogram(&[120.0, 120.4, 121.0, f64::NAN, -3.0, 0.0]);
    assert_eq!(bins, [HrBin { bpm: 120.0, seconds: 2.0 }, HrBin { bpm: 121.0, seconds: 1.0 }]);
    // Zones with floors 100/120/140/160/175 and max 190: midpoints 110, 130, 150, 167.5, 182.5.
    let zones = hr_bins_from_zones(
        &[(160.0, 240.0), (100.0, 60.0), (175.0, 300.0), (120.0, 120.0), (140.0, 180.0)],
        190.0,
    );
    let mids: Vec<(f64, f64)> = zones.iter().map(|b| (b.bpm, b.seconds)).collect();
    assert_eq!(mids, [(110.0, 60.0), (130.0, 120.0), (150.0, 180.0), (167.5, 240.0), (182.5, 300.0)]);
    assert!(hr_bins_from_zones(&[], 190.0).is_empty());
    assert_eq!(hr_bins_from_zones(&[(f64::NAN, 60.0), (-5.0, 1.0)], 190.0), []);
}

#[test]
fn garmins_out_of_order_time_in_zones_gives_trimp_per_zone_midpoint() {
    // The recorded body lists zone 3 first (docs/garmin-web-api.md §4.3; the fake's fixture).
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../sidecar/fake-garmin/fixtures/garmin/activity_hr_time_in_zones.json"
    );
    let body: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let zones: Vec<(f64, f64)> = body
        .as_array()
        .unwrap()
        .iter()
        .map(|z| (z["zoneLowBoundary"].as_f64().unwrap(), z["secsInZone"].as_f64().unwrap()))
        .collect();
    assert_eq!(zones[0].0, 148.0, "the fixture starts with zone 3");
    let bins = hr_bins_from_zones(&zones, 195.0);
    let got: Vec<(f64, f64)> = bins.iter().map(|b| (b.bpm, b.seconds)).collect();
    assert_eq!(got, [(119.0, 2462.848), (143.0, 1689.269), (158.0, 567.662), (175.0, 0.0), (188.5, 0.0)]);
    let load = hr_load(
        &bins,
        &HrProfile { resting_bpm: 50.0, max_bpm: 195.0, threshold_bpm: 170.0, sex: Sex::Male },
    )
    .unwrap();
    // Hand check of the first zone: 2462.848 s at 119 bpm, HRr = 69/145.
    let hrr: f64 = 69.0 / 145.0;
    let z1 = 2462.848 / 60.0 * hrr * 0.64 * (1.92 * hrr).exp();
    assert!(
        load.trimp > z1
            && load.hr_tss > 0.0
            && close(load.minutes, (2462.848 + 1689.269 + 567.662) / 60.0, 1e-9)
    );
}

fn session(date: &str, power: Option<f64>, hr: Option<f64>, garmin: Option<f64>) -> SessionLoads {
    SessionLoads { date: day(date), power_tss: power, hr_tss: hr, garmin }
}

#[test]
fn best_available_prefers_power_then_heart_rate_then_garmin() {
    let s = session("2026-01-01", Some(80.0), Some(70.0), Some(120.0));
    assert_eq!(s.best_available().unwrap().kind, LoadKind::Power);
    let s = session("2026-01-01", None, Some(70.0), Some(120.0));
    assert_eq!(s.best_available().unwrap().kind, LoadKind::HeartRate);
    let s = session("2026-01-01", Some(f64::NAN), None, Some(120.0));
    assert_eq!(s.best_available().unwrap().value, 120.0);
    assert_eq!(session("2026-01-01", None, None, Some(-1.0)).best_available(), None);
    assert_eq!(garmin_load(f64::NAN), None);
    assert_eq!(garmin_load(88.0).unwrap().kind.scale(), LoadScale::Garmin);
    assert_eq!(LoadKind::HeartRate.label(), "hrTSS (heart rate)");
}

#[test]
fn auto_daily_loads_stay_on_the_tss_scale_and_say_what_was_left_out() {
    let sessions = [
        session("2026-01-02", Some(80.0), Some(70.0), Some(150.0)),
        session("2026-01-02", None, Some(40.0), Some(60.0)),
        session("2026-01-01", None, None, Some(99.0)),
    ];
    let series = daily_loads(&sessions, LoadChoice::Auto);
    assert_eq!(series.scale, Some(LoadScale::Tss));
    assert_eq!(series.days.len(), 1);
    assert_eq!((series.days[0].date, series.days[0].load), (day("2026-01-02"), 120.0));
    assert_eq!((series.sessions.power, series.sessions.heart_rate, series.sessions.garmin), (1, 1, 0));
    assert_eq!(series.sessions_without_load, 1);
    assert!(series.convention.contains("1 session(s) without a load"), "{}", series.convention);
}

#[test]
fn auto_falls_back_to_garmin_load_only_when_no_session_has_tss() {
    let sessions =
        [session("2026-01-01", None, None, Some(99.0)), session("2026-01-03", None, None, Some(51.0))];
    let series = daily_loads(&sessions, LoadChoice::Auto);
    assert_eq!(series.scale, Some(LoadScale::Garmin));
    assert_eq!(series.days.iter().map(|d| d.load).collect::<Vec<_>>(), [99.0, 51.0]);
    assert!(series.convention.contains("not TSS"), "{}", series.convention);
}

#[test]
fn an_explicit_kind_counts_only_that_kind() {
    let sessions = [
        session("2026-01-01", Some(80.0), Some(70.0), Some(150.0)),
        session("2026-01-02", None, Some(40.0), None),
    ];
    let hr = daily_loads(&sessions, LoadChoice::HeartRate);
    assert_eq!(hr.days.iter().map(|d| d.load).collect::<Vec<_>>(), [70.0, 40.0]);
    let power = daily_loads(&sessions, LoadChoice::Power);
    assert_eq!((power.days.len(), power.sessions_without_load), (1, 1));
    let garmin = daily_loads(&sessions, LoadChoice::Garmin);
    assert_eq!(garmin.days[0].load, 150.0);
    let none = daily_loads(&[], LoadChoice::Auto);
    assert_eq!((none.scale, none.days.len()), (None, 0));
}
