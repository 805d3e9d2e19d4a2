//! The whole-activity parts of `get_activity`: the overview figures, time in heart-rate zones,
//! the weather, and the 1–4 sentence summary that ties them together.

use garmin::models::activities::{Activity, ActivityFigures, ActivityWeather, TimeInZone};

use super::answer::{Overview, Splits, WeatherRow, ZoneRow};
use crate::domain::activity::{Family, Speed, activity_title};
use crate::domain::words::whole_u32;

/// A finite value rounded to `decimals`.
pub(super) fn round(value: Option<f64>, decimals: i32) -> Option<f64> {
    let factor = 10f64.powi(decimals);
    value.filter(|v| v.is_finite()).map(|v| (v * factor).round() / factor)
}

/// A positive finite value.
pub(super) fn positive(value: Option<f64>) -> Option<f64> {
    value.filter(|v| v.is_finite() && *v > 0.0)
}

/// `IMPROVING_AEROBIC_BASE_8` → `Improving aerobic base`; `VO2MAX` → `VO2max`.
fn humanize(key: &str) -> Option<String> {
    let trimmed = key.trim().trim_end_matches(|c: char| c.is_ascii_digit()).trim_end_matches('_');
    if trimmed.is_empty() {
        return None;
    }
    let text = trimmed.to_lowercase().replace('_', " ").replace("vo2max", "VO2max");
    let mut chars = text.chars();
    let first = chars.next()?;
    Some(first.to_uppercase().chain(chars).collect())
}

pub(super) fn overview(f: &ActivityFigures, family: Family) -> Overview {
    let meters = positive(f.distance);
    let seconds = f.duration.or(f.elapsed_duration).unwrap_or(0.0);
    let speed = match meters {
        Some(m) if family.has_distance() => Speed::of(family, m, seconds),
        _ => Speed::default(),
    };
    let running = family == Family::Run;
    Overview {
        distance_km: meters.map(display::km),
        duration: display::duration(seconds),
        elapsed: positive(f.elapsed_duration).map(display::duration),
        moving: positive(f.moving_duration).map(display::duration),
        speed,
        grade_adjusted_pace_per_km: if running {
            positive(f.avg_grade_adjusted_speed).and_then(display::pace_per_km)
        } else {
            None
        },
        max_speed_kmh: if family == Family::Ride { positive(f.max_speed).map(display::kmh) } else { None },
        avg_hr_bpm: whole_u32(positive(f.average_hr)),
        max_hr_bpm: whole_u32(positive(f.max_hr)),
        cadence_spm: if running { whole_u32(positive(f.average_run_cadence)) } else { None },
        cadence_rpm: if family == Family::Ride { whole_u32(positive(f.average_bike_cadence)) } else { None },
        stride_length_m: round(positive(f.stride_length).map(|cm| cm / 100.0), 2),
        ground_contact_time_ms: whole_u32(positive(f.ground_contact_time)),
        vertical_oscillation_cm: round(positive(f.vertical_oscillation), 1),
        vertical_ratio_pct: round(positive(f.vertical_ratio), 1),
        avg_power_w: whole_u32(positive(f.average_power)),
        max_power_w: whole_u32(positive(f.max_power)),
        normalized_power_w: whole_u32(positive(f.normalized_power)),
        aerobic_training_effect: round(f.training_effect, 1),
        anaerobic_training_effect: round(f.anaerobic_training_effect, 1),
        training_effect_label: f.training_effect_label.as_deref().and_then(humanize),
        aerobic_effect_message: f.aerobic_training_effect_message.as_deref().and_then(humanize),
        training_load: whole_u32(f.activity_training_load),
        elevation_gain_m: whole_u32(f.elevation_gain),
        elevation_loss_m: whole_u32(f.elevation_loss),
        calories_kcal: whole_u32(f.calories),
        watch_temperature_c: round(f.average_temperature, 1),
        body_battery_change: f
            .difference_body_battery
            .filter(|v| v.is_finite())
            .map(|v| v.round().clamp(-100.0, 100.0) as i32),
    }
}

pub(super) fn zone_rows(zones: &[TimeInZone]) -> Vec<ZoneRow> {
    let total: f64 = zones.iter().filter_map(|z| positive(z.secs_in_zone)).sum();
    if total <= 0.0 {
        return Vec::new();
    }
    zones
        .iter()
        .filter_map(|z| {
            let zone = u32::try_from(z.zone_number?).ok()?;
            let secs = positive(z.secs_in_zone).unwrap_or(0.0);
            Some(ZoneRow {
                zone,
                from_bpm: whole_u32(positive(z.zone_low_boundary)),
                minutes: (secs / 6.0).round() / 10.0,
                percent: (secs / total * 1000.0).round() / 10.0,
            })
        })
        .collect()
}

/// Garmin's wind speed is in mph (as its web app shows it).
const KMH_PER_MPH: f64 = 1.609_344;

pub(super) fn weather_row(w: &ActivityWeather) -> Option<WeatherRow> {
    let celsius = |f: Option<f64>| round(f.map(garmin::models::units::celsius_from_fahrenheit), 1);
    let row = WeatherRow {
        temp_c: celsius(w.temp),
        feels_like_c: celsius(w.apparent_temp),
        humidity_pct: whole_u32(w.relative_humidity),
        wind_kmh: whole_u32(w.wind_speed.map(|s| s * KMH_PER_MPH)),
        wind_gust_kmh: whole_u32(positive(w.wind_gust).map(|s| s * KMH_PER_MPH)),
        wind_from: w
            .wind_direction_compass_point
            .as_ref()
            .map(|c| c.to_uppercase())
            .filter(|c| !c.is_empty()),
        condition: w.weather_type.as_ref().and_then(|t| t.desc.clone()).filter(|d| !d.is_empty()),
    };
    let empty = row.temp_c.is_none()
        && row.humidity_pct.is_none()
        && row.wind_kmh.is_none()
        && row.condition.is_none();
    (!empty).then_some(row)
}

/// The 1–4 sentence summary of one activity.
pub(super) fn describe(
    activity: &Activity,
    o: &Overview,
    splits: Option<&Splits>,
    zones: &[ZoneRow],
    weather: Option<&WeatherRow>,
) -> String {
    let mut text = headline(activity, o);
    if let Some(sentence) = splits.and_then(steadiness_sentence) {
        text.push_str(&sentence);
    }
    if let Some(top) = zones.iter().max_by(|a, b| a.percent.total_cmp(&b.percent)) {
        text.push_str(&format!(" Most time in HR zone {} ({} %).", top.zone, top.percent.round()));
    }
    if let Some(sentence) = weather.and_then(weather_sentence) {
        text.push_str(&sentence);
    }
    text
}

/// The first sentence: name, day and sport, distance and time, pace or speed, heart rate,
/// training load and effect.
fn headline(activity: &Activity, o: &Overview) -> String {
    let name = activity_title(
        activity.activity_name.as_deref(),
        activity.type_key(),
        activity.location_name.as_deref(),
    );
    let date = activity
        .summary
        .as_ref()
        .and_then(|s| s.start_time_local)
        .map(|t| t.format("%Y-%m-%d").to_string())
        .unwrap_or_default();
    let kind = activity.type_key().unwrap_or("activity").replace('_', " ");
    let mut text = format!("“{name}” on {date} ({kind}): ");
    match o.distance_km {
        Some(km) => text.push_str(&format!("{km:.2} km in {}", o.duration)),
        None => text.push_str(&o.duration),
    }
    if let Some(speed) = o.speed.text() {
        text.push_str(&format!(" at {speed}"));
    }
    if let Some(hr) = o.avg_hr_bpm {
        text.push_str(&format!(", avg HR {hr} bpm"));
        if let Some(max) = o.max_hr_bpm {
            text.push_str(&format!(" (max {max})"));
        }
    }
    if let Some(load) = o.training_load {
        text.push_str(&format!(", training load {load}"));
    }
    if let Some(te) = o.aerobic_training_effect {
        text.push_str(&format!(", aerobic TE {te:.1}"));
        if let Some(label) = &o.training_effect_label {
            text.push_str(&format!(" ({label})"));
        }
    }
    text.push('.');
    text
}

/// How steady the pace was (with a negative or positive split), when the splits say.
fn steadiness_sentence(splits: &Splits) -> Option<String> {
    let s = splits.steadiness.as_ref()?;
    let what = if splits.unit == "lap" || splits.unit.ends_with("laps") { "Lap pace" } else { "Pace" };
    let mut text = format!(
        " {what} was {}: {} % variation over {} (fastest {}, slowest {})",
        s.verdict, s.variation_pct, s.basis, s.fastest, s.slowest
    );
    match s.second_half_vs_first_s_per_km {
        Some(d) if d < 0 => text.push_str(&format!("; negative split, second half {} s/km faster", -d)),
        Some(d) if d > 0 => text.push_str(&format!("; second half {d} s/km slower")),
        _ => {}
    }
    text.push('.');
    Some(text)
}

/// The weather in a few words, when any is known.
fn weather_sentence(w: &WeatherRow) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(t) = w.temp_c {
        parts.push(format!("{t:.0} °C"));
    }
    if let Some(c) = &w.condition {
        parts.push(c.to_lowercase());
    }
    if let Some(h) = w.humidity_pct {
        parts.push(format!("{h} % humidity"));
    }
    if let Some(k) = w.wind_kmh.filter(|k| *k > 0) {
        parts.push(format!("wind {k} km/h"));
    }
    (!parts.is_empty()).then(|| format!(" Weather: {}.", parts.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn garmin_keys_read_as_words() {
        assert_eq!(humanize("IMPROVING_AEROBIC_BASE_8").as_deref(), Some("Improving aerobic base"));
        assert_eq!(humanize("VO2MAX").as_deref(), Some("VO2max"));
        assert_eq!(humanize("LACTATE_THRESHOLD").as_deref(), Some("Lactate threshold"));
    }
}
