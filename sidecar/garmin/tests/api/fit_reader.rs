//! Run: `cargo test -p garmin --test api fit_reader::`.
//!
//! The one FIT reader (`garmin::fit_series`, decoding with rustyfit) against an independent decoder,
//! `fitparser`: the two real recordings of the fake's fixtures (the fēnix 5 run and garth's yoga
//! session) and the fake's generated original of the newest session of each kind (easy, long,
//! intervals, tempo, race, ride, swim, strength) must agree sample for sample (time, distance,
//! speed, heart rate, power, cadence, altitude), lap for lap and on the session's totals.

use fake_garmin::FakeConfig;
use fake_garmin::data::activity::{Activity, Origin};
use fitparser::FitDataRecord;
use fitparser::profile::MesgNum;
use garmin::fit_series::{self, FitSeries};

use super::support::today;

const FENIX5_RUN: &[u8] = include_bytes!("../../../fake-garmin/fixtures/fit/activity_run_fenix5.fit");
const GARTH_YOGA: &[u8] = include_bytes!("../../../fake-garmin/fixtures/fit/activity_yoga_garth.fit");

/// The first of `names` the fitparser message carries, as a number (scaled by fitparser;
/// timestamps in Unix seconds).
fn num(m: &FitDataRecord, names: &[&str]) -> Option<f64> {
    names.iter().find_map(|name| {
        let field = m.fields().iter().find(|f| f.name() == *name)?;
        field.value().clone().try_into().ok()
    })
}

/// A field of the fitparser message as text (enum names).
fn text(m: &FitDataRecord, name: &str) -> Option<String> {
    m.fields().iter().find(|f| f.name() == name).map(|f| f.value().to_string())
}

/// Both readers give the same number, or both none.
fn same(what: &str, ours: Option<f64>, fitparser: Option<f64>) {
    match (ours, fitparser) {
        (Some(a), Some(b)) if (a - b).abs() < 1e-9 => {}
        (None, None) => {}
        _ => panic!("{what}: fit_series {ours:?} vs fitparser {fitparser:?}"),
    }
}

/// Reads `bytes` with both decoders and compares what `fit_series` exposes. The reader's own rules
/// are restated on fitparser's values: 0 bpm or 0 cadence is "not measured", running cadence is
/// strides + fraction doubled to steps, enhanced speed and altitude are preferred.
fn agree(name: &str, bytes: &[u8]) -> FitSeries {
    let ours = fit_series::read(bytes).unwrap_or_else(|e| panic!("{name}: fit_series: {e}"));
    let theirs = fitparser::from_bytes(bytes).unwrap_or_else(|e| panic!("{name}: fitparser: {e}"));
    let of = |kind: MesgNum| theirs.iter().filter(move |m| m.kind() == kind).collect::<Vec<_>>();
    let session = of(MesgNum::Session);
    let session = session.last().unwrap_or_else(|| panic!("{name}: no session"));
    let steps = if text(session, "sport").as_deref() == Some("running") { 2.0 } else { 1.0 };

    let records: Vec<_> =
        of(MesgNum::Record).into_iter().filter(|r| num(r, &["timestamp"]).is_some()).collect();
    assert_eq!(ours.samples.len(), records.len(), "{name}: samples vs records");
    assert_eq!((ours.cadence.len(), ours.altitude.len()), (records.len(), records.len()), "{name}");
    let t0 = num(records[0], &["timestamp"]);
    for (i, (r, s)) in records.iter().zip(&ours.samples).enumerate() {
        let at = |what: &str| format!("{name} record {i} {what}");
        same(&at("time"), Some(s.elapsed_s), num(r, &["timestamp"]).zip(t0).map(|(t, t0)| t - t0));
        same(&at("distance"), s.distance_m, num(r, &["distance"]));
        same(&at("speed"), s.speed_mps, num(r, &["enhanced_speed", "speed"]));
        same(&at("heart rate"), s.heart_rate, num(r, &["heart_rate"]).filter(|h| *h > 0.0));
        same(&at("power"), s.power_w, num(r, &["power"]));
        let fraction = num(r, &["fractional_cadence"]).unwrap_or(0.0);
        let cadence = num(r, &["cadence"]).filter(|c| *c > 0.0).map(|c| (c + fraction) * steps);
        same(&at("cadence"), ours.cadence[i], cadence);
        same(&at("altitude"), ours.altitude[i], num(r, &["enhanced_altitude", "altitude"]));
    }

    let laps = of(MesgNum::Lap);
    assert_eq!(ours.laps.len(), laps.len(), "{name}: laps");
    for (i, (l, m)) in ours.laps.iter().zip(&laps).enumerate() {
        let at = |what: &str| format!("{name} lap {i} {what}");
        assert_eq!(l.lap_index, Some(i as i64 + 1), "{}", at("index"));
        same(&at("start"), l.start_time_gmt.map(|t| t.timestamp() as f64), num(m, &["start_time"]));
        same(&at("distance"), l.distance, num(m, &["total_distance"]));
        same(&at("timer time"), l.duration, num(m, &["total_timer_time"]));
        same(&at("elapsed time"), l.elapsed_duration, num(m, &["total_elapsed_time"]));
        same(&at("ascent"), l.elevation_gain, num(m, &["total_ascent"]));
        same(&at("descent"), l.elevation_loss, num(m, &["total_descent"]));
        same(&at("average speed"), l.average_speed, num(m, &["enhanced_avg_speed", "avg_speed"]));
        same(&at("max speed"), l.max_speed, num(m, &["enhanced_max_speed", "max_speed"]));
        same(&at("average hr"), l.average_hr, num(m, &["avg_heart_rate"]).filter(|h| *h > 0.0));
        same(&at("max hr"), l.max_hr, num(m, &["max_heart_rate"]).filter(|h| *h > 0.0));
        same(&at("average power"), l.average_power, num(m, &["avg_power"]));
        same(&at("calories"), l.calories, num(m, &["total_calories"]));
        assert_eq!(l.intensity_type, text(m, "intensity").map(|s| s.to_uppercase()), "{}", at("intensity"));
    }

    same(
        &format!("{name} total distance"),
        ours.distance_m,
        num(session, &["total_distance"]).filter(|d| *d > 0.0),
    );
    same(
        &format!("{name} timer time"),
        ours.timer_s,
        num(session, &["total_timer_time"]).filter(|d| *d > 0.0),
    );
    same(&format!("{name} average hr"), ours.avg_hr, num(session, &["avg_heart_rate"]).filter(|h| *h > 0.0));
    // Not a vacuous agreement: each file has heart rate in its samples.
    assert!(ours.samples.iter().any(|s| s.heart_rate.is_some()), "{name}: no heart rate");
    ours
}

#[test]
fn the_fit_reader_and_fitparser_agree_on_the_real_recordings_and_every_kind_of_fake_original() {
    assert_eq!(agree("fēnix 5 run", FENIX5_RUN).laps.len(), 1, "the run's one lap");
    assert!(agree("garth yoga", GARTH_YOGA).laps.is_empty(), "the yoga session has no lap messages");

    let data = fake_garmin::data::generate(&FakeConfig { today: today(), ..FakeConfig::default() });
    let mut newest: Vec<&Activity> = Vec::new();
    for a in data.live().rev().filter(|a| a.origin == Origin::Device) {
        if !newest.iter().any(|n| n.kind == a.kind) {
            newest.push(a);
        }
    }
    assert_eq!(
        newest.len(),
        8,
        "one session of each kind: {:?}",
        newest.iter().map(|a| a.kind).collect::<Vec<_>>()
    );
    for a in newest {
        let bytes = fake_garmin::data::fit::original(a).unwrap();
        let name = format!("fake {:?} {}", a.kind, a.id);
        assert!(!agree(&name, &bytes).laps.is_empty(), "{name}: no laps");
    }
}
