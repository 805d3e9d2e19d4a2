//! The original FIT file of a watch-recorded activity, written from the same plan and samples the
//! web endpoints serve for it, so the Personal API path (which reads laps, series and zone times
//! from this file, docs/garmin-personal-api.md §5) gives the same numbers as the web path
//! (`details`, `splits`, `hrTimeInZones`, the summary). Issue #15: "consistent with the same
//! athlete's web-API data, so both paths give the same numbers".
//!
//! The messages follow what a real watch writes (the fēnix 5 recording in
//! `fixtures/fit/activity_run_fenix5.fit`, decoded with Garmin's FIT SDK): `file_id` (type
//! activity, Garmin, the product and serial of the recording watch), `device_info` (creator), a
//! timer `start` event, one `record` per sample, a `lap` after each lap's records, a timer
//! `stop_all` event, one `session` and the `activity`. `rustyfit` (a maintained FIT encoder, the
//! one `garmin::workout_fit` uses) writes the header, definitions and CRCs.
//!
//! Where each field comes from (scales are the FIT profile's):
//!
//! | FIT field | from | web counterpart |
//! |---|---|---|
//! | `record.timestamp` | activity start (GMT) + sample time, whole seconds | `directTimestamp` |
//! | `record.distance`, `speed`/`enhanced_speed` | the sample (cm, mm/s); no speed in pool swims | `sumDistance`, `directSpeed` (0 in swims) |
//! | `record.heart_rate` | the sample, whole bpm | `directHeartRate` |
//! | `record.cadence` + `fractional_cadence` | runs: steps/min ÷ 2 (strides, as real running files hold it); rides rpm; swims strokes/min | `directRunCadence` etc. |
//! | `record.power` | runs and rides, W | `directPower` |
//! | `record.altitude`/`enhanced_altitude`, positions | runs and rides (0.2 m steps, semicircles) | `directElevation`, `directLatitude/Longitude` |
//! | `record.temperature` | the watch's temperature + 1 °C, whole °C | `directAirTemperature` |
//! | `lap.*` | the plan's lap and the statistics measured over its samples (start, distance, timer time, speeds, HR, cadence, power, ascent, calories share, intensity) | `splits` `lapDTOs` |
//! | `session.*` | the activity's totals (distance, timer, elapsed, moving time, calories, HR, speeds, cadence, power, ascent, training effects, pool length) | the activity summary |
//!
//! What the file lacks that the web has: weather, strength sets, running dynamics, training load and
//! VO2max; the web's time in HR zones is computed from unrounded heart rates, the file holds whole
//! bpm and whole-second timestamps (see the parity test in `garmin-mcp`'s `tests/tools/personal.rs`).

use std::io::Cursor;

use embedded_io_adapters::std::FromStd;
use rustyfit::Encoder;
use rustyfit::profile::mesgdef;
use rustyfit::profile::typedef::{
    self, DateTime, DeviceIndex, DisplayMeasure, Event, EventType, GarminProduct, Intensity, LapTrigger,
    LocalDateTime, Manufacturer, MessageIndex, SessionTrigger, SourceType, SubSport,
};
use rustyfit::proto::{FIT, Message};

use super::activity::{Activity, Lap, Sport, Stats};
use super::series::{self, Sample};

/// The recording watch: a Forerunner 965 (`kit::devices`: part number 006-B**4315**-00, which is
/// FIT's `garmin_product` 4315 `fr965`).
const PRODUCT: GarminProduct = GarminProduct::FR965;
/// Its serial number (`kit::devices`).
const SERIAL: u32 = 3_391_234_567;
/// Its firmware 22.26, in FIT's hundredths.
const SOFTWARE_VERSION: u16 = 2226;

/// A FIT file for `a`, built from its regenerated samples; an error names what the encoder refused.
pub fn original(a: &Activity) -> Result<Vec<u8>, String> {
    let samples = series::samples(a);
    let start = a.start_gmt.and_utc().timestamp();
    let at = |seconds: f64| DateTime::from_unix_timestamp(start + seconds.round() as i64);
    let sport = a.sport();
    let (fit_sport, sub_sport) = fit_sport(sport);

    let mut messages: Vec<Message> = Vec::with_capacity(samples.len() + a.laps.len() + 8);
    let mut file_id = mesgdef::FileId::new();
    file_id.r#type = typedef::File::ACTIVITY;
    file_id.manufacturer = Manufacturer::GARMIN;
    file_id.product = PRODUCT.0;
    file_id.serial_number = SERIAL;
    file_id.time_created = at(0.0);
    messages.push(file_id.into());

    let mut creator = mesgdef::DeviceInfo::new();
    creator.timestamp = at(0.0);
    creator.device_index = DeviceIndex::CREATOR;
    creator.manufacturer = Manufacturer::GARMIN;
    creator.product = PRODUCT.0;
    creator.serial_number = SERIAL;
    creator.software_version = SOFTWARE_VERSION;
    creator.source_type = SourceType::LOCAL;
    messages.push(creator.into());

    messages.push(timer_event(at(0.0), EventType::START));
    let mut next_lap = 0usize;
    for p in &samples {
        // A lap message follows the last record of its lap (as a watch writes it).
        while let Some(lap) = a.laps.get(next_lap).filter(|l| p.t > l.start_s + l.duration_s + 1e-6) {
            messages.push(lap_message(a, next_lap, lap, start).into());
            next_lap += 1;
        }
        messages.push(record(a, p, at(p.t)).into());
    }
    for (i, lap) in a.laps.iter().enumerate().skip(next_lap) {
        messages.push(lap_message(a, i, lap, start).into());
    }
    let stopped = at(a.stats.duration);
    messages.push(timer_event(stopped, EventType::STOP_ALL));

    let end = at(a.elapsed_s);
    let s = &a.stats;
    let mut session = mesgdef::Session::new();
    session.message_index = MessageIndex(0);
    session.timestamp = end;
    session.start_time = at(0.0);
    session.event = Event::SESSION;
    session.event_type = EventType::STOP;
    session.trigger = SessionTrigger::ACTIVITY_END;
    session.sport = fit_sport;
    session.sub_sport = sub_sport;
    session.total_elapsed_time = uint32(a.elapsed_s, 1000.0);
    session.total_timer_time = uint32(s.duration, 1000.0);
    session.total_moving_time = uint32(a.moving_s, 1000.0);
    session.total_calories = uint16(a.calories, 1.0);
    session.first_lap_index = 0;
    session.num_laps = u16::try_from(a.laps.len()).unwrap_or(u16::MAX - 1);
    session.total_training_effect = uint8(a.aerobic_te, 10.0);
    session.total_anaerobic_training_effect = uint8(a.anaerobic_te, 10.0);
    fill_stats(sport, s, &mut Totals::Session(&mut session));
    if sport.has_gps() {
        session.start_position_lat = semicircles(s.start.0);
        session.start_position_long = semicircles(s.start.1);
        session.end_position_lat = semicircles(s.end.0);
        session.end_position_long = semicircles(s.end.1);
    }
    if let Some(pool) = a.pool_m {
        session.pool_length = uint16(pool, 100.0);
        session.pool_length_unit = DisplayMeasure::METRIC;
    }
    session.avg_temperature = sint8(a.temp_c);
    messages.push(session.into());

    let mut activity = mesgdef::Activity::new();
    activity.timestamp = end;
    activity.total_timer_time = uint32(s.duration, 1000.0);
    activity.num_sessions = 1;
    activity.r#type = typedef::Activity::MANUAL;
    activity.event = Event::ACTIVITY;
    activity.event_type = EventType::STOP;
    activity.local_timestamp =
        LocalDateTime::from_unix_timestamp(a.start_local.and_utc().timestamp() + a.elapsed_s.round() as i64);
    messages.push(activity.into());

    let mut fit = FIT { messages, ..FIT::default() };
    let mut cursor = Cursor::new(Vec::new());
    Encoder::new()
        .encode(FromStd::new(&mut cursor), &mut fit)
        .map_err(|e| format!("the FIT encoder refused activity {}: {e}", a.id))?;
    Ok(cursor.into_inner())
}

/// FIT sport and sub-sport of the fake's sports (`Sport::fit_sport` is the same number).
fn fit_sport(sport: Sport) -> (typedef::Sport, SubSport) {
    match sport {
        Sport::Running => (typedef::Sport::RUNNING, SubSport::GENERIC),
        Sport::Cycling => (typedef::Sport::CYCLING, SubSport::GENERIC),
        Sport::Swimming => (typedef::Sport::SWIMMING, SubSport::LAP_SWIMMING),
        Sport::Strength => (typedef::Sport::TRAINING, SubSport::STRENGTH_TRAINING),
    }
}

/// A timer event (`data` 0: started or stopped by hand, as in the real recording).
fn timer_event(at: DateTime, kind: EventType) -> Message {
    let mut e = mesgdef::Event::new();
    e.timestamp = at;
    e.event = Event::TIMER;
    e.event_type = kind;
    e.data = 0;
    e.event_group = 0;
    e.into()
}

/// One sample as a `record` message.
fn record(a: &Activity, p: &Sample, at: DateTime) -> mesgdef::Record {
    let sport = a.sport();
    let mut r = mesgdef::Record::new();
    r.timestamp = at;
    r.heart_rate = uint8(p.hr, 1.0);
    if sport != Sport::Strength {
        r.distance = uint32(p.dist, 100.0);
    }
    // docs/garmin-web-api.md "Sparse answers and real recordings": a pool swim's speed channel is
    // empty; its pace is in the laps.
    if matches!(sport, Sport::Running | Sport::Cycling) {
        r.speed = uint16(p.speed, 1000.0);
        r.enhanced_speed = uint32(p.speed, 1000.0);
        r.altitude = uint16(p.elev + 500.0, 5.0);
        r.enhanced_altitude = uint32(p.elev + 500.0, 5.0);
        r.position_lat = semicircles(p.lat);
        r.position_long = semicircles(p.lon);
        r.power = uint16(p.power, 1.0);
        r.temperature = sint8(a.temp_c + 1.0);
    }
    if p.cadence > 0.0 {
        let (whole, fraction) = cadence(sport, p.cadence);
        r.cadence = whole;
        r.fractional_cadence = fraction;
    }
    r
}

/// Cadence as FIT holds it: `(whole, fraction in 1/128)`. A running file holds strides per minute
/// (the real fēnix 5 run: `cadence` 89 + `fractional_cadence` 0.5 where Garmin Connect shows 179
/// steps/min), so a run's steps per minute are halved.
fn cadence(sport: Sport, per_minute: f64) -> (u8, u8) {
    let value = if sport == Sport::Running { per_minute / 2.0 } else { per_minute };
    let value = value.clamp(0.0, 254.0);
    let whole = value.floor();
    let fraction = ((value - whole) * 128.0).round().min(127.0);
    (whole as u8, fraction as u8)
}

/// A lap's message: the plan's start and length and the statistics the web's `splits` serve.
fn lap_message(a: &Activity, i: usize, lap: &Lap, start: i64) -> mesgdef::Lap {
    let at = |seconds: f64| DateTime::from_unix_timestamp(start + seconds.round() as i64);
    let s = &lap.stats;
    let sport = a.sport();
    let (fit_sport, sub_sport) = fit_sport(sport);
    let mut m = mesgdef::Lap::new();
    m.message_index = MessageIndex(u16::try_from(i).unwrap_or(0));
    m.timestamp = at(lap.start_s + lap.duration_s);
    m.start_time = at(lap.start_s);
    m.event = Event::LAP;
    m.event_type = EventType::STOP;
    m.sport = fit_sport;
    m.sub_sport = sub_sport;
    m.lap_trigger = if i + 1 == a.laps.len() {
        LapTrigger::SESSION_END
    } else if a.workout_id.is_none() && matches!(sport, Sport::Running | Sport::Cycling) {
        LapTrigger::DISTANCE
    } else {
        LapTrigger::MANUAL
    };
    m.intensity = match lap.intensity {
        "WARMUP" => Intensity::WARMUP,
        "COOLDOWN" => Intensity::COOLDOWN,
        "REST" => Intensity::REST,
        "RECOVERY" => Intensity::RECOVERY,
        "INTERVAL" => Intensity::INTERVAL,
        _ => Intensity::ACTIVE,
    };
    if let Some(step) = lap.step_index {
        m.wkt_step_index = MessageIndex(u16::try_from(step).unwrap_or(0));
    }
    m.total_elapsed_time = uint32(s.duration, 1000.0);
    m.total_timer_time = uint32(s.duration, 1000.0);
    // The web's lap calories: the activity's, shared by time (routes/activity_detail.rs `lap_json`).
    m.total_calories = uint16(a.calories * s.duration / a.stats.duration.max(1.0), 1.0);
    fill_stats(sport, s, &mut Totals::Lap(&mut m));
    if sport.has_gps() {
        m.start_position_lat = semicircles(s.start.0);
        m.start_position_long = semicircles(s.start.1);
        m.end_position_lat = semicircles(s.end.0);
        m.end_position_long = semicircles(s.end.1);
    }
    m
}

/// A lap or the session: the figures both carry under the same names.
enum Totals<'a> {
    Lap(&'a mut mesgdef::Lap),
    Session(&'a mut mesgdef::Session),
}

/// The statistics a lap and the session share, scaled as the FIT profile says.
fn fill_stats(sport: Sport, s: &Stats, out: &mut Totals<'_>) {
    let distance = (sport != Sport::Strength).then(|| uint32(s.distance, 100.0));
    let speeds = matches!(sport, Sport::Running | Sport::Cycling | Sport::Swimming)
        .then(|| (uint16(s.avg_speed, 1000.0), uint16(s.max_speed, 1000.0)));
    let enhanced = (uint32(s.avg_speed, 1000.0), uint32(s.max_speed, 1000.0));
    let hr = (uint8(s.avg_hr, 1.0), uint8(s.max_hr, 1.0), uint8(s.min_hr, 1.0));
    let cad = (s.avg_cadence > 0.0).then(|| (cadence(sport, s.avg_cadence), cadence(sport, s.max_cadence)));
    let power =
        (sport.has_gps() && s.avg_power > 0.0).then(|| (uint16(s.avg_power, 1.0), uint16(s.max_power, 1.0)));
    let climb = sport.has_gps().then(|| (uint16(s.elev_gain, 1.0), uint16(s.elev_loss, 1.0)));
    macro_rules! fill {
        ($m:expr) => {{
            let m = $m;
            if let Some(d) = distance {
                m.total_distance = d;
            }
            if let Some((avg, max)) = speeds {
                m.avg_speed = avg;
                m.max_speed = max;
                m.enhanced_avg_speed = enhanced.0;
                m.enhanced_max_speed = enhanced.1;
            }
            (m.avg_heart_rate, m.max_heart_rate, m.min_heart_rate) = hr;
            if let Some(((avg, avg_f), (max, max_f))) = cad {
                (m.avg_cadence, m.avg_fractional_cadence, m.max_cadence, m.max_fractional_cadence) =
                    (avg, avg_f, max, max_f);
            }
            if let Some((avg, max)) = power {
                (m.avg_power, m.max_power) = (avg, max);
            }
            if let Some((up, down)) = climb {
                (m.total_ascent, m.total_descent) = (up, down);
            }
        }};
    }
    match out {
        Totals::Lap(m) => fill!(m),
        Totals::Session(m) => fill!(m),
    }
}

/// Degrees as FIT semicircles (`2^31 / 180` per degree).
fn semicircles(degrees: f64) -> i32 {
    let v = (degrees * (2_147_483_648.0 / 180.0)).round();
    if v.is_finite() && v > f64::from(i32::MIN) && v < f64::from(i32::MAX) { v as i32 } else { i32::MAX }
}

/// `value × scale` rounded into a FIT `uint8`; the invalid marker (`0xFF`) when it does not fit.
fn uint8(value: f64, scale: f64) -> u8 {
    scaled(value, scale, f64::from(u8::MAX)).map_or(u8::MAX, |v| v as u8)
}

/// As [`uint8`] for a `uint16`.
fn uint16(value: f64, scale: f64) -> u16 {
    scaled(value, scale, f64::from(u16::MAX)).map_or(u16::MAX, |v| v as u16)
}

/// As [`uint8`] for a `uint32`.
fn uint32(value: f64, scale: f64) -> u32 {
    scaled(value, scale, f64::from(u32::MAX)).map_or(u32::MAX, |v| v as u32)
}

/// A whole-degree temperature as a FIT `sint8` (invalid `0x7F` when out of range).
fn sint8(value: f64) -> i8 {
    let v = value.round();
    if v.is_finite() && v > -128.0 && v < 127.0 { v as i8 } else { i8::MAX }
}

/// `value × scale` rounded, when it is finite, not negative and below `invalid`.
fn scaled(value: f64, scale: f64, invalid: f64) -> Option<f64> {
    let v = (value * scale).round();
    (v.is_finite() && v >= 0.0 && v < invalid).then_some(v)
}
